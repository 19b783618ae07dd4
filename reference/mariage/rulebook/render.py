"""A ruleset as a rulebook: structured sections that the terminal and the web both render.

:func:`rulebook` turns compiled :class:`~mariage.engine.rules.Rules` into a :class:`Rulebook`:
an overview of facts, a table of the cards, then the rules section by section (each with its
ID, its sources, whether it was decided by this project and which option governs it, and how
each option value would word it), the options and the sources. :func:`render_text` prints it
for ``mariage rules``; :mod:`mariage.rulebook.sphinxext` turns the same sections into web
pages, so the two always say the same.

>>> from mariage import load_rules
>>> text = render_text(load_rules("marianna"))
>>> "[marianna.trick.winner]" in text
True
>>> [s.key for s in rulebook(load_rules("mariglia")).sections][:3]
['overview', 'cards', 'deal']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mariage.engine.arguments import check_rules
from mariage.engine.optionnote import option_note, show_value, with_values
from mariage.engine.rules import RuleInfo, Rules
from mariage.errors import MariageError
from mariage.spec.compile import option_specs
from mariage.spec.inforce import disabled_paths, in_force
from mariage.spec.options import default_text, invalid_case, invalid_text, settled_values
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import load_document

from .instead import says_instead
from .overview import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_name,
    declaration_value,
    facts,
    pack_text,
    pattern_text,
    per_suit_text,
    suits_text,
)

__all__ = ["SECTIONS", "SUIT_NAMES", "SUIT_SYMBOLS", "RuleItem", "Rulebook", "Section", "Table",
           "comparison", "facts", "render_text", "rulebook", "sections", "show_value"]

#: Sections of a rulebook: key (the link anchor), title, and the top-level
#: spec keys whose rules it holds.
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("overview", "Overview", ("players", "visibility")),
    ("cards", "The cards", ("pack",)),
    ("deal", "The deal", ("deal", "throw_in")),
    ("bidding", "Bidding, exchange and contract", ("auction", "talon", "passing", "contract",
                                                    "taking", "suit_auction")),
    ("play", "The play", ("lead", "play", "trick", "draw", "exchange", "closing")),
    ("declarations", "Declarations", ("declaring", "declarations", "asks", "calls",
                                      "announcements", "trump_pair")),
    ("hand-end", "Ending a hand early", ("call_out", "hand_end", "claim")),
    ("scoring", "Scoring", ("scoring",)),
    ("match", "End of the match", ("match",)),
    ("general", "General rules (every game)", ("core",)),
)



@dataclass(frozen=True)
class Table:
    """A table: a header row and body rows of plain text cells."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RuleItem:
    """One rule as a rulebook shows it.

    ``in_force`` is false for a rule that is written down but not played with
    the options in force; ``variants`` holds, for each other option value that
    changes this rule, ``("name = value", how the rule then reads)``.
    """

    info: RuleInfo
    in_force: bool
    option_note: str
    variants: tuple[tuple[str, str], ...]

    @property
    def status(self) -> str:
        """A short note: decided by us, governed by an option, not in force."""
        parts = []
        if not self.in_force:
            parts.append("not in force")
        if self.info.decided:
            parts.append("decided by this project")
        if self.option_note:
            parts.append(self.option_note)
        return "; ".join(parts)


@dataclass(frozen=True)
class Section:
    """A titled part of a rulebook: explanatory paragraphs, tables and rules."""

    key: str
    title: str
    paragraphs: tuple[str, ...]
    tables: tuple[Table, ...]
    rules: tuple[RuleItem, ...]


@dataclass(frozen=True)
class Rulebook:
    """A whole ruleset, ready to be printed or turned into a page."""

    ruleset: str
    name: str
    version: int
    parent: str | None
    summary: str
    aim: str
    sections: tuple[Section, ...]
    options: Table
    options_in_force: tuple[tuple[str, str, bool], ...]  # name, value, is the default
    sources: tuple[tuple[str, str], ...]


def _words(text: Any) -> str:
    return " ".join(str(text or "").split())


def _effective(rules: Rules) -> dict[str, tuple[str, bool]]:
    disabled = disabled_paths(rules.document)
    return {i.id: (i.text, in_force(i, disabled)) for i in rules.infos}


