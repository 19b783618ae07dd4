"""Per-rule tests of Mariaggia (two players, open hands, accusa, calling out).

Seats A B = 0 1. With dealer 1 (B), A receives the first five cards and leads
trick 1; the next card is turned up (trump) and lies under the stock.
"""

from __future__ import annotations

import pytest
from mariage import GameState, Phase
from mariage.engine.observation import observe
from rulekit import (
    cards,
    check_match_target,
    covers,
    endgame,
    legal_texts,
    play,
    play_out,
    refused,
    rules_of,
    start,
    suit,
)

A, B = 0, 1
RULES = "mariaggia"
# A: two accuse (hearts, clubs); B: the diamond pair. Spades are trump (turned 2S).
HANDS = ["KH QH KC QC AS", "KD QD 4H 5H 6C"]


def _deal(hands: list[str] = HANDS, turn_up: str = "2S", stock: str = "",
          options: dict[str, object] | None = None) -> GameState:
    return start(RULES, hands, dealer=1, turn_up=turn_up, stock=stock, options=options)


@covers("mariaggia.players", "mariaggia.pack", "mariaggia.deal", "mariaggia.lead.first",
        ruleset=RULES)
def test_two_players_five_each_turned_trump_under_the_stock() -> None:
    r = rules_of(RULES)
    assert r.nseats == 2 and r.teams == ((0,), (1,)) and r.pack_points == 120
    assert [r.points[r.card(c)] for c in ("AH", "3H", "KH", "QH", "JH", "7H")] == \
        [11, 10, 4, 3, 2, 0]
    state = GameState(r, first_dealer=1)
    state.deal(list(range(40)))
    assert cards(state, A) == "AH 3H KH QH JH" and cards(state, B) == "7H 6H 5H 4H 2H"
    assert r.card_code[state.turn_up or 0] == "AD" and state.trump == suit(state, "D")
    assert len(state.stock) == 30 and state.stock[0] == state.turn_up  # the last drawn
    assert r.card_code[state.stock[-1]] == "3D"
    assert state.to_act == A  # the dealer's opponent leads


@covers("mariaggia.deal.rotation", "mariaggia.lead.first", ruleset=RULES)
def test_deal_alternates() -> None:
    state = _deal()
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer == A
    start(RULES, HANDS, turn_up="2S", state=state)
    assert state.to_act == B


@covers("mariaggia.open-hands", ruleset=RULES)
def test_both_hands_are_open_the_stock_hidden() -> None:
    state = _deal()
    for seat in (A, B):
        obs = observe(state, seat)
        assert obs.shown == (state.hands[A], state.hands[B])
        assert obs.stock_size == 30 and not hasattr(obs, "stock")
    other = start(RULES, HANDS, dealer=1, turn_up="2S", stock="AD 3D")
    assert observe(other, A) == observe(_deal(stock="3D AD"), A)  # stock order unseen


@covers("mariaggia.play.free", "mariaggia.draw", "mariaggia.trick.winner", ruleset=RULES)
def test_free_play_while_drawing_winner_draws_first() -> None:
    state = _deal(stock="JS 7S")
    play(state, "KH")
    assert set(legal_texts(state)) == {"KD", "QD", "4H", "5H", "6C", "callout"}
    play(state, "6C")  # B may discard although he holds hearts
    assert state.tricks[-1][2] == A
    assert "JS" in cards(state, A) and "7S" in cards(state, B)
    state = _deal(stock="JS 7S")
    play(state, "QH 4H")  # the higher card of the suit led wins
    assert state.tricks[-1][2] == A


@covers("mariaggia.trick.winner", ruleset=RULES)
def test_trump_beats_the_suit_led() -> None:
    state = _deal(["AH KC QC 4D 5D", "2S 4H 5H 6C 7C"], turn_up="3S")
    play(state, "AH 2S")
    assert state.tricks[-1][2] == B and state.captured[B] == 11


@covers("mariaggia.draw", ruleset=RULES)
def test_loser_of_trick_fifteen_takes_the_turned_card() -> None:
    state = endgame(RULES, leader="AH 3H KH QH JH", follower="2S 4C 5C 6C 7C", turn_up="2S")
    loser = 1 - state.to_act
    assert "2S" in cards(state, loser) and state.turn_up is None
    assert state.trick_no == 16 and len(state.tricks) == 15


def _last_five(options: dict[str, object] | None = None) -> GameState:
    # the follower holds hearts (K high, 4 low), a club ace and two trumps
    return endgame(RULES, leader="5H AD 7C 4D 3D", follower="KH 4H AC 3S 2S", turn_up="2S",
                   options=options)


