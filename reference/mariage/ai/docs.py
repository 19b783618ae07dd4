"""Sphinx extension: the layouts of the AI vectors as tables (``.. mariage-ai-layout::``).

Add ``"mariage.ai.docs"`` to ``extensions`` in ``conf.py``. It needs no numpy: the
layouts come from :mod:`mariage.ai.layout`, so the documentation prints exactly what
the encoders fill.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from mariage.spec.rulesload import load_rules

from .layout import info_state_features, observation_features

__all__ = ["AILayoutDirective", "setup"]


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> nodes.table:
    """A docutils table of plain text cells."""
    table = nodes.table(classes=["mariage-table", "mariage-ai-layout"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for _ in header:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    body = nodes.tbody()
    head += _row(header)
    for cells in rows:
        body += _row(cells)
    group += head
    group += body
    return table


def _row(cells: tuple[str, ...]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += nodes.paragraph(text=cell)
        row += entry
    return row


class AILayoutDirective(SphinxDirective):
    """``.. mariage-ai-layout:: RULESET``: the observation vector's layout (offset, size,
    meaning), or with ``:kind: info_state`` the information-state tensor's (the
    decision slots shown once, with their stride). Needs no numpy."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"kind": str}

    def run(self) -> list[nodes.Node]:
        rules = load_rules(self.arguments[0])
        kind = self.options.get("kind", "observation")
        if kind == "observation":
            feats = observation_features(rules)
            rows = tuple((f.name, str(f.offset), str(f.size), f.meaning) for f in feats)
            total = sum(f.size for f in feats)
        elif kind == "info_state":
            feats = info_state_features(rules)
            dealt = [f for f in feats if f.name.startswith("dealt_")]
            slots = [f for f in feats if f.name.startswith("slot_")]
            start = dealt[-1].offset + dealt[-1].size
            first = [f for f in slots if f.name.startswith("slot_0_")]  # one slot's parts
            stride = sum(f.size for f in first)
            count = len(slots) // len(first)
            rows = ((f"dealt_* ({len(dealt)} parts)", "0", str(start),
                     "the observation vector (above) when the hand was dealt"),
                    *((f.name.replace("slot_0_", "slot_k_"), f"{f.offset} + {stride}·k",
                       str(f.size), f.meaning.replace("decision 1 ", "decision k + 1 "))
                      for f in first))
            total = start + stride * count
            rows = (*rows, ("", "", "", f"k = 0 .. {count - 1}: {count} decision slots"))
        else:
            raise self.error(f"mariage-ai-layout: unknown kind {kind!r}")
        return [_table(("part", "offset", "size", "meaning"),
                       [*rows, ("total", "", str(total), "")])]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive (called by Sphinx)."""
    app.add_directive("mariage-ai-layout", AILayoutDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
