"""The game state of a whole match: the data, and the dispatch to the mechanisms.

A :class:`GameState` starts a match; dealing is a chance event supplied from
outside (:meth:`GameState.deal`), either from a recorded deck order or from
the seeded generator (:func:`mariage.deals.seeded_match`). After that, the
seat to act picks one of :meth:`GameState.legal_actions` and calls
:meth:`GameState.apply`. Every refused action raises
:class:`~mariage.errors.IllegalActionError` naming the rule that forbids it.

The rules themselves are run by the mechanisms of :mod:`mariage.mechanisms`
(dealing, trick play and duties, declarations, asks, exchange of a trump,
calling out, scoring, match end), one module each; this class holds the data
they share and sends each action to the one that runs it.

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .actions import Action, Play, action_text
from .mechanisms import DEFAULT_MECHANISMS, Mechanisms, refuse
from .phase import DEAL as _DEAL
from .phase import OVER as _OVER
from .phase import PLAY as _PLAY
from .phase import Phase
from .rules import Obligation, Rules

__all__ = ["GameState", "HandRecord", "MatchResult", "Phase", "action_text"]


class DealSource(Protocol):
    """Anything that supplies the next hand's deck and first player."""

    def next_deal(self) -> tuple[list[int], int | None]: ...


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
    # bidding games: the contract of the hand
    contract: int = 0  # the game value (0: no contract)
    declarer: int = -1
    made: bool | None = None  # None: nobody bid
    schwarz: tuple[int, ...] = ()  # the teams that won no trick
    kontras: int = 0  # Kontra and Re said


_Applier = Callable[["GameState", int, Any], None]
_Offer = Callable[["GameState", int, list[Action]], None]
_PhaseLegal = Callable[["GameState", int], list[Action]]


@dataclass(frozen=True, slots=True)
class _Dispatch:
    """What the mechanisms of one state do, looked up once (not per action)."""

    appliers: dict[type, _Applier]  # action type -> apply, at the seat's turn
    any_seat: dict[type, _Applier]  # action type -> apply, whoever sends it
    play_offers: tuple[_Offer, ...]  # play phase: actions before the card plays
    any_time: tuple[_Offer, ...]  # actions open to every seat at every moment
    phase_legal: dict[int, _PhaseLegal]  # the other phases' legal actions


def _dispatch_table(mech: Mechanisms, rules: Rules) -> _Dispatch:
    appliers: dict[type, _Applier] = {}
    any_seat: dict[type, _Applier] = {}
    phase_legal: dict[int, _PhaseLegal] = {}
    for m in mech.all():
        for t, name in m.applies:
            appliers[t] = getattr(m, name)
        for t, name in m.any_seat:
            any_seat[t] = getattr(m, name)
        for p in m.phases:
            phase_legal[p] = m.legal_in_phase
    for m in mech.all():  # appliers that take over an action type under these rules
        for t, name in m.applies_for(rules):
            appliers[t] = getattr(m, name)
    return _Dispatch(appliers, any_seat,
                     tuple(m.offer for m in mech.all() if m.offers(rules)),
                     tuple(m.any_time for m in mech.all() if m.offers_any_time(rules)),
                     phase_legal)


