"""``mariage check-spec FILE``: schema and consistency checks for a game description."""

from __future__ import annotations

import argparse
import sys

from ..compile import check_document, load_rules
from ..errors import SpecError, UnknownRulesetError
from ..specload import load_document

NAME = "check-spec"
HELP = "check a game description against the schema and for consistency"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="description files (.yaml) or bundled ruleset names")


def run(args: argparse.Namespace) -> int:
    bad = 0
    for name in args.files:
        try:
            doc = load_document(name)
            check_document(doc)
            rules = load_rules(name)
        except (SpecError, UnknownRulesetError) as exc:
            sys.stderr.write(f"{exc}\n")
            bad += 1
            continue
        print(f"{name}: ok ({len(rules.infos)} rules, "
              f"{len(doc.data.get('options') or {})} options)")
    return 1 if bad else 0
