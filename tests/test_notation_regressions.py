"""Regressions found by the independent check of the notation (``test_independent_notation``):
a ``[Dealer]`` the rules contradict (N125), a later-hand record whose match the
match-end rule already ends (N162, and not where it plays on), a trick number
``0.`` before the auction (N145), the same in the fast path and the full replay;
the replay's seats of a trick past a seat sitting out, and a hand that ends at its
deal shown by the replay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.arena.bots import make_bot
from mariage.cli import main
from mariage.commands.replay import as_json
from mariage.notation.fast import fast_valid
from mariage.notation.reader import parse_record
from mariage.notation.recorder import record_match
from mariage.notation.replay import check_text
from mariage.notation.views import later_record, view
from mariage.notation.writer import write_record
from mariage.viewer.timeline import timeline


def _codes(text: str) -> list[tuple[str, int, int]]:
    return [(e.code, e.line, e.column) for e in check_text(text).errors]


def _record(ruleset: str, options: dict[str, str], seed: int = 1) -> str:
    rules = load_rules(ruleset, options)
    bots = [make_bot("random", s) for s in range(rules.nseats)]
    return write_record(record_match(rules, seed, bots))


def _line_of(text: str, prefix: str) -> int:
    return next(i for i, row in enumerate(text.split("\n"), 1) if row.startswith(prefix))


@pytest.mark.parametrize(("ruleset", "option", "value", "fixed"), [
    ("belote", "first_dealer", "seat1", "W"),
    ("belote", "first_dealer", "seat3", "E"),
    ("marjapussi-de", "partnership_draw", "fixed", None),
])
def test_a_dealer_tag_against_the_rules_first_dealer_is_n125(
        ruleset: str, option: str, value: str, fixed: str | None) -> None:
    text = _record(ruleset, {option: value})
    dealer = re.search(r'\[Dealer "(\w+)"\]', text)
    assert dealer is not None
    seats = load_rules(ruleset, {option: value}).seat_names
    if fixed is not None:
        assert dealer.group(1) == fixed  # the recorder follows the rules
    other = next(s for s in seats if s != dealer.group(1))
    bad = text.replace(dealer.group(0), f'[Dealer "{other}"]', 1)
    line = _line_of(bad, "[Dealer")
    assert _codes(bad)[0] == ("N125", line, 2)
    assert not fast_valid(bad)
    assert _codes(text) == [] and fast_valid(text)


def test_a_dealer_tag_of_a_later_hand_is_the_dealer_of_that_hand() -> None:
    """With ``[StartHand]`` the tag names the dealer of that hand: no N125 for it."""
    rec = parse_record(_record("belote", {"first_dealer": "seat1"}, seed=3))
    assert len(rec.hands) >= 2
    late = write_record(later_record(rec, 2))
    assert '[Dealer "W"]' not in late  # the dealer of hand 2 is the next seat
    assert _codes(late) == []


def _later(ruleset: str, options: dict[str, str], score: str, extra: str = "") -> str:
    """A later-hand record of ``ruleset`` whose ``[StartScore]`` is set to ``score``."""
    rec = parse_record(_record(ruleset, options, seed=2))
    text = write_record(later_record(rec, 2))
    text = re.sub(r'\[StartState "(nowin|unrounded)"[^\]]*\]\n', "", text)
    return re.sub(r"\[StartScore [^\]]*\]", f"[StartScore {score}]{extra}", text, count=1)


@pytest.mark.parametrize(("ruleset", "options", "score", "extra", "over"), [
    # a tie at the target plays on (belote.match.tie), a team that may not win yet
    # (belote.match.belote-alone) does not end it; past the target under "more than"
    ("belote", {}, '"1000" "1000"', "", False),
    ("belote", {}, '"1010" "1000"', "", True),
    ("belote", {}, '"1010" "500"', '\n[StartState "nowin" "1" "0"]', False),
    ("thousand", {"win_rule": "more_than", "barrel": "false"}, '"1000" "0" "0"', "", False),
    ("thousand", {"win_rule": "more_than"}, '"1001" "0" "0"', "", True),
    ("thousand", {}, '"1000" "0" "0"', "", True),
    # the totals before rounding decide: 1995 and a residue of 5 are the target
    ("belote-coinche", {"rounding_decides_game": "false"}, '"1995" "0"',
     '\n[StartState "unrounded" "5" "0"]', True),
    ("belote-coinche", {"rounding_decides_game": "false"}, '"1995" "0"',
     '\n[StartState "unrounded" "4" "0"]', False),
])
def test_a_later_record_asks_the_match_end_rule_whether_the_match_is_over(
        ruleset: str, options: dict[str, str], score: str, extra: str, over: bool) -> None:
    text = _later(ruleset, options, score, extra)
    codes = _codes(text)
    header = _line_of(text, "hand ")
    if over:
        assert codes[0] == ("N162", _line_of(text, "[StartScore"), 2)
        assert not fast_valid(text)
    else:  # the hands are replayed (their annotations then disagree with the score)
        assert [c for c in codes if c[1] < header] == []
        assert check_text(text).hands >= 1


def test_a_later_record_past_the_limit_of_hands_is_n162() -> None:
    options = {"session_end": "bonus_300_at_500", "hand_limit": "2"}
    text = _later("marjapussi-de", options, '"100" "200"')
    assert _codes(text) == [] or "N162" not in {c for c, _, _ in _codes(text)[:1]}
    text = re.sub(r'\[StartHand "\d+"\]', '[StartHand "3"]', text)
    assert _codes(text)[0] == ("N162", _line_of(text, "[StartHand"), 2)


def _thousand_record() -> str:
    text = _record("thousand", {}, seed=4)
    assert re.search(r"(?m)^A:bid:|^[ABC]:(bid|pass)", text)
    return text


def test_a_trick_number_0_before_the_auction_is_n145_in_both_paths(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = _thousand_record()
    lines = text.split("\n")
    at = next(i for i, row in enumerate(lines) if re.match(r"[ABC]:(bid|pass)", row))
    for mark in ("0.", "1."):
        bad_lines = list(lines)
        bad_lines[at] = f"{mark} {bad_lines[at]}"
        bad = "\n".join(bad_lines)
        assert not fast_valid(bad), mark
        assert _codes(bad)[0] == ("N145", at + 1, 1), mark
    assert fast_valid(text) and _codes(text) == []
    path = tmp_path / "zero.mrg"
    bad_lines = list(lines)
    bad_lines[at] = "0. " + bad_lines[at]
    path.write_text("\n".join(bad_lines))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"zero.mrg:{at + 1}:1: N145" in out and "Traceback" not in out


def _shipped(path: str) -> str:
    text = (Path(__file__).resolve().parent.parent / path).read_text(encoding="utf-8")
    return text[text.index("\n---\n", 4) + 5:]


def test_the_replay_names_the_seats_of_a_trick_past_a_seat_sitting_out() -> None:
    """Sixty-six for three: the dealer (C) sits out; B leads trick 3 and A follows."""
    text = _shipped("conformance/tests/sixty-six-3/golden/default.test")
    assert "3. B:QS A:AH (won B)" in text
    tricks = as_json(timeline(parse_record(text)))["hands"][0]["tricks"]
    assert tricks[2]["cards"] == [["B", "QS"], ["A", "AH"]]
    acts = [line.split() for line in text.split("\n") if re.match(r"\d+\. ", line)]
    for trick, words in zip(tricks, acts, strict=False):
        played = [w.split(":") for w in words[1:] if ":" in w and not w.startswith("(")
                  and len(w.split(":")) == 2 and len(w.split(":")[1]) == 2]
        assert [c for c in trick["cards"]] == [list(p) for p in played]


def test_the_replay_shows_a_hand_that_ends_at_its_deal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Mariglia's turned-up card bonus ends the hand (and here the match) at the deal."""
    text = _shipped("conformance/tests/mariglia/score/turn-up-bonus-wins.test")
    hand = as_json(timeline(parse_record(text)))["hands"][0]
    assert hand["actions"] == []
    assert hand["end"] == {"ended": "turn_up_bonus", "points": [0, 0], "match": [5, 0],
                           "scored": [0, 0]}
    path = tmp_path / "bonus.mrg"
    path.write_text(text)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "hand over (turn_up_bonus)" in out and "match: NS 5, WE 0" in out


