"""What a conformance run found: one :class:`Outcome` per test, and the :class:`RunResult`.

>>> o = Outcome("demo/1", "marianna", "scenario", ("core.hand",), "fail")
>>> o.ok, o.blamed
(False, ('core.hand',))
>>> RunResult([o], None, 0.1, 3, 0).verdict()
'FAILED: 1 tests failed'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: the ruleset of a protocol test that needs no match: it runs against any engine
ANY_RULESET = "*"

__all__ = ["SKIP_REASONS", "Outcome", "RunResult"]

#: Why a test is skipped: the reason key and its text in reports.
SKIP_REASONS = {
    "ruleset": "ruleset not supported",
    "option": "option not supported",
    "value": "option value not supported",
    "configuration": "configuration not played",
    "derivation": "does not hold under the configuration",
}


@dataclass
class Outcome:
    """The result of one test: ``pass``, ``fail``, ``error`` or ``skip``.

    After expected failures are applied, ``xfail`` (failed as expected) and
    ``xpass`` (listed as failing but passed: this fails the run) may appear.
    """

    id: str
    ruleset: str
    kind: str
    rules: tuple[str, ...]
    status: str
    message: str = ""
    step: int | None = None
    seconds: float = 0.0
    #: for a skip: the key of :data:`SKIP_REASONS`
    skip_reason: str = ""
    #: the rule IDs a failure is charged to (those of the step where it happened)
    charged: tuple[str, ...] = ()
    #: every difference found (a test goes on past its first one where it can)
    details: list[str] = field(default_factory=list)
    #: the exchange of a failing test (request, response) for ``--trace``
    exchange: list[tuple[str, str]] = field(default_factory=list)
    #: steps reached that expect a refusal naming a rule ID; of them, those the engine
    #: refused with the expected code, and those where it also named that rule
    refusals: int = 0
    refused: int = 0
    named: int = 0
    #: for an ``error``: how the engine failed (``crash``, ``timeout``, ``garbage``;
    #: ``handshake`` in the pytest plugin, for a test after a failed handshake)
    engine_failure: str = ""
    #: for an ``error``: the number of the request in the test it happened on (1: ``start``)
    request: int | None = None

    @property
    def blamed(self) -> tuple[str, ...]:
        """The rule IDs this outcome counts against: :attr:`charged`, else all the test's;
        an engine failure counts against :attr:`charged` alone (often none: a crash is
        no evidence against the rules a test names).

        >>> Outcome("t", "m", "scenario", ("a", "b"), "error", engine_failure="crash").blamed
        ()
        """
        if self.engine_failure:
            return self.charged
        return self.charged or self.rules

    @property
    def further(self) -> list[str]:
        """The differences to show under :attr:`message`: :attr:`details` after the
        first, less those the message already holds (a perft test's first differing node).

        >>> Outcome("t", "m", "perft", (), "fail", "counts; node: KH",
        ...         details=["counts", "node: KH"]).further
        []
        """
        return [d for d in self.details[1:] if d not in self.message]

    @property
    def ok(self) -> bool:
        """True if this outcome does not fail the run."""
        return self.status in ("pass", "xfail", "skip")


@dataclass
class RunResult:
    """Every outcome of a run, plus the engine's handshake and the counters."""

    outcomes: list[Outcome]
    engine: dict[str, Any] | None
    seconds: float
    requests: int
    restarts: int
    stale: list[str] = field(default_factory=list)
    #: why the run stopped before its end (a failed handshake, an engine that hangs on
    #: test after test), else ``""``
    aborted: str = ""
    #: how many tests of the run were not run because it stopped
    not_run: int = 0

    @property
    def ran(self) -> int:
        """How many tests were run (not skipped)."""
        return sum(1 for o in self.outcomes if o.status != "skip")

    def refusal_levels(self) -> tuple[int, int, int]:
        """Steps expecting a refusal with a rule ID, how many the engine refused (with
        the expected code), and how many of those named the rule."""
        return (sum(o.refusals for o in self.outcomes), sum(o.refused for o in self.outcomes),
                sum(o.named for o in self.outcomes))

    @property
    def ok(self) -> bool:
        """True when at least one test ran, every test passed or failed as expected,
        no expectation is stale and the run was not stopped; and, where the run holds
        tests of rulesets, one of those ran (an engine that plays none of them is not
        passed on the protocol tests alone)."""
        return (all(o.ok for o in self.outcomes) and not self.stale and not self.aborted
                and self.ran > 0 and not self.rules_unchecked)

    @property
    def rules_unchecked(self) -> bool:
        """True when the run holds tests of rulesets and every one was skipped: only the
        protocol tests (ruleset ``*``) ran.

        >>> o = Outcome("p", "*", "protocol", (), "pass")
        >>> RunResult([o], None, 0.0, 0, 0).rules_unchecked
        False
        >>> skipped = Outcome("m", "mariglia", "scenario", (), "skip", skip_reason="ruleset")
        >>> RunResult([o, skipped], None, 0.0, 0, 0).rules_unchecked
        True
        """
        games = [o for o in self.outcomes if o.ruleset != ANY_RULESET]
        return bool(games) and all(o.status == "skip" for o in games)

    def skips(self) -> dict[str, list[Outcome]]:
        """Skipped tests by reason (keys of :data:`SKIP_REASONS`)."""
        out: dict[str, list[Outcome]] = {}
        for o in self.outcomes:
            if o.status == "skip":
                out.setdefault(o.skip_reason or "ruleset", []).append(o)
        return out

    def verdict(self) -> str:
        """One line: why the run failed, or that it passed.

        >>> RunResult([], None, 0.0, 0, 0).verdict()
        'FAILED: no test ran'
        """
        if self.aborted:
            return f"FAILED: the run stopped: {self.aborted}"
        if self.ran == 0:
            parts = [f"{len(v)} skipped ({SKIP_REASONS[k]})" for k, v in self.skips().items()]
            return "FAILED: no test ran" + (": " + ", ".join(parts) if parts else "")
        if self.rules_unchecked:
            parts = [f"{len(v)} skipped ({SKIP_REASONS[k]})" for k, v in self.skips().items()]
            return (f"FAILED: no test of a ruleset ran ({', '.join(parts)}); only the "
                    f"{self.ran} protocol tests did")
        bad = [o for o in self.outcomes if not o.ok]
        if bad or self.stale:
            return (f"FAILED: {len(bad)} tests failed" +
                    (f", {len(self.stale)} stale expectations" if self.stale else ""))
        return "PASSED"
