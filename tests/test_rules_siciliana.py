"""Per-rule tests of the Sicilian split marriage ("Mi copri a ...?").

Seats N W S E = 0 1 2 3 in playing order; dealer 3, so N leads trick 1.
N holds the king of hearts, his partner S the queen.
"""

from __future__ import annotations

from mariage import Phase
from rulekit import (
    cards,
    check_match_target,
    covers,
    legal_texts,
    play,
    play_out,
    play_tricks,
    refused,
    start,
    suit,
)

NS, WE = 0, 1
RULES = "marianna-siciliana"


def _split(west: str = "KD QD 2C 5D 6D", east: str = "2H 4H 7C 7S JS"):  # type: ignore[no-untyped-def]
    return start(RULES, ["KH AS 3S 5S 6S", west, "QH 2D 4C 5C 6C", east], dealer=3)


@covers("siciliana.ask.cover", "siciliana.ask.answer", "siciliana.ask.cover-play",
        ruleset=RULES)
def test_split_marriage_won_scores_20_sets_trump_and_counts_first() -> None:
    state = _split()
    assert "ask:cover:H" in legal_texts(state)
    play(state, "ask:cover:H")
    assert state.phase == Phase.ANSWER and state.to_act == 2
    assert legal_texts(state) == ["yes", "no"]
    play(state, "yes")
    assert state.to_act == 0 and legal_texts(state) == ["KH"]
    refused(state, "AS", "siciliana.ask.cover-play")  # the asker must lead his card
    play(state, "KH 2C")
    assert "QH" in legal_texts(state) and len(legal_texts(state)) == 1
    refused(state, "2D", "siciliana.ask.cover-play")  # the partner must cover
    assert state.trump == -1  # nothing happens before the trick is won
    play(state, "QH 2H")
    assert state.tricks[-1][2] == 0
    assert state.trump == suit(state, "H") and state.hand_points(NS) == 20 + 4 + 3
    # it counts as the first marianna: the next one is worth 60
    play(state, "AS marianna:D")
    assert state.declared[-1][3] == 60 and state.trump == suit(state, "D")


@covers("siciliana.ask.cover-play", ruleset=RULES)
def test_split_lost_scores_nothing_and_leaves_no_trump() -> None:
    state = _split(east="AH 4H 7C 7S JS")
    play(state, "ask:cover:H yes KH 2C QH AH")
    assert state.tricks[-1][2] == 3
    assert state.trump == -1 and state.decl_points == [0, 0]
    # not counted in the order: W's marianna is the first, worth 40
    play(state, "4H 6S marianna:D")
    assert state.declared[-1][3] == 40


@covers("siciliana.ask.cover-play", ruleset=RULES)
def test_split_fails_when_a_marianna_is_declared_in_the_same_trick() -> None:
    state = _split()
    play(state, "ask:cover:H yes KH marianna:D 2C QH 2H")
    assert state.tricks[-1][2] == 0  # N-S win the trick with the king of hearts...
    assert state.decl_points[NS] == 0  # ...but the split fails
    assert state.trump == suit(state, "D") and state.declared[-1][3] == 40


@covers("siciliana.ask.answer", ruleset=RULES)
def test_no_is_always_legal_and_yes_needs_the_other_card() -> None:
    state = _split()
    play(state, "ask:cover:H no")  # no, although S holds the queen
    assert state.to_act == 0 and state.phase == Phase.PLAY and state.forced == [-1] * 4
    # the ask was N's declaration for this trick
    state = start(RULES, ["KH QS KS 5S 6S", "KD QD 2C 5D 6D", "JH 2D 4C 5C 6C"], dealer=3)
    play(state, "ask:cover:H")
    assert legal_texts(state) == ["no"]
    refused(state, "yes", "siciliana.ask.answer")
    refused(state, "no", "core.turn", seat=1)
    refused(state, "KH", "core.turn", seat=0)  # the asker waits for the answer
    play(state, "no")
    refused(state, "marianna:S", "marianna.decl.per-trick")
    play(state, "KH")


@covers("siciliana.ask.cover", ruleset=RULES)
def test_ask_only_by_the_leader_holding_exactly_one_card_while_no_trump() -> None:
    # both cards of the pair: no ask (a marianna instead); neither card: no ask
    state = start(RULES, ["KH QH 3S 5S 6S", "KD 2D 2C 5D 6D", "JH QD 4C 5C 6C"], dealer=3)
    texts = legal_texts(state)
    assert "ask:cover:H" not in texts and "marianna:H" in texts
    refused(state, "ask:cover:H", "siciliana.ask.cover")
    refused(state, "ask:cover:C", "siciliana.ask.cover")
    # the follower may not ask
    play(state, "3S")
    refused(state, "ask:cover:D", "siciliana.ask.cover")


