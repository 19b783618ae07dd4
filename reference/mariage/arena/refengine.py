"""The reference engine with ``choose``: ``python -m mariage.arena.refengine``.

It is ``mariage engine`` (:class:`~mariage.conformance.engine.ReferenceEngine`),
whose answer to the protocol's ``choose`` request comes from the bot named
on its command line::

    > {"type": "choose", "budget_ms": 1000}
    < {"type": "choose", "seat": 1, "action": "KH"}

The action is chosen for the seat to act by a built-in player (``--bot``:
``random``, ``greedy``, ``mc`` or ``ismcts``) from a determinization of that seat's
view only (:func:`~mariage.arena.search.determinize`). ``mariage engine``
answers ``choose`` with the bot the request names, ``greedy`` where it names none
(as ``mariage match`` asks); this command plays the bot of its command line
whatever the request, and adds the faults below. Like ``mariage engine`` it accepts hidden cards
(protocol version 2): in ``mariage match`` it is dealt only its seat's view.

``--fault`` makes a deliberately faulty engine, for testing the referee:
``illegal`` answers a card its seat does not hold, ``timeout`` never
answers, ``crash`` exits, ``garbage`` writes a line that is not JSON; each
from the ``--fault-after``-th choose on (counted over the engine's life).

>>> engine = ChoosingEngine("greedy", seed=1)
>>> deck = [f"{r}{s}" for s in "HDCS" for r in "A3KQJ76542"]
>>> engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": deck})
{'type': 'ok'}
>>> reply = engine.handle({"type": "choose", "budget_ms": 100})
>>> reply["type"], reply["seat"], reply["action"] in ["marianna:H", "AH", "3H", "KH", "QH", "JH"]
('choose', 1, True)
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from mariage.engine.actiontext import action_text

from ..conformance.engine import ReferenceEngine, serve
from . import BOT_NAMES
from .players import make_chooser
from .search import determinize

__all__ = ["ChoosingEngine", "main"]

FAULTS = ("none", "illegal", "timeout", "crash", "garbage")


class ChoosingEngine(ReferenceEngine):
    """The reference engine, answering ``choose`` with a built-in player."""

    name = "mariage-reference-choose"

    def __init__(self, bot: str = "greedy", seed: int = 0, playouts: int = 96,
                 fault: str = "none", fault_after: int = 1) -> None:
        super().__init__()
        self.bot = make_chooser(bot, seed, playouts)
        self.rng = random.Random(seed)
        self.fault = fault
        self.fault_after = fault_after
        self.chosen = 0
        self.name = f"reference-{bot}" + ("" if fault == "none" else f"-{fault}")

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("type") == "choose":
            return self.choose()
        return super().handle(msg)

    def choose(self) -> dict[str, Any]:
        """The action of the seat to act, from its view only."""
        state, rules = self.state, self.rules
        if state is None or rules is None:
            return {"type": "error", "code": "no_match", "message": "start a match first"}
        seat = state.to_act
        if seat is None:
            return {"type": "error", "code": "bad_request", "message": "no seat is to act"}
        if self.hidden is not None and seat != self.hidden.seat:
            return {"type": "error", "code": "bad_request", "message": "this hand was dealt "
                    f"as seat {self.hidden.seat} sees it: choose only for that seat"}
        self.chosen += 1
        if self.fault != "none" and self.chosen >= self.fault_after:
            if self.fault == "illegal":
                foreign = next(c for c in range(rules.ncards) if not state.hands[seat] >> c & 1)
                return {"type": "choose", "seat": seat, "action": rules.card_code[foreign]}
            if self.fault == "timeout":
                time.sleep(3600)
            if self.fault == "crash":
                sys.stdout.flush()
                os._exit(3)
            if self.fault == "garbage":
                return {"type": "choose", "seat": seat, "action": None}
        action = self.bot.choose(determinize(state, seat, self.rng))
        return {"type": "choose", "seat": seat, "action": action_text(rules, action)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mariage.arena.refengine",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="greedy", choices=BOT_NAMES)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--playouts", type=int, default=96,
                        help="playouts per move (mc), iterations (ismcts)")
    parser.add_argument("--fault", default="none", choices=FAULTS)
    parser.add_argument("--fault-after", type=int, default=1, metavar="N",
                        help="the first choose that is faulty (default 1)")
    args = parser.parse_args(argv)
    engine = ChoosingEngine(args.bot, args.seed, args.playouts, args.fault, args.fault_after)
    return serve(engine, sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
