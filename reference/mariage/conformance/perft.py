"""Perft for card games: counts of legal action sequences from a fixed deal.

``perft(state, depth)[d]`` is the number of sequences of ``d + 1`` actions, each
legal for the seat to act when it is taken (actions out of turn, such as a
call-out by the seat not to act, are not counted). A hand that ends, or a
match that ends, stops a sequence: nothing follows it until the next deal.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> rules = load_rules("mariglia")
>>> state = GameState(rules, first_dealer=0)
>>> state.deal(canonical_deck(rules))
>>> perft(state, 2)
[10, 50]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from mariage.engine.actions import Action
from mariage.engine.state import GameState

__all__ = ["perft"]


def perft(state: GameState, depth: int,
          visit: Callable[[GameState, Sequence[Action]], None] | None = None) -> list[int]:
    """Counts of legal action sequences of each length 1..``depth`` from ``state``;
    ``visit`` (if given) sees each node counted and its legal actions."""
    counts = [0] * depth

    def walk(st: GameState, d: int) -> None:
        acts = st.legal_actions()
        counts[d] += len(acts)
        if visit is not None:
            visit(st, acts)
        if d + 1 >= depth:
            return
        for a in acts:
            child = st.clone()
            child.apply(a)
            walk(child, d + 1)

    walk(state.clone(), 0)
    return counts
