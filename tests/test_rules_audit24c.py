"""An audit of the older games (Marianna and its Sicilian form, Cinquecento, Mariglia,
Mariaggia, Mariazza, Finnish Marjapussi) as played against their rules notes (session 24).

Every test drives the engine through a rigged deal and a script of actions; none reads
the spec's text. Each names the part of the notes it checks. Seats are numbered in
playing order; dealer 3 in the four-player games so seat 0 leads trick 1.
"""

from __future__ import annotations

import rulekit as rk
from mariage import GameState, Phase
from rulekit import finish_hand, legal_texts, play, play_tricks, start, suit

NS, WE = 0, 1
MA, SIC, CQ = "marianna", "marianna-siciliana", "cinquecento"


# ================================================================== Marianna
def test_marianna_trump_named_late_in_a_trick_turns_an_earlier_card_into_the_winner() -> None:
    # notes, Marianna, trick winner: the trump that counts is the one in force after the
    # fourth card, so a declaration by the last player re-reads the cards already down
    st = start(MA, ["AS 2S 5S 6S 7S", "4H 2D 5D 6D 7D", "2C 5C 6C 7C JC",
                    "KH QH 3D 4D JD"], dealer=3)
    play(st, "AS 4H 2C")
    assert st.trump == -1
    play(st, "marianna:H 3D")
    assert st.trump == suit(st, "H") and st.tricks[-1][2] == 1  # W's small heart wins


def test_marianna_four_in_one_trick_score_by_order_and_the_last_fixes_trump() -> None:
    # notes, Marianna, values and trump: 40, 60, 80, 100 by order whoever declares; when
    # several declare in a trick, the latest to play sets the trump
    st = start(MA, ["KH QH 7H JH 6H", "KD QD 2D 5D 6D", "KC QC 4H 5C 6C",
                    "KS QS 2S 7C 2C"], dealer=3)
    play(st, "marianna:H 6H marianna:D 2D marianna:C 5C marianna:S 2S")
    assert st.decl_points == [40 + 80, 60 + 100]
    assert st.trump == suit(st, "S") and st.tricks[-1][2] == 3


def test_marianna_draw_winner_first_then_in_playing_order() -> None:
    # notes, Marianna, drawing: after a trick each player takes one card from the stock,
    # the winner first, then the others going round in the playing order
    st = start(MA, ["2S 5S 6S 7S JS", "AS 2D 5D 6D 7D", "2C 5C 6C 7C JC",
                    "2H 4H 5H 6H 7H"], dealer=3, stock="AH 3H KH QH")
    play(st, "2S AS 2C 2H")
    assert st.tricks[-1][2] == 1 and st.to_act == 1
    got = {seat: set(rk.cards(st, seat).split()) for seat in range(4)}
    assert "AH" in got[1] and "3H" in got[2] and "KH" in got[3] and "QH" in got[0]


def to_seat(st: GameState, seat: int, keep: str = "", tricks: int = 0) -> GameState:
    """Play cards (never those in ``keep``, nor any declaration) until ``seat`` is to act,
    ``tricks`` tricks from now."""
    kept = set(keep.split())
    goal = st.trick_no + tricks
    while st.trick_no < goal or st.to_act != seat:
        texts = [t for t in legal_texts(st) if t in st.rules.card_index]
        play(st, next((t for t in texts if t not in kept), texts[0]))
    return st


def test_marianna_declarations_allowed_in_trick_five_refused_in_trick_six() -> None:
    # notes, Marianna, cut-off: nothing may be declared once the stock's last card is
    # drawn, which happens after trick 5; trick 5 itself is still open
    st = to_seat(start(MA, ["KH QH 2S 5S 6S", None, None, None], dealer=3), 0, "KH QH", 4)
    assert st.trick_no == 5 and len(st.stock) == 4
    assert "marianna:H" in legal_texts(st)
    to_seat(st, 0, "KH QH", 1)
    assert st.trick_no == 6 and not st.stock
    rk.refused(st, "marianna:H", "marianna.decl.window")


