"""What pyspiel's ``clone()`` of a Python state copies, made cheap.

pyspiel clones a Python game's state by making a new initial state and then
calling :func:`copy.deepcopy` on each attribute of the old one, one by one (the
state's own ``__deepcopy__`` is never asked). A state of :mod:`mariage.ai.openspiel_game`
holds tables shared by every state of its game (the action space, the chance
outcomes, the card plays) and lists whose items are never changed once made (the
decisions of the hand); a plain deep copy walks all of them, which made one
clone cost milliseconds. The two containers here tell :func:`copy.deepcopy`
what is safe: a :class:`SharedTuple` is returned as is, a :class:`StepList` is
copied one level deep (a new list of the same items).

>>> import copy
>>> rows = SharedTuple(((0, 0.5), (1, 0.5)))
>>> copy.deepcopy(rows) is rows
True
>>> steps = StepList([(0, 3, None, ())])
>>> again = copy.deepcopy(steps)
>>> again == steps, again is steps, again[0] is steps[0], type(again).__name__
(True, False, True, 'StepList')

A state keeps its fields in slots (cheaper to read and write than its instance dict's
items): pyspiel's clone reads the state's ``__dict__``, which the state makes by
:func:`fields_set`.

>>> class Point:
...     __slots__ = ("x", "y")
>>> p = Point()
>>> p.x = 1
>>> fields_set(p, ("x", "y")), field(p, "y") is UNSET
({'x': 1}, True)
"""

from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["UNSET", "SharedTuple", "StepList", "field", "fields_set"]

T = TypeVar("T")

#: what :func:`field` gives for a field not set
UNSET: Any = object()


def field(obj: object, name: str) -> Any:
    """The field ``name`` of ``obj``, or :data:`UNSET` where it is not set (read as
    ``object`` reads it: no ``__getattr__`` asked)."""
    try:
        return object.__getattribute__(obj, name)
    except AttributeError:
        return UNSET


def fields_set(obj: object, names: tuple[str, ...]) -> dict[str, Any]:
    """The fields ``names`` of ``obj`` that are set, by name (a new dict)."""
    return {name: value for name in names if (value := field(obj, name)) is not UNSET}


class SharedTuple(tuple[T, ...]):
    """A tuple whose items are never changed: a deep copy is the tuple itself."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> SharedTuple[T]:
        return self


class StepList(list[T]):
    """A list whose items are never changed once appended: a deep copy is a new list
    of the same items."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> StepList[T]:
        return StepList(self)
