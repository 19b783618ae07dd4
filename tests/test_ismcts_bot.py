"""The ``ismcts`` player as a built-in bot of ``mariage play`` and ``mariage match``."""

from __future__ import annotations

import pytest
from mariage import load_rules, new_match
from mariage.ai.policies import make_policy
from mariage.arena import BOT_NAMES
from mariage.arena.bots import BOTS, make_bot
from mariage.arena.ismcts import ISMCTS
from mariage.arena.players import make_chooser
from mariage.cli import main


def test_ismcts_is_a_bot_by_name_everywhere() -> None:
    assert "ismcts" in BOTS and "ismcts" in BOT_NAMES
    assert isinstance(make_bot("ismcts", 3), ISMCTS)
    chooser = make_chooser("ismcts", 3, playouts=17)
    assert isinstance(chooser, ISMCTS) and chooser.iterations == 17


def test_the_bot_chooses_as_the_policy_does() -> None:
    """The bot by name and the policy of the same seed and budget are one player."""
    rules = load_rules("schnapsen")
    state = new_match(rules, seed=5)
    bot, policy = make_chooser("ismcts", 9, playouts=25), make_policy("ismcts", 9, 25)
    for _ in range(12):
        action = bot.choose(state)
        assert action == policy.choose(state) and action in state.legal_actions()
        state.apply(action)


def test_match_with_an_ismcts_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "schnapsen", "--bot", "A=ismcts", "--bot", "B=random",
                 "--games", "2", "--playouts", "8", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "ismcts" in out


def test_play_with_ismcts_bots(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "sixty-six", "--bots", "ismcts,greedy", "--seed", "2",
                 "--max-hands", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 0 and "has not ended after 1 hand;" in err


def test_an_unknown_bot_names_ismcts_among_the_choices(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "schnapsen", "--bot", "A=imscts", "--games", "2"])
    err = capsys.readouterr().err
    assert code != 0 and "ismcts" in err and "Traceback" not in err
