"""Which option would make an unknown action text an action, or a refused action legal.

A record of house rules whose ``[Option]`` tag was left out (or mistyped) writes
actions the rules in force do not have: Cinquecento's ``mariannino:H`` exists only
with option ``mariannino`` on, Thousand's ``dark:120`` only with ``dark_bid``. Error
``N140`` then says which option has it. Only the options that name the action's word
(in their name or description) are tried, one at a time, each value other than the
one in force: a look-up of a few compiled rules (cached), made only for the error.

Likewise an action refused by a rule that an option changes (``N141``) is tried with
that option at its other values, the hand replayed from its deal: where one makes it
legal, the message says so (``legal with option accusa_when = on_turn``), so that a
record whose ``[Option]`` tag was left out, or one that breaks a house rule, is told
which option decides it.
"""

from __future__ import annotations

import re
from typing import Any

from mariage.engine.actions import Action
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.optionnote import show_value
from mariage.engine.rules import Rules
from mariage.errors import MariageError
from mariage.spec.rulesload import load_rules

__all__ = ["between_hands", "legal_with", "option_with_action", "played_on_with"]

#: At most this many other rules are tried for one refused or unknown action.
TRIES = 6

#: What a state carries from one hand to the next (its number, the dealers, the totals,
#: the barrel, bolts, golden hands, a pot...): set, as it was before the hand, on the
#: state the hand is replayed on under other options (a new match's first hand is not
#: the record's hand 5, nor a later start's: its golden hand refuses the auction).
BETWEEN_HANDS = ("hand_no", "first_dealer", "dealer", "next_dealer", "match_scores", "segni",
                 "barrel", "bolts", "falls", "concessions", "golden_done", "golden_made",
                 "pot", "round_residue", "no_win", "placed", "carry_bonus", "_history")

#: An action's word longer than this names no option (none has a word so long): a word
#: of a megabyte is looked for in no description.
_LONGEST = 40
_WORD = "[a-z]+"  # (compiled on first use, by ``re``'s own cache)

_found: dict[tuple[str, tuple[tuple[str, Any], ...], str], str] = {}


def _values(spec: dict[str, Any]) -> list[Any]:
    if spec.get("type") == "bool":
        return [True, False]
    return list(spec.get("values") or ())


def _specs(rules: Rules) -> dict[str, dict[str, Any]]:
    document = rules.document if isinstance(rules.document, dict) else {}
    return document.get("options") or {}


def _naming(rules: Rules, text: str) -> list[str]:
    """The options of ``rules`` with a choice of values whose name or description names
    the word of action ``text`` (``mariannino`` of ``mariannino:H``; ``draw``), none
    for a card or a word under three letters."""
    word = text.split(":", 1)[0].strip().lower()
    if not 3 <= len(word) <= _LONGEST or not word.isascii() or not word.isalpha():
        return []
    # a word that starts there: ``pass`` names "passes", "passed", not "partnership" (all
    # its s's stripped, "pa" named a third of Thousand's options, each one rules compiled)
    stem = word[:-1] if word.endswith("s") and not word.endswith("ss") else word
    return [name for name, spec in _specs(rules).items() if _values(spec) and any(
        w.startswith(stem) for w in re.findall(_WORD, f"{name} {spec.get('description', '')}"
                                                     .lower().replace("_", " ")))]


def option_with_action(rules: Rules, text: str) -> str:
    """``"; it is one with option NAME = VALUE"`` where setting one option of
    ``rules`` so makes ``text`` an action, else nothing.

    >>> from mariage import load_rules
    >>> option_with_action(load_rules("cinquecento"), "mariannino:H")
    '; it is one with option mariannino = true (default false)'
    >>> option_with_action(load_rules("cinquecento"), "marianino:H")
    ''
    """
    key = (rules.ruleset, rules.options, text)
    if key in _found:
        return _found[key]
    try:  # an action already (refused, if at all, by the state): no option to name
        parse_action(rules, text)
        return ""
    except ValueError:
        pass
    now, defaults, specs = dict(rules.options), dict(rules.defaults), _specs(rules)
    hint = ""
    tries = [(name, value) for name in _naming(rules, text) for value in _values(specs[name])
             if value != now.get(name)]
    for name, value in tries[:TRIES]:
        try:
            parse_action(load_rules(rules.ruleset, {**now, name: value}), text)
        except (MariageError, ValueError):
            continue
        hint = (f"; it is one with option {name} = {show_value(value)} (default "
                f"{show_value(defaults.get(name))})")
        break
    if len(_found) < 256 and len(text) <= _LONGEST:  # (not a megabyte's text kept)
        _found[key] = hint
    return hint


