"""The subsets of a group of eight items, as tables indexed by their bits: how the
generated code lists the cards of a hand's bits eight at a time
(:func:`mariage.engine.fastpath.bit_tables`, the sets of cards passed of
:mod:`mariage.engine.mechanisms.passing`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["subset_table"]


def subset_table(group: Sequence[Any]) -> tuple[tuple[Any, ...], ...]:
    """For each subset ``bits`` of ``range(8)``, the items of ``group`` at the bits set,
    in order (bits past the group's end list nothing): each subset is its lowest item
    put before the subset without it, made once (a new process builds these tables for
    every ruleset it plays, so their making counts in a command's start-up).

    >>> subset_table("abc")[0b101], subset_table("abc")[0b1000_0110], len(subset_table("a"))
    (('a', 'c'), ('b', 'c'), 256)
    """
    table: list[tuple[Any, ...]] = [()] * 256
    for bits in range(1, 256):
        low = bits & -bits
        i = low.bit_length() - 1
        rest = table[bits ^ low]
        table[bits] = (group[i], *rest) if i < len(group) else rest
    return tuple(table)
