"""The PettingZoo step's refusal of a number that is no action id, in every kind of
phase: the mask a step checks against is bytes in the play phase and a NumPy array
elsewhere, and neither may read an id past the last (or a negative one) as legal."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.phase import Phase


def _at(ruleset: str, phase: Phase) -> MariageEnv:
    """An environment of ``ruleset`` whose agent to act is in ``phase`` (random play,
    seeded, from one match to the next)."""
    env = MariageEnv(ruleset, max_hands=2)
    rng = random.Random(ruleset)
    for seed in range(20):
        env.reset(seed=seed)
        while env.agents:
            state = env.state_
            assert state is not None
            _, _, terminated, truncated, info = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
                continue
            if state.phase == phase and not env.picked:
                return env
            env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
    raise AssertionError(f"no {phase} in {ruleset}")


@pytest.mark.parametrize(("ruleset", "phase"), [("thousand", Phase.AUCTION),
                                                ("thousand", Phase.PLAY),
                                                ("marjapussi-de", Phase.PASSING),
                                                ("schnapsen", Phase.PLAY)])
@pytest.mark.parametrize("kind", ["size", "negative", "2**63", "10**30", "numpy size"])
def test_a_number_past_the_ids_is_refused_in_every_phase(ruleset: str, phase: Phase,
                                                          kind: str) -> None:
    """An id at or past the space's size, a negative one, or one too large for NumPy,
    is refused with a ValueError naming the ids, and the match is unchanged."""
    env = _at(ruleset, phase)
    size = env.space.size
    bad: object = {"size": size, "negative": -1, "2**63": 2**63, "10**30": 10**30,
                   "numpy size": np.int64(size)}[kind]
    assert env.state_ is not None
    before = (len(env.state_.history), env.state_.phase, env.agent_selection,
              env.state_.to_act, env.picked, bytes(env.last()[0]["action_mask"]))  # type: ignore[index]
    with pytest.raises(ValueError, match=rf"is not an action id \(0 to {size - 1}\)"):
        env.step(bad)  # type: ignore[arg-type]
    after = (len(env.state_.history), env.state_.phase, env.agent_selection,
             env.state_.to_act, env.picked, bytes(env.last()[0]["action_mask"]))  # type: ignore[index]
    assert after == before
    legal = int(np.flatnonzero(env.last()[0]["action_mask"])[-1])  # type: ignore[index]
    env.step(legal)  # still steps