def _option_choices(spec: dict[str, Any]) -> list[Any]:
    if spec["type"] == "enum":
        return list(spec["values"])
    if spec["type"] == "bool":
        return [False, True]
    return []


def _variants(rules: Rules, source: str) -> dict[str, list[tuple[str, str, str]]]:
    """For each rule ID: (option, "name = value", how the rule then reads) per other value."""
    base = _effective(rules)
    current = {k: show_value(v) for k, v in rules.options}
    doc = load_document(source)
    specs = option_specs(doc)
    out: dict[str, list[tuple[str, str, str]]] = {}
    for name, spec in specs.items():
        for value in _option_choices(spec):
            if show_value(value) == current.get(name):
                continue
            given = {**current, name: show_value(value)}
            refused = invalid_case(specs, settled_values(doc, given))
            if refused is not None:  # cannot be played with the values in force
                rule = refused[1].get("rule")
                if rule:
                    out.setdefault(rule, []).append(
                        (name, f"{name} = {show_value(value)}",
                         "refused: " + _words(refused[1]["because"])))
                continue
            try:
                other = _effective(load_rules(source, given))
            except MariageError:  # refused only when compiled (bid_min=200: no dark 120)
                continue
            for rid, (text, on) in other.items():
                old = base.get(rid)
                if old is None or old == (text, on) or not (on or old[1]):
                    continue  # the same, or out of force either way (its text aside)
                if not on:  # what happens instead, where the value's effects say so
                    said = says_instead(spec, show_value(value), rid, doc.data, show_value)
                    reads = "not in force" + (f": {text}" if said and text != old[0] else "")
                elif text == old[0]:
                    reads = "in force"
                else:
                    reads = text if old[1] else "in force: " + text
                out.setdefault(rid, []).append((name, f"{name} = {show_value(value)}", reads))
    return out


def sections(rules: Rules) -> list[tuple[str, list[RuleInfo]]]:
    """The rules in force grouped by section title, in document order."""
    check_rules(rules, "sections")
    disabled = disabled_paths(rules.document)
    out = []
    for _key, title, roots in SECTIONS:
        items = [i for i in rules.infos if i.path.split(".")[0] in roots
                 and in_force(i, disabled)]
        if items:
            out.append((title, items))
    return out


# ---------------------------------------------------------------- facts
def comparison(rulesets: Sequence[Rules]) -> Table:
    """A matrix of facts: one row per aspect, one column per ruleset."""
    columns = [dict(facts(r)) for r in rulesets]
    labels: list[str] = []
    for r in rulesets:
        for label, _ in facts(r):
            key = "Duty to follow" if label == "Duty while the stock lasts" else label
            if key not in labels:
                labels.append(key)
    rows = []
    for label in labels:
        row = [label]
        for col in columns:
            value = col.get(label)
            if value is None and label == "Duty to follow":
                value = col.get("Duty while the stock lasts")
            if value is None and label == "Duty once the stock is gone":
                value = col.get("Duty to follow", "as above")
            row.append(value or "")
        rows.append(tuple(row))
    rows.append(("Options", *(", ".join(k for k, _ in r.options) or "none" for r in rulesets)))
    return Table(("", *(r.name for r in rulesets)), tuple(rows))


# ---------------------------------------------------------------- the book
def _cards_table(rules: Rules) -> Table:
    rows = []
    horse = "horse" in str(rules.document.get("pack", {}).get("text", ""))
    for ri, rank in enumerate(rules.ranks):
        points = rules.points[ri]
        name = "queen (horse)" if horse and rank == "Q" else card_name(rank)
        rows.append((str(ri + 1), rank, name, str(points)))
    if rules.role_strength:  # the trump suit ranks and scores its cards otherwise
        nr = len(rules.ranks)
        strength, trump_points = rules.role_strength[0], rules.role_points[0]
        wide = tuple((*row, str(nr + 1 - strength[ri]), str(trump_points[ri]))
                     for ri, row in enumerate(rows))
        return Table(("order", "rank", "card", "points", "order in trumps",
                      "points in trumps"), wide)
    return Table(("order", "rank", "card", "points"), tuple(rows))


def _declarations_table(rules: Rules) -> Table | None:
    if not rules.declarations:
        return None
    rows = []
    for i, d in enumerate(rules.declarations):
        trump = {"set": "makes its suit trump", "first_fixes": "the first one makes trump",
                 "none": "no effect on trump",
                 "choose": "the declarer may make it trump"}.get(d.trump_effect, d.trump_effect)
        rows.append((d.name, pattern_text(rules, i), declaration_value(rules, i), trump))
    return Table(("declaration", "cards", "value", "trump"), tuple(rows))


def _options_table(rules: Rules, source: str) -> Table:
    specs = option_specs(load_document(source))
    values = dict(rules.options)
    rows = []
    for name, spec in specs.items():
        kind = spec["type"]
        if kind == "enum":
            kind = "one of " + ", ".join(show_value(v) for v in spec["values"])
        elif kind == "int":
            kind = "whole number" + (f" ≥ {spec['min']}" if "min" in spec else "")
        else:
            kind = "true or false"
        src = spec.get("source", "")
        src_text = ", ".join(src) if isinstance(src, list) else str(src)
        effect = " ".join([_words(spec.get("description")),
                           *(f"Refused: {invalid_text(name, case)}."
                             for case in spec.get("invalid_when") or ())])
        rows.append((name, kind, default_text(spec), show_value(values.get(name)), effect,
                     src_text))
    return Table(("option", "type", "default", "in force", "effect", "source"), tuple(rows))


def _section_paragraphs(key: str, rules: Rules) -> tuple[str, ...]:
    n = rules.hand_seats  # the seats dealt and playing a hand
    if key == "cards":
        top, low = rules.card_code[0], rules.card_code[rules.ncards - 1]
        ten = " (T stands for ten)" if "T" in rules.ranks else ""
        return (f"{rules.ncards} cards, {per_suit_text(rules)} ({suits_text(rules)}). "
                f"The table lists the ranks of a suit from highest to lowest and what each "
                f"card is worth to the side that wins it in a trick; the pack holds "
                f"{pack_text(rules, ' card points')}. A card is written as its rank and its "
                f"suit{ten}: {top} is the {card_name(top[:-1])} of "
                f"{SUIT_NAMES.get(top[-1], top[-1])} and {low} the {card_name(low[:-1])} of "
                f"{SUIT_NAMES.get(low[-1], low[-1])}; pages show them as "
                f"{top[:-1]}{SUIT_SYMBOLS.get(top[-1], '')} and "
                f"{low[:-1]}{SUIT_SYMBOLS.get(low[-1], '')}.",)
    if key == "deal" and rules.stock_size:
        sits = rules.sits_out != "none"
        if rules.talon_rule is not None:  # a talon for the auction's winner: nobody draws
            return (f"Each player{' but the one sitting out' if sits else ''} gets "
                    f"{rules.hand_size} cards; the other {rules.stock_size} form the talon"
                    + (f", in {rules.talon_packets} packets, one of which the winner of the "
                       "auction takes." if rules.talon_packets > 1
                       else ", which the winner of the auction takes."),)
        if rules.take_rule is not None:  # the rest is dealt once the turned card is taken
            return (f"Each player gets {rules.hand_size} cards, the next is turned up; once it is "
                    f"taken the other {rules.stock_size - 1} are dealt, {rules.second_deal_taker}"
                    f" to its taker, {rules.second_deal_others} to each other player.",)
        return (f"Each player{' but the one sitting out' if sits else ''} gets {rules.hand_size} "
                f"cards; the other {rules.stock_size} form the stock, from which every player"
                f"{' in the hand' if sits else ''} draws one card after each of the first "
                f"{rules.stock_size // n} tricks.",)
    if key == "play":
        tricks = (n * rules.hand_size + rules.stock_size) // n
        each = "every player in the hand" if n < rules.nseats else "every player"
        return (f"A hand is {tricks} tricks. In each trick {each} in turn plays one "
                f"card face up; the leader plays first, and the winner of the trick leads "
                f"the next one.",)
    return ()


