"""A PettingZoo AEC environment for every ruleset, with Gymnasium spaces.

One episode is one match, dealt from the seeded generator of
``docs/prng.rst`` (``reset(seed=...)``). The agents are the seat names; the
agent to act is the seat to act. Each agent's observation is a dict of
``observation`` (the :class:`~mariage.ai.encoding.Encoder` vector of its own
seat's view) and ``action_mask`` (1 for each legal action id of the
:class:`~mariage.ai.encoding.ActionSpace`); the mask is in ``infos`` too. The vector is
made when first read (:class:`~mariage.ai.lazyobs.LazyObservation`), as the view of the
state when observed (read after later steps, from the match's actions replayed:
:class:`~mariage.ai.lazyobs.ObservedMatch`): an agent that reads only the mask does not pay for
it, and a step copies nothing for the observations still unread.
``reward`` chooses the rewards (:mod:`mariage.ai.rewards`): ``match`` (+1 to each
agent of the side that wins the match, -1 to the others, 0 each for a draw),
``hand`` (the hand's score difference after every hand, normalised) or
``game_points``. ``max_hands`` truncates a match that has not ended after so many
hands. :meth:`MariageEnv.state` is the global state: the same encoding with every
hand open, from the first seat. Where sets of several cards are passed, the
set is picked one card per step (the agent stays selected until it is complete; the
cards picked so far are :attr:`MariageEnv.picked`; see
:class:`~mariage.ai.encoding.ActionSpace`).

>>> env = MariageEnv("mariazza", max_hands=2)
>>> env.reset(seed=3)
>>> agent = env.agent_selection
>>> obs = env.observe(agent)
>>> sorted(obs), bool(obs["action_mask"].any())
(['action_mask', 'observation'], True)
>>> env.step(int(obs["action_mask"].argmax()))
>>> env.state().shape == env.state_space.shape
True
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable
from pettingzoo.utils.env_logger import EnvLogger

from mariage.engine.actions import Action, Give
from mariage.engine.fastpath import PlaySplit
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.phase import Phase
from mariage.engine.state import GameState, new_match
from mariage.spec.rulesload import load_rules

from .encoding import ActionSpace, Encoder, Pick, action_number, episode_limit
from .lazyobs import LazyObservation, ObservedMatch
from .picking import later_pick_mask
from .rewards import check_reward, hand_rewards, match_rewards

__all__ = ["MariageEnv", "env"]

Obs = dict[str, Any]
#: a list of the actions besides the cards in the play phase seen last: the list, its
#: ids, and where its ids are all past the cards, the lowest and the bytes of its mask
#: from there (else 0 and None)
_Others = tuple[list[Action], list[int], int, bytes | None]

_OVER, _PASSING, _PLAY = Phase.OVER, Phase.PASSING, Phase.PLAY
_Lazy = LazyObservation
_put = dict.setdefault
_over, _INT8 = np.ndarray, np.dtype(np.int8)  # (as ActionSpace.mask makes its arrays)
#: agent_iter's bound from which no count is kept (no loop runs so long)
_UNCOUNTED = 2**62


class _AgentIterable(AECIterable[str, Obs, int]):
    """:meth:`MariageEnv.agent_iter`: PettingZoo's ``AECIterable``, each iteration a
    generator (the same agents as its ``AECIterator``, without a method call per agent)."""

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        if left >= _UNCOUNTED:  # (the default: no count kept, nothing a step to add)
            while env.agents:
                yield env.agent_selection
            return
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class _StepSlots:
    """Where :class:`MariageEnv` keeps what a step reads and writes of its own: slots,
    not the instance dict, which keeps the attributes PettingZoo's API names (18). With
    all 42 in the dict, past the 30 keys CPython 3.11 shares between the instances of
    a class, the dict is made whole and every attribute read looks its key up in it
    (about 1.5 k machine instructions a step in German Marjapussi); a slot is read at
    its offset, the dict's items from the keys shared by the class. (A base of its
    own: the environment's class, a subclass of AECEnv, keeps its dict.)"""

    __slots__ = ("_actions", "_cut", "_ended", "_factored", "_hands_rewarded", "_hands_seen",
                 "_index", "_last_others", "_legal", "_log", "_made", "_mask_now",
                 "_masked", "_match", "_mech", "_no_mask", "_others_seen", "_picks",
                 "_rewarded", "_size", "_split", "_windows", "picked", "state_")


