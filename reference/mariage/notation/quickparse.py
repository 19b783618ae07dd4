"""Parsing a well-formed record without Lark: the grammar's own terminals, read in order.

The grammar of a record is small (``record: tag+ header_comment* hand*
result?``; ``hand: HAND WORD DEAL DEAL_LINES PLAY?``; ``result: RESULT WORD
WORD? | RESULT "*"``, white space ignored) and each of its terminals is one
regular expression, which :func:`~.grammar.terminal_pattern` takes from the
grammar file (kept in the disk cache). :func:`parse` reads a record as Lark's
LALR parser with its contextual lexer does: at each point it tries the
terminals the grammar accepts there, and goes on only where exactly one of them
matches (so Lark's order among terminals never decides); then it calls the
:class:`~.build.Builder` with the tokens, rule by rule, in the order Lark's
parser reduces them. It answers ``None`` (not sure) on any syntax error,
before calling the builder at all, so the caller can parse the record again with
Lark, which reports the error with its place: a record is parsed the same either
way, and the sink of the builder sees each hand once.

Importing Lark costs five times a bare interpreter's start, and building its
parser as much again; a command that reads well-formed records (``replay``,
``stats``) needs neither.

>>> from mariage.notation.build import Builder
>>> builder = Builder()
>>> builder.reset("<string>", 1, 1, None)
>>> rec = parse('[Mariage "1"]\\n[Ruleset "marianna"]\\nhand 1\\ndeal deck: AH\\nresult *\\n',
...             builder)
>>> [t.name for t in rec.tags], [h.number for h in rec.hands], rec.result.winner
(['Mariage', 'Ruleset'], [1], None)
>>> parse('[Mariage "1"]\\nhand\\n', builder) is None   # a syntax error: Lark's to report
True
"""

from __future__ import annotations

import re
from typing import Any

from .build import Builder
from .grammar import terminal_pattern
from .model import Record

__all__ = ["parse"]

_WS = re.compile(r"[ \t\f\r\n]+")  # the grammar's %ignore WS (common.WS)
_PATTERNS: dict[str, re.Pattern[str]] = {}


def _pattern(name: str) -> re.Pattern[str]:
    found = _PATTERNS.get(name)
    if found is None:
        # the star of "result *" as written; the others as the grammar defines them
        found = re.compile(r"\*" if name == "STAR" else terminal_pattern(name))
        _PATTERNS[name] = found
    return found


class _Token(str):
    """A token as the builder reads it: its text, line and column (from 1)."""

    line: int | None
    column: int | None


class _Unsure(Exception):
    pass


class _Reader:
    """The tokens of one record, read in order; unsure where Lark might read otherwise."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0  # position of the first character of the current line

    def _skip(self) -> None:
        m = _WS.match(self.text, self.pos)
        if m is not None:
            self._advance(m.end())

    def _advance(self, end: int) -> None:
        text = self.text
        newlines = text.count("\n", self.pos, end)
        if newlines:
            self.line += newlines
            self.line_start = text.rindex("\n", self.pos, end) + 1
        self.pos = end

    def next(self, accepted: tuple[str, ...]) -> tuple[str, _Token | None]:
        """The next token among the ``accepted`` terminals (``END``: the text's end)."""
        self._skip()
        text, pos = self.text, self.pos
        if pos >= len(text):
            if "END" in accepted:
                return "END", None
            raise _Unsure
        found: tuple[str, re.Match[str]] | None = None
        for name in accepted:
            if name == "END":
                continue
            m = _pattern(name).match(text, pos)
            if m is not None and m.end() > pos:
                if found is not None:  # two terminals match: Lark's order would decide
                    raise _Unsure
                found = (name, m)
        if found is None:
            raise _Unsure
        name, m = found
        tok = _Token(m.group())
        tok.line, tok.column = self.line, pos - self.line_start + 1
        self._advance(m.end())
        return name, tok


_AFTER_TAG = ("TAG", "COMMENT", "HAND", "RESULT", "END")
_AFTER_COMMENT = ("COMMENT", "HAND", "RESULT", "END")
_AFTER_DEAL = ("PLAY", "HAND", "RESULT", "END")
_AFTER_PLAY = ("HAND", "RESULT", "END")


def parse(text: str, builder: Builder) -> Record | None:
    """The record ``text`` as the builder makes it, or None (a syntax error: not sure)."""
    try:
        steps = _steps(text)
    except _Unsure:
        return None
    children: list[Any] = []
    for rule, tokens in steps:
        if rule == "hand":
            deal = builder.deal([tokens[2]])
            children.append(builder.hand([tokens[0], tokens[1], deal, *tokens[3:]]))
        else:
            children.append(getattr(builder, rule)(tokens))
    return builder.record(children)


def _steps(text: str) -> list[tuple[str, list[_Token]]]:
    """The rules of the record in the order Lark reduces them, each with its tokens."""
    reader = _Reader(text)
    out: list[tuple[str, list[_Token]]] = []
    kind, tok = reader.next(("TAG",))
    while True:
        assert tok is not None or kind == "END"
        if kind == "TAG":
            out.append(("tag", [tok]))  # type: ignore[list-item]
            kind, tok = reader.next(_AFTER_TAG)
        elif kind == "COMMENT":
            out.append(("header_comment", [tok]))  # type: ignore[list-item]
            kind, tok = reader.next(_AFTER_COMMENT)
        elif kind == "HAND":
            _, number = reader.next(("WORD",))
            reader.next(("DEAL",))
            _, lines = reader.next(("DEAL_LINES",))
            tokens = [tok, number, lines]
            kind, tok = reader.next(_AFTER_DEAL)
            if kind == "PLAY":
                tokens.append(tok)
                kind, tok = reader.next(_AFTER_PLAY)
            out.append(("hand", tokens))  # type: ignore[arg-type]
        elif kind == "RESULT":
            what, word = reader.next(("WORD", "STAR"))
            if what == "STAR":
                reader.next(("END",))
                out.append(("unfinished", [tok]))  # type: ignore[list-item]
            else:
                tokens = [tok, word]
                more, other = reader.next(("WORD", "END"))
                if more == "WORD":
                    tokens.append(other)
                    reader.next(("END",))
                out.append(("result", tokens))  # type: ignore[arg-type]
            return out
        else:  # the end
            return out
