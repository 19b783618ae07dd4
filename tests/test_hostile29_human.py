"""``play --human``: an answer was read as one whole line, however long, so an input
with no line end (``< /dev/zero``) was read into memory for ever. An answer is now read
in bounded pieces; a line longer than a person types stops the match (exit 1)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from mariage import load_rules, new_match
from mariage.commands.human import MAX_ANSWER, MAX_REFUSED, MAX_SKIPPED, Human, InputUnusable


class _Counted(io.StringIO):
    """Input that records the largest piece asked of it at once."""

    largest = 0

    def readline(self, size: int | None = -1, /) -> str:
        self.largest = max(self.largest, size if size is not None and size >= 0 else 1 << 62)
        return super().readline(size)


def test_a_long_line_is_asked_again_and_read_in_bounded_pieces() -> None:
    state = new_match(load_rules("mariazza"), seed=3)
    read, out = _Counted("9" * (MAX_ANSWER * 3) + "\n1\n"), io.StringIO()
    assert Human(state.to_act, read, out).choose(state) == state.legal_actions()[0]
    assert f"a line of more than {MAX_ANSWER} characters" in out.getvalue()
    assert read.largest <= MAX_ANSWER + 1


def test_a_line_no_person_types_stops_the_match() -> None:
    state = new_match(load_rules("mariazza"), seed=3)
    read = _Counted("\0" * (MAX_SKIPPED + 2 * MAX_ANSWER))
    with pytest.raises(InputUnusable, match="a line of more than 1048576 characters"):
        Human(state.to_act, read, io.StringIO()).choose(state)
    assert read.largest <= MAX_ANSWER + 1 and read.tell() <= MAX_SKIPPED + 2 * MAX_ANSWER


def test_answers_none_of_which_is_a_choice_end_the_match_after_a_bound() -> None:
    """``yes x | mariage play ... --human N`` asked again for ever; a person never types
    MAX_REFUSED wrong answers in a row at one turn, so the input then ends the match."""
    state = new_match(load_rules("mariazza"), seed=3)
    first = state.legal_actions()[0]
    almost = io.StringIO("x\n" * (MAX_REFUSED - 1) + "1\n")
    assert Human(state.to_act, almost, io.StringIO()).choose(state) == first
    endless = io.StringIO("x\n" * (MAX_REFUSED + 5))
    with pytest.raises(InputUnusable, match=f"{MAX_REFUSED} answers in a row"):
        Human(state.to_act, endless, io.StringIO()).choose(state)
    assert endless.tell() == 2 * MAX_REFUSED  # no line read past the bound


def test_the_command_line_stops_an_endless_stream_of_wrong_answers() -> None:
    proc = subprocess.run([sys.executable, "-m", "mariage", "play", "mariazza", "--human",
                           "A", "--seed", "3"], input="x\n" * (3 * MAX_REFUSED),
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1
    assert f"{MAX_REFUSED} answers in a row were not among the choices" in proc.stderr
    assert "Traceback" not in proc.stderr
