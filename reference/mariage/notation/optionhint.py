"""Which option would make an unknown action text an action of the ruleset.

A record of house rules whose ``[Option]`` tag was left out (or mistyped) writes
actions the rules in force do not have: Cinquecento's ``mariannino:H`` exists only
with option ``mariannino`` on, Thousand's ``dark:120`` only with ``dark_bid``. Error
``N140`` then says which option has it. Only the options that name the action's word
(in their name or description) are tried, one at a time, each value other than the
one in force: a look-up of a few compiled rules (cached), made only for the error.
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actiontext import parse_action
from mariage.engine.optionnote import show_value
from mariage.engine.rules import Rules
from mariage.errors import MariageError
from mariage.spec.compile import load_rules

__all__ = ["option_with_action"]

_found: dict[tuple[str, tuple[tuple[str, Any], ...], str], str] = {}


def _values(spec: dict[str, Any]) -> list[Any]:
    if spec.get("type") == "bool":
        return [True, False]
    return list(spec.get("values") or ())


def option_with_action(rules: Rules, text: str) -> str:
    """``"; it is one with option NAME = VALUE"`` where setting one option of
    ``rules`` so makes ``text`` an action, else nothing.

    >>> from mariage import load_rules
    >>> option_with_action(load_rules("cinquecento"), "mariannino:H")
    '; it is one with option mariannino = true (default false)'
    >>> option_with_action(load_rules("cinquecento"), "marianino:H")
    ''
    """
    word = text.split(":", 1)[0].strip().lower()
    if len(word) < 3 or not word.isalpha():
        return ""
    key = (rules.ruleset, rules.options, word)
    if key in _found:
        return _found[key]
    stem = word.rstrip("s")
    now, defaults = dict(rules.options), dict(rules.defaults)
    hint = ""
    document = rules.document if isinstance(rules.document, dict) else {}
    for name, spec in (document.get("options") or {}).items():
        said = f"{name} {spec.get('description', '')}".lower().replace("_", " ")
        if stem not in said:
            continue
        for value in _values(spec):
            if value == now.get(name):
                continue
            try:
                other = load_rules(rules.ruleset, {**now, name: value})
                parse_action(other, text)
            except (MariageError, ValueError):
                continue
            hint = (f"; it is one with option {name} = {show_value(value)} (default "
                    f"{show_value(defaults.get(name))})")
            break
        if hint:
            break
    if len(_found) < 256:
        _found[key] = hint
    return hint
