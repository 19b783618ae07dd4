"""Train a masked policy-gradient agent on Schnapsen on the CPU, with numpy only.

The agent is a linear softmax policy over the observation vector, with illegal
actions masked out; it learns by REINFORCE with a running-mean baseline from the
game points of each hand (``reward="game_points"``; one hand per episode). After a
fixed budget it is measured against ``random`` and ``greedy`` over paired deals, and
its weights are saved so that ``mariage match`` can play it::

    python docs/examples/train_schnapsen.py --hands 4000 --out agent.npz
    export MARIAGE_AGENT=agent.npz
    mariage match schnapsen --bot B=greedy --games 20 --engine \\
        "A=python -m mariage.arena.agent_engine --agent docs/examples/train_schnapsen.py:load"

``load(rules)`` (the factory the engine calls) reads the weights named by
``MARIAGE_AGENT``.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import gymnasium
import mariage.ai.gym_env  # noqa: F401  (registers mariage/<ruleset>-v0)
import numpy as np
import numpy.typing as npt
from mariage.ai.encoding import ActionSpace, Encoder
from mariage.ai.evaluate import Evaluation, evaluate

Array = npt.NDArray[np.float64]


class LinearAgent:
    """A softmax over ``W @ [x, 1]``, illegal actions masked out."""

    def __init__(self, n_obs: int, n_actions: int) -> None:
        self.w: Array = np.zeros((n_actions, n_obs + 1))

    def probabilities(self, x: Array, mask: npt.NDArray[Any]) -> Array:
        logits = self.w @ np.append(x, 1.0)
        logits[mask == 0] = -np.inf
        logits -= logits.max()
        p: Array = np.exp(logits)
        return p / p.sum()

    def act(self, x: Array, mask: npt.NDArray[Any], rng: np.random.Generator,
            explore: bool = True) -> int:
        p = self.probabilities(x, mask)
        return int(rng.choice(len(p), p=p)) if explore else int(p.argmax())


def train(hands: int, opponents: str = "random", seed: int = 0, lr: float = 0.05,
          agent: LinearAgent | None = None) -> LinearAgent:
    """REINFORCE over ``hands`` hands of Schnapsen against ``opponents``."""
    env = gymnasium.make("mariage/schnapsen-v0", opponents=opponents,
                         reward="game_points", max_hands=1)
    space = env.observation_space["observation"].shape[0]  # type: ignore[index]
    agent = agent or LinearAgent(space, env.action_space.n)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    baseline = 0.0
    for episode in range(hands):
        obs, _ = env.reset(seed=seed * 1_000_003 + episode)
        steps: list[tuple[Array, npt.NDArray[Any], int]] = []
        total, done = 0.0, False
        while not done:
            x = obs["observation"].astype(np.float64)
            a = agent.act(x, obs["action_mask"], rng)
            steps.append((x, obs["action_mask"], a))
            obs, reward, terminated, truncated, _ = env.step(a)
            total += float(reward)
            done = terminated or truncated
        advantage = total - baseline
        baseline += 0.02 * (total - baseline)
        for x, mask, a in steps:
            p = agent.probabilities(x, mask)
            grad = -p
            grad[a] += 1.0
            agent.w += lr * advantage * np.outer(grad, np.append(x, 1.0))
    env.close()
    return agent


class TrainedPolicy:
    """The trained agent as a policy: for :mod:`mariage.arena.agent_engine` and
    :func:`mariage.ai.evaluate.evaluate`. It reads only the view of the seat to act."""

    name = "trained"

    def __init__(self, rules: Any, agent: LinearAgent) -> None:
        self.encoder = Encoder(rules)
        self.space = ActionSpace(rules)
        self.agent = agent
        self.rng = np.random.default_rng(0)

    def choose(self, state: Any) -> Any:
        seat = state.to_act

        def pick(mask: npt.NDArray[Any], picked: int) -> int:
            # picked: the cards chosen so far where a set is passed one card at a time
            x = self.encoder.vector(state, seat, picked).astype(np.float64)
            return self.agent.act(x, mask, self.rng, explore=False)

        return self.space.decide(state, pick)


def measure(agent: LinearAgent, opponents: str, deals: int = 200,
            seed: int = 10_000) -> Evaluation:
    """Hands won against ``opponents`` over paired deals (each deal twice, the agent in
    each seat), by the library's :func:`~mariage.ai.evaluate.evaluate`."""
    return evaluate("schnapsen", lambda rules: TrainedPolicy(rules, agent), opponents,
                    deals=deals, seed=seed)


def read_agent(path: str) -> LinearAgent:
    """The agent whose weights ``main`` saved to ``path``."""
    weights = np.load(path)["w"]
    agent = LinearAgent(weights.shape[1] - 1, weights.shape[0])
    agent.w = weights
    return agent


def load(rules: Any) -> TrainedPolicy:
    """The engine's factory: the weights named by ``MARIAGE_AGENT`` (default agent.npz)."""
    path = os.environ.get("MARIAGE_AGENT", "agent.npz")
    try:
        agent = read_agent(path)
    except (OSError, KeyError, ValueError) as e:  # no such file, not saved by main
        raise SystemExit(f"train_schnapsen: no weights in {path!r} (MARIAGE_AGENT): "
                         f"{e}") from None
    return TrainedPolicy(rules, agent)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--hands", type=int, default=4000, help="training hands (4000)")
    parser.add_argument("--deals", type=int, default=200, help="paired deals to measure")
    parser.add_argument("--opponents", default="random", help="policy trained against")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="agent.npz", help="where to save the weights")
    args = parser.parse_args(argv)
    for name, least in (("hands", 0), ("deals", 1), ("seed", 0)):
        if getattr(args, name) < least:
            parser.error(f"--{name} must be {least} or more, not {getattr(args, name)}")
    out = args.out if args.out.endswith(".npz") else args.out + ".npz"  # numpy adds it
    if not os.path.isdir(os.path.dirname(out) or "."):  # found now, not after training
        parser.error(f"--out {args.out}: there is no folder {os.path.dirname(out)}")
    try:
        agent = train(args.hands, args.opponents, args.seed)
    except ValueError as e:  # an unknown policy
        parser.error(f"--opponents: {e}")
    np.savez(out, w=agent.w)
    for opponents in ("random", "greedy"):
        result = measure(agent, opponents, args.deals)
        lo, hi = result.interval()
        print(f"against {opponents}: {result.wins}-{result.draws}-{result.losses} "
              f"of {result.games} hands, rate {result.rate:.3f} (95% {lo:.3f}-{hi:.3f})")
    print(f"weights saved to {out}")


if __name__ == "__main__":
    main()
