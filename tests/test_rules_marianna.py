"""One test (at least) per rule ID of Marianna, with exact deals.

Seats are numbered in playing order (N W S E = 0 1 2 3); N-S and W-E are
partners. Most deals use dealer 3 (E), so that seat 0 (N) leads trick 1.
"""

from __future__ import annotations

import pytest
from mariage import Phase
from rulekit import (
    cards,
    check_match_target,
    covers,
    hand_gain,
    legal,
    legal_texts,
    play,
    play_out,
    play_tricks,
    refused,
    rules_of,
    start,
    suit,
)

NS, WE = 0, 1

# Four hands without any king-queen pair; each seat holds one whole suit rank band.
FOUR_PAIRS = ["KH QH 7H JH 6H", "KD QD 2D 5D 6D", "KC QC 4H 5C 6C", "KS QS 2S 7C 2C"]
PLAIN = ["AH 2S 4S 5S 6S", "3H 2D 4D 5D 6D", "KH 2C 4C 5C 6C", "JH 7D 7C 7S JS"]


def _trick_one(options: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """Seat 0 holds KH QH, seat 1 KD QD; seat 2 has 4H, seat 3 a lone club."""
    return start("marianna", ["KH QH 2S 5S 6S", "KD QD 2D 5D 6D", "4H AS 3S 5C 6C",
                              "2C 7D 7C 7S JS"], dealer=3, options=options)


def _bring_turn_to(state, seat: int, keep: str = "", tricks: int = 0) -> None:  # type: ignore[no-untyped-def]
    """Play (avoiding ``keep``) until ``seat`` is to act, after ``tricks`` more tricks."""
    r = state.rules
    kept = {r.card(c) for c in keep.split()}
    goal = state.trick_no + tricks
    while state.trick_no < goal or state.to_act != seat:
        texts = [t for t in legal_texts(state) if t in r.card_index]
        pick = next((t for t in texts if r.card(t) not in kept), texts[0])
        play(state, pick)


@covers("marianna.players", ruleset="marianna")
def test_four_seats_two_partnerships_play_passes_in_seat_order() -> None:
    state = start("marianna", PLAIN, dealer=3)
    r = state.rules
    assert r.nseats == 4 and r.team_of == (0, 1, 0, 1)
    order = []
    for card in ("6S", "6D", "6C", "7S"):
        order.append(state.to_act)
        play(state, card)
    assert order == [0, 1, 2, 3]
    # 7S is the only spade above 6S: seat 3 wins, and the card points go to W-E
    assert state.tricks[-1][2] == 3 and state.to_act == 3


@covers("marianna.pack", ruleset="marianna")
def test_pack_ranks_and_points() -> None:
    r = rules_of("marianna")
    assert r.ncards == 40 and r.pack_points == 120
    assert [r.card_code[c] for c in range(10)] == \
        ["AH", "3H", "KH", "QH", "JH", "7H", "6H", "5H", "4H", "2H"]
    assert [r.points[r.card(c)] for c in ("AH", "3H", "KH", "QH", "JH", "7H", "2H")] == \
        [11, 10, 4, 3, 2, 0, 0]
    # the three ranks above the king: 3H beats KH; AH beats 3H
    state = start("marianna", PLAIN, dealer=3)
    play(state, "AH 3H KH JH")
    assert state.tricks[-1][2] == 0 and state.hand_points(NS) == 11 + 10 + 4 + 2
    state = start("marianna", ["KH 2S 4S 5S 6S", "3H 2D 4D 5D 6D", "AH 2C 4C 5C 6C",
                               "JH 7D 7C 7S JS"], dealer=3)
    play(state, "KH 3H 2C JH")
    assert state.tricks[-1][2] == 1


@covers("marianna.deal", ruleset="marianna")
def test_deal_five_each_from_the_dealers_right_stock_of_twenty_no_trump() -> None:
    r = rules_of("marianna")
    from mariage import GameState
    state = GameState(r, first_dealer=2)
    state.deal(list(range(40)))
    # dealer 2: seat 3 gets the top packet, then 0, 1 and the dealer
    assert cards(state, 3) == "AH 3H KH QH JH"
    assert cards(state, 0) == "7H 6H 5H 4H 2H"
    assert cards(state, 1) == "AD 3D KD QD JD"
    assert cards(state, 2) == "7D 6D 5D 4D 2D"
    assert len(state.stock) == 20 and state.turn_up is None and state.trump == -1
    assert r.card_code[state.stock[-1]] == "AC"  # the next card is the top of the stock


@covers("marianna.deal.rotation", "marianna.lead.first", ruleset="marianna")
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_dealer_passes_to_the_right_and_his_right_hand_leads(dealer: int) -> None:
    state = start("marianna", PLAIN, dealer=dealer)
    assert state.leader == (dealer + 1) % 4 and state.to_act == (dealer + 1) % 4
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer == (dealer + 1) % 4
    start("marianna", PLAIN, state=state)
    assert state.to_act == (dealer + 2) % 4


@covers("marianna.lead.first", "marianna.trick.winner", ruleset="marianna")
def test_trick_winner_leads_the_next_trick() -> None:
    state = start("marianna", PLAIN, dealer=3)
    play(state, "6S 6D 6C 7S")
    assert state.to_act == 3 and state.leader == 3 and state.trick_no == 2


@covers("marianna.play.free", ruleset="marianna")
def test_no_duty_to_follow_head_or_trump_in_any_trick() -> None:
    state = start("marianna", PLAIN, dealer=3)
    play(state, "AH")
    # seat 1 holds 3H (would head the trick) but may discard a diamond
    assert set(legal_texts(state)) == {"3H", "2D", "4D", "5D", "6D"}
    play(state, "2D")
    # tricks 6-10, from hand: still any card
    play_tricks(state, 5)
    assert state.trick_no == 6 and not state.stock
    hand = state.rules.cards_of(state.hands[state.to_act])
    assert len(legal_texts(state)) == len(hand) == 5
    play(state, legal_texts(state)[0])
    assert len(legal_texts(state)) == 5


@covers("marianna.trick.winner", ruleset="marianna")
def test_highest_of_the_suit_led_wins_and_a_third_suit_never_wins() -> None:
    state = start("marianna", PLAIN, dealer=3)
    play(state, "2S 2D 2C JS")  # no trump: JS (suit led) beats 2S; 2D and 2C never win
    assert state.tricks[-1][2] == 3


@covers("marianna.trick.winner", "marianna.decl.trump", ruleset="marianna")
def test_fourth_players_marianna_makes_an_earlier_card_a_winning_trump() -> None:
    hands = ["AH 2D 4S 5S 6S", "2S 3D 4D 5D 6D", "4H 2C 4C 5C 6C", "KS QS 7D 7C JS"]
    state = start("marianna", hands, dealer=3)
    play(state, "AH 2S 4H")
    before = state.clone()
    play(before, "7D")
    assert before.tricks[-1][2] == 0  # without a declaration the ace led wins
    play(state, "marianna:S")
    assert state.trump == suit(state, "S")
    play(state, "7D")  # seat 3 need not play either declared card
    # trump as it stands at the end of the trick: seat 1's 2S, played before, wins
    assert state.tricks[-1][2] == 1 and state.hand_points(WE) == 40 + 11


@covers("marianna.decl.trump", "marianna.decl.value", "marianna.decl.who",
        ruleset="marianna")
def test_several_declarations_in_one_trick_the_latest_fixes_trump() -> None:
    state = _trick_one()
    play(state, "marianna:H")
    assert state.trump == suit(state, "H") and state.hand_points(NS) == 40
    play(state, "2S marianna:D")  # the follower declares at his own turn
    assert state.trump == suit(state, "D") and state.hand_points(WE) == 60
    play(state, "2D 4H 2C")
    assert state.trump == suit(state, "D")
    assert state.tricks[-1][2] == 1  # 2D is trump at the end; 4H would win under hearts


@covers("marianna.decl.trump", ruleset="marianna", options={"first_fixes_trump": True})
def test_first_fixes_trump_option() -> None:
    state = _trick_one({"first_fixes_trump": True})
    play(state, "marianna:H 2S marianna:D 2D 4H 2C")
    assert state.trump == suit(state, "H")
    assert state.tricks[-1][2] == 2  # 4H, trump from the first marianna, wins
    assert (state.hand_points(NS), state.hand_points(WE)) == (40, 60)  # both still score


@covers("marianna.decl.value", ruleset="marianna")
def test_values_forty_sixty_eighty_hundred_by_order_whichever_team() -> None:
    state = start("marianna", FOUR_PAIRS, dealer=3)
    play(state, "marianna:H 7H marianna:D 2D marianna:C 4H marianna:S 2S")
    assert [v for (_, _, _, v) in state.declared] == [40, 60, 80, 100]
    assert state.trump == suit(state, "S")  # the latest declarer fixes trump
    assert state.tricks[-1][2] == 3
    assert state.decl_points == [40 + 80, 60 + 100]


@covers("marianna.decl.value", ruleset="marianna",
        options={"marianna_values": "20-40-60-80"})
def test_values_twenty_forty_sixty_eighty_option() -> None:
    state = start("marianna", FOUR_PAIRS, dealer=3, options={"marianna_values": "20-40-60-80"})
    play(state, "marianna:H 7H marianna:D 2D marianna:C 4H marianna:S 2S")
    assert [v for (_, _, _, v) in state.declared] == [20, 40, 60, 80]


@covers("marianna.decl.marianna", ruleset="marianna")
def test_marianna_needs_king_and_queen_in_hand() -> None:
    state = start("marianna", ["KH JH 2S 5S 6S", "QH KD QD 5D 6D"], dealer=3)
    assert not any(t.startswith("marianna") for t in legal_texts(state))
    refused(state, "marianna:H", "marianna.decl.marianna")
    play(state, "KH")
    legal(state, "marianna:D")
    refused(state, "marianna:H", "marianna.decl.marianna")


@covers("marianna.decl.once", ruleset="marianna")
def test_each_suit_once_per_hand() -> None:
    state = start("marianna", ["KH QH 2S 5S 6S"], dealer=3)
    play(state, "marianna:H 2S")
    _bring_turn_to(state, 0, keep="KH QH", tricks=1)
    assert state.trick_no == 2 and "KH QH" in cards(state, 0)
    assert "marianna:H" not in legal_texts(state)
    refused(state, "marianna:H", "marianna.decl.once")


@covers("marianna.decl.per-trick", ruleset="marianna")
def test_one_declaration_per_player_per_trick() -> None:
    state = start("marianna", ["KH QH KD QD 6S"], dealer=3)
    play(state, "marianna:H")
    refused(state, "marianna:D", "marianna.decl.per-trick")
    play(state, "6S")
    assert state.trump == suit(state, "H")


@covers("marianna.decl.window", "marianna.draw", ruleset="marianna")
def test_no_declaration_once_the_stock_is_exhausted() -> None:
    state = start("marianna", ["KH QH 2S 5S 6S"], dealer=3)
    play_tricks(state, 5, keep="KH QH")
    assert not state.stock and state.trick_no == 6
    _bring_turn_to(state, 0, keep="KH QH")
    assert "KH QH" in cards(state, 0)
    refused(state, "marianna:H", "marianna.decl.window")


@covers("marianna.decl.window", ruleset="marianna", options={"trick_six": True})
def test_trick_six_option_allows_trick_six_only() -> None:
    opts = {"trick_six": True}
    state = start("marianna", ["KH QH KD QD 6S"], dealer=3, options=opts)
    play_tricks(state, 5, keep="KH QH KD QD")
    assert state.trick_no == 6 and not state.stock
    _bring_turn_to(state, 0, keep="KH QH KD QD")
    play(state, "marianna:H")
    assert state.trump == suit(state, "H")
    _bring_turn_to(state, 0, keep="KH QH KD QD", tricks=1)
    assert state.trick_no == 7
    refused(state, "marianna:D", "marianna.decl.window")


@covers("marianna.draw", ruleset="marianna")
def test_trick_winner_draws_first_then_in_playing_order() -> None:
    state = start("marianna", PLAIN, dealer=3, stock="AC 3C KC QC AD")
    play(state, "6S 6D 6C 7S")  # seat 3 wins
    r = state.rules
    got = {s: state.hands[s] for s in range(4)}
    assert got[3] >> r.card("AC") & 1 and got[0] >> r.card("3C") & 1
    assert got[1] >> r.card("KC") & 1 and got[2] >> r.card("QC") & 1
    assert r.card_code[state.stock[-1]] == "AD" and len(state.stock) == 16


@covers("marianna.decl.who", ruleset="marianna", options={"declare_when": "trick_start"})
def test_trick_start_window_in_playing_order_with_pass() -> None:
    opts = {"declare_when": "trick_start"}
    state = start("marianna", ["KH QH 2S 5S 6S", "KD QD 2D 5D 6D", "4H KC QC 5C 6C",
                               "7D 7C 7S JS 2C"], dealer=3, options=opts)
    assert state.phase == Phase.WINDOW and state.to_act == 0
    assert legal_texts(state) == ["marianna:H", "pass"]
    refused(state, "2S", "core.phase")
    play(state, "pass marianna:D marianna:C pass")
    assert state.phase == Phase.PLAY and state.to_act == 0
    assert state.trump == suit(state, "C")  # the last in playing order fixes trump
    assert [v for (_, _, _, v) in state.declared] == [40, 60]
    refused(state, "marianna:H", "marianna.decl.who")  # the window is closed
    play(state, "2S")
    refused(state, "marianna:D", "marianna.decl.who")
    play(state, "2D 4H 7D")
    assert state.phase == Phase.WINDOW  # a new window opens for trick 2


@covers("marianna.decl.who", ruleset="marianna", options={"declare_when": "trick_start"})
def test_trick_start_window_closes_with_the_stock() -> None:
    state = start("marianna", ["KH QH 2S 5S 6S"], dealer=3,
                  options={"declare_when": "trick_start"})
    for _ in range(5):
        play(state, "pass pass pass pass")
        play_tricks(state, 1, keep="KH QH")
    assert state.trick_no == 6 and state.phase == Phase.PLAY
    refused(state, "pass", "core.phase")


@covers("marianna.decl.leader-only", ruleset="marianna", options={"declare_who": "leader"})
def test_leader_only_option() -> None:
    state = start("marianna", ["KH QH 2S 5S 6S", "KD QD 2D 5D 6D", "2C 4C 5C 6C 7C",
                               "2H 4H 5H 6H 7H"], dealer=3, options={"declare_who": "leader"})
    play(state, "2S")
    assert "marianna:D" not in legal_texts(state)
    refused(state, "marianna:D", "marianna.decl.leader-only")
    play(state, "2D 2C 2H")  # 2S, the only card of the suit led, wins
    assert state.tricks[-1][2] == 0
    play(state, "marianna:H")
    assert state.trump == suit(state, "H")


@covers("marianna.decl.mariannino", "marianna.decl.mariannino.value",
        "marianna.decl.mariannino.trump", ruleset="marianna")
def test_mariannino_whole_hand_250_kings_suit_trump_not_in_the_order() -> None:
    state = start("marianna", ["QH QD QC QS KH", "KD 2D 5D 6D 7D", "2C 4C 5C 6C 7C",
                               "2S 4S 5S 6S 7S"], dealer=3)
    assert "mariannino:H" in legal_texts(state)
    refused(state, "mariannino:D", "marianna.decl.mariannino")
    play(state, "mariannino:H")
    assert state.trump == suit(state, "H") and state.hand_points(NS) == 250
    play(state, "QC")
    # seat 1 holds KD but not QD; seat 0's marianna of hearts is still to come
    play(state, "7D 2C 2S")
    assert state.trick_no == 2
    _bring_turn_to(state, 0, keep="KH QH")
    play(state, "marianna:H")
    assert state.declared[-1][3] == 40  # the mariannino did not count in the order


@covers("marianna.decl.mariannino", ruleset="marianna")
def test_mariannino_needs_four_queens_and_a_king() -> None:
    state = start("marianna", ["QH QD QC KS KH"], dealer=3)
    assert not any(t.startswith("mariannino") for t in legal_texts(state))
    refused(state, "mariannino:H", "marianna.decl.mariannino")


def _second_mariannino(options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    # seat 0 plays KH, wins the trick, draws KD first: a second mariannino pattern
    state = start("marianna", ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                               "2S 4S 5S 6S 7S"], dealer=3, stock="KD", options=options)
    play(state, "mariannino:H KH 2D 2C 2S")
    assert state.tricks[-1][2] == 0 and cards(state, 0) == "QH KD QD QC QS"
    return state


@covers("marianna.decl.mariannino.once", "marianna.decl.mariannino.value", ruleset="marianna")
def test_a_second_mariannino_with_another_king_is_allowed() -> None:
    state = _second_mariannino()
    assert "mariannino:D" in legal_texts(state)
    play(state, "mariannino:D")
    assert [v for (_, _, _, v) in state.declared] == [250, 250]
    assert state.trump == suit(state, "D") and state.hand_points(NS) == 500 + 4


@covers("marianna.decl.mariannino.once", ruleset="marianna", options={"combination_once": True})
def test_mariannino_at_most_once_per_hand_option() -> None:
    state = _second_mariannino({"combination_once": True})
    assert "mariannino:D" not in legal_texts(state)
    refused(state, "mariannino:D", "marianna.decl.mariannino.once")


@covers("marianna.decl.mariannino.once", ruleset="marianna")
def test_the_same_kings_mariannino_is_not_declared_twice() -> None:
    # unreachable in play (a card must be played and the queens cannot come back), so
    # checked directly: the same king's mariannino is refused a second time
    state = start("marianna", ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                               "2S 4S 5S 6S 7S"], dealer=3)
    play(state, "mariannino:H")
    state.decl_this_trick[0] = 0  # as if in a later trick, the same five cards in hand
    refused(state, "mariannino:H", "marianna.decl.mariannino.once")


