"""``mariage match`` where the others play on for the places (Sixty-six for three's
``three_hand_play_for_loser``, forty-third session): the table says how often each side
was placed last, since its losses count second places too; elsewhere the table is as
before."""

from __future__ import annotations

import pytest
from mariage import load_rules
from mariage.arena.match import Row, render_table
from mariage.cli import main


def _table(out: str) -> list[list[str]]:
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("side "))
    return [line.split() for line in lines[at:at + 5] if line and not line.startswith("-")]


def test_the_table_counts_the_games_each_side_was_placed_last(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "sixty-six-3", "-o", "three_hand_play_for_loser=true",
                 "--games", "6", "--bot", "A=greedy", "--bot", "B=random", "--bot",
                 "C=random"])
    out = capsys.readouterr().out
    assert code == 0
    head, *rows = _table(out)
    assert head[:6] == ["side", "games", "wins", "draws", "losses", "last"]
    games = [line for line in out.splitlines() if line.startswith("game ")]
    assert len(games) == 6
    for row in rows:
        side, wins, losses, last = row[0], int(row[2]), int(row[4]), int(row[5])
        assert 0 <= last <= losses
        assert last == sum(f"side {side} (" in g.split("; ")[-1] and "loses" in
                           g.split("; ")[-1] for g in games)
        assert wins == sum(f"side {side} (" in g.split(";")[-2] for g in games)
    assert sum(int(row[5]) for row in rows) == 6  # one side last in every game


def test_without_places_the_table_has_no_column_of_last_places(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "sixty-six-3", "--games", "2"]) == 0
    head = _table(capsys.readouterr().out)[0]
    assert "last" not in head and head[5:7] == ["win", "rate"]


def test_render_table_shows_the_column_only_for_rows_that_count_it() -> None:
    rules = load_rules("sixty-six-3")
    plain = [Row(t, f"{n}:x", 4, 1, 0, 3, 0) for t, n in enumerate("ABC")]
    placed = [Row(t, f"{n}:x", 4, 1, 0, 3, 0, t) for t, n in enumerate("ABC")]
    assert "last" not in render_table(rules, plain).splitlines()[0]
    lines = render_table(rules, placed).splitlines()
    assert lines[0].split()[5] == "last" and len(lines[0]) == len(lines[1])
    assert [line.split()[5] for line in lines[2:]] == ["0", "1", "2"]
