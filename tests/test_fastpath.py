"""The play phase's generated code: its legal actions list exactly what the mechanisms
offer, and its card play (with the trick's end) does what their methods do."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from typing import Any

import pytest
from families import by_family
from hypothesis import given
from hypothesis import strategies as st
from mariage import GameState, IllegalActionError, Phase, load_rules, new_match
from mariage.engine.actions import Action, Bid, Claim, Declare, Play, Redeal
from mariage.engine.copies import copied_slots
from mariage.engine.deals import SeededDeals
from mariage.engine.duties import duties
from mariage.engine.fastpath import card_tables, cards_of, play_apply, play_legal
from mariage.engine.mechanisms import (
    DEFAULT_MECHANISMS,
    Auction,
    Claims,
    Declarations,
    Mechanisms,
    Talon,
    TrickPlay,
)
from mariage.engine.phase import PLAY
from mariage.spec.specload import list_rulesets
from propkit import CHOICES, SEEDS, option_grid, options_for, pick_action, rules_for


def mechanisms_listing(state: GameState, mech: Mechanisms) -> list[Action]:
    """The play phase's legal actions by a plain loop over the mechanisms (the oracle)."""
    seat = state.to_act
    assert seat is not None
    out: list[Action] = []
    for m in mech.all():
        if m.offers(state.rules):
            m.offer(state, seat, out)
    mask = mech.tricks.legal_plays(state, seat)
    out += [state.rules.play_actions[c] for c in range(state.rules.ncards) if mask >> c & 1]
    for m in mech.all():
        if m.offers_any_time(state.rules):
            m.any_time(state, seat, out)
    return out


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_generated_listing_equals_the_mechanisms_loop(ruleset: str) -> None:
    rules = load_rules(ruleset)
    rng = random.Random(ruleset)
    checked = offered = 0
    for seed in range(6):
        state = new_match(rules, seed)
        for _ in range(400):
            if state.terminal:
                break
            legal = state.legal_actions()
            if state.phase == PLAY:
                expected = mechanisms_listing(state, DEFAULT_MECHANISMS)
                assert legal == expected
                checked += 1
                offered += len(legal) > bin(state.legal_plays(state.to_act or 0)).count("1")
            state.apply(rng.choice(legal))
    assert checked > 100
    if rules.declarations or rules.asks or rules.close_rule or rules.call_out_rule:
        assert offered, "no decision offered anything but cards: the test proves little"


def test_card_tables_list_every_subset_in_card_order() -> None:
    rules = load_rules("marjapussi")
    rng = random.Random(3)
    assert len(card_tables(rules)) == (rules.ncards + 7) // 8
    for _ in range(200):
        mask = rng.getrandbits(rules.ncards)
        assert cards_of(rules, mask) == [rules.play_actions[c] for c in range(rules.ncards)
                                         if mask >> c & 1]


class KingAlone(Declarations):
    """A changed mechanism: a king alone declares a marriage (the gate must not hide it)."""

    def legal(self, st: GameState, seat: int) -> list[Action]:
        r = st.rules
        hand = st.hands[seat]
        kings = hand & r.rank_mask[r.ranks.index("K")]
        return [Declare(0, s) for s in range(len(r.suits)) if kings & r.suit_mask[s]]


def test_an_overridden_offer_method_loses_the_gate() -> None:
    rules = load_rules("marianna")
    mech = replace(DEFAULT_MECHANISMS, declarations=KingAlone())
    state = GameState(rules, first_dealer=0, mechanisms=mech)
    king, queen = rules.card_index["KH"], rules.card_index["QH"]
    deck = [c for c in range(rules.ncards) if c not in (king, queen)]
    deck = [king, *deck, queen]  # the first seat dealt holds the king of hearts alone
    state.deal(deck)
    assert state.to_act == 1
    listing = play_legal(mech, rules)(state, 1)
    assert Declare(0, 0) in listing
    assert listing == mechanisms_listing(state, mech) == state.legal_actions()
    assert Declare(0, 0) not in play_legal(DEFAULT_MECHANISMS, rules)(state, 1)


class NoLateClaims(Claims):
    """Claims only just after a declaration, whatever the rules say (a changed query)."""

    __slots__ = ()

    def claim_on_lead(self, st: GameState, seat: int) -> bool:
        return super().claim_on_lead(st, seat) and st.decl_this_trick[seat] > 0


