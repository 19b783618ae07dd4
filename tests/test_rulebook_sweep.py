"""A sweep of the generated rulebook (``mariage rules RULESET -o NAME=VALUE``) for texts
that can only be mistakes, over every bundled ruleset and every value of every option
taken one at a time (an int option at its default, its least, its most and one odd value
between): a brace left from a placeholder (``{target}``), a Python word in the prose
(``None``, ``True``, ``False``, ``nan``), an empty sentence or a word said twice, a raw
option dump (``(none: no fixed ceiling ...)``, ``(0: never)``), a count that disagrees
with its noun (``1 points``, ``2 call``), a zero said as more (``0 card points more``), a
rule repeating its own option note or one of its sentences.

The default run renders the whole rulebook (with each rule's readings under the other
option values) for each ruleset's default options, and for every other configuration
its summary, aim, overview, paragraphs, tables, rules, notes and options table (the
readings under further values would be pairs of values: a minute a Thousand ruleset with
a warm disk cache, past ten with a cold one, so no run renders them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from mariage import list_rulesets, load_rules
from mariage.engine.rules import Rules
from mariage.errors import MariageError
from mariage.rulebook import render
from mariage.rulebook.render import Rulebook, render_text, rulebook
from mariage.spec.compile import option_specs
from mariage.spec.specload import load_document

#: (kind, pattern) of what no text of a rulebook may hold
_EVERYWHERE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("placeholder left", re.compile(r"[{}]")),
    ("python word", re.compile(r"\b(?:None|True|False|nan)\b")),
    ("empty sentence", re.compile(r"(?<![.?!])[.!?]\s*\.(?!\.)|\s[,;:]|\s\.(?![.\d])|,\s*,"
                                  r"|;\s*;|\(\s*\)|:\s*[.;)]|\(\s*[,;]")),
    ("word twice", re.compile(r"\b([a-z]+)\s+\1\b", re.IGNORECASE)),
)
#: what the printed rulebook is searched for as a whole
_IN_PRINT = ("placeholder left", "python word")
#: ... and what no rule, summary, overview or paragraph may hold (an option's description
#: in the options table lists its values as ``(value: meaning)`` on purpose)
_IN_PROSE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("raw option dump", re.compile(r"\((?:[a-z0-9_+-]+): ")),
    ("1 with a plural", re.compile(
        r"(?<![\d.,-])\b1 (?:such |game |card )?(?:tricks|calls|cards|points|players|hands"
        r"|games|deals|bids|rounds|segni|marriages|attempts|bolts)\b")),
    ("many with a singular", re.compile(
        r"(?<![\d.,-])(?<!\ba )(?<!\ban )\b(?:0|[2-9]|\d\d+) (?:trick|call|player|hand|game"
        r"|deal|round|marriage|attempt|bolt|point|segno)\b(?! (?:points|bonus|card|value|game"
        r"|limit|rule|total|contract|session|score))")),
    ("zero said as more", re.compile(r"(?<![\d.,-])\b0 (?:[a-z]+ ){0,2}(?:more|extra)\b")),
    ("option note in the text", re.compile(r"\(option [a-z_]+(?: = [^,]+)?, default")),
)


def anomalies(text: str, prose: bool = True) -> list[tuple[str, str]]:
    """What in ``text`` can only be a mistake: (kind, the words around it)."""
    said = " ".join(text.split())
    found = []
    for kind, pattern in _EVERYWHERE + (_IN_PROSE if prose else ()):
        for m in pattern.finditer(said):
            found.append((kind, said[max(0, m.start() - 60):m.end() + 40]))
    if prose:
        sentences = [s for s in re.split(r"(?<=[.;:])\s+", said) if len(s.split()) >= 6]
        found += [("sentence twice", s) for s in sorted(set(sentences))
                  if sentences.count(s) > 1]
    return found


def book_texts(book: Rulebook) -> Iterator[tuple[str, str, bool]]:
    """Every text of ``book``: (where, the text, whether it is prose)."""
    yield "summary", book.summary, True
    yield "aim", book.aim, True
    for section in book.sections:
        for para in section.paragraphs:
            yield f"{section.key} paragraph", para, True
        for table in section.tables:
            for row in table.rows:
                yield f"{section.key} table, {row[0]}", " | ".join(row), True
        for item in section.rules:
            yield item.info.id, item.info.text, True
            yield f"{item.info.id} note", item.status, True
            for label, reads in item.variants:
                yield f"{item.info.id} with {label}", reads, True
    for row in book.options.rows:  # the last-but-one cell is the option's description
        yield f"option {row[0]}", " | ".join(row), False


def _values(spec: dict[str, Any]) -> list[Any]:
    """The values of an option the sweep takes: every one of an enum or a bool; the
    default, least, most and one odd value between of an int."""
    if spec["type"] == "enum":
        return list(spec["values"])
    if spec["type"] == "bool":
        return [False, True]
    out = [spec["default"]]
    low, high = spec.get("min"), spec.get("max")
    out += [v for v in (low, high) if v is not None]
    if low is not None and high is not None:
        out.append(min(high, (low + (high - low) // 3) | 1))
    return list(dict.fromkeys(out))


def configurations(ruleset: str) -> Iterator[tuple[dict[str, Any], Rules]]:
    """The default options of ``ruleset``, then each other value of each option alone,
    with their rules; a value refused with the others' defaults is left out."""
    yield {}, load_rules(ruleset)
    for name, spec in option_specs(load_document(ruleset)).items():
        for value in _values(spec):
            if value == spec["default"]:
                continue
            try:
                rules = load_rules(ruleset, {name: value})
            except MariageError:  # refused (invalid_when), as the command refuses it
                continue
            yield {name: value}, rules


