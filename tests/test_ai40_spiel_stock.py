"""The stock of the OpenSpiel games dealt card by card as it is drawn (issue #29,
fortieth session: mariage.ai.spieldeal).

With chance nodes, a ruleset whose hand may stop with cards left in a stock drawn from
after every trick (a call-out: Mariaggia) places at the deal only the hands and the
turned-up card; each card of the stock is a chance node right before the trick's last
card that draws it, over the cards not yet placed, and a card never drawn is never a
chance outcome. Games of Marianna for two and three and Cinquecento registered with
their stock dealt so too (every card drawn, the draws of 2, 3 and 4 cards) check the
same. The engine is dealt a whole deck all the same (the stock's places filled with
the cards left): it must answer exactly as an engine dealt, from the start, the deck
that the chance outcomes make. Rulesets without such a stock keep a chance node for
every card of the deck at the deal."""

from __future__ import annotations

import dataclasses
import pickle
import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
import mariage.ai.openspiel_game  # noqa: E402,F401  (registers the games)
from mariage import GameState, Phase, list_rulesets, load_rules  # noqa: E402
from mariage.ai import openspiel_game  # noqa: E402
from mariage.ai.openspiel_game import game_name  # noqa: E402
from mariage.ai.spieldeal import deal_positions, stock_positions  # noqa: E402

#: the rulesets whose stock is dealt as drawn
STOCK = ["mariaggia"]
#: the others: every card in a hand or turned up, a talon, a second deal, a stock whose
#: draw may not follow a trick (a hand target, claims, a close, a question after it), a
#: stock drawn out in every hand (no call-out)
DEALT = sorted(set(list_rulesets()) - set(STOCK))


def _register_drawn(ruleset: str) -> str:
    """A game of ``ruleset`` registered with its stock dealt as drawn (as if a hand of it
    could be called out)."""
    real = openspiel_game.stock_positions
    openspiel_game.stock_positions = lambda rules: real(  # type: ignore[assignment]
        dataclasses.replace(rules, call_out_rule="test"))
    try:
        name = "mariage_test40_" + ruleset.replace("-", "_")
        if name not in pyspiel.registered_names():
            openspiel_game.register(ruleset, name=name)
        return name
    finally:
        openspiel_game.stock_positions = real


#: the games with a stock dealt as drawn, by ruleset
GAMES = {"mariaggia": game_name("mariaggia"),
         **{r: _register_drawn(r) for r in ("marianna-2", "marianna-3", "cinquecento")}}
DRAWN = list(GAMES)


def _positions(name: str) -> tuple[int, ...]:
    return pyspiel.load_game(GAMES[name]).stock_at  # type: ignore[no-any-return]


def test_the_rulesets_with_a_stock_drawn_after_the_tricks() -> None:
    assert sorted(r for r in list_rulesets() if stock_positions(load_rules(r))) == STOCK
    # mariaggia: 5 cards each, one turned up under the stock, the stock's 29
    assert stock_positions(load_rules("mariaggia")) == tuple(range(11, 40))


def _play(name: str, seed: int, hands: int = 1, params: dict[str, Any] | None = None,
          bundled: bool = False) -> tuple[Any, list[Any]]:
    """A game of ``name`` played at random, and its nodes: (kind, outcomes, action) of
    every chance node (kind ``card``, ``draw``, or a seat's), (None, legal, action) of
    every decision."""
    game = pyspiel.load_game(game_name(name) if bundled else GAMES.get(name, game_name(name)),
                             {"hands": hands, **(params or {})})
    state = game.new_initial_state()
    rng = random.Random(seed)
    nodes: list[Any] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
            nodes.append((state._chance_kind(), outcomes, action))
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            nodes.append((None, legal, action, state.gs.hands[:], state.gs.known[:]))
        state.apply_action(action)
    return state, nodes