class GameState:
    """The state of a match under one :class:`~mariage.rules.Rules`.

    ``mechanisms`` replaces the mechanisms that run the rules (see
    :mod:`mariage.mechanisms`); by default, the reference ones.
    """

    __slots__ = (
        "_appliers",
        "_decl_open",
        "_free_play",
        "_higher",
        "_ob_no_stock",
        "_ob_stock",
        "_tricks_per_hand",
        "actions",
        "ask_level",
        "auction_passed",
        "call_credit",
        "called",
        "captured",
        "contract",
        "deal_source",
        "dealer",
        "decl_count",
        "decl_points",
        "decl_this_trick",
        "declared",
        "declarer",
        "draw_tricks",
        "first_dealer",
        "forced",
        "game_points",
        "hand_no",
        "hand_over_reason",
        "hands",
        "held",
        "high_bid",
        "high_bidder",
        "history",
        "holder_turn",
        "known",
        "kontras",
        "last_winner",
        "leader",
        "match_scores",
        "mech",
        "next_dealer",
        "pass_step",
        "pending_ask",
        "phase",
        "question",
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

    def __init__(self, rules: Rules, first_dealer: int | None = 0,
                 mechanisms: Mechanisms = DEFAULT_MECHANISMS) -> None:
        self.rules = rules
        self.mech = mechanisms
        self._appliers = _dispatch_table(mechanisms, rules)
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
        self.deal_source: DealSource | None = None
        self.reset_hand()

    # ------------------------------------------------------------------ setup
    def reset_hand(self) -> None:
        """Clear everything that belongs to one hand (the dealing mechanism calls this)."""
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
        self.reset_bidding()

    def reset_bidding(self) -> None:
        """Clear the auction, passing, contract and trump calls of one hand."""
        n = self.rules.nseats
        self.auction_passed = [False] * n
        self.high_bid = 0
        self.high_bidder = -1
        self.holder_turn = False
        self.declarer = -1  # -1: nobody (yet)
        self.contract = 0  # the game value; 0: no contract
        self.pass_step = 0
        self.kontras = 0
        self.ask_level = [0] * n
        self.called = 0  # bit mask of the suits called this hand
        self.call_credit = [0] * n  # per seat: bit mask of the suits credited to him
        self.question: tuple[int, int, int] | None = None  # (kind, asker, suit)

    def deal(self, deck: Sequence[int] | Sequence[str], first_player: int | None = None) -> None:
        """Deal the next hand from ``deck`` (top card first; numbers or codes).

        ``first_player`` is needed, and only allowed, where the rules have no
        dealer and choose the first player by lot each hand.
        """
        self.mech.dealing.deal(self, deck, first_player)

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

    def standing(self) -> tuple[int, ...]:
        """The scores the match is decided on, per team (points, or hands won)."""
        return self.mech.match_end.measure(self)

    def current_winner(self) -> int:
        """Index in the trick of the card now winning it (the trick must not be empty)."""
        return self.mech.tricks.winner_index(self)

    def legal_plays(self, seat: int) -> int:
        """The bit mask of cards ``seat`` may play now (ignores whose turn it is)."""
        return self.mech.tricks.legal_plays(self, seat)

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Every action ``seat`` (default: the seat to act) may take now, in a stable order.

        In play, what the mechanisms offer before a card (declarations, asks,
        exchanges...) comes first, then card plays in canonical card order,
        then the actions open at any moment (calling out). A seat that is not
        to act may only take the latter.
        """
        phase = self.phase
        if phase == _DEAL or phase == _OVER:  # noqa: SIM109 - no tuple built per call
            return []
        table = self._appliers
        to_act = self.to_act
        if seat is None or seat == to_act:
            assert to_act is not None
            seat = to_act
        else:
            out: list[Action] = []
            for offer in table.any_time:
                offer(self, seat, out)
            return out
        if phase == _PLAY:
            out = []
            for offer in table.play_offers:
                offer(self, seat, out)
            mask = self.mech.tricks.legal_plays(self, seat)
            plays = self.rules.play_actions
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
        else:
            out = table.phase_legal[phase](self, seat)
        for offer in table.any_time:
            offer(self, seat, out)
        return out

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
            self.mech.tricks.apply_play(self, to_act, action)
        else:
            self._dispatch(action, seat)
        if self.phase == _DEAL and self.deal_source is not None:
            deck, first = self.deal_source.next_deal()
            self.deal(deck, first)

    def _dispatch(self, action: Action, seat: int | None) -> None:
        r = self.rules
        if self.phase == _OVER:
            refuse(self, r.core_over, seat, action, "the match is over")
        if self.phase == _DEAL:
            refuse(self, r.core_phase, seat, action, "the next hand has not been dealt")
        to_act = self.to_act
        assert to_act is not None
        if seat is None:
            seat = to_act
        t = type(action)
        table = self._appliers
        any_seat = table.any_seat.get(t)
        if any_seat is not None:
            any_seat(self, seat, action)
            return
        if seat != to_act:
            refuse(self, r.core_turn, seat, action, f"it is seat {to_act}'s turn")
        applier = table.appliers.get(t)
        if applier is None:
            refuse(self, r.core_phase, seat, action, "this ruleset has no such action")
        applier(self, seat, action)

    def resign(self, seat: int) -> None:
        """``seat`` resigns (a concession, allowed at any moment, even out of turn).

        The match ends at once and the other side wins [core.resign].
        """
        self.mech.match_end.resign(self, seat)

    # -------------------------------------------------------------- copies
    def clone(self) -> GameState:
        """An independent copy of this state."""
        new = GameState.__new__(type(self))
        for name in GameState.__slots__:
            v = getattr(self, name)
            if isinstance(v, list):
                v = [x[:] if isinstance(x, list) else x for x in v]
            setattr(new, name, v)
        if self.deal_source is not None:  # the clone deals its own copy of the stream
            new.deal_source = copy.deepcopy(self.deal_source, {id(self.rules): self.rules})
        return new


def obligation_of(state: GameState) -> Obligation | None:
    """The play duties in force for the current trick."""
    return state._ob_stock if state.in_stock_phase else state._ob_no_stock
