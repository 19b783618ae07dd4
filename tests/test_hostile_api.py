"""The public library API used wrongly, as a third-party engine author would: every
misuse is a TypeError, a ValueError or one of the project's errors, saying what was
wrong and why; never an IndexError, KeyError or AttributeError from inside, never a
silently wrong state (a seed of -1 dealing as 2**64-1 did, a seat of -1 reading the
last seat's hand).
"""

from __future__ import annotations

from typing import Any

import pytest
from hostilekit import deadline
from mariage import GameState, load_rules, new_match, observe
from mariage.engine.deals import SeededDeals
from mariage.engine.prng import check_seed
from mariage.errors import IllegalActionError

MARIANNA = load_rules("marianna")
BOUND = "whole number from 0 to 2\\*\\*64-1"


@pytest.mark.parametrize("seed", [True, False, 1.0, 1.5, "1", None, b"1", [1]])
def test_a_seed_that_is_not_a_whole_number_is_a_type_error(seed: object) -> None:
    with pytest.raises(TypeError, match=f"seed must be a {BOUND}, not .*{type(seed).__name__}"):
        new_match(MARIANNA, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, -(2**64), 2**64, 2**70])
def test_a_seed_out_of_range_is_a_value_error_not_masked(seed: int) -> None:
    with pytest.raises(ValueError, match=f"seed must be a {BOUND}, not {seed}"):
        new_match(MARIANNA, seed)
    with pytest.raises(ValueError, match=BOUND):
        SeededDeals(MARIANNA, seed)


def test_the_seeds_at_the_bounds_and_numpy_integers_deal() -> None:
    np = pytest.importorskip("numpy")
    top = new_match(MARIANNA, 2**64 - 1)
    assert top.hands != new_match(MARIANNA, 0).hands
    # a numpy integer deals as the same Python int (it overflowed a fixed-width product)
    assert new_match(MARIANNA, np.int64(3)).hands == new_match(MARIANNA, 3).hands
    assert new_match(MARIANNA, np.uint64(2**64 - 1)).hands == top.hands
    assert check_seed(np.int32(5)) == 5 and type(check_seed(np.int32(5))) is int
    with pytest.raises(TypeError, match="float64"):
        new_match(MARIANNA, np.float64(2.0))


@pytest.mark.parametrize("rules", ["marianna", None, 5])
def test_rules_that_are_not_compiled_rules_are_a_type_error(rules: object) -> None:
    with pytest.raises(TypeError, match=r"rules must be a Rules .*load_rules"):
        new_match(rules, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a Rules"):
        GameState(rules)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [4, -1, "0", 1.0, True, None])
def test_observe_with_a_bad_seat_names_the_seats(seat: object) -> None:
    state = new_match(MARIANNA, 1)
    with pytest.raises(ValueError, match=f"observe: seat must be a seat number from 0 to 3, "
                                         f"not {seat!r}"):
        observe(state, seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [4, -1, "x", 3.0])
def test_legal_actions_and_plays_of_a_bad_seat_are_refused(seat: object) -> None:
    state = new_match(MARIANNA, 1)
    with pytest.raises(ValueError, match="legal_actions: seat must be a seat number"):
        state.legal_actions(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="legal_plays: seat must be a seat number"):
        state.legal_plays(seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [4, -1, "0", True])
def test_apply_for_a_bad_seat_is_refused_and_changes_nothing(seat: object) -> None:
    state = new_match(MARIANNA, 1)
    before = (list(state.hands), state.to_act, list(state.actions))
    with pytest.raises(ValueError, match=f"apply: seat must be a seat number from 0 to 3, "
                                         f"not {seat!r}"):
        state.apply(state.legal_actions()[0], seat)  # type: ignore[arg-type]
    assert (state.hands, state.to_act, state.actions) == before


@pytest.mark.parametrize("seat", ["a", 1.0, 4, -1])
def test_resign_of_no_seat_is_an_illegal_action(seat: object) -> None:
    state = new_match(MARIANNA, 1)
    with pytest.raises(IllegalActionError, match=r"no such seat: .* \(seats 0 to 3\)"):
        state.resign(seat)  # type: ignore[arg-type]
    assert not state.terminal