@covers("marianna.decl.mariannone", "marianna.decl.mariannone.value",
        "marianna.decl.mariannone.trump", ruleset="marianna")
def test_mariannone_500_wins_the_match_at_once_trump_unchanged() -> None:
    state = start("marianna", ["2S 5S 6S 7S JS", "KH KD KC KS QH"], dealer=3)
    play(state, "2S")
    assert [t for t in legal_texts(state) if ":" in t] == \
        ["marianna:H", "mariannone:H"]
    refused(state, "mariannone:D", "marianna.decl.mariannone")  # named by the queen's suit
    play(state, "mariannone:H")
    assert state.terminal and state.result is not None
    assert state.result.winner == WE and state.result.reason == "match_won"
    assert state.trump == -1  # a mariannone does not set trump
    assert state.history[-1].points == (0, 500)
    refused(state, "4H", "core.over", seat=1)


@covers("marianna.decl.mariannone", ruleset="marianna")
def test_mariannone_needs_four_kings_and_a_queen() -> None:
    state = start("marianna", ["KH KD KC QH QD"], dealer=3)
    assert not any(t.startswith("mariannone") for t in legal_texts(state))
    refused(state, "mariannone:H", "marianna.decl.mariannone")


@covers("marianna.decl.mariannone.once", ruleset="marianna")
def test_mariannone_once_per_hand_is_moot_because_it_ends_the_match() -> None:
    # A second mariannone can never be made: the first ends the match (core.over).
    for opts, scope in (({}, "suit"), ({"combination_once": True}, "hand")):
        r = rules_of("marianna", **opts)
        d = next(d for d in r.declarations if d.name == "mariannone")
        assert d.once_scope == scope and d.once_rule == "marianna.decl.mariannone.once"
        assert d.wins_match


