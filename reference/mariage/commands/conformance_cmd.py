"""``mariage conformance``: run the conformance suite against an engine.

Without ``--engine`` the bundled reference engine is run as a subprocess and
checked through the same protocol. Exit 0 only when every test passed or
failed as listed in ``--expect``; 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..conformance.client import EngineClient
from ..conformance.coverage import UNREACHABLE, coverage, coverage_text
from ..conformance.regen import regenerate
from ..conformance.reports import (
    dump_json,
    junit_xml,
    parse_expected,
    summary_text,
    write_atomic,
)
from ..conformance.runner import run_suite
from ..conformance.suite import load_suite
from ..resources import conformance_dir

NAME = "conformance"
#: Where an installed wheel keeps its data; --regenerate never writes there.
INSTALLED = Path(__file__).resolve().parent.parent / "_data"
HELP = "run the conformance suite against an engine (default: the reference engine)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", metavar="CMD",
                        help="the engine's command line (default: this package's "
                             "'mariage engine')")
    parser.add_argument("--ruleset", action="append", default=[], metavar="R",
                        help="run only the tests of this ruleset (repeatable)")
    parser.add_argument("--rule", action="append", default=[], metavar="ID",
                        help="run only tests that check this rule ID, or every rule ID "
                             "starting with it if it ends in '.' (repeatable)")
    parser.add_argument("--kind", action="append", default=[], metavar="K",
                        choices=["golden", "scenario", "option", "perft"],
                        help="run only tests of this kind (repeatable)")
    parser.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument("--json", metavar="FILE", help="write a JSON report")
    parser.add_argument("--expect", metavar="FILE",
                        help="expected failures: one test ID per line (an expected failure "
                             "that passes fails the run)")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="S",
                        help="seconds the engine has to answer each request (default 10)")
    parser.add_argument("--suite", metavar="DIR",
                        help="the suite folder (default: the bundled conformance/)")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="also list skipped tests and expected failures")
    parser.add_argument("--coverage", action="store_true",
                        help="print rule ID -> tests instead of running; exit 1 if a rule "
                             "has no test")
    parser.add_argument("--regenerate", action="store_true",
                        help="rebuild the generated test files from conformance/sources and "
                             "the reference, printing a diff")
    parser.add_argument("--check", action="store_true",
                        help="with --regenerate: only print the diff; exit 1 if any file "
                             "would change")


def run(args: argparse.Namespace) -> int:
    root = Path(args.suite) if args.suite else conformance_dir()
    if not (root / "tests").is_dir() and not args.regenerate:
        raise ValueError(f"no conformance tests in {root}/tests")
    if args.regenerate and not args.check and root.resolve().is_relative_to(INSTALLED):
        raise ValueError(f"--regenerate would write into the installed package ({root}); "
                         "run it in a source checkout, or pass --suite DIR")
    if args.regenerate:
        changed = regenerate(root, sys.stdout, check=args.check)
        sys.stderr.write(f"{changed} test files {'differ' if args.check else 'updated'}\n")
        return 1 if args.check and changed else 0
    if args.coverage:
        cov = coverage(load_suite(root / "tests"))
        print(coverage_text(cov))
        return 1 if any(not ids and k not in UNREACHABLE for k, ids in cov.items()) else 0
    tests = load_suite(root / "tests", rulesets=args.ruleset, rules=args.rule, kinds=args.kind)
    if not tests:
        raise ValueError("no test matches the --ruleset/--rule/--kind filters")
    expected: list[str] = []
    stale: list[str] = []
    if args.expect:
        path = Path(args.expect)
        if not path.is_file():
            raise ValueError(f"--expect: no such file: {path}")
        expected = parse_expected(path.read_text(encoding="utf-8"), str(path))
        every = {t.id for t in load_suite(root / "tests")}
        stale = [e for e in expected if e not in every]
    command = args.engine or f"{sys.executable} -m mariage engine"
    client = EngineClient.for_command(command, timeout=args.timeout)
    try:
        result = run_suite(client, tests, expected)
    finally:
        client.close()
    result.stale = stale
    print(summary_text(result, verbose=args.verbose))
    if args.json:
        write_atomic(args.json, dump_json(result))
    if args.junit:
        write_atomic(args.junit, junit_xml(result))
    return 0 if result.ok else 1
