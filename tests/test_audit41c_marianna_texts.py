"""Audit 41c: rulebook texts of the Marianna family checked against RULES-NOTES.md.

Each test plays the rule in the reference and checks that ``mariage rules``
says what the reference does.
"""

from __future__ import annotations

import pytest
from mariage.rulebook.render import render_text
from rulekit import play, rules_of, start, suit

FOUR_PAIRS = ["KH QH 7H JH 6H", "KD QD 2D 5D 6D", "KC QC 4H 5C 6C", "KS QS 2S 7C 2C"]


def _rule_text(ruleset: str, rule_id: str, **options: object) -> str:
    """The text printed under ``rule_id`` (joined into one line)."""
    text = render_text(rules_of(ruleset, **options))
    block = text.split(f"[{rule_id}]", 1)[1].split("\n[", 1)[0]
    return " ".join(block.split())


@pytest.mark.parametrize(("ruleset", "options"), [
    ("cinquecento", {}),
    ("cinquecento-siciliana", {}),
    ("marianna", {"first_fixes_trump": True}),
])
def test_trick_start_round_does_not_say_the_last_declaration_fixes_trump_when_the_first_does(
        ruleset: str, options: dict[str, object]) -> None:
    """Notes, Cinquecento: the first marianna fixes trump for the rest of the hand (and
    Marianna option 4). With declarations at the start of the trick the first of the
    round fixes trump in the reference; the rulebook said the last one does."""
    opts = {"declare_when": "trick_start", **options}
    state = start(ruleset, FOUR_PAIRS, dealer=3, options=opts)
    play(state, "marianna:H marianna:D pass marianna:S")
    assert state.trump == suit(state, "H")
    said = _rule_text(ruleset, "marianna.decl.who", **opts)
    assert "the last declaration fixes trump" not in said, said


def test_trick_start_round_by_default_the_last_declaration_fixes_trump() -> None:
    """Seed 000 ¶15: with declarations at the start of the trick, the last of them (in
    playing order) fixes trump; the rulebook keeps saying so where it holds."""
    opts = {"declare_when": "trick_start"}
    state = start("marianna", FOUR_PAIRS, dealer=3, options=opts)
    play(state, "marianna:H marianna:D pass marianna:S")
    assert state.trump == suit(state, "S")
    said = _rule_text("marianna", "marianna.decl.who", **opts)
    assert "the last" in said and "fixes trump" in said, said


# N holds the king of hearts, S the queen and the marianna of diamonds.
COVER_AND_OWN = ["KH AS 3S 5S 6S", "2C 5C 6C 7C 4S", "QH KD QD 4C 5D"]


def test_cinquecento_split_won_after_the_partners_marianna_leaves_trump_with_it() -> None:
    """Notes, Cinquecento: the first marianna fixes trump for the rest of the hand. When
    the partner who covers declares a marianna of his own in the split's trick, the won
    split scores 20 but trump stays with his marianna in the reference; the rulebook
    said the split's suit becomes trump for the rest of the hand."""
    state = start("cinquecento-siciliana", [*COVER_AND_OWN, "2H 4H 7S JS 5H"], dealer=3)
    play(state, "ask:cover:H yes KH 2C marianna:D QH 2H")
    assert state.tricks[-1][2] == 0 and state.decl_points == [60, 0]
    assert state.trump == suit(state, "D")
    said = _rule_text("cinquecento-siciliana", "siciliana.ask.cover-play")
    assert "already" in said, said


@pytest.mark.parametrize("ruleset", ["marianna-siciliana", "cinquecento-siciliana"])
def test_split_lost_after_the_partners_marianna_does_not_claim_there_is_no_trump(
        ruleset: str) -> None:
    """Seed 000 ¶23: a lost split scores nothing and sets no trump. A marianna declared
    in the same trick by the partner who covers still sets trump, in the reference; the
    rulebook said that after a lost split there is still no trump."""
    state = start(ruleset, [*COVER_AND_OWN, "AH 4H 7S JS 5H"], dealer=3)
    play(state, "ask:cover:H yes KH 2C marianna:D QH AH")
    assert state.tricks[-1][2] == 3 and state.decl_points == [40, 0]
    assert state.trump == suit(state, "D")
    said = _rule_text(ruleset, "siciliana.ask.cover-play")
    assert "there is still no trump" not in said, said


def test_split_after_the_partners_marianna_takes_the_second_place_in_the_order() -> None:
    """Notes, Sicilian variant: a successful split counts in the order of marianna values.
    After the covering partner's own marianna in the same trick (the first, 40) the
    reference gives the split the second place, so the next marianna scores the third
    value (80); the rulebook said a split always counts as the first marianna."""
    state = start("marianna-siciliana", ["KH AS 3S 5S 6S", "KC QC 6C 7C 4S",
                                         "QH KD QD 4C 5D", "2H 4H 7S JS 5H"], dealer=3)
    play(state, "ask:cover:H yes KH 4S marianna:D QH 2H AS marianna:C 6C")
    assert [v for (_, _, _, v) in state.declared] == [40, 20, 80]
    said = _rule_text("marianna-siciliana", "siciliana.split.order")
    assert "counts as the first marianna of the hand" not in said, said
    outside = _rule_text("marianna-siciliana", "siciliana.split.order", split_order="outside")
    assert "still scores the first value" not in outside, outside


