"""What the independent checks share: each action's text under a ruleset, worked out once
(and the codes of a hand's cards); how many seeded matches their slow runs play.

The match drivers of ``test_independent_*`` read the text of every legal action at every
step (a passing phase offers a hundred sets of cards, each a ``Give`` whose text names
its cards); :func:`~mariage.action_text` is a function of the rules and the action alone,
so a text is kept for the next time the same action is offered under the same rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from mariage import Rules, action_text

#: ``MARIAGE_TEST_DEPTH=deep``: the slow ``*_many`` runs of the independent checks play all
#: their seeded matches (before a release, and when an oracle or a family's rules
#: change); unset (CI), as many as :func:`many` says a configuration needs.
DEEP = os.environ.get("MARIAGE_TEST_DEPTH", "") == "deep"


def many(deep: int, saturated: int | None = None, floor: int = 1,
         before: int | None = None) -> int:
    """How many seeded matches a slow ``*_many`` check plays: ``deep`` under
    ``MARIAGE_TEST_DEPTH=deep``; else ``before`` (the CI's count before the thirty-second
    session: half of them unless given), fewer for a configuration whose ``saturated``
    seed says so: one and a half times the seeds up to it (the seed after which the lines
    of its module that the configuration reaches over ``deep`` seeds stop growing:
    :func:`saturation`), at least ``floor`` (the default run's count). Either every line
    reached over ``deep`` seeds is reached, or the count is what it was.

    >>> DEEP or (many(200, 0, 8), many(200, 9, 8), many(200, 150, 8), many(200)) == (
    ...     8, 15, 100, 100)
    True
    """
    if DEEP:
        return deep
    half = max(1, deep // 2) if before is None else before
    if saturated is None:
        return half
    return min(half, max(floor, -(-3 * (saturated + 1) // 2)))


def saturation(table: str) -> dict[str, int]:
    """A table of saturation seeds, a configuration a line (``SEED label``) -> label: seed.

    >>> saturation('''
    ... 12 belote undertrump=optional
    ... 0 thousand''')
    {'belote undertrump=optional': 12, 'thousand': 0}
    """
    return {label: int(seed) for seed, _, label in
            (line.partition(" ") for line in table.strip().splitlines())}


#: id of the rules -> (the rules, kept alive so that the id is theirs; action -> text)
_TEXTS: dict[int, tuple[Rules, dict[Any, str]]] = {}


def text_memo(rules: Rules) -> dict[Any, str]:
    """The texts of the actions worked out so far under ``rules`` (action -> text)."""
    held = _TEXTS.get(id(rules))
    if held is None or held[0] is not rules:
        held = _TEXTS[id(rules)] = (rules, {})
    return held[1]


def text_of(rules: Rules, action: Any) -> str:
    """``action_text(rules, action)``, worked out once."""
    memo = text_memo(rules)
    text = memo.get(action)
    if text is None:
        text = memo[action] = action_text(rules, action)
    return text


def texts_of(rules: Rules, actions: Iterable[Any]) -> list[str]:
    """``[action_text(rules, a) for a in actions]``, each text worked out once."""
    memo = text_memo(rules)
    out = []
    for action in actions:
        text = memo.get(action)
        if text is None:
            text = memo[action] = action_text(rules, action)
        out.append(text)
    return out


#: id of the rules -> (the rules, the codes of each byte of a mask of cards, low to high)
_CODES: dict[int, tuple[Rules, list[tuple[tuple[str, ...], ...]]]] = {}


def codes_of(rules: Rules, mask: int) -> list[str]:
    """``rules.format_cards(mask).split()`` (the codes of a mask's cards in card order),
    eight cards a lookup.

    >>> from mariage import load_rules
    >>> rules = load_rules("belote")
    >>> all(codes_of(rules, m) == rules.format_cards(m).split() for m in (0, 5, 2**32 - 1))
    True
    """
    held = _CODES.get(id(rules))
    if held is None or held[0] is not rules:
        code = rules.card_code
        tables = [tuple(tuple(code[g + b] for b in range(8) if byte >> b & 1 and g + b < len(code))
                        for byte in range(256)) for g in range(0, len(code), 8)]
        held = _CODES[id(rules)] = (rules, tables)
    if mask >> len(rules.card_code) or mask < 0:
        return rules.format_cards(mask).split()  # its error for bits of no card
    out: list[str] = []
    for table in held[1]:
        if not mask:
            break
        out += table[mask & 255]
        mask >>= 8
    return out
