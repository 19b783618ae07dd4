"""clone() and undo(), property-tested against replaying the match from the start.

A match is played with seeded random choices; every event (deal, action,
resignation) is logged. At random moments the test compares a clone, or the
state after some undos, with a fresh state that replays the log up to that
moment: every slot must be equal (the deal source by the state of its
generator), and the copy must go on exactly like the original.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, ClassVar

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import GameState, IllegalActionError, Phase, Play, Rules, load_rules, new_match
from mariage.engine.actions import Action
from mariage.engine.copies import copied_slots
from mariage.engine.deals import SeededDeals
from mariage.engine.journal import TRICK_TRAIL
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, Scoring, TrickPlay
from mariage.engine.mechanisms.announce import Announcements
from propkit import CHOICES, SEEDS, options_for, pick_action, rules_for

Event = tuple[str, Any, Any]  # ("deal", deck, first) | ("act", seat, action) | ("resign", seat, _)


def _frozen(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    # a list of plain values (the usual one) at C's pace (the state's lists are lists)
    return tuple(map(_frozen, value)) if list in map(type, value) else tuple(value)


def fingerprint(state: GameState) -> dict[str, Any]:
    """Every slot's value, lists frozen; the deal source by its generator's state."""
    out: dict[str, Any] = {}
    for name in copied_slots(type(state)):
        value = getattr(state, name)
        if name == "_history":  # (the records, made as a reader sees them)
            value = state.history
        if name == "deal_source" and value is not None:
            value = (value.rng.state, value.first_dealer)
        out[name] = _frozen(value)
    return out


def replay(rules: Rules, log: list[Event], first_dealer: int | None) -> GameState:
    """A fresh state with the logged events applied in order."""
    state = GameState(rules, first_dealer=first_dealer)
    for kind, a, b in log:
        if kind == "deal":
            state.deal(a, b)
        elif kind == "act":
            state.apply(b, seat=a)
        else:
            state.resign(a)
    return state


def step(state: GameState, rng: random.Random, deals: SeededDeals) -> Event:
    """One random event for ``state`` (applied to it), returned for the log."""
    if state.phase == Phase.DEAL:
        deck, first = deals.next_deal()
        state.deal(deck, first)
        return ("deal", deck, first)
    if rng.random() < 0.002:
        seat = rng.randrange(state.rules.nseats)
        state.resign(seat)
        return ("resign", seat, None)
    seat, action = pick_action(rng, state)
    state.apply(action, seat=seat)
    return ("act", seat, action)


def apply_event(state: GameState, event: Event) -> None:
    kind, a, b = event
    if kind == "deal":
        state.deal(a, b)
    elif kind == "act":
        state.apply(b, seat=a)
    else:
        state.resign(a)


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, choice=CHOICES)
def test_a_clone_equals_the_replay_and_goes_on_alone(name: str, seed: int, choice: int) -> None:
    rules = rules_for(name, {})
    rng = random.Random(choice)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    log: list[Event] = []
    while not state.terminal and len(log) < 600:
        if rng.random() < 0.05:
            copy = state.clone()
            assert fingerprint(copy) == fingerprint(state)
            assert fingerprint(copy) == fingerprint(replay(rules, log, deals.first_dealer))
            # the copy goes on by itself: a few events on it leave the original alone
            before = fingerprint(state)
            # (a seed is at most 2**64-1: the next one runs on from 0)
            trial_rng = random.Random(rng.random())
            trial_deals = SeededDeals(rules, (seed + 1) % 2**64)
            for _ in range(rng.randrange(1, 30)):
                if copy.terminal:
                    break
                step(copy, trial_rng, trial_deals)
            assert fingerprint(state) == before, "a clone shares data with its original"
        log.append(step(state, rng, deals))


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, choice=CHOICES)
def test_a_clone_deals_the_same_stream_as_its_original(name: str, seed: int,
                                                       choice: int) -> None:
    rules = rules_for(name, {})
    state = new_match(rules, seed)
    rng = random.Random(choice)
    while state.hand_no < 3 and not state.terminal:
        copy = state.clone()
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
        copy.apply(action, seat=seat)
        assert fingerprint(copy) == fingerprint(state)


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_undo_returns_to_the_replayed_state(name: str, seed: int, choice: int,
                                            data: st.DataObject) -> None:
    rules = rules_for(name, {})
    rng = random.Random(choice)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.enable_undo()
    log: list[Event] = []
    while not state.terminal and len(log) < 500:
        if log and rng.random() < 0.08:
            back = data.draw(st.integers(1, min(len(log), 12)), label="undos")
            undone = []
            for _ in range(back):
                state.undo()
                undone.append(log.pop())
            assert state.undo_depth == len(log)
            assert fingerprint(state) == fingerprint(replay(rules, log, deals.first_dealer))
            for event in reversed(undone):  # and forward again, the same way
                apply_event(state, event)
                log.append(event)
        log.append(step(state, rng, deals))
    while log:
        state.undo()
        log.pop()
    assert fingerprint(state) == fingerprint(GameState(rules, first_dealer=deals.first_dealer))
    with pytest.raises(ValueError, match="nothing to undo"):
        state.undo()


@pytest.mark.parametrize("name", ["marianna", "mariaggia", "marjapussi"])
def test_undo_takes_back_an_automatic_deal_with_the_action(name: str) -> None:
    rules = rules_for(name, {})
    state = new_match(rules, 11)
    state.enable_undo()
    rng = random.Random(3)
    while state.hand_no == 1 and not state.terminal:
        before = fingerprint(state)
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
        if state.hand_no == 2:
            state.undo()
            assert fingerprint(state) == before
            state.apply(action, seat=seat)
            assert state.hand_no == 2
            break
    assert state.hand_no == 2 or state.terminal


def test_a_refused_action_leaves_no_journal_entry() -> None:
    state = new_match(rules_for("marianna", {}), 5)
    state.enable_undo()
    seat = state.to_act
    assert seat is not None
    foreign = next(c for c in range(state.rules.ncards) if not state.hands[seat] >> c & 1)
    before = fingerprint(state)
    with pytest.raises(IllegalActionError):
        state.apply(Play(foreign))
    assert state.undo_depth == 0
    assert fingerprint(state) == before


def test_undo_is_off_until_enabled_and_a_clone_keeps_it_on() -> None:
    state = new_match(rules_for("mariglia", {}), 2)
    action: Action = state.legal_actions()[0]
    state.apply(action)
    with pytest.raises(ValueError, match="enable_undo"):
        state.undo()
    state.enable_undo()
    state.apply(state.legal_actions()[0])
    copy = state.clone()
    assert copy.undo_depth == 0 and state.undo_depth == 1
    copy.apply(copy.legal_actions()[0])
    copy.undo()
    assert fingerprint(copy) == fingerprint(state)
    state.enable_undo(False)
    assert state.undo_depth == 0


class _Extended(GameState):
    """A state class with one more slot, as another mechanism might add."""

    __slots__ = ("extra",)


def test_copies_follow_slots_added_by_a_subclass() -> None:
    rules = rules_for("marianna", {})
    state = _Extended(rules, first_dealer=0)
    state.extra = [[1, 2], [3]]
    state.deal(list(range(rules.ncards)))
    copy = state.clone()
    assert type(copy) is _Extended and copy.extra == [[1, 2], [3]]
    copy.extra[0].append(9)
    assert state.extra == [[1, 2], [3]]
    state.enable_undo()
    state.resign(0)  # (journaled as a snapshot: a declaration now says what it writes)
    state.extra[1].append(4)
    state.undo()
    assert state.extra == [[1, 2], [3]]


class _Loose(GameState):
    """A state class whose extra slot is a list in one state and not in another."""

    __slots__ = ("maybe",)


def test_a_list_slot_that_later_holds_something_else_is_still_copied() -> None:
    rules = rules_for("mariglia", {})
    first = _Loose(rules, first_dealer=0)
    first.maybe = [1, 2]
    first.deal(list(range(rules.ncards)))
    assert first.clone().maybe == [1, 2]  # the copying code is made from this state
    other = _Loose(rules, first_dealer=0)
    other.maybe = None
    other.deal(list(range(rules.ncards)))
    assert other.clone().maybe is None
    other.enable_undo()
    other.resign(1)  # journals a snapshot (a card within a trick journals only its changes)
    other.maybe = [[5]]
    copy = other.clone()
    copy.maybe[0].append(6)
    assert other.maybe == [[5]]
    other.undo()
    assert other.maybe is None


def test_a_replaced_apply_play_is_undone_by_snapshot() -> None:
    """A card within a trick journals only the reference apply_play's changes; a
    mechanism that plays cards its own way gets whole snapshots, so undo still
    takes back everything it changed."""
    class ScoresEachCard(TrickPlay):
        def apply_play(self, st: GameState, seat: int, action: Play) -> None:
            st.carry_bonus += 1
            super().apply_play(st, seat, action)

    rules = rules_for("marianna", {})
    for mech, bonus in ((replace(DEFAULT_MECHANISMS, tricks=ScoresEachCard()), 1),
                        (DEFAULT_MECHANISMS, 0)):
        state = GameState(rules, first_dealer=0, mechanisms=mech)
        state.deal(list(range(rules.ncards)))
        before = fingerprint(state)
        state.enable_undo()
        card = next(a for a in state.legal_actions() if type(a) is Play)
        state.apply(card)
        assert state.carry_bonus == bonus and len(state.trick_cards) == 1
        state.undo()
        assert fingerprint(state) == before


class _DrawsWithABonus(TrickPlay):
    def draw(self, st: GameState, winner: int) -> None:
        st.carry_bonus += 1
        super().draw(st, winner)


class _ShowsItsOwnWay(Announcements):
    """A subclass of a mechanism that declared its hook's trail: it loses the trail."""


