"""An audit of German Marjapussi, Schnapsen and Mariaggia as played against their notes
(session 24, second part).

Every test plays the point through the engine (a rigged deal, the hand end run by the
interpreter's own code), not through the spec's text, and names the section of the notes
it checks. Marjapussi seats as in ``test_rules_marjapussi_de.py`` (N E S W = 0 1 2 3, W
deals, N is forehand); Schnapsen seats as in ``test_rules_schnapsen.py`` (A B = 0 1, B
deals, A leads first).
"""

from __future__ import annotations

from mariage import GameState, Phase
from rulekit import cards, finish_sides, legal_texts, play, play_out
from schnapsenkit import A, B, force, on_lead_after_winning
from schnapsenkit import deal as deal66
from test_rules_mariaggia import _deal as deal_mariaggia
from test_rules_marjapussi_de import (
    EW,
    HALF,
    NS,
    E,
    N,
    S,
    W,
    after_trick_one,
    deal,
    give,
    nobody_bids,
    refused_de,
)
from test_rules_schnapsen import go_on, has

SCH = "schnapsen"

# NS hold every card from the six to the nine and two unters; EW everything above
LOW = ["6H 7H 8H 9H 6D 7D 8D 9D JH", "AH TH KH QH AD TD KD QD JC",
       "6C 7C 8C 9C 6S 7S 8S 9S JD", "AC TC KC QC AS TS KS QS JS"]
HIGH = [LOW[1], LOW[0], LOW[3], LOW[2]]


def n_plays(hands: list[str], final: str) -> GameState:
    """N bids 120 and the others pass; S and N pass four clubs or spades each way (the
    same four cards back); N keeps or raises with ``final``; the hand is played out
    without calls."""
    st = deal(hands)
    play(st, "bid:120 pass pass pass")
    four = " ".join(cards(st, S).split()[:4])
    give(st, four)
    give(st, four)
    play(st, final)
    return play_out(st)


# ================================================================== German Marjapussi
def test_mjde_a_trickless_playing_party_books_minus_twice_its_value() -> None:
    # notes 1.11 and 1.12: the playing party that took no trick is schwarz and books
    # minus two times the game value; the defenders book their own 140, rounded
    st = n_plays(LOW, "keep")
    h = st.history[-1]
    assert st.tricks_won == [0, 9] and h.points == (0, 140)
    assert h.made is False and h.score == (-240, 140)


def test_mjde_trickless_defenders_pay_double_only_when_the_game_is_made() -> None:
    # notes 1.12: defenders schwarz under a made game book minus twice the value; under a
    # failed game (here raised to 420 and reaching 140) the ordinary lines apply
    st = n_plays(HIGH, "keep")
    h = st.history[-1]
    assert h.points == (140, 0) and h.made is True and h.score == (120, -240)
    st = n_plays(HIGH, "raise:420")
    h = st.history[-1]
    assert h.made is False and h.score == (-420, 0)


def _pair_then(card_points: int) -> GameState:
    """N declares at 200, wins trick 1 with AH, announces the heart pair (100) and the
    hand ends with NS at ``card_points`` card points (last trick included) in 5 tricks."""
    st = deal()
    play(st, "bid:200 pass pass pass")
    give(st, "JH 7H 6H 8D")
    give(st, "JH 7H 6H 8D")
    play(st, "keep AH TH JH")
    play(st, [legal_texts(st)[0]])
    assert st.leader == N
    play(st, "call:H")
    return finish_sides(st, [card_points, 140 - card_points], [5, 4])


def test_mjde_pairs_count_toward_the_value_and_reaching_it_exactly_is_enough() -> None:
    # notes 1.11: party points are cards, the last-trick 20 and credited pairs; the game
    # is made at the value itself; notes 1.12: defenders' 40 stays 40, their 41 rounds down
    h = _pair_then(100).history[-1]
    assert h.points == (200, 40) and h.made is True and h.score == (200, 40)
    h = _pair_then(99).history[-1]
    assert h.points == (199, 41) and h.made is False and h.score == (-200, 40)


# E holds the heart pair and wins trick 1 with the ace of green; W is void in bells
DEFENDER = ["7S 9C 8C 7C 6C KD 8D 7D 6D", "AS 6S TH KH QH TD QD JD 9D",
            "AH JH 9H 7H 6H AD KS 9S 8S", "AC TC KC QC JC TS QS JS 8H"]