@pytest.mark.parametrize(("name", "options", "message"), [
    (None, None, "the ruleset must be a name or a path, not NoneType"),
    (5, None, "the ruleset must be a name or a path, not int"),
    ("marianna", "target=5", "options must be a mapping .* not str"),
    ("marianna", [("target", 5)], "options must be a mapping .* not list"),
    ("marianna", {1: 2}, "an option name is a string, not 1 \\(int\\)"),
])
def test_load_rules_with_arguments_of_the_wrong_type(name: Any, options: Any,
                                                     message: str) -> None:
    with pytest.raises(TypeError, match=f"load_rules: {message}"):
        load_rules(name, options)


# ---------------------------------------------------------------- the AI layer
def _pettingzoo_env(**kwargs: Any) -> Any:
    pytest.importorskip("pettingzoo")
    from mariage.ai.pettingzoo_env import MariageEnv

    return MariageEnv("schnapsen", **kwargs)


def _gym_env(**kwargs: Any) -> Any:
    pytest.importorskip("gymnasium")
    from mariage.ai.gym_env import MariageGymEnv

    return MariageGymEnv("schnapsen", **kwargs)


@pytest.mark.parametrize("make", [_pettingzoo_env, _gym_env])
@pytest.mark.parametrize("max_hands", [-1, 0, 1.5, "2", True, None])
def test_an_environment_refuses_a_bad_max_hands(make: Any, max_hands: object) -> None:
    with pytest.raises(ValueError, match=f"max_hands must be a whole number of hands, "
                                         f"at least 1, not {max_hands!r}"):
        make(max_hands=max_hands)


@pytest.mark.parametrize("seat", ["0", 1.0, True, 2, -1])
def test_the_gymnasium_environment_refuses_a_bad_seat(seat: object) -> None:
    with pytest.raises(ValueError, match=f"seat {seat!r}: schnapsen has seats 0 to 1"):
        _gym_env(seat=seat)


@pytest.mark.parametrize("call", ["step", "observe", "last", "state", "agent_iter"])
def test_the_pettingzoo_environment_before_reset_says_reset_first(call: str) -> None:
    env = _pettingzoo_env()
    args = {"step": (0,), "observe": ("A",)}.get(call, ())
    with pytest.raises(RuntimeError, match=rf"{call}\(\) before reset\(\): call reset"):
        getattr(env, call)(*args)


@pytest.mark.parametrize("call", ["observe", "action_space", "observation_space"])
@pytest.mark.parametrize("agent", ["player_9", 0, None])
def test_the_pettingzoo_environment_names_its_agents(call: str, agent: object) -> None:
    env = _pettingzoo_env()
    env.reset(seed=1)
    with pytest.raises(ValueError, match=f"no agent {agent!r} in schnapsen "
                                         f"\\(agents: A, B\\)"):
        getattr(env, call)(agent)


@pytest.mark.parametrize("kind", ["float", "str", "list", "numpy float", "bool"])
def test_a_step_that_is_not_an_action_id_is_refused_not_read_as_one(kind: str) -> None:
    np = pytest.importorskip("numpy")

    def bad(legal: int) -> object:  # the legal id in another guise (int() reads it so)
        return {"float": float(legal), "str": str(legal), "list": [legal],
                "numpy float": np.float64(legal), "bool": legal == 1}[kind]

    pz = _pettingzoo_env()
    pz.reset(seed=1)
    legal = np.flatnonzero(pz.observe(pz.agent_selection)["action_mask"])
    if kind == "bool":
        legal = legal[legal == 1]  # True is 1 to int()
        if not len(legal):
            legal = np.array([1])
    before = list(pz.state_.actions)
    with pytest.raises(ValueError, match=r"action .* is not an action id \(0 to"):
        pz.step(bad(int(legal[0])))
    assert pz.state_.actions == before
    gym = _gym_env()
    gym.reset(seed=1)
    assert gym.state is not None
    before = list(gym.state.actions)
    with pytest.raises(ValueError, match="is not an action id: a whole number from 0 to"):
        gym.step(bad(int(np.flatnonzero(gym.action_masks())[0])))
    assert gym.state.actions == before


def test_numpy_action_ids_and_seeds_are_read_as_whole_numbers() -> None:
    np = pytest.importorskip("numpy")
    pz = _pettingzoo_env()
    pz.reset(seed=np.int64(5))
    twin = _pettingzoo_env()
    twin.reset(seed=5)
    assert pz.state_.hands == twin.state_.hands
    legal = np.flatnonzero(pz.observe(pz.agent_selection)["action_mask"])
    pz.step(legal[0])  # an np.int64
    twin.step(int(legal[0]))
    assert pz.state_.actions == twin.state_.actions


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.5, "1"])
def test_the_pettingzoo_environment_refuses_a_bad_seed(seed: object) -> None:
    env = _pettingzoo_env()
    with pytest.raises((TypeError, ValueError), match=f"seed must be a {BOUND}"):
        env.reset(seed=seed)


