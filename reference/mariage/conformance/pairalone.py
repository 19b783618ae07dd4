"""A hand chosen for Belote's *belote alone* where only a side without a trick meets it.

Where a failed contract's pair of trumps goes to the winners
(``belote_on_failure=goes_to_winner``), or the takers' side fails only by a capot
bid, a side writes its pair alone only when it defends, holds both cards of the pair
in one hand, says it and takes no trick. The brink's candidates
(:func:`~mariage.conformance.brink.brink_hand`) are random deals played out: at the
brink of the target, about one in a hundred lopsided ones comes to that (Belote contrée's
first hands at a side 5 below the target: of 600 lopsided candidates, 30 left that side
without a trick, one of those with the pair in its hand, and it did not say it).
:func:`pair_alone_hand` deals candidates and plays only their auction until the side
close below the target defends with the pair of trumps in one hand (its opponents
holding most trumps), then plays the hand out lopsided, the pair said with a card that
leaves the trick to the declarer's side.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("belote", {"belote_on_failure": "goes_to_winner"})
>>> state = GameState(rules, first_dealer=0)
>>> pair_alone_hand(state, SplitMix64(1), {rules.pair_alone_rule}) is None  # nobody near
True
>>> state.match_scores = [rules.match_target - 5, 100]
>>> deal, actions = pair_alone_hand(state, SplitMix64(4), {rules.pair_alone_rule})
>>> len(deal["deck"]), [a for a in actions if a.startswith("belote")]
(32, ['belote:KD'])
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import Action, Pass, Play, SayPair
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from .brink import _BETWEEN, _HAND_STEPS, _lopsided, _tame
from .dealtplaces import seeded_deal
from .ruleprobe import ending_rules

__all__ = ["PAIR_DEALS", "PLAYS", "pair_alone_hand", "pair_room"]

#: How many deals :func:`pair_alone_hand` tries (each to the end of its auction) per hand.
PAIR_DEALS = 64

#: How many trumps the declarer's side holds at least in a deal :func:`pair_alone_hand`
#: plays out (it must overtrump the other side's every trump: a strong side takes every
#: trick more often).
STRONG_TRUMPS = 5

#: How many times :func:`pair_alone_hand` plays out a deal whose auction it keeps.
PLAYS = 4

_LOPSIDED = 3  # the style of brink._tame that plays the cards lopsided


def pair_alone_hand(state: GameState, rng: SplitMix64, wanted: set[str],
                    suited: bool = False, room: int = 0
                    ) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand to play from ``state`` (between hands) for the pair alone: its deal
    and its actions, the first of :data:`PAIR_DEALS` seeded deals whose auction leaves a
    side within the pair's value below the target defending with the pair of trumps in
    one hand, and whose hand played out lopsided, the pair said, exercises it; ``None``
    where the rule is not wanted, no side is that close, or no deal does. With
    ``suited`` (seventeenth session), only deals where a suit fits (:func:`_fitting`)
    are played, and the auction names it trump (:func:`_suited_bid`). With ``room``
    (twenty-eighth session), none is tried unless the other sides stand more than
    ``room`` below the target (:func:`pair_room`: else the side that takes every trick
    reaches it too and wins)."""
    r = state.rules
    if r.pair_alone_rule not in wanted or not _near(state) or (room and any(
            s >= r.match_target - room for t, s in enumerate(state.match_scores)
            if t not in _near(state))):
        return None
    for _ in range(PAIR_DEALS):
        seeded = seeded_deal(state, rng)
        if seeded is None:
            return None
        deal, trial = seeded
        suits = _fitting(trial) if suited else None
        if suits is not None and not suits:
            continue
        actions = _auction(trial, rng, suits)
        if actions is None or not _defends_with_pair(trial):
            continue
        for _ in range(PLAYS):
            played, texts = trial.clone(), list(actions)
            if _play_saying(played, rng, texts) and \
                    r.pair_alone_rule in ending_rules(played, True):
                return deal, texts
    return None


def pair_room(rules: Rules) -> int:
    """How far below the target the other sides must stand for a hand where a side
    writes only its pair of trumps to leave them below it: what they write in it at
    least where they take every trick (the pair's side without a trick), the cards'
    points with the last trick's capot value, or a capot's flat value, and the lowest bid.

    >>> from mariage import load_rules
    >>> pair_room(load_rules("belote-contree")), pair_room(load_rules("belote"))
    (300, 0)
    """
    if not rules.pair_alone_rule or not rules.sa_rule:
        return 0
    return min(rules.bid_capot_base, rules.pack_points + rules.capot_value) + rules.sa_min


def _near(state: GameState) -> set[int]:
    """The sides below the target by at most the pair's value."""
    r = state.rules
    return {t for t, s in enumerate(state.match_scores)
            if r.match_target - r.pair_value <= s < r.match_target}


