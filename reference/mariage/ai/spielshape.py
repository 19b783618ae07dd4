"""The shape of a ruleset's OpenSpiel game: its short name, the bound on the nodes of
one hand (OpenSpiel's ``max_game_length``), and the rows of chance outcomes dealt from.

>>> from mariage import load_rules
>>> game_name("sixty-six-4"), hand_bound(load_rules("schnapsen"))
('mariage_sixty_six_4', 110)
>>> chance_rows(3)[2]
((0, 0.5), (1, 0.5), (2, 0.5))
"""

from __future__ import annotations

from mariage.engine.rules import Rules

__all__ = ["chance_rows", "game_name", "hand_bound"]


def game_name(ruleset: str) -> str:
    """The OpenSpiel short name of ``ruleset``."""
    return "mariage_" + ruleset.replace("-", "_")


def hand_bound(rules: Rules) -> int:
    """An upper bound on the chance nodes and decisions of one hand."""
    picks = sum(count for _, _, count in rules.passing_steps)
    return 2 + rules.ncards + 4 * rules.ncards + 4 * rules.nseats + picks


def chance_rows(ncards: int) -> tuple[tuple[tuple[int, float], ...], ...]:
    """Per number of cards left (0 to ``ncards``), each card's (card, 1 / cards left):
    the state's chance outcomes are those of the cards not yet dealt, taken from the
    row of their number."""
    return tuple(tuple((c, 1.0 / left) for c in range(ncards)) if left else ()
                 for left in range(ncards + 1))
