"""Exact deal search: where each unknown card may lie, learned from refused actions.

The search keeps, for each unknown card, the set of places it may take
(:class:`~mariage.notation.placement.Placement`), and tries the nearest deck
that respects them all. It replays that deck
(:func:`~mariage.notation.placement.replay_tracked`); when an action is
refused, :func:`learn` finds a new bound that the refused deck breaks:

- a seat plays a card it does not hold: the card lies at one of the places
  that seat has received by then;
- an action refused because of what else the seat holds (a duty to follow,
  to trump, to beat, an answer "no"): each unknown card whose presence alone
  makes the action illegal lies at none of those places (*anti-monotone*
  actions, found by probing the action with the seat's known cards plus one);
  where no one card does but several do (a hand worth too many points to throw
  in), the seat holds not all of a smallest such set: one case per card of it;
- an action refused for want of cards (a declaration, an answer "yes"): each
  card without which the action is illegal even with every other possible
  card lies at one of those places (*monotone* actions);
- an action refused as out of turn: a window (to exchange, to declare) that
  another seat's cards opened and the record shows closed (each card that
  alone opens it lies elsewhere), or one the acting seat's own cards must
  have opened (each card it cannot do without lies at its places; if none
  of its possible hands opens it, the case is dead, and so are the cases of
  the other turned-up cards of its suit that keep it shut whatever the seats
  hold: :func:`~mariage.notation.turnedup.turned_up_alike`).

Every bound learned holds for every consistent deal, and each one removes at
least one place from one card, so the search ends after at most
``unknown cards x unknown places`` replays: it finds a deal, or proves there
is none (the matching fails). Where a refusal teaches nothing exact (an
action that needs one of several groups of cards), the caller falls back to
exchanging cards (:mod:`mariage.notation.search`).

Cards passed unseen by the writer (``give:?``) split the search into one case
per set of cards the giver may have passed (:func:`give_choices`), pruned by
what the rest of the hand shows: the receiver plays the cards it was given,
no seat but the receiver plays them, the giver held them. A step whose effect
depends on the cards splits into one case per effect it may have
(:func:`possible_effects`). Once no card can reach a seat any more (no stock
left, no card passed or exchanged later), the cards each seat plays from then
on lie at the places it received, and a seat that plays out its hand holds
nothing else (:func:`settle`): in a game without a stock one replay past the
deal pins almost every card.

Seat 1, dealt places 5 to 9, plays a card it was not dealt: the card lies at
one of those places in every deal that fits the record:

>>> from mariage import load_rules, GameState, Play
>>> from mariage.notation.placement import Placement, replay_tracked
>>> st = GameState(load_rules("marianna"), first_dealer=3)
>>> deck = list(range(40))
>>> refusal = replay_tracked(st, deck, None, [(0, Play(0)), (1, Play(39))], None)
>>> placement = Placement({c: (1 << 40) - 1 for c in range(5, 40)})  # seat 0's cards known
>>> outcome, cases = learn(refusal, deck, placement, played_before=1)
>>> outcome, cases == [placement], bin(placement.allowed[39])
('learned', True, '0b1111100000')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from math import comb

from mariage.engine.actions import Action, Exchange, Give, Play, SayPair, played_card
from mariage.engine.phase import PASSING
from mariage.engine.state import GameState

from ..errors import IllegalActionError
from .placement import Placement, Refusal, effect_of, plays_in
from .probes import (
    DEAD,
    LEARNED,
    UNSURE,
    _legal,
    _legal_hands,
    _legal_steps,
    _live,
    _split,
    _Unsure,
    fixed_cards,
    not_all,
    whole_hand,
    whole_hand_cases,
)

__all__ = ["DEAD", "GIVE_CASES", "LEARNED", "UNSURE", "fixed_cards", "give_choices", "learn",
           "possible_effects", "settle"]


#: What :func:`learn` found: a bound the refused deck breaks; that no placement
#: of the unknown cards can make the action legal; or nothing exact.

#: The most cases one unseen pass splits into; past it, the caller leaves the
#: search to the exchanges, which choose the cards passed from each deal tried.
GIVE_CASES = 120



def _out_of_turn(refusal: Refusal, placement: Placement,
                 played_before: int) -> tuple[str, list[Placement]]:
    """The record's seat acts, the replay gave the turn to another seat: a window
    (to exchange, to declare) that seat's cards opened, which the record shows
    closed. Each unknown card of that seat that alone opens it lies elsewhere.
    Otherwise, a window the acting seat's own cards open, which the record shows
    open (:func:`_own_window`)."""
    outcome = _other_window(refusal, placement)
    if outcome[0] == UNSURE and OWN_WINDOW:
        return _own_window(refusal, placement, played_before)
    return outcome


#: Learn from a window the acting seat's own cards must have opened (False: as before
#: issue #28's seventh round; for the benchmark's comparison).
OWN_WINDOW = True


def _own_window(refusal: Refusal, placement: Placement,
                played_before: int) -> tuple[str, list[Placement]]:
    """The record's seat acts where the replay gave the turn to another seat, and the
    window it acts in opens by its own cards (an opponent's reply to a close, with
    the nine of trumps): the cards without which no hand it may hold opens the window
    and makes the action legal lie at its places; none does: the case is dead. Only
    for an action that plays no card (an exchange, a declaration: holding more cards
    never closes its window), where the other seats' fewest and most cards give the
    same verdict, and where its fewest cards do not make the action legal."""
    st, action, seat = refusal.state, refusal.action, refusal.seat
    if action is None or played_card(action) >= 0:
        return UNSURE, []  # a play out of turn: the order of play, not a window
    previous = refusal.previous
    if previous is None:
        return UNSURE, []
    before, last_seat, last = previous
    if any(now & ~then for now, then in zip(st.hands, before.hands, strict=True)):
        return UNSURE, []  # the last step brought cards to a hand: places it did not hold
    allowed, moved = placement.allowed, refusal.moved
    places = refusal.received[seat]
    fixed = fixed_cards(st, before.hands[seat], allowed, moved)
    if isinstance(last, (Play, Exchange)) and last_seat == seat:
        fixed |= 1 << last.card
    if isinstance(action, Exchange):
        fixed |= 1 << action.card  # it gives that card: it holds it (learned first)
    live = _live(allowed, places, played_before | moved)

    def acts_hands(hands: list[int]) -> bool:
        return _both_legal(before, hands, last_seat, last, seat, action)

    def acts(cards: int) -> bool:
        hands = list(before.hands)
        hands[seat] = cards
        return acts_hands(hands)

    most = fixed | live
    lows, highs = _bounds_of_hands(before, placement, refusal, played_before)
    hands = list(before.hands)
    hands[seat] = most
    if not _alone(acts_hands, hands, seat, lows, highs) or acts(fixed):
        return UNSURE, []  # other seats' cards count, or the seat holds too many cards
    if not acts(most):
        return DEAD, []  # no hand it may hold opens the window
    broke = False
    for c in st.rules.cards_of(live):
        if not acts(most & ~(1 << c)):
            broke |= placement.restrict(c, places)
    return (LEARNED, [placement]) if broke else (UNSURE, [])


def _both_legal(before: GameState, hands: list[int], last_seat: int, last: Action,
                seat: int, action: Action) -> bool:
    """From ``before`` with ``hands``, are ``last`` (by ``last_seat``) and then
    ``action`` (by ``seat``) both legal?"""
    return _legal_steps(before, hands, ((last_seat, last), (seat, action)))


def _other_window(refusal: Refusal, placement: Placement) -> tuple[str, list[Placement]]:
    """:func:`_out_of_turn` for a window the seat given the turn opened."""
    st, previous, action = refusal.state, refusal.previous, refusal.action
    other = st.to_act
    if previous is None or other is None or action is None:
        return UNSURE, []
    before, last_seat, last = previous
    allowed, moved = placement.allowed, refusal.moved
    hand = before.hands[other]
    fixed = fixed_cards(st, hand, allowed, moved)
    if isinstance(last, (Play, Exchange)) and last_seat == other:
        fixed |= 1 << last.card

    def both_hands(hands: list[int]) -> bool:
        return _both_legal(before, hands, last_seat, last, refusal.seat, action)

    def both(cards: int) -> bool:
        hands = list(before.hands)
        hands[other] = cards
        return both_hands(hands)

    if not both(fixed):
        return UNSURE, []
    lows, highs = _bounds_of_hands(before, placement, refusal, 0)
    if not _alone(both_hands, before.hands, other, lows, highs):
        return UNSURE, []
    broke = False
    for c in st.rules.cards_of(hand & ~fixed):
        if not both(fixed | 1 << c):
            broke |= placement.restrict(c, ~refusal.received[other])
    return (LEARNED, [placement]) if broke else (UNSURE, [])


def _effect(refusal: Refusal, placement: Placement,
            played_before: int) -> tuple[str, list[Placement]]:
    """An annotation after an action the replay contradicts (the trump an answer
    made, say): the cards of one seat decide it. Probe each seat's hand before
    the action, as :func:`_learn` probes a refused action."""
    previous = refusal.previous
    assert previous is not None
    before, actor, action = previous
    check = refusal.check
    if not callable(check):
        return UNSURE, []
    index = refusal.index + 1
    allowed, moved = placement.allowed, refusal.moved

    def holds_hands(hands: list[int]) -> bool:
        probe = before.clone()
        probe.hands[:] = hands
        ntricks = len(probe.tricks)
        try:
            probe.apply(action, actor)
        except IllegalActionError:
            return False
        except Exception as exc:
            raise _Unsure from exc
        return bool(check(probe, index, len(probe.tricks) > ntricks))

    def holds(seat: int, cards: int) -> bool:
        hands = list(before.hands)
        hands[seat] = cards
        return holds_hands(hands)

    n = len(before.hands)
    lows, highs = _bounds_of_hands(before, placement, refusal, played_before)
    for seat in [actor] + [s for s in range(n) if s != actor]:
        hand = before.hands[seat]
        places = refusal.received[seat]
        fixed = fixed_cards(before, hand, allowed, moved)
        if isinstance(action, (Play, Exchange)) and seat == actor:
            fixed |= 1 << action.card
        if holds(seat, fixed):  # anti-monotone in this seat's cards
            if not _alone(holds_hands, before.hands, seat, lows, highs):
                continue  # and in others': no bound is safe
            broke = False
            for c in before.rules.cards_of(hand & ~fixed):
                if not holds(seat, fixed | 1 << c):
                    broke |= placement.restrict(c, ~places)
            if broke:
                return LEARNED, [placement]
            continue
        live = _live(allowed, places, played_before | moved)
        most = fixed | live
        if not holds(seat, most):
            continue
        need = most
        for c in sorted(before.rules.cards_of(live), key=lambda c: (bool(hand >> c & 1), c)):
            if holds(seat, need & ~(1 << c)):
                need &= ~(1 << c)
        group = before.rules.cards_of(need & live)
        if all(hand >> c & 1 for c in group):
            continue
        return LEARNED, _split(placement, group, places)
    # no seat's cards alone give it: it may take several seats' cards at once
    return UNSURE, []


def possible_effects(refusal: Refusal, placement: Placement,
                     played_before: int) -> list[tuple[object, ...]]:
    """The effects a :data:`~mariage.notation.placement.DECIDE` step may have: the
    replayed deck's first, then those each seat's fewest and most possible cards
    give (the others as dealt)."""
    previous = refusal.previous
    assert previous is not None
    before, actor, action = previous
    out = [refusal.effect if refusal.effect is not None else effect_of(refusal.state)]
    allowed, moved = placement.allowed, refusal.moved
    for seat in range(len(before.hands)):
        places = refusal.received[seat]
        fixed = fixed_cards(before, before.hands[seat], allowed, moved)
        if isinstance(action, (Play, Exchange)) and seat == actor:
            fixed |= 1 << action.card
        live = _live(allowed, places, played_before | moved)
        for cards in (fixed, fixed | live):
            probe = before.clone()
            probe.hands[seat] = cards
            try:
                probe.apply(action, actor)
            except Exception:  # refused with these cards: no effect to add
                continue
            effect = effect_of(probe)
            if effect not in out:
                out.append(effect)
    return out


def _plays_from(acts: Sequence[tuple[int, Action | None]], nseats: int) -> list[int]:
    """The cards each seat plays in ``acts`` (a bit mask per seat)."""
    plays = [0] * nseats
    for s, card in plays_in(acts):
        plays[s] |= 1 << card
    return plays


def give_choices(refusal: Refusal, placement: Placement,
                 acts: Sequence[tuple[int, Action | None]],
                 played_before: int) -> list[tuple[int, Placement]] | None:
    """The cases of a :data:`~mariage.notation.placement.GIVE` refusal: each set of
    cards the giver may pass, with the bounds it implies (the cards passed lie at
    places the giver received).

    The giver may pass only cards it may hold now, and cards laid away only if no
    seat plays them later. Where no card can reach a
    seat any more but by the passes left (no stock; no exchange later), and the
    receiver passes nothing on, no other seat plays a card passed, a receiver
    that plays out its hand was passed only cards it plays, and a card it plays
    that it cannot hold otherwise was passed to it. Returns None where the
    cases are more than :data:`GIVE_CASES`; an empty list where none is possible.
    """
    st = refusal.state
    r = st.rules
    index = refusal.index
    giver, receiver, count = st.mech.passing.seats(st)
    allowed, moved = placement.allowed, refusal.moved
    gone = played_before | moved
    places = refusal.received[giver]
    fixed = fixed_cards(st, st.hands[giver], allowed, moved)
    may = fixed | _live(allowed, places, gone)
    later = acts[index + 1:]
    plays = _plays_from(later, r.nseats)
    gives_later = [s for s, a in later if type(a) is Give]
    steps = r.passing_steps
    ahead = [st.mech.passing.role(st, steps[k][1])
             for k in range(st.pass_step + 1, st.pass_step + 1 + len(gives_later))
             if k < len(steps)]
    if receiver < 0:  # laid away: out of play, so no seat plays them later
        for s in range(r.nseats):
            may &= ~plays[s]
    forced = 0
    if not st.stock and receiver >= 0 and receiver not in gives_later \
            and len(ahead) == len(gives_later) \
            and not any(type(a) is Exchange for _, a in later):
        for s in range(r.nseats):
            if s != receiver:
                may &= ~plays[s]
        coming = sum(steps[st.pass_step + 1 + k][2] for k, to in enumerate(ahead)
                     if to == receiver)
        if plays[receiver].bit_count() == st.hands[receiver].bit_count() + count + coming:
            may &= plays[receiver]  # it plays out its hand: it plays every card passed
        if not coming:
            own = fixed_cards(st, st.hands[receiver], allowed, moved) \
                | _live(allowed, refusal.received[receiver], gone)
            forced = plays[receiver] & ~own
    if forced & ~may or forced.bit_count() > count:
        return []
    pool = r.cards_of(may & ~forced)
    need = count - forced.bit_count()
    if need > len(pool):
        return []
    if comb(len(pool), need) > GIVE_CASES:
        return None
    held = st.hands[giver]
    out: list[tuple[int, Placement]] = []
    for combo in combinations(pool, need):
        cards = forced | sum(1 << c for c in combo)
        case = Placement(dict(allowed))
        for c in r.cards_of(cards & ~fixed):
            case.restrict(c, places)
        if all(case.allowed[c] for c in r.cards_of(cards & ~fixed)):
            out.append((cards, case))
    # the sets the deal tried already gives first: the nearest decks
    out.sort(key=lambda choice: (choice[0] & ~held).bit_count())
    return out


def settle(refusal: Refusal, placement: Placement, acts: Sequence[tuple[int, Action | None]],
           played_before: int) -> bool:
    """Bounds from the rest of the hand, once no card can reach a seat but by a pass.

    With no stock left and no exchange from the refused step on, each card a
    seat that is passed nothing more plays from then on lies at a place it
    received; and a seat that passes nothing on and plays out its hand (as many
    cards left, with those it will be passed, as it plays) holds no card it
    does not play: every other unknown card not yet played lies elsewhere.
    Only where the refused deal's structure is exact (``trump_known``).
    Returns True if a bound changed.
    """
    st = refusal.state
    if not refusal.trump_known or st.stock:
        return False
    later = acts[refusal.index:]
    if any(type(a) is Exchange for _, a in later):
        return False
    r = st.rules
    coming = [0] * r.nseats  # the cards each seat will be passed
    givers = set()
    passes = sum(1 for _, a in later if type(a) is Give)
    if passes:
        steps = r.passing_steps
        if st.phase != PASSING or st.pass_step + passes > len(steps):
            return False
        for giver, receiver, count in steps[st.pass_step:st.pass_step + passes]:
            givers.add(st.mech.passing.role(st, giver))
            to = st.mech.passing.role(st, receiver)
            if to >= 0:
                coming[to] += count
    plays = _plays_from(later, r.nseats)
    allowed, moved = placement.allowed, refusal.moved
    gone = played_before | moved
    changed = False
    for s in range(r.nseats):
        places = refusal.received[s]
        if not coming[s]:
            for c in r.cards_of(plays[s]):
                if c in allowed and not moved >> c & 1:
                    changed |= placement.restrict(c, places)
        if s not in givers and plays[s].bit_count() == st.hands[s].bit_count() + coming[s]:
            for c in allowed:
                if not (plays[s] | gone) >> c & 1:
                    changed |= placement.restrict(c, ~places)
    return changed


def _bounds_of_hands(st: GameState, placement: Placement, refusal: Refusal,
                     played_before: int) -> tuple[list[int], list[int]]:
    """Each seat's fewest possible cards (those no placement changes) and most."""
    allowed, moved = placement.allowed, refusal.moved
    lows, highs = [], []
    for seat, hand in enumerate(st.hands):
        fixed = fixed_cards(st, hand, allowed, moved)
        places = refusal.received[seat]
        live = _live(allowed, places, played_before | moved)
        lows.append(fixed)
        highs.append(fixed | live)
    return lows, highs


