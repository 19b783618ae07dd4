"""``mariage play --max-hands`` and the bound of actions (eighteenth session): a match
the bots never end (Polish Thousand with a clamped barrel and no limit of attempts: bots
bidding low sit on it forever) stops with its record marked unfinished, never with a
traceback after a million actions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.arena.bots import make_bot
from mariage.cli import main
from mariage.commands.play_cmd import MatchUnfinished, play_match
from mariage.notation.batch import validate_file


def test_max_hands_stops_an_unfinished_match_and_records_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "m.mrg"
    code = main(["play", "thousand", "--seed", "1", "--max-hands", "2", "-q",
                 "--out", str(out_file)])
    out, err = capsys.readouterr()
    assert code == 0 and out == ""
    assert err == ("mariage: the match has not ended after 2 hands; it stops here "
                   f"(recorded unfinished in {out_file})\n")
    text = out_file.read_text(encoding="utf-8")
    assert text.rstrip().endswith("result *")
    assert re.findall(r"^hand (\d+)$", text, re.M) == ["1", "2"]
    assert validate_file(str(out_file)).ok


def test_a_match_that_ends_within_max_hands_is_played_to_its_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "schnapsen", "--seed", "1", "--max-hands", "1000", "-q"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and " wins (" in out


@pytest.mark.parametrize("value", ["0", "-1"])
def test_max_hands_below_one_is_refused(value: str, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    assert main(["play", "thousand", "--max-hands", value, "-q"]) != 0
    assert "--max-hands: at least 1 hand" in capsys.readouterr().err


def test_the_bound_of_actions_stops_the_match_without_a_traceback() -> None:
    rules = load_rules("thousand-pl", {"barrel_clamp": True})
    bots = [make_bot("random", 7 + s) for s in range(rules.nseats)]
    with pytest.raises(MatchUnfinished) as caught:
        play_match(rules, 93, bots, max_actions=500)
    assert not caught.value.asked
    assert caught.value.why.startswith("the match has not ended after 500 actions (")
