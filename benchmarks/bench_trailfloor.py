"""Benchmark: the floor of undo by a trail in pure Python (issue #28, item 2).

The goal "apply+undo at most 1.2x apply" asks an undo that costs a fifth of an apply.
This measures, on the cheapest action there is, a card that does not end its trick, in
default Marianna:

* **hand-written**: the minimal engine's ``apply`` of the card (``minimal_marianna.py``:
  no play duties checked, four writes), then the cheapest trail undo one can write by
  hand for it (the card back in the hand, the trick's two lists popped, the seat to act
  again: four writes, no journal, no dispatch);
* **reference**: ``GameState.apply`` of the same card with undo off, against ``apply``
  then ``undo()`` with undo on (the card journals the seat alone, a trail).

Each figure is the best of ``--repeat`` timed passes over the same positions (mid-trick
states reached by seeded random play; the collector off); the ratios are what matter.

    python benchmarks/bench_trailfloor.py              # 400 positions, best of 30
    python benchmarks/bench_trailfloor.py --positions 100 --repeat 10
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mariage
from mariage.engine.deals import canonical_deck
from minimal_marianna import MinimalMarianna


def positions(count: int, seed: int) -> list[tuple[MinimalMarianna, mariage.GameState, int]]:
    """``count`` mid-trick positions of default Marianna, each in both engines, with a card
    of the seat to act that does not end the trick (legal in both)."""
    rules = mariage.load_rules("marianna")
    rng = random.Random(seed)
    found: list[tuple[MinimalMarianna, mariage.GameState, int]] = []
    while len(found) < count:
        deck = canonical_deck(rules)
        rng.shuffle(deck)
        mini, state = MinimalMarianna(0), mariage.GameState(rules, first_dealer=0)
        mini.deal(list(deck))
        state.deal(list(deck))
        for _ in range(rng.randrange(1, 30)):
            if state.to_act is None:
                break
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if type(action) is not mariage.Play:
                break  # (a declaration: the engines name it differently; start again)
            state.apply(action)
            mini.apply(action.card)
        if state.to_act is None or len(state.trick_cards) >= rules.hand_seats - 1:
            continue
        cards = [a.card for a in state.legal_actions() if type(a) is mariage.Play]
        if cards and mini.to_act == state.to_act:
            found.append((mini, state, cards[0]))
    return found


def best_of(repeat: int, run: Callable[[], float]) -> float:
    """The lowest of ``repeat`` runs of ``run`` (each returns its own seconds)."""
    gc.disable()
    try:
        return min(run() for _ in range(repeat))
    finally:
        gc.enable()


def measure(count: int, repeat: int, seed: int) -> dict[str, float]:
    """µs per position of each measure."""
    pos = positions(count, seed)
    clock = time.perf_counter

    def mini_apply() -> float:
        states = [(m.clone(), c) for m, _, c in pos]
        t = clock()
        for m, c in states:
            m.apply(c)
        return clock() - t

    def mini_apply_undo() -> float:
        states = [(m.clone(), c) for m, _, c in pos]
        t = clock()
        for m, c in states:
            seat: int = m.to_act  # type: ignore[assignment]  # (mid-trick: a seat acts)
            m.apply(c)
            m.hands[seat] |= 1 << c  # the cheapest trail undo, written by hand
            m.trick_cards.pop()
            m.trick_seats.pop()
            m.to_act = seat
        return clock() - t

    plays = mariage.load_rules("marianna").play_actions

    def ref_apply() -> float:
        states = [(s.clone(), plays[c]) for _, s, c in pos]
        t = clock()
        for s, a in states:
            s.apply(a)
        return clock() - t

    def ref_apply_undo() -> float:
        states = [(s.clone(), plays[c]) for _, s, c in pos]
        for s, _ in states:
            s.enable_undo()
        t = clock()
        for s, a in states:
            s.apply(a)
            s.undo()
        return clock() - t

    runs = {"hand-written apply": mini_apply, "hand-written apply+undo": mini_apply_undo,
            "reference apply": ref_apply, "reference apply+undo": ref_apply_undo}
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(3):  # interleaved rounds
        for name, run in runs.items():
            best[name] = min(best[name], best_of(max(1, repeat // 3), run))
    return {name: t / len(pos) * 1e6 for name, t in best.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.positions < 1 or args.repeat < 1:
        parser.error("--positions and --repeat must be at least 1")
    us = measure(args.positions, args.repeat, args.seed)
    print(f"a card within its trick, default Marianna, Python {sys.version.split()[0]}")
    for name, value in us.items():
        print(f"{name:<26}{value:>8.3f} µs")
    print(f"apply+undo / apply, hand-written trail: "
          f"{us['hand-written apply+undo'] / us['hand-written apply']:.2f}")
    print(f"apply+undo / apply, reference trail:    "
          f"{us['reference apply+undo'] / us['reference apply']:.2f}")
    print(f"({args.positions} positions, best of {args.repeat})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
