"""The options of a rule as the rulebook and the validator's messages name them.

A rule whose data an option changes (:attr:`~mariage.engine.rules.RuleInfo.options`)
is read ``(option duty_reading = always, default opponent_winning)`` where the option
is set away from its default, ``(option accusa_when, default leader)`` where it is not:
a record of house rules that breaks such a rule, or a record whose ``[Option]`` tag was
left out, is told which option decides it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mariage.engine.rules import Rules

__all__ = ["option_note", "rule_options_note", "show_value"]


def show_value(value: Any) -> str:
    """An option value as written on a command line (``true``, ``501``, ``on_turn``)."""
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def option_note(names: Sequence[str], rules: Rules) -> str:
    """``option NAME, default D`` (``option NAME = V, default D`` where set otherwise)
    for each of ``names``, joined by ``; ``.

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


def rule_options_note(rules: Rules, rule_id: str | None) -> str:
    """`` (option ...)`` for the options that change rule ``rule_id`` or the rules
    inside it (``thousand.throw-in.low-hand`` is inside ``thousand.throw-in``; see
    :func:`option_note`): those set away from their defaults where there are any, else
    the one option of a rule only one changes (a rule several change at their defaults,
    Thousand's exchange by ``players`` and ``exchange_face_up``, would be told of options
    that have nothing to do with most refusals); nothing for a rule no option changes.

    >>> from mariage import load_rules
    >>> rule_options_note(load_rules("mariaggia"), "mariaggia.decl.who")
    ' (option accusa_when, default leader)'
    >>> rule_options_note(load_rules("mariaggia"), "core.hand")
    ''
    >>> rule_options_note(load_rules("thousand", {"jump_bids": False}), "thousand.auction.bids")
    ' (option jump_bids = false, default true)'
    >>> rule_options_note(load_rules("thousand"), "thousand.auction.bids")
    ''
    """
    if rule_id is None:
        return ""
    inner = rule_id + "."
    names = tuple(dict.fromkeys(name for info in rules.infos  # its own, or its parts'
                                if info.id == rule_id or info.id.startswith(inner)
                                for name in info.options))
    values, defaults = dict(rules.options), dict(rules.defaults)
    changed = tuple(n for n in names if n in values and values[n] != defaults.get(n))
    shown = changed or (names if len(names) == 1 else ())
    return f" ({option_note(shown, rules)})" if shown else ""
