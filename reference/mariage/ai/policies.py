"""Policies for agents to learn against and to be measured by: the built-in bots and ISMCTS.

A *policy* picks an action for the seat to act from that seat's view only: it is
given a determinization of the state (:func:`~mariage.arena.search.determinize`), so
it cannot peek at hidden cards even when handed the full state. Policies by name:

``random``
    uniform among the sensible legal actions (no call-out or claim that would fail);
``first``
    the first legal action, in the rules' stable order (the weakest baseline);
``greedy``
    the arena's greedy player: declares, answers, counts the cards played to lead
    masters, smear points and take tricks safely (:mod:`mariage.arena.cardplay`);
``mc``
    flat Monte Carlo over determinizations (the arena's ``mc``);
``ismcts``
    information-set Monte Carlo tree search (:class:`ISMCTS`): one tree over the
    seat's information set, each iteration on a fresh determinization, UCB1 among the
    sensible actions legal in it, a playout of the ``random`` player to the end of the
    hand.

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("schnapsen"), seed=2)
>>> policy = make_policy("ismcts", seed=1, iterations=50)
>>> policy.choose(state) in state.legal_actions()
True
>>> sorted(POLICIES)
['first', 'greedy', 'ismcts', 'mc', 'random']
"""

from __future__ import annotations

import math
import operator
import random
import time
from collections.abc import Callable
from typing import Protocol

from mariage.arena.bots import _sensible, make_bot
from mariage.arena.search import determinize, outcome
from mariage.engine.actions import Action
from mariage.engine.phase import DEAL, OVER
from mariage.engine.state import GameState
from mariage.errors import IllegalActionError

__all__ = ["ISMCTS", "POLICIES", "Policy", "make_policy"]


class Policy(Protocol):
    """Anything that picks a legal action for the seat to act."""

    name: str

    def choose(self, state: GameState) -> Action: ...


def seat_to_act(state: GameState) -> int:
    """The seat a policy chooses for: TypeError unless ``state`` is a
    :class:`~mariage.engine.state.GameState`, ValueError where nobody is to act (the
    match is over, or the next hand is not dealt)."""
    if not isinstance(state, GameState):
        raise TypeError(f"a policy chooses in a GameState, not {type(state).__name__}")
    seat = state.to_act
    if seat is None or state.phase in (DEAL, OVER):
        raise ValueError("no seat to act: " + ("the match is over" if state.phase == OVER
                                               else "the next hand is not dealt"))
    return seat


class _ViewPolicy:
    """A built-in bot that decides on a determinization of the seat's view."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.bot = make_bot(name, seed)
        self.rng = random.Random(seed ^ 0x5EED)
        # a bot that reads no hidden card decides on the state itself (the same choice
        # as on any determinization, without the copy)
        self.public_only = bool(getattr(self.bot, "public_only", False))

    def choose(self, state: GameState) -> Action:
        seat = seat_to_act(state)
        if self.public_only:
            return self.bot.choose(state)
        legal = state.legal_actions()
        for _ in range(8):
            # a guess of the hidden cards can miss what the seat was told (an answer's
            # truth may turn on the asker's card): then guess again
            action = self.bot.choose(determinize(state, seat, self.rng))
            if action in legal:
                return action
        return legal[0]


class _First:
    """The first legal action."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def choose(self, state: GameState) -> Action:
        seat_to_act(state)
        return state.legal_actions()[0]


