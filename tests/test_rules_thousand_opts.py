"""Per-rule tests of the Thousand options of the notes' section 11 and 13: who sits out
with four players (``sitter``), the dark bid (``dark_bid``) and the golden round
(``golden_round``).

Seats A B C D = 0 1 2 3 in playing order (clockwise). Dealer 3 (D), so A is forehand.
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import GameState, Phase, load_rules
from mariage.arena.bots import GreedyBot
from mariage.engine.deals import SeededDeals, deal_owners
from mariage.notation import check_record, record_match, view
from rulekit import covers, play, play_out, start

A, B, C, D = 0, 1, 2, 3
FOUR = "thousand-4"


def game(ruleset: str, options: dict[str, Any], seed: int = 1, hands: int = 400) -> GameState:
    """A seeded game of greedy bots, to the target (or ``hands`` hands)."""
    r = load_rules(ruleset, options)
    deals = SeededDeals(r, seed)
    st = GameState(r, first_dealer=deals.first_dealer)
    st.deal_source = deals
    bots = [GreedyBot(s + 1) for s in range(r.nseats)]
    while not st.terminal and len(st.history) < hands:
        if st.phase == Phase.DEAL:
            st.deal(*deals.next_deal())
            continue
        assert st.to_act is not None
        st.apply(bots[st.to_act].choose(st))
    return st


# ---------------------------------------------------------------- sitter (section 13)
@covers("thousand.deal.sitter", "thousand.deal", ruleset=FOUR, options={"sitter": "opposite"})
@pytest.mark.parametrize(("sitter", "out", "active"), [
    ("dealer", D, [A, B, C]), ("dealer_right", C, [A, B, D]), ("opposite", B, [A, C, D])])
def test_the_sitter_and_the_deck_order_of_the_active_seats(sitter: str, out: int,
                                                           active: list[int]) -> None:
    r = load_rules(FOUR, {"sitter": sitter})
    assert r.sitter(D) == out and r.seats_dealt(D) == active
    # notes section 17: deck[3k + j] to s_j, the active seats from the dealer's left
    assert deal_owners(r, D) == active * 7 + [-1] * 3
    st = GameState(r, first_dealer=D)
    st.deal(list(range(24)))
    assert st.out == out and st.hands[out] == 0
    for j, seat in enumerate(active):
        assert st.hands[seat] == sum(1 << (3 * k + j) for k in range(7))
    assert sorted(st.stock) == [21, 22, 23]
    assert st.phase == Phase.AUCTION and st.to_act == A  # forehand: the dealer's left


@covers("thousand.deal.sitter", "thousand.exchange", ruleset=FOUR,
        options={"sitter": "opposite"})
def test_the_player_opposite_the_dealer_takes_no_part() -> None:
    st = start(FOUR, ["KS QS AD TD AC 9C JD"], dealer=D, stock="AH KD QD",
               options={"sitter": "opposite"})
    play(st, "bid:100")
    assert st.to_act == C  # B, opposite the dealer, is passed over
    play(st, "pass pass")
    assert st.declarer == A and st.phase == Phase.PASSING
    play(st, "give:9C")
    assert st.hands[C] >> st.rules.card("9C") & 1  # the first card to C, the next active
    play(st, "give:JD keep")
    play_out(st)
    assert st.history[-1].score[B] == 0 and sum(st.history[-1].tricks) == 8


@covers("thousand.talon.sitter", ruleset=FOUR,
        options={"sitter": "dealer_right", "sitter_score": "aces_and_marriages"})
@pytest.mark.parametrize(("sitter", "out"), [("dealer", D), ("dealer_right", C),
                                             ("opposite", B)])
def test_the_sitter_scores_from_the_talon_whoever_he_is(sitter: str, out: int) -> None:
    opts = {"sitter": sitter, "sitter_score": "aces_and_marriages"}
    st = start(FOUR, ["KS QS AD TD AC 9C JD"], dealer=D, stock="AH KD QD", options=opts)
    play(st, "bid:100 pass pass concede")  # check 14: 50 + 80
    assert st.history[-1].score[out] == 130
    assert [s for s in range(4) if st.history[-1].score[s] == 60] == \
        [s for s in range(1, 4) if s != out]


@pytest.mark.parametrize("sitter", ["dealer_right", "opposite"])
def test_a_game_with_another_sitter_validates_with_its_seat_views(sitter: str) -> None:
    r = load_rules(FOUR, {"sitter": sitter, "target": 500})
    record = record_match(r, 2, [GreedyBot(s + 1) for s in range(4)])
    assert record.result.winner is not None
    assert check_record(record).errors == []
    for seat in ("A", "B"):
        assert check_record(view(record, seat)).errors == [], seat
