"""Building the model of a record while it is parsed (no parse tree is kept).

:class:`Builder` is called with the grammar's tokens, rule by rule, by the
parser of :mod:`.quickparse` (no Lark) or, through :func:`lark_builder`, by
Lark's (which the reader imports only where the first cannot be sure). The fast
path (:mod:`.fast`) reads canonical records without either.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from .cards import french_card, normalize_action
from .errors import NotationError, RecordError
from .model import Act, Comment, Deal, DealPart, Hand, Item, Note, Record, Result, Tag, TrickMark
from .pieces import (
    _CARDS,
    _PIECE,
    _TAG_NAME,
    _TRICK,
    _WORDS,
    MAX_DIGITS,
    Sink,
    _deal_part,
    _play_item,
    _tag_value,
    _unquote,
    _words,
)

__all__ = ["Builder", "Token", "lark_builder"]


class Token(Protocol):
    """What a builder reads of a token: its text (a ``str``), line and column."""

    line: int | None
    column: int | None

    def __str__(self) -> str: ...


class Builder:
    """Turns the parse into model values while the parser runs (no tree is kept)."""

    offset = 0
    file = "<string>"
    number = 1
    first_line = 1
    #: When set, each hand goes to ``sink(header, hand)`` as soon as it is parsed, and
    #: is not kept: a record is checked hand by hand, in memory bounded by one hand.
    sink: Sink | None = None
    tags: list[Tag]
    comments: list[Comment]
    header: Record | None = None

    def reset(self, file: str, number: int, line: int, sink: Sink | None) -> None:
        self.offset = line - 1
        self.file, self.number, self.first_line, self.sink = file, number, line, sink
        self.tags, self.comments, self.header = [], [], None

    def _pos(self, tok: Any) -> tuple[int, int]:
        return (tok.line or 0) + self.offset, tok.column or 0

    def _too_long(self, text: str, line: int, column: int, what: str) -> NotationError:
        return NotationError(RecordError(
            "N112", f"{what} of {len(text)} digits (limit {MAX_DIGITS})", file=self.file,
            line=line, column=column, record=self.number, token=text[:20] + "..."))

    def tag(self, ch: list[Any]) -> Tag:
        tok = ch[0]
        line, col = self._pos(tok)
        name = _TAG_NAME.search(tok)
        assert name is not None
        values = tuple(_unquote(m.group()) for m in _tag_value().finditer(tok))
        tag = Tag(name.group(), values, line, col + name.start())
        self.tags.append(tag)
        return tag

    def header_comment(self, ch: list[Any]) -> Comment:
        comment = Comment(ch[0][1:-1], *self._pos(ch[0]))
        self.comments.append(comment)
        return comment

    def deal(self, ch: list[Any]) -> Deal:
        parts = []
        first_line, first_col = self._pos(ch[-1])
        text = str(ch[-1])
        for m in _deal_part().finditer(text):
            tok = m.group()
            start = m.start()
            line = first_line + text.count("\n", 0, start)
            col = first_col + start if line == first_line else start - text.rindex(
                "\n", 0, start)
            found = _words(tok)
            label = found[0][0][:-1]
            cards = _CARDS
            codes = []
            for w, _ in found[1:]:
                code = cards.get(w)
                if code is None:
                    if len(cards) > 4096:  # bounded, whatever the input
                        cards.clear()
                    code = cards[w] = french_card(w)
                codes.append(code)
            words = tuple(w for w, _ in found[1:])
            parts.append(DealPart(label, tuple(codes), line, col,
                                  tuple(col + start for _, start in found[1:]),
                                  words if words != tuple(codes) else ()))
        return Deal(tuple(parts))

    def play(self, tok: Any) -> list[Item]:
        """Split the play of a hand into its pieces, each with its line and column."""
        line, col = self._pos(tok)
        text = str(tok)
        out: list[Item] = []
        seen = 0  # position in ``text`` up to which newlines are counted
        line_start = -col + 1  # position of the first character of the current line
        for m in _play_item().finditer(text):
            start = m.start()
            newlines = text.count("\n", seen, start)
            if newlines:
                line += newlines
                line_start = text.rindex("\n", seen, start) + 1
            seen = start
            piece = m.group()
            c = start - line_start + 1
            first = piece[0]
            if first == "{":
                out.append(Comment(piece[1:-1], line, c))
                newlines = piece.count("\n")
                if newlines:  # a comment may run over several lines
                    line += newlines
                    line_start = start + piece.rindex("\n") + 1
                seen = m.end()
            elif first == "(":
                out.extend(self._notes(piece, line, c))
            else:
                out.extend(self._moves(piece, line, c))
        return out

    def _moves(self, tok: str, line: int, col: int) -> list[Item]:
        out: list[Item] = []
        append = out.append
        words = _WORDS
        paren = tok.find("(")  # annotations, if any, close the line
        head = tok if paren < 0 else tok[:paren]
        for s, start in _words(head):
            hit = words.get(s)
            if hit is None:
                if s[-1] == "." and _TRICK.fullmatch(s):
                    if len(s) > MAX_DIGITS + 1:
                        raise self._too_long(s[:-1], line, col + start, "a trick number")
                    append(TrickMark(int(s[:-1]), line, col + start))
                    continue
                seat, _, text = s.partition(":")
                if len(words) > 4096:  # bounded, whatever the input
                    words.clear()
                # a resignation's reason is free text, kept as written
                norm = text if text.startswith("resign:") else normalize_action(text)
                hit = words[s] = (seat, norm, "" if norm == text else text)
            append(Act(hit[0], hit[1], line, col + start, hit[2]))
        if paren >= 0:
            for m in _PIECE.finditer(tok, paren):
                append(_note(m.group(), line, col + m.start()))
        return out

    def _notes(self, tok: str, line: int, col: int) -> list[Item]:
        return [_note(m.group(), line, col + m.start()) for m in _PIECE.finditer(tok)]

    def hand(self, ch: list[Any]) -> Hand | None:
        kw, num, deal = ch[0], ch[1], ch[2]
        text = str(num)
        if len(text) > MAX_DIGITS and text.isdigit():
            raise self._too_long(text, *self._pos(num), "a hand number")
        items: list[Item] = self.play(ch[3]) if len(ch) > 3 else []
        number = int(text) if text.isdigit() else -1
        hand = Hand(number, deal, tuple(items), *self._pos(kw))
        if self.sink is None:
            return hand
        if self.header is None:
            self.header = Record(tuple(self.tags), tuple(self.comments), (), None, self.file,
                                 self.number, self.first_line)
        self.sink(self.header, hand)
        return None

    def result(self, ch: list[Any]) -> Result:
        return Result(str(ch[1]), str(ch[2]) if len(ch) > 2 else None, *self._pos(ch[0]))

    def unfinished(self, ch: list[Any]) -> Result:
        return Result(None, None, *self._pos(ch[0]))

    def record(self, ch: list[Any]) -> Record:
        tags = tuple(c for c in ch if isinstance(c, Tag))
        comments = tuple(c for c in ch if isinstance(c, Comment))
        hands = tuple(c for c in ch if isinstance(c, Hand))
        results = [c for c in ch if isinstance(c, Result)]
        return Record(tags, comments, hands, results[0] if results else None)


def _note(text: str, line: int, column: int) -> Note:
    words = text[1:-1].split()
    if not words:
        return Note("", (), line, column)
    return Note(words[0], tuple(words[1:]), line, column)




@cache
def _lark_class() -> type[Builder]:
    import lark

    return type("_Build", (Builder, lark.Transformer), {"__doc__": Builder.__doc__})


def lark_builder() -> Builder:
    """A builder that Lark calls as its transformer (a :class:`lark.Transformer` too)."""
    return _lark_class()()
