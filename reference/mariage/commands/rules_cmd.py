"""``mariage rules RULESET``: the rules as readable text, with their IDs.

The finished rulebook is kept in the disk cache (:mod:`mariage.spec.diskcache`),
keyed like compiled rules by the package, the description's files and the
option values, so a warm run prints it without compiling anything: the
interpreter and the renderer are imported only when the text must be made.
"""

from __future__ import annotations

import argparse
from typing import Any

from . import COMMANDS, parse_options

NAME, HELP = COMMANDS["rules_cmd"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a path to a .yaml file")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="an option value (repeatable)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format: the rulebook as text, or its sections as JSON")


def rulebook_output(source: str, options: dict[str, Any], fmt: str = "text") -> str:
    """What ``mariage rules`` prints for ``source`` with ``options``, in ``fmt``.

    Made once and then read from the disk cache while the package and the
    description's files are unchanged; the text is the same either way.

    >>> text = rulebook_output("marianna", {})
    >>> "[marianna.trick.winner]" in text and text == rulebook_output("marianna", {})
    True
    """
    from mariage.spec.specload import cache_context, resolve_ruleset

    from ..spec import diskcache

    key = diskcache.make_key("rulebook", fmt, *cache_context(resolve_ruleset(source)),
                             sorted((k, str(v)) for k, v in options.items()))
    hit = diskcache.load(key)
    if isinstance(hit, str):
        return hit
    text = _make(source, options, fmt)
    from mariage.spec.specload import load_document

    diskcache.store(key, text, load_document(source).paths)
    return text


def _make(source: str, options: dict[str, Any], fmt: str) -> str:
    import dataclasses
    import json

    from mariage.rulebook.render import render_text, rulebook
    from mariage.spec.rulesload import load_rules

    rules = load_rules(source, options)
    if fmt == "json":
        book = dataclasses.asdict(rulebook(rules, source))
        return json.dumps(book, indent=2, ensure_ascii=False) + "\n"
    return render_text(rules, source)


def run(args: argparse.Namespace) -> int:
    print(rulebook_output(str(args.ruleset), parse_options(args.option), args.format), end="")
    return 0