@pytest.mark.parametrize("name", DRAWN)
def test_every_chance_node_is_uniform_over_the_cards_not_yet_placed(name: str) -> None:
    rules = load_rules(name)
    ndeal = rules.ncards - len(_positions(name))
    for seed in range(3):
        state, nodes = _play(name, seed)
        placed: list[int] = []
        for kind, outcomes, action, *_ in nodes:
            if kind in ("card", "draw"):
                left = sorted(set(range(rules.ncards)) - set(placed))
                assert [c for c, _ in outcomes] == left
                assert all(p == pytest.approx(1 / len(left)) for _, p in outcomes)
                placed.append(action)
        cards = [kind for kind, *_ in nodes if kind in ("card", "draw")]
        # the deal: the hands and the turned-up card, one after the other, first of all
        first = next(k for k, (kind, *_) in enumerate(nodes) if kind == "card")
        assert [kind for kind, *_ in nodes[first:first + ndeal]] == ["card"] * ndeal
        assert cards.count("card") == ndeal
        # the cards never placed lie in the stock or out of play, unseen by anyone
        gs = state.gs
        never = set(range(rules.ncards)) - set(placed)
        assert never == set(state.undrawn)
        assert never <= {*gs.stock, *gs.aside}


@pytest.mark.parametrize("name", DRAWN)
def test_the_chance_nodes_of_a_hand_are_its_cards_drawn_and_no_more(name: str) -> None:
    """The cards of a draw are placed right before the trick's last card that draws them
    (in the seats' hands after it); a hand ended with cards in the stock places fewer
    than the deck's cards (mariaggia: most hands end by a target)."""
    rules = load_rules(name)
    short = 0
    for seed in range(6):
        _, nodes = _play(name, seed)
        placed = [action for kind, _, action, *_ in nodes if kind in ("card", "draw")]
        assert len(placed) == len(set(placed)) <= rules.ncards
        short += len(placed) < rules.ncards
        hands = [view[0] for kind, _, _, *view in nodes if kind is None]
        for k, (kind, *_) in enumerate(nodes):
            if kind == "draw":  # after a decision, before a decision or another draw
                assert nodes[k - 1][0] in (None, "draw") and nodes[k + 1][0] in (None, "draw")
        # a trick's last card after the draws' nodes, each card placed in a hand by it
        batches = [k for k, (kind, *_) in enumerate(nodes) if kind == "draw"
                   and nodes[k + 1][0] is None]
        for k in batches:
            drawn = [a for kind, _, a, *_ in nodes[:k + 1] if kind == "draw"]
            j = sum(kind is None for kind, *_ in nodes[:k + 1])  # the decision next
            if j + 1 < len(hands):
                got = {c for s in range(rules.nseats) for c in range(rules.ncards)
                       if hands[j + 1][s] >> c & 1 and not hands[j][s] >> c & 1}
                assert set(drawn[-len(got):]) == got or not got
    if name == "mariaggia":
        assert short


@pytest.mark.parametrize("name", DRAWN)
def test_the_engine_answers_as_if_dealt_the_whole_deck(name: str) -> None:
    """The deck the chance outcomes make (the hands, then the stock in drawing order,
    the cards never drawn after them in any order), dealt at once: every decision has
    the same legal actions, hands and points, and the hand the same record."""
    rules = load_rules(name)
    game = pyspiel.load_game(GAMES[name])
    space = game.space
    stock_at = _positions(name)
    for seed in range(4):
        state, nodes = _play(name, seed)
        dealt = [a for kind, _, a, *_ in nodes if kind == "card"]
        drawn = [a for kind, _, a, *_ in nodes if kind == "draw"]
        first = next((a for kind, _, a, *_ in nodes if kind == "first"), None)
        deck = [0] * rules.ncards
        for at, card in zip(deal_positions(rules.ncards, stock_at), dealt, strict=True):
            deck[at] = card
        for at, card in zip(stock_at, drawn + sorted(state.undrawn), strict=True):
            deck[at] = card
        gs = GameState(rules, first_dealer=state.gs.first_dealer)
        gs.deal(deck, first)
        for kind, legal, action, *view in nodes:
            if kind is None:
                assert space.legal_ids(gs) == legal
                assert [gs.hands, gs.known] == view
                gs.apply(space.actions[action])
        assert gs.history == state.gs.history
        assert gs.match_scores == state.gs.match_scores


