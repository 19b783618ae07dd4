"""The search by exchanging two unknown cards, and the replay of one deck it tries.

Part of completing a partial deal (:mod:`mariage.notation.search`, whose module text
tells when each search runs): a deck is filled first so that each unknown card lies where
the seat that first plays it can hold it (:func:`_initial_fill`), replayed
(:func:`_attempt`), and where an action is refused, repaired by exchanging two unknown
cards still unplayed at that moment (:func:`_repairs`): a card the seat played without
holding it with each unknown card it holds; else one of its unknown cards with one held
elsewhere that could make the action legal (:func:`_wanted`); and an unknown turned-up
card with each unknown card of another suit (another trump). :func:`_swap_search` tries
the decks so made, best first (the children of the deck whose replay got furthest
first), with a memory of the decks tried.

>>> from mariage import load_rules, GameState, Play
>>> rules = load_rules("marianna")
>>> st = GameState(rules, first_dealer=3)
>>> partial = [c if i < 5 else -1 for i, c in enumerate(range(40))]  # N's cards known
>>> acts = [(0, Play(0)), (1, Play(7)), (2, Play(12)), (3, Play(30))]
>>> deck = _initial_fill(partial, [-1] * 40, 40, acts)
>>> deck[:5], sorted(deck) == list(range(40))
([0, 1, 2, 3, 4], True)
>>> found, tries = _swap_search(st, partial, [-1] * 40, None, acts, 50, None, -1,
...                             set(range(5, 40)))
>>> found is not None and _attempt(st, found, None, acts, None) is None
True
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence

from mariage.engine.actions import (
    Action,
    Answer,
    AskPartner,
    Bid,
    Declare,
    Exchange,
    Give,
    Play,
    Raise,
    SayPair,
)
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError
from .placement import NOTE, Swapped, plays_in, pop_made, unseen_give

__all__ = ["Step", "Verify"]

# Module-level aliases: enum member access is slow on the hot path.
_DEAL, _OVER = Phase.DEAL, Phase.OVER

Step = tuple[int, Action | None]  # (seat, action); None: a resignation
#: verify(state, i, trick_done): are the annotations after action i (0: before the
#: first action) consistent with ``state``?
Verify = Callable[[GameState, int, bool], bool]


def _first_use(acts: Sequence[Step]) -> dict[int, int]:
    """For each card played or exchanged, the seat that first does it."""
    out: dict[int, int] = {}
    for seat, a in acts:
        if isinstance(a, (Play, SayPair, Exchange)) and a.card not in out:
            out[a.card] = seat
    return out


def _initial_fill(slots: Sequence[int], owner: Sequence[int], ncards: int,
                  acts: Sequence[Step]) -> list[int]:
    missing = sorted(set(range(ncards)) - set(slots))
    use = _first_use(acts)
    order = {c: i for i, (_, a) in enumerate(acts)
             if isinstance(a, (Play, SayPair, Exchange)) for c in [a.card]}
    missing.sort(key=lambda c: order.get(c, len(acts)))
    deck = list(slots)
    free = [i for i, c in enumerate(deck) if c < 0]
    rest = []
    for c in missing:  # a card goes to its player's own unknown place if there is one
        seat = use.get(c, -2)
        place = next((i for i in free if owner[i] == seat), None)
        if place is None:
            rest.append(c)
            continue
        deck[place] = c
        free.remove(place)
    for c, i in zip(rest, free, strict=True):
        deck[i] = c
    return deck


def _attempt(start: GameState, deck: list[int], first: int | None, acts: Sequence[Step],
             verify: Verify | None) -> tuple[int, Action | None, GameState, str] | None:
    st = start.clone()
    st.deal(deck, first)
    if verify is not None and not verify(st, 0, False):
        return st.to_act if st.to_act is not None else st.leader, None, st, NOTE
    for i, (seat, a) in enumerate(acts):
        if a is None:  # a resignation: allowed at any moment, and it ends the match
            return None
        if st.phase == _DEAL or st.phase == _OVER:
            # the hand ended before its last action: its points, so the trump, differ
            return seat, a, st, NOTE
        if type(a) is Give and a.cards < 0:  # cards passed unseen by the writer
            a = unseen_give(st, seat, plays_in(acts[i + 1:]))
        ntricks = len(st.tricks)
        try:
            st.apply(a, seat)
        except IllegalActionError as exc:
            return seat, a, st, exc.rule_id
        if verify is not None and not verify(st, i + 1, len(st.tricks) > ntricks):
            return seat, a, st, NOTE
    return None


def _repairs(unknown: set[int], seat: int, action: Action | None, st: GameState,
             turn: int) -> list[tuple[int, int]]:
    hand = st.hands[seat]
    cards = st.rules.cards_of
    mine = [y for y in cards(hand) if y in unknown]
    live = 0
    for h in st.hands:
        live |= h
    for c in st.stock:
        live |= 1 << c
    if st.rules.talon_out:  # a talon's packet not chosen, cards laid away: still unseen
        for c in st.aside:
            live |= 1 << c
    if isinstance(action, (Play, SayPair, Exchange)) and not hand >> action.card & 1:
        c = action.card
        if c in unknown and live >> c & 1:
            if c == st.turn_up:  # keep the trump: another card of its suit turned up
                suit_of = st.rules.suit_of
                same = [(c, z) for z in cards(live & ~(1 << c))
                        if z in unknown and suit_of[z] == suit_of[c]]
                return same + [(c, y) for y in mine]
            return [(c, y) for y in mine]
        return []
    want = _wanted(st, action) if action is not None else st.rules.full_mask
    mine.sort(key=lambda y: bool(want >> y & 1))
    # bring a wanted card in, or (holding too many of them) move one out
    bring = [(y, z) for y in mine for z in cards(live & ~hand & want) if z in unknown]
    drop = [(y, z) for y in mine if want >> y & 1
            for z in cards(live & ~hand & ~want) if z in unknown]
    # the turned-up card sets the trump: an unknown one may be any other unknown card
    return bring + drop + _turnup_repairs(unknown, turn, st)


def _turnup_repairs(unknown: set[int], turn: int, st: GameState) -> list[tuple[int, int]]:
    """Swaps that change the trump: the unknown turned-up card ``turn`` (-1: none or
    known) with each unknown card of another suit not yet played."""
    if turn < 0:
        return []
    live = 1 << turn if st.turn_up == turn else 0
    for h in st.hands:
        live |= h
    for c in st.stock:
        live |= 1 << c
    suit_of = st.rules.suit_of
    return [(turn, z) for z in st.rules.cards_of(live & ~(1 << turn))
            if z in unknown and suit_of[z] != suit_of[turn]]


def _wanted(st: GameState, action: Action) -> int:
    """The cards that could make ``action`` legal if the seat held them (all, if unsure)."""
    r = st.rules
    if isinstance(action, Declare) and 0 <= action.decl < len(r.declarations):
        d = r.declarations[action.decl]
        if d.same_suit:
            return d.suit_masks[action.suit]
        want = 0
        for mask, _ in d.rank_counts:
            want |= mask
        return want
    if isinstance(action, AskPartner) and action.suit >= 0 and 0 <= action.ask < len(r.asks):
        d = r.declarations[r.asks[action.ask].declaration]
        if d.same_suit:
            return d.suit_masks[action.suit]
    if isinstance(action, Bid | Raise) and r.bid_cap != "none" and st.to_act is not None:
        # a bid over the cap needs a pair: the other half of one held, else any half
        hand, halves, every = st.hands[st.to_act], 0, 0
        for m in r.bid_pair_masks:
            every |= m
            if hand & m:
                halves |= m & ~hand
        return halves or every
    if isinstance(action, Answer) and action.yes and st.pending_ask is not None:
        ask, _, suit = st.pending_ask
        d = r.declarations[r.asks[ask].declaration]
        if suit >= 0 and d.same_suit:
            return d.suit_masks[suit]
        want = 0
        for m in d.suit_masks:
            want |= m
        return want
    return r.full_mask


def _swap_search(start: GameState, slots: Sequence[int], owner: Sequence[int],
                 first: int | None, acts: Sequence[Step], limit: int, verify: Verify | None,
                 tpos: int, unknown: set[int]) -> tuple[list[int] | None, int]:
    """The search by exchanging two unknown cards, best first (see the module text)."""
    r = start.rules
    n = r.ncards
    mine = [p for p in range(len(owner)) if r.turn_up == "dealer_last" and tpos >= 0
            and owner[p] == owner[tpos] and p != tpos]
    heap: list[tuple[int, int, list[int] | Swapped]] = [
        (0, 0, _initial_fill(slots, owner, n, acts))]
    seen: set[tuple[int, ...]] = set()
    tries = 0
    pushed = 0
    while heap and tries < limit:
        deck = pop_made(heap, 2)[1]  # (and the next exchange of the same refusal)
        key = tuple(deck)
        if key in seen:
            continue
        seen.add(key)
        tries += 1
        failure = _attempt(start, deck, first, acts, verify)
        if failure is None:
            return deck, tries
        seat, action, st, rule_id = failure
        r = st.rules
        if rule_id in (r.core_turn, r.core_phase, r.core_over):
            continue  # no place of any card makes this action legal
        progress = len(st.actions)
        pos = {c: i for i, c in enumerate(deck)}
        turn = deck[tpos] if tpos >= 0 else -1
        # where the dealer's last card is turned up, another of the dealer's unknown cards
        # may be it: the same hands, another trump
        own = [(turn, deck[p]) for p in mine if deck[p] in unknown
               and r.suit_of[deck[p]] != r.suit_of[turn]] if turn >= 0 else []
        if rule_id == NOTE:  # annotations follow from the actions and the trump only
            repairs = own + _turnup_repairs(unknown, turn, st)
        else:
            repairs = _repairs(unknown, seat, action, st, turn) + own
        if repairs:  # one entry, which stands for each exchange in turn (order numbers)
            pairs = tuple(p for a, b in repairs for p in (pos[a], pos[b]))
            heapq.heappush(heap, (-progress, pushed + 1, (tuple(deck), pairs, 0)))
            pushed += len(repairs)
    return None, tries
