"""``mariage list``: the bundled rulesets, one line each, then those described by the files
given with ``--spec``; ``--long`` adds their options."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mariage.spec.options import default_text, invalid_text, option_specs, summary
from mariage.spec.specload import list_rulesets, load_document
from mariage.spec.specnames import registered_specs

from . import COMMANDS

NAME, HELP = COMMANDS["list_cmd"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--long", "-l", action="store_true",
                        help="each ruleset's options too, with their values and defaults")
    parser.add_argument("--brief", action="store_true",
                        help="names and summaries only (the text default; JSON without options)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format (default text)")


def _names() -> list[str]:
    """The bundled rulesets, then the others given by ``--spec`` (a file that describes a
    bundled ruleset stands in its place)."""
    bundled = list_rulesets()
    return bundled + [n for n in registered_specs() if n not in bundled]


def as_json(brief: bool = False) -> list[dict[str, Any]]:
    """The rulesets and their options, as ``mariage list --format json`` prints them.

    >>> first = as_json()[0]
    >>> first["name"], first["players"], first["options"][0]["name"]
    ('belote', 4, 'target')
    """
    out: list[dict[str, Any]] = []
    given = registered_specs()
    for name in _names():
        rules = summary(load_document(name))  # without compiling: a quick start
        entry: dict[str, Any] = {"name": name, "title": rules.title, "parent": rules.parent,
                                 "players": rules.nseats, "cards": rules.ncards}
        if name in given:
            entry["file"] = str(given[name])
        if not brief:
            entry["options"] = [
                {"name": opt, "type": spec["type"], "values": spec.get("values"),
                 "default": spec["default"],
                 **{k: spec[k] for k in ("min", "max") if spec.get(k) is not None},
                 **({"default_when": spec["default_when"]} if spec.get("default_when") else {}),
                 **({"invalid_when": [{**case, "because": " ".join(case["because"].split())}
                                      for case in spec["invalid_when"]]}
                    if spec.get("invalid_when") else {}),
                 "description": " ".join(spec["description"].split())}
                for opt, spec in option_specs(load_document(name)).items()]
        out.append(entry)
    return out


def _bounds(lo: int | None, hi: int | None) -> str:
    """`` 880..1200``, `` >= 1``, `` <= 9`` or nothing: an int option's bounds.

    >>> _bounds(880, 1200), _bounds(1, None), _bounds(None, None)
    (' 880..1200', ' >= 1', '')
    """
    if lo is not None and hi is not None:
        return f" {lo}..{hi}"
    return f" >= {lo}" if lo is not None else f" <= {hi}" if hi is not None else ""


def run(args: argparse.Namespace) -> int:
    if args.format == "json":
        print(json.dumps(as_json(args.brief), indent=2, ensure_ascii=False))
        return 0
    given = registered_specs()
    for name in _names():
        doc = load_document(name)
        rules = summary(doc)
        parent = f" (extends {rules.parent})" if rules.parent else ""
        if name in given:
            parent += f" [{given[name]}]"
        options = option_specs(doc)
        count = "" if args.long else f"; {len(options)} option{'s' if len(options) != 1 else ''}"
        print(f"{name:<22} {rules.title}{parent}: {rules.nseats} players, "
              f"{rules.ncards} cards{count}")
        if not args.long:
            continue
        for opt, spec in options.items():
            kind = spec["type"]
            if kind == "enum":
                kind = "|".join(map(str, spec["values"]))
            elif kind == "int":  # the bounds a value is checked against (N123 beyond)
                kind += _bounds(spec.get("min"), spec.get("max"))
            print(f"    {opt}={default_text(spec)}  [{kind}]  "
                  f"{' '.join(spec['description'].split())}")
            for case in spec.get("invalid_when") or ():
                print(f"      refused: {invalid_text(opt, case)}")
    if not args.long:
        print("(mariage list --long: with every option; mariage rules RULESET: the rules)")
    return 0