def test_marianna_mariannino_outside_the_order_and_its_king_reused_later() -> None:
    # notes, Marianna, mariannino: four queens and a king score 250 and make the king's
    # suit trump; it takes no place in the 40/60/80/100 order, and its king and queen of
    # hearts may make the first marianna (40) in a later trick
    st = start(MA, ["KH QH QD QC QS", None, None, None], dealer=3)
    assert "mariannone:H" not in legal_texts(st)
    play(st, "mariannino:H")
    assert st.trump == suit(st, "H") and st.decl_points == [250, 0]
    rk.refused(st, "marianna:H", "marianna.decl.per-trick")  # one declaration a trick
    play(st, "QS")
    to_seat(st, 0, "KH QH", 1)
    play(st, "marianna:H")
    assert st.decl_points == [250 + 40, 0]


def test_marianna_mariannino_needs_the_whole_hand() -> None:
    # notes, Marianna, mariannino: all five cards of the hand; four queens and a king
    # with a fifth card besides is impossible, and three queens do not make one
    st = start(MA, ["KH QH QD QC 2S", None, None, None], dealer=3)
    assert not [t for t in legal_texts(st) if t.startswith("mariannin")]


def test_marianna_mariannone_wins_the_match_on_the_spot() -> None:
    # notes, Marianna, mariannone: four kings and a queen, 500, and the match is won
    st = start(MA, ["KH KD KC KS QS", None, None, None], dealer=3)
    st.match_scores = [0, 480]
    play(st, "mariannone:S")
    assert st.terminal and st.result is not None and st.result.winner == NS
    assert st.match_scores == [500, 480]


def test_marianna_a_hand_is_worth_120_plus_declarations_no_last_trick_bonus() -> None:
    # notes, Marianna, scoring: no bonus for the last trick
    st = start(MA, ["KH QH 2S 5S 6S", None, None, None], dealer=3)
    play(st, "marianna:H")
    rk.play_out(st)
    assert st.phase == Phase.DEAL and sum(st.match_scores) == 120 + 40


def test_marianna_match_to_501_tie_at_or_past_it_plays_on() -> None:
    # notes, Marianna, match: 501 or more after a hand ends it, the higher wins; equal
    # totals past the target play another hand
    rk.check_match_target(lambda: start(MA, ["KH QH 2S 5S 6S", None, None, None], dealer=3),
                       501)


def test_marianna_options_values_20_and_declaring_at_the_trick_start() -> None:
    # notes, Marianna, options 1 and 2: 20/40/60/80; declarations before the lead only,
    # offered in playing order, the last one made fixing trump
    hands = ["KH QH 7H JH 6H", "KD QD 2D 5D 6D", "KC QC 4H 5C 6C", "KS QS 2S 7C 2C"]
    st = start(MA, hands, dealer=3, options={"marianna_values": "20-40-60-80"})
    play(st, "marianna:H 6H marianna:D 2D marianna:C 5C marianna:S 2S")
    assert st.decl_points == [20 + 60, 40 + 80]
    st = start(MA, hands, dealer=3, options={"declare_when": "trick_start"})
    play(st, "marianna:H pass marianna:C marianna:S")
    assert st.trump == suit(st, "S") and st.decl_points == [40 + 60, 80]
    play(st, "6H")
    assert "marianna:D" not in legal_texts(st)  # too late once the card is led


def test_marianna_options_leader_only_first_fixes_and_trick_six() -> None:
    # notes, Marianna, options 3, 4 and 5
    hands = ["KH QH 7H JH 6H", "KD QD 2D 5D 6D", "KC QC 4H 5C 6C", "KS QS 2S 7C 2C"]
    st = start(MA, hands, dealer=3, options={"declare_who": "leader"})
    play(st, "marianna:H 6H")
    assert not [t for t in legal_texts(st) if ":" in t]
    st = start(MA, hands, dealer=3, options={"first_fixes_trump": True})
    play(st, "marianna:H 6H marianna:D 2D")
    assert st.trump == suit(st, "H") and st.decl_points == [40, 60]
    st = start(MA, ["KH QH 2S 5S 6S", None, None, None], dealer=3,
               options={"trick_six": True})
    to_seat(st, 0, "KH QH", 5)
    assert st.trick_no == 6 and not st.stock and "marianna:H" in legal_texts(st)
    to_seat(st, 0, "KH QH", 1)
    rk.refused(st, "marianna:H", "marianna.decl.window")


def test_marianna_cards_of_a_marianna_serve_again_in_a_mariannino() -> None:
    # notes, Marianna: the cards of one declaration may be used in a different later one;
    # the mariannino (250) stands outside the order, so 40 + 250
    st = start(MA, ["KH QH QD QC AS", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                    "2S 4S 5S 6S 7S"], dealer=3, stock="QS 3D 3C 3S")
    play(st, "marianna:H AS 2D 2C 2S")
    assert st.tricks[-1][2] == 0 and rk.cards(st, 0) == "KH QH QD QC QS"
    play(st, "mariannino:H")
    assert st.decl_points == [40 + 250, 0]


