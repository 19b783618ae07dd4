"""Wrong arguments to the AI environments, as the forty-third hostile round found them:
each refused at once, saying what is allowed, as the other environments do."""

from __future__ import annotations

import numpy as np
import pytest
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.pettingzoo_env import env as pz_env


@pytest.mark.parametrize("mode", ["bogus", 5, "rgb_array", "human", ""])
def test_pettingzoo_refuses_a_render_mode_it_has_not(mode: object) -> None:
    """Was accepted, and ``render()`` then returned ``None`` (Gymnasium's env refused)."""
    with pytest.raises(ValueError, match=r"^render_mode .*: None or 'ansi'"):
        pz_env("sixty-six-3", render_mode=mode)  # type: ignore[arg-type]


def test_pettingzoo_renders_ansi_and_none() -> None:
    for mode in (None, "ansi"):
        e = pz_env("schnapsen", render_mode=mode)
        e.reset(seed=1)
        shown = e.render()
        assert (shown is None) == (mode is None)
        assert mode is None or (isinstance(shown, str) and shown)


@pytest.mark.parametrize("mode", ["raise", "replace"])
@pytest.mark.parametrize("action", [61, -1, 2**64, np.int64(100)])
def test_gymnasium_refuses_an_id_outside_the_space_whatever_illegal_action_says(
        mode: str, action: object) -> None:
    """Was "action 61 is not legal for seat A now" (and, with ``replace``, taken as the
    first legal action): an id no action has is not an illegal move but a wrong
    argument, as PettingZoo and OpenSpiel say."""
    env = MariageGymEnv("sixty-six-3", illegal_action=mode)
    env.reset(seed=3)
    with pytest.raises(ValueError, match=r"is not an action id \(0 to 60\)$"):
        env.step(action)  # type: ignore[arg-type]


def test_gymnasium_replaces_an_illegal_id_of_the_space() -> None:
    env = MariageGymEnv("sixty-six-3", illegal_action="replace")
    obs, _ = env.reset(seed=3)
    wrong = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(wrong)
    assert info.get("illegal") is True


@pytest.mark.parametrize("seed", [np.int64(3), np.int64(-1), np.bool_(True), 3.0, "3"])
def test_gymnasium_refuses_what_gymnasium_refuses_as_a_seed(seed: object) -> None:
    """Decided: a seed is what Gymnasium's own environments take, a Python int (a numpy
    integer is refused there too, ``test_ai35_gymreset``); PettingZoo's reset is more
    lenient, as PettingZoo's own environments are."""
    env = MariageGymEnv("thousand")
    with pytest.raises(Exception, match="Seed must be"):
        env.reset(seed=seed)  # type: ignore[arg-type]