@covers("siciliana.ask.cover", ruleset=RULES)
def test_no_ask_once_trump_is_set() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3)
    play(state, "AS marianna:D 2C 4C 7S")  # trump diamonds; N wins with AS
    assert state.to_act == 0 and state.trump == suit(state, "D")
    refused(state, "ask:cover:H", "siciliana.ask.cover")


@covers("siciliana.ask.cover", ruleset=RULES)
def test_no_ask_after_the_stock_is_exhausted() -> None:
    # N leads his highest spade every trick and wins all five; nobody declares
    stock = ("QS 2S 3D 3C  7S AH KD KC  6S 3H QD QC  5S JH JD JC  4S AD AC 7C")
    state = start(RULES, ["KH AS 3S KS JS", "2D 4D 5D 6D 7D", "QH 2C 4C 5C 6C",
                          "2H 4H 5H 6H 7H"], dealer=3, stock=stock)
    play_tricks(state, 4, keep="KH QH")
    assert state.to_act == 0 and state.trick_no == 5 and state.stock
    assert "ask:cover:H" in legal_texts(state)
    play_tricks(state, 1, keep="KH QH")
    assert state.to_act == 0 and state.trick_no == 6 and not state.stock
    assert state.trump == -1 and "KH" in cards(state, 0) and "QH" in cards(state, 2)
    assert "ask:cover:H" not in legal_texts(state)
    refused(state, "ask:cover:H", "siciliana.ask.cover")


@covers("siciliana.ask.cover-play", "marianna.decl.value", ruleset=RULES,
        options={"marianna_values": "20-40-60-80"})
def test_split_counts_first_with_the_20_40_60_80_schedule() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"marianna_values": "20-40-60-80"})
    play(state, "ask:cover:H yes KH 2C QH 2H AS marianna:D")
    assert [v for (_, _, _, v) in state.declared] == [20, 40]


@covers("siciliana.ask.cover-play", "marianna.decl.trump", ruleset=RULES,
        options={"first_fixes_trump": True})
def test_split_trump_stays_with_first_fixes_trump() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"first_fixes_trump": True})
    play(state, "ask:cover:H yes KH 2C QH 2H AS marianna:D")
    assert state.trump == suit(state, "H") and state.declared[-1][3] == 60


@covers("siciliana.ask.cover", "marianna.decl.who", ruleset=RULES,
        options={"declare_when": "trick_start"})
def test_ask_after_the_declaration_window() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"declare_when": "trick_start"})
    assert state.phase == Phase.WINDOW
    play(state, "pass pass pass pass")
    assert state.phase == Phase.PLAY and "ask:cover:H" in legal_texts(state)
    play(state, "ask:cover:H yes KH 2C QH 2H")
    assert state.trump == suit(state, "H") and state.decl_points == [20, 0]


@covers("siciliana.ask.cover", "marianna.decl.leader-only", ruleset=RULES,
        options={"declare_who": "leader"})
def test_ask_with_leader_only_declarations() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"declare_who": "leader"})
    play(state, "ask:cover:H yes KH")
    refused(state, "marianna:D", "marianna.decl.leader-only")
    play(state, "2C QH 2H")
    assert state.trump == suit(state, "H")


@covers("siciliana.ask.cover", "marianna.decl.window", ruleset=RULES,
        options={"trick_six": True})
def test_trick_six_allows_a_marianna_but_not_a_split() -> None:
    stock = "QS 2S 3D 3C  7S AH KD KC  6S 3H QD QC  5S JH JD JC  4S AD AC 7C"
    state = start(RULES, ["KH AS 3S KS JS", "2D 4D 5D 6D 7D", "QH 2C 4C 5C 6C",
                          "2H 4H 5H 6H 7H"], dealer=3, stock=stock, options={"trick_six": True})
    play_tricks(state, 5, keep="KH QH KS QS")
    assert state.to_act == 0 and state.trick_no == 6 and state.trump == -1
    assert "KS QS" in cards(state, 0) and "QH" in cards(state, 2)
    texts = legal_texts(state)
    assert "marianna:S" in texts and "ask:cover:H" not in texts
    refused(state, "ask:cover:H", "siciliana.ask.cover")


@covers("marianna.match.end", ruleset=RULES, options={"target": 100})
def test_target_option() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"target": 100})
    state.match_scores = [99, 0]
    play(state, "ask:cover:H yes KH 2C QH 2H")
    play_out(state)
    assert state.terminal and state.result is not None and state.result.winner == NS


@covers("marianna.match.tie", ruleset=RULES, options={"tie": "draw"})
def test_tie_draw_option() -> None:
    check_match_target(lambda: _split_with({"tie": "draw"}), 501, tie="draw")


