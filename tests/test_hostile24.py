"""Hostile inputs, twenty-fourth sweep: what the earlier sweeps left uncovered.

Each test names what happened before its fix.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hostilekit import run_cli
from mariage import load_rules
from mariage.errors import OptionError, SpecError
from mariage.notation import parse_record, write_record
from mariage.notation.model import Act, Comment, Record, Result, Tag
from mariage.notation.replay import check_text

RECORDS = Path(__file__).parent / "data" / "records" / "good"


# ------------------------------------------- an option value the rules cannot be played with
def test_an_option_value_in_range_the_rules_refuse_is_the_options_fault() -> None:
    # was: SpecError "spec/belote-coinche.yaml:69:12: at 'suit_auction.generale.value':
    # the générale must be worth more ..." blaming the bundled description, naming no option
    with pytest.raises(OptionError) as info:
        load_rules("belote-coinche", {"generale": 100})
    assert info.value.option == "generale"
    assert str(info.value).startswith("option generale=100 cannot be played with the rules "
                                      "of belote-coinche: ")
    assert "générale must be worth more than every other bid" in str(info.value)


def test_two_option_values_that_clash_are_both_named() -> None:
    with pytest.raises(OptionError, match=r"^options bid_min=150, bid_max=80 cannot be "):
        load_rules("belote-coinche", {"bid_min": 150, "bid_max": 80, "target": 1000})


def test_the_command_line_says_which_option_and_exits_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: exit 1, as for a broken description, and no word of -o generale
    code, _, err = run_cli(["play", "belote-coinche", "-o", "generale=100", "-q"], capsys)
    assert code == 2
    assert err.startswith("mariage: error: option generale=100 cannot be played")
    assert "Traceback" not in err


def test_a_record_with_such_an_option_is_refused_at_its_option_tag() -> None:
    # was: N122 at the [Ruleset] tag (line 2), as if the ruleset were unknown
    text = ('[Mariage "1"]\n[Ruleset "belote-coinche"]\n[Option "generale" "100"]\n'
            '[Dealer "N"]\nresult *\n')
    errors = check_text(text, file="g.mrg").errors
    assert len(errors) == 1
    err = errors[0]
    assert (err.code, err.line, err.column) == ("N123", 3, 2)
    assert "option generale=100 cannot be played" in str(err)


def test_a_description_broken_at_its_defaults_is_still_its_own_fault(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("format: 1\nruleset: house\nextends: mariazza\nname: H\nversion: 1\n"
                    "deal:\n  hand_size: 30\n", encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_rules(path, {"target": 30})
    assert "2 hands of 30 need more than 40 cards" in str(info.value)
    assert str(info.value).startswith(f"{path}:7:")


# ------------------------------------------- names that look like others on the screen
@pytest.mark.parametrize(("argv", "shown"), [
    (["play", "mariazza\u200b", "-q"], "'mariazza\\u200b'"),
    (["play", "mariazza", "-o", "target\u200b=3", "-q"], "'target\\u200b'"),
    (["play", "mariazza\ufeff", "-q"], "'mariazza\\ufeff'"),
], ids=["ruleset-zero-width-space", "option-zero-width-space", "ruleset-bom"])
def test_an_invisible_character_in_a_name_is_shown(argv: list[str], shown: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # was: "unknown ruleset 'mariazza' (known: ..., mariazza, ...)": the zero-width space
    # printed as nothing, so the name refused looked like the one listed
    code, _, err = run_cli(argv, capsys)
    assert code == 2
    assert shown in err and "not an ASCII character" in err


@pytest.mark.parametrize(("old", "new", "line"), [
    ('[Seat "A" "greedy"]', '[Seat "\u0410" "greedy"]', 3),
    ('[Dealer "A"]', '[Dealer "\u0410"]', 5),
], ids=["seat-tag", "dealer-tag"])
def test_a_seat_in_a_look_alike_letter_is_named_by_its_character(old: str, new: str,
                                                                 line: int) -> None:
    # was: "no seat 'А' (seats: A, B, C)": a Cyrillic А refused next to the Latin A
    text = ('[Mariage "1"]\n[Ruleset "thousand"]\n[Seat "A" "greedy"]\n[Seat "B" "x"]\n'
            '[Dealer "A"]\nresult *\n').replace(old, new)
    errors = check_text(text, file="c.mrg").errors
    assert [(e.code, e.line) for e in errors] == [("N124", line)]
    assert "U+0410 CYRILLIC CAPITAL LETTER A, not an ASCII character" in str(errors[0])


def test_view_of_a_look_alike_seat_says_which_character(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    code, _, err = run_cli(["view", "--seat", "\u0410", str(RECORDS / "mariaggia.mrg")],
                           capsys)
    assert code == 2
    assert "U+0410 CYRILLIC CAPITAL LETTER A, not an ASCII character" in err


# ------------------------------------------- an engine command or a filter that names nothing
@pytest.mark.parametrize("command", ["conformance", "match"])
@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_an_engine_that_is_a_folder_or_a_fifo_is_called_so(
        command: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: conformance "no such program: DIR" for a folder that exists; match started the
    # games and failed each handshake with "[Errno 13] Permission denied"
    import os

    prog = tmp_path / "engine"
    if kind == "folder":
        prog.mkdir()
    else:
        os.mkfifo(prog)
    argv = (["conformance", "--engine", str(prog), "--ruleset", "mariazza"]
            if command == "conformance" else
            ["match", "mariazza", "--engine", f"A={prog}", "--games", "1"])
    code, out, err = run_cli(argv, capsys)
    said = "is a folder" if kind == "folder" else "is not a regular file"
    assert (code, out) == (2, "")
    assert err == f"mariage: error: --engine: {prog}: {said}\n"


def test_a_mistyped_ruleset_filter_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    # was: "no test matches the --ruleset/--rule/--kind filters", naming no filter
    code, _, err = run_cli(["conformance", "--ruleset", "mariaza", "--kind", "scenario"],
                           capsys)
    assert code == 2
    assert "--ruleset: unknown ruleset 'mariaza'" in err and "did you mean 'mariazza'?" in err


# ------------------------------------------- a record built by hand that cannot be read back
def _good() -> Record:
    return parse_record((RECORDS / "mariaggia.mrg").read_bytes().decode())


def _first_hand_with(rec: Record, item: object) -> Record:
    hand = rec.hands[0]
    return replace(rec, hands=(replace(hand, items=(*hand.items, item)), *rec.hands[1:]))


@pytest.mark.parametrize(("change", "kind"), [
    (lambda r: replace(r, comments=(Comment("a } brace"),)), "comment"),
    (lambda r: replace(r, tags=(*r.tags, Tag("Two words", ("x",)))), "tag name"),
    (lambda r: replace(r, result=Result("A B", "points")), "result"),
    (lambda r: replace(r, result=Result("A", "by (points)")), "result"),
    (lambda r: _first_hand_with(r, Act("A", "K H")), "action"),
    (lambda r: _first_hand_with(r, Act("A:B", "KH")), "seat"),
    (lambda r: _first_hand_with(r, Comment("{nested}")), "comment"),
], ids=["header-comment", "tag-name", "result-winner", "result-reason", "action", "seat",
        "hand-comment"])
def test_the_writer_refuses_what_the_reader_could_not_read_back(change: Any, kind: str) -> None:
    # was: written as given, a record that parse_record then refused (or read otherwise):
    # the writer's promise parse(write(r)) == r broken without a word
    rec = change(_good())
    with pytest.raises(ValueError, match=rf"^write_record: a {kind} cannot hold .*: it would "
                                         "not read back$"):
        write_record(rec)


def test_the_writer_still_writes_every_good_record_as_it_read_it() -> None:
    for path in sorted(RECORDS.glob("*.mrg")):
        text = path.read_bytes().decode()
        assert parse_record(write_record(parse_record(text))) == parse_record(text)


def test_writer_refuses_a_reason_on_an_unfinished_result() -> None:
    """An unfinished result written as ``result *`` would lose its reason on reading back."""
    rec = parse_record('[Mariage "1"]\n[Ruleset "marianna"]\n\nresult *\n')
    with pytest.raises(ValueError, match="unfinished result"):
        write_record(replace(rec, result=Result(None, "target")))
    nobody = replace(rec, result=Result("-", "target"))
    assert parse_record(write_record(nobody)).result == Result("-", "target")