@covers("mariaggia.play.last-five.follow", "mariaggia.play.last-five.beat",
        "mariaggia.play.last-five.trump", ruleset=RULES)
def test_last_five_follow_beat_and_trump_by_default() -> None:
    base = _last_five()
    state = base.clone()
    play(state, "5H")
    assert legal_texts(state) == ["KH", "callout"]
    refused(state, "4H", "mariaggia.play.last-five.beat")
    refused(state, "AC", "mariaggia.play.last-five.follow")
    state = base.clone()
    play(state, "AD")  # void in diamonds: must trump
    assert legal_texts(state) == ["3S", "2S", "callout"]
    refused(state, "AC", "mariaggia.play.last-five.trump")
    state = base.clone()
    play(state, "7C")  # the ace beats the seven
    assert legal_texts(state) == ["AC", "callout"]


@covers("mariaggia.play.last-five.follow", "mariaggia.play.last-five.trump", ruleset=RULES,
        options={"last_five": "follow+trump"})
def test_last_five_follow_and_trump_option() -> None:
    base = _last_five({"last_five": "follow+trump"})
    state = base.clone()
    play(state, "5H")
    assert legal_texts(state) == ["KH", "4H", "callout"]  # no duty to beat
    refused(state, "AC", "mariaggia.play.last-five.follow")
    state = base.clone()
    play(state, "AD")
    refused(state, "AC", "mariaggia.play.last-five.trump")


@covers("mariaggia.play.last-five.follow", ruleset=RULES, options={"last_five": "follow"})
def test_last_five_follow_only_option() -> None:
    base = _last_five({"last_five": "follow"})
    state = base.clone()
    play(state, "5H")
    assert legal_texts(state) == ["KH", "4H", "callout"]
    refused(state, "3S", "mariaggia.play.last-five.follow")
    state = base.clone()
    play(state, "AD")  # void: any card, no duty to trump
    assert len(legal_texts(state)) == 6


@covers("mariaggia.play.last-five.free", ruleset=RULES, options={"last_five": "none"})
def test_last_five_no_duty_option() -> None:
    state = _last_five({"last_five": "none"})
    play(state, "5H")
    assert len(legal_texts(state)) == 6  # five cards and the call-out


@covers("mariaggia.decl.who", "mariaggia.decl.accusa", "mariaggia.decl.value",
        "mariaggia.decl.trump", ruleset=RULES)
def test_accusa_20_by_the_leader_before_leading() -> None:
    state = _deal()
    assert [t for t in legal_texts(state) if ":" in t] == ["accusa:H", "accusa:C"]
    refused(state, "accusa:D", "mariaggia.decl.accusa")
    play(state, "accusa:H")
    assert state.hand_points(A) == 20 and state.trump == suit(state, "S")
    play(state, "AS")
    refused(state, "accusa:D", "mariaggia.decl.who")  # B is not leading


@covers("mariaggia.decl.who", ruleset=RULES, options={"accusa_when": "on_turn"})
def test_accusa_at_either_players_turn_option() -> None:
    state = _deal(options={"accusa_when": "on_turn"})
    play(state, "AS accusa:D")
    assert state.hand_points(B) == 20


@covers("mariaggia.decl.per-trick", ruleset=RULES)
def test_one_accusa_per_trick() -> None:
    state = _deal()
    play(state, "accusa:H")
    refused(state, "accusa:C", "mariaggia.decl.per-trick")


@covers("mariaggia.decl.once", ruleset=RULES)
def test_each_suit_once_per_hand() -> None:
    state = _deal()
    play(state, "accusa:H AS 4H")  # A wins with the trump ace and leads again
    assert state.to_act == A
    refused(state, "accusa:H", "mariaggia.decl.once")
    play(state, "accusa:C")
    assert state.hand_points(A) == 40 + 11


@covers("mariaggia.decl.value", ruleset=RULES, options={"accusa_trump_40": True})
def test_accusa_in_trump_40_option() -> None:
    state = _deal(turn_up="2H", options={"accusa_trump_40": True})
    play(state, "accusa:H")
    assert state.hand_points(A) == 40
    state = _deal(turn_up="2H", options={"accusa_trump_40": True})
    play(state, "accusa:C")
    assert state.hand_points(A) == 20
    state = _deal(turn_up="2H")
    play(state, "accusa:H")
    assert state.hand_points(A) == 20  # without the option


