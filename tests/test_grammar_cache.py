"""The record parser's tables come from the disk cache: the same parses as a parser built
from the grammar, and a parser built afresh where the cache cannot serve them."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import lark
import pytest
from mariage.notation import grammar
from mariage.notation.build import lark_builder
from notationkit import record_texts

DATA = Path(__file__).parent / "data" / "records"


def _outcome(make: Callable[[], Any], text: str) -> object:
    """What parsing ``text`` gives: the record, or where the syntax error is."""
    parser = make()
    parser.options.transformer.reset("<t>", 1, 1, None)
    try:
        return parser.parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        return (type(exc).__name__, exc.line, exc.column)


def _built() -> Any:
    return lark.Lark(grammar.grammar_text(), parser="lalr", start="record",
                     lexer="contextual", transformer=lark_builder(), maybe_placeholders=False)



def test_the_cached_tables_parse_as_the_grammar_does() -> None:
    texts = record_texts()
    assert len(texts) > 30
    loaded = grammar.parser.__wrapped__(lark_builder())
    assert loaded.source_path == "<deserialized>"  # from the cache, not built
    built = _built()
    seen = set()
    for text in texts:
        for cut in (len(text), len(text) // 2):  # whole, and cut short (a syntax error)
            got = _outcome(lambda: loaded, text[:cut])
            assert got == _outcome(lambda: built, text[:cut])
            seen.add(type(got))
    assert len(seen) == 2  # records, and syntax errors


@pytest.mark.parametrize("stored", [b"not tables", b"", 42, None])
def test_tables_that_cannot_serve_give_a_parser_built_afresh(
        monkeypatch: pytest.MonkeyPatch, stored: object) -> None:
    from mariage.spec import diskcache

    monkeypatch.setattr(diskcache, "load", lambda key: stored)
    monkeypatch.setattr(diskcache, "store", lambda key, value, files: None)
    made = grammar.parser.__wrapped__(lark_builder())
    text = (DATA / "good" / "marianna.mrg").read_text()
    assert _outcome(lambda: made, text) == _outcome(_built, text)
