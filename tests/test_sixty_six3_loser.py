"""Sixty-six for three's ``three_hand_play_for_loser`` (rule ``sixty-six-3.match.places``):
after the first player reaches the target, the two others play on to decide who loses.

Seeded random and bot matches are played to a loser; the winner never acts again once
placed and sits out every later hand; the deal alternates between the two left, both
dealt six cards; scores carry on (the dealer's share that stopped one short in the
winning hand stays), nobody scoring a sitter's share; written records replay to the
same places; with the option off nothing changes.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from mariage import GameState, load_rules, new_match
from mariage.arena.bots import make_bot
from mariage.engine.actions import Action, Claim
from mariage.errors import SpecError
from mariage.notation import check_text, parse_record, write_record
from mariage.notation.recorder import record_match
from rulekit import covers

ON = {"three_hand_play_for_loser": True}
SEEDS = range(40)


def _pick(rng: random.Random, seed: int, actions: list[Action]) -> Action:
    """A random legal action; on even seeds never a claim while anything else is legal
    (hands then are played out or closed, not ended by a claim, true or false)."""
    if seed % 2 == 0:
        others = [a for a in actions if type(a) is not Claim]
        if others:
            return rng.choice(others)
    return rng.choice(actions)


def _played(seed: int, options: dict[str, object] | None = None,
            watch: list[tuple[int, GameState]] | None = None) -> GameState:
    """A seeded match of random legal actions; ``watch`` gets (seat to act, state) for
    every action's moment (the state itself: read at once)."""
    rules = load_rules("sixty-six-3", ON if options is None else options)
    state = new_match(rules, seed)
    rng = random.Random(seed)
    while not state.terminal:
        if watch is not None:
            watch.append((state.to_act if state.to_act is not None else -1, state))
        state.apply(_pick(rng, seed, list(state.legal_actions())))
    return state


def _hands_by_placing(seed: int) -> tuple[GameState, list[dict[str, object]]]:
    """The match of ``seed`` and, per hand, what the state held once it was dealt."""
    rules = load_rules("sixty-six-3", ON)
    state = new_match(rules, seed)
    rng = random.Random(seed)
    hands: list[dict[str, object]] = []
    while not state.terminal:
        if not hands or hands[-1]["number"] != state.hand_no:
            hands.append({"number": state.hand_no, "dealer": state.dealer, "out": state.out,
                          "placed": state.placed, "scores": list(state.match_scores),
                          "sizes": [bin(h).count("1") for h in state.hands],
                          "leader": state.leader})
        state.apply(_pick(rng, seed, list(state.legal_actions())))
    return state, hands


def _check_places(state: GameState) -> None:
    rules = state.rules
    target = rules.match_target
    result = state.result
    assert result is not None and result.reason == "target"
    placed = state.placed
    assert sorted(placed) == [0, 1, 2]
    assert result.winner == placed[0] and state.loser == placed[2]
    scores = result.scores
    assert scores[placed[0]] >= target and scores[placed[1]] >= target
    assert scores[placed[2]] < target


@covers("sixty-six-3.match.places", ruleset="sixty-six-3", options=ON)
@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_random_matches_are_played_to_a_loser(seed: int) -> None:
    _check_places(_played(seed))


@pytest.mark.parametrize("seed", range(6))
def test_bot_matches_are_played_to_a_loser_and_replay_to_the_same_places(seed: int) -> None:
    rules = load_rules("sixty-six-3", ON)
    bots = [make_bot("greedy", seed), make_bot("random", seed + 1), make_bot("greedy", 7)]
    record = record_match(rules, seed, bots)
    text = write_record(record)
    assert '[Option "three_hand_play_for_loser" "true"]' in text
    checked = check_text(text)
    assert checked.ok, checked.errors
    state = checked.state
    assert state is not None
    _check_places(state)
    assert record.result is not None
    assert record.result.winner == rules.team_names[state.placed[0]]
    # the same hands read back from the text: the same match
    again = check_text(write_record(parse_record(text)))
    assert again.ok and again.state is not None and again.state.placed == state.placed


