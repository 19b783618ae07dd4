"""Reports of a conformance run: text summary, JSON, JUnit XML; the expected-failures file.

Report files are written atomically (a temporary file in the same folder,
then a rename), so a reader never sees half a report.

>>> from mariage.conformance.runner import Outcome, RunResult
>>> run = RunResult([Outcome("a", "marianna", "scenario", ("core.hand",), "pass"),
...                  Outcome("b", "marianna", "scenario", ("core.turn",), "fail", "wrong")],
...                 None, 0.5, 10, 0)
>>> tally(run.outcomes)["marianna"]
{'pass': 1, 'fail': 1, 'error': 0, 'skip': 0, 'xfail': 0, 'xpass': 0}
>>> by_rule(run.outcomes)["core.turn"]["fail"]
1
>>> parse_expected("# comment\\nb  # known bug\\n", "x.txt")
['b']
"""

from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..errors import did_you_mean, expect_each, expect_str, printable, shown
from . import RUNNER_VERSION
from .client import LOG_LIMIT
from .protocol import PROTOCOL_VERSION
from .results import SKIP_REASONS, Outcome, RunResult
from .suite import SuiteError

__all__ = ["MAX_MESSAGE_SHOWN", "MAX_STALE_SHOWN", "by_rule", "json_report", "junit_xml",
           "parse_expected", "refusal_line", "skip_summary", "summary_text", "tally",
           "trace_text", "uncharged", "write_atomic"]

STATUSES = ("pass", "fail", "error", "skip", "xfail", "xpass")


def _zero() -> dict[str, int]:
    return dict.fromkeys(STATUSES, 0)


def tally(outcomes: Iterable[Outcome]) -> dict[str, dict[str, int]]:
    """Counts of each status per ruleset."""
    out: dict[str, dict[str, int]] = {}
    for o in expect_each(outcomes, Outcome, "tally: outcomes"):
        out.setdefault(o.ruleset, _zero())[o.status] += 1
    return dict(sorted(out.items()))


def by_rule(outcomes: Iterable[Outcome]) -> dict[str, dict[str, Any]]:
    """Counts of each status per rule ID, with the failing test IDs.

    A passing or skipped test counts for every rule it names; a failing one
    counts (and is listed) only under the rule IDs it is charged to
    (:attr:`~mariage.conformance.runner.Outcome.blamed`).
    """
    out: dict[str, dict[str, Any]] = {}
    for o in expect_each(outcomes, Outcome, "by_rule: outcomes"):
        for rule in (o.rules if o.ok else o.blamed):
            entry = out.setdefault(rule, {**_zero(), "failing": []})
            entry[o.status] += 1
            if not o.ok:
                entry["failing"].append(o.id)
    return dict(sorted(out.items()))


def _expect_run(run: object, call: str) -> RunResult:
    """``run`` if it is a :class:`RunResult`, else a ``TypeError`` naming ``call`` (``None``
    or a list of outcomes failed deep inside, as an ``AttributeError``)."""
    if not isinstance(run, RunResult):
        raise TypeError(f"{call}: run must be a RunResult (run_suite makes one), "
                        f"not {type(run).__name__}")
    return run


def skip_summary(run: RunResult) -> dict[str, dict[str, Any]]:
    """Skipped tests by reason: ``{reason: {"text", "count", "why": {message: [ids]}}}``."""
    out: dict[str, dict[str, Any]] = {}
    for key, items in _expect_run(run, "skip_summary").skips().items():
        why: dict[str, list[str]] = {}
        for o in items:
            why.setdefault(o.message, []).append(o.id)
        out[key] = {"text": SKIP_REASONS.get(key, key), "count": len(items), "why": why}
    return out


#: The stale expectations the text summary lists; the rest are counted (the JSON report
#: lists every one).
MAX_STALE_SHOWN = 100

#: A test's message, or a line of its further details, is cut to this many characters in
#: the summary: it may quote an engine's answer, a value of up to a line's 1 MiB (a state
#: field of 70,000 characters was one line of the report). ``--json`` keeps it whole.
MAX_MESSAGE_SHOWN = 1000


