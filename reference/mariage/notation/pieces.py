"""The pieces a record's lines are read into: words, cards, tags, deal parts, trick marks.

Shared by :mod:`mariage.notation.reader` (which splits a record and reads canonical lines
itself) and :mod:`mariage.notation.build` (the Lark transformer, for every other record),
so that neither imports the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .grammar import terminal_pattern
from .model import Hand, Record
from .tokens import TRICK, WORD

__all__ = ["MAX_DIGITS", "Sink"]

MAX_DIGITS = 9


#: Where a streaming parse sends each hand: ``sink(header, hand)``.
Sink = Callable[[Record, Hand], None]

_PIECE = re.compile(r"\([^()]*\)|\S+")
_PLAY_ITEM: list[re.Pattern[str]] = []
_TAG_NAME = WORD  # a tag's name (the notation's token patterns: .tokens)
_DEAL_PART: list[re.Pattern[str]] = []
_TAG_VALUE: list[re.Pattern[str]] = []


def _tag_value() -> re.Pattern[str]:
    """A quoted tag value: the grammar's STRING terminal."""
    if not _TAG_VALUE:
        _TAG_VALUE.append(re.compile(terminal_pattern("STRING")))
    return _TAG_VALUE[0]


def _deal_part() -> re.Pattern[str]:
    """One labelled card list of a deal: the grammar's DEAL_PART terminal."""
    if not _DEAL_PART:
        _DEAL_PART.append(re.compile(terminal_pattern("DEAL_PART")))
    return _DEAL_PART[0]


def _play_item() -> re.Pattern[str]:
    """One piece of a hand's play: the grammar's MOVES, NOTES or COMMENT terminal."""
    if not _PLAY_ITEM:
        parts = [terminal_pattern(name) for name in ("COMMENT", "NOTES", "MOVES")]
        _PLAY_ITEM.append(re.compile("|".join(f"(?:{p})" for p in parts)))
    return _PLAY_ITEM[0]
_WORDS: dict[str, tuple[str, str, str]] = {}  # SEAT:ACTION -> (seat, canonical, as written)
_CARDS: dict[str, str] = {}  # a card as written -> its canonical code


def _words(text: str) -> list[tuple[str, int]]:
    """The words of one line (no line end inside) and where each starts.

    >>> _words("1. N:AH  W:2H")
    [('1.', 0), ('N:AH', 3), ('W:2H', 9)]
    """
    if "\t" in text or "\r" in text or "\f" in text or "\v" in text:
        out = []
        pos = 0
        for w in text.split():
            start = text.index(w, pos)
            out.append((w, start))
            pos = start + len(w)
        return out
    found = []
    pos = 0
    for w in text.split(" "):
        if w:
            found.append((w, pos))
        pos += len(w) + 1
    return found
_TRICK = TRICK


def _unquote(s: str) -> str:
    return s[1:-1].replace('\\"', '"').replace("\\\\", "\\")
