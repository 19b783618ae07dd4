"""``mariage list``: the bundled rulesets and their options."""

from __future__ import annotations

import argparse

from ..compile import load_rules, option_specs
from ..specload import list_rulesets, load_document

NAME = "list"
HELP = "list the bundled rulesets, one line each, with their options and defaults"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--brief", action="store_true", help="names and summaries only")


def run(args: argparse.Namespace) -> int:
    for name in list_rulesets():
        doc = load_document(name)
        rules = load_rules(name)
        parent = f" (extends {rules.parent})" if rules.parent else ""
        print(f"{name:<20} {rules.name}{parent}: {rules.nseats} players, "
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
