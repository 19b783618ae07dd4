"""Where a deck's cards land when it is dealt: the places the built hands
(:mod:`~mariage.conformance.builthands`, :mod:`~mariage.conformance.exacttop`,
:mod:`~mariage.conformance.climb`) swap their chosen cards into.

>>> from mariage import load_rules
>>> from mariage.engine.prng import SplitMix64
>>> from mariage.engine.state import GameState
>>> rules = load_rules("marianna")
>>> found = dealt_positions(GameState(rules), list(range(rules.ncards)), None)
>>> trial, leader, seats, stock = found
>>> len(seats) == rules.nseats and sum(map(len, seats)) + len(stock) <= rules.ncards
True
>>> deck, first, *_ = seeded_places(GameState(rules), SplitMix64(1)) or [[], None]
>>> sorted(deck) == list(range(rules.ncards))
True
"""

from __future__ import annotations

from typing import Any

from mariage.engine.prng import SplitMix64
from mariage.engine.state import GameState

from ..errors import IllegalActionError

__all__ = ["dealt_positions", "seeded_deal", "seeded_places"]


def dealt_positions(state: GameState, deck: list[int], first: int | None
                    ) -> tuple[GameState, int, list[list[int]], list[int]] | None:
    """Deal ``deck`` (card numbers) on a clone: the clone dealt, the first leader, each
    seat's deck positions, and the stock's positions in the order drawn; ``None`` where
    the rules refuse the deal."""
    r = state.rules
    trial = state.clone()
    try:
        trial.deal([r.card_code[c] for c in deck], first)
    except (IllegalActionError, ValueError):
        return None
    where = {c: i for i, c in enumerate(deck)}
    seats = [sorted(where[c] for c in r.cards_of(trial.hands[s])) for s in range(r.nseats)]
    held = {i for p in seats for i in p}
    up = where.get(trial.turn_up, -1) if trial.turn_up is not None else -1
    stock = [i for i in range(len(deck)) if i not in held and i != up]
    leader = trial.to_act if trial.to_act is not None else trial.leader
    return trial, leader, seats, stock


def seeded_deal(state: GameState, rng: SplitMix64
                ) -> tuple[dict[str, Any], GameState] | None:
    """A deck shuffled by ``rng`` (card codes) and the first leader drawn by lot where the
    rules draw one, dealt on a clone: the deal as a conformance step gives it
    (``{"deck": ..., "first_player": ...}``) and the clone dealt; ``None`` where the
    rules refuse the deal. The built hands of the brink, the litige, the pair alone and
    the rounding draw their deals here.

    >>> from mariage import load_rules
    >>> state = GameState(load_rules("marianna"), first_dealer=0)
    >>> deal, dealt = seeded_deal(state, SplitMix64(1))
    >>> len(deal["deck"]), dealt.phase.name, state.phase.name
    (40, 'PLAY', 'DEAL')
    """
    r = state.rules
    cards = list(range(r.ncards))
    rng.shuffle(cards)
    deck = [r.card_code[c] for c in cards]
    first = rng.below(r.nseats) if r.first_lead == "lot" else None
    trial = state.clone()
    try:
        trial.deal(list(deck), first)
    except (IllegalActionError, ValueError):
        return None
    return {"deck": deck, "first_player": first}, trial


def seeded_places(state: GameState, rng: SplitMix64
                  ) -> tuple[list[int], int | None, GameState, int, list[list[int]],
                             list[int]] | None:
    """A deck (card numbers) shuffled by ``rng`` and the first leader drawn by lot where
    the rules draw one, then :func:`dealt_positions` of that deck: the deck, the first
    player given to the deal, and the four values it returns."""
    r = state.rules
    deck = list(range(r.ncards))
    rng.shuffle(deck)
    first = rng.below(r.nseats) if r.first_lead == "lot" else None
    found = dealt_positions(state, deck, first)
    return None if found is None else (deck, first, *found)
