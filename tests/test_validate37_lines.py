"""``mariage validate`` writes each line of its text report with its newline at once.

With ``--jobs N`` a signal ends the process at once (``terminate.end_now``), flushing
what standard output holds. Its handler runs between two bytecodes, which may come
between two writes of one line (a collection's finalizer runs Python code amid
``print``'s writes of the line and of its end): what is held must then be whole lines,
so each line is one write. ``tests/test_hostile26_validate_signals.py`` checks the whole
run under real signals; this checks the writes themselves.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mariage.cli import main

RECORDS = Path(__file__).resolve().parent / "data" / "records"


class _Writes:
    """A standard output that keeps each write apart."""

    def __init__(self) -> None:
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_each_summary_and_problem_line_is_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    good = RECORDS / "good" / "cinquecento.mrg"
    bad = RECORDS / "bad" / "duplicate-card.mrg"
    out = _Writes()
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["validate", str(good), str(bad)])
    assert code != 0 and len(out.writes) >= 3  # two summaries and some problem
    assert all(w.endswith("\n") and w.count("\n") == 1 for w in out.writes), out.writes
