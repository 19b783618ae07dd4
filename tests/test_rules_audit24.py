"""An audit of Belote and Thousand as played against their rules notes (session 24).

Every test plays the point through the engine (a rigged deal, the hand end run by the
interpreter's own code), not through the spec's text. Each names the section of the
notes it checks. Belote seats as in ``test_rules_belote.py`` (N W S E = 0 1 2 3, E
deals); Thousand seats as in ``test_rules_thousand.py`` (A B C = 0 1 2, C deals).
"""

from __future__ import annotations

from typing import Any

from mariage import GameState, load_rules
from rulekit import finish_hand, finish_sides, legal_texts, play, play_tricks, start
from test_rules_belote import (
    BELOTE,
    EW,
    NS,
    P2,
    E,
    N,
    S,
    deal8,
    finish,
    gain,
    p4,
    plays,
    spades,
    trick1,
)
from test_rules_belote_presets import BC, BT, bid_deal
from test_rules_thousand import H1, TALON1

TH = "thousand"
A, B, C = 0, 1, 2


# ================================================================== Belote
def test_belote_litige_pots_add_up_and_go_to_the_next_makers() -> None:
    # notes 6.4: a second litige in a row adds the takers' total to the one waiting;
    # the side winning the next played deal (here the takers, made) takes it all
    st = finish(spades(), 81, 4)
    second = spades()
    second.pot = st.pot
    finish(second, 81, 4)
    assert gain(second) == [0, 81] and second.pot == 162
    third = spades()
    third.pot = second.pot
    finish(third, 100, 4)
    assert gain(third) == [100 + 162, 62] and third.pot == 0


def ranked(hands: list[str], taker: int, turn_up: str, script: list[str]
           ) -> tuple[int, list[int]]:
    """The side whose announcements count and the points per side, after trick 1 with
    these announcements (see :func:`trick1`)."""
    st = deal8(hands, taker, turn_up)
    trick1(st, script)
    return st.mech.announcements.best_side(st), st.mech.announcements.points(st)


def test_belote_equal_sequences_the_trump_one_wins() -> None:
    # notes 4.4 item 5: same length and same top card, the sequence in trumps is better
    hands = ["KC QC JC 9S 7D 8S AD 8H", "TH 7H AS TS 7C 8C 9D TD",
             "AH JD QD KD 9C TC AC 7S", "KH QH JH JS KS QS 8D 9H"]
    assert ranked(hands, E, "JH", ["tierce:KC", "", "", "tierce:KH"]) == (EW, [0, 20])


def test_belote_carre_of_nines_beats_carre_of_aces_and_aces_beat_tens() -> None:
    # notes 4.2 and 4.4 item 2: carrés rank J, 9, A, 10, K, Q; worth 200, 150, 100
    hands = ["AH AC AD AS 7D 8S 7C 8H", "9H 9C 9D 9S 7H 8C QD TD",
             "JC JD KC QC KD TC QH 7S", "KH JH TH TS KS QS 8D JS"]
    assert ranked(hands, E, "JS", ["carre:A", "carre:9", "", ""]) == (EW, [0, 150])
    hands = ["TH TC TD TS 7D 8S 7C 8H", "AH AC AD AS 7H 8C QD 9D",
             "JC JD KC QC KD 9C QH 7S", "KH JH 9H 9S KS QS 8D JS"]
    assert ranked(hands, E, "JS", ["carre:T", "carre:A", "", ""]) == (EW, [0, 100])


# NS take the turned 7 of spades holding its king and queen; EW hold the four high trumps
CAPOTED = ["7S KS QS 7H 8H 9H 7D 8D", "JS 9S AH TH KH QH 9D TD", None,
           "AS TS AD KD QD JD AC TC"]


def test_belote_takers_capoted_keep_their_belote_and_cannot_win_on_it() -> None:
    # notes 5 (imprenable) and 6.5: takers who win no trick are dedans, the defenders write
    # the capot (252); the takers keep their belote; notes 7.2: it cannot win them the game
    st = deal8(CAPOTED, N, "7S")
    st.match_scores = [985, 0]
    play(st, "belote:KS")
    finish_hand(st, 0, 0, keep="JS")  # every trick to EW
    assert gain(st) == [20, 252] and st.history[-1].outcome == "failed"
    assert st.match_scores == [1005, 252] and not st.terminal