def test_marianna_each_suit_once_per_hand() -> None:
    # notes, Marianna (decided): a suit's marianna is declared at most once in a hand
    st = start(MA, ["KH QH 2S 5S 6S", None, None, None], dealer=3)
    play(st, "marianna:H 2S")
    to_seat(st, 0, "KH QH", 1)
    assert "KH" in rk.cards(st, 0) and "QH" in rk.cards(st, 0)
    assert "marianna:H" not in legal_texts(st)


# ================================================================== Sicilian split marriage
def split_deal(north: str = "KH AS 3S 5S 6S", south: str = "QH 2D 4C 5C 6C",
               west: str | None = "KD QD 2C 5D 6D", east: str | None = "2H 4H 7C 7S JS",
               stock: str = "", options: dict[str, object] | None = None) -> GameState:
    return start(SIC, [north, west, south, east], dealer=3, stock=stock, options=options)


def test_split_refused_without_the_card_and_once_trump_is_set() -> None:
    # notes, Sicilian: the asker must hold the king or queen of the suit, and only while
    # the hand has no trump
    st = split_deal(north="KH AD 3S 5S 6S")
    assert "ask:cover:D" not in legal_texts(st) and "ask:cover:H" in legal_texts(st)
    play(st, "AD marianna:D 2C 2D 2H")
    assert st.trump == suit(st, "D") and st.leader == 0 and "KH" in rk.cards(st, 0)
    assert not [t for t in legal_texts(st) if t.startswith("ask")]


def test_split_with_the_20_40_values_still_scores_20_and_counts_first() -> None:
    # notes, Sicilian: 20 for a won split, and it takes the first place of the order
    # (decided), so under the 20/40/60/80 option the next marianna scores 40
    st = split_deal(options={"marianna_values": "20-40-60-80"})
    play(st, "ask:cover:H yes KH 2C QH 2H AS marianna:D")
    assert st.decl_points == [20, 40]


def test_split_allowed_in_trick_five_not_in_trick_six() -> None:
    # notes, Sicilian (decided): no split once the stock is empty
    st = split_deal(north="KH AS 3S AD 3D", west=None, east=None,
                    stock="AC 2S 3C 4S KC 5S QC 6S JC 7S KS QS")
    for lead in ("AS", "3S", "AD", "3D"):
        play(st, lead)
        play_tricks(st, 1, keep="KH QH")
    assert st.trick_no == 5 and st.leader == 0 and st.stock
    assert "ask:cover:H" in legal_texts(st)
    play(st, "AC")
    play_tricks(st, 1, keep="KH QH")
    assert st.trick_no == 6 and not st.stock and st.trump == -1
    assert st.leader == 0 and "KH" in rk.cards(st, 0) and "QH" in rk.cards(st, 2)
    assert not [t for t in legal_texts(st) if t.startswith("ask")]


# ================================================================== Cinquecento
def test_cinquecento_first_marianna_40_fixes_trump_later_ones_20() -> None:
    # notes, Cinquecento: the first marianna is worth 40 and fixes trump for the hand;
    # every later one 20, trump unchanged; no mariannino by default
    st = start(CQ, ["KH QH QD QC QS", None, None, None], dealer=3)
    assert not [t for t in legal_texts(st) if t.startswith("mariannin")]
    st = start(CQ, ["KH QH 2H 5H 6H", "KD QD 2D 5D 6D", None, None], dealer=3)
    play(st, "marianna:H 2H marianna:D 2D")
    assert st.trump == suit(st, "H") and st.decl_points == [40, 20]


def test_cinquecento_match_to_500() -> None:
    # notes, Cinquecento: target 500
    rk.check_match_target(lambda: start(CQ, ["KH QH 2S 5S 6S", None, None, None], dealer=3),
                       500)


# ================================================================== Mariglia
# E deals and turns his last card; spades trump below. N holds every heart.
GLIA = ["7H AH KH JH QH 6H 5H 4H 3H 2H", "7D AD KD JD QD 6D 5D 4D 3D 2D",
        "KS 5S 7S 4S 3S 7C AC KC JC QC", "2S AS JS QS 6S 6C 5C 4C 3C 2C"]


