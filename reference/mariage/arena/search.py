"""Search from one seat's view: determinization and a flat Monte Carlo player.

:func:`determinize` makes a full state that agrees with everything one seat
knows: its own hand, every card shown or played, the turned-up card, the
sizes of the other hands and of the stock. The cards the seat cannot see
(the unshown cards of the other hands, the stock below the turn-up, and a
stock put aside by a close) are dealt again at random among the places they
could be. The result depends
on the hidden cards only through their number, so a player that chooses from
a determinized state sees no more than its own seat's view.

:class:`MonteCarloBot` (``mc``) tries each legal action in many determinized
states, plays the rest of the hand out at random, and takes the action with
the best average outcome for its side.

>>> from mariage import load_rules, new_match
>>> import random
>>> state = new_match(load_rules("marianna"), seed=4)
>>> seat = state.to_act
>>> guess = determinize(state, seat, random.Random(1))
>>> guess.hands[seat] == state.hands[seat], len(guess.stock) == len(state.stock)
(True, True)
>>> MonteCarloBot(seed=1, playouts=16).choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from mariage.engine.actions import Action, CallOut
from mariage.engine.phase import DEAL, OVER
from mariage.engine.state import GameState, expect_state, seat_number

from ..errors import IllegalActionError, shown

__all__ = ["MonteCarloBot", "determinize", "outcome", "sensible_actions"]


def determinize(state: GameState, seat: int, rng: random.Random,
                voids: Sequence[int] | None = None) -> GameState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt again at random.

    With ``voids`` (per seat, a bit mask of the suits it showed it lacks, as
    :func:`~mariage.arena.cardplay.shown_voids` gives them), each card then dealt to a
    seat in such a suit is swapped with a hidden card that may sit there, where one is
    left (the information-set search's guesses, :class:`~mariage.ai.policies.ISMCTS`).

    The copy has no deal source (it ends with the hand) and undo off. What the
    seat saw stays: here B saw A declare the marriage of diamonds, so A keeps
    its king and queen in every guess:

    >>> import random
    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("schnapsen")
    >>> state = new_match(rules, seed=42)
    >>> state.apply(parse_action(rules, "marriage:D"))
    >>> rules.format_cards(state.hands[0])
    'QH AD KD QD JD'
    >>> guess = determinize(state, 1, random.Random(7))
    >>> rules.format_cards(guess.hands[0]), guess.hands[1] == state.hands[1]
    ('JH KD QD AC QS', True)
    >>> guess.turn_up == state.turn_up, len(guess.stock), guess.deal_source
    (True, 10, None)
    """
    copy = expect_state(state, "determinize").clone()
    r = state.rules
    seat_number(seat, r.nseats, "determinize: seat")
    if not isinstance(rng, random.Random):  # else an AttributeError ('shuffle'), deep inside
        raise TypeError(f"determinize: rng must be a random.Random, not {type(rng).__name__}")
    if voids is not None and (isinstance(voids, str) or not isinstance(voids, Sequence)
                              or len(voids) != r.nseats):
        raise TypeError(f"determinize: voids must be a sequence of {r.nseats} suit masks "
                        f"(one per seat), not {shown(voids)}")
    copy.deal_source = None
    copy.enable_undo(False)
    if r.open_hands:
        hidden_hands: list[tuple[int, int]] = []
    else:
        hidden_hands = [(s, copy.hands[s] & ~copy.known[s]) for s in range(r.nseats)
                        if s != seat]
    pool: list[int] = []
    for s, hidden in hidden_hands:
        pool += r.cards_of(hidden)
        copy.hands[s] &= ~hidden
    turn_up = copy.turn_up
    places = [i for i, c in enumerate(copy.stock) if c != turn_up]
    pool += [copy.stock[i] for i in places]
    # a closed stock is out of play but unseen (its turned-up card, at the bottom, seen)
    aside = [i for i in range(len(copy.aside)) if i or r.turn_up != "under_stock"]
    pool += [copy.aside[i] for i in aside]
    pool.sort()  # so that the result depends on the seat's view and rng only
    rng.shuffle(pool)
    at = 0
    for s, hidden in hidden_hands:
        for c in pool[at:at + hidden.bit_count()]:
            copy.hands[s] |= 1 << c
        at += hidden.bit_count()
    for i in places:
        copy.stock[i] = pool[at]
        at += 1
    for i in aside:
        copy.aside[i] = pool[at]
        at += 1
    return copy if voids is None else _keep_voids(state, copy, seat, rng, voids)


