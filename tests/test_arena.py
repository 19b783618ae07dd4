"""Matches between engines: forfeits, rotated seats, records; determinization; the mc bot."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from mariage import GameState, load_rules, new_match
from mariage.arena import MonteCarloBot, determinize
from mariage.arena.match import Match, wilson
from mariage.arena.players import BotPlayer, EnginePlayer
from mariage.cli import main
from mariage.engine.observation import observe

REF = f"{sys.executable} -m mariage.arena.refengine"


def test_two_engines_play_a_match_of_100_games_whose_records_all_validate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "match.txt"
    code = main(["match", "mariazza", "-o", "target=10", "--games", "100", "--seed", "7",
                 "--engine", f"A={sys.executable} -m mariage engine",
                 "--engine", f"B={REF} --bot random --seed 2", "--out", str(out), "-q"])
    assert code == 0
    table = capsys.readouterr().out
    lines = [line for line in table.splitlines() if line.startswith(("A ", "B "))]
    assert len(lines) == 2
    assert all(" 100 " in line for line in lines)
    assert "A:mariage-reference" in table and "B:reference-random" in table
    text = out.read_text()
    assert text.count("[Mariage ") == 100
    assert "forfeits" not in text
    assert main(["validate", str(out)]) == 0
    assert "100 valid, 0 invalid" in capsys.readouterr().out


def test_an_engine_that_plays_an_illegal_card_loses_and_the_record_says_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "bad.txt"
    code = main(["match", "marianna", "--games", "2", "--out", str(out),
                 "--engine", f"N={REF} --fault illegal --fault-after 3"])
    assert code == 0
    shown = capsys.readouterr().out
    assert shown.count("forfeits (illegal)") == 2
    text = out.read_text()
    blocks = text.split("[Mariage ")[1:]
    assert len(blocks) == 2
    # game 1: the engine sits N (side NS); game 2: it has moved on to W (side WE)
    for block, seat, winner in zip(blocks, "NW", ("WE", "NS"), strict=True):
        assert f'[Termination "{seat} forfeits (illegal): ' in block
        assert "[core.hand] that card is not in the player's hand" in block
        assert f"{seat}:resign\n{{{seat} forfeits (illegal)" in block
        assert f"result {winner} resign" in block
    assert main(["validate", str(out)]) == 0


@pytest.mark.parametrize(("fault", "kind"), [("timeout", "timeout"), ("crash", "crash"),
                                             ("garbage", "error")])
def test_a_silent_crashing_or_garbled_engine_loses_and_the_next_game_goes_on(
        fault: str, kind: str) -> None:
    rules = load_rules("mariazza", {"target": 10})
    match = Match(rules, {
        0: lambda: EnginePlayer(f"{REF} --fault {fault} --fault-after 2", timeout=5.0,
                                grace=0.2),
        1: lambda: BotPlayer("greedy", 3)}, time_s=0.3)
    try:
        games = match.play(games=2, seed=5)
    finally:
        match.close()
    assert [g.forfeit[1] if g.forfeit else None for g in games] == [kind, kind]
    assert [g.winner for g in games] == [1, 1]  # the engine's home side (A) loses both
    assert all(g.reason == "resign" for g in games)


def test_seats_rotate_over_paired_deals() -> None:
    rules = load_rules("marianna")
    match = Match(rules, {0: lambda: BotPlayer("random", 1), 1: lambda: BotPlayer("greedy", 2),
                          2: lambda: BotPlayer("random", 3), 3: lambda: BotPlayer("greedy", 4)})
    games = match.play(games=4, seed=11)
    assert [g.seed for g in games] == [11, 11, 12, 12]
    assert [g.seating for g in games] == [(0, 1, 2, 3), (3, 0, 1, 2)] * 2
    first, second = (g.record for g in games[:2])
    # the same deal both times; the players have changed sides
    assert first.hands[0].deal == second.hands[0].deal
    seats = [tuple(t.values[1] for t in r.tags if t.name == "Seat") for r in (first, second)]
    assert seats == [("random", "greedy", "random", "greedy"),
                     ("greedy", "random", "greedy", "random")]
    rows = match.table(games)
    assert sum(r.wins for r in rows) + rows[0].draws == 4


def test_wilson_interval() -> None:
    lo, hi = wilson(94, 100)
    assert 0.87 < lo < 0.88 and 0.97 < hi < 0.98
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("name", ["marianna", "mariaggia", "mariazza", "marjapussi",
                                  "mariglia"])
def test_determinize_keeps_the_view_and_redeals_only_hidden_cards(name: str) -> None:
    rules = load_rules(name)
    state = new_match(rules, 3)
    rng = random.Random(0)
    for _ in range(rng.randrange(5, 25)):
        if state.terminal or state.to_act is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_act
    if seat is None:
        return
    for k in range(5):
        guess = determinize(state, seat, random.Random(k))
        view, true_view = observe(guess, seat), observe(state, seat)
        assert view == true_view
        assert sorted(guess.stock) == sorted(state.stock) or not rules.open_hands
        every = [*guess.stock]
        for h in guess.hands:
            every += rules.cards_of(h)
        assert sorted(every) == sorted([*state.stock] + [c for h in state.hands
                                                         for c in rules.cards_of(h)])
        assert guess.deal_source is None


def test_determinize_depends_only_on_the_view() -> None:
    rules = load_rules("marianna")
    state = GameState(rules, first_dealer=0)
    state.deal(list(range(rules.ncards)))
    seat = state.to_act
    assert seat is not None
    other = state.clone()
    # swap a hidden card of another hand with a stock card: the seat sees no difference
    victim = (seat + 1) % rules.nseats
    card = rules.cards_of(other.hands[victim])[0]
    other.hands[victim] ^= (1 << card) | (1 << other.stock[-1])
    other.stock[-1] = card
    assert observe(other, seat) == observe(state, seat)
    a = determinize(state, seat, random.Random(9))
    b = determinize(other, seat, random.Random(9))
    assert a.hands == b.hands and a.stock == b.stock


def test_the_mc_bot_beats_random_over_paired_deals() -> None:
    # (the greedy player, which counts the cards played, now beats mc's random playouts:
    # benchmarks/README.md, "Baselines")
    rules = load_rules("mariazza", {"target": 20})
    match = Match(rules, {0: lambda: BotPlayer("mc", 1, playouts=24),
                          1: lambda: BotPlayer("random", 2)})
    games = match.play(games=8, seed=21)
    rows = match.table(games)
    assert rows[0].wins >= 6 > rows[1].wins, rows


def test_mc_bot_chooses_legal_actions_in_every_ruleset() -> None:
    from mariage import list_rulesets

    for name in list_rulesets():
        state = new_match(load_rules(name), 2)
        bot = MonteCarloBot(seed=1, playouts=4)
        for _ in range(12):
            if state.terminal:
                break
            action = bot.choose(state)
            assert action in state.legal_actions()
            state.apply(action)


def test_match_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "marianna", "--bot", "X=greedy"]) == 2
    assert "no seat 'X'" in capsys.readouterr().err
    assert main(["match", "marianna", "--bot", "N=clever"]) == 2
    assert "unknown bot" in capsys.readouterr().err
    assert main(["match", "marianna", "--games", "0"]) == 2


def test_mariage_play_knows_the_mc_bot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "mariazza", "-o", "target=10", "--bots", "mc,greedy", "-q"]) == 0
    assert "wins" in capsys.readouterr().out
