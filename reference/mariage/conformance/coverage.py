"""Which tests check which rule: every rule ID of every ruleset needs a focused test.

Golden matches and perft counts name every rule they touch, so they do not
count here: a rule is covered by a scenario or option test of that ruleset
naming it.

>>> from mariage.conformance.suite import Test
>>> t = Test("marianna/x", "d", "scenario", "marianna", ("core.hand",))
>>> coverage([t])["marianna core.hand"]
['marianna/x']
>>> coverage([t])["marianna core.turn"]
[]
"""

from __future__ import annotations

from collections.abc import Iterable

from mariage.spec.compile import load_rules
from mariage.spec.specload import list_rulesets

from .suite import Test

__all__ = ["UNREACHABLE", "coverage", "coverage_text"]

#: Rules no match can ever exercise, with the reason. They are reported, not tested.
UNREACHABLE = {
    "mariglia mariglia.match.tie": (
        "only one team scores in a hand (the excess over 35) and the turn-up bonus ends the "
        "match at once when it reaches the target, so two teams can never stand level at or "
        "over the target"),
}


def coverage(tests: Iterable[Test]) -> dict[str, list[str]]:
    """``"ruleset rule-id"`` -> IDs of the focused tests that check it, for every rule."""
    out: dict[str, list[str]] = {}
    for ruleset in list_rulesets():
        for rule in load_rules(ruleset).rule_ids:
            out[f"{ruleset} {rule}"] = []
    for t in tests:
        if t.kind not in ("scenario", "option"):
            continue
        for rule in t.rules:
            key = f"{t.ruleset} {rule}"
            if key in out:
                out[key].append(t.id)
    return out


def coverage_text(cov: dict[str, list[str]]) -> str:
    """The report: one line per rule, uncovered rules marked."""
    lines = []
    for key, ids in cov.items():
        if not ids and key in UNREACHABLE:
            lines.append(f"{key}: unreachable: {UNREACHABLE[key]}")
            continue
        lines.append(f"{key}: {len(ids)} " + (", ".join(ids[:4]) + (" ..." if len(ids) > 4
                                                                    else "")
                                               if ids else "NOT COVERED"))
    missing = sum(1 for k, ids in cov.items() if not ids and k not in UNREACHABLE)
    lines.append(f"{len(cov) - missing}/{len(cov)} rule IDs covered or unreachable "
                 f"({len(UNREACHABLE)} unreachable)")
    return "\n".join(lines)
