"""OpenSpiel Python games for every ruleset: ``mariage_<ruleset>`` (``-`` becomes ``_``).

Importing this module registers one game per bundled ruleset with
``pyspiel``; :func:`register` registers a ruleset with options of your own.

* The deal is chance: where the ruleset draws the first dealer or the first
  player by lot, a chance node picks that seat; then each card of the deck,
  top first, is a chance node over the cards not yet placed (so every deck
  order is equally likely).
* A player's actions are the ids of :class:`~mariage.ai.encoding.ActionSpace`.
* The game parameter ``hands`` (default 1) ends the game after so many hands
  (0: play the match to its end, at most 100 hands). The returns are +1 for
  each player of the team that won the match, or that leads once the hands
  are played, -1 for the others, 0 each on equal standing.
* The information state string of a player is everything it has seen, in
  order: its cards as dealt, the turned-up card, every action, each card it
  drew. The observation string and tensor come from
  :func:`mariage.observe` of its seat.

>>> import pyspiel
>>> game = pyspiel.load_game("mariage_mariazza")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from mariage.engine.actions import action_text
from mariage.engine.deals import SeededDeals
from mariage.engine.observation import observe
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.spec.compile import load_rules
from mariage.spec.specload import list_rulesets

from .encoding import ActionSpace, Encoder

__all__ = ["game_name", "register"]

_MAX_HANDS = 100


def game_name(ruleset: str) -> str:
    """The OpenSpiel short name of ``ruleset``."""
    return "mariage_" + ruleset.replace("-", "_")


def _hand_bound(rules: Rules) -> int:
    """An upper bound on the chance nodes and decisions of one hand."""
    return 2 + rules.ncards + 4 * rules.ncards + 4 * rules.nseats


class _Observer:
    """The PyObserver of a game: strings and tensors of one player's view."""

    def __init__(self, game: _Game, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.encoder = game.encoder
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: _State, player: int) -> None:
        gs = state.gs
        if gs is None or gs.hand_no == 0:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.encoder.vector(gs, player)

    def string_from(self, state: _State, player: int) -> str:
        if self.perfect_recall:
            return "\n".join(state.logs[player])
        gs = state.gs
        if gs is None or gs.hand_no == 0:
            return f"seat {player}: no deal yet"
        r = gs.rules
        v = observe(gs, player)
        trump = r.suits[v.trump] if v.trump >= 0 else "-"
        turn_up = r.card_code[v.turn_up] if v.turn_up is not None else "-"
        shown = " ".join(f"{r.seat_names[s]}[{r.format_cards(m)}]" for s, m in
                         enumerate(v.shown) if s != player)
        table = " ".join(f"{r.seat_names[s]}:{r.card_code[c]}" for s, c in v.trick)
        return (f"seat {r.seat_names[player]} hand {v.hand_no} trick {v.trick_no} "
                f"cards [{r.format_cards(v.hand)}] shown {shown} table [{table}] "
                f"trump {trump} turnup {turn_up} stock {v.stock_size} "
                f"points {list(v.hand_points)} match {list(v.match_scores)} "
                f"segni {list(v.segni)}")


