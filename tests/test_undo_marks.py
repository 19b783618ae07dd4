"""Undo for marks only (``enable_undo(marks_only=True)``), property-tested against
replaying the match from the start, and against the state at each mark.

A mark's record keeps what cards alone may write; an action other than a card (or the
gated hooks of a trick's end) that declares what it writes beyond it logs those slots
(``Dispatch.mark_extra``, ``Marks.log``); anything else takes the whole state once. The
tests check that each step writes nothing beyond what was kept for it, and that
``undo_to`` gives back every slot, with and without a deal source.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import GameState, Phase, Play, new_match
from mariage.engine.deals import SeededDeals, canonical_deck
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from propkit import CHOICES, SEEDS, options_for, pick_action, rules_for
from test_search_support import Event, _DrawsWithABonus, fingerprint, replay, step


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_undo_to_for_marks_only_returns_to_the_replayed_state(
        name: str, seed: int, choice: int, data: st.DataObject) -> None:
    """Undo for marks only (``enable_undo(marks_only=True)``): marks made at random
    moments of a whole match (deals, declarations, bids, resignations among the events),
    lines taken back by ``undo_to`` to the last or an earlier mark, the same mark come
    back to twice; each time every slot equals the state at the mark and the replay of
    the log up to it, and the match goes on from there."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    rng = random.Random(choice)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.enable_undo(marks_only=True)
    log: list[Event] = []
    marks: list[tuple[int, dict[str, Any], int]] = []  # (mark, fingerprint, log length)
    while not state.terminal and len(log) < 400:
        if rng.random() < 0.1:
            mark = state.mark()
            if marks and marks[-1][2] == len(log):  # nothing since: the same record
                assert mark == marks[-1][0]
            else:
                marks.append((mark, fingerprint(state), len(log)))
        elif marks and rng.random() < 0.08:
            k = data.draw(st.integers(0, len(marks) - 1), label="back to")
            del marks[k + 1:]
            mark, seen, length = marks[-1]
            for _ in range(1 + (rng.random() < 0.3)):  # now and then twice, the same way
                state.undo_to(mark)
                assert fingerprint(state) == seen
                del log[length:]
                if rng.random() < 0.5:  # a line played and taken back at once
                    trial_rng = random.Random(rng.random())
                    for _ in range(rng.randrange(1, 40)):
                        if state.terminal:
                            break
                        step(state, trial_rng, SeededDeals(rules, (seed + 7) % 2**64))
            state.undo_to(mark)
            assert fingerprint(state) == seen
            assert fingerprint(state) == fingerprint(replay(rules, log, deals.first_dealer))
            assert state.mark() == mark  # nothing since: the same record
        log.append(step(state, rng, deals))
    if marks:
        state.undo_to(marks[0][0])
        assert fingerprint(state) == marks[0][1]


