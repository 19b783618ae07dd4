"""A game state for :mod:`pickle`: what is kept, and what is made again on loading.

A state pickles every slot it has set but the code made from its rules and mechanisms
(the dispatch table, the fresh-hand resetter, the generated deals), which loading makes
again, and undo's journal or marks, kept as an empty list where undo is on (the
journal's snapshots hold that code). :class:`~mariage.engine.state.GameState`'s
``__getstate__`` and ``__setstate__`` are these two functions.

>>> import pickle
>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("marianna"), 1)
>>> state.enable_undo()
>>> copy = pickle.loads(pickle.dumps(state))
>>> copy.legal_actions() == state.legal_actions(), copy._undo is not None
(True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .dispatch import dispatch_of
from .freshhand import hand_resetter, slots_of
from .journal import Journal, Marks

if TYPE_CHECKING:
    from .state import GameState

#: slots made from the rules and mechanisms (generated code): not pickled, made again
DERIVED = ("_appliers", "_deals", "_fresh", "_lays")


def saved_state(state: GameState) -> dict[str, Any]:
    """Every slot of ``state`` that is set, but the :data:`DERIVED` ones; undo's journal
    and marks as an empty list where undo is on (None where off)."""
    saved = {name: getattr(state, name) for name in slots_of(type(state))
             if name not in DERIVED and hasattr(state, name)}
    saved["history"] = state.history  # (the records made: the pickle holds them)
    del saved["_history"]
    saved["_undo"] = None if state._undo is None else []
    saved["_marks"] = None if state._marks is None else []
    return saved


def restore_state(state: GameState, saved: dict[str, Any]) -> None:
    """Set ``state``'s slots from :func:`saved_state`'s dict and make the
    :data:`DERIVED` ones again, with undo on, empty, where it was on."""
    for name, value in saved.items():
        setattr(state, name, value)
    if state._undo is not None:  # (saved as an empty list)
        state._undo = Journal()
    state._marks = Marks() if getattr(state, "_marks", None) is not None else None
    state._appliers = dispatch_of(state.mech, state.rules)
    state._fresh = hand_resetter(type(state), state.rules)
    state._deals = state.mech.dealing.dealer_takes(state)
    state._lays = state.mech.dealing.dealer_lays(state)
