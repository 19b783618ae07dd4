"""``mariage play RULESET --human SEAT``: a person plays a seat in the terminal against bots,
seeing only what that seat sees; bad input is asked again; the end of input ends cleanly."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.notation.batch import validate_file


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str,
         *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_match_typed_by_a_person_is_a_valid_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.mrg"
    typed = "".join(("nonsense\n0\n" if i % 7 == 0 else "") + ("1\n" if i % 2 else "2\n")
                    for i in range(2000))
    code, out, err = play(monkeypatch, capsys, typed, "mariazza", "--seed", "3",
                          "--human", "A", "--out", str(rec))
    assert (code, err) == (0, "")
    assert out.splitlines()[0].startswith("Mariazza") and "A human, B greedy" in out
    assert "Result: " in out and "'nonsense' is not one of the choices" in out
    assert "'0' is not one of the choices" in out
    # the person never sees the bot's hand: B's cards at each deal and draws are hidden
    for line in out.splitlines():
        if line.strip().startswith("B: ") and ":" not in line.split("B: ", 1)[1]:
            assert set(line.split("B: ", 1)[1].split()) <= {"??"}, line
        if line.strip().startswith("draws:"):
            assert re.search(r"B \?\?", line), line
    assert validate_file(str(rec)).ok
    assert '[Seat "A" "human"]' in rec.read_text()


def test_an_action_may_be_typed_and_the_end_of_input_ends_cleanly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(monkeypatch, capsys, "", "marianna", "--seed", "1", "--human", "N",
                          "--out", str(tmp_path / "x.mrg"))
    out_file = tmp_path / "x.mrg"
    assert code == 0 and err == "mariage: the input ended; the match stops here " \
        f"(recorded unfinished in {out_file})\n"
    # the match so far is kept, marked unfinished, and is a valid record
    text = out_file.read_text(encoding="utf-8")
    assert text.rstrip().endswith("result *") and "hand 1" in text
    assert validate_file(str(out_file)).ok
    hand = re.search(r"your hand: (.*)", out)
    assert hand is not None
    first = re.search(r"1\) (\S+)", out)
    assert first is not None
    code, out, _ = play(monkeypatch, capsys, first.group(1) + "\n", "marianna", "--seed", "1",
                        "--human", "N")
    assert code == 0 and out.count("-- your turn, N") == 2  # the typed action was taken
    assert "W: ?? ?? ?? ?? ??" in out and "N: " + hand.group(1) in out


def test_an_unknown_seat_is_a_usage_error_with_a_suggestion(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = play(monkeypatch, capsys, "", "marianna", "--human", "n")
    assert code == 2 and err == ("mariage: error: --human: no seat 'n' in marianna (seats: "
                                 "N, W, S, E); did you mean 'N'?\n")
