"""``mariage rules RULESET``: the rules as readable text, with their IDs."""

from __future__ import annotations

import argparse
import dataclasses
import json

from ..cli import parse_options
from ..compile import load_rules
from ..render import render_text, rulebook

NAME = "rules"
HELP = "print a ruleset's rules as readable text with their IDs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a path to a .yaml file")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="an option value (repeatable)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format: the rulebook as text, or its sections as JSON")


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.ruleset, parse_options(args.option))
    if args.format == "json":
        book = dataclasses.asdict(rulebook(rules, str(args.ruleset)))
        print(json.dumps(book, indent=2, ensure_ascii=False))
        return 0
    print(render_text(rules, str(args.ruleset)), end="")
    return 0
