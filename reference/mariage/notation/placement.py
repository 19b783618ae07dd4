"""The model of a deal search: where each unknown card may lie, and what a replay refused.

A partial record fixes the *structure* of a hand once the turned-up card is
fixed: the actions are known, so who wins each trick, who draws which place of
the stock and who takes the turned-up card do not depend on where the unknown
cards lie. What each seat holds at a moment is then the cards at a known set
of deck places (the places dealt, drawn or taken by it so far), plus the cards
known actions moved to it (passed or exchanged cards).

This module holds that model, without the search that uses it
(:mod:`mariage.notation.deduce`):

- :class:`Placement`: for each unknown card, the places it may take (a bit
  mask), and the deck nearest a tried one that respects them all, found by a
  bipartite matching of cards to places;
- :func:`replay_tracked`: replays one deck and returns the first step refused
  (:class:`Refusal`) with the places each seat had received by then: by the
  rules (the rule ID), or for a reason of the search (:data:`NOTE`,
  :data:`EFFECT`, :data:`DECIDE`, :data:`GIVE`);
- :func:`effect_of`: what a step left besides the cards, to compare two deals;
- :func:`unseen_give`: a concrete choice of the cards passed unseen
  (``give:?``) for the deal being tried.

Seat 1 is dealt places 5 to 9 of a deck in order; its play of a card from
place 39 is refused (seats 0 and 1 hold the first ten cards):

>>> from mariage import load_rules, GameState, Play
>>> st = GameState(load_rules("marianna"), first_dealer=3)
>>> refusal = replay_tracked(st, list(range(40)), None, [(0, Play(0)), (1, Play(39))], None)
>>> refusal.index, refusal.seat, refusal.rule_id, bin(refusal.received[1])
(1, 1, 'core.hand', '0b1111100000')
>>> Placement({0: 0b01, 1: 0b11}).match([1, 0])  # card 0 may lie at place 0 only
[0, 1]
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from mariage.engine.actions import Action, Answer, Exchange, Give, Play, played_card
from mariage.engine.phase import PASSING
from mariage.engine.state import GameState, expect_state, seat_number

from ..errors import IllegalActionError, shown

__all__ = ["DECIDE", "EFFECT", "GIVE", "NOTE", "Placement", "Refusal", "Swapped",
           "effect_of", "made", "plays_in", "pop_made", "replay_tracked", "unseen_give"]

#: Decks not made yet: the deck ``base`` with the cards at places ``pairs[2k]`` and
#: ``pairs[2k + 1]`` exchanged, for each ``k`` from ``first`` on. The exchanges a refused
#: replay gives (dozens) come one after another in a search's order, so they wait on its
#: heap as one entry (the next of them), not one deck each.
Swapped = tuple[tuple[int, ...], tuple[int, ...], int]
_Entry = TypeVar("_Entry", bound=tuple[Any, ...])


def made(deck: list[int] | Swapped) -> list[int]:
    """The deck ``deck`` stands for: a list is itself, :data:`Swapped` its first deck.

    >>> made(((7, 8, 9), (0, 2, 0, 1), 0)), made(((7, 8, 9), (0, 2, 0, 1), 1)), made([1, 2])
    ([9, 8, 7], [8, 7, 9], [1, 2])
    """
    if isinstance(deck, list):
        return deck
    base, pairs, k = deck
    out = list(base)
    i, j = pairs[2 * k], pairs[2 * k + 1]
    out[i], out[j] = out[j], out[i]
    return out


def pop_made(heap: list[_Entry], at: int) -> tuple[_Entry, list[int]]:
    """Pop the first entry of ``heap``, whose item ``at`` is a deck or :data:`Swapped`
    (and item ``at - 1`` its order number); the decks it stands for but its first go
    back on the heap as one entry, with the next order number. The entry and its deck.

    >>> heap = [(0, 5, ((7, 8, 9), (0, 2, 0, 1), 0))]
    >>> pop_made(heap, 2)[1], heap
    ([9, 8, 7], [(0, 6, ((7, 8, 9), (0, 2, 0, 1), 1))])
    >>> pop_made(heap, 2)[1], heap
    ([8, 7, 9], [])
    """
    entry = heapq.heappop(heap)
    deck = entry[at]
    if not isinstance(deck, list) and 2 * deck[2] + 2 < len(deck[1]):
        rest = (deck[0], deck[1], deck[2] + 1)
        heapq.heappush(heap, cast(_Entry, (*entry[:at - 1], entry[at - 1] + 1, rest,
                                           *entry[at + 1:])))
    return entry, made(deck)


class Placement:
    """The places (deck positions, a bit mask) each unknown card may take.

    >>> p = Placement({7: 0b011, 9: 0b111, 4: 0b110})
    >>> p.restrict(9, 0b100)
    True
    >>> p.match([7, 9, 4])
    [7, 4, 9]
    >>> p.restrict(4, 0b001)
    True
    >>> p.match([7, 4, 9]) is None
    True
    """

    __slots__ = ("allowed",)

    def __init__(self, allowed: dict[int, int]) -> None:
        self.allowed = allowed

    def restrict(self, card: int, places: int) -> bool:
        """Keep only ``places`` for ``card``; True if that removed a place."""
        old = self.allowed[card]
        new = old & places
        self.allowed[card] = new
        return new != old

    def fits(self, deck: Sequence[int]) -> bool:
        """Does every unknown card of ``deck`` lie at a place it may take?"""
        allowed = self.allowed
        return all(allowed[c] >> p & 1 for p, c in enumerate(deck) if c in allowed)

    def match(self, deck: Sequence[int]) -> list[int] | None:
        """The deck nearest ``deck`` that respects every bound, or None if none does.

        Cards already at an allowed place stay; the others are placed by
        augmenting paths (lowest place first), so the answer is deterministic.
        """
        allowed = self.allowed
        at: dict[int, int] = {}  # place -> card
        loose: list[int] = []
        for p, c in enumerate(deck):
            if c in allowed:
                if allowed[c] >> p & 1:
                    at[p] = c
                else:
                    loose.append(c)
        empty = [p for p, c in enumerate(deck) if c in allowed and p not in at]

        def augment(card: int, seen: set[int]) -> bool:
            m = allowed[card]
            while m:
                low = m & -m
                m ^= low
                p = low.bit_length() - 1
                if p in seen:
                    continue
                seen.add(p)
                if p not in at or augment(at[p], seen):
                    at[p] = card
                    return True
            return False

        for c in loose:
            direct = next((p for p in empty if p not in at and allowed[c] >> p & 1), None)
            if direct is not None:
                at[direct] = c
            elif not augment(c, set()):
                return None
        out = list(deck)
        for p, c in at.items():
            out[p] = c
        return out


class Refusal:
    """What a replay of one deck learned: the refused step and the places seats held.

    ``index``: the refused step (``len(acts)`` for an annotation after the
    last step is not used: annotations are reported with ``note=True``);
    ``received[s]``: the deck places that reached seat ``s`` before the step;
    ``moved``: cards moved by known actions (passed, exchanged) before it;
    ``trump_known``: False once an action set the trump without naming its suit,
    or answered a question without naming one (whether an answer "yes" makes a
    trump depends on the cards): then the trump, so the duties and who won each
    trick, may differ in another deal, and nothing exact is learned; False
    too once unseen cards were passed as chosen from the deal tried.
    """

    __slots__ = (
        "action",
        "check",
        "effect",
        "fixed_effect",
        "index",
        "moved",
        "note",
        "received",
        "replay",
        "rule_id",
        "seat",
        "state",
        "trump_before",
        "trump_known",
    )

    def __init__(self, index: int, seat: int, action: Action | None, state: GameState,
                 rule_id: str, note: bool, received: list[int], moved: int,
                 trump_known: bool = True) -> None:
        self.index = index
        self.seat = seat
        self.action = action
        self.state = state
        self.rule_id = rule_id
        self.note = note
        self.received = received
        self.moved = moved
        self.trump_known = trump_known
        self.check: object = None  # the annotation check, for a refused annotation
        self.trump_before = state.trump  # the trump before the step (set for annotations)
        # the step set the trump from the turned-up card, the same in every deal tried
        self.fixed_effect = False
        # for a step decided during a replay: the effect it had (``state`` went on)
        self.effect: tuple[object, ...] | None = None
        # (start, deck, first, acts, k): what rebuilds the state before step k, on demand
        self.replay: tuple[GameState, list[int], int | None,
                           Sequence[tuple[int, Action | None]], int] | None = None

    @property
    def previous(self) -> tuple[GameState, int, Action] | None:
        """The state before the last step that counts here, that step's seat and action
        (None at the first step). Rebuilt by replaying when asked: most refusals never
        need it, and copying the state at every step would double a replay's cost."""
        if self.replay is None:
            return None
        start, deck, first, acts, k = self.replay
        st = start.clone()
        st.deal(deck, first)
        for seat, a in acts[:k]:
            assert a is not None
            st.apply(a, seat)
        seat, action = acts[k]
        assert action is not None
        return st, seat, action


