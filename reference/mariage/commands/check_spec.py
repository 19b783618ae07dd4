"""``mariage check-spec FILE``: schema and consistency checks for a game description."""

from __future__ import annotations

import argparse
import sys

from mariage.spec.compile import check_document
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import load_document

from ..errors import OptionError, SpecError, SpecFileError, UnknownRulesetError, one_line
from . import COMMANDS

NAME, HELP = COMMANDS["check_spec"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="description files (.yaml) or bundled ruleset names")


def run(args: argparse.Namespace) -> int:
    """Check each file; exit 2 if one could not be read, else 1 if one is bad, else 0."""
    bad = unreadable = 0
    for name in args.files:
        try:
            doc = load_document(name)
            check_document(doc)
            rules = load_rules(name)
        except (SpecFileError, UnknownRulesetError) as exc:  # a usage error: exit code 2
            sys.stderr.write(f"{one_line(exc)}\n")
            unreadable += 1
            continue
        except (SpecError, OptionError) as exc:
            sys.stderr.write(f"{one_line(exc)}\n")
            bad += 1
            continue
        print(f"{name}: ok ({len(rules.infos)} rules, "
              f"{len(doc.data.get('options') or {})} options)")
    return 2 if unreadable else 1 if bad else 0
