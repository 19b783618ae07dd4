"""Copies of a state by straight-line code generated from its slots: clones and snapshots.

:meth:`GameState.clone <mariage.engine.state.GameState.clone>` and undo's
journal (:meth:`GameState.undo <mariage.engine.state.GameState.undo>`) copy
every slot of a state. The copying code is generated the first time a state
of a class is copied, from the class's ``__slots__`` (so the slots other
mechanisms add are copied without anyone listing them), and the value each
slot then holds decides how it is copied: numbers, strings, tuples, frozen
records, the compiled rules and the mechanisms are read at once with
``operator.attrgetter`` and shared; lists are sliced (lists of lists one level
deeper); slots that held ``None`` or an empty list are checked at each copy;
the deal source is copied by its own ``clone()``. A snapshot keeps the lists that
are only appended to (:data:`APPEND_ONLY`: the hand's actions and tricks, the record
of hands) as they are with their lengths, and its restore cuts them back.

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("marianna"), seed=1)
>>> copy = clone_state(state)
>>> copy.hands == state.hands, copy.hands is state.hands, copy.rules is state.rules
(True, False, True)
>>> snap = snapshot_state(state)
>>> state.apply(state.legal_actions()[0])
>>> COPIERS[type(state)].restore(state, snap)
>>> state.hands == copy.hands
True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .. import codegen
from ..lazyrecord import frozen_record, is_frozen
from .freshhand import slots_of

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["APPEND_ONLY", "COPIERS", "HELD_AFTER_HAND", "Copiers", "clone_state",
           "copied_slots", "copiers_of", "snapshot_state"]

#: slots that the generated copies leave out: the undo journal and the marks' records
#: belong to one state
_UNCOPIED = frozenset({"_undo", "_marks"})


_COPIED: dict[type, tuple[str, ...]] = {}


def copied_slots(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases, in definition order, less :data:`_UNCOPIED`
    (worked out once a class)."""
    known = _COPIED.get(cls)
    if known is None:
        known = _COPIED[cls] = tuple(name for name in slots_of(cls) if name not in _UNCOPIED)
    return known


def _copy_source(source: Any) -> Any:
    """A copy of a deal source: by its own ``clone()`` if it has one, else a deep copy."""
    own = getattr(source, "clone", None)
    if own is not None:
        return own()
    import copy  # (here: copy imports weakref, which a command that copies nothing skips)

    rules = getattr(source, "rules", None)
    return copy.deepcopy(source, {} if rules is None else {id(rules): rules})


#: value classes a slot may share between copies without a check per copy
_SCALARS = (int, str, bytes, float, tuple, frozenset)

#: how the generated code copies one slot (see :func:`_slot_kind`)
_SHARED, _FLAT, _NESTED, _CHECKED, _SOURCE, _APPENDED = range(6)

#: list slots that are only ever appended to (or cut back, by undo) while a state lives,
#: until replaced by a new list: a snapshot keeps the list itself and its length, and
#: its restore cuts the list back to that length instead of copying it
APPEND_ONLY = frozenset({"actions", "tricks", "_history"})

#: the hand's lists that a journal entry made before the next deal may hold themselves
#: (not copies) once the hand is over: the trick's declarations, which the entry of a
#: trick's end keeps as they are (:data:`mariage.engine.trailplan.TRICK_HELD`: the next
#: trick's opening replaces the list rather than changing it), and which the hand end,
#: unlike the trick's two lists, does not replace. The next deal makes them anew, never
#: keeping one in place for the new hand (undo would give it back changed)
HELD_AFTER_HAND = frozenset({"decl_this_trick"})


def _slot_kind(name: str, value: Any) -> int:
    """How to copy slot ``name``, judged from its ``value`` in the first state copied.

    Numbers, strings, tuples (and enums, which are numbers or strings), the
    compiled rules and the mechanisms are shared; a list is copied, and its
    items too when they are lists; anything that could be either (``None``,
    an empty list) is checked at every copy.
    """
    if name == "deal_source":
        return _SOURCE
    if isinstance(value, _SCALARS) or \
            name in ("rules", "mech", "hooks", "_appliers", "_fresh"):
        return _SHARED
    if is_frozen(type(value)):  # a frozen record (rules of play, a result)
        return _SHARED
    if type(value) is list and name in APPEND_ONLY:
        return _APPENDED
    if type(value) is list and value:
        return _NESTED if type(value[0]) is list else _FLAT
    return _CHECKED


