"""Deals: the canonical deck order and seeded matches.

A seeded match draws everything from one :class:`~mariage.engine.prng.SplitMix64`
stream, in this order (normative, see ``docs/prng.rst``):

1. where the ruleset chooses the first dealer by lot: ``first_dealer = below(seats)``;
2. for each hand in turn: where the ruleset chooses the first player by lot
   each hand, ``first_player = below(seats)``; then the canonical deck is
   shuffled with :meth:`~mariage.engine.prng.SplitMix64.shuffle`; or, where
   the rules gather the pack after the first hand (``deal.gather``), every
   later hand's deck is the last hand's cards gathered (:func:`gathered_deck`)
   and cut at ``least + below(cards - 2 * least + 1)`` (:func:`cut_deck`).

>>> from mariage import load_rules
>>> rules = load_rules("marianna")
>>> " ".join(rules.card_code[c] for c in canonical_deck(rules)[:5])
'AH 3H KH QH JH'
>>> deal = SeededDeals(rules, 1)
>>> deal.first_dealer
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import count_argument
from .arguments import check_rules, check_state
from .prng import SplitMix64, check_seed
from .rules import Rules

if TYPE_CHECKING:
    from .state import GameState

__all__ = ["SeededDeals", "canonical_deck", "cut_deck", "deal_owners", "fixed_first_dealer",
           "gathered_deck"]


def canonical_deck(rules: Rules) -> list[int]:
    """The pack in canonical order: the card numbers ``0 .. rules.ncards - 1``, suits in
    the order the ruleset lists them, and within a suit its ranks as listed (high to
    low, in plain suits); ``rules.card_code`` names them.

    >>> from mariage import load_rules
    >>> rules = load_rules("schnapsen")
    >>> deck = canonical_deck(rules)
    >>> deck[:6], " ".join(rules.card_code[c] for c in deck[:6]), len(deck)
    ([0, 1, 2, 3, 4, 5], 'AH TH KH QH JH AD', 20)
    """
    try:
        return list(range(rules.ncards))
    except AttributeError:
        raise TypeError(f"canonical_deck: rules must be a Rules (load_rules(name) makes "
                        f"one), not {type(rules).__name__}") from None


_new = object.__new__
def deal_owners(rules: Rules, dealer: int | None, placed: tuple[int, ...] = ()) -> list[int]:
    """Who gets each position of a deck (top first): a seat, -1 the stock, -2 the turn-up;
    ``placed``: the sides that have left the play (``match.places``, see
    :meth:`~mariage.engine.rules.Rules.sitter`).

    Follows the dealing of :class:`~mariage.engine.mechanisms.Dealing`: rounds of
    packets from the seat after the dealer; with ``deal.packets`` the turn-up
    is the card after round ``turn_up_round`` (after the last round where
    that is 0). Schnapsen, trump turned after the first round:

    >>> from mariage import load_rules
    >>> deal_owners(load_rules("schnapsen"), 1)[:12]
    [0, 0, 0, 1, 1, 1, -2, 0, 0, 1, 1, -1]
    """
    check_rules(rules, "deal_owners")
    sizes = rules.deal_packets or (rules.packet,) * (rules.hand_size // rules.packet)
    owner: list[int] = []
    dealt = rules.seats_dealt(dealer, placed)  # a seat sitting out is dealt nothing
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
    check_rules(rules, "fixed_first_dealer")
    if rules.first_dealer == "last_seat":
        return rules.nseats - 1
    if rules.first_dealer == "seat":
        return rules.first_dealer_seat
    return None


def gathered_deck(state: GameState) -> list[int]:
    """The pack gathered after the hand that just ended, top card first (``deal.gather``).

    The tricks in the order they were won, each trick's cards in the order they
    were played; then the cards no trick took: each seat's hand from seat 0 in
    playing order (a hand's cards in canonical order), the turn-up, the stock as
    it lay, and any other card (set aside, out of play) in canonical order.

    >>> from mariage import load_rules, GameState
    >>> state = GameState(load_rules("belote"), first_dealer=3)
    >>> state.deal(canonical_deck(state.rules))
    >>> for _ in range(8):
    ...     state.apply(state.legal_actions()[0])  # eight passes: a void deal
    >>> deck = [state.rules.card_code[c] for c in gathered_deck(state)]
    >>> " ".join(deck[:7]), " ".join(deck[20:24]), len(deck)
    ('AH TH KH JD 9D QH JH', 'JC 9C 8C 7C', 32)
    """
    r = check_state(state, "gathered_deck").rules
    deck: list[int] = []
    seen = 0

    def gather(cards: list[int]) -> None:
        nonlocal seen
        for c in cards:
            if not seen >> c & 1:
                seen |= 1 << c
                deck.append(c)

    for _, cards, _ in state.tricks:
        gather(list(cards))
    for seat in range(r.nseats):
        gather(r.cards_of(state.hands[seat]))
    gather([state.turn_up] if state.turn_up is not None else [])
    gather(state.stock[::-1])  # its top card first (the list's last)
    gather(canonical_deck(r))
    return deck


def cut_deck(deck: list[int], rng: SplitMix64, least: int) -> None:
    """Cut ``deck`` in place: its top ``least + rng.below(len(deck) - 2 * least + 1)``
    cards go under the rest, so that each packet holds at least ``least`` cards.

    >>> deck = list(range(10))
    >>> cut_deck(deck, SplitMix64(1), 3)
    >>> deck
    [3, 4, 5, 6, 7, 8, 9, 0, 1, 2]
    >>> cut_deck(deck, SplitMix64(1), 6)
    Traceback (most recent call last):
    ...
    ValueError: cut_deck: least must be a whole number from 0 to 5, not 6
    """
    if type(deck) is not list:
        raise TypeError(f"cut_deck: deck must be a list (it is cut in place), "
                        f"not {type(deck).__name__}")
    if not isinstance(rng, SplitMix64):
        raise TypeError(f"cut_deck: rng must be a SplitMix64, not {type(rng).__name__}")
    least = count_argument(least, "cut_deck: least", 0, len(deck) // 2)
    k = least + rng.below(len(deck) - 2 * least + 1)
    deck[:] = deck[k:] + deck[:k]


class SeededDeals:
    """The deals of a match from an integer ``seed``, from 0 to 2**64-1 (as a record
    holds it; :func:`~mariage.engine.prng.check_seed` refuses any other).

    :func:`~mariage.engine.state.new_match` deals from it; to deal by hand, give
    each deck to :meth:`GameState.deal <mariage.engine.state.GameState.deal>`:

    >>> from mariage import load_rules, GameState, new_match
    >>> rules = load_rules("schnapsen")
    >>> deals = SeededDeals(rules, 42)
    >>> deals.first_dealer  # drawn by lot
    1
    >>> deck, first_player = deals.next_deal()
    >>> " ".join(rules.card_code[c] for c in deck[:6]), first_player
    ('QH QD JD TH TS JC', None)
    >>> state = GameState(rules, first_dealer=deals.first_dealer)
    >>> state.deal(deck)
    >>> rules.format_cards(state.hands[0]), rules.card_code[state.turn_up]
    ('QH AD KD QD JD', 'KS')
    >>> state.hands == new_match(rules, seed=42).hands
    True
    """

    __slots__ = ("first_dealer", "rng", "rules")

    def __init__(self, rules: Rules, seed: int) -> None:
        check_rules(rules)
        self.rules = rules
        self.rng = SplitMix64(check_seed(seed))
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

    def next_deal(self, state: GameState | None = None) -> tuple[list[int], int | None]:
        """The next hand's deck order (top first) and first player (or ``None``).

        ``state``: the match, after the hand that just ended; where the rules gather
        the pack after the first hand (``deal.gather``), later decks are gathered
        from it and cut, so it must be given for every hand after the first.
        """
        r = self.rules
        first = self.rng.below(r.nseats) if r.first_lead == "lot" else None
        if r.deal_gather_rule is not None and state is not None and state.history:
            deck = gathered_deck(state)
            cut_deck(deck, self.rng, r.deal_cut_min)
            return deck, first
        deck = canonical_deck(r)
        self.rng.shuffle(deck)
        return deck, first