def _alone(verdict: Callable[[list[int]], bool], hands: list[int], seat: int,
           lows: list[int], highs: list[int]) -> bool:
    """Does the verdict stay when every other seat holds its fewest, then its most
    possible cards? (If not, it turns on their cards too.)"""
    now = verdict(list(hands))
    for other in (lows, highs):
        trial = [h if s == seat else other[s] for s, h in enumerate(hands)]
        if verdict(trial) != now:
            return False
    return True


def _group_split(st: GameState, seat: int, action: Action, base: int, placement: Placement,
                 refusal: Refusal, played_before: int,
                 deck: Sequence[int]) -> tuple[str, list[Placement]]:
    """Cases on a smallest group of cards that makes ``action`` legal for ``seat``
    (with the other hands as they are): whole group held, or one card missing."""
    places = refusal.received[seat]
    live = _live(placement.allowed, places, played_before | refusal.moved)
    need = base | live
    if not _legal(st, seat, action, need):
        return UNSURE, []
    hand = st.hands[seat]
    for c in sorted(st.rules.cards_of(live), key=lambda c: (bool(hand >> c & 1), c)):
        if _legal(st, seat, action, need & ~(1 << c)):
            need &= ~(1 << c)
    group = st.rules.cards_of(need & live)
    where = {c: p for p, c in enumerate(deck)}
    if not group or all(places >> where[c] & 1 for c in group):
        return UNSURE, []
    return LEARNED, _split(placement, group, places)


