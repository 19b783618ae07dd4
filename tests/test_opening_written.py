"""The next deal's opening written out (issue #28, fifteenth session).

* the fresh deal writes the opening of the hand (the first trick, the taking of the
  turned card, the auction of a trump suit) in place of the mechanism's call, for a
  state of the reference mechanisms only; any other state's mechanisms are asked;
* (the takers' sheet leaving each side's line in a local of its own is held against
  the plain ``Scoring.end_hand`` by ``test_hand_end``.)

The written opening is held against the reference deal's steps (``reset_hand``, the
plan's ``lay``, ``Dealing._open``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, ClassVar

import pytest
from mariage import GameState, SeededDeals, canonical_deck, list_rulesets, load_rules
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.mechanisms.auction import Auction
from mariage.engine.mechanisms.dealing import _fresh_deals, _plan_of
from mariage.engine.mechanisms.suitauction import SuitAuction
from mariage.engine.mechanisms.taking import TurnedCardTaking
from mariage.engine.mechanisms.trickplay import TrickPlay
from test_search_support import fingerprint

RULESETS = list_rulesets()


def _first(rules: Any) -> int | None:
    return 0 if rules.first_lead == "lot" else None


def _played(rules: Any, dealer: int, rng: random.Random, mechanisms: Any = None) -> GameState:
    """A state after one whole hand played at random (every hand field moved)."""
    state = GameState(rules, first_dealer=dealer, mechanisms=mechanisms or DEFAULT_MECHANISMS)
    state.deal(canonical_deck(rules), _first(rules))
    while state.to_act is not None:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


#: the auction's openings and its golden hands (not written out: the mechanism asked)
_OPTIONS = [("thousand", {"opening_bid": mode}) for mode in ("dealer_auto_100", "none",
                                                             "fh_auto_100")] + \
    [("thousand", {"golden_round": "fixed_120"}), ("thousand", {"golden_round": "min_bid_120"}),
     ("thousand-4", {"opening_bid": "dealer_auto_100"})] + \
    [("thousand-4", {"opening_bid": "dealer_auto_100", "sitter": who})  # the dealer plays
     for who in ("dealer_right", "opposite")]


@pytest.mark.parametrize(("name", "options"), [(n, {}) for n in RULESETS] + _OPTIONS)
def test_a_callers_deck_is_opened_as_the_reference_steps_open_it(name: str,
                                                                  options: dict[str, str]
                                                                  ) -> None:
    """``GameState.deal`` of a caller's list after a played hand (the checked fresh deal
    with its opening written out) leaves every slot as the reference steps do, for every
    dealer."""
    rng = random.Random(f"opening {name} {options}")
    try:
        rules = load_rules(name, options)
    except Exception as refused:  # a combination the rules refuse (thousand-4's opening)
        assert options and "opening" in str(refused)
        return
    first = _first(rules)
    for dealer in range(rules.nseats):
        played = _played(rules, dealer, rng)
        if played.terminal:
            continue
        one, two = played.clone(), played.clone()
        deck = canonical_deck(rules)
        rng.shuffle(deck)
        assert one._deals  # the generated deal is the one taken
        one.deal(deck, first)
        start = 0 if two.dealer is None else (two.dealer + 1) % rules.nseats
        two.reset_hand()
        two.hand_no += 1
        _plan_of(rules).lay[start](two, deck, two.dealer)
        two.mech.dealing._open(two, first, start)
        assert fingerprint(one) == fingerprint(two)


class _CountedTricks(TrickPlay):
    """A trick play mechanism that notes the tricks it opens (the hand, the trick before)."""

    __slots__ = ()
    opened: ClassVar[list[tuple[int, int]]] = []

    def start_trick(self, st: Any, winner: int) -> None:
        self.opened.append((st.hand_no, st.trick_no))
        super().start_trick(st, winner)


class _CountedOpen:
    """An opening before the play that notes the hands it opens (and the trick: none)."""

    __slots__ = ()
    opened: ClassVar[list[tuple[int, int]]]

    def open(self, st: Any) -> None:
        self.opened.append((st.hand_no, st.trick_no))
        super().open(st)  # type: ignore[misc]


class _CountedAuction(_CountedOpen, SuitAuction):
    __slots__ = ()
    opened: ClassVar[list[tuple[int, int]]] = []


class _CountedTaking(_CountedOpen, TurnedCardTaking):
    __slots__ = ()
    opened: ClassVar[list[tuple[int, int]]] = []


@pytest.mark.parametrize(("name", "field", "mechanism"), [
    ("marianna", "tricks", _CountedTricks), ("schnapsen", "tricks", _CountedTricks),
    ("belote-coinche", "suit_auction", _CountedAuction),
    ("belote", "taking", _CountedTaking)])
def test_mechanisms_of_their_own_are_asked_to_open_the_hand(name: str, field: str,
                                                            mechanism: Any) -> None:
    """A state whose mechanisms are not the reference ones gets its own opening, by a
    caller's deck and by the seeded generator's alike (the same code serves every state
    of the class and rules); the reference mechanisms' states get the written one."""
    rules = load_rules(name)
    own = replace(DEFAULT_MECHANISMS, **{field: mechanism()})
    mechanism.opened.clear()
    rng = random.Random(f"own {name}")
    state = _played(rules, 0, rng, own)
    assert _fresh_deals(state) is not None and state._deals
    deck = canonical_deck(rules)
    rng.shuffle(deck)
    state.deal(deck, _first(rules))
    seeded = GameState(rules, first_dealer=0, mechanisms=own)
    seeded.deal_source = SeededDeals(rules, 4)
    seeded._deal_next()
    # the opening of a hand (no trick yet): the second of the first state, the first of both
    assert (2, 0) in mechanism.opened and mechanism.opened.count((1, 0)) == 2
    mechanism.opened.clear()
    plain = _played(rules, 0, rng)
    plain.deal(deck, _first(rules))
    assert mechanism.opened == []


