"""Per-rule tests of Thousand (thousand), with the checks of section 18 of its notes.

Seats A B C = 0 1 2 in playing order (clockwise), each playing for himself. Dealer 2
(C), so A is forehand: he receives the first card and speaks first in the auction.
The "stock" of a deal is the talon (three cards), taken by the auction's winner.
"""

from __future__ import annotations

from typing import Any

import pytest
from mariage import GameState, Phase, load_rules, parse_action
from mariage.engine.deals import SeededDeals
from mariage.engine.mechanisms.contract import round_to
from rulekit import cards, covers, legal_texts, play, play_out, refused, start

RULES = "thousand"
A, B, C = 0, 1, 2

# A: the heart marriage; B: the diamond marriage; C: the club and spade marriages.
H1 = ["KH QH AD TD 9D AC 9S", "AH TH JH KD QD 9C JS", "9H KC QC JC TC KS QS"]
TALON1 = "JD AS TS"
# B wins trick 1 with AS and holds the heart marriage; A (declarer) holds KS QS.
H2 = ["9S AD TD KD AC TC KC", "KH QH AS JH QD JC 9C", "AH TH 9H JD 9D QC JS"]
TALON2 = "TS KS QS"


def deal(hands: list[str] = H1, talon: str = TALON1, options: dict[str, Any] | None = None,
         dealer: int = C) -> GameState:
    return start(RULES, hands, dealer=dealer, stock=talon, options=options)


def a_declares(hands: list[str] = H1, talon: str = TALON1,
               options: dict[str, Any] | None = None, bid: int = 100) -> GameState:
    """A bids, B and C pass: A takes the talon."""
    st = deal(hands, talon, options)
    play(st, f"bid:{bid} pass pass")
    return st


def b_wins_trick_one(options: dict[str, Any] | None = None) -> GameState:
    """Deal H2: A declares at 100, gives TD to B and TC to C, keeps; leads 9S, B wins."""
    st = a_declares(H2, TALON2, options)
    play(st, "give:TD give:TC keep 9S AS JS")
    assert st.leader == B and st.trick_no == 2 and not st.trick_cards
    return st


def sheet(contract: int, captured: tuple[int, int, int], marriages: tuple[int, int, int],
          options: dict[str, Any] | None = None, declarer: int = A) -> list[int]:
    """The score sheet of a played hand with these card points and marriages."""
    st = deal(options=options)
    st.declarer, st.contract = declarer, contract
    st.captured, st.decl_points = list(captured), list(marriages)
    return st.mech.contract.sheet(st, "played_out")


def settle(totals: list[int], entries: list[int], declarer: int = A,
           barrel: list[int] | None = None, tricks: tuple[int, ...] = (3, 3, 2),
           options: dict[str, Any] | None = None, how: str = "played_out",
           state: GameState | None = None) -> tuple[GameState, tuple[int | None] | None]:
    """Run the running-total rules on a hand with these entries."""
    st = state or deal(options=options)
    st.declarer = declarer
    st.match_scores = list(totals)
    if barrel is not None:
        st.barrel = list(barrel)
    st.tricks_won = list(tricks)
    added = list(entries)
    decided = st.mech.running.settle(st, how, added)
    return st, decided


# ---------------------------------------------------------------- table, pack, deal
@covers("thousand.players", "thousand.pack", "thousand.deal", ruleset=RULES)
def test_three_players_24_cards_seven_each_and_a_talon_of_three() -> None:
    r = load_rules(RULES)
    assert r.nseats == 3 and r.team_of == (0, 1, 2) and r.direction == "clockwise"
    assert r.ncards == 24 and r.pack_points == 120  # check 1
    assert sum(v for v in r.declarations[0].suit_values) == 280
    st = GameState(r, first_dealer=C)
    st.deal(list(range(24)))
    # deck[3k + j] goes to seat j from forehand (A); deck 21..23 is the talon
    assert st.hands[A] == sum(1 << (3 * k) for k in range(7))
    assert st.hands[B] == sum(1 << (3 * k + 1) for k in range(7))
    assert sorted(st.stock) == [21, 22, 23]
    assert st.phase == Phase.AUCTION and st.to_act == A


@covers("thousand.deal.rotation", ruleset=RULES)
def test_the_deal_passes_left_after_a_scored_hand() -> None:
    st = a_declares()
    play(st, "give:9S give:9D keep")
    play_out(st)
    assert st.phase == Phase.DEAL and st.dealer == A


# ---------------------------------------------------------------- auction
@covers("thousand.auction.opening", "thousand.auction", "thousand.auction.end",
        ruleset=RULES)
def test_forehand_must_open_and_wins_alone_at_his_bid() -> None:  # check 5
    st = deal()
    assert "pass" not in legal_texts(st)
    refused(st, "pass", "thousand.auction.opening")
    play(st, "bid:100 pass pass")
    assert st.declarer == A and st.contract == 100 and st.phase == Phase.PASSING


@covers("thousand.auction.opening", ruleset=RULES, options={"opening_bid": "fh_auto_100"})
def test_forehand_holds_100_and_middlehand_speaks_first() -> None:  # check 5
    st = deal(options={"opening_bid": "fh_auto_100"})
    assert st.to_act == B and st.high_bid == 100 and st.high_bidder == A
    play(st, "pass pass")
    assert st.declarer == A and st.contract == 100


@covers("thousand.auction.opening", ruleset=RULES, options={"opening_bid": "dealer_auto_100"})
def test_the_dealer_holds_100_and_forehand_speaks_first() -> None:
    st = deal(options={"opening_bid": "dealer_auto_100"})
    assert st.to_act == A and st.high_bidder == C
    play(st, "pass pass")
    assert st.declarer == C and st.contract == 100


@covers("thousand.auction.pass", "thousand.auction", ruleset=RULES)
def test_a_pass_is_final_and_the_turn_skips_him() -> None:
    st = deal()
    play(st, "bid:100 pass bid:105")
    assert st.to_act == A  # B passed: skipped
    play(st, "bid:110 pass")
    assert st.declarer == A and st.contract == 110


@covers("thousand.auction.bids", ruleset=RULES)
def test_bids_are_multiples_of_five_from_100() -> None:
    st = deal()
    refused(st, "bid:95", "thousand.auction.bids")
    refused(st, "bid:103", "thousand.auction.bids")
    play(st, "bid:110")
    refused(st, "bid:110", "thousand.auction.bids")
    assert legal_texts(st)[:2] == ["pass", "bid:115"]