def test_an_overridden_query_loses_the_exact_offer() -> None:
    """The claim is appended by the generated code itself only while the mechanism's
    own ``claim_on_lead`` is the one its condition copies."""
    rules = load_rules("schnapsen")
    mech = replace(DEFAULT_MECHANISMS, claims=NoLateClaims())
    state = GameState(rules, first_dealer=0, mechanisms=mech)
    state.deal(list(range(rules.ncards)))
    rng = random.Random(3)
    while state.trick_no < 2 or state.trick_cards:  # to the second lead, claims refused
        state.apply(rng.choice([a for a in state.legal_actions() if type(a) is Play]))
    seat = state.to_act
    assert seat is not None and seat == state.last_winner
    assert Claim() in play_legal(DEFAULT_MECHANISMS, rules)(state, seat)
    listing = play_legal(mech, rules)(state, seat)
    assert Claim() not in listing
    assert listing == mechanisms_listing(state, mech) == state.legal_actions()


def test_an_overridden_any_time_method_loses_its_gate() -> None:
    """The throw-in is listed in the play phase only in the first trick (its gate); a
    talon mechanism that offers it later too is asked at every decision."""
    from mariage.engine.actions import Redeal
    from mariage.engine.mechanisms import Talon
    from mariage.engine.phase import PLAY

    class LateThrowIn(Talon):
        __slots__ = ()

        def any_time(self, st: GameState, seat: int, out: list[Action]) -> None:
            out.append(Redeal())

    rules = load_rules("thousand")
    assert rules.throw_in_rule is not None
    mech = replace(DEFAULT_MECHANISMS, talon=LateThrowIn())
    state = new_match(rules, 5)
    rng = random.Random(5)
    while state.phase != PLAY or state.trick_no < 2:
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
    seat = state.to_act
    assert seat is not None
    assert Redeal() not in play_legal(DEFAULT_MECHANISMS, rules)(state, seat)
    assert Redeal() in play_legal(mech, rules)(state, seat)


def test_an_overridden_hook_handler_loses_its_gate() -> None:
    """After a trick, held points are counted only for a winner who holds some (the
    gate); a held credit that overrides a method the gate relies on is always called."""
    from mariage.engine.fastpath import _gated_hooks
    from mariage.engine.mechanisms import HeldCredit

    class CountAlways(HeldCredit):
        __slots__ = ()

        def on_trick_won(self, st: GameState, winner: int) -> None:
            super().on_trick_won(st, winner)

    rules = load_rules("schnapsen")
    assert rules.credit_on_win
    gates = dict((h.__self__.name, g) for h, g in  # type: ignore[attr-defined]
                 _gated_hooks(DEFAULT_MECHANISMS, rules, "after_trick"))
    assert gates["held declaration credit"] == "st.held[winner]"
    mech = replace(DEFAULT_MECHANISMS, held_credit=CountAlways())
    assert [g for h, g in _gated_hooks(mech, rules, "after_trick")
            if isinstance(h.__self__, CountAlways)] == [None]  # type: ignore[attr-defined]


def test_card_sets_list_every_combination_lazily() -> None:
    from itertools import combinations

    from mariage.engine.actions import Give
    from mariage.engine.mechanisms.passing import CardSets

    bits = [1 << c for c in (0, 3, 7, 8, 12, 20, 31, 33, 35)]
    sets = CardSets(bits, 4)
    expected = [Give(sum(c)) for c in combinations(bits, 4)]
    assert len(sets) == 126 and list(sets) == expected and sets == expected
    assert expected == sets and tuple(expected) == sets and sets != expected[:-1]
    assert [sets[i] for i in range(-126, 126)] == expected + expected
    assert sets[10:20] == expected[10:20]
    with pytest.raises(IndexError):
        sets[126]
    assert all(g in sets for g in expected)
    assert Give(bits[0] | bits[1] | bits[2]) not in sets  # three cards, not four
    assert Give(2 | bits[0] | bits[1] | bits[2]) not in sets  # a card not held
    assert Give(-1) not in sets and "Give" not in sets
    assert sets.index(expected[77]) == 77


