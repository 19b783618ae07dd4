"""Sphinx extension: rulebook pages, comparison, schema reference and checked examples.

Add ``"mariage.rulebook.sphinxext"`` to ``extensions`` in ``conf.py``; it provides:

``.. mariage-ruleset:: NAME``
    The whole rulebook of a bundled ruleset (the same :mod:`mariage.rulebook.render`
    sections that ``mariage rules`` prints). Every rule gets its ID as its
    link anchor (``page.html#marianna.trick.winner``), and its own rules
    are also labels for ``:ref:`marianna.trick.winner```.
``.. mariage-comparison::``
    All bundled rulesets side by side.
``.. mariage-schema::``
    The field reference of the spec language, from the JSON Schema's
    descriptions.
``.. mariage-example:: CAPTION``
    A deal and a script (see :mod:`mariage.rulebook.docexamples`) replayed by the
    interpreter at build time and drawn trick by trick. An illegal action or
    a wrong claim stops the build with the page, line and reason.

The build also fails if a bundled ruleset has no ``mariage-ruleset`` page.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

from mariage.resources import schema_path
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets, load_document

from .docexamples import ExampleError, Replay, example_from, replay, replay_record
from .render import Rulebook, RuleItem, Section, Table, comparison, rulebook
from .schemadoc import schema_rows

__all__ = ["setup"]

_RED = ("♥", "♦")
_ENV_KEY = "mariage_rulesets"


def _text(text: str) -> list[nodes.Node]:
    """Text with red suit symbols marked for styling."""
    out: list[nodes.Node] = []
    buf = ""
    for ch in text:
        if ch in _RED:
            if buf:
                out.append(nodes.Text(buf))
                buf = ""
            out.append(nodes.inline(ch, ch, classes=["suit-red"]))
        else:
            buf += ch
    if buf:
        out.append(nodes.Text(buf))
    return out


def _para(text: str, classes: list[str] | None = None) -> nodes.paragraph:
    p = nodes.paragraph("", "", classes=classes or [])
    p.extend(_text(text))
    return p


def _table(table: Table, classes: list[str] | None = None,
           widths: list[int] | None = None,
           links: list[str | None] | None = None) -> nodes.table:
    ncols = len(table.header)
    tnode = nodes.table(classes=["mariage-table", *(classes or [])])
    group = nodes.tgroup(cols=ncols)
    tnode += group
    for w in widths or [1] * ncols:
        group += nodes.colspec(colwidth=w)
    if any(table.header):
        head = nodes.thead()
        group += head
        head += _row(table.header, links)
    body = nodes.tbody()
    group += body
    for row in table.rows:
        body += _row(row)
    return tnode


def _row(cells: tuple[str, ...] | list[str], links: list[str | None] | None = None
         ) -> nodes.row:
    row = nodes.row()
    for i, cell in enumerate(cells):
        entry = nodes.entry()
        target = links[i] if links else None
        if target and cell:
            p = nodes.paragraph()
            p += _doc_link(target, cell)
            entry += p
        elif cell:
            for line in cell.split("\n"):
                if line:
                    entry += _para(line)
        row += entry
    return row


def _doc_link(target: str, text: str) -> addnodes.pending_xref:
    ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget=target,
                                refexplicit=True, refwarn=True)
    ref += nodes.inline(text, text)
    node: addnodes.pending_xref = ref
    return node


def _source_docs(name: str) -> dict[str, tuple[str, str]]:
    """Source key -> (title, document) for the source notes a ruleset cites.

    A source with a ``file`` under ``seeds/`` is a page of these docs (``seeds/000``).
    """
    out: dict[str, tuple[str, str]] = {}
    for key, value in (load_document(name).data.get("sources") or {}).items():
        if isinstance(value, dict) and str(value.get("file", "")).endswith(".md"):
            title = " ".join(str(value.get("title", key)).split())
            out[str(key)] = (title, "/" + str(value["file"])[:-3])
    return out


def _citation(cite: str, docs: dict[str, tuple[str, str]]) -> list[nodes.Node]:
    """``seed000 ¶3`` as a link to that source note, by its title, then the clause."""
    key, _, clause = cite.partition(" ")
    if key not in docs:
        return [nodes.Text(cite)]
    title, doc = docs[key]
    out: list[nodes.Node] = [_doc_link(doc, title)]
    if clause:
        out.append(nodes.Text(f" {clause}"))
    return out


def _rule_node(item: RuleItem, docs: dict[str, tuple[str, str]] | None = None
               ) -> nodes.container:
    info = item.info
    box = nodes.container(classes=["mariage-rule"] + ([] if item.in_force
                                                      else ["mariage-rule-off"]))
    box["ids"] = [info.id]
    head = nodes.paragraph(classes=["mariage-rule-head"])
    link = nodes.reference("", "", refid=info.id, classes=["mariage-rule-id"])
    link += nodes.literal(info.id, info.id)
    head += link
    if item.status:
        head += nodes.Text(" ")
        head += nodes.emphasis(item.status, f"({item.status})")
    box += head
    box += _para(info.text)
    if item.variants:
        lst = nodes.bullet_list(classes=["mariage-variants"])
        for label, reads in item.variants:
            li = nodes.list_item()
            p = nodes.paragraph()
            p += nodes.Text("With ")
            p += nodes.literal(label, label)
            p += nodes.Text(": ")
            p.extend(_text(reads))
            li += p
            lst += li
        box += lst
    if info.source:
        p = nodes.paragraph(classes=["mariage-source"])
        p += nodes.Text("Source: ")
        for i, cite in enumerate(info.source):
            if i:
                p += nodes.Text("; ")
            p.extend(_citation(cite, docs or {}))
        box += p
    return box


def _section(doc_id: str, title: str) -> nodes.section:
    sec = nodes.section(ids=[doc_id], names=[nodes.fully_normalize_name(title)])
    sec += nodes.title(title, title)
    return sec


class RulesetDirective(SphinxDirective):
    """``.. mariage-ruleset:: NAME``: a whole rulebook page."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        try:
            rules = load_rules(name)
        except Exception as exc:  # an unknown ruleset or a broken spec
            raise self.error(f"mariage-ruleset {name}: {exc}") from None
        book = rulebook(rules, name)
        self.env.note_dependency(str(load_document(name).files[0]))
        seen: dict[str, str] = getattr(self.env, _ENV_KEY, {})
        seen[name] = self.env.docname
        setattr(self.env, _ENV_KEY, seen)
        page = _section(f"ruleset-{name}", book.name)
        self._intro(page, book)
        own = self._own_rules(name)
        docs = _source_docs(name)
        for section in book.sections:
            page += self._rules_section(section, own, docs)
        if self.content:
            examples = _section("examples", "Worked examples")
            self.env.temp_data["mariage-ruleset"] = name
            try:
                self.state.nested_parse(self.content, self.content_offset, examples)
            finally:
                self.env.temp_data.pop("mariage-ruleset", None)
            page += examples
        page += self._options(book)
        sources = _section("sources", "Sources")
        lst = nodes.bullet_list()
        for key, title in book.sources:
            li = nodes.list_item()
            p = nodes.paragraph()
            p += nodes.literal(key, key)
            p += nodes.Text(": ")
            p += _doc_link(docs[key][1], title) if key in docs else nodes.Text(title)
            li += p
            lst += li
        sources += lst
        page += sources
        return [page]

    def _own_rules(self, name: str) -> set[str]:
        doc = load_document(name)
        stem = f"{name}.yaml"
        own = set()
        for info in load_rules(name).infos:
            where = doc.where(info.path + ".id")
            if where is not None and str(where.file).endswith(stem):
                own.add(info.id)
        return own

    def _intro(self, page: nodes.section, book: Rulebook) -> None:
        page += _para(book.summary, ["mariage-summary"])
        if book.aim:
            p = nodes.paragraph()
            p += nodes.strong("Aim: ", "Aim: ")
            p.extend(_text(book.aim))
            page += p
        note = nodes.note()
        p = nodes.paragraph()
        p += nodes.Text("New to card games of this kind? Read ")
        p += _doc_link("/basics", "the basics")
        p += nodes.Text(" first. Each rule below shows its ID, which links to it; "
                        "'decided by this project' marks a point the sources leave open, "
                        "and the option named beside a rule lets players choose otherwise.")
        if book.parent:
            p += nodes.Text(f" This game is a variant of {book.parent}; rules with a "
                            f"{book.parent}. ID come from it unchanged.")
        note += p
        page += note

    def _rules_section(self, section: Section, own: set[str],
                       docs: dict[str, tuple[str, str]]) -> nodes.section:
        sec = _section(section.key, section.title)
        for para in section.paragraphs:
            sec += _para(para)
        for table in section.tables:
            if section.key == "overview":
                sec += _table(table, ["mariage-facts"], [2, 5])
            else:
                sec += _table(table)
        std = self.env.domaindata["std"]
        for item in section.rules:
            sec += _rule_node(item, docs)
            if item.info.id in own:
                std["labels"][item.info.id] = (self.env.docname, item.info.id,
                                               f"{item.info.id}")
                std["anonlabels"][item.info.id] = (self.env.docname, item.info.id)
        return sec

    def _options(self, book: Rulebook) -> nodes.section:
        sec = _section("options", "Options")
        sec += _para("Players who agree to play a point differently choose an option value "
                     "(for example mariage play " + book.ruleset + " --option NAME=VALUE). "
                     "The rules above show how each value changes them.")
        if book.options.rows:
            sec += _table(Table(("option", "type", "default", "effect", "source"),
                                tuple((r[0], r[1], r[2], r[4], r[5])
                                      for r in book.options.rows)), widths=[2, 2, 2, 6, 2])
        else:
            sec += _para("This ruleset has no options.")
        return sec


