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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mariage.spec.compile import load_rules
from mariage.spec.specload import list_rulesets

from .suite import Test

if TYPE_CHECKING:
    from .results import Outcome

__all__ = ["FOCUSED", "UNREACHABLE", "RuleCoverage", "coverage", "coverage_text",
           "rule_coverage", "run_coverage"]

#: Rules no match can ever exercise, with the reason. They are reported, not tested.
#: Keyed by rule ID alone where the reason holds in every ruleset that has the rule.
_UNREACHABLE_RULES = {
    "thousand.ace-marriage.once": (
        "the ace marriage is declared by leading one of the four aces, so they are never all "
        "held again in that hand: its once-a-hand limit can never refuse a declaration"),
}
UNREACHABLE = {
    "mariglia mariglia.match.tie": (
        "only one team scores in a hand (the excess over 35) and the turn-up bonus ends the "
        "match at once when it reaches the target, so two teams can never stand level at or "
        "over the target"),
    **{f"{ruleset} {rule}": why for ruleset in list_rulesets()
       for rule, why in _UNREACHABLE_RULES.items() if rule in load_rules(ruleset).rule_ids},
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


#: The kinds of test whose ``rules`` count as checked: the focused ones.
FOCUSED = ("scenario", "option")


@dataclass
class RuleCoverage:
    """Which rules of one configuration at least one focused test that ran names."""

    label: str
    rules: tuple[str, ...]
    checked: dict[str, list[str]]
    unreachable: tuple[str, ...] = ()
    #: the rules the configuration's options switch off (the rulebook's "not in force"):
    #: no match under it can check them, so they are left out like the unreachable ones
    not_in_force: tuple[str, ...] = ()

    def _counted(self, rule: str) -> bool:
        return rule not in self.unreachable and rule not in self.not_in_force

    @property
    def unchecked(self) -> list[str]:
        """The rules no focused test that ran names (unreachable ones and those not in
        force left out)."""
        return [r for r in self.rules if not self.checked.get(r) and self._counted(r)]

    @property
    def percent(self) -> float:
        """Rules checked, in percent of the rules in force that can be reached."""
        reachable = [r for r in self.rules if self._counted(r)]
        if not reachable:
            return 100.0
        return 100.0 * sum(1 for r in reachable if self.checked.get(r)) / len(reachable)

    def text(self) -> str:
        """One line of figures (of the rules in force that can be reached), then the
        unchecked rules.

        >>> RuleCoverage("x", ("a", "b"), {"a": ["t"]}).text()
        'rules checked by a test that ran and names them, x: 1/2 (50.0%)\\n  unchecked: b'
        """
        counted = [r for r in self.rules if self._counted(r)]
        n = sum(1 for r in counted if self.checked.get(r))
        line = (f"rules checked by a test that ran and names them, {self.label}: "
                f"{n}/{len(counted)} ({self.percent:.1f}%)")
        if self.unreachable:
            line += f", {len(self.unreachable)} unreachable: {', '.join(self.unreachable)}"
        if self.not_in_force:
            line += (f", {len(self.not_in_force)} not in force: "
                     f"{', '.join(self.not_in_force)}")
        return "\n".join([line] + ([f"  unchecked: {', '.join(self.unchecked)}"]
                                   if self.unchecked else []))


def run_coverage(outcomes: Iterable[Outcome], ruleset: str, rule_ids: Iterable[str],
                 label: str = "", not_in_force: Iterable[str] = ()) -> RuleCoverage:
    """The rules of ``ruleset`` checked by a focused test of the run that was not skipped
    and that the engine did not fail in (a crash, timeout or garbage ends a test before
    it checks its rules); ``not_in_force``: the rules the configuration switches off.

    >>> from mariage.conformance.runner import Outcome
    >>> o = Outcome("t", "mariglia", "scenario", ("mariglia.play.follow",), "pass")
    >>> cov = run_coverage([o], "mariglia", ["mariglia.play.follow", "mariglia.play.head"])
    >>> cov.unchecked, cov.percent
    (['mariglia.play.head'], 50.0)
    """
    checked: dict[str, list[str]] = {}
    for o in outcomes:
        if o.kind not in FOCUSED or o.status == "skip" or o.ruleset != ruleset \
                or o.engine_failure:  # the engine failed in it: it checked nothing
            continue
        for r in o.rules:
            checked.setdefault(r, []).append(o.id)
    return rule_coverage(checked, ruleset, rule_ids, label, not_in_force)


def rule_coverage(checked: dict[str, list[str]], ruleset: str, rule_ids: Iterable[str],
                  label: str = "", not_in_force: Iterable[str] = ()) -> RuleCoverage:
    """The coverage of the rules of ``ruleset`` given which tests check each
    (``checked``), with its unreachable rules and those not in force left out."""
    rules = tuple(rule_ids)
    name = ruleset.rsplit("/", 1)[-1].removesuffix(".yaml")
    unreachable = tuple(r for r in rules if f"{name} {r}" in UNREACHABLE)
    switched_off = set(not_in_force)
    off = tuple(r for r in rules if r in switched_off and r not in unreachable)
    return RuleCoverage(label or ruleset, rules, checked, unreachable, off)
