"""The game state of a whole match: the data, and the dispatch to the mechanisms.

A :class:`GameState` starts a match; dealing is a chance event supplied from
outside (:meth:`GameState.deal`), either from a recorded deck order or from
the seeded generator (:func:`new_match`). After that, the
seat to act picks one of :meth:`GameState.legal_actions` and calls
:meth:`GameState.apply`. Every refused action raises
:class:`~mariage.errors.IllegalActionError` naming the rule that forbids it.

The rules themselves are run by the mechanisms of :mod:`mariage.engine.mechanisms`
(dealing, trick play and duties, declarations, asks, exchange of a trump,
calling out, scoring, match end), one module each; this class holds the data
they share and sends each action to the one that runs it.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
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

import operator
from collections.abc import Sequence
from typing import Any, Protocol, SupportsIndex, cast

from .actionfields import FIELDS_OK, check_fields
from .actions import Action, Play
from .actiontext import action_text
from .arguments import check_rules as _check_rules
from .arguments import check_state, register_state_class, seat_number
from .copies import clone_state
from .deals import SeededDeals
from .dispatch import dispatch_of
from .freshhand import hand_resetter, match_starter
from .journal import CARD_TRAIL, Journal, Marks, Undoable
from .mechanisms import DEFAULT_MECHANISMS, Mechanisms, refuse
from .outcomes import HandRecord, MatchResult, made_records
from .phase import DEAL as _DEAL
from .phase import OVER as _OVER
from .phase import PLAY as _PLAY
from .phase import Phase
from .rules import Obligation, Rules
from .statepickle import restore_state, saved_state
from .stateslots import STATE_SLOTS

__all__ = ["GameState", "HandRecord", "MatchResult", "Phase", "action_text", "expect_state",
           "new_match", "seat_number"]


class DealSource(Protocol):
    """Anything that supplies the next hand's deck and first player."""

    def next_deal(self, state: GameState | None = None) -> tuple[list[int], int | None]: ...