@covers("marianna.score.hand", ruleset="marianna")
def test_hand_worth_120_plus_declarations_added_to_the_running_score() -> None:
    state = start("marianna", FOUR_PAIRS, dealer=3)
    play(state, "marianna:H 7H marianna:D 2D marianna:C 4H marianna:S 2S")
    play_out(state)
    rec = state.history[-1]
    assert rec.ended == "played_out" and sum(rec.tricks) == 10
    assert sum(rec.points) == 120 + 40 + 60 + 80 + 100  # no last-trick bonus
    assert rec.score == rec.points and state.match_scores == list(rec.points)
    assert rec.points[NS] - (40 + 80) == state.captured[NS]


@covers("marianna.match.end", "marianna.match.tie", ruleset="marianna")
def test_match_to_501_higher_wins_tie_plays_on() -> None:
    check_match_target(lambda: start("marianna", FOUR_PAIRS, dealer=3), 501)


@covers("marianna.match.end", "marianna.match.tie", ruleset="marianna",
        options={"target": 300})
def test_target_option() -> None:
    rules = rules_of("marianna", target=300)
    assert rules.match_target == 300
    check_match_target(lambda: start(rules, FOUR_PAIRS, dealer=3), 300)


@covers("marianna.match.tie", "marianna.deal.rotation", ruleset="marianna")
def test_after_a_tie_the_next_dealer_deals_another_hand_that_decides() -> None:
    state = start("marianna", FOUR_PAIRS, dealer=3)
    gain = hand_gain(state)
    assert gain[NS] != gain[WE]
    state.match_scores = [501 - gain[NS], 501 - gain[WE]]
    play_out(state)
    assert state.phase == Phase.DEAL and state.match_scores == [501, 501]
    assert state.dealer == 0
    start("marianna", FOUR_PAIRS, state=state)
    assert state.to_act == 1
    play_out(state)
    assert state.terminal and state.result is not None
    scores = state.match_scores
    assert scores[NS] != scores[WE]
    assert state.result.winner == (NS if scores[NS] > scores[WE] else WE)


