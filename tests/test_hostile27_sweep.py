"""The twenty-seventh session's hostile sweep: records with odd blanks and line
separators, and ``-o`` values of ``conformance`` read as the other commands read them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostilekit import forget_house, run_cli

GOOD = Path(__file__).resolve().parent / "data" / "records" / "good" / "marianna.mrg"


def record(tmp_path: Path, edit: object) -> Path:
    """The good Marianna record with ``edit`` (lines -> lines) applied, written as is."""
    lines = GOOD.read_text(encoding="utf-8").split("\n")
    first = next(i for i, line in enumerate(lines) if re.match(r"\d+\. ", line))
    path = tmp_path / "odd.mrg"
    path.write_text("\n".join(edit(lines, first)), encoding="utf-8", newline="")  # type: ignore[operator]
    return path


@pytest.mark.parametrize(("blank", "column"), [("\x0b", 1), ("\u2028", 0), ("\x1c", 0)])
def test_an_odd_blank_is_named(blank: str, column: int, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    """An odd blank where none may be is quoted as its escape (it was ``''``): alone on a
    line (column 1), or at the end of a trick's line."""
    def edit(lines: list[str], first: int) -> list[str]:
        if column:
            return [*lines[:first], blank, *lines[first:]]
        return [*lines[:first], lines[first] + blank, *lines[first + 1:]]

    code, out, _ = run_cli(["validate", str(record(tmp_path, edit))], capsys)
    escaped = blank.encode("unicode_escape").decode()
    assert code == 1 and f"unexpected text '{escaped}'" in out, out


def test_a_form_feed_earlier_does_not_shift_the_line_quoted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def edit(lines: list[str], first: int) -> list[str]:
        return [*lines[:first], "\x0c", "\x0c", lines[first], lines[first + 1] + " @@",
                *lines[first + 2:]]

    code, out, _ = run_cli(["validate", str(record(tmp_path, edit))], capsys)
    assert code == 1 and "N110 record 1, at '@@': unexpected text '@@'" in out, out


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_line_separator_in_a_name_is_shown_escaped(
        separator: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A player's name with U+2028 or U+2029 (a new line to ``str.splitlines`` and many a
    terminal) is valid, and shown as its escape by ``replay`` and ``stats``."""
    def edit(lines: list[str], first: int) -> list[str]:
        return [line.replace('[Seat "N" "', f'[Seat "N" "a{separator}') for line in lines]

    path = record(tmp_path, edit)
    for command in (["replay", str(path)], ["stats", str(path)]):
        code, out, err = run_cli(command, capsys)
        assert code == 0 and separator not in out + err
        assert "a" + separator.encode("unicode_escape").decode() in out


@pytest.mark.parametrize("value", ["１１", "٣", "1_1"])
def test_conformance_reads_an_option_number_in_ascii_digits(
        value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``conformance -o target=１１`` derived the suite for 11, where ``play``, ``match``
    and ``rules`` refuse the value."""
    out_dir = tmp_path / "suite"
    code, out, err = run_cli(["conformance", "--ruleset", "mariazza", "-o", f"target={value}",
                              "--write-suite", str(out_dir)], capsys)
    assert code == 2 and not out_dir.exists(), out
    assert err.count("\n") == 1 and "the value must be a whole number (ASCII digits)" in err


def test_conformance_cuts_a_long_option_it_quotes(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["conformance", "--ruleset", "mariazza", "-o", "x" * 5000 + "=1",
                            "--write-suite", str(tmp_path / "suite")], capsys)
    assert code == 2 and err.count("\n") == 1 and len(err) < 400, err[:200]
    assert "(5002 characters)" in err and "no option" in err


@pytest.mark.usefixtures(forget_house.__name__)
def test_a_description_at_fault_is_not_blamed_on_option_values(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``conformance --spec`` of a description whose default is bad named no ``-o`` value
    yet said 'these option values do not go together'."""
    spec = tmp_path / "house.yaml"
    spec.write_text("ruleset: house\nextends: mariazza\noptions:\n  target:\n"
                    "    default: 2001-01-01\n", encoding="utf-8")
    code, _, err = run_cli(["conformance", "--spec", str(spec), "--write-suite",
                            str(tmp_path / "suite")], capsys)
    assert code == 2 and err.count("\n") == 1 and "go together" not in err
    assert "house.yaml:5:14: at 'options.target.default'" in err
    assert not (tmp_path / "suite").exists()


LOOK_ALIKES = [("\u00a0", "U+00A0 NO-BREAK SPACE"), ("\u200d", "U+200D ZERO WIDTH JOINER"),
               ("\uff12", "U+FF12 FULLWIDTH DIGIT TWO"), ("\x0b", "U+000B, a control character")]


# (between two plays, a joiner or a full-width digit makes one play of the two: that
# refusal names it too since the twenty-eighth session, tests/test_hostile28_records.py)
@pytest.mark.parametrize(("odd", "named", "where"), [
    *[(odd, named, 1) for odd, named in LOOK_ALIKES],
    *[(odd, named, 3) for odd, named in LOOK_ALIKES if odd in "\u00a0\x0b"]])
def test_a_look_alike_character_is_named(odd: str, named: str, where: int, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """A character that looks like a blank or a digit of the notation and is not is
    named by its code point, in a trick's line: in place of its first blank (the line's
    number is then read otherwise: the message said only ``unexpected '1'``) or of the
    one between two plays (it was only quoted)."""
    def edit(lines: list[str], first: int) -> list[str]:
        parts = lines[first].split(" ")
        at = 1 if where == 1 else 3  # after the number, or between two plays
        changed = " ".join([*parts[:at - 1], parts[at - 1] + odd + parts[at], *parts[at + 1:]])
        return [*lines[:first], changed, *lines[first + 1:]]

    code, out, _ = run_cli(["validate", str(record(tmp_path, edit))], capsys)
    assert code == 1 and f"{named}: the notation's words, numbers and blanks are ASCII" \
        in out.splitlines()[0], out
