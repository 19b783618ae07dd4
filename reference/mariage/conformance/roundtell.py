"""Hands chosen for rounding to tell at the target: one small trick to a defending side.

Where the written, rounded scores decide the match (Coinche's
``belote-coinche.match.rounded-totals``), rounding tells only in a hand after which a
side's written total stands on the other side of the target from its total before
rounding (:func:`~mariage.conformance.ruleprobe.rounding_tells`). Under high bids
(``bid_min=160``) a contract is made only with nearly every card point, a failed one
writes round figures (160 and the bid), and the tamely played hands of the brink
(:mod:`mariage.conformance.brink`) reach 1,990 with round totals and stay there: only
a side that writes 10 from 5 to 9 points, defending a made contract, crosses by its
rounding. :func:`round_tell_hand` plays candidates of that shape on clones: a seeded
deal, the side with the lowest total bidding the lowest bid in the suit of its pair of
trumps (else of its most cards) and saying every announcement and the pair, the others
passing; every seat plays the first card after which that side holds the trick, but
in one trick (drawn for each candidate) the first after which the other side holds it,
so that the defenders take one trick. The first candidate whose end names a wanted
rule is kept (its deal and actions become the search's next ones, as the brink's).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.actiontext import parse_action
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("belote-coinche", {"bid_min": 160})
>>> sorted(round_tell_rules(rules)), round_tell_rules(load_rules("belote"))
(['belote-coinche.match.rounded-totals'], set())
>>> state = GameState(rules, first_dealer=0)
>>> state.match_scores[:] = [1990, 1600]
>>> deal, actions = round_tell_hand(state, SplitMix64(1), round_tell_rules(rules)) or ({}, [])
>>> state.deal(list(deal["deck"]), deal["first_player"])
>>> for text in actions:
...     state.apply(parse_action(rules, text))
>>> state.match_scores, [s + e for s, e in zip(state.match_scores, state.round_residue)]
([2000, 1980], [1997, 1975])
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import Action, Announce, Double, Pass, Play, SayPair, SuitBid
from mariage.engine.actiontext import action_text
from mariage.engine.mechanisms.takerscore import round_line
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from .dealtplaces import seeded_deal
from .ruleprobe import ending_rules

__all__ = ["TELL_DEALS", "round_tell_hand", "round_tell_rules"]

#: How many candidates :func:`round_tell_hand` plays out for one hand at most.
TELL_DEALS = 48

#: The bound of a candidate's steps.
_HAND_STEPS = 200

_BETWEEN = (Phase.DEAL, Phase.OVER)


def round_tell_rules(rules: Rules) -> set[str]:
    """The rule :func:`round_tell_hand` chooses hands for: the rounded totals' rule,
    where scores are rounded and a suit auction names the takers."""
    rule = rules.round_game_rule
    if rule and rules.round_mode != "none" and rules.sa_rule and len(rules.team_of) > 1:
        return {rule}
    return set()


def _strength(state: GameState, bid: SuitBid, side: int) -> tuple[bool, int]:
    """How well ``side`` holds ``bid``'s suit as trump: its pair in one hand, its cards."""
    r = state.rules
    suit = r.suit_mask[bid.suit]
    pair = 0
    for rank in r.pair_ranks:
        pair |= r.rank_mask[rank] & suit
    seats = [s for s in range(r.nseats) if r.team_of[s] == side]
    return (bool(pair) and any(state.hands[s] & pair == pair for s in seats),
            sum((state.hands[s] & suit).bit_count() for s in seats))


def _holds(before: GameState, action: Action, side: int) -> bool:
    after = before.clone()
    after.apply(action)
    r = after.rules
    if after.trick_cards:
        return r.team_of[after.trick_seats[after.current_winner()]] == side
    return after.tricks_won[side] > before.tricks_won[side]


def _tell(state: GameState, taker: int, given: int) -> Action:
    """The candidate's action for the seat to act: the ``taker`` side bids the lowest
    bid in its best suit (:func:`_strength`) where nobody has, the others pass; the
    taker side says what it may; each card played lets the taker side hold the trick,
    but in trick ``given`` the other side."""
    r = state.rules
    seat = state.to_act if state.to_act is not None else 0
    acts = state.legal_actions()
    bids = [a for a in acts if isinstance(a, SuitBid)]
    mine = r.team_of[seat] == taker
    if bids:
        low = min(b.value for b in bids)
        if mine and state.high_bidder < 0:
            return max((b for b in bids if b.value == low),
                       key=lambda b: _strength(state, b, taker))
        return Pass() if Pass() in acts else bids[0]
    says = [a for a in acts if isinstance(a, Announce | SayPair)]
    if says and mine:
        return says[0]
    plays = [a for a in acts if isinstance(a, Play)]
    if not plays:
        calm = [a for a in acts if not isinstance(a, Double)]
        return Pass() if Pass() in calm else (calm or acts)[0]
    side = taker if state.trick_no != given else next(
        t for t in range(len(state.match_scores)) if t != taker)
    held = [a for a in plays if _holds(state, a, side)] or plays
    pts = state.card_points
    if side != taker:  # the trick given: its points as near the small amount as may be
        sofar = sum(pts[c] for c in state.trick_cards)
        aim = _small_amount(r)
        return min(held, key=lambda a: (abs(sofar + pts[a.card] - aim), pts[a.card]))
    if not mine:  # the defenders feed the takers' tricks: the contract is made
        return max(held, key=lambda a: pts[a.card])
    return held[0]


def _small_amount(rules: Rules) -> int:
    """The middle of the smallest amounts that round up to the first written unit (from
    5 to 9 where scores are rounded to ten, 5 up: 7)."""
    line = [round_line(p, rules.round_mode) for p in range(0, 101)]
    unit = min((v for v in line if v > 0), default=0)
    small = [p for p in range(1, unit) if line[p] == unit]
    return small[len(small) // 2] if small else 0


def round_tell_hand(state: GameState, rng: SplitMix64, wanted: set[str]
                    ) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand from ``state`` (between hands): the deal and actions of the first of
    :data:`TELL_DEALS` candidates (see the module's text) whose end names a rule of
    ``wanted``; ``None`` where none does, or no such rule is wanted, or where the side
    behind would reach the target by making the lowest bid (it scores the bid at least:
    none is tried, the side behind then standing at the target on both totals)."""
    r = state.rules
    if not wanted & round_tell_rules(r) or len(set(r.team_of)) < 2:
        return None
    scores = state.match_scores
    taker = min(range(len(scores)), key=lambda t: (scores[t], t))
    if scores[taker] + r.sa_min >= r.match_target:  # its contract made takes it there
        return None
    for _ in range(TELL_DEALS):
        seeded = seeded_deal(state, rng)
        if seeded is None:
            return None
        deal, trial = seeded
        given = 1 + rng.below(r.hand_size)
        actions: list[str] = []
        while trial.phase not in _BETWEEN and len(actions) < _HAND_STEPS:
            action = _tell(trial, taker, given)
            actions.append(action_text(r, action))
            trial.apply(action)
        if trial.phase in _BETWEEN and wanted & ending_rules(trial, True):
            return deal, actions
    return None
