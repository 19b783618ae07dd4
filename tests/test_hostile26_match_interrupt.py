"""Ctrl-C during ``mariage match``: the games finished and the finished hands of the game
cut short are written whole, as valid records, the last marked unfinished (``result *``
and ``[Termination "unfinished: interrupted"]``); exit code 130 and one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile26kit import engine_command, stop_when
from mariage.arena.match import UNFINISHED, Interrupted, Match
from mariage.arena.players import BotPlayer
from mariage.notation.reader import read_records

REFERENCE = Path(__file__).resolve().parent.parent / "reference"
ENV = {**os.environ, "PYTHONPATH": str(REFERENCE)}

def interrupted_match(tmp_path: Path, game: int, hand: int, target: int = 1000
                      ) -> tuple[int, str, str, Path]:
    """``mariage match`` interrupted once the engine stalls in hand ``hand`` of game
    ``game``: the exit code, standard output, standard error and the --out file."""
    ready = tmp_path / "ready"
    out = tmp_path / "games.txt"
    proc = subprocess.Popen([sys.executable, "-m", "mariage", "match", "mariazza", "--engine",
                             f"A={engine_command(tmp_path, 'stall', game, hand, ready)}", "-n", "6",
                             "-o", f"target={target}", "--time", "60", "--out", str(out)],
                            env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = stop_when(proc, ready.exists)
    return proc.returncode, stdout, stderr, out


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mariage", "validate", "--strict", str(path)],
                          env=ENV, capture_output=True, text=True, timeout=60)


def test_ctrl_c_in_a_later_hand_keeps_the_finished_hands_marked_unfinished(
        tmp_path: Path) -> None:
    code, _, err, out = interrupted_match(tmp_path, 1, 3)
    assert code == 130 and "Traceback" not in err
    assert err == ("mariage: interrupted after 0 games finished; game 1 cut short, its 2 "
                   f"finished hands kept and marked unfinished (result *); records written "
                   f"to {out}\n")
    [record] = list(read_records(out.open("rb")))
    assert [h.number for h in record.hands] == [1, 2]
    assert record.result is not None and record.result.winner is None  # result *
    assert ("Termination", (UNFINISHED,)) in [(t.name, t.values) for t in record.tags]
    assert out.read_text().rstrip().endswith("result *")
    check = validate(out)
    assert check.returncode == 0, check.stdout + check.stderr
    assert sorted(os.listdir(tmp_path)) == ["engine.py", "games.txt", "ready"]  # no temp


def test_ctrl_c_after_whole_games_keeps_them_and_the_game_cut_short(tmp_path: Path) -> None:
    code, stdout, err, out = interrupted_match(tmp_path, 3, 2, target=41)
    assert code == 130 and "Traceback" not in err, err
    records = list(read_records(out.open("rb")))
    finished = stdout.count("wins (")
    assert finished == 2 and len(records) == 3, (stdout, err)
    assert all(r.result is not None and r.result.winner is not None for r in records[:-1])
    assert records[-1].result is not None and records[-1].result.winner is None
    assert f"interrupted after {finished} games finished; game {finished + 1} cut short" in err
    assert validate(out).returncode == 0


def test_ctrl_c_in_the_first_hand_keeps_a_record_with_no_hand(tmp_path: Path) -> None:
    code, _, err, out = interrupted_match(tmp_path, 1, 1)
    assert code == 130 and "its 0 finished hands kept" in err
    [record] = list(read_records(out.open("rb")))
    assert record.hands == () and validate(out).returncode == 0


def test_an_interrupted_game_raises_its_record_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    from mariage import load_rules

    rules = load_rules("mariazza", {"target": 1000})
    match = Match(rules, {0: lambda: BotPlayer("greedy", 1), 1: lambda: BotPlayer("random", 2)})
    player = match.players[1]
    real = player.choose
    hands: list[int] = []

    def choose(state, seat, budget):  # type: ignore[no-untyped-def]
        hands.append(state.hand_no)
        if state.hand_no == 3 and len(state.tricks) == 2:
            raise KeyboardInterrupt
        return real(state, seat, budget)

    monkeypatch.setattr(player, "choose", choose)
    with pytest.raises(Interrupted) as info:
        match.play_game(1, 5, (0, 1))
    assert [h.number for h in info.value.record.hands] == [1, 2]
    assert info.value.number == 1
