"""More records written by hand from docs/notation.rst alone (Schnapsen's close, exchange
and false claim, Coinche's coinche and surcoinche and a capot bid...), and single mistakes
made in them: the validator must accept the records and name the first illegal move of
each mistake precisely, saying what the seat to act may do where a step was left out."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_records29_written import NOTATION, problems  # the first helper's reader

DATA = Path(__file__).parent / "data" / "records29b"


def record(name: str) -> str:
    return (DATA / f"{name}.mrg").read_text()


def changed(name: str, old: str, new: str) -> str:
    text = record(name)
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.mrg")))
def test_hand_written_record_is_valid(name: str) -> None:
    assert problems(record(name)) == []


# (record, text replaced, its replacement, code, line, column, hand, trick, seat, rule ID)
MISTAKES = [
    ("schnapsen", "4. B:QD A:KS (won A)", "4. B:QD A:KS (won A) B:claim", "N142", 16, 22,
     1, 5, "B", "core.turn"),
    ("schnapsen", "A:close", "B:close", "N142", 17, 1, 1, 5, "B", "core.turn"),
    ("schnapsen", "B:exchange:JS", "B:exchange:JH", "N141", 13, 4, 1, 2, "B",
     "schnapsen.exchange"),
    ("schnapsen", "B:marriage:D B:claim", "B:marriage:D B:close", "N141", 29, 14, 2, 2,
     "B", "schnapsen.close"),
    ("belote-coinche", "N:coinche W:surcoinche", "N:pass W:coinche", "N141", 12, 26, 1, 0,
     "W", "belote-coinche.auction.coinche"),
    ("belote-coinche", "N:coinche W:surcoinche", "N:surcoinche", "N141", 12, 19, 1, 0,
     "N", "belote-coinche.auction.coinche"),
    ("belote-coinche", "N:coinche W:surcoinche", "N:coinche S:surcoinche", "N142", 12, 29,
     1, 0, "S", "core.turn"),
    ("belote-coinche", "W:surcoinche (trump S)", "W:surcoinche N:coinche (trump S)",
     "N142", 12, 42, 1, 1, "N", "core.turn"),
    ("belote-coinche", "E:pass (trump S)", "E:pass S:surcoinche (trump S)", "N142", 29, 39,
     2, 1, "S", "core.turn"),
    ("marjapussi-de-match", "N:ask:pair S:no\n3.", "S:ask:pair N:no\n3.", "N142", 20, 1,
     1, 3, "S", "core.turn"),
    ("marjapussi-de-match", "N:ask:pair S:no\n3.", "N:ask:pair S:yes\n3.", "N141", 20,
     12, 1, 3, "S", "marjapussi-de.calls.answers"),
    ("marjapussi-de-match", "N:call:S (trump S)", "N:call:H (trump H)", "N141", 18, 1, 1,
     2, "N", "marjapussi-de.calls.pair"),
    ("marjapussi-de-match", "E:give:AD+TC+JC+AS W:give", "W:give:JH+8H+JD+QC E:give",
     "N142", 79, 1, 4, 0, "W", "core.turn"),
    ("marjapussi-de-match", "S:give:AH+KH+AD+TC", "S:give:AH+KH+AD", "N141", 14, 1, 1, 0,
     "S", "marjapussi-de.passing"),
    ("marjapussi", "E:ask:half:D W:yes (trump D)", "S:ask:partner N:no", "N142", 15, 1, 2,
     2, "S", "core.turn"),
    ("marjapussi", "W:yes (trump D)", "W:no (trump D)", "N141", 15, 14, 2, 2, "W",
     "marjapussi.ask.half.answer"),
    ("marjapussi", "S:yes:H", "S:yes:D", "N141", 17, 15, 2, 3, "S", "marjapussi.ask.answer"),
    ("marjapussi", "S:marriage:S (trump D)", "S:ask:partner N:no S:marriage:S", "N141", 19,
     20, 2, 4, "S", "marjapussi.decl.per-trick"),
    ("marjapussi", "E:ask:half:D", "E:ask:half:H", "N141", 15, 1, 2, 2, "E",
     "marjapussi.ask.half"),
    ("sixty-six-4", "E:KD (won N)", "E:TC (won N)", "N141", 15, 19, 1, 4, "E",
     "sixty-six-4.play.follow"),
    ("sixty-six-4", "S:JS W:TS", "S:JS W:8S", "N141", 17, 9, 1, 6, "W",
     "sixty-six-4.play.head"),
    ("sixty-six-4", "N:7H E:7S", "N:JC E:7S", "N141", 13, 14, 1, 2, "N",
     "sixty-six-4.play.trump"),
    ("sixty-six-4", "turnup: KH", "turnup: KC", "N131", 11, 9, 1, 0, None, None),
    ("marianna-3", "9. W:AH S:JH", "9. W:AH S:marianna:C S:JH", "N141", 20, 9, 1, 9, "S",
     "marianna-3.decl.window"),
    ("marianna-3", "3. S:6D N:QD W:3D (won W)", "3. S:6D N:QD W:3D (won S)", "N150", 14,
     19, 1, 3, None, "marianna.trick.winner"),
    ("cinquecento", "W:3H S:2S", "W:3H S:marianna:D S:2S", "N141", 15, 19, 1, 3, "S",
     "marianna.decl.marianna"),
    ("cinquecento", "4. E:4D N:2D W:6D S:marianna:D", "4. S:marianna:D E:4D N:2D W:6D",
     "N142", 17, 4, 1, 4, "S", "core.turn"),
    ("thousand-pl", "A:redeal", "B:redeal", "N141", 11, 1, 1, 0, "B",
     "thousand.throw-in"),
    ("thousand-pl", "A:redeal (ended redeal)", "A:pass A:redeal (ended redeal)", "N141", 11,
     8, 1, 0, "A", "thousand.throw-in"),
    ("thousand-pl", "(contract 100 C conceded)", "(contract 100 C failed)", "N156", 19, 42,
     2, 0, None, "thousand.score.hand"),
    ("thousand-pl", "(scored 60 60 0)", "(scored 0 0 0)", "N154", 43, 42, 5, 0, None,
     "thousand.score.hand"),
    ("marianna-2", "B:mariannone:S", "B:mariannone:H", "N141", 13, 4, 5, 1, "B",
     "marianna.decl.mariannone"),
    ("marianna-2", "B:mariannone:S", "A:mariannone:S", "N142", 13, 4, 5, 1, "A",
     "core.turn"),
    ("mariazza", "2. A:mariazza:H", "2. A:exchange:7H A:mariazza:H", "N141", 15, 4, 6, 2,
     "A", "mariazza.exchange"),
    ("mariazza", "(segno A) (match 4 2)", "(segno A) (match 4 2) A:3S", "N144", 15, 68, 6, 2,
     "A", "core.over"),
    ("thousand-4", "C:pass", "D:pass", "N142", 13, 21, 1, 0, "D", "core.turn"),
    ("thousand-4", "A:bid:120 B:pass", "A:bid:120 B:pass C:pass", "N142", 13, 45, 1, 0,
     "C", "core.turn"),
]


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: f"{m[0]}-{m[2]}")
def test_a_single_mistake_is_named_where_it_stands(mistake: tuple) -> None:
    name, old, new, code, line, column, hand, trick, seat, rule = mistake
    first = problems(changed(name, old, new))[0]
    assert (first.code, first.line, first.column, first.hand, first.trick, first.seat,
            first.rule_id) == (code, line, column, hand, trick, seat, rule)


def test_a_schnapsen_draw_is_not_written_and_the_refusal_says_why() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "Where he may not (Schnapsen by default, and every game without closing" in doc
    [err] = problems(changed("schnapsen", "1. B:AH A:JS (won B)",
                             "1. B:AH A:JS (won B) B:draw"))
    assert (err.code, err.line, err.column, err.seat) == ("N141", 28, 22, "B")
    assert "the players draw by themselves after each trick (no draw is written)" in err.message


def test_schnapsen_decline_left_out_is_told_at_the_next_annotation() -> None:
    text = record("schnapsen-played-out")
    assert "A:decline (ended played_out)" in text
    first = problems(text.replace("A:decline (ended played_out)", "(ended played_out)"))[0]
    assert (first.code, first.line, first.column) == ("N155", 18, 1)
    assert first.message.endswith("; A may now only claim, decline")


def test_a_step_of_the_auction_left_out_is_named_at_the_next_token() -> None:
    # E, whose capot was coinched, neither passes nor redoubles
    errs = problems(changed("belote-coinche", "N:coinche W:pass E:pass", "N:coinche W:pass"))
    assert [(e.code, e.line) for e in errs][:2] == [("N151", 29), ("N145", 30)]
    assert all(e.message.endswith("; E may now only pass, surcoinche") for e in errs)


def test_a_card_passed_that_was_not_held_is_named() -> None:
    first = problems(changed("marjapussi-de-match", "S:give:s-K+e-O+e-U+e-9",
                             "S:give:s-K+e-O+e-U+e-A"))[0]
    assert (first.code, first.line, first.column, first.hand, first.seat) == \
        ("N141", 41, 1, 2, "S")
    assert first.message.endswith(": S does not hold AC")


def test_a_session_of_four_hands_ends_after_the_fourth() -> None:
    text = record("marjapussi-de-match")
    fifth = text.split("hand 1\n")[1].split("\nhand 2")[0]
    [err] = problems(text.replace("result EW hands", f"hand 5\n{fifth}\nresult EW hands"))
    assert (err.code, err.line, err.column, err.hand) == ("N162", 91, 1, 5)
    assert err.message.endswith(": hand 4 was the last its rules play")
    [err] = problems(text.split("hand 4\n")[0] + "result EW hands\n")
    assert (err.code, err.line, err.hand) == ("N161", 72, 3)
    [err] = problems(text.replace("result EW hands", "result EW target"))
    assert (err.code, err.line) == ("N160", 91) and "EW hands" in err.message


def test_a_bare_yes_to_a_question_for_a_marriage_is_told_to_name_it() -> None:
    first = problems(changed("marjapussi", "S:yes:H", "S:yes"))[0]
    assert (first.code, first.line, first.column, first.rule_id) == \
        ("N141", 17, 15, "marjapussi.ask.answer")
    assert first.message.startswith("a yes to a question for a marriage names it")


def test_the_dealer_sitting_out_is_written_with_no_cards() -> None:
    [err] = problems(changed("thousand-4", "D:\n", ""))
    assert (err.code, err.line, err.column) == ("N133", 8, 1)
    assert err.message.endswith("(he sits the hand out: write 'D:' with no cards)")
    first = problems(changed("thousand-4", "D:\n", "D: JD\n"))[0]
    assert (first.code, first.line) == ("N132", 11)


def test_a_card_given_after_the_talon_not_held_is_named_in_the_singular() -> None:
    [err] = problems(changed("thousand-4", "A:give:9H A:give:9S", "A:give:9H A:give:QS"))
    assert (err.code, err.line, err.column, err.seat, err.rule_id) == \
        ("N141", 14, 11, "A", "thousand.exchange")
    assert err.message == "give exactly 1 card from your own hand: A does not hold QS"


def test_a_schwarz_these_rules_do_not_score_is_always_a_dash() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "elsewhere (Thousand...) always ``(schwarz -)``" in doc
    [err] = problems(changed("thousand-4", "(schwarz -)", "(schwarz A)"))
    assert (err.code, err.line, err.column) == ("N156", 23, 51)
    assert err.message.endswith("(these rules score no schwarz: always -)")


def test_a_card_taken_out_of_the_pack_is_named_so() -> None:
    [err] = problems(changed("marianna-3", "S: AD 7D AC 6C 6S", "S: AD 7D AC 6C 2S"))
    assert (err.code, err.line, err.column) == ("N130", 10, 16)
    assert err.message == ("unknown card '2S': it is taken out of the pack of marianna-3 "
                           "(39 cards)")
    # a draw written where nobody may close: said for three players too
    [err] = problems(changed("marianna-3", "1. S:AD N:4D W:2D (won S)",
                             "1. S:AD N:4D W:2D (won S) S:draw"))
    assert (err.code, err.line, err.column, err.trick) == ("N141", 12, 27, 2)
    assert "the players draw by themselves" in err.message


def test_a_hand_thrown_in_is_dealt_again_by_the_same_dealer() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "is dealt again by the same dealer, while Belote's void deal passes" in doc
    [err] = problems(changed("thousand-pl", "deal dealer: B", "deal dealer: C"))
    assert (err.code, err.line, err.column, err.hand) == ("N125", 14, 6, 2)


def test_a_match_won_by_a_declaration_has_its_own_result_reason() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "``match_won`` (a declaration that wins the match at once" in doc
    text = record("marianna-2")
    assert text.endswith("(ended match_won) (match 230 810)\nresult B match_won\n")
    [err] = problems(text.replace("result B match_won", "result B target"))
    assert (err.code, err.line, err.column) == ("N160", 14, 1)
    assert err.message.endswith("the match result is B match_won")


def test_a_hand_won_where_hands_are_counted_scores_no_points() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "the hand adds no points: ``(scored 0 0)``, the hand won shows in" in doc
    text = record("mariazza")
    assert problems(text.replace("(segno A)", "(segno A) (scored 0 0)")) == []
    [err] = problems(text.replace("(segno A)", "(segno A) (scored 1 0)"))
    assert (err.code, err.line, err.column) == ("N154", 15, 56)


@pytest.mark.parametrize("stock", ["stock:", "stock: AH"])
def test_a_stock_line_where_the_rules_have_no_stock_is_refused(stock: str) -> None:
    """Sixty-six for four deals every card: an empty 'stock:' line was read as its stock."""
    [err] = problems(changed("sixty-six-4", "turnup: KH\n", f"{stock}\nturnup: KH\n"))
    assert (err.code, err.line, err.column) == ("N133", 11, 1)
    assert "sixty-six-4 has no stock" in err.message
