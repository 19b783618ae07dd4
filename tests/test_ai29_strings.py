"""OpenSpiel's strings say what the tensors say: over random hands, two states a player
sees with equal observation strings have equal observation tensors and the other way
round; so too the information-state string and tensor (one hand: the game's default).
A tabular learner keyed by strings and a network fed tensors then tell the same states
apart."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from mariage.ai import openspiel_game
from mariage.spec.specload import list_rulesets
from open_spiel.python.observation import make_observation


def _pairs(name: str, hands: int, seed: int) -> dict[str, list[tuple[str, bytes]]]:
    """Per kind (observation, info_state), the (string, tensor) pairs of every player
    at every decision of ``hands`` random hands (the player's number leads the string)."""
    game = pyspiel.load_game(openspiel_game.game_name(name))
    rng = random.Random(seed)
    out: dict[str, list[tuple[str, bytes]]] = {"observation": [], "info_state": []}
    for _ in range(hands):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            for p in range(game.num_players()):
                out["observation"].append((
                    f"{p}|{state.observation_string(p)}",
                    np.asarray(state.observation_tensor(p), np.float32).tobytes()))
                out["info_state"].append((
                    f"{p}|{state.information_state_string(p)}",
                    np.asarray(state.information_state_tensor(p), np.float32).tobytes()))
            state.apply_action(rng.choice(state.legal_actions()))
    return out


# the phase and the seat to act (Thousand's and Coinche's auctions, Sixty-six for
# three's reply to a close) were in the tensors and not in the strings; so is what was
# said (announcements, questions to the partner and their answers: Coinche's first two
# hands, Belote's hand of seed 5 and the Marjapussis' tell it, the string without it)
@pytest.mark.parametrize(("name", "hands", "seed"), [
    ("thousand", 2, 1), ("belote-coinche", 2, 1), ("sixty-six-3", 6, 1), ("schnapsen", 3, 1),
    ("belote", 1, 5), ("marjapussi", 2, 1), ("marjapussi-de", 1, 1)])
def test_equal_strings_exactly_where_equal_tensors(name: str, hands: int, seed: int) -> None:
    _agree(_pairs(name, hands, seed))


def _agree(kinds: dict[str, list[tuple[str, bytes]]]) -> None:
    """Per kind, one tensor per string and one string per tensor (of each player)."""
    for kind, pairs in kinds.items():
        tensor_of: dict[str, bytes] = {}
        string_of: dict[bytes, str] = {}
        for text, tensor in pairs:
            assert tensor_of.setdefault(text, tensor) == tensor, \
                f"{kind}: one string, two tensors: {text}"
            player = text.split("|", 1)[0].encode()
            assert string_of.setdefault(player + tensor, text) == text, \
                f"{kind}: one tensor, two strings: {text} / {string_of[player + tensor]}"
        assert len(tensor_of) > 10  # (states met)



# Near misses, in every bundled ruleset: states a player can hardly tell apart, where a
# string that leaves something out meets a tensor that holds it. Two kinds: (1) the same
# decisions after a deal with two cards swapped that the player was not dealt (its
# string then differs only by what it was shown: Mariaggia's open hand at the deal,
# Thousand's talon); (2) each legal action at each decision of a hand (two cards of no
# points gathered to a trick: Cinquecento's ``played[4S]`` or ``played[5S]``); (3) where
# the first dealer is drawn by lot, another dealer and the player dealt the same cards
# (the seat to act at the deal is in the tensor).
def _near_pairs(name: str, seed: int, swaps: int) -> dict[str, list[tuple[str, bytes]]]:
    game = pyspiel.load_game(openspiel_game.game_name(name))
    n = game.num_players()
    hand = next(f for f in game.encoder.features if f.name == "hand")
    rng = random.Random(seed)
    out: dict[str, list[tuple[str, bytes]]] = {"observation": [], "info_state": []}
    # OpenSpiel's observations (what the states' *_string and *_tensor read, without
    # copying a long information-state tensor into a Python list)
    views = {kind: make_observation(game, pyspiel.IIGObservationType(perfect_recall=recall))
             for kind, recall in (("observation", False), ("info_state", True))}

    def keep(state: pyspiel.State, players: range, kinds: tuple[str, ...] = tuple(out)
             ) -> None:
        for kind in kinds:
            view = views[kind]
            for p in players:
                view.set_from(state, p)
                out[kind].append((f"{p}|{view.string_from(state, p)}", view.tensor.tobytes()))

    def playing(state: pyspiel.State) -> bool:
        return not state.is_terminal() and not state.is_chance_node()

    def walk(other: pyspiel.State, p: int) -> None:  # (the decisions, while legal)
        for a in decisions:
            if other.is_terminal() or a not in other.legal_actions():
                break
            if other.is_chance_node():  # a card drawn (placed when drawn: fortieth session)
                if other._chance_kind() != "draw":
                    break
            else:
                keep(other, range(p, p + 1))
            other.apply_action(a)

    decisions: list[int] = []  # (and the cards drawn, chance outcomes)
    decided = 0
    while decided < 8:  # (a hand of a few decisions: another, Mariaggia's)
        state = game.new_initial_state()
        chance: list[int] = []
        cards: list[int] = []  # (the places of the cards dealt, not of a seat drawn by lot)
        while state.is_chance_node():
            chance.append(rng.choice(state.chance_outcomes())[0])
            if state.action_to_string(chance[-1]).startswith("card "):
                cards.append(len(chance) - 1)
            state.apply_action(chance[-1])
        dealt = state.clone()
        decisions, decided = [], 0
        while playing(state):
            decided += 1
            keep(state, range(n))
            for a in state.legal_actions():  # (2)
                other = state.clone()
                other.apply_action(a)
                while other.is_chance_node() and other._chance_kind() == "draw":
                    other.apply_action(other.chance_outcomes()[0][0])  # (a card drawn)
                if playing(other):  # (its information state differs by the action)
                    keep(other, range(n), ("observation",))
            decisions.append(rng.choice(state.legal_actions()))
            state.apply_action(decisions[-1])
            while state.is_chance_node() and state._chance_kind() == "draw":
                decisions.append(rng.choice(state.chance_outcomes())[0])  # (a card drawn)
                state.apply_action(decisions[-1])
    if cards[0]:  # (3): another first dealer drawn by lot, p dealt the same cards
        for p in range(n):
            held = np.asarray(dealt.observation_tensor(p))[hand.offset:hand.offset + hand.size]
            for dealer in range(n):
                if dealer == chance[0]:
                    continue
                other = game.new_initial_state()  # (where p's cards lie in this deal)
                for a in [dealer, *chance[1:]]:
                    other.apply_action(a)
                now = np.asarray(other.observation_tensor(p))[hand.offset:hand.offset + hand.size]
                mine = [i for i in cards if now[chance[i]]]
                if len(mine) != held.sum():  # (p deals, and sits this hand out)
                    continue
                mine_cards = iter(c for c in chance[cards[0]:] if held[c])
                rest = iter(c for c in chance[cards[0]:] if not held[c])
                other = game.new_initial_state()
                for m, a in enumerate([dealer, *chance[1:]]):
                    other.apply_action(a if m < cards[0] else next(mine_cards) if m in mine
                                       else next(rest))
                walk(other, p)
    for k in range(swaps):  # (1): player p is dealt the same cards
        p = k % n
        held = np.asarray(dealt.observation_tensor(p))[hand.offset:hand.offset + hand.size]
        i, j = rng.sample([i for i in cards if not held[chance[i]]], 2)
        other = game.new_initial_state()
        for m, a in enumerate(chance):
            other.apply_action(chance[j] if m == i else chance[i] if m == j else a)
        walk(other, p)
    return out


@pytest.mark.parametrize("name", list_rulesets())
def test_near_misses_tell_strings_apart_as_tensors(name: str) -> None:
    _agree(_near_pairs(name, 1, 4))


@pytest.mark.slow
@pytest.mark.parametrize("name", list_rulesets())
def test_near_misses_deeper(name: str) -> None:
    for seed in range(2, 5):
        _agree(_near_pairs(name, seed, 8))


def test_open_hands_tensor_says_which_drawn_card_is_the_players() -> None:
    """Mariaggia's hands lie open: after a trick both seats draw and each sees both
    cards. Two histories that differ only in which of the two each seat drew differ in
    each seat's own hand, so in its information-state tensor as in its string (the
    tensor once held both cards learned, not which one was drawn: equal tensors)."""
    game = pyspiel.load_game(openspiel_game.game_name("mariaggia"))
    rng = random.Random(0)
    state = game.new_initial_state()
    actions: list[int] = []
    while state.is_chance_node():
        actions.append(rng.choice(state.chance_outcomes())[0])
        state.apply_action(actions[-1])
    dealt, draws = list(state.gs.hands), []
    while not all(h & ~d for h, d in zip(state.gs.hands, dealt, strict=True)):
        assert len(actions) < 60, "no draw after the first trick"
        if state.is_chance_node():  # a card drawn (placed when drawn: fortieth session)
            draws.append(len(actions))
            actions.append(state.chance_outcomes()[0][0])
        else:
            actions.append(state.legal_actions()[0])  # (the first trick)
        state.apply_action(actions[-1])
    drawn = [(h & ~d).bit_length() - 1 for h, d in zip(state.gs.hands, dealt, strict=True)]
    i, j = draws
    actions[i], actions[j] = actions[j], actions[i]
    other = game.new_initial_state()
    for a in actions:
        other.apply_action(a)
    assert [(h >> drawn[0]) & 1 for h in other.gs.hands] == [0, 1]  # (the draws swapped)
    for p in range(2):
        strings = [s.information_state_string(p) for s in (state, other)]
        tensors = [np.asarray(s.information_state_tensor(p)) for s in (state, other)]
        assert f"drew {game.rules.card_code[drawn[p]]}" in strings[0]
        assert strings[0] != strings[1]
        assert not np.array_equal(*tensors), f"player {p}: one tensor, two hands"