def rulebook(rules: Rules, source: str | None = None) -> Rulebook:
    """The rulebook of ``rules``; ``source`` is the bundled name or file it was loaded from."""
    check_rules(rules, "rulebook")
    src = source or rules.ruleset
    doc = rules.document
    variants = _variants(rules, src)
    effective = _effective(rules)
    out = []
    for key, title, roots in SECTIONS:
        items = []
        for info in rules.infos:
            if info.path.split(".")[0] not in roots:
                continue
            found = variants.get(info.id, [])
            names = [*info.options, *(name for name, _, _ in found)]
            items.append(RuleItem(info, effective[info.id][1],
                                  option_note(list(dict.fromkeys(names)), rules),
                                  tuple((label, reads) for _, label, reads in found)))
        tables: list[Table] = []
        if key == "overview":
            tables.append(Table(("", ""), tuple(facts(rules))))
        elif key == "cards":
            tables.append(_cards_table(rules))
        elif key == "declarations":
            t = _declarations_table(rules)
            if t is not None:
                tables.append(t)
        if items or tables:
            out.append(Section(key, title, _section_paragraphs(key, rules), tuple(tables),
                               tuple(items)))
    defaults = dict(rules.defaults)
    in_force = tuple((k, show_value(v), show_value(v) == show_value(defaults.get(k)))
                     for k, v in rules.options)
    sources = tuple((k, _words(v.get("title", k)) if isinstance(v, dict) else _words(v))
                    for k, v in (doc.get("sources") or {}).items())
    return Rulebook(rules.ruleset, rules.name, rules.version, rules.parent,
                    with_values(_words(doc.get("summary")), rules),
                    with_values(_words(doc.get("aim")), rules),
                    tuple(out), _options_table(rules, src), in_force, sources)


# ---------------------------------------------------------------- text
def _wrap(text: str, indent: str, width: int = 88) -> list[str]:
    lines: list[str] = []
    line = indent
    for word in text.split():
        if len(line) + len(word) + 1 > width and line.strip():
            lines.append(line)
            line = indent
        line += ("" if line == indent else " ") + word
    if line.strip():
        lines.append(line)
    return lines


def _text_table(table: Table, indent: str = "  ") -> list[str]:
    rows = [table.header, *table.rows] if any(table.header) else list(table.rows)
    widths = [max(len(r[i]) for r in rows) for i in range(len(table.header))]
    widths[-1] = 0  # the last column is not padded
    out = []
    for n, row in enumerate(rows):
        out.append(indent + "  ".join(c.ljust(w) for c, w in zip(row, widths,
                                                                  strict=True)).rstrip())
        if n == 0 and any(table.header):
            out.append(indent + "  ".join("-" * max(w, len(c)) for c, w in
                                          zip(row, widths, strict=True)))
    return out


def _heading(title: str) -> list[str]:
    return [title, "-" * len(title)]


def render_text(rules: Rules, source: str | None = None) -> str:
    """The whole rulebook as plain text, for the terminal."""
    book = rulebook(rules, source)
    lines = [f"{book.name} ({book.ruleset}, version {book.version})", ""]
    lines += [*_wrap(book.summary, ""), ""]
    if book.aim:
        lines += [*_wrap("Aim: " + book.aim, ""), ""]
    for section in book.sections:
        lines += _heading(section.title)
        for para in section.paragraphs:
            lines += [*_wrap(para, ""), ""]
        for table in section.tables:
            lines += [*_text_table(table), ""]
        for item in section.rules:
            status = f" ({item.status})" if item.status else ""
            lines.append(f"[{item.info.id}]{status}")
            lines += _wrap(item.info.text, "    ")
            if item.info.source:
                lines.append(f"    source: {', '.join(item.info.source)}")
            for label, text in item.variants:
                lines += _wrap(f"with {label}: {text}", "    ")
        lines.append("")
    lines += _heading("Options")
    is_default = {name: same for name, _, same in book.options_in_force}
    for name, kind, default, now, effect, src in book.options.rows:
        mark = "" if is_default.get(name, now == default) else "   (not the default)"
        lines.append(f"  {name} = {now}{mark}")
        lines += _wrap(f"{kind}; default {default}. {effect} (source: {src})", "      ")
    lines.append("")
    lines += _heading("Sources")
    for key, title in book.sources:
        lines.append(f"  {key}: {title}")
    lines.append("")
    return "\n".join(lines)