def test_card_sets_after_a_concession_list_it_first() -> None:
    from itertools import combinations

    from mariage.engine.actions import Concede, Give
    from mariage.engine.mechanisms.passing import CardSets

    bits = [1 << c for c in (1, 4, 6, 9, 11)]
    sets = CardSets(bits, 2, (Concede(),))
    expected = [Concede(), *(Give(sum(c)) for c in combinations(bits, 2))]
    assert len(sets) == 11 and list(sets) == expected and sets == expected
    assert [sets[i] for i in range(-11, 11)] == expected + expected
    assert sets[0:4] == expected[0:4] and sets[5:] == expected[5:] and sets[::3] == expected[::3]
    for bad in (11, -12):
        with pytest.raises(IndexError):
            sets[bad]
    assert Concede() in sets and Concede() not in CardSets(bits, 2)
    assert sets != CardSets(bits, 2) and sets == CardSets(bits, 2, (Concede(),))
    assert repr(sets) == "CardSets(Concede(), 10 sets of 2 of 5 cards)"


def _plain_cap(rules: Any, hand: int, ceiling: int) -> int:
    """The bid cap of ``hand`` worked out from the rules' pairs alone (no memory)."""
    held = [v for m, v in zip(rules.bid_pair_masks, rules.bid_pair_values, strict=True)
            if hand & m == m]
    if rules.bid_cap == "pair_sum":
        return int(rules.bid_cap_free + sum(held))
    return ceiling if held else int(rules.bid_cap_free)


@pytest.mark.parametrize("ruleset", [r for r in list_rulesets() if load_rules(r).auction_rule])
def test_passes_and_bids_listed_as_the_plain_enumeration(ruleset: str) -> None:
    from itertools import combinations

    from mariage.engine.actions import Bid, ChooseTalon, Give, Pass, Raise
    from mariage.engine.phase import AUCTION, CONTRACT, PASSING

    rules = load_rules(ruleset)
    rng = random.Random(7)
    seen = set()
    for seed in range(8):
        state = new_match(rules, seed)
        while not state.terminal and state.hand_no < 2:
            legal = state.legal_actions()
            seat = state.to_act
            assert seat is not None
            if state.phase == PASSING and state.pass_step < 0:  # a packet of the talon
                assert legal[-rules.talon_packets:] == [
                    ChooseTalon(k) for k in range(rules.talon_packets)]
                seen.add("talon")
            elif state.phase == PASSING:
                count = rules.passing_steps[state.pass_step][2]
                cards = [1 << c for c in rules.cards_of(state.hands[seat])]
                sets = [Give(sum(c)) for c in combinations(cards, count)]
                assert list(legal[len(legal) - len(sets):]) == sets  # after a concession
                assert all(type(a) is not Give for a in legal[:len(legal) - len(sets)])
                seen.add("passing")
            elif state.phase == AUCTION:
                auction = state.mech.auction
                low, top = auction.lowest(state), auction.highest(state, seat)
                opening = [] if auction.must_open(state, seat) else [Pass()]
                assert legal == [*opening, *(Bid(v) for v in range(low, top + 1,
                                                                     rules.bid_step))]
                seen.add("auction")
            elif state.phase == CONTRACT:  # keep, or raise up to the ceiling and the cap
                top = state.mech.auction.ceiling(rules)
                if rules.bid_cap != "none":
                    top = min(top, _plain_cap(rules, state.hands[seat], top))
                raises = [Raise(v) for v in range(state.contract + rules.bid_step, top + 1,
                                                  rules.bid_step)]
                assert legal[len(legal) - len(raises) - 1:] == [Raise(0), *raises]
                seen.add("contract")
            state.apply(legal[rng.randrange(len(legal))])
    assert {"passing", "auction"} <= seen
    assert ("contract" in seen) == (rules.raise_rule is not None)
    assert ("talon" in seen) == (rules.talon_packets > 1)


@pytest.mark.parametrize("ruleset", [r for r in list_rulesets() if load_rules(r).sa_rule])
def test_suit_bids_listed_as_the_plain_enumeration(ruleset: str) -> None:
    """The bids of a value and a trump, sliced from one shared ladder, are every bid of
    a value above the standing one, value by value, in each strain."""
    from mariage.engine.actions import Double, Pass, SuitBid
    from mariage.engine.phase import BIDDING

    rng = random.Random(3)
    listings = 0
    for opts in _option_samples(ruleset):
        rules = rules_for(ruleset, opts)
        for seed in range(6):
            state = new_match(rules, seed)
            while not state.terminal and state.hand_no < 3:
                legal = state.legal_actions()
                if state.phase == BIDDING and not state.double_window and not (
                        state.kontras and rules.sa_double_freezes):
                    auction = state.mech.suit_auction
                    bids = [SuitBid(v, s) for v in auction.values(rules) if v > state.high_bid
                            for s in auction.strains(rules)]
                    assert legal[0] == Pass() and legal[1:1 + len(bids)] == bids
                    assert all(type(a) is Double for a in legal[1 + len(bids):])
                    listings += 1
                seat, action = pick_action(rng, state)
                state.apply(action, seat=seat)
    assert listings > 50


