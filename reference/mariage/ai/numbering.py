"""The fixed numbering of a ruleset's actions for the AI integrations, listed once per
rules object: the actions in the order of their ids, the ids by action and by kind, and
the function listing the ids of a set of cards from its bits
(:class:`~mariage.ai.encoding.ActionSpace` copies what it needs from here, as each
environment makes its space anew); and an action id as an agent hands it over, read as a
whole number (:func:`action_number`).

>>> from mariage import load_rules
>>> rules = load_rules("schnapsen")
>>> actions, ids, by_kind = numbering(rules)
>>> numbering(rules)[0] is actions and all(ids[a] == i for i, a in enumerate(actions))
True
>>> id_lister((7, 8, 9))(0b101)
[7, 9]
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from mariage.engine.fastpath import bit_tables, table_lister
from mariage.engine.rules import Rules

from .layout import AIAction, action_list

__all__ = ["action_number", "episode_limit", "id_lister", "numbering"]


@lru_cache(maxsize=64)
def id_lister(ids: tuple[int, ...]) -> Callable[[int], list[int]]:
    """The function listing ``ids[c]`` for each bit ``c`` of its argument, in bit order
    (:func:`~mariage.engine.fastpath.table_lister`), made once per numbering."""
    return table_lister(bit_tables(ids))


#: per rules (by id, the rules kept to check it): the actions of the fixed numbering,
#: their ids, and the ids of the kinds of action without fields
_KEPT: dict[int, tuple[Rules, tuple[AIAction, ...], dict[AIAction, int],
                       dict[type, int]]] = {}


def numbering(rules: Rules) -> tuple[tuple[AIAction, ...], dict[AIAction, int],
                                     dict[type, int]]:
    """The actions of ``rules`` in the order of their ids
    (:func:`~mariage.ai.layout.action_list`), the ids by action, and the ids of the kinds
    without fields by kind: listed once per rules (at most 64 kept), as every environment
    makes its space anew (listing them, each text read back, took 0.4-0.5 ms of the
    0.8 ms an environment took to make in German Marjapussi and Thousand for two). The
    dicts are not to be changed (a space copies them)."""
    hit = _KEPT.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_KEPT) >= 64:
            _KEPT.clear()
        actions = action_list(rules)
        by_class = {type(a): i for i, a in enumerate(actions)
                    if dataclasses.is_dataclass(a) and not dataclasses.fields(a)}
        hit = _KEPT[id(rules)] = (rules, actions,
                                  {a: i for i, a in enumerate(actions)}, by_class)
    return hit[1], hit[2], hit[3]


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
