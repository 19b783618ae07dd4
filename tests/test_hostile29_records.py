"""The twenty-ninth session's hostile sweep of records: a tag line the lexer could not
read was only ``unexpected text '[Seed'``; it now says where and why its shape breaks
(a value not in double quotes, a backslash escape other than ``\\"`` and ``\\\\``, a
value or the tag not closed on its line, an odd character in the name)."""

from __future__ import annotations

import pytest
from mariage.notation import check_text

HEAD = '[Mariage "1"]\n[Ruleset "marianna"]\n{}\n[Dealer "W"]\n'


@pytest.mark.parametrize(("tag", "why"), [
    ('[Seed 1]', "; column 7: a tag's values are in double quotes, a blank before each"),
    ('[Seat "N" "x""y"]', "; column 14: a tag's values are in double quotes"),
    ('[Event "caf\\u00e9"]', "; column 12: in a tag's value a backslash escapes only"),
    ('[Seed "1\\"]', '; column 7: the value is not closed on its line (\\" is a quote'),
    ('[Seat "N" "x" "y" ', "; column 19: the tag is not closed with ']' on its line"),
    ('[Se.ed "1"]', "; column 4: '.' is no part of a tag's name (letters, digits, ?_+-)"),
    ('[ ]', "; column 3: a tag starts with its name")])
def test_a_tag_that_is_no_tag_says_why(tag: str, why: str) -> None:
    problems = check_text(HEAD.format(tag), file="t.mrg").errors
    assert problems and str(problems[0]).startswith("t.mrg:3:1: N110 record 1"), problems
    assert why in str(problems[0]), problems[0]


def test_a_good_tag_beside_a_bad_one_is_not_blamed() -> None:
    problems = check_text(HEAD.format('[Event "a \\"b\\" \\\\ c"]'), file="t.mrg").errors
    assert not any("N110" in str(p) for p in problems), problems


def test_a_view_of_a_view_as_another_seat_is_refused() -> None:
    """``mariage view -s W`` of seat N's view wrote W's hand from the deal search's guess
    (cards W never held), under ``[Observer "W"]``; the view of N's view as N is N's."""
    from mariage import load_rules
    from mariage.arena.bots import make_bot
    from mariage.notation import record_match, view, write_record

    rules = load_rules("marianna")
    full = record_match(rules, seed=1, bots=[make_bot("greedy", s) for s in range(4)])
    seen = view(full, "N")
    assert write_record(view(seen, "N")) == write_record(seen)
    with pytest.raises(ValueError, match=r"^view: the record \(seat N's view\) hides cards: "
                                         r"seat W's view would show a guess of them"):
        view(seen, "W")
