"""The built-in players that search nothing: ``random`` and ``greedy``.

``greedy`` declares, answers, exchanges and calls out when right, sizes its bids by
:func:`hand_value` and plays its cards by :func:`mariage.arena.cardplay.choose_play`;
``random`` picks among the sensible legal actions. Both are deterministic given their
seed; neither calls out or claims wrongly. :mod:`mariage.arena.bots` names them with the
players that search (``mc``, ``ismcts``), which build on these.

>>> from mariage import load_rules, new_match
>>> st = new_match(load_rules("marianna"), seed=3)
>>> GreedyBot(seed=0).choose(st) in st.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from mariage.engine.actions import (
    Action,
    Announce,
    Answer,
    Bid,
    BlindBid,
    Call,
    CallOut,
    Claim,
    Close,
    Concede,
    Declare,
    Double,
    Exchange,
    Give,
    Play,
    Question,
    Raise,
    SayPair,
    SuitBid,
    Take,
)
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

from .cardplay import choose_play

if TYPE_CHECKING:
    import random

    from mariage.engine.rules import Rules

__all__ = ["KINDS_BY_STATE", "Bot", "GreedyBot", "RandomBot", "contract_estimate", "hand_value",
           "sensible_actions", "trump_estimate"]


class Bot(Protocol):
    """Anything that picks one of the legal actions of the seat to act."""

    name: str

    def choose(self, state: GameState) -> Action: ...


def sensible_actions(state: GameState, cautious_bids: bool = True) -> Sequence[Action]:
    """Legal actions, without call-outs that would fail (what ``random`` picks among).

    To a far running total, ``cautious_bids`` leaves only the lowest bid and keeping the
    contract (a random bid is lost far more often than made); :class:`GreedyBot` sizes
    its bids and raises itself."""
    acts = state.legal_actions()
    r = state.rules
    # nothing to leave out where no call-out, claim or running total is in the rules
    if r.call_out_rule is None and r.claim_rule is None and r.running_rule is None:
        return acts
    if type(acts) is CardSets:  # (by its class, not isinstance: CardSets is an ABC's)
        # only sets of cards offered: none made here; a concession before the sets: only
        # it can be left out
        return _sensible_sets(state, acts, cautious_bids) if acts.head else acts
    if acts and type(acts[0]) is Play and type(acts[-1]) is Play and state.phase is _PLAY:
        # the cards alone: the play lists its offers before the cards and what is open
        # at any moment after them (GameState.legal_actions)
        return acts
    # an auction's ladder, and its short slices, listed again and again: what was left of
    # it kept; in play only a long listing (a short one there is seldom kept: its
    # call-outs depend on the state)
    keep = len(acts) > _KEPT_FROM or (state.phase is not _PLAY and bool(acts))
    if keep:
        key = (id(acts[0]), id(acts[-1]), len(acts), cautious_bids)
        found = _kept.get(key)
        if found is not None and found[2] is r and found[0] == acts:  # (the same
            return [*found[1]]  # objects: equal at once; the same rules)
    kinds = set(map(type, acts))
    # nor where none of the kinds it could leave out is listed (the cards of the play)
    if _LEFT_OUT.isdisjoint(kinds):
        return acts
    out = _left_out(state, acts, kinds, cautious_bids)
    if r.running_rule is not None and Concede in kinds:  # a hopeless contract is conceded
        hopeless = hand_value(state, state.to_act) < state.contract  # type: ignore[arg-type]
        out = [a for a in out if (type(a) is Concede) == hopeless] or out
    elif keep and KINDS_BY_STATE.isdisjoint(kinds):  # what is left depends on the listing alone
        if len(_kept) >= _KEPT_BOUND:
            _kept.clear()
        _kept[key] = ([*acts], [*out], r)  # (kept alive: their ids stay theirs)
    return out


def _left_out(state: GameState, acts: Sequence[Action], kinds: set[type],
              cautious_bids: bool) -> Sequence[Action]:
    """``acts`` (of the ``kinds`` listed) without the call-outs and claims that would
    fail, and to a far running total (``cautious_bids``) every bid but the lowest and
    every raise but keeping; ``acts`` itself where none is left out. The kinds of action
    are the engine's own records, none a subclass of another: compared by ``type``."""
    r = state.rules
    out = acts
    if CallOut in kinds or Claim in kinds:  # (the side's points asked once)
        seat = state.to_act
        assert seat is not None
        team = r.team_of[seat]
        points = state.hand_points(team)
        good = CallOut not in kinds or state.match_scores[team] + points >= r.match_target
        claim_good = Claim not in kinds or (r.claim_rule is not None
                                            and points >= r.claim_target)
        if not (good and claim_good):
            out = [a for a in acts if (type(a) is not CallOut or good)
                   and (type(a) is not Claim or claim_good)]
    if r.running_rule is not None and cautious_bids and (Bid in kinds or Raise in kinds):
        # to a far target: bid the least and keep it, or the game would never end (the
        # lowest bid and keeping compared by their one field: no record's __eq__ called
        # per bid of the ladder)
        low = next((a.value for a in out if type(a) is Bid), None)
        keep = _KEEP.value
        out = [a for a in out if not ((type(a) is Bid and a.value != low)
                                      or (type(a) is Raise and a.value != keep))]
    return out