def _five_queens_and_king_at_trick_six(options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    """N wins tricks 1-5 with spades and draws the king of hearts last."""
    state = start("marianna", ["QH QD QC QS AS"], dealer=3, options=options,
                  stock="3S 2H 2D 2C KS 4H 4D 4C JS 5H 5D 5C 7S 6H 6D 6C KH 7H 7D 7C")
    play_tricks(state, 5, keep="QH QD QC QS KH")
    assert all(w == 0 for (_, _, w) in state.tricks) and state.to_act == 0
    assert cards(state, 0) == "KH QH QD QC QS" and state.trick_no == 6
    return state


@covers("marianna.decl.window", "marianna.decl.mariannino", ruleset="marianna")
def test_no_mariannino_after_the_stock_is_exhausted() -> None:
    state = _five_queens_and_king_at_trick_six()
    assert not any(":" in t for t in legal_texts(state))
    refused(state, "mariannino:H", "marianna.decl.window")


@covers("marianna.decl.window", "marianna.decl.mariannino.value", ruleset="marianna",
        options={"trick_six": True})
def test_mariannino_in_trick_six_with_the_option() -> None:
    state = _five_queens_and_king_at_trick_six({"trick_six": True})
    play(state, "mariannino:H")
    assert state.hand_points(NS) >= 250 and state.trump == suit(state, "H")


@covers("marianna.match.tie", ruleset="marianna", options={"tie": "draw"})
def test_tie_draw_option() -> None:
    rules = rules_of("marianna", tie="draw")
    check_match_target(lambda: start(rules, FOUR_PAIRS, dealer=3), 501, tie="draw")


@covers("marianna.decl.mariannino.trump", ruleset="marianna",
        options={"first_fixes_trump": True})
def test_first_fixes_trump_a_later_mariannino_does_not_change_trump() -> None:
    # N declares the marianna of hearts (trump fixed), leads KH, wins and draws KD:
    # four queens and a king again, a mariannino in diamonds
    for opts, trump in (({"first_fixes_trump": True}, "H"), ({}, "D")):
        state = start("marianna", ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                                   "2S 4S 5S 6S 7S"], dealer=3, stock="KD", options=opts)
        play(state, "marianna:H KH 2D 2C 2S")
        assert state.tricks[-1][2] == 0 and cards(state, 0) == "QH KD QD QC QS"
        play(state, "mariannino:D")
        assert state.declared[-1][3] == 250 and state.trump == suit(state, trump), opts


