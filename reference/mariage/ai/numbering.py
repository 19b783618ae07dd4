"""The fixed numbering of a ruleset's actions for the AI integrations, listed once per
rules object: the actions in the order of their ids, the ids by action and by kind, and
the function listing the ids of a set of cards from its bits
(:class:`~mariage.ai.encoding.ActionSpace` copies what it needs from here, as each
environment makes its space anew).

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
from collections.abc import Callable
from functools import lru_cache

from mariage.engine.fastpath import bit_tables, table_lister
from mariage.engine.rules import Rules

from .layout import AIAction, action_list

__all__ = ["id_lister", "numbering"]


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