class MariageEnv(AECEnv, _StepSlots):
    """The AEC environment of one ruleset (with ``options``)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "mariage_v0",
                                          "is_parallelizable": False}

    def __init__(self, ruleset: str = "marianna", options: dict[str, Any] | None = None,
                 max_hands: int = 100, render_mode: str | None = None,
                 reward: str = "match") -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):  # as Gymnasium's env
            raise ValueError(f"render_mode {render_mode!r}: None or 'ansi' (a line of text)")
        self.rules = load_rules(ruleset, options or {})
        check_reward(self.rules, reward)
        self.reward = reward
        self.space = ActionSpace(self.rules)
        self.encoder = Encoder(self.rules)
        self.state_encoder = Encoder(self.rules, open_hands=True)
        self.max_hands = episode_limit(max_hands)
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
        self.state_space = gymnasium.spaces.Box(-np.inf, np.inf, (self.state_encoder.size,),
                                                np.float32)
        self.state_: GameState | None = None
        self._no_mask = np.zeros(self.space.size, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._mask_now = self._no_mask
        #: what step() checks an id against: the bytes under the mask where it was made
        #: over them (the same memory: a byte read costs less than an array's item, no
        #: scalar made), else the mask itself
        self._legal: Any = self._no_mask
        self._hands_rewarded = 0
        self._hands_seen = 0  # the hands played when _settle() last ran
        self._rewarded = False  # some reward of the last step is not 0
        #: no step of the usual kind: before reset(), or some agent is terminated or
        #: truncated (the episode's end)
        self._ended = True
        self._masked: str | None = None  # the agent whose info holds the mask now
        #: what the observations of the match are made from (its state, and the actions
        #: applied since the deal: ``_log``, appended to by every step that applies one)
        self._match: ObservedMatch | None = None
        self._log: list[Action] = []
        #: the cards picked so far of a set being passed (factored passing)
        self.picked = 0
        #: while the agent to act picks a set, the engine's listing for it, kept until the
        #: set is complete (the match does not change between its picks), else None
        self._picks: Sequence[Action] | None = None
        self._factored = bool(self.space.pick_size)
        #: the list of the play phase's other actions seen last (a lead's questions or
        #: calls: :meth:`_keep_others`; also a list of equal actions made anew, as a
        #: declaration)
        self._last_others: _Others = ([], [], 0, None)
        #: the lists of the play phase's other actions kept by their objects, by their
        #: first and last objects and length (:meth:`_keep_others`), each holding its
        #: objects (so their ``id()`` stays theirs): the leads' questions of the seats
        #: in turn, found again without a call
        self._others_seen: dict[tuple[int, int, int], _Others] = {}
        #: where the bytes of a mask past the cards' ids start
        self._cut = self.space._play_ids[0] + self.rules.ncards
        #: what step() reads of the space (which never changes them): its actions by id,
        #: its size and the function making the bytes of a mask of cards (None where the
        #: cards' ids do not follow one another)
        self._actions = self.space.actions
        self._size = self.space.size
        self._made = self.space._mask_bytes
        #: the engine's split listing of the play phase, for the mechanisms of the state
        #: it was made for (ActionSpace._play_split)
        self._split: PlaySplit | None = None
        self._mech: object = None
        #: the phases whose legal actions are a window of a ladder (the space's own)
        self._windows = self.space.windows

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self._seat_of(agent)]]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self._seat_of(agent)]]

    def _seat_of(self, agent: str) -> int:
        """The seat of ``agent`` (a seat name), or ValueError naming the agents."""
        seat = self._index.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(f"no agent {agent!r} in {self.rules.ruleset} "
                             f"(agents: {', '.join(self.possible_agents)})")
        return seat

    def _started(self, call: str) -> GameState:
        """The match, or RuntimeError if :meth:`reset` has not dealt one yet."""
        state = self.state_
        if state is None:
            raise RuntimeError(f"{call} before reset(): call reset() first")
        return state

    # -- the episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        deal_seed = seed if seed is not None else secrets.randbits(64)
        # the first hand dealt from the seeded stream, as the library's matches are (its
        # deck, an order of the pack by construction, is not checked again)
        state = new_match(self.rules, deal_seed)
        self.state_ = state
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": self._no_mask}
                                                 for a in self.agents}
        self._masked = None
        self._rewarded = False
        self._ended = False
        # (the observations of the last match keep theirs: this is a new one)
        self._match = match = ObservedMatch(state, self.encoder, deal_seed,
                                    self._match is not None and self._match.eager)
        self._log = match.log
        self._hands_rewarded = 0
        self.picked = 0
        self._picks = None
        self._settle()

    def _settle(self) -> None:
        """Set the agent to act, the masks, the rewards and the end of the episode."""
        state = self.state_
        assert state is not None
        agents = self.agents
        if self.reward != "match" and len(state._history) > self._hands_rewarded:
            rewards = self.rewards
            for k in range(self._hands_rewarded, len(state.history)):
                for a, value in zip(self.possible_agents,
                                    hand_rewards(state, k, self.reward), strict=True):
                    if a in rewards:
                        rewards[a] += value
                        self._rewarded = True
            self._hands_rewarded = len(state.history)
            self._accumulate_rewards()
        done = state.phase == _OVER
        if done or state.hand_no > self.max_hands:
            if self.reward == "match" and done:
                for a, value in zip(self.possible_agents, match_rewards(state), strict=True):
                    self.rewards[a] = value
                self._rewarded = True
                self._accumulate_rewards()
            for a in agents:
                self.terminations[a] = done
                self.truncations[a] = not done
            self._ended = True
            if agents:
                self.agent_selection = agents[0]
            self._mask_now = self._legal = self._no_mask
        else:
            to_act = state.to_act
            assert to_act is not None
            self.agent_selection = self.possible_agents[to_act]
            windows = self._windows
            mask = self._window_mask(state, to_act) if windows.phases \
                or state.mech is not windows.mech else None  # (a hand's auction)
            if mask is None:
                mask = self._legal = self.space.mask(state, None, self.picked,
                                                     self._set_listing())
            self._mask_now = mask
        self._hands_seen = len(state._history)
        # only the agents whose mask changed get a new info dict (the others keep theirs)
        selected, infos = self.agent_selection, self.infos
        before = self._masked
        if before is not None and before != selected and before in infos:
            infos[before] = {"action_mask": self._no_mask}
        if selected in infos:
            infos[selected] = {"action_mask": self._mask_now}
        self._masked = selected

    def _window_mask(self, state: GameState, to_act: int) -> npt.NDArray[np.int8] | None:
        """The mask of ``to_act`` where the legal actions of the state's phase are a
        window of a ladder now (an auction's bids, an answer:
        :meth:`ActionSpace.phase_windows <mariage.ai.encoding.ActionSpace.phase_windows>`),
        made from the bytes kept for the window (:attr:`_legal` set to the mask's own);
        None elsewhere."""
        kept = self._windows.legal_bytes(state, to_act)
        if kept is None:
            return None
        listed = self._legal = bytearray(kept)
        return _over(self._size, _INT8, listed)

    def _set_listing(self) -> Sequence[Action] | None:
        """The engine's listing of the agent to act where it picks a set (kept in
        :attr:`_picks` until the set is complete), else None."""
        if self._picks is None and self._factored:
            assert self.state_ is not None
            self._picks = self.space.set_listing(self.state_)
        return self._picks

    def observe(self, agent: str) -> Obs:
        """``{"observation": vector, "action_mask": mask}`` of ``agent``: a dict
        (:class:`~mariage.ai.lazyobs.LazyObservation`) whose vector is made when first
        read, as the agent's view of the state now."""
        state = self._started("observe()")
        return LazyObservation.of(self.encoder, state, self._seat_of(agent), self.picked,
                                  self._mask_now if agent == self.agent_selection
                                  else self._no_mask, self._match)

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool,
                                                  dict[str, Any]]:
        """As PettingZoo's: the observation, cumulative reward, termination, truncation
        and info of the agent to act (the observation made as :meth:`observe` does)."""
        match = self._match
        if match is None:  # (made by reset() with the match)
            self._started("last()")  # raises
        agent = self.agent_selection
        if observe:  # as LazyObservation.of does, without the call
            # (the item set by dict's own setdefault: no keyword dict made, about 120
            # machine instructions fewer than by keyword, 300 fewer than a dict merged)
            obs = _Lazy()
            _put(obs, "action_mask", self._mask_now)
            obs._source = match
            if match.eager:  # type: ignore[union-attr]  # (as LazyObservation.of counts)
                match.unread += 1  # type: ignore[union-attr]
            obs._at = len(self._log)
            obs._seat = self._index[agent]
            obs._picked = self.picked
            return (obs, self._cumulative_rewards[agent], self.terminations[agent],
                    self.truncations[agent], self.infos[agent])
        return (None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable[str, Obs, int]:
        """As PettingZoo's: the agent to act, until no agent is left or ``max_iter``
        agents were given (``step`` each one)."""
        self._started("agent_iter()")
        return _AgentIterable(self, max_iter)

    def state(self) -> npt.NDArray[np.float32]:
        """The global state: every hand open, seats counted from the first seat."""
        return self.state_encoder.vector(self._started("state()"), 0, self.picked)

    def step(self, action: int | None) -> None:
        """Take ``action`` (an action id) for the agent to act; ``None`` for an agent that
        is done. Before :meth:`reset`, a RuntimeError; once every agent is done, a
        warning and nothing else (as PettingZoo's order-enforcing wrapper does)."""
        if self._ended:  # (before reset(), or some agent is done: the episode's end)
            if self.state_ is None:
                self._started("step()")  # raises
            if not self.agents:
                EnvLogger.warn_step_after_terminated_truncated()
                return
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
        agent = self.agent_selection
        state: GameState = self.state_  # type: ignore[assignment]
        if action.__class__ is int and action >= 0:
            action_id: int = action
        else:
            action_id = self._action_id(agent, action)
        try:  # (an id past the last raises here: no test of the bound a step)
            legal = self._legal[action_id]
        except (IndexError, OverflowError):  # (NumPy's mask: OverflowError from 2**63)
            raise ValueError(f"action {action!r} is not an action id (0 to "
                             f"{self._size - 1})") from None
        if not legal:
            raise ValueError(f"action {action_id} ({self.space.text(action_id)}) is not "
                             f"legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # rewards are rare (a hand's or the match's end)
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        act: Action | Pick | None = self._actions[action_id]
        if act.__class__ is Pick:  # a card of a set being passed (as with_pick does)
            picked = self.picked | 1 << act.card
            # (the step's count of cards, as Passing.count reads it, without the call)
            if picked.bit_count() < state.rules.passing_steps[state.pass_step][2]:
                # nothing else changes before the set's last pick: nothing to hold (an
                # observation has its picks)
                self._picked_one(agent, picked)
                return
            act = Give(picked)
        match = self._match
        if match.unread:  # type: ignore[union-attr]  # (some were read late: a snapshot)
            match.hold(self.picked)  # type: ignore[union-attr]
        state.apply(act)  # type: ignore[arg-type]
        self._log.append(act)  # type: ignore[arg-type]  # (what a late read replays)
        if self._picks is not None:  # (a set complete, or a seat to pick one did else)
            self.picked = 0
            self._picks = None
        if len(state._history) != self._hands_seen or state.phase is _OVER:
            self._settle()  # a hand's end: rewards, the end of the episode
            return
        # the usual step, within a hand: as _settle does then
        to_act = state.to_act
        selected = self.possible_agents[to_act]  # type: ignore[index]
        phase = state.phase
        made = self._made
        if phase is _PLAY and made is not None:  # mask()'s play phase, without its tests
            split = self._split
            if state.mech is not self._mech:  # (the first time)
                split = self._split = self.space._play_split(state)
                self._mech = state.mech
            cards, others = split(state, to_act)  # type: ignore[misc,arg-type]
            listed = made(cards)
            if others:  # (a lead's questions or declarations: kept, see _keep_others)
                found = self._last_others
                if others != found[0]:  # (another seat's questions: found by its objects)
                    found = self._others_seen.get(  # type: ignore[assignment]
                        (id(others[0]), id(others[-1]), len(others))
                    ) if len(others) > 2 else None  # (a shorter list is never kept so)
                    if found is None or others != found[0]:
                        found = self._keep_others(others)
                    else:
                        self._last_others = found
                tail = found[3]
                if tail is not None:  # the bytes from its lowest id at once
                    listed[found[2]:] = tail
                else:
                    for i in found[1]:
                        listed[i] = 1
            mask = _over(self._size, _INT8, listed)
            self._legal = listed
        elif phase is _PASSING and self._factored:  # a set's first pick (or a packet)
            mask = self._legal = self.space.mask(state, None, 0, self._set_listing())
        elif phase is _PLAY:
            mask = self._legal = self.space.mask(state)
        else:  # mask()'s other phases, without its tests: an auction's bids or an answer
            # from the bytes kept by window, else a list kept by its objects
            mask = self._window_mask(state, to_act)  # type: ignore[arg-type,assignment]
            if mask is None:
                mask = self._legal = self.space.listed_mask(state, state.legal_actions())
        self._mask_now = mask
        self.agent_selection = selected
        # (within a match every agent has its info: _settle set the last one masked)
        infos = self.infos
        before = self._masked
        if before is not selected:  # (the agents are the names of possible_agents)
            infos[before] = {"action_mask": self._no_mask}  # type: ignore[index]
            self._masked = selected
        infos[selected] = {"action_mask": mask}

    def _action_id(self, agent: str, action: object) -> int:
        """The id ``action`` stands for (an integer of any kind: NumPy's too), or
        ValueError saying why it is none."""
        if action is None:  # (None is for an agent that is done)
            raise ValueError(f"{agent} is to act: step() needs an action id, not None")
        action_id = action_number(action)
        if action_id is None or not 0 <= action_id < self.space.size:
            raise ValueError(f"action {action!r} is not an action id (0 to "
                             f"{self.space.size - 1})")
        return action_id

    def _keep_others(self, others: Sequence[Action]) -> _Others:
        """The ids of the actions the engine lists besides the cards in the play phase
        (:meth:`ActionSpace._other_ids <mariage.ai.encoding.ActionSpace._other_ids>`)
        and, where they are all past the cards, the lowest and the bytes of the mask from
        there, where ``others`` is not the list seen last (:attr:`_last_others`, which it
        becomes). A lead's questions or calls are the same objects lead after lead: a
        list of three or more of them is kept in the store of the numbering (shared by
        its environments: :meth:`KeptListings.by_objects
        <mariage.ai.listed.KeptListings.by_objects>`, its bytes from its lowest id kept
        with it) and found again by one comparison in C; a shorter list,
        or one of actions the engine makes anew (a declaration), is looked up as it
        comes (its ids set one by one)."""
        space = self.space
        if len(others) < 3 or type(others) is not list \
                or not space._made_anew.isdisjoint(map(type, others)):
            # (a closing, an exchange, a declaration made anew: looked up as they come)
            found: _Others = (list(others), space._other_ids(others), 0, None)
        else:
            objects, ids, ordered, _, tail = space._listed.by_objects(others,
                                                                       space._ids_at_once)
            low = ordered[0]
            found = (objects, ids, low, tail if low >= self._cut else None)
            seen = self._others_seen
            if len(seen) >= 64:  # (a few lists a ruleset: bounded all the same)
                seen.clear()
            seen[id(objects[0]), id(objects[-1]), len(objects)] = found
        self._last_others = found
        return found

    def _picked_one(self, agent: str, picked: int) -> None:
        """``agent`` picked a card of a set, not its last: the cards ``picked`` so far;
        its mask now that of the cards left (:func:`~mariage.ai.picking.later_pick_mask`,
        from the listing kept since the set's first pick); nothing else changes."""
        self.picked = picked
        listing = self._picks
        state = self.state_
        assert state is not None and listing is not None
        if type(listing) is CardSets:  # every set from the hand: its cards left (cards_left)
            space = self.space
            listed = space._pick_mask(  # type: ignore[misc]
                state.hands[state.to_act] & ~picked)  # type: ignore[index]
            mask = _over(space.size, _INT8, listed)
            self._legal = listed
        else:
            mask = self._legal = later_pick_mask(self.space, state, picked, listing)
        self._mask_now = mask
        if agent in self.infos:
            self.infos[agent] = {"action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return repr(self.state_)

    def close(self) -> None:
        pass


def env(ruleset: str = "marianna", **kwargs: Any) -> MariageEnv:
    """The environment of ``ruleset`` (keyword arguments as :class:`MariageEnv`)."""
    return MariageEnv(ruleset, **kwargs)