def test_mjde_a_defenders_call_makes_trump_for_both_parties_and_scores_for_his() -> None:
    # notes 1.10 (any trick winner may call, defenders too) and 1.9 (void: trump even a
    # lone low trump); notes 1.9 rule 1: without an ace N must lead his only green card;
    # rule 3: in trick 1 the holder of the ace of the suit led must play it
    st = deal(DEFENDER)
    play(st, "bid:120 pass pass pass")
    give(st, "9S 8S 7H 6H")
    give(st, "9S 8S 7H 6H")
    play(st, "keep")
    assert legal_texts(st) == ["7S"]
    play(st, "7S AS")
    assert legal_texts(st) == ["KS", "9S", "8S"]
    play(st, "KS QS")
    assert st.leader == E
    play(st, "call:H")
    assert st.trump == st.rules.suits.index("H") and st.decl_points == [0, 100]
    play(st, "9D")
    assert legal_texts(st) == ["AD"]
    play(st, "AD")
    assert legal_texts(st) == ["8H"]  # the lone trump must go on the ace
    play(st, "8H")
    assert legal_texts(st) == ["KD", "8D", "7D", "6D"]  # trumped: any bells card
    play(st, "6D")
    assert st.leader == W
    h = play_out(st).history[-1]
    assert sum(h.points) == 140 + 100 and h.points[EW] >= 100 and h.made is False
    assert h.score[EW] == (h.points[EW] + 2) // 5 * 5 and h.score[NS] == -120


# S holds only the green pair, which he announces after trick 1; N wins trick 2
CALLED = ["7S TH KC QC 9C 8C 7C 6C 6D", "9H 8H 8S 9S TD KD QD JD 8D",
          "AS KS QS AH AC 6H JH AD 9D", "7H 6S TS JS TC JC KH QH 7D"]


def test_mjde_a_called_pair_is_no_answer_and_a_no_still_spends_the_level() -> None:
    # notes 1.10: a suit once called cannot be named again in answer, so a partner whose
    # only pair was called answers no; the asking level is reached by asking, so N may
    # not announce his own acorn pair afterwards
    st = nobody_bids(CALLED)
    play(st, "7S 9S")
    assert legal_texts(st) == ["AS"]  # trick 1: the ace of the suit led
    play(st, "AS 6S call:S")
    assert st.decl_points == [40, 0]
    play(st, "6H 7H TH 8H")
    assert st.leader == N and "call:C" in legal_texts(st)
    play(st, "ask:pair")
    assert legal_texts(st) == ["no"]
    play(st, "no")
    assert st.ask_level[N] == 1 and st.trump == st.rules.suits.index("S")
    # with a second call allowed per trick, the level alone forbids the announcement
    st = nobody_bids(CALLED, {"calls_per_trick": 2})
    play(st, "7S 9S AS 6S call:S 6H 7H TH 8H ask:pair no")
    assert "call:C" not in legal_texts(st) and "ask:half:C" in legal_texts(st)
    refused_de(st, "call:C", "marjapussi-de.calls.levels")


def test_mjde_a_played_half_is_no_longer_held() -> None:
    # notes 1.10: only cards in hand count for an answer; S has played his ober of hearts
    st = nobody_bids(HALF)
    play(st, "AH TH QH AC ask:half:H")
    assert legal_texts(st) == ["no"]
    play(st, "no")
    assert st.trump == -1 and st.decl_points == [0, 0]


def test_mjde_an_earlier_bidder_may_drop_out_and_the_standing_bid_declares() -> None:
    # notes 1.4: a bidder may pass later and three passes behind a bid end the auction;
    # notes 1.6: the declarer's partner (here W) gives first; notes 1.7: raise above
    # the bid in fives; notes 1.8 and 1.9: the declarer leads, an ace if he has one
    st = deal()
    play(st, "bid:120 bid:125 pass pass")
    assert st.phase == Phase.AUCTION and st.to_act == N
    play(st, "pass")
    assert st.declarer == E and st.contract == 125 and st.to_act == W
    give(st, "AC TC KC QC")
    assert st.to_act == E
    give(st, "9D 8H TH 6S")
    texts = legal_texts(st)
    assert texts[:2] == ["keep", "raise:130"] and texts[-1] == "raise:420"
    play(st, "keep")
    assert st.to_act == E and legal_texts(st) == ["AC", "AS"]


