"""A pytest plugin: run the conformance suite inside an engine's own test suite.

Installed with the package (entry point ``pytest11``), it does nothing unless
``--mariage-engine`` is given::

    pytest --mariage-engine "./my-engine --json"
    pytest --mariage-engine CMD --mariage-ruleset mariglia --mariage-kind scenario

Each conformance test becomes one pytest item, ``mariage/RULESET/...``,
carrying its rule IDs (as ``rule`` user properties, shown in JUnit XML, and
in the failure report, with the rule IDs the failure is charged to). Tests
of rulesets or option values the engine does not support are skipped; as
with ``mariage conformance``, a session in which every conformance test was
skipped fails, and a failed handshake fails every item at once.

>>> ConformanceItem.__name__
'ConformanceItem'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from .limits import MAX_HANGS

if TYPE_CHECKING:
    from .client import EngineClient
    from .configuration import Configuration
    from .results import Outcome
    from .suite import Test

# The runner is imported when a session runs an engine (--mariage-engine), not when the
# plugin is loaded: installed, it is loaded by every pytest session (its own tests'
# too), and the runner's modules took a quarter of a second to import.

__all__ = ["ConformanceFailure", "ConformanceItem"]

_CLIENT: pytest.StashKey[EngineClient] = pytest.StashKey()
_STATE = pytest.StashKey[dict[str, Any]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mariage-conformance", "the mariage conformance suite")
    group.addoption("--mariage-engine", metavar="CMD", default=None,
                    help="run the mariage conformance suite against this engine command")
    group.addoption("--mariage-ruleset", action="append", default=[], metavar="R",
                    help="only the tests of this ruleset (repeatable)")
    group.addoption("--mariage-rule", action="append", default=[], metavar="ID",
                    help="only tests checking this rule ID, or IDs starting with it if it "
                         "ends in '.' (repeatable)")
    group.addoption("--mariage-kind", action="append", default=[], metavar="K",
                    choices=["golden", "scenario", "option", "perft"],
                    help="only tests of this kind (repeatable)")
    group.addoption("--mariage-timeout", type=float, default=10.0, metavar="S",
                    help="seconds the engine has to answer each request (default 10)")
    group.addoption("--mariage-max-hangs", type=int, default=MAX_HANGS, metavar="N",
                    help="after the engine timed out on N tests in a row, fail the tests "
                         "left at once instead of running them (default 3; 0: never)")
    group.addoption("--mariage-option", action="append", default=[], metavar="NAME=VALUE",
                    help="run the suite derived for the --mariage-ruleset with this option "
                         "value (repeatable; the engine's house rules)")
    group.addoption("--mariage-declared", action="store_true",
                    help="run the suites derived for the configurations the engine's hello "
                         "declares (its house rules; with --mariage-ruleset, of those only)")


class ConformanceFailure(Exception):
    """A conformance test that failed or ended in an engine error."""

    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome
        super().__init__(outcome.message)


class ConformanceItem(pytest.Item):
    """One conformance test, run through the session's engine."""

    def __init__(self, *, test: Test, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.test = test
        self.user_properties.extend(("rule", r) for r in test.rules)
        self.add_marker(pytest.mark.mariage(ruleset=test.ruleset, kind=test.kind,
                                            rules=test.rules))

    def runtest(self) -> None:
        """Run the conformance test against the engine; a failure raises with its details."""
        from .client import HandshakeError
        from .results import Outcome
        from .runner import TEST_TIMEOUT, HangWatch, run_test

        state = self.config.stash[_STATE]
        if state.get("aborted"):
            raise ConformanceFailure(Outcome(self.test.id, self.test.ruleset, self.test.kind,
                                             self.test.rules, "error", state["aborted"],
                                             engine_failure=state["abort_kind"]))
        client = self.config.stash[_CLIENT]
        try:
            out = run_test(client, self.test, TEST_TIMEOUT)
        except HandshakeError as exc:
            state["aborted"] = f"the engine failed its handshake: {exc.message}"
            state["abort_kind"] = "handshake"
            raise ConformanceFailure(Outcome(self.test.id, self.test.ruleset, self.test.kind,
                                             self.test.rules, "error", state["aborted"],
                                             engine_failure="handshake")) from None
        if out.status == "skip":
            pytest.skip(out.message)
        state["ran"] = state.get("ran", 0) + 1
        watch = state.get("hangs")
        if watch is None:
            watch = state["hangs"] = HangWatch(self.config.getoption("--mariage-max-hangs"))
        if watch.note(out):
            state["aborted"] = f"not run: {watch.why()} (--mariage-max-hangs {watch.limit})"
            state["abort_kind"] = "timeout"
        if out.status != "pass":
            self.user_properties.extend(("charged", r) for r in out.blamed)
            raise ConformanceFailure(out)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        """A failed conformance test as its report (rule IDs, details), not a traceback."""
        if isinstance(excinfo.value, ConformanceFailure):
            o = excinfo.value.outcome
            lines = [f"{self.test.id} ({o.status}): {o.message}"]
            lines.extend(f"  {d}" for d in o.further)
            lines.append(f"rules: {', '.join(self.test.rules)}")
            if o.status in ("fail", "error"):
                lines.append(f"charged to: {', '.join(o.blamed)}" if o.blamed
                             else "charged to no rule (an engine failure)")
            return "\n".join(lines)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        """Where the test lives (its file in the suite) and its name."""
        return self.test.path or self.test.id, None, f"mariage conformance: {self.test.id}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "mariage(ruleset, kind, rules): a mariage conformance "
                            "test, with the rule IDs it checks")
    command = config.getoption("--mariage-engine")
    if command is None:
        return
    from .client import EngineClient, check_command, check_timeout

    try:
        check_command(command)
        timeout = check_timeout(config.getoption("--mariage-timeout"), "--mariage-timeout")
    except ValueError as exc:
        raise pytest.UsageError(str(exc).replace("--engine", "--mariage-engine")) from None
    config.stash[_CLIENT] = EngineClient.for_command(command, timeout=timeout)
    config.stash[_STATE] = {}


