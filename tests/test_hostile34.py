"""The thirty-fourth session's hostile sweep of the public API: a wrong type or a count
out of range given to a documented function failed deep inside (an ``AttributeError``
naming an attribute of ``None``, a ``KeyError``, an ``IndexError``), was taken as it
came (a search "within its limit of -5 tries"), or, for ``validate_file(jobs=10**6)``,
asked for a million worker processes. Each is now a ``TypeError`` or a ``ValueError``
at the call, naming the argument."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from mariage import SeededDeals, load_rules, new_match
from mariage.arena.bots import make_bot
from mariage.conformance.command import check_command
from mariage.conformance.header import front_matter_of, read_header
from mariage.conformance.hidden import parse_hidden_deck
from mariage.conformance.protocol import state_json
from mariage.conformance.reports import parse_expected
from mariage.conformance.suite import parse_test
from mariage.engine.observation import give_receivers, reviewable
from mariage.errors import MariageError
from mariage.infile import real_path
from mariage.notation import (
    Recorder,
    check_record,
    check_text,
    parse_record,
    record_match,
    validate_stream,
    write_atomically,
    write_records,
)
from mariage.spec import specnames
from mariage.spec.specload import register_spec
from mariage.spec.specnames import registered_files, unregister_spec
from mariage.viewer import render_html, render_svg, timeline

RULES = load_rules("schnapsen")
BOTS = [make_bot("greedy", 0), make_bot("greedy", 1)]
TEXT = ('[Mariage "1"]\n[Ruleset "schnapsen"]\n[Dealer "B"]\n\nhand 1\n'
        'deal dealer: B\nA: QH AD KD QD JD\nB: TH QC JC TS JS\n'
        'stock: KH QS AS AC TD KC AH JH TC\nturnup: KS\n'
        '1. A:marriage:D A:QD B:JS (won B)\n\nresult *\n')
#: B's view of that hand: A's cards unseen, so that the deal search runs
PARTIAL = TEXT.replace("A: QH AD KD QD JD", "A: ?? ?? ?? ?? ??").replace(
    "stock: KH QS AS AC TD KC AH JH TC", "stock: ?? ?? ?? ?? ?? ?? ?? ?? ??")
RECORD = parse_record(TEXT, file="s.mrg")


@pytest.mark.parametrize("call", [
    lambda r: SeededDeals(r, 1),
    lambda r: record_match(r, 1, BOTS),
    lambda r: Recorder(r, 0),
    lambda r: parse_hidden_deck(r, ["??"] * 20),
], ids=["SeededDeals", "record_match", "Recorder", "parse_hidden_deck"])
@pytest.mark.parametrize("rules", [None, "schnapsen", 5])
def test_rules_that_are_no_rules_are_a_type_error(call: Any, rules: object) -> None:
    """Was ``AttributeError: 'NoneType' object has no attribute 'first_dealer'`` (or
    ``'nseats'``)."""
    with pytest.raises(TypeError, match="rules must be a Rules"):
        call(rules)


@pytest.mark.parametrize("name", [None, 5, 1.5, b"greedy"])
def test_a_bot_name_that_is_no_string_is_refused_by_name(name: object) -> None:
    """``make_bot(5)`` was ``AttributeError: 'int' object has no attribute 'casefold'``
    (from the did-you-mean hint of the unknown name)."""
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("listener", ["print", 5, object()])
def test_a_listener_without_its_methods_is_a_type_error(listener: object) -> None:
    """Was ``AttributeError: 'str' object has no attribute 'on_deal'`` from the replay."""
    with pytest.raises(TypeError, match="listener must have the methods on_deal and on_act"):
        check_text(TEXT, listener=listener)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="listener must have"):
        check_record(RECORD, listener=listener)  # type: ignore[arg-type]


@pytest.mark.parametrize(("limit", "error"), [
    ("5", TypeError), (None, TypeError), (True, TypeError), (2.5, TypeError),
    (0, ValueError), (-5, ValueError)])
def test_a_search_limit_is_a_whole_number_from_one(limit: object, error: type) -> None:
    """``-5`` gave "the search ... gave up within its limit of -5 tries", ``True`` a
    limit of "True tries", ``"5"`` a ``TypeError`` about ``-`` deep in the search."""
    assert check_text(PARTIAL, search_limit=50).ok
    with pytest.raises(error, match="search_limit must be a whole number, at least 1"):
        check_text(PARTIAL, search_limit=limit)  # type: ignore[arg-type]


@pytest.mark.parametrize(("jobs", "error"), [
    (10 ** 6, ValueError), (0, ValueError), (-1, ValueError), ("2", TypeError),
    (1.5, TypeError), (None, TypeError)])
def test_validate_takes_jobs_from_one_to_its_bound(jobs: object, error: type) -> None:
    """``jobs=10**6`` made a pool of a million processes (the call never returned);
    ``jobs=0`` and ``-1`` ran as 1; ``"2"`` was ``'<=' not supported``."""
    with pytest.raises(error, match="jobs must be a whole number from 1 to 256"):
        validate_stream(io.BytesIO(TEXT.encode()), "s.mrg", jobs=jobs)  # type: ignore[arg-type]


def test_write_records_to_no_stream_is_a_type_error(tmp_path: Path) -> None:
    """Was ``AttributeError: 'str' object has no attribute 'write'`` (a file name)."""
    with pytest.raises(TypeError, match="out must be a text stream"):
        write_records([RECORD], str(tmp_path / "out.mrg"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="int"):
        write_atomically(5, "x")  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    lambda s: state_json(s), lambda s: reviewable(s, 0), lambda s: give_receivers(s)],
    ids=["state_json", "reviewable", "give_receivers"])
def test_a_state_that_is_no_state_is_a_type_error(call: Any) -> None:
    """Was ``AttributeError: 'NoneType' object has no attribute 'rules'``."""
    with pytest.raises(TypeError, match="the state is a GameState, not Record"):
        call(RECORD)


def test_a_seat_out_of_range_for_reviewable_is_a_seat_error() -> None:
    """Was ``IndexError: tuple index out of range``."""
    with pytest.raises(ValueError, match="reviewable: seat must be a seat number from 0 to 1"):
        reviewable(new_match(RULES, 1), 5)


def test_the_viewer_given_what_is_not_its_input_says_so() -> None:
    """``timeline(None)``, ``render_html(None)``, ``render_html(tl, None)`` and
    ``render_svg(record, 1)`` were ``AttributeError`` s."""
    with pytest.raises(TypeError, match="timeline: a Record is needed"):
        timeline(None)  # type: ignore[arg-type]
    tl = timeline(RECORD)
    with pytest.raises(TypeError, match="render_html: a Timeline is needed"):
        render_html(RECORD)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="render_html: source is the record's text"):
        render_html(tl, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"render_svg: a Timeline is needed.*not Record"):
        render_svg(RECORD, 1)  # type: ignore[arg-type]
    from mariage.viewer.draw import find_step

    with pytest.raises(TypeError, match=r"find_step: a Timeline is needed.*not Record"):
        find_step(RECORD, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    lambda v: parse_test(v, "t.md"), lambda v: parse_expected(v, "e.txt"),
    front_matter_of, read_header, check_command],
    ids=["parse_test", "parse_expected", "front_matter_of", "read_header", "check_command"])
def test_text_given_as_no_string_is_a_type_error(call: Any) -> None:
    """Was ``AttributeError: 'NoneType' object has no attribute 'removeprefix'`` (or
    ``'startswith'``, ``'isalpha'``, ``'read'`` from ``shlex``)."""
    with pytest.raises(TypeError, match="must be a str, not list"):
        call([])


@pytest.mark.parametrize(("look_up", "name", "says"), [
    (RULES.card, "ZH", "schnapsen has no card code 'ZH' (known: AH TH"),
    (RULES.info, "schnapsen.pak", "schnapsen has no rule ID 'schnapsen.pak' (known: core.turn"),
    (RULES.option, "match_targte", "did you mean 'match_target'"),
    (RULES.card, None, "no card code None")])
def test_a_name_the_rules_do_not_have_says_what_and_where(look_up: Any, name: object,
                                                          says: str) -> None:
    """``rules.card("ZH")`` was ``KeyError: 'ZH'``, naming neither what was looked up nor
    the ruleset; it is still a ``KeyError``, and now one of the project's errors."""
    with pytest.raises(KeyError) as info:
        look_up(name)
    assert isinstance(info.value, MariageError) and says in str(info.value)


