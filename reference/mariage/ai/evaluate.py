"""Measure one policy against another over paired deals, with 95% Wilson intervals.

Each deal is played twice from the same seed, the two policies swapping sides, so the
luck of the cards cancels out. The unit is one hand: the side that scores more in the
hand (what it adds to the match score; where equal, more card points) wins it, and a
hand equal in both is drawn. Where the match has more than two sides, each deal is
played once per side: policy ``a`` holds that side's seat and ``b`` all the others, and
``a`` is measured against the best of the other sides *in the hand*. A deal where ``a``'s
seat sits the hand out (the dealer of Sixty-six for three) says nothing of ``a``'s play:
that pairing is left out, so such a deal gives one hand per seat dealt in.

>>> result = evaluate("schnapsen", "greedy", "first", deals=4, seed=1)
>>> result.games, 0.0 <= result.rate <= 1.0
(8, True)

A policy is named (``greedy``: :func:`~mariage.ai.policies.make_policy`, a fresh one
per deal and seat) or is an agent of one's own: an object with ``choose(state)``, or a
factory that makes one from the rules, such as the ``load`` that
:mod:`mariage.arena.agent_engine` serves (``--agent FILE:load``). Such an agent is made
once and plays every seat of its side; it is handed the whole state, so it must read
only its seat's view (:func:`mariage.observe`, an :class:`~mariage.ai.encoding.Encoder`
vector of ``state.to_act``). The result names it after its ``name``:

>>> from mariage.ai.policies import make_policy
>>> evaluate("schnapsen", lambda rules: make_policy("greedy"), "first", deals=2).a
'greedy'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mariage.engine.deals import SeededDeals
from mariage.engine.prng import MASK64, check_seed
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.spec.rulesload import load_rules

from .policies import Policy, make_policy

__all__ = ["Evaluation", "PolicySource", "evaluate", "play_hand", "wilson"]

#: a policy by name, a policy, or a factory making one from the rules
PolicySource = str | Policy | Callable[[Rules], Policy]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share of ``wins`` in ``n`` (95% by default).

    >>> [round(x, 3) for x in wilson(40, 50)]
    [0.67, 0.888]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Evaluation:
    """Hands won, drawn and lost by policy ``a`` against ``b``."""

    ruleset: str
    a: str
    b: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def rate(self) -> float:
        """The share of hands won, a draw counting half."""
        return (self.wins + self.draws / 2) / max(1, self.games)

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate` (draws as half a win)."""
        return wilson(self.wins + self.draws / 2, self.games)


def play_hand(ruleset: str, seed: int, players: list[Policy]) -> tuple[int, ...]:
    """Deal one hand from ``seed`` and play it out with ``players`` (one per seat);
    return each side's (score, points) compared as one number: score * 10000 + points."""
    return _played(ruleset, seed, players)[0]


def _played(ruleset: str, seed: int,
            players: list[Policy]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """:func:`play_hand`'s values, and the sides that had a seat in the hand."""
    rules = load_rules(ruleset)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    deck, first = deals.next_deal()
    state.deal(deck, first)
    sides = state.sides_in_hand()
    while not state.history and not state.terminal:
        seat = state.to_act
        assert seat is not None
        state.apply(players[seat].choose(state))
    record = state.history[-1]
    values = tuple(s * 10000 + p for s, p in zip(record.score, record.points, strict=True))
    return values, sides


def _agent(source: PolicySource, rules: Rules) -> Policy | None:
    """The agent ``source`` gives (made once), ``None`` for a policy name; a TypeError
    for anything else."""
    if isinstance(source, str):
        make_policy(source)  # an unknown name fails here, before any hand is played
        return None
    if callable(getattr(source, "choose", None)):
        return source  # type: ignore[return-value]
    if callable(source):
        agent = source(rules)
        if callable(getattr(agent, "choose", None)):
            return agent
        raise TypeError(f"the factory {source!r} gave {agent!r}, which has no "
                        "choose(state)")
    raise TypeError(f"a policy is a name, an object with choose(state) or a factory of "
                    f"one from the rules, not {source!r}")


def _label(source: PolicySource, agent: Policy | None) -> str:
    if agent is None:
        return str(source)
    return str(getattr(agent, "name", None) or type(agent).__name__)


def evaluate(ruleset: str, a: PolicySource, b: PolicySource, deals: int = 100,
             seed: int = 1, iterations: int = 100) -> Evaluation:
    """Policy ``a`` against ``b`` over ``deals`` paired deals (``2 * deals`` hands where
    two sides play; see the module's note for more, and for agents of one's own). Deal
    ``k`` is dealt from seed ``seed + k`` (modulo 2**64); ``seed`` is one a record holds,
    from 0 to 2**64-1. ``iterations``: the budget of a policy named ``ismcts``."""
    seed = check_seed(seed)
    rules = load_rules(ruleset)
    agents = (_agent(a, rules), _agent(b, rules))
    sources = (a, b)

    def player(side: int, s: int, k: int) -> Policy:
        made = agents[side]
        if made is not None:
            return made
        name = sources[side]
        assert isinstance(name, str)
        return make_policy(name, seed=seed + k * 7 + s, iterations=iterations)

    wins = draws = losses = 0
    for k in range(deals):
        for a_team in range(len(rules.teams)):
            players = [player(0 if rules.team_of[s] == a_team else 1, s, k)
                       for s in range(rules.nseats)]
            value, sides = _played(ruleset, (seed + k) & MASK64, players)
            if a_team not in sides:  # a's seat sat this hand out
                continue
            mine = value[a_team]
            other = max(value[t] for t in sides if t != a_team)
            if mine > other:
                wins += 1
            elif mine < other:
                losses += 1
            else:
                draws += 1
    return Evaluation(ruleset, _label(a, agents[0]), _label(b, agents[1]), wins, draws,
                      losses)