def _split_with(options: dict[str, object]):  # type: ignore[no-untyped-def]
    return start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                         "2H 4H 7C 7S JS"], dealer=3, options=options)


@covers("siciliana.ask.cover-play", "marianna.decl.per-trick", ruleset=RULES)
def test_the_partner_who_covers_may_still_declare_his_own_marianna() -> None:
    # S answered yes but has declared nothing: he may declare his marianna of diamonds
    state = start(RULES, ["KH AS 3S 5S 6S", "2C 5C 6C 7C 4S", "QH KD QD 4C 5D",
                          "2H 4H 7S JS 5H"], dealer=3)
    play(state, "ask:cover:H yes KH 2C")
    assert "marianna:D" in legal_texts(state)
    play(state, "marianna:D")
    assert state.trump == suit(state, "D") and state.hand_points(NS) == 40
    # one declaration per player per trick, and he must still cover
    assert legal_texts(state) == ["QH"]
    refused(state, "marianna:D", "marianna.decl.per-trick")
    play(state, "QH 2H")
    assert state.tricks[-1][2] == 0
    # his own side's marianna does not spoil the split: 20 more, hearts trump
    assert [v for (_, _, _, v) in state.declared] == [40, 20]
    assert state.trump == suit(state, "H") and state.decl_points == [60, 0]


@covers("siciliana.ask.cover", "siciliana.ask.declaration", "marianna.decl.per-trick",
        ruleset=RULES)
def test_the_asker_may_not_declare_in_the_trick_of_his_ask() -> None:
    state = start(RULES, ["KH KS QS 5S 6S", "2C 5C 6C 7C 4S", "QH 2D 4D 4C 5D",
                          "2H 4H 7S JS 5H"], dealer=3)
    play(state, "ask:cover:H yes")
    assert legal_texts(state) == ["KH"]
    refused(state, "marianna:S", "marianna.decl.per-trick")


@covers("marianna.decl.mariannino.once", ruleset=RULES, options={"combination_once": True})
def test_combination_once_option() -> None:
    state = start(RULES, ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                          "2S 4S 5S 6S 7S"], dealer=3, stock="KD",
                  options={"combination_once": True})
    play(state, "mariannino:H KH 2D 2C 2S")
    refused(state, "mariannino:D", "marianna.decl.mariannino.once")


@covers("siciliana.split.order", ruleset=RULES)
def test_split_takes_the_first_place_in_the_order_by_default() -> None:
    state = _split()
    play(state, "ask:cover:H yes KH 2C QH 2H AS marianna:D")
    assert [v for (_, _, _, v) in state.declared] == [20, 60]


@covers("siciliana.split.order", ruleset=RULES, options={"split_order": "outside"})
def test_split_order_outside_the_next_marianna_scores_the_first_value() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"split_order": "outside"})
    play(state, "ask:cover:H yes KH 2C QH 2H")
    assert state.trump == suit(state, "H") and state.decl_points == [20, 0]
    play(state, "AS marianna:D")
    assert [v for (_, _, _, v) in state.declared] == [20, 40]


def _partner_declares(options: dict[str, object]):  # type: ignore[no-untyped-def]
    state = start(RULES, ["KH AS 3S 5S 6S", "2C 5C 6C 7C 4S", "QH KD QD 4C 5D",
                          "2H 4H 7S JS 5H"], dealer=3, options=options)
    play(state, "ask:cover:H yes KH 2C marianna:D QH 2H")
    assert state.tricks[-1][2] == 0
    return state


@covers("siciliana.split.spoiled", ruleset=RULES)
def test_only_an_opponents_marianna_spoils_the_split_by_default() -> None:
    state = _partner_declares({})
    assert state.decl_points == [60, 0] and state.trump == suit(state, "H")


@covers("siciliana.split.spoiled", ruleset=RULES, options={"split_spoiled_by": "any"})
def test_split_spoiled_by_any_marianna_in_the_trick() -> None:
    state = _partner_declares({"split_spoiled_by": "any"})
    assert state.decl_points == [40, 0] and state.trump == suit(state, "D")
    assert [v for (_, _, _, v) in state.declared] == [40]


@covers("siciliana.split.spoiled", "siciliana.ask.cover-play", ruleset=RULES,
        options={"split_spoiled_by": "never"})
def test_split_spoiled_by_never_scores_after_an_opponents_marianna() -> None:
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3, options={"split_spoiled_by": "never"})
    play(state, "ask:cover:H yes KH marianna:D 2C QH 2H")
    assert state.tricks[-1][2] == 0
    # the split scores 20 (second in the order) and, as a later marianna, sets trump
    assert state.decl_points == [20, 40] and state.trump == suit(state, "H")
    state = start(RULES, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                          "2H 4H 7C 7S JS"], dealer=3,
                  options={"split_spoiled_by": "never", "first_fixes_trump": True})
    play(state, "ask:cover:H yes KH marianna:D 2C QH 2H")
    assert state.decl_points == [20, 40] and state.trump == suit(state, "D")


