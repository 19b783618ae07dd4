"""An action's fields checked before it is applied: each of the type it declares.

An action is a small record of whole numbers and truth values (:mod:`.actions`). One made
by hand with a field of another type (``Bid(None)``, ``Give("x")``, ``Raise([])``) used to
reach the mechanisms, which compared it with a number (a bare ``TypeError``) or took it
for a legal action (``Raise(None)`` as ``Raise(0)``; ``Declare(0, 1, "x")`` as a
declaration that makes trump). :func:`check_fields` refuses it first, as an
:class:`~mariage.errors.IllegalActionError` under ``core.phase`` naming the field; a
``suit`` is -1 (none, any) or a suit number (``Take(-5)`` was taken as ``Take(-1)``).
Cards (:class:`.Play`) are checked by the card play itself, on its own fast path.

>>> from mariage.engine.actions import Bid, Take
>>> why(Bid(None))
'value is a whole number, not None (NoneType)'
>>> why(Take(-5)), why(Bid(100))
('suit is -1 (none) or a suit number, not -5', None)
"""

from __future__ import annotations

from collections.abc import Callable
from keyword import iskeyword
from typing import TYPE_CHECKING, Any

from ..errors import shown
from .arguments import seat_number
from .mechanisms import refuse

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["FIELDS_OK", "check_fields", "why"]

#: action type -> its (field, int or bool) pairs, read once from its annotations
_KINDS: dict[type, tuple[tuple[str, type], ...]] = {}

_WHAT = {int: "a whole number", bool: "true or false"}


def _kinds(kind: type) -> tuple[tuple[str, type], ...]:
    hit = _KINDS.get(kind)
    if hit is None:
        declared = getattr(kind, "__annotations__", {})
        hit = tuple((name, int if text in ("int", int) else bool)
                    for name, text in declared.items() if text in ("int", "bool", int, bool))
        if len(_KINDS) < 256:  # bounded, whatever classes a caller makes
            _KINDS[kind] = hit
    return hit


def why(action: object) -> str | None:
    """Why a field of ``action`` can name nothing of any rules; None if each is of its type."""
    for name, kind in _kinds(type(action)):
        value = getattr(action, name, None)
        if type(value) is not kind:
            return f"{name} is {_WHAT[kind]}, not {shown(value, 43)} ({type(value).__name__})"
        if name == "suit" and isinstance(value, int) and value < -1:  # (a bid's suit may
            # be past the suits: no trump, all trumps)
            least = value if value > -10 ** 20 else "less"
            return f"suit is -1 (none) or a suit number, not {least}"
    return None


class _FieldChecks(dict[type, "Callable[[object], bool] | None"]):
    """Action type -> a function telling whether an action's fields are each of their
    type (and a suit not below -1), written for the type the first time it is asked;
    ``None`` for a type without such fields. A lookup and one call per action, where
    :func:`why` walks the fields by name: :meth:`GameState.apply` asks this first and
    :func:`check_fields` only where it says no.

    >>> from mariage.engine.actions import Bid, Pass
    >>> FIELDS_OK[Bid](Bid(100)), FIELDS_OK[Bid](Bid(None)), FIELDS_OK[Pass]
    (True, False, None)
    """

    def __missing__(self, kind: type) -> Callable[[object], bool] | None:
        fields = _kinds(kind)
        made: Callable[[object], bool] | None = None
        if any(not name.isidentifier() or iskeyword(name) for name, _ in fields):
            made = _by_why  # (names no code may be written with: a caller's odd class)
        elif fields:
            tests = [f"type(a.{name}) is {want.__name__}" for name, want in fields]
            tests += [f"a.{name} >= -1" for name, _ in fields if name == "suit"]
            space: dict[str, Any] = {}
            exec(f"def ok(a):\n    return {' and '.join(tests)}\n", space)
            made = space["ok"]
        if len(self) < 256:  # bounded, whatever classes a caller makes
            self[kind] = made
        return made


def _by_why(action: object) -> bool:
    return why(action) is None


#: the field checks by action type (see :class:`_FieldChecks`)
FIELDS_OK = _FieldChecks()


def check_fields(st: GameState, action: object, seat: int | None) -> None:
    """Refuse ``action`` [core.phase] if a field is not of its type (see :func:`why`);
    a ``seat`` that is no seat of the table is refused first, as by ``apply``."""
    if seat is not None:
        seat_number(seat, st.rules.nseats, "apply: seat")
    reason = why(action)
    if reason is not None:
        refuse(st, st.rules.core_phase, st.to_act if seat is None else seat,
               action, reason)  # type: ignore[arg-type]
