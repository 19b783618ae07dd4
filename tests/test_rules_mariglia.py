"""Per-rule tests of Mariglia.

Seats N W S E = 0 1 2 3 in playing order; dealer 3 (E), so N leads trick 1.
The dealer's last card is turned up: with E holding the two of spades as his
turned card, spades are trump and the turn-up is worth nothing.
"""

from __future__ import annotations

import pytest
from mariage import GameState, Phase
from rulekit import (
    cards,
    check_match_target,
    covers,
    legal_texts,
    play,
    play_out,
    refused,
    rules_of,
    start,
    suit,
)

NS, WE = 0, 1
RULES = "mariglia"

# Spades trump (E's turned 2S). N holds every heart; W (trumps 4S 3S), S (KS 7S
# 5S) and E (AS QS JS 6S 2S) are void in hearts.
VOID = ["7H AH KH JH QH 6H 5H 4H 3H 2H",
        "4S 3S 7D AD KD JD QD 6D 5D 4D",
        "KS 5S 7S 7C AC KC JC QC 6C 5C",
        "2S AS JS QS 6S 3D 2D 4C 3C 2C"]


def _deal(hands: list[str], turn_up: str = "2S", dealer: int = 3,
          options: dict[str, object] | None = None) -> GameState:
    return start(RULES, hands, dealer=dealer, turn_up=turn_up, options=options)


@covers("mariglia.players", "mariglia.pack", "mariglia.trick.winner", ruleset=RULES)
def test_ranks_seven_ace_king_jack_queen_and_points() -> None:
    r = rules_of(RULES)
    assert r.nseats == 4 and r.team_of == (0, 1, 0, 1) and r.pack_points == 60
    assert [r.card_code[c] for c in range(10)] == \
        ["7H", "AH", "KH", "JH", "QH", "6H", "5H", "4H", "3H", "2H"]
    assert [r.points[r.card(c)] for c in ("7H", "AH", "KH", "JH", "QH", "6H")] == \
        [5, 4, 3, 2, 1, 0]
    hands = ["QH AD KD 6D 5D 4D 3D 2D 7C AC", "JH KC JC QC 6C 5C 4C 3C 2C 3S",
             "KH 6H 5H 4H 3H 2H 7D JD QD 4S", "2S 7H AH 7S AS KS JS QS 6S 5S"]
    state = _deal(hands)
    play(state, "QH JH KH 7H")  # the seven tops the suit; the jack beats the queen
    assert state.tricks[-1][2] == 3 and state.captured[WE] == 1 + 2 + 3 + 5


@covers("mariglia.deal", ruleset=RULES)
def test_ten_each_in_two_packets_of_five_dealers_last_card_turned_and_kept() -> None:
    state = GameState(rules_of(RULES), first_dealer=1)
    state.deal(list(range(40)))
    r = state.rules
    # from the dealer's right (seat 2): packets 2 3 0 1, then again
    assert r.format_cards(state.hands[2]).split()[:5] == ["7H", "AH", "KH", "JH", "QH"]
    for seat, first in ((2, 0), (3, 5), (0, 10), (1, 15)):
        want = {r.card_code[c] for c in (*range(first, first + 5),
                                         *range(20 + first, 25 + first))}
        assert set(cards(state, seat).split()) == want
    assert state.turn_up == 39 and r.card_code[39] == "2S"
    assert state.hands[1] >> 39 & 1  # the dealer keeps the turned card
    assert state.trump == suit(state, "S") and not state.stock
    assert state.to_act == 2


@covers("mariglia.deal.rotation", "mariglia.lead.first", ruleset=RULES)
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deal_passes_to_the_right_and_the_dealers_right_leads(dealer: int) -> None:
    hands = [VOID[(s - dealer + 3) % 4] for s in range(4)]
    state = _deal(hands, dealer=dealer)
    assert state.to_act == (dealer + 1) % 4
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer == (dealer + 1) % 4


@covers("mariglia.play.follow", ruleset=RULES)
def test_must_follow_suit() -> None:
    state = _deal(["AH KH QH 6H 5H AD KD QD 6D 5D", "2H 3S 7D JD 4D 3D 2D 7C AC KC",
                   "KS 5S 7S JC QC 6C 5C 4C 3C 2C", "2S 7H JH 4H 3H 4S AS QS JS 6S"])
    play(state, "AD")
    refused(state, "3S", "mariglia.play.follow")
    refused(state, "2H", "mariglia.play.follow")
    assert "AC" not in legal_texts(state)


