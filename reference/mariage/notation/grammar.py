"""The Lark grammar of the record notation (``grammar/record.lark``), loaded once.

>>> tree = parser().parse('[Mariage "1"]\\n[Ruleset "marianna"]\\n')
>>> [str(t.data) for t in tree.children]
['tag', 'tag']
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ..resources import grammar_dir

if TYPE_CHECKING:  # Lark is imported when a parser or a terminal's pattern is first made
    import lark

__all__ = ["GRAMMAR_FILE", "grammar_text", "parser"]

#: The grammar file, in the bundled ``grammar`` folder.
GRAMMAR_FILE = "record.lark"


def grammar_text() -> str:
    """The text of the grammar."""
    return (grammar_dir() / GRAMMAR_FILE).read_text(encoding="utf-8")


@cache
def parser(transformer: lark.Transformer | None = None) -> lark.Lark:  # type: ignore[type-arg]
    """An LALR parser of one record (start symbol ``record``).

    Its tables are kept in the disk cache (:mod:`mariage.spec.diskcache`), valid
    while the grammar file and Lark's version are unchanged: building them from the
    grammar takes about 35 ms, loading them about 1 ms.
    """
    import lark

    loaded: lark.Lark | None = _loaded(lark, transformer)
    if loaded is not None:
        return loaded
    return lark.Lark(grammar_text(), parser="lalr", start="record", lexer="contextual",
                     transformer=transformer, maybe_placeholders=False)


def _loaded(lark: Any, transformer: Any) -> Any:
    """The parser made from its tables in the disk cache (stored first if missing), or
    None where they cannot be kept or read (then the caller builds it)."""
    import io

    from mariage.spec import diskcache

    path = grammar_dir() / GRAMMAR_FILE
    key = diskcache.make_key("record parser", GRAMMAR_FILE, lark.__version__)
    tables = diskcache.load(key)
    if not isinstance(tables, bytes):
        built = lark.Lark(grammar_text(), parser="lalr", start="record", lexer="contextual",
                          maybe_placeholders=False)
        buffer = io.BytesIO()
        built.save(buffer, ("transformer",))
        tables = buffer.getvalue()
        diskcache.store(key, tables, [path])
    try:  # (Lark's own loader, given the transformer as Lark's cache gives it)
        made = lark.Lark.__new__(lark.Lark)
        return made._load(io.BytesIO(tables), transformer=transformer)
    except Exception:  # another Lark, damaged tables: built afresh by the caller
        return None


#: the terminals' patterns known to this process (read from the disk cache at the first ask)
_PATTERNS: dict[str, str] = {}
_READ: list[bool] = []


def terminal_pattern(name: str) -> str:
    """The regular expression of terminal ``name`` as the grammar defines it.

    Terminals used only inside other terminals (MOVES, NOTES inside PLAY) are
    inlined by Lark and absent from the compiled parser, so they are compiled
    here from the grammar itself; the reader splits a hand's play with them.

    >>> terminal_pattern("COMMENT")
    '\\\\{[^{}]*\\\\}'

    The patterns are kept in the disk cache (:mod:`mariage.spec.diskcache`), all in
    one entry, valid while the grammar file is unchanged, so that the fast path of
    validation, which needs them, does not import Lark in a warm process (and reads
    one entry, not one per terminal).
    """
    found = _PATTERNS.get(name)
    if found is not None:
        return found
    from mariage.spec import diskcache

    key = diskcache.make_key("terminal patterns", GRAMMAR_FILE)
    if not _READ:
        _READ.append(True)
        stored = diskcache.load(key)
        if type(stored) is dict and all(type(k) is str and type(v) is str
                                        for k, v in stored.items()):
            _PATTERNS.update(stored)
            found = _PATTERNS.get(name)
            if found is not None:
                return found
    pattern = _compiled_pattern(name)
    _PATTERNS[name] = pattern
    diskcache.store(key, dict(_PATTERNS), [grammar_dir() / GRAMMAR_FILE])
    return pattern


def _compiled_pattern(name: str) -> str:
    """The pattern of terminal ``name``, compiled by Lark from the grammar."""
    from lark.load_grammar import GrammarBuilder

    builder = GrammarBuilder()
    builder.load_grammar(grammar_text(), GRAMMAR_FILE)
    terminals, _, _ = builder.build().compile(["record"], {name})
    for terminal in terminals:
        if terminal.name == name:
            return str(terminal.pattern.to_regexp())
    raise KeyError(name)
