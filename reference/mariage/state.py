"""The game state of a whole match, and the rules engine that moves it.

A :class:`GameState` starts a match; dealing is a chance event supplied from
outside (:meth:`GameState.deal`), either from a recorded deck order or from
the seeded generator (:func:`mariage.deals.seeded_match`). After that, the
seat to act picks one of :meth:`GameState.legal_actions` and calls
:meth:`GameState.apply`. Every refused action raises
:class:`~mariage.errors.IllegalActionError` naming the rule that forbids it.

>>> from mariage import load_rules, GameState
>>> from mariage.deals import canonical_deck
>>> rules = load_rules("marianna")
>>> state = GameState(rules, first_dealer=0)
>>> state.deal(canonical_deck(rules))
>>> state.to_act, rules.format_cards(state.hands[1])
(1, 'AH 3H KH QH JH')
>>> [action_text(rules, a) for a in state.legal_actions()][:2]
['marianna:H', 'AH']
>>> state.apply(state.legal_actions()[0])
>>> state.trump, state.hand_points(0), state.hand_points(1)
(0, 0, 40)
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

from .actions import (
    Action,
    Answer,
    AskPartner,
    CallOut,
    Declare,
    Exchange,
    Pass,
    Play,
    action_text,
)
from .errors import IllegalActionError
from .rules import Declaration, Obligation, Rules, When

__all__ = ["GameState", "HandRecord", "MatchResult", "Phase", "action_text"]


class DealSource(Protocol):
    """Anything that supplies the next hand's deck and first player."""

    def next_deal(self) -> tuple[list[int], int | None]: ...


