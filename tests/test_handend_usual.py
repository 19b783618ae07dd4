"""The usual hand's shorter generated path against the whole sheet, hand by hand.

The generated hand end (``engine/handend.py``) runs a shorter copy of the takers' sheet
for the usual hand (no counting announcement, no pair of trumps, every side with a
trick) and tells the usual running totals (nobody on the barrel, no bolt, every side
below the target and the barrel) by one test each; ``hand_end(..., usual=False)``
writes the same hand end without them. Hundreds of seeded hands of the Belote and Thousand
rulesets are played at random; at every end of a hand the state is copied and ended
both ways, and every slot of the two copies (the sheet, the totals, the record) must
agree. A hand end whose usual path is deliberately written wrong must be caught.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest
from mariage import GameState, load_rules
from mariage.engine import runningsheet, sheets
from mariage.engine.fastpath import play_apply
from mariage.engine.handend import HandEnd, hand_end
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.resume import resume
from propkit import pick_action
from test_fastpath import _state_of

#: the rulesets whose hand end has a usual path of its own
USUAL = ("belote", "belote-contree", "belote-coinche", "thousand", "thousand-4")


def _compared(name: str, fast: HandEnd, whole: HandEnd, hands: int, seed: int
              ) -> tuple[int, int, int]:
    """Play random matches of ``name`` until ``hands`` hands have ended (a new match
    after each one over); end every hand with ``fast`` and,
    on a copy of the state as it was, with ``whole``. (hand ends, hand ends whose
    copies differ in some slot, hand ends whose sheet the usual path may have run)."""
    rules = load_rules(name)
    mech = DEFAULT_MECHANISMS
    counts = [0, 0, 0]

    def end(st: GameState, how: str) -> None:
        other = st.clone()
        counts[0] += 1
        counts[2] += how == "played_out" and not st.announced and st.pair_by < 0 \
            and not st.pairs_said and 0 not in st.tricks_won
        fast(st, how)
        whole(other, how)
        counts[1] += _state_of(st) != _state_of(other)

    rng = random.Random(f"usual {name} {seed}")
    while counts[0] < hands:
        state = GameState(rules, first_dealer=rng.randrange(rules.nseats))
        table = state._appliers  # the state's dispatch, its hand end the one compared
        state._appliers = replace(
            table, end_hand=end,
            apply_play=play_apply(mech, rules, end_hand=end, legal_plays=table.legal_plays),
            go_on=resume(mech, rules, end))
        while not state.terminal and counts[0] < hands:
            deck = list(range(rules.ncards))
            rng.shuffle(deck)
            state.deal(deck)
            while state.to_act is not None:
                seat, action = pick_action(rng, state)
                state.apply(action, seat=seat)
    return counts[0], counts[1], counts[2]


def _both(name: str) -> tuple[HandEnd, HandEnd]:
    rules = load_rules(name)
    fast = hand_end(DEFAULT_MECHANISMS, rules)
    whole = hand_end(DEFAULT_MECHANISMS, rules, usual=False)
    assert fast is not None and whole is not None
    return fast, whole


@pytest.mark.parametrize("name", USUAL)
def test_the_usual_path_ends_every_hand_as_the_whole_sheet(name: str) -> None:
    fast, whole = _both(name)
    ends, differ, usual = _compared(name, fast, whole, hands=300, seed=1)
    assert ends >= 300 and differ == 0
    if load_rules(name).takers_rule is not None:  # many of them by the takers' usual sheet
        assert usual >= ends // 4


@contextmanager
def _miswritten(attr: str, wrong: Callable[..., Any], module: Any = sheets) -> Iterator[None]:
    """``module.<attr>`` (of :mod:`~mariage.engine.sheets` unless said) replaced by
    ``wrong`` while the hand end is written."""
    right = getattr(module, attr)
    setattr(module, attr, wrong)
    try:
        yield
    finally:
        setattr(module, attr, right)


def test_a_miswritten_usual_sheet_is_caught() -> None:
    right = sheets._Sheet.body

    def wrong_body(self: Any, mech: Any, ns: dict[str, Any]) -> list[str]:
        lines = right(self, mech, ns)  # the defenders' 162 of a failed take, one less
        return [line.replace("out[winner] = 162", "out[winner] = 161") for line in lines] \
            if self.usual else lines

    class Wrong(sheets._Sheet):
        body = wrong_body

    with _miswritten("_Sheet", Wrong):
        fast, whole = _both("belote")
    ends, differ, _ = _compared("belote", fast, whole, hands=100, seed=2)
    assert ends > 0 and differ > 0


def test_the_usual_hand_with_announcements_is_many_hands() -> None:
    """Coinche's usual hands where an announcement counts run a copy of their own."""
    fast, whole = _both("belote-coinche")
    announced = [0]

    def counting(st: GameState, how: str) -> None:
        announced[0] += how == "played_out" and bool(st.announced) and st.pair_by < 0 \
            and not st.pairs_said and 0 not in st.tricks_won
        fast(st, how)

    ends, differ, _ = _compared("belote-coinche", counting, whole, hands=300, seed=4)
    assert differ == 0 and announced[0] >= ends // 10


def test_a_miswritten_usual_sheet_with_announcements_is_caught() -> None:
    right = sheets._Sheet.every_ann

    def wrong_every(self: Any) -> str:  # the announcements left out of a bid's line
        return "" if self.usual and self.announced else right(self)

    class Wrong(sheets._Sheet):
        every_ann = wrong_every

    with _miswritten("_Sheet", Wrong):
        fast, whole = _both("belote-coinche")
    ends, differ, _ = _compared("belote-coinche", fast, whole, hands=100, seed=5)
    assert ends > 0 and differ > 0


def test_a_miswritten_bolt_test_is_caught() -> None:
    with _miswritten("_bolt_gate", lambda r: "False", runningsheet):  # no bolt ever looked at
        fast, whole = _both("thousand")
    ends, differ, _ = _compared("thousand", fast, whole, hands=100, seed=3)
    assert ends > 0 and differ > 0