@covers("thousand.auction.cap", ruleset=RULES)
def test_a_bid_above_120_needs_a_marriage_in_hand() -> None:  # check 6
    st = deal()  # A holds KH QH: any bid up to 400
    assert "bid:400" in legal_texts(st)
    play(st, "bid:125")
    st2 = deal(["AH TH JH KD 9D 9C JS", "KH QH AD TD QD AC 9S"], talon=TALON1)
    assert "bid:120" in legal_texts(st2) and "bid:125" not in legal_texts(st2)
    refused(st2, "bid:125", "thousand.auction.cap")


@covers("thousand.auction.cap", ruleset=RULES, options={"bid_cap": "marriage_sum"})
def test_marriage_sum_caps_a_club_marriage_at_180() -> None:  # check 6
    hands = ["KC QC AD TD 9D AH 9S"]
    st = start(RULES, hands, dealer=C, options={"bid_cap": "marriage_sum"})
    assert "bid:180" in legal_texts(st) and "bid:185" not in legal_texts(st)
    refused(st, "bid:185", "thousand.auction.cap")
    st = start(RULES, hands, dealer=C)
    assert "bid:400" in legal_texts(st)


@covers("thousand.auction.no-bid", "thousand.running.redeal", ruleset=RULES,
        options={"opening_bid": "none"})
def test_all_pass_throws_the_hand_in_and_the_deal_passes_on() -> None:
    """Notes 4.2, opening_bid=none: all three pass, the hand is thrown in and the deal
    passes on (unlike a hand thrown in by a claim, dealt again by the same dealer)."""
    st = deal(options={"opening_bid": "none"})
    play(st, "pass pass pass")
    assert st.phase == Phase.DEAL and st.dealer == A and st.match_scores == [0, 0, 0]
    assert st.history[-1].ended == "redeal" and st.bolts == [0, 0, 0]


# ---------------------------------------------------------------- talon, exchange, raise
@covers("thousand.talon", "thousand.talon.shown", ruleset=RULES)
def test_the_declarer_shows_and_takes_the_talon() -> None:
    st = a_declares()
    talon = sum(1 << st.rules.card(c) for c in TALON1.split())
    assert st.stock == [] and st.hands[A] & talon == talon and st.hands[A].bit_count() == 10
    assert st.known[A] & talon == talon  # shown to everybody


@covers("thousand.talon.shown", ruleset=RULES, options={"musik_shown": "never"})
def test_a_talon_not_shown() -> None:
    st = a_declares(options={"musik_shown": "never"})
    assert st.known[A] == 0 and st.hands[A].bit_count() == 10


@covers("thousand.exchange", ruleset=RULES)
def test_one_card_to_each_opponent_left_first() -> None:
    st = a_declares()
    refused(st, "give:9S+9D", "thousand.exchange")
    play(st, "give:AS")
    assert st.hands[B] >> st.rules.card("AS") & 1 and st.to_act == A
    play(st, "give:9D")
    assert st.hands[C] >> st.rules.card("9D") & 1
    assert [h.bit_count() for h in st.hands] == [8, 8, 8] and st.phase == Phase.CONTRACT


@covers("thousand.contract.raise", "thousand.auction.cap", ruleset=RULES)
def test_raise_after_the_exchange_within_the_cap_of_eight_cards() -> None:
    st = a_declares(bid=120)
    play(st, "give:KH give:9D")  # the heart marriage is broken: no pair left
    assert legal_texts(st) == ["keep"]
    refused(st, "raise:125", "thousand.auction.cap")
    st = a_declares(bid=120)
    play(st, "give:9S give:9D")
    refused(st, "raise:123", "thousand.contract.raise")
    play(st, "raise:160")
    assert st.contract == 160 and st.phase == Phase.PLAY and st.to_act == A


# ---------------------------------------------------------------- conceding
@covers("thousand.contract.concede", ruleset=RULES)
def test_concede_before_the_exchange_only() -> None:
    st = a_declares()
    assert legal_texts(st)[0] == "concede"
    play(st, "give:9S")
    refused(st, "concede", "thousand.contract.concede")


@covers("thousand.contract.concede", ruleset=RULES)
def test_rospisat_every_third_concession_costs_the_bid() -> None:  # check 11
    st = None
    got = []
    for _ in range(3):
        st = start(RULES, H1, dealer=C, stock=TALON1, state=st)
        # the dealer moves on: whoever is forehand bids 110 and concedes
        play(st, "bid:110 pass pass concede")
        got.append(st.history[-1].score)
    decl = [h.declarer for h in st.history]  # type: ignore[union-attr]
    assert decl == [A, B, C]
    assert got[0] == (0, 60, 60) and got[1] == (60, 0, 60)
    st2 = deal()
    for _ in range(3):
        st2.concessions[A] = 2
    play(st2, "bid:110 pass pass concede")
    assert st2.history[-1].score == (-110, 60, 60)
    assert st2.history[-1].ended == "conceded" and st2.bolts == [0, 0, 0]


@covers("thousand.contract.concede", ruleset=RULES, options={"concede": "bomb"})
def test_bomb_first_free_then_sixty_each() -> None:  # check 11
    st = deal(options={"concede": "bomb"})
    play(st, "bid:110 pass pass concede")
    assert st.history[-1].score == (0, 0, 0)
    st = deal(options={"concede": "bomb"})
    st.concessions[A] = 1
    play(st, "bid:110 pass pass concede")
    assert st.history[-1].score == (0, 60, 60)


# ---------------------------------------------------------------- play
@covers("thousand.contract.lead", "thousand.lead.first", ruleset=RULES)
def test_the_declarer_leads_to_the_first_trick() -> None:
    st = deal(options={"opening_bid": "fh_auto_100"})
    play(st, "bid:105 pass pass")  # B is declarer
    play(st, "give:9C give:JS keep")
    assert st.phase == Phase.PLAY and st.to_act == B and st.leader == B


@covers("thousand.play.follow", "thousand.trick.winner", ruleset=RULES)
def test_follow_suit_and_the_highest_of_the_suit_led_wins_without_trump() -> None:
    st = a_declares()
    play(st, "give:9S give:9D keep AD")
    assert sorted(legal_texts(st)) == ["KD", "QD"]
    refused(st, "AH", "thousand.play.follow")
    play(st, "QD")
    assert legal_texts(st) == ["9D"]  # C got 9D: he must follow
    play(st, "9D")
    assert st.tricks[-1][2] == A


def duty(st: GameState, seat: int, hand: str, trick: str) -> list[str]:
    """The cards ``seat`` may play holding ``hand`` in a trick so far ``trick``."""
    r = st.rules
    st.hands[seat] = sum(1 << r.card(c) for c in hand.split())
    st.trick_cards = [r.card(c) for c in trick.split()]
    st.trick_seats = [(seat + 1 + i) % 3 for i in range(len(st.trick_cards))]
    return r.format_cards(st.legal_plays(seat)).split()


