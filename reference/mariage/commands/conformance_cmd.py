"""``mariage conformance``: run the conformance suite against an engine.

Without ``--engine`` the bundled reference engine is run as a subprocess and
checked through the same protocol. Exit 0 only when every test passed or
failed as listed in ``--expect``; 1 otherwise.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..conformance.limits import MAX_HANGS, TEST_TIMEOUT, check_timeout
from ..errors import MariageError, whole_number

if TYPE_CHECKING:  # the runner's modules are imported when the command runs, not for --help
    from ..conformance.client import EngineClient
    from ..conformance.configuration import Configuration
    from ..conformance.coverage import RuleCoverage
    from ..conformance.derivedrun import DerivedRun
    from ..conformance.results import Outcome
    from ..conformance.suite import Test
    from ..engine.rules import Rules

from . import COMMANDS, description_files, path_arg, seconds_arg

NAME, HELP = COMMANDS["conformance_cmd"]
#: Where an installed wheel keeps its data; --regenerate never writes there.
INSTALLED = Path(__file__).resolve().parent.parent / "_data"
#: The configurations ``--declared`` runs unless told more (``--max-configurations``):
#: each is a suite derived and run, a minute or so; a hello may list thousands.
MAX_DECLARED = 64


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
    parser.add_argument("--expect", metavar="FILE", type=path_arg,
                        help="expected failures: one test ID per line (an expected failure "
                             "that passes fails the run)")
    parser.add_argument("--timeout", type=_seconds("--timeout"), default=10.0, metavar="S",
                        help="seconds the engine has to answer each request (default 10; "
                             "above 0, at most 86400)")
    parser.add_argument("--test-timeout", type=_seconds("--test-timeout"),
                        default=TEST_TIMEOUT, metavar="S",
                        help=f"seconds a whole test may take (default {TEST_TIMEOUT:g})")
    parser.add_argument("--max-hangs", type=_count("--max-hangs"), default=MAX_HANGS,
                        metavar="N",
                        help=f"stop the run when the engine times out on N tests in a row, "
                             f"saying how many were not run (default {MAX_HANGS}; 0: never)")
    parser.add_argument("--trace", metavar="FILE",
                        help="write the request/response exchange of every failing test to "
                             "FILE, as a replayable script")
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress on standard error (default: when it is a "
                             "terminal)")
    parser.add_argument("--suite", metavar="DIR", type=path_arg,
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
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="run the suite derived for this configuration: the --ruleset "
                             "with this option value (repeatable; the others at their "
                             "defaults)")
    parser.add_argument("--spec", action="append", default=[], metavar="FILE",
                        help="run the suite derived for a house description (a .yaml file "
                             "that extends a bundled ruleset)")
    parser.add_argument("--derived", action="store_true",
                        help="run the suite derived for the --ruleset at its defaults")
    parser.add_argument("--declared", action="store_true",
                        help="run the suites derived for the configurations the engine's "
                             "hello declares (its house rules; with --ruleset, only those "
                             "of that ruleset)")
    parser.add_argument("--max-configurations", type=_count("--max-configurations"),
                        metavar="N",
                        help="--declared runs a derived suite for each configuration: "
                             f"refuse more than N of them (default {MAX_DECLARED}; 0: no "
                             "limit)")
    parser.add_argument("--write-suite", metavar="DIR",
                        help="write the derived suite as test files under DIR/tests (run "
                             "them later with --suite DIR) instead of running it")
    parser.add_argument("--min-coverage", type=_percent, metavar="P",
                        help="fail unless at least P percent of the rules of each ruleset "
                             "run are checked by a focused test that ran and names them")


def _percent(text: str) -> float:
    """An argparse type: a percentage from 0 to 100 (``nan`` and ``200`` are refused: no
    run could meet them, or every run would), in ASCII digits as every number of the
    command line (``float()`` alone took ``'١'``, ``'1_0'``, ``' 5'``)."""
    try:
        value = seconds_arg(text)  # the same digits, whatever they count
    except argparse.ArgumentTypeError:
        value = math.nan
    if not 0 <= value <= 100:
        shown = text if len(text) <= 24 else text[:20] + "..."
        raise argparse.ArgumentTypeError(f"a percentage from 0 to 100, got {shown!r}")
    return value


def _count(flag: str) -> Any:
    """An argparse type: a whole number from 0 to 1,000,000 (one-line usage error
    otherwise)."""
    def parse(text: str) -> int:
        value = whole_number(text)  # ASCII digits: int() alone took '１', '1_0', ' 3'
        if value is None or not 0 <= value <= 1_000_000:
            shown = text if len(text) <= 24 else text[:20] + "..."
            raise argparse.ArgumentTypeError(f"{flag}: a whole number from 0 to 1000000, "
                                             f"got {shown!r}")
        return value
    parse.__name__ = "count"
    return parse


def _seconds(flag: str) -> Any:
    """An argparse type: a finite number of seconds above 0 (one-line usage error otherwise)."""
    def parse(text: str) -> float:
        value = seconds_arg(text)  # ASCII digits and a '.' (float() took '١', '1_0')
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
    import shlex

    from ..conformance.client import EngineClient, HandshakeError, check_command
    from ..conformance.coverage import UNREACHABLE, coverage, coverage_text
    from ..conformance.regen import regenerate
    from ..conformance.suite import load_suite
    from ..outfile import check_destinations
    from ..resources import conformance_dir

    # refused before any work, not after the run
    check_destinations([("--json", args.json), ("--junit", args.junit), ("--trace", args.trace)],
                       reads=[*(p for p in (args.expect, *args.spec) if p),
                              *description_files(*(args.ruleset or ()))])
    _refuse_unused(args)  # a flag that would be left unused: a usage error, not exit 0
    if args.write_suite == "-":  # standard output elsewhere: here a folder named "-"
        raise ValueError("--write-suite -: this option writes a folder, not standard output "
                         "(./- names a folder called -)")
    if args.write_suite:
        from ..conformance.derive import check_suite_folder

        check_suite_folder(Path(args.write_suite))
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
        cov = _coverage_of(args, cov)
        print(coverage_text(cov))
        return 1 if any(not ids and k not in UNREACHABLE for k, ids in cov.items()) else 0
    if args.engine is not None:  # a usage error before the suite is read
        check_command(args.engine)
    if args.engine is not None:
        command = args.engine
    else:
        command = f"{shlex.quote(sys.executable)} -m mariage engine" + (
            " --ruleset-files" if args.spec else "")
    client = EngineClient.for_command(command, timeout=args.timeout)
    try:
        return _run(args, client, root)
    except HandshakeError as exc:
        sys.stderr.write(f"mariage: error: the engine failed its handshake: {exc.message}\n")
        return 1
    finally:
        client.close()


def _run(args: argparse.Namespace, client: EngineClient, root: Path) -> int:
    import json

    from ..conformance.configuration import suite_configuration
    from ..conformance.derive import derive_suite, write_suite
    from ..conformance.derivedrun import derived_runs
    from ..conformance.reports import (
        dump_json,
        junit_xml,
        parse_expected,
        summary_text,
        trace_text,
        write_atomic,
    )
    from ..conformance.results import Outcome
    from ..conformance.runner import run_suite
    from ..conformance.suite import load_suite, read_suite_file

    if args.trace:
        client.start_log()
    configs = _configurations(args, client)
    if configs and args.write_suite:
        config = configs[0]
        derived = derive_suite(config)
        n = write_suite(derived, Path(args.write_suite))
        sys.stderr.write(f"{n} tests of the suite derived for {config.label} written to "
                         f"{args.write_suite}/tests ({len(derived.skipped)} stored tests "
                         f"left out: {args.write_suite}/skipped.txt)\n")
        return 0
    runs = derived_runs(configs, args.rule, args.kind)
    # a suite written by --write-suite: its coverage is its configuration's
    written = suite_configuration(root) if args.suite and not runs else None
    left_out = [Outcome(tid, r.configuration.ruleset, "scenario", (), "skip", why,
                        skip_reason="derivation") for r in runs for tid, why in r.skipped.items()]
    if runs:
        tests = [t for r in runs for t in r.tests]
    else:
        tests = load_suite(root / "tests", rulesets=args.ruleset, rules=args.rule,
                           kinds=args.kind)
    if not tests:
        raise ValueError("no test matches the --ruleset/--rule/--kind filters"
                         + _unknown_ruleset(args.ruleset))
    expected: list[str] = []
    stale: list[str] = []
    if args.expect:
        expected = parse_expected(read_suite_file(Path(args.expect), f"--expect {args.expect}"),
                                  args.expect)
        # the stored suite is parsed whole only if a listed ID is not among those selected
        every = {t.id for t in tests} if not configs else set()
        if any(e not in every for e in expected):
            every = {t.id for t in load_suite(root / "tests")}
        stale = [e for e in expected if e not in every]
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    result = run_suite(client, tests, expected,
                       progress=_progress_printer(len(tests)) if show else None,
                       test_timeout=args.test_timeout,
                       require_rules=args.require_rule_ids,
                       max_hangs=args.max_hangs)
    result.stale = stale
    result.outcomes.extend(left_out)
    covered = _coverages(result.outcomes, tests, runs, written)
    if result.outcomes:  # a run stopped part way still reports what it did
        print(summary_text(result, verbose=args.verbose))
        for rc in covered:
            print(rc.text())
    declared = (result.engine or {}).get("configurations")
    if declared and not configs and written is None:  # a written suite is derived
        print(f"the engine declares {len(declared)} configuration"
              f"{'s' if len(declared) > 1 else ''} of house rules in its hello: --declared "
              "runs the suite derived for each")
    low = [c for c in covered if args.min_coverage is not None
           and c.percent < args.min_coverage]
    for rc in low:
        print(f"FAILED: {rc.percent:.1f}% of the rules of {rc.label} are checked, "
              f"below --min-coverage {args.min_coverage:g}")
    if result.aborted:
        sys.stderr.write(f"mariage: error: {result.aborted}\n")
    if args.json:
        report = json.loads(dump_json(result))
        report["coverage"] = [{"configuration": c.label, "rules": len(c.rules),
                               "checked": sorted(r for r in c.rules if c.checked.get(r)),
                               "unchecked": c.unchecked, "unreachable": list(c.unreachable),
                               "not_in_force": list(c.not_in_force),
                               "percent": round(c.percent, 1)} for c in covered]
        write_atomic(args.json, json.dumps(report, indent=1, sort_keys=True) + "\n")
    if args.junit:
        write_atomic(args.junit, junit_xml(result))
    if args.trace:
        write_atomic(args.trace, trace_text(result))
    return 0 if result.ok and not low else 1


def _configurations(args: argparse.Namespace, client: EngineClient) -> list[Configuration]:
    """The configurations of a derived run (none for a run of the stored suite): the
    command line's, or those the engine declares (``--declared``)."""
    if not args.declared:
        if args.max_configurations is not None:
            raise ValueError("--max-configurations goes with --declared (the configurations "
                             "the engine declares): give both, or leave it out")
        config = _configuration(args)
        return [] if config is None else [config]
    if args.option or args.spec or args.derived or args.suite:
        raise ValueError("--declared derives the suites of the configurations the engine "
                         "declares: leave out -o, --spec, --derived and --suite")
    from ..conformance.configuration import declared_configurations

    limit = MAX_DECLARED if args.max_configurations is None else args.max_configurations
    unique = declared_configurations(client.hello(), tuple(args.ruleset), at_most=limit)
    if not unique:
        of = f" of {', '.join(args.ruleset)}" if args.ruleset else ""
        raise ValueError(f"--declared: the engine's hello declares no configurations{of} "
                         "(docs/protocol.rst, 'configurations'); give --ruleset R -o "
                         "NAME=VALUE instead")
    if args.write_suite and len(unique) > 1:
        raise ValueError(f"--write-suite writes one configuration's suite; the engine "
                         f"declares {len(unique)}: choose one with --ruleset R -o NAME=VALUE")
    return unique