def test_a_missing_first_player_is_reported_once() -> None:
    """Mariazza draws the first player of each hand: without ``first:`` the deal is not
    replayed (it was, and the engine's refusal was a second N133 at the hand)."""
    text = _shipped("conformance/tests/mariazza/core/basics.test")
    bad = re.sub(r"deal first: \w+\n(\w+:)", r"deal \1", text, count=1)
    assert bad != text
    errors = check_text(bad).errors
    assert [(e.code, e.line) for e in errors] == [("N133", _line_of(bad, "hand 1") + 1)]


@pytest.mark.parametrize(("old", "new", "where"), [
    # a hand number of ten digits: one N112 (each line of the hand's deal was an N110)
    ("hand 2\n", "hand 1234567890\n", [("N112", "hand 1234567890", 6)]),
    # a hand without its number: "deal" was read as the number and "dealer:" as the
    # keyword "deal" and a label "er:" (N134, N133); now one N110 at "dealer:"
    ("hand 4\n", "hand\n", [("N110", "deal dealer", 6)]),
    # an error in the opening of a hand, then one in a later hand: both, no others
    ("hand 3\n", "hand 3 %%\n", [("N110", "hand 3 %%", 8)]),
])
def test_a_broken_hand_opening_is_one_syntax_error(
        old: str, new: str, where: list[tuple[str, str, int]]) -> None:
    text = _shipped_good("marianna.mrg")
    bad = text.replace(old, new, 1)
    assert bad != text
    rows = bad.split("\n")
    want = []
    for code, prefix, column in where:
        at = next(i for i, row in enumerate(rows, 1) if row.startswith(prefix)
                  and (prefix != "deal dealer" or rows[i - 2] == "hand"))
        want.append((code, at, column))
    assert [(e.code, e.line, e.column) for e in check_text(bad).errors] == want
    assert not fast_valid(bad)


