"""The turned-up card written ``??`` where it is the dealer's last card: the decks a
record's replay searches from (any card of the dealer's may be the one turned up).

Kept apart from the deal search so that validating a canonical record imports no more
than it needs.
"""

from __future__ import annotations

from mariage.engine.rules import Rules

from .model import UNKNOWN, Hand

__all__ = ["turnup_choices", "turnup_unknown"]



def turnup_unknown(rules: Rules, hand: Hand) -> bool:
    """The turned-up card is written ``??`` where it is the dealer's last card."""
    if rules.turn_up != "dealer_last":
        return False
    part = hand.deal.part("turnup")
    return part is not None and part.cards == (UNKNOWN,)


def turnup_choices(rules: Rules, hand: Hand, dealer: int | None, deck: list[int],
                    owner: list[int]) -> list[list[int]]:
    """The decks to search from: where the turned-up card is the dealer's last card and
    is written ``??``, any card of the dealer's may be it (each in turn at the last
    place dealt to the dealer); otherwise just ``deck``."""
    if dealer is None or not turnup_unknown(rules, hand):
        return [deck]
    places = [i for i, o in enumerate(owner) if o == dealer]
    last = places[-1]
    out = [deck]
    for p in places[:-1]:
        if deck[p] >= 0 or deck[last] >= 0:
            cand = list(deck)
            cand[p], cand[last] = cand[last], cand[p]
            out.append(cand)
    return out
