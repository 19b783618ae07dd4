"""A hand chosen for a litige: the takers' and the defenders' totals equal.

Where equal totals are a litige (``takers_tie == "litige"``: the takers' total is held
over to the next played deal), a hand exercises its rule only when the totals the
contract compares come out exactly equal, and, under a bid that the takers must
also reach (Coinche's ``must_beat_defence``), equal at the bid or over it. Random play
meets that in about one hand in two hundred (Belote coinchée, seeded candidates played
out by the brink's styles); under a lowest bid of 160 never, for the cards alone hold
162 points: the totals are equal at 160 or more only with 150 points or more of
announcements and the pair of trumps on top of them, and with one side taking almost
every card point.

:func:`litige_hand` deals candidates (from a generator of its own) and keeps a deal
only where the announcements one seat holds and the pair of trumps can lift the
equal totals to the lowest bid (:func:`_needed`); it plays the auction with the
lowest bids, announces every combination and says every pair when it may, plays the
cards so that the side behind in the totals the contract compares keeps the trick
and the side ahead gives it away (:func:`_even`), and searches the last
:data:`END_TRICKS` tricks exhaustively (at most :data:`END_NODES` actions) for an
ending with equal totals.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("belote-coinche")
>>> state = GameState(rules, first_dealer=0)
>>> deal, actions = litige_hand(state, SplitMix64(1), {rules.takers_tie_rule})
>>> trial = state.clone()
>>> trial.deal(deal["deck"], deal["first_player"])
>>> from mariage.engine.actiontext import parse_action
>>> for text in actions:
...     trial.apply(parse_action(rules, text))
>>> trial.deal_outcome
'tied'
>>> litige_hand(state, SplitMix64(1), {"belote.match.belote-alone"}) is None
True
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import Action, Announce, Pass, Play, SayPair
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from .brink import _BETWEEN, _HAND_STEPS, _tame
from .dealtplaces import seeded_deal
from .unreachable import litige_unreachable

__all__ = ["END_NODES", "END_TRICKS", "LITIGE_DEALS", "litige_hand", "litige_rules"]

#: How many deals :func:`litige_hand` plays out at most for one hand (deals whose
#: announcements cannot lift equal totals to the lowest bid are dropped unplayed, and
#: counted apart: at most :data:`SHUFFLES`).
LITIGE_DEALS = 48

#: How many shuffles :func:`litige_hand` looks at, at most, for the deals it plays.
SHUFFLES = 4000

#: How many of the last tricks :func:`_tie_ending` searches exhaustively, and the bound
#: of the actions it tries there.
END_TRICKS = 3
END_NODES = 3000


def litige_rules(rules: Rules) -> set[str]:
    """The rule of a litige where equal totals are one and a hand may come to them
    (:func:`~mariage.conformance.unreachable.litige_unreachable`; else none).

    >>> from mariage import load_rules
    >>> tie_fails = load_rules("belote", {"dedans_rule": "tie_fails"})
    >>> litige_rules(load_rules("belote")), litige_rules(tie_fails)
    ({'belote.score.litige'}, set())
    """
    rule = rules.takers_tie_rule
    if not rule or rules.takers_tie != "litige" or litige_unreachable(rules):
        return set()
    return {rule}


def litige_hand(state: GameState, rng: SplitMix64, wanted: set[str]
                ) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand to play from ``state`` (between hands) for a litige: its deal and
    its actions, the first of :data:`LITIGE_DEALS` seeded deals played as the module
    says that ends with equal totals; ``None`` where the litige is not wanted or no
    deal does."""
    r = state.rules
    if not litige_rules(r) & wanted:
        return None
    played = 0
    for _ in range(SHUFFLES):
        if played >= LITIGE_DEALS:
            break
        seeded = seeded_deal(state, rng)
        if seeded is None:
            return None
        deal, trial = seeded
        suits = _trump_suits(trial)
        if not suits:
            continue
        played += 1
        actions = _play_to_end(trial, rng, suits)
        if actions is not None:
            return deal, actions
    return None


def _needed(rules: Rules) -> int:
    """The points of announcements one seat must hold for equal totals to reach the
    lowest bid: twice the bid, less the pack's card points and the pair of trumps where
    it counts for the contract (0 without a bid to reach, or where the bid need not
    beat the defenders: those never tie). No more than the pack's points and the pair's
    either: else the side announcing them would need fewer than no card points.

    >>> from mariage import load_rules
    >>> _needed(load_rules("belote-coinche")), _needed(load_rules("belote-coinche",
    ...                                                           {"bid_min": 160}))
    (0, 138)
    """
    if not rules.sa_rule or not rules.bid_must_beat:
        return 0
    pair = rules.pair_value if rules.takers_counts_pair else 0
    return max(0, 2 * rules.sa_min - _deal_points(rules) - pair)


def _deal_points(rules: Rules) -> int:
    """The card points of a hand with a trump suit, the last trick's included (the most
    of any trump suit's).

    >>> from mariage import load_rules
    >>> _deal_points(load_rules("belote"))
    162
    """
    cards = max((sum(p) for p in rules.role_points), default=sum(rules.points))
    return cards + rules.last_trick_points


