"""``mariage conformance``: run the conformance suite against an engine.

Without ``--engine`` the bundled reference engine is run as a subprocess and
checked through the same protocol. Exit 0 only when every test passed or
failed as listed in ``--expect``; 1 otherwise.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from ..conformance.client import EngineClient, check_command, check_timeout
from ..conformance.coverage import UNREACHABLE, coverage, coverage_text
from ..conformance.regen import regenerate
from ..conformance.reports import (
    dump_json,
    junit_xml,
    parse_expected,
    summary_text,
    trace_text,
    write_atomic,
)
from ..conformance.runner import TEST_TIMEOUT, Outcome, run_suite
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
                        choices=["golden", "scenario", "option", "perft", "protocol"],
                        help="run only tests of this kind (repeatable)")
    parser.add_argument("--require-rule-ids", action="store_true",
                        help="fail a refusal that does not name the expected rule ID (by "
                             "default it counts as a refusal, reported apart)")
    parser.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    parser.add_argument("--json", metavar="FILE", help="write a JSON report")
    parser.add_argument("--expect", metavar="FILE",
                        help="expected failures: one test ID per line (an expected failure "
                             "that passes fails the run)")
    parser.add_argument("--timeout", type=_seconds("--timeout"), default=10.0, metavar="S",
                        help="seconds the engine has to answer each request (default 10; "
                             "above 0, at most 86400)")
    parser.add_argument("--test-timeout", type=_seconds("--test-timeout"),
                        default=TEST_TIMEOUT, metavar="S",
                        help=f"seconds a whole test may take (default {TEST_TIMEOUT:g})")
    parser.add_argument("--trace", metavar="FILE",
                        help="write the request/response exchange of every failing test to "
                             "FILE, as a replayable script")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress on standard error (default: when it is a "
                             "terminal)")
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


def _seconds(flag: str) -> Any:
    """An argparse type: a finite number of seconds above 0 (one-line usage error otherwise)."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
        try:
            return check_timeout(value, flag)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    parse.__name__ = "seconds"
    return parse


def _progress_printer(total: int) -> Any:
    done = [0]

    def show(o: Outcome) -> None:
        done[0] += 1
        sys.stderr.write(f"\r\x1b[K[{done[0]}/{total}] {o.status:5} {o.id}"[:200])
        if done[0] == total:
            sys.stderr.write("\r\x1b[K")
        sys.stderr.flush()
    return show


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
    if args.engine is not None:
        check_command(args.engine)
        command = args.engine
    else:
        command = f"{shlex.quote(sys.executable)} -m mariage engine"
    client = EngineClient.for_command(command, timeout=args.timeout)
    if args.trace:
        client.start_log()
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    try:
        result = run_suite(client, tests, expected,
                           progress=_progress_printer(len(tests)) if show else None,
                           test_timeout=args.test_timeout,
                           require_rules=args.require_rule_ids)
    finally:
        client.close()
    result.stale = stale
    if result.outcomes:  # a run stopped part way still reports what it did
        print(summary_text(result, verbose=args.verbose))
    if result.aborted:
        sys.stderr.write(f"mariage: error: {result.aborted}\n")
    if args.json:
        write_atomic(args.json, dump_json(result))
    if args.junit:
        write_atomic(args.junit, junit_xml(result))
    if args.trace:
        write_atomic(args.trace, trace_text(result))
    return 0 if result.ok else 1