@pytest.mark.parametrize("ruleset", [r for r in list_rulesets() if load_rules(r).combos])
def test_announcements_available_as_the_runs_and_sets_of_the_hand(ruleset: str) -> None:
    """What a seat may announce (the runs' announcements kept per suit's cards) is the sets
    it holds, then the announcements of each run, as the plain methods list them."""
    rng = random.Random(ruleset)
    for opts in _option_samples(ruleset):
        rules = rules_for(ruleset, opts)
        state = new_match(rules, rng.randrange(100))
        an = state.mech.announcements
        for _ in range(200):
            hand = sum(1 << c for c in rng.sample(range(rules.ncards), rules.hand_size))
            state.hands[0] = hand
            sets = [(combo, rules.card_index_of(0, ri), rules.rank_mask[ri])
                    for combo in rules.combos if combo.same_rank
                    for ri in an.set_table(state, combo)[1]
                    if an.set_table(state, combo)[0][ri]
                    and hand & rules.rank_mask[ri] == rules.rank_mask[ri]]
            runs = [k for top, length in an.runs(rules, hand)
                    for k in an.run_kinds(rules, top, length)]
            assert an.available(state, 0) == sets + runs


class _OwnDraw(TrickPlay):
    """The reference trick play with ``draw`` overridden (same behaviour): the trick's end
    then runs the mechanism's own methods, not the generated card play."""

    def draw(self, st: GameState, winner: int) -> None:
        super().draw(st, winner)


#: the slots the two engines compared differ in (the mechanisms and what is made of them)
_NOT_COMPARED = frozenset(("mech", "_appliers", "_deals", "_lays", "hooks"))


def _state_of(state: GameState) -> dict[str, Any]:
    """Every slot but the mechanisms' and what is made of them (which differ between
    the two engines compared)."""
    from test_search_support import fingerprint

    out = fingerprint(state)
    for name in _NOT_COMPARED:
        out.pop(name, None)
    return out


def _differing(one: GameState, other: GameState) -> list[str]:
    """The slots where two states' :func:`_state_of` differ, compared in place: ``==`` of
    lists is that of their frozen copies (stricter only where one side holds a tuple
    and the other a list), and no copy of either state is made."""
    found = []
    for name in copied_slots(type(one)):
        if name in _NOT_COMPARED:
            continue
        a, b = getattr(one, name), getattr(other, name)
        if name == "_history":  # (the records, made as a reader sees them)
            a, b = one.history, other.history
        elif name == "deal_source" and a is not None and b is not None:
            a, b = (a.rng.state, a.first_dealer), (b.rng.state, b.first_dealer)
        if a != b:
            found.append(name)
    return found


def _option_samples(name: str) -> list[dict[str, Any]]:
    grid = option_grid(name)
    rng = random.Random(name)
    return [{}, *rng.sample(grid, min(3, len(grid)))]


@pytest.mark.parametrize("ruleset", by_family())
def test_generated_card_play_equals_the_mechanisms_methods(ruleset: str) -> None:
    """The generated card play (trick's end inline) leaves every slot as the trick play
    mechanism's own methods do, for every action, under sampled options; a refused card
    is refused by both with the same rule and changes nothing; the generated listing
    equals the mechanisms' under these options too."""
    generic = replace(DEFAULT_MECHANISMS, tricks=_OwnDraw())
    trick_ends = refused = 0
    for opts in _option_samples(ruleset):
        rules = rules_for(ruleset, opts)
        assert play_apply(generic, rules) is None
        assert play_apply(DEFAULT_MECHANISMS, rules) is not None
        for seed in range(3):
            rng = random.Random(seed)
            deals = SeededDeals(rules, seed)
            fast = GameState(rules, first_dealer=deals.first_dealer)
            slow = GameState(rules, first_dealer=deals.first_dealer, mechanisms=generic)
            for _ in range(600):
                if fast.terminal:
                    break
                if fast.phase == Phase.DEAL:
                    deck, first = deals.next_deal()
                    fast.deal(deck, first)
                    slow.deal(deck, first)
                    continue
                if fast.phase == PLAY:  # the gates hold under these options too
                    assert fast.legal_actions() == mechanisms_listing(fast, DEFAULT_MECHANISMS)
                seat, action = pick_action(rng, fast)
                if fast.phase == PLAY and rng.random() < 0.1:  # a card maybe not allowed
                    action, seat = rules.play_actions[rng.randrange(rules.ncards)], fast.to_act
                    errors = []
                    for state in (fast, slow):
                        before = _state_of(state)
                        try:
                            state.apply(action, seat=seat)
                        except IllegalActionError as err:
                            errors.append(str(err))
                            assert _state_of(state) == before
                    assert len(errors) in (0, 2) and len(set(errors)) <= 1
                    refused += len(errors) > 0
                else:
                    tricks = len(fast.tricks)
                    fast.apply(action, seat=seat)
                    slow.apply(action, seat=seat)
                    trick_ends += len(fast.tricks) > tricks
                assert _differing(fast, slow) == []
    assert trick_ends > 30 and refused > 5


