"""Records spaced otherwise than the writer spaces them, respaced for the fast path.

A record may be written with CR LF line ends, tabs, runs of spaces, blank lines and
comments where the grammar reads them; the full validator finds the same record in all
of these. :func:`respaced_lines` gives the lines of such a record as the canonical layout
spaces them, so that the fast path (:mod:`.fast`) can read it, or ``None`` where it cannot
be sure (the full validator then reads the record as written).

>>> respaced_lines('[Mariage "1"]\\r\\n{ a comment }\\r\\nhand  1\\r\\n')
['[Mariage "1"]', 'hand 1']
>>> respaced_lines("1. {x} N:AH") is None   # a comment after a trick mark: not sure
True
"""

from __future__ import annotations

import re

from .pieces import _TRICK

__all__ = ["respaced_lines"]

#: (the patterns as text, compiled on first use by ``re``'s own cache: a canonical record
#: needs none of them; issue #28.4)
_SPACES = r"[ \t]+"
#: a comment alone on its line (no brace inside: the grammar's COMMENT)
_COMMENT_LINE = r"\{[^{}]*\}"
#: the keywords that open a hand and the result, as the grammar's HAND and RESULT
_KEYWORD = r"(?:hand|result)(?![A-Za-z0-9?_+\-])"
#: a deal part's label: a word, a colon, then a space or the line's end (a move has none)
_PART_HEAD = r"[A-Za-z][A-Za-z0-9]*:(?: |$)"
# what a line is, for where a comment may stand: a tag, a hand's or the result's
# keyword, the deal's first line, another part of a deal, a line of the play, a comment
_TAG_LINE_, _OPENS, _DEAL_FIRST, _DEAL_PART_, _PLAY_LINE, _COMMENT_ = range(6)


def respaced_lines(text: str) -> list[str] | None:
    """The lines of ``text`` as the canonical layout spaces them, or None if unsure.

    Only what the grammar reads as white space or as a comment changes, so the full
    validator finds the same record in both (but for the comments, which it keeps and
    never checks): a line end written CR LF becomes LF; outside the tag lines, each run
    of spaces and tabs becomes one space (inside an annotation too: its words are split
    on any white space), and the spaces and tabs at either end of a line go; blank lines
    go (they only separate); and a comment alone on its line goes where the grammar
    reads a comment: after the last tag, before the first hand (``header_comment``), or
    in a hand's play, which it may open (after the deal's last part, where a line of the
    play, a hand or the result follows) or continue (after a line of the play), and a
    comment between the pieces of a line of the play goes (:func:`_uncommented`).
    Anything else (a lone CR, a comment elsewhere or over several lines) is unsure.
    Tag lines keep their values as written (the spacing inside a value is part of it).
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:
            return None
    if "{" in text:
        text = _one_line_comments(text)
    lines: list[str] = []
    kinds: list[int] = []
    for row in text.split("\n"):
        row = row.strip(" \t")
        if not row:
            continue
        first = row[0]
        if first == "[":
            kind = _TAG_LINE_
        elif first == "{":
            if re.fullmatch(_COMMENT_LINE, row) is None:
                return None
            kind = _COMMENT_
        else:
            if "\t" in row or "  " in row:
                row = re.sub(_SPACES, " ", row)
            if re.match(_KEYWORD, row):
                kind = _OPENS
            elif row == "deal" or row.startswith("deal "):
                kind = _DEAL_FIRST if row != "deal" else _OPENS  # "deal" alone: no part
            elif re.match(_PART_HEAD, row):
                kind = _DEAL_PART_
            else:
                kind = _PLAY_LINE
            if "{" in row:
                if kind != _PLAY_LINE:
                    return None
                bare = _uncommented(row)
                if bare is None:
                    return None
                row = bare
        lines.append(row)
        kinds.append(kind)
    if _COMMENT_ not in kinds:
        return lines
    kept: list[str] = []
    n = len(lines)
    i = 0
    while i < n:
        if kinds[i] != _COMMENT_:
            kept.append(lines[i])
            i += 1
            continue
        j = i
        while j < n and kinds[j] == _COMMENT_:
            j += 1
        before = kinds[i - 1] if i else None
        after = kinds[j] if j < n else None
        if before == _TAG_LINE_:  # the header's comments: no tag, deal or play after
            fits = after is None or (after == _OPENS and re.match(_KEYWORD, lines[j]) is not None)
        elif before == _PLAY_LINE:  # within a hand's play
            fits = True
        elif before in (_DEAL_FIRST, _DEAL_PART_):  # opening a hand's play
            fits = after is None or after == _PLAY_LINE or (
                after == _OPENS and re.match(_KEYWORD, lines[j]) is not None)
        else:
            fits = False
        if not fits:
            return None
        i = j
    return kept


def _one_line_comments(text: str) -> str:
    """``text`` with each comment written over several lines on one line (its line ends
    made spaces): the lines around it join, which the grammar reads the same (white
    space either way). Only a comment with white space (or a line's end) on both sides
    and no tag, quote or open parenthesis before it on its first line: a brace in a tag
    or inside an annotation's parentheses is text, not a comment. Anything else is left
    as written (and the lines that hold it leave the record to the full validator).

    >>> _one_line_comments("N:AH {a\\nlong one} E:KH\\n(won N)")
    'N:AH {a long one} E:KH\\n(won N)'
    """
    p = text.find("{")
    while p >= 0:
        start = text.rfind("\n", 0, p) + 1
        head = text[start:p]
        end = text.find("}", p)
        if end < 0:
            break
        if '"' not in head and "[" not in head and head.rfind("(") <= head.rfind(")") \
                and (p == start or text[p - 1] in " \t") and "{" not in text[p + 1:end] \
                and text[end + 1:end + 2] in ("", " ", "\t", "\n"):
            body = text[p:end]
            if "\n" in body:
                text = text[:p] + body.replace("\n", " ") + text[end:]
        p = text.find("{", end)
    return text


def _uncommented(row: str) -> str | None:
    """A line of the play without the comments between its pieces, or None if unsure.

    A comment there is a piece of the play of its own (the grammar's COMMENT between
    MOVES and NOTES pieces, white space on both sides): taken out, the pieces around it
    read the same actions and annotations in the same order. Unsure where a brace is
    stuck to a word, where a comment follows a trick mark (a mark must be followed by
    an action: taking the comment out would make such a line valid), and where no
    brace closes it. Braces inside an annotation's parentheses are its text: kept.

    >>> _uncommented("1. N:AH {a fine lead} E:KH (won N) {done}")
    '1. N:AH E:KH (won N)'
    >>> _uncommented("1. {x} N:AH") is None, _uncommented("N:AH{x}") is None
    (True, True)
    >>> _uncommented("N:AH (note {kept})")
    'N:AH (note {kept})'
    """
    kept: list[str] = []
    inside = False  # within an annotation's parentheses (they do not nest)
    start = k = 0
    n = len(row)
    while k < n:
        c = row[k]
        if c == "(":
            inside = True
        elif c == ")":
            inside = False
        elif c == "{" and not inside:
            end = row.find("}", k)
            if end < 0 or "{" in row[k + 1:end] or k == 0 or row[k - 1] != " " \
                    or (end + 1 < n and row[end + 1] != " "):
                return None
            before = row[start:k].strip(" ")
            if _TRICK.fullmatch(before.rpartition(" ")[2]):
                return None
            kept.append(before)
            start = k = end + 1
            continue
        k += 1
    kept.append(row[start:].strip(" "))
    return " ".join(piece for piece in kept if piece)