def _last_cards(state: GameState, rng: random.Random,
                going_on: Callable[[GameState], bool]) -> Iterator[tuple[int, Play]]:
    """Random actions on ``state`` while ``going_on(state)``: each a trick's last card
    is handed to the caller (who applies it), the others applied here."""
    while going_on(state):
        last = (len(state.trick_cards) + 1 == state.rules.hand_seats
                and state.phase == Phase.PLAY)
        seat, action = pick_action(rng, state)
        if last and type(action) is Play:
            yield seat, action
        else:
            state.apply(action, seat=seat)


class _CountsTricks(Scoring):
    """A hook at the trick's end that declares the slot it changes: trailed."""

    trail_hooks: ClassVar[dict[str, tuple[str, ...]]] = {"count_trick": ("carry_bonus",)}

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        return (*super().hooks(rules), ("after_trick", "count_trick"))

    def count_trick(self, st: GameState, winner: int) -> bool:
        st.carry_bonus += winner + 1
        return False


def test_a_trick_end_keeps_what_a_trailed_hook_declares() -> None:
    """A hook that declares what it changes (``trail_hooks``) gets those slots kept with
    each trick's end: undo() takes each trick's end back exactly, and undo_to() a mark
    some tricks back restores them from the earliest trick's end."""
    rules = rules_for("marianna", {})
    deals = SeededDeals(rules, 5)
    state = GameState(rules, first_dealer=deals.first_dealer,
                      mechanisms=replace(DEFAULT_MECHANISMS, scoring=_CountsTricks()))
    state.deal(*deals.next_deal())
    state.enable_undo()
    rng = random.Random(5)
    marks = [(state.mark(), fingerprint(state))]
    trails = 0
    while state.trick_no < state._tricks_per_hand:
        before, trick_no = fingerprint(state), state.trick_no
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
        if state.trick_no == trick_no + 1:
            assert state._undo is not None and state._undo[-1][0] is TRICK_TRAIL
            assert state.carry_bonus != before["carry_bonus"]
            trails += 1
        state.undo()
        assert fingerprint(state) == before
        state.apply(action, seat=seat)
        if rng.random() < 0.2:
            marks.append((state.mark(), fingerprint(state)))
    for mark, seen in reversed(marks):
        state.undo_to(mark)
        assert fingerprint(state) == seen
    assert trails >= 5 and len(marks) >= 3


