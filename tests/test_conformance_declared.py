"""``mariage conformance --declared``: the suites derived for the configurations an engine
declares in its ``hello`` (its house rules), each test ID saying which one, each coverage
line its own; an engine that declares a house rule but plays another is caught."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mariage.cli import main

#: The reference engine declaring the configurations given as JSON on its command line.
#: With ``--ignore-options`` it plays every game at the defaults instead: an engine whose
#: house rules are written in its hello but not in its code.
DECLARING = """
import json, sys
from mariage.conformance.engine import ReferenceEngine, serve

class Declaring(ReferenceEngine):
    def hello(self):
        return {**super().hello(), "configurations": json.loads(sys.argv[1])}

    def _start(self, msg):
        if "--ignore-options" in sys.argv:
            msg = {**msg, "options": {}}
        return super()._start(msg)

raise SystemExit(serve(Declaring(), sys.stdin, sys.stdout))
"""

TWO = [{"ruleset": "schnapsen", "options": {"close_allowed": False}},
       {"ruleset": "sixty-six", "options": {"marriage_values": "20/20",
                                             "match_target": {"min": 5, "max": 10}}}]


def engine(tmp_path: Path, configurations: list[dict[str, object]], *flags: str) -> str:
    path = tmp_path / "declaring.py"
    path.write_text(DECLARING)
    return " ".join([sys.executable, str(path), "'" + json.dumps(configurations) + "'",
                     *flags])


def test_the_suites_of_every_declared_configuration_run_each_with_its_coverage(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    code = main(["conformance", "--engine", engine(tmp_path, TWO), "--declared",
                 "--json", str(report)])
    out = capsys.readouterr().out
    assert code == 0, out
    data = json.loads(report.read_text())
    # the range takes the option's default (7 is in 5..10), which the label leaves out
    assert [c["configuration"] for c in data["coverage"]] == [
        "schnapsen close_allowed=false", "sixty-six marriage_values=20/20"]
    ids = [t["id"] for t in data["tests"]]
    assert {i[-3:] for i in ids} == {"[1]", "[2]"}
    assert all(i.startswith("schnapsen/") for i in ids if i.endswith("[1]"))
    # Sixty-six extends Schnapsen: its derived suite replays Schnapsen's stored tests too
    assert any(i.startswith("sixty-six/") for i in ids if i.endswith("[2]"))
    assert len(ids) == len(set(ids))
    assert all(c["percent"] > 50 for c in data["coverage"])
    assert out.count("rules checked by a test that ran and names them") == 2


def test_ruleset_picks_the_declared_configurations_of_one_ruleset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "--engine", engine(tmp_path, TWO), "--declared",
                 "--ruleset", "sixty-six"])
    out = capsys.readouterr().out
    assert code == 0, out
    [line] = [x for x in out.splitlines() if x.startswith("rules checked")]
    assert "sixty-six marriage_values=20/20:" in line
    assert "[1]" not in out  # one configuration: the IDs are the derived suite's own


def test_an_engine_that_declares_a_house_rule_but_plays_the_default_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = engine(tmp_path, TWO[:1], "--ignore-options")
    code = main(["conformance", "--engine", command, "--declared"])
    out = capsys.readouterr().out
    assert code == 1
    failed = [x for x in out.splitlines() if x.startswith("FAIL ")]
    assert failed and all(x.startswith("FAIL  schnapsen/") for x in failed)
    # a run of the stored suite says what --declared is for
    main(["conformance", "--engine", command, "--ruleset", "schnapsen"])
    out = capsys.readouterr().out
    assert out.rstrip().endswith("the engine declares 1 configuration of house rules in its "
                                 "hello: --declared runs the suite derived for each")


@pytest.mark.parametrize(("configurations", "words"), [
    ([], "declares no configurations"),
    ([{"ruleset": "skat", "options": {}}], "configuration 1 of the engine's hello: unknown "
                                           "ruleset 'skat'"),
    ([{"ruleset": "schnapsen", "options": {"close_allowed": "no"}}],
     "configuration 1 of the engine's hello: -o close_allowed=no: the value must be true or "
     "false"),
])
def test_declarations_the_suite_cannot_derive_are_usage_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        configurations: list[dict[str, object]], words: str) -> None:
    code = main(["conformance", "--engine", engine(tmp_path, configurations), "--declared"])
    err = capsys.readouterr().err
    assert code == 2
    [line] = err.strip().splitlines()
    assert words in line


def test_declared_leaves_no_room_for_a_second_configuration_source(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "--engine", engine(tmp_path, TWO), "--declared",
                 "--ruleset", "schnapsen", "-o", "claim_mode=auto"])
    assert code == 2
    assert "leave out -o" in capsys.readouterr().err
    code = main(["conformance", "--engine", engine(tmp_path, TWO), "--declared",
                 "--write-suite", str(tmp_path / "suite")])
    assert code == 2
    assert "declares 2" in capsys.readouterr().err
    assert not (tmp_path / "suite").exists()