def _beyond_record(state: GameState, slots: tuple[str, ...]) -> dict[type, set[str]]:
    """Per type of action other than a card (and ``GatedHooks``, the gated hooks of a
    trick's end), the slots it declares beyond a mark's record ``slots``: what undo for
    marks only logs for it (``Dispatch.mark_extra``)."""
    from mariage.engine.handend import hand_end_writes
    from mariage.engine.trailplan import GatedHooks, action_slots, gated_slots

    table, rules = state._appliers, state.rules
    declared: dict[type, tuple[str, ...]] = dict(action_slots(
        {**table.appliers, **table.any_seat}, hand_end_writes(state.mech, rules), state.mech,
        rules))
    gated = gated_slots(state.mech, rules)
    if gated is not None:
        declared[GatedHooks] = gated
    return {kind: set(written) - set(slots) for kind, written in declared.items()}


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_cards_write_nothing_beyond_a_marks_record(name: str, seed: int, choice: int,
                                                   data: st.DataObject) -> None:
    """Where a mark's record keeps part of the state (``Dispatch.mark_keeper``), each step
    of a hand from the play on, under drawn option values and without a deal source,
    changes no slot beyond it but what undo for marks only logged for that step: a card
    nothing (or, where a hook's gate failed at its trick's end, what those hooks declare:
    ``GatedHooks``), an action of ``mark_free`` nothing, one of ``mark_extra`` (a
    declaration, a close, an exchange, a question, an answer...) what its mechanism
    declares; nothing takes the whole state where every step declares what it writes;
    and ``undo_to`` is exact."""
    from mariage.engine.handend import hand_end_writes
    from mariage.engine.trailplan import GatedHooks, hook_trail, mark_slots, record_slots

    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state = new_match(rules, seed)
    state.deal_source = None
    rng = random.Random(choice)
    table = state._appliers
    slots = record_slots(state.mech, rules, table.to_act)
    assert slots is not None and table.mark_keeper is not None  # (every bundled ruleset)
    cards = mark_slots(hook_trail(state.mech, rules), hand_end_writes(state.mech, rules))
    assert cards is not None and slots[:len(cards)] == cards  # (what cards write, then more)
    beyond = _beyond_record(state, slots)
    assert set(table.mark_extra) | set(table.mark_free) == set(beyond)
    for kind in table.mark_free:  # an action kept by the record writes nothing else
        assert not beyond[kind], kind
    state.enable_undo(marks_only=True)
    marks = state._marks
    assert marks is not None
    more = SeededDeals(rules, (seed + 1) % 2**64)  # the next hands' deals, dealt here
    lines = 0
    while not state.terminal and lines < 6:
        while state.phase != Phase.PLAY and not state.terminal:  # to the play
            if state.phase == Phase.DEAL:
                state.deal(*more.next_deal())
                continue
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
        if state.terminal:
            break
        mark, before = state.mark(), fingerprint(state)
        assert marks[mark][1] is None
        while state.to_act is not None:  # to the hand's end, whatever the phase
            seat, action = pick_action(rng, state)
            kind = type(action)
            if marks[mark][1] is not None:  # the whole state was kept: nothing to check
                state.apply(action, seat=seat)
                continue
            pre, logged = fingerprint(state), len(marks.log)
            state.apply(action, seat=seat)
            post = fingerprint(state)
            changed = {s for s in pre if pre[s] != post[s]} - {"actions", "tricks", "history"}
            if kind is Play:  # (a gate failed: the hooks' slots logged, now or before)
                declares = GatedHooks in beyond or len(marks.log) == logged
                kept = beyond[GatedHooks] if GatedHooks in marks.seen else set()
            else:
                declares = kind in beyond
                kept = beyond.get(kind, set())
            if declares:  # the record and the log keep all it wrote: no snapshot
                assert marks[mark][1] is None, kind.__name__
                assert changed <= set(slots) | kept, (kind.__name__,
                                                      sorted(changed - set(slots) - kept))
        state.undo_to(mark)
        assert fingerprint(state) == before
        assert not marks.log or marks[mark][2] == len(marks.log)
        lines += 1
        for _ in range(rng.randrange(1, 12)):  # on to another position
            if state.to_act is None or state.phase != Phase.PLAY:
                break
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_undo_to_for_marks_only_with_a_deal_source(name: str, seed: int, choice: int,
                                                   data: st.DataObject) -> None:
    """Undo for marks only on a match with its deal source (``new_match``, as a search
    plays out): from marks made at random, random lines of up to two hands (the next
    deal among them) taken back by ``undo_to``, nested marks and the same mark again;
    each time every slot (the deal source's generator too) is as it was at the mark."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state = new_match(rules, seed)
    state.enable_undo(marks_only=True)
    rng = random.Random(choice)
    for _ in range(8):
        if state.terminal:
            break
        root, seen = state.mark(), fingerprint(state)
        for _ in range(1 + (rng.random() < 0.5)):
            hand = state.hand_no
            inner = None
            for i in range(rng.randrange(5, 120)):
                if state.terminal or state.hand_no > hand + 1:
                    break
                if i == 7:
                    inner, middle = state.mark(), fingerprint(state)
                seat, action = pick_action(rng, state)
                state.apply(action, seat=seat)
            if inner is not None and rng.random() < 0.5:
                state.undo_to(inner)
                assert fingerprint(state) == middle
            state.undo_to(root)
            assert fingerprint(state) == seen
        for _ in range(rng.randrange(1, 30)):  # on to another position
            if state.terminal:
                break
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)


def test_undo_for_marks_only_refuses_undo_and_turns_back() -> None:
    """Marks only: ``undo()`` refused, ``undo_depth`` 0, an unknown mark refused, a clone
    and a pickled copy keep the mode with no marks; ``enable_undo()`` turns the journal
    back on, ``enable_undo(False)`` both off."""
    import pickle

    state = new_match(rules_for("marianna", {}), 4)
    state.enable_undo(marks_only=True)
    root = state.mark()
    state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="marks only"):
        state.undo()
    assert state.undo_depth == 0
    with pytest.raises(ValueError, match="no such mark"):
        state.undo_to(root + 1)
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert copy._marks is not None and len(copy._marks) == 0 and copy._undo is None
        with pytest.raises(ValueError, match="no such mark"):
            copy.undo_to(root)
    state.undo_to(root)
    assert len(state.actions) == 0
    with pytest.raises(TypeError, match="True or False"):
        state.enable_undo(True, marks_only=1)  # type: ignore[arg-type]
    state.enable_undo()
    assert state._marks is None and state._undo is not None
    state.apply(state.legal_actions()[0])
    state.undo()
    state.enable_undo(marks_only=True)
    assert state._undo is None
    state.enable_undo(False)
    assert state._marks is None and state._undo is None


def test_a_marks_record_is_the_whole_state_where_a_card_may_write_anything() -> None:
    """Where the trick play is not the reference one (a draw of its own), a mark keeps the
    whole state, taken again each time it is restored; and a record of part of the state
    gets a snapshot at the first thing other than a card that does not say what it writes
    (a resignation), used once; a declaration, which does, logs those slots only."""
    rules = rules_for("schnapsen", {})
    deals = SeededDeals(rules, 3)
    state = GameState(rules, first_dealer=deals.first_dealer,
                      mechanisms=replace(DEFAULT_MECHANISMS, tricks=_DrawsWithABonus()))
    state.deal(*deals.next_deal())
    state.enable_undo(marks_only=True)
    mark, before = state.mark(), fingerprint(state)
    assert state._marks is not None and state._marks[mark][0] is None
    for _ in range(2):
        bonus = 0
        while state.to_act is not None:
            state.apply(state.legal_actions()[-1])
            bonus = max(bonus, state.carry_bonus)
        assert bonus > 0  # (the draw of its own ran)
        state.undo_to(mark)
        assert fingerprint(state) == before and state._marks[mark][1] is not None
    rules = rules_for("marianna", {})
    state = GameState(rules, first_dealer=0)
    state.deal(canonical_deck(rules))
    state.enable_undo(marks_only=True)
    mark, before = state.mark(), fingerprint(state)
    declare = state.legal_actions()[0]
    assert type(declare) is not Play  # marianna:H, the lead's declaration
    state.apply(state.legal_actions()[-1])
    inner, middle = state.mark(), fingerprint(state)
    assert inner == mark + 1
    state.apply(state.legal_actions()[-1])
    state.resign(0)  # not a card: one snapshot for both records
    assert state._marks[inner][1] is state._marks[mark][1] is not None
    state.undo_to(inner)  # used once: neither keeps it
    assert fingerprint(state) == middle
    assert state._marks[inner][1] is None and state._marks[mark][1] is None
    state.undo_to(mark)
    assert fingerprint(state) == before and len(state._marks) == 1
    state.apply(declare)  # a declaration says what it writes: those slots logged
    assert state._marks[mark][1] is None and len(state._marks.log) == 1
    state.apply(state.legal_actions()[-1])
    state.resign(1)  # then a snapshot, after the log's entry
    assert state._marks[mark][1] is not None and state._marks[mark][3] == 1
    state.undo_to(mark)
    assert fingerprint(state) == before and state._marks[mark][1] is None
    assert not state._marks.log


def _spoil(state: GameState, slot: str) -> None:
    """Change ``slot`` of ``state`` as play could: a list changed in place (its first list
    too, where it holds lists; a list per seat or per team, whose length play never
    changes, by its first item), anything else replaced by a value it never holds."""
    from mariage.engine.trailplan import _IN_PLACE

    value = getattr(state, slot)
    if value.__class__ is list and slot in _IN_PLACE:
        value[0] = -7
    elif value.__class__ is list:
        if value and value[0].__class__ is list:
            value[0].append(-7)
        value.append(-7)
    else:
        setattr(state, slot, ("spoilt", value))


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=4, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_every_slot_a_mark_keeps_is_set_back(name: str, seed: int, choice: int,
                                              data: st.DataObject) -> None:
    """Each slot of a mark's record (``trailplan.record_slots``: what cards write and what
    the actions it takes in write) and each slot a log entry keeps for an action type
    (``Dispatch.mark_extra``) is given back by ``undo_to`` after it is changed in place or
    replaced, one slot at a time, at positions of a hand reached by random play: a slot
    the record or an entry leaves out, or a list it holds without copying, fails here
    even where no random line writes it."""
    from mariage.engine.trailplan import record_slots

    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state = new_match(rules, seed)
    state.deal_source = None
    rng = random.Random(choice)
    slots = record_slots(state.mech, rules, state._appliers.to_act)
    assert slots is not None
    beyond = _beyond_record(state, slots)
    state.enable_undo(marks_only=True)
    marks = state._marks
    assert marks is not None
    for _ in range(3):
        while state.phase != Phase.PLAY and state.to_act is not None:  # to the play
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
        if state.phase != Phase.PLAY or state.to_act is None:
            break
        mark, before = state.mark(), fingerprint(state)
        for slot in slots:
            _spoil(state, slot)
            state.undo_to(mark)
            assert fingerprint(state) == before, slot
        for kind in state._appliers.mark_extra:
            assert beyond[kind], kind.__name__  # (else it would be free)
            for slot in sorted(beyond[kind]):
                marks.widen(state, kind)  # (as before an action of that type)
                assert len(marks.log) == marks[mark][2] + 1, kind.__name__  # (logged)
                _spoil(state, slot)
                state.undo_to(mark)
                assert fingerprint(state) == before, (kind.__name__, slot)
        for _ in range(rng.randrange(1, 12)):  # on to another position
            if state.to_act is None or state.phase != Phase.PLAY:
                break
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
