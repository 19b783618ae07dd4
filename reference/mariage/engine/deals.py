"""Deals: the canonical deck order and seeded matches.

A seeded match draws everything from one :class:`~mariage.engine.prng.SplitMix64`
stream, in this order (normative, see ``docs/prng.rst``):

1. where the ruleset chooses the first dealer by lot: ``first_dealer = below(seats)``;
2. for each hand in turn: where the ruleset chooses the first player by lot
   each hand, ``first_player = below(seats)``; then the canonical deck is
   shuffled with :meth:`~mariage.engine.prng.SplitMix64.shuffle`.

>>> from mariage import load_rules
>>> rules = load_rules("marianna")
>>> " ".join(rules.card_code[c] for c in canonical_deck(rules)[:5])
'AH 3H KH QH JH'
>>> deal = SeededDeals(rules, 1)
>>> deal.first_dealer
1
"""

from __future__ import annotations

from .prng import SplitMix64
from .rules import Rules

__all__ = ["SeededDeals", "canonical_deck", "deal_owners", "fixed_first_dealer"]


def canonical_deck(rules: Rules) -> list[int]:
    """The pack in canonical order: suits as listed, ranks high to low."""
    return list(range(rules.ncards))


_new = object.__new__
def deal_owners(rules: Rules, dealer: int | None) -> list[int]:
    """Who gets each position of a deck (top first): a seat, -1 the stock, -2 the turn-up.

    Follows the dealing of :class:`~mariage.engine.mechanisms.Dealing`: rounds of
    packets from the seat after the dealer; with ``deal.packets`` the turn-up
    is the card after round ``turn_up_round`` (after the last round where
    that is 0). Schnapsen, trump turned after the first round:

    >>> from mariage import load_rules
    >>> deal_owners(load_rules("schnapsen"), 1)[:12]
    [0, 0, 0, 1, 1, 1, -2, 0, 0, 1, 1, -1]
    """
    sizes = rules.deal_packets or (rules.packet,) * (rules.hand_size // rules.packet)
    owner: list[int] = []
    dealt = rules.seats_dealt(dealer)  # a seat sitting out is dealt nothing
    for k, size in enumerate(sizes):
        for seat in dealt:
            owner.extend([seat] * size)
        if k + 1 == rules.turn_up_round and rules.turn_up == "under_stock":
            owner.append(-2)
    if rules.turn_up in ("under_stock", "to_taker") and -2 not in owner:
        owner.append(-2)
    owner.extend([-1] * (rules.ncards - len(owner)))
    return owner


def fixed_first_dealer(rules: Rules) -> int | None:
    """The seat the rules themselves make the first dealer (``first_dealer: last_seat``,
    fixed seats; ``seat``, a seat they name), or ``None`` (drawn by lot, or no dealer).

    >>> from mariage import load_rules
    >>> fixed_first_dealer(load_rules("belote", {"first_dealer": "seat2"}))
    2
    >>> fixed_first_dealer(load_rules("belote")) is None
    True
    """
    if rules.first_dealer == "last_seat":
        return rules.nseats - 1
    if rules.first_dealer == "seat":
        return rules.first_dealer_seat
    return None


class SeededDeals:
    """The deals of a match from an integer seed."""

    __slots__ = ("first_dealer", "rng", "rules")

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.rng = SplitMix64(seed)
        self.first_dealer: int | None = fixed_first_dealer(rules)
        if rules.first_dealer == "lot":
            self.first_dealer = self.rng.below(rules.nseats)

    def clone(self) -> SeededDeals:
        """A copy that deals the same stream from here on, independently.

        >>> from mariage import load_rules
        >>> a = SeededDeals(load_rules("marianna"), 5)
        >>> b = a.clone()
        >>> a.next_deal() == b.next_deal()
        True
        """
        new = _new(SeededDeals)
        new.rules = self.rules
        rng = new.rng = _new(SplitMix64)
        rng.state = self.rng.state
        new.first_dealer = self.first_dealer
        return new

    def next_deal(self) -> tuple[list[int], int | None]:
        """The next hand's deck order (top first) and first player (or ``None``)."""
        first = self.rng.below(self.rules.nseats) if self.rules.first_lead == "lot" else None
        deck = canonical_deck(self.rules)
        self.rng.shuffle(deck)
        return deck, first
