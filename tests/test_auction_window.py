"""A phase's legal actions as a window of its ladder (an auction's bids, the answers to
a question: ``Mechanism.phase_window``, ``mariage.engine.dispatch.phase_windows_of``),
and the PettingZoo masks made from it.

Where a phase has a window, what ``legal_actions()`` lists for the seat to act must be
the ladder's first ``head`` actions, then its actions from ``start`` to ``stop``,
whenever the window gives ``(head, start, stop)``: checked at every decision of random
matches of every ruleset and of Thousand under the options that change its auction (the
opening, jumps, the bid cap, the least bid and its step)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Answer, Bid, Question
from mariage.engine.dispatch import phase_windows_of
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.mechanisms.auction import Auction
from mariage.engine.mechanisms.questions import HALF, PAIR
from mariage.engine.phase import Phase
from mariage.engine.state import GameState
from pzkit import live_turns

#: Thousand's options that change what its auction lists
THOUSAND_OPTIONS: list[dict[str, Any]] = [
    {"opening_bid": "fh_auto_100"}, {"opening_bid": "dealer_auto_100"},
    {"opening_bid": "none"}, {"jump_bids": False}, {"bid_cap": "marriage_sum"},
    {"bid_cap": "none"}, {"bid_min": 60}, {"bid_min": 120, "bid_step": 10}]

CASES = [(r, {}) for r in list_rulesets()] + [("thousand", o) for o in THOUSAND_OPTIONS]


def _windows_checked(state: GameState, rng: random.Random, decisions: int) -> int:
    """Play ``decisions`` random decisions from ``state``, checking every window against
    the listing; the number of windows checked."""
    windows = phase_windows_of(state.mech, state.rules)
    checked = 0
    for _ in range(decisions):
        if state.terminal:
            break
        legal = state.legal_actions()
        found = windows.get(state.phase)
        if found is not None:
            ladder, window = found
            assert state.to_act is not None
            answer = window(state, state.to_act)
            if answer is not None:
                head, start, stop = answer
                assert 0 <= head <= start <= stop
                listed = [*ladder[:head], *ladder[start:stop]]
                assert listed == list(legal), (state.high_bid, answer)
                assert all(a is b for a, b in zip(listed, legal, strict=True))
                checked += 1
        state.apply(legal[rng.randrange(len(legal))])
    return checked


@pytest.mark.parametrize(("ruleset", "options"), CASES,
                         ids=[f"{r}-{'-'.join(map(str, o.values()))}" if o else r
                              for r, o in CASES])
def test_a_window_lists_what_legal_actions_lists(ruleset: str, options: dict[str, Any]
                                                 ) -> None:
    """At every decision of random matches, a phase's window is its listing (fails if a
    window's bounds are off by one bid, or it ignores the cap, the opening or jumps)."""
    rules = load_rules(ruleset, options)
    rng = random.Random(7)
    checked = 0
    for seed in range(6):
        checked += _windows_checked(new_match(rules, seed), rng, 400)
    # (a ruleset with a window meets it, and only one with an auction or calls has one)
    assert (checked > 0) == bool(phase_windows_of(DEFAULT_MECHANISMS, rules))
    assert checked == 0 or rules.auction_rule is not None or rules.calls_rule is not None


def test_every_plain_auction_has_a_window() -> None:
    """The rulesets bidding by :class:`Auction` without a golden hand, a blind bid or a
    silenced total (German Marjapussi, Thousand for two, three and four) get their
    auction's window; the others none (fails if the window is offered nowhere)."""
    got = sorted(r for r in list_rulesets()
                 if Phase.AUCTION in phase_windows_of(DEFAULT_MECHANISMS, load_rules(r)))
    assert {"marjapussi-de", "thousand", "thousand-2", "thousand-4"} <= set(got)
    assert all(load_rules(r).auction_rule is not None for r in got)


class _Capped(Auction):
    """An auction whose seats may bid at most one step above the least bid."""

    __slots__ = ()

    def highest(self, st: GameState, seat: int) -> int:
        return min(super().highest(st, seat), st.rules.bid_min + st.rules.bid_step)


class _Relisted(Auction):
    """An auction whose listing is its own (drops the highest bid)."""

    __slots__ = ()

    def phase_listing(self, rules: Any) -> Any:
        listing = super().phase_listing(rules)
        return None if listing is None else (lambda st, seat: listing(st, seat)[:-1])


@pytest.mark.parametrize("kind", [_Capped, _Relisted])
def test_a_changed_auction_gets_no_window(kind: type[Auction]) -> None:
    """A subclass overriding a method the listing relies on, or the listing itself, is
    listed as it lists, so it gets no window (fails if the window is offered by the
    mechanism's class alone)."""
    mech = replace(DEFAULT_MECHANISMS, auction=kind())
    rules = load_rules("thousand")
    assert Phase.AUCTION not in phase_windows_of(mech, rules)
    assert Phase.AUCTION in phase_windows_of(DEFAULT_MECHANISMS, rules)


