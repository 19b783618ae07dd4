"""OpenSpiel Python games for every ruleset: ``mariage_<ruleset>`` (``-`` becomes ``_``).

Importing this module registers one game per bundled ruleset with
``pyspiel``; :func:`register` registers a ruleset with options of your own.

* The deal is chance: where the ruleset draws the first dealer or the first player by
  lot, a chance node picks that seat; then each card of the deck, top first, is a chance
  node over the cards not yet placed (so every deck order is equally likely); where a
  hand may stop with cards left in a stock drawn after every trick (Mariaggia), the stock
  is placed as drawn: a chance node a card right before the trick's last card that draws
  it, in drawing order; a card never drawn is none (:mod:`mariage.ai.spieldeal`).
* A player's actions are the ids of :class:`~mariage.ai.encoding.ActionSpace`.
  Where sets of several cards are passed (German Marjapussi, Thousand for two), a
  set is picked one card per decision; the other players see that a card was picked,
  not which, and the receiver learns the set when it is complete.
* The game parameter ``chance`` (default ``"explicit"``, as above; exact for CFR,
  MCTS and anything else that lists or weighs chance outcomes): with ``"sampled"``
  the game is sampled-stochastic (``GameType.ChanceMode.SAMPLED_STOCHASTIC``) and has
  no chance nodes: each state plays the match of a seed, dealt by the seeded generator
  (``docs/prng.rst``) exactly as :func:`mariage.new_match` and ``mariage play --seed``
  deal it (gathered and cut packs too), so its history holds only decisions and random
  rollouts or ``rl_environment`` pay for the decisions alone. The game parameter
  ``seed`` (default 0, up to 2**31-1 as an OpenSpiel parameter): the first state the
  game deals plays the match of ``seed``, the next ``seed + 1``, and so on. A state
  takes its seed at its first question (current player, legal actions, an action...),
  not when made: pyspiel makes states that it only observes (to learn a tensor's
  shape) or fills with another state's fields (a clone), and those take none; an
  observation asked before any other question is the view before the deal. pyspiel's
  own serialization of a sampled-stochastic game asks the game for an RNG state, which
  a Python game cannot give (``serialize_game_and_state``, ``random_sim_test`` with
  ``serialize=True``); games and states pickle (a state as its game, seed and actions).
* The game parameter ``hands`` (default 1) ends the game after so many hands
  (0: play the match to its end, at most 100 hands). The returns are +1 for
  each player of the team that won the match, or that leads once the hands
  are played, -1 for the others, 0 each on equal standing.
* The information state string of a player is everything it has seen, in
  order: its cards as dealt, the turned-up card, every action, each card it
  drew. The information state tensor is perfect recall too
  (:class:`~mariage.ai.encoding.InfoStateEncoder`): the player's view when the
  current hand was dealt (its cards, the turned-up card, the match standing, which
  sum up the hands before) followed by every decision of the hand: who, which
  action id, the cards it showed the player (and those it drew, hands open). The
  observation string and tensor come from :func:`mariage.observe` of its seat (no recall).
* ``resample_from_infostate`` (for OpenSpiel's Python ``ISMCTSBot``): the unseen
  cards of the current hand dealt anew, consistent with all the player saw
  (:mod:`mariage.ai.spielresample`); chance nodes only.

>>> import pyspiel
>>> game = pyspiel.load_game("mariage_mariazza")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)
>>> game = pyspiel.load_game("mariage_mariazza", {"chance": "sampled", "seed": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.seed, len(state.history())
(False, 3, 0)
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from itertools import takewhile
from operator import itemgetter
from typing import Any

import pyspiel

from mariage.engine.actions import Action, Give, Play
from mariage.engine.deals import SeededDeals
from mariage.engine.dispatch import dispatch_of
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

from .encoding import ActionSpace, Encoder, InfoStateEncoder, Pick, Snapshot
from .openspiel_observer import Hand, Observer, Step, action_string, info_lines, seen_steps
from .openspiel_picks import pass_cards, pick, pick_ids
from .rewards import standing_rewards
from .spielcopy import UNSET, SharedTuple, StepList, field, fields_set
from .spieldeal import deal, hold_draws, stock_positions
from .spiellag import _CHANCE, REPLAYING, sync, synced, synced_names
from .spielresample import resample
from .spielshape import chance_rows, claim_game_name, game_name, hand_bound

__all__ = ["game_name", "register"]


_MAX_HANDS = 100
# OpenSpiel's kTerminalPlayerId (pyspiel.PlayerId.TERMINAL; written out, so that the
# module imports where pyspiel is a stand-in, as for the docs; the chance player's, -1,
# is spiellag's _CHANCE)
# the phases compared on every action, as module constants (an enum's attribute is slow)
_DEAL, _OVER, _PASSING, _PLAY = Phase.DEAL, Phase.OVER, Phase.PASSING, Phase.PLAY
_TERMINAL = -4
#: the largest action id pyspiel takes (a C++ int64)
_ACTION_MAX = 2**63 - 1
#: the fields a sampled-chance state sets at its first question (_State._start)
_LAZY = frozenset({"gs", "seed", "deals", "_kind", "_done", "_player"})
#: the fields of a state (its slots)
_FIELDS = ("game", "hands", "rules", "gs", "seed", "deals", "deck", "rest", "first", "hands_before",
           "dealt_view", "steps_all", "hidden_steps", "dealt_hands", "turn_up", "picked", "_picks",
           "_nothing", "_space", "_rows", "_card_trail", "_hand_seats", "_plays", "_ncard_ids",
           "_card_path", "_pick_range", "_passing_ids", "_kind", "_done", "_player", "_lag",
           "_deck_lag", "undrawn", "undrawn_at", "drawn_at", "_undealt")


class _State(pyspiel.State):
    """One match in OpenSpiel: chance nodes for the deals, then the reference state.

    Where the match stands (which chance node, or over) is kept in two fields set
    after every action, so OpenSpiel's many questions cost a field read each.

    The fields are slots (an instance dict's item of a pyspiel state costs several times
    as much); pyspiel's C++ copies ``__dict__`` for a clone: here the fields set.
    """

    __slots__ = _FIELDS

    def __getstate__(self) -> dict[str, Any]:
        """A state pickles as its game, its seed (sampled chance) and the actions taken
        (its generated code does not)."""
        return {"game": self.game, "seed": self.seed, "actions": list(self.history())}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__init__(saved["game"], saved.get("seed"))  # type: ignore[misc]
        for action in saved["actions"]:
            self.apply_action(action)

    def __init__(self, game: _Game, seed: int | None = None) -> None:
        super().__init__(game)
        self.game = game
        hands, sampled, _ = game.settings()
        self.hands = hands or _MAX_HANDS
        rules = game.rules
        self.rules = rules
        if not sampled:
            self.gs: GameState | None = None
            #: sampled chance: the match's seed and its deals (None: chance nodes deal)
            self.seed: int | None = None
            self.deals: SeededDeals | None = None
            if rules.first_dealer != "lot":
                self.gs = GameState(rules, first_dealer=SeededDeals(rules, 0).first_dealer)
        elif seed is not None:  # (else the game's next seed, at the first question)
            self.seed = seed
        self.deck: list[int] = []
        self.rest: list[int] = []
        #: a stock dealt as drawn (:mod:`mariage.ai.spieldeal`, which tells these fields)
        self.undrawn: list[int] = []
        self.drawn_at: list[int] = []
        self.undrawn_at, self._undealt = 0, 0 if sampled else len(game.stock_at)
        self.first: int | None = None
        #: the hands before the current one, as the information state lines are made
        #: from them (:func:`~mariage.ai.openspiel_observer.hand_lines`; made only when asked)
        self.hands_before: tuple[Hand, ...] = ()
        #: what the players' observation vectors were made from when the current hand
        #: was dealt (:meth:`dealt_vector`), None before the first deal
        self.dealt_view: Snapshot | None = None
        #: the decisions of the current hand: (seat, action id, per player the cards of
        #: other hands it came to see, per player the cards it drew)
        self.steps_all: list[Step] = StepList()
        #: the decisions (by index) that some players saw only as "cards passed"
        self.hidden_steps: dict[int, tuple[bool, ...]] = {}
        self.dealt_hands: tuple[int, ...] = ()
        self.turn_up: int | None = None
        #: the cards picked so far of a set being passed (factored passing)
        self.picked = 0
        #: while a set is picked, the engine's listing of its first pick, else None
        self._picks: Sequence[Action] | None = None
        self._nothing = (0,) * rules.nseats
        #: the actions applied from Python not yet in pyspiel's history, and how many cards
        #: of :attr:`deck` are in them or in that history (:mod:`mariage.ai.spiellag`)
        self._lag: list[tuple[int, int] | list[int]] = []
        self._deck_lag = 0
        # the game's, read on every action (an attribute of the pyspiel game costs more)
        self._space, self._rows = game.space, game.chance_rows
        self._card_trail, self._hand_seats = game.card_trail, rules.hand_seats
        self._plays, self._ncard_ids = game.card_plays, len(game.card_plays)
        #: what a decision reads, in one field (an attribute of a pyspiel state is read
        #: through its instance dict, about 20 ns each: three times a plain object's):
        #: the card plays by id where the engine's reference card play runs (else none),
        #: the seats of a trick, the nothing seen by anyone (a card within its trick reads
        #: these three), the action space, the ids of the picks and those of the passing
        self._card_path = (game.card_plays if game.card_trail else (), rules.hand_seats,
                           self._nothing, game.space, game.pick_ids, game.passing_ids)
        self._pick_range, self._passing_ids = game.pick_ids, game.passing_ids
        if not sampled:
            self._kind: str | None = None
            self._done = False
            self._settle()
        else:  # dealt at the first question (its fields set above as a plain _State's)
            self.__class__ = _Undealt

    @property  # (the fields set, by name: what pyspiel's C++ copies and sets back)
    def __dict__(self) -> dict[str, Any]:  # type: ignore[override]
        sync(self)  # (read by pyspiel's clone and serialization before its history)
        return fields_set(self, _FIELDS)

    def _start(self) -> None:
        """Deal a sampled-chance state's match: take its seed (the game's next, unless
        given) and deal the first hand. Done at the state's first question, not when
        made: pyspiel makes states it asks nothing (to copy another state's fields into,
        for a clone; to learn a tensor's shape), and those take no seed and deal nothing."""
        seed = field(self, "seed")
        self.seed = self.game.next_seed() if seed is None or seed is UNSET else seed
        self.deals = deals = SeededDeals(self.rules, self.seed)
        self.gs = GameState(self.rules, first_dealer=deals.first_dealer)
        self._settle()

    def clone(self) -> _State:
        """A copy (pyspiel's); a sampled-chance state nobody asked anything yet takes its
        seed first, so that its copy deals the same match."""
        if field(self, "gs") is UNSET:
            self._start()
        return pyspiel.State.clone(self)  # type: ignore[no-any-return]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> _State:
        """A state ``player_id`` cannot tell from this one, its unseen cards of the hand
        dealt anew (:func:`mariage.ai.spielresample.resample`; OpenSpiel's Python
        ``ISMCTSBot`` asks for it). Chance nodes (``chance="explicit"``) only."""
        return resample(self, player_id, probability_sampler)  # type: ignore[no-any-return]

    def dealt_vector(self, player: int) -> Any:
        """The observation vector of ``player`` when the current hand was dealt."""
        assert self.dealt_view is not None
        return self.game.encoder.vector_of(self.dealt_view, player)

    def steps_of(self, player: int) -> list[tuple[int, int, int, int]]:
        """The decisions of the current hand as ``player`` saw them, with the cards it
        learned and drew (action id -1: one seen only as made, as cards passed unseen)."""
        hidden = self.hidden_steps
        return [(seat, -1 if k in hidden and hidden[k][player] else action,
                 learned[player], drew[player])  # type: ignore[index]
                for k, (seat, action, learned, drew) in enumerate(seen_steps(
                    self.steps_all, self.rules.open_hands))]

    def __deepcopy__(self, memo: dict[int, Any]) -> _State:
        new = _State.__new__(_State)
        pyspiel.State.__init__(new, self.game)
        new.game, new.hands, new.rules = self.game, self.hands, self.rules
        new.gs = None if self.gs is None else self.gs.clone()
        new.seed = self.seed
        new.deals = None if self.deals is None else self.deals.clone()
        new.deck, new.rest, new.first = list(self.deck), list(self.rest), self.first
        new.hands_before = self.hands_before  # (its items are never changed)
        new.dealt_view = self.dealt_view  # a snapshot is never changed
        new.steps_all = StepList(self.steps_all)
        new.dealt_hands, new.turn_up = self.dealt_hands, self.turn_up
        new.hidden_steps = dict(self.hidden_steps)
        new.picked, new._picks, new._pick_range = self.picked, self._picks, self._pick_range
        new._kind, new._done, new._nothing = self._kind, self._done, self._nothing
        new._space, new._rows, new._passing_ids = self._space, self._rows, self._passing_ids
        new._card_trail, new._hand_seats = self._card_trail, self._hand_seats
        new._plays, new._ncard_ids, new._player = self._plays, self._ncard_ids, self._player
        new._card_path = self._card_path
        new._lag, new._deck_lag = [], len(self.deck)  # (a new pyspiel state: no history)
        new.undrawn, new.drawn_at = list(self.undrawn), list(self.drawn_at)
        new.undrawn_at, new._undealt = self.undrawn_at, self._undealt
        return new

    # -- where the game is
    def _settle(self) -> None:
        """Set :attr:`_kind` (the chance node to come, or None), :attr:`_done` and
        :attr:`_player` (OpenSpiel's current player)."""
        gs = self.gs
        if gs is None:
            self._kind, self._done, self._player = "dealer", False, _CHANCE
            return
        phase = gs.phase
        if phase != _DEAL and phase != _OVER:  # a decision (most often)
            to_act = gs.to_act
            assert to_act is not None
            self._kind, self._done, self._player = None, False, to_act
            return
        # the match is over, or the hands asked for are played; else a deal is next
        done = phase == _OVER or gs.hand_no >= self.hands
        self._done = done
        if done:
            self._kind, self._player = None, _TERMINAL
            return
        deals = self.deals
        if deals is not None:  # sampled chance: the next hand from the seeded stream
            self.deck, self.first = deals.next_deal(gs)
            deal(self, own=self.rules.deal_gather_rule is None)
            return
        if self.rules.first_lead == "lot" and self.first is None:
            self._kind = "first"
        else:
            if not self.deck:
                self.rest = list(range(self.rules.ncards))
            self._kind = "card"
        self._player = _CHANCE

    def _chance_kind(self) -> str | None:
        return self._kind

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._done

    # Python callers get these two without a round trip through pyspiel's C++ (which
    # calls back is_terminal, current_player three times and _legal_actions, and copies
    # the list twice); C++ callers still take that road. Same answers as pyspiel's.
    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        now = self._player  # (a seat, the chance player, or terminal once done)
        if now < 0:
            if now != _CHANCE:  # (the end)
                return []
            kind = self._kind  # (the cards left, in card order, as the outcomes)
            return list(self.rest if kind == "card" or kind == "draw"
                        else range(self.rules.nseats))
        if player is None or player == now:  # (the seat to act, as in the state)
            gs = self.gs
            assert gs is not None
            phase = gs.phase
            if phase == _PLAY:
                return self._space.play_ids(gs)
            if phase == _PASSING and self._pick_range:  # (a set's listing kept)
                return pick_ids(self, gs)
            # (no set picked: legal_ids's other phases, without its tests of them)
            return self._space.listed_ids(gs)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        if player >= self.rules.nseats:
            raise pyspiel.SpielError(f"Called LegalActions for player {player}: the players "
                                     f"are 0 to {self.rules.nseats - 1}")
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        rest = self.rest  # (cards left only while cards are placed: kinds "card", "draw")
        if rest:
            # the game's pairs (card, 1 / cards left) for as many cards left (no pair
            # made), picked in C by one itemgetter (a list comprehension costs more a card)
            left = len(rest)
            if left > 1:
                return [*itemgetter(*rest)(self._rows[left])]
            return [self._rows[1][rest[0]]]
        if self._player != _CHANCE:
            return []
        n = self.rules.nseats
        return [(s, 1.0 / n) for s in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        gs = self.gs
        assert gs is not None
        if player != gs.to_act:
            return []
        return self.game.space.legal_ids(gs, None, self.picked, self._picks)

    def apply_action(self, action: int) -> None:
        """pyspiel's ``apply_action`` answered in Python: the action applied, and kept
        with its player for pyspiel's history until that is read
        (:mod:`mariage.ai.spiellag`; pyspiel's own costs two calls back into Python)."""
        rest = self.rest  # (cards left only at a chance node that places a card)
        if rest and type(action) is int:  # most chance nodes (as _step)
            at = bisect_left(rest, action)  # (in card order: by bisection, not by a scan)
            if at < len(rest) and rest[at] == action:
                del rest[at]
                deck = self.deck
                deck.append(action)  # (kept there: the deck's cards go to _lag when dealt)
                if len(rest) == self._undealt:  # (or those of a draw: spieldeal)
                    self._lag.append(deck[self._deck_lag:] if self._deck_lag else deck)
                    deal(self)  # (a new deck list: the one kept is never changed)
                return
        if type(action) is not int or not 0 <= action <= _ACTION_MAX:
            sync(self)  # (what is no action id: pyspiel converts it, or refuses it)
            pyspiel.State.apply_action(self, action)
            return
        if rest:
            raise ValueError(f"chance outcome {action} is no card left to deal")
        seat = self._player
        gs = self.gs
        plays, hand_seats, nothing = self._card_path[:3]
        if seat >= 0 and action < len(plays) \
                and gs.phase == _PLAY and len(gs.trick_cards) + 1 < hand_seats:  # type: ignore[union-attr]
            gs.apply(plays[action])  # type: ignore[union-attr]  # (a card within its
            self.steps_all.append((seat, action, nothing, nothing))  # trick, as _step)
            self._player = gs.to_act  # type: ignore[union-attr,assignment]
            if self.undrawn and len(gs.trick_cards) + 1 == hand_seats:  # type: ignore[union-attr]
                hold_draws(self, gs)  # type: ignore[arg-type]  # (the draw's cards first)
        else:
            self._step(seat, action)
        self._lag.append((seat, action))  # (after the action: a refused one is not kept)

    def _apply_action(self, action: int) -> None:
        """pyspiel's C++ ``apply_action`` calls this (C++ callers): the actions kept go
        to pyspiel's history first; while they are written, nothing is applied."""
        if self._lag is REPLAYING:
            return
        sync(self)
        self._step(self._player, action)

    def _step(self, seat: int, action: int) -> None:
        """Apply ``action`` of ``seat`` (the current player)."""
        if seat >= 0:  # a decision (not a chance node, not the end)
            gs = self.gs
            assert gs is not None
            plays, hand_seats, nothing, space, pick_range, passing_ids = self._card_path
            if 0 <= action < len(plays) and gs.phase == _PLAY \
                    and len(gs.trick_cards) + 1 < hand_seats:
                # a card within its trick (most decisions), by the engine's reference card
                # play: the seat's hand and what is known of it only lose the card, so
                # nobody comes to see anything (the full check below would find so)
                gs.apply(plays[action])  # (refused, if so, before any change)
                # (no set is being picked in the play phase)
                self.steps_all.append((seat, action, nothing, nothing))
                self._player = gs.to_act  # type: ignore[assignment]  # (a decision next)
                if self.undrawn and len(gs.trick_cards) + 1 == hand_seats:
                    hold_draws(self, gs)  # (the cards of the draw after the trick first)
                return
            if action in pick_range and pick(self, gs, action):
                return
            # another decision: apply it and record what each player came to see by it
            # (written here, not called: a call and the fields it reads again cost more)
            if not 0 <= action < space.size:
                raise ValueError(f"action {action} is not an action id (0 to "
                                 f"{space.size - 1})")
            act = space.actions[action]
            self._picks = None  # (kept only between a set's picks)
            own = gs.hands[:]
            known = gs.known[:]
            # the engine refuses an illegal action before it changes anything
            if action in passing_ids:  # a pick or cards passed: unseen by some
                pass_cards(self, gs, seat, action, act)
            else:  # a card played, a bid, a question...: every player sees it
                gs.apply(act)  # type: ignore[arg-type]  # (not a pick)
                self.picked = 0
            phase = gs.phase
            if phase != _DEAL and phase != _OVER:  # as openspiel_picks.record does
                hands, now_known = gs.hands, gs.known
                self.steps_all.append(
                    (seat, action, nothing, nothing) if hands == own and now_known == known
                    else (seat, action, None, (own, known, hands[:], now_known[:])))
                self._player = gs.to_act  # type: ignore[assignment]
                if self.undrawn and gs.phase == _PLAY \
                        and len(gs.trick_cards) + 1 == hand_seats:
                    hold_draws(self, gs)  # (the cards of the draw after the trick first)
                return
            self.steps_all.append((seat, action, nothing, nothing))
            self._settle()
            return
        kind = self._kind
        if kind == "card" or kind == "draw":  # a card placed in the deck (or the stock's
            rest = self.rest  # next place, spieldeal): the cards not yet placed
            try:
                rest.remove(action)  # (checked before anything changes)
            except ValueError:
                raise ValueError(f"chance outcome {action} is no card left to "
                                 f"{'deal' if kind == 'card' else 'draw'}") from None
            self.deck.append(action)
            self._deck_lag = len(self.deck)  # (pyspiel's C++ keeps this one: synced before)
            if len(rest) == self._undealt:  # (else another card to place: nothing else
                deal(self)  # changed; the stock's cards are placed when drawn)
            return
        if self._done:
            raise pyspiel.SpielError(f"apply_action({action}) on a terminal state: the game "
                                     f"is over")
        r = self.rules
        if not 0 <= action < r.nseats:
            raise ValueError(f"chance outcome {action} is no seat (0 to {r.nseats - 1})")
        if kind == "dealer":
            self.gs = GameState(r, first_dealer=action)
        else:  # "first"
            self.first = action
        self._settle()

    def history_text(self, player: int) -> str:
        """The information state string of ``player``: everything it has seen, in order."""
        return "\n".join(info_lines(self, player))

    def _action_to_string(self, player: int, action: int) -> str:
        chance = self._chance_kind() if player == int(pyspiel.PlayerId.CHANCE) else None
        return action_string(self.rules, self._space, player, chance, action)

    def returns(self) -> list[float]:
        if not self._done or self.gs is None:
            return [0.0] * self.rules.nseats
        return standing_rewards(self.gs)

    def __str__(self) -> str:
        if self.gs is None:
            return "before the deal"
        text = repr(self.gs)
        if self.deck:
            text += " deck so far: " + " ".join(self.rules.card_code[c] for c in self.deck)
        return text


for _name in synced_names(set(vars(_State))):  # (methods that may read the history)
    setattr(_State, _name, synced(_name))


class _Undealt(_State):
    """A sampled-chance state before its first question: the fields that :meth:`_start`
    sets are looked up here, and dealt. Its class only until dealt (then
    :class:`_State` again, whose attribute lookups Python can specialise: a class
    with ``__getattr__`` makes every lookup of its instances slower)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name not in _LAZY:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self._start()  # (sets gs: the class is _State from there on)
        return getattr(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "gs":  # dealt, by _start or by pyspiel's clone copying another's fields
            self.__class__ = _State


class _Game(pyspiel.Game):
    """The OpenSpiel game of one ruleset; made by :func:`register`.

    The rules, action space and encoder are attributes of the class that
    :func:`register` makes (pyspiel may hand back a game without the
    attributes of its instance); ``hands`` is read from the parameters.
    """

    rules: Rules
    space: ActionSpace
    encoder: Encoder
    info_encoder: InfoStateEncoder
    #: per number of cards left to place, the chance outcome (card, probability) of each
    #: card (:meth:`_State.chance_outcomes` picks those left)
    chance_rows: tuple[tuple[tuple[int, float], ...], ...]
    #: the engine's reference card play runs (``trail_plays``): a card within its trick
    #: changes only the seat's hand, what is known of it, the trick and the seat to act
    card_trail: bool
    #: the card plays of the action space (its first ids, in card order)
    card_plays: tuple[Play, ...]
    #: the ids of the picks of the action space (factored passing; empty without)
    pick_ids: range
    #: the ids of the picks and of the sets of cards passed (what some players do not see)
    passing_ids: frozenset[int]
    #: the deck's places of a stock dealt as drawn (:mod:`mariage.ai.spieldeal`; or none)
    stock_at: tuple[int, ...]
    #: per player, the information state lines before the first deal
    first_lines: tuple[tuple[str], ...]

    def settings(self) -> tuple[int, bool, int]:
        """The game parameters ``hands``, ``chance == "sampled"`` and ``seed``, read
        once (pyspiel's ``get_parameters`` makes a new dict at each call)."""
        try:
            return self._settings  # type: ignore[has-type, no-any-return]
        except AttributeError:  # (a game pyspiel handed back without its attributes)
            params = self.get_parameters()
            self._settings = (int(params.get("hands", 1)),
                              params.get("chance", "explicit") == "sampled",
                              int(params.get("seed", 0)))
            return self._settings

    @property
    def hands(self) -> int:
        return self.settings()[0]

    @property
    def sampled(self) -> bool:
        """True with the game parameter ``chance="sampled"``: no chance nodes, each
        state deals from the seeded generator."""
        return self.settings()[1]

    def next_seed(self) -> int:
        """The seed of the next state to deal with sampled chance: ``seed``, then
        ``seed + 1`` and so on (modulo 2**64), one a state."""
        made = getattr(self, "_made", 0)
        self._made = made + 1
        return (self.settings()[2] + made) % 2**64

    def __init__(self, game_types: dict[str, Any], rules: Rules,
                 params: dict[str, Any] | None) -> None:
        params = params or {}
        space = type(self).space
        hands = int(params.get("hands", 1))
        if hands < 0:
            raise ValueError(f"game parameter hands={hands}: the number of hands to play, "
                             f"at least 0 (0: the whole match)")
        chance = params.get("chance", "explicit")
        if chance not in game_types:
            raise ValueError(f"game parameter chance={chance!r}: 'explicit' (chance nodes "
                             f"deal every card) or 'sampled' (each state deals from its seed)")
        seed = params.get("seed", 0)
        if type(seed) is not int or seed < 0:
            raise ValueError(f"game parameter seed={seed!r}: a whole number, at least 0 "
                             f"(the seed of the first state's match, with chance='sampled')")
        self._made = 0
        # with two sides the returns sum to zero; with three or more (every seat its own
        # side, as in Marianna for three) one wins and the others lose: no fixed sum
        extra: dict[str, Any] = {"utility_sum": 0.0} if len(rules.teams) == 2 else {}
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=max(rules.ncards, rules.nseats),
            num_players=rules.nseats, min_utility=-1.0, max_utility=1.0,
            max_game_length=1 + (hands or _MAX_HANDS) * hand_bound(rules), **extra)
        super().__init__(game_types[chance], info, params)

    def new_initial_state(self) -> _State:
        return _State(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Game:
        """A game is never changed (pyspiel shares it): a state's copy shares it too."""
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its name, its parameters and how many states it made (with
        sampled chance, the seed of the next state's match; pyspiel's own serialization
        would ask a sampled-chance game for an RNG state, which a Python game lacks)."""
        return _load_game, (self.get_type().short_name, self.get_parameters(),
                            getattr(self, "_made", 0))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(self, iig_obs_type, params)


def register(ruleset: str, options: dict[str, Any] | None = None,
             name: str | None = None) -> str:
    """Register ``ruleset`` (with ``options``) with OpenSpiel; return the game's name (a
    name held by another game is refused: :func:`~mariage.ai.spielshape.claim_game_name`)."""
    rules = load_rules(ruleset, options or {})
    short = game_name(ruleset) if name is None else name
    if not claim_game_name(short, ruleset, rules, pyspiel.registered_names()):
        return short  # (registered already, with these rules)
    two_teams = len(rules.teams) == 2
    modes = pyspiel.GameType.ChanceMode
    # one type per value of the parameter chance (registered: the explicit one)
    game_types = {chance: pyspiel.GameType(
        short_name=short, long_name=f"mariage {ruleset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=mode,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # two sides (two seats, or two teams of two): one side's +1 is the other's -1
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_teams
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.nseats, min_num_players=rules.nseats,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"hands": 1, "chance": "explicit", "seed": 0})
        for chance, mode in (("explicit", modes.EXPLICIT_STOCHASTIC),
                             ("sampled", modes.SAMPLED_STOCHASTIC))}

    def init(self: _Game, params: dict[str, Any] | None = None) -> None:
        _Game.__init__(self, game_types, rules, params)

    space = ActionSpace(rules)
    cls_name = "Game_" + re.sub(r"\W", "_", short)
    cls = type(cls_name, (_Game,), {"__init__": init, "rules": rules,
                                    "space": space, "encoder": Encoder(rules),
                                    "info_encoder": InfoStateEncoder(rules, space),
                                    "chance_rows": SharedTuple(chance_rows(rules.ncards)),
                                    "card_plays": SharedTuple(takewhile(
                                        lambda a: type(a) is Play, space.actions)),
                                    "pick_ids": range(space.pick_base, space.pick_base
                                                      + rules.ncards * bool(space.pick_size)),
                                    "passing_ids": frozenset(
                                        i for i, a in enumerate(space.actions)
                                        if isinstance(a, Pick) or type(a) is Give),
                                    "stock_at": stock_positions(rules),
                                    "first_lines": tuple((f"seat {name}",)
                                                         for name in rules.seat_names),
                                    "card_trail": dispatch_of(DEFAULT_MECHANISMS,
                                                              rules).trail_plays})
    _CLASSES.append(cls)  # kept alive for as long as pyspiel may call it
    globals()[cls_name] = cls  # found by name, so that games and states pickle
    pyspiel.register_game(game_types["explicit"], cls)
    return short


_CLASSES: list[type] = []


def _load_game(name: str, params: dict[str, Any], made: int) -> _Game:
    """The game ``name`` with ``params`` that has made ``made`` states (unpickling)."""
    game = pyspiel.load_game(name, params)
    game._made = made
    return game  # type: ignore[no-any-return]


def _register_all() -> list[str]:
    registered = set(pyspiel.registered_names())
    out = []
    for ruleset in list_rulesets():
        short = game_name(ruleset)
        if short not in registered:
            register(ruleset)
        out.append(short)
    return out


#: the names of the games registered for the bundled rulesets
GAMES = _register_all()
