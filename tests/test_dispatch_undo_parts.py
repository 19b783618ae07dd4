"""The dispatch table's parts for undo and marks are made when first read, not with the
table: a replay, a validation or a match never turns undo on (issue #28.4: writing their
code was 2.5% of a warm ``replay`` of one record)."""

from __future__ import annotations

import pytest
from mariage import load_rules, new_match
from mariage.engine.dispatch import _UNDO_PARTS, Dispatch, dispatch_of
from mariage.engine.mechanisms import Mechanisms
from mariage.engine.trailplan import action_trails, mark_extra, record_slots


def _made(table: Dispatch, name: str) -> bool:
    try:
        getattr(Dispatch, name).__get__(table, Dispatch)  # the slot itself
    except AttributeError:
        return False
    return True


@pytest.mark.parametrize("ruleset", ["schnapsen", "thousand"])
def test_undo_parts_are_made_when_first_read(ruleset: str) -> None:
    rules = load_rules(ruleset)
    mech = Mechanisms()  # a set of its own: a table of its own, not one made before
    table = dispatch_of(mech, rules)
    assert not any(_made(table, name) for name in _UNDO_PARTS)
    free = table.mark_free
    assert all(_made(table, name) for name in _UNDO_PARTS)  # all of them at once
    appliers = {**table.appliers, **table.any_seat}
    from mariage.engine.handend import hand_end_writes

    marked = record_slots(mech, rules, appliers)
    assert table.play_trail is not None and marked is not None
    assert (free, set(table.mark_extra)) == (
        mark_extra(mech, rules, appliers, marked)[0],
        set(mark_extra(mech, rules, appliers, marked)[1]))
    assert set(table.action_trails) == set(
        action_trails(appliers, hand_end_writes(mech, rules), mech, rules))
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        table.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_a_state_with_undo_reads_them() -> None:
    state = new_match(load_rules("schnapsen"), seed=4)
    state.enable_undo(marks_only=True)
    mark = state.mark()
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    state.undo_to(mark)
    assert _made(state._appliers, "mark_keeper")