@covers("mariaggia.decl.window", ruleset=RULES)
def test_no_accusa_after_the_stock() -> None:
    state = endgame(RULES, leader="KH QH 3H JH 7H", follower="2S 4C 5C 6C 7C", turn_up="2S")
    assert "accusa:H" not in legal_texts(state)
    refused(state, "accusa:H", "mariaggia.decl.window")


@covers("mariaggia.exchange", ruleset=RULES)
def test_no_exchange_by_default() -> None:
    state = _deal(["7S KH QH KC QC", "KD QD 4H 5H 6C"], turn_up="AS")
    assert not any(t.startswith("exchange") for t in legal_texts(state))
    refused(state, "exchange:7S", "core.phase")


@covers("mariaggia.exchange", ruleset=RULES, options={"exchange": "seven_while_stock"})
def test_exchange_the_seven_of_trump_while_the_stock_lasts() -> None:
    opts = {"exchange": "seven_while_stock"}
    state = _deal(["7S KH QH KC QC", "KD QD 4H 5H 2S"], turn_up="AS", options=opts)
    refused(state, "exchange:7S", "core.turn", seat=B)
    play(state, "exchange:7S")
    assert "AS" in cards(state, A) and "7S" not in cards(state, A)
    assert state.rules.card_code[state.turn_up or 0] == "7S" and state.stock[0] == state.turn_up
    play(state, "AS")  # he still plays a card
    state = endgame(RULES, leader="7S AH 3H JH 5C", follower="AS 4C 6C 7C 2C", turn_up="AS",
                    options=opts)
    refused(state, "exchange:7S", "mariaggia.exchange")  # the stock is gone


@covers("mariaggia.exchange", ruleset=RULES, options={"exchange": "two_at_start"})
def test_exchange_the_two_of_trump_in_the_first_trick_only() -> None:
    opts = {"exchange": "two_at_start"}
    state = _deal(["7S KH QH KC 2S", "KD QD 4H 5H 6C"], turn_up="AS", options=opts)
    assert "exchange:2S" in legal_texts(state) and "exchange:7S" not in legal_texts(state)
    refused(state, "exchange:7S", "mariaggia.exchange")
    state = _deal(["AH KH QH KC 4C", "2S QD 4H 5H 6C"], turn_up="AS", stock="7H 5C",
                  options=opts)
    play(state, "AH")
    play(state, "exchange:2S")  # the second player, at his turn in trick 1
    assert "AS" in cards(state, B)
    state = _deal(["AH KH QH KC 4C", "6H QD 4H 5H 6C"], turn_up="AS", stock="7H 2S",
                  options=opts)
    play(state, "AH 6C")  # A wins and draws 7H; B draws the 2S
    assert "2S" in cards(state, B)
    play(state, "KH")
    refused(state, "exchange:2S", "mariaggia.exchange")


@covers("mariaggia.call-out", ruleset=RULES)
def test_call_out_right_wins_at_once_even_out_of_turn() -> None:
    state = _deal()
    state.match_scores = [235, 0]
    play(state, "accusa:H AS")
    assert state.to_act == B and "callout" in legal_texts(state, A)
    play(state, "0@callout")  # 235 + 20 = 255
    assert state.terminal and state.result is not None
    assert state.result.winner == A and state.result.reason == "call_out"


@covers("mariaggia.call-out", "mariaggia.call-out.penalty", ruleset=RULES)
def test_wrong_call_out_hand_stops_caller_scores_nothing() -> None:
    state = _deal()
    state.match_scores = [150, 100]
    play(state, "accusa:H AS KD")  # A: 20 + 11 + 4
    play(state, "accusa:C")  # and 20 more: 150 + 55 = 205, short of 250
    play(state, "0@callout")
    rec = state.history[-1]
    assert rec.ended == "call_out_failed" and rec.points == (55, 0) and rec.score == (0, 0)
    assert state.match_scores == [150, 100] and state.phase == Phase.DEAL
    assert state.dealer == A  # a new hand is dealt by the next dealer


@covers("mariaggia.call-out.penalty", ruleset=RULES)
def test_wrong_call_out_opponent_keeps_what_he_won() -> None:
    state = _deal(["KC QC 4D 5D 6D", "AH KD QD 4H 5H"], turn_up="2S")
    play(state, "4D KD")  # B wins 4 points
    play(state, "0@callout")
    rec = state.history[-1]
    assert rec.ended == "call_out_failed" and rec.score == (0, 4)
    assert state.match_scores == [0, 4]


@covers("mariaggia.call-out.penalty", ruleset=RULES,
        options={"call_out_penalty": "lose_match"})
def test_wrong_call_out_loses_the_match_option() -> None:
    state = _deal(options={"call_out_penalty": "lose_match"})
    play(state, "1@callout")
    assert state.terminal and state.result is not None and state.result.winner == A