def _shipped_good(name: str) -> str:
    return (Path(__file__).resolve().parent / "data" / "records" / "good" / name).read_text(
        encoding="utf-8")


def test_a_seat_view_with_a_whole_hand_declaration_fits_its_deal() -> None:
    """Marianna ``combination_window: any_trick``: W declares a mariannino (four queens and
    a king, the whole hand) in trick 6. N's view of the valid record was "no deal fits"
    (N135): the search probed the declaration with every card W could hold, and a whole
    hand is never more cards than it has. A view with W's queens played elsewhere is
    still proved impossible."""
    text = _shipped("conformance/tests/marianna/option/combination-window-any-trick.test")
    assert "W:mariannino:H" in text
    seen = write_record(view(parse_record(text), "N"))
    assert "W: ?? ?? ?? ?? ??" in seen
    assert check_text(seen).errors == []
    hand = next(row for row in seen.split("\n") if row.startswith("N: "))
    card = hand.split()[-1]
    impossible = seen.replace(hand, hand[:-2] + "QS", 1).replace(f"N:{card}", "N:QS", 1)
    assert [e.code for e in check_text(impossible).errors] == ["N135"]


@pytest.mark.parametrize("path", ["conformance/tests/marianna/decl/mariannino.test",
                                  "conformance/tests/cinquecento/option/mariannone.test"])
def test_a_view_whose_first_action_declares_the_whole_hand(path: str) -> None:
    """The declaration before any card is known: the hands it may be (the picks of each
    rank group) are the cases, not every hand of five of 34 cards (N136, was N135)."""
    text = _shipped(path)
    seen = write_record(view(parse_record(text), "N"))
    assert "?? ?? ??" in seen
    assert check_text(seen).errors == []