def _stock_exhausted(options: dict[str, object] | None = None):  # type: ignore[no-untyped-def]
    stock = ("QS 2S 3D 3C  7S AH KD KC  6S 3H QD QC  5S JH JD JC  4S AD AC 7C")
    state = start(RULES, ["KH AS 3S KS JS", "2D 4D 5D 6D 7D", "QH 2C 4C 5C 6C",
                          "2H 4H 5H 6H 7H"], dealer=3, stock=stock, options=options)
    play_tricks(state, 5, keep="KH QH")
    assert state.to_act == 0 and state.trick_no == 6 and not state.stock
    return state


@covers("siciliana.ask.cutoff", ruleset=RULES)
def test_no_split_after_the_stock_by_default() -> None:
    state = _stock_exhausted()
    refused(state, "ask:cover:H", "siciliana.ask.cover")


@covers("siciliana.ask.cutoff", "siciliana.ask.cover-play", ruleset=RULES,
        options={"split_window": "no_trump"})
def test_split_window_no_trump_allows_a_split_after_the_stock() -> None:
    state = _stock_exhausted({"split_window": "no_trump"})
    assert state.trump == -1 and "ask:cover:H" in legal_texts(state)
    play(state, "ask:cover:H yes KH")
    assert state.forced[2] >= 0


@covers("marianna.decl.combination-window", ruleset=RULES,
        options={"combination_window": "any_trick"})
def test_combination_window_option() -> None:
    stock = "3S 2H 2D 2C KS 4H 4D 4C JS 5H 5D 5C 7S 6H 6D 6C KH 7H 7D 7C"
    for opts, allowed in (({}, False), ({"combination_window": "any_trick"}, True)):
        state = start(RULES, ["QH QD QC QS AS"], dealer=3, options=opts, stock=stock)
        play_tricks(state, 5, keep="QH QD QC QS KH")
        assert cards(state, 0) == "KH QH QD QC QS" and state.trick_no == 6
        assert ("mariannino:H" in legal_texts(state)) == allowed


@covers("marianna.decl.mariannino.value", ruleset=RULES,
        options={"mariannino_value": "next_plus_200"})
def test_mariannino_value_option() -> None:
    state = start(RULES, ["QH QD QC QS KH"], dealer=3,
                  options={"mariannino_value": "next_plus_200"})
    play(state, "mariannino:H")
    assert state.declared[-1][3] == 240 and state.decl_points == [240, 0]


MAY_DECLARE = {"split_ask": "may_declare"}


@covers("siciliana.ask.declaration", "siciliana.ask.cover-play", ruleset=RULES,
        options=MAY_DECLARE)
def test_split_ask_may_declare_option() -> None:
    """Asking leaves the declaration open (decided reading: by default it does not)."""
    state = start(RULES, ["KH KS QS 5S 6S", "2C 5C 6C 7C 4S", "QH 2D 4D 4C 5D",
                          "2H 4H 7S JS 5H"], dealer=3, options=MAY_DECLARE)
    play(state, "ask:cover:H yes")
    assert set(legal_texts(state)) == {"KH", "marianna:S"}
    refused(state, "ask:cover:H", "marianna.decl.per-trick")  # one ask per trick
    play(state, "marianna:S")
    assert state.trump == suit(state, "S") and state.decl_points == [40, 0]
    assert legal_texts(state) == ["KH"]  # he must still lead his card of the pair
    play(state, "KH 2C QH 2H")
    assert state.tricks[-1][2] == 0
    # his own marianna does not spoil the split: 20 more, and hearts become trump
    assert [v for (_, _, _, v) in state.declared] == [40, 20]
    assert state.trump == suit(state, "H") and state.decl_points[NS] == 60


@covers("siciliana.ask.declaration", ruleset=RULES, options=MAY_DECLARE)
def test_split_ask_may_declare_after_a_no() -> None:
    state = start(RULES, ["KH KS QS 5S 6S", "2C 5C 6C 7C 4S", "JH 2D 4D 4C 5D",
                          "2H 4H 7S JS 5H"], dealer=3, options=MAY_DECLARE)
    play(state, "ask:cover:H no")
    texts = legal_texts(state)
    assert "marianna:S" in texts and not any(t.startswith("ask") for t in texts)
    play(state, "marianna:S 5S")
    assert state.trump == suit(state, "S") and state.decl_points == [40, 0]
