"""The twenty-ninth session's hostile sweep: a description text holding a control
character or half of a UTF-16 pair by an escape (``name: "\\e[31m"`` was printed raw by
``rules``; ``"\\ud800"`` passed ``check-spec``, then ``rules`` blamed the terminal's
encoding); a test file's step field given as null (a traceback from the runner); an
empty file name (``: No such file or directory``, or ``--suite ''`` ran the bundled
suite)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostilekit import forget_house, run_cli
from mariage.conformance.suite import SuiteError, parse_test

SUITE = Path(__file__).resolve().parents[1] / "conformance" / "tests"
HOUSE = "ruleset: house\nextends: mariazza\nname: {}\n"


@pytest.mark.usefixtures(forget_house.__name__)
@pytest.mark.parametrize(("written", "named"), [
    (r'"Mari\e[31manna"', "U+001B, a control character"),
    (r'"a\x00b"', "U+0000, a control character"),
    (r'"a\x85b"', "U+0085, a control character"),
    (r'"\ud800"', "U+D800, half of a UTF-16 pair alone")])
def test_a_description_text_with_an_unprintable_escape_is_refused_where_it_is(
        written: str, named: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "house.yaml"
    spec.write_text(HOUSE.format(written), encoding="utf-8")
    for argv in (["check-spec", str(spec)], ["rules", "--spec", str(spec), "house"]):
        code, out, err = run_cli(argv, capsys)
        assert code in (1, 2) and "house.yaml:3:7: the text " in out + err, out + err
        assert f"holds {named}, written with an escape" in out + err, out + err
        assert "[S002]" in out + err and "\x1b" not in out + err, out + err


@pytest.mark.usefixtures(forget_house.__name__)
def test_a_description_keeps_its_line_feeds_and_tabs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "house.yaml"
    spec.write_text(HOUSE.format(r'"Mari\tanna\nfor two"'), encoding="utf-8")
    code, out, err = run_cli(["check-spec", str(spec)], capsys)
    assert code == 0, out + err


@pytest.mark.parametrize("field", ["act", "state", "legal", "seat", "rules", "deal"])
def test_a_step_field_given_as_null_is_refused_as_the_file_is_read(field: str) -> None:
    """The runner acts on a step key given (``"state": null`` was compared as a state:
    ``'NoneType' object is not iterable``; ``"act": null`` reached ``parse_action``)."""
    text = (SUITE / "marianna" / "core" / "hand.test").read_text(encoding="utf-8")
    text = text.replace('- {"act": "QD", ', f'- {{"{field}": null, "act": "QD", ', 1)
    if field == "act":
        text = text.replace('{"act": null, "act": "QD", ', '{"act": null, ', 1)
    with pytest.raises(SuiteError, match=rf"^t\.test: step 1: '{field}' must be .*, not null$"):
        parse_test(text, "t.test")


@pytest.mark.parametrize("argv", [
    ["validate", ""], ["replay", ""], ["stats", ""], ["view", "-s", "N", ""],
    ["render", "--html", "x.html", ""], ["conformance", "--suite", ""],
    ["conformance", "--expect", ""]])
def test_an_empty_file_name_is_refused_as_such(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli(argv, capsys)
    assert code == 2 and "the name is empty (an unset shell variable?)" in err, err


# ---------------------------------------------- the library's calls given the wrong type

def test_observe_of_what_is_no_state_is_a_type_error() -> None:
    from mariage import observe

    with pytest.raises(TypeError, match=r"^observe: the state is a GameState, not str$"):
        observe("marianna", 0)  # type: ignore[arg-type]


def test_a_view_for_a_seat_number_is_a_type_error() -> None:
    from mariage.notation import parse_record, view

    text = (SUITE / "marianna" / "core" / "hand.test").read_text(encoding="utf-8")
    record = parse_record(text[text.index("[Mariage"):])
    with pytest.raises(TypeError, match=r"^view: a seat is its name in the record .*not int$"):
        view(record, 0)  # type: ignore[arg-type]


def test_list_rulesets_reads_a_folder_given_as_text(tmp_path: Path) -> None:
    from mariage import list_rulesets

    (tmp_path / "house.yaml").write_text("ruleset: house\n", encoding="utf-8")
    assert list_rulesets(str(tmp_path)) == ["house"]
    with pytest.raises(TypeError):
        list_rulesets(5)  # type: ignore[arg-type]


def test_write_suite_into_a_folder_that_holds_tests_is_refused_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It wrote into them: ``--write-suite conformance`` replaced bundled tests, and a
    second configuration written into one folder was run with the first's tests (the
    bundled folder is checked by ``check_suite_folder``'s doctest, never written here)."""
    (tmp_path / "tests" / "mariazza").mkdir(parents=True)
    (tmp_path / "tests" / "mariazza" / "old.test").write_text("---\n", encoding="utf-8")
    code, _out, err = run_cli(["conformance", "--ruleset", "mariazza", "-o", "exchange=false",
                               "--write-suite", str(tmp_path)], capsys)
    assert code == 2 and "tests already holds 1 test files" in err, err
    assert "new or empty folder" in err, err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["mariazza", "old.test", "tests"]


@pytest.mark.parametrize("name", ["x" * 5000 + ".yaml", "/" + "d" * 300 + "/h.yaml"])
def test_a_ruleset_file_name_the_system_cannot_look_up_is_unsupported(name: str) -> None:
    """``mariage engine --ruleset-files``: it was an ``internal_error`` (``OSError: File
    name too long``), which the protocol keeps for the engine's own faults."""
    from mariage.conformance.engine import ReferenceEngine

    reply = ReferenceEngine(ruleset_files=True).handle(
        {"type": "start", "ruleset": name, "options": {}, "dealer": 0, "deck": []})
    assert reply["type"] == "error" and reply["code"] == "unsupported", reply
    assert reply["message"].endswith("': File name too long"), reply


def test_stale_expectations_past_a_hundred_are_counted_not_listed() -> None:
    """An ``--expect`` file of another suite (200,000 IDs) printed a line for each."""
    from mariage.conformance.reports import MAX_STALE_SHOWN, summary_text
    from mariage.conformance.results import RunResult

    stale = [f"mariazza/core/t{i}" for i in range(MAX_STALE_SHOWN + 250)]
    text = summary_text(RunResult([], None, 0.0, 0, 0, stale=stale))
    assert text.count("STALE expected failure:") == MAX_STALE_SHOWN == 100, text
    assert "... and 250 more stale expected failures not shown (--json lists them all)" in text


@pytest.mark.parametrize(("bot", "code"), [(5, "bad_request"), ([], "bad_request"),
                                           ("nosuch", "unsupported"), (None, "choose")])
def test_choose_names_a_bot_of_the_wrong_type_a_bad_request(bot: object, code: str) -> None:
    """``"bot": 5`` was ``unsupported``, "no bot '5'", as if it were an unknown name, and
    ``"bot": null`` "no bot 'None'" (absent or null is the default, as for a seat)."""
    from mariage import load_rules
    from mariage.conformance.engine import ReferenceEngine
    from mariage.engine.deals import canonical_deck

    rules = load_rules("marianna")
    engine = ReferenceEngine()
    deck = [rules.card_code[c] for c in canonical_deck(rules)]
    assert engine.handle({"type": "start", "ruleset": "marianna", "options": {},
                          "dealer": 0, "deck": deck}) == {"type": "ok"}
    reply = engine.handle({"type": "choose", "budget_ms": 50, "bot": bot})
    assert reply.get("code", reply["type"]) == code, reply
