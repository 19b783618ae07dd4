"""Helpers for the generic property tests: option grids, seeded random matches, candidates.

Every ruleset is exercised under every combination of its enum and bool
options (or, where they are many, under a set of combinations holding every
pair of values); int options take their default or a smaller value. A match is played
by :func:`play_match` with seeded deals and seeded random choices (mostly
uniform among the legal actions, with rare call-outs, out-of-turn call-outs
and resignations), calling a :class:`Hooks` object around every event so a
test can check invariants at every step.

>>> len(option_grid("cinquecento")), len(option_grid("mariglia"))
(64, 4)
>>> grid = option_grid("marianna-siciliana")
>>> {(g["split_spoiled_by"], g["declare_who"]) for g in grid} >= {
...     ("never", "leader"), ("any", "anyone")}
True
>>> int_choices("mariazza")
{'target': [41, 10], 'hands': [4, 1]}
>>> state = play_match(rules_for("mariglia", {}), seed=1, choice_seed=2)
>>> state.terminal
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
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
    Claim,
    Close,
    Declare,
    Decline,
    Draw,
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
    load_rules,
)
from mariage.ai.layout import action_list
from mariage.arena.bots import GreedyBot
from mariage.engine.actions import (
    Announce,
    ChooseTalon,
    Concede,
    Double,
    Redeal,
    SayPair,
    SuitBid,
    Take,
)
from mariage.engine.deals import SeededDeals
from mariage.spec.compile import build, option_specs
from mariage.spec.options import invalid_case, playable, settled_values
from mariage.spec.specload import Document, load_document

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


#: up to this many combinations, the grid is every combination; above, every pair
FULL_GRID = 64


def option_grid(name: str) -> list[dict[str, Any]]:
    """Combinations of the enum and bool options of ``name``, defaults first.

    Every combination where there are at most :data:`FULL_GRID`; otherwise a
    covering set in which every pair of values of two options appears together
    in some combination (built greedily, the same every run). Combinations whose
    barrel only a win leaves (:func:`only_a_win_leaves_the_barrel`) are left out:
    random play, bidding low, would not end such a match. Built once per ruleset
    and test process; each call returns new dicts.
    """
    return [dict(row) for row in _option_grid(name)]


def only_a_win_leaves_the_barrel(rules: Rules) -> bool:
    """True where a player on the barrel stays there until he wins: it clamps his
    total, counts no attempts and a failed contract costs him nothing."""
    return (rules.barrel_rule is not None and rules.barrel_clamp
            and not rules.barrel_attempts and not rules.barrel_fail_off)


@cache
def _option_grid(name: str) -> list[dict[str, Any]]:
    specs = option_specs(document(name))
    axes = [[(k, v) for v in _values(s)] for k, s in specs.items() if s["type"] != "int"]
    total = 1
    for axis in axes:
        total *= len(axis)
    doc = document(name)

    def refused(row: dict[str, Any]) -> tuple[str, Any] | None:
        """The option and case that rule ``row`` out (an ``invalid_when``), or None."""
        return invalid_case(specs, settled_values(doc, row))

    if total <= FULL_GRID:
        rows = [dict(combo) for combo in itertools.product(*axes) if playable(doc, dict(combo))]
    else:
        rows = _pairwise(axes, [dict((k, specs[k]["default"])
                                     for k, _ in (a[0] for a in axes))], refused)
    if load_rules(name).running_rule is None:  # no running totals: no barrel
        return rows
    return [row for row in rows if not only_a_win_leaves_the_barrel(load_rules(name, row))]


def _pairwise(axes: list[list[tuple[str, Any]]], rows: list[dict[str, Any]],
              refused: Callable[[dict[str, Any]], tuple[str, Any] | None] = lambda row: None
              ) -> list[dict[str, Any]]:
    """Greedy rows until every pair of values of two axes is in some playable row (a pair
    that no playable row holds is left out; ``refused`` names what rules a row out)."""
    names = [a[0][0] for a in axes]
    pos = {n: i for i, n in enumerate(names)}
    values = {a[0][0]: [v for _, v in a] for a in axes}

    def pairs(row: dict[str, Any]) -> set[tuple[str, str, str, str]]:
        return {(a, str(row[a]), b, str(row[b]))
                for i, a in enumerate(names) for b in names[i + 1:]}

    def gain(row: dict[str, Any], n: str, v: Any) -> int:
        """The missing pairs that setting ``n`` to ``v`` in ``row`` covers (only pairs
        with ``n`` differ between its values, so only those are counted)."""
        sv = str(v)
        return sum(((m, str(row[m]), n, sv) if pos[m] < pos[n]
                    else (n, sv, m, str(row[m]))) in todo for m in names if m != n)

    todo = {(a, str(x), b, str(y)) for i, a in enumerate(names) for b in names[i + 1:]
            for x in values[a] for y in values[b]}
    for row in rows:
        todo -= pairs(row)
    while todo:
        a, x, b, y = min(todo)
        row = {n: values[n][0] for n in names}
        row[a] = next(v for v in values[a] if str(v) == x)
        row[b] = next(v for v in values[b] if str(v) == y)
        for n in names:  # each other option: the value covering most missing pairs
            if n in (a, b):
                continue
            row[n] = max(values[n], key=lambda v, n=n: gain(row, n, v))
        if _made_playable(row, (a, b), values, refused):
            todo -= pairs(row)
            rows.append(row)
        else:  # the pair itself cannot be played: no row holds it
            todo.discard((a, x, b, y))
    return rows


def _made_playable(row: dict[str, Any], kept: tuple[str, str], values: dict[str, list[Any]],
                   refused: Callable[[dict[str, Any]], tuple[str, Any] | None]) -> bool:
    """Change options of ``row`` other than ``kept`` until no ``invalid_when`` case rules it
    out; False where only the kept ones could."""
    for _ in range(len(values)):
        found = refused(row)
        if found is None:
            return True
        name, case = found
        free = [n for n in (name, *case["when"]) if n not in kept and n in values]
        if not free:
            return False
        ruled = case["value"] if free[0] == name else case["when"][free[0]]
        row[free[0]] = next(v for v in values[free[0]] if str(v) != str(ruled))
    return refused(row) is None


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
    doc = document(name)
    return st.fixed_dictionaries({k: st.sampled_from(v) for k, v in typed.items()}).filter(
        lambda row: playable(doc, row))


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
    if r.running_rule is not None:  # games to a far target (Thousand): play them out
        if rng.random() < 0.5:  # half the time as the greedy bot would
            return seat, _GREEDY.choose(state)
        lowest = next((a for a in acts if isinstance(a, Bid)), None)  # bids come low first
        acts = [a for a in acts if not isinstance(a, Bid | Raise) or a in (lowest, Raise(0))]
    bold = [a for a in acts if isinstance(a, Declare | AskPartner | Exchange)
            or (isinstance(a, Answer) and a.yes)]
    if bold and rng.random() < 0.5:  # declare, ask and exchange often enough to matter
        return seat, rng.choice(bold)
    return seat, rng.choice(acts)


#: the greedy choices mixed into random play of games to a far target
_GREEDY = GreedyBot(0)
#: games with running totals to a far target (a barrel to cross) last longer
RUNNING_MAX_ACTIONS = 200_000


def play_match(rules: Rules, seed: int, choice_seed: int, hooks: Hooks | None = None,
               max_actions: int = 20_000, stop_after: int | None = None) -> GameState:
    """Play a whole match from ``seed`` with random choices from ``choice_seed``.

    Deals are applied by hand (no ``deal_source``), so the state rests in
    :attr:`Phase.DEAL` between hands where hooks can inspect it. About one
    match in twenty has a resignation at a random moment. With ``stop_after``
    the match stops after that many actions (a property of its beginning).
    """
    hooks = hooks or Hooks()
    if rules.running_rule is not None:
        max_actions = max(max_actions, RUNNING_MAX_ACTIONS)
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
        if count == stop_after:
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
    out += [Pass(), CallOut(), Close(), Claim(), Draw(), Decline(), Concede(), Redeal()]
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
        if state is not None and state.phase == Phase.PASSING and state.to_act is not None \
                and state.pass_step >= 0:
            hand = rules.cards_of(state.hands[state.to_act])
            count = rules.passing_steps[state.pass_step][2]
            out += [Give(sum(1 << c for c in combo))
                    for combo in itertools.combinations(hand, count)]
    # the strains beyond the suits (sans-atout, tout-atout), and one more
    strains = (-1, *range(len(rules.suits) + len(rules.strain_names) + 1))
    if rules.talon_packets > 1:  # a talon in packets: each packet, and one too many
        out += [ChooseTalon(k) for k in range(-1, rules.talon_packets + 1)]
    if rules.take_rule is not None or rules.combos or rules.pair_rule is not None:
        out += [Take(s) for s in strains]
        out += [Announce(k, c) for k in range(-1, len(rules.combos) + 1)
                for c in (-1, *range(rules.ncards), rules.ncards)]
        out += [SayPair(c) for c in (-1, *range(rules.ncards), rules.ncards)]
    if rules.sa_rule is not None:  # an auction of a value and a trump suit
        values = sorted({*range(0, rules.sa_max + 30, 10), rules.sa_min + 5, rules.sa_capot_value})
        out += [SuitBid(v, s) for v in values for s in strains]
        out += [Double(level) for level in range(4)]
    # and whatever the mechanisms say they could ever offer (the AI's fixed action ids),
    # but the sets of cards passed, which are tens of thousands (those of the hand above)
    seen = set(out)
    out += [a for a in _offered(rules) if a not in seen]
    return out


_OFFERED: dict[int, tuple[Rules, tuple[Action, ...]]] = {}


def _offered(rules: Rules) -> tuple[Action, ...]:
    """:func:`~mariage.ai.layout.action_list` of ``rules`` but the sets of cards passed,
    worked out once per compiled rules (German Marjapussi's list has tens of thousands)."""
    hit = _OFFERED.get(id(rules))
    if hit is None or hit[0] is not rules:
        hit = _OFFERED[id(rules)] = (rules, tuple(a for a in action_list(rules)
                                                  if type(a) is not Give))
    return hit[1]


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


#: The fields that make up a state: its public slots but the rules and the deal source,
#: and the hands played.
STATE_FIELDS = (*(name for name in GameState.__slots__
                  if not name.startswith("_") and name not in ("rules", "deal_source")),
                "history")


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything that makes up ``state``, as nested tuples (for equality checks)."""
    return tuple(_freeze(getattr(state, name)) for name in STATE_FIELDS)


def same_state(a: GameState, b: GameState) -> bool:
    """Whether ``a`` and ``b`` hold equal values in every field of :func:`snapshot`: lists
    compared as lists, without freezing them (a refused action is tried on thousands of
    clones; freezing each took three quarters of the property tests' time)."""
    return all(getattr(a, name) == getattr(b, name) for name in STATE_FIELDS)
