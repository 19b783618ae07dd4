"""Each rule names the options that really change it (``RuleInfo.options``).

For every ruleset and every option, the rules are compiled under each value
other than the default; a rule's own data is its node of the resolved
description with the rules nested in it cut down to their IDs. A rule must
claim an option exactly when some value of that option leaves its own data
different from the default's, or, for an option a conditional default names
(``default_when``), when that condition's values together change it and the
others alone do not (a bomb at four: ``players`` with ``concede``).
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import load_rules
from mariage.engine.rules import Rules
from mariage.rulebook.render import rulebook
from mariage.spec.options import option_specs, options_of_rules, own_data, playable
from mariage.spec.specload import list_rulesets, load_document

_MISSING = object()


def _data(rules: Rules, path: str) -> Any:
    node: Any = rules.document
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return own_data(node)


def _other_values(spec: dict[str, Any]) -> list[Any]:
    """Values of an option other than its default (a number: its bounds, as the checks of
    a description try them)."""
    default = spec["default"]
    if spec["type"] == "enum":
        return [v for v in spec["values"] if str(v) != str(default)]
    if spec["type"] == "bool":
        return [not default]
    bounds = [v for v in (spec.get("min"), spec.get("max")) if v is not None]
    return [v for v in dict.fromkeys(bounds or [default + 1]) if v != default]


def _changed(name: str) -> tuple[Rules, dict[tuple[str, str], bool]]:
    """The default rules, and for each (rule ID, option): does some value change the rule?"""
    base = load_rules(name)
    changed: dict[tuple[str, str], bool] = {}
    doc = load_document(name)
    for option, spec in option_specs(doc).items():
        for value in _other_values(spec):
            if not playable(doc, {option: value}):
                continue  # refused with the other defaults (an invalid_when case)
            other = load_rules(name, {option: value})
            for info in base.infos:
                if _data(other, info.path) != _data(base, info.path):
                    changed[(info.id, option)] = True
                else:
                    changed.setdefault((info.id, option), False)
    return base, changed


def _changed_together(name: str, base: Rules) -> set[tuple[str, str]]:
    """(rule ID, option) where the values a conditional default names, with that option's
    value changed (the others kept), change the rule."""
    out: set[tuple[str, str]] = set()
    doc = load_document(name)
    specs = option_specs(doc)
    for spec in specs.values():
        for case in spec.get("default_when") or ():
            when = dict(case["when"])
            if not playable(doc, when):
                continue
            full = load_rules(name, when)
            for key in when:
                values = [specs[key]["default"], *_other_values(specs[key])]
                for value in values:
                    other = {**when, key: value}
                    if str(value) == str(when[key]) or not playable(doc, other):
                        continue
                    part = load_rules(name, other)
                    out.update((info.id, key) for info in base.infos
                               if _data(full, info.path) != _data(part, info.path))
    return out


@pytest.mark.parametrize("name", list_rulesets())
def test_a_rule_claims_exactly_the_options_that_change_it(name: str) -> None:
    base, changed = _changed(name)
    for pair in _changed_together(name, base):
        changed[pair] = True
    claimed = {(info.id, o) for info in base.infos for o in info.options}
    named_in_spec = {(info.id, info.options[0]) for info in base.infos
                     if info.options and _data(base, info.path) is not _MISSING
                     and isinstance(_data(base, info.path), dict)
                     and _data(base, info.path).get("option") == info.options[0]}
    wrongly_claimed = sorted(p for p in claimed - named_in_spec if not changed.get(p))
    missing = sorted(p for p, yes in changed.items() if yes and p not in claimed)
    assert wrongly_claimed == [], f"claimed but changing nothing: {wrongly_claimed}"
    assert missing == [], f"changing the rule but not claimed: {missing}"


def test_sixty_six_4_deal_names_its_packets_not_the_next_dealer() -> None:
    infos = {i.id: i for i in load_rules("sixty-six-4").infos}
    assert infos["sixty-six-4.deal"].options == ("deal_packets",)
    assert infos["sixty-six-4.deal"].option == "deal_packets"
    assert infos["sixty-six-4.deal.rotation"].options == ("next_dealer",)


def test_a_rule_can_claim_several_options() -> None:
    infos = {i.id: i for i in load_rules("schnapsen").infos}
    assert set(infos["schnapsen.close"].options) >= {"close_allowed", "close_min_talon"}
    assert infos["schnapsen.lead.first"].options == ()


def test_the_mapping_sees_a_value_that_changes_nothing() -> None:
    """An option whose values all leave the same data changes no rule (made-up spec)."""
    doc = load_document("sixty-six-4")
    data = dict(doc.data)
    options = dict(data["options"])
    packets = dict(options["deal_packets"])
    packets["effects"] = {"2-2-2-2": {"deal.packets": [3, 2, 3]}}  # the default's packets
    options["deal_packets"] = packets
    data["options"] = options
    same = type(doc)(data, doc.marks, doc.files, doc.paths)
    assert "deal" not in options_of_rules(same, ["deal", "deal.rotation"])
    assert options_of_rules(doc, ["deal", "deal.rotation"])["deal"] == ("deal_packets",)


def test_the_rulebook_shows_every_option_of_a_rule() -> None:
    book = rulebook(load_rules("schnapsen"), "schnapsen")
    item = next(i for s in book.sections for i in s.rules if i.info.id == "schnapsen.close")
    for option in ("close_allowed", "close_before_draw", "close_on_first_lead",
                   "close_min_talon"):
        assert f"option {option}" in item.option_note
