"""Information-set Monte Carlo tree search: the built-in ``ismcts`` player.

:class:`ISMCTS` searches one tree over what the seat to act knows, each iteration on a
fresh determinization of the cards it cannot see (:func:`~mariage.arena.search.determinize`),
guided by the ``greedy`` player (:mod:`mariage.arena.bots`) and playing hands out as it
plays them. It is a bot of ``mariage play --bots`` and ``mariage match --bot`` (there
``--playouts`` is its number of iterations) and a policy of :mod:`mariage.ai.policies`.

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("schnapsen"), seed=2)
>>> ISMCTS(seed=1, iterations=30).choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time

from mariage.engine.actions import Action
from mariage.engine.phase import DEAL, OVER
from mariage.engine.state import GameState
from mariage.errors import IllegalActionError

from .cardplay import shown_voids
from .plainbots import GreedyBot, sensible_actions
from .search import determinize, outcome

__all__ = ["ISMCTS", "ROLLOUTS", "seat_to_act"]

#: how :class:`ISMCTS` plays a hand out below its tree
ROLLOUTS = ("greedy", "random")


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


class _Node:
    """One node of the information-set tree: per action, visits and total reward (for
    the side of ``seat``, the seat that acts there, -1 until it has chosen there)."""

    __slots__ = ("children", "seat", "total", "visits")

    def __init__(self) -> None:
        self.seat = -1
        self.children: dict[Action, _Node] = {}
        self.visits: dict[Action, int] = {}
        self.total: dict[Action, float] = {}


class ISMCTS:
    """Single-observer information-set MCTS over the rest of the hand.

    Each iteration deals the cards the seat cannot see at random, never a card to a seat
    in a suit it showed it lacks (where a duty to follow tells it and nobody drew since:
    :func:`~mariage.arena.cardplay.shown_voids`), walks down the tree choosing among the
    sensible actions legal in that deal (no call-out or claim that would fail) by UCB1
    (constant ``exploration``), adds one node, plays the hand out and backs up
    :func:`~mariage.arena.search.outcome` for the side of the seat that acted at each
    node, squashed into [-1, 1] by ``tanh`` of it over a quarter of the pack's points:
    each seat searches for its side's result, partners alike. The budget is
    ``iterations`` or ``seconds``, whichever ends first. The answer is the most visited
    action at the root (:attr:`tree` keeps the last search's root).

    ``rollout`` is how the hand is played out below the tree: ``"greedy"`` (the default)
    as the ``greedy`` player plays, each choice made at random instead with probability
    ``epsilon``; ``"random"`` as the ``random`` player plays (to a far running total, the
    lowest bid and keeping the contract).

    ``prior`` (default 5) guides the tree by the ``greedy`` player's choice in each node
    (progressive bias and widening): that choice is tried first and adds ``prior / (1 +
    its visits)`` to its UCB1 value, and a node of ``n`` visits tries no more than ``1 +
    isqrt(n)`` actions. A small budget so keeps to the greedy choice unless the search
    finds better, where an auction's many bids would each get too few visits to be told
    apart. ``prior=0`` is plain UCB1 (every action tried once first).

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("mariglia"), seed=2)
    >>> ISMCTS(seed=1, iterations=20, rollout="random").choose(state) in state.legal_actions()
    True
    >>> ISMCTS(rollout="smart")
    Traceback (most recent call last):
    ...
    ValueError: rollout is one of greedy, random, not 'smart'
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, rollout: str = "greedy",
                 epsilon: float = 0.0, prior: float = 5.0) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout is one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon is a share from 0 to 1, not {epsilon!r}")
        if not prior >= 0.0:
            raise ValueError(f"prior is a weight, 0 or more, not {prior!r}")
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.rollout = rollout
        self.epsilon = 1.0 if rollout == "random" else epsilon
        self.greedy = GreedyBot(seed)
        self.prior = prior
        self.tree = _Node()

    def choose(self, state: GameState) -> Action:
        """Search from the view of the seat to act and return its most visited action
        (a single sensible action at once, without a search)."""
        seat = seat_to_act(state)
        acts = sensible_actions(state, cautious_bids=False)
        if len(acts) == 1:
            return acts[0]
        self.tree = root = _Node()
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        rng = self.rng
        voids = shown_voids(state, after=state.draw_tricks)
        for _ in range(self.iterations):
            if deadline is not None and time.monotonic() > deadline:
                break
            self._iterate(root, determinize(state, seat, rng, voids))
        return max(acts, key=lambda a: (root.visits.get(a, 0), root.total.get(a, 0.0)))

    def _iterate(self, root: _Node, trial: GameState) -> None:
        rules = trial.rules
        path: list[tuple[_Node, Action, int]] = []
        node = root
        rng = self.rng
        while trial.phase != DEAL and trial.phase != OVER:
            seat = trial.to_act
            assert seat is not None
            node.seat = seat
            acts = sensible_actions(trial, cautious_bids=False)
            visits = node.visits
            hint = self.greedy.choose(trial) if self.prior else None
            untried = [a for a in acts if a not in visits]
            parent = sum(visits.get(a, 0) for a in acts)
            if hint is not None and hint not in visits:
                untried = [hint]
            elif hint is not None and len(acts) - len(untried) >= 1 + math.isqrt(parent):
                untried = []  # widened as the node is visited: 1 + its square root
            if untried:
                action = untried[rng.randrange(len(untried))]
                node.visits[action] = 0
                node.total[action] = 0.0
                path.append((node, action, rules.team_of[seat]))
                if not self._apply(trial, action):
                    return
                break
            log_n = math.log(parent or 1)
            prior = self.prior
            action = max((a for a in acts if a in visits),
                         key=lambda a: node.total[a] / max(1, visits[a])
                         + self.c * math.sqrt(log_n / max(1, visits[a]))
                         + (prior / (1 + visits[a]) if a == hint else 0.0))
            path.append((node, action, rules.team_of[seat]))
            if not self._apply(trial, action):
                return
            node = node.children.setdefault(action, _Node())
        self._play_out(trial)
        scale = max(1.0, rules.pack_points / 4)
        for node, action, team in path:
            node.visits[action] += 1
            node.total[action] += math.tanh(outcome(trial, team) / scale)

    def _play_out(self, trial: GameState) -> None:
        """Play the hand out below the tree, as :attr:`rollout` says."""
        rng, epsilon, greedy = self.rng, self.epsilon, self.greedy.choose
        while trial.phase != DEAL and trial.phase != OVER:
            if epsilon and (epsilon >= 1.0 or rng.random() < epsilon):
                acts = sensible_actions(trial)
                trial.apply(acts[rng.randrange(len(acts))])
            else:
                trial.apply(greedy(trial))

    @staticmethod
    def _apply(trial: GameState, action: Action) -> bool:
        try:
            trial.apply(action)
        except IllegalActionError:  # not legal in this deal of the hidden cards
            return False
        return True