class GameState(Undoable):
    """The state of a match under one :class:`~mariage.engine.rules.Rules`.

    ``first_dealer`` is the seat that deals the first hand; ``None`` only for rules
    without a dealer (``deal.first_dealer: none``, Mariazza), where a seat given is
    not used. ``mechanisms`` replaces the mechanisms that run the rules (see
    :mod:`mariage.engine.mechanisms`); by default, the reference ones.

    The fields a caller reads (a card is its number: its place in the canonical
    deck, :func:`~mariage.engine.deals.canonical_deck`; ``rules.card_code`` names it):

    * ``hand_no`` (from 1), ``phase`` (:class:`Phase`), ``first_dealer``;
      ``dealer``, ``leader`` and ``to_act`` as in the protocol's ``state``
      (``docs/protocol.rst``; ``dealer`` is ``None`` without a dealer);
    * ``hands``: per seat, a bit mask of its cards (bit *k* is card *k*;
      ``rules.cards_of`` and ``rules.format_cards`` read it); ``out``: the seat
      sitting the hand out (``deal.sits_out``), or -1;
    * ``turn_up``: the turned-up card, or ``None``, as the protocol's ``turn_up``;
    * ``stock``: the cards still to be drawn, **the next one last** (``stock[-1]``
      is the top card; under ``turn_up: under_stock`` the turned card is
      ``stock[0]``, drawn last). In the talon games it holds the talon while it
      lies face down, so that ``reversed(stock)`` is the talon in deck order
      (with two players the first packet, then the second); ``talon`` is then
      the bit mask of the talon the declarer took, and ``aside`` the cards laid
      aside unseen (the packet not chosen; in the talon games with closing, the
      stock put aside by a close);
    * ``trick_seats`` and ``trick_cards``: the trick in progress; ``tricks``: the
      finished tricks of the hand, each ``(leader, cards in play order, winner)``;
      ``actions``: the hand's ``(seat, action)`` pairs;
    * ``history``: a :class:`HandRecord` per finished hand (its ``dealer``,
      ``ended``, ``winner``...); ``terminal`` and ``result`` once it is over;
      ``placed`` and ``loser`` where the others play on for the places
      (``match.places``).

    >>> from mariage import load_rules
    >>> GameState(load_rules("marianna"), first_dealer=None)
    Traceback (most recent call last):
    ...
    ValueError: marianna has a dealer: first_dealer must be a seat from 0 to 3, not None
    """

    __slots__ = STATE_SLOTS  # every field of the state (engine.stateslots)

    def __init__(self, rules: Rules, first_dealer: int | None = 0,
                 mechanisms: Mechanisms = DEFAULT_MECHANISMS) -> None:
        _check_rules(rules)
        if not isinstance(mechanisms, Mechanisms):
            raise TypeError(f"mechanisms must be a Mechanisms (the reference ones: "
                            f"DEFAULT_MECHANISMS), not {type(mechanisms).__name__}")
        if first_dealer is not None:
            first_dealer = seat_number(first_dealer, rules.nseats, "first_dealer")
        elif rules.first_dealer != "none":
            raise ValueError(f"{rules.ruleset} has a dealer: first_dealer must be a seat "
                             f"from 0 to {rules.nseats - 1}, not None")
        self.rules = rules
        self.mech = mechanisms
        self._appliers = dispatch_of(mechanisms, rules)
        self.hooks = self._appliers.hooks
        n = len(rules.teams)
        self.match_scores = [0] * n
        self.segni = [0] * n
        self.barrel = [-1] * n  # running totals: hands spent on the barrel (-1: off it)
        self.bolts = [0] * n  # ... bolts counted towards the next penalty
        self.falls = [0] * n  # ... falls off the barrel
        self.concessions = [0] * n  # hands conceded after taking the talon
        self.golden_done = 0  # golden hands scored so far (match.running.golden)
        self.golden_made = 0  # 1 once a golden contract was made
        self.hand_no = 0
        self.first_dealer = first_dealer
        self.dealer: int | None = first_dealer if rules.first_dealer != "none" else None
        self.next_dealer: int | None = None
        self.phase = _DEAL
        #: how the match ended, as its parts (see :attr:`result`), or None
        self._result: tuple[int | None, str, tuple[int, ...]] | None = None
        self._history: list[HandRecord] = []
        self.draw_tricks = (rules.stock_size - rules.talon_out) // rules.hand_seats
        self._tricks_per_hand = rules.hand_size + self.draw_tricks
        self._ob_stock = rules.obligation_stock
        self._ob_no_stock = rules.obligation_no_stock
        self._higher = rules.higher
        # card order and points in force (per trump suit where the pack says so: pack.trump)
        self._strength, self._points = rules.strength, rules.points
        self.pot = 0  # points held over from a tied contract (litige) for the next deal
        self.round_residue = [0] * n  # per team: unrounded total less written (match.rounded)
        self.no_win = 0  # bit mask of the teams that cannot yet win the match on the target
        #: the sides placed so far, first first, where the others play on for the places
        #: (``match.places``); once the match is over, every side, the loser last
        self.placed: tuple[int, ...] = ()
        self.deal_source: DealSource | None = None
        self._undo: Journal | None = None  # snapshots, and trails (engine.fastpath)
        self._marks: Marks | None = None  # undo for marks only: a record per mark
        self.carry_bonus = 0  # game points a drawn hand passes to the next hand's winner
        self._fresh = hand_resetter(type(self), rules)
        self.reset_hand()
        self._ask_dealing()

    def _ask_dealing(self) -> None:
        """Keep the fresh deals the dealing mechanism offers this state, as its class is
        now (asked at the state's making, also by :func:`new_match`'s kept start)."""
        self._deals = self.mech.dealing.dealer_takes(self)  # (the deal of a caller's deck)
        self._lays = self.mech.dealing.dealer_lays(self)  # (of the seeded generator's decks)

    # ------------------------------------------------------------------ setup
    def reset_hand(self) -> None:
        """Clear everything that belongs to one hand (the dealing mechanism calls this).

        It sets what :meth:`_new_hand` sets, by code generated once per ruleset
        (:func:`mariage.engine.freshhand.hand_resetter`): every list new, as there.
        """
        self._fresh(self)

    def _new_hand(self) -> None:
        """What every field of one hand holds when it starts (run once per ruleset)."""
        r = self.rules
        n, t = r.nseats, len(r.teams)
        self.hands = [0] * n
        self.known = [0] * n
        self.out = -1  # the seat sitting this hand out (deal.sits_out), or -1
        self.stock: list[int] = []
        self.talon = 0  # the talon taken by the declarer (mechanisms.talon), as a mask
        self.trump = -1
        self.trump_next = -1  # a trump declared to rule from the next trick on (or -1)
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.tricks: list[tuple[int, tuple[int, ...], int]] = []  # (leader, cards, winner)
        self.leader = self.trick_no = self.decl_count = self.window_left = 0
        self.trump_set_in_trick = 0  # bit mask of the teams whose declaration set trump
        self.turn_up: int | None = None
        self.to_act: int | None = None
        self.pending_ask: tuple[int, int, int] | None = None  # (ask, asker, suit)
        self.ask_spent: tuple[int, int] | None = None  # (trick, seat): a failed ask, not counted
        self.split: tuple[int, int, int] | None = None  # (ask, team, suit)
        self.captured = [0] * t
        self.tricks_won = [0] * t
        self.decl_points = [0] * t
        self.game_points = [0] * t
        self.held = [0] * n
        self.decl_this_trick = [0] * n
        decls = r.declarations
        self.used_suit = [[0] * n for _ in decls] if decls else []
        self.used_hand = [[False] * n for _ in decls] if decls else []
        self.declared: list[tuple[int, int, int, int]] = []  # (seat, decl or -1-ask, suit, value)
        self.forced = [-1] * n
        self.last_winner = -1
        self.actions: list[tuple[int, Action]] = []
        self.hand_over_reason = ""
        self.deal_outcome = ""  # made, failed or tied, once the takers' deal is scored
        self._decl_open = self._free_play = False
        # ---- talon games: a close ends the stock phase early, so these are per hand
        self.draw_tricks = (r.stock_size - r.talon_out) // r.hand_seats  # talon: taken once
        self._tricks_per_hand = r.hand_size + self.draw_tricks
        self.closed_by = self.claim_by = -1  # the seat that closed the stock / claimed, or -1
        self.close_opp_points = 0  # the closer's opponent at the close: counted points
        self.close_opp_tricks = 0  # ... and tricks won
        self.close_from_lead = True  # closed on lead (not between a trick and the draw)
        self.aside: list[int] = []  # the stock, out of play after a close
        self.lead_mask = 0  # cards one of which the leader must lead (declared cards)
        self.claim_ok = False
        # ---- announcements held in hand (seat, combo, key card, cards) and the pair said
        self.announced: list[tuple[int, int, int, int]] = []
        self.pair_by = -1  # the seat that said the pair of trumps, or -1
        self.strain = -1  # a contract without one trump suit (rules.strain_names), or -1
        self.pairs_said: list[tuple[int, int]] = []  # such a contract: (seat, suit) per pair
        self.bid_suit = -1  # the trump suit of the standing bid (suit_auction), or -1
        self.reset_bidding()

    def reset_bidding(self) -> None:
        """Clear the auction, passing, contract and trump calls of one hand."""
        n = self.rules.nseats
        self.auction_passed = [False] * n
        self.high_bid = self.contract = self.pass_step = self.kontras = self.called = 0
        self.high_bidder = self.declarer = -1  # -1: nobody (yet)
        self.holder_turn = False
        self.blind = False  # the standing bid is a blind one (auction.blind)
        self.double_window: tuple[int, ...] = ()  # seats still to say whether they double
        self.ask_level = [0] * n
        self.call_credit = [0] * n  # per seat: bit mask of the suits credited to him
        self.question: tuple[int, int, int] | None = None  # (kind, asker, suit)

    def deal(self, deck: Sequence[int] | Sequence[str], first_player: int | None = None) -> None:
        """Deal the next hand from ``deck`` (top card first; numbers or codes).

        ``first_player`` is needed, and only allowed, where the rules have no
        dealer and choose the first player by lot each hand.
        """
        if first_player is not None and first_player.__class__ not in (int, bool) \
                and hasattr(first_player, "__index__"):  # a numpy integer: a plain one
            first_player = operator.index(cast(SupportsIndex, first_player))
        if self._undo is not None:
            self._journaled(self.deal, deck, first_player)
            return
        if self._marks is not None:  # (anything may change: the whole state kept)
            self._marks.widen(self)
        takes = self._deals  # (Dealing.dealer_takes: () where not the reference)
        if takes and type(deck) is list:
            dealer = self.dealer
            if takes[-1 if dealer is None else dealer](self, deck, dealer, first_player):
                return  # checked and dealt; else the mechanism says why it cannot be
        self.mech.dealing.deal(self, deck, first_player)

    # ------------------------------------------------------------ queries
    @property
    def history(self) -> list[HandRecord]:
        """A :class:`HandRecord` per finished hand, oldest first (the state's own list;
        the end of a hand appends its fields, made a record by the first read:
        :func:`~mariage.engine.outcomes.made_records`)."""
        records: list[Any] = self._history
        return made_records(records) if records and records[-1].__class__ is tuple else records

    @history.setter
    def history(self, value: list[HandRecord]) -> None:
        self._history = value

    @property
    def result(self) -> MatchResult | None:
        """How the match ended (the winning side or ``None``, why, the scores), or
        ``None`` while it goes on. The state keeps its parts, a plain tuple (the end
        of a hand writes them without making a record that nobody may read); each
        read makes the record of them.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("schnapsen"), 1)
        >>> state.resign(0)
        >>> state.result, state.result == state.result
        (MatchResult(winner=1, reason='resign', scores=(0, 0)), True)

        Where the others play on for the places after the first side wins
        (``match.places``, e.g. Sixty-six for three's ``three_hand_play_for_loser``), the
        winner is the first placed and the match ends once a second one is:
        :attr:`placed` then lists every side in order and :attr:`loser` names the last.
        """
        parts = self._result
        return None if parts is None else MatchResult(*parts)

    @result.setter
    def result(self, value: MatchResult | None) -> None:
        if value is not None and not isinstance(value, MatchResult):
            raise TypeError(f"result is a MatchResult or None, not {type(value).__name__}")
        self._result = None if value is None else (value.winner, value.reason, value.scores)

    @property
    def loser(self) -> int | None:
        """The side that lost the match, where the rules play on for the places
        (``match.places``) and the match is over: the last side of :attr:`placed`; ``None``
        otherwise (a match that ends at its first winner names no loser).

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("sixty-six-3", {"three_hand_play_for_loser": True}), 3)
        >>> while not state.terminal:
        ...     state.apply(state.legal_actions()[0])
        >>> state.result.winner, state.placed, state.loser
        (2, (2, 0, 1), 1)
        """
        placed = self.placed
        return placed[-1] if self.phase == _OVER and len(placed) == len(self.rules.teams) \
            else None

    @property
    def terminal(self) -> bool:
        """True once the match is over."""
        return self.phase == _OVER

    @property
    def in_stock_phase(self) -> bool:
        """True while the current trick is one after which cards are drawn."""
        return self.trick_no <= self.draw_tricks

    @property
    def card_points(self) -> tuple[int, ...]:
        """What each card counts in this hand: the rules' points, or those of the
        contract where trumps and plain suits count differently (Belote).

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("marianna"), 1)
        >>> state.card_points == state.rules.points
        True
        """
        return self._points

    def hand_points(self, team: int) -> int:
        """Card points plus counted declarations of ``team`` in the current hand."""
        captured = self.captured
        if type(team) is not int or not 0 <= team < len(captured):
            team = seat_number(team, len(captured), "hand_points: team", "side")
        return captured[team] + self.decl_points[team]

    def sides_in_hand(self) -> tuple[int, ...]:
        """The sides with a seat in this hand: every side but that of a seat sitting out."""
        r = self.rules
        if self.out < 0:  # every side
            return tuple(range(len(r.teams)))
        out = r.team_of[self.out]
        return tuple(t for t in range(len(r.teams)) if t != out)

    def opponent(self, team: int) -> int:
        """The side playing this hand against ``team``, where two sides play a hand:
        of two sides, the other; of more, the other one with a seat in the hand."""
        r = self.rules
        if type(team) is not int or not 0 <= team < len(r.teams):
            team = seat_number(team, len(r.teams), "opponent: team", "side")
        if len(r.teams) == 2:
            return 1 - team
        out = r.team_of[self.out] if self.out >= 0 else -1  # the side sitting out, if any
        for t in range(len(r.teams)):
            if t != team and t != out:
                return t
        raise ValueError(f"no side plays this hand against side {team}")

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in playing order, passing over the one sitting out."""
        n = self.rules.nseats
        if seat.__class__ is not int or not 0 <= seat < n:  # 1.5 gave 2.5, -1 seat 0
            seat = seat_number(seat, n, "next_seat: seat")
        nxt = seat + 1 if seat + 1 < n else 0
        if nxt == self.out:
            nxt = nxt + 1 if nxt + 1 < n else 0
        return nxt

    def standing(self) -> tuple[int, ...]:
        """The scores the match is decided on, per team (points, or hands won)."""
        return self.mech.match_end.measure(self)

    def current_winner(self) -> int:
        """Index in the trick of the card now winning it (the trick must not be empty)."""
        return self.mech.tricks.winner_index(self)

    def legal_plays(self, seat: int) -> int:
        """The bit mask of cards ``seat`` may play now (ignores whose turn it is)."""
        if seat.__class__ is not int or not 0 <= seat < self.rules.nseats:
            seat = seat_number(seat, self.rules.nseats, "legal_plays: seat")
        return self._appliers.legal_plays(self, seat)  # TrickPlay.legal_plays (generated)

    def legal_actions(self, seat: int | None = None) -> Sequence[Action]:
        """Every action ``seat`` (default: the seat to act) may take now, in a stable order.

        In play, what the mechanisms offer before a card (declarations, asks,
        exchanges...) comes first, then card plays in canonical card order,
        then the actions open at any moment (calling out). A seat that is not
        to act may only take the latter.
        """
        phase = self.phase
        to_act = self.to_act
        if phase == _PLAY and (seat is None or seat == to_act):
            # offers, cards and actions open at any time: generated code (engine.fastpath)
            assert to_act is not None
            return self._appliers.play_legal(self, to_act)
        if phase == _DEAL or phase == _OVER:  # noqa: SIM109 - no tuple built per call
            return []
        table = self._appliers
        if seat is None or seat == to_act:
            assert to_act is not None
            seat = to_act
        else:
            seat = seat_number(seat, self.rules.nseats, "legal_actions: seat")
            out: list[Action] = []
            for offer in table.any_time:
                offer(self, seat, out)
            return out
        listed = table.phase_legal[phase](self, seat)
        out = []
        for offer in table.any_time_in.get(phase, table.any_time):
            offer(self, seat, out)
        # a phase may list its actions lazily (the sets of cards to pass, CardSets):
        # kept so where nothing is open at any time
        return [*listed, *out] if out else listed

    # ---------------------------------------------------------------- apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for ``seat`` (default: the seat to act).

        Raises :class:`IllegalActionError` (with the rule ID) if it is not legal;
        the state is then unchanged.
        """
        journal = self._undo
        if journal is None:
            to_act = self.to_act
            if type(action) is Play and self.phase == _PLAY and (seat is None or seat == to_act):
                # the card and its trick's end: generated code (engine.fastpath.play_apply)
                assert to_act is not None
                self._appliers.apply_play(self, to_act, action)
                if self.deal_source is None or self.phase != _DEAL:  # the usual card
                    return
            elif seat is None and to_act is not None and self._marks is None and (
                    plain := self._appliers.to_act_plain.get(type(action))) is not None \
                    and self.phase != _DEAL and self.phase != _OVER:
                plain(self, to_act, action)  # (what the lines below come to: no field to
                # check, nothing for marks to keep)
            else:
                if self._marks is not None and type(action) not in self._appliers.mark_free:
                    self._marks.widen(self, type(action))  # (what it writes kept: Marks)
                if type(action) is not Play:  # a card is checked by the card play
                    fields_ok = FIELDS_OK[type(action)]
                    if fields_ok is not None and not fields_ok(action):
                        check_fields(self, action, seat)  # Bid(None): refused, saying why
                if seat is None and to_act is not None:  # sent by the seat to act
                    phase = self.phase
                    applier = self._appliers.to_act.get(type(action))
                    if applier is None or phase == _DEAL or phase == _OVER:  # noqa: SIM109
                        self._dispatch(action, seat)  # refused there, saying why
                    else:  # what _dispatch would call, looked up once
                        applier(self, to_act, action)
                else:
                    self._dispatch(action, seat)
            if self.phase == _DEAL and self.deal_source is not None:
                self._deal_next()
            return
        # undo on: a card journals only what it changes (a trail), else a snapshot
        to_act = self.to_act
        if type(action) is Play and self.phase == _PLAY and (seat is None or seat == to_act):
            assert to_act is not None
            table = self._appliers
            trail = table.play_trail
            if trail is not None:  # generated code (engine.fastpath.play_apply, trail=True)
                trail(self, to_act, action, journal)
                return
            if table.trail_plays and len(self.trick_cards) + 1 < self.rules.hand_seats:
                # the reference apply_play refuses a card before changing anything,
                # and within a trick runs nothing else: no entry if refused
                entry = [CARD_TRAIL, to_act, self.known[to_act], self.forced[to_act]]
                table.apply_play(self, to_act, action)
                journal.append(entry)
                return
        if type(action) is not Play:
            fields_ok = FIELDS_OK[type(action)]
            if fields_ok is not None and not fields_ok(action):
                check_fields(self, action, seat)
        kept = self._appliers.action_trails.get(type(action))
        if kept is not None and self.deal_source is None:  # (else a deal may follow)
            self._trailed(kept, action, seat)
            return
        self._journaled(self.apply, action, seat)

    def _deal_next(self) -> None:
        """Deal the next hand from :attr:`deal_source`: a deck the seeded generator
        shuffled for these very rules is an order of the pack by construction and is not
        checked again (:meth:`Dealing.deal_own`); any other (a gathered pack is made from
        the state's own cards) is, as by :meth:`deal`."""
        source = self.deal_source
        assert source is not None
        if self._marks is not None:  # a new hand: the whole state kept (Marks)
            self._marks.widen(self)
        deck, first = source.next_deal(self)
        if type(source) is SeededDeals and source.rules is self.rules \
                and self.rules.deal_gather_rule is None:
            lays = self._lays  # (Dealing.dealer_lays: what deal_own does, by the dealer)
            if lays and self.phase == _DEAL:
                dealer = self.dealer
                lays[-1 if dealer is None else dealer](self, deck, dealer, first)
            else:
                self.mech.dealing.deal_own(self, deck, first)
        else:
            self.mech.dealing.deal(self, deck, first)

    def _dispatch(self, action: Action, seat: int | None) -> None:
        r = self.rules
        if self.phase == _OVER:  # (a bad seat is named first: seats before phases)
            refuse(self, r.core_over, self._seat_named(seat), action, "the match is over")
        if self.phase == _DEAL:
            refuse(self, r.core_phase, self._seat_named(seat), action,
                   "the next hand has not been dealt")
        to_act = self.to_act
        assert to_act is not None
        if seat is None:
            seat = to_act
        elif seat.__class__ is not int or not 0 <= seat < r.nseats:
            seat = seat_number(seat, r.nseats, "apply: seat")
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
            refuse(self, r.core_phase, seat, action, "this ruleset has no such action"
                   if isinstance(action, Action) else  # type: ignore[arg-type, unused-ignore]
                   "not an action of any game (parse_action(rules, text) makes one of a text)")
        applier(self, seat, action)

    def _seat_named(self, seat: int | None) -> int | None:
        """``seat`` if it is None or a seat of these rules; else :class:`SeatError`."""
        if seat is None or (seat.__class__ is int and 0 <= seat < self.rules.nseats):
            return seat
        return seat_number(seat, self.rules.nseats, "apply: seat")

    def resign(self, seat: int) -> None:
        """``seat`` resigns (a concession, allowed at any moment, even out of turn).

        The match ends at once and the other side wins [core.resign].
        """
        if self._undo is not None:
            self._journaled(self.resign, seat)
            return
        if self._marks is not None:
            self._marks.widen(self)
        self.mech.match_end.resign(self, seat)

    # ---------------------------------------------------------------- display
    def __repr__(self) -> str:
        from .display import state_repr

        return state_repr(self)

    def _repr_html_(self) -> str:
        """The state as an HTML table, for notebooks (:mod:`mariage.engine.display`)."""
        from .display import state_html

        return state_html(self)

    # -------------------------------------------------------------- copies
    def clone(self) -> GameState:
        """An independent copy of this state.

        Lists are copied (a list of lists one level deeper), the deal source
        (:attr:`deal_source`) is copied by its state, so the copy deals the
        same stream on its own, and everything else (the compiled rules, the
        mechanisms, numbers, tuples, frozen records) is shared. The copy keeps
        undo on if this state has it on, with an empty journal. The copying
        code is generated from ``__slots__`` (see :mod:`mariage.engine.copies`).
        """
        return clone_state(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """:func:`copy.deepcopy` is :meth:`clone` (the shared parts are immutable)."""
        return self.clone()

    __copy__ = clone  # copy.copy too: a copy sharing the hands would play on both

    def __getstate__(self) -> dict[str, Any]:
        """The state's data for :mod:`pickle`: every slot set, but the code made from the
        rules, which :meth:`__setstate__` makes again, and undo's journal: as with
        :meth:`clone`, the copy keeps undo on if this state has it on, with an empty
        journal (:mod:`mariage.engine.statepickle`).

        >>> import pickle
        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("marianna"), 1)
        >>> copy = pickle.loads(pickle.dumps(state))
        >>> copy.legal_actions() == state.legal_actions(), copy.hands == state.hands
        (True, True)
        """
        return saved_state(self)

    def __setstate__(self, saved: dict[str, Any]) -> None:
        restore_state(self, saved)


def obligation_of(state: GameState) -> Obligation | None:
    """The play duties in force for the current trick."""
    return state._ob_stock if state.in_stock_phase else state._ob_no_stock


def in_turn_only(state: GameState, action: Action) -> bool:
    """Is ``action`` taken only from the seat to act? Then :meth:`GameState.apply` refuses
    it from any other seat with ``core.turn``, whatever the cards; the kinds a mechanism
    takes from any seat (a callout, a double, a claim to throw the hand in) are not."""
    return type(action) not in state._appliers.any_seat


register_state_class(GameState)  # for the modules below this one (display, deals)


#: the slots :meth:`GameState._ask_dealing` sets
_ASKED = ("_deals", "_lays")


def new_match(rules: Rules, seed: int) -> GameState:
    """Start a match whose deals come from ``seed``, with the first hand dealt.

    ``seed`` is a whole number from 0 to 2**64-1, as records hold it; any other
    (negative, too large, a bool, a float, a string) is refused with a TypeError or
    ValueError (:func:`~mariage.engine.prng.check_seed`).

    Later hands are dealt automatically from the same seeded stream
    (:class:`~mariage.engine.deals.SeededDeals`); also ``mariage.new_match``.

    >>> from mariage import load_rules
    >>> state = new_match(load_rules("marianna"), seed=1)
    >>> state.dealer, state.hand_no
    (1, 1)
    """
    _check_rules(rules)  # before the deals read it
    deals = SeededDeals(rules, seed)
    first = deals.first_dealer  # (a seat, or None for rules without a dealer)
    start = match_starter(GameState, rules, DEFAULT_MECHANISMS, _ASKED)
    if start is None or (first is None) != (rules.first_dealer == "none"):
        state = GameState(rules, first_dealer=first)
    else:  # (GameState() made by code kept per rules; the dealing asked as there)
        state = start(first, first)
        state._ask_dealing()
    state.deal_source = deals
    state._deal_next()
    return state


def expect_state(state: object, call: str) -> GameState:
    """``state`` if it is a :class:`GameState`, else a ``TypeError`` naming ``call`` (a
    function of the API given a record, the rules or ``None`` failed deep inside).

    >>> expect_state(None, "state_json")
    Traceback (most recent call last):
    ...
    TypeError: state_json: the state is a GameState, not NoneType
    """
    return cast(GameState, check_state(state, call))