@covers("mariglia.play.head", ruleset=RULES)
def test_must_head_within_the_suit_when_an_opponent_is_winning() -> None:
    hands = ["KH AD KD QD 6D 5D 4D 3D 2D 7C", "3H 2H JD 7D AC KC JC QC 6C 5C",
             "7H 4H 4C 3C 2C 7S AS KS JS QS", "2S AH 5H 6H JH QH 6S 5S 4S 3S"]
    state = _deal(hands)
    play(state, "KH")
    # W cannot beat the king: any heart will do
    assert set(legal_texts(state)) == {"3H", "2H"}
    play(state, "2H")
    # S's partner is winning: either heart, no duty to head
    assert set(legal_texts(state)) == {"7H", "4H"}
    play(state, "4H")
    # E's opponent is winning and E can beat the king with the ace only
    assert legal_texts(state) == ["AH"]
    refused(state, "QH", "mariglia.play.head")
    refused(state, "5H", "mariglia.play.head")
    play(state, "AH")
    assert state.tricks[-1][2] == 3


@covers("mariglia.play.overtrump", ruleset=RULES)
def test_void_must_trump_then_overtrump_but_never_undertrump() -> None:
    state = _deal(VOID)
    play(state, "AH")
    # W is void, an opponent wins: any trump (both beat a plain card)
    assert set(legal_texts(state)) == {"4S", "3S"}
    refused(state, "7D", "mariglia.play.overtrump")
    play(state, "3S")
    # S is void, W's trump wins: overtrump (any of his trumps beats the three)
    assert set(legal_texts(state)) == {"KS", "5S", "7S"}
    refused(state, "JC", "mariglia.play.overtrump")
    play(state, "5S")
    # E must beat the five: not with the 2S, nor with a plain card
    assert set(legal_texts(state)) == {"AS", "QS", "JS", "6S"}
    refused(state, "2S", "mariglia.play.overtrump")
    refused(state, "3D", "mariglia.play.overtrump")
    play(state, "AS")
    assert state.tricks[-1][2] == 3


@covers("mariglia.play.overtrump", ruleset=RULES)
def test_no_duty_to_undertrump_when_you_cannot_overtrump() -> None:
    state = _deal(VOID)
    play(state, "AH 3S 7S")
    # E is void and cannot beat the seven of trumps: any card, trump or not
    assert set(legal_texts(state)) == set(cards(state, 3).split())
    play(state, "3D")
    assert state.tricks[-1][2] == 2


@covers("mariglia.play.overtrump", "mariglia.play.head", ruleset=RULES)
def test_partner_winning_frees_you() -> None:
    hands = ["AH KH QH 6H 5H 4H 3H AD KD QD", "2H 4S 3S 7D JD 4D 3D 2D 7C AC",
             "KS 5S 7S JC QC 6C 5C 4C 3C 2C", "2S 7H JH AS QS JS 6S 6D 5D KC"]
    state = _deal(hands)
    play(state, "AH 2H")
    # N (S's partner) wins with the ace: S, void, may discard a club
    assert set(legal_texts(state)) == set(cards(state, 2).split())
    play(state, "JC")
    # E must head the ace with the seven
    assert legal_texts(state) == ["7H"]


@covers("mariglia.play.head", ruleset=RULES)
def test_following_against_a_winning_trump_any_card_of_the_suit() -> None:
    hands = ["4H KH QH 6H 5H AD KD QD 6D 5D", "2S 3S 7D JD 4D 3D 2D 7C AC KC",
             "7H 3H 7S JC QC 6C 5C 4C 3C 2C", "AS QS JS 6S 5S AH JH 2H KS 4S"]
    state = _deal(hands, turn_up="4S")
    play(state, "4H 2S")
    # a trump wins: the seven of hearts cannot beat it, so either heart will do
    assert set(legal_texts(state)) == {"7H", "3H"}


@covers("mariglia.score.hand", ruleset=RULES)
def test_excess_over_35_of_70_with_a_point_per_trick() -> None:
    state = _deal(VOID)
    play_out(state)
    rec = state.history[-1]
    totals = [state.captured[t] + state.tricks_won[t] for t in (NS, WE)]
    assert sum(state.captured) == 60 and sum(state.tricks_won) == 10 and sum(totals) == 70
    hi = max((NS, WE), key=lambda t: totals[t])
    assert totals[hi] > 35
    assert rec.score[hi] == totals[hi] - 35 and rec.score[1 - hi] == 0


# A deal on which play_out (each seat's first legal card) splits the hand 35-35.
EVEN = ("3S 4D AD AS KC 6C JD 4S QD QC 4C JS 7H 3C 5H 2S QH 6S AH AC 7S 4H KH 5D 2C "
        "7C JH QS KS 3D 7D 6D 3H KD 5S 2D 6H JC 2H 5C")