def test_belote_match_tie_past_the_target_plays_on_then_the_higher_wins() -> None:
    # notes 7.1: both past the target and equal, another deal; then the higher total wins
    st = spades()
    st.match_scores = [920, 922]
    finish(st, 82, 4)
    assert not st.terminal and st.match_scores == [1002, 1002]
    nxt = spades()
    nxt.match_scores = [1002, 1002]
    finish(nxt, 90, 4)
    assert nxt.terminal and nxt.result is not None and nxt.result.winner == NS


def test_coinche_made_and_coinched_scores_160_plus_bid_doubled() -> None:
    # notes 8.4: made and coinched, the takers write (160 + bid) x 2, the defenders nothing
    st = bid_deal(["JS 9S AS AH TH 9D 8D 7D", None, None, None], N, "S", 100, "coinche")
    finish(st, 120, 5)
    assert gain(st) == [(160 + 100) * 2, 0] and st.history[-1].outcome == "made"


def test_coinche_unbid_capot_coinched_counts_250() -> None:
    # notes 8.4: a coinched contract made with every trick, capot not bid: 250 as base
    st = bid_deal(["JS 9S AS AH TH 9D 8D 7D", None, None, None], N, "S", 80, "coinche")
    finish(st, 162, 8)
    assert gain(st) == [(250 + 80) * 2, 0]


def test_contree_failed_takers_belote_goes_to_the_defence_unmultiplied() -> None:
    # notes 5 (prenable under contrée) and 8.4: a failed coinched contract, the takers'
    # belote goes to the defenders and is added outside the multiplier
    st = bid_deal(BELOTE, N, "S", 100, "coinche", ruleset=BT)
    play(st, "belote:KS")
    finish(st, 60, 3)
    assert gain(st) == [0, (160 + 100) * 2 + 20]


def test_coinche_failed_takers_keep_their_belote() -> None:
    # notes 5 and 8.4 (coinche preset): the takers' belote stays with them when they fail
    st = bid_deal(BELOTE, N, "S", 100, ruleset=BC)
    play(st, "belote:KS")
    finish(st, 60, 3)
    assert gain(st) == [20, 260]


def test_coinche_rounding_never_decides_the_contract() -> None:
    # notes 6.6 and 8.5: the lines are rounded only once the contract is judged: 84 + 80
    # against 78 (made) and 76 + 80 against 86 (failed), both would round to 160 - 80
    st = bid_deal(["JS 9S AS AH TH 9D 8D 7D", None, None, None], N, "S", 80, ruleset=BT)
    finish(st, 84, 4)
    assert gain(st) == [160, 80]
    st = bid_deal(["JS 9S AS AH TH 9D 8D 7D", None, None, None], N, "S", 80, ruleset=BT)
    finish(st, 76, 4)
    assert gain(st) == [0, 240]


def test_belote_partners_with_equal_best_sequences_both_score() -> None:
    # notes 4.4: the tie rule parts the two teams; two partners level at the top are one
    # team holding the best announcement, which then scores all of its own
    hands = ["KC QC JC 9S 7D 8S AD 8H", "TH 7H AS TS 7C 8C 9D TD",
             "KD QD JD AH 9C TC AC 7S", "KH QH JH JS KS QS 8D 9H"]
    assert ranked(hands, E, "JH", ["tierce:KC", "", "tierce:KD", ""]) == (NS, [40, 0])


def test_belote_a_card_serves_one_combination_and_a_long_run_is_one_cent() -> None:
    # notes 4.2: a card counts in one combination only (the holder chooses), and a run of
    # eight counts as a single cent
    st = deal8(["JC JD JH JS QS KS 7D 8D", None, None, "7S"], E, "7S")
    assert {"carre:J", "tierce:KS"} <= set(legal_texts(st))
    play(st, "carre:J")
    assert not [t for t in legal_texts(st) if t.startswith(("tierce", "carre"))]
    st = deal8(["AC KC QC JC TC 9C 8C 7C", None, None, "JS"], E, "JS")
    assert [t for t in legal_texts(st) if ":" in t] == ["cent:AC"]
    play(st, "cent:AC")
    assert not [t for t in legal_texts(st) if ":" in t]


