"""``mariage rules RULESET``: the rules as readable text, with their IDs."""

from __future__ import annotations

import argparse

from ..cli import parse_options
from ..compile import load_rules
from ..render import render_text

NAME = "rules"
HELP = "print a ruleset's rules as readable text with their IDs"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a path to a .yaml file")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="an option value (repeatable)")


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.ruleset, parse_options(args.option))
    print(render_text(rules, str(args.ruleset)), end="")
    return 0