#: what a run takes and ``--coverage`` (which runs nothing) would leave unused
_RUN_ONLY = (("--engine", "engine"), ("--rule", "rule"), ("--kind", "kind"), ("-o", "option"),
             ("--spec", "spec"), ("--derived", "derived"), ("--declared", "declared"),
             ("--write-suite", "write_suite"), ("--expect", "expect"), ("--json", "json"),
             ("--junit", "junit"), ("--trace", "trace"), ("--min-coverage", "min_coverage"),
             ("--max-configurations", "max_configurations"))


#: what only a run of tests reads: reports, expectations, the tests' filters
_REPORTS = (("--rule", "rule"), ("--kind", "kind"), ("--expect", "expect"), ("--json", "json"),
            ("--junit", "junit"), ("--trace", "trace"), ("--min-coverage", "min_coverage"),
            ("--require-rule-ids", "require_rule_ids"))


def _given(args: argparse.Namespace, flags: tuple[tuple[str, str], ...]) -> list[str]:
    """The ``flags`` given a value on the command line (not left at their defaults)."""
    return [flag for flag, dest in flags if getattr(args, dest) not in (None, False, [])]


def _refuse_unused(args: argparse.Namespace) -> None:
    """A usage error for what ``--regenerate`` or ``--write-suite`` (which run no test)
    would leave unused: a report asked for and never written, with exit 0, said nothing
    of the engine it named. ``--check`` goes with ``--regenerate`` only (alone, the whole
    suite ran)."""
    if args.check and not args.regenerate:
        raise ValueError("--check goes with --regenerate (it only prints the diff of the "
                         "regenerated test files): give both, or leave out --check")
    if args.regenerate:
        unused = _given(args, (*_RUN_ONLY, ("--ruleset", "ruleset"), ("--coverage",
                                                                      "coverage")))
        if unused:
            raise ValueError(f"--regenerate rebuilds every generated test file and runs "
                             f"nothing: leave out {', '.join(unused)}")
    elif args.write_suite:
        unused = _given(args, _REPORTS)
        if unused:
            raise ValueError(f"--write-suite writes the derived suite and runs nothing: "
                             f"leave out {', '.join(unused)} (run the suite it wrote "
                             f"with --suite DIR and these)")