def _sensible_sets(state: GameState, acts: CardSets, cautious_bids: bool) -> Sequence[Action]:
    """:func:`sensible_actions` of sets of cards listed after other actions (a
    concession): those left out as :func:`sensible_actions` leaves them, the sets
    (``Give``, never left out) not made one by one where they are kept whole
    (:meth:`CardSets.sets`)."""
    head = [*acts.head]
    kinds = set(map(type, head))
    out = _left_out(state, head, kinds, cautious_bids)
    if state.rules.running_rule is not None and Concede in kinds:
        hopeless = hand_value(state, state.to_act) < state.contract  # type: ignore[arg-type]
        if hopeless:  # (the concession is never left out: some is listed)
            return [a for a in out if type(a) is Concede]
        rest = [a for a in out if type(a) is not Concede]
        sets = acts.sets()
        if not rest:
            return sets if len(sets) else out
        return [*rest, *sets]
    return acts if out is head else [*out, *acts.sets()]


_PLAY = Phase.PLAY
#: the kinds of action sensible_actions may leave out
_LEFT_OUT = frozenset({CallOut, Claim, Bid, Raise, Concede})
#: keeping the contract as it is
_KEEP = Raise(0)
#: the kinds of action whose leaving out by :func:`sensible_actions` depends on the state
#: (the side's points, the hand's value), not on the listing alone
KINDS_BY_STATE = frozenset({CallOut, Claim, Concede})
#: what sensible_actions left of a listing outside the play phase, or of a long one (more
#: than _KEPT_FROM actions) in it, where it depends on the listing alone, by its first and last
#: objects, its length and cautious_bids: the listing's objects, what was left and the
#: rules (an auction lists the same objects of one ladder again and again; a listing
#: equal to the one kept, under the same rules, is the same, objects compared in C)
_KEPT_FROM = 8
_KEPT_BOUND = 256
_kept: dict[tuple[int, int, int, bool],
            tuple[list[Action], list[Action], Rules]] = {}


class RandomBot:
    """Picks uniformly among the sensible legal actions."""

    name = "random"
    #: it decides from the legal actions and public counts only (the points taken, its
    #: own hand): a determinization of the hidden cards would not change its choice
    public_only = True

    def __init__(self, seed: int = 0) -> None:
        import random

        self.rng = random.Random(seed)

    def choose(self, state: GameState) -> Action:
        """Pick an action for the seat to act."""
        return self.rng.choice(sensible_actions(state))