def test_mjde_a_hand_nobody_bid_books_rounded_points_with_pairs_and_no_kontra() -> None:
    # notes 1.5 and 1.12: without a bid each party books its own points, pairs included,
    # rounded to five; notes 1.13: Kontra is never allowed in such a hand
    st = after_trick_one()
    play(st, "call:H")
    h = play_out(st).history[-1]
    assert sum(h.points) == 240 and h.made is None
    assert h.score == tuple((p + 2) // 5 * 5 for p in h.points) and h.points[NS] >= 100
    st = nobody_bids(options={"kontra_re": True})
    assert "kontra" not in legal_texts(st, E)
    refused_de(st, "kontra", "marjapussi-de.contract.kontra", seat=E)


def test_mjde_a_game_bid_at_420_can_only_be_kept() -> None:
    # notes 1.4 and 1.7: 420 is the ceiling of bids and of the raise after the exchange
    st = deal()
    play(st, "bid:420 pass pass pass")
    give(st, "JH 7H 6H 8D")
    give(st, "9C 8C 7C 6C")
    assert legal_texts(st) == ["keep"]
    play(st, "keep")
    assert st.contract == 420 and st.phase == Phase.PLAY and st.to_act == N


# ================================================================== Schnapsen
def test_schnapsen_the_close_snapshot_counts_the_opponents_marriage() -> None:
    # notes 1.9 and 1.11: the closer is paid on the opponent's counted points at the
    # close, and a marriage of a player who has a trick counts: 5 + 40 = 45, one point
    st = deal66(SCH, "JD AC AH TC AD", "QD KH QH JC JS", turn="JH")
    play(st, "JD QD marriage:H QH AH")
    assert st.to_act == A and st.tricks_won == [1, 1]
    play(st, "close")
    force(st, A, captured=66, tricks=3)
    on_lead_after_winning(st, A)
    play(st, "claim")
    assert st.history[-1].ended == "claim" and st.history[-1].score == (1, 0)


def test_schnapsen_thirty_three_is_not_schneider() -> None:
    # notes 1.11: one game point from 33 up, two below it (with a trick)
    for opp, won in ((33, 1), (32, 2)):
        st = deal66(SCH)
        force(st, B, captured=opp, tricks=1)
        force(st, A, captured=66, tricks=2)
        on_lead_after_winning(st, A)
        play(st, "claim")
        assert st.history[-1].score == (won, 0)


def test_schnapsen_a_correct_claim_wins_over_a_silent_66() -> None:
    # notes 1.10: an opponent who passed 66 without claiming has lost his chance
    st = deal66(SCH)
    force(st, B, captured=70, tricks=3)
    force(st, A, captured=66, tricks=2)
    on_lead_after_winning(st, A)
    play(st, "claim")
    assert st.history[-1].ended == "claim" and st.history[-1].score == (1, 0)


def test_schnapsen_exchange_then_marry_the_turn_up_but_never_exchange_after_closing() -> None:
    # notes 1.7 and 1.8: exchange, then close or marry with the king taken in; once the
    # talon is closed the trump jack can no longer be exchanged
    st = deal66(SCH, "JH QH AC TC AD", turn="KH")
    assert "exchange:JH" in legal_texts(st)
    play(st, "exchange:JH")
    assert {"marriage:H", "close"} <= set(legal_texts(st))
    play(st, "marriage:H")
    assert st.held[A] == 40
    st = deal66(SCH, "JH QH AC TC AD", turn="KH")
    play(st, "close")
    assert not [t for t in legal_texts(st) if t.startswith("exchange")]


def test_schnapsen_the_jack_exchanged_before_trick_five_goes_to_its_loser() -> None:
    # notes 1.4 and 1.8: with the turn-up and one face-down card left the exchange is
    # still allowed; the winner of trick 5 draws the last face-down card, the loser the jack
    st = deal66(SCH, "JS AH TH AC TC", turn="AS")
    go_on(st, keep="JS", stop=lambda s: s.trick_no == 5)
    assert st.to_act == A and len(st.stock) == 2 and "exchange:JS" in legal_texts(st)
    last = st.stock[-1]
    play(st, "exchange:JS TD")
    st.apply(st.legal_actions()[0])
    assert st.tricks[-1][2] == A and not st.stock
    assert has(st, B, "JS") and st.hands[A] >> last & 1


# ================================================================== Mariaggia
def test_mariaggia_a_call_out_at_exactly_250_is_right_and_at_249_wrong() -> None:
    # general notes, Mariaggia: a call-out counts the running total, this hand's captures
    # and accuse against the target of 250; reaching it exactly is enough
    for base, ended in ((230, "call_out"), (229, "call_out_failed")):
        st = deal_mariaggia()
        st.match_scores = [base, 0]
        play(st, "accusa:H AS 0@callout")  # 20 for the accusa, nothing captured yet
        assert st.history[-1].ended == ended and st.terminal == (ended == "call_out")