def _fitting(trial: GameState) -> set[int]:
    """The suits where a seat of a side close below the target holds the pair of trumps
    and a side far from it holds :data:`STRONG_TRUMPS` trumps or more (a deal just made).

    >>> from mariage import load_rules, GameState
    >>> rules = load_rules("belote-contree")
    >>> state = GameState(rules, first_dealer=0)
    >>> state.deal(list(rules.card_code))
    >>> _fitting(state)   # nobody near the target
    set()
    """
    r = trial.rules
    near = _near(trial)
    out = set()
    for t in range(min(len(r.suits), len(r.pair_masks))):
        mask = r.pair_masks[t]
        if not any(trial.hands[s] & mask == mask and r.team_of[s] in near
                   for s in range(r.nseats)):
            continue
        for side in set(range(len(r.teams))) - near:
            if sum((trial.hands[s] & r.suit_mask[t]).bit_count() for s in range(r.nseats)
                   if r.team_of[s] == side) >= STRONG_TRUMPS:
                out.add(t)
    return out


def _suited_bid(trial: GameState, rng: SplitMix64, suits: set[int]) -> Action:
    """In an auction of bids by value, while no bid stands: a seat of a side far from the
    target bids the lowest bid in a suit of ``suits`` where its side holds
    :data:`STRONG_TRUMPS` trumps or more, any other seat passes; once a bid stands, a
    pass. Elsewhere the brink's lopsided choice."""
    r = trial.rules
    acts = trial.legal_actions()
    seat = trial.to_act
    bids = [a for a in acts if isinstance(getattr(a, "value", None), int)]
    if seat is None or Pass() not in acts:
        return _tame(trial, rng, _LOPSIDED)
    side = r.team_of[seat]
    if trial.high_bid or not bids or side in _near(trial):
        return Pass()
    low = min(int(getattr(a, "value", 0)) for a in bids)
    mine = [a for a in bids if getattr(a, "value", None) == low and getattr(a, "suit", -1)
            in suits and sum((trial.hands[s] & r.suit_mask[getattr(a, "suit", 0)]).bit_count()
                             for s in range(r.nseats) if r.team_of[s] == side)
            >= STRONG_TRUMPS]
    return mine[rng.below(len(mine))] if mine else Pass()


def _auction(trial: GameState, rng: SplitMix64, suits: set[int] | None = None
             ) -> list[str] | None:
    """Play the auction (:func:`~mariage.conformance.brink._tame`; with ``suits``,
    :func:`_suited_bid`): its actions' texts; ``None`` if the hand ends there."""
    actions: list[str] = []
    while trial.phase not in (Phase.PLAY, *_BETWEEN) and len(actions) < _HAND_STEPS:
        action = _tame(trial, rng, _LOPSIDED) if suits is None else \
            _suited_bid(trial, rng, suits)
        actions.append(action_text(trial.rules, action))
        trial.apply(action)
    return actions if trial.phase == Phase.PLAY else None


def _defends_with_pair(trial: GameState) -> bool:
    """Whether a side close below the target defends, one of its seats holding both
    cards of the pair of trumps."""
    r = trial.rules
    if trial.declarer < 0 or not 0 <= trial.trump < len(r.pair_masks):
        return False
    mask, side = r.pair_masks[trial.trump], r.team_of[trial.declarer]
    near = _near(trial) - {side}
    trumps = sum((trial.hands[s] & r.suit_mask[trial.trump]).bit_count()
                 for s in range(r.nseats) if r.team_of[s] == side)
    return trumps >= STRONG_TRUMPS and any(
        trial.hands[s] & mask == mask and r.team_of[s] in near for s in range(r.nseats))


def _play_saying(trial: GameState, rng: SplitMix64, actions: list[str]) -> bool:
    """Play the hand out lopsided, the pair said with a card after which the declarer's
    side holds the trick; append the actions' texts; whether the hand ended."""
    while trial.phase not in _BETWEEN:
        if len(actions) >= _HAND_STEPS:
            return False
        action = _saying(trial, rng)
        actions.append(action_text(trial.rules, action))
        trial.apply(action)
    return True


def _saying(state: GameState, rng: SplitMix64) -> Action:
    """The pair said with a card that leaves the trick to the declarer's side, if any;
    else a card played lopsided; else the brink's lopsided choice."""
    acts = state.legal_actions()
    for say in (a for a in acts if isinstance(a, SayPair)):
        if _lopsided(state, [state.rules.play_actions[say.card]]) is not None:
            return say
    plays = [a for a in acts if isinstance(a, Play)]
    return _lopsided(state, plays) or _tame(state, rng, _LOPSIDED)