def test_stepping_after_the_episode_warns_as_pettingzoo_does(
        caplog: pytest.LogCaptureFixture) -> None:
    np = pytest.importorskip("numpy")
    env = _pettingzoo_env(max_hands=1)
    env.reset(seed=3)
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated
                 else int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.agents == []
    env.step(None)  # was a KeyError of the last agent's name
    env.step(0)
    assert caplog.text.count("after all agents are terminated or truncated") == 2


def test_the_gymnasium_environment_refuses_a_step_after_truncation() -> None:
    np = pytest.importorskip("numpy")
    env = _gym_env(max_hands=1)
    env.reset(seed=2)  # the learning seat is to act in the hand after the limit
    truncated = terminated = False
    while not (terminated or truncated):
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert truncated and not terminated and env.state.to_act == env.seat
    hand, actions = env.state.hand_no, list(env.state.actions)
    with pytest.raises(RuntimeError, match="after the episode ended: call reset"):
        env.step(int(np.flatnonzero(env.space.mask(env.state))[0]))  # a legal one
    assert (env.state.hand_no, env.state.actions) == (hand, actions)


# ---------------------------------------------------------------- the notation API
def _record() -> Any:
    from mariage.arena.bots import make_bot
    from mariage.notation import record_match

    return record_match(MARIANNA, 1, [make_bot("random", s) for s in range(4)])


@pytest.mark.parametrize("call", ["check_record", "write_record", "view"])
@pytest.mark.parametrize("value", [None, '[Mariage "1"]\n', b"", {"tags": ()}])
def test_a_record_api_given_no_record_says_so(call: str, value: object) -> None:
    import mariage.notation as notation

    args = (value, "N") if call == "view" else (value,)
    with pytest.raises(TypeError, match=f"{call}: a Record is needed .* not "
                                        f"{type(value).__name__}"):
        getattr(notation, call)(*args)


@pytest.mark.parametrize("call", ["parse_record", "check_text"])
@pytest.mark.parametrize(("value", "hint"), [(b"[Mariage]", "bytes \\(decode it: UTF-8\\)"),
                                             (None, "NoneType"), (5, "int")])
def test_a_text_api_given_no_str_says_so(call: str, value: object, hint: str) -> None:
    import mariage.notation as notation

    with pytest.raises(TypeError, match=f"{call}: the text of a record is a str, not {hint}"):
        getattr(notation, call)(value)


def test_record_match_needs_one_bot_and_one_name_per_seat() -> None:
    from mariage.arena.bots import make_bot
    from mariage.notation import record_match

    with pytest.raises(ValueError, match="record_match: 4 bots are needed, one per seat of "
                                         "marianna, not 1"):
        record_match(MARIANNA, 1, [make_bot("random", 0)])
    bots = [make_bot("random", s) for s in range(4)]
    with pytest.raises(ValueError, match="players: 4 names are needed, one per seat"):
        record_match(MARIANNA, 1, bots, players=["a", "b"])
    with pytest.raises(ValueError, match="players: 4 names are needed"):
        record_match(MARIANNA, 1, bots, players="abcd")  # a string is not four names
    with pytest.raises(ValueError, match=f"seed must be a {BOUND}, not -1"):
        record_match(MARIANNA, -1, bots)
    assert _record().players == {"N": "random", "W": "random", "S": "random", "E": "random"}


def test_the_recorder_refuses_a_first_dealer_that_is_no_seat() -> None:
    from mariage.notation import Recorder

    with pytest.raises(ValueError, match="first_dealer must be a seat number from 0 to 3"):
        Recorder(MARIANNA, 7)


def test_no_first_dealer_is_refused_where_the_rules_have_a_dealer() -> None:
    """None once started a dealerless Marianna: seat 0 led every hand, the deal never
    passed on. It stays the way to say "no dealer" for rules without one (Mariazza)."""
    with pytest.raises(ValueError, match="marianna has a dealer: first_dealer must be a seat"):
        GameState(MARIANNA, first_dealer=None)
    mariazza = GameState(load_rules("mariazza"), first_dealer=None)
    assert mariazza.dealer is None


