"""The faulty engines' common parts: the :class:`Fault` record, the registry
and the patches that change compiled rules or swap one mechanism.

The faults themselves are in :mod:`mariage.conformance.faulty_core` (the
original games), :mod:`~mariage.conformance.faulty_talon` (Schnapsen and
Sixty-six) and :mod:`~mariage.conformance.faulty_bidding` (German
Marjapussi); :mod:`mariage.conformance.faulty` serves them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, cast

from mariage.engine.mechanisms import (
    DEFAULT_MECHANISMS,
    Mechanism,
    Mechanisms,
)
from mariage.engine.rules import Obligation, Rules
from mariage.engine.state import GameState

__all__ = ["FAULTS", "Fault", "RulesPatch"]

RulesPatch = Callable[[Rules], Rules]


@dataclass(frozen=True)
class Fault:
    """One faulty engine: the rule it breaks, how, and where that shows."""

    name: str
    rule: str
    rulesets: tuple[str, ...]
    description: str
    patch: RulesPatch | None = None
    state_class: type[GameState] | None = None
    mechanisms: Mechanisms | None = None


FAULTS: dict[str, Fault] = {}


def _fault(name: str, rule: str, rulesets: str, description: str,
           patch: RulesPatch | None = None, state_class: type[GameState] | None = None,
           mechanisms: Mechanisms | None = None, duty: str = "", **fields: Any) -> None:
    """Register the faulty engine ``name``, which breaks ``rule`` in ``rulesets``.

    ``fields`` is a shorthand for the patch that sets those fields where the compiled
    rules have ``rule`` (:func:`_when`); with ``duty``, the fields of the play duties
    whose ``duty`` field (``head_rule``, ``void_rule``...) is ``rule`` (:func:`_obligations`,
    ``phases`` among the fields).
    """
    if fields:
        assert patch is None, f"fault {name}: a patch and fields"
        patch = _obligations_patch(duty, rule, **fields) if duty else _when_patch(rule, **fields)
    FAULTS[name] = Fault(name, rule, tuple(rulesets.split()), description, patch, state_class,
                         mechanisms)


def _when_patch(rule: str, **fields: Any) -> RulesPatch:
    """A patch of the top-level ``fields`` of the rules that have ``rule``."""
    return lambda rules: _when(rules, rule, **fields)


def _obligations_patch(duty: str, rule: str, **fields: Any) -> RulesPatch:
    """A patch of the play duties whose field ``duty`` (``head_rule``...) is ``rule``."""
    return lambda rules: _obligations(rules, duty, rule, **fields)



# ----------------------------------------------------------------- rules patches
def _decls(rules: Rules, rule_field: str, rule_id: str, **changes: Any) -> Rules:
    """Change the declarations whose ``rule_field`` is ``rule_id``."""
    decls = tuple(replace(d, **changes) if getattr(d, rule_field) == rule_id else d
                  for d in rules.declarations)
    return replace(rules, declarations=decls)


def _obligations(rules: Rules, rule_field: str, rule_id: str, phases: str = "stock no_stock",
                 **changes: Any) -> Rules:
    """Change the play duties whose ``rule_field`` is ``rule_id``."""
    def fix(ob: Obligation | None) -> Obligation | None:
        if ob is None or getattr(ob, rule_field) != rule_id:
            return ob
        return replace(ob, **changes)
    out = rules
    if "no_stock" in phases.split():
        out = replace(out, obligation_no_stock=fix(out.obligation_no_stock))
    if "stock" in phases.split():
        out = replace(out, obligation_stock=fix(out.obligation_stock))
    return out


def _when(rules: Rules, rule_id: str, **changes: Any) -> Rules:
    """Change top-level fields of ``rules`` if it has rule ``rule_id``."""
    return replace(rules, **changes) if rule_id in rules.rule_ids else rules


def _no_cutoff(rules: Rules, rule: str = "marianna.decl.window") -> Rules:
    """Declarations (of every kind the cut-off ``rule`` binds) go on after the stock."""
    if rule not in rules.rule_ids:
        return rules
    rules = replace(rules, decl_window="hand", decl_window_any="hand")
    return _decls(rules, "window_rule", rule, window="hand")


def _points(rules: Rules) -> Rules:
    if "marianna.pack" not in rules.rule_ids:
        return rules
    ace = rules.ranks.index("A")
    pts = tuple(10 if rules.rank_of[c] == ace else p for c, p in enumerate(rules.points))
    return replace(rules, points=pts)


def _asks(rules: Rules, rule_field: str, rule_id: str, **changes: Any) -> Rules:
    asks = tuple(replace(a, **changes) if getattr(a, rule_field) == rule_id else a
                 for a in rules.asks)
    return replace(rules, asks=asks)


def _exchange_two(rules: Rules) -> Rules:
    if rules.exchange_rule != "mariazza.exchange":
        return rules
    return replace(rules, exchange_rank=rules.ranks.index("2"))



def _m(**changes: Mechanism) -> Mechanisms:
    """The reference mechanisms with some replaced."""
    return replace(DEFAULT_MECHANISMS, **cast(dict[str, Any], changes))