@covers("thousand.play.trump", "thousand.play.follow", ruleset=RULES)
def test_a_void_player_must_trump() -> None:
    st = b_wins_trick_one()
    play(st, "marriage:H KH")  # hearts are trump now
    assert legal_texts(st) == ["AH", "TH", "9H"]  # C follows
    play(st, "9H")
    assert len(legal_texts(st)) == 7  # A holds no heart: any card
    assert duty(st, A, "JH AD KD", "9C") == ["JH"]  # void in clubs: trump
    assert duty(st, A, "JH AD 9C", "KC") == ["9C"]  # following comes first
    assert duty(st, A, "AD KD", "KC") == ["AD", "KD"]  # no suit, no trump: any
    assert duty(st, A, "9H TH AS", "TC QH") == ["TH", "9H"]  # any trump, not a higher one


@covers("thousand.play.trump", ruleset=RULES, options={"must_trump": False})
def test_without_must_trump_a_void_player_discards_freely() -> None:
    st = b_wins_trick_one({"must_trump": False})
    play(st, "marriage:H QH")
    assert duty(st, A, "JH AD KD", "9C") == ["JH", "AD", "KD"]


# ---------------------------------------------------------------- marriages and trump
@covers("thousand.marriage.who", ruleset=RULES)
def test_no_marriage_on_the_first_lead_a_defender_declares_after_winning() -> None:  # 7
    st = a_declares(H2, TALON2)
    play(st, "give:TD give:TC keep")
    assert cards(st, A) == "AD KD AC KC TS KS QS 9S".replace("TS KS QS 9S", "TS KS QS 9S")
    assert not [t for t in legal_texts(st) if t.startswith("marriage")]  # holds KS QS
    refused(st, "marriage:S", "thousand.marriage.who")
    play(st, "9S AS JS")
    assert "marriage:H" in legal_texts(st)
    play(st, "marriage:H")
    assert st.decl_points[B] == 100 and st.trump == 0


@covers("thousand.marriage.who", ruleset=RULES, options={"marriage_first_lead": True})
def test_a_marriage_on_the_first_lead_where_allowed() -> None:
    st = a_declares(H2, TALON2, {"marriage_first_lead": True})
    play(st, "give:TD give:TC keep")
    assert "marriage:S" in legal_texts(st)


@covers("thousand.marriage", "thousand.marriage.value", "thousand.marriage.lead",
        ruleset=RULES)
def test_declaring_by_leading_the_king_or_queen_scores_by_suit() -> None:
    st = b_wins_trick_one()
    refused(st, "marriage:D", "thousand.marriage")  # B holds QD only
    play(st, "marriage:H")
    assert sorted(legal_texts(st)) == ["KH", "QH"]
    refused(st, "AH" if "AH" in cards(st, B) else "JH", "thousand.marriage.lead")
    play(st, "QH")
    assert st.declared[-1][3] == 100


@covers("thousand.marriage.trump", "thousand.trick.winner", ruleset=RULES)
def test_the_declared_suit_is_trump_at_once_and_the_latest_rules() -> None:
    hands = ["KH QH AD TD AC TC 9C", "AH TH 9H JD 9D QC JS", "KD QD AS JH JC KC 9S"]
    st = deal(hands, talon="TS KS QS")
    play(st, "bid:100 pass pass give:9C give:TC keep AC 9C JC")
    assert st.tricks[-1][2] == A and st.trump == -1
    play(st, "marriage:H KH AH JH")  # hearts trump at once: B's ace wins
    assert st.trump == 0 and st.tricks[-1][2] == B and st.decl_points[A] == 100
    play(st, "JS AS QS")  # no trump in the trick: the highest spade
    assert st.tricks[-1][2] == C
    play(st, "marriage:D KD")
    assert st.trump == 1 and st.decl_points[C] == 80  # the latest marriage rules


@covers("thousand.marriage.once", "thousand.marriage.per-lead", ruleset=RULES)
def test_one_marriage_per_lead_each_suit_once() -> None:
    hands = ["KH QH KD QD AC TC 9C", "AH TH 9H JD 9D QC JS", "AD TD JH JC KC AS 9S"]
    st = deal(hands, talon="TS KS QS")
    play(st, "bid:100 pass pass give:9C give:TC keep AC")
    play(st, [legal_texts(st)[0]])
    play(st, [legal_texts(st)[0]])
    assert st.tricks[-1][2] == A
    play(st, "marriage:H")
    refused(st, "marriage:D", "thousand.marriage.per-lead")
    play(st, "KH")
    assert st.rules.declarations[0].once_scope == "suit"
    assert st.used_suit[0][A] == 1  # hearts used: never again this hand


@covers("thousand.marriage.window", ruleset=RULES)
def test_marriages_may_be_declared_late_in_the_hand() -> None:
    r = load_rules(RULES)
    assert r.declarations[0].window == "hand"
    st = b_wins_trick_one()
    st.trick_no = 7  # the seventh lead: two cards left is still enough
    assert "marriage:H" in legal_texts(st)


# ---------------------------------------------------------------- scoring a hand
@covers("thousand.score.sheet", "thousand.score.hand", "thousand.contract.result",
        ruleset=RULES)
def test_the_worked_example_of_a_contract_of_140() -> None:  # check 3
    assert sheet(140, (95, 17, 8), (80, 0, 40)) == [140, 15, 50]
    assert sheet(140, (95, 17, 8), (0, 0, 40)) == [-140, 15, 50]
    assert sheet(140, (95, 17, 8), (80, 0, 40), {"round_to": 10}) == [140, 20, 50]


def test_rounding_to_five_and_ten() -> None:  # check 2
    assert [round_to(p, 5) for p in (52, 53, 57, 58, 2)] == [50, 55, 55, 60, 0]
    assert [round_to(p, 10) for p in (44, 45, 4)] == [40, 50, 0]


@covers("thousand.contract.result", ruleset=RULES)
def test_the_contract_is_compared_exactly() -> None:  # check 4
    assert sheet(120, (118, 2, 0), (0, 0, 0))[A] == -120
    opts = {"declarer_round_before_check": True}
    assert sheet(120, (118, 2, 0), (0, 0, 0), opts)[A] == 120


@covers("thousand.score.hand", ruleset=RULES)
def test_a_played_hand_shares_120_card_points_in_eight_tricks() -> None:  # check 1
    st = a_declares()
    play(st, "give:9S give:9D keep")
    play_out(st)
    h = st.history[-1]
    assert sum(h.tricks) == 8 and h.ended == "played_out"
    assert h.points[A] + h.points[B] + h.points[C] - sum(
        v for _, _, _, v in st.declared) == 120


