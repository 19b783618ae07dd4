"""The coverage table: for each bundled ruleset and configurations of it, the rules its
derived suite checks and the faulty engines it kills by a test naming their rule.

``python -m mariage.conformance.measure [--rst FILE] [RULESET...]`` derives the suite
of each configuration of :func:`configurations` (through the disk cache), runs each
faulty engine that applies through the protocol (in-process pipes) against the
focused tests naming its rule, and prints the table; ``--rst FILE`` also writes it
as an RST table (``docs/conformance-coverage.inc``, included by
``docs/conformance.rst``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

from ..errors import MariageError
from .client import EngineClient, ThreadTransport
from .configuration import Configuration, make_configuration, show_value
from .coverage import FOCUSED, unreachable_under
from .derive import DerivedSuite, derive_suite
from .faultsearch import applies, faults_for
from .faulty import Fault, FaultyEngine
from .regen import option_variants
from .reports import write_atomic
from .runner import run_suite

__all__ = ["HOUSE_CONFIGURATIONS", "Measure", "configurations", "main", "measure"]

#: The house configurations of real engines (issue #22), measured beside the others.
HOUSE_CONFIGURATIONS: dict[str, list[list[str]]] = {
    "mariazza": [["exchange_chain=true", "unfinished_hand=nobody"]],
    "schnapsen": [["close_allowed=false", "claim_mode=auto", "marriage_lead=king",
                   "marriage_counting=next_trick_after_declaring"]],
    "marjapussi-de": [["partnership_draw=fixed", "pair_credit_once_per_hand=false"]],
    # Mariglia has two options besides its target: the target makes the other two
    "mariglia": [["target=21", "turn_up_bonus=false"], ["target=51", "duty_reading=always"]],
}


def configurations(ruleset: str, count: int = 3) -> list[Configuration]:
    """The defaults, the house configurations of :data:`HOUSE_CONFIGURATIONS`, then
    multi-option configurations made from the option values of
    :func:`~mariage.conformance.regen.option_variants` (each value used once, two or
    three per configuration, skipping values that do not go together), up to ``count``
    multi-option ones."""
    out = [make_configuration(ruleset, [])]
    multi = [make_configuration(ruleset, texts) for texts in HOUSE_CONFIGURATIONS.get(ruleset, [])]
    variants = [(k, v) for _, opts in option_variants(ruleset) for k, v in opts.items()
                if not (isinstance(v, int) and not isinstance(v, bool))]
    i = 0
    while len(multi) < count and i < len(variants):
        chosen: dict[str, Any] = {}
        while i < len(variants) and len(chosen) < 3:
            name, value = variants[i]
            i += 1
            if name in chosen:
                continue
            try:
                load_rules(ruleset, {**chosen, name: value})
            except MariageError:
                continue
            chosen[name] = value
        if len(chosen) >= 2:
            multi.append(make_configuration(
                ruleset, [f"{k}={show_value(v)}" for k, v in chosen.items()]))
    for pair in combinations(variants, 2):  # too few values for disjoint ones: pairs
        if len(multi) >= count:
            break
        if pair[0][0] == pair[1][0]:
            continue
        try:
            config = make_configuration(ruleset, [f"{k}={show_value(v)}" for k, v in pair])
        except ValueError:
            continue
        if len(config.options) == 2 and config not in multi:
            multi.append(config)
    return out + multi


@dataclass
class Measure:
    """The figures of one configuration."""

    label: str
    rules: int
    checked: int
    unreachable: int
    faults: int
    killed: int
    unchecked: list[str] = field(default_factory=list)
    not_killed: list[str] = field(default_factory=list)
    seconds: float = 0.0
    #: faults that show a difference under the configuration (a test found, or killed)
    shown: int = 0
    #: rules broken by a fault that shows, and those of them checked
    breakable: int = 0
    breakable_checked: int = 0


def _transport(fault: Fault) -> Callable[[], ThreadTransport]:
    return lambda: ThreadTransport(FaultyEngine(fault))


def _checked(suite: DerivedSuite) -> set[str]:
    return {r for t in suite.tests if t["kind"] in FOCUSED for r in t["rules"]}


def measure(config: Configuration) -> Measure:
    """Derive the suite of ``config`` and run every faulty engine that applies against
    the focused tests naming its rule."""
    t0 = time.perf_counter()
    suite = derive_suite(config)
    rules = config.rules
    checked = _checked(suite)
    unreachable = set(unreachable_under(rules))
    tests = suite.as_tests()
    killed, not_killed, total, shown = 0, [], 0, 0
    breakable: set[str] = set()
    for fault in faults_for(rules):
        if not applies(fault, rules):
            continue
        total += 1
        mine = [t for t in tests if t.kind in FOCUSED and fault.rule in t.rules]
        found = bool(suite.faults.get(fault.name, ("", "", ""))[1])
        if mine:
            client = EngineClient(_transport(fault), timeout=30)
            try:
                result = run_suite(client, mine)
            finally:
                client.close()
            if any(not o.ok and fault.rule in o.blamed for o in result.outcomes):
                killed += 1
                shown += 1
                breakable.add(fault.rule)
                continue
        if found:
            shown += 1
            breakable.add(fault.rule)
        not_killed.append(fault.name if found else f"({fault.name}: shows no difference)")
    return Measure(config.label, len(rules.rule_ids), len(checked & set(rules.rule_ids)),
                   len(unreachable), total, killed,
                   [r for r in rules.rule_ids if r not in checked and r not in unreachable],
                   not_killed, time.perf_counter() - t0, shown, len(breakable),
                   len(breakable & checked))


def _rst(rows: list[Measure]) -> str:
    head = ("configuration", "rules checked", "breakable rules checked",
            "faults killed (of those that show / apply)")
    body = [(m.label, f"{m.checked}/{m.rules}" + (f" ({m.unreachable} unreachable)"
                                                     if m.unreachable else ""),
             f"{m.breakable_checked}/{m.breakable}",
             f"{m.killed} ({m.shown} / {m.faults})") for m in rows]
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    rule = "  ".join("=" * w for w in widths)
    lines = [rule, "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)), rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
              for r in body]
    lines.append(rule)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table (and write it as RST with ``--rst``)."""
    parser = argparse.ArgumentParser(prog="python -m mariage.conformance.measure")
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--rst", metavar="FILE")
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args(argv)
    rows: list[Measure] = []
    for ruleset in args.rulesets or list_rulesets():
        for config in configurations(ruleset):
            m = measure(config)
            rows.append(m)
            print(f"{m.label}: rules {m.checked}/{m.rules} ({m.unreachable} unreachable), "
                  f"breakable rules checked {m.breakable_checked}/{m.breakable}, "
                  f"faults killed {m.killed} (shown {m.shown}, applicable {m.faults}), "
                  f"{m.seconds:.1f} s", flush=True)
            if args.verbose:
                print(f"   unchecked: {' '.join(m.unchecked)}")
                print(f"   not killed: {' '.join(m.not_killed)}")
    if args.rst:
        write_atomic(args.rst, _rst(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
