"""What an entry of ``GameState.declared`` stands for, by name.

The engine keeps each hand's declarations as ``(seat, kind, suit, value)``
integers: ``kind`` is the index of a declaration of the rules (``0, 1, ...``),
``-1 - i`` for a split marriage completed through ask ``i``, or
:data:`~mariage.engine.mechanisms.questions.CALLED_PAIR` for a pair called in
a bidding game (announced, or found by a question to the partner).
:func:`declared_kind` turns that number into what a reader wants: which
mechanism made it, its name and the rule that runs it, so that nobody outside
the engine indexes ``rules.declarations`` or ``rules.asks`` with it.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms.questions import CALLED_PAIR
>>> declared_kind(load_rules("marianna"), 0)
DeclaredKind(source='declaration', name='marianna', rule='marianna.decl.marianna')
>>> declared_kind(load_rules("marjapussi-de"), CALLED_PAIR)
DeclaredKind(source='call', name='pair', rule='marjapussi-de.calls.pair')
>>> declared_kind(load_rules("marianna"), 7)
Traceback (most recent call last):
...
ValueError: no declaration 7 in marianna
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazyrecord import frozen_record
from .mechanisms.questions import CALLED_PAIR

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["DeclaredKind", "declared_kind"]


@frozen_record  # a frozen dataclass whose methods are made on first use (start-up)
class DeclaredKind:
    """One kind of entry of ``GameState.declared``.

    ``source`` is ``declaration`` (a declaration of the rules), ``ask`` (a split
    marriage completed through an ask to the partner) or ``call`` (a pair called
    in a bidding game); ``name`` is the declaration's, the ask's, or ``pair``;
    ``rule`` is the ID of the rule that makes it.
    """

    source: str
    name: str
    rule: str


def declared_kind(rules: Rules, kind: int) -> DeclaredKind:
    """The entry ``kind`` of ``GameState.declared`` of ``rules`` by name.

    Raises ``ValueError`` for a number the rules never store.
    """
    if kind == CALLED_PAIR and rules.calls_rule is not None:
        return DeclaredKind("call", "pair", rules.call_pair_rule or rules.calls_rule)
    if 0 <= kind < len(rules.declarations):
        d = rules.declarations[kind]
        return DeclaredKind("declaration", d.name, d.rule)
    if 0 <= -1 - kind < len(rules.asks):
        a = rules.asks[-1 - kind]
        return DeclaredKind("ask", a.name, a.rule)
    raise ValueError(f"no declaration {kind} in {rules.ruleset}")