@pytest.mark.parametrize("ruleset", by_family())
def test_generated_card_play_takes_exactly_the_legal_cards_in_hand(ruleset: str) -> None:
    """Every card in the hand of the seat to act is taken by the generated card play
    exactly when the duties allow it (the shortcuts that skip working out the duties
    again, a free lead or a card of the suit led, never take a card they forbid), with
    undo off and on (the play that journals its trail has the same shortcuts); with
    undo on, a refused card journals nothing and a taken one is undone exactly."""
    taken = refused = 0
    for opts in _option_samples(ruleset):
        rules = rules_for(ruleset, opts)
        state = new_match(rules, 7)
        rng = random.Random(ruleset)
        for _ in range(300):
            if state.terminal:
                break
            if state.phase == PLAY:
                seat = state.to_act
                assert seat is not None
                allowed = state.legal_plays(seat)
                hand = state.hands[seat]
                cards = [c for c in range(rules.ncards) if hand >> c & 1]
                for card, undo in itertools.product(cards, (False, True)):
                    trial = state.clone()
                    trial.enable_undo(undo)
                    try:
                        trial.apply(rules.play_actions[card])
                    except IllegalActionError:
                        assert not allowed >> card & 1, rules.card_code[card]
                        assert trial.undo_depth == 0
                        refused += 1
                    else:
                        assert allowed >> card & 1, rules.card_code[card]
                        taken += 1
                        if undo:
                            trial.undo()
                            assert _differing(trial, state) == []
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
    assert taken > 50
    if rules.obligation_no_stock is not None and rules.obligation_no_stock.follow:
        assert refused > 0


@pytest.mark.parametrize("ruleset", by_family())
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_generated_duties_equal_the_trick_play_method(ruleset: str, data: st.DataObject,
                                                      seed: int, choice: int) -> None:
    """The duties written per ruleset (:func:`duties`) give every seat the cards that
    :meth:`TrickPlay.legal_plays` allows, at every moment of the play of a random match,
    under options drawn from every value (the obligations, contracts that bring their
    own, first-trick preferences...)."""
    rules = rules_for(ruleset, data.draw(options_for(ruleset), label="options"))
    legal = duties(DEFAULT_MECHANISMS, rules)
    assert legal is not DEFAULT_MECHANISMS.tricks.legal_plays
    state = new_match(rules, seed % 1000)
    rng = random.Random(choice)
    compared = 0
    for _ in range(250):
        if state.terminal:
            break
        if state.phase == PLAY:
            for seat in range(rules.nseats):
                expected = DEFAULT_MECHANISMS.tricks.legal_plays(state, seat)
                assert legal(state, seat) == expected, (seat, state.trick_cards)
                compared += 1
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
    assert compared > 0


class HighLeader(TrickPlay):
    """The first card of a trick always wins it (a changed step of the duties)."""

    __slots__ = ()

    def winner_index(self, st: GameState) -> int:
        return 0


def test_an_overridden_duty_step_keeps_the_method() -> None:
    rules = load_rules("belote")
    mech = replace(DEFAULT_MECHANISMS, tricks=HighLeader())
    assert duties(mech, rules) == mech.tricks.legal_plays
    assert duties(DEFAULT_MECHANISMS, rules) != DEFAULT_MECHANISMS.tricks.legal_plays


