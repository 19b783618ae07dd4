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
from typing import SupportsIndex, cast

from ..errors import SeatError, shown
from .rules import Rules

__all__ = ["check_rules", "seat_number"]


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


def check_rules(rules: object) -> None:
    """TypeError unless ``rules`` is a compiled :class:`Rules` (a name is not)."""
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules (load_rules(name) makes one), "
                        f"not {type(rules).__name__}")
