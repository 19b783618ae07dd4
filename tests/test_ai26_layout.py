"""The layout tables of ``docs/ai.rst`` are the encoders' own: each
``.. mariage-ai-layout::`` of the page, rendered by the documentation's directive, lists
the parts, offsets and sizes that :class:`~mariage.ai.encoding.Encoder` and
:class:`~mariage.ai.encoding.InfoStateEncoder` fill and name, and the sizes the page
quotes in its prose are theirs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import directives
from mariage import load_rules
from mariage.ai.docs import AILayoutDirective
from mariage.ai.encoding import ActionSpace, Encoder, InfoStateEncoder

AI_RST = Path(__file__).resolve().parent.parent / "docs" / "ai.rst"
TEXT = AI_RST.read_text(encoding="utf-8")
LAYOUTS = re.findall(r"^\.\. mariage-ai-layout:: (\S+)\n(?:   :kind: (\S+)\n)?", TEXT,
                     re.MULTILINE)


def rendered(ruleset: str, kind: str) -> list[list[str]]:
    """The rows of the table the page's directive makes (header left out)."""
    directives.register_directive("mariage-ai-layout", AILayoutDirective)
    source = f".. mariage-ai-layout:: {ruleset}\n" + (f"   :kind: {kind}\n" if kind else "")
    tree = publish_doctree(source, settings_overrides={"report_level": 2, "halt_level": 2})
    rows = [[e.astext() for e in row.findall(nodes.entry)] for row in tree.findall(nodes.row)]
    assert rows[0] == ["part", "offset", "size", "meaning"]
    return rows[1:]


def test_the_page_lays_out_what_it_says() -> None:
    assert ("schnapsen", "") in LAYOUTS and ("marjapussi-de", "") in LAYOUTS
    assert ("schnapsen", "info_state") in LAYOUTS and ("mariaggia", "info_state") in LAYOUTS


@pytest.mark.parametrize(("ruleset", "kind"), LAYOUTS)
def test_a_layout_table_is_the_encoders(ruleset: str, kind: str) -> None:
    rules = load_rules(ruleset)
    rows = rendered(ruleset, kind)
    enc = Encoder(rules)
    if not kind:
        assert rows[:-1] == [[f.name, str(f.offset), str(f.size), f.meaning]
                             for f in enc.features]
        assert rows[-1][:3] == ["total", "", str(enc.size)]
        names = enc.feature_names()
        assert len(names) == enc.size
        for f in enc.features:  # each part's values are named after it, in its place
            assert all(n.startswith(f.name + "[")
                       for n in names[f.offset:f.offset + f.size])
        return
    assert kind == "info_state"
    info = InfoStateEncoder(rules)
    dealt, *parts, count, total = rows
    assert dealt[1:3] == ["0", str(enc.size)]
    stride = info.slot_size
    at = enc.size
    sizes = [("actor", rules.nseats + 1), ("action", info.space.size),
             ("learned", rules.ncards), *([("drew", rules.ncards)] if rules.open_hands else [])]
    assert len(parts) == len(sizes)
    for row, (part, size) in zip(parts, sizes, strict=True):
        first = next(f for f in info.features if f.name == f"slot_0_{part}")
        assert row[:3] == [f"slot_k_{part}", f"{at} + {stride}·k", str(size)]
        assert (first.offset, first.size) == (at, size)
        last = next(f for f in info.features if f.name == f"slot_{info.slots - 1}_{part}")
        assert last.offset == at + stride * (info.slots - 1)
        at += size
    assert count[3] == f"k = 0 .. {info.slots - 1}: {info.slots} decision slots"
    assert total[:3] == ["total", "", str(info.size)]
    assert "decision k + 1 " in parts[0][3]


def test_the_sizes_the_page_quotes_are_the_encoders() -> None:
    rules = load_rules("schnapsen")
    obs, info = Encoder(rules).size, InfoStateEncoder(rules).size
    ids = ActionSpace(rules).size  # the action ids (the mask's values, Discrete's n)
    quoted = {int(n.replace(",", "")) for n in
              re.findall(r"([\d,]+) (?:values|int8 values|in Schnapsen)", TEXT)}
    assert quoted == {obs, info, ids}, quoted
