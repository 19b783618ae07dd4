"""Hands built to climb to a match's end, where the target is out of reach of play.

Under a high target some matches never end within the search's bound: Thousand to
1,200, where a seat on the barrel (held at 880) must make a contract of 320 at once,
which only a hand with three marriages held and declared makes (the 120 card points
and marriages worth 200 at least), and random, greedy or keen bids never come to
one. :func:`climb_hand` builds each hand of such a match for one seat, the
*climber* (:func:`climber`: of the seats dealt cards, one of the side with the highest
total): a seeded deck whose cards are swapped so that the climber's dealt hand holds
the same-suit declarations of the highest values that fit in it (read from the rule
data: a declaration's value in each suit) and the cards worth the most points (the
rest of its hand and the stock it may take, as Thousand's talon). The hand is played
out on a clone by :func:`_climbing`, every seat playing for the climber's side: the
others pass wherever they may, the climber bids, keeps its cards of a declaration when
it gives cards away and declares the one worth the most, and each seat plays the card
after which that side holds the trick, then the most points (a lead judged by its
trick played out so by the others). Each deal is played twice: once with the climber
bidding the lowest bid, to learn how many points it makes, and once bidding the
highest bid up to that many (the play is the same: only the climber bids). Of
:data:`CLIMB_DEALS` deals, the first whose hand ends the match is kept, else the one
after which the climber's total is the highest; its deal and actions become the
search's next deal and recorded actions, as the brink's hands do
(:mod:`mariage.conformance.brink`). From 0, Thousand's climber makes 320 to 400 a hand
and ends a match to 1,200 in three to six hands (with three players, the last from the
barrel at 880).

Where the barrel's rule is wanted (:func:`barrel_wanted`; twenty-second session), the
match must stop on the barrel rather than pass it: with bids of at least 205, a total of
800 ends the match at the next contract made. Each deal is then tried more ways
(:func:`_barrel_trials`): the climber bidding the highest bid that keeps its total below
the target, or that leaves room below it for the lowest bid next; and, on deals whose
least valuable declaration another side holds (the climber holding the others, or none,
so that it need not open where a bid needs one), another seat bidding the lowest bid
and the climber's side defending, with its declarations and without. The first trial
whose end names the barrel's rule is kept, else the one from which the barrel can be
reached next (:func:`_lands`), the highest total among those.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("thousand", {"target": 1200})
>>> state = GameState(rules, first_dealer=0)
>>> climber(state)
0
>>> [(" ".join(rules.card_code[c] for c in rules.cards_of(m)), v)
...  for m, v in _packs(rules)[:3]]   # the marriages, the most valuable first
[('KH QH', 100), ('KD QD', 80), ('KC QC', 60)]
>>> deal, actions = climb_hand(state, SplitMix64(1), {"thousand.match.end"}) or ({}, [])
>>> [a for a in actions if a.startswith(("bid", "marriage"))]  # forehand opens, seat 0 climbs
['bid:100', 'bid:360', 'marriage:H', 'marriage:D', 'marriage:C']
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import (
    Action,
    Bid,
    BlindBid,
    Concede,
    Declare,
    Double,
    Give,
    Kontra,
    Pass,
    Play,
    Raise,
    Redeal,
    SuitBid,
)
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError
from .builthands import _seats_positions
from .ruleprobe import ending_rules
from .unreachable import barrel_unreachable

__all__ = ["CLIMB_DEALS", "CLIMB_MATCHES", "barrel_wanted", "climb_hand", "climber"]

#: How many built deals :func:`climb_hand` plays out (twice each) for one hand at most.
CLIMB_DEALS = 16

#: How many matches of built hands the exercise search plays for the match's end.
CLIMB_MATCHES = 2

#: The bound of a built hand's steps (a hand that does not end within it is dropped).
_HAND_STEPS = 400

_BETWEEN = (Phase.DEAL, Phase.OVER)

#: Actions the climbing play never takes while another is legal: they throw the hand
#: in, give it up or swing the score by a multiplier.
_SHUNNED = (Concede, Redeal, BlindBid, Double, Kontra)

#: How the climber's side plays a hand (:func:`_climbing`): the climber bids; the
#: climber defends; it defends and its side declares nothing (fewer points: a total
#: brought close below the barrel without passing it).
_BIDS, _DEFENDS, _DEFENDS_BARE = 0, 1, 2

#: The actions that make a bid of a value (written ``bid:...``): a hand in which a seat
#: made one is played a second time, the climber bidding what the first play made.
_BID_KINDS = (Bid, SuitBid)

#: A hand played out (:func:`_trial`): the state after it, the actions' texts, the most
#: points the climber's side held, whether a seat bid.
_Trial = tuple[GameState, list[str], int, bool]

#: The deals built for the climber to defend (:func:`_built_deal`): the least valuable
#: declaration dealt to another side; and that, the climber holding no declaration.
_SPARE, _BARE = 1, 2


def climber(state: GameState) -> int | None:
    """The seat the next hand is built for: of the seats the next deal deals cards to
    (not one sitting out), the lowest of the side with the highest match total (the
    lowest side among equals); ``None`` where the rules deal no hand from ``state``."""
    r = state.rules
    found = _seats_positions(state, list(range(r.ncards)), 0 if r.first_lead == "lot"
                             else None)
    if found is None:
        return None
    scores = state.match_scores
    dealt = [s for s in range(r.nseats) if found[1][s]]
    return min(dealt, key=lambda s: (-scores[r.team_of[s]], r.team_of[s], s), default=None)


def _packs(rules: Rules) -> list[tuple[int, int]]:
    """Each same-suit declaration in each suit as (its cards' mask, its value), the most
    valuable first: its value in that suit, else the highest of its schedule or its
    fixed value."""
    out: list[tuple[int, int]] = []
    for d in rules.declarations:
        if not d.same_suit or d.whole_hand:
            continue
        for suit, mask in enumerate(d.suit_masks):
            value = d.suit_values[suit] if d.suit_values else max(d.schedule or (d.fixed,))
            if mask and value > 0:
                out.append((mask, value))
    out.sort(key=lambda p: -p[1])
    return out


def _held(rules: Rules, hand: int) -> int:
    """The cards of ``hand`` that belong to a same-suit declaration it holds whole."""
    out = 0
    for mask, _ in _packs(rules):
        if hand & mask == mask:
            out |= mask
    return out


def _built_deal(state: GameState, rng: SplitMix64, seat: int, spare: int = 0
                ) -> dict[str, Any] | None:
    """A seeded deck whose cards are swapped so that ``seat``'s dealt hand holds the most
    valuable declarations that fit in it, then the cards worth the most points (its
    hand's other places and the stock); with ``spare``, the least valuable declaration
    is dealt to the next seat of another side instead (one it may bid on where a bid
    needs a marriage, for the climber to defend), and with :data:`_BARE` the climber is
    dealt no card of a declaration (nor may bid where a bid needs one: it then need not
    open); ``None`` where the rules do not deal it or ``seat`` is dealt no card."""
    r = state.rules
    deck = list(range(r.ncards))
    rng.shuffle(deck)
    first = rng.below(r.nseats) if r.first_lead == "lot" else None
    found = _seats_positions(state, deck, first)
    if found is None or not found[1][seat]:
        return None
    _, seats, stock = found
    mine = seats[seat]
    packs = _packs(r)
    wants: list[tuple[int, int]] = []  # (card, position)
    taken = 0
    if spare:
        others = [(seat + k) % r.nseats for k in range(1, r.nseats)]
        them = [s for s in others if seats[s] and r.team_of[s] != r.team_of[seat]]
        if not packs or not them:
            return None
        taken = packs[-1][0]
        wants += list(zip(r.cards_of(taken), seats[them[0]], strict=False))
    shun = 0
    cards: list[int] = []
    for mask, _ in packs:
        pack = r.cards_of(mask)
        if spare == _BARE:
            shun |= mask
        elif not mask & taken and len(cards) + len(pack) <= len(mine):
            cards += pack
            taken |= mask
    rest = [c for c in range(r.ncards) if not (taken | shun) >> c & 1]
    rng.shuffle(rest)
    rest.sort(key=lambda c: -r.points[c])  # the most points first, equals shuffled
    places = mine + stock
    cards += rest[:len(places) - len(cards)]
    wants += list(zip(cards, places, strict=False))
    for card, pos in wants:
        at = deck.index(card)
        deck[at], deck[pos] = deck[pos], deck[at]
    return {"deck": [r.card_code[c] for c in deck], "first_player": first}


def _climbing(state: GameState, seat: int, aim: int, defend: int = _BIDS) -> Action:
    """The action of the climbing play (see the module's text) for the seat to act, the
    climber being ``seat``, who bids the highest bid up to ``aim`` (else the lowest);
    with ``defend`` (:data:`_DEFENDS` or :data:`_DEFENDS_BARE`) the climber passes where
    it may and another seat bids the lowest bid where none stands, so that the
    climber's side defends (and with :data:`_DEFENDS_BARE` declares nothing)."""
    r = state.rules
    actor = state.to_act if state.to_act is not None else seat
    acts = state.legal_actions()
    pool = [a for a in acts if not isinstance(a, _SHUNNED)] or acts
    mine = r.team_of[actor] == r.team_of[seat]
    bids = sorted((a for a in pool if isinstance(a, Bid)), key=lambda a: a.value)
    if defend and bids:  # the climber passes; another opens at the lowest bid
        if Pass() in pool and (mine or state.high_bidder >= 0):
            return Pass()
        return bids[0]
    if bids and actor == seat:
        made = [b for b in bids if b.value <= aim]
        return made[-1] if made else bids[0]
    if Pass() in pool and actor != seat:
        return Pass()
    if bids:
        return bids[0]
    raises = sorted((a for a in pool if isinstance(a, Raise)), key=lambda a: a.value)
    if raises:
        return raises[0]  # the bid kept (0), else the lowest
    gives = [a for a in pool if isinstance(a, Give)]
    if gives:  # keep the cards of a declaration held, give the fewest points
        held = _held(r, state.hands[actor])
        return min(gives, key=lambda a: (bin(a.cards & held).count("1"),
                                         sum(r.points[c] for c in r.cards_of(a.cards))))
    team = r.team_of[seat]
    decls = [a for a in pool if isinstance(a, Declare)]
    if decls and mine and defend != _DEFENDS_BARE:  # the declaration worth the most
        return max(decls, key=lambda a: _worth(state, a, team, False))
    plays = [a for a in pool if isinstance(a, Play)]
    if plays:  # a lead judged by its trick played out, a card that follows by itself
        lead = not state.trick_cards
        return max(plays, key=lambda a: _worth(state, a, team, lead))
    return Pass() if Pass() in pool else pool[0]


def _holds(before: GameState, after: GameState, team: int) -> bool:
    """Whether ``team`` holds the trick after a card (or took it, where it ended)."""
    if after.trick_cards:
        return after.rules.team_of[after.trick_seats[after.current_winner()]] == team
    return after.tricks_won[team] > before.tricks_won[team]


def _worth(state: GameState, action: Action, team: int, lead: bool) -> tuple[bool, int]:
    """What ``action`` is worth to the climber's side ``team``: whether it holds the
    trick after it, then its points in the hand; for a lead, after the other seats have
    played to the trick each the card worth the most so (every seat plays for the
    climber's side)."""
    after = state.clone()
    after.apply(action)
    if lead:
        while after.phase == Phase.PLAY and after.trick_cards:
            plays = [a for a in after.legal_actions() if isinstance(a, Play)]
            if not plays:
                break
            after.apply(max(plays, key=lambda a: _worth(after, a, team, False)))
    return _holds(state, after, team), after.hand_points(team)


def _play_out(trial: GameState, seat: int, aim: int, defend: int = _BIDS
              ) -> tuple[list[str], int, bool] | None:
    """Play ``trial``'s hand out by :func:`_climbing`: the actions' texts, the most
    points the climber's side held in the hand, and whether a seat bid (an action of
    :data:`_BID_KINDS`); ``None`` if it does not end within :data:`_HAND_STEPS`."""
    r = trial.rules
    team = r.team_of[seat]
    actions: list[str] = []
    most = 0
    bid = False
    while trial.phase not in _BETWEEN:
        if len(actions) >= _HAND_STEPS:
            return None
        action = _climbing(trial, seat, aim, defend)
        actions.append(action_text(r, action))
        bid = bid or isinstance(action, _BID_KINDS)
        trial.apply(action)
        most = max(most, trial.hand_points(team))  # (kept after the hand's end, or not)
    return actions, most, bid


def _trial(state: GameState, deal: dict[str, Any], seat: int, aim: int,
           defend: int = _BIDS) -> _Trial | None:
    """``deal`` dealt on a clone of ``state`` and played out (:func:`_play_out`): the
    clone, the actions' texts, the climber's side's most points, whether a seat bid."""
    trial = state.clone()
    try:
        trial.deal(list(deal["deck"]), deal["first_player"])
    except (IllegalActionError, ValueError):
        return None
    played = _play_out(trial, seat, aim, defend)
    return None if played is None else (trial, *played)


def climb_hand(state: GameState, rng: SplitMix64, wanted: set[str], deals: int = CLIMB_DEALS
               ) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand to play from ``state`` (between hands, or before the first deal),
    built for the climber (:func:`climber`): its deal and its actions, the first of
    ``deals`` built deals whose hand ends the match (where a rule of ``wanted``
    other than the barrel's is left), else the one after which the climber's total is
    the highest; ``None`` where no deal is dealt and played out within the bound of
    steps. Where the barrel's rule is wanted (:func:`barrel_wanted`), more trials of
    each deal aim below the target (:func:`_barrel_trials`): the first whose end names
    a wanted rule is kept, else the one after which the climber can land on the barrel
    next (:func:`_lands`), then the highest total, a match's end the last. A deal is
    played a second time, bidding what the first play made, only where a seat bid in
    the first (else the climber was offered no bid, and the play would be the same)."""
    r = state.rules
    seat = climber(state)
    if seat is None:
        return None
    team = r.team_of[seat]
    barrel = barrel_wanted(r, wanted)
    ends = wanted - barrel
    best: tuple[dict[str, Any], list[str]] | None = None
    top: tuple[int, ...] = (-1 << 62,)
    for _ in range(deals):
        deal = _built_deal(state, rng, seat)
        if deal is None:
            continue
        first = _trial(state, deal, seat, 0)  # the lowest bid: how many points it makes
        if first is None:
            continue
        again = _trial(state, deal, seat, first[2]) if first[3] else first  # the highest
        # bid it makes, where a seat bid at all (else the play would be the same)
        tried = [(deal, t) for t in (again, first)]
        exact = _exact_aim(state, team, first[2])
        if exact:  # a target only landed on exactly: the bid that lands on it
            tried.insert(0, (deal, _trial(state, deal, seat, exact)))
        if barrel:
            tried += _barrel_trials(state, rng, deal, seat, first[2])
        done = [p[0] for _, p in tried if p is not None]
        for dealt, played in tried:
            if played is None:
                continue
            trial, actions, _, _ = played
            if ends and trial.phase == Phase.OVER:
                return dealt, actions
            if barrel and barrel & ending_rules(trial, True):
                return dealt, actions
            total = trial.match_scores[team]
            key = (trial.phase != Phase.OVER, _lands(state, done, first[2], team, total),
                   total) if barrel else (total,)
            if key > top:
                best, top = (dealt, actions), key
    return best


def _exact_aim(state: GameState, team: int, made: int) -> int:
    """Where a total wins only landing on the target exactly (``win_rule: exactly``: a
    hand that would pass it leaves the total unchanged), the bid that takes ``team``'s
    total there if made: the points still needed, where a bid of that many is one the
    auction allows and ``made`` points (what the deal's first trial made) cover it;
    else 0 (no such trial). The highest bid the climber makes passes the target, and
    a total on the barrel only leaves it by landing there, so without this trial a
    climbing match under that rule never ends (twenty-fifth session: Thousand for
    three, ``win_rule=exactly``, left the match's end unchecked).

    >>> from mariage import load_rules
    >>> rules = load_rules("thousand", {"win_rule": "exactly"})
    >>> state = GameState(rules, first_dealer=0)
    >>> state.match_scores[:] = [880, 0, 0]
    >>> _exact_aim(state, 0, 160), _exact_aim(state, 0, 110), _exact_aim(state, 1, 160)
    (120, 0, 0)
    """
    r = state.rules
    need = r.match_target - state.match_scores[team]
    if r.win_rule != "exactly" or r.bid_min <= 0 or not r.bid_min <= need <= made or \
            0 < r.bid_max < need:
        return 0
    return need if r.bid_step <= 0 or (need - r.bid_min) % r.bid_step == 0 else 0


def barrel_wanted(rules: Rules, wanted: set[str]) -> set[str]:
    """The barrel's rule where it is wanted and a total may stand on it (not past the
    target: :func:`~mariage.conformance.unreachable.barrel_unreachable`), else none."""
    rule = rules.barrel_rule
    if rule is None or rule not in wanted or barrel_unreachable(rules):
        return set()
    return {rule}


def _barrel_trials(state: GameState, rng: SplitMix64, deal: dict[str, Any], seat: int,
                   made: int) -> list[tuple[dict[str, Any], _Trial | None]]:
    """More trials for the barrel (twenty-second session), each with its deal: ``deal``
    with the climber bidding the highest bid that keeps its total below the target, then
    the highest that leaves room below it for the lowest bid next (both up to the
    ``made`` points); a deal whose least valuable declaration another side holds
    (:func:`_built_deal` with ``spare``), the climber's side defending with its
    declarations and without; and one where the climber holds no declaration
    (:data:`_BARE`: it need not open where a bid needs one), its side defending."""
    r = state.rules
    total = state.match_scores[r.team_of[seat]]
    room = r.match_target - 1 - total
    aims = [a for a in dict.fromkeys((min(room, made), min(room - r.bid_min, made)))
            if 0 < a < made]
    out = [(deal, _trial(state, deal, seat, a)) for a in aims]
    for kind, modes in ((_SPARE, (_DEFENDS, _DEFENDS_BARE)), (_BARE, (_DEFENDS,))):
        spare = _built_deal(state, rng, seat, kind)
        if spare is not None:
            out += [(spare, _trial(state, spare, seat, 0, d)) for d in modes]
    return out


def _lands(state: GameState, done: list[GameState], made: int, team: int, total: int
           ) -> bool:
    """Whether from ``total`` the climber's side can land on the barrel (at it or over,
    below the target) in one more hand, as far as this hand's trials (``done``) show:
    by a gain one of them made, or by a contract from the lowest bid up to the ``made``
    points."""
    r = state.rules
    gains = {t.match_scores[team] - state.match_scores[team] for t in done
             if t.phase != Phase.OVER}
    if r.bid_step > 0 and r.bid_min > 0:
        gains.update(range(r.bid_min, made + 1, r.bid_step))
    return any(r.barrel_at <= total + g < r.match_target for g in gains)
