"""The canonical writer: one record as text, in the one canonical layout.

Tags one per line; a blank line; each hand as ``hand N``, the deal (one
labelled line per part), then one line per trick (``N.``, the actions, the
annotations), comments on their own lines, the hand's closing annotations;
finally ``result``. Cards and suits are French codes. ``parse(write(r)) == r``
and ``write(parse(s))`` is a fixed point.

>>> from mariage.notation.reader import parse_record
>>> text = '[Mariage "1"]\\n[Ruleset "marianna"]\\n\\nresult *\\n'
>>> write_record(parse_record(text)) == text
True
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TextIO

from ..errors import expect_path, expect_str, shown
from . import tokens
from .model import Act, Comment, Hand, Note, Record, TrickMark, expect_record

__all__ = ["write_atomically", "write_record", "write_records"]


#: What the reader reads back of each piece the writer writes as it is (the notation's
#: token patterns, :mod:`.tokens`): a record built by hand with, say, a comment holding a
#: brace or a tag name with a space is refused, not written as text no reader can read.
_WRITABLE = {
    "tag name": tokens.WORD,
    "comment": tokens.COMMENT,
    "result": tokens.WORD,
    "seat": tokens.NAME,
    "action": tokens.ACTION,
    "annotation": tokens.NOTE,
    "deal label": tokens.NAME,
    "card": tokens.CARD,
}


#: Pieces found writable, by kind: a record repeats its seats, cards and actions, and a
#: set lookup costs less than a match (bounded, whatever is written).
_OK: dict[str, set[str]] = {kind: set() for kind in _WRITABLE}


def _w(kind: str, text: str) -> str:
    """``text``, a piece of kind ``kind``, as written; a ValueError if the reader could not
    read it back.

    >>> _w("comment", "a {brace}")
    Traceback (most recent call last):
    ValueError: write_record: a comment cannot hold 'a {brace}': it would not read back
    """
    ok = _OK[kind]
    if type(text) is str and text in ok:
        return text
    if not isinstance(text, str) or not _WRITABLE[kind].fullmatch(text):
        raise ValueError(f"write_record: a {kind} cannot hold {shown(text)}: it would not "
                         "read back")
    if len(ok) < 4096:
        ok.add(text)
    return text


def _quote(s: str) -> str:
    """A tag value, quoted: a line break (which no tag value can hold) becomes a space."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _hand_lines(hand: Hand) -> list[str]:
    if type(hand.number) is not int:
        raise ValueError(f"write_record: a hand number is a whole number, not "
                         f"{shown(hand.number)}")
    out = [f"hand {hand.number}"]
    for i, part in enumerate(hand.deal.parts):
        head = "deal " if i == 0 else ""
        cards = _OK["card"]
        out.append(f"{head}{_w('deal label', part.label)}:"
                   + "".join(" " + (c if c in cards else _w("card", c)) for c in part.cards))
    line: list[str] = []
    has_acts = has_notes = False
    seats, actions = _OK["seat"], _OK["action"]

    def flush() -> None:
        nonlocal has_acts, has_notes
        if line:
            out.append(" ".join(line))
            line.clear()
        has_acts = has_notes = False

    for item in hand.items:
        if isinstance(item, TrickMark):
            flush()
            line.append(f"{item.number}.")
        elif isinstance(item, Act):
            if has_notes:
                flush()
            seat, text = item.seat, item.text
            if seat not in seats:
                _w("seat", seat)
            if text not in actions:
                _w("action", text)
            line.append(f"{seat}:{text}")
            has_acts = True
        elif isinstance(item, Note):
            line.append(_w("annotation", str(item)))
            has_notes = True
        elif isinstance(item, Comment):
            flush()
            out.append("{" + _w("comment", item.text) + "}")
    flush()
    return out


def write_record(record: Record) -> str:
    """The canonical text of ``record``, ending with a newline: it reads back as an
    equal record, and a record written once is written the same again.

    >>> from mariage.notation import parse_record
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> messy = text.replace("A:QD B:JS", "A:QD   B:JS").replace("[Dealer", "[ Dealer")
    >>> canonical = write_record(parse_record(messy))
    >>> canonical == text, parse_record(canonical) == parse_record(messy)
    (True, True)
    """
    expect_record(record, "write_record")
    out = [f"[{_w('tag name', t.name)}" + "".join(" " + _quote(v) for v in t.values) + "]"
           for t in record.tags]
    out.extend("{" + _w("comment", c.text) + "}" for c in record.comments)
    for hand in record.hands:
        out.append("")
        out.extend(_hand_lines(hand))
    res = record.result
    if res is not None:
        out.append("")
        if res.winner is None:
            if res.reason is not None:
                raise ValueError(f"write_record: an unfinished result (winner None) cannot hold "
                                 f"the reason {res.reason!r}: it would not read back (a "
                                 f"result with no winner is winner '-')")
            out.append("result *")
        else:
            out.append(f"result {_w('result', res.winner)}"
                       + (f" {_w('result', res.reason)}" if res.reason else ""))
    return "\n".join(out) + "\n"


def write_records(records: Iterable[Record], out: TextIO) -> int:
    """Write ``records`` to ``out``, a blank line between them; return how many.

    >>> import io
    >>> from mariage.notation import parse_record, read_records
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> out = io.StringIO()
    >>> write_records([parse_record(text), parse_record(text)], out)
    2
    >>> len(list(read_records(io.BytesIO(out.getvalue().encode()))))
    2
    """
    if not callable(getattr(out, "write", None)):
        raise TypeError("write_records: out must be a text stream (open(path, 'w'), "
                        f"io.StringIO()), not {type(out).__name__}")
    if isinstance(records, str | bytes) or not isinstance(records, Iterable):
        raise TypeError(f"write_records: records must be an iterable of Record, "
                        f"not {type(records).__name__}")  # (a str: each character)
    n = 0
    for rec in records:
        if n:
            out.write("\n")
        out.write(write_record(rec))
        n += 1
    return n


def write_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: never half a file.

    The same policy as every output (:func:`mariage.outfile.write_output`): a
    symbolic link, FIFO, device, folder or read-only file is not replaced.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "match.mrg")
    ...     write_atomically(path, '[Mariage "1"]\\n')
    ...     write_atomically(path, '[Mariage "1"]\\n[Ruleset "schnapsen"]\\n')
    ...     print(open(path).read(), os.listdir(folder))
    [Mariage "1"]
    [Ruleset "schnapsen"]
     ['match.mrg']
    """
    from ..outfile import write_output

    name = expect_path(path, "write_atomically: path")  # None, bytes failed in os
    expect_str(text, "write_atomically: text")  # else Python's "write() argument must be str"
    write_output(name, text, "write_atomically")