def _message_line(text: str) -> str:
    """``text`` as the summary prints it: :func:`printable`, at most
    :data:`MAX_MESSAGE_SHOWN` characters, then how long it was.

    >>> _message_line("x" * 1500)[-44:]
    'xx... (1500 characters; --json has it whole)'
    """
    line = printable(text)
    if len(line) <= MAX_MESSAGE_SHOWN:
        return line
    return f"{line[:MAX_MESSAGE_SHOWN]}... ({len(line)} characters; --json has it whole)"


def summary_text(run: RunResult, verbose: bool = False) -> str:
    """A human summary: failures first, then per ruleset, then failing rule IDs."""
    lines: list[str] = []
    for o in _expect_run(run, "summary_text").outcomes:
        if not o.ok or (verbose and o.status not in ("pass", "skip")):
            lines.append(f"{o.status.upper():5} {o.id}: {_message_line(o.message)}")
            lines.extend(f"      {_message_line(d)}" for d in o.further)
        elif verbose and o.status == "skip":
            lines.append(f"SKIP  {o.id}: {_message_line(o.message)}")
    skips = skip_summary(run)
    if skips:
        lines.append("")
        lines.append("skipped tests, by reason:")
        for entry in skips.values():
            lines.append(f"  {entry['text']}: {entry['count']}")
            for msg, ids in entry["why"].items():
                lines.append(f"    {_message_line(msg)}: {len(ids)}")
    lines.append("")
    lines.append(f"{'ruleset':20} " + " ".join(f"{s:>5}" for s in STATUSES))
    totals = _zero()
    for name, counts in tally(run.outcomes).items():
        lines.append(f"{name:20} " + " ".join(f"{counts[s]:>5}" for s in STATUSES))
        for s in STATUSES:
            totals[s] += counts[s]
    lines.append(f"{'total':20} " + " ".join(f"{totals[s]:>5}" for s in STATUSES))
    bad = {r: e for r, e in by_rule(run.outcomes).items() if e["failing"]}
    if bad:
        lines.append("")
        lines.append("rule IDs with failing tests:")
        for rule, e in bad.items():
            lines.append(f"  {rule}: {', '.join(e['failing'])}")
    loose = uncharged(run.outcomes)
    if loose:
        lines.append("")
        lines.append("engine failures charged to no rule (the engine crashed, hung or wrote "
                     "garbage while answering a request no rule was named for):")
        for kind, ids in loose.items():
            lines.append(f"  {kind}: {', '.join(ids)}")
    for s in run.stale[:MAX_STALE_SHOWN]:
        lines.append(f"STALE expected failure: {s} (no such test in the suite"  # a
                     f"{did_you_mean(s, ())})")  # look-alike (U+2010 for '-') named
    if len(run.stale) > MAX_STALE_SHOWN:  # (an --expect file of another suite: a line each)
        lines.append(f"... and {len(run.stale) - MAX_STALE_SHOWN} more stale expected "
                     "failures not shown (--json lists them all)")
    if run.not_run:
        lines.append(f"NOT RUN: {run.not_run} tests (the run stopped before them)")
    lines.append("")
    lines.append(refusal_line(run))
    lines.append(f"{len(run.outcomes)} tests ({run.ran} run) in {run.seconds:.1f} s, "
                 f"{run.requests} requests, {run.restarts} engine restarts: {run.verdict()}")
    return "\n".join(lines)


def uncharged(outcomes: Iterable[Outcome]) -> dict[str, list[str]]:
    """The tests that did not pass because the engine failed (crash, timeout, garbage)
    and that are charged to no rule, by kind of failure.

    >>> o = Outcome("t", "marianna", "scenario", ("core.hand",), "error",
    ...             engine_failure="crash")
    >>> uncharged([o])
    {'crash': ['t']}
    """
    out: dict[str, list[str]] = {}
    for o in expect_each(outcomes, Outcome, "uncharged: outcomes"):
        if not o.ok and o.engine_failure and not o.blamed:
            out.setdefault(o.engine_failure, []).append(o.id)
    return dict(sorted(out.items()))


