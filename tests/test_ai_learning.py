"""Learning interfaces: the fast encoder against the view, perfect-recall tensors,
rewards, the Gymnasium environments, vector environments, and policies that do not peek."""

from __future__ import annotations

import hashlib
import random
import warnings

import gymnasium
import numpy as np
import numpy.typing as npt
import pyspiel
import pytest
from families import by_family
from mariage import list_rulesets, load_rules, new_match, observe
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace, Encoder, InfoStateEncoder
from mariage.ai.gym_env import ENV_IDS, MariageGymEnv, env_id
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.ai.policies import POLICIES, make_policy
from mariage.ai.rewards import check_reward, hand_rewards
from mariage.arena import determinize
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from test_ai_vector import bidding_part, said_part, standing_divisor

RULESETS = list_rulesets()


def view_vector(rules: Rules, state: GameState, seat: int) -> npt.NDArray[np.float32]:
    """The observation vector computed the slow, obvious way, from :func:`observe`."""
    n, c, nsuits = rules.nseats, rules.ncards, len(rules.suits)
    enc = Encoder(rules)
    out = np.zeros(enc.size, np.float32)
    view = observe(state, seat)
    at = {f.name: f.offset for f in enc.features}
    for card in rules.cards_of(view.hand):
        out[at["hand"] + card] = 1
    for k in range(1, n):
        for card in rules.cards_of(view.shown[(seat + k) % n]):
            out[at[f"known_hand_{k}"] + card] = 1
    for pos, (_, card) in enumerate(view.trick):
        out[at[f"trick_card_{pos}"] + card] = 1
        out[at["played"] + card] = 1
    for _, cards, _ in view.tricks:
        for card in cards:
            out[at["played"] + card] = 1
    out[at["turn_up"] + (c if view.turn_up is None else view.turn_up)] = 1
    out[at["trump"] + (nsuits if view.trump < 0 else view.trump)] = 1
    out[at["phase"] + list(Phase).index(view.phase)] = 1
    out[at["to_act"] + (n if view.to_act is None else (view.to_act - seat) % n)] = 1
    if view.phase not in (Phase.DEAL, Phase.OVER):
        out[at["leader"] + (view.leader - seat) % n] = 1
    for k in range(n):
        out[at["hand_sizes"] + k] = view.hand_sizes[(seat + k) % n] / c
    out[at["stock_size"]] = view.stock_size / c
    teams = len(rules.teams)
    mine = rules.team_of[seat]
    for k in range(teams):
        team = (mine + k) % teams
        out[at["hand_points"] + k] = view.hand_points[team] / max(1, rules.pack_points)
        out[at["standing"] + k] = state.standing()[team] / standing_divisor(rules)
    for _, kind, suit, _ in view.declared:
        if kind >= 0:
            out[at["declared"] + kind * nsuits + suit] = 1
    bidding_part(out, {f.name: f for f in enc.features}, state, seat)
    said_part(out, {f.name: f for f in enc.features}, state, view.actions, seat)
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_the_fast_encoder_is_the_seats_view(name: str) -> None:
    rules = load_rules(name)
    enc = Encoder(rules)
    assert [f.offset for f in enc.features] == \
        [0, *np.cumsum([f.size for f in enc.features])[:-1].tolist()]
    assert len(enc.feature_names()) == enc.size == sum(f.size for f in enc.features)
    rng = random.Random(3)
    state = new_match(rules, 11)
    for _ in range(120):
        if state.terminal:
            break
        for seat in range(rules.nseats):
            assert np.array_equal(enc.vector(state, seat), view_vector(rules, state, seat))
        state.apply(rng.choice(state.legal_actions()))


def _play_openspiel(game: pyspiel.Game, rng: random.Random, limit: int) -> list[pyspiel.State]:
    state = game.new_initial_state()
    states = []
    while not state.is_terminal() and len(states) < limit:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return states


