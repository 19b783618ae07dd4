"""The cases of other turned-up cards that a refused action rules out at once.

The deal search (:mod:`mariage.notation.search`) keeps one case per card that may be
turned up. Where a window the acting seat's own cards open (an opponent's exchange after
a close) stays shut for the replay's turned-up card whatever the seats hold, it often
stays shut for the other cards of that suit too: :func:`turned_up_alike` finds those,
each by one probe, so that their cases end without a replay each.
"""

from __future__ import annotations

from mariage.engine.actions import Action, played_card
from mariage.engine.state import GameState

from ..errors import IllegalActionError
from .deduce import fixed_cards
from .placement import Placement, Refusal

__all__ = ["TURNED_UP_ALIKE", "turned_up_alike"]


#: Rule out at once the cases of every turned-up card for which a window the acting
#: seat's own cards open stays shut whatever the seats hold (False: each such case
#: costs a replay, as before issue #28's eighth round; for the benchmark's comparison).
TURNED_UP_ALIKE = True


def turned_up_alike(refusal: Refusal, placement: Placement, played_before: int,
                    candidates: int) -> int:
    """The cards of ``candidates`` (each one the turned-up card of other cases) that,
    turned up instead of the replay's own, leave the refused action refused whatever
    each seat holds: the cases of those cards need no replay.

    For an action out of turn that plays no card (a window the seat's own cards open:
    holding more cards never shuts it), after a step that brought no card to a hand,
    in a game where the turned-up card does not score. Each candidate changes places
    with the replay's turned-up card in the state before the last step; the action
    stays refused, with that step legal, when the acting seat holds every card that
    may lie with it in any case (every unknown card not played, its own known cards),
    and the other seats hold their known cards, the replay's cards, and every unknown
    card. A candidate played or moved before the step is never given (the cases
    differ before it)."""
    st, action, seat = refusal.state, refusal.action, refusal.seat
    previous = refusal.previous
    if action is None or played_card(action) >= 0 or previous is None \
            or st.rules.turn_up_bonus or seat == st.to_act or not TURNED_UP_ALIKE:
        return 0
    before, last_seat, last = previous
    turned = before.turn_up
    if turned is None or any(now & ~then for now, then in zip(st.hands, before.hands,
                                                                 strict=True)):
        return 0
    allowed, moved = placement.allowed, refusal.moved
    gone = played_before | refusal.moved
    unknown = 0
    for c in allowed:
        if not gone >> c & 1:
            unknown |= 1 << c
    unknown |= 1 << turned
    alike = 0
    for t in before.rules.cards_of(candidates & ~gone & ~(1 << turned)):
        probe = _turned_up_as(before, turned, t)
        lows = [fixed_cards(probe, h, allowed, moved) & ~(1 << t) for h in probe.hands]
        most = (lows[seat] | unknown) & ~(1 << t)
        trials = []
        for others in (probe.hands, lows, [low | (unknown & ~(1 << t)) for low in lows]):
            hands = list(others)
            hands[seat] = most
            trials.append(hands)
        if all(_refused_after(probe, hands, last_seat, last, seat, action)
               for hands in trials):
            alike |= 1 << t
    return alike


def _turned_up_as(st: GameState, turned: int, card: int) -> GameState:
    """A copy of ``st`` where ``card`` (not played) is the turned-up card and the
    turned-up card ``turned`` lies where ``card`` lay."""
    probe = st.clone()
    pair = 1 << turned | 1 << card
    for masks in (probe.hands, probe.known):
        for s, m in enumerate(masks):
            if m & pair and (m & pair) != pair:
                masks[s] = m ^ pair
    swap = {turned: card, card: turned}
    probe.stock[:] = [swap.get(c, c) for c in probe.stock]
    probe.aside[:] = [swap.get(c, c) for c in probe.aside]
    probe.turn_up = card
    return probe


def _refused_after(before: GameState, hands: list[int], last_seat: int, last: Action,
                   seat: int, action: Action) -> bool:
    """From ``before`` with ``hands``, is ``last`` (by ``last_seat``) legal and then
    ``action`` (by ``seat``) refused? (A probe that fails otherwise: no.)"""
    probe = before.clone()
    probe.hands[:] = hands
    try:
        probe.apply(last, last_seat)
    except Exception:
        return False
    try:
        probe.apply(action, seat)
    except IllegalActionError:
        return True
    except Exception:
        return False
    return False