#: Refusals that are not the rules': an annotation the replay contradicts, an
#: effect other than the case expects, a step whose effect the case must decide,
#: and cards passed unseen (``give:?``) that the case must choose.
NOTE, EFFECT, DECIDE, GIVE = "annotation", "effect", "decide", "give"

#: State fields that hold cards or the record of play: never part of an effect.
_NOT_EFFECT = frozenset({"hands", "known", "stock", "aside", "actions", "history", "tricks",
                         "trick_cards", "trick_seats", "rules", "mech", "deal_source"})


def effect_of(st: GameState) -> tuple[object, ...]:
    """What a step left in ``st`` besides the cards: every other field, as a value.

    Two deals whose replays agree on it after an answer that names no suit
    go on alike (the same trump, the same credits).
    """
    names = _EFFECT_FIELDS.get(type(st))
    if names is None:
        names = _EFFECT_FIELDS[type(st)] = tuple(
            name for name in type(st).__slots__
            if not name.startswith("_") and name not in _NOT_EFFECT)
    out: list[object] = []
    for name in names:
        value = getattr(st, name)
        if type(value) is list:
            value = tuple(tuple(v) if type(v) is list else v for v in value)
        out.append(value)
    return tuple(out)


#: The fields :func:`effect_of` reads, by state class (found once).
_EFFECT_FIELDS: dict[type, tuple[str, ...]] = {}


