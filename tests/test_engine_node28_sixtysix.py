"""The Schnapsen engine in plain Node.js plays the Sixty-six family too, every option value.

``conformance/examples/schnapsen_engine.js`` now plays ``sixty-six`` (27 options),
``sixty-six-3`` (26: the dealer sits each hand out and shares the winner's score) and
``sixty-six-4`` (8: two partnerships, no talon, over-trumping), its ruleset data chosen
by the ruleset named in ``start``, written from the documents alone. It must pass the
stored tests of each ruleset naming every refused rule, the suite derived for a house
configuration, agree with the reference answer for answer in random matches with
random options and illegal actions, and each planted fault (``--fault MODE``) must fail.
Three of the faults are mistakes the suites (stored and derived, at 100%) passed before
the scenarios ``sixty-six-4/core/no-declaration-words`` (``marriage:S`` refused as out
of its moment, core.phase, where Sixty-six for four has no such action: bad_action) and
``sixty-six-4/hand/two-drawn-hands-bonus`` (a draw bonus of 1 whatever the number of
drawn hands; drawn hands not forgotten once the bonus is paid).
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path
from typing import Any

import nodekit
import pytest

ENGINE = nodekit.EXAMPLES / "schnapsen_engine.js"
RULESETS = {"sixty-six": 27, "sixty-six-3": 27, "sixty-six-4": 8}


run = partial(nodekit.run_engine, ENGINE)  # (tmp_path, capsys, *args, fault=None)


def test_hello_offers_every_option_value_the_reference_does() -> None:
    assert nodekit.needs_nothing_but_node(ENGINE)
    theirs, ours = nodekit.rulesets_offered(ENGINE)
    assert sorted(ours) == ["schnapsen", *RULESETS]
    keys = ("type", "default", "values", "min", "max")

    def offered(rulesets: dict[str, Any], ruleset: str) -> dict[str, tuple[Any, ...]]:
        return {name: tuple(spec.get(k) for k in keys)
                for name, spec in rulesets[ruleset]["options"].items()}

    for ruleset, count in RULESETS.items():
        assert offered(ours, ruleset) == offered(theirs, ruleset)
        assert len(offered(ours, ruleset)) == count


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_passes_the_stored_scenarios_naming_every_refused_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", ruleset, "--kind", "scenario",
                            "--kind", "option", "--require-rule-ids")
    assert code == 0, out[-3000:]
    assert len(report["tests"]) > 20 and all(t["status"] == "pass" for t in report["tests"])
    assert report["refusals"]["named"] == report["refusals"]["expected"] >= 10
    if ruleset == "sixty-six-4":
        ids = {t["id"] for t in report["tests"]}
        assert {"sixty-six-4/core/no-declaration-words",
                "sixty-six-4/hand/two-drawn-hands-bonus"} <= ids


def test_passes_the_suite_derived_for_a_house_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, report = run(tmp_path, capsys, "--ruleset", "sixty-six-3", "--derived",
                            "-o", "draw_bonus_next_hand=true", "--kind", "scenario",
                            "--kind", "option", "--min-coverage", "100", "--require-rule-ids")
    assert code == 0, out[-3000:]
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == [], coverage
    assert all(t["status"] in ("pass", "skip") for t in report["tests"])
    assert sum(t["status"] == "pass" for t in report["tests"]) > 80


_PACKS = {r: [k + s for s in "HDCS" for k in ("ATKQJ9" if r != "sixty-six-4" else "ATKQJ987")]
          for r in RULESETS}
_WORDS = ["close", "claim", "draw", "decline", "pass", "callout", "yes", "marriage:H",
          "marriage:S", "exchange:9S", "exchange:JH", "exchange:7D", "7S", "bid:100"]


def _option_value(rng: random.Random, spec: dict[str, Any]) -> Any:
    if spec["type"] == "bool":
        return rng.choice([True, False])
    if spec["type"] == "enum":
        return rng.choice(spec["values"])
    return rng.choice([spec["min"], spec["min"] + 1, spec["default"], 4])


def _random_match(ruleset: str, seed: int, steps: int) -> int:
    """One match with random options; every answer of the two engines compared. Returns
    the number of requests."""
    rng = random.Random(seed)
    ref, js = nodekit.reference_and(ENGINE)
    sent = 0

    def both(req: dict[str, Any]) -> dict[str, Any]:
        nonlocal sent
        sent += 1
        return nodekit.same_answer(ref, js, {**req, "id": f"{ruleset} {seed} {sent}"})

    try:
        specs = ref.request({"type": "hello", "protocol": 2})["rulesets"][ruleset]["options"]
        options = {n: _option_value(rng, specs[n]) for n in rng.sample(sorted(specs), 4)}
        deck = _PACKS[ruleset][:]
        rng.shuffle(deck)
        nseats = {"sixty-six": 2, "sixty-six-3": 3, "sixty-six-4": 4}[ruleset]
        assert both({"type": "start", "ruleset": ruleset, "options": options,
                     "dealer": rng.randrange(nseats), "deck": deck})["type"] == "ok"
        nodekit.random_walk(both, rng, deck, _WORDS, steps)
    finally:
        ref.close()
        js.close()
    return sent


def test_random_matches_agree_with_the_reference_answer_for_answer() -> None:
    sent = sum(_random_match(ruleset, 1, 150) for ruleset in RULESETS)
    assert sent > 1000


#: fault -> (ruleset, the rule a failing stored test is charged to, --rule to narrow to)
FAULTS = {
    "marriage-word": ("sixty-six-4", "core.phase", "core.phase"),
    "draw-bonus-one": ("sixty-six-4", "sixty-six-4.score.draw-bonus",
                       "sixty-six-4.score.draw-bonus"),
    "draw-bonus-kept": ("sixty-six-4", "sixty-six-4.score.draw-bonus",
                        "sixty-six-4.score.draw-bonus"),
    "share-uncapped": ("sixty-six-3", "sixty-six-3.score.dealer", "sixty-six-3.match."),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_naming_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    ruleset, rule, narrow = FAULTS[fault]
    nodekit.assert_killed(*run(tmp_path, capsys, "--ruleset", ruleset, "--kind", "scenario",
                               "--kind", "option", "--rule", narrow, fault=fault), rule)