@pytest.mark.parametrize(("card", "code"), [("ZZ", "N130"), ("QH", "N131")])
def test_a_full_deal_with_a_bad_card_stops_the_replay(card: str, code: str) -> None:
    """A full record whose deal has a card that cannot be read: the problem, and no deal
    search (it said "no full deal is consistent with this partial record", N135, after a
    card dealt twice, or invented the unknown card and went on)."""
    text = _shipped_good("marianna.mrg")
    row = next(r for r in text.split("\n") if r.startswith("N: "))
    bad = text.replace(row, row[:6] + card + row[8:], 1)
    assert bad != text and "QH" in text.split("N: ", 1)[1].split("\n")[1]
    assert [e.code for e in check_text(bad).errors] == [code]


@pytest.mark.parametrize(("old", "new"), [("\nstock:", "\nstack:"), ("\nW: ", "\nWW: ")])
def test_an_unknown_deal_label_is_one_problem(old: str, new: str) -> None:
    """A misspelt label: N133 at it, not also the part it was meant to be as missing
    (the stock "has 0 cards", N132; the hand of seat W "is missing", N133)."""
    text = _shipped_good("marianna.mrg")
    bad = text.replace(old, new, 1)
    line = bad[:bad.index(new) + 1].count("\n") + 1
    assert [(e.code, e.line, e.column) for e in check_text(bad).errors] == [("N133", line, 1)]


def test_lenient_mode_finds_a_long_number_after_a_syntax_error() -> None:
    """After an N110, the parts parsed again without the builder missed the numbers too
    long of later hands (N112 of a hand number or a trick number)."""
    text = _shipped_good("marianna.mrg")
    bad = text.replace("\n1. S:AS", "\n1. S:AS %%", 1).replace("hand 3\n", "hand 1234567890\n")
    rows = bad.split("\n")
    at = next(i for i, row in enumerate(rows, 1) if row.startswith("hand 1234567890"))
    assert [(e.code, e.line, e.column) for e in check_text(bad).errors] == [
        ("N110", 17, 9), ("N112", at, 6)]


@pytest.mark.parametrize("path", ["conformance/tests/thousand/throw-in/low-hand.test",
                                  "conformance/tests/thousand-pl/throw-in/low-hand.test"])
def test_a_view_of_a_low_hand_thrown_in_is_found(path: str) -> None:
    """A throw-in for a hand worth too few points: no one card refuses it, several do.
    The search learns that the seat holds not all of a smallest such set (a case per
    card); it gave up at 5,000 replays (N136) where 50,000 found the deal."""
    text = _shipped(path)
    seen = write_record(view(parse_record(text), "B"))
    assert "A: ?? ?? ??" in seen and "A:redeal" in seen
    assert check_text(seen).errors == []
    # the same view with A's hand worth too much (an ace, a ten known in it): no deal fits
    row = next(r for r in seen.split("\n") if r.startswith("A: "))
    heavy = seen.replace(row, "A: AS TS KS " + " ".join(row.split()[4:]), 1)
    assert [e.code for e in check_text(heavy).errors] == ["N135"]


@pytest.mark.parametrize(("ruleset", "options", "words"), [
    ("sixty-six", {}, "won hand 1 (ended played_out), and the winner of a hand deals the "
     "next (rule sixty-six.deal.rotation)"),
    ("schnapsen", {"next_dealer": "loser"}, "lost hand 1 (ended played_out), and the loser "
     "of a hand deals the next (rule schnapsen.deal.rotation)"),
    ("belote", {}, "dealt hand 1 (ended played_out), and the deal passes on")])
def test_a_wrong_dealer_is_told_why_the_rules_give_the_deal_to_another(
        ruleset: str, options: dict[str, str], words: str) -> None:
    """Where the result of a hand decides the next dealer, the reason names the side that
    won (or lost) the hand before and the rule, not the deal passing on."""
    text = _record(ruleset, options)
    at = _line_of(text, "hand 2") + 1
    lines = text.split("\n")
    dealer = lines[at - 1].removeprefix("deal dealer: ")
    seats = load_rules(ruleset, options).seat_names
    lines[at - 1] = "deal dealer: " + seats[(seats.index(dealer) + 1) % len(seats)]
    [first, *_] = check_text("\n".join(lines)).errors
    assert (first.code, first.line) == ("N125", at)
    assert first.message.startswith(f"the dealer of this hand is {dealer}: ")
    assert words in first.message