def test_a_description_in_a_folder_named_with_the_path_separator_reaches_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``validate --scheduler local:1 --spec /tmp/a:b/house.yaml`` refused a valid record
    with ``a: file not found``: worker processes read the ``--spec`` files from an
    environment variable of ``NAME=PATH`` entries joined by ``os.pathsep``, which split
    the path in two (so would workers started by ``spawn``, the default off Linux)."""
    folder = tmp_path / f"a{os.pathsep}b"
    folder.mkdir()
    (folder / "house.yaml").write_text("format: 1\nextends: schnapsen\nruleset: house34\n"
                                       "name: House\n", encoding="utf-8")
    assert register_spec(folder / "house.yaml") == "house34"
    try:
        with monkeypatch.context() as m:
            m.setattr(specnames, "_REGISTERED", {})  # a worker: only what it inherits
            assert registered_files() == [Path(real_path(folder / "house.yaml"))]
    finally:
        unregister_spec("house34")
    assert "MARIAGE_SPEC_FILES" not in os.environ


@pytest.mark.parametrize(("limit", "error"), [("5", TypeError), (0, ValueError)])
def test_record_match_takes_a_whole_number_of_actions(limit: object, error: type) -> None:
    """``max_actions="5"`` was ``'>' not supported``, ``0`` played one action and gave up
    with ``RuntimeError: match did not end``, which now says where it stopped."""
    with pytest.raises(error, match="record_match: max_actions must be a whole number"):
        record_match(RULES, 1, BOTS, max_actions=limit)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match=r"within max_actions=3 actions \(hand 1, trick \d+\)"):
        record_match(RULES, 1, BOTS, max_actions=3)


class _FullDisk(io.RawIOBase):
    """A stream on a full disk (``> /dev/full``) until ``room`` is set."""

    room = False

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if not self.room:
            raise OSError(28, "No space left on device")
        return len(data)


@pytest.mark.parametrize("argv", [["rules", "thousand"], ["list"]])
def test_a_write_to_a_full_standard_output_says_where(
        argv: list[str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``mariage rules thousand > /dev/full`` said only "No space left on device"."""
    from mariage.cli import main

    raw = _FullDisk()
    full = io.TextIOWrapper(io.BufferedWriter(raw, 64), encoding="utf-8")
    monkeypatch.setattr("sys.stdout", full)
    code = main(argv)
    err = capsys.readouterr().err
    raw.room = True  # (the wrapper's own flush at its end)
    full.close()
    assert code == 2
    assert err == "mariage: error: standard output: No space left on device\n"
