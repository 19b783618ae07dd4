"""Bad records: each bad input gets its stable error code, a location and no traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from mariage.cli import main
from mariage.notation.batch import validate_stream
from mariage.notation.errors import CODES, NotationError
from mariage.notation.reader import parse_record, read_records

DATA = Path(__file__).parent / "data" / "records"

#: Every bad file, the code of its first problem, and the line it is reported at.
BAD_FILES: dict[str, tuple[str, int]] = {
    "truncated-mid-hand.mrg": ("N161", 40),
    "truncated-in-tag.mrg": ("N111", 2),
    "truncated-in-comment.mrg": ("N111", 10),
    "latin1.mrg": ("N100", 8),
    "utf16.mrg": ("N100", 1),
    "unknown-card.mrg": ("N130", 12),
    "duplicate-card.mrg": ("N131", 13),
    "turnup-dealt-twice.mrg": ("N131", 15),  # the dealer's last card, also in W's hand
    "fourteen-card-hand.mrg": ("N132", 12),
    "short-stock.mrg": ("N132", 16),
    "out-of-turn.mrg": ("N142", 17),
    "unknown-action.mrg": ("N140", 17),
    "unknown-seat.mrg": ("N124", 17),
    "card-not-in-hand.mrg": ("N141", 17),
    "must-follow.mrg": ("N141", 18),
    "wrong-trick-number.mrg": ("N145", 18),
    "unknown-ruleset.mrg": ("N122", 2),
    "unknown-option.mrg": ("N123", 3),
    "bad-option-value.mrg": ("N123", 3),
    "bad-version.mrg": ("N121", 1),
    "missing-dealer.mrg": ("N125", 1),
    "wrong-points.mrg": ("N152", 27),
    "wrong-match-score.mrg": ("N153", 27),
    "wrong-trick-winner.mrg": ("N150", 17),
    "unknown-annotation.mrg": ("N155", 17),
    "wrong-trump.mrg": ("N151", 21),
    "wrong-hand-result.mrg": ("N154", 27),
    "wrong-match-result.mrg": ("N160", 140),
    "no-result.mrg": ("N160", 138),  # after the last token, where the result belongs
    "huge-line.mrg": ("N101", 8),
    "text-before-record.mrg": ("N103", 1),
    "empty.mrg": ("N104", 1),
    "hand-numbers.mrg": ("N134", 29),
    "hand-stops-early.mrg": ("N146", 28),
    "action-after-hand-end.mrg": ("N143", 21),
    "action-after-match-end.mrg": ("N144", 97),
    "hand-after-match-end.mrg": ("N162", 98),
    "syntax-error.mrg": ("N110", 11),
    "stopped-then-bad-deal.mrg": ("N141", 18),  # hand 2 deals 6D twice (line 31)
}

#: Rule IDs the engine names for the broken rule.
RULE_IDS = {
    "out-of-turn.mrg": "core.turn",
    "card-not-in-hand.mrg": "core.hand",
    "must-follow.mrg": "mariglia.play.follow",
    "action-after-match-end.mrg": "core.over",
}


def _first_error(name: str, strict: bool = True) -> object:
    path = DATA / "bad" / name
    with open(path, "rb") as f:
        summary = validate_stream(f, str(path), strict=strict)
    assert summary.errors, f"{name} should be invalid"
    return summary.errors[0]


def test_every_bad_file_is_in_the_table() -> None:
    on_disk = {p.name for p in (DATA / "bad").glob("*.mrg")}
    assert on_disk == set(BAD_FILES)


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_gets_its_code_and_line(name: str) -> None:
    code, line = BAD_FILES[name]
    err = _first_error(name)
    assert err.code == code, str(err)  # type: ignore[attr-defined]
    assert err.line == line, str(err)  # type: ignore[attr-defined]
    assert err.file.endswith(name)  # type: ignore[attr-defined]
    assert code in CODES
    if name in RULE_IDS:
        assert err.rule_id == RULE_IDS[name]  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_file_fails_the_command_without_traceback(name: str,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    code, _ = BAD_FILES[name]
    assert main(["validate", str(DATA / "bad" / name)]) == 1
    out = capsys.readouterr()
    assert code in out.out and "Traceback" not in out.out + out.err


def test_hands_after_a_stopped_replay_are_laid_out_with_their_own_dealer(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Once hand 1 stops the replay, the later hands (all good) are still read, with the
    dealer each one writes: with the stopped replay's dealer, eight of them were said to
    turn up a card that is not the dealer's."""
    assert main(["validate", str(DATA / "bad" / "turnup-dealt-twice.mrg")]) == 1
    out = capsys.readouterr().out
    assert "1 records, 0 valid, 1 invalid, 1 problems" in out, out


def test_a_partial_deal_turning_up_another_seats_card_is_reported_not_searched() -> None:
    """The dealer's last card turned up (Sixty-six for four) but written in another hand,
    with cards hidden: the deal search once got the card twice and failed inside
    (``zip() argument 2 is shorter``)."""
    from dataclasses import replace

    from mariage.notation.model import Deal, DealPart
    from mariage.notation.replay import check_record
    from notationkit import recorded_match

    record = recorded_match("sixty-six-4", {}, 3, 4)
    hand = record.hands[0]
    parts = {p.label: p for p in hand.deal.parts}
    dealer = parts["dealer"].cards[0]
    other = next(s for s in ("N", "E", "S", "W") if s != dealer)
    shown = parts[other].cards[0]
    new = [DealPart(p.label, tuple("??" if p.label in ("N", "E", "S", "W") and i else c
                                   for i, c in enumerate(p.cards)))
           if p.label not in ("turnup", "dealer") else
           DealPart("turnup", (shown,)) if p.label == "turnup" else p
           for p in hand.deal.parts]
    partial = replace(record, hands=(replace(hand, deal=Deal(tuple(new))),
                                     *record.hands[1:]))
    errors = check_record(partial).errors
    assert [e.code for e in errors][:1] == ["N131"], errors


