"""Hands built for a top score of exactly the value that takes no segno.

Where the hand is won by the higher score but a top score of exactly
:attr:`~mariage.engine.rules.Rules.segno_void_top` takes nothing (Mariazza's sixty), and
the hand ends at a low target (``target=1``: at the first point), a top of exactly that
value comes only from that many points added at once: declarations held over until
their declarer next leads (credited ``when_leading``), declared over tricks worth
nothing and added when he leads after taking one. Random play never comes to it.
:func:`exact_top_hand` builds such a hand from the rule data: the seat after the first
leader (the *holder*) is dealt declarations of distinct suits whose values (in the trump
suit too) sum to the void value, every other card of the two hands and the stock's next
cards are worth no points; it is played out on a clone by :func:`_aim` (the holder
declares while its held points stay within the value, every card played is worth
nothing, and each trick goes to the leader until the holder holds the whole value, then
to the holder), and the first of :data:`EXACT_DEALS` deals whose hand ends with a top
score of exactly that value is kept. Its deal and actions become the search's next
deal and recorded actions (:mod:`mariage.conformance.builthands`).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("mariazza", {"target": 1})
>>> state = GameState(rules, first_dealer=0)
>>> deal, actions = exact_top_hand(state, SplitMix64(1)) or ({}, [])
>>> [a for a in actions if a.startswith("mariazza")]   # 20, then 40 in trump (spades)
['mariazza:D', 'mariazza:S']
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from mariage.engine.actions import Action, Declare, Exchange, Play
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Declaration, Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError
from .dealtplaces import seeded_places

__all__ = ["EXACT_DEALS", "exact_top_hand", "exact_top_rules"]

#: How many built deals :func:`exact_top_hand` plays out for one hand at most.
EXACT_DEALS = 16

#: The bound of a built hand's steps.
_HAND_STEPS = 200

_BETWEEN = (Phase.DEAL, Phase.OVER)


def _held_kinds(rules: Rules) -> list[Declaration]:
    return [d for d in rules.declarations if d.same_suit and not d.whole_hand
            and d.credit == "when_leading" and not d.schedule]


def exact_top_rules(rules: Rules) -> set[str]:
    """The rule of the void top score where declarations held over may make it: the
    rule :func:`exact_top_hand` builds a hand for."""
    if rules.segno_void_rule and rules.segno_void_top and _held_kinds(rules):
        return {rules.segno_void_rule}
    return set()


def _value(d: Declaration, suit: int, trump: int) -> int:
    if d.if_trump_suit is not None and suit == trump:
        return d.if_trump_suit
    return d.suit_values[suit] if d.suit_values else d.fixed


def _plan(rules: Rules, trump: int, room: int, shun: int, rng: SplitMix64) -> list[int]:
    """The masks of declarations of distinct suits whose values sum to the void top,
    using at most ``room`` cards and none of ``shun``; ``[]`` where none do."""
    goal = rules.segno_void_top or 0
    kinds = [(d.suit_masks[s], _value(d, s, trump)) for d in _held_kinds(rules)
             for s in range(len(d.suit_masks)) if d.suit_masks[s] and not d.suit_masks[s] & shun]
    options = [c for n in range(1, len(kinds) + 1) for c in combinations(kinds, n)
               if sum(v for _, v in c) == goal and sum(bin(m).count("1") for m, _ in c) <= room]
    fits = [c for c in options if not any(a[0] & b[0] for a, b in combinations(c, 2))]
    return [m for m, _ in fits[rng.below(len(fits))]] if fits else []


def _built(state: GameState, rng: SplitMix64) -> tuple[dict[str, Any], int] | None:
    """A seeded deck with the holder's declarations and cards worth nothing swapped in,
    and the holder; ``None`` where the rules do not deal it or no declarations fit."""
    r = state.rules
    found = seeded_places(state, rng)
    if found is None:
        return None
    deck, first, trial, leader, seats, stock = found
    holder = (leader + 1) % r.nseats
    shun = 1 << trial.turn_up if trial.turn_up is not None else 0
    plan = _plan(r, trial.trump, len(seats[holder]) - 1, shun, rng)
    if not plan:
        return None
    mine = [c for m in plan for c in r.cards_of(m)]
    nothing = [c for c in range(r.ncards) if r.points[c] == 0 and c not in mine
               and c != trial.turn_up]
    rng.shuffle(nothing)
    places = seats[holder][len(mine):] + seats[leader] + stock
    wants = list(zip(mine, seats[holder], strict=False)) + \
        list(zip(nothing, places, strict=False))
    for card, pos in wants:
        at = deck.index(card)
        deck[at], deck[pos] = deck[pos], deck[at]
    return {"deck": [r.card_code[c] for c in deck], "first_player": first}, holder


def _trick_ok(before: GameState, after: GameState, holder: int) -> bool | None:
    """Whether the card just played keeps the plan: ``None`` while the trick goes on;
    else whether it took no points and went to the seat the plan wants (the holder once
    it holds the void top, else another), or ended the hand at exactly the void top."""
    r = before.rules
    if after.phase in _BETWEEN:
        return bool(after.history) and max(after.history[-1].points) == r.segno_void_top
    if after.trick_cards and after.phase == Phase.PLAY:
        return None
    if sum(after.captured) != sum(before.captured) or any(after.decl_points):
        return False
    return (after.to_act == holder) == (before.held[holder] == r.segno_void_top)


def _aim(state: GameState, holder: int) -> Action:
    """The play of a built hand: the holder declares while its held points stay within
    the void top; a card that keeps the plan (:func:`_trick_ok`; a lead, where the next
    seat has a reply that keeps it), worth nothing where it may be."""
    r = state.rules
    acts = [a for a in state.legal_actions() if not isinstance(a, Exchange)] or \
        state.legal_actions()
    goal = r.segno_void_top or 0
    if state.to_act == holder:
        for a in acts:
            if isinstance(a, Declare):
                after = state.clone()
                after.apply(a)
                if after.held[holder] <= goal and not any(after.decl_points):
                    return a
    plays = [a for a in acts if isinstance(a, Play)]
    plays.sort(key=lambda a: r.points[a.card])
    for a in plays:
        after = state.clone()
        after.apply(a)
        ok = _trick_ok(state, after, holder)
        if ok is None:  # a lead: kept if a reply keeps the plan
            ok = any(_trick_ok(state, _then(after, b), holder)
                     for b in after.legal_actions() if isinstance(b, Play))
        if ok:
            return a
    return plays[0] if plays else acts[0]


def _then(state: GameState, action: Action) -> GameState:
    after = state.clone()
    after.apply(action)
    return after


def exact_top_hand(state: GameState, rng: SplitMix64
                   ) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand to play from ``state`` (between hands, or before the first deal): the
    deal and actions of the first of :data:`EXACT_DEALS` built deals whose hand ends with
    a top score of exactly the void top (see the module's text); ``None`` where none do."""
    r = state.rules
    if not exact_top_rules(r):
        return None
    for _ in range(EXACT_DEALS):
        built = _built(state, rng)
        if built is None:
            continue
        deal, holder = built
        trial = state.clone()
        try:
            trial.deal(list(deal["deck"]), deal["first_player"])
        except (IllegalActionError, ValueError):
            continue
        actions: list[str] = []
        while trial.phase not in _BETWEEN and len(actions) < _HAND_STEPS:
            action = _aim(trial, holder)
            actions.append(action_text(r, action))
            trial.apply(action)
        if trial.phase in _BETWEEN and trial.history and \
                max(trial.history[-1].points) == r.segno_void_top:
            return deal, actions
    return None