# NS take all eight tricks; E holds the king and queen of trumps and says belote
CAPOT_BELOTE = ["JS 9S AS TS AH TH AD TD", "8S 7S 9H 8H 7H 9D 8D 7D",
                "KH QH JH AC TC KC QC JC", "KS QS KD QD JD 9C 8C 7C"]


def test_belote_defenders_capoted_keep_their_belote_but_cannot_win_on_it() -> None:
    # notes 6.5 and 6.7 (S6): the capot makers write 252; the capoted defenders keep their
    # belote; notes 7.2: those 20 alone do not win the game for them
    st = deal8(CAPOT_BELOTE, N, "JS")
    st.match_scores = [0, 990]
    play(st, "9S 8S KH belote:KS")
    finish_hand(st, 162, 8, keep="JS")
    assert gain(st) == [252, 20] and st.history[-1].outcome == "made"
    assert st.match_scores == [252, 1010] and not st.terminal


# ================================================================== Thousand
def last_trick(st: GameState, points: tuple[int, int, int], tricks: tuple[int, int, int]
               ) -> GameState:
    """Play the deal to its end through the engine's own hand end, the card points and
    tricks set so that it ends at ``points`` (120 in all) and ``tricks`` (8)."""
    return finish_sides(st, points, tricks)


def declared(options: dict[str, Any] | None = None, bid: int = 100,
             scores: list[int] | None = None, barrel: list[int] | None = None,
             bolts: list[int] | None = None) -> GameState:
    """Deal H1, A declares at ``bid``, gives away two cards and keeps the contract; the
    totals, barrel and bolt counters are set before the first trick."""
    st = start(TH, H1, dealer=C, stock=TALON1, options=options)
    play(st, f"bid:{bid} pass pass")
    play(st, "give:9S give:9D keep")
    if scores is not None:
        st.match_scores[:] = scores
    if barrel is not None:
        st.barrel[:] = barrel
    if bolts is not None:
        st.bolts[:] = bolts
    return st


def winner_of_last(options: dict[str, Any] | None = None) -> int:
    st = declared(options)
    play_tricks(st, 7)
    play_tricks(st, 1)
    return st.tricks[-1][2]


def test_thousand_no_bolt_for_a_player_on_the_barrel() -> None:
    # notes 10.2/10.3: a deal on the barrel does not count toward bolts
    w = winner_of_last()
    zero = next(s for s in (B, C) if s != w)
    tricks = fit_tricks(w, zero)
    points = fit_points(w, zero)
    barrel = [-1, -1, -1]
    barrel[zero] = 0
    scores = [0, 0, 0]
    scores[zero] = 880
    st = declared(scores=scores, barrel=barrel, bolts=[0, 2, 2])
    last_trick(st, points, tricks)
    assert st.bolts[zero] == 2 and st.match_scores[zero] == 880 and st.barrel[zero] == 1


def fit_tricks(w: int, zero: int) -> tuple[int, int, int]:
    """Eight tricks: none for ``zero``, at least one for the last trick's winner ``w``."""
    t = [0, 0, 0]
    other = 3 - w - zero
    t[w], t[other] = 5, 3
    return (t[0], t[1], t[2])


def fit_points(w: int, zero: int) -> tuple[int, int, int]:
    """120 card points: none for ``zero``; A (declarer) makes 100 if he has tricks."""
    p = [0, 0, 0]
    other = 3 - w - zero
    if w == A:
        p[A], p[other] = 100, 20
    elif other == A:
        p[A], p[w] = 100, 20
    else:
        p[w], p[other] = 100, 20
    return (p[0], p[1], p[2])


def test_thousand_third_bolt_through_the_engine() -> None:
    # notes 10.3: a defender's third trickless deal costs 120 and restarts his count
    w = winner_of_last()
    zero = next(s for s in (B, C) if s != w)
    st = declared(bolts=[2, 2, 2])
    last_trick(st, fit_points(w, zero), fit_tricks(w, zero))
    assert st.bolts[zero] == 0 and st.history[-1].score[zero] == -120


