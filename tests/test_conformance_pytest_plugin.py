"""The pytest plugin (#17.5): an engine's own pytest run includes the conformance suite."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

REFERENCE = str(Path(__file__).resolve().parent.parent / "reference")


def run_pytest(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert 1 + 1 == 2\n")
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
           "PYTHONPATH": REFERENCE + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "pytest", "-p",
                           "mariage.conformance.pytest_plugin", "-p", "no:cacheprovider", "-q",
                           "-rfs", *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)


def test_inert_without_the_option(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path)
    assert proc.returncode == 0 and "1 passed" in proc.stdout


def test_one_item_per_test_with_rule_ids(tmp_path: Path) -> None:
    engine = f"{sys.executable} -m mariage.conformance.faulty mariglia-no-follow"
    proc = run_pytest(tmp_path, "--mariage-engine", engine, "--mariage-ruleset", "mariglia",
                      "--mariage-kind", "scenario", "--junitxml", "j.xml")
    assert proc.returncode == 1, proc.stdout
    assert "FAILED ::mariage/mariglia/play/follow-and-head" in proc.stdout
    assert "charged to: mariglia.play.follow" in proc.stdout
    root = ET.parse(tmp_path / "j.xml").getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    case = cases["mariage/mariglia/play/follow-and-head"]
    rules = {p.get("value") for p in case.iter("property") if p.get("name") == "rule"}
    assert "mariglia.play.follow" in rules and case.find("failure") is not None
    assert len(cases) == 1 + sum(1 for c in cases if c.startswith("mariage/mariglia/"))


def test_reference_passes_and_filters_by_rule(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path, "--mariage-engine", f"{sys.executable} -m mariage engine",
                      "--mariage-rule", "mariazza.decl.", "--mariage-kind", "scenario")
    assert proc.returncode == 0, proc.stdout
    assert "0 failed" not in proc.stdout and "failed" not in proc.stdout


def test_an_engine_that_supports_nothing_fails(tmp_path: Path) -> None:
    script = tmp_path / "nothing.py"
    script.write_text("import sys, json\nfor line in sys.stdin:\n"
                      "    print(json.dumps({'type': 'hello', 'protocol': 1, 'rulesets': {}}),"
                      " flush=True)\n")
    proc = run_pytest(tmp_path, "--mariage-engine", f"{sys.executable} {script}",
                      "--mariage-ruleset", "mariglia")
    assert proc.returncode == 1 and "no test ran" in proc.stdout


def test_cat_fails_every_item_at_once(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path, "--mariage-engine", "cat", "--mariage-ruleset", "mariglia",
                      "--mariage-kind", "scenario")
    assert proc.returncode == 1 and "handshake" in proc.stdout


def test_bad_engine_command_is_a_usage_error(tmp_path: Path) -> None:
    proc = run_pytest(tmp_path, "--mariage-engine", "/no/such/engine")
    assert proc.returncode == 4 and "no such program" in proc.stderr


def test_the_conformance_items_are_counted_as_collected(tmp_path: Path) -> None:
    from mariage.conformance.suite import load_suite

    proc = run_pytest(tmp_path, "-v", "--mariage-engine", f"{sys.executable} -m mariage engine",
                      "--mariage-ruleset", "mariglia")
    count = 1 + len(load_suite(rulesets=["mariglia"]))  # test_own.py and the suite's
    assert proc.returncode == 0, proc.stdout
    assert f"collected {count} items" in proc.stdout and f"{count} passed" in proc.stdout


def test_the_suite_derived_for_house_rules_runs_in_pytest(tmp_path: Path) -> None:
    engine = f"{sys.executable} -m mariage.conformance.house mariglia turn_up_bonus=false"
    proc = run_pytest(tmp_path, "--mariage-engine", engine, "--mariage-ruleset", "mariglia",
                      "--mariage-option", "turn_up_bonus=false")
    assert proc.returncode == 0, proc.stdout
    assert "failed" not in proc.stdout and "skipped" not in proc.stdout
    assert "mariglia/fault/" in run_pytest(
        tmp_path, "--mariage-engine", engine, "--mariage-ruleset", "mariglia",
        "--mariage-option", "turn_up_bonus=false", "--collect-only").stdout
    bad = run_pytest(tmp_path, "--mariage-engine", engine,
                     "--mariage-option", "turn_up_bonus=false")
    assert bad.returncode != 0 and "exactly one --mariage-ruleset" in bad.stdout + bad.stderr


def test_the_suites_of_the_declared_configurations_run_in_pytest(tmp_path: Path) -> None:
    """``--mariage-declared`` takes the house rules from the engine's hello."""
    engine = f"{sys.executable} -m mariage.conformance.house mariglia turn_up_bonus=false"
    proc = run_pytest(tmp_path, "--mariage-engine", engine, "--mariage-declared",
                      "--collect-only")
    assert "mariglia/fault/" in proc.stdout, proc.stdout
    proc = run_pytest(tmp_path, "--mariage-engine", engine, "--mariage-declared")
    assert proc.returncode == 0, proc.stdout
    assert "failed" not in proc.stdout and "skipped" not in proc.stdout
    plain = f"{sys.executable} -m mariage engine"  # declares no configurations
    bad = run_pytest(tmp_path, "--mariage-engine", plain, "--mariage-declared")
    assert bad.returncode != 0 and "declares no configurations" in bad.stdout + bad.stderr


def test_an_engine_crash_is_charged_to_no_rule(tmp_path: Path) -> None:
    """A crash is an engine failure, not a failure of each rule the test names."""
    example = Path(REFERENCE).parent / "conformance" / "examples" / "minimal_engine.py"
    proc = run_pytest(tmp_path, "--mariage-engine", f"{sys.executable} {example} --fault crash",
                      "--mariage-ruleset", "marianna", "--mariage-rule",
                      "marianna.decl.combination-window", "--mariage-kind", "scenario",
                      "--junitxml", "j.xml")
    assert proc.returncode == 1, proc.stdout
    assert "the engine exited with code 1 during request" in proc.stdout
    assert "charged to no rule (an engine failure)" in proc.stdout
    root = ET.parse(tmp_path / "j.xml").getroot()
    charged = [p for p in root.iter("property") if p.get("name") == "charged"]
    assert charged == []


def test_an_engine_that_hangs_test_after_test_stops_being_waited_for(tmp_path: Path) -> None:
    """After --mariage-max-hangs timeouts in a row, the tests left fail at once."""
    example = Path(REFERENCE).parent / "conformance" / "examples" / "minimal_engine.py"
    proc = run_pytest(tmp_path, "--mariage-engine", f"{sys.executable} {example} --fault hang",
                      "--mariage-ruleset", "marianna", "--mariage-timeout", "0.3",
                      "--mariage-max-hangs", "2")
    assert proc.returncode == 1, proc.stdout
    reports = [line for line in proc.stdout.splitlines()
               if line.startswith("marianna/") and " (error): " in line]
    stopped = [r for r in reports if "): not run: the engine timed out 2 times in a row" in r]
    hung = [r for r in reports if "): engine timeout: " in r]
    failed = int(proc.stdout.rsplit(" failed", 1)[0].rsplit(maxsplit=1)[-1])
    assert len(hung) >= 2 and stopped and len(reports) == failed
    assert all("--mariage-max-hangs 2)" in r for r in stopped)