def _keep_voids(state: GameState, guess: GameState, seat: int, rng: random.Random,
                voids: Sequence[int]) -> GameState:
    """``guess`` with each card dealt to a seat in a suit it showed it lacks (``voids``)
    swapped at random with a hidden card that may sit there: one of another hand that
    may take it, or of the stock. Where no such card is left the card stays (the guess
    is then the looser one)."""
    r = state.rules
    if r.open_hands or not any(voids):
        return guess
    hands, stock, aside = guess.hands, guess.stock, guess.aside
    hidden = [0 if s == seat else hands[s] & ~state.known[s] for s in range(r.nseats)]
    turn_up = guess.turn_up
    spots = [(stock, i) for i, c in enumerate(stock) if c != turn_up]
    spots += [(aside, i) for i in range(len(aside)) if i or r.turn_up != "under_stock"]
    suit_of = r.suit_of
    for s in range(r.nseats):
        for c in r.cards_of(hidden[s]):
            if not voids[s] >> suit_of[c] & 1:
                continue
            choices: list[tuple[int, int] | tuple[list[int], int]] = [
                (t, d) for t in range(r.nseats) if t not in (s, seat)
                for d in r.cards_of(hidden[t])
                if not voids[s] >> suit_of[d] & 1 and not voids[t] >> suit_of[c] & 1]
            choices += [spot for spot in spots if not voids[s] >> suit_of[spot[0][spot[1]]] & 1]
            if not choices:
                continue
            where, what = choices[rng.randrange(len(choices))]
            if isinstance(where, int):  # another hand's card
                hidden[where] ^= 1 << what | 1 << c
                hands[where] ^= 1 << what | 1 << c
                d = what
            else:  # a card of the stock (or of a stock put aside)
                d = where[what]
                where[what] = c
            hidden[s] ^= 1 << c | 1 << d
            hands[s] ^= 1 << c | 1 << d
    return guess


def sensible_actions(state: GameState, seat: int | None = None) -> list[Action]:
    """The legal actions of the seat to act, less call-outs that would fail."""
    r = expect_state(state, "sensible_actions").rules
    who = state.to_act if seat is None else seat_number(seat, r.nseats, "sensible_actions: seat")
    if who is None:
        raise ValueError("sensible_actions: nobody is to act (between hands, or the match "
                         "is over)")
    return _without_failing_callouts(state, who)


def _without_failing_callouts(state: GameState, who: int) -> list[Action]:
    """:func:`sensible_actions` of a state and seat known good (the rollouts' inner loop)."""
    r = state.rules
    acts = state.legal_actions()
    team = r.team_of[who]
    good = state.match_scores[team] + state.hand_points(team) >= r.match_target
    return [a for a in acts if not isinstance(a, CallOut) or good]


def outcome(state: GameState, team: int) -> float:
    """How good the end of a hand (or of the match) in ``state`` is for ``team``.

    A won match counts 1000 (a lost one -1000); otherwise what the hand added
    to the team's score against the best other team, plus 50 for a hand won
    where hands are counted, plus a tenth of the hand's point difference.
    """
    res = expect_state(state, "outcome").result
    if res is not None and res.reason != "turn_up_bonus":
        return 0.0 if res.winner is None else (1000.0 if res.winner == team else -1000.0)
    if not state.history:
        return 0.0
    h = state.history[-1]
    others = [t for t in range(len(h.score)) if t != team]
    score = h.score[team] - max(h.score[t] for t in others)
    points = h.points[team] - max(h.points[t] for t in others)
    segno = 0 if h.winner is None else (50 if h.winner == team else -50)
    value = score + segno + points / 10
    if res is not None:
        value += 0.0 if res.winner is None else (1000.0 if res.winner == team else -1000.0)
    return float(value)


class MonteCarloBot:
    """Flat Monte Carlo over determinizations of the seat's view (``mc``).

    ``playouts`` is the number of random playouts per decision, shared out
    evenly between the legal actions (less call-outs that would fail), at least
    one each; ``seed`` seeds its random choices, so the same seed chooses the same.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("schnapsen"), seed=42)
    >>> choice = MonteCarloBot(seed=1, playouts=32).choose(state)
    >>> choice, choice in state.legal_actions()
    (Play(KD), True)
    >>> MonteCarloBot(seed=1, playouts=32).choose(state) == choice
    True
    """

    name = "mc"

    def __init__(self, seed: int = 0, playouts: int = 96) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts

    def choose(self, state: GameState) -> Action:
        """Pick an action for the seat to act, from its view only."""
        seat = state.to_act
        assert seat is not None
        acts = sensible_actions(state)
        if len(acts) == 1:
            return acts[0]
        team = state.rules.team_of[seat]
        total = [0.0] * len(acts)
        count = [0] * len(acts)
        rng = self.rng
        for i in range(max(self.playouts, len(acts))):
            k = i % len(acts)
            trial = determinize(state, seat, rng)
            try:
                trial.apply(acts[k])
                self.rollout(trial)
            except IllegalActionError:  # not legal in this guess of the hidden cards
                continue
            total[k] += outcome(trial, team)
            count[k] += 1
        best = max(range(len(acts)),
                   key=lambda j: (total[j] / count[j] if count[j] else float("-inf"), -j))
        return acts[best]

    def rollout(self, state: GameState) -> None:
        """Play random sensible actions until the hand (or the match) is over."""
        randrange = self.rng.randrange
        while state.phase != DEAL and state.phase != OVER:
            who = state.to_act
            assert who is not None  # in play, someone is to act
            acts = _without_failing_callouts(state, who)
            state.apply(acts[randrange(len(acts))])