def glia(hands: list[str] = GLIA, turn_up: str = "2S",
         scores: list[int] | None = None) -> GameState:
    st = GameState(start("mariglia", hands, dealer=3, turn_up=turn_up).rules, first_dealer=3)
    st.match_scores = list(scores or [0, 0])
    return start("mariglia", hands, turn_up=turn_up, state=st)


def test_mariglia_void_must_trump_an_opponent_not_a_partner_and_overtrump_if_able() -> None:
    # notes, Mariglia, duties: void against an opponent's winning card you must trump
    # (higher than a winning trump) when you can; a partner's winning card frees you;
    # no duty to undertrump
    st = glia()
    play(st, "3H 2D")
    assert len(legal_texts(st)) == 10  # S: partner N is winning, anything goes
    play(st, "7C")
    assert legal_texts(st) == ["AS", "JS", "QS", "6S", "2S"]  # E: any trump beats 3H
    play(st, "6S")
    assert st.tricks[-1][2] == 3
    hands = ["7H AH KH JH QH 6H 5H 4H 3H 2H", "4S 3S 7D AD KD JD QD 6D 5D 4D",
             "KS 5S 7S 7C AC KC JC QC 6C 5C", "2S AS JS QS 6S 3D 2D 4C 3C 2C"]
    st = glia(hands)
    play(st, "2H 3S")
    assert legal_texts(st) == ["7S", "KS", "5S"]  # S must overtrump W's 3S
    play(st, "5S")
    assert legal_texts(st) == ["AS", "JS", "QS", "6S"]  # E must beat 5S: not with 2S
    st = glia(hands)
    play(st, "2H 3S 7S")
    assert len(legal_texts(st)) == 10  # nothing beats the 7: no duty to undertrump


def test_mariglia_following_must_beat_within_the_suit_only_if_it_can_win() -> None:
    # notes, Mariglia, duties: following suit you must head an opponent's winning card if
    # you can (jack above queen, six below it); unable to, any card of the suit
    hands = ["3H 7D AD KD JD QD 6D 5D 4D 3D", "QH 2S 4S 5S 6S 2D 7C AC KC JC",
             "2H 4H 5H 6H 3S QC 6C 5C 4C 3C", "7H AH KH JH 7S AS KS JS QS 2C"]
    st = glia(hands, turn_up="2C")  # clubs trump
    play(st, "3H")
    assert legal_texts(st) == ["QH"]
    play(st, "QH")  # W beats N's 3H; S cannot beat the queen: any heart
    assert legal_texts(st) == ["6H", "5H", "4H", "2H"]
    play(st, "2H")
    assert legal_texts(st) == ["7H", "AH", "KH", "JH"]  # E must beat the queen


def test_mariglia_hand_of_70_scores_the_excess_over_35() -> None:
    # notes, Mariglia, scoring: card points plus 1 a trick make 70; more than 35 scores
    # the excess, the other side nothing; 35 all scores nothing
    for card_points, score in ((31, [1, 0]), (30, [0, 0]), (29, [0, 1]), (60, [35, 0])):
        st = glia()
        tricks = 10 if card_points == 60 else 5
        finish_hand(st, card_points, tricks, keep="7H 2S")
        assert sum(st.history[-1].points) + 10 == 70
        assert st.match_scores == score, (card_points, st.match_scores)




def test_mariglia_turn_up_bonus_can_end_the_match_before_play() -> None:
    # notes, Mariglia, turn-up bonus: the turned card's points go to the dealer's side at
    # once and may reach the target (35) before a card is played
    hands = ["2S AH KH JH QH 6H 5H 4H 3H 2H", GLIA[1], GLIA[2],
             "7H AS JS QS 6S 6C 5C 4C 3C 2C"]
    st = glia(hands, turn_up="7H", scores=[0, 29])
    assert st.match_scores == [0, 34] and st.phase.name == "PLAY"
    st = glia(hands, turn_up="7H", scores=[0, 30])
    assert st.terminal and st.result is not None and st.result.winner == WE


def test_mariglia_match_to_35_reached_exactly() -> None:
    # notes, Mariglia, target: 35 by default; a hand scoring 5 from 30 ends the match
    st = glia(scores=[29, 34])
    finish_hand(st, 35, 5, keep="7H 2S")  # 40 of 70: 5
    assert st.match_scores == [34, 34] and not st.terminal
    st = glia(scores=[30, 34])
    finish_hand(st, 35, 5, keep="7H 2S")
    assert st.terminal and st.result is not None and st.result.winner == NS