def _unknown_ruleset(names: list[str]) -> str:
    """``"; --ruleset: unknown ruleset 'X' (known: ...); did you mean ..."`` for the first
    of ``names`` that is no ruleset, or ``""``: why a run's filters matched no test."""
    from ..errors import UnknownRulesetError
    from ..spec.specload import resolve_name

    for name in names:
        try:
            resolve_name(name)
        except UnknownRulesetError as exc:
            return f"; --ruleset: {exc}"
    return ""


def _coverage_of(args: argparse.Namespace, cov: dict[str, list[str]]) -> dict[str, list[str]]:
    """``cov`` (``"ruleset rule-id"`` -> tests) for the ``--ruleset`` given (all without);
    a usage error for what a run takes (it was left unused: exit 0 whatever it said)."""
    unused = [flag for flag, dest in _RUN_ONLY if getattr(args, dest) not in (None, False, [])]
    if unused:
        raise ValueError(f"--coverage lists the stored tests of each rule and runs nothing: "
                         f"leave out {', '.join(unused)}")
    if not args.ruleset:
        return cov
    known = {key.split(" ", 1)[0] for key in cov}
    for ruleset in args.ruleset:
        if ruleset not in known:
            raise ValueError(f"--ruleset: unknown ruleset '{ruleset[:64]}'")
    return {key: ids for key, ids in cov.items() if key.split(" ", 1)[0] in args.ruleset}