@pytest.mark.parametrize("name", DRAWN)
def test_a_history_replayed_pickled_or_cloned_is_the_same_state(name: str) -> None:
    game = pyspiel.load_game(GAMES[name], {"hands": 3})
    rng = random.Random(7)
    state = game.new_initial_state()
    clones = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if state._chance_kind() == "draw" and rng.random() < 0.5:
                # a clone at a draw goes its own way: the state is not touched
                other = state.clone()
                other.apply_action(outcomes[-1][0])
                clones.append((state.clone(), str(state), state.history()))
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if rng.random() < 0.1 or state.is_terminal():
            again = game.new_initial_state()
            for action in state.history():
                again.apply_action(action)
            for other in (again, pickle.loads(pickle.dumps(state)), state.clone()):
                assert str(other) == str(state)
                assert other.history() == state.history()
                assert other.current_player() == state.current_player()
                assert other.legal_actions() == state.legal_actions()
                for p in range(game.num_players()):
                    assert other.information_state_string(p) \
                        == state.information_state_string(p)
                    assert other.information_state_tensor(p) \
                        == state.information_state_tensor(p)
                    assert other.observation_string(p) == state.observation_string(p)
    assert clones
    for clone, text, history in clones:
        assert str(clone) == text and clone.history() == history


@pytest.mark.parametrize("name", DRAWN)
def test_resampled_states_keep_what_the_player_saw(name: str) -> None:
    game = pyspiel.load_game(GAMES[name])
    rng = random.Random(3)
    tried = 0
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            seat = state.current_player()
            if state.drawn_at and rng.random() < 0.5:  # after some draws
                for player in range(game.num_players()):
                    new = state.resample_from_infostate(player, rng.random)
                    assert new.information_state_string(player) \
                        == state.information_state_string(player)
                    assert new.information_state_tensor(player) \
                        == state.information_state_tensor(player)
                    assert player != seat or new.legal_actions() == state.legal_actions()
                    tried += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert tried


@pytest.mark.parametrize("name", [*DRAWN, "schnapsen"])
def test_pyspiel_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(GAMES.get(name, game_name(name)), {"hands": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_chance_outcome_is_checked_and_named() -> None:
    game = pyspiel.load_game(game_name("mariaggia"))
    state = game.new_initial_state()
    while state._chance_kind() != "draw":
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    left = [c for c, _ in state.chance_outcomes()]
    assert left == state.legal_actions() == state.rest  # (while the draws are placed)
    seen = next(c for c in range(40) if c not in left)
    with pytest.raises(ValueError, match="no card left to"):
        state.apply_action(seen)
    with pytest.raises(ValueError, match="no card left to draw"):
        pyspiel.State.apply_action(state, seen)  # (pyspiel's, as from C++)
    assert state.action_to_string(-1, left[0]) == f"card {game.rules.card_code[left[0]]}"


@pytest.mark.parametrize("name", DEALT)
def test_rulesets_without_such_a_stock_deal_every_card_at_once(name: str) -> None:
    rules = load_rules(name)
    assert stock_positions(rules) == ()
    for seed in range(2):
        _, nodes = _play(name, seed, bundled=True)
        kinds = [kind for kind, *_ in nodes]
        assert "draw" not in kinds
        first = kinds.index("card")
        assert kinds[first:first + rules.ncards] == ["card"] * rules.ncards


@pytest.mark.parametrize("name", ["mariaggia", "schnapsen"])
def test_sampled_chance_has_no_chance_nodes(name: str) -> None:
    _, nodes = _play(name, 0, 1, {"chance": "sampled", "seed": 4})
    assert all(kind is None for kind, *_ in nodes)


@pytest.mark.parametrize("name", DRAWN)
def test_the_views_are_the_same_before_and_after_a_draws_nodes(name: str) -> None:
    """The chance nodes of a draw come before the trick's last card: nobody sees the
    cards they place (in the stock), so every player's observation and information state
    (strings and tensors) are the same at the first of them and at the decision after."""
    game = pyspiel.load_game(GAMES[name], {"hands": 2})
    rng = random.Random(11)
    state = game.new_initial_state()
    views = None
    checked = 0

    def view() -> list[Any]:
        return [(state.observation_string(p), state.observation_tensor(p),
                 state.information_state_string(p), state.information_state_tensor(p))
                for p in range(game.num_players())]

    while not state.is_terminal():
        if state.is_chance_node():
            if state._chance_kind() == "draw" and views is None:
                views = view()
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if views is not None:
            assert view() == views
            # the trick's last card, and the draw's cards go to the hands with it
            gs = state.gs
            assert gs.phase == Phase.PLAY
            assert len(gs.trick_cards) + 1 == game.rules.hand_seats
            views, checked = None, checked + 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked
