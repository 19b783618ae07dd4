"""The public library API used wrongly, as a third-party engine author would: every
misuse is a TypeError, a ValueError or one of the project's errors, saying what was
wrong and why; never an IndexError, KeyError or AttributeError from inside, never a
silently wrong state (a seed of -1 dealing as 2**64-1 did, a seat of -1 reading the
last seat's hand).
"""

from __future__ import annotations

from typing import Any

import pytest
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
