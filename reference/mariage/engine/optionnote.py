"""Option values as the rulebook and the validator's messages write them.

A rule whose data an option changes (:attr:`~mariage.engine.rules.RuleInfo.options`)
is read ``(option duty_reading = always, default opponent_winning)`` where the option
is set away from its default, ``(option accusa_when, default leader)`` where it is not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from mariage.engine.rules import Rules

__all__ = ["PLACEHOLDER", "counted", "option_note", "show_value", "with_values"]

#: an option value cited in a text: ``{target}`` (rule texts, summaries, aims)
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


#: a count of one written with a plural noun, as an option value of 1 leaves a text
#: written for many: ``1 points``, ``1 such hands``
_ONE_MANY = re.compile(r"(?<![\d.,])\b1 ((?:such |game |card )?)"
                       r"(points|hands|segni|tricks|calls|cards|bolts|attempts)\b")
_SINGULAR = {"points": "point", "hands": "hand", "segni": "segno", "tricks": "trick",
             "calls": "call", "cards": "card", "bolts": "bolt", "attempts": "attempt"}


def counted(text: str) -> str:
    """``text`` with a count of one followed by its noun in the singular: texts are written
    for the usual values (``first to {target} points``), and an option may be set to 1.

    >>> counted("the first team to 1 points wins; 1 segni win the match, 10 hands")
    'the first team to 1 point wins; 1 segno win the match, 10 hands'
    """
    return _ONE_MANY.sub(lambda m: f"1 {m.group(1)}{_SINGULAR[m.group(2)]}", text)


def show_value(value: Any) -> str:
    """An option value as written on a command line (``true``, ``501``, ``on_turn``)."""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def with_values(text: str, rules: Rules) -> str:
    """``text`` with the option values in force put in, as rule texts have them (a
    ruleset's summary and aim): ``{target}`` becomes ``2000``; a name that is no option
    of ``rules`` stays as written.

    >>> from mariage import load_rules
    >>> with_values("the first team to {target} points", load_rules("belote-coinche"))
    'the first team to 2000 points'
    """
    values = dict(rules.options)
    return counted(PLACEHOLDER.sub(lambda m: show_value(values[m.group(1)])
                                    if m.group(1) in values else m.group(0), text))


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
