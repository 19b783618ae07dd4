"""Undo's journal as a search uses it: lines taken back by undo_to, within lines by undo.

The journal notes where its snapshots and action entries are
(:attr:`~mariage.engine.journal.Journal.odd`), so that ``undo_to`` of a line of trails
only (cards, tricks' ends, the hand's end) goes straight to the earliest trick's end;
a trick's end keeps the small lists of seats and teams as numbers in its entry and
writes them back in place. These tests play hands without a deal source (the search
that stops at the hand's end, each next hand dealt by ``deal``, a snapshot) in every
ruleset, mark at random, take lines back by ``undo_to`` and single actions by ``undo``
in any order, and check after every step that the noted positions are those of the
snapshots and action entries, and after every ``undo_to`` that the state is the one
at the mark and the one replayed from the start.
"""

from __future__ import annotations

import pickle
import random
from dataclasses import replace
from typing import Any

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import GameState, Phase, new_match
from mariage.engine.actions import Answer, AskPartner
from mariage.engine.deals import SeededDeals
from mariage.engine.handend import hand_end_writes
from mariage.engine.journal import TRICK_TRAIL, ActionEntry, Journal
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, Declarations
from mariage.engine.mechanisms.asks import Asks
from mariage.engine.trailplan import HAND_END_SLOTS
from propkit import CHOICES, SEEDS, options_for, pick_action, rules_for
from test_search_support import Event, fingerprint, replay, step


def _odd_where(journal: Journal) -> list[int]:
    """Where the journal's snapshots and action entries are, by looking at each."""
    return [i for i, entry in enumerate(journal) if entry.__class__ in (tuple, ActionEntry)]


