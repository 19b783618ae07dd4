"""Numbers on the command line are ASCII digits, on every option: ``--seed ²`` was refused
as "invalid parse_seed value" (a function's name), ``--seed １`` played seed 1, and
``--max-hangs`` and ``--min-coverage`` took what ``int()`` and ``float()`` take."""

from __future__ import annotations

import pytest
from hostilekit import run_cli


@pytest.mark.parametrize("value", ["²", "１", "٣", "1_0"])
@pytest.mark.parametrize("command", [["play", "mariazza", "-q"],
                                     ["match", "mariazza", "-q", "-n", "1"]])
def test_a_seed_in_other_digits_is_refused_in_words(command: list[str], value: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli([*command, "--seed", value], capsys)
    assert (code, out) == (2, "")
    assert err == ("mariage: error: argument --seed: a seed is a whole number from 0 to "
                   f"2**64-1, got {value!r}\n")


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--max-hangs", "１", "--max-hangs: a whole number from 0 to 1000000"),
    ("--max-hangs", " 3", "--max-hangs: a whole number from 0 to 1000000"),
    ("--max-hangs", "1_0", "--max-hangs: a whole number from 0 to 1000000"),
    ("--min-coverage", "1_0", "--min-coverage: a percentage from 0 to 100"),
    ("--min-coverage", "٣", "--min-coverage: a percentage from 0 to 100"),
    ("--min-coverage", " 5", "--min-coverage: a percentage from 0 to 100"),
    ("--min-coverage", "1e1", "--min-coverage: a percentage from 0 to 100"),
])
def test_conformance_counts_and_percentages_are_ascii_digits(
        option: str, value: str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["conformance", "--ruleset", "mariazza", "--kind", "perft",
                              "--no-progress", option, value], capsys)
    assert (code, out) == (2, "")
    assert says in err and repr(value) in err and err.count("\n") == 1


@pytest.mark.parametrize(("option", "value"), [("--max-hangs", "+3"), ("--max-hangs", "0"),
                                               ("--min-coverage", "0"),
                                               ("--min-coverage", ".5")])
def test_plain_numbers_still_pass(option: str, value: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["conformance", "--ruleset", "mariazza", "--kind", "perft",
                            "--no-progress", option, value], capsys)
    assert code in (0, 1) and err == "", err
