"""The information-state tensor is perfect recall, judged by the engine's own views.

A player's history is what :func:`mariage.observe` showed it at each decision of the
hand (from the deal on), with who took each decision and, for its own decisions, the
action id it chose (a card picked by another seat of a set being passed changes no view:
the player sees only that a decision was taken). Over pairs of one-hand histories
(a random walk, and the same actions replayed on a deal with cards swapped, or a walk
that leaves it), two equal histories of a player give equal tensors and two different
ones different tensors. The yardstick is :func:`~mariage.observe`, not the
information-state strings the tensors are built beside.
"""

from __future__ import annotations

import random
from array import array
from typing import Any

import pyspiel
import pytest
from families import by_family
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mariage import observe
from mariage.ai import openspiel_game

# (the player, its history so far) -> the tensor's bytes (float32), for each decision point
Points = list[tuple[tuple[int, int], bytes]]
#: a history as a number: (the number of the history before, what was added) -> its number,
#: shared by the walks compared (equal histories, and only they, get equal numbers; hashing
#: and comparing whole histories at every point cost the test most of its time)
Histories = dict[tuple[int, Any], int]


def _walk(game: Any, actions: list[int], known: Histories) -> tuple[list[int], Points]:
    """Apply ``actions`` while legal; the actions applied and, at each point after the
    deal where a player decides or the hand is over, per player its history (numbered in
    ``known``) and tensor."""
    state = game.new_initial_state()
    nplayers = game.num_players()
    histories = [0] * nplayers  # (0: the empty history)
    done: list[int] = []
    points: Points = []

    def extend(p: int, item: Any) -> None:
        histories[p] = known.setdefault((histories[p], item), len(known) + 1)

    def look() -> None:
        for p in range(nplayers):
            extend(p, observe(state.gs, p))
            tensor = array("f", state.information_state_tensor(p)).tobytes()
            points.append(((p, histories[p]), tensor))

    for action in actions:
        if state.is_terminal():
            break
        if state.is_chance_node():
            if action not in {a for a, _ in state.chance_outcomes()}:
                break
            drawn = state._chance_kind() == "draw"
            state.apply_action(action)
            if not state.is_chance_node() and (drawn or not state.is_terminal()):
                look()  # the hand is dealt, or the cards a decision drew are placed
        else:
            actor = state.current_player()
            if action not in state.legal_actions():
                break
            state.apply_action(action)
            for p in range(nplayers):
                extend(p, (actor, action if p == actor else None))
            if state._chance_kind() != "draw":  # (else once the cards drawn are placed:
                look()  # the stock's cards are chance nodes when drawn, fortieth session)
        done.append(action)
    return done, points


def _random_actions(game: Any, rng: random.Random, prefix: list[int], limit: int) -> list[int]:
    """``prefix`` (all legal) followed by random actions, ``limit`` decisions in all."""
    state = game.new_initial_state()
    out: list[int] = []
    decisions = 0
    while not state.is_terminal() and decisions < limit:
        if len(out) < len(prefix):
            action = prefix[len(out)]
        elif state.is_chance_node():
            action = rng.choice(state.chance_outcomes())[0]
        else:
            action = rng.choice(state.legal_actions())
        if not state.is_chance_node():
            decisions += 1
        state.apply_action(action)
        out.append(action)
    return out


def _check(points: Points) -> int:
    """Equal histories have equal tensors and different ones different; the number of
    pairs of different points with equal histories met (the harder direction's cases)."""
    by_history: dict[tuple[int, int], bytes] = {}
    by_tensor: dict[tuple[int, bytes], tuple[int, int]] = {}
    equal = 0
    for key, tensor in points:
        if key in by_history:
            equal += 1
        assert by_history.setdefault(key, tensor) == tensor, \
            f"player {key[0]}: one history, two tensors"
        assert by_tensor.setdefault((key[0], tensor), key) == key, \
            f"player {key[0]}: two histories, one tensor"
    return equal


@pytest.mark.parametrize("name", by_family())
@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors])
@given(seed=st.integers(0, 2**32 - 1), limit=st.integers(1, 70),
       swaps=st.lists(st.tuples(st.integers(0, 999), st.integers(0, 999)),
                      min_size=1, max_size=3),
       leave=st.integers(0, 70))
# open hands (Mariaggia): a card the other seat drew is seen; found by the CI's Hypothesis
@example(seed=0, limit=2, swaps=[(253, 371)], leave=0)
def test_tensors_are_perfect_recall_of_the_views(
        name: str, seed: int, limit: int, swaps: list[tuple[int, int]], leave: int) -> None:
    game = pyspiel.load_game(openspiel_game.game_name(name))
    assert game.get_type().provides_information_state_tensor
    rng = random.Random(seed)
    first = _random_actions(game, rng, [], limit)
    known: Histories = {}
    walked, points = _walk(game, first, known)
    assert walked == first
    # the same decisions on a deal with some cards swapped (where still legal): the
    # deck is placed card by card (chance outcomes)
    chance_at = _chance_positions(game, first)
    swapped = list(first)
    for i, j in swaps:
        if chance_at:
            a, b = chance_at[i % len(chance_at)], chance_at[j % len(chance_at)]
            swapped[a], swapped[b] = swapped[b], swapped[a]
    points += _walk(game, swapped, known)[1]
    # a walk that leaves the first after some of its decisions
    cut = min(len(first), len(chance_at) + leave)
    points += _walk(game, _random_actions(game, random.Random(seed + 1), first[:cut],
                                          limit), known)[1]
    _check(points)


def _chance_positions(game: Any, actions: list[int]) -> list[int]:
    """The indices in ``actions`` of the cards placed in the deck (chance outcomes that
    are cards, not the dealer or the first leader drawn by lot)."""
    state = game.new_initial_state()
    out = []
    for i, action in enumerate(actions):
        if state.is_chance_node() and state._chance_kind() == "card":
            out.append(i)
        state.apply_action(action)
    return out


def test_swapping_unseen_cards_meets_equal_histories() -> None:
    """The swaps do make different deals that a player cannot tell apart (else the
    test above would check only one direction)."""
    game = pyspiel.load_game(openspiel_game.game_name("schnapsen"))
    met = 0
    for seed in range(20):
        first = _random_actions(game, random.Random(seed), [], 6)
        chance_at = _chance_positions(game, first)
        swapped = list(first)
        a, b = chance_at[-1], chance_at[-2]  # two cards of the stock
        swapped[a], swapped[b] = swapped[b], swapped[a]
        known: Histories = {}
        points = _walk(game, first, known)[1] + _walk(game, swapped, known)[1]
        met += _check(points)
    assert met > 20
