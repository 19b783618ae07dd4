"""A hand's record made when it is first read (``GameState.history``).

The generated end of a hand appends the plain tuple of the record's fields to the state's
own list (``_history``); ``GameState.history`` makes the records of the tuples at its end,
in place, when it is read. Over seeded random matches of every ruleset: after each hand
nobody read, the last item is still the plain tuple (so no record was made; a hand
ended by a mechanism's own path, such as a call out, makes it), and the
records read are those that a state reading its history after every action sees (made one
hand at a time), through a clone, a pickle and undo as well.
"""

from __future__ import annotations

import pickle
import random

import pytest
from mariage import GameState, load_rules
from mariage.engine.outcomes import (
    HandRecord,
    made_records,
)
from mariage.engine.statepickle import saved_state
from propkit import RULESETS


def _played(name: str, seed: int, hands: int) -> tuple[GameState, GameState, int]:
    """A match of ``name`` played at random for up to ``hands`` hands twice: one state
    that never reads its history, one that reads it after every action; (the two, how
    many hands ended with a plain tuple last in the unread state's list)."""
    rules = load_rules(name)
    rng = random.Random(f"lazy history {name} {seed}")
    deal_rng = random.Random(seed)
    unread = GameState(rules, first_dealer=0)
    read = GameState(rules, first_dealer=0)
    read.enable_undo()
    plain = 0
    skip = 1 if rules.call_out_rule else 0  # (a call out, listed last, mostly left out)
    for _ in range(hands):
        if unread.terminal:
            break
        deck = list(range(rules.ncards))
        deal_rng.shuffle(deck)
        first = deal_rng.randrange(rules.nseats) if rules.first_lead == "lot" else None
        unread.deal(deck, first)
        read.deal(deck, first)
        while unread.to_act is not None:
            actions = unread.legal_actions()
            action = actions[rng.randrange(len(actions) - skip)]
            unread.apply(action)
            read.apply(action)
            assert all(type(r) is HandRecord for r in read.history)
        before = len(unread._history)
        plain += type(unread._history[-1]) is tuple
        assert len(unread._history) == before  # (the raw read made nothing)
    return unread, read, plain


@pytest.mark.parametrize("name", RULESETS)
def test_records_are_made_when_read_and_equal_those_read_each_step(name: str) -> None:
    unread, read, plain = _played(name, 1, 8)
    assert plain > 0  # the generated hand end made no record (a call out's end may)
    copy = unread.clone()
    assert list(map(type, copy._history)) == list(map(type, unread._history))
    loaded = pickle.loads(pickle.dumps(unread))  # (its records made: it reads them)
    assert "_history" not in saved_state(unread)
    records = unread.history
    assert records is unread._history and records is unread.history
    assert all(type(r) is HandRecord for r in records)
    assert records == read.history == copy.history == loaded.history
    assert [r.number for r in records] == list(range(1, len(records) + 1))


@pytest.mark.parametrize("name", ["marianna", "thousand", "belote-coinche", "schnapsen"])
def test_undo_of_a_hand_end_drops_its_unread_record(name: str) -> None:
    rules = load_rules(name)
    state = GameState(rules, first_dealer=0)
    state.enable_undo()
    rng = random.Random(name)
    deck = list(range(rules.ncards))
    rng.shuffle(deck)
    state.deal(deck)
    while state.to_act is not None:
        state.apply(state.legal_actions()[0])
    assert len(state._history) == 1 and type(state._history[0]) is tuple
    state.undo()
    assert state.history == [] and state.to_act is not None
    state.apply(state.legal_actions()[0])
    assert len(state.history) == 1 and type(state.history[0]) is HandRecord


def test_made_records_makes_only_the_plain_tuples_at_the_end() -> None:
    record = HandRecord(1, 0, (60, 60), (60, 60), (5, 5), "played_out")
    fields = tuple(HandRecord(2, 1, (70, 50), (70, 50), (6, 4), "played_out"))
    records = [record, fields]
    assert made_records(records) is records
    assert records[0] is record and type(records[1]) is HandRecord
    assert tuple(records[1]) == fields
