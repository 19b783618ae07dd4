"""Regenerating the suite from the sources and the reference, with a readable diff.

:func:`build_suite` returns every test file's path and text;
:func:`regenerate` compares them with the files on disk, prints a unified
diff of what would change, and writes the new files unless asked only to check.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from mariage.spec.options import playable
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets, load_document

from ..errors import MariageError
from .generate import (
    expand_scenario,
    golden_test,
    load_sources,
    long_match,
    perft_test,
    render_test,
)
from .reports import write_atomic

__all__ = ["build_suite", "option_variants", "regenerate"]

#: Rule ID fragments that do not bear on which actions are legal (left out of perft's list).
_NOT_LEGALITY = (".score.", ".match.", ".pack", ".players", ".open-hands", ".decl.value",
                 ".mariannino.value", ".mariannone.value", ".held", ".hand.target",
                 ".call-out.penalty")


def _int_variant(ruleset: str, name: str, spec: dict[str, Any], default: int) -> int | None:
    """A value of int option ``name`` other than its ``default``: the first candidate
    within the option's bounds that the rules accept (the values players use,
    ``examples``, else a third of the default, two more, the bounds), or ``None``."""
    lo, hi = spec.get("min"), spec.get("max")
    first = 1 if name == "hands" else max(1, default // 3)
    for value in (*spec.get("examples", ()), first, default + 2, hi, lo):
        if value is None or value == default:
            continue
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            continue
        try:
            load_rules(ruleset, {name: value})
        except MariageError:
            continue
        return int(value)
    return None


def option_variants(ruleset: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each value of each option other than its default in force when every option is
    left at its default (conditional defaults included): (name, options); a value that
    cannot be played with the other defaults (an ``invalid_when`` case) is left out."""
    doc = load_document(ruleset)
    for name, options in _option_variants(ruleset):
        if playable(doc, options):
            yield name, options


def _option_variants(ruleset: str) -> Iterator[tuple[str, dict[str, Any]]]:
    rules = load_rules(ruleset)
    specs = rules.document.get("options") or {}
    defaults = dict(rules.defaults)
    for name, spec in specs.items():
        if not spec:
            continue
        default = defaults[name]
        if spec["type"] == "int":
            value = _int_variant(ruleset, name, spec, int(default))
            if value is None:
                continue
            yield f"{name}-{value}", {name: value}
        elif spec["type"] == "bool":
            yield f"{name}-{str(not default).lower()}", {name: not default}
        else:
            for v in spec["values"]:
                if v != default:
                    yield f"{name}-{str(v).replace('+', '-')}", {name: v}


def build_suite(root: Path) -> dict[Path, str]:
    """Every test file of the suite, generated: path under ``root/tests`` -> text."""
    out: dict[Path, str] = {}
    tests = root / "tests"

    def add(test: dict[str, Any]) -> None:
        out[tests / f"{test['id']}.test"] = render_test(test)

    for where, src, sets in load_sources(root / "sources"):
        for ruleset in sets:
            add(expand_scenario(src, ruleset, where))
    for ruleset in list_rulesets():
        rules = load_rules(ruleset)
        legality = [r for r in rules.rule_ids if not any(f in r for f in _NOT_LEGALITY)]
        # a game to a far target with running totals: its first hand (a whole game is
        # hundreds of hands of random play)
        far = long_match(rules)
        add(golden_test(ruleset, {}, 1, "default", one_hand=far))
        for seed in (1, 2):
            add(perft_test(ruleset, {}, seed, f"seed-{seed}", 3000, legality))
        for name, opts in option_variants(ruleset):
            one_hand = far or not any(isinstance(v, int) and not isinstance(v, bool)
                                      for v in opts.values())
            add(golden_test(ruleset, opts, 2, name, one_hand=one_hand))
            if one_hand:
                r2 = load_rules(ruleset, opts)
                leg2 = [r for r in r2.rule_ids if not any(f in r for f in _NOT_LEGALITY)]
                add(perft_test(ruleset, opts, 3, name, 1200, leg2))
    return out


#: Folders of ``tests/`` written by hand, never generated (nor removed) by :func:`regenerate`.
HAND_WRITTEN = ("protocol",)


def regenerate(root: Path, out: TextIO, check: bool = False) -> int:
    """Rebuild the suite under ``root``; print a diff; write unless ``check``.

    Returns the number of files that differ (added, changed or removed).
    """
    fresh = build_suite(root)
    tests = root / "tests"
    old = {p: p.read_text(encoding="utf-8") for p in tests.rglob("*.test")
           if p.relative_to(tests).parts[0] not in HAND_WRITTEN} if tests.is_dir() else {}
    changed = 0
    for path in sorted(set(fresh) | set(old)):
        a, b = old.get(path), fresh.get(path)
        if a == b:
            continue
        changed += 1
        rel = path.relative_to(root)
        out.writelines(difflib.unified_diff(
            (a or "").splitlines(keepends=True), (b or "").splitlines(keepends=True),
            fromfile=f"a/{rel}" if a is not None else "/dev/null",
            tofile=f"b/{rel}" if b is not None else "/dev/null", n=1))
        if check:
            continue
        if b is None:
            path.unlink()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, b)
    return changed
