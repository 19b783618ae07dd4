"""The suite derived for a configuration (#22.2): generated golden and perft tests, stored
tests replayed with recomputed expectations or left out with the reason, written as files."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.configuration import make_configuration
from mariage.conformance.derive import derive_suite, rederive, write_suite
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.generate import render_test
from mariage.conformance.house import HouseEngine
from mariage.conformance.runner import run_suite
from mariage.conformance.suite import load_suite

SCHNAPSEN_HOUSE = ["close_allowed=false", "claim_mode=auto", "marriage_lead=king",
                   "marriage_counting=next_trick_after_declaring"]


def test_a_stored_test_is_kept_with_expectations_recomputed() -> None:
    config = make_configuration("mariglia", ["turn_up_bonus=false"])
    test = next(t for t in load_suite(rulesets=["mariglia"]) if t.id == "mariglia/core/basics")
    kept = rederive(test, config)
    assert kept["options"] == {"turn_up_bonus": False} and kept["rules"] == list(test.rules)
    assert [s.get("error") for s in kept["steps"]] == [s.get("error") for s in test.steps]


def test_a_stored_test_whose_step_is_now_refused_is_left_out_with_the_reason() -> None:
    config = make_configuration("schnapsen", ["close_allowed=false"])
    close = [t for t in load_suite(rulesets=["schnapsen"]) if t.id.startswith("schnapsen/close/")
             and not t.options]
    assert close
    with pytest.raises(ValueError, match="'close' is refused under this configuration"):
        rederive(close[0], config)
    other = make_configuration("schnapsen", ["match_target=5"])
    opt = next(t for t in load_suite(rulesets=["schnapsen"]) if "match_target" in t.options)
    with pytest.raises(ValueError, match="the test is about match_target="):
        rederive(opt, other)


def test_recomputed_state_follows_the_configuration() -> None:
    """Under marriage_values=20/20 a marriage in trump scores 20, not 40: the kept test
    expects what the reference now says."""
    config = make_configuration("schnapsen", ["marriage_values=20/20"])
    changed = 0
    for test in load_suite(rulesets=["schnapsen"], kinds=["scenario"]):
        try:
            kept = rederive(test, config)
        except ValueError:
            continue
        changed += sum(1 for old, new in zip(test.steps, kept["steps"], strict=True)
                       if old.get("state") != new.get("state"))
    assert changed > 0


def test_derived_suite_is_reproducible_and_passes_on_the_reference() -> None:
    config = make_configuration("mariglia", ["turn_up_bonus=false", "duty_reading=always"])
    one = derive_suite(config, cache=False)
    two = derive_suite(config, cache=False)
    assert [render_test(t) for t in one.tests] == [render_test(t) for t in two.tests]
    kinds = {t["kind"] for t in one.tests}
    assert {"golden", "perft", "option"} <= kinds
    assert any("fault-search" in t["features"] for t in one.tests)
    assert "mariglia/option/duty-always-trump-winning" not in one.skipped  # it fits
    client = EngineClient(lambda: ThreadTransport(HouseEngine(config)), timeout=30)
    try:
        result = run_suite(client, one.as_tests())
    finally:
        client.close()
    assert result.ok and result.ran == len(one.tests), result.verdict()


def test_write_suite_writes_test_files_the_runner_reads(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    config = make_configuration("mariglia", ["turn_up_bonus=false"])
    suite = derive_suite(config)
    n = write_suite(suite, tmp_path)
    assert n == len(suite.tests) == len(load_suite(tmp_path / "tests"))
    skipped = (tmp_path / "skipped.txt").read_text()
    assert all(tid in skipped for tid in suite.skipped)
    assert main(["conformance", "--suite", str(tmp_path)]) == 0
    assert "PASSED" in capsys.readouterr().out


def test_command_line_runs_the_derived_suite_under_a_house_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [f"-o{o}" for o in SCHNAPSEN_HOUSE]
    engine = f"{sys.executable} -m mariage.conformance.house schnapsen {' '.join(SCHNAPSEN_HOUSE)}"
    assert main(["conformance", "--ruleset", "schnapsen", *args, "--engine", engine]) == 0
    out = capsys.readouterr().out
    assert "PASSED" in out and "does not hold under the configuration" in out
    assert "rules checked by a test that ran and names them, schnapsen close_allowed=false" in out
    # every rule in force is checked by a focused test of the derived suite: the
    # neighbouring configurations' and the rule-exercise tests fill what was skipped
    assert main(["conformance", "--ruleset", "schnapsen", *args, "--min-coverage", "100"]) == 0
    assert ": 36/36 (100.0%), 1 unreachable: schnapsen.decl.once, 10 not in force" \
        in capsys.readouterr().out  # the once-a-suit limit: the king is led
    # with the focused tests filtered out, nothing is checked
    assert main(["conformance", "--ruleset", "schnapsen", *args, "--kind", "golden",
                 "--min-coverage", "1"]) == 1
    assert "below --min-coverage 1" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["--ruleset", "schnapsen", "--ruleset", "mariglia", "-o", "turn_up_bonus=false"],
    ["-o", "turn_up_bonus=false"],
    ["--ruleset", "mariglia", "-o", "tie=sometimes"],
])
def test_configuration_usage_errors_exit_2(argv: list[str],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_reference_engine_passes_a_derived_suite_it_is_not_told_about() -> None:
    """An engine without configurations that plays every option runs the whole suite."""
    suite = derive_suite(make_configuration("mariazza", ["exchange_chain=true",
                                                         "unfinished_hand=nobody"]))
    client = EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=30)
    try:
        result = run_suite(client, suite.as_tests())
    finally:
        client.close()
    assert result.ok and not result.skips(), result.verdict()


def test_a_house_description_runs_its_derived_suite(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: mariglia\nruleset: mariglia-house\nname: House\n")
    assert main(["conformance", "--spec", str(house), "-o", "turn_up_bonus=false"]) == 0
    out = capsys.readouterr().out
    assert "PASSED" in out and "mariglia-house turn_up_bonus=false" in out
    assert main(["conformance", "--spec", str(house), "--spec", str(house)]) == 2


def test_the_derived_suite_cache_key_follows_the_stored_tests(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario added (or regenerated) is replayed under each configuration: a suite
    derived before it must not be served from the disk cache after it."""
    import os

    from mariage.conformance import derive

    stored = tmp_path / "tests" / "marianna" / "core"
    stored.mkdir(parents=True)
    (stored / "a.test").write_text("one")
    monkeypatch.setattr(derive, "tests_dir", lambda: tmp_path / "tests")
    derive._code_key.cache_clear()
    try:
        before = derive._code_key()
        (stored / "b.test").write_text("two")  # a scenario added
        derive._code_key.cache_clear()
        added = derive._code_key()
        (stored / "a.test").write_text("one, regenerated")
        os.utime(stored / "a.test", ns=(1, 1))
        derive._code_key.cache_clear()
        changed = derive._code_key()
    finally:
        derive._code_key.cache_clear()
    assert len({before, added, changed}) == 3


