"""Per-rule tests of Thousand for two (thousand-2), with check 13 of the notes' section 18.

Seats A B = 0 1. Dealer 1 (B), so A is forehand: he receives the first card and speaks
first. The "stock" of a deal is the two musiks in deck order: its cards 1-2 are the first
packet (``talon:1``), cards 3-4 the second (``talon:2``).
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import GameState, Phase, load_rules
from mariage.arena.bots import GreedyBot
from mariage.engine.deals import SeededDeals, deal_owners
from mariage.engine.observation import observe
from rulekit import covers, legal_texts, play, refused, start

RULES = "thousand-2"
A, B = 0, 1

# A: the heart and club marriages; B: the diamond marriage.
HANDS = ["KH QH AH KC QC AD 9D 9C JS 9S", "TH JH 9H KD QD TD JD AC TC KS"]
MUSIKS = "AS TS QS JC"  # packet 1: AS TS (21 points); packet 2: QS JC (5 points)


def deal(options: dict[str, Any] | None = None) -> GameState:
    return start(RULES, HANDS, dealer=B, stock=MUSIKS, options=options)


def a_declares(options: dict[str, Any] | None = None, bid: int = 100) -> GameState:
    st = deal(options)
    play(st, f"bid:{bid} pass")
    return st


def points(st: GameState, cards: list[int]) -> int:
    return sum(st.rules.points[c] for c in cards)


@covers("thousand.players", "thousand.deal", "thousand.pack", ruleset=RULES)
def test_two_players_ten_cards_each_and_two_musiks_of_two() -> None:
    r = load_rules(RULES)
    assert r.nseats == 2 and r.team_of == (0, 1) and r.hand_size == 10
    assert r.stock_size == 4 and r.talon_packets == 2 and r.ncards == 24  # check 13
    # notes section 17: deck[2k + j] to s_j (s0 the non-dealer), then musik A, musik B
    assert deal_owners(r, B) == [0, 1] * 10 + [-1] * 4
    st = GameState(r, first_dealer=B)
    deck, _ = SeededDeals(r, 7).next_deal()
    st.deal(deck)
    assert st.hands[A] == sum(1 << c for c in deck[0:20:2])
    assert st.stock[::-1] == deck[20:24] and st.phase == Phase.AUCTION and st.to_act == A


@covers("thousand.auction.end", "thousand.auction.opening", ruleset=RULES)
def test_the_auction_ends_when_one_player_passes() -> None:
    st = deal()
    refused(st, "pass", "thousand.auction.opening")  # forehand must open
    play(st, "bid:100 bid:105 bid:110 pass")
    assert st.declarer == A and st.contract == 110 and st.phase == Phase.PASSING
    assert legal_texts(st) == ["talon:1", "talon:2"]  # nothing else before choosing


@covers("thousand.talon.packets", "thousand.talon", "thousand.talon.shown", ruleset=RULES)
def test_the_declarer_chooses_one_musik_shows_it_and_takes_it() -> None:
    st = a_declares()
    refused(st, "talon:3", "thousand.talon.packets")
    refused(st, "talon:1", "core.turn", seat=B)
    refused(st, "give:9D+9C", "thousand.talon.packets")
    refused(st, "concede", "thousand.contract.concede")  # not before taking the talon
    # nor where a concession is open until the first lead (it was accepted there, unlisted)
    late = a_declares({"concede_window": "before_first_lead"})
    refused(late, "concede", "thousand.contract.concede")
    assert legal_texts(late) == ["talon:1", "talon:2"]
    play(st, "talon:2")
    qs, jc = st.rules.card("QS"), st.rules.card("JC")
    assert st.hands[A].bit_count() == 12 and st.hands[A] >> qs & 1 and st.hands[A] >> jc & 1
    assert st.known[A] == (1 << qs) | (1 << jc)  # shown to the opponent
    assert sorted(st.aside) == sorted([st.rules.card("AS"), st.rules.card("TS")])
    seen = observe(st, B)
    assert seen.shown[A] == st.known[A] and seen.stock_size == 0  # the other musik unseen
    refused(st, "talon:1", "thousand.talon.packets")  # once


@covers("thousand.exchange", "thousand.contract.raise", ruleset=RULES)
def test_the_declarer_lays_two_cards_away_unseen_then_fixes_the_contract() -> None:
    st = a_declares()
    play(st, "talon:1")
    refused(st, "give:9D", "thousand.exchange")
    play(st, "give:9D+9C")
    assert st.hands[A].bit_count() == 10 and st.hands[B].bit_count() == 10
    assert len(st.aside) == 4 and st.phase == Phase.CONTRACT
    assert observe(st, B).actions[-1][1].cards == -1  # the opponent does not see them
    assert observe(st, A).actions[-1][1].cards > 0
    # the cap on his ten cards: two marriages (hearts, clubs) allow up to 400
    assert "raise:400" in legal_texts(st)


@covers("thousand.score.leftover", "thousand.score.hand", "thousand.score.sheet",
        ruleset=RULES)
@pytest.mark.parametrize("leftover", ["last_trick", "nobody"])
def test_ten_tricks_and_the_leftover_cards_go_to_the_last_trick(leftover: str) -> None:
    st = a_declares({"two_player_leftover": leftover})
    play(st, "talon:1 give:9D+9C keep")
    out_of_play = points(st, st.aside)  # QS JC laid aside, 9D 9C laid away
    assert out_of_play == 5
    while st.phase == Phase.PLAY:
        st.apply(st.legal_actions()[0])
    hand = st.history[-1]
    assert len(hand.tricks) == 2 and sum(hand.tricks) == 10
    card_points = sum(hand.points) - sum(v for *_, v in st.declared)
    assert card_points == (120 if leftover == "last_trick" else 120 - out_of_play)  # check 13


@covers("thousand.contract.concede", ruleset=RULES)
def test_a_concession_after_the_musik_gives_the_opponent_sixty() -> None:
    st = a_declares()
    play(st, "talon:2 concede")
    assert st.match_scores == [0, 60]
    assert st.history[-1].ended == "conceded"


def test_a_whole_seeded_game_is_played_to_the_target() -> None:
    r = load_rules(RULES, {"target": 500})
    deals = SeededDeals(r, 3)
    st = GameState(r, first_dealer=deals.first_dealer)
    bots = [GreedyBot(1), GreedyBot(2)]
    while not st.terminal and len(st.history) < 200:
        if st.phase == Phase.DEAL:
            st.deal(*deals.next_deal())
            continue
        assert st.to_act is not None
        st.apply(bots[st.to_act].choose(st))
    assert st.terminal and max(st.match_scores) >= 500
    played = [h for h in st.history if h.ended == "played_out"]
    assert played and all(sum(h.tricks) == 10 for h in played)