class GreedyBot:
    """Calls out when right, declares, answers yes, exchanges; plays its cards by
    :func:`mariage.arena.cardplay.choose_play`; bids by :func:`hand_value`."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """A generator seeded with the bot's seed (made on first use: the greedy player's
        own choices draw nothing from it, and ``random`` is not imported for them)."""
        if self._rng is None:
            import random

            self._rng = random.Random(self.seed)
        return self._rng

    def choose(self, state: GameState) -> Action:
        """Pick an action for the seat to act."""
        acts = sensible_actions(state, cautious_bids=False)
        if state.rules.auction_rule is not None or state.rules.calls_rule is not None:
            chosen = _bidding_choice(state, acts)
            if chosen is not None:
                return chosen
        if state.rules.take_rule is not None or state.rules.sa_rule is not None:
            taken = _taking_choice(state, acts)
            if taken is not None:
                return taken
        for kind in (CallOut, Claim, Declare, Exchange, Announce, SayPair):
            found = [a for a in acts if isinstance(a, kind)]
            if found:
                return found[0]
        answers = [a for a in acts if isinstance(a, Answer)]
        if answers:
            return next((a for a in answers if a.yes), answers[0])
        plays = [a for a in acts if isinstance(a, Play)]
        if not plays:  # greedy never closes the stock: it draws, or declines
            return next((a for a in acts if not isinstance(a, Close)), acts[0])
        return choose_play(state, plays)


# ---------------------------------------------------------------- a turned card taken
def trump_estimate(state: GameState, seat: int, suit: int) -> int:
    """A rough worth of ``seat``'s hand (and the turned card he would get) with ``suit``
    trump: trump points and length, and aces outside."""
    r = state.rules
    cards = state.hands[seat] | (1 << state.turn_up if state.turn_up is not None else 0)
    points = r.role_points[suit] if r.role_points else r.points
    est = 0
    for c in r.cards_of(cards):
        if r.suit_of[c] == suit:
            est += points[c] + 8
        elif r.rank_of[c] == 0:
            est += 11
    return est


def contract_estimate(state: GameState, seat: int, contract: int) -> int:
    """A rough worth of ``seat``'s hand (and the turned card he would get) under
    ``contract``: a trump suit as :func:`trump_estimate`; a contract without one trump suit
    (sans-atout, tout-atout) half its card points there, and 15 for each card that is the
    highest of its suit in that contract's order.

    >>> from mariage import load_rules, GameState
    >>> from mariage.engine.deals import canonical_deck
    >>> state = GameState(load_rules("belote-coinche", {"sa_ta": True}), first_dealer=3)
    >>> state.deal(canonical_deck(state.rules))
    >>> [contract_estimate(state, 0, c) for c in (0, 4, 5)]  # hearts, SA, TA
    [49, 33, 56]
    """
    r = state.rules
    if contract < len(r.suits):
        return trump_estimate(state, seat, contract)
    cards = state.hands[seat] | (1 << state.turn_up if state.turn_up is not None else 0)
    points, higher = r.role_points[contract], r.role_higher[contract]
    return sum(points[c] // 2 + (15 if not higher[c] else 0) for c in r.cards_of(cards))


def _taking_choice(state: GameState, acts: Sequence[Action]) -> Action | None:
    """Take (or name) the best trump if the hand is worth it; else pass."""
    seat = state.to_act
    assert seat is not None
    if state.double_window:  # right after an opponent's bid: coinche it if it looks too high
        r = state.rules
        coinche = next(a for a in acts if isinstance(a, Double))
        left = sum(r.points) + r.last_trick_points - contract_estimate(state, seat,
                                                                       state.bid_suit)
        return coinche if state.high_bid > left else acts[0]
    bids = [a for a in acts if isinstance(a, SuitBid)]
    if bids:  # bid the lowest value in the best suit that the hand (and a partner) carries
        r = state.rules
        if state.high_bidder >= 0 and r.team_of[state.high_bidder] == r.team_of[seat]:
            return acts[0]  # the partner holds the contract: pass
        named = sorted({a.suit for a in bids})
        suit = max(named, key=lambda s: contract_estimate(state, seat, s))
        reach = contract_estimate(state, seat, suit) + 20
        ok = [a for a in bids if a.suit == suit and a.value <= reach]
        return min(ok, key=lambda a: a.value) if ok else acts[0]
    takes = [a for a in acts if isinstance(a, Take)]
    if not takes or state.turn_up is None:
        return None
    turned = state.rules.suit_of[state.turn_up]

    def worth(a: Take) -> int:
        return contract_estimate(state, seat, turned if a.suit < 0 else a.suit)

    best = max(takes, key=worth)
    return best if worth(best) >= 60 else next(a for a in acts if not isinstance(a, Take))


# ---------------------------------------------------------------- bidding games
def hand_value(state: GameState, seat: int) -> int:
    """A cautious estimate of what ``seat``'s side can score with his hand: the partner's
    share is counted as a sixth of the pack's points, so that a bid has a margin."""
    r = state.rules
    hand = state.hands[seat]
    alone = len(r.teams[r.team_of[seat]]) == 1
    # the partner's share, roughly, kept low so that a bid has a margin; playing alone,
    # what a talon and the tricks won with high cards add
    est = 20 if alone else r.pack_points // 6 + r.last_trick_points // 2
    for c in r.cards_of(hand):
        est += r.points[c] + (10 if r.rank_of[c] == 0 else 0)
    masks, values = (r.call_pair_masks, r.call_values) if r.call_pair_masks else (
        r.bid_pair_masks, r.bid_pair_values)
    for s, m in enumerate(masks):
        if hand & m == m:
            est += values[s]
        elif hand & m and not alone:
            est += values[s] // 4  # the partner may hold the other half
    return est