def refusal_line(run: RunResult) -> str:
    """The two levels of refusals: refused at all, and refused naming the rule.

    >>> from mariage.conformance.runner import Outcome, RunResult
    >>> o = Outcome("t", "marianna", "scenario", (), "pass", refusals=3, refused=3, named=1)
    >>> refusal_line(RunResult([o], None, 0.0, 0, 0))
    'refusals: 3/3 refused; rule named: 1/3'
    """
    expected, refused, named = _expect_run(run, "refusal_line").refusal_levels()
    return f"refusals: {refused}/{expected} refused; rule named: {named}/{expected}"


def json_report(run: RunResult) -> dict[str, Any]:
    """The JSON report (``docs/conformance.rst`` describes its fields)."""
    _expect_run(run, "json_report")
    return {
        "runner_version": RUNNER_VERSION,
        "protocol": PROTOCOL_VERSION,
        "engine": {k: v for k, v in (run.engine or {}).items() if k != "rulesets"},
        "ok": run.ok,
        "verdict": run.verdict(),
        "aborted": run.aborted or None,
        "ran": run.ran,
        "skipped": skip_summary(run),
        "seconds": round(run.seconds, 3),
        "requests": run.requests,
        "restarts": run.restarts,
        "stale_expectations": run.stale,
        "not_run": run.not_run,
        "engine_failures": uncharged(run.outcomes),
        "rulesets": tally(run.outcomes),
        "rules": by_rule(run.outcomes),
        "refusals": dict(zip(("expected", "refused", "named"), run.refusal_levels(),
                             strict=True)),
        "tests": [{"id": o.id, "ruleset": o.ruleset, "kind": o.kind, "rules": list(o.rules),
                   "charged": list(o.blamed) if not o.ok else [],
                   "status": o.status, "message": o.message, "details": o.details,
                   "skip_reason": o.skip_reason or None, "step": o.step,
                   "engine_failure": o.engine_failure or None, "request": o.request,
                   "seconds": round(o.seconds, 4)} for o in run.outcomes],
    }


