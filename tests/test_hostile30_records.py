"""The thirtieth session's hostile sweep of records (hostile30)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from mariage.notation import check_text

DATA = Path(__file__).parent / "data" / "records30"


def test_a_view_with_an_unseen_pass_and_a_trick_left_out_is_told_not_raised() -> None:
    """B's view of a Thousand match (C's passes to A unseen: ``C:give:?``) with trick 3's
    cards left out: the deal search's look at the step before a refusal replayed the
    unseen pass as written, which the rules refuse, and the refusal escaped as
    ``mariage: error: hand 2, seat 2, action 'give:?'`` (no file, line or code; the JSON
    report half-written). The replay now passes the cards the search chose for it and
    the hand is reported where it is (N136 here, the search's limit kept low)."""
    text = (DATA / "thousand-redeal-view-B.mrg").read_text(encoding="utf-8")
    left_out = "C:QS A:TS B:9S (won A)\n"
    assert text.count(left_out) == 1
    start = time.perf_counter()
    checked = check_text(text.replace(left_out, ""), file="t.mrg", search_limit=100)
    assert time.perf_counter() - start < 5
    problems = [str(p) for p in checked.errors]
    assert problems and all(p.startswith("t.mrg:") for p in problems), problems
    assert any(":21:1: N136 record 1, hand 2" in p for p in problems), problems


def test_validate_names_the_file_a_refusal_escaped_from_and_ends_its_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A refusal that escapes the checker (as the unseen pass above did) stopped
    ``validate`` with a bare ``mariage: error: hand 2, seat 2...``: no file named, the
    JSON report half-written, the files after it unread. It now names the file, ends
    the report and reads on (exit 2)."""
    import json

    from mariage.cli import main
    from mariage.commands import validate
    from mariage.errors import IllegalActionError
    from mariage.notation.batch import validate_file as real

    good = DATA / "schnapsen.mrg"
    bad = tmp_path / "bad.mrg"
    bad.write_text(good.read_text(encoding="utf-8"), encoding="utf-8")

    def failing(name: str, **kw: object) -> object:
        if name == str(bad):
            raise IllegalActionError("core.phase", seat=2, action="give:?", reason="no")
        return real(name, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(validate, "validate_file", failing)
    assert main(["validate", "--format", "json", str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert [f["file"] for f in report["files"]] == [str(bad), str(good)]
    assert report["files"][1]["ok"] and not report["ok"]
    assert err.startswith(f"mariage: error: {bad}: could not be checked"), err


def test_the_option_hint_replays_the_hand_from_the_match_as_it_stood() -> None:
    """The option hint (``legal with option NAME = VALUE``) replayed a refused action's
    hand on a new match's state: in a later hand, or a later start, with golden hands
    on, that state's first hand is golden and refuses the auction, so the hint was
    left out. It now starts from the totals, hand number and golden hands the record
    had reached."""
    text = (DATA / "thousand-later-no-barrel.mrg").read_text(encoding="utf-8")
    hint = "(legal with option jump_bids = true; here false)"
    for extra in ('[Option "jump_bids" "false"]\n',
                  '[Option "jump_bids" "false"]\n[Option "golden_round" "fixed_120"]\n'
                  '[StartState "golden" "3"]\n[StartState "goldmade" "1"]\n'):
        problems = [str(p) for p in check_text(text.replace('[Dealer "C"]', extra
                                                             + '[Dealer "C"]')).errors]
        assert len(problems) == 1 and "N141" in problems[0], problems
        assert "hand 24, seat C, at 'C:bid:110'" in problems[0], problems
        assert hint in problems[0], problems


def test_the_options_tried_for_a_pass_are_those_that_speak_of_passing() -> None:
    """The options tried for a refused or unknown action include those whose name or
    description names its word; ``pass`` lost all its s's and named every option with
    "pa" anywhere (Belote's shuffle, direction, capot_value...; 136 options over the
    rulesets, 20 now), whose tries (six at most, each a set of rules compiled) then
    went to options that have nothing to do with it. The word is now looked for where
    a word starts, a plural's one s taken off."""
    import re

    from mariage import list_rulesets, load_rules
    from mariage.notation.optionhint import _naming

    named = {name: _naming(load_rules(name), "pass") for name in list_rulesets()}
    assert not {"shuffle", "direction", "capot_value"} & set(named["belote"]), named
    assert "barrel" not in named["thousand"] and "opening_bid" in named["thousand"]
    for ruleset, names in named.items():
        specs = load_rules(ruleset).document["options"]
        for name in names:
            text = f"{name} {specs[name].get('description', '')}".lower()
            assert re.search(r"\bpas", text.replace("_", " ")), (ruleset, name)
    assert "close_before_draw" in _naming(load_rules("schnapsen"), "draw")


def test_a_word_of_megabytes_is_looked_for_in_no_option() -> None:
    """An unknown action text's word is looked for in the options' descriptions; one of
    three megabytes (a hostile record) names none at once (it was made a pattern, some
    seconds to compile for each such word)."""
    from mariage import load_rules
    from mariage.notation.optionhint import _naming, option_with_action

    rules = load_rules("cinquecento")
    start = time.perf_counter()
    assert _naming(rules, "m" * 3_000_000) == []
    assert option_with_action(rules, "q" * 3_000_000 + ":H") == ""
    assert time.perf_counter() - start < 1.5
    assert "mariannino" in _naming(rules, "mariannino:H")


def test_the_hints_kept_are_not_of_long_texts() -> None:
    """The hints found for unknown action texts are kept (256 at most) by their text:
    texts of a megabyte were kept too, 256 MB for a record of such words."""
    from mariage import load_rules
    from mariage.notation import optionhint

    rules = load_rules("cinquecento")
    long_texts = [f"x{i}:" + "H" * 100_000 for i in range(3)]
    for text in long_texts:
        assert optionhint.option_with_action(rules, text) == ""
    assert not any(key[2] in long_texts for key in optionhint._found)
    optionhint.option_with_action(rules, "mariannino:C")
    assert (rules.ruleset, rules.options, "mariannino:C") in optionhint._found