class Phase(IntEnum):
    """Where the match stands."""

    DEAL = 0  #: waiting for the next hand's deal (a chance event)
    PLAY = 1  #: a seat is to declare, ask, exchange or play a card
    WINDOW = 2  #: declaration window at the start of a trick (one seat at a time)
    ANSWER = 3  #: the partner must answer an ask
    OVER = 4  #: the match has ended


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: the winning team (or ``None``) and why."""

    winner: int | None
    reason: str
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """The outcome of one finished hand."""

    number: int
    dealer: int | None
    points: tuple[int, ...]  # card points plus declarations, per team
    score: tuple[int, ...]  # what was added to the match score, per team
    tricks: tuple[int, ...]
    ended: str  # played_out | target | call_out | match_won
    winner: int | None = None  # the team that took the hand (segno), where that counts


# Module-level aliases: enum member access is slow on the hot path.
_DEAL, _PLAY, _WINDOW, _ANSWER, _OVER = (Phase.DEAL, Phase.PLAY, Phase.WINDOW, Phase.ANSWER,
                                         Phase.OVER)
_W_NEVER, _W_ALWAYS, _W_OPPONENT_WINNING = When.NEVER, When.ALWAYS, When.OPPONENT_WINNING


def _popcount(x: int) -> int:
    return x.bit_count()


class GameState:
    """The state of a match under one :class:`~mariage.rules.Rules`."""

    __slots__ = (
        "_decl_cache",
        "_decl_open",
        "_free_play",
        "_higher",
        "_ob_no_stock",
        "_ob_stock",
        "_tricks_per_hand",
        "actions",
        "captured",
        "deal_source",
        "dealer",
        "decl_count",
        "decl_points",
        "decl_this_trick",
        "declared",
        "draw_tricks",
        "first_dealer",
        "forced",
        "game_points",
        "hand_no",
        "hand_over_reason",
        "hands",
        "held",
        "history",
        "known",
        "last_winner",
        "leader",
        "match_scores",
        "next_dealer",
        "pending_ask",
        "phase",
        "result",
        "rules",
        "segni",
        "split",
        "stock",
        "to_act",
        "trick_cards",
        "trick_no",
        "trick_seats",
        "tricks",
        "tricks_won",
        "trump",
        "trump_set_in_trick",
        "turn_up",
        "used_hand",
        "used_suit",
        "window_left",
    )

    def __init__(self, rules: Rules, first_dealer: int | None = 0) -> None:
        self.rules = rules
        n = len(rules.teams)
        self.match_scores = [0] * n
        self.segni = [0] * n
        self.hand_no = 0
        self.first_dealer = first_dealer
        self.dealer: int | None = first_dealer if rules.first_dealer != "none" else None
        self.next_dealer: int | None = None
        self.phase = _DEAL
        self.result: MatchResult | None = None
        self.history: list[HandRecord] = []
        self.draw_tricks = rules.stock_size // rules.nseats
        self._tricks_per_hand = rules.hand_size + self.draw_tricks
        self._ob_stock = rules.obligation_stock
        self._ob_no_stock = rules.obligation_no_stock
        self._higher = rules.higher
        self._decl_cache: list[Declare] = []
        self.deal_source: DealSource | None = None
        self._reset_hand()

    # ------------------------------------------------------------------ setup
    def _reset_hand(self) -> None:
        r = self.rules
        n, t = r.nseats, len(r.teams)
        self.hands = [0] * n
        self.known = [0] * n
        self.stock: list[int] = []
        self.turn_up: int | None = None
        self.trump = -1
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.leader = 0
        self.to_act: int | None = None
        self.trick_no = 0
        self.captured = [0] * t
        self.tricks_won = [0] * t
        self.decl_points = [0] * t
        self.game_points = [0] * t
        self.held = [0] * n
        self.decl_count = 0
        self.decl_this_trick = [0] * n
        self.used_suit = [[0] * n for _ in r.declarations]
        self.used_hand = [[False] * n for _ in r.declarations]
        self.declared: list[tuple[int, int, int, int]] = []  # (seat, decl or -1-ask, suit, value)
        self.forced = [-1] * n
        self.pending_ask: tuple[int, int, int] | None = None  # (ask, asker, suit)
        self.split: tuple[int, int, int] | None = None  # (ask, team, suit)
        self.trump_set_in_trick = False
        self.window_left = 0
        self.last_winner = -1
        self.actions: list[tuple[int, Action]] = []
        self.hand_over_reason = ""
        self._decl_open = False
        self._free_play = False

    def deal(self, deck: Sequence[int] | Sequence[str], first_player: int | None = None) -> None:
        """Deal the next hand from ``deck`` (top card first; numbers or codes).

        ``first_player`` is needed, and only allowed, where the rules have no
        dealer and choose the first player by lot each hand.
        """
        r = self.rules
        if self.phase == _OVER:
            raise IllegalActionError(r.core_over, seat=None, action="deal",
                                     reason="the match is over", hand=self.hand_no)
        if self.phase != _DEAL:
            raise IllegalActionError(r.core_phase, seat=None, action="deal",
                                     reason="a hand is in progress or the match is over",
                                     hand=self.hand_no)
        cards = [c if isinstance(c, int) else r.card_index.get(c, -1) for c in deck]
        if len(cards) != r.ncards or sorted(cards) != list(range(r.ncards)):
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason=f"a deal must order the {r.ncards} cards of the pack, "
                                     "each once", hand=self.hand_no + 1)
        if r.first_lead == "lot":
            if first_player is None or not 0 <= first_player < r.nseats:
                raise IllegalActionError("core.deal", seat=None, action="deal",
                                         reason="this ruleset needs the first player of the hand",
                                         hand=self.hand_no + 1)
        elif first_player is not None:
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason="the first player follows from the dealer here",
                                     hand=self.hand_no + 1)
        self._reset_hand()
        self.hand_no += 1
        n = r.nseats
        dealer = self.dealer
        start = 0 if dealer is None else (dealer + 1) % n
        pos = 0
        for _ in range(r.hand_size // r.packet):
            for i in range(n):
                s = (start + i) % n
                for c in cards[pos:pos + r.packet]:
                    self.hands[s] |= 1 << c
                pos += r.packet
        rest = cards[pos:]
        if r.turn_up == "dealer_last" and dealer is not None:
            self.turn_up = cards[pos - 1]
            self.known[dealer] |= 1 << self.turn_up
            self.trump = r.suit_of[self.turn_up]
        elif r.turn_up == "under_stock":
            self.turn_up = rest[0]
            self.trump = r.suit_of[self.turn_up]
            rest = rest[1:] + rest[:1]
        self.stock = rest[::-1]  # pop() takes the top card
        if r.first_lead == "lot":
            assert first_player is not None
            self.leader = first_player
        else:
            self.leader = start
        if self.hand_no == 1 and r.holder_card is not None:
            for s in range(n):
                if self.hands[s] >> r.holder_card & 1:
                    self.leader = s
                    self.next_dealer = s
        self.phase = _PLAY
        self._start_trick(self.leader)
        if r.turn_up_bonus and self.turn_up is not None and dealer is not None:
            bonus = r.points[self.turn_up]
            if bonus:
                self.match_scores[r.team_of[dealer]] += bonus
                self._check_match_end(after_hand=False, reason="turn_up_bonus")

    # ------------------------------------------------------------ queries
    @property
    def terminal(self) -> bool:
        """True once the match is over."""
        return self.phase == _OVER

    @property
    def in_stock_phase(self) -> bool:
        """True while the current trick is one after which cards are drawn."""
        return self.trick_no <= self.draw_tricks

    def hand_points(self, team: int) -> int:
        """Card points plus counted declarations of ``team`` in the current hand."""
        return self.captured[team] + self.decl_points[team]

    def current_winner(self) -> int:
        """Index in the trick of the card now winning it (the trick must not be empty)."""
        r = self.rules
        cards = self.trick_cards
        trump = self.trump
        best = 0
        bc = cards[0]
        suit_of, strength = r.suit_of, r.strength
        for i in range(1, len(cards)):
            c = cards[i]
            if suit_of[c] == suit_of[bc]:
                if strength[c] > strength[bc]:
                    best, bc = i, c
            elif suit_of[c] == trump:
                best, bc = i, c
        return best

    def legal_plays(self, seat: int) -> int:
        """The bit mask of cards ``seat`` may play now (ignores whose turn it is)."""
        hand = self.hands[seat]
        if self._free_play:
            return hand
        forced = self.forced[seat]
        if forced >= 0:
            return 1 << forced
        r = self.rules
        if not self.trick_cards:
            if self.trick_no == 1 and r.first_card_prefs:
                for pref in r.first_card_prefs:
                    if hand & pref:
                        return hand & pref
            return hand
        ob = self._ob_stock if self.trick_no <= self.draw_tricks else self._ob_no_stock
        assert ob is not None
        if not ob.follow:
            return hand
        led = r.suit_of[self.trick_cards[0]]
        in_suit = hand & r.suit_mask[led]
        if in_suit:
            if ob.head is not _W_NEVER:
                w = self.current_winner()
                if ob.head is _W_ALWAYS or self._opponent_winning(seat, w):
                    wc = self.trick_cards[w]
                    if ob.head is _W_ALWAYS and r.suit_of[wc] != led:
                        # a duty to beat always means the best card of the suit led
                        wc = max((c for c in self.trick_cards if r.suit_of[c] == led),
                                 key=r.strength.__getitem__)
                    if r.suit_of[wc] == led:
                        higher = in_suit & self._higher[wc]
                        if higher:
                            return higher
            return in_suit
        trump = self.trump
        if ob.void_duty != "none" and trump >= 0:
            trumps = hand & r.suit_mask[trump]
            if trumps:
                w = self.current_winner()
                if ob.void_when is _W_ALWAYS or self._opponent_winning(seat, w):
                    if ob.void_duty == "trump":
                        return trumps
                    wc = self.trick_cards[w]
                    beating = trumps & self._higher[wc] if r.suit_of[wc] == trump else trumps
                    if beating:
                        return beating
        return hand

    def _opponent_winning(self, seat: int, winner_index: int) -> bool:
        team_of = self.rules.team_of
        return team_of[self.trick_seats[winner_index]] != team_of[seat]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now, in a stable order.

        Declarations, asks and exchanges come first, then card plays in
        canonical card order. A seat that is not to act may only call out,
        where the rules allow it.
        """
        r = self.rules
        phase = self.phase
        if phase in (_DEAL, _OVER):
            return []
        to_act = self.to_act
        if seat is None or seat == to_act:
            assert to_act is not None
            seat = to_act
        else:
            return [CallOut()] if r.call_out_rule else []
        out: list[Action] = []
        if phase == _PLAY:
            if self.forced[seat] < 0:
                if self._decl_open and self.decl_this_trick[seat] < r.decl_per_trick and (
                        r.decl_who == "on_turn" or self._who_ok(r.decl_who, seat)):
                    out = self._declarations(seat)
                if r.asks and not self.trick_cards:
                    out.extend(self._asks(seat))
                if r.exchange_rank is not None:
                    ex = self._exchange_card(seat)
                    if ex >= 0:
                        out.append(Exchange(ex))
            mask = self.legal_plays(seat)
            plays = r.play_actions
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
        elif phase == _ANSWER:
            out.extend(self._answers(seat))
        else:  # the declaration window
            out.extend(self._declarations(seat))
            out.append(Pass())
        if r.call_out_rule:
            out.append(CallOut())
        return out

    # ---------------------------------------------------------- declarations
    def _window_open(self, window: str) -> bool:
        if window == "stock":
            return self.trick_no <= self.draw_tricks
        if window == "stock_plus_one":
            return self.trick_no <= self.draw_tricks + 1
        return True

    def _who_ok(self, mode: str, seat: int) -> bool:
        if mode == "on_turn":
            return True
        if mode == "leader":
            return seat == self.leader and not self.trick_cards
        if mode == "trick_winner":
            return seat == self.leader and not self.trick_cards and self.trick_no > 1
        return False  # trick_start: only in the window

    def _melds(self, d: Declaration, seat: int, hand: int) -> list[int]:
        """The suits in which ``seat`` can declare ``d`` with ``hand``."""
        r = self.rules
        out: list[int] = []
        if d.same_suit:
            rank_mask = r.rank_mask
            combo = rank_mask[0]
            for ri in d.pattern_ranks:
                combo &= (hand & rank_mask[ri]) >> ri
            if not combo:
                return out
            used = self.used_suit[d.index]
            mine = used[seat] if d.once_scope == "suit_per_player" else _or_all(used)
            for s, m in enumerate(d.suit_masks):
                if hand & m == m and not mine >> s & 1:
                    out.append(s)
            return out
        if d.whole_hand and hand.bit_count() != d.size:
            return out
        for mask, count in d.rank_counts:
            if (hand & mask).bit_count() < count:
                return out
        if any(self.used_hand[d.index]):
            return out
        suit_cards = hand & r.rank_mask[d.suit_rank]
        out.append(r.suit_of[suit_cards.bit_length() - 1])
        return out

    def _declarations(self, seat: int) -> list[Action]:
        r = self.rules
        if self.phase == _WINDOW and self.decl_this_trick[seat] >= r.decl_per_trick:
            return []
        out: list[Action] = []
        hand = self.hands[seat]
        rank_mask = r.rank_mask
        for d in r.declarations:
            # cheap necessary conditions first: most hands hold no combination
            if d.same_suit:
                combo = rank_mask[0]
                for ri in d.pattern_ranks:
                    combo &= (hand & rank_mask[ri]) >> ri
                if not combo:
                    continue
            elif (hand & d.rank_counts[0][0]).bit_count() < d.rank_counts[0][1]:
                continue
            for s in self._melds(d, seat, hand):
                out.append(Declare(d.index, s))
                if d.trump_effect == "choose" and self.trump < 0:
                    out.append(Declare(d.index, s, False))
        return out

    def _asks(self, seat: int) -> list[Action]:
        r = self.rules
        if seat != self.leader or self.decl_this_trick[seat] >= r.decl_per_trick:
            return []
        out: list[Action] = []
        hand = self.hands[seat]
        for a in r.asks:
            if not self._window_open(a.window) or not self._who_ok(a.who, seat):
                continue
            if a.needs_no_trump and self.trump >= 0:
                continue
            d = r.declarations[a.declaration]
            if a.kind == "any":
                out.append(AskPartner(a.index))
                continue
            used = _or_all(self.used_suit[d.index])
            for s, m in enumerate(d.suit_masks):
                held = hand & m
                if held and held != m and not used >> s & 1:
                    out.append(AskPartner(a.index, s))
        return out

    def _answers(self, seat: int) -> list[Action]:
        assert self.pending_ask is not None
        r = self.rules
        ask_i, asker, suit = self.pending_ask
        a = r.asks[ask_i]
        d = r.declarations[a.declaration]
        hand = self.hands[seat]
        if a.kind == "any":
            yes: list[Action] = [Answer(True, s) for s in self._melds(d, seat, hand)]
        else:
            other = d.suit_masks[suit] & ~self.hands[asker]
            yes = [Answer(True)] if hand & other == other else []
        if a.answer == "truthful":
            return yes or [Answer(False)]
        return [*yes, Answer(False)]

    def _exchange_card(self, seat: int) -> int:
        r = self.rules
        if r.exchange_rank is None or self.turn_up is None or self.trump < 0 or not self.stock:
            return -1
        if r.exchange_window == "first_trick" and self.trick_no != 1:
            return -1
        card = r.card_index_of(self.trump, r.exchange_rank)
        if self.hands[seat] >> card & 1 and card != self.turn_up:
            return card
        return -1

    # ---------------------------------------------------------------- apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the seat to act).

        Raises :class:`IllegalActionError` (with the rule ID) if it is not legal;
        the state is then unchanged.
        """
        if type(action) is Play and self.phase == _PLAY and (
                seat is None or seat == self.to_act):
            to_act = self.to_act
            assert to_act is not None
            self._apply_play(to_act, action)
        else:
            self._apply_other(action, seat)
        if self.phase == _DEAL and self.deal_source is not None:
            deck, first = self.deal_source.next_deal()
            self.deal(deck, first)

    def _apply_other(self, action: Action, seat: int | None) -> None:
        r = self.rules
        if self.phase == _OVER:
            self._refuse(r.core_over, seat, action, "the match is over")
        if self.phase == _DEAL:
            self._refuse(r.core_phase, seat, action, "the next hand has not been dealt")
        to_act = self.to_act
        assert to_act is not None
        if seat is None:
            seat = to_act
        self._dispatch(action, seat, to_act)

    def _dispatch(self, action: Action, seat: int, to_act: int) -> None:
        r = self.rules
        t = type(action)
        if t is CallOut:
            if not r.call_out_rule:
                self._refuse(r.core_phase, seat, action, "this ruleset has no calling out")
            self.actions.append((seat, action))
            self._call_out(seat)
            return
        if seat != to_act:
            self._refuse(r.core_turn, seat, action, f"it is seat {to_act}'s turn")
        if t is Play:
            assert isinstance(action, Play)
            self._apply_play(seat, action)
        elif t is Declare:
            assert isinstance(action, Declare)
            self._apply_declare(seat, action)
        elif t is Pass:
            if self.phase != _WINDOW:
                self._refuse(r.core_phase, seat, action, "there is no declaration window open")
            self.actions.append((seat, action))
            self._advance_window()
        elif t is AskPartner:
            assert isinstance(action, AskPartner)
            self._apply_ask(seat, action)
        elif t is Answer:
            assert isinstance(action, Answer)
            self._apply_answer(seat, action)
        elif t is Exchange:
            assert isinstance(action, Exchange)
            self._apply_exchange(seat, action)
        else:  # pragma: no cover - the Action union is closed
            self._refuse(r.core_phase, seat, action, "unknown action")

    def _refuse(self, rule_id: str | None, seat: int | None, action: Action, reason: str) -> None:
        try:
            text = action_text(self.rules, action)
        except IndexError:  # a card or declaration number the rules do not have
            text = repr(action)
        raise IllegalActionError(rule_id or "core.phase", seat=seat, action=text, reason=reason,
                                 hand=self.hand_no, trick=self.trick_no)

    def _apply_play(self, seat: int, action: Play) -> None:
        r = self.rules
        card = action.card
        if self.phase != _PLAY:
            why = "the partner must answer first" if self.phase == _ANSWER else \
                "the declaration window is open: declare or pass"
            self._refuse(r.core_phase, seat, action, why)
        hand = self.hands[seat]
        if not 0 <= card < r.ncards or not hand >> card & 1:
            self._refuse(r.core_hand, seat, action, "that card is not in the player's hand")
        if not self._free_play and not self.legal_plays(seat) >> card & 1:
            rule_id, reason = self._play_violation(seat, card)
            self._refuse(rule_id, seat, action, reason)
        self.actions.append((seat, action))
        bit = 1 << card
        self.hands[seat] = hand ^ bit
        known = self.known
        if known[seat] & bit:  # a shown card is played: no longer known to be held
            known[seat] ^= bit
        if not self._free_play:
            self.forced[seat] = -1
        self.trick_seats.append(seat)
        cards = self.trick_cards
        cards.append(card)
        if len(cards) < r.nseats:
            self.to_act = (seat + 1) % r.nseats
            return
        self._finish_trick()

    def _play_violation(self, seat: int, card: int) -> tuple[str | None, str]:
        """Which rule a refused (in-hand) card breaks, and why."""
        r = self.rules
        if self.forced[seat] >= 0:
            a = self.split[0] if self.split else 0
            return (r.asks[a].settle_rule,
                    f"after the ask, {r.card_code[self.forced[seat]]} must be played")
        if not self.trick_cards:
            return (r.first_card_rule, "the first lead of the hand must follow the "
                    "preference order")
        ob = self._ob_stock if self.trick_no <= self.draw_tricks else self._ob_no_stock
        assert ob is not None
        led = r.suit_of[self.trick_cards[0]]
        hand = self.hands[seat]
        if hand & r.suit_mask[led]:
            if r.suit_of[card] != led:
                return (ob.follow_rule, f"must follow suit ({r.suits[led]})")
            return (ob.head_rule, "must beat the card winning the trick")
        if ob.void_duty == "trump":
            return (ob.void_rule, "void in the suit led: must play a trump")
        return (ob.void_rule, "void in the suit led: must trump high enough to win")

    def _finish_trick(self) -> None:
        r = self.rules
        w = self.current_winner()
        winner = self.trick_seats[w]
        team = r.team_of[winner]
        self.captured[team] += sum(map(r.points.__getitem__, self.trick_cards))
        self.tricks_won[team] += 1
        self.tricks.append((self.leader, tuple(self.trick_cards), winner))
        self.last_winner = winner
        if self.split is not None:
            ask_i, split_team, suit = self.split
            a = r.asks[ask_i]
            if split_team == team and not self.trump_set_in_trick:
                self._score_declaration(winner, a.value, "points", a.ordered)
                self.trump = suit
                self.used_suit[a.declaration][winner] |= 1 << suit
                self.declared.append((winner, -1 - ask_i, suit, a.value))
            self.split = None
        if self.phase == _OVER or self.phase == _DEAL:
            return
        if r.hand_target is not None and self._target_reached():
            self._end_hand("target")
            return
        # draw, winner first then in playing order
        if self.stock:
            n = r.nseats
            for i in range(n):
                s = (winner + i) % n
                c = self.stock.pop()
                self.hands[s] |= 1 << c
                if c == self.turn_up:
                    self.known[s] |= 1 << c
                    self.turn_up = None
        if self.trick_no >= self._tricks_per_hand:
            self._end_hand("played_out")
            return
        self._start_trick(winner)
        if self.held[winner]:
            v = self.held[winner]
            self.held[winner] = 0
            self.decl_points[r.team_of[winner]] += v
            if r.hand_target is not None and self._target_reached():
                self._end_hand("target")

    def _start_trick(self, leader: int) -> None:
        self.leader = leader
        self.trick_no += 1
        self.trick_seats = []
        self.trick_cards = []
        self.trump_set_in_trick = False
        n = self.rules.nseats
        self.decl_this_trick = [0] * n
        self.to_act = leader
        r = self.rules
        ob = self._ob_stock if self.trick_no <= self.draw_tricks else self._ob_no_stock
        # no duty, no forced card, no first-lead preference: every card in hand is legal
        self._free_play = (ob is not None and not ob.follow
                           and not (self.trick_no == 1 and r.first_card_prefs))
        window_open = bool(r.declarations) and self._window_open(r.decl_window)
        self._decl_open = window_open and r.decl_who != "trick_start"
        if window_open and r.decl_who == "trick_start":
            self.phase = _WINDOW
            self.window_left = n
        else:
            self.phase = _PLAY

    def _advance_window(self) -> None:
        self.window_left -= 1
        n = self.rules.nseats
        if self.window_left <= 0:
            self.phase = _PLAY
            self.to_act = self.leader
        else:
            assert self.to_act is not None
            self.to_act = (self.to_act + 1) % n

    def _apply_declare(self, seat: int, action: Declare) -> None:
        r = self.rules
        if not 0 <= action.decl < len(r.declarations) or not 0 <= action.suit < len(r.suits):
            self._refuse(r.core_phase, seat, action, "no such declaration")
        d = r.declarations[action.decl]
        if self.phase == _ANSWER:
            self._refuse(r.core_phase, seat, action, "the partner must answer first")
        if self.phase == _PLAY:
            if self.forced[seat] >= 0:
                self._refuse(r.decl_per_trick_rule, seat, action,
                             "the ask was this player's declaration for the trick")
            if not self._who_ok(r.decl_who, seat):
                why = {"leader": "only the player leading to the trick may declare, before "
                                 "leading",
                       "trick_winner": "only the winner of the last trick may declare, before "
                                       "leading",
                       "trick_start": "declarations are made only at the start of the trick"}
                self._refuse(r.decl_who_rule, seat, action, why.get(r.decl_who, "not now"))
        if not self._window_open(r.decl_window):
            self._refuse(r.decl_window_rule, seat, action,
                         "declarations are over for this hand (stock exhausted)")
        if self.decl_this_trick[seat] >= r.decl_per_trick:
            self._refuse(r.decl_per_trick_rule, seat, action,
                         "at most one declaration per player per trick")
        hand = self.hands[seat]
        if action.suit not in self._melds(d, seat, hand):
            if self._pattern_held(d, hand, action.suit):
                self._refuse(d.once_rule, seat, action, f"that {d.name} was declared already")
            self._refuse(d.rule, seat, action, f"the hand does not hold that {d.name}")
        if not action.trump and (d.trump_effect != "choose" or self.trump >= 0):
            self._refuse(d.trump_rule, seat, action, "this declaration cannot decline trump")
        self.actions.append((seat, action))
        self.decl_this_trick[seat] += 1
        self._declare(seat, d, action.suit, action.trump)
        if self.phase == _WINDOW:
            self._advance_window()

    def _pattern_held(self, d: Declaration, hand: int, suit: int) -> bool:
        if d.same_suit:
            m = d.suit_masks[suit]
            return hand & m == m
        pivot = hand & self.rules.rank_mask[d.suit_rank]
        if not pivot or suit != self.rules.suit_of[pivot.bit_length() - 1]:
            return False
        if d.whole_hand and _popcount(hand) != d.size:
            return False
        return all(_popcount(hand & mask) >= count for mask, count in d.rank_counts)

    def _declare(self, seat: int, d: Declaration, suit: int, make_trump: bool) -> None:
        """Score and apply a declaration of ``d`` in ``suit`` credited to ``seat``."""
        r = self.rules
        before = self.trump
        if d.trump_effect == "set" or (
                d.trump_effect in ("first_fixes", "choose") and before < 0 and make_trump):
            self.trump = suit
        makes_trump = self.trump != before and before < 0
        if self.trump != before:
            self.trump_set_in_trick = True
        value = d.schedule[min(self.decl_count, len(d.schedule) - 1)] if d.schedule else d.fixed
        if d.if_trump_suit is not None and suit == before:
            value = d.if_trump_suit
        if d.if_makes_trump is not None and makes_trump:
            value = d.if_makes_trump
        if d.same_suit:
            self.used_suit[d.index][seat] |= 1 << suit
            self.known[seat] |= self.hands[seat] & d.suit_masks[suit]
        else:
            self.used_hand[d.index][seat] = True
            self.known[seat] |= self.hands[seat]
        self.declared.append((seat, d.index, suit, value))
        self._score_declaration(seat, value, d.units, d.ordered, d.credit)
        if d.wins_match and self.phase != _OVER:
            self._end_hand("match_won", winner=r.team_of[seat])

    def _score_declaration(self, seat: int, value: int, units: str, ordered: bool,
                           credit: str = "immediate") -> None:
        r = self.rules
        if ordered:
            self.decl_count += 1
        team = r.team_of[seat]
        if units == "game_points":
            self.game_points[team] += value
            return
        if credit == "when_leading" and (seat != self.leader or self.trick_cards):
            self.held[seat] += value
            return
        self.decl_points[team] += value
        if r.hand_target is not None and self.phase != _OVER and self._target_reached():
            self._end_hand("target")

    def _apply_ask(self, seat: int, action: AskPartner) -> None:
        r = self.rules
        if self.phase != _PLAY or self.forced[seat] >= 0 \
                or action not in self._asks(seat):
            rule = r.asks[action.ask].rule if 0 <= action.ask < len(r.asks) else None
            if (self.phase == Phase.PLAY and seat == self.leader and not self.trick_cards
                    and self.decl_this_trick[seat] >= r.decl_per_trick):
                rule = r.decl_per_trick_rule  # the one declaration action is used up
            self._refuse(rule, seat, action, self._ask_reason(seat, action))
        self.actions.append((seat, action))
        self.decl_this_trick[seat] += 1
        self.pending_ask = (action.ask, seat, action.suit)
        self.phase = _ANSWER
        self.to_act = self._partner(seat)

    def _ask_reason(self, seat: int, action: AskPartner) -> str:
        r = self.rules
        if self.phase != _PLAY:
            return "an ask is made only before leading, when no answer is awaited"
        if seat != self.leader or self.trick_cards:
            return "only the player about to lead may ask, before leading"
        if self.decl_this_trick[seat] >= r.decl_per_trick:
            return "the declaration right for this trick is used up"
        if 0 <= action.ask < len(r.asks):
            a = r.asks[action.ask]
            if not self._window_open(a.window):
                return "asks are over for this hand (stock exhausted)"
            if a.needs_no_trump and self.trump >= 0:
                return "asks are allowed only while there is no trump"
            if a.who == "trick_winner" and self.trick_no == 1:
                return "only the winner of the last trick may ask"
        return "the asker must hold exactly one card of that pair"

    def _partner(self, seat: int) -> int:
        r = self.rules
        team = r.teams[r.team_of[seat]]
        others = [s for s in team if s != seat]
        return others[0] if others else seat

    def _apply_answer(self, seat: int, action: Answer) -> None:
        r = self.rules
        if self.phase != _ANSWER:
            self._refuse(r.core_phase, seat, action, "no ask is waiting for an answer")
        assert self.pending_ask is not None
        ask_i, asker, suit = self.pending_ask
        a = r.asks[ask_i]
        if action not in self._answers(seat):
            why = ("the answer must be truthful" if a.answer == "truthful"
                   else "yes needs the other card of the pair")
            self._refuse(a.answer_rule, seat, action, why)
        self.actions.append((seat, action))
        self.pending_ask = None
        self.phase = _PLAY
        self.to_act = asker
        if not action.yes:
            return
        d = r.declarations[a.declaration]
        if a.kind == "any":
            self._declare(seat, d, action.suit, True)
            return
        if a.settle == "at_once":
            pair = d.suit_masks[suit]
            self.known[seat] |= self.hands[seat] & pair
            self._declare(asker, d, suit, True)
            self.known[asker] |= self.hands[asker] & pair
            return
        pair = d.suit_masks[suit]
        mine = self.hands[asker] & pair
        theirs = self.hands[seat] & pair
        self.forced[asker] = mine.bit_length() - 1
        self.forced[seat] = theirs.bit_length() - 1
        self._free_play = False
        self.known[asker] |= mine
        self.known[seat] |= theirs
        self.split = (ask_i, r.team_of[asker], suit)

    def _apply_exchange(self, seat: int, action: Exchange) -> None:
        r = self.rules
        ex = self._exchange_card(seat) if self.phase == _PLAY else -1
        if ex < 0 or ex != action.card or self.forced[seat] >= 0:
            self._refuse(r.exchange_rule, seat, action,
                         "only the holder of that card of trump may exchange it for the "
                         "turned-up card, at his turn, while the stock lasts")
        self.actions.append((seat, action))
        assert self.turn_up is not None
        old = self.turn_up
        self.hands[seat] ^= (1 << action.card) | (1 << old)
        self.known[seat] |= 1 << old
        self.known[seat] &= ~(1 << action.card)
        self.stock[0] = action.card
        self.turn_up = action.card

    def _call_out(self, seat: int) -> None:
        r = self.rules
        team = r.team_of[seat]
        claim = self.match_scores[team] + self.hand_points(team)
        if claim >= r.match_target:
            self._end_hand("call_out", winner=team)
            return
        if r.call_out_penalty == "lose_match":
            others = [t for t in range(len(r.teams)) if t != team]
            self._end_hand("call_out", winner=others[0] if len(others) == 1 else None)
            return
        self._end_hand("call_out_failed", zero_team=team)

    # ------------------------------------------------------------- ending
    def _target_reached(self) -> bool:
        target = self.rules.hand_target
        assert target is not None
        return any(self.captured[t] + self.decl_points[t] >= target
                   for t in range(len(self.captured)))

    def _end_hand(self, how: str, winner: int | None = None, zero_team: int | None = None) -> None:
        """Score the hand and decide whether the match goes on.

        ``winner`` set means the match is won at once by that team.
        """
        r = self.rules
        nteams = len(r.teams)
        pts = tuple(self.hand_points(t) for t in range(nteams))
        added = [0] * nteams
        hand_winner: int | None = None
        kind = r.score_kind
        if kind == "points":
            added = list(pts)
        elif kind == "excess":
            for t in range(nteams):
                total = self.captured[t] + self.tricks_won[t] * r.trick_point
                if total > r.excess_threshold:
                    added[t] = total - r.excess_threshold
        elif kind == "table":
            added = list(self.game_points)
            if how == "played_out":
                for t in range(nteams):
                    if self.captured[t] >= r.table_threshold:
                        added[t] += r.table_threshold_points
                if self.last_winner >= 0:
                    added[r.team_of[self.last_winner]] += r.table_last_trick
                if r.table_majority_mode == "separate":
                    top = max(self.captured)
                    leaders = [t for t in range(nteams) if self.captured[t] == top]
                    if len(leaders) == 1:
                        added[leaders[0]] += r.table_majority
        elif kind == "segno":
            top = max(pts)
            leaders = [t for t in range(nteams) if pts[t] == top]
            if len(leaders) == 1 and top != r.segno_void_top:
                hand_winner = leaders[0]
        if zero_team is not None:
            added[zero_team] = 0
            if kind == "segno" and hand_winner == zero_team:
                hand_winner = None
        for t in range(nteams):
            self.match_scores[t] += added[t]
        if hand_winner is not None:
            self.segni[hand_winner] += 1
        self.history.append(HandRecord(self.hand_no, self.dealer, pts, tuple(added),
                                       tuple(self.tricks_won), how, hand_winner))
        self.hand_over_reason = how
        self.to_act = None
        self.trick_seats = []
        self.trick_cards = []
        if winner is not None:
            self.phase = _OVER
            self.result = MatchResult(winner, how, self._measure())
            return
        self.phase = _DEAL
        self._check_match_end(after_hand=True, reason="target")
        if self.phase == _DEAL:
            self._rotate_dealer()

    def _measure(self) -> tuple[int, ...]:
        r = self.rules
        return tuple(self.segni if r.match_measure == "hands_won" else self.match_scores)

    def _check_match_end(self, after_hand: bool, reason: str) -> None:
        r = self.rules
        scores = self._measure()
        reached = [t for t, s in enumerate(scores) if s >= r.match_target]
        if not reached:
            return
        top = max(scores[t] for t in reached)
        best = [t for t in reached if scores[t] == top]
        if len(best) != 1:
            if r.tie_mode == "draw":
                self.phase = _OVER
                self.to_act = None
                self.result = MatchResult(None, "tie", scores)
            return  # otherwise, a tie at or over the target: play on
        self.phase = _OVER
        self.to_act = None
        self.result = MatchResult(best[0], reason, scores)
        if not after_hand:
            self.history.append(HandRecord(self.hand_no, self.dealer,
                                           tuple(0 for _ in scores), tuple(0 for _ in scores),
                                           tuple(0 for _ in scores), reason))

    def _rotate_dealer(self) -> None:
        r = self.rules
        if self.dealer is None:
            return
        if self.next_dealer is not None:
            self.dealer = self.next_dealer
            self.next_dealer = None
        elif r.rotation == "next_seat":
            self.dealer = (self.dealer + 1) % r.nseats

    def resign(self, seat: int) -> None:
        """``seat`` resigns (a concession, allowed at any moment, even out of turn).

        The match ends at once and the other side wins [core.resign].
        """
        r = self.rules
        if self.phase == _OVER:
            raise IllegalActionError(r.core_over, seat=seat, action="resign",
                                     reason="the match is over", hand=self.hand_no,
                                     trick=self.trick_no)
        if not 0 <= seat < r.nseats:
            raise IllegalActionError("core.resign", seat=seat, action="resign",
                                     reason="no such seat", hand=self.hand_no)
        others = [t for t in range(len(r.teams)) if t != r.team_of[seat]]
        self.phase = _OVER
        self.to_act = None
        self.result = MatchResult(others[0] if len(others) == 1 else None, "resign",
                                  self._measure())

    # -------------------------------------------------------------- copies
    def clone(self) -> GameState:
        """An independent copy of this state."""
        new = GameState.__new__(GameState)
        for name in GameState.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = [x[:] if isinstance(x, list) else x for x in v]
            setattr(new, name, v)
        if self.deal_source is not None:  # the clone deals its own copy of the stream
            new.deal_source = copy.deepcopy(self.deal_source, {id(self.rules): self.rules})
        return new


def _or_all(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def obligation_of(state: GameState) -> Obligation | None:
    """The play duties in force for the current trick."""
    return state._ob_stock if state.in_stock_phase else state._ob_no_stock
