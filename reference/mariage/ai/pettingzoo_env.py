"""A PettingZoo AEC environment for every ruleset, with Gymnasium spaces.

One episode is one match, dealt from the seeded generator of
``docs/prng.rst`` (``reset(seed=...)``). The agents are the seat names; the
agent to act is the seat to act. Each agent's observation is a dict of
``observation`` (the :class:`~mariage.ai.encoding.Encoder` vector of its own
seat's view) and ``action_mask`` (1 for each legal action id of the
:class:`~mariage.ai.encoding.ActionSpace`); the mask is in ``infos`` too.
When the match ends, each agent of the winning team gets reward +1 and the
others -1 (0 each for a draw). ``max_hands`` truncates a match that has not
ended after so many hands.

>>> env = MariageEnv("mariazza", max_hands=2)
>>> env.reset(seed=3)
>>> agent = env.agent_selection
>>> obs = env.observe(agent)
>>> sorted(obs), bool(obs["action_mask"].any())
(['action_mask', 'observation'], True)
>>> env.step(int(obs["action_mask"].argmax()))
"""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from mariage.engine.deals import SeededDeals
from mariage.engine.state import GameState
from mariage.spec.compile import load_rules

from .encoding import ActionSpace, Encoder

__all__ = ["MariageEnv", "env"]

Obs = dict[str, Any]


class MariageEnv(AECEnv):
    """The AEC environment of one ruleset (with ``options``)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "mariage_v0",
                                          "is_parallelizable": False}

    def __init__(self, ruleset: str = "marianna", options: dict[str, Any] | None = None,
                 max_hands: int = 100, render_mode: str | None = None) -> None:
        super().__init__()
        self.rules = load_rules(ruleset, options or {})
        self.space = ActionSpace(self.rules)
        self.encoder = Encoder(self.rules)
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.possible_agents = list(self.rules.seat_names)
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.encoder.size,),
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.space.size,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.space.size)
                              for a in self.possible_agents}
        self.state_: GameState | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deal_seed = seed if seed is not None else secrets.randbits(64)
        deals = SeededDeals(self.rules, deal_seed)
        state = GameState(self.rules, first_dealer=deals.first_dealer)
        state.deal_source = deals
        deck, first = deals.next_deal()
        state.deal(deck, first)
        self.state_ = state
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Set the agent to act, the masks, and the end of the episode."""
        state = self.state_
        assert state is not None
        done = state.terminal
        truncated = not done and state.hand_no > self.max_hands
        if done or truncated:
            res = state.result
            for a in self.agents:
                team = self.rules.team_of[self._index[a]]
                if done and res is not None and res.winner is not None:
                    self.rewards[a] = 1.0 if res.winner == team else -1.0
                self.terminations[a] = done
                self.truncations[a] = truncated
            self._accumulate_rewards()
            if self.agents:
                self.agent_selection = self.agents[0]
        else:
            assert state.to_act is not None
            self.agent_selection = self.possible_agents[state.to_act]
        for a in self.agents:
            self.infos[a] = {"action_mask": self._mask(a)}

    def _mask(self, agent: str) -> Any:
        state = self.state_
        assert state is not None
        if agent != self.agent_selection or state.to_act is None:
            return np.zeros(self.space.size, dtype=np.int8)
        return self.space.mask(state)

    def observe(self, agent: str) -> Obs:
        state = self.state_
        assert state is not None
        return {"observation": self.encoder.vector(state, self._index[agent]),
                "action_mask": self._mask(agent)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_
        assert state is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        state.apply(self.space.action(int(action)))
        self._settle()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return repr(self.state_)

    def close(self) -> None:
        pass


def env(ruleset: str = "marianna", **kwargs: Any) -> MariageEnv:
    """The environment of ``ruleset`` (keyword arguments as :class:`MariageEnv`)."""
    return MariageEnv(ruleset, **kwargs)
