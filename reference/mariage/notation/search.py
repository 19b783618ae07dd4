"""Completing a partial deal: find the unknown cards' places so every action is legal.

A record written by one seat shows ``??`` for cards that seat could not see.
Such a record is valid when at least one full deal is consistent with it.
The search fills the unknown places, replays the hand, and, where an action
is refused, repairs the deal by exchanging two unknown cards that are both
still unplayed at that moment (so every earlier action keeps its cards):

- a seat plays (or exchanges) an unknown card it does not hold: that card
  changes places with each unknown card the seat holds, in turn;
- any other refusal depends on the content of the acting seat's hand: one of
  its unknown cards changes places with an unknown card held elsewhere.

Depth-first with a memory of tried deals, up to ``limit`` replays. The first
fill puts each unknown card where the seat that first plays it can hold it.

>>> from mariage import load_rules, GameState, Play
>>> rules = load_rules("marianna")
>>> st = GameState(rules, first_dealer=3)
>>> deck = list(range(40))
>>> partial = [c if 5 > i else -1 for i, c in enumerate(deck)]   # only N's cards known
>>> acts = [(0, Play(0)), (1, Play(7)), (2, Play(12)), (3, Play(30))]
>>> found, tries = complete_deal(st, partial, [-1] * 40, None, acts)
>>> found is not None and found[:5] == deck[:5]
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Declare, Exchange, Play
from ..errors import IllegalActionError
from ..state import GameState, Phase

__all__ = ["DEFAULT_LIMIT", "complete_deal"]

#: The default number of replays before the search gives up.
DEFAULT_LIMIT = 5000

Step = tuple[int, Action | None]  # (seat, action); None: a resignation


def _first_use(acts: Sequence[Step]) -> dict[int, int]:
    """For each card played or exchanged, the seat that first does it."""
    out: dict[int, int] = {}
    for seat, a in acts:
        if isinstance(a, (Play, Exchange)) and a.card not in out:
            out[a.card] = seat
    return out


def _initial_fill(slots: Sequence[int], owner: Sequence[int], ncards: int,
                  acts: Sequence[Step]) -> list[int]:
    known = {c for c in slots if c >= 0}
    missing = [c for c in range(ncards) if c not in known]
    use = _first_use(acts)
    order = {c: i for i, (_, a) in enumerate(acts)
             if isinstance(a, (Play, Exchange)) for c in [a.card]}
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


def _attempt(start: GameState, deck: list[int], first: int | None,
             acts: Sequence[Step]) -> tuple[int, Action, GameState, str] | None:
    st = start.clone()
    st.deal(deck, first)
    for seat, a in acts:
        if st.phase in (Phase.DEAL, Phase.OVER) or a is None:
            return None
        try:
            st.apply(a, seat)
        except IllegalActionError as exc:
            return seat, a, st, exc.rule_id
    return None


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _repairs(unknown: set[int], seat: int, action: Action, st: GameState) -> list[tuple[int, int]]:
    hand = st.hands[seat]
    mine = [y for y in _cards(hand) if y in unknown]
    live = 0
    for h in st.hands:
        live |= h
    for c in st.stock:
        live |= 1 << c
    if isinstance(action, (Play, Exchange)) and not hand >> action.card & 1:
        c = action.card
        if c in unknown and live >> c & 1:
            return [(c, y) for y in mine]
        return []
    elsewhere = [z for z in _cards(live & ~hand) if z in unknown]
    if isinstance(action, Declare):  # cards of the declared suit first
        suit_of = st.rules.suit_of
        elsewhere.sort(key=lambda z: suit_of[z] != action.suit)
    return [(y, z) for y in mine for z in elsewhere]


def complete_deal(start: GameState, slots: Sequence[int], owner: Sequence[int],
                  first: int | None, acts: Sequence[Step], limit: int = DEFAULT_LIMIT
                  ) -> tuple[list[int] | None, int]:
    """A full deck consistent with ``slots`` (``-1`` unknown) and ``acts``, and the tries used.

    ``start`` is the match state waiting for this deal (it is not changed).
    Returns ``(None, tries)``: no consistent deal (``tries < limit``) or the
    search gave up (``tries >= limit``).
    """
    n = start.rules.ncards
    known = {c for c in slots if c >= 0}
    unknown = {c for c in range(n) if c not in known}
    stack = [_initial_fill(slots, owner, n, acts)]
    seen: set[tuple[int, ...]] = set()
    tries = 0
    while stack and tries < limit:
        deck = stack.pop()
        key = tuple(deck)
        if key in seen:
            continue
        seen.add(key)
        tries += 1
        failure = _attempt(start, deck, first, acts)
        if failure is None:
            return deck, tries
        seat, action, st, rule_id = failure
        r = st.rules
        if rule_id in (r.core_turn, r.core_phase, r.core_over):
            continue  # no place of any card makes this action legal
        pos = {c: i for i, c in enumerate(deck)}
        children = []
        for a, b in _repairs(unknown, seat, action, st):
            child = list(deck)
            child[pos[a]], child[pos[b]] = b, a
            children.append(child)
        stack.extend(reversed(children))
    return None, tries