@pytest.mark.parametrize("seed", SEEDS)
def test_the_winner_never_acts_again_and_sits_out(seed: int) -> None:
    moments: list[tuple[int, int, tuple[int, ...], int]] = []
    rules = load_rules("sixty-six-3", ON)
    state = new_match(rules, seed)
    rng = random.Random(seed)
    while not state.terminal:
        moments.append((state.to_act if state.to_act is not None else -1, state.out,
                        state.placed, state.hands[state.placed[0]] if state.placed else 0))
        state.apply(_pick(rng, seed, list(state.legal_actions())))
    after = [m for m in moments if m[2]]
    assert after, "the match went on after the first winner"
    winner = state.placed[0]
    for to_act, out, placed, cards in after:
        assert placed[0] == winner
        assert to_act != winner and out == winner and cards == 0


@covers("sixty-six-3.match.places", ruleset="sixty-six-3", options=ON)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_deal_alternates_between_the_two_left_and_nobody_sits_out(seed: int) -> None:
    state, hands = _hands_by_placing(seed)
    winner = state.placed[0]
    later = [h for h in hands if h["placed"]]
    assert later
    dealers = [h["dealer"] for h in later]
    assert winner not in dealers
    assert all(a != b for a, b in pairwise(dealers))
    for h in later:
        sizes = h["sizes"]
        assert isinstance(sizes, list)
        assert h["out"] == winner and sizes[winner] == 0
        assert all(sizes[s] == 6 for s in range(3) if s != winner)
        # the dealer's opponent, on his left passing over the winner, leads
        dealer = h["dealer"]
        assert isinstance(dealer, int)
        assert h["leader"] == next(s % 3 for s in range(dealer + 1, dealer + 3)
                                   if s % 3 != winner)
    # the first hand played on is dealt by the seat after the last dealer, passing over him
    first_after = hands.index(later[0])
    last_dealer = hands[first_after - 1]["dealer"]
    assert isinstance(last_dealer, int)
    assert later[0]["dealer"] == next(s % 3 for s in range(last_dealer + 1, last_dealer + 3)
                                      if s % 3 != winner)


@covers("sixty-six-3.match.places", ruleset="sixty-six-3", options=ON)
@pytest.mark.parametrize("seed", SEEDS)
def test_scores_carry_on_and_nobody_scores_a_share(seed: int) -> None:
    state, hands = _hands_by_placing(seed)
    winner = state.placed[0]
    first_after = next(i for i, h in enumerate(hands) if h["placed"])
    # the scores the play on starts from are those of the winning hand's end
    assert hands[first_after]["scores"] == [
        sum(h.score[t] for h in state.history[:first_after]) for t in range(3)]
    for record in state.history[first_after:]:
        assert record.score[winner] == 0  # the winner scores nothing more
        # one of the two scores, the hand's winner: no share for anybody
        assert sum(1 for v in record.score if v) <= 1
        if record.winner is not None:
            assert record.score[record.winner] > 0


def test_the_dealers_share_that_stopped_short_stays() -> None:
    """A seed where the dealer of the winning hand was stopped at target - 1 by the cap
    of his share: he starts the play on from there."""
    found = 0
    for seed in range(200):
        state, hands = _hands_by_placing(seed)
        first_after = next(i for i, h in enumerate(hands) if h["placed"])
        won_in = state.history[first_after - 1]
        dealer = won_in.dealer
        assert dealer is not None
        scores = hands[first_after]["scores"]
        assert isinstance(scores, list)
        if won_in.score[dealer] and scores[dealer] == state.rules.match_target - 1:
            assert dealer not in state.placed[:1]
            found += 1
    assert found


def test_with_the_option_off_the_match_ends_at_the_first_winner() -> None:
    from mariage.engine.outcomes import loser_note

    for seed in range(20):
        default = _played(seed, {})
        off = _played(seed, {"three_hand_play_for_loser": False})
        assert off.history == default.history and off.result == default.result
        assert default.placed == () and default.loser is None and loser_note(default) == ""
        assert default.result is not None
        assert sum(1 for s in default.result.scores if s >= 7) == 1


def test_the_option_plays_on_where_the_default_stops() -> None:
    """The same seeds: where the default ends, the option plays on (the same hands up to
    the first winner, then more)."""
    for seed in range(10):
        default, on = _played(seed, {}), _played(seed)
        first = len(default.history)
        assert [h.score for h in on.history[:first]] == [h.score for h in default.history]
        assert len(on.history) > first and on.placed[0] == default.result.winner  # type: ignore[union-attr]


