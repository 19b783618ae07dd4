"""The AI framework interfaces: fixed action ids, masks, observation vectors,
PettingZoo's own API test and OpenSpiel's own random-simulation test, for every ruleset."""

from __future__ import annotations

import random
import runpy
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from families import by_family
from mariage import list_rulesets, load_rules, new_match
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace, Encoder
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.arena import determinize
from pettingzoo.test import api_test

RULESETS = list_rulesets()


@pytest.mark.parametrize("name", RULESETS)
def test_masks_and_ids_follow_the_legal_actions(name: str) -> None:
    rules = load_rules(name)
    space = ActionSpace(rules)
    assert len(set(space.actions)) == space.size
    encoder = Encoder(rules)
    rng = random.Random(4)
    state = new_match(rules, 6)
    picked = 0  # the cards picked so far of a set passed one card per decision
    for _ in range(150):
        if state.terminal:
            break
        seat = state.to_act
        assert seat is not None
        mask = space.mask(state, picked=picked)
        if not picked:  # a set's first pick: every card of some legal set
            legal = state.legal_actions()
            assert np.flatnonzero(mask).tolist() == sorted(
                {i for a in legal for i in space.action_ids(a)})
        vector = encoder.vector(state, seat, picked)
        assert vector.shape == (encoder.size,) and vector.dtype == np.float32
        # the vector is made of the seat's view only: a redeal of the hidden cards leaves it
        guess = determinize(state, seat, rng)
        assert np.array_equal(encoder.vector(guess, seat, picked), vector)
        picked = space.play(state, rng.choice(np.flatnonzero(mask).tolist()), picked)


@pytest.mark.parametrize("name", RULESETS)
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(MariageEnv(name, max_hands=2), num_cycles=200)


def test_pettingzoo_episode_rewards_the_winning_team() -> None:
    env = MariageEnv("marianna", options={"target": 101})
    env.reset(seed=2)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else
                 int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = env.state_
    assert state is not None and state.result is not None
    winner = state.result.winner
    for agent, total in totals.items():
        team = state.rules.team_of[env.possible_agents.index(agent)]
        assert total == (0.0 if winner is None else 1.0 if team == winner else -1.0)


def test_pettingzoo_step_refuses_what_is_no_legal_action_id() -> None:
    """A live agent's step with no action, a number that is no action id (out of range,
    not whole, a string) or an illegal one fails with a ValueError that says so, and
    changes nothing; a NumPy integer is an action id."""
    env = MariageEnv("schnapsen")
    env.reset(seed=1)
    state = env.state_
    assert state is not None
    agent = env.agent_selection
    legal = int(np.flatnonzero(env.observe(agent)["action_mask"])[0])
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    for bad, message in ((None, "needs an action id, not None"),
                         (-1, "is not an action id"), (env.space.size, "is not an action id"),
                         (legal + 0.5, "is not an action id"), (str(legal), "is not an action id"),
                         (illegal, "is not legal for")):
        with pytest.raises(ValueError, match=message):
            env.step(bad)  # type: ignore[arg-type]
        assert env.agent_selection == agent and len(state.actions) == 0
    env.step(np.int64(legal))  # type: ignore[arg-type]
    assert len(state.actions) == 1


