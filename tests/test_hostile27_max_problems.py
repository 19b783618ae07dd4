"""A record of very many problems: ``validate`` and ``replay`` list the first
``--max-problems`` (default 100, 0: all) and say how many more were found; the exit
code and the counts are the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hostilekit import run_cli

GOOD = Path(__file__).resolve().parent / "data" / "records" / "good" / "marianna.mrg"
SEATS = "NWSE"


def wrong_winners(tmp_path: Path, copies: int = 1) -> tuple[Path, int]:
    """The good Marianna record with every trick's winner wrong (``copies`` times in one
    file): the file and its number of problems."""
    text, n = re.subn(r"\(won (\w)\)", lambda m: f"(won {SEATS[SEATS.index(m[1]) - 1]})",
                      GOOD.read_text(encoding="utf-8"))
    path = tmp_path / "wrong.mrg"
    path.write_text("\n".join([text] * copies), encoding="utf-8")
    return path, n * copies


def problems(text: str) -> list[str]:
    return [line for line in text.splitlines() if " N150 " in line]


def test_validate_lists_the_first_hundred(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path, n = wrong_winners(tmp_path, copies=2)
    assert n > 100
    code, out, _ = run_cli(["validate", str(path)], capsys)
    assert code == 1 and len(problems(out)) == 100
    assert f"INVALID: 2 records, 0 valid, 2 invalid, {n} problems" in out
    assert out.splitlines()[-1] == (f"... and {n - 100} more problems found and not shown "
                                    "(--max-problems 100; 0 shows all)")
    code, out, _ = run_cli(["validate", str(path), "--max-problems", "0"], capsys)
    assert code == 1 and len(problems(out)) == n and "not shown" not in out
    code, out, _ = run_cli(["validate", str(path), str(path), "--max-problems", "3"], capsys)
    assert code == 1 and len(problems(out)) == 3  # over the whole run, not per file
    assert out.splitlines()[-1].startswith(f"... and {2 * n - 3} more problems")
    code, out, _ = run_cli(["validate", str(path), "--max-problems", "3", "--format", "json"],
                           capsys)
    assert code == 1 and len(json.loads(out)["files"][0]["errors"]) == n


def test_replay_lists_the_first_n_on_stderr(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path, n = wrong_winners(tmp_path)
    code, out, err = run_cli(["replay", str(path), "--max-problems", "5"], capsys)
    assert code == 1 and len(problems(err)) == 5
    assert err.splitlines()[-1] == (f"... and {n - 5} more problems found and not shown "
                                    "(--max-problems 5; 0 shows all)")
    assert out.splitlines()[-1].endswith(f"the record is not valid ({n} problems in all, "
                                         "the first 5 listed on stderr)")
    code, out, err = run_cli(["replay", str(path)], capsys)  # fewer than 100: all
    assert code == 1 and len(problems(err)) == n and "not shown" not in err
    assert out.splitlines()[-1].endswith(f"({n} problems in all, each listed on stderr)")


@pytest.mark.parametrize("command", ["validate", "replay"])
@pytest.mark.parametrize("value", ["-1", "x", "１"])
def test_a_bad_limit_is_a_usage_error(command: str, value: str, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = wrong_winners(tmp_path)
    code, out, err = run_cli([command, str(path), "--max-problems", value], capsys)
    assert code == 2 and "Traceback" not in err and "unrecognized" not in err
    assert "--max-problems" in err and ("number" in err or "whole" in err)
    assert "N150" not in out + err
