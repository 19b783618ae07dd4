"""The random player's sensible actions: a short auction listing (Thousand's slices of
the ladder) is kept as a long one is, a listing of the play phase is kept only when long,
and a listing is told a ``CardSets`` by its class (no ABC check of every list)."""

from __future__ import annotations

import abc
import random
from typing import Any

import pytest
from mariage import GameState, load_rules, new_match
from mariage.arena import plainbots
from mariage.arena.plainbots import sensible_actions
from mariage.engine.actions import Bid, Concede, Give
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.phase import Phase


def _at(ruleset: str, wanted: Any, seed: int = 3) -> GameState:
    """A state of random sensible play of ``ruleset`` where ``wanted(state, listing)``."""
    rng = random.Random(seed)
    for deal in range(40):
        state = new_match(load_rules(ruleset), seed + deal)
        while not state.terminal and state.hand_no <= 2:
            if wanted(state, state.legal_actions()):
                return state
            state.apply(rng.choice(list(sensible_actions(state))))
    raise AssertionError(f"no such state in {ruleset}")


def _short_auction(state: GameState, listing: Any) -> bool:
    return (state.phase is Phase.AUCTION and type(listing) is list
            and 1 < len(listing) <= plainbots._KEPT_FROM
            and any(type(a) is Bid for a in listing))


def _counted_left_out(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls of the working out (``_left_out``) from now on."""
    calls: list[int] = []
    worked_out = plainbots._left_out

    def counted(*args: Any) -> Any:
        calls.append(1)
        return worked_out(*args)

    monkeypatch.setattr(plainbots, "_left_out", counted)
    return calls


@pytest.mark.parametrize("ruleset", ["thousand-4", "thousand", "thousand-pl"])
def test_a_short_auction_listing_is_worked_out_once(ruleset: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked again for a short slice of the ladder, the same actions, not worked out
    again (before, only a listing of more than _KEPT_FROM actions was kept)."""
    state = _at(ruleset, _short_auction)
    plainbots._kept.clear()
    calls = _counted_left_out(monkeypatch)
    first = list(sensible_actions(state))
    again = list(sensible_actions(state))
    assert calls == [1]
    assert first == again and set(again) <= set(state.legal_actions())
    # the lowest bid and passing, as worked out afresh
    plainbots._kept.clear()
    assert list(sensible_actions(state.clone())) == first and calls == [1, 1]


def test_a_short_listing_of_the_play_is_not_looked_up(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In play a short listing that is not the cards alone (a declaration offered before
    them in Thousand) is not looked up among those kept: there it is seldom kept."""

    class Counted(dict[Any, Any]):
        looked_up = 0

        def get(self, key: Any, default: Any = None) -> Any:
            Counted.looked_up += 1
            return dict.get(self, key, default)

    state = _at("thousand", lambda s, listing: s.phase is Phase.PLAY
                and type(listing) is list and 1 < len(listing) <= plainbots._KEPT_FROM
                and type(listing[0]) is not type(listing[-1]))
    monkeypatch.setattr(plainbots, "_kept", Counted())
    assert list(sensible_actions(state)) == list(state.legal_actions())
    assert Counted.looked_up == 0 and not plainbots._kept


def test_kept_short_listings_follow_the_way_of_bidding(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A short slice kept one way of bidding is not the answer of the other: the greedy
    player's (``cautious_bids=False``) keeps every bid listed."""
    state = _at("thousand-4", lambda s, listing: _short_auction(s, listing)
                and sum(type(a) is Bid for a in listing) > 1)
    plainbots._kept.clear()
    cautious = list(sensible_actions(state))
    every = list(sensible_actions(state, cautious_bids=False))
    assert every == list(state.legal_actions()) != cautious
    assert list(sensible_actions(state)) == cautious


def test_a_list_is_not_checked_by_the_abc(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain list (the auction's, the play's) is told from a ``CardSets`` by its
    class: no ABC instance check (``ABCMeta.__instancecheck__``, about 2% of the
    Gymnasium loop in Thousand before)."""
    states = [_at("thousand-2", _short_auction),
              _at("thousand-2", lambda s, listing: s.phase is Phase.PLAY)]
    checked: list[object] = []
    instancecheck = abc.ABCMeta.__instancecheck__

    def counted(cls: abc.ABCMeta, instance: object) -> bool:
        if cls is CardSets:
            checked.append(instance)
        return instancecheck(cls, instance)

    monkeypatch.setattr(abc.ABCMeta, "__instancecheck__", counted)
    for state in states:
        sensible_actions(state)
    assert checked == []


def test_sets_of_cards_alone_and_after_a_concession() -> None:
    """Sets alone are the listing itself; after a concession, the concession or the
    sets as the hand's value says (the path a ``CardSets`` takes, by its class)."""
    state = _at("thousand-2", lambda s, listing: type(listing) is CardSets
                and bool(listing.head))
    listing = state.legal_actions()
    assert type(listing) is CardSets
    out = list(sensible_actions(state))
    assert out and all(type(a) in (Concede, Give) for a in out)
    assert len({type(a) for a in out}) == 1  # the concession alone, or the sets alone
    alone = _at("thousand-4", lambda s, listing: type(listing) is CardSets
                and not listing.head)
    sets = sensible_actions(alone)
    assert type(sets) is CardSets and sets == alone.legal_actions()  # (none made)