def _check_odd(state: GameState) -> None:
    journal = state._undo
    assert isinstance(journal, Journal)
    assert journal.odd == _odd_where(journal)


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_lines_taken_back_in_any_order_give_the_state_at_the_mark(
        name: str, seed: int, choice: int, data: st.DataObject) -> None:
    """Marks at random, lines taken back by undo_to (to the last mark or an earlier one)
    and by undo one action at a time, mixed: the state at each mark, the replay from the
    start, and the journal's note of its snapshots right after every step."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.enable_undo()
    rng = random.Random(choice)
    log: list[Event] = []
    marks: list[tuple[int, dict[str, Any], int]] = []  # (mark, fingerprint, log length)
    for _ in range(260):
        if state.terminal:
            break
        roll = rng.random()
        if roll < 0.08:
            marks.append((state.mark(), fingerprint(state), len(log)))
        elif roll < 0.13 and marks:
            mark, seen, length = marks.pop(rng.randrange(len(marks)))
            marks = [m for m in marks if m[0] <= mark]  # the later ones are gone with it
            state.undo_to(mark)
            del log[length:]
            assert fingerprint(state) == seen
            assert fingerprint(state) == fingerprint(replay(rules, log, deals.first_dealer))
            if rng.random() < 0.5:
                marks.append((mark, seen, length))  # the mark is still good
        elif roll < 0.2 and log:
            state.undo()
            log.pop()
            marks = [m for m in marks if m[0] <= state.undo_depth]
        else:
            log.append(step(state, rng, deals))
        _check_odd(state)
    for mark, seen, _ in reversed(marks):
        state.undo_to(mark)
        assert fingerprint(state) == seen
        _check_odd(state)


def test_a_trick_end_keeps_numbers_and_writes_the_small_lists_back_in_place() -> None:
    """A trick's last card keeps the hands, known cards, forced cards, points and tricks
    won as numbers (no list copied), and its undo writes them into the lists the state
    holds; the state is the one before the card."""
    state = new_match(rules_for("marianna", {}), 7)
    state.enable_undo()
    rng = random.Random(3)
    seen = 0
    while seen < 8 and not state.terminal:
        lists = (state.hands, state.known, state.forced, state.captured, state.tricks_won)
        before = fingerprint(state)
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
        assert state._undo is not None
        entry = state._undo[-1]
        if entry.__class__ is list and entry[0] is TRICK_TRAIL:
            # lists: the stock (a copy where not empty), the trick's two and the
            # declarations of the trick (the state's own, replaced since): no more
            assert sum(item.__class__ is list for item in entry) <= 4
            state.undo()
            assert fingerprint(state) == before
            assert all(now is was for now, was in zip(
                (state.hands, state.known, state.forced, state.captured, state.tricks_won),
                lists, strict=True))
            state.apply(action, seat=seat)
            seen += 1
    assert seen == 8


@pytest.mark.parametrize("how", ["clone", "pickle"])
def test_a_copy_with_undo_on_notes_its_snapshots(how: str) -> None:
    """A clone and an unpickled state with undo on start a journal of their own that
    notes its snapshots: a resignation (a snapshot) is taken back there too."""
    state = new_match(rules_for("marianna", {}), 5)
    state.enable_undo()
    copy = state.clone() if how == "clone" else pickle.loads(pickle.dumps(state))
    before = fingerprint(copy)
    copy.resign(1)
    assert isinstance(copy._undo, Journal) and copy._undo.odd == [0]
    copy.undo()
    assert fingerprint(copy) == before and copy._undo.odd == []


def _answer_slots(state: GameState) -> set[str]:
    """What an answer's entry keeps: the slots Asks declares for it, what the hand end
    writes, and the lists only ever appended to (cut back by their lengths)."""
    return (set(Asks.trail_actions["apply_answer"]) | set(HAND_END_SLOTS)
            | set(hand_end_writes(state.mech, state.rules) or ()) | {"actions", "tricks",
                                                                       "_history"})


@pytest.mark.parametrize("name", ["marjapussi", "marianna-siciliana", "cinquecento-siciliana"])
@settings(max_examples=8, deadline=None)
@given(seed=SEEDS, choice=CHOICES, data=st.data())
def test_an_answer_keeps_what_it_changes(name: str, seed: int, choice: int,
                                         data: st.DataObject) -> None:
    """The games with asks under drawn options (Marjapussi's settled at once, the
    Sicilian forms' split until a trick is won), answers given at random (no, yes, a yes
    that declares or splits the marriage): each journals an action's entry, changes
    nothing but what the entry keeps, and its undo gives back the state before it."""
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.enable_undo()
    rng = random.Random(choice)
    answers = 0
    for _ in range(300):
        if state.terminal:
            break
        if state.phase == Phase.DEAL:
            deck, first = deals.next_deal()
            state.deal(deck, first)
            continue
        before = fingerprint(state)
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
        if type(action) is Answer:
            answers += 1
            assert state._undo is not None and state._undo[-1].__class__ is ActionEntry
            after = fingerprint(state)
            changed = {k for k in before if before[k] != after[k]}
            assert changed <= _answer_slots(state), changed - _answer_slots(state)
            state.undo()
            assert fingerprint(state) == before
            state.apply(action, seat=seat)
    assert answers or not rules.asks


class _OwnDeclarations(Declarations):
    """Declarations that count one point more: an answer may no longer trust the writes
    Asks declares for it."""

    __slots__ = ()

    def score(self, st: GameState, seat: int, value: int, units: str, ordered: bool,
              credit: str = "immediate") -> None:
        super().score(st, seat, value + 1, units, ordered, credit)


def test_an_answer_is_a_snapshot_where_the_declarations_are_changed() -> None:
    """With a subclass of the declarations that changes a method the answer runs, the
    answer's trail is off (a snapshot); with the bundled mechanisms it is on."""
    rules = rules_for("marjapussi", {})
    own = replace(DEFAULT_MECHANISMS, declarations=_OwnDeclarations())
    bundled = GameState(rules, first_dealer=0)
    changed = GameState(rules, first_dealer=0, mechanisms=own)
    assert Answer in bundled._appliers.action_trails
    assert Answer not in changed._appliers.action_trails
    assert AskPartner in changed._appliers.action_trails