def learn(refusal: Refusal, deck: Sequence[int], placement: Placement,
          played_before: int) -> tuple[str, list[Placement]]:
    """Learn from ``refusal`` of ``deck``: the outcome and the cases to search.

    :data:`LEARNED`: ``placement`` got a bound ``deck`` breaks (one case,
    ``placement`` itself), or the refusal splits into cases, each a copy of
    ``placement`` with more bounds, that together cover every deal (an action
    that needs one of several groups of cards). :data:`DEAD`: no placement of
    the unknown cards makes the action legal. :data:`UNSURE`: nothing exact.
    ``played_before``: the cards played before the refused step (a bit mask).
    """
    try:
        return _learn(refusal, deck, placement, played_before)
    except _Unsure:
        return UNSURE, []


def _learn(refusal: Refusal, deck: Sequence[int], placement: Placement,
           played_before: int) -> tuple[str, list[Placement]]:
    st, seat, action = refusal.state, refusal.seat, refusal.action
    if refusal.note and refusal.replay is not None:
        return _effect(refusal, placement, played_before)
    if action is None or not refusal.trump_known:
        return UNSURE, []
    if seat != st.to_act and st.rules.core_turn == refusal.rule_id:
        card = action.card if isinstance(action, (Play, Exchange)) else -1
        if card >= 0 and not st.hands[seat] >> card & 1 and card in placement.allowed \
                and not refusal.moved >> card & 1 \
                and placement.restrict(card, refusal.received[seat]):
            return LEARNED, [placement]  # first of all the seat must hold the card
        return _out_of_turn(refusal, placement, played_before)
    allowed = placement.allowed
    places = refusal.received[seat]
    moved = refusal.moved
    hand = st.hands[seat]
    where = {c: p for p, c in enumerate(deck)}
    cards_of = st.rules.cards_of
    if type(action) is Give and action.cards > 0 and action.cards & ~hand:
        # the seat must hold the cards it passes: each one it lacks lies at a place it
        # received (none, if it was played or passed on, or lies at a known place)
        broke = False
        for c in cards_of(action.cards & ~hand):
            if c not in allowed or moved >> c & 1 or played_before >> c & 1:
                return DEAD, []
            broke |= placement.restrict(c, places)
        return (LEARNED, [placement]) if broke else (DEAD, [])
    card = action.card if isinstance(action, (Play, Exchange, SayPair)) else -1
    if card >= 0 and not hand >> card & 1:
        # the seat must hold the card: it lies at a place the seat received
        if card in allowed and not moved >> card & 1 and placement.restrict(card, places):
            return LEARNED, [placement]
        return DEAD, []  # a card no placement brings to the seat (fixed, or moved elsewhere)
    if whole_hand(st, action):
        # a combination that is the whole hand (a mariannino) is legal with as many cards
        # as it has, never with more: the probes below, which add every card the seat
        # could hold, would call it impossible
        return whole_hand_cases(refusal, placement, played_before)
    fixed = fixed_cards(st, hand, allowed, moved)
    base = fixed | (1 << card if card >= 0 else 0)
    lows, highs = _bounds_of_hands(st, placement, refusal, played_before)
    if not _alone(lambda hands: _legal_hands(st, seat, action, hands), st.hands, seat,
                  lows, highs):
        # the verdict turns on other seats' cards too (an answer about a partner's
        # half): only case splits, which cover every deal, are safe
        return _group_split(st, seat, action, base, placement, refusal, played_before, deck)
    if _legal(st, seat, action, base):
        # anti-monotone: the cards whose presence alone refuses the action
        broke = False
        for c in cards_of(hand & ~base):
            if not _legal(st, seat, action, base | 1 << c):
                broke |= placement.restrict(c, ~places)
        if broke:
            return LEARNED, [placement]
        return not_all(st, seat, action, base, hand & ~base, placement, places)
    # monotone: the cards the action cannot do without
    live = _live(allowed, places, played_before | moved)
    most = base | live
    if not _legal(st, seat, action, most):
        # neither the fewest nor the most cards allow it: a hand that needs some cards
        # and must lack others, or no hand at all
        for c in cards_of(live):
            if _legal(st, seat, action, most & ~(1 << c)):
                # (a king or a queen but not both): one case with the card held and one
                # without, which together cover every deal; in each, the bounds above
                # learn the rest (held: what must be lacked; lacked: what must be held)
                if allowed[c] & places and allowed[c] & ~places:
                    return LEARNED, _split(placement, [c], places)
                return UNSURE, []
        # no one card lacked allows it, yet two may (Belote's cinquante:QH needs the
        # queen to the nine of hearts without the king and without the eight): the same
        # two cases, on one of those two cards
        lives = cards_of(live)
        for i, c in enumerate(lives):
            for d in lives[i + 1:]:
                if _legal(st, seat, action, most & ~(1 << c) & ~(1 << d)):
                    for x in (c, d):
                        if allowed[x] & places and allowed[x] & ~places:
                            return LEARNED, _split(placement, [x], places)
                    return UNSURE, []
        return DEAD, []
    broke = False
    for c in cards_of(live):
        if not _legal(st, seat, action, most & ~(1 << c)):
            broke |= placement.restrict(c, places) and not places >> where[c] & 1
    if broke:
        return LEARNED, [placement]
    # one of several groups: a smallest group that suffices, held cards kept longest
    need = most
    for c in sorted(cards_of(live), key=lambda c: (bool(hand >> c & 1), c)):
        if _legal(st, seat, action, need & ~(1 << c)):
            need &= ~(1 << c)
    group = cards_of(need & live)
    if all(places >> where[c] & 1 for c in group):
        return UNSURE, []  # the seat holds a group that suffices: not for want of cards
    return LEARNED, _split(placement, group, places)