def _configuration(args: argparse.Namespace) -> Configuration | None:
    """The configuration of a derived run, or ``None`` for a run of the stored suite."""
    if not (args.option or args.spec or args.derived or args.write_suite):
        return None
    if not args.ruleset and not args.spec:  # say which option needs it
        given = "-o" if args.option else "--derived" if args.derived else "--write-suite"
        raise ValueError(f"{given} needs --ruleset R (or --spec FILE)")
    if len(args.ruleset) > 1:
        raise ValueError("a configuration has one ruleset: give --ruleset once")
    if args.suite:
        raise ValueError("--suite runs stored test files; a configuration's suite is derived")
    if len(args.spec) > 1:
        raise ValueError("a configuration has one house description: give --spec once")
    from ..conformance.configuration import make_configuration

    return make_configuration(args.ruleset[0] if args.ruleset else None, args.option,
                              args.spec[0] if args.spec else None)


def _coverages(outcomes: list[Outcome], tests: list[Test], runs: list[DerivedRun],
               written: Configuration | None = None) -> list[RuleCoverage]:
    """The rule coverage of each ruleset at least one test of the run ran in (a ruleset
    whose tests were all skipped is not reported: the engine does not play it); of each
    configuration of a derived run, and of the configuration a suite of ``--suite DIR``
    was written for (``written``), as its derived run reports it; the rules a
    configuration makes unreachable are left out alike, named by a stored test or not."""
    from ..conformance.coverage import run_coverage, unreachable_under
    from ..spec.rulesload import load_rules

    if runs:
        out = []
        for run in runs:
            own, c = run.ids, run.configuration
            out.append(run_coverage([o for o in outcomes if o.id in own], c.ruleset,
                                    c.rules.rule_ids, c.label, _switched_off(c.rules),
                                    unreachable_under(c.rules)))
        return out
    if written is not None and any(o.ruleset == written.ruleset and o.status != "skip"
                                   for o in outcomes):
        try:
            rules = written.rules
        except MariageError:  # a description file no longer where it was: as stored
            pass
        else:
            return [run_coverage(outcomes, written.ruleset, rules.rule_ids, written.label,
                                 _switched_off(rules), unreachable_under(rules))]
    out = []
    ran = {o.ruleset for o in outcomes if o.status != "skip"}
    for ruleset in sorted({t.ruleset for t in tests} & ran):
        try:
            rules = load_rules(ruleset)
        except MariageError:
            continue
        out.append(run_coverage(outcomes, ruleset, rules.rule_ids, ruleset,
                                _switched_off(rules), unreachable_under(rules)))
    return out


def _switched_off(rules: Rules) -> tuple[str, ...]:
    """The rules the options in force switch off (the rulebook's "not in force")."""
    from ..spec.inforce import not_in_force

    return not_in_force(rules)