# ================================================================== Mariaggia
MAGGIA = ["KH QH KC QC AS", "KD QD 4H 5H 6C"]


def maggia(scores: list[int] | None = None) -> GameState:
    st = start("mariaggia", MAGGIA, dealer=1, turn_up="2S")
    st.match_scores = list(scores or [0, 0])
    return st


def test_mariaggia_accusa_by_the_leader_only_20_not_the_second_player() -> None:
    # notes, Mariaggia, accusa (decided default): only the player about to lead declares
    st = maggia()
    play(st, "accusa:H AS")
    assert st.decl_points == [20, 0]
    assert not [t for t in legal_texts(st) if t.startswith("accusa")]


def test_mariaggia_last_five_following_without_beating_any_card_of_the_suit() -> None:
    # notes, Mariaggia, last five: follow and beat if you can; unable to beat, any card of
    # the suit led (not a trump, not another suit)
    st = rk.endgame("mariaggia", leader="AH 5H 7C 4D 3D", follower="KH 4H AC 3S 2S",
                 turn_up="2S")
    play(st, "AH")
    assert legal_texts(st) == ["KH", "4H", "callout"]


def test_mariaggia_accusa_in_trick_fifteen_not_sixteen() -> None:
    # notes, Mariaggia, accusa (decided default): tricks 1-15, i.e. while the stock lasts
    a = "QS JS 7S 6S 5S 4S AD AC 3D 3C AH 3H KD KC"  # A wins every trick
    b = "2D 4D 5D 6D 7D 2C 4C 5C 6C 7C 2H 4H 5H 6H"
    stock = [c for pair in zip(a.split(), b.split(), strict=True) for c in pair]
    st = start("mariaggia", ["KH QH AS 3S KS", "JD QD JC QC JH"], dealer=1, turn_up="2S",
               stock=stock)
    r = st.rules

    def rank(c: str) -> int:
        return r.rank_of[r.card_index[c]]

    while st.trick_no < 15:
        mine = [c for c in legal_texts(st) if c in r.card_index and c not in ("KH", "QH")]
        play(st, (min if st.to_act == 0 else max)(mine, key=rank))
    assert st.to_act == 0 and st.stock and "accusa:H" in legal_texts(st)
    play(st, "KC")
    play(st, legal_texts(st)[0])
    assert st.trick_no == 16 and st.to_act == 0 and not st.stock
    rk.refused(st, "accusa:H", "mariaggia.decl.window")


def test_mariaggia_reaching_250_in_the_middle_of_a_hand_does_not_end_it() -> None:
    # notes, Mariaggia, match: the target is looked at when the hand ends (or on a call)
    st = maggia([245, 0])
    play(st, "accusa:H AS 6C")
    assert st.phase == Phase.PLAY and not st.terminal


def test_mariaggia_call_out_at_exactly_250_is_right() -> None:
    # notes, Mariaggia, call-out: running total + captured + accuse, 250 is enough
    st = maggia([219, 0])
    play(st, "accusa:H AS 6C")  # 20 + 11 + 0
    play(st, "0@callout")
    assert st.terminal and st.result is not None and st.result.winner == 0


def test_mariaggia_wrong_call_out_can_put_the_opponent_over_the_target() -> None:
    # notes, Mariaggia, call-out penalty (decided): the opponent keeps what he won in the
    # stopped hand, and the usual end-of-hand test of the target follows
    st = start("mariaggia", ["KC QC 4D 5D 6D", "AH KD QD 4H 5H"], dealer=1, turn_up="2S")
    st.match_scores = [0, 246]
    play(st, "4D KD 0@callout")
    assert st.history[-1].ended == "call_out_failed" and st.match_scores == [0, 250]
    assert st.terminal and st.result is not None and st.result.winner == 1


def test_mariaggia_match_to_250_tie_plays_on() -> None:
    # notes, Mariaggia, match: both over, the higher; equal, play on
    rk.check_match_target(maggia, 250)


