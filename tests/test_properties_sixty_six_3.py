"""Properties of random Sixty-six for three matches, checked against the rules notes.

The generic referee (test_properties.py) does not model game points, and the
talon referee (test_properties_talon.py) models a two-seat table; here every
step of a random match is checked for what the three-hand form adds (the rules
notes, section 3), by :func:`test_rules_sixty_six_3.check_match`: the dealer is
dealt nothing, never acts and plays no card; the player on his left leads; a
hand's winner is one of the two others; the dealer scores the winner's game
points, stopping one short of the target; the deal passes to the left; the
match ends with one player at the target.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from propkit import SEEDS, option_grid, options_for, rules_for
from test_rules_sixty_six_3 import X3, check_match


def test_every_option_combination_plays_clean_matches() -> None:
    for i, options in enumerate(option_grid(X3)):
        rules = rules_for(X3, {**options, "match_target": 3 if i % 2 else 7})
        state = check_match(rules, i)
        assert state.terminal and len(state.history) >= 1


@given(data=st.data(), seed=SEEDS)
def test_random_three_hand_matches_keep_every_invariant(data: st.DataObject, seed: int) -> None:
    rules = rules_for(X3, data.draw(options_for(X3), label="options"))
    assert check_match(rules, seed).terminal
