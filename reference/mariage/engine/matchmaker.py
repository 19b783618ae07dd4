"""A new match made many times over under the same rules (an environment's reset):
:func:`match_maker` does what :func:`~mariage.engine.state.new_match` does, with what
depends on the rules alone worked out once.

It stands above :mod:`mariage.engine.state` (it makes states), where
:mod:`mariage.engine.freshhand`, which the state itself uses, cannot import it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .arguments import check_rules
from .deals import SeededDeals, fixed_first_dealer
from .freshhand import match_starter
from .mechanisms import DEFAULT_MECHANISMS
from .prng import SplitMix64
from .rules import Rules
from .state import _ASKED, GameState

__all__ = ["Maker", "match_maker"]

#: a function making a new match of a seed
Maker = Callable[[int], GameState]


def _asked_of(kind: type) -> tuple[Any, ...]:
    """The methods of the dealing class ``kind`` that its offer of fresh deals to a new
    state turns on (``dealer_takes``, ``dealer_lays`` and what they check)."""
    return (kind.dealer_takes, kind.dealer_lays, kind.deal,  # type: ignore[attr-defined]
            kind.check_deck, kind.lay, kind.deal_own)  # type: ignore[attr-defined]


def match_maker(rules: Rules) -> Maker | None:
    """A function ``make(seed)`` that does what ``new_match(rules, seed)`` does for a
    seed that is a Python ``int`` from 0 to 2**64-1 (the caller checks it; any other
    goes to :func:`~mariage.engine.state.new_match`, which refuses it), with what
    depends on the rules alone worked out once: the rules checked, the first dealer
    the rules fix (or that none deals), the state's starter
    (:func:`~mariage.engine.freshhand.match_starter`);
    the deals' source made as :class:`~mariage.engine.deals.SeededDeals` makes it (its
    generator at the seed, the first dealer drawn from it where the rules draw lots),
    without its checks. ``None`` where ``new_match`` would make the state otherwise
    (no starter, or a first dealer of the kind the rules do not have). For one who
    makes many matches of the same rules (an environment's reset); made anew each
    call: the caller keeps it.

    >>> from mariage import load_rules, new_match
    >>> rules = load_rules("thousand")
    >>> a, b = match_maker(rules)(7), new_match(rules, 7)
    >>> a.hands == b.hands, a.dealer == b.dealer, a.deal_source.rng.state == b.deal_source.rng.state
    (True, True, True)
    """
    check_rules(rules, "match_maker")
    start = match_starter(GameState, rules, DEFAULT_MECHANISMS, _ASKED)
    lot = rules.first_dealer == "lot"
    fixed = fixed_first_dealer(rules)
    if start is None or (not lot and fixed is None) != (rules.first_dealer == "none"):
        return None
    nseats, new = rules.nseats, object.__new__
    # the fresh deals the dealing mechanism offers a state of these rules
    # (GameState._ask_dealing), kept with what its answer turns on: the method that asks
    # and the dealing class's methods (as they are when each match is made: a class
    # changed since is asked again)
    dealing = DEFAULT_MECHANISMS.dealing
    kind, ask = type(dealing), GameState._ask_dealing
    seat = None if rules.first_dealer == "none" else 0
    probe = start(seat, seat)
    probe._ask_dealing()
    offered = probe._deals, probe._lays
    asked = _asked_of(kind)

    def make(seed: int) -> GameState:
        deals = new(SeededDeals)  # (SeededDeals(rules, seed), the seed an int checked)
        deals.rules = rules
        rng = deals.rng = new(SplitMix64)
        rng.state = seed
        deals.first_dealer = first = rng.below(nseats) if lot else fixed
        state = start(first, first)
        if GameState._ask_dealing is ask and type(dealing) is kind \
                and _asked_of(kind) == asked:
            state._deals, state._lays = offered
        else:
            state._ask_dealing()
        state.deal_source = deals
        state._deal_next()
        return state

    return make
