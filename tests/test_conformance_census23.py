"""The census's gaps of the match's tie rules closed in the twenty-third session.

* ``mariazza hands=5000`` and ``hands=10000``: the match is decided on segni won one a
  hand, so it never stands level at the target: the tie rule is argued unreachable
  (:func:`mariage.conformance.unreachable.level_unreachable`), checked here on seeded
  matches of the reference;
* ``marjapussi-de hands=1000``: the session of 1,000 hands takes about 50,000 steps, past
  the long match's 40,000: it is played on at its pace (:mod:`mariage.conformance.pace`);
* ``marjapussi target=5000`` and ``target=10000``: the climbing matches, 7 game points
  a hand, are played on past their bound of 600 steps at their pace, their hands built
  from 4 deals each once past it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from mariage import GameState, load_rules
from mariage.conformance import exercise
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.exercise import CLIMB_STEPS, LONG_MATCH_STEPS, _walk, exercise_tests
from mariage.conformance.pace import paced_steps, progress, projected_bound
from mariage.conformance.unreachable import level_unreachable
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

MARIAZZA_TIE = "mariazza.match.tie"
DE_TIE = "marjapussi-de.match.tie"
FI_TIE = "marjapussi.match.tie"


# ------------------------------------------------------------------ Mariazza's segni
@pytest.mark.parametrize("hands", [4, 5000, 10000])
def test_the_level_match_is_unreachable_where_the_match_is_hands_won(hands: int) -> None:
    """Fails without the argument: the census rows were 27 of 28, the tie unchecked."""
    rules = load_rules("mariazza", {"hands": hands})
    assert level_unreachable(rules) and MARIAZZA_TIE in unreachable_under(rules)


@pytest.mark.parametrize(("ruleset", "options"), [
    ("marjapussi", {"target": 5000}), ("marjapussi-de", {"hands": 1000}),
    ("schnapsen", {}), ("thousand", {}), ("belote", {})])
def test_the_argument_is_not_made_where_a_match_may_stand_level(
        ruleset: str, options: dict[str, Any]) -> None:
    rules = load_rules(ruleset, options)
    assert not level_unreachable(rules)
    assert rules.tie_rule not in unreachable_under(rules)


@pytest.mark.parametrize("seed", range(1, 9))
def test_segni_come_one_at_a_time_and_the_match_never_stands_level(seed: int) -> None:
    """The argument checked on the reference: over seeded matches to 3 segni (target 71
    too, where hands may be played out level), each hand adds at most one segno, and
    the match ends with exactly one side at the target, the winner."""
    for options in ({"hands": 3}, {"hands": 3, "target": 71}):
        rules = load_rules("mariazza", options)
        state = GameState(rules, first_dealer=None)
        rng = SplitMix64(seed)
        before = list(state.segni)
        for _ in range(5000):
            if state.phase == Phase.OVER:
                break
            if state.phase == Phase.DEAL:
                assert sum(state.segni) - sum(before) <= 1
                assert all(a - b in (0, 1) for a, b in zip(state.segni, before, strict=True))
                before = list(state.segni)
                cards = list(range(rules.ncards))
                rng.shuffle(cards)
                first = rng.below(rules.nseats) if rules.first_lead == "lot" else None
                state.deal([rules.card_code[c] for c in cards], first)
                continue
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        assert state.phase == Phase.OVER
        at = [t for t, n in enumerate(state.segni) if n >= rules.match_target]
        assert state.result is not None and at == [state.result.winner]


# ------------------------------------------------------------------ the pace
def test_a_walk_without_a_state_stops_at_its_bound() -> None:
    assert list(paced_steps(7, None, 100)) == list(range(7))


def test_the_bound_is_projected_from_the_pace_within_the_reach() -> None:
    state = GameState(load_rules("marjapussi-de", {"hands": 1000}), first_dealer=0)
    assert projected_bound(40_000, state, 40_000, 80_000) == 40_000  # no hand yet
    state.hand_no = 800
    assert progress(state) == Fraction(4, 5)
    assert projected_bound(40_000, state, 40_000, 80_000) == 80_000  # 50,000 + 40,000 cut
    assert projected_bound(40_000, state, 40_000, 45_000) == 40_000  # 50,000: too far
    state.hand_no = 100
    assert projected_bound(40_000, state, 40_000, 80_000) == 40_000  # 400,000: too slow


@pytest.mark.slow
def test_a_session_of_1000_hands_is_played_to_its_end() -> None:
    """Fails without the pace: the long match stopped at 40,000 steps, some 800 hands."""
    config = make_configuration("marjapussi-de", ["hands=1000"])
    found, why = exercise_tests(config, [DE_TIE])
    assert why == {}
    steps = found[DE_TIE]["steps"]
    end = steps[-1]["state"]
    assert end["phase"] == "over" and end["result"]["reason"] in ("hands", "tie")
    assert LONG_MATCH_STEPS * (1 + exercise.KEEN_MATCHES) < len(steps) <= exercise.PACE_REACH


@pytest.mark.slow
def test_without_the_pace_the_session_is_not_finished(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    monkeypatch.setattr(exercise, "paced_steps",
                        lambda bound, state, reach: iter(range(bound)))
    config = make_configuration("marjapussi-de", ["hands=1000"])
    found: dict[str, dict[str, object]] = {}
    _walk(config, 1, {DE_TIE}, found, probe=False, pace=True,
          max_steps=LONG_MATCH_STEPS * (1 + exercise.KEEN_MATCHES))
    assert DE_TIE not in found


@pytest.mark.parametrize("pace", [True, False])
def test_a_climbing_match_to_1000_is_played_on_at_its_pace(pace: bool) -> None:
    """Marjapussi's climber takes about 7 game points a hand: 600 steps come to about
    100, and the match to 1,000 ends only when played on (as those to 5,000 and 10,000
    of the census, in about 30,000 and 60,000 steps)."""
    config = make_configuration("marjapussi", ["target=1000"])
    found: dict[str, dict[str, object]] = {}
    played = _walk(config, 1, {FI_TIE}, found, max_steps=CLIMB_STEPS, probe=False,
                   climb=True, pace=pace)
    if not pace:
        assert FI_TIE not in found and played == CLIMB_STEPS
        return
    steps = found[FI_TIE]["steps"]
    assert isinstance(steps, list)
    end = steps[-1]["state"]
    assert end["phase"] == "over" and max(end["match_scores"]) >= 1000
    assert CLIMB_STEPS < len(steps) < exercise.PACE_REACH
