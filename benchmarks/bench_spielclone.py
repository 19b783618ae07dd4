"""Benchmark: pyspiel's ``clone()`` of a mariage OpenSpiel state, and a search built on it.

pyspiel clones a Python state by making a new initial state and deep-copying each
of its attributes (see :mod:`mariage.ai.spielcopy`); OpenSpiel's own searches
(``MCTSBot``, and the C++ algorithms run on a Python game) clone at every
simulation. For each ruleset asked, in one process, this times:

* a *library decision*: ``legal_actions()`` and ``apply`` of the engine's own
  state, over random playouts (the unit of every ratio below);
* the engine's ``GameState.clone()``;
* pyspiel's ``state.clone()`` of the OpenSpiel state at the same points;
* one ``MCTSBot.step`` (random rollouts, ``--sims`` simulations) at a decision of
  the first hand.

Medians of CPU time (``time.process_time`` over batches), reported as ratios to
a library decision, so that runs on different machines compare.

    python benchmarks/bench_spielclone.py                    # marianna schnapsen thousand belote
    python benchmarks/bench_spielclone.py --sims 40 marianna
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import mariage
from mariage import load_rules, new_match

DEFAULT = ("marianna", "schnapsen", "thousand", "belote")


def _batch_cpu(fn: Callable[[], object], n: int, repeat: int) -> float:
    """The median over ``repeat`` batches of ``n`` calls of ``fn``: CPU seconds a call."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(n):
            fn()
        times.append((time.process_time() - t) / n)
    return statistics.median(times)


def library_decision(ruleset: str, hands: int, seed: int) -> float:
    """CPU seconds of one ``legal_actions()`` + ``apply`` over random single hands."""
    rules = load_rules(ruleset)
    rng = random.Random(seed)
    decisions = 0
    t = time.process_time()
    for k in range(hands):
        state = new_match(rules, seed + k)
        hand = state.hand_no
        while not state.terminal and state.hand_no == hand:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return (time.process_time() - t) / decisions


def measure(ruleset: str, sims: int, repeat: int) -> dict[str, float]:
    """The figures of one ruleset (CPU seconds)."""
    import numpy as np
    import pyspiel
    from mariage.ai import openspiel_game
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(openspiel_game.game_name(ruleset))
    rng = random.Random(7)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    for _ in range(4):  # a few decisions into the hand
        state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
    engine = state.gs
    bot = mcts.MCTSBot(game, 2, sims, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    return {
        "decision": min(library_decision(ruleset, 100, 1) for _ in range(repeat)),
        "engine clone": _batch_cpu(engine.clone, 500, repeat),
        "pyspiel clone": _batch_cpu(state.clone, 200, repeat),
        "mcts step": _batch_cpu(lambda: bot.step(state), 1, repeat),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--sims", type=int, default=40, help="MCTS simulations a step (40)")
    parser.add_argument("--repeat", type=int, default=5, help="batches, median kept (5)")
    args = parser.parse_args(argv)
    print(f"pyspiel clone and MCTSBot.step against a library decision; mariage from "
          f"{mariage.__file__}")
    print(f"{'ruleset':<12} {'decision µs':>12} {'engine clone':>13} {'pyspiel clone':>14} "
          f"{'mcts step':>10}   (ratios to a decision; mcts step: {args.sims} simulations)")
    for ruleset in args.rulesets:
        f = measure(ruleset, args.sims, args.repeat)
        d = f["decision"]
        print(f"{ruleset:<12} {d * 1e6:>12.2f} {f['engine clone'] / d:>13.1f} "
              f"{f['pyspiel clone'] / d:>14.1f} {f['mcts step'] / d:>10.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