@covers("marianna.decl.who", "marianna.decl.leader-only", ruleset="marianna",
        options={"declare_when": "trick_start", "declare_who": "leader"})
def test_trick_start_window_for_the_leader_alone() -> None:
    opts = {"declare_when": "trick_start", "declare_who": "leader"}
    state = start("marianna", FOUR_PAIRS, dealer=3, options=opts)
    assert state.phase == Phase.WINDOW and state.to_act == 0
    assert legal_texts(state) == ["marianna:H", "pass"]
    play(state, "marianna:H")
    assert state.phase == Phase.PLAY and state.to_act == 0  # the window was his alone
    play(state, "7H")
    assert not any(":" in t for t in legal_texts(state))
    refused(state, "marianna:D", "marianna.decl.who")
    # the next trick opens a window for its leader only, who may pass
    play(state, "2D 4H 2S")
    leader = state.tricks[-1][2]
    assert state.phase == Phase.WINDOW and state.to_act == leader
    play(state, "pass")
    assert state.phase == Phase.PLAY and state.to_act == leader


@covers("marianna.decl.combination-window", "marianna.decl.window", ruleset="marianna")
def test_the_cut_off_binds_the_mariannino_by_default() -> None:
    state = _five_queens_and_king_at_trick_six()
    refused(state, "mariannino:H", "marianna.decl.window")


