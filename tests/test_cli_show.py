"""What ``play`` and ``replay`` print: a header (players, partnerships, target), the set-up
of each hand, and every draw from the stock, so that each card played was shown before."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from families import by_family
from mariage import load_rules
from mariage.cli import main

CARD = re.compile(r"\b([2-9TJQKA][HDCS])\??")


def shown_before_played(text: str) -> list[str]:
    """The cards played in ``text`` (play or replay output) that no earlier line showed in a
    hand, as turned up, or as drawn."""
    missing = []
    seen: set[str] = set()
    for line in text.splitlines():
        body = line.strip()
        if body.startswith("=== Hand"):
            seen = set()
        elif re.match(r"^\w+: ", body) and ":" not in body.split(": ", 1)[1].split()[0]:
            seen.update(CARD.findall(body))  # a hand as dealt: "N: 3H 7D ..."
        elif body.startswith(("turned up:", "draws:", "stock:")):
            seen.update(CARD.findall(body))
        elif body.startswith("trick"):
            for card in re.findall(r"\w+:([2-9TJQKA][HDCS])", body):
                if card not in seen:
                    missing.append(f"{card} in {body!r}")
    return missing


@pytest.mark.parametrize("ruleset", by_family())
def test_every_card_played_was_shown_before_in_play_and_replay(
        ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.mrg"
    assert main(["play", ruleset, "--seed", "4", "--bots", "random", "--out", str(out)]) == 0
    played = capsys.readouterr().out
    rules = load_rules(ruleset)
    first = played.splitlines()[0]
    assert first.startswith(f"{rules.name} ({ruleset}): ") and first.endswith("; seed 4")
    assert all(f"{s} random" in first for s in rules.seat_names)
    assert str(rules.match_target) in first
    if len(rules.teams[0]) > 1:
        assert "partnerships " + " v ".join(rules.team_names) in re.sub(r" \(\S+\)", "", first)
    assert shown_before_played(played) == []
    assert main(["replay", str(out)]) == 0
    replayed = capsys.readouterr().out
    assert replayed.splitlines()[0] == first.rsplit("; seed", 1)[0]
    assert shown_before_played(replayed) == []
    if rules.stock_size:
        assert "draws: " in played and "draws: " in replayed


def test_closing_the_stock_draws_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    closes: list[int] = []
    for seed in range(1, 30):
        assert main(["play", "schnapsen", "--seed", str(seed), "--bots", "random"]) == 0
        lines = capsys.readouterr().out.splitlines()
        closes = [i for i, line in enumerate(lines) if re.match(r"^  [AB]: close ", line)]
        if closes:
            break
    assert closes
    assert not lines[closes[0] + 1].strip().startswith("draws:"), lines[closes[0] + 1]


def test_match_names_the_entrants_of_every_game(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from mariage.notation.reader import read_records

    out = tmp_path / "games.mrg"
    assert main(["match", "mariazza", "--bot", "A=random", "--bot", "B=greedy", "--games", "4",
                 "--seed", "1", "--out", str(out)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("game")]
    with out.open("rb") as f:
        recs = list(read_records(f, str(out)))
    assert len(lines) == len(recs) == 4
    for line, rec in zip(lines, recs, strict=True):
        seats = dict(re.findall(r"\b([AB])=([AB]:\w+)", line))
        assert {s: e.split(":")[1] for s, e in seats.items()} == rec.players
        assert rec.result is not None and rec.result.winner is not None
        winner = seats[rec.result.winner]
        assert f"side {winner.split(':')[0]} ({winner}) wins" in line
