"""Per-rule tests of Cinquecento: 40 then 20, the first marianna fixes trump, 500 to win.

Seats N W S E = 0 1 2 3 in playing order; dealer 3, so N leads trick 1.
"""

from __future__ import annotations

import pytest
from mariage import parse_action
from mariage.rulebook.render import render_text
from rulekit import (
    cards,
    check_match_target,
    covers,
    legal_texts,
    play,
    play_tricks,
    refused,
    rules_of,
    start,
    suit,
)

NS, WE = 0, 1
RULES = "cinquecento"
FOUR_PAIRS = ["KH QH 7H JH 6H", "KD QD 2D 5D 6D", "KC QC 4H 5C 6C", "KS QS 2S 7C 2C"]


@covers("cinquecento.decl.value", "cinquecento.decl.trump", ruleset=RULES)
def test_first_marianna_40_and_trump_later_ones_20_and_no_change() -> None:
    state = start(RULES, FOUR_PAIRS, dealer=3)
    play(state, "marianna:H 7H marianna:D 2D marianna:C 4H marianna:S 2S")
    assert [v for (_, _, _, v) in state.declared] == [40, 20, 20, 20]
    assert state.trump == suit(state, "H")
    assert state.tricks[-1][2] == 0  # 7H over 4H in trumps; 2S is no trump
    assert state.decl_points == [60, 40]


@covers("cinquecento.decl.trump", "marianna.trick.winner", ruleset=RULES)
def test_first_marianna_by_the_fourth_player_trumps_cards_already_played() -> None:
    state = start(RULES, ["AH 2D 4S 5S 6S", "2S 3D 4D 5D 6D", "4H 2C 4C 5C 6C",
                          "KS QS 7D 7C JS"], dealer=3)
    play(state, "AH 2S 4H marianna:S 7D")
    assert state.trump == suit(state, "S") and state.tricks[-1][2] == 1


@covers("cinquecento.match.end", "marianna.match.tie", ruleset=RULES)
def test_match_to_500() -> None:
    assert rules_of(RULES).match_target == 500
    check_match_target(lambda: start(RULES, FOUR_PAIRS, dealer=3), 500)


@covers("cinquecento.match.end", ruleset=RULES, options={"target": 300})
def test_target_option() -> None:
    rules = rules_of(RULES, target=300)
    check_match_target(lambda: start(rules, FOUR_PAIRS, dealer=3), 300)


def test_no_mariannino_or_mariannone_by_default() -> None:
    state = start(RULES, ["QH QD QC QS KH", "2D 4D 5D 6D 7D"], dealer=3)
    assert not any(t.startswith("marianni") for t in legal_texts(state))
    with pytest.raises(ValueError):
        parse_action(state.rules, "mariannino:H")
    rules = rules_of(RULES)
    assert not rules.info("marianna.decl.mariannino").enabled
    assert not rules.info("marianna.decl.mariannone").enabled


@pytest.mark.parametrize("ruleset", [RULES, "cinquecento-siciliana"])
def test_the_combinations_being_left_out_is_shown_as_decided(ruleset: str) -> None:
    """RULES-NOTES.md, Cinquecento: whether the mariannino and the mariannone belong to the
    game is not settled; they are options, off by default (decided). The rulebook says so."""
    rules = rules_of(ruleset)
    text = render_text(rules)
    for rid, option in (("marianna.decl.mariannino", "mariannino"),
                        ("marianna.decl.mariannone", "mariannone")):
        assert rules.info(rid).decided, rid
        head = next(line for line in text.splitlines() if line.startswith(f"[{rid}]"))
        assert "decided by this project" in head and f"option {option}, default false" in head


@covers("marianna.decl.mariannino", "marianna.decl.mariannino.value",
        "marianna.decl.mariannino.trump", ruleset=RULES, options={"mariannino": True})
def test_mariannino_option() -> None:
    state = start(RULES, ["QH QD QC QS KH", "KD 2D 5D 6D 7D", "2C 4C 5C 6C 7C",
                          "2S 4S 5S 6S 7S"], dealer=3, options={"mariannino": True})
    assert "mariannino:H" in legal_texts(state)
    play(state, "mariannino:H")
    assert state.trump == suit(state, "H") and state.hand_points(NS) == 250
    assert state.decl_count == 0  # not in the order: the first marianna still scores 40


