"""Unknown names on the command line get a one-line error with a "did you mean" (difflib):
rulesets, commands, options, bots, choices of an option."""

from __future__ import annotations

import pytest
from mariage.cli import main


@pytest.mark.parametrize("argv, suggestion", [
    (["play", "mariana"], "did you mean 'marianna'?"),
    (["rules", "schnapsn"], "did you mean 'schnapsen'?"),
    (["plya", "marianna"], "did you mean 'play'?"),
    (["rules", "marianna", "-o", "tagret=3"], "did you mean 'target'?"),
    (["play", "marianna", "--bots", "grredy"], "did you mean 'greedy'?"),
    (["replay", "x.mrg", "--format", "jsno"], "did you mean 'json'?"),
    (["match", "mariazza", "--bot", "A=randm", "--bot", "B=greedy"], "did you mean 'random'?"),
])
def test_a_misspelt_name_gets_a_suggestion(argv: list[str], suggestion: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors end the process (exit 2)
        code = int(exc.code or 0)
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.rstrip().endswith(suggestion), err


def test_no_suggestion_when_nothing_is_close(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown ruleset 'chess'" in err and "did you mean" not in err
