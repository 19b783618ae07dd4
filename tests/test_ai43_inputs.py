"""Wrong arguments to the AI environments, as the forty-third hostile round found them:
each refused at once, saying what is allowed, as the other environments do."""

from __future__ import annotations

import pytest
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