@pytest.mark.parametrize("name", by_family())
def test_information_state_tensors_are_perfect_recall(name: str) -> None:
    """Over random histories, equal tensors mean equal histories (the perfect-recall
    information-state strings) and the other way round."""
    game = pyspiel.load_game(openspiel_game.game_name(name))
    assert game.get_type().provides_information_state_tensor
    size = game.information_state_tensor_size()
    assert size == InfoStateEncoder(load_rules(name)).size
    seen: dict[bytes, str] = {}
    strings: dict[str, bytes] = {}
    rng = random.Random(5)
    limit = 36  # states per game
    for _ in range(2):
        for state in _play_openspiel(game, rng, limit):
            for player in range(game.num_players()):
                tensor = np.asarray(state.information_state_tensor(player), np.float32)
                assert tensor.shape == (size,)
                # a player's own states; a digest stands for the tensor
                key = bytes([player]) + hashlib.blake2b(tensor.tobytes()).digest()
                text = f"{player}|{state.information_state_string(player)}"
                assert seen.setdefault(key, text) == text
                assert strings.setdefault(text, key) == key


def test_cards_passed_within_the_other_side_stay_hidden_in_the_tensor() -> None:
    """Two different sets passed (one card per decision) leave the other side's
    information states equal, and the receiver's different."""
    game = pyspiel.load_game("mariage_marjapussi_de")
    space = game.space
    rng = random.Random(2)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            legal = state.legal_actions()
            picks = [a for a in legal if space.text(a).startswith("pick:")]
            if len(picks) < 5:
                state.apply_action(rng.choice(legal))
                continue
            player = state.current_player()
            sets = (picks[:4], picks[-4:])
            ends = []
            for chosen in sets:
                end = state.clone()
                for a in chosen:
                    end.apply_action(a)
                assert end.current_player() != player or end.gs.pass_step == 1
                ends.append(end)
            receiver = next(s for s in range(4) if s != player and s % 2 == player % 2)
            for viewer in range(4):
                texts = [e.information_state_string(viewer) for e in ends]
                tensors = [bytes(np.asarray(e.information_state_tensor(viewer), np.float32))
                           for e in ends]
                if viewer % 2 != player % 2:
                    assert texts[0] == texts[1] and tensors[0] == tensors[1]
                    assert texts[0].splitlines()[-1].endswith("pick:?")
                else:
                    assert texts[0] != texts[1] and tensors[0] != tensors[1]
                    last = texts[0].splitlines()[-1]
                    assert last.startswith("drew ") == (viewer == receiver)
            return
    pytest.fail("no cards were passed in 20 deals")


@pytest.mark.parametrize("name", RULESETS)
def test_hand_rewards_are_bounded_and_balanced(name: str) -> None:
    rules = load_rules(name)
    rng = random.Random(1)
    state = new_match(rules, 4)
    while len(state.history) < 3 and not state.terminal:
        state.apply(rng.choice(state.legal_actions()))
    kinds = ["hand"] + (["game_points"] if rules.score_kind == "game_points" else [])
    for kind in kinds:
        check_reward(rules, kind)
        for k in range(len(state.history)):
            values = hand_rewards(state, k, kind)
            assert all(-1.0 <= v <= 1.0 for v in values)
            if len(rules.teams) == 2 and state.history[k].score[0] != state.history[k].score[1]:
                assert values[0] == -values[rules.team_of.index(1)] != 0
    if rules.score_kind != "game_points":
        with pytest.raises(ValueError, match=r"needs rules that score game points: .*'hand'"):
            check_reward(rules, "game_points")


def test_pettingzoo_hand_rewards_add_up_to_the_hands() -> None:
    env = MariageEnv("schnapsen", reward="game_points", max_hands=3)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else
                 int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.state_
    assert state is not None and state.history
    expected = [sum(hand_rewards(state, k, "game_points")[s] for k in range(len(state.history)))
                for s in range(2)]
    assert [totals[a] for a in env.possible_agents] == pytest.approx(expected)
    assert expected[0] != 0


def test_pettingzoo_state_shows_every_hand() -> None:
    env = MariageEnv("marianna")
    env.reset(seed=1)
    state = env.state_
    assert state is not None
    vector = env.state()
    assert vector.shape == env.state_space.shape
    rules = state.rules
    for k in range(rules.nseats):
        block = vector[k * rules.ncards:(k + 1) * rules.ncards]
        assert set(np.flatnonzero(block).tolist()) == set(rules.cards_of(state.hands[k]))


