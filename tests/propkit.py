"""Helpers for the generic property tests: option grids, seeded random matches, candidates.

Every ruleset is exercised under every combination of its enum and bool
options; int options take their default or a smaller value. A match is played
by :func:`play_match` with seeded deals and seeded random choices (mostly
uniform among the legal actions, with rare call-outs, out-of-turn call-outs
and resignations), calling a :class:`Hooks` object around every event so a
test can check invariants at every step.

>>> len(option_grid("marianna")), len(option_grid("mariglia"))
(24, 2)
>>> int_choices("mariazza")
{'target': [41, 10], 'hands': [4, 1]}
>>> state = play_match(rules_for("mariglia", {}), seed=1, choice_seed=2)
>>> state.terminal
True
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

from hypothesis import strategies as st
from mariage import (
    Action,
    Answer,
    AskPartner,
    Bid,
    Call,
    CallOut,
    Declare,
    Exchange,
    GameState,
    Give,
    Kontra,
    Pass,
    Phase,
    Play,
    Question,
    Raise,
    Rules,
    list_rulesets,
)
from mariage.compile import build, option_specs
from mariage.deals import SeededDeals
from mariage.specload import Document, load_document

__all__ = [
    "CHOICES",
    "RULESETS",
    "SEEDS",
    "Hooks",
    "candidate_actions",
    "document",
    "int_choices",
    "option_grid",
    "options_for",
    "pick_action",
    "play_match",
    "rules_for",
    "snapshot",
]

RULESETS: tuple[str, ...] = tuple(list_rulesets())


@cache
def document(name: str) -> Document:
    """The merged description of a bundled ruleset (loaded once per test run)."""
    return load_document(name)


def _values(spec: dict[str, Any]) -> list[Any]:
    if spec["type"] == "enum":
        return list(spec["values"])
    if spec["type"] == "bool":
        return [False, True]
    default = int(spec["default"])
    return [default, max(int(spec.get("min", 1)), default // 4)]


#: grids larger than this are sampled (a ruleset with twenty options has a million)
GRID_LIMIT = 256


@cache
def _grid(name: str) -> tuple[tuple[tuple[str, Any], ...], ...]:
    specs = option_specs(document(name))
    axes = [[(k, v) for v in _values(s)] for k, s in specs.items() if s["type"] != "int"]
    size = 1
    for axis in axes:
        size *= len(axis)
    if size <= GRID_LIMIT:
        return tuple(tuple(combo) for combo in itertools.product(*axes))
    # too many: the first values, each other value alone, and seeded mixed combinations
    base = [axis[0] for axis in axes]
    out = [tuple(base)]
    for i, axis in enumerate(axes):
        for item in axis[1:]:
            out.append(tuple(item if j == i else b for j, b in enumerate(base)))
    rng = random.Random(name)
    for _ in range(16):
        out.append(tuple(rng.choice(axis) for axis in axes))
    return tuple(out)


def option_grid(name: str) -> list[dict[str, Any]]:
    """Every combination of the enum and bool options of ``name``.

    Where there are more than :data:`GRID_LIMIT` combinations: the combination
    of first values, each other value varied alone, and 16 seeded mixtures.
    """
    return [dict(combo) for combo in _grid(name)]


def int_choices(name: str) -> dict[str, list[int]]:
    """For each int option of ``name``: its default and a smaller value."""
    specs = option_specs(document(name))
    return {k: _values(s) for k, s in specs.items() if s["type"] == "int"}


def options_for(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Any combination of option values of ``name`` (ints: default or a smaller value)."""
    grid = option_grid(name)
    axes: dict[str, list[Any]] = {k: sorted({str(g[k]) for g in grid}) for k in grid[0]}
    typed = {k: [next(g[k] for g in grid if str(g[k]) == v) for v in vs] for k, vs in axes.items()}
    typed.update(int_choices(name))
    return st.fixed_dictionaries({k: st.sampled_from(v) for k, v in typed.items()})


SEEDS = st.integers(0, 2**64 - 1)
CHOICES = st.integers(0, 2**32 - 1)


_RULES: dict[tuple[str, tuple[tuple[str, str], ...]], Rules] = {}


def rules_for(name: str, options: dict[str, Any]) -> Rules:
    """Compiled rules of ``name`` with ``options`` (cached for the test run)."""
    key = (name, tuple(sorted((k, str(v)) for k, v in options.items())))
    if key not in _RULES:
        _RULES[key] = build(document(name), options)
    return _RULES[key]


class Hooks:
    """Called by :func:`play_match` around every event; override what you check."""

    def dealt(self, state: GameState) -> None:
        """A hand has just been dealt."""

    def before(self, state: GameState, seat: int, action: Action) -> None:
        """``seat`` is about to apply ``action``."""

    def after(self, state: GameState, seat: int, action: Action) -> None:
        """``seat`` has applied ``action``."""

    def resigned(self, state: GameState, seat: int) -> None:
        """``seat`` has resigned."""