#: (ruleset, mechanisms changed, a trick's end journaled as a trail)
_TRICK_END_CASES = [
    ("marianna", {}, True),
    ("thousand", {}, True),
    ("belote", {}, True),  # Announcements.show changes what is known: trailed
    ("marjapussi", {}, True),  # Asks.after_trick changes nothing without a split marriage
    ("marianna", {"tricks": _DrawsWithABonus()}, False),
    ("belote", {"announcements": _ShowsItsOwnWay()}, False),
    ("schnapsen", {}, True),  # no automatic claim: the claims only pause the hand
]


@pytest.mark.parametrize(("name", "changed", "trailed"), _TRICK_END_CASES)
def test_a_trick_end_is_a_trail_unless_a_mechanism_changes_it(
        name: str, changed: dict[str, Any], trailed: bool) -> None:
    """The last card of a trick that does not end the hand journals a trail under the
    reference trick play, where every hook at the trick's end declares what it changes
    (or that it changes nothing there); a trick play that draws its own way, a subclass
    of a hook's mechanism, or hooks that may end the hand get whole snapshots; every undo
    takes back exactly what the card changed."""
    rules = rules_for(name, {})
    deals = SeededDeals(rules, 7)
    state = GameState(rules, first_dealer=deals.first_dealer,
                      mechanisms=replace(DEFAULT_MECHANISMS, **changed))
    state.deal(*deals.next_deal())
    state.enable_undo()
    rng = random.Random(7)
    ends = 0
    for seat, action in _last_cards(state, rng, lambda s: s.to_act is not None
                                    and s.phase not in (Phase.DEAL, Phase.OVER)):
        before, trick_no = fingerprint(state), state.trick_no
        state.apply(action, seat=seat)
        assert state._undo is not None
        if state.trick_no == trick_no + 1:  # not the hand's end (nor a pause)
            assert (state._undo[-1][0] is TRICK_TRAIL) is trailed
            ends += 1
        state.undo()
        assert fingerprint(state) == before
        state.apply(action, seat=seat)
    assert ends >= 3


