"""The twenty-eighth session's hostile sweep of records: a look-alike character that
joins two plays into one word (refused as not an action, N140) or hides in an
annotation is named with its code point, and its column where the line is known; a
file in UTF-16 or compressed under a plain name is one problem saying what it is."""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hostilekit import run_cli

GOOD = Path(__file__).resolve().parent / "data" / "records" / "good" / "marianna.mrg"


def record(tmp_path: Path, old: str, new: str) -> Path:
    """The good Marianna record with its first ``old`` replaced by ``new``."""
    text = GOOD.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "odd.mrg"
    path.write_text(text.replace(old, new, 1), encoding="utf-8", newline="")
    return path


@pytest.mark.parametrize(("odd", "named"), [("\u200d", "U+200D ZERO WIDTH JOINER"),
                                            ("\uff12", "U+FF12 FULLWIDTH DIGIT TWO"),
                                            ("\u2060", "U+2060 WORD JOINER")])
def test_a_look_alike_between_two_plays_is_named(odd: str, named: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``1. S:AS E:2H<odd>N:2D``: one word ``E:2H<odd>N:2D``, refused as not an action
    (N140) with the character only quoted as its escape; now named, at column 13."""
    path = record(tmp_path, "1. S:AS E:2H N:2D", f"1. S:AS E:2H{odd}N:2D")
    code, out, _ = run_cli(["validate", str(path)], capsys)
    first = out.splitlines()[0]
    assert code == 1 and re.search(r"odd\.mrg:17:9: N140 .*seat E, ", first), out
    assert f"is not an action of marianna; column 13 holds {named}: the notation's " \
           "words, numbers and blanks are ASCII" in first, first


def test_a_full_width_card_is_named_with_its_column(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = record(tmp_path, "E:2H", "E:\uff12H")
    code, out, _ = run_cli(["validate", str(path)], capsys)
    assert code == 1 and "N140" in out and \
        "column 11 holds U+FF12 FULLWIDTH DIGIT TWO" in out.splitlines()[0], out


def test_a_plain_unknown_action_names_no_character(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = record(tmp_path, "E:2H", "E:2X")
    code, out, _ = run_cli(["validate", str(path)], capsys)
    assert code == 1 and "'2X' is not an action of marianna\n" in out, out


def test_a_look_alike_in_an_annotation_is_named(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """``(won S<joiner>)`` said only ``seat S won the trick``, which it seems to say."""
    path = record(tmp_path, "(won S)", "(won S\u200d)")
    for command in ("validate", "stats"):
        code, out, err = run_cli([command, str(path)], capsys)
        assert code == 1 and "N150" in out + err and \
            "seat S won the trick; it holds U+200D ZERO WIDTH JOINER" in out + err, out + err


@pytest.mark.parametrize(("encode", "what"), [
    (lambda t: t.encode("utf-16"), "UTF-16 text (little-endian, with a byte-order mark)"),
    (lambda t: t.encode("utf-16-le"), "UTF-16 text (little-endian, without a byte-order"),
    (lambda t: t.encode("utf-16-be"), "UTF-16 text (big-endian, without a byte-order"),
    (lambda t: t.encode("utf-32-be"), "UTF-32 text (big-endian, without a byte-order"),
    (lambda t: gzip.compress(t.encode(), mtime=0), "gzip-compressed data (name it .gz)")])
def test_a_file_of_another_encoding_is_one_problem(encode: Callable[[str], bytes], what: str,
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A record saved as UTF-16 (with or without its byte-order mark) or compressed and
    not named so was a problem a line (``byte 0xff is not UTF-8``, then text before the
    first record quoted with a NUL every other character); now one, saying what it is."""
    path = tmp_path / "wide.mrg"
    path.write_bytes(encode(GOOD.read_text(encoding="utf-8")))
    code, out, _ = run_cli(["validate", str(path)], capsys)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 2 and lines[0].startswith(f"{path}:1:1: N100: "), out
    assert f"the file is {what}" in lines[0] and "records are UTF-8 text" in lines[0], out


@pytest.mark.parametrize(("score", "too_long"), [("-999999999", False), ("-1000000000", True)])
def test_a_start_score_counts_its_digits_not_its_sign(score: str, too_long: bool,
                                                      tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``[StartScore "-999999999" "0"]`` (nine digits) was 'longer than 9 digits', where
    ``(match -999999999 0)`` is read."""
    path = record(tmp_path, '[Seed "1"]', f'[StartHand "2"]\n[StartScore "{score}" "0"]')
    code, out, _ = run_cli(["validate", str(path)], capsys)
    assert code == 1 and ("N112" in out) is too_long, out
    assert too_long or "N134" in out, out  # read on: its first hand is numbered 1


@pytest.mark.parametrize("copies", [1, 2, 30])
def test_lines_ending_in_cr_alone_are_named(copies: int, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """A file whose lines end in CR alone (an old Mac's) is one line to the reader: one
    record passed with every place at line 1, two were 'unexpected [Mariage "1"]
    (expected <END-OF-FILE>)', thirty 'a line of 120600 bytes' then 'no record found'."""
    path = tmp_path / "mac.mrg"
    text = (GOOD.read_text(encoding="utf-8") + "\n") * copies
    path.write_bytes(text.replace("\n", "\r").encode())
    code, out, _ = run_cli(["validate", str(path)], capsys)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 2, out
    assert lines[0] == f"{path}:1:14: N110: the lines end in CR alone (an old Mac's line " \
        "ends): records end their lines in LF or CR LF", out


def test_cr_lf_line_ends_and_a_stray_cr_at_a_line_end_are_still_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dos.mrg"
    text = GOOD.read_text(encoding="utf-8").replace("\n", "\r\n")
    path.write_bytes(text.replace("\r\n", "\r\r\n", 1).encode())
    code, out, _ = run_cli(["validate", str(path)], capsys)
    assert code == 0, out