def _configurations(config: pytest.Config) -> list[Configuration]:
    """The configuration of ``--mariage-ruleset`` with the ``--mariage-option`` values,
    or those the engine declares (``--mariage-declared``)."""
    from .client import HandshakeError
    from .configuration import declared_configurations, make_configuration

    sets = config.getoption("--mariage-ruleset")
    try:
        if not config.getoption("--mariage-declared"):
            if len(sets) != 1:
                raise ValueError("--mariage-option needs exactly one --mariage-ruleset")
            return [make_configuration(sets[0], config.getoption("--mariage-option"))]
        if config.getoption("--mariage-option"):
            raise ValueError("--mariage-declared derives the suites of the configurations "
                             "the engine declares: leave out --mariage-option")
        try:
            info = config.stash[_CLIENT].hello()
        except HandshakeError as exc:
            raise ValueError(f"--mariage-declared: the engine failed its handshake: "
                             f"{exc.message}") from None
        configs = declared_configurations(info, tuple(sets))
        if not configs:
            raise ValueError("--mariage-declared: the engine's hello declares no "
                             "configurations (docs/protocol.rst, 'configurations')")
        return configs
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None


def _derived(config: pytest.Config) -> list[Test]:
    """The suites derived for the configurations, filtered by rule and kind (each ID
    ending in ``[K]`` when there are several)."""
    from .derivedrun import derived_runs

    runs = derived_runs(_configurations(config), config.getoption("--mariage-rule"),
                        config.getoption("--mariage-kind"))
    return [t for r in runs for t in r.tests]


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    if config.getoption("--mariage-engine") is None:
        return
    from .suite import load_suite

    derived = config.getoption("--mariage-option") or config.getoption("--mariage-declared")
    tests = _derived(config) if derived else load_suite(
        rulesets=config.getoption("--mariage-ruleset"), rules=config.getoption("--mariage-rule"),
        kinds=config.getoption("--mariage-kind"))
    if not tests:
        raise pytest.UsageError("no mariage conformance test matches the filters")
    mine = [ConformanceItem.from_parent(session, name=f"mariage/{t.id}", test=t)
            for t in tests]
    items.extend(mine)
    # reported as collected, as a collector's items are: the terminal's "collected N
    # items" then counts them (it said "collected 0 items" and ran the suite anyway)
    config.hook.pytest_collectreport(report=pytest.CollectReport(
        "mariage-conformance", "passed", None, list(mine)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if _CLIENT not in config.stash:
        return
    config.stash[_CLIENT].close()
    ran = config.stash[_STATE].get("ran", 0)
    mine = [i for i in session.items if isinstance(i, ConformanceItem)]
    if mine and not ran and not config.stash[_STATE].get("aborted") \
            and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line("mariage conformance: FAILED: no test ran (the engine "
                                "supports none of the selected tests)", red=True)