def _report(found: list[str]) -> str:
    return f"found {len(found)}:\n" + "\n".join(found[:40])


def _sweep(ruleset: str, whole: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    count, found = 0, []
    for options, rules in configurations(ruleset):
        count += 1
        if whole or not options:
            book = rulebook(rules)
            texts = [*book_texts(book), ("rendered text", render_text(rules), False)]
        else:
            with monkeypatch.context() as patch:  # the readings under other values aside
                patch.setattr(render, "_variants", lambda rules, source: {})
                texts = list(book_texts(rulebook(rules)))
        for where, text, prose in texts:
            found += [f"{ruleset} {options or 'defaults'} [{where}] {kind}: ...{words}..."
                      for kind, words in anomalies(text, prose)
                      # the printed text's lines join cells and wrapped lines: only what
                      # no words around can explain is looked for there
                      if where != "rendered text" or kind in _IN_PRINT]
    return count, sorted(set(found))


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_no_rulebook_text_is_a_mistake_under_any_option_value(
        ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    count, found = _sweep(ruleset, False, monkeypatch)
    assert count > 1
    assert not found, _report(found)


@pytest.mark.parametrize(("text", "kind"), [
    ("The first team to {target} points wins.", "placeholder left"),
    ("first to None points", "python word"),
    ("He may play any card. . He leads.", "empty sentence"),
    ("the the trick", "word twice"),
    ("the highest bid is 420 (none: no fixed ceiling)", "raw option dump"),
    ("the first team to 1 points wins", "1 with a plural"),
    ("at most 2 call per trick", "many with a singular"),
    ("the last trick gets 0 card points more", "zero said as more"),
    ("He leads (option target, default 501).", "option note in the text"),
    ("A player may call once per trick. A player may call once per trick.", "sentence twice"),
])
def test_the_sweep_sees_each_kind_of_mistake(text: str, kind: str) -> None:
    assert kind in [k for k, _ in anomalies(text)]


@pytest.mark.parametrize("text", [
    "a 100 bid of his own will", "Card points A 11, 10 10, K 4", "first to 1000 points",
    "ask his partner \"Mi copri a ...?\"", "1 point for the last trick", "2 card points",
])
def test_the_sweep_lets_right_texts_be(text: str) -> None:
    assert anomalies(text) == []


@pytest.mark.parametrize("options", [{}, {"bolt_condition": "no_tricks"}])
def test_the_polish_barrel_text_says_what_its_options_do_when_set(options: dict[str, Any]
                                                                  ) -> None:
    """Found beside the sweep: Thousand-pl's barrel rule said "He is never moved, and any
    number of players may be there at once" whatever barrel_clamp, barrel_attempts and
    barrel_collision said; the reference sets, drops and knocks off a player as they say
    (the game for three's barrel), and the rulebook showed no other reading for them."""
    said = {name: next(i.text for i in load_rules("thousand-pl", {**options, name: value}).infos
                       if i.id == "thousand.running.barrel")
            for name, value in (("barrel_attempts", 3), ("barrel_collision", "knock_off"))}
    assert "as many hands on it without winning as barrel_attempts says" \
        in said["barrel_attempts"]
    assert "knocked off by a player mounting it" in said["barrel_collision"]
    assert "(false, 0, coexist) he is never moved" in said["barrel_collision"]
