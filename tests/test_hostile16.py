"""Hostile inputs of the sixteenth session, and the record keeper: each case failed (a
traceback, a silent end, an unmarked illegal action, a zero exit code) before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hostilekit import forget_house, run_cli
from mariage import GameState, IllegalActionError, MariageError, load_rules, new_match
from mariage.engine.actions import Bid, Raise, Take
from mariage.errors import SeatError
from mariage.notation.reader import parse_record
from mariage.viewer.timeline import timeline

DATA = Path(__file__).parent / "data" / "records"
BAD = DATA / "bad"
GOOD = DATA / "good"


_run = run_cli
pytestmark = pytest.mark.usefixtures(forget_house.__name__)


# ----------------------------------------------------- the record keeper: replay's ending

@pytest.mark.parametrize("bad", sorted(p.name for p in BAD.glob("*.mrg")))
def test_every_bad_record_replayed_ends_with_a_line_saying_why(
        bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    # was: a replay that stopped (or a record that could not be read) ended silently
    code, out, err = _run(["replay", str(BAD / bad)], capsys)
    assert code == 1 and err
    last = out.rstrip().splitlines()[-1]
    assert last.startswith("Result: ")
    if last.startswith("Result: none: "):  # no result: where and why, as on stderr
        where = last.split(": ", 2)[2]
        assert any(where.endswith(line) or line in where for line in err.splitlines())
    else:  # replayed to the end: the result, and that the record is not valid
        assert "; the record is not valid (" in last


@pytest.mark.parametrize("bad", sorted(p.name for p in BAD.glob("*.mrg")))
def test_every_bad_record_in_json_names_where_the_replay_stopped(
        bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["replay", "--format", "json", str(BAD / bad)], capsys)
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and report["errors"]
    if "stopped" in report:
        assert report["stopped"] in report["errors"]
    else:  # replayed to the end: each problem of a hand is on the hand or action it is at
        placed = [p for h in report["hands"] for a in [h, *h["actions"]]
                  for p in a.get("problems", [])]
        assert all(p in report["errors"] for p in placed)
        assert all(p["hand"] == 0 or p["code"].startswith("N16")  # the header, the match
                   for p in report["errors"] if p not in placed)


def test_replay_stopped_at_a_card_not_held_says_so(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    path = BAD / "card-not-in-hand.mrg"
    code, out, _ = _run(["replay", str(path)], capsys)
    assert code == 1
    assert out.endswith(
        "\n\nResult: none: the replay stopped at "
        f"{path}:17:4: N141 record 1, hand 1, trick 1, seat S, at 'S:QH': that card is "
        "not in the player's hand [core.hand] (1 problem in all, each listed on stderr)\n")
    code, out, _ = _run(["replay", "--format", "json", str(path)], capsys)
    stopped = json.loads(out)["stopped"]
    assert (stopped["token"], stopped["line"], stopped["column"], stopped["rule_id"],
            stopped["hand"], stopped["trick"], stopped["seat"]) == (
        "S:QH", 17, 4, "core.hand", 1, 1, "S")


def test_replay_json_marks_the_card_applied_though_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: the text marked E:7H with '!', the JSON had empty notes and nothing else
    code, out, _ = _run(["replay", "--format", "json", str(BAD / "must-follow.mrg")], capsys)
    report = json.loads(out)
    assert code == 1
    actions = report["hands"][0]["actions"]
    marked = {(a["seat"], a["action"]): [(p["code"], p["rule_id"], p["line"], p["column"])
                                          for p in a["problems"]]
              for a in actions if "problems" in a}
    assert marked == {("E", "7H"): [("N141", "mariglia.play.follow", 18, 9)],
                      # its '(won W)' is wrong: the trick's winner is decided by the rule
                      ("W", "3H"): [("N150", "mariglia.trick.winner", 18, 24)]}
    assert (report["stopped"]["token"], report["stopped"]["rule_id"]) == ("W:AH", "core.turn")


def test_a_problem_is_on_the_step_of_its_column_not_the_last_of_its_line() -> None:
    tl = timeline(parse_record((BAD / "must-follow.mrg").read_text(encoding="utf-8")))
    where = {e.code: (s.seat, s.action) for s in tl.steps for e in s.errors}
    assert where["N141"] == ("E", "7H")  # was W:3H, the last card written on line 18
    assert where["N150"] == ("W", "3H")
    assert tl.stopped is not None and tl.stopped.code == "N142"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_record_that_cannot_be_read_names_why_on_stdout_too(
        fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["replay", "--format", fmt, str(BAD / "latin1.mrg")], capsys)
    assert code == 1
    if fmt == "json":
        assert json.loads(out)["stopped"]["code"] == "N100"
    else:
        assert out.startswith("Result: none: the record cannot be read: ")
        assert "N100 record 1: byte 0xe9 is not UTF-8" in out


@pytest.mark.parametrize("good", sorted(p.name for p in GOOD.glob("*.mrg")))
def test_a_valid_record_has_no_problem_or_stop_keys(good: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["replay", "--format", "json", str(GOOD / good)], capsys)
    assert code == 0 and '"problems"' not in out and '"stopped"' not in out
    code, out, _ = _run(["replay", str(GOOD / good)], capsys)
    assert code == 0 and "not valid" not in out and "stopped" not in out


# ------------------------------------------------------------------- the Python API

@pytest.mark.parametrize("undo", [False, True])
@pytest.mark.parametrize("seat", [99, -1, "x", True, 2**70])
@pytest.mark.parametrize("action", [Bid(None), Bid("100"), Take(-5), Raise([])],  # type: ignore[arg-type]
                         ids=["bid-none", "bid-text", "take-minus-5", "raise-list"])
def test_a_seat_out_of_range_is_named_before_the_actions_fields(
        undo: bool, seat: object, action: object) -> None:
    # was: Bid(None) for seat 99 refused for its field [core.phase], the seat not named
    state = new_match(load_rules("thousand"), 1)
    state.enable_undo(undo)
    before = (list(state.hands), state.to_act, list(state.actions))
    with pytest.raises(SeatError, match=r"^apply: seat must be a seat number from 0 to 2, "
                                        r"not ") as caught:
        state.apply(action, seat)  # type: ignore[arg-type]
    assert isinstance(caught.value, MariageError) and isinstance(caught.value, ValueError)
    assert (state.hands, state.to_act, state.actions) == before


def test_a_good_seat_with_a_bad_field_is_still_refused_for_the_field() -> None:
    state = new_match(load_rules("thousand"), 1)
    with pytest.raises(IllegalActionError, match=r"value is a whole number.*\[core\.phase\]"):
        state.apply(Bid(None), 1)  # type: ignore[arg-type]


# --------------------------------------------------------------- files of the wrong kind

@pytest.mark.parametrize(("content", "why"), [
    (b"\0" * 100, r"not a test ID \(a control character\): '\\x00\\x00"),
    (b"x" * 3_000_000, r"not a test ID \(3000000 characters; at most 1000\)"),
    (b"core/a\x1b[2J\n", r"not a test ID \(a control character\): 'core/a\\x1b\[2J'"),
    (b"format: " + b"9" * 100_000 + b"\n", r"not a test ID \(100008 characters"),
], ids=["nul", "huge-line", "escape", "long-two-words"])
def test_an_expectations_file_of_no_test_ids_is_refused_before_the_run(
        content: bytes, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: the line taken as one test ID, the suite run, the whole line printed back as a
    # stale expectation (3 MB, control characters and all), exit 1
    expect = tmp_path / "expect.txt"
    expect.write_bytes(content)
    code, out, err = _run(["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                           "--expect", str(expect)], capsys)
    assert code == 2 and out == ""
    assert re.search(f"^mariage: error: {re.escape(str(expect))}:1:1: {why}", err)
    assert len(err) < 300


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_stats_of_a_folder_of_no_records_is_refused(fmt: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # was: "0 records, 0 valid, 0 invalid", exit 0 (validate refused it, exit 2)
    (tmp_path / "notes.txt").write_text("not a record\n", encoding="utf-8")
    code, out, err = _run(["stats", "--format", fmt, str(GOOD), str(tmp_path)], capsys)
    assert (code, out) == (2, "")
    assert err == (f"mariage: error: {tmp_path}: no record files (*.mrg, compressed or not) "
                   "in this directory\n")


HOUSE = "format: 1\nextends: marianna\nruleset: house\nname: House\nversion: 1\n"
SAME = {  # each writer, its output named as one of the files it reads (which one)
    "render-svg": (["render", "--svg", "{rec}", "--hand", "1", "{rec}"], "rec"),
    "render-html": (["render", "--html", "{rec}", "{rec}"], "rec"),
    "stats": (["stats", "--out", "{rec}", "{rec}"], "rec"),
    "stats-folder": (["stats", "--out", "{rec}", "{folder}"], "rec"),
    "match": (["match", "-n", "1", "--quiet", "{spec}", "--out", "{spec}"], "spec"),
    "play": (["play", "-q", "{spec}", "--out", "{spec}"], "spec"),
    "play-spec": (["play", "-q", "house", "--spec", "{spec}", "--out", "{spec}"], "spec"),
    "conformance": (["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                     "--expect", "{expect}", "--json", "{expect}"], "expect"),
}


@pytest.mark.parametrize("command", sorted(SAME))
def test_no_writer_replaces_a_file_it_reads(command: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # was: the input replaced by the output (a record by its SVG picture, a description
    # by a match record), exit 0
    files = {"rec": tmp_path / "m.mrg", "spec": tmp_path / "h.yaml",
             "expect": tmp_path / "expect.txt"}
    files["rec"].write_bytes((GOOD / "marianna.mrg").read_bytes())
    files["spec"].write_text(HOUSE, encoding="utf-8")
    files["expect"].write_text("marianna/core/turn\n", encoding="utf-8")
    before = {k: p.read_bytes() for k, p in files.items()}
    argv, target = SAME[command]
    code, _, err = _run([a.format(folder=tmp_path, **files) for a in argv], capsys)
    assert code == 2
    assert err == (f"mariage: error: {files[target]}: is also a file this command reads; "
                   "not replaced\n")
    assert {k: p.read_bytes() for k, p in files.items()} == before


LONG = "1" + "9" * 300
WHOLE_OPTIONS = [["replay", "-r", "{v}", "{rec}"], ["view", "-s", "N", "-r", "{v}", "{rec}"],
                 ["render", "--html", "{out}", "-r", "{v}", "{rec}"],
                 ["render", "--svg", "{out}", "--hand", "{v}", "{rec}"],
                 ["render", "--svg", "{out}", "--hand", "1", "--trick", "{v}", "{rec}"],
                 ["validate", "--jobs", "{v}", "{rec}"],
                 ["validate", "--search-limit", "{v}", "{rec}"],
                 ["match", "marianna", "-q", "-n", "{v}"],
                 ["match", "marianna", "-q", "--playouts", "{v}"]]


@pytest.mark.parametrize("argv", WHOLE_OPTIONS, ids=lambda a: "-".join(a[:-2]))
@pytest.mark.parametrize("value", ["\uff11", "1_0", " 5", "\u0663"])
def test_whole_number_options_take_ascii_digits_only(argv: list[str], value: str,
                                                     tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # was: int() read '１' as 1, '1_0' as 10, ' 5' as 5 (every other input refuses them)
    code, out, err = _run([a.format(v=value, rec=GOOD / "marianna.mrg", out=tmp_path / "o")
                           for a in argv], capsys)
    assert (code, out) == (2, "")
    assert f"not a whole number (ASCII digits): {value!r}" in err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("argv", [a for a in WHOLE_OPTIONS if a[0] in ("replay", "view", "render")],
                         ids=lambda a: "-".join(a[:-2]))
def test_a_long_record_hand_or_trick_number_is_quoted_cut(argv: list[str], tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    # was: the 301 digits quoted whole (argparse's "invalid int value", or "no record N")
    code, _, err = _run([a.format(v=LONG, rec=GOOD / "marianna.mrg", out=tmp_path / "o")
                         for a in argv], capsys)
    assert code == 2 and err.count("\n") == 1 and len(err) < 250
    assert "99999..." in err


@pytest.mark.parametrize("text", ["bid:120", "take:H", "K", "", "\x00", "bid:" + "9" * 5000])
def test_a_text_of_no_action_is_a_mariage_error_and_still_a_value_error(text: str) -> None:
    # was: a bare ValueError, outside the package's errors (no MariageError to catch)
    from mariage.engine.actiontext import parse_action
    from mariage.errors import ActionTextError

    with pytest.raises(ActionTextError, match=r"^not an action of marianna: ") as caught:
        parse_action(load_rules("marianna"), text)
    assert isinstance(caught.value, MariageError) and isinstance(caught.value, ValueError)
    assert len(str(caught.value)) < 150


# ------------------------------------------- review: fixes to the sweep (sixteenth session)

def _cli_with_stdin(argv: list[str], stdin_file: Path, cwd: Path) -> tuple[int, str]:
    """Run ``python -m mariage ARGV < stdin_file`` in ``cwd``: (exit code, stderr)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "reference")}
    with stdin_file.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "mariage", *argv], stdin=stdin,
                              capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
    return done.returncode, done.stderr


