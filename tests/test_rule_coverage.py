"""Every rule ID of every bundled ruleset has a per-rule test, and every option value too.

The per-rule test modules mark their tests with :func:`rulekit.covers`; importing
them fills :data:`rulekit.COVERAGE`. Rule IDs are collected from each ruleset
loaded with its default options and with every value of every option (an
option may switch rules on, or replace one by another).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import pytest
from mariage import list_rulesets, load_rules
from mariage.spec.compile import option_specs
from mariage.spec.options import playable
from mariage.spec.specload import load_document
from rulekit import COVERAGE, Mark

MODULES = ["test_rules_core", "test_rules_marianna", "test_rules_siciliana",
           "test_rules_cinquecento", "test_rules_mariglia", "test_rules_mariaggia",
           "test_rules_marjapussi", "test_rules_mariazza", "test_rules_schnapsen",
           "test_rules_presets", "test_rules_sixty_six_3", "test_sixty_six3_loser",
           "test_rules_sixty_six_4",
           "test_rules_marjapussi_de", "test_rules_belote", "test_rules_belote_presets",
           "test_rules_belote_sata", "test_rules_belote_more",
           "test_rules_thousand", "test_rules_thousand2", "test_rules_thousand_opts"]
RULESETS = list_rulesets()


@cache
def marks() -> tuple[Mark, ...]:
    for name in MODULES:
        importlib.import_module(name)
    assert COVERAGE, "no test is marked with covers()"
    return tuple(COVERAGE)


def _options(name: str) -> dict[str, dict[str, Any]]:
    return dict(option_specs(load_document(name)))


def _values(spec: dict[str, Any]) -> list[Any]:
    """The values of an option worth loading: every value of an enum or bool."""
    if spec["type"] == "bool":
        return [False, True]
    if spec["type"] == "enum":
        return list(spec["values"])
    return [spec["default"]]  # an int option changes numbers, not which rules exist


def _variants(name: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{}]
    doc = load_document(name)
    for opt, spec in _options(name).items():
        out.extend({opt: v} for v in _values(spec)
                   if v != spec["default"] and playable(doc, {opt: v}))
    return out


@cache
def rule_ids() -> dict[str, set[str]]:
    """Every rule ID, with the rulesets it belongs to (under some option value)."""
    ids: dict[str, set[str]] = {}
    for name in RULESETS:
        for options in _variants(name):
            for info in load_rules(name, options).infos:
                ids.setdefault(info.id, set()).add(name)
    return ids


def test_the_marks_name_real_rule_ids() -> None:
    known = rule_ids()
    for mark in marks():
        assert mark.rule_ids, mark.test
        unknown = [i for i in mark.rule_ids if i not in known]
        assert not unknown, f"{mark.test} covers unknown rule IDs {unknown}"
        if mark.ruleset is not None:
            rules = load_rules(mark.ruleset, dict(mark.options))  # valid options
            mine = set(rules.rule_ids)
            assert set(mark.rule_ids) <= mine, (mark.test, set(mark.rule_ids) - mine)


@pytest.mark.parametrize("name", RULESETS)
def test_every_rule_id_has_a_test(name: str) -> None:
    covered = {i for m in marks() for i in m.rule_ids}
    missing = sorted(i for i, sets in rule_ids().items() if name in sets and i not in covered)
    assert not missing, f"{name}: rule IDs without a covering test: {missing}"


@pytest.mark.parametrize("name", RULESETS)
def test_every_gated_rule_is_tested_with_it_switched_on(name: str) -> None:
    off = [i.id for i in load_rules(name).infos if not i.enabled]
    for rule_id in off:
        on = [m for m in marks() if rule_id in m.rule_ids and m.ruleset is not None
              and load_rules(m.ruleset, dict(m.options)).info(rule_id).enabled]
        assert on, f"{name}: {rule_id} is never tested with the option that enables it"


@pytest.mark.parametrize("name", RULESETS)
def test_every_option_value_has_a_test(name: str) -> None:
    mine = [m for m in marks() if m.ruleset == name]
    missing = []
    for opt, spec in _options(name).items():
        used = {str(m.options[opt]) for m in mine if opt in m.options}
        if spec["type"] == "int":
            if not used - {str(spec["default"])}:
                missing.append(f"{opt}=<not {spec['default']}>")
            continue
        missing += [f"{opt}={v}" for v in _values(spec)
                    if v != spec["default"] and str(v).lower() not in
                    {u.lower() for u in used}]
    assert not missing, f"{name}: option values without a test: {missing}"
