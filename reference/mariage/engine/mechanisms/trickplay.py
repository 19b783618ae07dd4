"""Trick play and duties: which cards may be played, who wins a trick, drawing.

Runs the play duties of each phase (follow, head, trump or beat when void,
each always or against an opponent), the first-lead preference, the winner
of a trick and the draw from the stock after it.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("mariglia"), first_dealer=0)
>>> state.deal(canonical_deck(state.rules))
>>> tricks = state.mech.tricks
>>> tricks.legal_plays(state, state.to_act) == state.hands[state.to_act]
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from mariage.errors import IllegalActionError

from ..actions import Action, Play
from ..phase import PLAY, WAITING_FOR, WINDOW
from ..rules import Obligation, When
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState
    from . import Mechanisms

#: the slots the opening of a trick writes (:meth:`TrickPlay.start_trick` and the code
#: :func:`start_lines` writes): what an action that opens a trick declares for undo
#: (:attr:`~mariage.engine.mechanisms.base.Mechanism.trail_actions`)
START_WRITES = ("leader", "trick_no", "trick_seats", "trick_cards", "trump_set_in_trick",
                "lead_mask", "trump", "trump_next", "decl_this_trick", "to_act", "_free_play",
                "_decl_open", "phase", "window_left")

__all__ = ["START_WRITES", "TrickPlay", "start_lines"]

#: the steps of a card and its trick's end that generated code runs instead
#: (:func:`mariage.engine.fastpath.play_apply`, and its undo trail): a subclass that
#: overrides one of them gets its own apply_play, and whole snapshots when undo is on
TRAILED_METHODS = ("apply_play", "finish_trick", "winner_index", "draw", "start_trick")

_W_NEVER, _W_ALWAYS = When.NEVER, When.ALWAYS


class TrickPlay(Mechanism):
    """Card play: legal cards, playing one, finishing a trick and starting the next."""

    __slots__ = ()
    name: ClassVar[str] = "trick play and duties"
    sections: ClassVar[tuple[str, ...]] = ("play", "trick", "draw", "lead.first_card",
                                           "lead.foreign_trump", "core.hand")
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Play, "apply_play"),)
    steps: ClassVar[tuple[str, ...]] = ("start_trick", "first_trick_lines", "draw", "apply_play")

    def all_actions(self, rules: Rules) -> list[Action]:
        """A play of each card."""
        return list(rules.play_actions)

    # ------------------------------------------------------------ queries
    def winner_index(self, st: GameState) -> int:
        """Index in the trick of the card now winning it (the trick must not be empty)."""
        r = st.rules
        cards = st.trick_cards
        trump = st.trump
        suit_of, strength = r.suit_of, st._strength
        bc = cards[0]
        best, best_suit, best_strength = 0, suit_of[bc], strength[bc]
        for i in range(1, len(cards)):
            c = cards[i]
            suit = suit_of[c]
            if suit == best_suit:
                if strength[c] > best_strength:
                    best, best_strength = i, strength[c]
            elif suit == trump:
                best, best_suit, best_strength = i, suit, strength[c]
        return best

    def opponent_winning(self, st: GameState, seat: int, winner_index: int) -> bool:
        """True if the card at ``winner_index`` was played by an opponent of ``seat``."""
        team_of = st.rules.team_of
        return team_of[st.trick_seats[winner_index]] != team_of[seat]

    def legal_plays(self, st: GameState, seat: int) -> int:
        """The bit mask of cards ``seat`` may play now (ignores whose turn it is)."""
        hand = st.hands[seat]
        if st._free_play:
            return hand
        forced = st.forced[seat]
        if forced >= 0:
            return 1 << forced
        r = st.rules
        if not st.trick_cards:
            if st.lead_mask:  # a declared card must be led
                return hand & st.lead_mask
            if st.trick_no == 1 and r.first_card_prefs:
                for pref in r.first_card_prefs:
                    if hand & pref:
                        return hand & pref
            if r.foreign_trump_rule is not None or r.decl_auto_rule is not None:
                return self.lead_limits(st, seat, hand)
            return hand
        ob = st._ob_stock if st.trick_no <= st.draw_tricks else st._ob_no_stock
        assert ob is not None
        if not ob.follow:
            return hand
        led = r.suit_of[st.trick_cards[0]]
        in_suit = hand & r.suit_mask[led]
        if in_suit:
            if st.trick_no == 1 and r.first_trick_rank >= 0:
                top = in_suit & r.rank_mask[r.first_trick_rank]
                if top:  # the holder of that card of the suit led must play it
                    return top
            if ob.head is not _W_NEVER and (ob.head_suits == "all" or led == st.trump):
                w = self.winner_index(st)
                if ob.head is _W_ALWAYS or self.opponent_winning(st, seat, w):
                    wc = st.trick_cards[w]
                    if ob.head_beat == "suit_best" and r.suit_of[wc] != led:
                        # the duty is to beat the best card of the suit led
                        wc = max((c for c in st.trick_cards if r.suit_of[c] == led),
                                 key=st._strength.__getitem__)
                    if r.suit_of[wc] == led:
                        higher = in_suit & st._higher[wc]
                        if higher:
                            return higher
            return in_suit
        trump = st.trump
        if ob.void_duty != "none" and trump >= 0:
            trumps = hand & r.suit_mask[trump]
            if trumps:
                w = self.winner_index(st)
                if ob.void_when is _W_ALWAYS or self.opponent_winning(st, seat, w):
                    if ob.last_seat_free:
                        last = self.last_seat_plays(st, seat, hand, trumps, w)
                        if last:
                            return last
                    if ob.void_duty == "trump":
                        return trumps
                    wc = st.trick_cards[w]
                    beating = trumps & st._higher[wc] if r.suit_of[wc] == trump else trumps
                    if beating:  # any trump where one can win, if the duty allows
                        return trumps if ob.void_any_trump else beating
                    if ob.void_duty == "overtrump":  # no trump can win: still a trump
                        return trumps
                    if ob.void_duty == "beat_or_discard" and hand != trumps:
                        return hand ^ trumps  # no lower trump while a plain card is held
                elif ob.void_partner != "free":
                    return self.partner_winning_plays(st, ob, hand, trumps, w)
        return hand

    def partner_winning_plays(self, st: GameState, ob: Obligation, hand: int, trumps: int,
                              w: int) -> int:
        """What a seat void in the suit led may play while his partner wins the trick.

        Under ``no_undertrump`` a trump lower than the partner's winning trump is
        allowed only to a hand of nothing but trumps (none of them higher); under
        ``overtrump_if_only_trumps`` a hand of only trumps must beat the partner's
        trump if it can. Over a partner winning with a plain card, any card will do.
        """
        wc = st.trick_cards[w]
        if st.rules.suit_of[wc] != st.trump:
            return hand
        higher = trumps & st._higher[wc]
        if ob.void_partner == "no_undertrump":
            return ((hand ^ trumps) | higher) or hand
        if hand == trumps and higher:  # overtrump_if_only_trumps
            return higher
        return hand

    def last_seat_plays(self, st: GameState, seat: int, hand: int, trumps: int,
                        w: int) -> int:
        """The last seat of a trick whose partner wins it with a trump: a plain card or a
        higher trump, not a lower one unless he holds nothing else (0: not that case)."""
        r = st.rules
        if len(st.trick_cards) != r.hand_seats - 1 or self.opponent_winning(st, seat, w):
            return 0
        wc = st.trick_cards[w]
        if r.suit_of[wc] != st.trump:
            return 0
        return ((hand ^ trumps) | (trumps & st._higher[wc])) or hand

    def lead_limits(self, st: GameState, seat: int, hand: int) -> int:
        """The cards ``seat`` may lead from ``hand`` where leads are limited: not a trump
        declared by another player while he holds another suit; not a card of a pair he
        may declare without declaring it (where leading such a card declares)."""
        r = st.rules
        out = hand
        if r.decl_auto_rule is not None:
            out &= ~self.undeclared_pairs(st, seat, hand)
        return out & ~self.foreign_trumps(st, seat, out) or hand

    def foreign_trumps(self, st: GameState, seat: int, hand: int) -> int:
        """The cards of ``hand`` that ``seat`` may not lead because of the foreign trump
        (``rules.foreign_trump_rule``): the trumps of a trump declared by another player,
        where ``hand`` holds a card of another suit; 0 where the rule does not limit the
        lead (no such rule, no trump yet, his own trump, nothing but trumps)."""
        r = st.rules
        trump = st.trump
        if r.foreign_trump_rule is None or trump < 0 or not hand & ~r.suit_mask[trump]:
            return 0
        by = next((s for s, _, suit, _ in reversed(st.declared) if suit == trump), seat)
        return hand & r.suit_mask[trump] if by != seat else 0

    def undeclared_pairs(self, st: GameState, seat: int, hand: int) -> int:
        """The cards of the pairs ``seat`` may declare now by leading (0 if he may not)."""
        r = st.rules
        if not st.mech.declarations.offered(st, seat):
            return 0
        out = 0
        for d in r.declarations:
            if d.lead_masks and st.mech.declarations.window_open(st, d.window):
                for s in st.mech.declarations.melds(st, d, seat, hand):
                    out |= d.lead_masks[s] & hand
        return out

    def violation(self, st: GameState, seat: int, card: int) -> tuple[str | None, str]:
        """Which rule a refused (in-hand) card breaks, and why; for a card allowed, the
        duty in force that would judge it (``None`` where none does: a lead limited by
        nothing names no limit)."""
        r = st.rules
        if not st.trick_cards and not st.lead_mask and (
                r.foreign_trump_rule is not None or r.decl_auto_rule is not None):
            hand = st.hands[seat]
            if r.decl_auto_rule is not None:
                pairs = self.undeclared_pairs(st, seat, hand)
                if pairs >> card & 1:
                    return (r.decl_auto_rule, "leading this card declares its pair: declare "
                            "it with the lead")
                hand &= ~pairs
            if self.foreign_trumps(st, seat, hand):  # the limit in force at this lead
                return (r.foreign_trump_rule, "another player declared this trump: lead "
                        "another suit while you hold one")
        if st.forced[seat] >= 0:
            a = st.split[0] if st.split else 0
            return (r.asks[a].settle_rule,
                    f"after the ask, {r.card_code[st.forced[seat]]} must be played")
        if not st.trick_cards and st.lead_mask and st.declared:
            return (r.declarations[st.declared[-1][1]].lead_rule,
                    "one of the declared cards must be led")
        if not st.trick_cards:
            return (r.first_card_rule, "the first lead of the hand must follow the "
                    "preference order")
        ob = st._ob_stock if st.trick_no <= st.draw_tricks else st._ob_no_stock
        assert ob is not None
        led = r.suit_of[st.trick_cards[0]]
        hand = st.hands[seat]
        if hand & r.suit_mask[led]:
            if r.suit_of[card] != led:
                return (ob.follow_rule, f"must follow suit ({r.suits[led]})")
            if st.trick_no == 1 and r.first_trick_rank >= 0 and \
                    hand & r.suit_mask[led] & r.rank_mask[r.first_trick_rank]:
                return (r.first_trick_rule, "in the first trick the holder of "
                        f"{r.ranks[r.first_trick_rank]}{r.suits[led]} must play it")
            return (ob.head_rule, "must beat the card winning the trick")
        if ob.void_partner != "free" and st.trick_cards and \
                not self.opponent_winning(st, seat, self.winner_index(st)):
            return (ob.void_partner_rule or ob.void_rule, "void in the suit led, partner "
                    "winning with a trump: no lower trump than his")
        if ob.void_duty == "trump" or (ob.void_any_trump and ob.void_duty == "overtrump"):
            return (ob.void_rule, "void in the suit led: must play a trump")
        if ob.void_any_trump:
            return (ob.void_rule, "void in the suit led: must play a trump (any of them) "
                    "while one of his trumps can win the trick")
        if ob.void_duty == "overtrump":
            return (ob.void_rule, "void in the suit led: must play a trump, a winning one "
                    "if able")
        if ob.void_duty == "beat_or_discard":
            return (ob.void_rule, "void in the suit led: must trump high enough to win, "
                    "and may not play a lower trump while holding a plain card")
        return (ob.void_rule, "void in the suit led: must trump high enough to win")

    # -------------------------------------------------------------- apply
    def apply_play(self, st: GameState, seat: int, action: Play) -> None:
        """Play ``action.card`` for ``seat`` (the seat to act)."""
        card = action.card
        if st.phase != PLAY:
            refuse(st, st.rules.core_phase, seat, action,
                   WAITING_FOR.get(st.phase, "no card may be played now"))
        hands = st.hands
        hand = hands[seat]
        if card.__class__ is not int:  # ('AH', 1.0, True, a numpy integer: no card number)
            refuse(st, st.rules.core_hand, seat, action, "a card is a whole number of the "
                   "pack (parse_action(rules, text) makes a Play of a card's code)")
        # a hand holds cards of the pack only: a card out of it is not in the hand either
        if card < 0 or not hand >> card & 1:
            refuse(st, st.rules.core_hand, seat, action, "that card is not in the player's hand")
        bit = 1 << card
        if st._free_play:
            hands[seat] = hand ^ bit
        elif self.legal_plays(st, seat) & bit:
            hands[seat] = hand ^ bit
            st.forced[seat] = -1
        else:
            rule_id, reason = self.violation(st, seat, card)
            refuse(st, rule_id, seat, action, reason)
        st.actions.append((seat, action))
        known = st.known
        if known[seat] & bit:  # a shown card is played: no longer known to be held
            known[seat] ^= bit
        st.trick_seats.append(seat)
        cards = st.trick_cards
        cards.append(card)
        r = st.rules
        if len(cards) < r.hand_seats:
            nxt = seat + 1 if seat + 1 < r.nseats else 0
            # the hot path: only a seat sitting out (deal.sits_out) needs next_seat
            st.to_act = nxt if nxt != st.out else st.next_seat(nxt)
            return
        self.finish_trick(st)

    def force_play(self, st: GameState, seat: int, action: Play) -> bool:
        """Play a card that ``seat`` holds at his turn, with the play duties lifted.

        For records from imperfect sources, whose old engines allowed some
        illegal plays: applying them lets the rest of the match be checked.
        Returns False (and changes nothing) when the card is not in the hand,
        it is not the seat's turn to play, or the play is refused for another
        reason; the duties of the trick are restored for the seats after him.
        """
        if st.phase != PLAY or st.to_act != seat:
            return False
        if not 0 <= action.card < st.rules.ncards or not st.hands[seat] >> action.card & 1:
            return False
        free, forced = st._free_play, st.forced[seat]
        ntricks = len(st.tricks)
        st._free_play = True
        st.forced[seat] = -1
        try:
            self.apply_play(st, seat, action)
        except IllegalActionError:
            st._free_play, st.forced[seat] = free, forced
            return False
        if len(st.tricks) == ntricks and st.phase == PLAY:  # the trick goes on
            st._free_play = free
        return True

    def finish_trick(self, st: GameState) -> None:
        """Score the full trick, settle what waited on it, draw, and go on."""
        r = st.rules
        w = self.winner_index(st)
        winner = st.trick_seats[w]
        team = r.team_of[winner]
        cards = st.trick_cards
        points = st._points
        total = 0
        for c in cards:
            total += points[c]
        st.captured[team] += total
        st.tricks_won[team] += 1
        st.tricks.append((st.leader, tuple(cards), winner))
        st.last_winner = winner
        hooks = st.hooks
        # what waits on the trick: a split marriage, the hand target, held points,
        # claims and closing before the draw (mechanisms.hooks); usually nothing
        for after_trick in hooks.after_trick:
            if after_trick(st, winner):
                return
        if st.stock:
            self.draw(st, winner)
        if st.trick_no >= st._tricks_per_hand:
            if r.last_trick_points:  # card points for the last trick
                st.captured[team] += r.last_trick_points
            if r.leftover_rule is not None:  # the cards out of play count for the last trick
                st.captured[team] += sum(points[c] for c in st.aside)
            st.mech.scoring.end_hand(st, "played_out")
            return
        self.start_trick(st, winner)
        for next_lead in hooks.next_lead:
            next_lead(st, winner)

    def draw(self, st: GameState, winner: int) -> None:
        """Each seat in the hand draws one card from the stock, the trick's winner first."""
        n = st.rules.nseats
        hands, pop = st.hands, st.stock.pop
        turn_up = st.turn_up
        s = winner
        for _ in range(st.rules.hand_seats):
            c = pop()
            hands[s] |= 1 << c
            if c == turn_up:
                st.known[s] |= 1 << c
                st.turn_up = turn_up = None
            s = s + 1 if s + 1 < n else 0
            if s == st.out:  # a seat sitting out draws nothing
                s = st.next_seat(s)

    def first_trick_lines(self, mech: Mechanisms, rules: Rules, ns: dict[str, Any]
                          ) -> list[str] | None:
        """Source lines (in a function of ``st``) that open a hand's first trick as
        :meth:`start_trick` of ``st.leader`` does right after a new hand's data (what the
        fresh deal writes in place of the call; ``mech``: the mechanisms this one is of),
        the names they read put in ``ns``; ``None`` where this class opens a trick its
        own way.

        >>> from mariage import load_rules
        >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS as mech
        >>> mech.tricks.first_trick_lines(mech, load_rules("schnapsen"), {})[:2]
        ['    trick_no = st.trick_no = 1', '    st.to_act = st.leader']
        """
        if type(self).start_trick is not TrickPlay.start_trick:
            return None
        ns.update(_PLAY=PLAY, _WINDOW=WINDOW)
        return start_lines(mech, rules, ns, fresh=True)

    def start_trick(self, st: GameState, leader: int) -> None:
        """Open the next trick with ``leader`` to lead (or the declaration window first)."""
        r = st.rules
        st.leader = leader
        trick_no = st.trick_no = st.trick_no + 1
        st.trick_seats = []
        st.trick_cards = []
        st.trump_set_in_trick = 0
        st.lead_mask = 0
        if st.trump_next >= 0:  # a trump declared in the last trick rules from now on
            st.trump, st.trump_next = st.trump_next, -1
        st.decl_this_trick = [0] * r.nseats
        st.to_act = leader
        ob = st._ob_stock if trick_no <= st.draw_tricks else st._ob_no_stock
        # no duty, no forced card, no first-lead preference: every card in hand is legal
        st._free_play = (ob is not None and not ob.follow
                         and not (trick_no == 1 and r.first_card_prefs))
        if not r.declarations:
            st._decl_open = False
            st.phase = PLAY
            return
        window_open = st.mech.declarations.window_open(st, r.decl_window_any)
        trick_start = r.decl_who == "trick_start"
        st._decl_open = window_open and not trick_start
        if window_open and trick_start:
            st.phase = WINDOW
            st.window_left = r.decl_window_seats or r.nseats
        else:
            st.phase = PLAY