@pytest.mark.parametrize("name", RULESETS)
def test_gymnasium_make_plays_a_seeded_episode_reproducibly(name: str) -> None:
    assert env_id(name) in ENV_IDS

    def run() -> list[bytes]:
        env = gymnasium.make(env_id(name), opponents="random", max_hands=1)
        obs, info = env.reset(seed=9)
        out = []
        for _ in range(60):
            out.append(obs["observation"].tobytes())
            legal = np.flatnonzero(obs["action_mask"])
            assert [env.unwrapped.space.text(i) for i in legal] == info["legal"]
            obs, _, terminated, truncated, info = env.step(int(legal[-1]))
            if terminated or truncated:
                break
        env.close()
        return out

    assert run() == run()


def test_gymnasium_checker_and_vector_environments() -> None:
    from gymnasium.utils.env_checker import check_env
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(MariageGymEnv("mariazza", opponents="greedy", illegal_action="replace"),
                  skip_render_check=True)
    fns = [lambda: gymnasium.make("mariage/schnapsen-v0", opponents="random")
           for _ in range(2)]
    for cls in (SyncVectorEnv, AsyncVectorEnv):
        venv = cls(fns)
        obs, _ = venv.reset(seed=[1, 2])
        assert obs["observation"].shape == (2, Encoder(load_rules("schnapsen")).size)
        for _ in range(25):
            actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in obs["action_mask"]]
            obs, rewards, _, _, _ = venv.step(np.array(actions))
            assert rewards.shape == (2,)
        venv.close()


def test_gymnasium_refuses_what_it_cannot_do() -> None:
    env = MariageGymEnv("schnapsen")
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ValueError, match="needs rules that score game points"):
        MariageGymEnv("marianna", reward="game_points")
    with pytest.raises(ValueError, match="render_mode 'human'"):  # only 'ansi' renders
        MariageGymEnv("schnapsen", render_mode="human")
    with pytest.raises(ValueError, match="unknown policy"):
        MariageGymEnv("schnapsen", opponents="grandmaster")
    replaced = MariageGymEnv("schnapsen", illegal_action="replace", illegal_penalty=-0.5)
    obs, _ = replaced.reset(seed=1)
    _, reward, _, _, info = replaced.step(illegal)
    assert info["illegal"] and reward == -0.5


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_policies_decide_from_the_seats_view_only(policy: str) -> None:
    """A policy's choice is the same whatever the cards its seat cannot see."""
    rules = load_rules("marianna")
    rng = random.Random(8)
    state = new_match(rules, 3)
    for _ in range(9):
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_act
    assert seat is not None
    other = determinize(state, seat, random.Random(99))
    assert any(other.hands[s] != state.hands[s] for s in range(4) if s != seat)
    kwargs = {"iterations": 40} if policy == "ismcts" else {}
    a = make_policy(policy, seed=2, **kwargs).choose(state)
    b = make_policy(policy, seed=2, **kwargs).choose(other)
    assert a == b and a in state.legal_actions()


def test_action_space_masks_match_legal_ids() -> None:
    rules = load_rules("marjapussi-de")
    space = ActionSpace(rules)
    state = new_match(rules, 2)
    rng = random.Random(0)
    for _ in range(40):
        if state.terminal:
            break
        assert np.flatnonzero(space.mask(state)).tolist() == space.legal_ids(state)
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", list_rulesets())
def test_random_reads_no_hidden_card(name: str) -> None:
    """The ``random`` policy decides on the state itself: at every decision of random
    hands where a determinization of the seat's view leaves the seat the same legal
    actions, its choice equals that of the same bot (same seed) on the determinization.
    (Where they differ, an answer whose truth turns on a card the seat cannot see, the
    state's own legal actions are the ones the seat is offered.)"""
    rules = load_rules(name)
    rng = random.Random(9)
    compared = 0
    for seed in range(12):
        state = new_match(rules, seed)
        hand = state.hand_no
        while not state.terminal and state.hand_no == hand:
            guess = determinize(state, state.to_act, rng)
            on_state = make_policy("random", seed=seed * 1000 + compared)
            on_guess = make_policy("random", seed=seed * 1000 + compared)
            assert on_state.public_only  # type: ignore[attr-defined]
            on_guess.public_only = False  # type: ignore[attr-defined]  # determinizes
            chosen = on_state.choose(state)
            if guess.legal_actions() == state.legal_actions():
                assert on_guess.choose(guess) == chosen
                compared += 1
            state.apply(chosen)
        if compared >= 60:
            break
    assert compared >= 60
