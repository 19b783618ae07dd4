"""The twenty-eighth session's hostile sweep of conformance test files (``conformance
--suite DIR``): a key given twice in the front matter or in a step written as JSON was
read as its last value without a word (``depth: 30`` then ``depth: 3`` ran depth 3); a
test file saved as UTF-16 was ``not UTF-8 text (byte 0)`` or had no ``---`` line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mariage.conformance.suite import SuiteError, load_suite, parse_test

SUITE = Path(__file__).resolve().parents[1] / "conformance" / "tests" / "schnapsen"
PERFT = SUITE / "perft" / "beaten_closer_score-flat2.test"
GOLDEN = SUITE / "golden" / "beaten_closer_score-flat2.test"


def test_a_key_given_twice_in_the_front_matter_is_refused_where_it_is() -> None:
    text = PERFT.read_text(encoding="utf-8").replace("\ndepth: 3\n", "\ndepth: 30\ndepth: 3\n")
    with pytest.raises(SuiteError, match=r"^t\.test:12:1: the front matter is not valid "
                                         r"YAML: the key 'depth' is given twice$"):
        parse_test(text, "t.test")


def test_a_name_given_twice_in_a_json_step_is_refused_where_it_is() -> None:
    text = GOLDEN.read_text(encoding="utf-8")
    text, n = re.subn(r'^- \{"act": ', '- {"act": "ZZ", "act": ', text, count=1, flags=re.M)
    line = text[:text.index('"ZZ"')].count("\n") + 1
    assert n == 1
    with pytest.raises(SuiteError, match=rf"^t\.test:{line}:17: the front matter is not valid"
                                         r" YAML: the key 'act' is given twice$"):
        parse_test(text, "t.test")


def test_the_bundled_tests_repeat_no_key() -> None:
    """(what the check must let by: a name repeated in nested objects of one step)"""
    assert parse_test(GOLDEN.read_text(encoding="utf-8"), "t.test").steps


@pytest.mark.parametrize(("encoding", "what"), [
    ("utf-16", "UTF-16 text (little-endian, with a byte-order mark)"),
    ("utf-16-le", "UTF-16 text (little-endian, without a byte-order mark)")])
def test_a_test_file_in_utf16_says_so(encoding: str, what: str, tmp_path: Path) -> None:
    folder = tmp_path / "tests" / "schnapsen" / "perft"
    folder.mkdir(parents=True)
    (folder / "t.test").write_bytes(PERFT.read_text(encoding="utf-8").encode(encoding))
    with pytest.raises(SuiteError, match=re.escape(
            f"schnapsen/perft/t.test:1:1: the file is {what}: it must be UTF-8 text")):
        load_suite(tmp_path / "tests")


def test_a_stale_expectation_with_a_look_alike_names_it() -> None:
    """``--expect`` listing ``claim_mode‐auto`` (U+2010 HYPHEN, copied from a page) was
    only 'no such test in the suite', though it looks like one that is."""
    from mariage.conformance.reports import summary_text
    from mariage.conformance.results import RunResult

    stale = ["schnapsen/perft/claim_mode\u2010auto"]
    text = summary_text(RunResult([], None, 0.0, 0, 0, stale=stale))
    assert "(no such test in the suite; it has U+2010 HYPHEN, not an ASCII character)" \
        in text, text
