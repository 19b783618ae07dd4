"""The census of derived suites: rule coverage under every single house rule.

``python -m mariage.conformance.census`` derives the suite
(:mod:`mariage.conformance.derive`) for every bundled ruleset at its defaults
and under every single non-default option value (:func:`configurations`: each
other value of a ``bool`` or an ``enum``; for a whole number its minimum, its
maximum and one value between, where the rules accept them), and prints, per
configuration, the rules in force checked by a focused test of the suite (each
derived from the reference, so each passes against it) and the unchecked ones
with the reason the search gave. The last lines sum it up: how many
configurations are at 100%, and the worst ones::

   python -m mariage.conformance.census                       # every ruleset
   python -m mariage.conformance.census schnapsen sixty-six   # some
   python -m mariage.conformance.census --json census.json
   python -m mariage.conformance.census thousand --every 8     # a sample
   python -m mariage.conformance.census thousand --every 8 --offset 4  # another

With ``--every K`` the census takes the defaults and the configurations whose
index (in the order of :func:`configurations`, the defaults being 0) is ``J``
modulo ``K``, ``J`` given by ``--offset`` (default 0); the offsets 0 to ``K-1``
thus share the configurations out between ``K`` runs, each with the defaults
(:func:`sampled`).

It takes a while (a derived suite is a few seconds, a few hundred
configurations in all); the derived suites are kept in the disk cache, so a
second run is quick.

>>> [c.label for c in configurations("mariglia")][:2]
['mariglia (defaults)', 'mariglia target=1']
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mariage.spec.inforce import not_in_force
from mariage.spec.options import playable
from mariage.spec.specload import list_rulesets, load_document

from ..errors import MariageError
from .configuration import Configuration, make_configuration, option_specs, show_value
from .coverage import FOCUSED, rule_coverage, unreachable_under
from .derive import DerivedSuite, derive_suite

__all__ = ["CensusRow", "census_row", "configurations", "main", "sampled"]


def _values(spec: dict[str, Any], default: Any) -> list[Any]:
    """The non-default values of one option the census derives a suite for."""
    if spec.get("type") == "bool":
        return [not default]
    if spec.get("type") == "int":
        lo, hi = spec.get("min"), spec.get("max")
        lo = lo if lo is not None else default
        hi = hi if hi is not None else default
        picks = [lo, (lo + hi) // 2, hi]
        return [v for i, v in enumerate(picks) if v != default and v not in picks[:i]]
    return [v for v in spec.get("values") or () if not (type(v) is type(default)
                                                         and v == default)]


def configurations(ruleset: str) -> Iterator[Configuration]:
    """The ruleset at its defaults, then one configuration per non-default value of each
    of its options (values that cannot be played with the other defaults left out)."""
    yield make_configuration(ruleset, [])
    doc = load_document(ruleset)
    for name, spec in option_specs(ruleset).items():
        for value in _values(spec, spec.get("default")):
            if not playable(doc, {name: value}):
                continue
            try:
                yield make_configuration(ruleset, [f"{name}={show_value(value)}"])
            except ValueError:
                continue


def sampled(index: int, every: int = 1, offset: int = 0) -> bool:
    """Whether the configuration at ``index`` of a ruleset (0: its defaults) is in the
    sample ``--every every --offset offset``: the defaults always, another one when its
    index is ``offset`` modulo ``every``.

    >>> [i for i in range(10) if sampled(i, 4, 1)]
    [0, 1, 5, 9]
    """
    return index == 0 or index % every == offset % every


@dataclass
class CensusRow:
    """The coverage of one configuration's derived suite."""

    label: str
    checked: int
    counted: int
    percent: float
    #: unchecked rule -> why no focused test was found for it
    unchecked: dict[str, str]
    not_in_force: tuple[str, ...]

    def text(self) -> str:
        """One line: label, figures, the unchecked rules."""
        line = f"{self.label}: {self.checked}/{self.counted} ({self.percent:.1f}%)"
        if self.unchecked:
            line += "; unchecked: " + ", ".join(self.unchecked)
        return line


def census_row(config: Configuration, suite: DerivedSuite | None = None) -> CensusRow:
    """The coverage of the suite derived for ``config`` (derived here unless given)."""
    suite = suite if suite is not None else derive_suite(config)
    rules = config.rules
    checked: dict[str, list[str]] = {}
    for t in suite.tests:
        if t["kind"] in FOCUSED:
            for r in t["rules"]:
                checked.setdefault(r, []).append(t["id"])
    cov = rule_coverage(checked, config.name, rules.rule_ids, config.label,
                        not_in_force(rules), unreachable_under(rules))
    counted = [r for r in cov.rules if r not in cov.unreachable and r not in cov.not_in_force]
    why = {r: suite.exercised.get(r, ("", "not searched"))[1] for r in cov.unchecked}
    return CensusRow(config.label, sum(1 for r in counted if checked.get(r)), len(counted),
                     cov.percent, why, cov.not_in_force)


def _summary(rows: list[CensusRow]) -> list[str]:
    full = sum(1 for r in rows if not r.unchecked)
    lines = [f"{full} of {len(rows)} configurations at 100%"]
    worst = sorted((r for r in rows if r.unchecked), key=lambda r: (r.percent, r.label))
    for r in worst[:10]:
        lines.append(f"  {r.text()}")
    missing: dict[str, int] = {}
    for r in rows:
        for rule in r.unchecked:
            missing[rule] = missing.get(rule, 0) + 1
    if missing:
        lines.append("rules unchecked, in how many configurations: " + ", ".join(
            f"{rule} {n}" for rule, n in sorted(missing.items(), key=lambda x: (-x[1], x[0]))))
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m mariage.conformance.census [RULESET ...] [--every K [--offset J]]
    [--json FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m mariage.conformance.census",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("rulesets", nargs="*", help="the rulesets (default: every one)")
    parser.add_argument("--json", help="write the rows as JSON to this file")
    parser.add_argument("--every", type=int, default=1, metavar="K",
                        help="a sample: the defaults and every K-th other configuration of "
                             "each ruleset (default 1: all)")
    parser.add_argument("--offset", type=int, default=0, metavar="J",
                        help="with --every K: the defaults and the other configurations "
                             "whose index is J modulo K (0 <= J < K; default 0); the "
                             "offsets 0 to K-1 share the configurations out")
    args = parser.parse_args(argv)
    known = list_rulesets()
    for name in args.rulesets:
        if name not in known:
            print(f"census: unknown ruleset '{name}'", file=sys.stderr)
            return 2
    rows: list[CensusRow] = []
    if args.every < 1:
        print("census: --every takes a whole number from 1", file=sys.stderr)
        return 2
    if not 0 <= args.offset < args.every:
        print("census: --offset takes a whole number from 0 to K-1 (K: --every)",
              file=sys.stderr)
        return 2
    for ruleset in args.rulesets or known:
        for i, config in enumerate(configurations(ruleset)):
            if not sampled(i, args.every, args.offset):
                continue
            try:
                row = census_row(config)
            except (MariageError, ValueError) as exc:
                print(f"{config.label}: cannot derive: {exc}", flush=True)
                continue
            rows.append(row)
            print(row.text(), flush=True)
    print("\n".join(_summary(rows)))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([r.__dict__ for r in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