def test_thousand_consecutive_bolts_restart_after_a_deal_with_a_trick() -> None:
    # notes 10.3 (bolt_count consecutive): a deal without a bolt resets the count
    opts = {"bolt_count": "consecutive"}
    w = winner_of_last(opts)
    zero = next(s for s in (B, C) if s != w)
    st = declared(opts, bolts=[0, 2, 2])
    last_trick(st, (60, 30, 30), (4, 2, 2))
    assert st.bolts == [0, 0, 0]
    st = declared(opts, bolts=[0, 1, 1])
    last_trick(st, fit_points(w, zero), fit_tricks(w, zero))
    assert st.bolts[zero] == 2 and st.history[-1].score[zero] == 0


def test_thousand_zero_entry_bolt_counts_a_trick_worth_nothing() -> None:
    # notes 10.3 (bolt_condition zero_entry): a rounded entry of 0 is a bolt even with a
    # trick (2 card points round to 0)
    opts = {"bolt_condition": "zero_entry"}
    w = winner_of_last(opts)
    other = next(s for s in (B, C) if s != w)
    pts = [0, 0, 0]
    pts[other] = 2
    pts[w] = 118 if w != A else 100
    if w != A:
        pts[A] = 0
    else:
        pts[3 - A - other] = 18
    tr = [1, 1, 1]
    tr[w] = 6
    st = declared(opts, bolts=[0, 2, 2])
    last_trick(st, (pts[0], pts[1], pts[2]), (tr[0], tr[1], tr[2]))
    assert st.history[-1].score[other] == -120 and st.bolts[other] == 0


def test_thousand_failed_contract_on_the_barrel_attempt_only() -> None:
    # notes 10.2 (barrel_fail_contract attempt_only): the loss is not written, an attempt
    # is used and he stays on the barrel
    opts = {"barrel_fail_contract": "attempt_only"}
    st = declared(opts, bid=120, scores=[880, 0, 0], barrel=[0, -1, -1])
    last_trick(st, (60, 30, 30), (4, 2, 2))
    assert st.match_scores[A] == 880 and st.barrel[A] == 1
    st = declared(bid=120, scores=[880, 0, 0], barrel=[0, -1, -1])
    last_trick(st, (60, 30, 30), (4, 2, 2))
    assert st.match_scores[A] == 760 and st.barrel[A] == -1


def test_thousand_barrel_collisions() -> None:
    # notes 10.2: knock_off, the one already there falls to 760 while those mounting in
    # the same deal all stay; coexist, nobody falls; all_fall, everyone concerned falls
    for rule, want, on in (("knock_off", [880, 880, 760], [0, 0, -1]),
                           ("coexist", [880, 880, 880], [0, 0, 1]),
                           ("all_fall", [760, 760, 760], [-1, -1, -1])):
        st = declared({"barrel_collision": rule}, scores=[780, 860, 880], barrel=[-1, -1, 0])
        last_trick(st, (100, 20, 0), (6, 1, 1))
        assert st.match_scores == want and st.barrel == on, rule


def test_thousand_third_fall_resets_to_zero() -> None:
    # notes 10.2 (barrel_three_falls_reset): the third fall sets the total to 0
    st = declared({"barrel_three_falls_reset": True}, bid=120, scores=[880, 0, 0],
                  barrel=[0, -1, -1])
    st.falls[A] = 2
    last_trick(st, (60, 30, 30), (4, 2, 2))
    assert st.match_scores[A] == 760  # a failed contract is not a fall
    st = declared({"barrel_three_falls_reset": True}, scores=[0, 0, 880], barrel=[-1, -1, 2])
    st.falls[C] = 2
    last_trick(st, (100, 20, 0), (6, 1, 1))
    assert st.match_scores[C] == 0 and st.falls[C] == 3


def test_thousand_concession_on_the_barrel_uses_an_attempt() -> None:
    # notes 6: on the barrel a concession uses an attempt; a loss it causes takes him off;
    # no bolts are counted in a conceded deal
    st = start(TH, H1, dealer=C, stock=TALON1)
    st.match_scores[:] = [880, 0, 0]
    st.barrel[:] = [0, -1, -1]
    st.bolts[:] = [0, 2, 2]
    play(st, "bid:110 pass pass concede")
    assert st.match_scores == [880, 60, 60] and st.barrel[A] == 1 and st.bolts == [0, 2, 2]
    st = start(TH, H1, dealer=C, stock=TALON1)
    st.match_scores[:] = [880, 0, 0]
    st.barrel[:] = [0, -1, -1]
    st.concessions[A] = 2
    play(st, "bid:110 pass pass concede")
    assert st.match_scores == [770, 60, 60] and st.barrel[A] == -1


