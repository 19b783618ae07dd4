"""Engines in a match: the hello checked before the first game, choose carrying the legal
actions, the engine's standard error quoted, and a deadline on every pipe write."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.arena.match import Match
from mariage.arena.players import BotPlayer, EnginePlayer
from mariage.cli import main

#: An engine with no rules at all: it plays the first action the referee lists.
RULELESS = """
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        out = {"type": "hello", "engine": "ruleless", "protocol": 1, "requests": ["choose"],
               "rulesets": {"mariazza": {"options": {"target": {"type": "int", "default": 41}}}}}
    elif kind == "choose":
        out = {"type": "choose", "seat": 0, "action": msg["legal"][0]}
    elif kind == "quit":
        out = {"type": "bye"}
    else:
        out = {"type": "ok"}
    print(json.dumps(out), flush=True)
"""

#: An engine that answers hello, then never reads again and writes "ok" forever.
STOPS_READING = """
import json, sys
sys.stdin.readline()
print(json.dumps({"type": "hello", "engine": "deaf", "protocol": 1, "requests": ["choose"],
                  "rulesets": {"mariazza": {"options": {}}}}), flush=True)
while True:
    sys.stdout.write('{"type": "ok"}\\n')
"""


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return f"{sys.executable} {path}"


def test_choose_carries_the_legal_actions_so_an_engine_without_rules_plays(
        tmp_path: Path) -> None:
    rules = load_rules("mariazza", {"target": 10})
    engine = script(tmp_path, "ruleless.py", RULELESS)
    match = Match(rules, {0: lambda: EnginePlayer(engine, timeout=10),
                          1: lambda: BotPlayer("greedy", 2)}, time_s=1)
    try:
        games = match.play(games=4, seed=3)
    finally:
        match.close()
    assert [g.forfeit for g in games] == [None] * 4
    assert all(g.reason == "target" for g in games)


def test_an_engine_without_choose_stops_the_match_before_the_first_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    no_choose = script(tmp_path, "no_choose.py", RULELESS.replace('"requests": ["choose"],', ""))
    assert "choose" not in Path(no_choose.split()[1]).read_text().split("rulesets")[0]
    out = tmp_path / "games.txt"
    code = main(["match", "mariazza", "--engine", f"A={no_choose}", "--games", "3",
                 "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""  # no game was played
    [line] = captured.err.strip().splitlines()
    assert "does not list the choose request" in line and "no_choose.py" in line
    assert not out.exists()


def test_an_engine_that_dies_at_start_is_quoted_from_its_standard_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dying = script(tmp_path, "dying.py", "import sys\nsys.stderr.write('cannot open "
                   "weights.bin: No such file\\n')\nsys.exit(2)\n")
    code = main(["match", "mariazza", "--engine", f"A={dying}", "--games", "2"])
    err = capsys.readouterr().err
    assert code == 2
    [line] = err.strip().splitlines()
    assert "failed its handshake" in line
    assert "its standard error ends: cannot open weights.bin: No such file" in line


def test_an_engine_that_crashes_mid_game_forfeits_with_its_last_words(
        tmp_path: Path) -> None:
    crashing = script(tmp_path, "crashing.py", RULELESS.replace(
        '        out = {"type": "choose", "seat": 0, "action": msg["legal"][0]}',
        '        sys.stderr.write("AssertionError: hand out of sync\\n"); sys.exit(3)'))
    rules = load_rules("mariazza", {"target": 10})
    match = Match(rules, {0: lambda: EnginePlayer(crashing, timeout=10)}, time_s=1)
    try:
        [game] = match.play(games=1, seed=1)
    finally:
        match.close()
    assert game.forfeit is not None and game.forfeit[1] == "crash"
    assert "its standard error ends: AssertionError: hand out of sync" in game.forfeit[2]


#: RULELESS, but it counts the requests of each game from its ``start`` and dies at the
#: first ``choose`` of its second game, saying how many requests that game has had.
DIES_IN_GAME_TWO = RULELESS.replace("for line in sys.stdin:",
                                   "games = n = 0\nfor line in sys.stdin:")\
    .replace('    kind = msg["type"]\n', '    kind = msg["type"]\n    n += 1\n'
             '    if kind == "start":\n        games += 1; n = 1\n'
             '    if kind == "choose" and games == 2:\n'
             '        sys.stderr.write(f"dying at request {n}\\n"); sys.exit(3)\n')


def test_a_crash_names_the_request_counted_from_the_start_of_its_game(
        tmp_path: Path) -> None:
    dies = script(tmp_path, "dies.py", DIES_IN_GAME_TWO)
    rules = load_rules("mariazza", {"target": 10})
    match = Match(rules, {0: lambda: EnginePlayer(dies, timeout=10)}, time_s=1)
    try:
        first, second = match.play(games=2, seed=1)
    finally:
        match.close()
    assert first.forfeit is None
    assert second.forfeit is not None and second.forfeit[1] == "crash"
    said = second.forfeit[2].split("dying at request ")[1].split()[0]
    assert f"during request {int(said)} ('choose')" in second.forfeit[2]


def test_an_engine_that_stops_reading_loses_by_time_and_the_match_ends(
        tmp_path: Path) -> None:
    """The referee's writes to a full pipe have a deadline: the match cannot hang. (The
    lines the engine writes unasked are mostly found first now, before a request is
    sent, or taken for the answer to ``choose``: the write deadline itself is tested on a
    pipe in test_conformance_protocol_suite.)"""
    deaf = script(tmp_path, "deaf.py", STOPS_READING)
    # (40 games see both the crash and the error; 200 took 13 s, none of them by time)
    games = 40
    out = tmp_path / "games.txt"
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "mariage", "match", "mariazza", "-o", "target=10",
         "--engine", f"A={deaf}", "--games", str(games), "--time", "0.5", "--out", str(out)],
        capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    lines = [x for x in proc.stdout.splitlines() if x.startswith("game ")]
    assert len(lines) == games
    assert all("(A:deaf) forfeits" in x for x in lines)  # the game lines name the entrant
    assert all(("forfeits (timeout): " in x and "the engine did not read its input" in x)
               or ("forfeits (crash): " in x and "the engine wrote a line no request asked "
                   "for" in x) or "forfeits (error): the answer to choose has no action" in x
               for x in lines)
    assert out.read_text().count("[Mariage ") == games
    assert time.monotonic() - t0 < 240


def test_no_forfeits_turns_a_forfeit_into_exit_1_after_the_table_and_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A match is a result even when a game is forfeited (exit 0); with --no-forfeits the
    same match exits 1 and names the first forfeit, with its table and records written."""
    crashing = script(tmp_path, "crashing.py", RULELESS.replace(
        '        out = {"type": "choose", "seat": 0, "action": msg["legal"][0]}',
        '        sys.exit(3)'))
    argv = ["match", "mariazza", "-o", "target=10", "-e", f"A={crashing}", "-b", "B=random",
            "-n", "2", "--time", "5", "-q"]
    assert main(argv) == 0
    capsys.readouterr()
    out_file = tmp_path / "games.txt"
    assert main([*argv, "--no-forfeits", "--out", str(out_file)]) == 1
    out, err = capsys.readouterr()
    assert "forfeits" in out and err.startswith("mariage: 2 of 2 games forfeited")
    assert "the first: game 1," in err and "(crash)" in err
    assert "A (A:ruleless) (crash)" in err  # the entrant named, as the game lines do
    assert out_file.read_text(encoding="utf-8").count("[Termination ") == 2
    # an engine that plays every game out is no forfeit: exit 0 with the option
    ruleless = script(tmp_path, "ruleless.py", RULELESS)
    assert main(["match", "mariazza", "-o", "target=10", "-e", f"A={ruleless}", "-b",
                 "B=random", "-n", "2", "--time", "5", "-q", "--no-forfeits"]) == 0