# ---------------------------------------------------------------- running totals
@covers("thousand.running", "thousand.running.barrel", ruleset=RULES)
def test_the_barrel_worked_examples() -> None:  # check 9
    st, done = settle([830, 0, 0], [55, 20, -100], declarer=C)
    assert done is None and st.match_scores[A] == 880 and st.barrel[A] == 0
    st, done = settle([845, 0, 0], [160, 0, 0])
    assert done == (A,) and st.match_scores[A] == 1005
    st, _ = settle([880, 0, 0], [-120, 0, 0], barrel=[0, -1, -1])
    assert st.match_scores[A] == 760 and st.barrel[A] == -1
    st = deal()
    st.barrel = [0, -1, -1]  # on the barrel
    for _ in range(3):  # three barrel hands as a defender, not won
        st, done = settle([880, 0, 0], [70, 20, 20], declarer=B, barrel=st.barrel, state=st)
    assert done is None and st.match_scores[A] == 760 and st.barrel[A] == -1


@covers("thousand.running", ruleset=RULES, options={"barrel": False})
def test_without_a_barrel_totals_past_880_are_neither_set_back_nor_frozen() -> None:
    # notes 10.2: barrel_at "null = no barrel"; the option barrel=false plays it
    off = {"barrel": False}
    assert load_rules(RULES, off).barrel_rule is None
    assert load_rules(RULES).barrel_rule == "thousand.running.barrel"
    st, done = settle([830, 0, 0], [55, 20, -100], declarer=C, options=off)
    assert done is None and st.match_scores[A] == 885 and st.barrel[A] == -1
    st, done = settle([885, 0, 0], [70, 20, 20], declarer=B, state=st)
    assert done is None and st.match_scores[A] == 955  # a defender's entry counts
    st, _ = settle([955, 0, 0], [-120, 0, 0], state=st)
    assert st.match_scores[A] == 835  # no fall to 760, no barrel hand counted
    st, done = settle([990, 0, 0], [10, 0, 0], declarer=B, state=st)
    assert done == (A,) and st.match_scores[A] == 1000  # a defender reaches the target


@covers("thousand.running.barrel", ruleset=RULES)
def test_a_made_contract_below_120_on_the_barrel_uses_an_attempt() -> None:
    st, done = settle([880, 0, 0], [100, 20, 0], barrel=[0, -1, -1])
    assert done is None and st.match_scores[A] == 880 and st.barrel[A] == 1
    st, done = settle([880, 0, 0], [120, 20, 0], barrel=[2, -1, -1])
    assert done == (A,) and st.match_scores[A] == 1000


@covers("thousand.running.barrel", ruleset=RULES)
def test_mounting_knocks_off_a_player_already_on_the_barrel() -> None:
    st, _ = settle([880, 860, 0], [0, 30, 0], declarer=C, barrel=[0, -1, -1])
    assert st.match_scores[:2] == [760, 880] and st.barrel[:2] == [-1, 0]


@covers("thousand.running.barrel", ruleset="thousand-pl")
def test_polish_800_rule() -> None:  # check 9
    st = start("thousand-pl", H1, dealer=C, stock=TALON1)
    st, _ = settle([790, 0, 0], [60, 0, 0], declarer=B, state=st)
    assert st.match_scores[A] == 850
    st, _ = settle([850, 0, 0], [60, 0, 0], declarer=B, barrel=st.barrel, state=st)
    assert st.match_scores[A] == 850


@covers("thousand.throw-in.four-nines", ruleset="thousand-pl")
def test_polish_rules_four_nines_are_claimed_on_the_dealt_hand() -> None:
    """Notes section 16, Polish preset: four_nines_redeal=before_bidding (kurnik)."""
    st = start("thousand-pl", NINES, dealer=C, stock="TC AS TS")
    assert "redeal" in legal_texts(st, A)  # before the first bid (A holds 100 unasked)
    st.apply(parse_action(st.rules, "redeal"), A)
    assert st.phase == Phase.DEAL and st.history[-1].ended == "redeal" and st.dealer == C
    st = start("thousand-pl", ["AH TH KH QH KD QD JS", "9H 9D 9C AD TD AC JH"], dealer=C,
               stock="9S AS TS")
    play(st, "pass pass give:9S give:AS")  # B holds all four nines after the exchange only
    assert "redeal" not in legal_texts(st, B)


@covers("thousand.talon.sitter", ruleset="thousand-pl", options={"players": 4})
def test_polish_rules_for_four_the_sitter_scores_aces_and_a_marriage() -> None:
    """Notes section 16, Polish preset: sitter_score=aces_and_marriages (kurnik, zagraj)."""
    st = start("thousand-pl", ["KS QS AD TD AC 9C JD"], dealer=3, stock="AH KD QD",
               options={"players": 4})
    play(st, "pass pass concede")  # A holds 100; a first bomb is free
    assert st.history[-1].score == (0, 0, 0, 50 + 80)  # check 14


def _bombs_round_the_table(options: dict[str, Any]) -> GameState:
    """Four players: each hand forehand holds 100 unasked, the others pass and he concedes.
    The first four bombs (one each, free) go round; the fifth is A's second."""
    st: GameState | None = None
    for k in range(5):
        st = start("thousand-pl", [], dealer=3, stock="9S JS 9C", options=options, state=st)
        assert st.dealer == (3 + k) % 4
        play(st, "pass pass concede")
        assert st.history[-1].ended == "conceded"
        if k < 4:
            assert st.history[-1].score == (0, 0, 0, 0)  # a first bomb is free
    assert st is not None
    return st


@covers("thousand.contract.concede", ruleset="thousand-pl", options={"players": 4})
def test_polish_rules_for_four_a_bomb_awards_40_each() -> None:
    """Notes section 16, Polish preset: concede_award is 60, but 40 with four players; a
    value given at the table stands."""
    assert _bombs_round_the_table({"players": 4}).history[-1].score == (0, 40, 40, 0)
    given = _bombs_round_the_table({"players": 4, "concede_award": 60})
    assert given.history[-1].score == (0, 60, 60, 0)


@covers("thousand.running.bolts", ruleset=RULES)
def test_a_third_bolt_costs_120_and_restarts() -> None:  # check 10
    st = deal()
    for k in range(3):
        st, _ = settle(st.match_scores, [100, 0, 20], declarer=A, tricks=(6, 0, 2), state=st)
        assert st.bolts[B] == (k + 1) % 3
    assert st.match_scores[B] == -120


@covers("thousand.running.dump", ruleset=RULES, options={"dump_at_555": "positive"})
def test_a_total_of_555_is_dumped() -> None:  # check 12
    st, _ = settle([530, 0, -530], [25, 0, -25], options={"dump_at_555": "positive"})
    assert st.match_scores[A] == 0 and st.match_scores[C] == -555
    st, _ = settle([530, 0, -530], [25, 0, -25], options={"dump_at_555": "both"})
    assert st.match_scores[C] == 0
    st, _ = settle([530, 0, 0], [25, 0, 0])
    assert st.match_scores[A] == 555