@pytest.mark.parametrize("target", [41, 71])
def test_a_trick_end_is_a_trail_while_the_hand_target_is_out_of_reach(target: int) -> None:
    """Mariazza's hand ends the moment a side reaches its target, after any trick: a
    trick's end is a trail where the winner's side does not reach the target even with
    the trick's card points, else a snapshot (and where the trick's winner has held
    points to credit as he leads); the tricks that reach the target end the
    hand mid-hand; every undo gives back the state before the card, and undo_to a mark
    at the hand's start the state there. At 71 the hands last longer: the turned-up
    card is drawn in a trail."""
    rules = rules_for("mariazza", {"target": target})
    assert rules.hand_target == target
    kinds = {"trail": 0, "snapshot": 0, "target": 0, "turn-up drawn": 0}
    for seed in range(40):
        state = new_match(rules, seed)
        state.enable_undo()
        rng = random.Random(seed)
        start, at_start, hand_no = state.mark(), fingerprint(state), state.hand_no
        for seat, action in _last_cards(state, rng, lambda s, h=hand_no: s.hand_no == h
                                        and not s.terminal):
            before, trick_no, turn_up = fingerprint(state), state.trick_no, state.turn_up
            sides = list(map(state.hand_points, range(len(state.captured))))
            cards = [*state.trick_cards, action.card]
            state.apply(action, seat=seat)
            assert state._undo is not None
            winner = state.tricks[-1][2] if state.hand_no == hand_no else None
            if state.hand_no != hand_no and trick_no < state._tricks_per_hand:
                kinds["target"] += 1  # the target reached mid-hand
            elif state.trick_no == trick_no + 1:  # the hand goes on
                assert winner is not None
                held = before["held"][winner]  # credited as he leads: by snapshot
                side = rules.team_of[winner]
                quiet = (max(sides) < target and not held
                         and sides[side] + sum(state._points[c] for c in cards) < target)
                trailed = state._undo[-1][0] is TRICK_TRAIL
                assert trailed is quiet, (seed, trick_no)
                kinds["trail" if trailed else "snapshot"] += 1
                drawn = turn_up is not None and state.turn_up is None  # the turned-up card
                kinds["turn-up drawn"] += int(trailed and drawn)
            state.undo()
            assert fingerprint(state) == before
            state.apply(action, seat=seat)
        state.undo_to(start)
        assert fingerprint(state) == at_start
    assert kinds["trail"] >= 300 and kinds["target"] >= 20 and kinds["snapshot"] >= 1, kinds
    assert kinds["turn-up drawn"] >= (10 if target > 41 else 0), kinds


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_each_action_undone_under_any_options(name: str, seed: int, choice: int,
                                              data: st.DataObject) -> None:
    """Under any option values: every action (cards within and at the end of tricks,
    the hand's last card, the next deal...) taken back by undo() gives the state before
    it, and undo_to() a mark gives the state at the mark."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state = new_match(rules, seed)
    rng = random.Random(choice)
    marks: list[tuple[int, dict[str, Any]]] = [(state.mark(), fingerprint(state))]
    hands = 0
    while not state.terminal and hands < 2 and state.undo_depth < 400:
        before = fingerprint(state)
        seat, action = pick_action(rng, state)
        hand_no = state.hand_no
        state.apply(action, seat=seat)
        state.undo()
        assert fingerprint(state) == before, action
        state.apply(action, seat=seat)
        hands += state.hand_no != hand_no
        if rng.random() < 0.1:
            marks.append((state.mark(), fingerprint(state)))
    for mark, seen in reversed(marks):
        state.undo_to(mark)
        assert fingerprint(state) == seen
    assert state.undo_depth == 0


def test_undo_to_refuses_a_mark_it_cannot_reach() -> None:
    state = new_match(rules_for("mariglia", {}), 3)
    with pytest.raises(ValueError, match="no such mark"):
        state.undo_to(0)  # undo is off
    mark = state.mark()
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="no such mark"):
        state.undo_to(mark + 2)
    state.undo_to(mark)
    assert state.undo_depth == 0


def _data(state: GameState) -> dict[str, Any]:
    """The fingerprint less what is made from the rules (an unpickled state has its own)."""
    return {k: v for k, v in fingerprint(state).items()
            if k not in ("_appliers", "_deals", "_fresh", "_lays", "hooks", "rules", "mech")}


def test_a_state_with_undo_on_pickles_as_a_clone_does() -> None:
    """A state with a journal (trails and snapshots, which hold the code made from the
    rules) pickles; as a clone, the copy has undo on with an empty journal, and goes on
    (and undoes) like the original."""
    import pickle

    state = new_match(rules_for("marianna", {}), 4)
    state.enable_undo()
    rng = random.Random(2)
    while state.hand_no == 1:  # to the hand's end (a snapshot) and the next deal
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
    copy = pickle.loads(pickle.dumps(state))  # its own rules, made again
    assert copy.undo_depth == 0 and state.undo_depth >= 40
    assert _data(copy) == _data(state)
    seat, action = pick_action(rng, state)
    before = _data(copy)
    copy.apply(action, seat=seat)
    state.apply(action, seat=seat)
    assert _data(copy) == _data(state)
    copy.undo()
    assert _data(copy) == before


@pytest.mark.parametrize("mark", ["0", 1.0, None, -1, 99])
def test_undo_to_refuses_what_is_no_mark_by_name(mark: object) -> None:
    state = new_match(load_rules("schnapsen"), seed=2)
    state.mark()
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="no such mark"):
        state.undo_to(mark)  # type: ignore[arg-type]
    assert len(state.actions) == 1
