"""What undo for marks only keeps, and what it leaves alone, so that a playout from a mark
costs less than one on a clone (issue #28): the lists only ever appended to kept as
themselves, actions the record keeps all of passed without a call, and the writes of an
applier that another passes actions on to counted only where the rules can reach it.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import GameState, Phase, new_match
from mariage.engine.actions import Answer, AskPartner, Call, Question
from mariage.engine.journal import Marks
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.mechanisms.asks import Asks
from mariage.engine.trailplan import _GROWN, _IN_PLACE, _MARK_GROWN, _PER_SEAT, action_slots
from propkit import CHOICES, SEEDS, options_for, pick_action, rules_for
from test_search_support import fingerprint


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_the_grown_lists_are_only_appended_to(name: str, seed: int, choice: int,
                                              data: st.DataObject) -> None:
    """Each list a mark's record (and, for :data:`_GROWN`, an action's kept slots) holds as
    itself with its length (``trailplan._MARK_GROWN``) is, over a whole match played at
    random with undo for marks only, either replaced by another list or only appended
    to: the items it held before a step are still there, unchanged, after it. The lists
    per seat and per team a record keeps as their items (``trailplan._IN_PLACE``) keep
    their lengths."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state = new_match(rules, seed)
    state.enable_undo(marks_only=True)
    rng = random.Random(choice)
    appended = 0
    for _ in range(300):
        if state.terminal:
            break
        before = {slot: (getattr(state, slot), [*getattr(state, slot)])
                  for slot in _MARK_GROWN}
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
        assert [len(getattr(state, slot)) for slot in sorted(_IN_PLACE)] == [
            rules.nseats if slot in _PER_SEAT else len(rules.teams)
            for slot in sorted(_IN_PLACE)]
        for slot, (held, items) in before.items():
            if getattr(state, slot) is held:
                assert held[:len(items)] == items, (slot, type(action).__name__)
                appended += len(held) > len(items)
    assert appended


def _playouts(name: str, count: int, seed: int) -> list[tuple[GameState, dict[str, Any]]]:
    """``count`` play-phase states of ``name`` reached by seeded random play, with undo
    for marks only and no deal source, each with its fingerprint."""
    out = []
    rng = random.Random(seed)
    while len(out) < count:
        state = new_match(rules_for(name, {}), rng.randrange(2**32))
        for _ in range(rng.randrange(0, 30)):
            if state.terminal:
                break
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
        if state.terminal or state.phase != Phase.PLAY:
            continue
        state.deal_source = None
        state.enable_undo(marks_only=True)
        out.append((state, fingerprint(state)))
    return out


def test_questions_and_answers_without_asks_are_kept_by_the_record() -> None:
    """German Marjapussi has questions and calls but no asks: an answer writes only what
    the calls declare (not what an ask's answer would: ``Mechanism.trail_offered``), so
    questions, answers and calls are free for marks only (the record keeps their
    writes): playouts full of them log nothing and take no snapshot, and ``undo_to``
    gives the position back."""
    state = new_match(rules_for("marjapussi-de", {}), 1)
    table = state._appliers
    assert {Question, Answer, Call} <= table.mark_free
    answered = 0
    rng = random.Random(3)
    for state, seen in _playouts("marjapussi-de", 12, 5):
        mark = state.mark()
        marks = state._marks
        assert marks is not None
        while state.to_act is not None and not state.terminal:
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
            answered += type(action) is Answer
        assert marks.log == [] and marks[mark][1] is None
        state.undo_to(mark)
        assert fingerprint(state) == seen
    assert answered


class _AsksEverywhere(Asks):
    """Asks that say they are offered under any rules."""

    __slots__ = ()

    def offers(self, rules: Any) -> bool:
        return True


def test_an_answer_takes_in_the_asks_writes_where_asks_are_offered() -> None:
    """The calls' answer passes an answer with no question pending to the asks
    (``trail_calls``): its declared writes take in the asks' answer's only where the asks
    are offered under the rules (Marjapussi's asks, or mechanisms whose asks say so),
    not in German Marjapussi, which has none."""
    rules = rules_for("marjapussi-de", {})
    state = GameState(rules, first_dealer=0)
    own = replace(DEFAULT_MECHANISMS, asks=_AsksEverywhere())
    table = state._appliers
    appliers = {**table.appliers, **table.any_seat}
    plain = set(action_slots(appliers, (), DEFAULT_MECHANISMS, rules)[Answer])
    assert not plain & {"split", "used_suit", "pending_ask"}
    other = GameState(rules, first_dealer=0, mechanisms=own)._appliers
    wide = set(action_slots({**other.appliers, **other.any_seat}, (), own, rules)[Answer])
    assert {"split", "used_suit", "pending_ask"} <= wide and plain < wide
    asks = rules_for("marjapussi", {})
    table = GameState(asks, first_dealer=0)._appliers
    assert "split" in action_slots({**table.appliers, **table.any_seat}, (),
                                   DEFAULT_MECHANISMS, asks)[Answer]


@pytest.mark.parametrize("name", ["marjapussi", "marjapussi-de"])
def test_a_free_action_calls_no_widen(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """An action whose writes a mark's record keeps (``Dispatch.mark_free``: Marjapussi's
    asks, German Marjapussi's questions and answers) is applied without a call to
    ``Marks.widen``; a new mark after it is a new record all the same."""
    called: list[type] = []
    widen = Marks.widen

    def counted(self: Marks, state: GameState, kind: type | None = None) -> None:
        called.append(kind)  # type: ignore[arg-type]
        widen(self, state, kind)

    monkeypatch.setattr(Marks, "widen", counted)
    free = 0
    free_kinds = new_match(rules_for(name, {}), 1)._appliers.mark_free
    rng = random.Random(11)
    for state, seen in _playouts(name, 10, 7):
        mark = state.mark()
        while state.to_act is not None and not state.terminal:
            seat, action = pick_action(rng, state)
            if type(action) in free_kinds:  # marked before it, then after it, and back
                free += 1
                inner, here = state.mark(), fingerprint(state)
                state.apply(action, seat=seat)
                assert state.mark() != inner  # (a new record: the action is in the list)
                state.undo_to(inner)
                assert fingerprint(state) == here
            state.apply(action, seat=seat)
        state.undo_to(mark)
        assert fingerprint(state) == seen
    assert free and {AskPartner if name == "marjapussi" else Question} <= free_kinds
    assert not set(called) & free_kinds


def test_a_marks_record_holds_the_grown_lists_themselves() -> None:
    """After ``undo_to`` a mark, the hand's declarations and the trick's two lists are the
    very lists the state held at the mark (cut back, not copies), as they were."""
    rng = random.Random(2)
    checked = 0
    for state, seen in _playouts("marianna", 20, 3):
        held = {slot: getattr(state, slot) for slot in _MARK_GROWN}
        mark = state.mark()
        for _ in range(rng.randrange(1, 6)):
            if state.to_act is None or state.terminal:
                break
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
        state.undo_to(mark)
        assert all(getattr(state, slot) is held[slot] for slot in _MARK_GROWN)
        assert fingerprint(state) == seen
        checked += 1
    assert checked and _GROWN <= _MARK_GROWN