def pick_action(rng: random.Random, state: GameState) -> tuple[int, Action]:
    """A seeded random (seat, action): a legal action of the seat to act, or a call-out.

    Declarations, asks, exchanges and yes-answers are taken half the time
    they are offered. Where calling out exists, a seat whose claim is good
    calls out now and then, and any seat (even out of turn) calls out
    wrongly, rarely.
    """
    r = state.rules
    seat = state.to_act
    assert seat is not None
    if r.call_out_rule:
        for s in range(r.nseats):
            team = r.team_of[s]
            good = state.match_scores[team] + state.hand_points(team) >= r.match_target
            if good and rng.random() < 0.2:
                return s, CallOut()
        if rng.random() < 0.003:
            return rng.randrange(r.nseats), CallOut()
    acts = [a for a in state.legal_actions() if not isinstance(a, CallOut)]
    bold = [a for a in acts if isinstance(a, Declare | AskPartner | Exchange)
            or (isinstance(a, Answer) and a.yes)]
    if bold and rng.random() < 0.5:  # declare, ask and exchange often enough to matter
        return seat, rng.choice(bold)
    return seat, rng.choice(acts)


def play_match(rules: Rules, seed: int, choice_seed: int, hooks: Hooks | None = None,
               max_actions: int = 20_000) -> GameState:
    """Play a whole match from ``seed`` with random choices from ``choice_seed``.

    Deals are applied by hand (no ``deal_source``), so the state rests in
    :attr:`Phase.DEAL` between hands where hooks can inspect it. About one
    match in twenty has a resignation at a random moment.
    """
    hooks = hooks or Hooks()
    rng = random.Random(choice_seed)
    resign_at = rng.randrange(400) if rng.random() < 0.05 else -1
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    count = 0
    while not state.terminal:
        if state.phase == Phase.DEAL:
            deck, first = deals.next_deal()
            state.deal(deck, first)
            hooks.dealt(state)
            continue
        if count == resign_at:
            seat = rng.randrange(rules.nseats)
            state.resign(seat)
            hooks.resigned(state, seat)
            break
        seat, action = pick_action(rng, state)
        hooks.before(state, seat, action)
        state.apply(action, seat=seat)
        hooks.after(state, seat, action)
        count += 1
        assert count < max_actions, f"no end after {max_actions} actions"
    return state


def candidate_actions(rules: Rules, state: GameState | None = None) -> list[Action]:
    """A broad set of actions: every card, declaration, ask, answer, the rest, and bad ones.

    In bidding games also every bid and raise, calls and questions, Kontra and Re,
    and, while cards are passed in ``state``, every set of cards the giver could pass.
    """
    suits = range(len(rules.suits))
    out: list[Action] = [Play(c) for c in range(rules.ncards)]
    out += [Declare(d, s, t) for d in range(len(rules.declarations)) for s in suits
            for t in (True, False)]
    out += [AskPartner(a, s) for a in range(len(rules.asks)) for s in (-1, *suits)]
    out += [Answer(True, s) for s in (-1, *suits)] + [Answer(False)]
    out += [Exchange(c) for c in range(rules.ncards)]
    out += [Pass(), CallOut()]
    # malformed ones: out of range numbers must be refused like any illegal action
    out += [Play(-1), Play(rules.ncards), Exchange(-1), Exchange(rules.ncards),
            Declare(len(rules.declarations), 0), Declare(0, len(rules.suits)), Declare(0, -1),
            AskPartner(len(rules.asks), 0), AskPartner(0, len(rules.suits)),
            Answer(True, len(rules.suits)), Answer(False, 0)]
    if rules.auction_rule is not None or rules.calls_rule is not None:
        out += [Bid(v) for v in range(0, 460, 5)] + [Bid(121), Bid(-5)]
        out += [Raise(v) for v in range(0, 460, 5)] + [Raise(7)]
        out += [Call(s) for s in (-1, *suits, len(rules.suits))]
        out += [Question(0), Question(0, 1), Question(2)]
        out += [Question(1, s) for s in (-1, *suits, len(rules.suits))]
        out += [Kontra(False), Kontra(True), Give(-1), Give(0), Give(rules.full_mask)]
        if state is not None and state.phase == Phase.PASSING and state.to_act is not None:
            hand = rules.cards_of(state.hands[state.to_act])
            count = rules.passing_steps[state.pass_step][2]
            out += [Give(sum(1 << c for c in combo))
                    for combo in itertools.combinations(hand, count)]
    return out


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything that makes up ``state``, as nested tuples (for equality checks)."""
    return tuple(_freeze(getattr(state, name)) for name in GameState.__slots__
                 if not name.startswith("_") and name not in ("rules", "deal_source"))