@covers("thousand.running.win", "thousand.match.end", "thousand.match.tie", ruleset=RULES)
def test_the_declarer_wins_when_several_reach_the_target() -> None:
    _, done = settle([900, 960, 980], [100, 50, 40], declarer=A, barrel=[-1, -1, -1])
    assert done == (A,)
    _, done = settle([200, 960, 980], [-100, 50, 10], declarer=A)
    assert done == (B,)
    _, done = settle([200, 960, 970], [-100, 50, 40], declarer=A)
    assert done == (None,)


@covers("thousand.running.win", ruleset=RULES, options={"win_rule": "exactly"})
def test_win_exactly_leaves_an_overshooting_total() -> None:
    _, done = settle([950, 0, 0], [60, 0, 0], options={"win_rule": "exactly"})
    st, done = settle([950, 0, 0], [60, 0, 0], options={"win_rule": "exactly",
                                                       "barrel_at": 990})
    assert done is None and st.match_scores[A] == 950


# ---------------------------------------------------------------- whole games
@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_to_1000_replays_identically(seed: int) -> None:
    from mariage.arena.bots import make_bot
    from mariage.commands.play_cmd import play_match
    r = load_rules(RULES)
    one = play_match(r, seed, [make_bot("greedy", s) for s in range(3)])
    two = play_match(r, seed, [make_bot("greedy", s) for s in range(3)])
    assert one.result == two.result and one.result is not None
    assert max(one.match_scores) >= 1000 or one.result.winner is None
    assert [h.score for h in one.history] == [h.score for h in two.history]
    assert SeededDeals(r, seed).first_dealer in (0, 1, 2)


def test_parse_concede_only_where_the_rules_have_it() -> None:
    assert str(parse_action(load_rules(RULES), "concede")) == "Concede()"
    with pytest.raises(ValueError):
        parse_action(load_rules("marjapussi-de"), "concede")


@covers("thousand.auction.silence", ruleset=RULES, options={"silence_below": -120})
def test_a_silenced_player_may_only_pass() -> None:
    st = deal(options={"silence_below": -120})
    st.match_scores[B] = -125
    play(st, "bid:100")
    assert legal_texts(st) == ["pass"]
    refused(st, "bid:105", "thousand.auction.silence")
    st = deal(options={"silence_below": -120})
    st.match_scores[A] = -300  # forehand must still open
    assert "pass" not in legal_texts(st) and "bid:100" in legal_texts(st)


# ---------------------------------------------------------------- each option, alone
#: option -> (the rule it changes, the compiled fields it may change): an option changes
#: what its section of the notes says and nothing else
OPTION_SCOPE: dict[str, tuple[str, frozenset[str]]] = {
    name: (rule, frozenset(fields.split())) for name, (rule, fields) in {
        "target": ("thousand.match.end", "match_target"),
        "bid_min": ("thousand.auction.bids", "bid_min"),
        "bid_step": ("thousand.auction.bids", "bid_step"),
        "bid_max": ("thousand.auction.bids", "bid_max"),
        "round_to": ("thousand.score.sheet", "rounding"),
        "barrel_at": ("thousand.running.barrel", "barrel_at"),
        "barrel": ("thousand.running.barrel", "barrel_rule"),
        "opening_bid": ("thousand.auction.opening", "opening"),
        "dump_at_555": ("thousand.running.dump", "dump_rule dump_negative"),
        "win_rule": ("thousand.running.win", "win_rule"),
        "marriage_values": ("thousand.marriage.value", "declarations bid_pair_values"),
        "redeal_dealer": ("thousand.running.redeal", "redeal_same_dealer"),
        "jump_bids": ("thousand.auction.bids", "bid_jumps"),
        "bid_cap": ("thousand.auction.cap", "bid_cap bid_cap_free bid_cap_rule bid_pair_masks "
                    "bid_pair_values"),
        "silence_below": ("thousand.auction.silence", "silence_below silence_rule"),
        "musik_shown": ("thousand.talon.shown", "talon_shown"),
        "exchange_face_up": ("thousand.exchange", "give_face_up"),
        "raise_allowed": ("thousand.contract.raise", "raise_rule"),
        "concede": ("thousand.contract.concede", "concede concede_rule concede_window "
                    "concede_award concede_costly_every concede_half_bid concede_limit"),
        "concede_window": ("thousand.contract.concede", "concede_window"),
        "concede_award": ("thousand.contract.concede", "concede_award"),
        "write_off_award": ("thousand.contract.concede", "concede_half_bid"),
        "concede_limit": ("thousand.contract.concede", "concede_limit"),
        "must_trump": ("thousand.play.trump", "obligation_stock obligation_no_stock"),
        "must_beat": ("thousand.play.beat", "obligation_stock obligation_no_stock"),
        "no_lead_foreign_trump": ("thousand.lead.foreign-trump", "foreign_trump_rule"),
        "marriage_first_lead": ("thousand.marriage.who", "decl_who"),
        "marriage_auto_declare": ("thousand.marriage.auto", "decl_auto_rule"),
        "trump_change": ("thousand.marriage.trump", "declarations"),
        "trump_rule": ("thousand.marriage.trump", "declarations"),
        "round_mode": ("thousand.score.sheet", "round_down"),
        "declarer_round_before_check": ("thousand.contract.result", "round_first"),
        "barrel_clamp": ("thousand.running.barrel", "barrel_clamp"),
        "barrel_attempts": ("thousand.running.barrel", "barrel_attempts"),
        "barrel_penalty": ("thousand.running.barrel", "barrel_penalty"),
        "barrel_collision": ("thousand.running.barrel", "barrel_collision"),
        "barrel_fail_contract": ("thousand.running.barrel", "barrel_fail_off"),
        "barrel_three_falls_reset": ("thousand.running.barrel", "barrel_third_fall_resets"),
        "bolt_condition": ("thousand.running.bolts", "bolt_condition bolt_rule"),
        "bolt_count": ("thousand.running.bolts", "bolt_consecutive"),
        "bolt_limit": ("thousand.running.bolts", "bolt_limit"),
        "bolt_penalty": ("thousand.running.bolts", "bolt_penalty"),
        "declarer_bolts": ("thousand.running.bolts", "bolt_declarer"),
        "dump_value": ("thousand.running.dump", "dump_value"),
        "review_last_trick": ("thousand.visibility", "trick_review"),
        "four_nines_redeal": ("thousand.throw-in.four-nines", "throw_four"),
        "redeal_four_jacks": ("thousand.throw-in.four-jacks", "throw_four"),
        "redeal_low_hand": ("thousand.throw-in.low-hand", "throw_low_below"),
        "redeal_weak_prikup": ("thousand.throw-in.weak-talon", "throw_talon_below"),
        "redeal_two_nines_prikup": ("thousand.throw-in.talon-nines", "throw_talon_rank "
                                    "throw_talon_rank_mask throw_talon_rank_rule"),
        "prikup_redeal_only_at_100": ("thousand.throw-in.weak-talon", "throw_talon_at_minimum"),
        "players": ("thousand.players", "nseats seat_names teams team_of team_names sits_out "
                    "sits_out_rule hand_seats hand_sides hand_size stock_size talon_packets "
                    "talon_packets_rule talon_out passing_steps"),
        "two_player_leftover": ("thousand.score.leftover", "leftover_rule"),
        "ace_marriage": ("thousand.ace-marriage", "declarations declarations_off"),
        "ace_marriage_trump": ("thousand.ace-marriage.trump", "declarations"),
        "sitter_score": ("thousand.talon.sitter", "sitter_talon sitter_talon_rule"),
        "sitter_ace_value": ("thousand.talon.sitter", "sitter_ace_value"),
        "sitter_marriage": ("thousand.talon.sitter", "sitter_pairs"),
        "sitter_half_marriage": ("thousand.talon.sitter", "sitter_half_pairs"),
        "sitter": ("thousand.deal.sitter", "sits_out sits_out_after"),
        "dark_bid": ("thousand.auction.dark", "blind_rule"),
        "dark_min_total": ("thousand.auction.dark", "blind_min_total"),
        "golden_round": ("thousand.running.golden", "golden_rule golden_mode"),
        "golden_double": ("thousand.running.golden", "golden_multiplier"),
        "golden_can_raise": ("thousand.running.golden", "golden_raise"),
        "golden_reset_if_none": ("thousand.running.golden", "golden_reset"),
    }.items()}
