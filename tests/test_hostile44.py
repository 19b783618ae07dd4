"""The forty-fourth session's hostile sweep: the public API called with arguments of the
wrong type (the record readers' file, number and line; paths given as None, bytes or a
``Path``; one name where a list goes; a recorder's players and extra tags; the naming of
actions; a seat of 1.5), a Thousand exchange of bits beyond the pack, and the conformance
suite's filters and coverage helpers.

Each test names what happened before its fix.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from mariage import GameState, Give, load_rules, naming, new_match, set_naming
from mariage.errors import IllegalActionError, SeatError
from mariage.notation import (
    Recorder,
    check_text,
    fast_valid,
    input_files,
    open_input,
    parse_record,
    parse_records,
    read_records,
    record_match,
    split_records,
    validate_file,
    validate_stream,
    write_atomically,
    write_records,
)

DATA = Path(__file__).parent / "data"
THOUSAND = (DATA / "records29" / "thousand.mrg").read_text()
BAD = THOUSAND.replace("B:bid:100", "B:bid:101")  # a bid off the step: one N141
BAD_FILE = DATA / "records" / "bad" / "must-follow.mrg"


# ------------------------------------------------ the place given with a record's text
@pytest.mark.parametrize(("call", "keyword", "value", "says"), [
    (check_text, "file", 7, "check_text: file must be a str, not int"),
    (check_text, "file", b"r.mrg", "check_text: file must be a str, not bytes"),
    (check_text, "line", 1.5, "check_text: line must be a whole number, at least 1"),
    (check_text, "line", "3", "check_text: line must be a whole number, at least 1"),
    (check_text, "number", None, "check_text: number must be a whole number, at least 1"),
    (check_text, "number", 0, "check_text: number must be a whole number, at least 1"),
    (parse_record, "file", None, "parse_record: file must be a str, not NoneType"),
    (parse_record, "line", -2, "parse_record: line must be a whole number, at least 1"),
    (fast_valid, "file", 7, "fast_valid: file must be a str, not int"),
])
def test_the_place_of_a_records_text_is_checked_as_it_is_given(
        call: Any, keyword: str, value: object, says: str) -> None:
    # was: file=7 checked the record and failed only as a problem was printed
    # ("unsupported operand type(s) for +=: 'int' and 'str'"); line=1.5 placed the bad
    # bid on line 16.5; number="ok" printed "record ok"; line="3" failed deep inside
    # ("unsupported operand type(s) for -: 'str' and 'int")
    with pytest.raises((TypeError, ValueError), match=says):
        call(BAD, **{keyword: value})


def test_fast_valid_of_no_text_is_a_type_error_as_check_texts() -> None:
    # was: False ("not sure"), as for a record it could not vouch for
    with pytest.raises(TypeError, match="fast_valid: the text of a record is a str"):
        fast_valid(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("read", [
    lambda stream, file: list(split_records(stream, file)),
    lambda stream, file: list(parse_records(stream, file)),
    lambda stream, file: list(read_records(stream, file)),
])
@pytest.mark.parametrize("file", [1, None, b"r.mrg", Path("r.mrg")])
def test_a_stream_readers_file_is_a_str(read: Any, file: object) -> None:
    # was: read_records(stream, 1) of a stream with a problem raised "unsupported operand
    # type(s) for +=: 'int' and 'str'" from RecordError.__str__; parse_records gave
    # problems that raised it when printed
    with pytest.raises(TypeError, match="split_records: file must be a str"):
        read(io.BytesIO(b"junk\n"), file)


@pytest.mark.parametrize("file", [1, None, Path("r.mrg")])
def test_validate_stream_names_a_file_that_is_no_str(file: object) -> None:
    # was: FileSummary(file=1, ...), whose problems could not be printed
    with pytest.raises(TypeError, match="validate_stream: file must be a str"):
        validate_stream(io.BytesIO(BAD.encode()), file)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------- paths
def test_validate_file_of_a_path_prints_its_problems() -> None:
    # was: the problems of validate_file(Path(...)) held the Path as their file, and
    # str() of one raised "unsupported operand type(s) for +=: 'PosixPath' and 'str'"
    summary = validate_file(BAD_FILE)
    assert summary.file == str(BAD_FILE)
    assert str(summary.errors[0]).startswith(f"{BAD_FILE}:18:9: N141 ")


@pytest.mark.parametrize("path", [None, 3, b"a.mrg"])
@pytest.mark.parametrize(("call", "name"), [(open_input, "open_input"),
                                            (validate_file, "validate_file")])
def test_a_path_that_is_no_path_is_named(call: Any, name: str, path: object) -> None:
    # was: Python's "expected str, bytes or os.PathLike object, not NoneType", or for
    # bytes "endswith first arg must be bytes or a tuple of bytes, not str"
    with pytest.raises(TypeError, match=f"{name}: path must be a str or an os.PathLike"):
        call(path)


@pytest.mark.parametrize(("paths", "says"), [
    ("match.mrg", "input_files: paths must be an iterable of paths"),
    (b"match.mrg", "input_files: paths must be an iterable of paths"),
    (7, "input_files: paths must be an iterable of paths"),
    ([None], "input_files: path must be a str or an os.PathLike, not NoneType"),
])
def test_input_files_takes_a_list_of_paths(paths: object, says: str) -> None:
    # was: "match.mrg" listed as nine files, "m", "a", "t"...; b"match.mrg" as the numbers
    # 109, 97...; 7 failed with "'int' object is not iterable"
    with pytest.raises(TypeError, match=says):
        list(input_files(paths))  # type: ignore[arg-type]


def test_input_files_names_an_on_error_that_cannot_be_called(tmp_path: Path) -> None:
    # was: taken, and "'int' object is not callable" when a folder could not be listed
    with pytest.raises(TypeError, match="input_files: on_error must be a function or None"):
        list(input_files([str(tmp_path)], on_error=3))  # type: ignore[arg-type]


@pytest.mark.parametrize(("path", "text", "says"), [
    ("out.mrg", 5, "write_atomically: text must be a str, not int"),
    ("out.mrg", b"x", "write_atomically: text must be a str, not bytes"),
    (None, "x", "write_atomically: path must be a str or an os.PathLike, not NoneType"),
    (b"out.mrg", "x", "write_atomically: path must be a str or an os.PathLike, not bytes"),
    ("", "x", "write_atomically: the file name is empty"),
])
def test_write_atomically_names_what_it_cannot_write(
        path: Any, text: Any, says: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # was: "write() argument must be str, not int", Python's "expected str, bytes or
    # os.PathLike object", "startswith first arg must be bytes" (bytes), and an empty
    # name was "--out: the file name is empty" (an option no API call has)
    monkeypatch.chdir(tmp_path)
    with pytest.raises((TypeError, ValueError), match=says):
        write_atomically(path, text)
    assert list(tmp_path.iterdir()) == []


def test_write_records_names_records_that_are_none() -> None:
    # was: "'int' object is not iterable"
    with pytest.raises(TypeError, match="write_records: records must be an iterable"):
        write_records(7, io.StringIO())  # type: ignore[arg-type]


# ----------------------------------------------------------------------- the recorder
def _bots(n: int) -> list[Any]:
    from mariage.arena.bots import make_bot

    return [make_bot("greedy", s) for s in range(n)]


@pytest.mark.parametrize(("players", "says"), [
    ([1, 2, 3], "players must be str values, not a int among them"),
    (["Ann", None, "Cid"], "players must be str values, not a NoneType among them"),
    (3, "players: the names of the seats are a list of str, not int"),
])
def test_record_match_names_players_that_are_no_names(players: object, says: str) -> None:
    # was: an AttributeError ("'int' object has no attribute 'replace'") once the whole
    # match was played; 3: "object of type 'int' has no len()"
    with pytest.raises(TypeError, match=says):
        record_match(load_rules("thousand"), 1, _bots(3), players=players)  # type: ignore[arg-type]


@pytest.mark.parametrize(("extra", "error", "says"), [
    ([("Event", 1)], TypeError, r"each tag to add is a \(name, value\) pair of str"),
    ([("Event", "a", "b")], TypeError, r"each tag to add is a \(name, value\) pair of str"),
    (["Event"], TypeError, r"each tag to add is a \(name, value\) pair of str"),
    ("Event", TypeError, r"extra: the tags to add are \(name, value\) pairs of str"),
    ([("Ruleset", "belote")], ValueError, "the tag Ruleset is written from the rules"),
    ([("Dealer", "B")], ValueError, "the tag Dealer is written from the rules"),
])
def test_the_recorder_refuses_extra_tags_it_could_not_write_back(
        extra: Any, error: type[Exception], says: str) -> None:
    # was: an AttributeError ('replace') for a value of 1, "too many values to unpack",
    # the tag [E "vent"] for "Event", and a record the reader refuses (the tag Ruleset
    # given twice) for a second Ruleset
    from mariage.notation import write_record

    with pytest.raises(error, match=says):
        Recorder(load_rules("thousand"), 0, None, extra)
    text = write_record(Recorder(load_rules("thousand"), 0, None,  # tags of its own: added
                                 (("Seed", "1"), ("Game", "2"))).record())
    assert '[Seed "1"]\n[Game "2"]\n' in text and check_text(text).errors == []


# ---------------------------------------------------------------------- the engine API
@pytest.mark.parametrize("rules", [1, "thousand", None])
def test_naming_of_what_is_no_rules_is_a_type_error(rules: object) -> None:
    # was: taken, and every repr of an action fell back to its numbers
    if rules is not None:
        with pytest.raises(TypeError, match="set_naming: rules must be a Rules"):
            set_naming(rules)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="naming: rules must be a Rules"), \
            naming(rules):  # type: ignore[arg-type]
        pass
    set_naming(None)


@pytest.mark.parametrize("seat", [1.5, -1, 3, True, None, "A", 10 ** 30])
def test_next_seat_of_no_seat_is_a_seat_error(seat: object) -> None:
    # was: 2.5 for 1.5, seat 0 for -1, 3 and 10**30, a TypeError from '+' for None or "A"
    state = new_match(load_rules("thousand"), 1)
    with pytest.raises(SeatError, match="next_seat: seat must be a seat number from 0 to 2"):
        state.next_seat(seat)  # type: ignore[arg-type]
    assert [state.next_seat(s) for s in range(3)] == [1, 2, 0]


def _passing(ruleset: str) -> GameState:
    state = new_match(load_rules(ruleset), 0)
    while state.phase.name != "PASSING" or state.pass_step < 0:  # (a packet chosen)
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("ruleset", ["thousand", "thousand-2", "thousand-4"])
@pytest.mark.parametrize("cards", [2 ** 64, 2 ** 24, 1 << 40 | 1])
def test_a_give_of_bits_beyond_the_pack_is_refused_by_the_exchange_rule(
        ruleset: str, cards: int) -> None:
    # was: "ValueError: mask 0x10000000000000000 is no set of cards" from format_cards,
    # raised while the refusal was worded
    state = _passing(ruleset)
    with pytest.raises(IllegalActionError, match="the mask has bits of no card of the "
                                                 r"24-card pack \[thousand\.exchange\]"):
        state.apply(Give(cards))


# -------------------------------------------------------------- the conformance suite
@pytest.mark.parametrize(("keyword", "value"), [
    ("rulesets", "thousand"), ("rules", "thousand.pack"), ("kinds", "scenario"),
])
def test_load_suite_refuses_one_name_given_as_a_str(keyword: str, value: str) -> None:
    # was: the str read as its letters, "t", "h"...: no test matched, and a harness that
    # ran the empty suite passed
    from mariage.conformance.suite import load_suite

    with pytest.raises(TypeError, match=f"load_suite: {keyword} is a list of names, not a "
                                        rf"str \(write {keyword}=\['{value}'\]\)"):
        load_suite(**{keyword: value})


@pytest.mark.parametrize(("keyword", "value", "says"), [
    ("rulesets", None, "load_suite: rulesets must be str values, not NoneType"),
    ("kinds", [1], "load_suite: kinds must be str values, not a int among them"),
    ("root", 1, r"load_suite: root is a folder \(a Path\), not int"),
])
def test_load_suite_names_a_filter_of_no_names(keyword: str, value: object,
                                               says: str) -> None:
    # was: "'NoneType' object is not iterable"; [1] ran no test; root=1: Python's
    # "expected str, bytes or os.PathLike object"
    from mariage.conformance.suite import load_suite

    with pytest.raises(TypeError, match=says):
        load_suite(**{keyword: value})


def test_the_coverage_helpers_name_a_wrong_argument() -> None:
    # was: AttributeErrors ("'NoneType' object has no attribute 'items'", "'int' object
    # has no attribute 'rsplit'") and rule IDs given as one str read as its letters
    from mariage.conformance.coverage import coverage_text, rule_coverage

    with pytest.raises(TypeError, match="coverage_text: cov is what coverage"):
        coverage_text(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rule_coverage: ruleset must be a str, not int"):
        rule_coverage({}, 1, ["thousand.pack"])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rule_coverage: rule_ids must be str values"):
        rule_coverage({}, "thousand", "thousand.pack")
    with pytest.raises(TypeError, match="rule_coverage: checked maps rule IDs"):
        rule_coverage([], "thousand", ["thousand.pack"])  # type: ignore[arg-type]


# ------------------------------------------------------------------ list_rulesets
@pytest.mark.parametrize("kind", ["missing", "file"])
def test_list_rulesets_of_no_folder_says_so(kind: str, tmp_path: Path) -> None:
    # was: [], as for a folder of no descriptions: a mistyped folder listed nothing
    from mariage import list_rulesets

    path = tmp_path / "rules"
    if kind == "file":
        path.write_text("ruleset: house\n", encoding="utf-8")
    error = FileNotFoundError if kind == "missing" else NotADirectoryError
    with pytest.raises(error, match=r"list_rulesets: (no such folder|not a folder)"):
        list_rulesets(path)
    assert list_rulesets(tmp_path) == []  # a folder of none is still no ruleset


@pytest.mark.parametrize("directory", [5, b"/tmp", ["/tmp"]])
def test_list_rulesets_names_a_directory_that_is_no_path(directory: object) -> None:
    # was: pathlib's "expected str, bytes or os.PathLike object, not int" and
    # "argument should be a str or an os.PathLike object ..., not <class 'bytes'>"
    from mariage import list_rulesets

    with pytest.raises(TypeError, match="list_rulesets: directory is a folder"):
        list_rulesets(directory)  # type: ignore[arg-type]


@pytest.mark.parametrize("open_hands", ["false", "no", 1, 0.0, []])
def test_observe_takes_open_hands_as_true_false_or_none(open_hands: object) -> None:
    # was: any truthy value, "false" among them, showed every hand to the seat
    from mariage import observe

    state = new_match(load_rules("thousand"), 1)
    with pytest.raises(TypeError, match="observe: open_hands is True, False or None"):
        observe(state, 0, open_hands)  # type: ignore[arg-type]
    assert observe(state, 0, False).shown[1] == 0 != observe(state, 0, True).shown[1]