@pytest.mark.parametrize("team", [-1, 2, True, 1.0, "0", None])
def test_a_side_that_is_no_side_is_refused_by_the_hand_helpers(team: object) -> None:
    """hand_points(-1) read the last side's points, opponent(5) named side -4."""
    state = new_match(MARIANNA, 1)
    for helper in (state.hand_points, state.opponent):
        name = helper.__name__
        with pytest.raises(ValueError, match=f"{name}: team must be a side number from 0 to 1"):
            helper(team)  # type: ignore[arg-type]
    assert (state.hand_points(1), state.opponent(1)) == (0, 0)


# ---------------------------------------------------------------- OpenSpiel and policies
def _openspiel_state(hands: int = 1) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from mariage.ai.openspiel_game import game_name

    return pyspiel.load_game(game_name("schnapsen"), {"hands": hands}).new_initial_state()


def test_openspiel_refuses_a_negative_number_of_hands() -> None:
    with pytest.raises(ValueError, match="hands=-1: the number of hands to play, at least 0"):
        _openspiel_state(-1)


def test_openspiel_refuses_an_action_on_a_terminal_state() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    state = _openspiel_state()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                           else state.legal_actions()[0])
    returns = state.returns()
    with pytest.raises(pyspiel.SpielError, match=r"apply_action\(0\) on a terminal state"):
        state.apply_action(0)
    assert state.returns() == returns


def test_openspiel_names_no_action_or_player_out_of_range() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    state = _openspiel_state()
    assert state.is_chance_node()  # the first dealer, by lot
    with pytest.raises(ValueError, match="chance outcome 5 is no seat \\(0 to 1\\)"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, 5)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    size = state.get_game().num_distinct_actions()
    with pytest.raises(ValueError, match=f"action {size} is not an action id"):
        state.action_to_string(state.current_player(), size)
    with pytest.raises(pyspiel.SpielError, match="for player 2: the players are 0 to 1"):
        state.legal_actions(2)


def test_openspiel_names_no_card_among_the_chance_outcomes() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    state = _openspiel_state()
    while state.chance_outcomes()[0][1] == 0.5:  # past the lots of seats, to the cards
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="chance outcome -1 is no card \\(0 to 19\\)"):
        state.action_to_string(pyspiel.PlayerId.CHANCE, -1)  # was the last card's code


