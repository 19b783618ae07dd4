"""Records written by hand from docs/notation.rst alone, for six rulesets of different
families, and single mistakes made in them: the validator must accept the records and
name the first illegal move of each mistake precisely."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.notation import validate_stream
from mariage.spec.specload import known_rulesets

DATA = Path(__file__).parent / "data" / "records29"
NOTATION = Path(__file__).parent.parent / "docs" / "notation.rst"


def problems(text: str) -> list:
    return validate_stream(io.BytesIO(text.encode()), "r.mrg").errors


def record(name: str) -> str:
    return (DATA / f"{name}.mrg").read_text()


@pytest.mark.parametrize("name", sorted(p.stem for p in DATA.glob("*.mrg")))
def test_hand_written_record_is_valid(name: str) -> None:
    assert problems(record(name)) == []


# (record, text replaced, its replacement, code, line, column, trick, seat, rule ID)
MISTAKES = [
    ("thousand", "3. A:AS B:QS", "3. A:AS B:KS", "N141", 21, 9, 3, "B", "core.hand"),
    ("thousand", "3. A:AS B:QS C:9S", "3. B:QS A:AS C:9S", "N142", 21, 4, 3, "B",
     "core.turn"),
    ("thousand", "B:marriage:H", "B:marriage:S", "N141", 19, 1, 2, "B", "thousand.marriage"),
    ("thousand", "B:bid:100 C:pass", "B:bid:100 C:bid:100", "N141", 16, 11, 0, "C",
     "thousand.auction.bids"),
    ("belote-coinche", "E:pass N:pass W:pass", "E:bid:70:S N:pass W:pass", "N141", 12, 12,
     0, "E", "belote-coinche.auction.bids"),
    ("belote-coinche", "2. S:AH E:7S N:7H", "2. S:AH E:7S N:QS", "N141", 14, 14, 2, "N",
     "belote.play.follow"),
    ("marjapussi-de", "N:ask:pair S:no", "N:ask:pair S:yes", "N141", 15, 12, 2, "S",
     "marjapussi-de.calls.answers"),
    ("mariaggia", "B:accusa:D", "A:accusa:D", "N142", 19, 1, 8, "A", "core.turn"),
]


@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda m: f"{m[0]}-{m[2]}")
def test_a_single_mistake_is_named_where_it_stands(mistake: tuple) -> None:
    name, old, new, code, line, column, trick, seat, rule = mistake
    text = record(name)
    assert text.count(old) == 1
    first = problems(text.replace(old, new))[0]
    assert (first.code, first.line, first.column, first.trick, first.seat, first.rule_id,
            first.hand) == (code, line, column, trick, seat, rule, 1)


def test_a_finished_match_without_its_result_is_reported_after_the_last_token() -> None:
    text = record("mariaggia")
    assert text.endswith("(match 108 88)\nresult A call_out\n")
    cut = text.removesuffix("result A call_out\n")
    [err] = problems(cut)
    # at the record's last token, where the result line belongs (was 1:1)
    assert (err.code, err.line, err.column, err.hand) == ("N160", 49, 1, 2)
    assert "result A call_out" in err.message


def test_a_result_without_its_reason_checks_the_winner_only() -> None:
    text = record("mariaggia")
    assert problems(text.replace("result A call_out", "result A")) == []
    [err] = problems(text.replace("result A call_out", "result B"))
    assert err.code == "N160" and err.line == 50


def test_the_seat_and_team_table_of_the_notation_matches_every_ruleset() -> None:
    doc = NOTATION.read_text()
    table = doc.split(".. list-table:: Seats (in playing order) and teams", 1)[1]
    table = table.split("\n\n", 2)[1]  # the rows, up to the blank line after them
    rows = re.findall(r"   \* - ([a-z0-9, -]+)\n     - ``([A-Z ]+)``\n     - ``([A-Z ]+)``",
                      table)
    listed = {name.strip(): (tuple(seats.split()), tuple(teams.split()))
              for names, seats, teams in rows for name in names.split(",")}
    assert set(listed) == set(known_rulesets())
    for name in known_rulesets():
        rules = load_rules(name)
        assert listed[name] == (rules.seat_names, rules.team_names), name


def test_case_and_suit_letters_are_as_the_notation_says() -> None:
    text = record("belote-coinche")
    doc = " ".join(NOTATION.read_text().split())
    assert "Case matters everywhere outside comments and tag values" in doc
    assert [e.code for e in problems(text.replace("N: QH 7H", "N: qh 7H"))] == ["N130"]
    assert [e.code for e in problems(text.replace("S:bid:80:H", "S:BID:80:H"))] == ["N140"]
    assert problems(text.replace("S:bid:80:H", "S:bid:80:hearts")) == []
    cinq = record("cinquecento-siciliana")
    assert "``marianna:s`` is error ``N140``" in doc
    assert [e.code for e in problems(cinq.replace("W:marianna:S", "W:marianna:s"))] \
        == ["N140"]
    assert problems(cinq.replace("W:marianna:S W:5C", "W:marianna:spade W:5b")) == []


def test_a_bonus_scored_at_the_deal_is_in_the_match_score_not_in_scored() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "a bonus scored as the cards are dealt (Mariglia's turned-up card" in doc
    text = record("mariglia")
    [err] = problems(text.replace("(scored 0 7)", "(scored 0 11)"))
    assert (err.code, err.line, err.column) == ("N154", 22, 48)
    [err] = problems(text.replace("(match 0 4)", "(match 0 0)"))
    assert (err.code, err.line) == ("N153", 12)


def test_option_values_are_read_as_the_notation_says() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "(``yes``/``no``, ``on``/``off``, ``1``/``0`` and other cases are read too)" in doc
    text = record("mariaggia")
    tag = '[Option "target" "101"]'
    for value, ok in (("false", True), ("No", True), ("0", True), ("yes", False)):
        # with the option on, A's accusa in trumps scores 40: hand 1's (match ...) differs
        found = problems(text.replace(tag, tag + f'\n[Option "accusa_trump_40" "{value}"]'))
        assert (found == []) == ok, value
    [err] = problems(text.replace(tag, '[Option "last_five" "trump+follow"]'))
    assert (err.code, err.line, err.column) == ("N123", 3, 2)


def test_a_first_dealer_fixed_by_an_option_is_checked_at_the_tag() -> None:
    doc = " ".join(NOTATION.read_text().split())
    assert "German Marjapussi's option ``partnership_draw`` at ``fixed``" in doc
    text = record("marjapussi-de")  # dealt by S, drawn by lot: any seat may deal first
    fixed = text.replace('[Dealer "S"]', '[Dealer "S"]\n[Option "partnership_draw" "fixed"]')
    [err] = problems(fixed)
    assert (err.code, err.line, err.token) == ("N125", 3, "S")
    coinche = record("belote-coinche")  # dealt by W, seat 1 in playing order
    assert problems(coinche.replace('[Dealer "W"]',
                                    '[Dealer "W"]\n[Option "first_dealer" "seat1"]')) == []


@pytest.mark.parametrize(("old", "new", "line"), [
    ("hand 1", "Hand 1", 6), ("hand 1", "HAND 1", 6), ("deal\n", "Deal\n", 7),
    ("result *", "Result *", 22)])
def test_a_keyword_in_capitals_is_one_error_that_says_so(old: str, new: str,
                                                         line: int) -> None:
    # "an error in the opening of a hand is the only one reported for that hand":
    # a capital H used to make every later line of the record an error of its own
    text = record("belote-coinche")
    [err] = problems(text.replace(old, new))
    assert (err.code, err.line, err.column, err.token) == ("N110", line, 1, new.split()[0])
    assert f"the keyword is written {new.split()[0].lower()!r}, in lower case" in err.message


@pytest.mark.parametrize("name", ["sixty-six", "sixty-six-3"])
def test_a_draw_left_out_is_named_at_the_next_action(name: str) -> None:
    # sixty-six ends in a claim with a card of its stock unknown (the deal search:
    # N135); sixty-six-3's deal is known (N141); either way the message says the draw
    doc = " ".join(NOTATION.read_text().split())
    assert "at each draw he might have closed instead (``1. B:9H A:TH A:draw``)" in doc
    text = re.sub(r" [ABC]:draw", "", record(name))
    first = problems(text)[0]
    assert first.code == ("N135" if name == "sixty-six" else "N141")
    assert (first.line, first.seat, first.trick) == (12 if name == "sixty-six" else 13, "A", 1)
    assert first.message.endswith("; A may now only claim, close, draw")


def test_french_suit_words_are_read_where_an_action_names_a_suit() -> None:
    # belote-contree.mrg bids 'bid:100:trefle' and 'bid:110:pique', as a French club writes
    doc = " ".join(NOTATION.read_text().split())
    assert "the French ``coeur`` (or ``cœur``) ``carreau trefle`` (or ``trèfle``) ``pique``" \
        in doc
    text = record("belote-contree")
    assert "W:bid:100:trefle S:bid:110:pique" in text
    coinche = record("belote-coinche")
    for word in ("coeur", "cœur"):
        assert problems(coinche.replace("S:bid:80:H", f"S:bid:80:{word}")) == []
    # diamonds are read as trumps: the bid stands, trick 1 is then won by N, not S
    err = problems(coinche.replace("S:bid:80:H", "S:bid:80:carreau"))[0]
    assert (err.code, err.line, err.token) == ("N150", 13, "(won S)")


def test_a_dealer_line_where_the_rules_have_no_dealer_says_so() -> None:
    # mariazza.mrg: a record of hand 4 only, cut after two tricks (result *)
    text = record("mariazza")
    errs = problems(text.replace("first: A", "dealer: B"))
    assert [(e.code, e.line) for e in errs] == [("N133", 8), ("N125", 8)]
    assert errs[1].message == "mariazza has no dealer: no 'dealer:' line"  # was "... is -"


def test_replay_writes_a_negative_hand_score_with_its_own_sign(capsys: pytest.CaptureFixture[str]
                                                              ) -> None:
    from mariage.cli import main

    # thousand-hand24.mrg starts from the docs' example: A on the barrel, C's third bolt
    assert main(["replay", str(DATA / "thousand-hand24.mrg")]) == 0
    out = capsys.readouterr().out
    assert "scored A +0, B +100, C -120" in out  # was "C +-120"


def test_every_way_a_hand_ends_is_listed_under_ended() -> None:
    # the hands' endings the engine names (end_hand(st, "...")), each in the docs' row
    engine = Path(__file__).parent.parent / "reference" / "mariage" / "engine"
    named = {m for p in engine.rglob("*.py")
             for m in re.findall(r"end_hand\(st, \"([a-z_]+)\"", p.read_text())}
    assert {"played_out", "void", "claim", "redeal"} <= named
    doc = NOTATION.read_text()
    row = doc.split("   * - ``(ended REASON)``", 1)[1].split("   * - ", 1)[0]
    assert {w for w in named if f"``{w}``" not in row} == set()
    assert "(ended void)" in record("belote")