def _trump_suits(state: GameState) -> set[int]:
    """The suits :func:`_low_bid` may name trump in the deal just made: every suit where
    equal totals reach the lowest bid with the cards alone (:func:`_needed` is 0);
    else, where one seat holds announcements worth from :func:`_needed` to the deal's
    points and the pair (:func:`_held`), the suits whose pair of trumps a seat of
    another side holds (the pair lifts the total of the side without announcements,
    so that it may take the most card points: equal totals of 166 under a bid of 160,
    the announcing side taking 16 card points with 150 of announcements); else none."""
    r = state.rules
    suits = set(range(len(r.suits)))
    need = _needed(r)
    if not need:
        return suits
    held = _held(state)
    top = max(range(r.nseats), key=lambda s: held[s])
    if not need <= held[top] <= _deal_points(r) + r.pair_value:
        return set()
    return {t for t in suits if t < len(r.pair_masks) and any(
        state.hands[s] & r.pair_masks[t] == r.pair_masks[t]
        for s in range(r.nseats) if r.team_of[s] != r.team_of[top])}


def _held(state: GameState) -> list[int]:
    """Per seat, the points of the announcements it holds in the deal just made (every
    combination it may announce, counted once; 0 without announcements)."""
    r = state.rules
    if not r.combos:
        return [0] * r.nseats
    ann = state.mech.announcements
    return [sum(combo.rank_values[r.rank_of[key]] if combo.same_rank else combo.value
                for combo, key, _ in ann.available(state, seat)) for seat in range(r.nseats)]


def _play_to_end(trial: GameState, rng: SplitMix64, suits: set[int]) -> list[str] | None:
    """Play the hand dealt on ``trial``: the auction by the lowest bids, the cards evenly
    (:func:`_even`), the last tricks searched for equal totals (:func:`_tie_ending`): the
    actions' texts where the hand ends in a litige, else ``None``."""
    r = trial.rules
    actions: list[Action] = []
    while trial.phase not in (Phase.PLAY, *_BETWEEN) and len(actions) < _HAND_STEPS:
        action = _low_bid(trial, rng, suits)
        actions.append(action)
        trial.apply(action)
    if trial.phase != Phase.PLAY:
        return None
    while trial.phase == Phase.PLAY and trial.trick_no <= r.hand_size - END_TRICKS:
        if len(actions) >= _HAND_STEPS:
            return None
        action = _even(trial, rng)
        actions.append(action)
        trial.apply(action)
    ending = _tie_ending(trial, [END_NODES])
    if ending is None:
        return None
    return [action_text(r, a) for a in actions + ending]


def _low_bid(state: GameState, rng: SplitMix64, suits: set[int]) -> Action:
    """In an auction of bids by value: the lowest bid in a suit of ``suits`` (the first
    of them) or a pass (seeded) while no bid stands, then a pass (no higher bid, no
    double: the lowest contract); else the brink's tame choice
    (:func:`~mariage.conformance.brink._tame`)."""
    acts = state.legal_actions()
    bids = [a for a in acts if isinstance(getattr(a, "value", None), int)]
    if not bids or Pass() not in acts:
        return _tame(state, rng, 1)
    if state.high_bid or rng.below(2):
        return Pass()
    low = min(int(getattr(a, "value", 0)) for a in bids)
    named = [a for a in bids if getattr(a, "value", None) == low
             and getattr(a, "suit", -1) in suits]
    return named[rng.below(len(named))] if named else Pass()


def _even(state: GameState, rng: SplitMix64) -> Action:
    """Every announcement and pair of trumps said when it may be; else the card after
    which the side behind in the totals the contract compares holds the trick (its own
    seats keep it, the others give it to it); else a seeded choice."""
    acts = state.legal_actions()
    said = [a for a in acts if isinstance(a, Announce | SayPair)]
    if said:
        return said[0]
    plays = [a for a in acts if isinstance(a, Play)]
    if not plays or state.declarer < 0 or len(plays) < len(acts):
        return _tame(state, rng, 1)
    team_of = state.rules.team_of
    taker = team_of[state.declarer]
    mine, theirs = state.mech.takers.compared(state)
    behind = taker if mine < theirs else next(
        t for t in range(len(state.rules.teams)) if t != taker)
    start = rng.below(len(plays))
    for play in plays[start:] + plays[:start]:
        trial = state.clone()
        trial.apply(play)
        if trial.trick_cards:
            held = team_of[trial.trick_seats[trial.current_winner()]] == behind
        else:
            held = trial.tricks_won[behind] > state.tricks_won[behind]
        if held:
            return play
    return plays[start]


def _tie_ending(state: GameState, budget: list[int]) -> list[Action] | None:
    """The actions, from ``state`` to the hand's end, of the first ending found (depth
    first, every legal action, at most ``budget[0]`` actions tried in all) whose totals
    are a litige; ``None`` if none is found."""
    if state.phase in _BETWEEN:
        return [] if state.deal_outcome == "tied" else None
    for action in state.legal_actions():
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        trial = state.clone()
        trial.apply(action)
        rest = _tie_ending(trial, budget)
        if rest is not None:
            return [action, *rest]
    return None