def test_good_files_validate(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (DATA / "good").glob("*.mrg"))
    assert len(files) >= 8
    assert main(["validate", *files]) == 0
    assert main(["validate", "--format", "json", "--strict", *files]) == 0
    report = json.loads(capsys.readouterr().out.split("\n", len(files))[-1])
    assert report["ok"] and all(f["valid"] == 1 for f in report["files"])


#: Bad inputs given as strings (after the header of a Marianna record).
HEAD = '[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "E"]\n'
BAD_STRINGS = [
    (HEAD + "hand 1\ndeal N: AH 3H KH QH ZZ\n", "N130"),
    (HEAD + '[Ruleset "marianna"]\n', "N120"),
    ('[Mariage "1"]\n', "N120"),
    (HEAD + '[Seat "X" "Ann"]\n', "N124"),
    (HEAD + "hand 1\ndeal deck: AH\n", "N132"),
    (HEAD + "hand 1\ndeal N: AH\nmoon: 2S\n", "N133"),
    (HEAD + "result NS\n", "N161"),
    (HEAD + "hand 1\n", "N111"),
    ('[Mariage "1"]\n[Ruleset "mariazza"]\n[Dealer "A"]\n', "N125"),
    (HEAD + "hand 1\ndeal " + "N: ?? ?? ?? ?? ??\nW: ?? ?? ?? ?? ??\nS: ?? ?? ?? ?? ??\n"
     "E: ?? ?? ?? ?? ??\nstock:" + " ??" * 20 + "\nturnup: 7S\n", "N133"),
]


@pytest.mark.parametrize(("text", "code"), BAD_STRINGS)
def test_bad_string_gets_its_code(text: str, code: str) -> None:
    summary = validate_stream(io.BytesIO(text.encode()), "s")
    assert summary.errors and summary.errors[0].code == code, summary.errors


def test_strict_reader_raises_with_the_error() -> None:
    with pytest.raises(NotationError) as info, open(DATA / "bad" / "latin1.mrg", "rb") as f:
        list(read_records(f, "latin1.mrg"))
    assert info.value.error.code == "N100"


def test_lenient_collects_every_problem_strict_stops_at_the_first() -> None:
    text = (DATA / "good" / "marianna.mrg").read_text()
    text = text.replace("(won ", "(won? ", 3)
    text = text.replace("\nN: ", "\nN: XX ", 1)
    lenient = validate_stream(io.BytesIO(text.encode()), "m", strict=False)
    strict = validate_stream(io.BytesIO(text.encode()), "m", strict=True)
    assert len(strict.errors) == 1
    codes = [e.code for e in lenient.errors]
    assert codes.count("N130") == 1 and codes.count("N132") == 1
    assert len(lenient.errors) > len(strict.errors)


def test_lenient_never_invents_an_action() -> None:
    text = (DATA / "bad" / "out-of-turn.mrg").read_text()
    rec = parse_record(text)
    from mariage.notation.replay import check_record

    out = check_record(rec, strict=False)
    assert out.errors[0].code == "N142"
    assert out.actions == 0  # nothing after the refused action was applied
    assert all(e.code != "N161" for e in out.errors)


def test_records_after_a_bad_one_are_still_checked() -> None:
    good = (DATA / "good" / "mariglia.mrg").read_text()
    bad = (DATA / "bad" / "unknown-card.mrg").read_text()
    summary = validate_stream(io.BytesIO((good + bad + good).encode()), "three")
    assert (summary.records, summary.valid) == (3, 2)
    assert summary.errors[0].record == 2


def test_every_code_is_documented() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "notation.rst").read_text()
    for code, meaning in CODES.items():
        assert code in doc, code
        assert meaning


def test_lenient_reports_every_syntax_error_of_a_record() -> None:
    lines = (DATA / "good" / "marianna.mrg").read_text().split("\n")
    moves = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    first, second = moves[1], moves[-2]
    lines[first] = "%%% " + lines[first]
    lines[second] = lines[second] + " !!!"
    text = "\n".join(lines)
    lenient = validate_stream(io.BytesIO(text.encode()), "m", strict=False)
    strict = validate_stream(io.BytesIO(text.encode()), "m", strict=True)
    assert [(e.code, e.line) for e in strict.errors] == [("N110", first + 1)]
    assert [(e.code, e.line) for e in lenient.errors] == [("N110", first + 1),
                                                          ("N110", second + 1)]
    assert lenient.valid == 0


# ------------------------------------------------- tokens quoted as the record wrote them
def _italian(text: str) -> str:
    """A record with every card of its deal and play written in Italian."""
    import re

    from mariage.notation.cards import italian_card

    return re.sub(r"(?<![\w\"])([AKQJ2-7][HDCS])\b", lambda m: italian_card(m.group(1)), text)


@pytest.mark.parametrize(("name", "code"), [("must-follow.mrg", "N141"),
                                            ("duplicate-card.mrg", "N131")])
def test_an_error_quotes_the_card_as_the_record_wrote_it(name: str, code: str) -> None:
    from mariage.notation.cards import french_card

    text = _italian((DATA / "bad" / name).read_text(encoding="utf-8"))
    summary = validate_stream(io.BytesIO(text.encode()), name, strict=True)
    err = summary.errors[0]
    assert err.code == code  # type: ignore[attr-defined]
    token = err.token  # type: ignore[attr-defined]
    card = token.split(":")[-1]
    assert card not in ("", token.upper()) and french_card(card) != card, token
    assert token in text.splitlines()[err.line - 1]  # type: ignore[attr-defined]
