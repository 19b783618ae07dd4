"""The split of the next deal in ``benchmarks/bench_handend.py --parts`` plays the same game
whichever way it deals.

``--parts`` times each way of dealing the next hand in replays of its own: the public
``deal``, the same after the last hand's lists are dropped, the generated checked deal
called straight, the generated deal without the check, and the hands and stock alone
(the state then dealt by ``deal``). Each way must leave the state as ``deal`` does, or the
recorded actions would not be the game's: over random hands of every ruleset, each way's
replay ends in the same state (hands, scores, records, the hand's actions) as the plain
one. The minimal engine's replay (``--minimal``) times one next deal per hand that does
not start a match, and every action by its kind.
"""

from __future__ import annotations

from typing import Any

import mariage
import pytest
from benchload import load

bench = load("bench_handend")


def _seen(state: Any) -> tuple[Any, ...]:
    """What a replay's last state shows of the game played."""
    return (state.hand_no, state.dealer, list(state.hands), list(state.stock),
            list(state.match_scores), [tuple(r) for r in state.history], list(state.actions),
            list(state.tricks), state.phase, state.to_act, state.trump)


@pytest.mark.parametrize("name", mariage.list_rulesets())
def test_every_way_plays_the_same_game(name: str) -> None:
    script = bench.record(name, 14, 3)
    plan = bench._plan_lays(script)
    probe = mariage.GameState(script.rules, first_dealer=0)
    assert probe._deals and probe._lays and plan  # (every bundled ruleset has them)
    seen = []
    for way in range(len(bench.PART_WAYS)):
        times: list[list[int]] = [[] for _ in range(5)]
        state = bench.part_replay(script, way, plan, times)
        seen.append(_seen(state))
        dealt = sum(1 for new, *_ in script.hands if new is None)
        assert len(times[bench.DEAL]) == dealt > 0
    assert all(s == seen[0] for s in seen[1:])


def test_minimal_replay_times_every_call() -> None:
    script = bench.minimal_script(30, 2)
    times: list[list[int]] = [[] for _ in range(5)]
    bench.minimal_replay(script, times)
    kinds = [kind for _, _, acts in script for _, kind in acts]
    assert len(times[bench.DEAL]) == sum(1 for new, _, _ in script if new is None) > 0
    assert len(times[bench.LEGAL]) == len(kinds)
    for kind in (bench.ORDINARY, bench.TRICK, bench.HAND):
        assert len(times[kind]) == kinds.count(kind) > 0