def test_thousand_more_than_a_thousand_to_win() -> None:
    # notes 10.5 (win_rule more_than): exactly 1000 does not win; 1005 does
    opts = {"win_rule": "more_than", "barrel": False}
    st = declared(opts, scores=[900, 0, 0])
    last_trick(st, (100, 20, 0), (6, 1, 1))
    assert not st.terminal and st.match_scores[A] == 1000
    st = declared(opts, bid=105, scores=[900, 0, 0])
    last_trick(st, (105, 15, 0), (6, 1, 1))
    assert st.terminal and st.result is not None and st.result.winner == A


def test_thousand_defender_rounding_through_the_engine() -> None:
    # notes 9: defenders round to the nearest 5 (53 -> 55, 12 -> 10); the declarer's
    # contract is compared exactly (55 < 100: -100)
    st = declared()
    last_trick(st, (55, 53, 12), (4, 3, 1))
    assert st.history[-1].score == (-100, 55, 10)
    st = declared({"round_to": 10})
    last_trick(st, (55, 45, 20), (4, 3, 1))
    assert st.history[-1].score == (-100, 50, 20)


def test_thousand_first_lead_marriage_counts_without_a_trick() -> None:
    # notes 8.2 (marriage_first_lead): a marriage declared on the first lead scores even
    # if its owner then takes nothing: 0 card points + 100 makes a contract of 100
    hands = ["KH QH 9D JD 9C JC 9S", "AH TH AD TD AC TC AS", "JH 9H KD QD KC QC TS"]
    st = start(TH, hands, dealer=C, stock="JS KS QS", options={"marriage_first_lead": True})
    st.bolts[A] = 2  # notes 10.3: a trickless declarer gets no bolt (declarer_bolts false)
    play(st, "bid:100 pass pass give:JS give:KS keep marriage:H KH")
    play_tricks(st, 8)
    assert all(w != A for _, _, w in st.tricks) and st.captured[A] == 0
    assert st.history[-1].score == (100, 115, 5) and st.bolts[A] == 2


def test_thousand_sitter_on_the_barrel_scores_nothing_and_uses_no_attempt() -> None:
    # notes 13: a sitter on the barrel scores nothing from the prikup and uses no attempt
    opts = {"sitter_score": "aces_and_marriages"}
    st = start("thousand-4", ["KS QS AD TD AC 9C JD"], dealer=3, stock="AH KD QD",
               options=opts)
    st.match_scores[:] = [0, 0, 0, 880]
    st.barrel[:] = [-1, -1, -1, 0]
    play(st, "bid:100 pass pass concede")
    assert st.history[-1].score[3] == 0
    assert st.match_scores[3] == 880 and st.barrel[3] == 0