@pytest.mark.parametrize("name", by_family())
def test_openspiel_random_simulation_test_passes(name: str) -> None:
    game = pyspiel.load_game(openspiel_game.game_name(name))
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_information_states_hide_other_hands() -> None:
    game = pyspiel.load_game("mariage_marianna")
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[len(outcomes) // 2][0])
    rules = load_rules("marianna")
    strings = [state.information_state_string(p) for p in range(4)]
    assert len(set(strings)) == 4
    for text in strings:
        dealt = text.splitlines()[-1]
        assert dealt.startswith("hand 1: dealt ")
        # (then, after a ";", the cards shown, the turned-up card, the seat to act)
        own = dealt.removeprefix("hand 1: dealt ").split(";")[0]
        assert len(own.split()) == rules.hand_size
    clone = state.clone()
    action = state.legal_actions()[0]
    clone.apply_action(action)
    assert state.information_state_string(0) == strings[0]
    assert clone.information_state_string(0).endswith(state.action_to_string(action))


def _played_out(game: pyspiel.Game, rng: random.Random) -> pyspiel.State:
    """A new state of ``game`` played to its end at random (chance by its outcomes)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_openspiel_whole_match_returns_are_zero_sum() -> None:
    game = pyspiel.load_game("mariage_mariazza", {"hands": 0})
    returns = _played_out(game, random.Random(1)).returns()
    assert sum(returns) == 0 and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", RULESETS)
def test_openspiel_declares_the_utility_its_returns_have(name: str) -> None:
    """Two sides (two seats or two teams): ZERO_SUM, and every hand's returns add up to 0;
    three or more sides: GENERAL_SUM (a hand's returns need not add up to a constant)."""
    game = pyspiel.load_game(openspiel_game.game_name(name), {"chance": "sampled"})
    sides = len(load_rules(name).teams)
    utility = game.get_type().utility
    assert utility == (pyspiel.GameType.Utility.ZERO_SUM if sides == 2
                       else pyspiel.GameType.Utility.GENERAL_SUM)
    rng = random.Random(2)
    for _ in range(3):
        state = _played_out(game, rng)
        if sides == 2:
            assert sum(state.returns()) == 0


def test_the_documented_evaluation_example_measures_the_saved_weights(tmp_path: Path) -> None:
    """``evaluate_agent.py`` plays the weights ``train_schnapsen.py`` saved: weights
    that make the agent take its lowest legal action id (every weight 0 but the bias,
    which falls with the id) win and lose exactly as a policy that does so."""
    examples = Path(__file__).resolve().parent.parent / "docs" / "examples"
    module = runpy.run_path(str(examples / "evaluate_agent.py"))
    rules = load_rules("schnapsen")
    n, size = ActionSpace(rules).size, Encoder(rules).size
    w = np.zeros((n, size + 1))
    w[:, -1] = -np.arange(n)  # the lowest legal id: the first legal action
    np.savez(tmp_path / "agent.npz", w=w)
    got = module["evaluate_agent"](str(tmp_path / "agent.npz"), ["greedy"], deals=3, seed=5)
    assert [(e.a, e.b, e.games) for e in got] == [("trained", "greedy", 6)]
    from mariage.ai.evaluate import evaluate

    space = ActionSpace(rules)

    class Lowest:
        name = "lowest"

        def choose(self, state: object) -> object:
            return space.decide(state, lambda mask, picked: int(mask.nonzero()[0][0]))

    lowest = evaluate("schnapsen", Lowest(), "greedy", deals=3, seed=5)
    assert (got[0].wins, got[0].losses) == (lowest.wins, lowest.losses)


def test_the_training_example_refuses_missing_weights_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent engine's factory ends with a message, not a traceback, where
    ``MARIAGE_AGENT`` names no weights (``mariage match`` shows the engine's last line)."""
    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "train_schnapsen.py"
    load = runpy.run_path(str(example))["load"]
    monkeypatch.setenv("MARIAGE_AGENT", str(tmp_path / "none.npz"))
    with pytest.raises(SystemExit, match=r"no weights in .*none\.npz.*MARIAGE_AGENT"):
        load(load_rules("schnapsen"))


def test_openspiel_games_and_states_pickle() -> None:
    """A game pickles by its registered class, a state as its game and its actions."""
    import pickle

    game = pyspiel.load_game(openspiel_game.game_name("schnapsen"))
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.legal_actions() == state.legal_actions()
    assert type(pickle.loads(pickle.dumps(game))) is type(game)


@pytest.mark.parametrize("params", [{"hands": 2}, {"hands": 2, "chance": "sampled", "seed": 4}])
def test_openspiel_clone_shares_the_game_tables_and_copies_the_rest(params: dict) -> None:
    """pyspiel's ``clone()`` deep-copies each attribute of a Python state: the game's
    tables are shared (not walked: a clone cost milliseconds before), what changes
    is copied, and the clone goes on exactly as the original."""
    game = pyspiel.load_game("mariage_thousand", params)
    rng = random.Random(5)
    state = game.new_initial_state()

    def step(*states: pyspiel.State) -> None:
        first = states[0]
        if first.is_chance_node():
            action = rng.choice(first.chance_outcomes())[0]
        else:
            action = rng.choice(first.legal_actions())
        for s in states:
            s.apply_action(action)

    checked = 0
    while not state.is_terminal():
        step(state)
        if state.move_number() % 11 == 0 and not state.is_terminal():
            clone = state.clone()
            assert clone.rules is state.rules and clone._space is state._space
            assert clone._rows is state._rows and clone._plays is state._plays
            assert clone.hands_before is state.hands_before
            assert clone.steps_all == state.steps_all
            assert clone.steps_all is not state.steps_all and clone.gs is not state.gs
            twin = state.clone()
            for _ in range(30):
                if twin.is_terminal():
                    break
                step(twin, clone)
            assert clone.history() == twin.history() and str(clone) == str(twin)
            for player in range(game.num_players()):
                assert (clone.information_state_tensor(player)
                        == twin.information_state_tensor(player))
            checked += 1
    assert checked >= 3


def test_the_training_example_refuses_bad_arguments_before_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown opponent, a missing folder or a negative budget is one line of
    ``usage`` (exit 2), not a traceback after the training; ``--out`` without ``.npz``
    says where numpy saved the weights (it adds the suffix)."""
    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "train_schnapsen.py"
    main = runpy.run_path(str(example))["main"]
    for argv, says in ((["--opponents", "grandmaster"], "unknown policy 'grandmaster'"),
                       (["--out", str(tmp_path / "no" / "a.npz")], "there is no folder"),
                       (["--hands", "-1"], "--hands must be 0 or more")):
        with pytest.raises(SystemExit) as exit_:
            main(["--hands", "1", *argv])  # (the last --hands counts)
        assert exit_.value.code == 2 and says in capsys.readouterr().err
    main(["--hands", "1", "--deals", "1", "--out", str(tmp_path / "w")])
    assert capsys.readouterr().out.endswith(f"weights saved to {tmp_path / 'w.npz'}\n")
    assert (tmp_path / "w.npz").exists()
