"""Probing a refused action with other hands, for the deal search (:mod:`.deduce`).

A probe replays the refused action on a copy of the state with the seat (or every
seat) holding other cards (:func:`_legal`). :func:`~.deduce.learn` probes with the
seat's known cards plus one card, or with every card the seat may hold. Two kinds
of action escape those probes; the bounds for them are learned here:

- a combination that must be the whole hand (Marianna's mariannino: four queens
  and a king, the five cards held): legal with as many cards as it has, never
  with more, so every card the seat may hold refuses it. :func:`whole_hand_cases`
  takes each hand the combination may be as a case of its own;
- an action no one card refuses but several do (a hand worth too many points to
  throw in): :func:`not_all` finds a smallest such set, which the seat does not
  hold whole: one case per card of it, that card elsewhere and those before it held.

Each returns the outcome and the cases, which together cover every deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

from mariage.engine.actions import Action, Declare
from mariage.engine.state import GameState

from ..errors import IllegalActionError
from .placement import Placement, Refusal

__all__ = ["DEAD", "LEARNED", "UNSURE", "WHOLE_HAND_PROBES", "fixed_cards", "not_all",
           "whole_hand", "whole_hand_cases", "whole_hands"]

#: What a refusal teaches: a bound (or cases), that no deal fits, or nothing exact.
LEARNED, DEAD, UNSURE = "learned", "dead", "unsure"


class _Unsure(Exception):
    """A probe failed otherwise than by refusing the action: learn nothing from it."""


def _live(allowed: dict[int, int], places: int, gone: int) -> int:
    """The unknown cards that may lie at one of ``places``, but for those ``gone``
    (played or moved by then): the most a seat with those places may hold."""
    live = 0
    for c, m in allowed.items():
        if m & places and not gone >> c & 1:
            live |= 1 << c
    return live


def fixed_cards(st: GameState, hand: int, allowed: dict[int, int], moved: int) -> int:
    """The cards of ``hand`` that no placement changes (known places, or moved there)."""
    fixed = 0
    for c in st.rules.cards_of(hand):
        if c not in allowed or moved >> c & 1:
            fixed |= 1 << c
    return fixed


def _legal_hands(st: GameState, seat: int, action: Action, hands: list[int]) -> bool:
    """Would ``action`` be legal for ``seat`` with every hand as in ``hands``?"""
    return _legal_steps(st, hands, ((seat, action),))


def _legal_steps(st: GameState, hands: list[int],
                 steps: Sequence[tuple[int, Action]]) -> bool:
    """From ``st`` with every hand as in ``hands``, is each of ``steps`` (seat, action)
    legal in turn? A probe that fails otherwise than by a refusal raises ``_Unsure``."""
    probe = st.clone()
    probe.hands[:] = hands
    try:
        for seat, action in steps:
            probe.apply(action, seat)
    except IllegalActionError:
        return False
    except Exception as exc:
        raise _Unsure from exc
    return True


def _legal(st: GameState, seat: int, action: Action, hand: int) -> bool:
    """Would ``action`` be legal for ``seat`` holding ``hand`` instead (all else equal)?"""
    hands = list(st.hands)
    hands[seat] = hand
    return _legal_hands(st, seat, action, hands)




def _split(placement: Placement, group: list[int], places: int) -> list[Placement]:
    """The cases of "the seat holds all of ``group``" (first) or "its k-th card is
    missing, the ones before it held": together they cover every deal."""
    cases = []
    whole = Placement(dict(placement.allowed))
    for c in group:
        whole.restrict(c, places)
    cases.append(whole)
    for k, c in enumerate(group):
        case = Placement(dict(placement.allowed))
        for d in group[:k]:
            case.restrict(d, places)
        case.restrict(c, ~places)
        cases.append(case)
    return cases


def whole_hand(st: GameState, action: Action) -> bool:
    """Is ``action`` the declaration of a combination that must be the whole hand?"""
    decls = st.rules.declarations
    index = action.decl if isinstance(action, Declare) else -1
    return 0 <= index < len(decls) and decls[index].whole_hand


#: The most hands :func:`whole_hand_cases` probes (past it: nothing exact).
WHOLE_HAND_PROBES = 20_000


def whole_hand_cases(refusal: Refusal, placement: Placement,
                      played_before: int) -> tuple[str, list[Placement]]:
    """A declaration of the whole hand refused: one case per hand of the seat's size
    (its fixed cards and unknown cards it may hold) that makes it legal, each with
    that hand's unknown cards at the seat's places; together they cover every deal.
    Dead where no such hand is legal; nothing exact where the hands are too many or a
    case would bound nothing (the search would meet the same deck again)."""
    st, seat, action = refusal.state, refusal.seat, refusal.action
    assert isinstance(action, Declare)
    hand = st.hands[seat]
    allowed, moved, places = placement.allowed, refusal.moved, refusal.received[seat]
    if _legal(st, seat, action, hand):
        return UNSURE, []  # refused for another reason than the cards
    fixed = fixed_cards(st, hand, allowed, moved)
    live = _live(allowed, places, played_before | moved) & ~fixed
    hands = whole_hands(st, action, fixed, live, hand.bit_count())
    if hands is None:
        return UNSURE, []
    cases = []
    for trial in hands:
        if _legal(st, seat, action, trial):
            case = Placement(dict(allowed))
            if not any([case.restrict(c, places) for c in st.rules.cards_of(trial & live)]):
                return UNSURE, []
            cases.append(case)
    return (LEARNED, cases) if cases else (DEAD, [])


def whole_hands(st: GameState, action: Declare, fixed: int, live: int,
                 size: int) -> list[int] | None:
    """The hands of ``size`` cards, ``fixed`` ones and others from ``live``, that may
    make the whole-hand declaration ``action``: where the combination's groups (so
    many cards of each rank) make the whole hand, the picks from each group; else every
    hand of that size (None: too many to probe)."""
    decl = st.rules.declarations[action.decl]
    cards_of = st.rules.cards_of
    groups = decl.rank_counts
    every = 0
    for mask, _ in groups:
        every |= mask
    if sum(n for _, n in groups) == size and sum(m.bit_count() for m, _ in groups) \
            == every.bit_count() and not fixed & ~every:
        out = [0]
        for mask, n in groups:
            picks = [sum(1 << c for c in combo)
                     for combo in combinations(cards_of((fixed | live) & mask), n)]
            out = [h | p for h in out for p in picks if (p & fixed) == (fixed & mask)]
            if len(out) > WHOLE_HAND_PROBES:
                return None
        return out
    pool = cards_of(live)
    free = size - fixed.bit_count()
    if free < 0 or free > len(pool):
        return []
    if comb(len(pool), free) > WHOLE_HAND_PROBES:
        return None
    return [fixed | sum(1 << c for c in combo) for combo in combinations(pool, free)]


def not_all(st: GameState, seat: int, action: Action, base: int, unknown: int,
             placement: Placement, places: int) -> tuple[str, list[Placement]]:
    """An action no one card refuses but several together do (a hand worth too many
    points to throw in): a smallest set of the seat's unknown cards that refuses it; the
    seat holds not all of them, so one case per card of the set, that card elsewhere and
    the ones before it held, which together cover every deal."""
    group = unknown
    for c in st.rules.cards_of(unknown):
        if not _legal(st, seat, action, base | (group & ~(1 << c))):
            group &= ~(1 << c)  # refused without it too
    cards = st.rules.cards_of(group)
    if len(cards) < 2 or _legal(st, seat, action, base | group):
        return UNSURE, []
    return LEARNED, _split(placement, cards, places)[1:]  # all held: refused
