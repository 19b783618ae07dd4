"""The Gymnasium environment's ``opponents``: a name, or one name per other seat; a
policy object of one's own is refused with what is taken (it was Python's "object is
not iterable")."""

from __future__ import annotations

import pytest
from mariage.ai.gym_env import MariageGymEnv


class OwnPolicy:
    """A policy of a user's own, as a researcher would try to pass it."""

    def choose(self, state: object) -> object:
        return state


@pytest.mark.parametrize("opponents", [OwnPolicy(), 5, None])
def test_an_object_not_a_name_is_refused_saying_what_is_taken(opponents: object) -> None:
    with pytest.raises(TypeError) as err:
        MariageGymEnv("schnapsen", opponents=opponents)  # type: ignore[arg-type]
    said = str(err.value)
    assert said.startswith("opponents: a policy's name or a list of one name per other seat")
    assert type(opponents).__name__ in said and "PettingZoo" in said


@pytest.mark.parametrize("opponents", ["random", ["random"], ("greedy",), iter(["first"])])
def test_names_are_taken_as_before(opponents: object) -> None:
    env = MariageGymEnv("schnapsen", opponents=opponents)  # type: ignore[arg-type]
    obs, _ = env.reset(seed=3)
    assert obs["action_mask"].any()