def _copy_code(kinds: Sequence[tuple[str, int]]) -> str:
    """The source of the straight-line copying functions for slots of these ``kinds``.

    Shared slots are read all at once (``operator.attrgetter``) and stored by
    one unpacking; each other slot gets its own copy. A list slot is copied
    without a check of its class: if it holds something else in another
    state, the copy raises ``TypeError`` and :func:`copiers_of` makes checked
    code instead.
    """
    shared = [name for name, kind in kinds if kind == _SHARED]
    rest = [(name, kind) for name, kind in kinds if kind != _SHARED]

    def copied(name: str, kind: int, target: str) -> str:
        if kind in (_FLAT, _APPENDED):  # (a clone copies an append-only list too)
            return f"    {target} = s.{name}[:]"
        if kind == _NESTED:
            return f"    {target} = _list(_map(_copy_list, s.{name}))"
        if kind == _SOURCE:
            return (f"    v = s.{name}\n    if v is not None:\n        v = _copy_source(v)\n"
                    f"    {target} = v")
        return (f"    v = s.{name}\n    if v.__class__ is _list:\n"
                "        v = v[:] if not v or v[0].__class__ is not _list else _checked(v)\n"
                f"    {target} = v")

    lines = ["def clone(s):", "    n = _new(s.__class__)"]
    if shared:
        lines.append("    (" + "".join(f"n.{name}, " for name in shared) + ") = _get(s)")
    lines += [copied(name, kind, f"n.{name}") for name, kind in rest]
    # (a new journal of the original's class: engine.journal.Journal, not imported here)
    lines += ["    n._undo = None if (j := s._undo) is None else j.__class__()",
              "    n._marks = None if (j := s._marks) is None else j.__class__()",
              "    return n", ""]
    # a snapshot keeps an append-only list itself and its length (cut back on restore)
    appended = [i for i, (_, kind) in enumerate(rest) if kind == _APPENDED]
    lines += ["def snapshot(s):"]
    lines += [f"    v{i} = s.{name}\n    n{i} = len(v{i})" if kind == _APPENDED
              else copied(name, kind, f"v{i}") for i, (name, kind) in enumerate(rest)]
    lines += ["    return _get(s) + (" + "".join(f"v{i}, " for i in range(len(rest)))
              + "".join(f"n{i}, " for i in appended) + ")", "", "def restore(s, snap):"]
    names = shared + [name for name, _ in rest]
    lines.append("    (" + "".join(f"s.{name}, " for name in names)
                 + "".join(f"n{i}, " for i in appended) + ") = snap")
    lines += [f"    del s.{rest[i][0]}[n{i}:]" for i in appended]
    return "\n".join(lines) + "\n"


def _checked(value: Any) -> Any:
    """A copy of ``value`` if it is a list (and of its items if they are lists), else itself."""
    if type(value) is list:
        return [v[:] for v in value] if value and type(value[0]) is list else value[:]
    return value


@frozen_record
class Copiers:
    """The generated copying functions of one state class."""

    clone: Callable[[GameState], GameState]
    snapshot: Callable[[GameState], tuple[Any, ...]]
    restore: Callable[[GameState, tuple[Any, ...]], None]
    checked: bool  # every list slot checked at each copy


COPIERS: dict[type, Copiers] = {}


def copiers_of(cls: type, sample: GameState, checked: bool = False) -> Copiers:
    """The copying functions of ``cls``, generated from its slots on first use.

    The kind of each slot is judged from ``sample``, the first state of the
    class copied (:func:`_slot_kind`). ``checked`` makes (and keeps) code that
    checks every list slot, for a class whose list slots are not always lists.
    """
    found = COPIERS.get(cls)
    if found is None or (checked and not found.checked):
        missing = object()
        kinds = [(name, _slot_kind(name, getattr(sample, name, missing)))
                 for name in copied_slots(cls)]
        if checked:
            kinds = [(n, _CHECKED if k in (_FLAT, _NESTED, _APPENDED) else k) for n, k in kinds]
        shared = tuple(name for name, kind in kinds if kind == _SHARED)
        namespace: dict[str, Any] = {"_list": list, "_new": object.__new__, "_map": map,
                                     "_copy_list": list.copy,
                                     "_copy_source": _copy_source, "_checked": _checked,
                                     "_get": operator.attrgetter(*shared) if len(shared) > 1
                                     else (lambda s: tuple(getattr(s, n) for n in shared))}
        codegen.run(_copy_code(kinds), f"<copiers of {cls.__qualname__}>", namespace)
        found = COPIERS[cls] = Copiers(namespace["clone"], namespace["snapshot"],
                                         namespace["restore"], checked)
    return found


def _copied(state: GameState, kind: str) -> Any:
    """Run the generated copier ``kind`` (``clone`` or ``snapshot``) on ``state``; where a
    list slot holds something else, once more with checked code."""
    cls = type(state)
    copiers = COPIERS.get(cls) or copiers_of(cls, state)
    try:
        return getattr(copiers, kind)(state)
    except TypeError:
        if copiers.checked:
            raise
        return getattr(copiers_of(cls, state, checked=True), kind)(state)


def clone_state(state: GameState) -> GameState:
    """An independent copy of ``state`` (:meth:`GameState.clone
    <mariage.engine.state.GameState.clone>`), undo on with an empty journal if it is on."""
    clone: GameState = _copied(state, "clone")
    return clone


def snapshot_state(state: GameState) -> tuple[Any, ...]:
    """Every copied slot of ``state`` in one tuple, for :attr:`Copiers.restore`."""
    snap: tuple[Any, ...] = _copied(state, "snapshot")
    return snap
