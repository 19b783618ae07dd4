"""What the independent checks share: each action's text under a ruleset, worked out once;
how many seeded matches their slow runs play.

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
#: change); unset (CI), half of them: every configuration is still played by the default
#: run's few matches and by the slow run's half (the thirty-first session: the CI's time).
DEEP = os.environ.get("MARIAGE_TEST_DEPTH", "") == "deep"


def many(deep: int) -> int:
    """How many seeded matches a slow ``*_many`` check plays: ``deep`` under
    ``MARIAGE_TEST_DEPTH=deep``, else half of them (at least one).

    >>> many(200) in (100, 200), many(1)
    (True, 1)
    """
    return deep if DEEP else max(1, deep // 2)


#: id of the rules -> (the rules, kept alive so that the id is theirs; action -> text)
_TEXTS: dict[int, tuple[Rules, dict[Any, str]]] = {}


def texts_of(rules: Rules, actions: Iterable[Any]) -> list[str]:
    """``[action_text(rules, a) for a in actions]``, each text worked out once."""
    held = _TEXTS.get(id(rules))
    if held is None or held[0] is not rules:
        held = _TEXTS[id(rules)] = (rules, {})
    memo = held[1]
    out = []
    for action in actions:
        text = memo.get(action)
        if text is None:
            text = memo[action] = action_text(rules, action)
        out.append(text)
    return out