class _State(pyspiel.State):
    """One match in OpenSpiel: chance nodes for the deals, then the reference state."""

    def __init__(self, game: _Game) -> None:
        super().__init__(game)
        self.game = game
        self.hands = game.hands or _MAX_HANDS
        rules = game.rules
        self.rules = rules
        self.gs: GameState | None = None
        if rules.first_dealer != "lot":
            self.gs = GameState(rules, first_dealer=SeededDeals(rules, 0).first_dealer)
        self.deck: list[int] = []
        self.first: int | None = None
        self.logs: list[list[str]] = [[f"seat {rules.seat_names[p]}"]
                                      for p in range(rules.nseats)]

    def __deepcopy__(self, memo: dict[int, Any]) -> _State:
        new = _State(self.game)
        new.gs = None if self.gs is None else self.gs.clone()
        new.hands = self.hands
        new.deck = list(self.deck)
        new.first = self.first
        new.logs = [list(lines) for lines in self.logs]
        return new

    # -- where the game is
    def _chance_kind(self) -> str | None:
        if self.gs is None:
            return "dealer"
        if self.gs.phase != Phase.DEAL or self._over():
            return None
        if self.rules.first_lead == "lot" and self.first is None:
            return "first"
        return "card"

    def _over(self) -> bool:
        gs = self.gs
        if gs is None:
            return False
        if gs.terminal:
            return True
        return gs.phase == Phase.DEAL and gs.hand_no >= self.hands

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._chance_kind() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.gs is not None and self.gs.to_act is not None
        return self.gs.to_act

    def is_terminal(self) -> bool:
        return self._over()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind = self._chance_kind()
        if kind in ("dealer", "first"):
            n = self.rules.nseats
            return [(s, 1.0 / n) for s in range(n)]
        placed = set(self.deck)
        rest = [c for c in range(self.rules.ncards) if c not in placed]
        return [(c, 1.0 / len(rest)) for c in rest]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.gs is not None
        if player != self.gs.to_act:
            return []
        return self.game.space.legal_ids(self.gs)

    def _apply_action(self, action: int) -> None:
        kind = self._chance_kind()
        r = self.rules
        if kind == "dealer":
            self.gs = GameState(r, first_dealer=action)
            return
        gs = self.gs
        assert gs is not None
        if kind == "first":
            self.first = action
            return
        if kind == "card":
            self.deck.append(action)
            if len(self.deck) == r.ncards:
                gs.deal(self.deck, self.first)
                self.deck, self.first = [], None
                for p in range(r.nseats):
                    line = f"hand {gs.hand_no}: dealt {r.format_cards(gs.hands[p])}"
                    if gs.turn_up is not None:
                        line += f"; turned up {r.card_code[gs.turn_up]}"
                    self.logs[p].append(line)
            return
        seat = gs.to_act
        assert seat is not None
        before = list(gs.hands)
        act = self.game.space.action(action)
        gs.apply(act)
        text = f"{r.seat_names[seat]}:{action_text(r, act)}"
        for p in range(r.nseats):
            self.logs[p].append(text)
            if gs.phase != Phase.DEAL and gs.phase != Phase.OVER:
                drawn = gs.hands[p] & ~before[p]
                if drawn:
                    self.logs[p].append(f"drew {r.format_cards(drawn)}")

    def _action_to_string(self, player: int, action: int) -> str:
        r = self.rules
        if player == int(pyspiel.PlayerId.CHANCE):
            kind = self._chance_kind()
            if kind == "dealer":
                return f"first dealer {r.seat_names[action]}"
            if kind == "first":
                return f"first player {r.seat_names[action]}"
            return f"card {r.card_code[action]}"
        return self.game.space.text(action)

    def returns(self) -> list[float]:
        n = self.rules.nseats
        if not self._over() or self.gs is None:
            return [0.0] * n
        gs = self.gs
        team_of = self.rules.team_of
        if gs.result is not None:
            win = gs.result.winner
        else:
            standing = gs.standing()
            top = max(standing)
            leaders = [t for t, v in enumerate(standing) if v == top]
            win = leaders[0] if len(leaders) == 1 else None
        if win is None:
            return [0.0] * n
        return [1.0 if team_of[p] == win else -1.0 for p in range(n)]

    def __str__(self) -> str:
        if self.gs is None:
            return "before the deal"
        text = repr(self.gs)
        if self.deck:
            text += " deck so far: " + " ".join(self.rules.card_code[c] for c in self.deck)
        return text


class _Game(pyspiel.Game):
    """The OpenSpiel game of one ruleset; made by :func:`register`.

    The rules, action space and encoder are attributes of the class that
    :func:`register` makes (pyspiel may hand back a game without the
    attributes of its instance); ``hands`` is read from the parameters.
    """

    rules: Rules
    space: ActionSpace
    encoder: Encoder

    @property
    def hands(self) -> int:
        return int(self.get_parameters().get("hands", 1))

    def __init__(self, game_type: Any, rules: Rules, params: dict[str, Any] | None) -> None:
        params = params or {}
        space = type(self).space
        hands = int(params.get("hands", 1))
        # with two sides the returns sum to zero; with three or more (every seat its own
        # side, as in Marianna for three) one wins and the others lose: no fixed sum
        extra: dict[str, Any] = {"utility_sum": 0.0} if len(rules.teams) == 2 else {}
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=max(rules.ncards, rules.nseats),
            num_players=rules.nseats, min_utility=-1.0, max_utility=1.0,
            max_game_length=1 + (hands or _MAX_HANDS) * _hand_bound(rules), **extra)
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> _State:
        return _State(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self, iig_obs_type, params)


def register(ruleset: str, options: dict[str, Any] | None = None,
             name: str | None = None) -> str:
    """Register ``ruleset`` (with ``options``) with OpenSpiel; return the game's name."""
    rules = load_rules(ruleset, options or {})
    short = name or game_name(ruleset)
    two_teams = len(rules.teams) == 2
    game_type = pyspiel.GameType(
        short_name=short, long_name=f"mariage {ruleset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_teams and rules.nseats == 2
        else pyspiel.GameType.Utility.CONSTANT_SUM if two_teams
        else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.nseats, min_num_players=rules.nseats,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"hands": 1})

    def init(self: _Game, params: dict[str, Any] | None = None) -> None:
        _Game.__init__(self, game_type, rules, params)

    cls = type(f"Game_{short}", (_Game,), {"__init__": init, "rules": rules,
                                            "space": ActionSpace(rules),
                                            "encoder": Encoder(rules)})
    _CLASSES.append(cls)  # kept alive for as long as pyspiel may call it
    pyspiel.register_game(game_type, cls)
    return short


_CLASSES: list[type] = []


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