class ComparisonDirective(SphinxDirective):
    """``.. mariage-comparison::``: every bundled ruleset side by side."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        rulesets = [load_rules(n) for n in list_rulesets()]
        table = comparison(rulesets)
        links: list[str | None] = [None, *(f"/rulesets/{r.ruleset}" for r in rulesets)]
        node = _table(table, ["mariage-comparison"], links=links)
        return [node]


# ---------------------------------------------------------------- schema
class SchemaDirective(SphinxDirective):
    """``.. mariage-schema::``: the field reference of the spec language."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        path = schema_path()
        self.env.note_dependency(str(path))
        schema = json.loads(path.read_text(encoding="utf-8"))
        rows = schema_rows(schema)
        out: list[nodes.Node] = [_para(" ".join(str(schema.get("description", "")).split()))]
        groups: dict[str, list[tuple[str, str, str, str]]] = {}
        for row in rows:
            top = row[0].split(".")[0].split("[")[0]
            groups.setdefault(top, []).append(row)
        for top, items in groups.items():
            title = top if not top.startswith("<") else {
                "<rule>": "Every rule", "<obligation>": "Play duties (obligation)",
                "<option>": "An option"}.get(top, top)
            sec = _section(f"field-{top.strip('<>')}", title)
            sec += _table(Table(("field", "type", "required", "meaning"),
                                tuple((p, t, r, d or "—") for p, t, r, d in items)),
                          ["mariage-schema"], [3, 3, 1, 6])
            out.append(sec)
        return out