@covers("mariglia.score.hand", ruleset=RULES)
def test_thirty_five_each_nobody_scores() -> None:
    state = GameState(rules_of(RULES), first_dealer=3)
    state.deal(EVEN.split())
    play_out(state)
    assert [state.captured[t] + state.tricks_won[t] for t in (NS, WE)] == [35, 35]
    assert state.history[-1].score == (0, 0) and state.match_scores == [0, 0]


@covers("mariglia.score.turn-up", "mariglia.match.end", ruleset=RULES)
def test_turn_up_bonus_scores_at_once_and_can_win_before_play() -> None:
    hands = ["AH KH QH 6H 5H AD KD QD 6D 5D", "4S 3S 7D JD 4D 3D 2D 7C AC KC",
             "KS 5S 2S JC QC 6C 5C 4C 3C 2C", "7S 7H JH 4H 3H 2H AS QS JS 6S"]
    state = _deal(hands, turn_up="7S")
    assert state.match_scores == [0, 5] and state.phase == Phase.PLAY  # E's team
    state = _deal(hands, turn_up="7S", options={"target": 5})
    assert state.terminal and state.result is not None and state.result.winner == WE
    assert state.result.reason == "turn_up_bonus"
    refused(state, "AH", "core.over")


@covers("mariglia.score.turn-up", ruleset=RULES, options={"turn_up_bonus": False})
def test_turn_up_bonus_off() -> None:
    hands = ["AH KH QH 6H 5H AD KD QD 6D 5D", "4S 3S 7D JD 4D 3D 2D 7C AC KC",
             "KS 5S 2S JC QC 6C 5C 4C 3C 2C", "7S 7H JH 4H 3H 2H AS QS JS 6S"]
    state = _deal(hands, turn_up="7S", options={"turn_up_bonus": False, "target": 5})
    assert state.match_scores == [0, 0] and state.phase == Phase.PLAY


@covers("mariglia.match.end", "mariglia.match.tie", ruleset=RULES)
def test_match_to_35_tie_plays_on() -> None:
    check_match_target(lambda: _deal(VOID), 35)


@covers("mariglia.match.end", "mariglia.match.tie", ruleset=RULES, options={"target": 21})
def test_target_option() -> None:
    rules = rules_of(RULES, target=21)
    check_match_target(lambda: start(rules, VOID, dealer=3, turn_up="2S"), 21)


@covers("mariglia.play.head", "mariglia.play.overtrump", ruleset=RULES,
        options={"duty_reading": "always"})
def test_duty_to_beat_even_over_the_partner_option() -> None:
    opts = {"duty_reading": "always"}
    hands = ["AH KH QH 6H 5H 4H 3H AD KD QD", "2H 4S 3S 7D JD 4D 3D 2D 7C AC",
             "KS 5S 7S JC QC 6C 5C 4C 3C 2C", "2S 7H JH AS QS JS 6S 6D 5D KC"]
    state = _deal(hands, options=opts)
    play(state, "AH 2H")
    # N, S's partner, wins with the ace: S, void, must still trump
    assert set(legal_texts(state)) == {"KS", "5S", "7S"}
    refused(state, "JC", "mariglia.play.overtrump")
    hands = ["KH AD KD QD 6D 5D 4D 3D 2D 7C", "3H 2H JD 7D AC KC JC QC 6C 5C",
             "7H 4H 4C 3C 2C 7S AS KS JS QS", "2S AH 5H 6H JH QH 6S 5S 4S 3S"]
    state = _deal(hands, options=opts)
    play(state, "KH 2H")
    # S must head his partner's king with the seven
    assert legal_texts(state) == ["7H"]
    refused(state, "4H", "mariglia.play.head")


@covers("mariglia.play.head", ruleset=RULES, options={"duty_reading": "always"})
def test_duty_to_beat_cannot_be_met_within_the_suit_when_a_trump_wins() -> None:
    # spades trump; W trumps N's king of hearts: no heart can beat the 3S, so S may play
    # any heart (not only one above the king)
    hands = ["KH AD KD QD 6D 5D 4D 3D 2D 7C", "3S JD 7D AC KC JC QC 6C 5C 4S",
             "7H 4H 4C 3C 2C 7S AS KS JS QS", "2S AH 5H 6H JH QH 6S 5S 2H 3H"]
    for opts in ({"duty_reading": "always"}, {}):
        state = _deal(hands, options=opts)
        play(state, "KH")
        assert set(legal_texts(state)) == {"3S", "4S"}  # void: trump to win
        play(state, "3S")
        assert set(legal_texts(state)) == {"7H", "4H"}, opts
        play(state, "4H")
        # E, void of nothing, follows: his partner W is winning with a trump
        assert set(legal_texts(state)) == {"AH", "5H", "6H", "JH", "QH", "2H", "3H"}