def test_a_standing_bid_off_the_ladder_has_no_window() -> None:
    """A standing bid off the ladder's steps (as a state made by hand may hold) gives no
    window, and the listing makes its bids anew (fails if the window slices the ladder
    as if the bid were on a step)."""
    state = new_match(load_rules("thousand"), 3)
    assert state.phase == Phase.AUCTION
    state.high_bid, state.high_bidder = 102, state.leader
    _, window = phase_windows_of(state.mech, state.rules)[Phase.AUCTION]
    assert state.to_act is not None
    assert window(state, state.to_act) is None
    assert all(a.value % 5 == 2 for a in state.legal_actions() if type(a) is Bid)


@pytest.mark.parametrize("ruleset", ["marjapussi-de", "thousand", "thousand-2"])
def test_pettingzoo_auction_masks_are_the_listings(ruleset: str) -> None:
    """Every mask PettingZoo hands out in the auction has a 1 at the id of each action
    the engine lists and nowhere else; a mask the agent writes into leaves the next
    mask of the same window as it was (fails if the kept bytes are handed out, not a
    copy of them, or a window's bytes are another's)."""
    env = MariageEnv(ruleset, max_hands=2)
    rng = random.Random(5)
    seen = 0
    for agent in live_turns(env, range(4)):
        mask = env.last()[0]["action_mask"]
        state = env.state_
        assert state is not None
        if state.phase == Phase.AUCTION:
            ids = sorted(env.space.id(a) for a in state.legal_actions())
            assert np.flatnonzero(mask).tolist() == ids
            assert env.infos[agent]["action_mask"] is mask
            seen += 1
        legal = mask.nonzero()[0]
        action = int(legal[rng.randrange(len(legal))])
        if state.phase == Phase.AUCTION:
            mask[:] = 1  # the agent's own copy, written (not a legal id more)
            mask[:] = 0
            mask[action] = 1
        env.step(action)
    assert seen > 20


def _question_state(seed: int, kind: int) -> GameState:
    """A German Marjapussi match played at random until a question of ``kind`` waits
    for its answer."""
    rng = random.Random(seed)
    for match in range(200):
        state = new_match(load_rules("marjapussi-de"), match)
        while not state.terminal and state.hand_no == 1:
            if state.phase == Phase.QUESTION and state.question is not None \
                    and state.question[0] == kind:
                return state
            legal = state.legal_actions()
            asked = [a for a in legal if type(a) is Question and a.kind == kind]
            state.apply(asked[0] if asked else legal[rng.randrange(len(legal))])
    raise AssertionError("no such question met")


@pytest.mark.parametrize(("suits", "called", "window"), [
    ((), 0, (0, 5, 6)), ((1,), 0, (0, 1, 2)), ((0, 1), 0, (0, 0, 2)),
    ((1, 2, 3), 0, (0, 1, 4)), ((0, 2), 0, None), ((0, 3), 0, None),
    ((0, 1), 0b1, (0, 1, 2)), ((0, 1, 2), 0b10, None), ((2,), 0b100, (0, 5, 6))])
def test_a_pair_question_answers_as_a_window_where_the_pairs_follow(
        suits: tuple[int, ...], called: int, window: tuple[int, int, int] | None) -> None:
    """The answers to a question for a pair, for an answerer holding the pairs of
    ``suits``, those of the suits ``called`` (bits) called already: one window of the
    pairs held and not called where their suits follow one another, a bare no for
    none, no window for pairs apart (fails if a window spans the suits between two
    pairs held, or counts a pair called)."""
    state = _question_state(3, PAIR)
    seat = state.to_act
    assert seat is not None
    masks = state.rules.call_pair_masks
    others = 0
    for m in masks:
        others |= m
    state.hands[seat] = (state.hands[seat] & ~others) | sum(masks[s] for s in suits)
    state.called = called
    ladder, answer = phase_windows_of(state.mech, state.rules)[Phase.QUESTION]
    assert answer(state, seat) == window
    if window is not None:
        head, start, stop = window
        assert [*ladder[:head], *ladder[start:stop]] == state.legal_actions()


def test_a_half_question_answers_yes_or_no_as_a_window() -> None:
    """A question for a half in a suit: the bare yes where the answerer holds a card of
    the suit's pair, else the bare no."""
    state = _question_state(4, HALF)
    seat = state.to_act
    assert seat is not None and state.question is not None
    ladder, answer = phase_windows_of(state.mech, state.rules)[Phase.QUESTION]
    pair = state.rules.call_pair_masks[state.question[2]]
    for held in (0, pair & -pair):
        state.hands[seat] = (state.hands[seat] & ~pair) | held
        found = answer(state, seat)
        assert found is not None
        head, start, stop = found
        assert [*ladder[:head], *ladder[start:stop]] == state.legal_actions()
        assert str(ladder[start]) == str(Answer(bool(held)))
