"""Per-rule tests of Sixty-six for four (the rules notes, section 4).

Seats N E S W = 0 1 2 3, partners opposite (NS against EW), play to the left.
Unless said otherwise W deals, so N leads, and W's last card is the turned-up
trump card. Scoring situations deep in a hand set the sides' card points and
tricks just before the last trick (``finish``) and then play that trick.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mariage import GameState, Phase, load_rules
from mariage.engine.observation import observe
from rulekit import (
    check_match_target,
    covers,
    finish_hand,
    legal_texts,
    play,
    play_out,
    refused,
    start,
)

X4 = "sixty-six-4"
N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1


def plays(state: GameState) -> list[str]:
    return [t for t in legal_texts(state) if t[0] in "AKQJT987"]


PLAIN = [None, None, None, "7S"]  # W deals and turns the seven of spades


def deal4(hands: list[str | None], turn_up: str, dealer: int = W,
          options: Mapping[str, Any] | None = None) -> GameState:
    return start(X4, hands, dealer=dealer, turn_up=turn_up, options=options)


# a hand NS wins trick by trick: S holds every club (the trump) and N the red aces and tens
SWEEP = ["AH TH KH QH AD TD KD QD", None, "AC TC KC QC JC 9C 8C 7C", None]


def sweep(options: Mapping[str, Any] | None = None) -> GameState:
    return deal4(SWEEP, "7C", dealer=S, options=options)  # S deals: E leads


def finish(state: GameState, ns_points: int, ns_tricks: int) -> GameState:
    """Play to the last trick, set the sides so that the hand ends at ``ns_points`` / 130
    and ``ns_tricks`` / 8 (the last trick and its 10 included), then play it."""
    return finish_hand(state, ns_points, ns_tricks)


# ----------------------------------------------------------------- seats, pack, deal
@covers("sixty-six-4.players", "sixty-six-4.pack", "sixty-six-4.deal", ruleset=X4)
def test_four_players_thirty_two_cards_dealt_three_two_three() -> None:
    r = load_rules(X4)
    assert r.nseats == 4 and r.teams == ((0, 2), (1, 3)) and r.direction == "clockwise"
    assert r.ncards == 32 and r.pack_points == 120 and r.stock_size == 0
    assert [r.points[r.card_index[c]] for c in ("9S", "8S", "7S", "AS")] == [0, 0, 0, 11]
    st = GameState(r, first_dealer=W)
    st.deal(list(range(32)))
    # rounds of 3, 2, 3 from the dealer's left; the dealer's last card is turned
    assert st.hands[N] == sum(1 << i for i in (0, 1, 2, 12, 13, 20, 21, 22))
    assert st.hands[E] == sum(1 << i for i in (3, 4, 5, 14, 15, 23, 24, 25))
    assert st.hands[W] == sum(1 << i for i in (9, 10, 11, 18, 19, 29, 30, 31))
    assert st.turn_up == 31 and st.trump == r.suit_of[31] and not st.stock
    assert st.hands[W] >> 31 & 1  # the dealer keeps it


@covers("sixty-six-4.deal", ruleset=X4, options={"deal_packets": "2-2-2-2"})
def test_the_german_deal_two_at_a_time() -> None:
    st = GameState(load_rules(X4, {"deal_packets": "2-2-2-2"}), first_dealer=W)
    st.deal(list(range(32)))
    assert st.hands[N] == sum(1 << i for i in (0, 1, 8, 9, 16, 17, 24, 25))
    assert st.hands[W] >> 31 & 1 and st.turn_up == 31
    assert "two at a time" in st.rules.info("sixty-six-4.deal").text


@covers("sixty-six-4.lead.first", "sixty-six-4.deal.rotation", ruleset=X4)
def test_the_dealers_left_leads_and_the_deal_passes_left() -> None:
    st = deal4(PLAIN, "7S")
    assert st.to_act == N and st.leader == N
    play_out(st)
    assert st.phase == Phase.DEAL and st.dealer == N
    start(X4, [None, None, None, None], state=st)
    assert st.to_act == E


@covers("sixty-six-4.deal.rotation", ruleset=X4, options={"next_dealer": "winner"})
@covers("sixty-six-4.deal.rotation", ruleset=X4, options={"next_dealer": "loser"})
def test_the_winning_or_losing_side_deals_next() -> None:
    for how, side in (("winner", NS), ("loser", EW)):
        st = sweep({"next_dealer": how})  # dealer S; NS takes every trick
        play_out(st)
        assert st.history[-1].winner == NS
        # that side's player next to the left of the dealer S: W for EW, N for NS
        assert st.dealer == (N if side == NS else W), how


# ----------------------------------------------------------------- duties
@covers("sixty-six-4.play.follow", "sixty-six-4.play.head", "sixty-six-4.trick.winner",
        ruleset=X4)
def test_follow_and_win_the_trick_even_over_the_partner() -> None:
    hands = ["KH 7D 8D 9D JD QD KD TD", "AH 9H TS 9S 8S JS QS KS",
             "TH 8H 7H 7C 8C 9C JC QC", "QH JH AS 7S AD TC KC AC"]
    st = deal4(hands, "AC")  # trump clubs
    play(st, "KH")
    assert plays(st) == ["AH"]  # E must win the trick
    refused(st, "9H", "sixty-six-4.play.head")
    play(st, "AH")
    assert set(plays(st)) == {"TH", "8H", "7H"}  # S cannot beat the ace: any heart
    play(st, "8H")
    refused(st, "TC", "sixty-six-4.play.follow")
    play(st, "QH")
    assert st.tricks[-1][2] == E
    play(st, "9S")  # E leads a spade: S, void, must trump
    assert set(plays(st)) == {"7C", "8C", "9C", "JC", "QC"}
    play(st, "7C")
    assert set(plays(st)) == {"AS", "7S"}  # a trump is winning: any spade will do
    play(st, "7S JD")  # N, void in spades and without a trump, plays any card
    assert st.tricks[-1][2] == S  # the trump wins


@covers("sixty-six-4.play.head", ruleset=X4)
def test_beat_the_partners_card_when_following() -> None:
    hands = ["QS 7H 8H 9H JH QH KH TH", "7S 7D 8D 9D JD QD KD TD",
             "AS 8S 9S JS KS AH 7C 8C", "TS AD 9C JC QC KC TC AC"]
    st = deal4(hands, "AC")
    play(st, "QS 7S")
    assert set(plays(st)) == {"AS", "KS"}  # N's queen wins: S must still beat it


@covers("sixty-six-4.play.trump", ruleset=X4)
def test_void_must_trump_overtrump_and_still_undertrump() -> None:
    hands = ["AH KH QH JH 9H 8H 7H AD", "TD KD QC 7C 8S 9S JS QS",
             "9C AS KS 7S TS JD QD 8D", "TH AC TC KC JC 8C 9D 7D"]
    st = deal4(hands, "7D")  # W deals and turns 7D: trump diamonds
    assert st.rules.suits[st.trump] == "D"
    play(st, "AH")
    assert set(plays(st)) == {"TD", "KD"}  # void in hearts: a trump
    refused(st, "QC", "sixty-six-4.play.trump")
    play(st, "KD")
    assert set(plays(st)) == {"JD", "QD", "8D"}  # cannot over-trump the king: still a trump
    refused(st, "AS", "sixty-six-4.play.trump")
    play(st, "8D TH")
    assert st.tricks[-1][2] == E
    st = deal4(["AH KH QH JH 9H 8H 7H 7S", "TD KD QC 7C 8S 9S JS QS",
                "9C AS KS AD TS JD QD 8D", "TH AC TC KC JC 8C 9D 7D"], "7D")
    play(st, "AH KD")
    assert plays(st) == ["AD"]  # able to over-trump: must


@covers("sixty-six-4.play.trump", ruleset=X4, options={"undertrump_required": False})
def test_without_the_undertrump_duty_any_card_when_no_trump_wins() -> None:
    hands = ["AH KH QH JH 9H 8H 7H AD", "TD KD QC 7C 8S 9S JS QS",
             "9C AS KS 7S TS JD QD 8D", "TH AC TC KC JC 8C 9D 7D"]
    st = deal4(hands, "7D", options={"undertrump_required": False})
    play(st, "AH")
    assert set(plays(st)) == {"TD", "KD"}  # a trump still wins: must trump
    play(st, "KD")
    assert set(plays(st)) == {"9C", "AS", "KS", "7S", "TS", "JD", "QD", "8D"}
    play(st, "AS")
    assert "need not play a lower trump" in st.rules.info("sixty-six-4.play.trump").text


# ----------------------------------------------------------------- scoring
@covers("sixty-six-4.score.hand", "sixty-six-4.score.last-trick", "sixty-six-4.score.scale",
        "sixty-six-4.score.played-out", ruleset=X4)
def test_all_the_tricks_score_three_with_the_last_trick_ten() -> None:
    st = play_out(sweep())
    rec = st.history[-1]
    assert rec.points == (130, 0) and rec.tricks == (8, 0) and rec.ended == "played_out"
    assert rec.score == (3, 0) and rec.winner == NS


@covers("sixty-six-4.score.scale", "sixty-six-4.score.played-out", ruleset=X4)
def test_sixty_six_scores_one_and_a_hundred_scores_two() -> None:
    for ns, want in ((66, (1, 0)), (99, (1, 0)), (100, (2, 0)), (101, (2, 0)),
                     (64, (0, 1)), (30, (0, 2)), (31, (0, 1))):
        st = finish(deal4(PLAIN, "7S"), ns, 4)
        assert st.history[-1].score == want, ns


@covers("sixty-six-4.score.scale", ruleset=X4, options={"hundred_counts_two": False})
def test_two_game_points_only_above_a_hundred() -> None:
    for ns, want in ((100, (1, 0)), (101, (2, 0)), (30, (0, 1)), (29, (0, 2))):
        st = finish(deal4(PLAIN, "7S", options={"hundred_counts_two": False}), ns, 4)
        assert st.history[-1].score == want, ns


@covers("sixty-six-4.score.played-out", "sixty-six-4.score.draw-bonus", ruleset=X4)
def test_sixty_five_all_is_drawn_and_the_next_winners_get_one_more() -> None:
    st = finish(deal4(PLAIN, "7S"), 65, 4)
    rec = st.history[-1]
    assert rec.score == (0, 0) and rec.winner is None and st.dealer == N
    # N deals the next hand with every club; S holds the red aces and tens: NS sweeps
    start(X4, [SWEEP[2], None, SWEEP[0], None], turn_up="7C", state=st)
    play_out(st)
    assert st.history[-1].score == (4, 0)  # 3 for every trick, 1 for the drawn hand
    start(X4, [None, "7S"], turn_up="7S", state=st)
    finish(st, 66, 4)
    assert st.history[-1].score == (1, 0)  # the bonus is spent


@covers("sixty-six-4.score.draw-bonus", ruleset=X4, options={"draw_bonus_next_hand": False})
def test_no_bonus_after_a_drawn_hand() -> None:
    st = finish(deal4(PLAIN, "7S", options={"draw_bonus_next_hand": False}), 65, 4)
    assert st.history[-1].score == (0, 0) and st.carry_bonus == 0
    finish(start(X4, ["7S"], turn_up="7S", state=st), 66, 4)  # N deals
    assert st.history[-1].score == (1, 0)


@covers("sixty-six-4.score.ten-of-trumps", ruleset=X4, options={"ten_of_trumps_point": True})
def test_the_ten_of_trumps_point() -> None:
    on = {"ten_of_trumps_point": True}
    st = play_out(sweep(on))
    assert st.history[-1].score == (4, 0)  # 3 for every trick, 1 for the ten of clubs
    # EW wins the ten of trumps in a drawn hand: EW scores 1, the hand stays drawn
    hands = ["AH 7S 8S 9S JS QS KS TS", "9H 7D 8D 9D JD QD KD TD",
             "8H AS 7H JH QH KH TH AD", "TC 9C 8C JC QC KC AC 7C"]
    st = deal4(hands, "7C", options=on)
    play(st, "AH 9H 8H TC")  # W, void in hearts, trumps with the ten
    assert st.tricks[-1][2] == W
    finish(st, 65, 4)
    rec = st.history[-1]
    assert rec.score == (0, 1) and rec.winner is None and st.carry_bonus == 1


@covers("sixty-six-4.match.end", "sixty-six-4.match.tie", ruleset=X4)
def test_the_first_side_to_seven_wins() -> None:
    check_match_target(sweep, 7)


@covers("sixty-six-4.match.end", ruleset=X4, options={"match_target": 3})
def test_a_shorter_match() -> None:
    st = play_out(sweep({"match_target": 3}))
    assert st.terminal and st.result is not None and st.result.winner == NS


@covers("sixty-six-4.match.tie", ruleset=X4, options={"ten_of_trumps_point": True})
def test_both_sides_at_the_target_in_one_hand() -> None:
    on = {"ten_of_trumps_point": True}
    hands = ["AH 7S 8S 9S JS QS KS TS", "9H 7D 8D 9D JD QD KD TD",
             "8H AS 7H JH QH KH TH AD", "TC 9C 8C JC QC KC AC 7C"]
    for ns, scores, terminal in ((66, [7, 7], False), (100, [8, 7], True)):
        st = deal4(hands, "7C", options=on)
        st.match_scores = [6, 6]
        play(st, "AH 9H 8H TC")
        finish(st, ns, 4)
        assert st.match_scores == scores and st.terminal == terminal
        if terminal:
            assert st.result is not None and st.result.winner == NS


@covers("sixty-six-4.visibility", ruleset=X4)
@covers("sixty-six-4.visibility", ruleset=X4, options={"review_own_tricks": False})
def test_a_side_looks_through_its_own_tricks() -> None:
    hands = ["AH AD 7S 8S 9S JS QS KS", "9H 9D 7D 8D JD QD KD TD",
             "8H 8C 7H JH QH KH TH TS", "TC 9C AS JC QC KC AC 7C"]
    for review in (True, False):
        st = deal4(hands, "7C", options={"review_own_tricks": review})
        assert observe(st, E).turn_up == st.turn_up
        play(st, "AH 9H 8H TC")  # W wins the first trick with the ten of trumps
        assert observe(st, N).reviewable == (0,)  # the last trick, until the next card
        play(st, "AS")
        assert observe(st, N).reviewable == ()
        assert observe(st, E).reviewable == ((0,) if review else ())
