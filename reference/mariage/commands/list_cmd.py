"""``mariage list``: the bundled rulesets and their options."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mariage.spec.options import option_specs, summary
from mariage.spec.specload import list_rulesets, load_document

NAME = "list"
HELP = "list the bundled rulesets, one line each, with their options and defaults"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--brief", action="store_true", help="names and summaries only")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format (default text)")


def as_json(brief: bool = False) -> list[dict[str, Any]]:
    """The rulesets and their options, as ``mariage list --format json`` prints them.

    >>> first = as_json()[0]
    >>> first["name"], first["players"], first["options"][0]["name"]
    ('belote', 4, 'target')
    """
    out: list[dict[str, Any]] = []
    for name in list_rulesets():
        rules = summary(load_document(name))  # without compiling: a quick start
        entry: dict[str, Any] = {"name": name, "title": rules.title, "parent": rules.parent,
                                 "players": rules.nseats, "cards": rules.ncards}
        if not brief:
            entry["options"] = [
                {"name": opt, "type": spec["type"], "values": spec.get("values"),
                 "default": spec["default"], "description": " ".join(spec["description"].split())}
                for opt, spec in option_specs(load_document(name)).items()]
        out.append(entry)
    return out


def run(args: argparse.Namespace) -> int:
    if args.format == "json":
        print(json.dumps(as_json(args.brief), indent=2, ensure_ascii=False))
        return 0
    for name in list_rulesets():
        doc = load_document(name)
        rules = summary(doc)
        parent = f" (extends {rules.parent})" if rules.parent else ""
        print(f"{name:<20} {rules.title}{parent}: {rules.nseats} players, "
              f"{rules.ncards} cards")
        if args.brief:
            continue
        for opt, spec in option_specs(doc).items():
            kind = spec["type"]
            if kind == "enum":
                kind = "|".join(map(str, spec["values"]))
            default = spec["default"]
            if isinstance(default, bool):
                default = str(default).lower()
            print(f"    {opt}={default}  [{kind}]  {' '.join(spec['description'].split())}")
    return 0