# ================================================================== option defaults
# notes (Belote) 11 and (Thousand) 16: the defaults of the options tables, per preset
BELOTE_DEFAULTS = {
    "belote": {"direction": "anticlockwise", "first_dealer": "random",
               "shuffle": "every_deal", "deal_packets": "3-2",
               "second_round_suits": "other_suits", "second_round_sa_ta": False,
               "second_deal_start": "eldest", "all_pass": "next_dealer",
               "must_overtrump_partner": True, "trump_when_partner_master": "free",
               "partner_trump_undertrump": "no_undertrump", "undertrump": "required",
               "announcements": True, "long_sequence": "single_hundred",
               "card_in_two_combinations": False, "announce_tie": "none_score",
               "belote_order": "any", "belote_declare": "explicit",
               "belote_counts_for_contract": True, "belote_on_failure": "holder_keeps",
               "belote_alone_cannot_win": True, "dedans_rule": "litige",
               "dedans_points": 162, "capot_value": 252, "rounding": "none",
               "target": 1000, "deal_limit": 0},
    BC: {"coinche_deal_packets": "3-2-3", "all_pass": "next_dealer",
         "must_overtrump_partner": True, "trump_when_partner_master": "free",
         "partner_trump_undertrump": "no_undertrump", "undertrump": "optional",
         "announcements": True, "announce_tie": "none_score",
         "belote_on_failure": "holder_keeps", "dedans_rule": "litige",
         "rounding": "nearest10_5up", "rounding_decides_game": True, "target": 2000,
         "bid_min": 80, "bid_step": 10, "bid_max": 160, "bid_80_needs_82": True,
         "must_beat_defence": True, "coinche_timing": "in_turn", "coinche_freezes": True,
         "capot_coinchable": True, "multiplier_base": "whole_score",
         "surcoinche_multiplier": 4, "failed_base": 160,
         "coinche_score_mode": "made_plus_bid", "capot_scoring": "ffb", "generale": 0,
         "belote_multiplied": True, "sa_ta": False, "ta_values": "ffb2015",
         "ta_must_beat_partner": True},
    BT: {"partner_trump_undertrump": "allowed", "undertrump": "optional",
         "belote_on_failure": "goes_to_winner", "rounding": "nearest10_5up",
         "target": 2000, "bid_80_needs_82": False, "must_beat_defence": False,
         "belote_multiplied": False, "multiplier_base": "whole_score",
         "surcoinche_multiplier": 4, "failed_base": 160},
}
THOUSAND_DEFAULTS = {
    "thousand": {"players": 3, "target": 1000, "win_rule": "at_least",
                 "redeal_dealer": "same", "four_nines_redeal": "after_exchange",
                 "opening_bid": "fh_forced", "bid_min": 100, "bid_step": 5,
                 "jump_bids": True, "bid_cap": "marriage_required", "bid_max": 400,
                 "musik_shown": "always", "raise_allowed": True, "concede": "rospisat",
                 "concede_window": "before_exchange", "concede_award": 60,
                 "write_off_award": "sixty", "must_trump": True, "must_beat": False,
                 "no_lead_foreign_trump": False, "marriage_first_lead": False,
                 "marriage_auto_declare": False, "trump_change": "immediate",
                 "trump_rule": "latest", "round_to": 5, "round_mode": "nearest",
                 "declarer_round_before_check": False, "barrel_at": 880,
                 "barrel_clamp": True, "barrel_attempts": 3, "barrel_penalty": 120,
                 "barrel_collision": "knock_off",
                 "barrel_fail_contract": "subtract_and_off",
                 "barrel_three_falls_reset": False, "bolt_condition": "no_tricks",
                 "bolt_count": "total", "bolt_limit": 3, "bolt_penalty": 120,
                 "declarer_bolts": False, "dump_at_555": "off", "dump_value": 555,
                 "golden_round": "off", "dark_bid": False, "dark_min_total": 240,
                 "sitter": "dealer", "sitter_score": "none", "sitter_ace_value": 50,
                 "two_player_leftover": "last_trick"},
    "thousand-pl": {"four_nines_redeal": "before_bidding", "opening_bid": "fh_auto_100",
                    "bid_step": 10, "bid_cap": "marriage_sum", "concede": "bomb",
                    "must_beat": True, "round_to": 10, "barrel_at": 800,
                    "barrel_clamp": False, "barrel_penalty": 0,
                    "barrel_collision": "coexist", "bolt_condition": "off",
                    "sitter_score": "aces_and_marriages"},
}


def test_option_defaults_match_the_notes_tables() -> None:
    wrong = []
    for table in (BELOTE_DEFAULTS, THOUSAND_DEFAULTS):
        for ruleset, want in table.items():
            got = dict(load_rules(ruleset).options)
            wrong += [(ruleset, k, got.get(k), v) for k, v in want.items() if got.get(k) != v]
    assert not wrong