def junit_xml(run: RunResult) -> str:
    """The JUnit XML report: one ``testsuite`` per ruleset."""
    _expect_run(run, "junit_xml")
    root = ET.Element("testsuites", name="mariage conformance", tests=str(len(run.outcomes)),
                      time=f"{run.seconds:.3f}")
    groups: dict[str, list[Outcome]] = {}
    for o in run.outcomes:
        groups.setdefault(o.ruleset, []).append(o)
    for name, items in sorted(groups.items()):
        counts = tally(items)[name]
        suite = ET.SubElement(root, "testsuite", name=name, tests=str(len(items)),
                              failures=str(counts["fail"] + counts["xpass"]),
                              errors=str(counts["error"]),
                              skipped=str(counts["skip"] + counts["xfail"]),
                              time=f"{sum(o.seconds for o in items):.3f}")
        for o in items:
            case = ET.SubElement(suite, "testcase", name=o.id, classname=f"{name}.{o.kind}",
                                 time=f"{o.seconds:.4f}")
            ET.SubElement(case, "properties").extend(
                [ET.Element("property", name="rule", value=r) for r in o.rules])
            message = _xml_text(o.message)  # an engine's words: no control character
            if o.status in ("fail", "xpass"):
                ET.SubElement(case, "failure", message=message).text = "\n".join(
                    _xml_text(d) for d in o.details or [o.message]) + (
                    f"\ncharged to: {', '.join(o.blamed)}")
            elif o.status == "error":
                ET.SubElement(case, "error", message=message,
                              type=o.engine_failure or "error").text = message + (
                    f"\ncharged to: {', '.join(o.blamed)}" if o.blamed
                    else "\ncharged to no rule (an engine failure)")
            elif o.status in ("skip", "xfail"):
                ET.SubElement(case, "skipped", message=f"{o.status}: {message}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def _xml_text(text: str) -> str:
    """``text`` as :func:`~mariage.errors.printable` shows it, and with the two
    noncharacters XML 1.0 refuses (U+FFFE, U+FFFF) escaped: a message quoting what an
    engine wrote (``\\u0000``, an escape sequence) keeps the report well-formed.

    >>> _xml_text("nul\\x00 \\ufffe")
    'nul\\\\x00 \\\\ufffe'
    """
    return printable(text).replace("\ufffe", "\\ufffe").replace("\uffff", "\\uffff")


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    The policy of every output (:func:`mariage.outfile.write_output`).
    """
    from ..outfile import write_output

    write_output(os.fspath(path), text)


#: The longest test ID an expected-failures file may list.
MAX_TEST_ID = 1000


def parse_expected(text: str, where: str) -> list[str]:
    """Test IDs listed in an expected-failures file (one per line, ``#`` comments).

    A line that is no test ID (two words, a control character, more than
    :data:`MAX_TEST_ID` characters: a binary or wrong file) is refused, quoted cut,
    before any test runs.

    >>> parse_expected("a/b/c  # known\\n\\n", "e.txt")
    ['a/b/c']
    >>> parse_expected("x" * 1200, "e.txt")
    Traceback (most recent call last):
        ...
    mariage.conformance.suite.SuiteError: e.txt:1:1: not a test ID (1200 characters; at most 1000)
    """
    out: list[str] = []
    text = expect_str(text, "parse_expected: text")
    for n, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):  # a BOM: none
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if len(line) > MAX_TEST_ID:
            raise SuiteError(f"{where}:{n}:1: not a test ID ({len(line)} characters; "
                             f"at most {MAX_TEST_ID})")
        if len(line.split()) != 1:
            raise SuiteError(f"{where}:{n}:1: one test ID per line, got {shown(line)}")
        if not line.isprintable():
            raise SuiteError(f"{where}:{n}:1: not a test ID ({_unprintable(line)}): "
                             f"{shown(line)}")
        out.append(line)
    return out


def _unprintable(line: str) -> str:
    """What makes ``line`` unprintable: a control character (Unicode category Cc), an
    invisible one (a format character such as a zero-width space, Cf), or another.

    >>> _unprintable("a\u200bb"), _unprintable("a\x1bb"), _unprintable("a\ue000")
    ('an invisible character', 'a control character', 'a character that cannot be shown')
    """
    import unicodedata

    kinds = {unicodedata.category(c) for c in line if not c.isprintable()}
    return "a control character" if "Cc" in kinds else "an invisible character" \
        if "Cf" in kinds else "a character that cannot be shown"


def dump_json(run: RunResult) -> str:
    """The JSON report as text."""
    return json.dumps(json_report(run), indent=1, sort_keys=True) + "\n"


def trace_text(run: RunResult) -> str:
    """The exchange of every failing test as a replayable script.

    Each test starts with ``# test ID: message``; each request is a line of its
    own and the engine's answer follows as a ``#< ...`` comment, so
    ``grep -v '^#' FILE | ENGINE`` replays the requests.

    >>> from mariage.conformance.runner import Outcome, RunResult
    >>> o = Outcome("a", "marianna", "scenario", ("core.hand",), "fail", "wrong",
    ...             exchange=[('{"type":"state"}', '{"type":"ok"}')])
    >>> print(trace_text(RunResult([o], None, 0.0, 1, 0)))
    # test a (fail): wrong
    {"type":"hello","protocol":2}
    {"type":"state"}
    #< {"type":"ok"}
    <BLANKLINE>
    """
    lines: list[str] = []
    for o in _expect_run(run, "trace_text").outcomes:
        if o.ok or not o.exchange:
            continue
        lines.append(f"# test {o.id} ({o.status}): {printable(o.message)}")  # one line
        lines.append(json.dumps({"type": "hello", "protocol": PROTOCOL_VERSION},
                                separators=(",", ":")))
        for req, resp in o.exchange:
            lines.append(req)
            lines.append(f"#< {resp}" if resp else "#< (no answer)")
        if len(o.exchange) >= LOG_LIMIT:
            lines.append(f"# (trace cut after {LOG_LIMIT} requests)")
        lines.append("")
    return "\n".join(lines)
