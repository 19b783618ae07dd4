"""The suite's strength: run every faulty engine and see which tests kill it.

A faulty engine is *killed* when at least one test that names its broken rule
fails against it (other failing tests are listed too). Engines run in this
process over OS pipes (:class:`~mariage.conformance.client.ThreadTransport`),
through the same protocol code as a subprocess.
"""

from __future__ import annotations

from dataclasses import dataclass

from .client import EngineClient, ThreadTransport
from .faulty import FAULTS, Fault, FaultyEngine
from .runner import run_suite
from .suite import Test, load_suite

__all__ = ["Kill", "kill_table", "run_fault"]


@dataclass(frozen=True)
class Kill:
    """What the suite did to one faulty engine."""

    fault: Fault
    naming: tuple[str, ...]  # failing tests that name the broken rule
    others: tuple[str, ...]  # other failing tests

    @property
    def killed(self) -> bool:
        """True if a test naming the broken rule failed."""
        return bool(self.naming)


FOCUSED = ("scenario", "option")


def run_fault(fault: Fault, tests: list[Test], kinds: tuple[str, ...] = FOCUSED,
              naming_only: bool = False) -> Kill:
    """Run the ``tests`` of the fault's rulesets and of ``kinds`` against it.

    With ``naming_only``, only the tests that name the broken rule run: whether the
    fault is killed is the same (only they can kill it), but ``others`` stays empty.
    """
    mine = [t for t in tests if t.ruleset in fault.rulesets and t.kind in kinds
            and (not naming_only or fault.rule in t.rules)]
    client = EngineClient(lambda: ThreadTransport(FaultyEngine(fault)), timeout=20)
    try:
        result = run_suite(client, mine)
    finally:
        client.close()
    failing = [o for o in result.outcomes if not o.ok]
    naming = tuple(o.id for o in failing if fault.rule in o.rules and o.kind in FOCUSED)
    others = tuple(o.id for o in failing if o.id not in naming)
    return Kill(fault, naming, others)


def kill_table(tests: list[Test] | None = None, kinds: tuple[str, ...] = FOCUSED) -> list[Kill]:
    """Every faulty engine against the suite (by default its focused tests only)."""
    suite = tests if tests is not None else load_suite()
    return [run_fault(f, suite, kinds) for f in FAULTS.values()]