class _Node:
    """One node of the information-set tree: per action, visits and total reward."""

    __slots__ = ("children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits: dict[Action, int] = {}
        self.total: dict[Action, float] = {}


class ISMCTS:
    """Single-observer information-set MCTS over the rest of the hand.

    Each iteration deals the cards the seat cannot see at random, walks down the tree
    choosing among the sensible actions legal in that deal (no call-out or claim that
    would fail) by UCB1 (an action never tried in
    the node is tried first), adds one node, plays the hand out at random and backs up
    :func:`~mariage.arena.search.outcome` for the side of the seat that acted at each
    node (squashed into [-1, 1] by ``tanh`` of it over a quarter of the pack's points).
    The budget is ``iterations`` or ``seconds``, whichever ends first. The answer is
    the most visited action at the root. The playout plays as the ``random`` player
    does (to a far running total, the lowest bid and keeping the contract).
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration

    def choose(self, state: GameState) -> Action:
        seat = seat_to_act(state)
        acts = _sensible(state, cautious_bids=False)
        if len(acts) == 1:
            return acts[0]
        root = _Node()
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        rng = self.rng
        for _ in range(self.iterations):
            if deadline is not None and time.monotonic() > deadline:
                break
            self._iterate(root, determinize(state, seat, rng))
        return max(acts, key=lambda a: (root.visits.get(a, 0), root.total.get(a, 0.0)))

    def _iterate(self, root: _Node, trial: GameState) -> None:
        rules = trial.rules
        path: list[tuple[_Node, Action, int]] = []
        node = root
        rng = self.rng
        while trial.phase != DEAL and trial.phase != OVER:
            seat = trial.to_act
            assert seat is not None
            acts = _sensible(trial, cautious_bids=False)
            untried = [a for a in acts if a not in node.visits]
            if untried:
                action = untried[rng.randrange(len(untried))]
                node.visits[action] = 0
                node.total[action] = 0.0
                path.append((node, action, rules.team_of[seat]))
                if not self._apply(trial, action):
                    return
                break
            parent = sum(node.visits[a] for a in acts) or 1
            log_n = math.log(parent)
            action = max(acts, key=lambda a: node.total[a] / max(1, node.visits[a])
                         + self.c * math.sqrt(log_n / max(1, node.visits[a])))
            path.append((node, action, rules.team_of[seat]))
            if not self._apply(trial, action):
                return
            node = node.children.setdefault(action, _Node())
        while trial.phase != DEAL and trial.phase != OVER:  # as the random player plays
            acts = _sensible(trial)
            trial.apply(acts[rng.randrange(len(acts))])
        scale = max(1.0, rules.pack_points / 4)
        for node, action, team in path:
            node.visits[action] += 1
            node.total[action] += math.tanh(outcome(trial, team) / scale)

    @staticmethod
    def _apply(trial: GameState, action: Action) -> bool:
        try:
            trial.apply(action)
        except IllegalActionError:  # not legal in this deal of the hidden cards
            return False
        return True


def _ismcts(seed: int) -> Policy:
    return ISMCTS(seed)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": lambda seed: _ViewPolicy("random", seed),
    "first": _First,
    "greedy": lambda seed: _ViewPolicy("greedy", seed),
    "mc": lambda seed: _ViewPolicy("mc", seed),
    "ismcts": _ismcts,
}


def make_policy(name: str, seed: int = 0, iterations: int | None = None,
                seconds: float | None = None) -> Policy:
    """A policy by name (see the module's list); ``iterations`` and ``seconds`` set the
    budget of ``ismcts``. ``seed`` is a whole number (a bool, float or string is refused
    with a TypeError); ``iterations`` at least 1 and ``seconds`` more than 0, or a
    ValueError."""
    if seed.__class__ is not int:
        try:  # a numpy integer is read as the Python int; a bool is no seed
            number = operator.index(seed) if not isinstance(seed, bool) else None
        except TypeError:
            number = None
        if number is None:
            raise TypeError(f"a policy's seed is a whole number, not {seed!r}")
        seed = number
    if iterations is not None and (isinstance(iterations, bool)
                                   or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations must be a whole number, at least 1, not {iterations!r}")
    if seconds is not None and not (isinstance(seconds, int | float)
                                    and not isinstance(seconds, bool) and seconds > 0):
        raise ValueError(f"seconds must be a number of seconds more than 0, not {seconds!r}")
    if name == "ismcts":
        return ISMCTS(seed, iterations=iterations or 200, seconds=seconds)
    try:
        return POLICIES[name](seed)
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)})") from None
