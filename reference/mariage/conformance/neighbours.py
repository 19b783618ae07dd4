"""Focused tests against the wrong house rule: the configuration and its neighbours.

An engine written for one set of house rules most likely goes wrong by
playing another value of one option: closing the talon where the house forbids
it, counting a marriage at once where the house waits for a trick. A
*neighbour* of a configuration is the same configuration with one option at
another value (:func:`neighbours`: every other value of a ``bool`` or an
``enum``; for a whole number the values one below and one above, and the
default, within the option's range). For each neighbour the reference playing
it is searched against the reference playing the configuration, on seeded
deals side by side, as for a faulty engine
(:func:`~mariage.conformance.faultsearch.first_difference`); the first step
where they differ becomes a focused test ``RULESET/neighbour/NAME-VALUE`` that
names the rules the option governs (the rulebook's ``option`` entries of each
rule, :attr:`~mariage.engine.rules.RuleInfo.options`) and the rule the
reference refuses by at that step, if it is a refusal. A failure at that step
is charged to the governed rules.

>>> from mariage.conformance.configuration import make_configuration
>>> config = make_configuration("schnapsen", ["close_allowed=false"])
>>> neighbours(config)[:3]
[('match_target', 6), ('match_target', 8), ('bummerl_schneider_double', True)]
>>> test, why = search_neighbour(config, "close_allowed", True)
>>> test["id"], test["steps"][-1]["act"], test["steps"][-1]["error"]["rule"]
('schnapsen/neighbour/close_allowed-true', 'close', 'core.phase')
"""

from __future__ import annotations

import re
from typing import Any

from mariage.engine.rules import Rules
from mariage.spec.compile import build
from mariage.spec.inforce import not_in_force
from mariage.spec.options import given_only
from mariage.spec.specload import Document, load_document

from ..errors import MariageError
from .configuration import Configuration, effective_options, option_specs, show_value
from .faultkit import Fault
from .faultsearch import first_difference, focused_test, same_rules
from .faulty import FaultyEngine

__all__ = ["NEIGHBOUR_MATCHES", "NEIGHBOUR_STEPS", "governed", "neighbour_tests", "neighbours",
           "search_neighbour"]

#: How many seeded deals the search plays at most for one neighbour (then the deals
#: of the stored tests naming a governed rule), and how many steps of each: fewer than
#: for a faulty engine, since there are many neighbours (a hundred in Thousand) and
#: most show their difference in the first deal or never.
NEIGHBOUR_MATCHES = 3
NEIGHBOUR_STEPS = 400


def _values(spec: dict[str, Any], have: Any) -> list[Any]:
    """The other values of one option: every other one of a ``bool`` or an ``enum``; for a
    whole number, one below, one above and the default, within its range."""
    kind = spec.get("type")
    if kind == "bool":
        return [not have]
    if kind == "int" and isinstance(have, int):
        lo, hi = spec.get("min"), spec.get("max")
        out = []
        for v in (have - 1, have + 1, spec.get("default")):
            if isinstance(v, int) and (lo is None or v >= lo) and (hi is None or v <= hi) \
                    and v != have and v not in out:
                out.append(v)
        return out
    return [v for v in spec.get("values") or () if not (type(v) is type(have) and v == have)]


def neighbours(config: Configuration) -> list[tuple[str, Any]]:
    """Every neighbour of ``config``: (option, its other value), in the order of the
    options."""
    have = effective_options(config.ruleset, config.options)
    return [(name, value) for name, spec in option_specs(config.ruleset).items()
            for value in _values(spec, have.get(name))]


def governed(rules: Rules, option: str) -> list[str]:
    """The rules ``option`` governs (its values leave them different), in document order.

    >>> from mariage import load_rules
    >>> governed(load_rules("schnapsen"), "marriage_lead")
    ['schnapsen.decl.lead']
    """
    return [i.id for i in rules.infos if option in i.options]


def search_neighbour(config: Configuration, option: str, value: Any,
                     doc: Document | None = None) -> tuple[dict[str, Any] | None, str]:
    """The focused test that tells ``config`` from its neighbour with ``option`` at
    ``value``, and ``""``; or ``None`` and why there is none. ``doc``: the description
    of ``config``'s ruleset, if loaded already (the neighbour is compiled from it)."""
    show = f"{option}={show_value(value)}"
    doc = doc if doc is not None else load_document(config.ruleset)
    try:
        theirs = build(doc, given_only(doc, {**config.options, option: value}))
    except MariageError as exc:
        return None, f"it does not go with the configuration: {exc}"
    rules = config.rules
    names = governed(rules, option)
    if not names:
        return None, f"option {option} governs no rule"
    if theirs.nseats != rules.nseats:
        return None, (f"it is played by {theirs.nseats} players: an engine of it fails "
                      "every test at the start")
    if same_rules(rules, theirs):
        return None, "it compiles to the same rules"
    off = set(not_in_force(rules)) & set(not_in_force(theirs))
    if all(name in off for name in names):
        return None, (f"option {option} governs only rules not in force under both "
                      f"({', '.join(names)})")
    fault = Fault(f"neighbour {show}", names[0], (), f"{config.name} with {show}",
                  patch=lambda _rules: theirs)
    engine = FaultyEngine(fault)
    got = first_difference(config, engine, engine.make_rules(config.ruleset, config.options),
                           names, matches=NEIGHBOUR_MATCHES, max_steps=NEIGHBOUR_STEPS)
    if isinstance(got, int):
        return None, (f"it plays as the configuration in {NEIGHBOUR_MATCHES} seeded deals "
                      f"and the deals of the stored tests of its rules ({got} steps)")
    walk, found, where = got
    description = (f"Found by search for the neighbouring configuration {show} (the "
                   f"configuration with one option at another value): the first step "
                   f"where it and {config.label} differ, in the deal of {where}.")
    slug = re.sub(r"[^A-Za-z0-9_.]+", "-", show_value(value))
    return focused_test(config, walk, found, f"{config.name}/neighbour/{option}-{slug}",
                        description, names, names), ""


def neighbour_tests(config: Configuration) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The focused test of each neighbour of ``config`` that plays otherwise, and why
    there is none for the others (both by ``NAME=VALUE``)."""
    found: dict[str, dict[str, Any]] = {}
    why: dict[str, str] = {}
    doc = load_document(config.ruleset)
    for name, value in neighbours(config):
        show = f"{name}={show_value(value)}"
        test, reason = search_neighbour(config, name, value, doc)
        if test is not None:
            found[show] = test
        else:
            why[show] = reason
    return found, why