_SKIP = {"options", "defaults", "infos", "document", "card_index"}
#: Options that refine another: tested beside a value that puts that other in play.
BESIDE: dict[str, dict[str, Any]] = {"ace_marriage_trump": {"ace_marriage": 200},
                                     "sitter": {"players": 4}}
#: The number of players chooses a form of the game (notes, sections 12 and 13): with two,
#: the deal, the talon in packets, the cards laid away, the end of the auction, the hand's
#: points and what is seen change with it.
#: Without a barrel (notes 10.2), the dark bid's doubled entry ("before the barrel") and a
#: hand nobody bid ("counts neither as a barrel hand") are said without one as well;
#: without bolts (notes 10.3), those and a conceded hand ("No bolts are counted").
FORM_SECTIONS = {"players": ("deal", "talon", "passing", "auction.end", "scoring.hand",
                             "visibility"),
                 "barrel": ("match.running", "auction.blind", "auction.no_bid"),
                 "bolt_condition": ("match.running", "auction.blind", "auction.no_bid",
                                    "contract.concede")}


def _other_values(spec: dict[str, Any]) -> list[Any]:
    if spec["type"] == "bool":
        return [not spec["default"]]
    if spec["type"] == "enum":
        return [v for v in spec["values"] if v != spec["default"]]
    low = max(int(spec["min"]), int(spec["default"]) // 4)
    high = min(int(spec["max"]), int(spec["default"]) * 2)
    return [v for v in (low, high) if v != spec["default"]][:1] or [spec["max"]]


def _option_cases() -> list[tuple[str, str, Any]]:
    from mariage.spec.compile import option_specs
    from mariage.spec.options import playable
    from mariage.spec.specload import load_document
    out = []
    for ruleset in (RULES, "thousand-pl", "thousand-4", "thousand-2"):
        doc = load_document(ruleset)
        for name, spec in option_specs(doc).items():
            for value in _other_values(spec):
                if playable(doc, {**BESIDE.get(name, {}), name: value}):
                    out.append((ruleset, name, value))
    return out


OPTION_CASES = _option_cases()


def _scoped(ruleset: str, name: str, value: Any) -> None:
    """The test body of one option value (marked below, one mark per case)."""
    import dataclasses

    from mariage.spec.options import depends_on, option_specs
    from mariage.spec.specload import load_document
    rule, fields = OPTION_SCOPE[name]
    # options whose conditional defaults name this one follow it (and their rules too)
    specs = option_specs(load_document(ruleset))
    followers = [other for other, spec in specs.items() if name in depends_on(spec)]
    fields = fields.union(*(OPTION_SCOPE[other][1] for other in followers))
    context = BESIDE.get(name, {})
    base = load_rules(ruleset, context)
    changed = load_rules(ruleset, {**context, name: value})
    diff = {f.name for f in dataclasses.fields(base) if f.name not in _SKIP
            and getattr(base, f.name) != getattr(changed, f.name)}
    assert diff, f"{name}={value} changes nothing"
    assert diff <= fields, f"{name}={value} changes {sorted(diff - fields)} besides its rule"
    texts = {i.id for i, j in zip(base.infos, changed.infos, strict=True) if i.text != j.text}
    paths = {i.id: i.path for i in base.infos}
    section = paths[rule].rsplit(".", 1)[0] if "." in paths[rule] else paths[rule]
    cites = set().union(*(_citing(base.document, "{" + n + "}")  # texts quoting a value
                          for n in (name, *followers)))
    rules = {rule, *(OPTION_SCOPE[other][0] for other in followers)}
    sections = (section, *FORM_SECTIONS.get(name, ()))
    assert all(paths[t].startswith(sections) or t in rules or t in cites for t in texts), \
        (name, texts)


def _citing(node: Any, placeholder: str) -> set[str]:
    """The IDs of the rules whose text quotes ``placeholder``."""
    out: set[str] = set()
    if isinstance(node, dict):
        if placeholder in str(node.get("text", "")) and "id" in node:
            out.add(str(node["id"]))
        for v in node.values():
            out |= _citing(v, placeholder)
    elif isinstance(node, list):
        for v in node:
            out |= _citing(v, placeholder)
    return out


for _case in OPTION_CASES:
    covers(OPTION_SCOPE[_case[1]][0], ruleset=_case[0],
           options={**BESIDE.get(_case[1], {}), _case[1]: _case[2]})(_scoped)


def test_every_option_is_scoped() -> None:
    assert {name for _, name, _ in OPTION_CASES} == set(OPTION_SCOPE)


@pytest.mark.parametrize(("ruleset", "name", "value"), OPTION_CASES,
                         ids=[f"{r}-{n}={v}" for r, n, v in OPTION_CASES])
def test_each_option_changes_its_rule_and_nothing_else(ruleset: str, name: str,
                                                       value: Any) -> None:
    _scoped(ruleset, name, value)


# ---------------------------------------------------------------- throwing a hand in
NINES = ["9H 9D 9C 9S AD TD AC", "AH TH KH QH KD QD JS", "JH JD KC QC JC KS QS"]


@covers("thousand.throw-in", "thousand.throw-in.four-nines", ruleset=RULES)
def test_four_nines_after_the_exchange_throw_the_hand_in() -> None:
    st = deal(["AH TH KH QH KD QD JS", "9H 9D 9C AD TD AC JH"], talon="9S AS TS")
    play(st, "bid:100 pass pass")
    assert "redeal" not in legal_texts(st, B)
    play(st, "give:9S")  # B now holds all four nines
    play(st, "give:AS")
    assert "redeal" in legal_texts(st, B) and "redeal" not in legal_texts(st, A)
    refused(st, "redeal", "thousand.throw-in", seat=C)
    st.apply(parse_action(st.rules, "redeal"), B)
    assert st.phase == Phase.DEAL and st.history[-1].ended == "redeal"
    assert st.match_scores == [0, 0, 0] and st.dealer == C  # the same dealer deals again


@covers("thousand.throw-in.four-nines", ruleset=RULES,
        options={"four_nines_redeal": "original_hand"})
def test_four_nines_must_have_been_dealt_under_original_hand() -> None:
    opts = {"four_nines_redeal": "original_hand"}
    st = deal(["AH TH KH QH KD QD JS", "9H 9D 9C AD TD AC JH"], talon="9S AS TS",
              options=opts)
    play(st, "bid:100 pass pass give:9S give:AS")
    assert "redeal" not in legal_texts(st, B)
    st = deal(["AH TH KH QH KD QD JS", NINES[0]], talon="KC AS TS", options=opts)
    play(st, "bid:100 pass pass give:KC give:AS")
    assert "redeal" in legal_texts(st, B)


@covers("thousand.throw-in.four-nines", ruleset=RULES,
        options={"four_nines_redeal": "before_bidding"})
def test_four_nines_before_bidding() -> None:
    st = deal(NINES, talon="TC AS TS", options={"four_nines_redeal": "before_bidding"})
    assert "redeal" in legal_texts(st, A)
    play(st, "bid:100")
    assert "redeal" not in legal_texts(st, A)
    st = deal(NINES, talon="TC AS TS")
    assert "redeal" not in legal_texts(st, A)


@covers("thousand.throw-in.four-jacks", ruleset=RULES, options={"redeal_four_jacks": True})
def test_four_jacks_where_agreed() -> None:
    hands = ["AH TH KH QH KD QD AS", "JH JD JC JS AD TD AC"]
    st = deal(hands, talon="9S TS KS", options={"redeal_four_jacks": True})
    play(st, "bid:100 pass pass give:9S give:TS")
    assert "redeal" in legal_texts(st, B)
    st = deal(hands, talon="9S TS KS")
    play(st, "bid:100 pass pass give:9S give:TS")
    assert "redeal" not in legal_texts(st, B)


@covers("thousand.throw-in.four-jacks", ruleset=RULES,
        options={"redeal_four_jacks": True, "four_nines_redeal": "before_bidding"})
def test_four_jacks_at_the_moment_of_four_nines() -> None:
    """Four jacks count "like four nines" (notes section 3), at the same moment: on the
    dealt hand before the first bid, or (original_hand) only when dealt."""
    hands = ["AH TH KH QH KD QD AS", "JH JD JC JS AD TD AC"]
    early = {"redeal_four_jacks": True, "four_nines_redeal": "before_bidding"}
    assert "redeal" in legal_texts(deal(hands, talon="9S TS KS", options=early), B)
    st = deal(hands, talon="9S TS KS", options=early)
    play(st, "bid:100 pass pass give:9S give:TS")
    assert "redeal" not in legal_texts(st, B)
    dealt = ["AH TH KH QH KD QD JS", "JH JD JC 9S AD TD AC"]  # A gives B the fourth jack
    st = deal(dealt, talon="9H TS KS", options={**early, "four_nines_redeal": "original_hand"})
    play(st, "bid:100 pass pass give:JS give:TS")
    assert "redeal" not in legal_texts(st, B)


@covers("thousand.throw-in.low-hand", ruleset=RULES, options={"redeal_low_hand": 14})
def test_a_low_hand_before_the_first_bid() -> None:
    hands = ["9H 9D 9C JS JH JD QC"]  # 2+2+2+2+3 = 11 card points
    st = deal(hands, talon="AS TS KS", options={"redeal_low_hand": 14})
    assert "redeal" in legal_texts(st, A)
    assert "redeal" not in legal_texts(deal(hands, talon="AS TS KS"), A)


@covers("thousand.throw-in.weak-talon", ruleset=RULES, options={"redeal_weak_prikup": 5})
def test_a_weak_talon_at_100() -> None:
    opts = {"redeal_weak_prikup": 5}
    mine = ["KH QH AD TD AC TC KC"]
    st = deal(mine, talon="9S 9D JS", options=opts)  # 2 card points
    play(st, "bid:100 pass pass")
    assert "redeal" in legal_texts(st)
    st = deal(mine, talon="9S 9D JS", options=opts)
    play(st, "bid:105 pass pass")
    assert "redeal" not in legal_texts(st)  # only at the 100 nobody raised
    st = deal(mine, talon="9S 9D JS", options={**opts, "prikup_redeal_only_at_100": False})
    play(st, "bid:105 pass pass")
    assert "redeal" in legal_texts(st)


@covers("thousand.throw-in.weak-talon", "thousand.talon.shown", ruleset=RULES,
        options={"redeal_weak_prikup": 5, "musik_shown": "not_at_100", "opening_bid": "none"})
def test_a_voluntary_100_is_not_the_compulsory_one() -> None:
    # notes 3 (prikup_redeal_only_at_100) and 5.1 (musik_shown=not_at_100) speak of "the
    # compulsory 100 that nobody raised"; under opening_bid=none nobody must open, so a
    # 100 bid of his own will is not it: the talon is shown and no weak-talon claim
    # (before, both followed the contract's value alone)
    mine = ["KH QH AD TD AC TC KC"]
    talon = "9S 9D JS"  # 2 card points
    none = {"opening_bid": "none"}

    def won_at_100(options: dict[str, Any]) -> GameState:
        st = deal(mine, talon=talon, options=options)
        play(st, "bid:100 pass pass")
        assert st.declarer == A and st.contract == 100
        return st

    unshown = {"musik_shown": "not_at_100"}
    mask = sum(1 << load_rules(RULES).card(c) for c in talon.split())
    assert won_at_100(unshown).known[A] & mask == 0  # the compulsory opening (fh_forced)
    assert won_at_100({**unshown, **none}).known[A] & mask == mask  # shown
    weak = {"redeal_weak_prikup": 5}
    assert "redeal" in legal_texts(won_at_100(weak))
    assert "redeal" not in legal_texts(won_at_100({**weak, **none}))
    assert "redeal" in legal_texts(won_at_100({**weak, **none,
                                                "prikup_redeal_only_at_100": False}))
    said = load_rules(RULES, {**weak, **none}).infos
    assert "compulsory opening" in next(i.text for i in said
                                        if i.id == "thousand.throw-in.weak-talon")


@covers("thousand.throw-in.talon-nines", ruleset=RULES,
        options={"redeal_two_nines_prikup": True})
def test_two_nines_in_the_talon() -> None:
    st = deal(["KH QH AD TD AC 9C JD", "AH TH JH KD QD 9H JS"], talon="9S 9D TS",
              options={"redeal_two_nines_prikup": True})
    play(st, "bid:100 pass pass")
    assert "redeal" in legal_texts(st)
    play(st, "redeal")
    assert st.history[-1].ended == "redeal"


# ---------------------------------------------------------------- four players
@covers("thousand.deal.sitter", ruleset="thousand-4")
def test_four_players_the_dealer_sits_out() -> None:
    r = load_rules("thousand-4")
    st = GameState(r, first_dealer=3)
    st.deal(list(range(24)))
    assert st.out == 3 and st.hands[3] == 0 and [st.hands[s].bit_count() for s in range(3)] \
        == [7, 7, 7]
    assert st.to_act == 0
    play(st, "bid:100 pass pass")
    assert st.declarer == 0 and st.phase == Phase.PASSING
    play(st, "give:" + cards(st, 0).split()[0])
    assert st.pass_step == 1  # the first card went to B (seat 1), not to the sitter


@covers("thousand.talon.sitter", ruleset="thousand-4",
        options={"sitter_score": "aces_and_marriages"})
def test_the_sitter_scores_aces_and_a_marriage_in_the_talon() -> None:  # check 14
    opts = {"sitter_score": "aces_and_marriages"}
    st = start("thousand-4", ["KS QS AD TD AC 9C JD"], dealer=3, stock="AH KD QD",
               options=opts)
    play(st, "bid:100 pass pass give:9C give:JD keep")
    play_out(st)
    assert st.history[-1].score[3] == 130
    st = start("thousand-4", ["KS QS AD TD AC 9C JD"], dealer=3, stock="AH KD QD")
    play(st, "bid:100 pass pass give:9C give:JD keep")
    play_out(st)
    assert st.history[-1].score[3] == 0


@covers("thousand.talon.sitter", ruleset="thousand-4",
        options={"sitter_score": "card_points", "sitter_half_marriage": True})
def test_the_sitter_scores_the_talon_card_points() -> None:
    opts = {"sitter_score": "card_points", "sitter_half_marriage": True}
    st = start("thousand-4", ["KS QS AD TD AC 9C JD"], dealer=3, stock="AH KD 9D",
               options=opts)
    play(st, "bid:100 pass pass concede")
    assert st.history[-1].score[3] == 15 + 40  # 11 + 4 rounded, half of the diamonds 80


# ---------------------------------------------------------------- trump change, check 8
@covers("thousand.marriage.trump", ruleset=RULES, options={"trump_change": "next_trick"})
def test_a_trump_change_that_waits_for_the_next_trick() -> None:  # check 8
    hands = ["KD QD AD TD 9C TC KC", "AH TH 9H JD 9D QC JS", "JH AC AS KH QH JC 9S"]
    for change, winner in (("immediate", A), ("next_trick", C)):
        st = deal(hands, talon="TS KS QS", options={"trump_change": change})
        play(st, "bid:100 pass pass give:9C give:TC keep AD 9D 9S")  # A wins trick 1
        st.trump = 0  # hearts are trump (as if declared before)
        play(st, "marriage:D QD JD")  # diamonds announced by leading the queen
        immediate = change == "immediate"
        # C is void in diamonds: at once they are trump and he may play anything; with
        # next_trick hearts still rule this trick and he must trump with a heart
        assert (set(legal_texts(st)) == {"JH", "KH", "QH"}) != immediate
        play(st, "JH")
        assert st.tricks[-1][2] == winner
        assert st.trump == 1  # diamonds from the next trick in either case


# ---------------------------------------------------------------- the ace marriage
ACES = ["AH AD AC AS KH QH 9S", "TH JH 9H KD QD 9C JS", "9D KC QC JC TC KS QS"]


def aces_on_lead(options: dict[str, Any]) -> GameState:
    """A, holding the four aces, declares at 100 and wins trick 1 with TS."""
    st = deal(ACES, "JD TD TS", options)
    play(st, "bid:100 pass pass give:9S give:JD keep TS JS QS")
    assert st.leader == A and st.trick_no == 2
    return st


@covers("thousand.ace-marriage", "thousand.ace-marriage.value", "thousand.ace-marriage.lead",
        "thousand.ace-marriage.trump", "thousand.ace-marriage.once", ruleset=RULES,
        options={"ace_marriage": 200})
def test_an_ace_marriage_scores_its_value_by_leading_an_ace() -> None:
    assert "aces:C" not in legal_texts(aces_on_lead({}))  # off by default
    st = aces_on_lead({"ace_marriage": 200})
    assert [t for t in legal_texts(st) if t.startswith("aces")] == \
        ["aces:H", "aces:D", "aces:C", "aces:S"]
    play(st, "aces:C")
    assert st.decl_points == [200, 0, 0] and st.trump == -1  # no trump by default
    assert legal_texts(st) == ["AC"]  # the ace named is led
    play(st, "AC 9C QC")
    assert not any(t.startswith("aces") for t in legal_texts(st))  # once a hand
    st = aces_on_lead({"ace_marriage": 150})
    play(st, "aces:D")
    assert st.decl_points == [150, 0, 0]


@covers("thousand.ace-marriage.trump", ruleset=RULES,
        options={"ace_marriage": 200, "ace_marriage_trump": "led_suit"})
def test_the_led_ace_makes_trump_where_agreed() -> None:
    st = aces_on_lead({"ace_marriage": 200, "ace_marriage_trump": "led_suit"})
    play(st, "aces:C")
    assert st.trump == st.rules.suits.index("C") and st.decl_points == [200, 0, 0]


@covers("thousand.auction.cap", ruleset=RULES, options={"ace_marriage": 200})
def test_the_ace_marriage_does_not_count_for_the_bid_cap() -> None:
    st = deal(["AH AD AC AS JH 9H 9S", "TH KH QH KD QD 9C JS", "9D KC QC JC TC KS QS"],
              "JD TD TS", {"ace_marriage": 200})
    refused(st, "bid:125", "thousand.auction.cap")
