"""The forty-third session's hostile sweep: house descriptions that give an option's default
as text, the conformance summary given an engine's answer of 70,000 characters, OpenSpiel
games registered under a name another game holds, and numpy integers as option values.

Each test names what happened before its fix.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from hostilekit import forget_house, run_cli
from mariage import load_rules
from mariage.conformance.reports import MAX_MESSAGE_SHOWN, summary_text
from mariage.conformance.runner import Outcome, RunResult


# ------------------------------------------------------------------ a default given as text
@pytest.mark.parametrize(("option", "written", "says"), [
    ("three_hand_play_for_loser", '"yes"', "takes true or false, got 'yes' (without quotes)"),
    ("three_hand_play_for_loser", '"false"',
     "takes true or false, got 'false' (without quotes)"),
    ("three_hand_play_for_loser", "1", "takes true or false, got 1"),
    ("match_target", '"5"', "takes a whole number, got '5' (without quotes)"),
])
@pytest.mark.parametrize("command", ["check-spec", "play"])
@pytest.mark.usefixtures(forget_house.__name__)
def test_a_default_of_another_type_than_its_option_is_refused_at_its_line(
        option: str, written: str, says: str, command: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # was: 'default: "yes"' of a bool option played as true (play: exit 0, the loser
    # decided), 'list --long' showed 'three_hand_play_for_loser=yes', and check-spec blamed
    # the bundled file ("option 'three_hand_play_for_loser'=false changes nothing"); a
    # default of "5" for match_target was taken as 5
    house = tmp_path / "house.yaml"
    house.write_text(f"extends: sixty-six-3\nruleset: house\noptions:\n  {option}:\n"
                     f"    default: {written}\n", encoding="utf-8")
    argv = [command, str(house)] + (["-q"] if command == "play" else [])
    code, out, err = run_cli(argv, capsys)
    assert code == 1 and out == "" and "Traceback" not in err
    assert f"{house}:5:14: at 'options.{option}.default': the default: option '{option}' " \
           f"{says} [S001]\n" in err
    assert err.count("\n") == 1


@pytest.mark.usefixtures(forget_house.__name__)
def test_a_conditional_default_of_another_type_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: passed check-spec (a default_when value was read as a command line's text)
    house = tmp_path / "house.yaml"
    house.write_text("extends: sixty-six-3\nruleset: house\noptions:\n"
                     "  draw_bonus_next_hand:\n    default_when:\n"
                     "      - when: {match_target: 5}\n        value: \"on\"\n",
                     encoding="utf-8")
    code, _, err = run_cli(["check-spec", str(house)], capsys)
    assert code == 1 and "Traceback" not in err
    assert "at 'options.draw_bonus_next_hand.default_when.0.value': the conditional " \
           "default: option 'draw_bonus_next_hand' takes true or false, got 'on'" in err


# ------------------------------------------------------------------ a long engine answer
def _run_with(message: str, further: tuple[str, ...] = ()) -> RunResult:
    failed = Outcome("sixty-six-3/core/basics", "sixty-six-3", "scenario", ("core.hand",),
                     "fail", message, details=[message, *further])
    return RunResult([failed], None, 0.5, 10, 0)


def test_the_summary_cuts_a_message_quoting_a_huge_answer() -> None:
    # was: "FAIL  sixty-six-3/core/basics: step 2: a refused action changed the state:
    # match_scores: expected [0, 0, 0], engine says ['AAAA...": one line of 70,131
    # characters for an engine's state field of 70,000 (any line up to 1 MiB)
    value = "A" * 70_000
    text = summary_text(_run_with(f"step 2: match_scores: engine says [{value!r}]",
                                  (f"hands: engine says {value!r}",)))
    lines = text.splitlines()
    assert max(map(len, lines)) < MAX_MESSAGE_SHOWN + 100
    assert lines[0].startswith("FAIL  sixty-six-3/core/basics: step 2: match_scores: ")
    assert lines[0].endswith("... (70038 characters; --json has it whole)")
    assert lines[1].startswith("      hands: engine says 'AAA")
    assert lines[1].endswith("... (70021 characters; --json has it whole)")
    message = "step 2: " + "x" * (MAX_MESSAGE_SHOWN - 8)  # (a message of its length: whole)
    assert f"FAIL  sixty-six-3/core/basics: {message}\n" in summary_text(_run_with(message))


# ------------------------------------------------------------------ OpenSpiel's names
def test_register_refuses_a_name_another_game_holds() -> None:
    # was: register("schnapsen", name="mariage_sixty_six_3") replaced the bundled game:
    # load_game("mariage_sixty_six_3") then played Schnapsen for two; so did a name of
    # OpenSpiel's own ("kuhn_poker"), and another register's name with other options
    from mariage.ai import openspiel_game

    for ruleset, options, name, says in [
            ("schnapsen", None, "mariage_sixty_six_3", "(sixty-six-3)"),
            ("sixty-six-3", {"three_hand_play_for_loser": True}, "mariage_sixty_six_3",
             "(sixty-six-3 with other options)"),
            ("schnapsen", None, "kuhn_poker", "(a game of OpenSpiel's)")]:
        with pytest.raises(ValueError, match=re.escape(f"the name '{name}' is already "
                                                       f"registered {says}")):
            openspiel_game.register(ruleset, options, name=name)
    assert pyspiel.load_game("mariage_sixty_six_3").num_players() == 3
    assert pyspiel.load_game("kuhn_poker").num_players() == 2


def test_register_again_with_the_same_rules_gives_the_name() -> None:
    from mariage.ai import openspiel_game

    options = {"three_hand_play_for_loser": True}
    name = "mariage_test43_loser"
    assert openspiel_game.register("sixty-six-3", options, name=name) == name
    assert openspiel_game.register("sixty-six-3", dict(options), name=name) == name
    assert openspiel_game.register("sixty-six-3") == "mariage_sixty_six_3"
    with pytest.raises(ValueError, match=r"already registered \(sixty-six-3 with other"):
        openspiel_game.register("sixty-six-3", {"match_target": 5}, name=name)
    assert pyspiel.load_game(name).rules.places_rule  # (still the play for the loser)


@pytest.mark.parametrize(("name", "error"), [("", ValueError), (" x", ValueError),
                                             (5, TypeError)])
def test_register_names_a_name_that_is_no_name(name: object, error: type) -> None:
    # was: '' registered the bundled name (replacing it with these options), 5 a pybind
    # TypeError listing GameType's constructor
    from mariage.ai import openspiel_game

    with pytest.raises(error, match="register: the game's name"):
        openspiel_game.register("schnapsen", {"close_allowed": False},
                                name=name)  # type: ignore[arg-type]


# ------------------------------------------------------------------ numpy option values
def test_a_numpy_integer_is_an_option_value() -> None:
    # was: "option 'match_target' takes a whole number, got np.int64(5)" (OptionError from
    # load_rules, gymnasium.make and the PettingZoo and OpenSpiel constructors), though
    # max_hands and seeds take numpy integers
    for value in (np.int64(5), np.uint8(5), np.int32(5)):
        target = dict(load_rules("sixty-six-3", {"match_target": value}).options)
        assert target["match_target"] == 5 and type(target["match_target"]) is int
    from mariage.errors import OptionError

    for wrong in (np.bool_(True), np.float64(5.0)):
        with pytest.raises(OptionError, match="takes a whole number"):
            load_rules("sixty-six-3", {"match_target": wrong})


# ------------------------------------------------------------------ a match's engine
class _AnswersApplyWith:
    """The reference engine, except that its answers to ``apply`` have another type."""

    def __init__(self, kind: str) -> None:
        from mariage.conformance.engine import ReferenceEngine

        self.engine, self.kind = ReferenceEngine(), kind

    def handle(self, message: dict[str, object]) -> dict[str, object]:
        reply = self.engine.handle(message)
        return {**reply, "type": self.kind} if message.get("type") == "apply" else reply


@pytest.mark.parametrize("kind", ["", "state", "choose"])
def test_a_match_engine_that_answers_apply_with_no_ok_forfeits(kind: str) -> None:
    # was: any answer but an error was taken for 'ok' ({"type": ""}, a 'state' or a late
    # 'choose' to 'apply'): the game went on with an engine out of step, no forfeit
    from mariage.arena.match import Match
    from mariage.arena.players import EnginePlayer
    from mariage.conformance.client import EngineClient, ThreadTransport

    rules = load_rules("sixty-six-3", {"three_hand_play_for_loser": True})
    client = EngineClient(lambda: ThreadTransport(_AnswersApplyWith(kind)), timeout=5)
    match = Match(rules, {0: lambda: EnginePlayer("wrong-ok", timeout=5, client=client)},
                  time_s=1)
    try:
        [game] = match.play(games=1, seed=1)
    finally:
        match.close()
    assert game.forfeit is not None
    seat, forfeit, reason = game.forfeit
    assert (seat, forfeit) == (0, "crash")
    assert reason.startswith(f"the engine answered apply with {kind!r}, not 'ok': ")
    assert game.reason == "resign" and game.winner is None and game.loser is None


# ------------------------------------------------------------------ an [Option] tag left out
def test_a_match_played_on_without_its_option_tag_is_told_which_option_plays_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # was: "N162 record 1, hand 7: the match is already over: it ended with hand 6
    # (target)", and no word of the option that plays on for the places
    played = tmp_path / "played.mrg"
    assert run_cli(["play", "sixty-six-3", "-o", "three_hand_play_for_loser=true", "-q",
                    "--out", str(played)], capsys)[0] == 0
    lines = played.read_text(encoding="utf-8").splitlines(keepends=True)
    untagged = tmp_path / "untagged.mrg"
    untagged.write_text("".join(line for line in lines if not line.startswith("[Option ")),
                        encoding="utf-8")
    code, out, _ = run_cli(["validate", str(untagged)], capsys)
    first = out.splitlines()[0]
    assert code == 1 and " N162 record 1, hand " in first
    assert first.endswith(" (target); with option three_hand_play_for_loser = true the others "
                          "play on for the places (an [Option] tag left out?)")
    assert run_cli(["validate", str(played)], capsys)[0] == 0  # (with its tag: valid)
