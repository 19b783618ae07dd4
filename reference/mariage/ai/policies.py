"""Policies for agents to learn against and to be measured by: the built-in bots and ISMCTS.

A *policy* picks an action for the seat to act from that seat's view only: it is
given a determinization of the state (:func:`~mariage.arena.search.determinize`), so
it cannot peek at hidden cards even when handed the full state. Policies by name:

``random``
    uniform among the sensible legal actions (no call-out or claim that would fail);
``first``
    the first legal action, in the rules' stable order (the weakest baseline);
``greedy``
    the arena's greedy player: declares, answers, counts the cards played to lead
    masters, smear points and take tricks safely (:mod:`mariage.arena.cardplay`);
``mc``
    flat Monte Carlo over determinizations (the arena's ``mc``);
``ismcts``
    information-set Monte Carlo tree search (:class:`ISMCTS`): one tree over the
    seat's information set, each iteration on a fresh determinization, UCB1 among the
    sensible actions legal in it guided by the ``greedy`` player's choice, a playout
    of the ``greedy`` player to the end of the hand (or of the ``random`` one).

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("schnapsen"), seed=2)
>>> policy = make_policy("ismcts", seed=1, iterations=50)
>>> policy.choose(state) in state.legal_actions()
True
>>> sorted(POLICIES)
['first', 'greedy', 'ismcts', 'mc', 'random']
"""

from __future__ import annotations

import operator
import random
from _random import Random as _BaseRandom
from collections.abc import Callable
from typing import Protocol

from mariage.arena.bots import make_bot
from mariage.arena.ismcts import ISMCTS, ROLLOUTS, seat_to_act
from mariage.arena.plainbots import KINDS_BY_STATE, RandomBot, sensible_actions
from mariage.arena.search import determinize
from mariage.engine.actions import Action
from mariage.engine.dispatch import phase_windows_of
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

__all__ = ["ISMCTS", "POLICIES", "RESEEDABLE", "ROLLOUTS", "Policy", "chooser",
           "make_policy", "random_chooser", "seat_to_act"]

#: a generator seeded again with an int, as ``random.Random.seed`` does after its checks
_seed_in_place = _BaseRandom.seed
_PLAY = Phase.PLAY
#: how many windows' sensible actions a random chooser keeps (cleared when full)
_WINDOWS_KEPT = 4096
#: a phase listed as a window of a ladder, for the random chooser: the window's function
#: and what the bots' filter leaves of each window's listing
_Sensible = tuple[Callable[[GameState, int], "tuple[int, int, int] | None"],
                  dict[tuple[int, int, int], list[Action]]]


class Policy(Protocol):
    """Anything that picks a legal action for the seat to act."""

    name: str

    def choose(self, state: GameState) -> Action: ...


