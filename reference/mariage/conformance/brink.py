"""Hands chosen at the brink of a match's end, for the rules only its last hands reach.

Some rules act only in a hand that takes a side to the match's target in one
particular way: Belote's *belote alone* (a side that reaches the target having
written only its pair of trumps, by failing its contract or taking no trick, has
not won yet, :data:`~mariage.engine.rules.Rules.pair_alone_rule`), or the rounding of
Coinche's written scores deciding whether a side has reached it
(:data:`~mariage.engine.rules.Rules.round_game_rule`, where a side's total before
rounding stands on the other side of the target from its written one). Random or
greedy play over a long match almost never meets such a hand. :func:`brink_hand`
chooses the next hand of a long match among seeded candidates played out on
clones of the reference: the first whose end exercises a wanted rule (as
:func:`~mariage.conformance.ruleprobe.ending_rules` names the rules of a hand's
end), else one that leaves a side close below the target and the others far from
it without ending the match, so that the match climbs to its brink and stays there
while candidates are tried. The hand is then played on the reference as the
candidate was: its deal and its actions become the next steps of the test. A
quarter of the candidates are played lopsided: one side keeps every trick it can
and the other gives every trick away, so that a side takes no trick (a capot)
about three times as often as in random play (Belote contrée's first hands of 400
seeded deals played out: 7.7% against 1.9-2.4% in the other styles). At the brink (a
side within the pair's value below the target), where the rounding is the last rule of
the brink wanted, candidates chosen for it are played first
(:func:`~mariage.conformance.roundtell.round_tell_hand`, twenty-second session: the
side furthest behind makes a contract, the other takes one small trick), with draws of
their own, so that where none tells the brink's candidates are as before.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("belote")
>>> sorted(brink_rules(rules)), brink_rules(load_rules("marianna"))
(['belote.match.belote-alone'], set())
>>> sorted(brink_rules(load_rules("belote-coinche")))
['belote-coinche.match.rounded-totals', 'belote.match.belote-alone']
>>> state = GameState(rules, first_dealer=0)
>>> deal, actions = brink_hand(state, SplitMix64(1), brink_rules(rules)) or ({}, [])
>>> len(deal["deck"]), len(actions) > 0
(32, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mariage.engine.actions import Action, Double, Kontra, Pass, Play
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from .dealtplaces import seeded_deal
from .faultsearch import choose
from .roundtell import round_tell_hand, round_tell_rules
from .ruleprobe import dump_rules, ending_rules

__all__ = ["BRINK_DEALS", "BRINK_MATCHES", "brink_hand", "brink_rules", "steered_rules"]

#: How many candidate hands :func:`brink_hand` plays out for each deal of the match.
BRINK_DEALS = 16

#: How many long matches the search plays for the rules of :func:`brink_rules` at most.
BRINK_MATCHES = 8

#: The bound of a candidate hand's steps (a hand that does not end within it is dropped).
_HAND_STEPS = 400

_BETWEEN = (Phase.DEAL, Phase.OVER)

#: The style of :func:`_tame` that passes wherever it may.
_PASSIVE = 4


def brink_rules(rules: Rules) -> set[str]:
    """The rules of ``rules`` that only a hand at the brink of the match's end exercises,
    and which :func:`brink_hand` steers a match toward."""
    rounded = rules.round_game_rule if rules.round_mode != "none" else None
    return {x for x in (rules.pair_alone_rule, rounded) if x}


def steered_rules(rules: Rules) -> set[str]:
    """The rules a search chooses hands for (:func:`brink_hand`): those of
    :func:`brink_rules`, and those of a rare end of a hand anywhere in the match, which
    seeded candidates meet far more often than one hand of random play: equal totals of
    a contract (a litige), equal best announcements of two sides and a running total
    landing on the one reset to 0 (Thousand's 555).

    >>> from mariage import load_rules
    >>> sorted(steered_rules(load_rules("belote")))
    ['belote.announce.tie', 'belote.match.belote-alone', 'belote.score.litige']
    """
    rare = (rules.takers_tie_rule if rules.takers_tie == "litige" else None,
            rules.announce_tie_rule, rules.dump_rule)
    return brink_rules(rules) | {x for x in rare if x}


def brink_hand(state: GameState, rng: SplitMix64, wanted: set[str], go_on: bool = False,
               room: int = 0) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand to play from ``state`` (between hands): its deal and its actions.

    The first seeded candidate (each dealt and played out on a clone by
    :func:`_tame` choices) whose end exercises a rule of ``wanted``; else, of
    :data:`BRINK_DEALS` candidates (up to four times as many while every one ends the
    match), one after which the match goes on and the leading score still below the
    target is farthest ahead of the others (:func:`_lead`); else, with ``go_on``, one
    more candidate where every seat passes whenever it may (a hand thrown in, where the
    rules deal again when all pass), if the match goes on after it; else the one of those
    that end the match ranked so. With ``room``, a side counts as close below the target
    only while every other side stands more than ``room`` below it (:func:`_lead`). ``None``
    where every side is at the target already (a
    level match played on), or no candidate is dealt and ends its hand within the bound
    of steps."""
    r = state.rules
    if all(s >= r.match_target for s in state.match_scores):
        return None  # every side past the target (a level match played on): no brink
    if _lead(state.match_scores, r.match_target, r.pair_value, room)[0] and \
            not (wanted - round_tell_rules(r)) & brink_rules(r):  # at the brink, the
        # rounding the last brink rule wanted: one small trick given (its own draws)
        tell = round_tell_hand(state, SplitMix64(rng.state), wanted)
        if tell is not None:
            return tell
    best: tuple[dict[str, Any], list[Action]] | None = None
    rank: tuple[bool, bool, int] = (False, False, -1 << 62)
    for k in range(4 * BRINK_DEALS):
        if k >= BRINK_DEALS and rank[0]:
            break
        played = _candidate(state, rng, k % 4)
        if played is None:
            continue
        trial, hand = played
        if wanted & (ending_rules(trial, True) | dump_rules(state.match_scores, trial)):
            return _texts(r, hand)
        here = (trial.phase != Phase.OVER, *_lead(trial.match_scores, r.match_target,
                                                  r.pair_value, room))
        if best is None or here > rank:
            best, rank = hand, here
    if go_on and not rank[0]:  # every candidate ends the match: all pass, if that goes on
        played = _candidate(state, rng, _PASSIVE)
        if played is not None and played[0].phase != Phase.OVER:
            return _texts(r, played[1])
    return None if best is None else _texts(r, best)


def _texts(rules: Rules, hand: tuple[dict[str, Any], list[Action]]
           ) -> tuple[dict[str, Any], list[str]]:
    """A candidate hand kept: its deal, and its actions' texts (of the one kept only)."""
    return hand[0], [action_text(rules, a) for a in hand[1]]


def _candidate(state: GameState, rng: SplitMix64, style: int
               ) -> tuple[GameState, tuple[dict[str, Any], list[Action]]] | None:
    """A seeded deal played out from ``state`` on a clone in ``style`` (:func:`_tame`):
    the clone after it, and the deal and the actions; ``None`` if these rules do
    not deal it or the hand does not end within the bound of steps."""
    seeded = seeded_deal(state, rng)
    if seeded is None:  # a deck these rules do not deal
        return None
    deal, trial = seeded
    actions = _play_out(trial, rng, style)
    if actions is None:
        return None
    return trial, (deal, actions)


def _lead(scores: list[int], target: int, zone: int, room: int = 0) -> tuple[bool, int]:
    """Whether a side is within ``zone`` below ``target`` (where a hand that adds only
    the pair of trumps takes it there; with ``room``, while the others stand more than
    ``room`` below it), and how high the highest score below it is, less the other
    sides' highest: one side close to the target, the others far from it.

    >>> _lead([485, 300], 501, 20), _lead([440, 300], 501, 20), _lead([520, 300], 501, 20)
    ((True, 185), (False, 140), (False, -220))
    >>> _lead([485, 300], 501, 20, 200), _lead([485, 300], 501, 20, 250)
    ((True, 185), (False, 185))
    """
    below = [s for s in scores if s < target]
    if not below:
        return False, -1 << 62
    top = max(below)
    others = list(scores)
    others.remove(top)
    rest = max(others, default=0)
    return target - top <= zone and (not room or rest < target - room), top - rest


def _tame(state: GameState, rng: SplitMix64, style: int) -> Action:
    """The seeded choice of the fault search (:func:`~mariage.conformance.faultsearch.choose`),
    but in an auction only a pass (or another action that bids nothing) or the lowest
    bid, never a double: random bids and doubles swing the scores by hundreds, past
    the brink. In style 3 the cards are played lopsided (:func:`_lopsided`); in style
    :data:`_PASSIVE` a pass is taken wherever it is legal."""
    acts = state.legal_actions()
    if style == _PASSIVE and Pass() in acts:
        return Pass()
    if acts and type(acts[0]) is Play and all(type(a) is Play for a in acts):
        return _card(state, rng, style, acts)  # (no bid among cards: the loop's answer)
    # One pass over an auction's hundreds of actions: the first of the lowest bids, and
    # the actions that bid nothing and double nothing, in their order.
    low: Action | None = None
    low_value = 0
    pool: list[Action] = []
    for a in acts:
        value = getattr(a, "value", None)
        if isinstance(value, int):
            if low is None or value < low_value:
                low, low_value = a, value
        elif not isinstance(a, _DOUBLES):
            pool.append(a)
    if low is None:
        return _card(state, rng, style, acts)
    pool.append(low)
    return pool[rng.below(len(pool))]


def _card(state: GameState, rng: SplitMix64, style: int, acts: Sequence[Action]) -> Action:
    """:func:`_tame`'s choice where no action bids."""
    if style == 3 and all(isinstance(a, Play) for a in acts):
        return _lopsided(state, acts) or choose(state, rng, 0, acts)
    if style == 3:  # an announcement (the pair of trumps among them) said when it may be
        return choose(state, rng, 1, acts)
    return choose(state, rng, style, acts)


_DOUBLES = (Double, Kontra)


def _lopsided(state: GameState, acts: Sequence[Action]) -> Action | None:
    """The first card (in the order of ``acts``) after which the declarer's side (the
    first side where nobody declared) holds the trick: its own seats keep the trick,
    the other seats give it to them; ``None`` where no card does, or no card is to be
    played. Hands played so take every trick to one side more often than random play
    (a capot: where the other side holds the pair of trumps, it writes that alone).

    >>> from mariage import load_rules
    >>> rules, rng = load_rules("belote-contree"), SplitMix64(3)
    >>> state = GameState(rules, first_dealer=0)   # no deal source: the hand ends in DEAL
    >>> state.deal(list(rules.card_code))
    >>> while state.phase != Phase.PLAY:
    ...     state.apply(_tame(state, rng, 0))
    >>> defends = rules.team_of[state.to_act] != rules.team_of[state.declarer]
    >>> defends, _lopsided(state, state.legal_actions())   # a defender's lead keeps it
    (True, None)
    """
    seat = state.to_act
    plays = [a for a in acts if isinstance(a, Play)]
    if seat is None or not plays:
        return None
    team_of = state.rules.team_of
    strong = team_of[state.declarer] if state.declarer >= 0 else 0
    for play in plays:
        trial = state.clone()
        trial.apply(play)
        if trial.trick_cards:  # the trick goes on: who holds it now
            holder = trial.trick_seats[trial.current_winner()]
            held = team_of[holder] == strong
        else:  # the trick is over: whether the strong side took it
            held = trial.tricks_won[strong] > state.tricks_won[strong]
        if held:  # the strong side's seats keep it, the others give it to them
            return play
    return None


def _play_out(trial: GameState, rng: SplitMix64, style: int) -> list[Action] | None:
    """Play ``trial``'s hand to its end by seeded choices: the actions (``None`` if it
    does not end within :data:`_HAND_STEPS`)."""
    actions: list[Action] = []
    for _ in range(_HAND_STEPS):
        if trial.phase in _BETWEEN:
            return actions
        action = _tame(trial, rng, style)
        actions.append(action)
        trial.apply(action)
    return actions if trial.phase in _BETWEEN else None