# ================================================================== Mariazza
def test_mariazza_held_points_lost_when_the_hand_ends_first() -> None:
    # notes, Mariazza: the second player's declaration waits until he next leads; if the
    # opponent reaches the target before that, the held points are lost
    st = start("mariazza", ["AS 3S AD 3D 2C", "KH QH 4C 5C 6C"], dealer=None,
               first_player=0, turn_up="5S")
    play(st, "AS")
    play(st, "mariazza:H 4C")
    assert st.held == [0, 20]
    play(st, "3S 5C AD 6C")  # A: 11 + 10 + 11 = 32
    assert st.hand_points(0) == 32 and not st.history
    play(st, "3D KH")  # 10 + 4 more: 46
    rec = st.history[-1]
    assert st.phase == Phase.DEAL and rec.points[1] == 0 and rec.winner == 0


# ================================================================== Marjapussi
MJ = ["AH KH QH AD KD QC 8C 7C 6C", "JH TH 8H 9D 8D 7D 6D JS 7S",
      "6H KS QS QD 9C JC TC AC KC", "9H 7H TD JD 9S 6S 8S AS TS"]


def mj(options: dict[str, object] | None = None) -> GameState:
    """N wins trick 1 with the ace of hearts and is to declare; E keeps two hearts, W
    one, and neither holds a club."""
    st = start("marjapussi", MJ, dealer=3, options=options)
    play(st, "AH")
    play_tricks(st, 1)
    assert st.to_act == 0 and st.trick_no == 2
    return st


def test_marjapussi_void_must_trump_but_need_not_beat() -> None:
    # notes, Marjapussi, play: follow; void with a trump in force, play a trump if able,
    # any trump, even one under a trump already in the trick
    st = mj()
    assert rk.cards(st, 1) == "JH 8H 9D 8D 7D 6D JS 7S" and rk.cards(st, 3).count("H") == 1
    play(st, "marriage:H 8C")
    assert legal_texts(st) == ["JH", "8H"]  # E has no club: a heart, either one
    play(st, "JH")
    assert legal_texts(st) == ["AC", "TC", "KC", "JC", "9C"]  # S follows, need not beat
    play(st, "9C")
    assert legal_texts(st) == ["7H"]  # W must trump although 7H cannot win


def test_marjapussi_game_points_arithmetic() -> None:
    # notes, Marjapussi, game points: 1 for 75+, 2 for the marriage that made trump, 1 for
    # each other one (here by asking for the other half), 1 for the last trick, 1 for the
    # majority (the literal reading: on top of the threshold point)
    st = mj()
    play(st, "marriage:H AD")
    play_tricks(st, 1)
    play(st, "ask:half:C yes")
    assert st.trump == suit(st, "H") and st.game_points == [3, 0]
    finish_hand(st, 80, 6)
    last = [0, 0]
    last[st.tricks[-1][2] % 2] = 1
    assert list(st.history[-1].score) == [1 + 2 + 1 + 1 + last[0], last[1]]


def test_marjapussi_equal_card_points_give_no_majority_point() -> None:
    # notes, Marjapussi: a 70-70 split gives nobody the threshold or majority point
    st = start("marjapussi", MJ, dealer=3)
    finish_hand(st, 70, 5)
    last = [0, 0]
    last[st.tricks[-1][2] % 2] = 1
    assert list(st.history[-1].score) == last


def test_marjapussi_original_points_threshold_61() -> None:
    # notes, Marjapussi, point systems: 120 in the pack, the threshold point at 61
    for mine, score in ((61, 2), (60, 0)):
        st = start("marjapussi", MJ, dealer=3, options={"point_system": "original"})
        finish_hand(st, mine, 5)
        last = [0, 0]
        last[st.tricks[-1][2] % 2] = 1
        assert list(st.history[-1].points) == [mine, 120 - mine]
        assert st.history[-1].score[0] == score + last[0], (mine, st.history[-1])


def test_marjapussi_match_to_10_tie_plays_on() -> None:
    # notes, Marjapussi, match: 10 or more wins; both, the higher; equal, play on
    rk.check_match_target(lambda: start("marjapussi", MJ, dealer=3), 10)


def test_marjapussi_trump_choice_option_a_marriage_without_trump_is_worth_1() -> None:
    # notes, Marjapussi, option: a marriage declared without making trump scores as an
    # other marriage (1); the first one that does make trump scores 2
    st = mj({"trump_choice": True})
    play(st, "marriage:H:notrump AD")
    assert st.trump == -1 and st.game_points == [1, 0]
    play_tricks(st, 1)
    play(st, "ask:half:C yes")
    assert st.trump == suit(st, "C") and st.game_points == [1 + 2, 0]