# ================================================================== trick duties
def test_belote_partner_master_with_a_trump_and_only_trumps_in_hand() -> None:
    # notes 3.2 rule 5 (no_undertrump): holding only trumps, one above partner's and one
    # below, he must play the higher; rule 6: a void player who can beat an opponent's
    # trump must, whatever the undertrump option; with only lower trumps, one of them
    st = p4()
    st.hands[E] = sum(1 << st.rules.card(c) for c in ("JS", "7S"))
    assert plays(st) == {"JS"}
    for value in ("required", "optional", "forbidden_unless_only_trumps"):
        st = deal8(P2, S, "JS", options={"undertrump": value})
        play(st, "KH 7H TS")
        st.hands[E] = sum(1 << st.rules.card(c) for c in ("AS", "7S", "AD", "KD"))
        assert plays(st) == {"AS"}, value
        st.hands[E] = sum(1 << st.rules.card(c) for c in ("8S", "7S"))
        assert plays(st) == {"8S", "7S"}, value


def thousand_duty(hand: str, trick: str, trump: str | None, beat: bool) -> set[str]:
    """The cards A may play holding ``hand`` after ``trick`` (the seats before him in
    turn), ``trump`` in force, with or without the duty to head the trick."""
    st = declared({"must_beat": beat})
    r = st.rules
    st.trump = -1 if trump is None else r.suits.index(trump)
    st.hands[A] = sum(1 << r.card(c) for c in hand.split())
    st.trick_cards = [r.card(c) for c in trick.split()]
    n = len(st.trick_cards)
    st.trick_seats = [(A - n + i) % 3 for i in range(n)]
    return set(r.format_cards(st.legal_plays(A)).split())


def test_thousand_the_duty_examples_with_and_without_heading_the_trick() -> None:
    # notes 7.2, its worked examples (clubs trump, a ten of hearts led)
    cases = [("9H AH JC KS", "TH", {"9H", "AH"}, {"AH"}),
             ("JC AC KS", "TH", {"JC", "AC"}, {"JC", "AC"}),
             ("9H AH", "TH QC", {"9H", "AH"}, {"9H", "AH"}),
             ("9C KC AS", "TH QC", {"9C", "KC"}, {"KC"}),
             ("9C JC AS", "TH QC", {"9C", "JC"}, {"9C", "JC"})]
    for hand, trick, free, beat in cases:
        assert thousand_duty(hand, trick, "C", False) == free, hand
        assert thousand_duty(hand, trick, "C", True) == beat, hand
    assert thousand_duty("KS 9D", "TH", None, False) == {"KS", "9D"}
    assert thousand_duty("KS 9D", "TH", None, True) == {"KS", "9D"}


# ================================================================== concessions
def test_thousand_rospisat_costs_the_bid_every_third_time_and_write_off_at_once() -> None:
    # notes 6: under rospisat the 3rd, 6th, 9th concession of a player costs his bid (the
    # others cost nothing), the defenders +60 each every time; write_off costs it always
    got = {}
    for before in (3, 4, 5, 8):
        st = start(TH, H1, dealer=C, stock=TALON1)
        st.concessions[A] = before
        play(st, "bid:110 pass pass concede")
        got[before + 1] = st.history[-1].score
    assert got == {4: (0, 60, 60), 5: (0, 60, 60), 6: (-110, 60, 60), 9: (-110, 60, 60)}
    st = start(TH, H1, dealer=C, stock=TALON1, options={"concede": "write_off"})
    play(st, "bid:110 pass pass concede")
    assert st.history[-1].score == (-110, 60, 60)
    st = start(TH, H1, dealer=C, stock=TALON1, options={"concede_limit": 3})
    st.concessions[A] = 3
    play(st, "bid:110 pass pass")
    assert "concede" not in legal_texts(st)


def test_thousand_barrel_at_900_without_a_limit_of_attempts() -> None:
    # notes 10.2 (the Lviv variation: barrel_at 900, no limit of attempts): a player on
    # the barrel stays there however many deals pass; a defender's entry is ignored
    opts = {"barrel_at": 900, "barrel_attempts": 0}
    st = declared(opts, scores=[0, 0, 900], barrel=[-1, -1, 7])
    last_trick(st, (100, 0, 20), (6, 1, 1))
    assert st.match_scores[C] == 900 and st.barrel[C] == 8
    st = declared(opts, scores=[0, 0, 850], barrel=[-1, -1, -1])
    last_trick(st, (100, 0, 20), (6, 1, 1))
    assert st.match_scores[C] == 870 and st.barrel[C] == -1  # below 900: not on it
