"""The arguments the engine's API is given, checked: a seat number, compiled rules.

>>> seat_number(2, 4, "observe: seat")
2
>>> seat_number(True, 4, "apply: seat")
Traceback (most recent call last):
    ...
mariage.errors.SeatError: apply: seat must be a seat number from 0 to 3, not True
"""

from __future__ import annotations

import operator
from typing import Any, SupportsIndex, cast

from ..errors import SeatError, shown
from .rules import Rules

__all__ = ["check_rules", "check_state", "register_state_class", "seat_number"]


def seat_number(value: object, nseats: int, what: str, kind: str = "seat") -> int:
    """``value`` as a seat number (an integer from 0 to ``nseats - 1``), or
    :class:`~mariage.errors.SeatError` (a ``ValueError``) naming ``what``: a bool, a
    float, a string or a seat out of range is refused. ``kind`` names what is numbered
    (``"side"`` for a team)."""
    try:
        seat = operator.index(cast(SupportsIndex, value))
    except TypeError:
        seat = -1
    if isinstance(value, bool) or not 0 <= seat < nseats:
        raise SeatError(f"{what} must be a {kind} number from 0 to {nseats - 1}"
                        f"{' (or None)' if what == 'first_dealer' else ''}, not {shown(value)}")
    return seat


def check_rules(rules: object, call: str = "") -> None:
    """TypeError unless ``rules`` is a compiled :class:`Rules` (a name is not); ``call``,
    the function given them, heads the message."""
    if not isinstance(rules, Rules):
        raise TypeError(f"{call + ': ' if call else ''}rules must be a Rules "
                        f"(load_rules(name) makes one), "
                        f"not {type(rules).__name__}")


#: The class of game states, named by :mod:`mariage.engine.state` as it is imported:
#: this module lies below it (importing it would close a cycle), and no state can
#: exist before it is imported.
_STATE_CLASS: list[type] = []


def register_state_class(cls: type) -> None:
    """Name the class :func:`check_state` takes (:class:`~mariage.engine.state.GameState`)."""
    _STATE_CLASS[:] = [cls]


def check_state(state: object, call: str) -> Any:
    """``state`` if it is a game state, else a ``TypeError`` naming ``call`` (a function
    of the API given a record, the rules or ``None`` failed deep inside, as an
    ``AttributeError``). For the modules below :mod:`mariage.engine.state`."""
    if not (_STATE_CLASS and isinstance(state, _STATE_CLASS[0])):
        raise TypeError(f"{call}: the state is a GameState, not {type(state).__name__}")
    return state
