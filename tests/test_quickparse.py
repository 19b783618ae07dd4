"""Records parsed without Lark (mariage.notation.quickparse) are the records Lark's parser
makes, and whatever it is not sure of goes to Lark untouched."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import lark
import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import list_rulesets
from mariage.notation import quickparse
from mariage.notation.build import Builder, lark_builder
from mariage.notation.errors import NotationError
from mariage.notation.grammar import parser
from mariage.notation.reader import parse_record
from mariage.notation.writer import write_record
from notationkit import record_texts, recorded_match

DATA = Path(__file__).parent / "data" / "records"


def _lark(text: str) -> Any:
    builder = lark_builder()
    builder.reset("r.mrg", 3, 10, None)
    try:
        return parser.__wrapped__(builder).parse(text)
    except lark.exceptions.UnexpectedInput:
        return None


def _quick(text: str) -> Any:
    builder = Builder()
    builder.reset("r.mrg", 3, 10, None)
    return quickparse.parse(text, builder)


def _agree(text: str) -> bool:
    """Whether the quick parser took ``text``; where it did, Lark makes the same record."""
    quick = _quick(text)
    if quick is not None:
        assert quick == _lark(text), text[:300]
    return quick is not None



def test_the_test_records_parse_as_lark_parses_them() -> None:
    took = [_agree(text) for text in record_texts()]
    assert sum(took) >= 20  # the good records and the bad ones whose problem is no syntax
    for path in sorted((DATA / "good").glob("*.mrg")):
        assert _quick(path.read_text(encoding="utf-8")) is not None, path.name


@pytest.mark.parametrize("name", by_family())
def test_every_rulesets_records_parse_without_lark(name: str) -> None:
    text = write_record(recorded_match(name, {}, 4, 11))
    assert _agree(text)
    respelled = text.replace("\n", "\r\n").replace(" (", "\t (").replace(
        "\nhand 1", "\n{ a header comment }\nhand 1", 1)
    assert _agree(respelled)


_PIECES = ["  ", "\t", "\n", "\r\n", "\r", "\f", "{c}", " {c} ", "\n{ a\nb }\n", "{", "}",
           "(", ")", "[", "]", '"', "*", ":", "hand ", "\nhand 9\n", "deal", "result",
           "\nresult * \n", "1.", " ?? ", "\n[Event \"x\"]\n", "\x00", "é"]


@settings(max_examples=60, deadline=None, database=None, derandomize=True)
@given(st.sampled_from(list_rulesets()), st.integers(0, 10 ** 6))
def test_changed_records_parse_as_lark_parses_them_or_go_to_lark(name: str,
                                                                 which: int) -> None:
    text = write_record(recorded_match(name, {}, 1, 8))
    pick = random.Random(which)
    for _ in range(8):
        changed = text
        for _ in range(pick.randint(1, 3)):
            k = pick.randrange(len(changed) + 1)
            cut = pick.choice((0, 0, 0, 1, 5))  # sometimes in place of a few characters
            changed = changed[:k] + pick.choice(_PIECES) + changed[k + cut:]
        _agree(changed)


def test_a_syntax_error_goes_to_lark_with_its_place_and_the_sink_sees_each_hand_once(
        ) -> None:
    text = (DATA / "good" / "marianna.mrg").read_text(encoding="utf-8")
    seen: list[int] = []
    rec = parse_record(text, sink=lambda header, hand: seen.append(hand.number))
    assert seen == list(range(1, len(seen) + 1)) and rec.hands == ()
    broken = text.replace("\nhand 3\n", "\nhand 3\nhand\n", 1)
    seen.clear()
    with pytest.raises(NotationError) as info:
        parse_record(broken, sink=lambda header, hand: seen.append(hand.number))
    assert info.value.code == "N110" and info.value.error.line is not None
    assert seen == [1, 2]  # the hands before the error, once each (from Lark's parse)


def test_a_well_formed_record_is_read_without_importing_lark() -> None:
    import subprocess
    import sys

    code = ("import sys\n"
            "from mariage.notation.reader import parse_record\n"
            f"rec = parse_record(open({str(DATA / 'good' / 'marianna.mrg')!r}).read())\n"
            "print(len(rec.hands), 'lark' in sys.modules)\n")
    # the first run may find the grammar's terminals missing from the disk cache (after a
    # change of the package: their key covers its code), which Lark compiles once; the
    # second reads them from there
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.split()
    assert int(out[0]) > 1 and out[1] == "False"
