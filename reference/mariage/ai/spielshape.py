"""The shape of a ruleset's OpenSpiel game: its short name, the bound on the nodes of
one hand (OpenSpiel's ``max_game_length``), and the rows of chance outcomes dealt from.

>>> from mariage import load_rules
>>> game_name("sixty-six-4"), hand_bound(load_rules("schnapsen"))
('mariage_sixty_six_4', 110)
>>> chance_rows(3)[2]
((0, 0.5), (1, 0.5), (2, 0.5))
"""

from __future__ import annotations

from collections.abc import Iterable

from mariage.engine.rules import Rules

__all__ = ["chance_rows", "claim_game_name", "game_name", "hand_bound"]

#: what each game name was registered with here: (ruleset, its option values)
_CLAIMED: dict[str, tuple[str, tuple[tuple[str, object], ...]]] = {}


def game_name(ruleset: str) -> str:
    """The OpenSpiel short name of ``ruleset``."""
    return "mariage_" + ruleset.replace("-", "_")


def claim_game_name(name: object, ruleset: str, rules: Rules,
                    registered: Iterable[str]) -> bool:
    """Whether OpenSpiel game ``name`` is to be registered for ``ruleset`` under ``rules``
    (``False``: this name already plays them). A name that is no text, is empty, or is
    held by another game (a bundled ruleset's, an earlier ``register``'s with other
    options, one of OpenSpiel's own) is a ``TypeError`` or ``ValueError``: pyspiel
    replaced that game without a word (``register("schnapsen",
    name="mariage_sixty_six_3")`` made ``load_game("mariage_sixty_six_3")`` Schnapsen for
    two).
    """
    if not isinstance(name, str):
        raise TypeError(f"register: the game's name is text, not {type(name).__name__}")
    if not name or name != name.strip():
        raise ValueError(f"register: the game's name {name!r} is empty or has spaces "
                         "around it")
    held, wanted = _CLAIMED.get(name), (ruleset, tuple(rules.options))
    if held == wanted:
        return False
    if held is not None or name in set(registered):
        what = (f"{held[0]} with other options" if held and held[0] == ruleset
                else held[0] if held else "a game of OpenSpiel's")
        raise ValueError(f"register: the name {name!r} is already registered ({what}); "
                         "give another name")
    _CLAIMED[name] = wanted
    return True


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
