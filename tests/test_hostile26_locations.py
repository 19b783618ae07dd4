"""Every problem of a record says where: file, line and column, the hand, the trick and
the seat of an action, also where the replay has stopped or a hand's deal is partial; and
``validate`` given records mutated at random never ends in a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hostilekit import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

RECORDS = Path(__file__).parent / "data" / "records" / "good"
FULL = (RECORDS / "marianna.mrg").read_text()
VIEW = (RECORDS / "marianna-view-S.mrg").read_text()


def problems(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    path = tmp_path / "r.mrg"
    path.write_text(text)
    code, out, err = run_cli(["validate", str(path)], capsys)
    assert code == 1 and err == ""
    return [line for line in out.splitlines() if ": INVALID: " not in line]


@pytest.mark.parametrize(("written", "says"), [
    ("W:Q:C", "N140 record 1, hand 2, trick 3, seat W, at 'W:Q:C'"),  # an unknown action
    ("P:4C", "N124 record 1, hand 2, trick 3, at 'P:4C'"),  # an unknown seat
])
def test_a_problem_after_the_replay_stopped_names_its_trick(
        written: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # hand 1 stops the replay (an unknown action); hand 2 is only read, not replayed
    text = FULL.replace("2. S:KD E:2C", "2. S:KD E:Z9", 1)
    text = text.replace("3. N:QC W:4C", f"3. N:QC {written}", 1)
    lines = problems(tmp_path, text, capsys)
    assert any(":18:9: N140 record 1, hand 1, trick 2, seat E, at 'E:Z9'" in x
               for x in lines), lines
    assert any(f":38:9: {says}" in x for x in lines), lines


def test_an_unknown_action_in_a_partial_deal_names_its_trick(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a seat's view: the deal has unknown cards, so the actions are read before the search
    text = VIEW.replace("3. S:JC E:4C", "3. S:JC E:4:C", 1)
    lines = problems(tmp_path, text, capsys)
    assert any(re.search(r"N140 record 1, hand 1, trick 3, seat E, at 'E:4:C'", x)
               for x in lines), lines


# -- a mutation test: validate never ends in a traceback, and every problem says where ---

TOKENS = ["hand", "result", "*", "(", ")", "{", "}", "[", "]", '"', "\n", " ", ":", "resign",
          "??", "AH", "\x00", "9" * 30, "-1", "dealer:", "stock:", "(won", "(match", "give:?",
          "\r", "N:", "E:", "1.", "\udcff", "é"]
LINE = re.compile(r"^[^\n]*r\.mrg:\d+:\d+: N\d{3}(?::| record \d+| at ')")
SUMMARY = re.compile(r"^[^\n]*r\.mrg: (ok|INVALID): \d+ records?")
ACTION = re.compile(r" N14[0-4] record \d+, hand \d+, trick \d+, seat \S+, at '")


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = draw(st.sampled_from([FULL, VIEW])).encode("utf-8", "surrogateescape")
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.integers(0, 3))
        if how == 0:  # a byte changed
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        elif how == 1:  # a token put in
            token = draw(st.sampled_from(TOKENS)).encode("utf-8", "surrogateescape")
            data = data[:at] + token + data[at:]
        elif how == 2:  # some bytes cut out
            data = data[:at] + data[at + draw(st.integers(1, 40)):]
        else:  # cut short
            data = data[:at]
    return data


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=mutated())
def test_validate_of_a_mutated_record_ends_cleanly_and_says_where(
        data: bytes, tmp_path_factory: pytest.TempPathFactory,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path_factory.mktemp("mutated") / "r.mrg"
    path.write_bytes(data)
    code, out, err = run_cli(["validate", str(path)], capsys)
    assert code in (0, 1, 2) and "Traceback" not in out + err, err
    for line in out.splitlines():
        assert LINE.match(line) or SUMMARY.match(line), line
        if re.search(r" N14[0-4] ", line):  # an action refused: which, where, whose
            assert ACTION.search(line), line