class _ViewPolicy:
    """A built-in bot that decides on a determinization of the seat's view."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.reseed(seed)

    def reseed(self, seed: int) -> None:
        """Be as a new policy of ``seed`` (what an environment does with the policies it
        keeps from one match to the next)."""
        bot = getattr(self, "bot", None)
        if bot.__class__ is RandomBot and seed.__class__ is int:
            # the random player's generator seeded again in place: the stream of a new
            # RandomBot(seed) (random.Random's seed of an int is _random's, the normal
            # deviate kept cleared), without the new bot and generator or random.Random's
            # checks of the seed's type
            rng = bot.rng
            _seed_in_place(rng, seed)
            rng.gauss_next = None  # type: ignore[attr-defined]
        else:
            self.bot = make_bot(self.name, seed)
            #: what chooses the bot's action (:func:`chooser`), made when first asked
            self.chosen_by: Callable[[GameState], Action] | None = None
        # the generator of the determinizations, made when first used (a bot that reads
        # no hidden card never uses it): its seeding costs about as much as a deal
        self._rng: random.Random | None = None
        self._rng_seed = seed ^ 0x5EED
        # a bot that reads no hidden card decides on the state itself (the same choice
        # as on any determinization, without the copy)
        self.public_only = bool(getattr(self.bot, "public_only", False))

    @property
    def rng(self) -> random.Random:
        """The generator of the determinizations (seeded with the policy's seed)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._rng_seed)
        return rng

    def choose(self, state: GameState) -> Action:
        seat = seat_to_act(state)
        if self.public_only:
            return self.bot.choose(state)
        legal = state.legal_actions()
        rng = self.rng
        for _ in range(8):
            # a guess of the hidden cards can miss what the seat was told (an answer's
            # truth may turn on the asker's card): then guess again
            action = self.bot.choose(determinize(state, seat, rng))
            if action in legal:
                return action
        return legal[0]


class _First:
    """The first legal action."""

    name = "first"

    def __init__(self, seed: int = 0) -> None:
        del seed

    def reseed(self, seed: int) -> None:
        """As :meth:`_ViewPolicy.reseed` (nothing to do: no generator)."""
        del seed

    def choose(self, state: GameState) -> Action:
        seat_to_act(state)
        return state.legal_actions()[0]


#: the classes of policies that :meth:`reseed` makes as new ones of another seed: an
#: environment keeps them from one match to the next and gives them its seeds
RESEEDABLE = frozenset({_ViewPolicy, _First})


def chooser(policy: Policy) -> Callable[[GameState], Action]:
    """What chooses ``policy``'s action where the caller knows a seat is to act (an
    environment's loop of the other seats): for a built-in bot that reads no hidden
    card, the bot's own choice (no check of the state, no determinization: the choice
    :meth:`~_ViewPolicy.choose` makes; for ``random``, :func:`random_chooser`), else
    ``policy.choose``. Good until the policy is seeded again (:meth:`~_ViewPolicy.reseed`
    makes a new bot, but seeds ``random``'s generator again in place: its chooser stays
    good).

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand"), 3)
    >>> chooser(make_policy("random", 5))(state) == make_policy("random", 5).choose(state)
    True
    """
    if isinstance(policy, _ViewPolicy) and policy.public_only:
        made = policy.chosen_by  # (kept with the bot: a policy seeded again in place)
        if made is None:
            bot = policy.bot
            made = policy.chosen_by = random_chooser(bot) if bot.__class__ is RandomBot \
                else bot.choose
        return made
    return policy.choose


def random_chooser(bot: RandomBot) -> Callable[[GameState], Action]:
    """The choice of ``bot``, the ``random`` player (``bot.rng.choice`` among the
    sensible legal actions: :meth:`RandomBot.choose
    <mariage.arena.plainbots.RandomBot.choose>`), the same draw from the same generator,
    the generator's method looked up once. Good while the bot's generator is
    (:meth:`~_ViewPolicy.reseed` seeds it again in place).

    >>> from mariage import load_rules, new_match
    >>> from mariage.arena.plainbots import RandomBot
    >>> state = new_match(load_rules("thousand"), 3)
    >>> random_chooser(RandomBot(5))(state) == RandomBot(5).choose(state)
    True
    """
    # (random.Random.choice(seq) is seq[self._randbelow(len(seq))] for a sequence not
    # empty: the same draw, without choice's own call)
    below: Callable[[int], int] = bot.rng._randbelow  # type: ignore[attr-defined]
    # where the phase lists a window of a ladder (an auction's pass and bids:
    # mariage.engine.dispatch.phase_windows_of) and the bots' filter leaves what it
    # leaves by the listing alone (no kind it weighs by the state), what it left of each
    # window's listing is kept: the same window again lists nothing (for the
    # mechanisms and rules of the state last asked)
    seen: list[object] = [None, None]
    phases: dict[int, _Sensible] = {}

    def choose(state: GameState) -> Action:
        if state.phase is not _PLAY:
            if state.mech is not seen[0] or state.rules is not seen[1]:
                _sensible_windows(state, phases)
                seen[:] = state.mech, state.rules
            found = phases.get(state.phase)
            if found is not None:
                window = found[0](state, state.to_act)  # type: ignore[arg-type]
                if window is not None:
                    kept = found[1].get(window)
                    if kept is None:
                        kept = _kept_sensible(state, found[1], window)
                    if kept:
                        return kept[below(len(kept))]
        acts = sensible_actions(state)  # (what is sensible: the bots' own filter)
        if not len(acts):
            raise IndexError("Cannot choose from an empty sequence")
        return acts[below(len(acts))]

    return choose


def _sensible_windows(state: GameState, phases: dict[int, _Sensible]) -> None:
    """Set ``phases`` to the phases of the state's mechanisms and rules listed as a
    window of a ladder whose kinds of action the bots' filter leaves out by the listing
    alone, each with an empty store (:func:`random_chooser`)."""
    phases.clear()
    for phase, (ladder, window) in phase_windows_of(state.mech, state.rules).items():
        if KINDS_BY_STATE.isdisjoint(map(type, ladder)):
            phases[phase] = (window, {})


def _kept_sensible(state: GameState, kept: dict[tuple[int, int, int], list[Action]],
                   window: tuple[int, int, int]) -> list[Action]:
    """What the bots' filter leaves of the listing of ``window`` now, kept in ``kept``
    (:func:`random_chooser`)."""
    acts = [*sensible_actions(state)]
    if len(kept) >= _WINDOWS_KEPT:
        kept.clear()
    kept[window] = acts
    return acts


def _ismcts(seed: int) -> Policy:
    return ISMCTS(seed)


POLICIES: dict[str, Callable[[int], Policy]] = {
    "random": lambda seed: _ViewPolicy("random", seed),
    "first": _First,
    "greedy": lambda seed: _ViewPolicy("greedy", seed),
    "mc": lambda seed: _ViewPolicy("mc", seed),
    "ismcts": _ismcts,
}


def make_policy(name: str, seed: int = 0, iterations: int | None = None,
                seconds: float | None = None) -> Policy:
    """A policy by name (see the module's list); ``iterations`` and ``seconds`` set the
    budget of ``ismcts``. ``seed`` is a whole number (a bool, float or string is refused
    with a TypeError); ``iterations`` at least 1 and ``seconds`` more than 0, or a
    ValueError."""
    if seed.__class__ is not int:
        try:  # a numpy integer is read as the Python int; a bool is no seed
            number = operator.index(seed) if not isinstance(seed, bool) else None
        except TypeError:
            number = None
        if number is None:
            raise TypeError(f"a policy's seed is a whole number, not {seed!r}")
        seed = number
    if iterations is not None and (isinstance(iterations, bool)
                                   or not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations must be a whole number, at least 1, not {iterations!r}")
    if seconds is not None and not (isinstance(seconds, int | float)
                                    and not isinstance(seconds, bool) and seconds > 0):
        raise ValueError(f"seconds must be a number of seconds more than 0, not {seconds!r}")
    if name == "ismcts":
        return ISMCTS(seed, iterations=iterations or 200, seconds=seconds)
    try:
        return POLICIES[name](seed)
    except KeyError:
        raise ValueError(f"unknown policy {name!r} (policies: {', '.join(POLICIES)})") from None
