"""Evaluate a trained agent against the baselines over paired deals.

The weights that ``train_schnapsen.py`` saved play Schnapsen against each baseline
named, through :func:`mariage.ai.evaluate.evaluate`: every deal twice, the sides
swapped, so the luck of the cards cancels out; the share of hands won comes with its
95% Wilson interval::

    python docs/examples/evaluate_agent.py agent.npz --against random,greedy,ismcts

The agent reads only its seat's view (the observation vector of the seat to act), as
it did in training; the baselines decide on their own seat's view too.
"""

from __future__ import annotations

import argparse
import runpy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mariage.ai.evaluate import Evaluation, evaluate

TRAIN = Path(__file__).resolve().with_name("train_schnapsen.py")


def trained(path: str) -> Callable[[Any], Any]:
    """A factory of the agent saved at ``path``: rules in, a policy out."""
    example = runpy.run_path(str(TRAIN))  # the training example's agent and policy
    agent = example["read_agent"](path)
    policy = example["TrainedPolicy"]
    return lambda rules: policy(rules, agent)


def evaluate_agent(path: str, against: Sequence[str] = ("random", "greedy"),
                   deals: int = 100, seed: int = 1, iterations: int = 60
                   ) -> list[Evaluation]:
    """The agent at ``path`` against each policy of ``against`` over ``deals`` paired
    deals from ``seed`` (``iterations``: the budget of ``ismcts``)."""
    agent = trained(path)
    return [evaluate("schnapsen", agent, name, deals=deals, seed=seed,
                     iterations=iterations) for name in against]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("weights", nargs="?", default="agent.npz",
                        help="the weights train_schnapsen.py saved (agent.npz)")
    parser.add_argument("--against", default="random,greedy",
                        help="baselines, comma-separated: random, first, greedy, mc, ismcts")
    parser.add_argument("--deals", type=int, default=100, help="paired deals (100)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (1)")
    parser.add_argument("--iterations", type=int, default=60, help="ismcts's budget (60)")
    args = parser.parse_args()
    try:
        results = evaluate_agent(args.weights, args.against.split(","), args.deals,
                                 args.seed, args.iterations)
    except (OSError, ValueError) as e:  # no such weights, a baseline unknown
        parser.error(str(e))
    for result in results:
        lo, hi = result.interval()
        print(f"{result.a} v {result.b}: {result.wins}-{result.draws}-{result.losses} "
              f"of {result.games} hands, rate {result.rate:.3f} (95% {lo:.3f}-{hi:.3f})")


if __name__ == "__main__":
    main()
