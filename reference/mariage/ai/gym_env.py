"""Single-agent Gymnasium environments: one seat learns, the others are built-in policies.

Importing this module registers ``mariage/<ruleset>-v0`` for every bundled ruleset
(``mariage/schnapsen-v0``, ``mariage/sixty-six-4-v0``...), so

>>> import gymnasium
>>> env = gymnasium.make("mariage.ai.gym_env:mariage/schnapsen-v0", opponents="greedy")
>>> obs, info = env.reset(seed=7)
>>> sorted(obs), int(obs["action_mask"].sum()) == len(info["legal"])
(['action_mask', 'observation'], True)
>>> action = int(obs["action_mask"].argmax())
>>> obs, reward, terminated, truncated, info = env.step(action)
>>> env.close()

works without importing anything first (Gymnasium imports the module named before the
colon). One episode is one match dealt from the seeded generator of ``docs/prng.rst``:
``reset(seed=s)`` gives the same deals, and the same opponents' choices, every time.
The learning seat (``seat``, default 0) sees only its own view: the observation is the
:class:`~mariage.ai.encoding.Encoder` vector of its seat and the mask of its legal
action ids (also :meth:`MariageGymEnv.action_masks`, the method maskable learners
call). Each other seat plays a policy named in ``opponents`` (one name for all, or one
per other seat, in seat order; :mod:`mariage.ai.policies`). ``reward`` is ``match``,
``hand`` or ``game_points`` (:mod:`mariage.ai.rewards`); ``max_hands`` truncates a
match. An action whose mask is 0 raises ``ValueError``, or with
``illegal_action="replace"`` is replaced by the first legal action, with
``info["illegal"]`` true and ``illegal_penalty`` added to the reward (Gymnasium's
``check_env`` samples actions without masks, so it needs ``replace``); an id outside the
action space is always a ``ValueError``. Where sets of
several cards are passed, the learning seat picks a set one card per step
(:class:`~mariage.ai.encoding.ActionSpace`); the opponents pass whole sets.

The observation is a dict whose vector is made when first read
(:class:`~mariage.ai.lazyobs.LazyObservation`, as PettingZoo's environment gives): an
agent that acts on the mask alone (a random or scripted player) does not pay for it;
one read after later steps gives the vector of the state it was returned with. So is
the info, whose items (the mask's copy, the legal texts) are made when it is first read
(:class:`~mariage.ai.stepinfo.StepInfo`): the environment keeps the legal ids as the
mask's bytes, for :meth:`~MariageGymEnv.step` and :meth:`~MariageGymEnv.action_masks`.
An episode that ``max_hands`` truncates at a hand's end deals the next hand only when
something reads it (the vector, the info, :attr:`MariageGymEnv.state`, ``render``): what
is read is as the state with that hand dealt gives it, and a learner that resets at once
does not pay for the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding

from mariage.engine.actions import Action
from mariage.engine.matchmaker import Maker, match_maker
from mariage.engine.phase import Phase
from mariage.engine.prng import MASK64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, new_match
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

from .encoding import ActionSpace, Encoder, Pick, action_number, episode_limit
from .lazyobs import LazyObservation, ObservedMatch
from .legalinfo import texts_of
from .picking import later_pick_mask
from .policies import RESEEDABLE as _RESEEDABLE
from .policies import Policy, chooser, make_policy
from .rewards import check_reward, hand_rewards, match_rewards
from .stepinfo import StepInfo

__all__ = ["MariageGymEnv", "env_id", "register_all"]

Obs = dict[str, npt.NDArray[Any]]

_DEAL, _OVER, _PASSING = Phase.DEAL, Phase.OVER, Phase.PASSING
# a mask's array over its bytes (as mariage.ai.legalinfo makes one)
_over, _INT8 = np.ndarray, np.dtype(np.int8)
#: a hand number never reached (no ``max_hands`` while a reset plays to the first decision)
_NO_LIMIT = float("inf")


#: per rules (by id, the rules kept): what makes a new match of them from a checked seed
#: (:func:`~mariage.engine.matchmaker.match_maker`, or None: ``new_match`` itself); kept
#: here, not on the environment, whose instance dict stays under 30 keys (shared keys)
_MAKERS: dict[int, tuple[Rules, Maker | None]] = {}


def _maker(rules: Rules) -> Maker | None:
    """The match maker of ``rules`` (made once per rules; a bounded store)."""
    hit = _MAKERS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_MAKERS) >= 64:
        _MAKERS.clear()
    made = match_maker(rules)
    _MAKERS[id(rules)] = (rules, made)
    return made


def _deal_held(state: GameState) -> None:
    """Deal the next hand of ``state`` if its dealing was held back (an episode truncated
    at a hand's end: :meth:`MariageGymEnv.step` applies that hand's last actions without
    the deal source), as the engine would have dealt it then."""
    if state.phase is _DEAL and state.deal_source is not None:
        state._deal_next()


class _Match(ObservedMatch):
    """The :class:`~mariage.ai.lazyobs.ObservedMatch` of an episode: a vector read of the
    state whose next hand is held back is read once it is dealt (:func:`_deal_held`)."""

    __slots__ = ()

    def vector(self, at: int, seat: int, picked: int) -> npt.NDArray[np.float32]:
        """As :meth:`ObservedMatch.vector`, the live state's held hand dealt first."""
        if self.state.phase is _DEAL:
            _deal_held(self.state)
        return ObservedMatch.vector(self, at, seat, picked)