def _others(rules: Rules, rule_id: str, text: str) -> list[tuple[str, Any]]:
    """(option, value) to try: each option that changes ``rule_id`` (or a rule inside
    it), then each that names the action's word (:func:`_naming`: Schnapsen's
    ``close_before_draw`` for a ``draw`` that ``core.phase`` refuses), at its default
    where it is set otherwise, else at each of its other values."""
    inner = rule_id + "."
    names = dict.fromkeys([*(name for info in rules.infos
                             if info.id == rule_id or info.id.startswith(inner)
                             for name in info.options), *_naming(rules, text)])
    specs = _specs(rules)
    now, defaults = dict(rules.options), dict(rules.defaults)
    out: list[tuple[str, Any]] = []
    for name in names:
        if name not in now or name not in specs:
            continue
        if now[name] != defaults.get(name):
            out.append((name, defaults[name]))
        else:
            out.extend((name, v) for v in _values(specs[name]) if v != now[name])
    return out[:TRIES]


def between_hands(st: Any) -> dict[str, Any]:
    """The fields of GameState ``st`` (before a deal) that :func:`legal_with` sets on the
    state it replays the hand on (:data:`BETWEEN_HANDS`), copied (but the hands played
    before, which the hand does not change, lest a long match copy them at every deal:
    :func:`legal_with` copies them when asked)."""
    out = {name: getattr(st, name) for name in BETWEEN_HANDS}
    for name, value in out.items():  # (lists of ints, the rest numbers or None)
        if type(value) is list and name != "_history":
            out[name] = [*value]
    return out


def legal_with(rules: Rules, rule_id: str | None,
               start: tuple[int | None, list[int], int | None, dict[str, Any]] | None,
               steps: list[tuple[int, Action]], seat: int, action: Action) -> str:
    """``" (legal with option NAME = VALUE; here V)"`` where the hand dealt as ``start``
    (dealer, deck, first player), its ``steps`` replayed, lets ``seat`` take ``action``
    with one option of rule ``rule_id`` set otherwise; else nothing (also where the
    steps themselves are refused under those rules).
    """
    if rule_id is None or start is None:
        return ""
    from mariage.engine.state import GameState  # only for a refused action

    dealer, deck, first, carried = start
    now = dict(rules.options)
    for name, value in _others(rules, rule_id, action_text(rules, action)):
        try:
            other = load_rules(rules.ruleset, {**now, name: value})
            if other.nseats != rules.nseats or len(other.teams) != len(rules.teams):
                continue  # (another table: the totals carried do not fit it)
            st = GameState(other, first_dealer=dealer)
            for field, kept in carried.items():
                if field != "placed" or other.places_rule is not None:  # (match.places)
                    setattr(st, field, [*kept] if type(kept) is list else kept)
            st.deal(deck, first)
            for who, done in steps:
                st.apply(done, who)
            st.apply(action, seat)
        except (MariageError, ValueError):
            continue
        return (f" (legal with option {name} = {show_value(value)}; here "
                f"{show_value(now[name])})")
    return ""


def played_on_with(rules: Rules) -> str:
    """``"; with option NAME = VALUE the others play on for the places (an [Option] tag
    left out?)"`` where ``rules`` end the match at its first winner and one option set
    otherwise plays on (``match.places``: Sixty-six for three's
    ``three_hand_play_for_loser``); else nothing. A record of a match played on whose
    ``[Option]`` tag was left out was only told that the match was over.
    """
    if rules.places_rule is not None:
        return ""
    now = dict(rules.options)
    for name, spec in _specs(rules).items():
        for key, effects in (spec.get("effects") or {}).items():
            if name not in now or not isinstance(effects, dict) or \
                    not any(str(path).startswith("match.places") for path in effects):
                continue
            value = {"true": True, "false": False}.get(key, key) \
                if spec.get("type") == "bool" else key
            try:
                other = load_rules(rules.ruleset, {**now, name: value})
            except (MariageError, ValueError):
                continue
            if other.places_rule is not None and value != now[name]:
                return (f"; with option {name} = {show_value(value)} the others play on for "
                        "the places (an [Option] tag left out?)")
    return ""