@covers("mariaggia.score.hand", ruleset=RULES)
def test_hand_score_is_card_points_plus_accuse() -> None:
    state = _deal()
    play(state, "accusa:H")
    play_out(state)
    rec = state.history[-1]
    assert sum(rec.points) == 120 + 20 and rec.score == rec.points


@covers("mariaggia.match.end", "mariaggia.match.tie", ruleset=RULES)
def test_match_to_250_tie_plays_on() -> None:
    check_match_target(_deal, 250)


@covers("mariaggia.match.end", "mariaggia.match.tie", ruleset=RULES, options={"target": 100})
def test_target_option() -> None:
    check_match_target(lambda: _deal(options={"target": 100}), 100)


@pytest.mark.parametrize("seat", [A, B])
@covers("mariaggia.call-out", ruleset=RULES)
def test_call_out_target_follows_the_target_option(seat: int) -> None:
    state = _deal(options={"target": 20})
    play(state, "accusa:H")
    play(state, f"{seat}@callout")
    if seat == A:  # 20 reaches the target of 20
        assert state.terminal and state.result is not None and state.result.winner == A
    else:  # B scores nothing; A keeps his 20, which is the target: A wins
        assert state.history[-1].ended == "call_out_failed"
        assert state.history[-1].score == (20, 0)
        assert state.terminal and state.result is not None and state.result.winner == A


@covers("mariaggia.match.tie", ruleset=RULES, options={"tie": "draw"})
def test_tie_draw_option() -> None:
    check_match_target(lambda: _deal(options={"tie": "draw"}), 250, tie="draw")


@covers("mariaggia.call-out.penalty", ruleset=RULES,
        options={"call_out_penalty": "lose_match"})
def test_wrong_call_out_lose_match_caller_scores_nothing_for_the_hand() -> None:
    state = _deal(options={"call_out_penalty": "lose_match"})
    state.match_scores = [150, 100]
    play(state, "accusa:H AS KD accusa:C")  # A has 55 in hand: 205, short of 250
    play(state, "0@callout")
    rec = state.history[-1]
    # the hand failed (as under hand_zero); the call-out ended the match
    assert rec.ended == "call_out_failed" and rec.points == (55, 0) and rec.score == (0, 0)
    assert state.terminal and state.result is not None and state.result.winner == B
    assert state.result.reason == "call_out" and rec.winner is None
    assert state.result.scores == (150, 100) and state.match_scores == [150, 100]
    # the loser is not shown ahead by this hand
    state = _deal(options={"call_out_penalty": "lose_match"})
    state.match_scores = [100, 110]
    play(state, "accusa:H AS KD accusa:C 0@callout")
    assert state.result is not None and state.result.winner == B
    assert state.result.scores == (100, 110)


@covers("mariaggia.decl.window", ruleset=RULES, options={"accusa_window": "hand"})
def test_accusa_window_hand_allows_accuse_in_the_last_five() -> None:
    state = endgame(RULES, leader="KH QH 3H JH 7H", follower="2S 4C 5C 6C 7C", turn_up="2S",
                    options={"accusa_window": "hand"})
    assert "accusa:H" in legal_texts(state)
    seat = state.to_act
    assert seat is not None
    before = state.hand_points(seat)
    play(state, "accusa:H")
    assert state.hand_points(seat) == before + 20


@covers("mariaggia.decl.once", ruleset=RULES, options={"accusa_once": "per_hand"})
def test_accusa_once_per_hand_option() -> None:
    state = _deal(options={"accusa_once": "per_hand"})
    play(state, "accusa:H AS 4H")  # A wins with the trump ace and leads again
    assert state.to_act == A and "accusa:C" not in legal_texts(state)
    refused(state, "accusa:C", "mariaggia.decl.once")
    # nor may the other player accuse once one accusa has been made
    state = _deal(["KH QH 2C 3C AS", "KD QD 4H 5H 6C"], options={"accusa_once": "per_hand"})
    play(state, "accusa:H 2C 6C")  # B wins with the six of clubs
    assert state.to_act == B
    refused(state, "accusa:D", "mariaggia.decl.once")


@covers("mariaggia.decl.per-trick", ruleset=RULES, options={"accusa_per_turn": "several"})
def test_accusa_per_turn_several_option() -> None:
    state = _deal(options={"accusa_per_turn": "several"})
    play(state, "accusa:H accusa:C")
    assert state.hand_points(A) == 40
    assert not any(":" in t for t in legal_texts(state))
