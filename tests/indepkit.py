"""What the independent checks share: each action's text under a ruleset, worked out once.

The match drivers of ``test_independent_*`` read the text of every legal action at every
step (a passing phase offers a hundred sets of cards, each a ``Give`` whose text names
its cards); :func:`~mariage.action_text` is a function of the rules and the action alone,
so a text is kept for the next time the same action is offered under the same rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mariage import Rules, action_text

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
