"""The twenty-eighth session's hostile sweep of output options: ``-`` (standard output
to many a tool) given where a file or folder is written made a file or a folder named
``-`` in the current folder, and said nothing of it; now refused before any work."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostilekit import run_cli

GOOD = Path(__file__).resolve().parent / "data" / "records" / "good" / "marianna.mrg"


@pytest.mark.parametrize("argv", [
    ["stats", str(GOOD), "--out", "-"],
    ["play", "schnapsen", "--out", "-"],
    ["render", str(GOOD), "--html", "-"],
    ["render", str(GOOD), "--svg", "-", "--hand", "1"],
    ["conformance", "--ruleset", "schnapsen", "--kind", "perft", "--json", "-"],
    ["conformance", "--ruleset", "schnapsen", "--write-suite", "-"],
    ["match", "schnapsen", "--games", "1", "--out", "-"]])
def test_a_dash_is_no_output_file(argv: list[str], tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(argv, capsys)
    option = argv[argv.index("-") - 1]
    assert code == 2 and not list(tmp_path.iterdir()), (out, err)
    assert err.count("\n") == 1 and f"{option} -: this option writes a" in err and \
        "not standard output" in err, err
