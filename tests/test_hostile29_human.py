"""``play --human``: an answer was read as one whole line, however long, so an input
with no line end (``< /dev/zero``) was read into memory for ever. An answer is now read
in bounded pieces; a line longer than a person types stops the match (exit 1)."""

from __future__ import annotations

import io

import pytest
from mariage import load_rules, new_match
from mariage.commands.human import MAX_ANSWER, MAX_SKIPPED, Human, InputUnusable


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