@covers("marianna.decl.mariannino.trump", "cinquecento.decl.trump", ruleset=RULES,
        options={"mariannino": True})
def test_mariannino_does_not_override_a_fixed_trump() -> None:
    # S declares the diamond marianna (trump fixed to diamonds) and wins trick 1 with KD;
    # drawing KH he holds four queens and a king: the mariannino scores, trump stays.
    state = start(RULES, ["2C 4C 5C 6C 7C", "2S 4S 5S 6S 7S", "KD QD QH QC QS",
                          "2H 4H 5H 6H 7H"], dealer=3, stock="KH",
                  options={"mariannino": True})
    play(state, "2C 2S marianna:D KD 2H")
    assert state.trump == suit(state, "D") and state.to_act == 2
    play(state, "mariannino:H")
    assert state.trump == suit(state, "D")
    assert state.hand_points(NS) == 40 + 250 + 4  # and KD won in trick 1


@covers("marianna.decl.mariannone", "marianna.decl.mariannone.value", ruleset=RULES,
        options={"mariannone": True})
def test_mariannone_option_wins_the_match() -> None:
    state = start(RULES, ["2S 5S 6S 7S JS", "KH KD KC KS QH"], dealer=3,
                  options={"mariannone": True})
    play(state, "2S mariannone:H")
    assert state.terminal and state.result is not None and state.result.winner == WE
    assert state.trump == -1


@covers("marianna.decl.who", "cinquecento.decl.trump", ruleset=RULES,
        options={"declare_when": "trick_start"})
def test_trick_start_window_first_marianna_fixes_trump() -> None:
    state = start(RULES, FOUR_PAIRS, dealer=3, options={"declare_when": "trick_start"})
    play(state, "marianna:H marianna:D pass marianna:S")
    assert state.trump == suit(state, "H") and state.phase.name == "PLAY"
    assert [v for (_, _, _, v) in state.declared] == [40, 20, 20]


@covers("marianna.decl.leader-only", ruleset=RULES, options={"declare_who": "leader"})
def test_leader_only_option() -> None:
    state = start(RULES, FOUR_PAIRS, dealer=3, options={"declare_who": "leader"})
    play(state, "7H")
    refused(state, "marianna:D", "marianna.decl.leader-only")


@covers("marianna.decl.window", ruleset=RULES, options={"trick_six": True})
def test_trick_six_option() -> None:
    for trick_six in (False, True):
        state = start(RULES, ["KH QH 2S 5S 6S"], dealer=3, options={"trick_six": trick_six})
        play_tricks(state, 5, keep="KH QH")
        while state.to_act != 0:
            play(state, next(t for t in legal_texts(state) if t in state.rules.card_index))
        assert state.trick_no == 6 and "KH QH" in cards(state, 0)
        if trick_six:
            play(state, "marianna:H")
            assert state.declared[-1][3] == 40
        else:
            refused(state, "marianna:H", "marianna.decl.window")


@covers("marianna.match.tie", ruleset=RULES, options={"tie": "draw"})
def test_tie_draw_option() -> None:
    rules = rules_of(RULES, tie="draw")
    check_match_target(lambda: start(rules, FOUR_PAIRS, dealer=3), 500, tie="draw")


@covers("marianna.decl.mariannino.once", ruleset=RULES, options={"mariannino": True})
def test_second_mariannino_with_another_king_allowed() -> None:
    opts = {"mariannino": True}
    state = start(RULES, ["QH QD QC QS KH", "2D 4D 5D 6D 7D", "2C 4C 5C 6C 7C",
                          "2S 4S 5S 6S 7S"], dealer=3, stock="KD", options=opts)
    play(state, "mariannino:H KH 2D 2C 2S")
    assert cards(state, 0) == "QH KD QD QC QS"
    play(state, "mariannino:D")  # 250 again; the first trump stays
    assert state.declared[-1][3] == 250 and state.trump == suit(state, "H")
