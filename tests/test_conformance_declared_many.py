"""``--declared`` with a hello that lists very many configurations (forty-third session):
each is a suite derived and run, so past ``--max-configurations`` (64 by default) the run
is refused at once with a usage error that says how many and what to do, instead of
deriving suites for hours; duplicates do not count; ``0`` lifts the limit."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.conformance.configuration import declared_configurations
from test_conformance_declared import DECLARING


def engine(tmp_path: Path, configurations: list[dict[str, object]]) -> str:
    """The reference engine declaring ``configurations``, read from a file (thousands of
    them do not fit on a command line)."""
    listed = tmp_path / "configurations.json"
    listed.write_text(json.dumps(configurations))
    path = tmp_path / "declaring.py"
    path.write_text(DECLARING.replace("json.loads(sys.argv[1])",
                                      "json.load(open(sys.argv[1]))"))
    return f"{sys.executable} {path} {listed}"


def _targets(n: int, ruleset: str = "schnapsen") -> list[dict[str, object]]:
    return [{"ruleset": ruleset, "options": {"match_target": 3 + k % 60,
                                             "close_allowed": k % 120 < 60}}
            for k in range(n)]


def test_more_configurations_than_the_limit_are_refused_with_their_count(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "--engine", engine(tmp_path, _targets(5000)), "--declared"])
    err = capsys.readouterr().err
    assert code == 2
    [line] = err.strip().splitlines()
    assert "declares more than 64 configurations (5000 entries)" in line
    assert "--max-configurations" in line and "Traceback" not in err


def test_an_engine_command_too_long_to_start_is_quoted_cut(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = f"{sys.executable} -c pass {'x' * 400_000}"  # past the system's argument size
    code = main(["conformance", "--engine", command, "--ruleset", "schnapsen"])
    err = capsys.readouterr().err
    assert code == 1  # the engine failed, as any engine that cannot start
    [line] = err.strip().splitlines()
    assert "cannot start" in line and "Argument list too long" in line
    assert len(line) < 600


def test_the_limit_is_a_flag_and_counts_distinct_configurations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conformance", "--engine", engine(tmp_path, _targets(3)), "--declared",
                 "--max-configurations", "2"])
    assert code == 2
    assert "more than 2 configurations (3 entries)" in capsys.readouterr().err
    # the same point declared 200 times is one configuration
    same = [{"ruleset": "schnapsen", "options": {"match_target": 7}}] * 200
    assert len(declared_configurations({"configurations": same}, at_most=1)) == 1
    assert len(declared_configurations({"configurations": _targets(120)}, at_most=0)) == 120


def test_the_limit_applies_to_the_ruleset_chosen() -> None:
    hello = {"configurations": _targets(100) + _targets(1, "sixty-six")}
    assert [c.ruleset for c in declared_configurations(hello, ("sixty-six",), at_most=1)] \
        == ["sixty-six"]
    with pytest.raises(ValueError, match="more than 5 configurations of schnapsen"):
        declared_configurations(hello, ("schnapsen",), at_most=5)


@pytest.mark.parametrize("extra", [[], ["--coverage"], ["--regenerate"]])
def test_the_limit_goes_with_declared_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    command = ["conformance", *extra, "--max-configurations", "3"]
    if not extra:
        command += ["--engine", engine(tmp_path, _targets(1)), "--ruleset", "schnapsen"]
    code = main(command)
    err = capsys.readouterr().err
    assert code == 2
    assert "--max-configurations" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["-1", "x", "1_0", "2000000"])
def test_a_limit_that_is_no_count_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["conformance", "--engine", engine(tmp_path, _targets(1)), "--declared",
              "--max-configurations", value])
    assert stop.value.code == 2
    assert "--max-configurations" in capsys.readouterr().err