def _expecting(want: tuple[object, ...]) -> Callable[[GameState, int, bool], bool]:
    """A check, like an annotation's, that a step left the effect ``want``."""
    return lambda probe, _index, _trick_done: effect_of(probe) == want


def _effect_depends_on_cards(a: Action, trump_before: int, st: GameState,
                             turnup: int | None = None) -> bool:
    """An answer that names no suit (or a step that set the trump without naming it):
    whether and what it settles depends on the cards. ``turnup``: the turned-up
    card before the step where it is the same in every deal tried; a step that
    made its suit trump ("take" in Belote's first round) settled nothing that the
    hidden cards decide."""
    if getattr(a, "suit", 0) >= 0:
        return False
    if type(a) is Answer:
        return True
    return st.trump != trump_before and not _set_by_turnup(st, trump_before, turnup)


def plays_in(acts: Sequence[tuple[int, Action | None]]) -> list[tuple[int, int]]:
    """The seat and card of each action of ``acts`` that plays a card
    (:func:`~mariage.engine.actions.played_card`), in order: what :func:`unseen_give`
    reads of the rest of a hand.

    >>> from mariage.engine.actions import Pass, Play, SayPair
    >>> plays_in([(0, Play(3)), (1, Pass()), (1, SayPair(9)), (0, None)])
    [(0, 3), (1, 9)]
    """
    return [(s, c) for s, a in acts if a is not None and (c := played_card(a)) >= 0]


def _set_by_turnup(st: GameState, trump_before: int, turnup: int | None) -> bool:
    """Did the last step make the suit of ``turnup`` (the turned-up card before it, or
    None) trump, where it was not?"""
    return turnup is not None and st.trump != trump_before \
        and st.trump == st.rules.suit_of[turnup]


def _chosen(acts: Sequence[tuple[int, Action | None]], chosen: dict[int, Action]
            ) -> Sequence[tuple[int, Action | None]]:
    """``acts`` with each unseen pass (``give:?``) replaced by the cards a replay chose
    for it (``chosen``: step index to action), for :attr:`Refusal.previous` to replay
    the same steps (a ``give:?`` as written is refused)."""
    if not chosen:
        return acts
    return [(seat, chosen.get(i, a)) for i, (seat, a) in enumerate(acts)]


def unseen_give(st: GameState, seat: int, later: Sequence[tuple[int, int]]) -> Action:
    """A concrete choice for ``give:?`` by ``seat``: the cards the rest of the hand needs.

    A view hides the cards passed between two other players. The receiver must
    have been given the cards he plays later (``later``: seat and card of each
    later play) and does not hold now; the rest are cards the giver does not
    play later. If the deal being tried cannot fit, a later play is refused
    and the search tries another deal.
    """
    r = st.rules
    if st.phase != PASSING or seat != st.to_act:
        return Give(-1)  # refused as it stands
    giver, receiver, count = st.mech.passing.seats(st)
    played = [0] * r.nseats
    for s, c in later:
        played[s] |= 1 << c
    held = st.hands[giver]
    needed = played[receiver] & held if receiver >= 0 else 0
    chosen = r.cards_of(needed)[:count]
    for c in r.cards_of(held & ~played[giver] & ~needed) + r.cards_of(held & played[giver]):
        if len(chosen) >= count:
            break
        if c not in chosen:
            chosen.append(c)
    return Give(sum(1 << c for c in chosen))