class _HeldInfo(StepInfo):
    """The info of a step that ended the episode at a hand's end whose next hand is held
    back: its hand and standing are those of the state with that hand dealt, dealt when
    the info is first read (:func:`_deal_held`)."""

    __slots__ = ("_state",)
    _state: GameState

    @classmethod
    def of_state(cls, legal: bytes, texts: tuple[str, ...], state: GameState) -> _HeldInfo:
        """The info of legal ids ``legal`` named by ``texts``, its hand and standing
        those of ``state`` when first read."""
        info = cls.of(legal, texts, state.hand_no, ())
        assert isinstance(info, _HeldInfo)
        info._state = state
        return info

    def _read(self) -> None:
        if getattr(self, "_legal", None) is not None:
            state = self._state
            _deal_held(state)
            self._hand, self._standing = state.hand_no, state.standing()
        StepInfo._read(self)


class MariageGymEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a match of ``ruleset`` against built-in policies."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's own annotation
    _np_seed: int | None = None  # the seed of Gymnasium's generator, not made yet
    _np_made: np.random.Generator | None = None  # Gymnasium's generator (_np_random)

    def __init__(self, ruleset: str = "schnapsen", options: dict[str, Any] | None = None,
                 seat: int = 0, opponents: str | Sequence[str] = "greedy",
                 reward: str = "match", max_hands: int = 100,
                 render_mode: str | None = None, illegal_action: str = "raise",
                 illegal_penalty: float = 0.0) -> None:
        self.rules = load_rules(ruleset, options or {})
        rules = self.rules
        seat_no = action_number(seat)  # a whole number, never a bool, float or string
        if seat_no is None or not 0 <= seat_no < rules.nseats:
            raise ValueError(f"seat {seat!r}: {ruleset} has seats 0 to {rules.nseats - 1}")
        seat = seat_no
        check_reward(rules, reward)
        try:
            names = [opponents] * (rules.nseats - 1) if isinstance(opponents, str) \
                else list(opponents)
        except TypeError:  # a policy object (not iterable): say what is taken
            raise TypeError(f"opponents: a policy's name or a list of one name per other seat "
                            f"(see mariage.ai.policies), not {type(opponents).__name__}; a "
                            f"policy of your own plays its seat through the PettingZoo env"
                            ) from None
        if len(names) != rules.nseats - 1:
            raise ValueError(f"opponents: {len(names)} names for {rules.nseats - 1} other seats")
        for name in names:
            make_policy(name)  # an unknown name fails here, not at reset
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: None or 'ansi' (a line of text)")
        if illegal_action not in ("raise", "replace"):
            raise ValueError(f"illegal_action {illegal_action!r}: 'raise' or 'replace'")
        self.illegal_action = illegal_action
        self.illegal_penalty = illegal_penalty
        self.opponent_names = names
        self.seat = seat
        self.reward_kind = reward
        self.max_hands = episode_limit(max_hands)
        self.render_mode = render_mode
        self.space = ActionSpace(rules)
        self.encoder = Encoder(rules)
        #: the text of each action id (``info["legal"]``, every step: made once per rules)
        self._texts = texts_of(self.space)
        self.observation_space = gymnasium.spaces.Dict({  # type: ignore[assignment]
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.encoder.size,),
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.space.size,), np.int8),
        })
        self.action_space = gymnasium.spaces.Discrete(self.space.size)
        #: the match (:attr:`state`; its next hand perhaps held back: :func:`_deal_held`)
        self._state: GameState | None = None
        #: whether a hand's end at the limit leaves the next deal to the first read
        #: (not where a deal may score: the match could end there, ``terminated``)
        self._hold = not rules.turn_up_bonus
        #: what the observations of the match are made from (its actions logged, for
        #: an observation read late: :class:`~mariage.ai.lazyobs.ObservedMatch`)
        self._match: _Match | None = None
        #: the other seats with their policies' names, in seat order
        self._other_seats = tuple(zip((s for s in range(rules.nseats) if s != seat), names,
                                      strict=True))
        self._opponents: dict[int, Policy] = {}
        #: per seat, the function choosing its action (:func:`~.policies.chooser` of its
        #: policy, set at each reset; None for the learning seat)
        self._choosers: list[Callable[[GameState], Action] | None] = [None] * rules.nseats
        #: the seed Gymnasium's generator is to be reset to when next read, or None
        self._np_seed: int | None = None
        #: the legal ids now: a byte per id, 1 where legal (the mask's bytes, never
        #: handed out: the legality of an action, action_masks, the info's items)
        self._none = bytes(self.space.size)  # (no legal id: the episode over)
        self._legal = self._none
        #: the engine's listing of the set the learning seat passes one pick per step,
        #: kept from its first pick (picking.later_pick_mask)
        self._listing: Sequence[Action] = ()
        self._hands_rewarded = 0
        #: the match's standing (info["standing"]), after the hands played it names (-1:
        #: none yet of this match; a reset sets it so: one attribute fewer than a state
        #: named too, which keeps the instance dict's keys shared, under 30 attributes)
        self._standing: tuple[int, ...] = ()
        self._standing_at = -1
        self._truncated = False  # the episode was truncated (max_hands): step() no more
        #: the cards the learning seat picked so far of a set it passes
        self.picked = 0

    # -- seeding: Gymnasium's generator made when first read
    # ``reset(seed=s)`` deals from ``s`` itself; Gymnasium's generator (``np_random``) is
    # reset to ``s`` too, as ``Env.reset`` does, but made only when read (a reset without a
    # seed draws the next match's seed from it; making it costs about a third of a
    # hand's deal). Gymnasium reads and writes ``_np_random`` (``Env.np_random``, its
    # environment checker): it is the generator, made from the seed where one waits
    @property
    def _np_random(self) -> np.random.Generator | None:
        pending = self._np_seed
        if pending is not None:
            self._np_seed = None
            self._np_made, self._np_random_seed = seeding.np_random(pending)
        return self._np_made

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self._np_seed = None
        self._np_made = value

    # -- the episode
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Deal a new match from ``seed`` and play the other seats up to the learning
        seat's first decision; return its observation and info. The other seats'
        policies are kept from one match to the next, each seeded again from the match's
        seed (as new ones would be)."""
        if seed is None:  # the deals follow Gymnasium's generator (seeded or not)
            deal_seed = int(self.np_random.integers(2**63))
        else:
            if seed.__class__ is not int or seed < 0:
                seeding.np_random(seed)  # Gymnasium's refusal (a negative, not an int)
            # Env.reset's seeding, deferred (_np_random): the generator made from the
            # seed when first read; its seed (the entropy of an int: the int) known now
            deal_seed = self._np_random_seed = self._np_seed = seed
        # the first hand dealt from the seeded stream, as the library's matches are (a
        # seed new_match takes: by what is worked out once per rules, match_maker)
        make = _maker(self.rules)
        if make is not None and deal_seed.__class__ is int and 0 <= deal_seed <= MASK64:
            state = make(deal_seed)
        else:  # (new_match's refusal of any other seed)
            state = new_match(self.rules, deal_seed)
        self._state = state
        # (the observations of the last match keep theirs: this is a new one)
        self._match = _Match(state, self.encoder, deal_seed,
                             self._match is not None and self._match.eager)
        # the other seats' policies, kept from one match to the next, given the match's
        # seeds (a policy that cannot take a seed again is made anew)
        opponents, choosers = self._opponents, self._choosers
        for s, name in self._other_seats:
            policy_seed = (deal_seed * 31 + s) % 2**63
            kept = opponents.get(s)
            if kept is not None and kept.__class__ in _RESEEDABLE:
                kept.reseed(policy_seed)  # type: ignore[attr-defined]
            else:
                kept = opponents[s] = make_policy(name, seed=policy_seed)
            choosers[s] = chooser(kept)
        self._hands_rewarded = 0
        self._standing_at = -1  # (a new match: its standing asked again)
        self.picked = 0
        self._truncated = False
        self._play_others(limit=False)
        return self._answer()

    def step(self, action: int | np.integer[Any]
             ) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play the learning seat's ``action``, then the other seats until it is to act
        again or the match ends; return the observation, reward, terminated, truncated
        and info."""
        state = self._state
        if state is None:
            raise RuntimeError("step() before reset()")
        seat = self.seat
        if state.phase is _OVER or state.to_act != seat or self._truncated:
            raise RuntimeError("step() after the episode ended: call reset()")
        a = action if action.__class__ is int else action_number(action)
        if a is None:  # never truncated (1.5 as 1) nor read from text
            raise ValueError(f"action {action!r} is not an action id: a whole number "
                             f"from 0 to {self.space.size - 1}")
        legal = self._legal
        if not 0 <= a < len(legal):  # no action of the space, whatever illegal_action says
            raise ValueError(f"action {a} is not an action id (0 to {len(legal) - 1})")
        illegal = not legal[a]
        if illegal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {a} is not legal for seat "
                                 f"{self.rules.seat_names[seat]} now")
            a = legal.index(1)  # the first legal id
        picked = self.picked
        chosen = self.space.actions[a]
        act: Action | None
        if isinstance(chosen, Pick):  # a card of a set passed (None: before its last)
            act, self.picked = self.space.action_of(state, a, picked)
        else:
            act = chosen
        held = False
        if act is not None:
            match = self._match
            assert match is not None
            if match.unread:  # (some observation was read late: a snapshot for it)
                match.hold(picked)
            # in the last hand of the episode, the hand's end deals no next hand: the
            # episode ends there (truncated), its deal made when first read (_deal_held)
            source = state.deal_source if self._hold and state.hand_no >= self.max_hands \
                else None
            if source is not None:
                state.deal_source = None
            try:
                state.apply(act)
                match.log.append(act)  # (what a late read replays)
                self.picked = 0
                self._play_others()
            finally:
                if source is not None:
                    state.deal_source = source
            held = source is not None and state.phase is _DEAL
        reward = 0.0
        if self.reward_kind != "match" and len(state._history) > self._hands_rewarded:
            # every hand ended since the last step, those reset() played through (the
            # learning seat sitting the first hand out) included
            for k in range(self._hands_rewarded, len(state.history)):
                reward += hand_rewards(state, k, self.reward_kind)[seat]
            self._hands_rewarded = len(state.history)
        terminated = state.phase is _OVER
        truncated = self._truncated = held or (not terminated and state.hand_no > self.max_hands)
        if terminated and self.reward_kind == "match":
            reward = match_rewards(state)[seat]
        obs, info = self._answer(held)
        if illegal:
            reward += self.illegal_penalty
            info["illegal"] = True
        return obs, reward, terminated, truncated, info

    def _play_others(self, limit: bool = True) -> None:
        """Let the other seats act until the learning seat is to act or the match ends
        (or, with ``limit``, ``max_hands`` are over). At a reset there is no limit: hands
        the learning seat sits out are played through to its first decision."""
        state = self._state
        assert state is not None
        match = self._match
        assert match is not None
        seat, choosers, apply, log = self.seat, self._choosers, state.apply, match.log
        last_hand = self.max_hands if limit else _NO_LIMIT
        while True:
            to_act = state.to_act
            # (None: the match over, or a hand's end whose next deal is held back)
            if to_act == seat or to_act is None or state.phase is _OVER \
                    or state.hand_no > last_hand:
                return
            action = choosers[to_act](state)  # type: ignore[misc]
            if match.unread:  # (some observation was read late: a snapshot for it)
                match.hold(0)
            apply(action)
            log.append(action)

    def _answer(self, held: bool = False) -> tuple[Obs, dict[str, Any]]:
        """The observation and info of the learning seat now (its legal ids kept as
        bytes, for :meth:`step` and :meth:`action_masks`); ``held``: the episode ended
        at a hand's end whose next hand is not dealt yet (the answer of the state with
        it dealt, made when first read)."""
        state = self._state
        assert state is not None
        picked, phase, space = self.picked, state.phase, self.space
        if phase is _OVER or self._truncated or state.to_act != self.seat:
            # (truncated: the next hand may be dealt with the seat to act; no action now)
            legal = self._none
            mask = _over(space.size, _INT8, bytearray(legal))
        else:
            if phase is _PASSING and space.pick_size and state.pass_step >= 0:
                # a set picked one card per step: the engine's listing kept from its first
                # pick (the state does not change between the picks of a set)
                if picked:
                    mask = later_pick_mask(space, state, picked, self._listing)
                else:
                    listing = self._listing = state.legal_actions()
                    mask = space.mask(state, None, 0, listing)
            else:  # (in the play phase, from the engine's bits of the cards)
                mask = space.mask(state)
            legal = mask.tobytes()  # (the agent's mask may be changed: not this)
        self._legal = legal
        if held:  # (the vector and the info's hand and standing of the hand dealt)
            return (LazyObservation.of(self.encoder, state, self.seat, picked, mask,
                                       self._match),
                    _HeldInfo.of_state(legal, self._texts, state))
        # the standing changes only at a hand's end: asked again once per hand
        history = len(state._history)
        if self._standing_at != history:
            self._standing = state.standing()
            self._standing_at = history
        # (the mask made here is the observation's; the info's a copy, made with its
        # legal texts when first read; the vector when the observation is read, as the
        # state is now)
        return (LazyObservation.of(self.encoder, state, self.seat, picked, mask,
                                   self._match),
                StepInfo.of(legal, self._texts, state.hand_no, self._standing))

    @property
    def _ids(self) -> list[int]:
        """The legal ids now, sorted (of the bytes kept)."""
        return np.frombuffer(self._legal, np.int8).nonzero()[0].tolist()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action ids now, as booleans (for maskable learners)."""
        return _over(self.space.size, np.bool_, bytearray(self._legal))

    def render(self) -> str | None:
        """The state as one line of text (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return repr(self.state)

    @property
    def state(self) -> GameState | None:
        """The match now (``None`` before the first reset): a new one at each reset."""
        state = self._state
        if state is not None and state.phase is _DEAL:
            _deal_held(state)
        return state


def _make(**kwargs: Any) -> MariageGymEnv:
    """Gymnasium's entry point: the environment of the keyword arguments."""
    return MariageGymEnv(**kwargs)


def env_id(ruleset: str) -> str:
    """The Gymnasium id of ``ruleset``: ``mariage/<ruleset>-v0``."""
    return f"mariage/{ruleset}-v0"


def register_all() -> list[str]:
    """Register every bundled ruleset with Gymnasium (done on import); return the ids."""
    ids = []
    for ruleset in list_rulesets():
        ident = env_id(ruleset)
        if ident not in gymnasium.registry:
            gymnasium.register(ident, entry_point=_make,
                               kwargs={"ruleset": ruleset}, disable_env_checker=True)
        ids.append(ident)
    return ids


#: the ids registered for the bundled rulesets
ENV_IDS = register_all()
