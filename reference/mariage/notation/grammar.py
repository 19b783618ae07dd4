"""The Lark grammar of the record notation (``grammar/record.lark``), loaded once.

>>> tree = parser().parse('[Mariage "1"]\\n[Ruleset "marianna"]\\n')
>>> [str(t.data) for t in tree.children]
['tag', 'tag']
"""

from __future__ import annotations

from functools import cache

import lark

from ..resources import grammar_dir

__all__ = ["GRAMMAR_FILE", "grammar_text", "parser"]

#: The grammar file, in the bundled ``grammar`` folder.
GRAMMAR_FILE = "record.lark"


def grammar_text() -> str:
    """The text of the grammar."""
    return (grammar_dir() / GRAMMAR_FILE).read_text(encoding="utf-8")


@cache
def parser(transformer: lark.Transformer | None = None) -> lark.Lark:  # type: ignore[type-arg]
    """An LALR parser of one record (start symbol ``record``)."""
    return lark.Lark(grammar_text(), parser="lalr", start="record", lexer="contextual",
                     transformer=transformer, maybe_placeholders=False)
