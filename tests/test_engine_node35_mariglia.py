"""The Mariglia engine in plain Node.js against the suite, at every option value.

``conformance/examples/mariglia_engine.js`` plays ``mariglia`` at every value of its three
options (``target``, ``turn_up_bonus``, ``duty_reading``), written from the documents
alone: ``mariage rules mariglia``, the rules notes, the spec as data and the protocol
pages, never the interpreter's code. It must pass every stored test of the ruleset (every
rule in force checked, every refusal's rule named), agree with the reference answer for
answer in random matches with random options and random illegal actions, and each
planted fault (``--fault MODE``) must fail, charged to the rule it breaks.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import enginediff
import nodekit
import pytest
from mariage.cli import main

ENGINE = nodekit.EXAMPLES / "mariglia_engine.js"
PACK = [r + s for s in "HDCS" for r in "7AKJQ65432"]
#: words read by every ruleset, words of other games, cards of no Mariglia pack
NOISE = ["pass", "yes", "yes:H", "no", "callout", "close", "claim", "draw", "decline",
         "exchange:7H", "exchange:TH", "marianna:H", "bid:120", "ask:partner", "take",
         "give:2S", "kontra", "redeal", "TH", "9S", "8D", "KX", "7h", ""]


def test_the_example_needs_nothing_but_node_and_offers_what_the_reference_does() -> None:
    assert nodekit.needs_nothing_but_node(ENGINE)
    theirs, ours = nodekit.rulesets_offered(ENGINE)
    assert list(ours) == ["mariglia"]
    assert sorted(ours["mariglia"]["options"]) == ["duty_reading", "target", "turn_up_bonus"]
    assert ours["mariglia"]["options"] == theirs["mariglia"]["options"]


def test_passes_every_stored_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, report = nodekit.run_engine(ENGINE, tmp_path, capsys, "--ruleset", "mariglia",
                                           "--require-rule-ids", "--min-coverage", "100")
    assert code == 0, out[-3000:]
    kinds = {t["id"].split("/")[1] for t in report["tests"]}
    assert {"golden", "perft", "play", "score"} <= kinds
    assert report["tests"] and all(t["status"] == "pass" for t in report["tests"])
    [coverage] = report["coverage"]
    assert coverage["percent"] == 100.0 and coverage["unchecked"] == [], coverage
    assert report["refusals"]["named"] == report["refusals"]["expected"] >= 6


@pytest.mark.slow
def test_passes_the_suite_derived_for_a_declared_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = f"{nodekit.node()} {ENGINE} --house duty_reading=always,turn_up_bonus=false,target=11"
    report = tmp_path / "report.json"
    capsys.readouterr()
    code = main(["conformance", "--engine", engine, "--declared", "--no-progress",
                         "--min-coverage", "100", "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 0, out[-3000:]
    assert "duty_reading=always" in out and "turn_up_bonus=false" in out


def _options(rng: random.Random) -> dict[str, Any]:
    """Each option at a random value half the time (a target out of range now and then:
    both engines must refuse the start alike)."""
    options: dict[str, Any] = {}
    if rng.random() < 0.7:
        options["target"] = rng.choice([1, 3, 5, 11, 20, 35, 60, 10000, 0, 10001])
    if rng.random() < 0.5:
        options["turn_up_bonus"] = rng.choice([True, False])
    if rng.random() < 0.5:
        options["duty_reading"] = rng.choice(["opponent_winning", "always"])
    return options


def _noise(rng: random.Random) -> str:
    return rng.choice([rng.choice(PACK), rng.choice(PACK), rng.choice(NOISE)])


def differences(seeds: range, fault: str | None = None, stop: int = 1) -> list[str]:
    """The first ``stop`` differences between the JS engine (with ``fault`` planted) and
    the reference over random matches from ``seeds`` (the engines started again after
    each difference)."""
    command = [nodekit.node(), str(ENGINE), *(["--fault", fault] if fault else [])]
    found: list[str] = []
    pair = (enginediff.Engine(command), enginediff.Reference())
    try:
        for seed in seeds:
            told = enginediff.play(pair, "mariglia", PACK, seed, _options, _noise)
            if told is None:
                continue
            found.append(told)
            if len(found) >= stop:
                break
            for side in pair:
                side.close()
            pair = (enginediff.Engine(command), enginediff.Reference())
    finally:
        for side in pair:
            side.close()
    return found


def test_random_matches_agree_with_the_reference_answer_for_answer() -> None:
    assert differences(range(12)) == []


@pytest.mark.slow
def test_many_random_matches_agree_with_the_reference() -> None:
    assert differences(range(12, 92)) == []


def test_random_matches_find_a_planted_fault() -> None:
    """The comparison above can fail: a void player allowed any trump over an opponent's
    winning trump is told apart within a few matches."""
    [told] = differences(range(12), fault="lower-trump-will-do")
    assert "legal" in told


#: fault -> (the kind of stored test that kills it, the rule it is charged to)
FAULTS: dict[str, tuple[str, str]] = {
    "lower-trump-will-do": ("golden", "mariglia.play.overtrump"),
    "beat-the-suit-under-trump": ("option", "mariglia.play.head"),
    "trump-for-partner": ("scenario", "mariglia.play.overtrump"),
    "no-trick-points": ("scenario", "mariglia.score.hand"),
    "deal-to-the-left": ("scenario", "mariglia.deal.rotation"),
    "bonus-for-everyone": ("scenario", "mariglia.score.turn-up"),
}


def test_every_planted_fault_is_tested() -> None:
    listed = subprocess.run([nodekit.node(), str(ENGINE), "--list-faults"], check=True,
                            capture_output=True, text=True).stdout
    assert sorted(line.split(":")[0] for line in listed.splitlines()) == sorted(FAULTS)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_each_planted_fault_fails_naming_its_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fault: str) -> None:
    kind, rule = FAULTS[fault]
    code, out, report = nodekit.run_engine(ENGINE, tmp_path, capsys, "--ruleset", "mariglia",
                                           "--kind", kind, "--rule", rule, fault=fault)
    nodekit.assert_killed(code, out, report, rule)


if __name__ == "__main__":       # python tests/test_engine_node35_mariglia.py FIRST LAST
    lo, hi = int(sys.argv[1]), int(sys.argv[2])
    print("\n".join(differences(range(lo, hi), stop=5)) or f"seeds {lo}..{hi}: no difference")