def test_the_summary_names_the_loser() -> None:
    from mariage.engine.outcomes import loser_note

    state = _played(3)
    assert loser_note(state) == f"; {state.rules.team_names[state.placed[2]]} loses"


def test_the_option_needs_a_seat_sitting_out(tmp_path: object) -> None:
    """``match.places`` where nobody sits each hand out is refused when compiled."""
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    spec = tmp_path / "sixty-six-places.yaml"
    spec.write_text(
        "format: 1\nextends: sixty-six\nruleset: sixty-six-places\nname: x\nversion: 1\n"
        "match:\n  places:\n    id: x.match.places\n    source: [pagat ¶24]\n"
        "    text: The others play on.\n", encoding="utf-8")
    with pytest.raises(SpecError, match="playing on for the places needs a seat sitting"):
        load_rules(str(spec))


def test_pettingzoo_api_test_passes_with_the_option_on() -> None:
    from mariage.ai.pettingzoo_env import MariageEnv
    from pettingzoo.test import api_test

    api_test(MariageEnv("sixty-six-3", options={**ON, "match_target": 3}), num_cycles=400)


def test_pettingzoo_rewards_each_place_and_the_winner_acts_no_more() -> None:
    """+1 to the winner, 0 to the second, -1 to the loser, at the end; the winner is not
    selected to act once he has won."""
    import numpy as np
    from mariage.ai.pettingzoo_env import MariageEnv

    env = MariageEnv("sixty-six-3", options=ON)
    for seed in range(3):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            state = env.state_
            assert not state.placed or agent != state.rules.seat_names[state.placed[0]]
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        names = env.state_.rules.seat_names
        first, second, last = (names[t] for t in env.state_.placed)
        assert (totals[first], totals[second], totals[last]) == (1.0, 0.0, -1.0)


@covers("sixty-six-3.match.places", ruleset="sixty-six-3", options=ON)
def test_a_resignation_while_the_two_play_on() -> None:
    """One of the two playing on resigns: he loses, the other is second; the winner, who
    has left the play, resigns: the match ends with him first and no loser."""
    rules = load_rules("sixty-six-3", ON)
    for resigner in ("player", "winner"):
        state = new_match(rules, 3)
        rng = random.Random(3)
        while not state.placed:
            state.apply(_pick(rng, 3, list(state.legal_actions())))
        winner = state.placed[0]
        seat = winner if resigner == "winner" else (winner + 1) % 3
        state.resign(seat)
        assert state.result is not None and state.result.winner == winner
        assert state.result.reason == "resign"
        if resigner == "winner":
            assert state.placed == (winner,) and state.loser is None
        else:
            assert state.placed == (winner, (winner + 2) % 3, seat) and state.loser == seat


def test_the_summary_says_the_two_others_play_on_for_the_loser() -> None:
    """The ruleset's summary (the rulebook's first paragraph) ends at the first winner by
    default, and tells of the play for the loser with the option on."""
    from mariage.rulebook.render import rulebook

    on = rulebook(load_rules("sixty-six-3", ON)).summary
    assert "the other loses" in on and "play on" in on and "win 7 game points" in on
    assert "loses" not in rulebook(load_rules("sixty-six-3")).summary


def test_stats_count_the_losers_where_the_others_play_on() -> None:
    """``mariage stats`` counts who lost each match played on for the loser (the JSON's
    ``losers`` and a ``losers:`` line), and says nothing of losers otherwise."""
    from collections import Counter

    from mariage.viewer.stats import Stats

    for options, played_on in ((ON, True), ({}, False)):
        rules = load_rules("sixty-six-3", options)
        stats, losers = Stats(), Counter[str]()
        for seed in (1, 2, 3, 4):
            text = write_record(record_match(rules, seed,
                                             [make_bot("greedy", i) for i in range(3)]))
            assert stats.add_text(text, number=seed) == []
            state = check_text(text).state
            assert state is not None
            if state.loser is not None:
                losers[rules.team_names[state.loser]] += 1
        got = stats.rulesets["sixty-six-3"]
        assert got.losers == losers and (sum(losers.values()) == 4) is played_on
        assert ("losers:" in "\n".join(got.text())) is played_on
        assert got.as_dict()["losers"] == dict(losers)