#: to a running total, what a declarer makes is far from :func:`hand_value`: measured over
#: 3,000 deals of greedy play of Thousand, about 40 points below it (30 % of contracts
#: make less) while the estimate is below 180, and little more above; so bids go up to
#: the estimate less this margin, and no further than the cap
RUNNING_MARGIN = 40
RUNNING_CAP = 125


def _reach(state: GameState, seat: int) -> int:
    """The highest bid or raise ``seat`` risks: the whole estimate where a contract is
    scored once, a margin below it (and a cap) where running totals add up each deal."""
    est = hand_value(state, seat)
    if state.rules.running_rule is None:
        return est
    return min(est - RUNNING_MARGIN, RUNNING_CAP)


def _raise_choice(state: GameState, raises: list[Raise]) -> Raise:
    """Keep the contract, unless a raise within reach wins the match (a running total
    that a made contract takes to the target, on the barrel or not): raising otherwise
    puts more at stake for less."""
    seat = state.to_act
    assert seat is not None
    r = state.rules
    keep = next((a for a in raises if a.value == 0), raises[0])
    if r.running_rule is None:
        return keep
    need = r.match_target - state.match_scores[r.team_of[seat]]
    if need <= state.contract:
        return keep
    winning = [a for a in raises if need <= a.value <= _reach(state, seat) + 10]
    return min(winning, key=lambda a: a.value) if winning else keep


def _needed(state: GameState, seat: int) -> int:
    """Where a running total needs a contract to win (on the barrel): its least size."""
    r = state.rules
    team = r.team_of[seat]
    if r.barrel_rule is None or not r.barrel_clamp or state.barrel[team] < 0:
        return 0  # (without the clamp, every made contract counts towards the target)
    return r.match_target - state.match_scores[team]


def _far_behind(state: GameState, seat: int, value: int) -> bool:
    """True if ``seat``'s total is behind the best by more than twice ``value``: where a
    blind bid, which the hand cannot judge, is worth its risk."""
    scores = state.match_scores
    return max(scores) - scores[state.rules.team_of[seat]] > 2 * value


def _keep_value(state: GameState, card: int) -> int:
    r = state.rules
    pair = any(m >> card & 1 for m in r.call_pair_masks)
    return r.points[card] * 3 + (25 if pair else 0) + r.strength[card]


def _bidding_choice(state: GameState, acts: Sequence[Action]) -> Action | None:
    """The greedy choice in an auction, a passing, a raise or a call, or ``None``."""
    seat = state.to_act
    assert seat is not None
    blind = [a for a in acts if isinstance(a, BlindBid)]
    if blind and _far_behind(state, seat, blind[0].value):
        return blind[0]  # a gamble on unseen cards, only when far behind
    bids = [a for a in acts if isinstance(a, Bid)]
    if bids:
        r = state.rules
        others = [a for a in acts if not isinstance(a, Bid)]
        if others and state.high_bidder >= 0 and r.team_of[state.high_bidder] == r.team_of[seat]:
            return others[0]  # never outbid the partner
        est = _reach(state, seat)
        ok = [a for a in bids if a.value <= est]
        need = _needed(state, seat)  # on a barrel, bid what wins or nothing
        winning = [a for a in ok if a.value >= need]
        if need and len(acts) > len(bids):
            return winning[0] if winning else acts[0]
        return ok[0] if ok else acts[0]  # the lowest bid within reach, else pass
    raises = [a for a in acts if isinstance(a, Raise)]
    if raises and state.rules.running_rule is not None:
        return _raise_choice(state, raises)
    gives = [a for a in acts if isinstance(a, Give)]
    if gives:
        to_declarer = seat != state.declarer
        def score(g: Give) -> int:
            total = sum(_keep_value(state, c) for c in state.rules.cards_of(g.cards))
            return total if to_declarer else -total
        return max(gives, key=score)  # the partner sends his best, the declarer his worst
    calls = [a for a in acts if isinstance(a, Call)]
    if calls:
        return max(calls, key=lambda a: state.rules.call_values[a.suit])
    questions = [a for a in acts if isinstance(a, Question)]
    r = state.rules
    for q in questions:
        if q.kind == 0 and state.ask_level[seat] == 0:  # ask for a pair once
            return q
    hand = state.hands[seat]
    for q in questions:
        if q.kind == 1 and hand & r.call_pair_masks[q.suit] and not state.called >> q.suit & 1:
            return q
    return None
