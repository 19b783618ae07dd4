"""A long match played on past its bound of steps while its pace carries it to its end.

The search plays a match for the rules of its end within a bound of steps (the long
match, :data:`~mariage.conformance.exercise.LONG_MATCH_STEPS`; a match of hands built
to climb, :data:`~mariage.conformance.exercise.CLIMB_STEPS`). Some matches end a
little past it: a session of 1,000 hands of German Marjapussi takes about 50,000
steps, the bound 40,000. Others end far past it but at a steady pace: Marjapussi's
climber takes about 7 game points a hand of 40 steps, so a match to 5,000 ends in
about 29,000 steps, one to 10,000 in about 58,000, where the bound of a climbing
match is 600 (twenty-third session).

:func:`paced_steps` counts the steps of a walk: up to its bound, then, each time the
bound is spent with the match not over, on to the step at which the match's pace
so far (:func:`progress`: how far the side furthest on has come toward the end)
projects its end, plus the first bound again, as long as that projection is within
``reach``; else it stops. A match that gets nowhere, or too slowly, stops at its
bound as before.

>>> from mariage import load_rules, GameState
>>> state = GameState(load_rules("marjapussi", {"target": 5000}), first_dealer=0)
>>> len(list(paced_steps(600, state, 80_000)))   # no point scored: stop at the bound
600
>>> state.match_scores = [100, 20]               # 2% of the way in 600 steps
>>> steps = paced_steps(600, state, 80_000)
>>> [next(steps) for _ in range(601)][-1], projected_bound(600, state, 600, 80_000)
(600, 30600)
>>> projected_bound(600, state, 600, 20_000)     # too slow for the reach: stop
600
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from mariage.engine.state import GameState, Phase

__all__ = ["paced_steps", "progress", "projected_bound"]


def progress(state: GameState) -> Fraction:
    """How far the match of ``state`` has come toward its end, from 0 (the start) to 1
    (the target of the side furthest on, or the last of a fixed number of hands).
    Where a limit of hands may end the match first, the further of the two.

    >>> from mariage import load_rules, GameState
    >>> state = GameState(load_rules("marjapussi-de", {"hands": 1000}), first_dealer=0)
    >>> state.hand_no = 250
    >>> progress(state)
    Fraction(1, 4)
    >>> state = GameState(load_rules("mariazza", {"hands": 10}), first_dealer=0)
    >>> state.segni = [3, 5]
    >>> progress(state)
    Fraction(1, 2)
    """
    r = state.rules
    end = state.mech.match_end
    if r.match_measure == "hands_played":
        return Fraction(end.hands_counted(state), max(r.match_target, 1))
    done = Fraction(max(end.measure(state), default=0), max(r.match_target, 1))
    if r.match_max_hands:
        done = max(done, Fraction(end.hands_counted(state), r.match_max_hands))
    return done


def projected_bound(steps: int, state: GameState, first: int, reach: int) -> int:
    """The new bound of a walk that has played ``steps`` steps (its first bound
    ``first``) without its match ending: the step at which the pace so far projects the
    end, plus ``first``, at most ``reach``; ``steps`` (stop) where the match has not
    moved or the projection is past ``reach``."""
    done = progress(state)
    if done <= 0:
        return steps
    need = -(-steps // done)  # rounded up
    if need > reach:
        return steps
    return max(steps, min(reach, max(need, steps) + first))


def paced_steps(bound: int, state: GameState | None, reach: int) -> Iterator[int]:
    """The numbers of the steps of a walk bounded by ``bound``, played on past it at the
    pace of ``state``'s match (:func:`projected_bound`, within ``reach``); without
    ``state`` just ``range(bound)``."""
    step = 0
    first = bound
    while True:
        while step < bound:
            yield step
            step += 1
        if state is None or state.phase == Phase.OVER:
            return
        bound = projected_bound(step, state, first, reach)
        if bound <= step:
            return