def start_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any],
                 fresh: bool = False) -> list[str]:
    """Source of the next trick's opening, the first one too (as
    :meth:`TrickPlay.start_trick`), with ``winner`` to lead; with ``fresh``, of a
    hand's first trick right after a new hand's data (``GameState._new_hand``) and its
    leader are set, which leave nothing to do for the trick's lists (empty), the cards
    it set or must lead (none), a trump to come (none) and the declarations of the
    trick (none): the trick counted as the first, the leader to act, the duties.

    >>> from mariage import load_rules
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> start_lines(DEFAULT_MECHANISMS, load_rules("marianna"), {})[:2]
    ['    st.leader = winner', '    trick_no = st.trick_no = st.trick_no + 1']
    """
    from .declarations import Declarations

    zeros = ", ".join("0" * rules.nseats)
    lines = ["    trick_no = st.trick_no = 1", "    st.to_act = st.leader"] if fresh else [
        "    st.leader = winner", "    trick_no = st.trick_no = st.trick_no + 1",
        "    st.trick_seats = []", "    st.trick_cards = []",
        "    st.trump_set_in_trick = 0", "    st.lead_mask = 0",
        "    if st.trump_next >= 0:", "        st.trump, st.trump_next = st.trump_next, -1",
        f"    st.decl_this_trick = [{zeros}]", "    st.to_act = winner"]
    duty = ["    ob = st._ob_stock if trick_no <= st.draw_tricks else st._ob_no_stock",
            "    st._free_play = ob is not None and not ob.follow" + (
                " and trick_no != 1" if rules.first_card_prefs else "")]
    if not rules.declarations:
        return [*lines, *duty, "    st._decl_open = False", "    st.phase = _PLAY"]
    window = rules.decl_window_any
    window_open = mech.declarations.window_open  # (bound: its class's own, or the reference)
    if getattr(window_open, "__func__", None) is not Declarations.window_open:
        ns["_window_open"] = window_open
        lines += [*duty, f"    window_open = _window_open(st, {window!r})"]
    elif window == "stock":  # (the duty's test of the stock, made once)
        lines += ["    window_open = trick_no <= st.draw_tricks",
                  duty[0].replace("trick_no <= st.draw_tricks", "window_open"), duty[1]]
    elif window == "stock_plus_one":
        lines += [*duty, "    window_open = trick_no <= st.draw_tricks + 1"]
    elif rules.decl_who != "trick_start":  # (always open)
        return [*lines, *duty, "    st._decl_open = True", "    st.phase = _PLAY"]
    else:
        lines += [*duty, "    window_open = True"]
    if rules.decl_who != "trick_start":
        return [*lines, "    st._decl_open = window_open", "    st.phase = _PLAY"]
    return [*lines, "    st._decl_open = False", "    if window_open:",
            "        st.phase = _WINDOW",
            f"        st.window_left = {rules.decl_window_seats or rules.nseats}",
            "    else:", "        st.phase = _PLAY"]
