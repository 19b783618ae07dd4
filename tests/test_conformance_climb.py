"""Hands built to climb (mariage.conformance.climb) tell a bid by its kind, not its text.

A deal is played a second time, the climber bidding what the first play made, only
where a seat bid in the first. Which actions are bids is read from the actions
themselves, so that the hands built do not change if a bid were written otherwise, or if
another action's text began as a bid's does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from mariage import GameState, load_rules
from mariage.conformance import climb
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64


def _climbed(name: str, seed: int = 1, deals: int = 3) -> tuple[Any, list[int]]:
    """``climb_hand``'s answer for a match of ``name`` before its first deal, and the aim
    of each hand played out (0: the lowest bid; more: a second play, bidding that)."""
    aims: list[int] = []
    played = climb._trial

    def counted(*args: Any, **kwargs: Any) -> Any:
        aims.append(args[3])
        return played(*args, **kwargs)

    climb._trial = counted
    try:
        state = GameState(load_rules(name), first_dealer=0)
        return climb.climb_hand(state, SplitMix64(seed), set(), deals), aims
    finally:
        climb._trial = played


def _written(change: Callable[[str], str]) -> Callable[[Any, Any], str]:
    return lambda rules, action: change(action_text(rules, action))


def test_a_bid_written_otherwise_is_still_a_bid(monkeypatch: pytest.MonkeyPatch) -> None:
    plain, plain_aims = _climbed("thousand")
    assert plain is not None and any(a > 0 for a in plain_aims)  # bids: played again
    monkeypatch.setattr(climb, "action_text",
                        _written(lambda t: "offer:" + t[4:] if t.startswith("bid:") else t))
    renamed, aims = _climbed("thousand")
    assert aims == plain_aims
    assert renamed is not None
    assert renamed[0] == plain[0]
    assert ["bid:" + a[6:] if a.startswith("offer:") else a for a in renamed[1]] == plain[1]


def test_an_action_written_as_a_bid_is_not_one(monkeypatch: pytest.MonkeyPatch) -> None:
    plain, plain_aims = _climbed("marianna")
    assert plain is not None and plain_aims == [0, 0, 0]  # no bid: each deal played once
    monkeypatch.setattr(climb, "action_text", _written(lambda t: "bid:" + t))
    _, aims = _climbed("marianna")
    assert aims == plain_aims
