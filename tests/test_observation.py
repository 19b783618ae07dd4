"""Per-seat observations show exactly what that seat may know.

The main property: deal the same hand twice, the second time with two cards
swapped that a seat cannot see (in other closed hands or in the stock), play
the same actions in both, and the seat's observations stay equal until one
of the two cards comes into its view.
"""

from __future__ import annotations

import random

import pytest
from families import by_family
from hypothesis import assume, given
from hypothesis import strategies as st
from mariage import GameState, IllegalActionError, Phase, SeededDeals
from mariage.engine.observation import observe
from propkit import CHOICES, SEEDS, options_for, pick_action, rules_for

ACTIVE = (Phase.PLAY, Phase.WINDOW, Phase.ANSWER, Phase.AUCTION, Phase.PASSING, Phase.CONTRACT,
          Phase.QUESTION, Phase.TAKING, Phase.BIDDING)


def in_view(state: GameState, seat: int) -> int:
    """The mask of cards ``seat`` can see now: its hand, shown cards, cards on the table."""
    obs = observe(state, seat)
    seen = obs.hand
    for shown in obs.shown:
        seen |= shown
    for _, card in obs.trick:
        seen |= 1 << card
    for _, cards, _ in obs.tricks:
        for card in cards:
            seen |= 1 << card
    if obs.turn_up is not None:
        seen |= 1 << obs.turn_up
    return seen


def deal_first_hand(name: str, options: dict[str, object], seed: int,
                    swap: tuple[int, int] | None = None) -> GameState:
    rules = rules_for(name, options)
    deals = SeededDeals(rules, seed)
    deck, first = deals.next_deal()
    if swap is not None:
        i, j = deck.index(swap[0]), deck.index(swap[1])
        deck[i], deck[j] = deck[j], deck[i]
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.deal(deck, first)
    return state


@pytest.mark.parametrize("name", by_family())
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_unseen_cards_do_not_change_an_observation(name: str, data: st.DataObject, seed: int,
                                                   choice: int) -> None:
    options = data.draw(options_for(name), label="options")
    a = deal_first_hand(name, options, seed)
    r = a.rules
    seat = data.draw(st.integers(0, r.nseats - 1), label="seat")
    hidden = r.full_mask & ~in_view(a, seat)
    if r.holder_card is not None:  # the rules say who holds it: he leads
        hidden &= ~(1 << r.holder_card)
    cards = r.cards_of(hidden)
    assume(len(cards) >= 2)
    c1 = data.draw(st.sampled_from(cards), label="c1")
    where = {c: next((s for s in range(r.nseats) if a.hands[s] >> c & 1), -1) for c in cards}
    others = [c for c in cards if c != c1 and (where[c] != where[c1] or where[c] < 0)]
    assume(others)
    c2 = data.draw(st.sampled_from(others), label="c2")
    pair = (1 << c1) | (1 << c2)
    b = deal_first_hand(name, options, seed, (c1, c2))
    assert a.hands != b.hands or a.stock != b.stock
    rng = random.Random(choice)
    compared = 0
    while a.phase in ACTIVE and a.hand_no == 1:
        if (in_view(a, seat) | in_view(b, seat)) & pair:
            break
        assert observe(a, seat) == observe(b, seat), "an unseen card changed the observation"
        compared += 1
        actor, action = pick_action(rng, a)
        a.apply(action, seat=actor)
        try:
            b.apply(action, seat=actor)
        except IllegalActionError:
            break  # the swap changed what another seat could do: stop here
    assert compared >= 1


@pytest.mark.parametrize("name", by_family())
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_observation_shows_own_hand_and_only_what_is_shown(name: str, data: st.DataObject,
                                                           seed: int, choice: int) -> None:
    options = data.draw(options_for(name), label="options")
    state = deal_first_hand(name, options, seed)
    r = state.rules
    rng = random.Random(choice)
    while state.phase in ACTIVE and state.hand_no == 1:
        for seat in range(r.nseats):
            obs = observe(state, seat)
            assert obs.seat == seat and obs.hand == state.hands[seat]
            assert obs.shown[seat] == state.hands[seat]
            for other in range(r.nseats):
                if r.open_hands:
                    assert obs.shown[other] == state.hands[other]
                else:
                    assert obs.shown[other] & ~state.hands[other] == 0
            assert obs.hand_sizes == tuple(h.bit_count() for h in state.hands)
            assert obs.stock_size == len(state.stock)
            assert obs.legal == tuple(state.legal_actions(seat))
            assert obs.trump == state.trump and obs.to_act == state.to_act
        actor, action = pick_action(rng, state)
        state.apply(action, seat=actor)


def test_closed_hands_are_hidden_and_open_hands_are_shown() -> None:
    closed = deal_first_hand("marianna", {}, 5)
    for seat in range(4):
        obs = observe(closed, seat)
        assert [bool(m) for m in obs.shown] == [s == seat for s in range(4)]
    opened = deal_first_hand("mariaggia", {}, 5)
    obs = observe(opened, 0)
    assert obs.shown == tuple(opened.hands)
    stock_cards = sum(1 << c for c in opened.stock if c != opened.turn_up)
    assert in_view(opened, 0) & stock_cards == 0
    assert opened.turn_up is not None and in_view(opened, 0) >> opened.turn_up & 1


def test_a_face_down_give_hides_which_shown_cards_left() -> None:
    """Regression: Thousand shows the talon, then the declarer gives a card face down to
    each opponent. Seat 2's observation used to tell which talon cards he still held (a
    shown card given away dropped out of ``shown``): a talon card given to seat 1 and a
    card nobody saw given to seat 1 now look alike to seat 2, and to seat 1 only its own
    card differs."""
    from mariage import canonical_deck, load_rules, parse_action

    rules = load_rules("thousand")
    views = []
    for first in ("JS", "AH"):  # JS lay in the talon, shown; AH was dealt to the declarer
        state = GameState(rules, first_dealer=2)
        state.deal(canonical_deck(rules))  # seat 0 holds AH QH AD QD AC QC AS; talon QS JS 9S
        for text in ("bid:100", "pass", "pass", f"give:{first}", "give:9S"):
            state.apply(parse_action(rules, text))
        views.append(observe(state, 2))
        assert observe(state, 1).shown[0] == 0
    assert views[0] == views[1]