def test_an_opening_of_its_own_is_not_written() -> None:
    ns: dict[str, Any] = {}
    assert _CountedAuction().open_lines(ns) is None and _CountedTaking().open_lines(ns) is None
    assert DEFAULT_MECHANISMS.suit_auction.open_lines(ns) == [
        "    st.phase = _BIDDING", "    st.to_act = st.leader"]


@pytest.mark.parametrize("name", ["marianna", "thousand", "belote"])
def test_the_opening_is_written_for_each_set_of_mechanisms_whoever_compiles_first(
        name: str) -> None:
    """The fresh deal's code is written per set of mechanisms: a state of other (equal
    but not the same) mechanisms that deals first does not leave the reference's states
    the called, slower opening; and an unpickled state of the reference mechanisms is
    still one of them (its mechanisms pickled by name)."""
    import pickle

    from mariage.engine.mechanisms import Mechanisms
    from mariage.engine.mechanisms.dealing import _FRESH

    rules = load_rules(name, options={"target": 1} if name == "belote" else None)
    _FRESH.clear()
    other = GameState(rules, first_dealer=0, mechanisms=Mechanisms())
    other.deal(canonical_deck(rules), _first(rules))
    state = _played(rules, 0, random.Random(name))
    for st in (other, state):
        compiled = _fresh_deals(st)
        assert compiled is not None
        assert compiled.laid[0].__globals__["_mech"] is st.mech
    assert _fresh_deals(state) is not _fresh_deals(other)
    assert pickle.loads(pickle.dumps(state)).mech is DEFAULT_MECHANISMS


class _AskedAuction(_CountedOpen, Auction):
    """The bidding auction, opened by its own method (the written opening is not used)."""

    __slots__ = ()
    opened: ClassVar[list[tuple[int, int]]] = []


def test_a_dealer_who_holds_the_opening_bid_and_one_who_sits_out() -> None:
    """``dealer_holds_minimum``: where the dealer plays (four at the table, another seat
    out) he holds the lowest bid and, all others passing, declares at it; a description
    that makes a dealer who sits out hold it (no bundled option can: ``thousand-4``
    refuses the combination) gives the bid to the last active seat before forehand,
    never to the seat out, by the written opening and the mechanism's alike."""
    from mariage import Pass

    for who in ("dealer_right", "opposite"):
        rules = load_rules("thousand-4", {"opening_bid": "dealer_auto_100", "sitter": who})
        for seed in range(8):
            deals = SeededDeals(rules, seed)
            state = GameState(rules, first_dealer=deals.first_dealer)
            state.deal(*deals.next_deal(state))
            assert state.dealer is not None and state.out not in (-1, state.dealer)
            assert (state.high_bid, state.high_bidder) == (rules.bid_min, state.dealer)
            assert state.to_act == state.leader != state.dealer
            state.apply(Pass())
            state.apply(Pass())  # both others pass: the dealer declares at the lowest bid
            assert state.declarer == state.dealer and state.high_bid == rules.bid_min
    _AskedAuction.opened.clear()
    sat_out = replace(load_rules("thousand-4"), opening="dealer_holds_minimum")
    for seed in range(8):
        states = []
        for mechanisms in (DEFAULT_MECHANISMS, replace(DEFAULT_MECHANISMS,
                                                       auction=_AskedAuction())):
            deals = SeededDeals(sat_out, seed)
            state = GameState(sat_out, first_dealer=deals.first_dealer, mechanisms=mechanisms)
            state.deal(*deals.next_deal(state))
            states.append(state)
        for state in states:
            assert state.dealer == state.out
            assert state.high_bidder == (state.dealer - 1) % 4 != state.out
            assert state.high_bid == sat_out.bid_min and state.to_act == state.leader
        one, two = (fingerprint(state) for state in states)
        for key in ("hands", "talon", "dealer", "out", "leader", "to_act", "phase", "high_bid",
                    "high_bidder", "auction_passed"):
            assert one[key] == two[key], key
    assert len(_AskedAuction.opened) == 8  # the mechanism's own opening was the one run
