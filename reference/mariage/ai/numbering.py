"""The fixed numbering of a ruleset's actions for the AI integrations, listed once per
rules object: the actions in the order of their ids, the ids by action and by kind, and
the store of the long listings seen (:class:`~mariage.ai.listed.KeptListings`, shared by
every action space of the numbering: by PettingZoo's, Gymnasium's and OpenSpiel's
environments alike, so that an environment made anew finds what its ruleset's
environments kept); the function listing the ids of a set of cards from its bits
(:class:`~mariage.ai.encoding.ActionSpace` takes what it needs from here, as each
environment makes its space anew); and an action id as an agent hands it over, read as a
whole number (:func:`action_number`).

>>> from mariage import load_rules
>>> rules = load_rules("schnapsen")
>>> actions, ids, by_kind, listed = numbering(rules)
>>> numbering(rules).listed is listed and all(ids[a] == i for i, a in enumerate(actions))
True
>>> id_lister((7, 8, 9))(0b101)
[7, 9]
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from mariage.engine.fastpath import bit_tables, table_lister
from mariage.engine.rules import Rules

from .layout import AIAction, action_list
from .listed import KeptListings

__all__ = ["Numbering", "action_number", "episode_limit", "id_lister", "numbering"]


@lru_cache(maxsize=64)
def id_lister(ids: tuple[int, ...]) -> Callable[[int], list[int]]:
    """The function listing ``ids[c]`` for each bit ``c`` of its argument, in bit order
    (:func:`~mariage.engine.fastpath.table_lister`), made once per numbering."""
    return table_lister(bit_tables(ids))


#: how many long listings the store of a numbering keeps (cleared when full): every
#: slice of an auction's ladder seen, a lead's questions, a contract's raises...
LISTINGS_KEPT = 1024


class Numbering(NamedTuple):
    """The fixed numbering of a ruleset's actions, shared by every action space of the
    rules (:func:`numbering`)."""

    #: the actions in the order of their ids
    actions: tuple[AIAction, ...]
    #: the id of each action (never changed: a space shows it read only)
    ids: dict[AIAction, int]
    #: the ids of the kinds of action without fields, by kind
    by_class: dict[type, int]
    #: the long listings seen with their ids and masks, by their objects (every space of
    #: the numbering reads and fills it)
    listed: KeptListings


#: per rules (by id, the rules kept to check it): their numbering
_KEPT: dict[int, tuple[Rules, Numbering]] = {}


def numbering(rules: Rules) -> Numbering:
    """The :class:`Numbering` of ``rules``: the actions in the order of their ids
    (:func:`~mariage.ai.layout.action_list`), the ids by action, the ids of the kinds
    without fields by kind, and the store of the listings seen: made once per rules (at
    most 64 kept), as every environment makes its space anew (listing them, each text
    read back, took 0.4-0.5 ms of the 0.8 ms an environment took to make in German
    Marjapussi and Thousand for two). The dicts are not to be changed (a space shows
    ``ids`` read only, and copies the others)."""
    hit = _KEPT.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_KEPT) >= 64:
            _KEPT.clear()
        actions = action_list(rules)
        by_class = {type(a): i for i, a in enumerate(actions)
                    if dataclasses.is_dataclass(a) and not dataclasses.fields(a)}
        hit = _KEPT[id(rules)] = (rules, Numbering(
            actions, {a: i for i, a in enumerate(actions)}, by_class,
            KeptListings(len(actions), LISTINGS_KEPT)))
    return hit[1]


def action_number(action: object) -> int | None:
    """``action`` as a whole number (a Python or numpy integer, a 0-d integer array), or
    ``None``: a bool, a float (even ``2.0``), a string or an array of more than one value
    is not an action id, and is never truncated or read as one.

    >>> import numpy as np
    >>> [action_number(a) for a in (3, np.int64(3), np.array(3), 3.0, True, "3", [3])]
    [3, 3, 3, None, None, None, None]
    """
    if action.__class__ is int:
        return action
    if isinstance(action, bool | np.bool_):
        return None
    try:
        return operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None


def episode_limit(max_hands: object) -> int:
    """``max_hands`` of an environment (the hands after which an episode is truncated):
    a whole number of at least 1, else ValueError saying so.

    >>> episode_limit(0)
    Traceback (most recent call last):
    ...
    ValueError: max_hands must be a whole number of hands, at least 1, not 0
    """
    hands = action_number(max_hands)
    if hands is None or hands < 1:
        raise ValueError(f"max_hands must be a whole number of hands, at least 1, "
                         f"not {max_hands!r}")
    return hands