@pytest.mark.parametrize(("ruleset", "options", "reads"), [
    ("cinquecento", {}, "the first trump staying for the hand"),
    ("marianna", {"first_fixes_trump": True}, "the first trump staying for the hand"),
    ("marianna", {}, "a later one changing it"),
    ("marjapussi", {}, "the first trump staying for the hand"),
])
def test_overview_trump_line_says_whether_a_later_marianna_changes_trump(
        ruleset: str, options: dict[str, object], reads: str) -> None:
    """Notes, Cinquecento ("the first marianna ... fixes trump for the rest of the hand";
    Marianna option 4 the same) and Marjapussi ("The first marriage declared in a hand
    becomes trump for the rest of the hand"), against Marianna's default ("until another
    marianna changes it"). The overview said only 'a marianna makes its suit trump' in
    every case; it now says which."""
    from mariage.rulebook.render import facts
    line = dict(facts(rules_of(ruleset, **options)))["Trump"]
    assert reads in line, line


@pytest.mark.parametrize(("ruleset", "tricks"), [("marianna-2", 20), ("marianna-3", 13)])
def test_two_and_three_player_texts_count_their_own_tricks(ruleset: str, tricks: int) -> None:
    """Notes, Marianna ("Other sources add: 2 or 3 players"): with two players 20 tricks
    (15 drawing), with three 13 (8 drawing). The rulebooks inherited Marianna's 'ten
    tricks' for the free play and 'trick 6' for the combination window."""
    from mariage.rulebook.render import facts
    rules = rules_of(ruleset, combination_window="any_trick")
    assert dict(facts(rules))["Tricks per hand"] == str(tricks)
    free = _rule_text(ruleset, "marianna.play.free")
    assert "ten tricks" not in free, free
    window = _rule_text(ruleset, "marianna.decl.combination-window",
                        combination_window="any_trick")
    assert "trick 6" not in window, window
    described = render_text(rules)
    assert "also trick 6" not in " ".join(described.split()), "option text names trick 6"


def test_mariannino_next_plus_200_is_shown_as_such_in_the_table_and_text() -> None:
    """Notes, Marianna ("mariannino as 'marianna value + 200'", option mariannino_value):
    with the values 20-40-60-80 the reference scores a first mariannino 220; the rule
    text said 240, and the declarations table kept the fixed 250 under next_plus_200."""
    from mariage.rulebook.render import rulebook
    opts = {"mariannino_value": "next_plus_200", "marianna_values": "20-40-60-80"}
    state = start("marianna", ["QH QD QC QS KH"], dealer=3, options=opts)
    play(state, "mariannino:H")
    assert state.declared[-1][3] == 220
    said = _rule_text("marianna", "marianna.decl.mariannino.value", **opts)
    assert "240" not in said or "with the values 40-60-80-100" in said, said
    book = rulebook(rules_of("marianna", **opts))
    table = next(t for s in book.sections if s.key == "declarations" for t in s.tables)
    row = next(r for r in table.rows if r[0] == "mariannino")
    assert "250" not in row[2] and "200" in row[2], row


def test_cinquecento_split_order_texts_allow_for_the_partners_marianna_first() -> None:
    """Notes, Sicilian variant (the split counts in the order) with Cinquecento's 40 then
    20: after the covering partner's marianna (40) a won split is the second marianna;
    with split_order=outside the next marianna scores 20, not 40, in the reference."""
    hands = ["KH AS 3S 5S 6S", "KC QC 6C 7C 4S", "QH KD QD 4C 5D", "2H 4H 7S JS 5H"]
    state = start("cinquecento-siciliana", hands, dealer=3, options={"split_order": "outside"})
    play(state, "ask:cover:H yes KH 4S marianna:D QH 2H AS marianna:C 6C")
    assert [v for (_, _, _, v) in state.declared] == [40, 20, 20]
    said = _rule_text("cinquecento-siciliana", "siciliana.split.order")
    assert "counts as the first marianna of the hand" not in said, said
    outside = _rule_text("cinquecento-siciliana", "siciliana.split.order",
                         split_order="outside")
    assert "still scores 40" not in outside, outside


def test_mariannino_rule_text_holds_under_its_value_and_trump_options() -> None:
    """Notes, Marianna (mariannino 'as marianna value + 200'; option 4, the first marianna
    fixes trump) and Cinquecento (mariannino an option, the first marianna fixing trump).
    The reference scores 240 for a first mariannino under next_plus_200 and leaves a
    fixed trump alone; the main mariannino rule said it 'scores 250 and the king's suit
    becomes trump' whatever the options."""
    opts = {"mariannino_value": "next_plus_200"}
    state = start("marianna", ["QH QD QC QS KH"], dealer=3, options=opts)
    play(state, "mariannino:H")
    assert state.declared[-1][3] == 240
    said = _rule_text("marianna", "marianna.decl.mariannino", **opts)
    assert "It scores 250 and" not in said, said
    opts = {"mariannino": True}
    state = start("cinquecento", ["2C 4C 5C 6C 7C", "KD QD QH QC QS", "2S 4S 5S 6S 7S",
                                  "2H 4H 5H 6H 7H"], dealer=3, stock="KH", options=opts)
    play(state, "2C marianna:D KD 2S 2H mariannino:H")  # W draws the king of hearts
    assert state.trump == suit(state, "D") and state.declared[-1][3] == 250
    said = _rule_text("cinquecento", "marianna.decl.mariannino", **opts)
    assert "and the king's suit becomes trump." not in said, said