@pytest.mark.parametrize("argv", [["render", "-", "--svg", "x.mrg", "--hand", "1"],
                                  ["render", "-", "--html", "x.mrg"],
                                  ["stats", "-", "--out", "x.mrg"]])
def test_an_output_that_is_the_file_on_standard_input_is_refused(
        argv: list[str], tmp_path: Path) -> None:
    # was: `render - --svg x.mrg < x.mrg` replaced the record read with its picture
    record = tmp_path / "x.mrg"
    record.write_bytes((GOOD / "mariaggia.mrg").read_bytes())
    code, err = _cli_with_stdin(argv, record, tmp_path)
    assert code == 2 and "is also a file this command reads" in err
    assert record.read_bytes() == (GOOD / "mariaggia.mrg").read_bytes()


def test_standard_input_from_another_file_still_writes(tmp_path: Path) -> None:
    record = tmp_path / "x.mrg"
    record.write_bytes((GOOD / "mariaggia.mrg").read_bytes())
    code, _ = _cli_with_stdin(["render", "-", "--html", "x.html"], record, tmp_path)
    assert code == 0 and (tmp_path / "x.html").read_text(encoding="utf-8").strip()


def test_problems_after_the_replay_stopped_are_on_no_step(
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: hand 2's deal problem (N131, line 31) was listed under hand 1's action 2C,
    # the last one applied before the replay stopped at line 18
    path = BAD / "stopped-then-bad-deal.mrg"
    code, out, _ = _run(["replay", "--format", "json", str(path)], capsys)
    report = json.loads(out)
    assert code == 1 and report["stopped"]["line"] == 18
    assert [(e["code"], e["line"]) for e in report["errors"]] == [("N141", 18), ("N131", 31)]
    placed = [p for h in report["hands"] for a in [h, *h["actions"]]
              for p in a.get("problems", [])]
    assert all(p["line"] <= 18 for p in placed)
    tl = timeline(parse_record(path.read_text(encoding="utf-8"), file=str(path)))
    assert [(e.code, e.line) for e in tl.after_stop] == [("N131", 31)]
    assert all(e.line <= 18 for s in tl.steps for e in s.errors)
    assert tl.as_dict()["after_stop"][0]["line"] == 31  # the HTML page shows them apart


@pytest.mark.parametrize("argv", [["match", "marianna", "-n", "1", "-q", "--out", "marianna"],
                                  ["play", "marianna", "-q", "--out", "marianna"]])
def test_an_output_named_like_the_ruleset_is_no_file_read(
        argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: the second run refused its output, the file 'marianna' written by the first,
    # as "a file this command reads" (a ruleset name is never read from the working folder)
    monkeypatch.chdir(tmp_path)
    assert [_run(argv, capsys)[0] for _ in range(2)] == [0, 0]
    assert (tmp_path / "marianna").read_text(encoding="utf-8").startswith("[Mariage ")


@pytest.mark.parametrize("second", ["--junit", "--trace"])
def test_two_outputs_naming_one_file_are_refused_before_any_work(
        second: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: exit 0, the JSON report silently overwritten by the second
    out = tmp_path / "a.out"
    code, _, err = _run(["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                         "--json", str(out), second, f"{tmp_path}/./a.out"], capsys)
    assert code == 2 and not out.exists()
    assert err == (f"mariage: error: {tmp_path}/./a.out: is also named by --json; "
                   "not written twice\n")


@pytest.mark.parametrize("over", [False, True])
@pytest.mark.parametrize("seat", [99, -1, "N"])
def test_a_bad_seat_is_refused_before_the_phase(over: bool, seat: object) -> None:
    # was: IllegalActionError [core.phase] ("the next hand has not been dealt") or
    # [core.over] naming seat 99, before the hand was dealt or after the match ended
    state = GameState(load_rules("thousand"), first_dealer=0)
    if over:
        state.resign(0)
    with pytest.raises(SeatError, match="apply: seat must be a seat number from 0 to 2"):
        state.apply(Bid(100), seat)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match=r"core\.over" if over else r"core\.phase"):
        state.apply(Bid(100), 1)  # a good seat: the phase refuses it, as before


def test_render_svg_of_a_record_found_bad_exits_1(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # was: exit 2 (a usage error) after the record's own problem, where 1 says the
    # input was checked and found bad
    out = tmp_path / "o.svg"
    code, _, err = _run(["render", "--svg", str(out), "--hand", "1",
                         str(BAD / "unknown-ruleset.mrg")], capsys)
    assert code == 1 and not out.exists()
    lines = err.splitlines()
    assert " N122 " in lines[0] and lines[-1].startswith("mariage: error: ")
    assert "has no hand 1" in lines[-1]
    code, _, _ = _run(["render", "--svg", str(out), "--hand", "9", str(GOOD / "marianna.mrg")],
                      capsys)
    assert code == 2  # a good record without that hand: the option is wrong, as before


@pytest.mark.parametrize("value", ["١", "1_0", " 0.5", "0.5 ", "1e3", "inf", "nan", "-1",
                                   "٠.٥", "x" * 500])
def test_match_time_reads_ascii_seconds_only(value: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    # was: float() took '١' (one second), '1_0' (ten), ' 0.5'
    code, out, err = _run(["match", "marianna", "-n", "1", "-q", "--time", value], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("mariage: error: argument --time: not a number of seconds "
                          "(ASCII digits, a '.'): '")
    assert len(err) < 200  # the value quoted cut


@pytest.mark.parametrize("value", ["2", "0.5", ".5", "3."])
def test_match_time_takes_seconds_written_in_ascii(value: str) -> None:
    from mariage.commands import seconds_arg

    assert seconds_arg(value) == float(value)


@pytest.mark.parametrize("option", ["--timeout", "--test-timeout"])
def test_conformance_timeouts_read_ascii_seconds_only(
        option: str, capsys: pytest.CaptureFixture[str]) -> None:
    # was: float() took '١' (one second) and '1_0' (ten)
    for value in ("١", "1_0"):
        code, _, err = _run(["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                             option, value], capsys)
        assert code == 2 and f"argument {option}: not a number of seconds" in err


@pytest.mark.parametrize("value", ["9" * 5000, "-" + "9" * 4301])
def test_a_whole_number_too_long_says_so(value: str, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    # was: "not a whole number (ASCII digits)", of a value of nothing but digits
    code, _, err = _run(["replay", "-r", value, str(GOOD / "marianna.mrg")], capsys)
    assert code == 2 and "argument --record/-r: a whole number of more than 4300 digits: '" \
        in err and len(err) < 200


def test_a_whole_number_of_4300_digits_and_a_sign_is_read() -> None:
    import argparse

    from mariage.commands import whole_arg

    assert whole_arg("+" + "9" * 4300) == 10 ** 4300 - 1
    with pytest.raises(argparse.ArgumentTypeError, match=r"not a whole number \(ASCII digits\)"):
        whole_arg("١٢")


def test_an_expectations_file_may_start_with_a_bom(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # was: "not a test ID (a control character): '\ufeff'", exit 2
    expect = tmp_path / "expect.txt"
    expect.write_bytes("\ufeff# no test is expected to fail\n".encode())
    code, _, err = _run(["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                         "--expect", str(expect)], capsys)
    assert code == 0, err


def test_an_invisible_character_in_an_expectations_file_is_called_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: a zero-width space (category Cf) was called "a control character"
    expect = tmp_path / "expect.txt"
    expect.write_text("marianna/core/\u200bturn\n", encoding="utf-8")
    code, _, err = _run(["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                         "--expect", str(expect)], capsys)
    assert code == 2
    assert f"{expect}:1:1: not a test ID (an invisible character): " in err
