"""Deliberately faulty engines: each breaks one rule the way a real engine author might.

They prove the suite's strength: ``mariage conformance`` must fail every one
of them, on a test that names the broken rule (the kill table in
``docs/conformance.rst``). Each is the reference engine with one hook changed:
the compiled rules patched (:meth:`~mariage.conformance.engine.ReferenceEngine.make_rules`),
or one mechanism replaced by a subclass through the documented extension point
of :mod:`mariage.engine.mechanisms` (the ``mechanisms=`` argument of
:class:`~mariage.engine.state.GameState`), or, for the core rules of turn and end that
the state's own dispatch checks, its public :meth:`~mariage.engine.state.GameState.apply`
overridden. The reference interpreter itself is never edited.

Run one as a protocol engine with ``python -m mariage.conformance.faulty NAME``;
with no name, the list is printed.

>>> fault = FAULTS["declare-after-stock"]
>>> fault.rule
'marianna.decl.window'
>>> engine = FaultyEngine(fault)
>>> engine.make_rules("marianna", {}).decl_window
'hand'
"""

from __future__ import annotations

import sys
from typing import Any

from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from . import (
    faulty_belote,
    faulty_bidding,
    faulty_core,
    faulty_marjapussi,
    faulty_talon,
    faulty_thousand,
)
from .engine import ReferenceEngine, serve
from .faultkit import FAULTS, Fault

__all__ = ["FAULTS", "Fault", "FaultyEngine", "main"]

#: The families, in the order their faults are registered (and listed).
FAMILIES = (faulty_core, faulty_talon, faulty_bidding, faulty_belote, faulty_thousand,
            faulty_marjapussi)


class FaultyEngine(ReferenceEngine):
    """The reference engine with one :class:`Fault` built in."""

    def __init__(self, fault: Fault) -> None:
        super().__init__()
        self.fault = fault
        self.name = f"faulty:{fault.name}"
        # compiled rules -> the same rules with the fault: patched once each, so that what
        # the engine works out once per rules (dispatch, generated code) is reused
        self._patched: dict[int, tuple[Rules, Rules]] = {}

    def make_rules(self, ruleset: str, options: dict[str, Any]) -> Rules:
        rules = super().make_rules(ruleset, options)
        if not self.fault.patch:
            return rules
        hit = self._patched.get(id(rules))
        if hit is None or hit[0] is not rules:
            hit = self._patched[id(rules)] = (rules, self.fault.patch(rules))
        return hit[1]

    def make_state(self, rules: Rules, dealer: int | None) -> GameState:
        cls = self.fault.state_class or GameState
        return cls(rules, first_dealer=dealer,
                   mechanisms=self.fault.mechanisms or DEFAULT_MECHANISMS)


def main(argv: list[str] | None = None) -> int:
    """``python -m mariage.conformance.faulty NAME``: serve that faulty engine."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in FAULTS:
        for f in FAULTS.values():
            print(f"{f.name:30} {f.rule:34} {f.description}")
        return 0 if not args else 2
    return serve(FaultyEngine(FAULTS[args[0]]), sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())