def test_rules_not_in_force_are_left_out_of_a_configurations_coverage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Closing switched off (``close_allowed=false``): the closing rules are not in
    force, so no match can check them; they are reported as such, not as unchecked,
    and the percentage is of the rules in force (the rulebook says the same)."""
    import json

    from mariage import load_rules
    from mariage.rulebook.render import rulebook

    report = tmp_path / "r.json"
    assert main(["conformance", "--ruleset", "schnapsen", "-o", "close_allowed=false",
                 "--json", str(report)]) == 0
    out = capsys.readouterr().out
    (cov,) = json.loads(report.read_text())["coverage"]
    assert {"schnapsen.close", "schnapsen.close.effect"} <= set(cov["not_in_force"])
    assert not set(cov["not_in_force"]) & set(cov["unchecked"])
    counted = [r for r in cov["checked"] + cov["unchecked"] if r not in cov["not_in_force"]]
    checked = [r for r in cov["checked"] if r not in cov["not_in_force"]]
    assert cov["percent"] == round(100 * len(checked) / len(counted), 1)
    assert f"{len(cov['not_in_force'])} not in force: schnapsen.close" in out
    unchecked = out.split("unchecked:")[-1] if "unchecked:" in out else ""
    assert "schnapsen.close," not in unchecked
    book = rulebook(load_rules("schnapsen", {"close_allowed": False}))
    off = {r.info.id for s in book.sections for r in s.rules if not r.in_force}
    assert off == set(cov["not_in_force"])
