"""Per-rule tests of Marjapussi.

Seats N E S W = 0 1 2 3 in playing order (clockwise); N-S and E-W are
partners. Dealer 3 (W), so N receives the first card and leads trick 1.
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
    play_tricks,
    refused,
    rules_of,
    start,
    suit,
)

NS, EW = 0, 1
RULES = "marjapussi"

# N: the heart marriage, the king of diamonds and the king of clubs.
# S: the spade marriage and the queen of diamonds; W holds the queen of clubs.
ASKS = ["AH KH QH AD KD KC 8C 7C 6C", "JH 9D 8D 7D 6D JS 9S 8S 7S",
        "TH 6H KS QS QD 9C JC TC 6S", "9H 8H 7H TD JD AC QC AS TS"]
# Plays: N leads the ace of hearts and wins trick 1 (everybody follows).
PLAYS = ["AH KH QH 9C 6C 8S 7S 6S 8D", "JH 7H TC 7C 9D JS 9S TS AS",
         "TH 9H 8H AD KD QD JD 7D 6D", "6H TD AC KC QC JC 8C KS QS"]
# N leads his seven winners in turn and keeps the spade marriage to the end.
WIN_ALL = ["AH TH AD TD AC TC AS KS QS"]


def _deal(hands: list[str], options: dict[str, object] | None = None,
          dealer: int = 3) -> GameState:
    return start(RULES, hands, dealer=dealer, options=options)


def _after_trick_one(hands: list[str] = ASKS, options: dict[str, object] | None = None
                     ) -> GameState:
    state = _deal(hands, options)
    play(state, "AH")
    play_tricks(state, 1)
    assert state.to_act == 0 and state.trick_no == 2
    return state


@covers("marjapussi.players", "marjapussi.deal", "marjapussi.lead.first", ruleset=RULES)
def test_clockwise_one_card_at_a_time_from_the_dealers_left() -> None:
    r = rules_of(RULES)
    assert r.direction == "clockwise" and r.seat_names == ("N", "E", "S", "W")
    assert r.team_of == (0, 1, 0, 1)
    state = GameState(r, first_dealer=1)
    state.deal(list(range(36)))
    for seat in range(4):
        want = [c for c in range(36) if c % 4 == (seat - 2) % 4]
        assert state.hands[seat] == sum(1 << c for c in want)
    assert not state.stock and state.trump == -1 and state.turn_up is None
    assert state.to_act == 2


@covers("marjapussi.deal.rotation", ruleset=RULES)
def test_deal_passes_to_the_left() -> None:
    state = _deal(ASKS, dealer=2)
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer == 3


@covers("marjapussi.pack", "marjapussi.deal", ruleset=RULES)
def test_pack_of_36_ranks_and_simplified_points() -> None:
    r = rules_of(RULES)
    assert r.ncards == 36 and r.hand_size == 9 and r.pack_points == 140
    assert [r.card_code[c] for c in range(9)] == \
        ["AH", "TH", "KH", "QH", "JH", "9H", "8H", "7H", "6H"]
    assert [r.points[c] for c in range(9)] == [10, 10, 5, 5, 5, 0, 0, 0, 0]


@covers("marjapussi.pack", "marjapussi.deal", ruleset=RULES, options={"pack_size": 32})
def test_pack_of_32() -> None:
    r = rules_of(RULES, pack_size=32)
    assert r.ncards == 32 and r.hand_size == 8 and r.pack_points == 140
    assert "6H" not in r.card_index and "7H" in r.card_index
    state = GameState(r, first_dealer=3)
    state.deal(list(range(32)))
    assert all(h.bit_count() == 8 for h in state.hands)


@covers("marjapussi.pack", "marjapussi.deal", ruleset=RULES, options={"pack_size": 28})
def test_pack_of_28() -> None:
    r = rules_of(RULES, pack_size=28)
    assert r.ncards == 28 and r.hand_size == 7 and r.pack_points == 140
    assert "7H" not in r.card_index and "8H" in r.card_index
    state = GameState(r, first_dealer=3)
    state.deal(list(range(28)))
    assert all(h.bit_count() == 7 for h in state.hands)
    play_out(state)
    assert sum(state.captured) == 140 and len(state.history[-1].tricks) == 2


@covers("marjapussi.pack", "marjapussi.score.threshold", ruleset=RULES,
        options={"point_system": "original"})
def test_original_point_system() -> None:
    r = rules_of(RULES, point_system="original")
    assert r.pack_points == 120
    assert [r.points[c] for c in range(5)] == [11, 10, 4, 3, 2]


@covers("marjapussi.play.follow", "marjapussi.play.trump", "marjapussi.trick.winner",
        ruleset=RULES)
def test_follow_suit_then_trump_if_void_no_duty_to_beat() -> None:
    state = _deal(PLAYS)
    play(state, "AH")
    assert legal_texts(state) == ["JH", "7H"]
    refused(state, "9D", "marjapussi.play.follow")
    play(state, "7H")
    assert legal_texts(state) == ["TH", "9H", "8H"]  # a lower heart is fine
    play(state, "9H 6H")
    assert state.tricks[-1][2] == 0
    play(state, "marriage:H 9C")
    assert legal_texts(state) == ["TC", "7C"]
    play(state, "7C")
    # S is void in clubs and there is a trump: he must trump, any trump will do
    assert legal_texts(state) == ["TH", "8H"]
    refused(state, "AD", "marjapussi.play.trump")
    play(state, "8H")
    assert len(legal_texts(state)) == 5  # W follows with any club
    play(state, "AC")
    assert state.tricks[-1][2] == 2  # the trump wins


@covers("marjapussi.play.trump", ruleset=RULES)
def test_void_while_there_is_no_trump_any_card() -> None:
    state = _deal(PLAYS)
    play(state, "6C 7C")
    # S holds hearts (a trump later) but there is no trump yet: any card
    assert set(legal_texts(state)) == set(cards(state, 2).split())


@covers("marjapussi.play.beat", ruleset=RULES, options={"must_beat": True})
def test_must_beat_option() -> None:
    state = _deal(PLAYS, {"must_beat": True})
    play(state, "AH 7H 9H 6H marriage:H 9C")
    assert legal_texts(state) == ["TC"]
    refused(state, "7C", "marjapussi.play.beat")
    play(state, "TC 8H")
    # W follows: he must beat the best club (the ten), with the ace only
    assert legal_texts(state) == ["AC"]
    refused(state, "KC", "marjapussi.play.beat")


@covers("marjapussi.lead.first-card", ruleset=RULES, options={"first_lead": True})
def test_first_lead_an_ace_else_a_spade() -> None:
    opts = {"first_lead": True}
    state = _deal(PLAYS, opts)
    assert legal_texts(state) == ["AH"]
    refused(state, "KH", "marjapussi.lead.first-card")
    state = _deal(["KH QH 9C 6C 8S 7S 6S 8D 9H"], opts)
    assert legal_texts(state) == ["8S", "7S", "6S"]
    refused(state, "KH", "marjapussi.lead.first-card")
    state = _deal(["KH QH 9C 6C 8D 9H 7D 6D 7H"], opts)
    assert len(legal_texts(state)) == 9
    # only the first lead of the hand
    state = _deal(PLAYS, opts)
    play(state, "AH 7H 9H 6H")
    assert "6C" in legal_texts(state)
    state = _deal(["KH QH 9C 6C 8S 7S 6S 8D 9H"])
    assert "KH" in legal_texts(state)  # without the option


@covers("marjapussi.lead.ace-of-clubs", ruleset=RULES, options={"ace_of_clubs": True})
def test_ace_of_clubs_holder_leads_first_and_deals_the_second_hand() -> None:
    hands = ["AH KH QH 9C 6C 8S 7S 6S 8D", "JH 7H TC 7C 9D JS 9S TS AS",
             "TH 9H 8H AD KD QD JD 7D 6D", "6H TD AC KC QC JC 8C KS QS"]
    state = _deal(hands, {"ace_of_clubs": True}, dealer=0)
    assert state.to_act == 3 and state.leader == 3
    play_out(state)
    assert state.dealer == 3
    start(RULES, hands, state=state)
    assert state.to_act == 0  # the second hand: the new dealer's left leads
    play_out(state)
    assert state.dealer == 0
    default = _deal(hands, dealer=0)
    assert default.to_act == 1


@covers("marjapussi.decl.who", "marjapussi.decl.marriage", "marjapussi.decl.value",
        "marjapussi.decl.trump", ruleset=RULES)
def test_only_the_trick_winner_declares_not_in_trick_one() -> None:
    state = _deal(ASKS)
    texts = legal_texts(state)
    assert not any(":" in t for t in texts) and "ask:partner" not in texts
    refused(state, "marriage:H", "marjapussi.decl.who")
    play(state, "AH")
    play_tricks(state, 1)
    assert state.to_act == 0
    texts = legal_texts(state)
    assert {"marriage:H", "ask:partner", "ask:half:D", "ask:half:C"} <= set(texts)
    assert "ask:half:H" not in texts
    refused(state, "marriage:S", "marjapussi.decl.marriage")  # S holds it, not N
    play(state, "marriage:H")
    assert state.trump == suit(state, "H") and state.game_points == [2, 0]
    play(state, "AD")
    refused(state, "marriage:D", "marjapussi.decl.who")  # not the winner


@covers("marjapussi.decl.per-trick", "marjapussi.decl.value", "marjapussi.decl.trump",
        "marjapussi.decl.once", "marjapussi.ask.any.settle", ruleset=RULES)
def test_one_action_per_trick_later_marriages_score_one() -> None:
    state = _after_trick_one()
    play(state, "marriage:H")
    refused(state, "ask:partner", "marjapussi.decl.per-trick")
    refused(state, "ask:half:D", "marjapussi.decl.per-trick")
    play(state, "AD")
    play_tricks(state, 1)
    assert state.tricks[-1][2] == 0 and state.to_act == 0
    refused(state, "marriage:H", "marjapussi.decl.once")
    play(state, "ask:partner yes:S")
    assert state.trump == suit(state, "H")  # the first marriage stays trump
    assert state.game_points == [3, 0] and state.declared[-1][3] == 1


@covers("marjapussi.ask.any", "marjapussi.ask.answer", "marjapussi.ask.any.settle",
        ruleset=RULES)
def test_ask_partner_answer_is_truthful_and_declares_for_the_team() -> None:
    state = _after_trick_one()
    play(state, "ask:partner")
    assert state.phase == Phase.ANSWER and state.to_act == 2
    assert legal_texts(state) == ["yes:S"]
    refused(state, "no", "marjapussi.ask.answer")
    refused(state, "yes:D", "marjapussi.ask.answer")
    refused(state, "yes:S", "core.turn", seat=1)
    play(state, "yes:S")
    assert state.trump == suit(state, "S") and state.game_points == [2, 0]
    assert state.to_act == 0 and state.phase == Phase.PLAY
    refused(state, "marriage:H", "marjapussi.decl.per-trick")


@covers("marjapussi.ask.any", "marjapussi.ask.answer", ruleset=RULES)
def test_partner_chooses_among_several_marriages_or_says_no() -> None:
    hands = ["AH JH 9H AD KD 8C 7C 6C 8D", "TH 9D 7D 6D JS 9S 8S 7S 6S",
             "8H KS QS KC QC 9C JC TC QD", "KH QH 7H 6H TD JD AC AS TS"]
    state = _after_trick_one(hands)
    play(state, "ask:partner")
    assert legal_texts(state) == ["yes:C", "yes:S"]
    play(state, "yes:C")
    assert state.trump == suit(state, "C")
    hands = ["AH JH 9H AD KD 8C 7C 6C 8D", "TH 9D 7D 6D JS 9S 8S 7S 6S",
             "8H 6H KS TS KC 9C JC TC QD", "KH QH 7H TD JD AC QC AS QS"]
    state = _after_trick_one(hands)
    play(state, "ask:partner")
    assert legal_texts(state) == ["no"]
    refused(state, "yes:C", "marjapussi.ask.answer")
    play(state, "no")
    assert state.trump == -1 and state.game_points == [0, 0]
    refused(state, "ask:half:D", "marjapussi.decl.per-trick")  # the failed ask used it


@covers("marjapussi.ask.half", "marjapussi.ask.half.answer", "marjapussi.ask.half.settle",
        ruleset=RULES)
def test_ask_for_the_other_half() -> None:
    state = _after_trick_one()
    refused(state, "ask:half:S", "marjapussi.ask.half")  # N holds neither spade card
    refused(state, "ask:half:H", "marjapussi.ask.half")  # nor one card only of hearts
    play(state, "ask:half:D")
    assert legal_texts(state) == ["yes"]
    refused(state, "no", "marjapussi.ask.half.answer")
    play(state, "yes")
    assert state.trump == suit(state, "D") and state.game_points == [2, 0]
    assert state.declared[-1][2] == suit(state, "D")


@covers("marjapussi.ask.half", "marjapussi.ask.half.answer", "marjapussi.decl.per-trick",
        ruleset=RULES)
def test_failed_ask_for_a_half_uses_the_right() -> None:
    state = _after_trick_one()
    play(state, "ask:half:C")  # the queen of clubs is with W
    assert legal_texts(state) == ["no"]
    refused(state, "yes", "marjapussi.ask.half.answer")
    play(state, "no")
    assert state.trump == -1
    refused(state, "marriage:H", "marjapussi.decl.per-trick")
    play(state, "AD")


@covers("marjapussi.ask.any", "marjapussi.ask.half", ruleset=RULES)
def test_no_ask_in_trick_one() -> None:
    state = _deal(ASKS)
    refused(state, "ask:partner", "marjapussi.ask.any")
    refused(state, "ask:half:D", "marjapussi.ask.half")


@covers("marjapussi.decl.window", ruleset=RULES)
def test_declarations_allowed_late_in_the_hand() -> None:
    state = _deal(WIN_ALL)
    play_tricks(state, 7, keep="KS QS")
    assert state.trick_no == 8 and state.to_act == 0
    assert all(w == 0 for (_, _, w) in state.tricks)
    play(state, "marriage:S")
    assert state.trump == suit(state, "S") and state.game_points == [2, 0]


@covers("marjapussi.decl.trump", "marjapussi.decl.value", ruleset=RULES,
        options={"trump_choice": True})
def test_trump_choice_option() -> None:
    state = _after_trick_one(options={"trump_choice": True})
    assert {"marriage:H", "marriage:H:notrump"} <= set(legal_texts(state))
    play(state, "marriage:H:notrump")
    assert state.trump == -1 and state.game_points == [1, 0]
    play(state, "AD")
    play_tricks(state, 1)
    assert state.to_act == 0
    play(state, "ask:partner yes:S")  # the first marriage that makes trump is worth 2
    assert state.trump == suit(state, "S") and state.game_points == [3, 0]


@covers("marjapussi.decl.trump", ruleset=RULES)
def test_no_declining_trump_without_the_option() -> None:
    state = _after_trick_one()
    assert "marriage:H:notrump" not in legal_texts(state)
    refused(state, "marriage:H:notrump", "marjapussi.decl.trump")


# Deals on which play_out (each seat's first legal card, no declarations) ends
# with the card points given, dealer 3.
SPLIT_75_65 = ("AH QS KH 8H 6C JC QH AS 9S 8D 8S TH AC 7D QC KS 9H 6D AD TD TC KC 8C KD 7S 7C "
               "QD 6S 9C JS 9D JD TS 7H JH 6H")  # simplified 75-65, N wins the last trick
SPLIT_EVEN = ("6C 9H AC AH QS KD QC TS 7S KS 7H TC 7C QH KC 9C 8S 9D TD 6S 8C 7D JH JC 6D 8D "
              "AS JD 9S 8H TH 6H AD QD KH JS")  # 70-70 simplified, 61-59 original; S last
SPLIT_60 = ("6D QC AH 7H JS AS TH TC JH 8S 8D 9D 6S AD JD 8H AC 9H 7S 9S 8C KC KS TS JC 7C "
            "9C 7D QD 6H KD QH QS 6C TD KH")  # 60-60 original, W wins the last trick


def _played(deck: str, **options: object) -> GameState:
    state = GameState(rules_of(RULES, **options), first_dealer=3)
    state.deal(deck.split())
    return play_out(state)


@covers("marjapussi.score.hand", "marjapussi.score.threshold", "marjapussi.score.last-trick",
        "marjapussi.score.majority", ruleset=RULES)
def test_game_point_table_simplified() -> None:
    state = _played(SPLIT_75_65)
    assert state.captured == [75, 65] and state.history[-1].score == (3, 0)
    state = _played(SPLIT_EVEN)
    assert state.captured == [70, 70] and state.history[-1].score == (1, 0)  # last trick only


@covers("marjapussi.score.threshold", "marjapussi.score.majority", ruleset=RULES,
        options={"point_system": "original"})
def test_game_point_table_original_threshold_61() -> None:
    state = _played(SPLIT_EVEN, point_system="original")
    assert state.captured == [61, 59] and state.history[-1].score == (3, 0)
    state = _played(SPLIT_60, point_system="original")
    assert state.captured == [60, 60] and state.history[-1].score == (0, 1)


@covers("marjapussi.score.majority", ruleset=RULES, options={"majority_point": "merged"})
def test_majority_point_merged_option() -> None:
    state = _played(SPLIT_75_65, majority_point="merged")
    assert state.history[-1].score == (2, 0)


@covers("marjapussi.score.hand", "marjapussi.decl.value", ruleset=RULES)
def test_declarations_are_scored_with_the_hand() -> None:
    state = _after_trick_one()
    play(state, "marriage:H")
    assert state.match_scores == [0, 0]
    play_out(state)
    rec = state.history[-1]
    table = rec.score[NS] - 2
    assert table >= 0 and state.match_scores[NS] == rec.score[NS]


@covers("marjapussi.match.end", "marjapussi.match.tie", ruleset=RULES)
def test_match_to_10_game_points_tie_plays_on() -> None:
    check_match_target(lambda: _deal(ASKS), 10)


@covers("marjapussi.match.end", "marjapussi.match.tie", ruleset=RULES, options={"target": 5})
def test_target_option() -> None:
    check_match_target(lambda: _deal(ASKS, {"target": 5}), 5)


@pytest.mark.parametrize("size", [36, 32, 28])
@covers("marjapussi.pack", ruleset=RULES, options={"pack_size": 32})
def test_pack_total_is_140_whatever_the_size(size: int) -> None:
    r = rules_of(RULES, pack_size=size)
    assert r.pack_points == 140 and r.ncards == size and r.hand_size * 4 == size


@covers("marjapussi.match.tie", ruleset=RULES, options={"tie": "draw"})
def test_tie_draw_option() -> None:
    check_match_target(lambda: _deal(ASKS, {"tie": "draw"}), 10, tie="draw")


@covers("marjapussi.ask.answer", "marjapussi.ask.half.answer", ruleset=RULES,
        options={"answers": "may_refuse"})
def test_answers_may_refuse_option() -> None:
    opts = {"answers": "may_refuse"}
    state = _after_trick_one(options=opts)
    play(state, "ask:partner")
    assert legal_texts(state) == ["yes:S", "no"]
    refused(state, "yes:D", "marjapussi.ask.answer")
    play(state, "no")
    assert state.trump == -1 and state.game_points == [0, 0]
    state = _after_trick_one(options=opts)
    play(state, "ask:half:D")
    assert legal_texts(state) == ["yes", "no"]
    state = _after_trick_one(options=opts)
    play(state, "ask:half:C")
    assert legal_texts(state) == ["no"]
    refused(state, "yes", "marjapussi.ask.half.answer")


@covers("marjapussi.decl.failed-ask", "marjapussi.decl.per-trick", ruleset=RULES)
def test_a_failed_ask_uses_up_the_declaration_by_default() -> None:
    state = _after_trick_one()
    play(state, "ask:half:C no")  # the queen of clubs is with W
    assert "marriage:H" not in legal_texts(state)
    refused(state, "marriage:H", "marjapussi.decl.per-trick")


@covers("marjapussi.decl.failed-ask", ruleset=RULES, options={"failed_ask": "may_declare"})
def test_failed_ask_may_declare_option() -> None:
    state = _after_trick_one(options={"failed_ask": "may_declare"})
    play(state, "ask:half:C no")
    texts = legal_texts(state)
    assert "marriage:H" in texts and not any(t.startswith("ask:") for t in texts)
    refused(state, "ask:partner", "marjapussi.decl.per-trick")  # no second ask
    play(state, "marriage:H")
    assert state.trump == suit(state, "H") and state.game_points == [2, 0]
    refused(state, "marriage:H", "marjapussi.decl.per-trick")