# ---------------------------------------------------------------- examples
def _trick_table(result: Replay) -> nodes.table:
    """One row per trick: each seat's plays, the winner, points and trump."""
    seats = list(result.rules.seat_names)
    header = ("trick", *seats, "winner", "points", "trump")
    rows = []
    for t in result.tricks:
        cells = [str(t.number) if t.number else "before play"]
        for s in seats:
            plays = " + ".join(t.plays.get(s, []))
            cells.append(("▸ " if s == t.leader and plays else "") + plays)
        cells += [t.winner or "—", str(t.points) if t.winner else "", t.trump]
        rows.append(tuple(cells))
    return _table(Table(header, tuple(rows)), ["mariage-tricks"],
                  [1, *([2] * len(seats)), 1, 1, 1])


def _explanations(result: Replay) -> nodes.enumerated_list | None:
    """What happens in each trick, in words, with what was checked: above the table,
    where it reads at any width."""
    lst = nodes.enumerated_list(classes=["mariage-steps"], enumtype="arabic")
    for t in result.tricks:
        words = " ".join(t.notes).strip()
        if not words and not t.checks:
            continue
        li = nodes.list_item()
        p = nodes.paragraph()
        head = f"Trick {t.number}. " if t.number else "Before play. "
        p += nodes.strong(head, head)
        p.extend(_text(words))
        li += p
        if t.checks:
            checks = nodes.bullet_list(classes=["mariage-checks"])
            for c in t.checks:
                item = nodes.list_item()
                item += _para(f"✓ {c}")
                checks += item
            li += checks
        lst += li
    return lst if len(lst) else None


