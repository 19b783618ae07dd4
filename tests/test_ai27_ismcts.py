"""ISMCTS searches for the side of the seat acting at each node (partners alike, in a
game of four), and its guesses of the hidden cards keep the voids a seat has shown."""

from __future__ import annotations

import random

import pytest
from mariage import load_rules, new_match
from mariage.arena import ismcts as policies
from mariage.arena.cardplay import shown_voids
from mariage.arena.ismcts import ISMCTS, _Node
from mariage.arena.search import determinize
from mariage.engine.state import GameState


def _nodes(root: _Node) -> list[_Node]:
    out, todo = [], [root]
    while todo:
        node = todo.pop()
        out.append(node)
        todo += node.children.values()
    return out


@pytest.mark.parametrize("prior", [0.0, 5.0])
def test_each_node_holds_the_value_for_the_side_of_its_seat(
        prior: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand ends well for side 0 and badly for side 1: so every value a node of a
    seat of side 0 (the seat and its partner) holds is positive, of side 1 negative."""
    rules = load_rules("sixty-six-4")
    assert rules.teams == ((0, 2), (1, 3))

    def fixed(state: GameState, team: int) -> float:
        return 30.0 if team == 0 else -30.0

    monkeypatch.setattr(policies, "outcome", fixed)
    state = new_match(rules, seed=5)
    bot = ISMCTS(seed=3, iterations=120, prior=prior)
    bot.choose(state)
    seats = set()
    for node in _nodes(bot.tree):
        if node.seat < 0:
            continue
        seats.add(node.seat)
        for action, visits in node.visits.items():
            if visits:
                value = node.total[action] / visits
                assert (value > 0) == (rules.team_of[node.seat] == 0), (node.seat, value)
    assert seats == {0, 1, 2, 3}  # the seat, its partner and both opponents searched


def test_guesses_keep_the_voids_shown() -> None:
    """Mariglia: a seat that did not follow a suit has none of it left in any guess (a
    plain determinization deals it some)."""
    rules = load_rules("mariglia")
    rng = random.Random(4)
    state = new_match(rules, seed=4)
    while True:  # random play until a seat other than the one to act showed a void
        seat = state.to_act
        assert seat is not None
        voids = shown_voids(state, after=state.draw_tricks)
        if any(v for s, v in enumerate(voids) if s != seat) and len(state.tricks) >= 3:
            break
        state.apply(rng.choice(state.legal_actions()))
    plain = kept = 0
    for k in range(40):
        for guess_of in (determinize, lambda st, s, g, _v: determinize(st, s, g)):
            guess = guess_of(state, seat, random.Random(k), voids)
            bad = sum((guess.hands[s] & rules.suit_mask[u]).bit_count()
                      for s in range(rules.nseats) if s != seat
                      for u in range(len(rules.suits)) if voids[s] >> u & 1)
            if guess_of is determinize:
                kept += bad
            else:
                plain += bad
            assert guess.hands[seat] == state.hands[seat]
            assert sorted(guess.stock) == sorted(state.stock)
            assert [h.bit_count() for h in guess.hands] == [h.bit_count() for h in state.hands]
    assert plain > 0 and kept == 0, (plain, kept)
