"""Hostile inputs of the eighteenth session, found by fuzzing (mutated records, test files,
descriptions; an engine whose answers are mangled): each case failed (a traceback, an
unlocated message, a valid file refused for a false reason) before its fix."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostilekit import deadline, forget_house, run_cli
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.protocol import sorted_card_sets
from mariage.conformance.runner import run_test
from mariage.conformance.suite import SuiteError, load_suite, parse_test, safe_yaml

SUITE = Path(__file__).resolve().parent.parent / "conformance" / "tests"
HAND = (SUITE / "marianna" / "core" / "hand.test").read_text(encoding="utf-8")
STEP1 = '- {"act": "QD", "error": {"code": "illegal_action", "rule": "core.hand"}}\n'
STEP2 = '- {"act": "2S", "error": {"code": "illegal_action", "rule": "core.hand"}}\n'

_run = run_cli
pytestmark = pytest.mark.usefixtures(forget_house.__name__)


def _run_test(test: Any, engine: ReferenceEngine | None = None) -> Any:
    """The outcome of ``test`` against ``engine`` (the reference) served in this process."""
    served = engine or ReferenceEngine()
    client = EngineClient(lambda: ThreadTransport(served), timeout=5)
    try:
        with deadline(30):
            return run_test(client, test, test_timeout=20)
    finally:
        client.close()


def _suite(tmp_path: Path, text: str) -> Path:
    """A suite folder of one test file holding ``text``."""
    folder = tmp_path / "suite"
    (folder / "tests" / "marianna").mkdir(parents=True)
    (folder / "tests" / "marianna" / "hand.test").write_bytes(text.encode("utf-8"))
    return folder


# ------------------------------------------- an engine's cards of another type than text

class _Mangling(ReferenceEngine):
    """The reference engine, but a number in place of seat 0's first card in every
    ``state`` answer (an engine that writes a card as an integer)."""

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        reply = super().handle(msg)
        hands = reply.get("hands") if reply.get("type") == "state" else None
        if hands and hands[0]:
            reply = {**reply, "hands": [[5, *hands[0][1:]], *hands[1:]]}
        return reply


def test_an_engines_hand_holding_a_number_fails_the_test_saying_so() -> None:
    # was: TypeError "'<' not supported between instances of 'str' and 'int'" out of
    # `mariage conformance` (a traceback): the hands were sorted as they came
    hands = [["5H", "6D", "3C", "3S", "7S"], ["7C", "6C", "5C", "4C"],
             ["KD", "QD", "6S", "5S", "2S"], ["7H", "5D", "KC", "QC", "2C"]]
    step = json.dumps({"act": "AH", "state": {"hands": hands}})
    test = parse_test(HAND.replace(STEP2, f"{STEP2}- {step}\n"), "hand.test")
    out = _run_test(test, _Mangling())
    assert out.status == "fail"
    assert "step 3" in out.message and "hands: expected" in out.message
    assert "'7S', 5]" in out.message  # the engine's number is shown as it came


@pytest.mark.parametrize("hand", [[5, "AH"], ["AH", None, [1]], [{"x": 1}, "KH", 2.5]])
def test_card_sets_of_mixed_values_sort_without_comparing_types(hand: list[Any]) -> None:
    out = sorted_card_sets({"hands": [hand, ["KH", "AH"]], "takers": {"shown": [hand]}})
    assert out["hands"][1] == ["AH", "KH"]  # codes sorted as before
    assert sorted(map(repr, out["hands"][0])) == sorted(map(repr, hand))
    assert out["takers"]["shown"][0] == out["hands"][0]


# ------------------------------------------------- test files: what YAML reads, as YAML

def test_steps_written_in_block_style_are_read_as_yaml() -> None:
    # was: "hand.test:11:1: the front matter is not valid YAML" (exit 2), at a line of
    # valid YAML: the JSON fast path left the block steps after the other keys
    block = "- act: QD\n  error: {code: illegal_action, rule: core.hand}\n"
    for text in (HAND.replace(STEP1, block), HAND.replace(STEP2, block.replace("QD", "2S"))):
        test = parse_test(text, "hand.test")
        assert [s["act"] for s in test.steps] == ["QD", "2S"]
        assert test.steps[0]["error"] == {"code": "illegal_action", "rule": "core.hand"}
    assert _run_test(test).status == "pass"


@pytest.mark.parametrize("ending", ["\r\n", "bom", "both"])
def test_a_test_file_with_crlf_line_ends_or_a_bom_is_read(ending: str, tmp_path: Path) -> None:
    # was: "hand.test:1:1: a test file starts with a '---' line" (exit 2) for a file that
    # does (a checkout on Windows); an expectations file already took a BOM
    text = HAND.replace("\n", "\r\n") if ending != "bom" else HAND
    text = "\ufeff" + text if ending != "\r\n" else text
    assert parse_test(text, "hand.test") == parse_test(HAND, "hand.test")
    suite = _suite(tmp_path, text)  # read as the runner reads it
    assert [t.steps for t in load_suite(suite / "tests")] == [parse_test(HAND, "h").steps]


@pytest.mark.parametrize(("old", "new", "at"), [
    (STEP1, '- {"act": "QD", "seat": ' + "9" * 5000 + "}\n", ":12:25:"),
    ("features: []", "features: []\ndepth: " + "9" * 5000, ":9:8:"),
    ("options: {}", "options: {target: -" + "9" * 4400 + "}", ":7:19:"),
])
def test_a_number_too_long_to_convert_is_located(old: str, new: str, at: str,
                                                 tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # was: "mariage: error: Exceeds the limit (4300 digits) for integer string
    # conversion...; use sys.set_int_max_str_digits()" (no file, no place)
    text = HAND.replace(old, new)
    with pytest.raises(SuiteError, match="the front matter is not valid YAML: a number of"):
        parse_test(text, "hand.test")
    code, _, err = _run(["conformance", "--suite", str(_suite(tmp_path, text)),
                         "--no-progress"], capsys)
    assert code == 2
    assert err.startswith(f"mariage: error: marianna/hand.test{at} ") and "too long" in err
    assert "set_int_max_str_digits" not in err and len(err.splitlines()) == 1


def test_a_date_in_a_test_file_stays_text() -> None:
    # was: a datetime.date, and "TypeError: Object of type date is not JSON serializable"
    # (a traceback) when the runner sent the options
    assert safe_yaml("target: 2001-12-14") == {"target": "2001-12-14"}
    test = parse_test(HAND.replace("options: {}", "options: {target: 2001-12-14}"), "h")
    assert test.options == {"target": "2001-12-14"}
    json.dumps(test.options)


@pytest.mark.parametrize(("value", "tag"), [("!!binary aGVsbG8=", "!!binary"),
                                            ("!!set {a, b}", "!!set"),
                                            ("!!timestamp 2001-12-14", "!!timestamp"),
                                            ("!!omap [a: 1]", "!!omap")])
def test_a_tag_of_no_json_value_is_refused_at_its_place(value: str, tag: str) -> None:
    # was: bytes, a set or a date in the test (refused later as "'options' must be a
    # mapping", or a traceback when sent)
    with pytest.raises(SuiteError, match=f"hand.test:7:19: .*tag '{tag}' is not allowed"):
        parse_test(HAND.replace("options: {}", f"options: {{target: {value}}}"), "hand.test")


def test_half_a_utf16_pair_in_a_step_is_refused_naming_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: "mariage: error: 'utf-8' codec can't encode character '\ud800' in position
    # 42: surrogates not allowed" when the step was sent (no file, no step)
    text = HAND.replace(STEP1, '- {"act": "\\ud800"}\n')
    code, _, err = _run(["conformance", "--suite", str(_suite(tmp_path, text)),
                         "--no-progress"], capsys)
    assert code == 2
    assert err.startswith("mariage: error: marianna/hand.test: ") and "UTF-16" in err
    # a whole pair is one character, and still read
    pair = parse_test(HAND.replace(STEP1, '- {"act": "\\ud83d\\ude00"}\n'), "h")
    assert pair.steps[0]["act"] == "\U0001f600"


@pytest.mark.parametrize(("extra", "why"), [
    ("kind: perft\ndepth: 3", "lacks 'counts'"),
    ("kind: perft\ncounts: [5]", "lacks 'depth'"),
    ("kind: perft\ndepth: 3\ncounts: [5]", "one count for each length 1..3, got 1"),
    ("kind: perft\ndepth: 1\ncounts: [5, 30]", "one count for each length 1..1, got 2"),
])
def test_a_perft_test_needs_one_count_per_depth(extra: str, why: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # was: IndexError out of the runner (a traceback) once the counts ran out
    text = HAND.replace("kind: scenario", extra)
    code, _, err = _run(["conformance", "--suite", str(_suite(tmp_path, text)),
                         "--no-progress"], capsys)
    assert code == 2 and why in err and err.startswith("mariage: error: marianna/hand.test")


def test_a_perft_test_of_depth_0_counts_nothing() -> None:
    # was: IndexError (a traceback): the walk counted length 1 into a list of none
    test = parse_test(HAND.replace("kind: scenario", "kind: perft\ndepth: 0\ncounts: []"),
                      "hand.test")
    assert _run_test(test).status == "pass"


# ------------------------------------------------------------------ records drawn

BAD = Path(__file__).resolve().parent / "data" / "records" / "bad"


@pytest.mark.parametrize("kind", ["--svg", "--html"])
def test_render_of_a_file_with_text_before_its_record_exits_1(
        kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: exit 0 for --svg (the N103 line on standard error, and a verdict of success),
    # where --html and validate exit 1
    out = tmp_path / "o.out"
    extra = ["--hand", "1"] if kind == "--svg" else []
    code, stdout, err = _run(["render", kind, str(out), *extra,
                              str(BAD / "text-before-record.mrg")], capsys)
    assert code == 1 and out.exists() and stdout.strip() == str(out)
    assert " N103 " in err.splitlines()[0]


# ------------------------------------------- a description named like the one it extends

@pytest.fixture
def forget_marianna() -> Any:
    """Forget the ``--spec`` file a test made known as ``marianna`` in this process."""
    from mariage.spec.specload import unregister_spec

    yield
    unregister_spec("marianna")


def test_a_spec_named_like_the_ruleset_it_extends_reads_its_own_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], forget_marianna: None) -> None:
    # was: `play FILE` played it and wrote `[Ruleset "marianna"]`, but `validate --spec
    # FILE` (and `rules --spec FILE NAME`) refused the file: "'extends' makes a cycle:
    # house.yaml -> house.yaml", the name now standing for the file itself
    text = (Path(__file__).resolve().parent.parent / "spec" / "marianna-2.yaml").read_text(
        encoding="utf-8").replace("ruleset: marianna-2", "ruleset: marianna")
    house = tmp_path / "house.yaml"
    house.write_text(text, encoding="utf-8")
    record = tmp_path / "g.mrg"
    assert _run(["play", str(house), "-q", "--seed", "2", "-o", "target=1", "--out",
                 str(record)], capsys)[0] == 0
    code, out, err = _run(["validate", "--spec", str(house), str(record)], capsys)
    assert code == 0 and " ok: 1 records, 1 valid" in out, out + err
    code, out, _ = _run(["rules", "--spec", str(house), "marianna"], capsys)
    assert code == 0 and out.startswith("Marianna for two")
    own = tmp_path / "own" / "marianna.yaml"  # NAME.yaml of its own folder: itself
    own.parent.mkdir()
    own.write_text(text, encoding="utf-8")
    assert _run(["check-spec", str(own)], capsys)[0] == 0


def test_a_spec_that_extends_its_own_name_alone_is_still_a_cycle(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("format: 1\nextends: house\nruleset: house\nname: H\nversion: 1\n",
                     encoding="utf-8")
    code, _, err = _run(["check-spec", str(house)], capsys)
    assert code == 1 and "house.yaml:2:10: " in err and "makes a cycle" in err