def _text_option(value: str | None) -> str:
    return (value or "").strip()


class ExampleDirective(SphinxDirective):
    """``.. mariage-example:: CAPTION``: a replayed and checked example."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "ruleset": _text_option,
        "options": _text_option,
        "dealer": _text_option,
        "first": _text_option,
        "turn-up": _text_option,
        "stock": _text_option,
        "hands": _text_option,
    }

    def run(self) -> list[nodes.Node]:
        try:
            options = dict(self.options)
            options.setdefault("ruleset", str(self.env.temp_data.get("mariage-ruleset", "")))
            example = example_from(options, list(self.content))
            result = replay(example)
        except ExampleError as exc:
            line = self.content_offset + (exc.line or 0) + 1 if exc.line is not None \
                else self.lineno
            where = f"{self.env.doc2path(self.env.docname)}:{line}"
            raise ExtensionError(f"{where}: mariage-example is not accepted by the "
                                 f"interpreter: {exc}") from None
        source = nodes.literal_block(result.record, result.record,
                                     classes=["mariage-record"])
        source["language"] = "text"
        return [_draw(result, self.arguments[0] if self.arguments else "",
                      dict(example.options)),
                _para("The example as a record in the notation (mariage validate reads "
                      "it):"), source]


def _draw(result: Replay, title: str, options: dict[str, str]) -> nodes.container:
    """A replayed hand: the hands after the deal, then one row per trick."""
    box = nodes.container(classes=["mariage-example"])
    if title:
        box += _para(title, ["mariage-example-title"])
    deal = [(name + (" (dealer)" if name == result.dealer else ""), cards)
            for name, cards in result.hands]
    box += _table(Table(("seat", "hand after the deal"), tuple(deal)),
                  ["mariage-hands"], [1, 6])
    facts = [f"Ruleset {result.rules.name}"]
    if options:
        facts.append("options " + ", ".join(f"{k}={v}" for k, v in options.items()))
    if result.turn_up:
        facts.append(f"turned-up card {result.turn_up}")
    if result.stock:
        facts.append(f"stock {result.stock} cards")
    box += _para("; ".join(facts) + ". ▸ marks the leader of each trick; ✓ marks what "
                 "the interpreter checked when these pages were built.",
                 ["mariage-example-facts"])
    steps = _explanations(result)
    if steps is not None:
        box += steps
    box += _trick_table(result)
    if result.outcome or result.notes:
        box += _para(" ".join([*result.notes, *(f"✓ {c}." for c in result.outcome)]),
                     ["mariage-outcome"])
    return box


class RecordDirective(SphinxDirective):
    """``.. mariage-record:: CAPTION``: a record in the notation, validated and drawn."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        text = "\n".join(self.content) + "\n"
        try:
            hands = replay_record(text, file=str(self.env.doc2path(self.env.docname)))
        except ExampleError as exc:
            line = self.content_offset + (exc.line or 0) + 1 if exc.line is not None \
                else self.lineno
            raise ExtensionError(f"{self.env.doc2path(self.env.docname)}:{line}: "
                                 f"mariage-record is not valid: {exc}") from None
        out: list[nodes.Node] = []
        source = nodes.literal_block(text, text, classes=["mariage-record"])
        source["language"] = "text"
        for i, hand in enumerate(hands):
            title = self.arguments[0] if self.arguments and i == 0 else ""
            out.append(_draw(hand, title, {}))
        return [*out, _para("The record, as written in the notation:"), source]


def _check_pages(app: Sphinx, env: Any) -> None:
    seen = getattr(env, _ENV_KEY, {})
    missing = [n for n in list_rulesets() if n not in seen]
    if missing:
        raise ExtensionError("no mariage-ruleset page for: " + ", ".join(missing))


def _purge(app: Sphinx, env: Any, docname: str) -> None:
    seen = getattr(env, _ENV_KEY, {})
    for name in [k for k, v in seen.items() if v == docname]:
        del seen[name]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives (called by Sphinx)."""
    app.add_directive("mariage-ruleset", RulesetDirective)
    app.add_directive("mariage-comparison", ComparisonDirective)
    app.add_directive("mariage-schema", SchemaDirective)
    app.add_directive("mariage-example", ExampleDirective)
    app.add_directive("mariage-record", RecordDirective)
    app.connect("env-check-consistency", _check_pages)
    app.connect("env-purge-doc", _purge)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
