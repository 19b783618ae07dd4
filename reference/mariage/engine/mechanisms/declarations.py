"""Declarations: marriages and other combinations, their values and trump effects.

Runs who may declare and when (on turn, leader, trick winner, or a window at
the start of each trick with passes), how many per trick, which combinations
a hand holds, once-only limits, values (schedules, fixed, in trump, for
making trump), trump effects and held credit.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marianna"), first_dealer=0)
>>> state.deal(canonical_deck(state.rules))
>>> [str(a) for a in state.mech.declarations.legal(state, 1)]
['Declare(decl=0, suit=0, trump=True)']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Declare, Pass
from ..phase import OVER, PLAY, WAITING_FOR, WINDOW
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Declaration, Rules
    from ..state import GameState

__all__ = ["DECLARE_WRITES", "Declarations", "or_all"]

_WHO_REASONS = {
    "leader": "only the player leading to the trick may declare, before leading",
    "trick_winner": "only the winner of the last trick may declare, before leading",
    "trick_start": "declarations are made only at the start of the trick",
}


def or_all(masks: list[int]) -> int:
    """The union of bit masks.

    >>> or_all([1, 4, 4])
    5
    """
    out = 0
    for m in masks:
        out |= m
    return out


#: the slots :meth:`Declarations.declare` (with :meth:`Declarations.score` and a held
#: credit) writes, besides the hand end where a declaration wins the match or reaches
#: the hand's target: what an action that declares keeps for undo
#: (:attr:`Mechanism.trail_actions`)
DECLARE_WRITES = ("trump", "trump_next", "trump_set_in_trick", "used_suit", "used_hand",
                  "known", "declared", "lead_mask", "_free_play", "decl_count", "game_points",
                  "held", "decl_points")


class Declarations(Mechanism):
    """Declaring combinations, the declaration window and held credit."""

    __slots__ = ()
    name: ClassVar[str] = "declarations"
    steps: ClassVar[tuple[str, ...]] = ("window_open", "who_ok", "melds", "declare", "score",
                                        "apply_pass", "offered")
    sections: ClassVar[tuple[str, ...]] = ("declarations", "declaring")
    #: nothing held by the trick's winner: his next lead credits nothing
    quiet_hooks: ClassVar[dict[str, str]] = {"next_lead": "not st.held[winner]"}
    #: ... else what he held counts (and may end the hand by the hand end)
    mark_hooks: ClassVar[dict[str, tuple[str, ...]]] = {"next_lead": ("held", "decl_points")}
    #: a declaration spends one of the seat's declarations in the trick and declares
    #: (trump, the cards shown, its score, a held credit, an automatic claim); in the
    #: window it, or a pass, gives the turn on (or the play back)
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "apply_declare": ("decl_this_trick", "window_left", "phase", "to_act",
                          *DECLARE_WRITES, "claim_by", "claim_ok"),
        "apply_pass": ("window_left", "phase", "to_act")}
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "apply_declare": (("declarations", "score"), ("held_credit", "hold"),
                          ("claims", "after_declaration"))}
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Declare, "apply_declare"),
                                                       (Pass, "apply_pass"))
    phases: ClassVar[tuple[int, ...]] = (WINDOW,)

    def offers(self, rules: Rules) -> bool:
        """Declarations are offered in play wherever the rules have any."""
        return bool(rules.declarations)

    def all_actions(self, rules: Rules) -> list[Action]:
        """Each combination in each suit, making trump or not, and a pass."""
        suits = range(len(rules.suits))
        out: list[Action] = [Declare(d.index, s, t) for d in rules.declarations for s in suits
                             for t in (True, False)]
        return [*out, Pass()] if rules.declarations else out

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The declarations open to ``seat`` before his card."""
        if st._decl_open and self.offered(st, seat):
            out.extend(self.legal(st, seat))

    gate_depends: ClassVar[tuple[str, ...]] = ("offered", "who_ok", "legal", "melds")

    def offer_gate(self, rules: Rules) -> str | None:
        """The window is open, ``seat`` has declarations left in this trick, may declare
        now under the rules' "who" (:meth:`offered`), and his hand passes the first test
        of :meth:`legal` for some combination.

        >>> from mariage import load_rules
        >>> "seat == st.leader and not st.trick_cards" in Declarations().offer_gate(
        ...     load_rules("schnapsen"))
        True
        """
        who = {"leader": " and seat == st.leader and not st.trick_cards",
               "trick_winner": " and seat == st.leader and not st.trick_cards"
                               " and st.trick_no > 1"}.get(rules.decl_who, "")
        rank_mask = rules.rank_mask
        held = []
        for d in rules.declarations:
            if d.same_suit:
                held.append(" & ".join([str(rank_mask[0])] + [
                    f"(h & {rank_mask[ri]}) >> {ri}" for ri in d.pattern_ranks]))
            else:
                mask, count = d.rank_counts[0]
                held.append(f"(h & {mask}).bit_count() >= {count}")
        return (f"st._decl_open and st.decl_this_trick[seat] < {rules.decl_per_trick}{who} "
                f"and ({' or '.join(held) or 'False'})")

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """In the declaration window: the declarations ``seat`` holds, or pass."""
        out = self.legal(st, seat)
        out.append(Pass())
        return out


    # ------------------------------------------------------------ queries
    def window_open(self, st: GameState, window: str) -> bool:
        """True while the window ``window`` (``stock``, ``stock_plus_one``, ``hand``) is open."""
        if window == "stock":
            return st.trick_no <= st.draw_tricks
        if window == "stock_plus_one":
            return st.trick_no <= st.draw_tricks + 1
        return True

    def who_ok(self, st: GameState, mode: str, seat: int) -> bool:
        """True if ``seat`` may declare now under the "who" rule ``mode``."""
        if mode == "on_turn":
            return True
        if mode == "leader":
            return seat == st.leader and not st.trick_cards
        if mode == "trick_winner":
            return seat == st.leader and not st.trick_cards and st.trick_no > 1
        return False  # trick_start: only in the window

    def melds(self, st: GameState, d: Declaration, seat: int, hand: int) -> list[int]:
        """The suits in which ``seat`` can declare ``d`` with ``hand``."""
        r = st.rules
        out: list[int] = []
        if d.same_suit:
            rank_mask = r.rank_mask
            combo = rank_mask[0]
            for ri in d.pattern_ranks:
                combo &= (hand & rank_mask[ri]) >> ri
            if not combo:
                return out
            if d.once_scope == "hand" and any(st.used_hand[d.index]):
                return out
            used = st.used_suit[d.index]
            mine = used[seat] if d.once_scope == "suit_per_player" else or_all(used)
            for s, m in enumerate(d.suit_masks):
                if hand & m == m and not mine >> s & 1:
                    out.append(s)
            return out
        if d.whole_hand and hand.bit_count() != d.size:
            return out
        for mask, count in d.rank_counts:
            if (hand & mask).bit_count() < count:
                return out
        if d.once_scope == "hand" and any(st.used_hand[d.index]):
            return out
        suit_cards = hand & r.rank_mask[d.suit_rank]
        if d.suit_by_lead:  # named by the card led: any of them
            return [r.suit_of[c] for c in r.cards_of(suit_cards)]
        suit = r.suit_of[suit_cards.bit_length() - 1]
        if d.once_scope != "hand":  # once per suit (of the card that names it)
            used = st.used_suit[d.index]
            if (used[seat] if d.once_scope == "suit_per_player" else or_all(used)) >> suit & 1:
                return out
        out.append(suit)
        return out

    def pattern_held(self, st: GameState, d: Declaration, hand: int, suit: int) -> bool:
        """True if ``hand`` holds the cards of ``d`` in ``suit`` (used or not)."""
        r = st.rules
        if d.same_suit:
            m = d.suit_masks[suit]
            return hand & m == m
        pivot = hand & r.rank_mask[d.suit_rank]
        if d.suit_by_lead:
            pivot &= r.suit_mask[suit]
        if not pivot or suit != r.suit_of[pivot.bit_length() - 1]:
            return False
        if d.whole_hand and hand.bit_count() != d.size:
            return False
        return all((hand & mask).bit_count() >= count for mask, count in d.rank_counts)

    def offered(self, st: GameState, seat: int) -> bool:
        """True if declaring is open to ``seat`` in the play phase, before his card."""
        r = st.rules
        return st.decl_this_trick[seat] < r.decl_per_trick and (
            r.decl_who == "on_turn" or self.who_ok(st, r.decl_who, seat))

    def legal(self, st: GameState, seat: int) -> list[Action]:
        """The declarations ``seat`` may make now (the caller checks the phase)."""
        r = st.rules
        if st.phase == WINDOW and st.decl_this_trick[seat] >= r.decl_per_trick:
            return []
        out: list[Action] = []
        hand = st.hands[seat]
        rank_mask = r.rank_mask
        decls = r.declarations
        if r.decl_windows_differ:  # leave out those whose (narrower) window is closed
            decls = tuple(d for d in decls if d.window == r.decl_window_any
                          or self.window_open(st, d.window))
        for d in decls:
            # cheap necessary conditions first: most hands hold no combination
            if d.same_suit:
                combo = rank_mask[0]
                for ri in d.pattern_ranks:
                    combo &= (hand & rank_mask[ri]) >> ri
                if not combo:
                    continue
            elif (hand & d.rank_counts[0][0]).bit_count() < d.rank_counts[0][1]:
                continue
            for s in self.melds(st, d, seat, hand):
                out.append(Declare(d.index, s))
                if d.trump_effect == "choose" and st.trump < 0:
                    out.append(Declare(d.index, s, False))
        return out

    # -------------------------------------------------------------- apply
    def apply_declare(self, st: GameState, seat: int, action: Declare) -> None:
        """Declare ``action`` for ``seat`` (the seat to act)."""
        r = st.rules
        if type(action.decl) is not int or type(action.suit) is not int \
                or not 0 <= action.decl < len(r.declarations) \
                or not 0 <= action.suit < len(r.suits):
            refuse(st, r.core_phase, seat, action, "no such declaration (a declaration's "
                   "number and suit are whole numbers of the rules)")
        d = r.declarations[action.decl]
        if st.phase != PLAY and st.phase != WINDOW:
            refuse(st, r.core_phase, seat, action, WAITING_FOR.get(st.phase, "not now"))
        if st.phase == PLAY and not self.who_ok(st, r.decl_who, seat):
            refuse(st, r.decl_who_rule, seat, action, _WHO_REASONS.get(r.decl_who, "not now"))
        if not self.window_open(st, d.window):
            refuse(st, d.window_rule, seat, action,
                   "declarations are over for this hand (stock exhausted)")
        if st.decl_this_trick[seat] >= r.decl_per_trick:
            refuse(st, r.decl_per_trick_rule, seat, action,
                   "at most one declaration per player per trick")
        hand = st.hands[seat]
        if action.suit not in self.melds(st, d, seat, hand):
            if self.pattern_held(st, d, hand, action.suit):
                refuse(st, d.once_rule, seat, action, f"that {d.name} was declared already")
            refuse(st, d.rule, seat, action, f"the hand does not hold that {d.name}")
        if not action.trump and (d.trump_effect != "choose" or st.trump >= 0):
            refuse(st, d.trump_rule, seat, action, "this declaration cannot decline trump")
        st.actions.append((seat, action))
        st.decl_this_trick[seat] += 1
        self.declare(st, seat, d, action.suit, action.trump)
        if st.phase == WINDOW:
            self.advance_window(st)

    def apply_pass(self, st: GameState, seat: int, action: Pass) -> None:
        """``seat`` passes in the declaration window."""
        if st.phase != WINDOW:
            refuse(st, st.rules.core_phase, seat, action, "there is no declaration window open")
        st.actions.append((seat, action))
        self.advance_window(st)

    def advance_window(self, st: GameState) -> None:
        """The next seat's turn in the window, or play once every seat has spoken."""
        st.window_left -= 1
        if st.window_left <= 0:
            st.phase = PLAY
            st.to_act = st.leader
        else:
            assert st.to_act is not None
            st.to_act = st.next_seat(st.to_act)

    def declare(self, st: GameState, seat: int, d: Declaration, suit: int,
                make_trump: bool) -> None:
        """Score and apply a declaration of ``d`` in ``suit`` credited to ``seat``."""
        r = st.rules
        before = st.trump
        if d.trump_effect == "set" or (
                d.trump_effect in ("first_fixes", "choose") and before < 0 and make_trump):
            st.trump = suit
        makes_trump = st.trump != before and before < 0
        if d.trump_next_trick and st.trump != before:  # the old trump rules this trick
            st.trump_next, st.trump = st.trump, before
        elif st.trump != before:
            st.trump_set_in_trick |= 1 << r.team_of[seat]
        value = d.schedule[min(st.decl_count, len(d.schedule) - 1)] if d.schedule else d.fixed
        if d.suit_values:
            value = d.suit_values[suit]
        if d.next_in_order_plus is not None:
            sched = d.order_schedule
            value = sched[min(st.decl_count, len(sched) - 1)] + d.next_in_order_plus
        if d.if_trump_suit is not None and suit == before:
            value = d.if_trump_suit
        if d.if_makes_trump is not None and makes_trump:
            value = d.if_makes_trump
        st.used_suit[d.index][seat] |= 1 << suit
        st.used_hand[d.index][seat] = True
        if d.same_suit:
            st.known[seat] |= st.hands[seat] & d.suit_masks[suit]
        elif d.suit_by_lead:  # the cards of the pattern are shown, not the whole hand
            for mask, _ in d.rank_counts:
                st.known[seat] |= st.hands[seat] & mask
        else:
            st.known[seat] |= st.hands[seat]
        st.declared.append((seat, d.index, suit, value))
        if d.lead_masks:  # one of the declared cards must be led now
            st.lead_mask = d.lead_masks[suit] & st.hands[seat]
            st._free_play = False
        self.score(st, seat, value, d.units, d.ordered, d.credit)
        if d.wins_match and st.phase != OVER:
            st.mech.scoring.end_hand(st, "match_won", winner=r.team_of[seat])

    def score(self, st: GameState, seat: int, value: int, units: str, ordered: bool,
              credit: str = "immediate") -> None:
        """Credit ``value`` to ``seat``'s team (or hold it until he leads)."""
        r = st.rules
        if ordered:
            st.decl_count += 1
        team = r.team_of[seat]
        if units == "game_points":
            st.game_points[team] += value
            return
        if credit == "when_leading" and (seat != st.leader or st.trick_cards):
            st.held[seat] += value
            return
        if (credit == "with_trick" or credit == "next_trick") and \
                st.mech.held_credit.hold(st, seat, value, credit):
            return
        st.decl_points[team] += value
        for after_points in st.hooks.after_points:  # automatic claims
            after_points(st, seat)
        if r.hand_target is not None and st.phase != OVER and \
                st.mech.scoring.target_reached(st):
            st._appliers.end_hand(st, "target")  # Scoring.end_hand (engine.handend)

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """The next lead, where a declaration may be held until its declarer leads."""
        if any(d.credit != "immediate" for d in rules.declarations):
            return (("next_lead", "next_lead"),)
        return ()

    hook_gate_depends: ClassVar[dict[str, tuple[str, ...]]] = {
        "next_lead": ("credit_held",)}

    def hook_gate(self, method: str, rules: Rules) -> str | None:
        """At the next lead, only a leader who holds points has anything to count."""
        return "st.held[winner]" if method == "next_lead" else None

    def next_lead(self, st: GameState, leader: int) -> None:
        """The winner of the last trick leads: what he held counts now."""
        if st.held[leader]:
            self.credit_held(st, leader)

    def credit_held(self, st: GameState, seat: int) -> None:
        """``seat`` now leads: his held declaration points count."""
        v = st.held[seat]
        st.held[seat] = 0
        st.decl_points[st.rules.team_of[seat]] += v
        if st.rules.hand_target is not None and st.mech.scoring.target_reached(st):
            st._appliers.end_hand(st, "target")  # Scoring.end_hand (engine.handend)