# ================================================================== random play against the notes
def _cards(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def _winner(st: GameState, cards: list[int], trump: int) -> int:
    """Index of the winning card by the notes: a trump over any other suit, the higher of
    one suit, else the card already winning (led)."""
    r, best = st.rules, 0
    for i, c in enumerate(cards):
        b = cards[best]
        if r.suit_of[c] == r.suit_of[b]:
            best = i if r.rank_of[c] < r.rank_of[b] else best
        elif r.suit_of[c] == trump:
            best = i
    return best


def _allowed(st: GameState, game: str) -> set[int]:
    """The cards the notes allow the seat to act to play (Mariglia, Marjapussi, Mariaggia)."""
    r, seat = st.rules, st.to_act
    assert seat is not None
    hand, trick, trump = _cards(st.hands[seat]), list(st.trick_cards), st.trump
    if not trick or (game == "mariaggia" and len(st.tricks) < 15):
        return set(hand)
    led = r.suit_of[trick[0]]
    follow = [c for c in hand if r.suit_of[c] == led]
    trumps = [c for c in hand if r.suit_of[c] == trump]
    w = _winner(st, trick, trump)
    top = trick[w]

    def over(cards: list[int]) -> list[int]:
        return [c for c in cards if r.suit_of[c] != r.suit_of[top] or r.rank_of[c] < r.rank_of[top]]

    if game == "mariglia":
        rival = r.team_of[(st.leader + w) % r.nseats] != r.team_of[seat]
        if follow:
            beat = over(follow) if rival and r.suit_of[top] == led else []
            return set(beat or follow)
        return set((over(trumps) if rival else []) or hand)
    if follow:  # Marjapussi: follow; Mariaggia's last five: follow and head the card led
        return set((over(follow) if game == "mariaggia" else []) or follow)
    return set(trumps or hand)


def test_random_hands_obey_the_notes_duties_and_trick_winners() -> None:
    # notes: the duties of Mariglia, of Marjapussi and of Mariaggia's last five tricks,
    # and the trick winner of every game (Marianna's trump read after the last card),
    # checked by an independent reading over random hands
    rng = __import__("random").Random(24)
    games = {"mariglia": "mariglia", "marjapussi": "marjapussi", "mariaggia": "mariaggia",
             MA: "", SIC: "", "mariazza": ""}
    for ruleset, game in games.items():
        rules = start(ruleset, dealer=None if ruleset == "mariazza" else 0).rules
        for _ in range(15):
            st = GameState(rules, first_dealer=None if ruleset == "mariazza" else 0)
            deck = list(range(rules.ncards))
            rng.shuffle(deck)
            st.deal(deck, 0 if ruleset == "mariazza" else None)
            while st.phase not in (Phase.DEAL, Phase.OVER):
                texts = [t for t in legal_texts(st) if t not in ("callout", "resign")]
                plays = {rules.card_index[t] for t in texts if t in rules.card_index}
                if game and plays and not any(t.startswith(("ask", "yes")) for t in texts):
                    assert plays == _allowed(st, game), (ruleset, st)
                trump, done = st.trump, len(st.tricks)
                play(st, rng.choice(texts))
                if len(st.tricks) > done:
                    leader, cards, winner = st.tricks[-1]
                    assert leader is not None
                    assert winner == (leader + _winner(st, list(cards), trump)) % rules.nseats


def test_marjapussi_asked_partner_with_several_marriages_names_the_one_he_likes() -> None:
    # notes, Marjapussi, asking (b): a partner holding several marriages picks which one is
    # declared; it is the team's marriage, and the first one makes trump (2 game points)
    hands = ["AH 9H 8H AD TD 8C 7C 6C 9S", "JH TH 7H 9D 8D 7D 6D JS 7S",
             "6H KS QS KD QD KC QC TC JC", "KH QH JD AC 9C AS TS 8S 6S"]
    st = start("marjapussi", hands, dealer=3)
    play(st, "AH")
    play_tricks(st, 1)
    assert st.to_act == 0 and "marriage:H" not in legal_texts(st)
    play(st, "ask:partner")
    assert st.to_act == 2 and sorted(legal_texts(st)) == ["yes:C", "yes:D", "yes:S"]
    play(st, "yes:C")
    assert st.trump == suit(st, "C") and st.game_points == [2, 0] and st.to_act == 0