@pytest.mark.parametrize("ruleset", by_family())
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_written_phase_listings_equal_the_mechanisms_own(ruleset: str, data: st.DataObject,
                                                         seed: int, choice: int) -> None:
    """Where a mechanism writes its phase's listing for the rules
    (:meth:`Mechanism.phase_listing`: the auction, the passing, the contract...), the
    dispatch table lists with it, and it lists what :meth:`legal_in_phase` does at every
    decision of that phase in random matches under options drawn from every value; the
    legal actions of every phase but play are those and all that is open at any moment
    (the phases left out by :meth:`Mechanism.any_time_phases` have none)."""
    rules = rules_for(ruleset, data.draw(options_for(ruleset), label="options"))
    lister = {phase: m for m in DEFAULT_MECHANISMS.all() for phase in m.phases}
    written = {phase: (m, listing) for phase, m in lister.items()
               if (listing := m.phase_listing(rules)) is not None}
    state = new_match(rules, seed % 1000)
    for phase, (_, listing) in written.items():  # (a function written anew: the same code)
        assert getattr(state._appliers.phase_legal[phase], "__code__", None) is listing.__code__
    rng = random.Random(choice)
    for _ in range(150):
        if state.terminal:
            break
        seat = state.to_act
        if state.phase in lister and seat is not None:  # with what is open at any moment
            own = list(lister[state.phase].legal_in_phase(state, seat))
            if state.phase in written:
                assert list(written[state.phase][1](state, seat)) == own
            for m in DEFAULT_MECHANISMS.all():
                if m.offers_any_time(rules):
                    m.any_time(state, seat, own)
            assert list(state.legal_actions()) == own
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)


class CapOfTwoHundred(Auction):
    """No bid above 200, whatever the hand (a changed step of the listing)."""

    __slots__ = ()

    def cap(self, st: GameState, hand: int) -> int:
        return 200


def test_an_overridden_listing_step_keeps_legal_in_phase() -> None:
    rules = load_rules("thousand")
    mech = replace(DEFAULT_MECHANISMS, auction=CapOfTwoHundred())
    state = GameState(rules, first_dealer=0, mechanisms=mech)
    state.deal(list(range(rules.ncards)))
    assert state._appliers.phase_legal[Phase.AUCTION] == mech.auction.legal_in_phase
    assert max(a.value for a in state.legal_actions() if type(a) is Bid) == 200
    default = GameState(rules, first_dealer=0)
    assert default._appliers.phase_legal[Phase.AUCTION] != DEFAULT_MECHANISMS.auction.legal_in_phase


@pytest.mark.parametrize("ruleset", [r for r in list_rulesets() if load_rules(r).calls_rule])
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_kept_calls_equal_the_calls_worked_out(ruleset: str, data: st.DataObject, seed: int,
                                               choice: int) -> None:
    """The calls and questions kept per cards of pairs, suits called and asking level
    (:meth:`TrumpCalls.legal`) are those worked out afresh, at every lead of random
    matches under drawn options."""
    rules = rules_for(ruleset, data.draw(options_for(ruleset), label="options"))
    calls = DEFAULT_MECHANISMS.calls
    state = new_match(rules, seed % 1000)
    rng = random.Random(choice)
    asked = 0
    for _ in range(300):
        if state.terminal:
            break
        seat = state.to_act
        if seat is not None and calls.may_call(state, seat):
            assert calls.legal(state, seat) == calls.calls_now(state, seat)
            asked += 1
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
    assert asked > 0


def test_throw_ins_before_the_play_are_asked_in_their_phases_only() -> None:
    """With the dealt hand's and the talon's throw-ins on, the throw-in is asked in the
    auction and the passing too, and listed there exactly as the full loop lists it."""
    rules = rules_for("thousand", {"redeal_low_hand": 60, "redeal_weak_prikup": 33,
                                   "redeal_two_nines_prikup": True})
    assert Talon().any_time_phases(load_rules("thousand")) == (Phase.CONTRACT,)
    assert Talon().any_time_phases(rules) == (Phase.AUCTION, Phase.PASSING, Phase.CONTRACT)
    offered = set()
    for seed in range(30):
        state, rng = new_match(rules, seed), random.Random(seed)
        while not state.terminal and state.hand_no <= 2:
            seat = state.to_act
            if state.phase in (Phase.AUCTION, Phase.PASSING, Phase.CONTRACT) and seat is not None:
                own = list(state._appliers.phase_legal[state.phase](state, seat))
                DEFAULT_MECHANISMS.talon.any_time(state, seat, own)
                assert list(state.legal_actions()) == own
                offered |= {state.phase for a in own if type(a) is Redeal}
            seat, action = pick_action(rng, state)
            state.apply(action, seat=seat)
    assert offered >= {Phase.AUCTION, Phase.PASSING}  # (four nines after the exchange: rare)