def _force_card(st: GameState, seat: int, card: int, place: dict[int, int],
                acts: Sequence[tuple[int, Action | None]], index: int, movable: int) -> bool:
    """Exchange ``card`` (in another hand or the stock) with an unknown card of
    ``seat``'s hand, one the seat does not play later if it has one, and their deck
    places in ``place``; False where the card is elsewhere (played, turned up, laid
    away) or either is a card of a known place (``movable``: the unknown cards)."""
    hands = st.hands
    if card == st.turn_up or not movable >> card & 1:
        return False
    src, at = -1, -1
    for s, h in enumerate(hands):
        if h >> card & 1:
            src = s
    if src < 0:
        if card not in st.stock:
            return False
        at = st.stock.index(card)
    later = 0
    for s, c in plays_in(acts[index + 1:]):
        if s == seat:
            later |= 1 << c
    mine = hands[seat] & movable & ~later or hands[seat] & movable
    if not mine:
        return False
    other = (mine & -mine).bit_length() - 1
    both = 1 << other | 1 << card
    hands[seat] ^= both
    if src >= 0:
        hands[src] ^= both
    else:
        st.stock[at] = other
    place[other], place[card] = place[card], place[other]
    return True


def replay_tracked(start: GameState, deck: list[int], first: int | None,
                   acts: Sequence[tuple[int, Action | None]], verify: object,
                   expect: dict[int, tuple[object, ...]] | None = None,
                   gives: dict[int, int] | None = None,
                   turnup_fixed: bool = False,
                   collect: list[tuple[int, int]] | None = None,
                   movable: int = 0,
                   decided: list[Refusal] | None = None,
                   forced: list[int] | None = None) -> Refusal | None:
    """Replay ``deck`` and ``acts``; the first refusal, with the places each seat received.

    ``verify`` is the annotation check of :func:`mariage.notation.search.complete_deal`
    (or None). ``expect``: the effect (:func:`effect_of`) the case expects after
    each step whose effect depends on the cards; with it, such a step that is
    not in ``expect`` is a :data:`DECIDE` refusal and one whose effect differs
    an :data:`EFFECT` refusal, and the trump stays known. ``gives``: the cards
    the case passes at each unseen pass (``give:?``, step index to a card
    mask); an unseen pass not in it is a :data:`GIVE` refusal. Without
    ``gives``, the cards of every unseen pass are chosen from the deal
    (:func:`unseen_give`) and nothing exact is learned after it.
    ``turnup_fixed``: every deal the caller tries has the same turned-up card, so
    a step that makes its suit trump depends on no hidden card.
    ``collect``: a list that receives a bound for each card a seat plays without
    holding it, while the trump is known and cards are still drawn from a stock
    (once none are, the bounds from the rest of the hand,
    :func:`mariage.notation.deduce.settle`, place more at once):
    ``(card, places)``, the places the
    seat had received by then (where a stock is drawn from, which seat draws
    which place follows from the tricks alone, so these places are the same in
    every deal that fits). The replay then goes on with the card exchanged into
    the seat's hand (:func:`_force_card`; ``movable``: the cards of unknown places,
    the only ones exchanged), collecting more, until another kind of
    refusal, which it then returns without meaning: once ``collect`` is not
    empty, only the bounds in it count. ``decided``: with ``expect``, a list that
    receives, instead of a :data:`DECIDE` refusal, each step whose effect the case
    had not decided (as such a refusal, with the ``effect`` it had; its ``state``
    is the replay's, which goes on), while the replay goes on
    expecting the effect this deck gave (the caller makes the other effects cases
    of their own); not once ``collect`` has a bound. ``forced``: a list that receives
    ``deck`` with the cards exchanged in (once ``collect`` has a bound). Returns None
    when every action is legal (or a resignation ends the record early).
    """
    st = expect_state(start, "replay_tracked").clone()
    if not isinstance(deck, list) or not all(type(c) is int for c in deck):
        raise TypeError(f"replay_tracked: deck is a list of card numbers, not {shown(deck)}")
    if first is not None:
        seat_number(first, st.rules.nseats, "replay_tracked: first")
    if not isinstance(acts, Sequence) or isinstance(acts, str):
        raise TypeError(f"replay_tracked: acts is a sequence of (seat, action) pairs, not "
                        f"{type(acts).__name__}")
    st.deal(deck, first)
    n = len(st.hands)
    place = {c: i for i, c in enumerate(deck)}
    received = [0] * n
    for s in range(n):
        for c in st.rules.cards_of(st.hands[s]):
            received[s] |= 1 << place[c]
    moved = 0
    trump_known = True
    chosen: dict[int, Action] = {}  # the cards chosen for each unseen pass, for a replay
    check = verify if callable(verify) else None
    if check is not None and not check(st, 0, False):
        seat = st.to_act if st.to_act is not None else st.leader
        return Refusal(0, seat, None, st, NOTE, True, received, moved)
    phase_deal, phase_over = type(st.phase).DEAL, type(st.phase).OVER
    for i, pair in enumerate(acts):
        try:
            seat, a = pair
        except (TypeError, ValueError):  # else Python's words on unpacking, naming no call
            raise TypeError(f"replay_tracked: acts[{i}] is a (seat, action) pair, not "
                            f"{shown(pair)}") from None
        if a is None:
            return None
        if st.phase == phase_deal or st.phase == phase_over:
            return Refusal(i, seat, a, st, NOTE, True, received, moved, trump_known)
        if type(a) is Give and a.cards < 0:  # cards passed unseen by the writer
            if gives is None:
                a = unseen_give(st, seat, plays_in(acts[i + 1:]))
                trump_known = False  # what was passed depends on the deal tried
            elif i in gives:
                a = Give(gives[i])
            elif st.phase == PASSING and seat == st.to_act:
                return Refusal(i, seat, a, st, GIVE, False, received, moved, trump_known)
            chosen[i] = a
        before = list(st.hands)
        ntricks = len(st.tricks)
        trump, turned = st.trump, st.turn_up if turnup_fixed else None
        try:
            st.apply(a, seat)
        except IllegalActionError as exc:
            if collect is None or not trump_known or not st.stock or type(a) is not Play \
                    or exc.rule_id != st.rules.core_hand or moved >> a.card & 1 \
                    or not _force_card(st, seat, a.card, place, acts, i, movable):
                refusal = Refusal(i, seat, a, st, exc.rule_id, False, received, moved,
                                  trump_known)
                if i > 0:  # the step before this one
                    refusal.replay = (start, deck, first, _chosen(acts, chosen), i - 1)
                return refusal
            # the seat must hold the card: it lies at a place the seat received; the
            # replay goes on with the card exchanged in, for the places alone
            collect.append((a.card, received[seat]))
            if forced is not None:
                forced[:] = [0] * len(deck)
                for c, p in place.items():
                    forced[p] = c
            before = list(st.hands)
            try:
                st.apply(a, seat)
            except Exception:  # a state no deal gives: stop collecting
                return None
        except Exception:
            if collect:  # a state no deal gives (cards exchanged in): stop collecting
                return None
            raise
        if _effect_depends_on_cards(a, trump, st, turned):
            if expect is None:
                trump_known = False  # whether and which trump it sets may depend on the cards
            elif i not in expect and decided is not None and not collect:
                # decided on the way: this deck's effect, the others as cases of their own
                step = Refusal(i, seat, a, st, DECIDE, True, list(received), moved,
                               trump_known)
                step.replay = (start, deck, first, _chosen(acts, chosen), i)
                step.effect = effect_of(st)
                decided.append(step)
            elif expect.get(i) != effect_of(st):
                kind = EFFECT if i in expect else DECIDE
                refusal = Refusal(i, seat, a, st, kind, True, received, moved, trump_known)
                refusal.replay = (start, deck, first, _chosen(acts, chosen), i)
                if kind == EFFECT:
                    refusal.check = _expecting(expect[i])
                return refusal
        if type(a) is Give:
            moved |= a.cards
        elif type(a) is Exchange:
            moved |= 1 << a.card
        for s in range(n):
            new = st.hands[s] & ~before[s] & ~moved
            while new:
                low = new & -new
                new ^= low
                received[s] |= 1 << place[low.bit_length() - 1]
        if check is not None and not check(st, i + 1, len(st.tricks) > ntricks):
            # the state before the step: to probe what the cards decided in it
            refusal = Refusal(i, seat, a, st, NOTE, True, received, moved, trump_known)
            refusal.replay = (start, deck, first, _chosen(acts, chosen), i)
            refusal.trump_before = trump
            refusal.fixed_effect = _set_by_turnup(st, trump, turned)
            refusal.check = check
            return refusal
    return None
