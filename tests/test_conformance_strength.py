"""The suite's strength and coverage: every faulty engine is killed by a test naming its
broken rule; every rule ID has a focused test; the test files match their sources."""

from __future__ import annotations

import pytest
from mariage.conformance.coverage import UNREACHABLE, coverage
from mariage.conformance.faulty import FAULTS
from mariage.conformance.generate import expand_scenario, load_sources, render_test
from mariage.conformance.strength import run_fault
from mariage.conformance.suite import load_suite
from mariage.conformance.suite import tests_dir as suite_tests_dir
from mariage.resources import conformance_dir

SUITE = load_suite(kinds=["scenario", "option"])


def test_at_least_thirty_faults_each_on_a_real_rule() -> None:
    from mariage import load_rules

    assert len(FAULTS) >= 30
    for f in FAULTS.values():
        assert any(f.rule in load_rules(r).rule_ids for r in f.rulesets), f.name


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_fault_is_killed_by_a_test_naming_its_rule(name: str) -> None:
    # only a test naming the broken rule can kill the fault: those alone are run (the
    # whole kill table, other failing tests included, is docs/conformance-coverage.inc's)
    kill = run_fault(FAULTS[name], SUITE, naming_only=True)
    assert kill.killed, f"{name} survives: no failing test names {kill.fault.rule}"


def test_every_rule_has_a_focused_test() -> None:
    cov = coverage(load_suite())
    missing = [k for k, ids in cov.items() if not ids and k not in UNREACHABLE]
    assert missing == []
    # An unreachable rule that gains a test should leave the list.
    assert all(not cov[k] for k in UNREACHABLE)


@pytest.mark.slow
def test_scenario_files_match_their_sources() -> None:
    root = conformance_dir()
    for where, src, sets in load_sources(root / "sources"):
        for ruleset in sets:
            test = expand_scenario(src, ruleset, where)
            path = suite_tests_dir() / f"{test['id']}.test"
            front = render_test(test).split("\n---\n", 1)[0]
            assert path.read_text(encoding="utf-8").split("\n---\n", 1)[0] == front, \
                f"{path} is stale: run mariage conformance --regenerate"


@pytest.mark.slow
def test_every_generated_file_is_what_regenerate_writes() -> None:
    """The golden and perft files too, not only the scenarios' front matter: a change to
    what a step names (its ``rules``) left 194 Belote files stale for a day (eighteenth
    session)."""
    import io

    from mariage.conformance.regen import regenerate

    diff = io.StringIO()
    assert regenerate(conformance_dir(), diff, check=True) == 0, diff.getvalue()[:2000]


@pytest.mark.slow
def test_bodies_are_valid_records() -> None:
    from mariage.notation import check_record, parse_record

    for t in load_suite():
        if t.kind == "protocol":  # lines sent as they are: no match to record
            continue
        record = parse_record(t.body, file=t.path)
        assert record.ruleset == t.ruleset
        assert check_record(record).errors == [], t.id


def test_docs_kill_table_lists_every_fault() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "conformance.rst").read_text()
    rows = {line.split()[0]: line.split()[1] for line in text.splitlines()
            if line.split() and line.split()[0] in FAULTS}
    assert rows == {name: f.rule for name, f in FAULTS.items()}


def test_expectations_example_names_real_tests() -> None:
    from mariage.conformance.reports import parse_expected

    ids = {t.id for t in load_suite()}
    listed = parse_expected((conformance_dir() / "expectations.example").read_text(), "x")
    assert listed and set(listed) <= ids
