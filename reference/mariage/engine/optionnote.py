"""Option values as the rulebook and the validator's messages write them.

A rule whose data an option changes (:attr:`~mariage.engine.rules.RuleInfo.options`)
is read ``(option duty_reading = always, default opponent_winning)`` where the option
is set away from its default, ``(option accusa_when, default leader)`` where it is not.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mariage.engine.rules import Rules

__all__ = ["option_note", "show_value"]


def show_value(value: Any) -> str:
    """An option value as written on a command line (``true``, ``501``, ``on_turn``)."""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def option_note(names: Sequence[str], rules: Rules) -> str:
    """``option NAME, default D`` (``option NAME = V, default D`` where set otherwise)
    for each of ``names``, joined by a semicolon and a space.

    >>> from mariage import load_rules
    >>> option_note(["duty_reading"], load_rules("mariglia", {"duty_reading": "always"}))
    'option duty_reading = always, default opponent_winning'
    >>> option_note(["target", "tie"], load_rules("marianna"))
    'option target, default 501; option tie, default play_on'
    """
    values = dict(rules.options)
    defaults = dict(rules.defaults)
    notes = []
    for name in names:
        if name not in values:
            notes.append(f"option {name}")
            continue
        now, default = show_value(values[name]), show_value(defaults[name])
        if now == default:
            notes.append(f"option {name}, default {default}")
        else:
            notes.append(f"option {name} = {now}, default {default}")
    return "; ".join(notes)