@pytest.mark.parametrize("seed", ["x", 1.5, True, None])
def test_a_policy_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    pytest.importorskip("numpy")
    from mariage.ai.policies import make_policy

    with pytest.raises(TypeError, match=f"a policy's seed is a whole number, not {seed!r}"):
        make_policy("greedy", seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(("budget", "message"), [
    ({"iterations": 0}, "iterations must be a whole number, at least 1, not 0"),
    ({"iterations": -3}, "iterations must be a whole number, at least 1, not -3"),
    ({"iterations": 2.5}, "iterations must be .* not 2.5"),
    ({"seconds": 0}, "seconds must be a number of seconds more than 0, not 0"),
    ({"seconds": float("nan")}, "seconds must be .* not nan"),
])
def test_an_ismcts_budget_that_is_none_is_refused(budget: dict[str, Any], message: str) -> None:
    pytest.importorskip("numpy")
    from mariage.ai.policies import make_policy

    with pytest.raises(ValueError, match=message):
        make_policy("ismcts", **budget)


@pytest.mark.parametrize("name", ["random", "first", "greedy", "ismcts"])
def test_a_policy_asked_where_nobody_is_to_act_says_why(name: str) -> None:
    pytest.importorskip("numpy")
    from mariage.ai.policies import make_policy

    policy = make_policy(name, seed=1, iterations=5 if name == "ismcts" else None)
    over = new_match(MARIANNA, 1)
    over.resign(0)
    with pytest.raises(ValueError, match="no seat to act: the match is over"):
        policy.choose(over)
    with pytest.raises(ValueError, match="no seat to act: the next hand is not dealt"):
        policy.choose(GameState(MARIANNA))
    with pytest.raises(TypeError, match="a policy chooses in a GameState, not str"):
        policy.choose("AH")  # type: ignore[arg-type]


def test_the_agent_engine_refuses_no_iterations_without_a_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("numpy")
    from mariage.arena.agent_engine import main

    assert main(["--policy", "ismcts", "--iterations", "0"]) == 2
    err = capsys.readouterr().err
    assert err == "agent_engine: error: iterations must be a whole number, at least 1, not 0\n"


# ---------------------------------------------------------------- texts, masks and decks
@pytest.mark.parametrize("mask", [-1, -(1 << 40), 1 << 40])
def test_a_mask_of_no_cards_is_refused_not_looped_on(mask: int) -> None:
    with deadline(5), pytest.raises(ValueError, match="is no set of cards: the pack has 40"):
        MARIANNA.format_cards(mask)  # -1 looped for ever
    if mask < 0:
        with deadline(5), pytest.raises(ValueError, match="a mask of cards is a whole number"):
            MARIANNA.cards_of(mask)


@pytest.mark.parametrize("card", [-1, 40, 99, 2**70])
def test_a_card_out_of_the_pack_is_shown_as_what_it_is(card: int) -> None:
    from mariage import Play, action_text

    assert action_text(MARIANNA, Play(card)) == f"<Play Play(card={card!r})>"  # -1 was '2S'
    state = new_match(MARIANNA, 1)
    with pytest.raises(IllegalActionError, match=r"action '<Play Play\(card="):
        state.apply(Play(card))


@pytest.mark.parametrize("call", ["parse_action", "action_text"])
def test_action_texts_need_compiled_rules(call: str) -> None:
    import mariage

    arg = "AH" if call == "parse_action" else mariage.Play(0)
    with pytest.raises(TypeError, match=f"{call}: rules must be a Rules .* not str"):
        getattr(mariage, call)("marianna", arg)


@pytest.mark.parametrize("text", [None, 5, b"AH"])
def test_parse_action_of_no_text_is_a_type_error(text: object) -> None:
    from mariage import parse_action

    with pytest.raises(TypeError, match=f"parse_action: the text of an action is a str, "
                                        f"not {type(text).__name__}"):
        parse_action(MARIANNA, text)  # type: ignore[arg-type]


def test_canonical_deck_and_mechanisms_of_the_wrong_kind() -> None:
    from mariage import canonical_deck

    with pytest.raises(TypeError, match="canonical_deck: rules must be a Rules"):
        canonical_deck("marianna")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"mechanisms must be a Mechanisms .* not NoneType"):
        GameState(MARIANNA, 0, None)  # type: ignore[arg-type]


@pytest.mark.parametrize("card", ["AH", 1.0, None, True])
@pytest.mark.parametrize("undo", [False, True])
def test_a_play_of_no_card_number_is_refused_saying_why(card: object, undo: bool) -> None:
    from mariage import Play

    state = new_match(MARIANNA, 1)
    if undo:
        state.enable_undo()
    before = (list(state.hands), state.to_act, list(state.trick_cards))
    # was a TypeError ('<' not supported...), or True played as card 1 where it was held
    with pytest.raises(IllegalActionError, match=r"a card is a whole number of the pack "
                                                 r".*\[core.hand\]"):
        state.apply(Play(card))  # type: ignore[arg-type]
    assert (state.hands, state.to_act, state.trick_cards) == before
    assert state.undo_depth == 0


@pytest.mark.parametrize("on", ["no", 0, 1, None])
def test_enable_undo_takes_a_bool(on: object) -> None:
    state = new_match(load_rules("marianna"), seed=1)
    with pytest.raises(TypeError, match="True or False"):
        state.enable_undo(on)  # type: ignore[arg-type]
    state.apply(state.legal_actions()[0])
    assert state.undo_depth == 0  # undo stayed off: nothing journaled


@pytest.mark.parametrize("fields", [("x", "y"), (0, 1.0), (True, 0), (99, 0), (-1, 0)])
def test_a_declaration_of_odd_fields_is_refused_saying_what_it_was(
        fields: tuple[Any, Any]) -> None:
    from mariage.engine.actions import Declare
    from mariage.engine.actiontext import action_text

    rules = load_rules("marianna")
    state = new_match(rules, seed=1)
    odd = Declare(*fields)
    assert action_text(rules, odd).startswith("<Declare ")  # never another declaration
    # a field of another type is named (mariage.engine.actionfields), a number out of range
    # is no declaration of the rules
    with pytest.raises(IllegalActionError,
                       match=r"no such declaration|(decl|suit) is a whole number"):
        state.apply(odd)