@covers("marianna.decl.combination-window", "marianna.decl.mariannino", ruleset="marianna",
        options={"combination_window": "any_trick"})
def test_combination_window_any_trick_allows_a_mariannino_in_trick_six() -> None:
    state = _five_queens_and_king_at_trick_six({"combination_window": "any_trick"})
    texts = legal_texts(state)
    assert "mariannino:H" in texts and "marianna:H" not in texts  # mariannas are over
    refused(state, "marianna:H", "marianna.decl.window")
    play(state, "mariannino:H")
    assert state.declared[-1][3] == 250 and state.trump == suit(state, "H")


@covers("marianna.decl.mariannino.value", ruleset="marianna",
        options={"mariannino_value": "next_plus_200"})
def test_mariannino_value_next_marianna_plus_200_option() -> None:
    opts = {"mariannino_value": "next_plus_200"}
    state = start("marianna", ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                               "2S 4S 5S 6S 7S"], dealer=3, stock="KD", options=opts)
    play(state, "mariannino:H")
    assert state.declared[-1][3] == 40 + 200
    # after a marianna (the first, 40) the next would score 60: a mariannino is 260
    state = start("marianna", ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                               "2S 4S 5S 6S 7S"], dealer=3, stock="KD", options=opts)
    play(state, "marianna:H KH 2D 2C 2S mariannino:D")
    assert [v for (_, _, _, v) in state.declared] == [40, 260]
    opts2 = {"mariannino_value": "next_plus_200", "marianna_values": "20-40-60-80"}
    state = start("marianna", ["QH QD QC QS KH"], dealer=3, options=opts2)
    play(state, "mariannino:H")
    assert state.declared[-1][3] == 220
