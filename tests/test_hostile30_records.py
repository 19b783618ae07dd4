"""The thirtieth session's hostile sweep of records (hostile30)."""

from __future__ import annotations

import time
from pathlib import Path

from mariage.notation import check_text

DATA = Path(__file__).parent / "data" / "records30"


def test_a_view_with_an_unseen_pass_and_a_trick_left_out_is_told_not_raised() -> None:
    """B's view of a Thousand match (C's passes to A unseen: ``C:give:?``) with trick 3's
    cards left out: the deal search's look at the step before a refusal replayed the
    unseen pass as written, which the rules refuse, and the refusal escaped as
    ``mariage: error: hand 2, seat 2, action 'give:?'`` (no file, line or code; the JSON
    report half-written). The replay now passes the cards the search chose for it and
    the hand is reported where it is (N136 here, the search's limit kept low)."""
    text = (DATA / "thousand-redeal-view-B.mrg").read_text(encoding="utf-8")
    left_out = "C:QS A:TS B:9S (won A)\n"
    assert text.count(left_out) == 1
    start = time.perf_counter()
    checked = check_text(text.replace(left_out, ""), file="t.mrg", search_limit=100)
    assert time.perf_counter() - start < 5
    problems = [str(p) for p in checked.errors]
    assert problems and all(p.startswith("t.mrg:") for p in problems), problems
    assert any(":21:1: N136 record 1, hand 2" in p for p in problems), problems
