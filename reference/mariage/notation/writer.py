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

from collections.abc import Iterable
from typing import TextIO

from .model import Act, Comment, Hand, Note, Record, TrickMark, expect_record

__all__ = ["write_atomically", "write_record", "write_records"]


def _quote(s: str) -> str:
    """A tag value, quoted: a line break (which no tag value can hold) becomes a space."""
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _hand_lines(hand: Hand) -> list[str]:
    out = [f"hand {hand.number}"]
    for i, part in enumerate(hand.deal.parts):
        head = "deal " if i == 0 else ""
        out.append(f"{head}{part.label}:" + "".join(" " + c for c in part.cards))
    line: list[str] = []
    has_acts = has_notes = False

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
            line.append(f"{item.seat}:{item.text}")
            has_acts = True
        elif isinstance(item, Note):
            line.append(str(item))
            has_notes = True
        elif isinstance(item, Comment):
            flush()
            out.append("{" + item.text + "}")
    flush()
    return out


def write_record(record: Record) -> str:
    """The canonical text of ``record``, ending with a newline."""
    expect_record(record, "write_record")
    out = [f"[{t.name}" + "".join(" " + _quote(v) for v in t.values) + "]" for t in record.tags]
    out.extend("{" + c.text + "}" for c in record.comments)
    for hand in record.hands:
        out.append("")
        out.extend(_hand_lines(hand))
    res = record.result
    if res is not None:
        out.append("")
        if res.winner is None:
            out.append("result *")
        else:
            out.append(f"result {res.winner}" + (f" {res.reason}" if res.reason else ""))
    return "\n".join(out) + "\n"


def write_records(records: Iterable[Record], out: TextIO) -> int:
    """Write ``records`` to ``out``, a blank line between them; return how many."""
    n = 0
    for rec in records:
        if n:
            out.write("\n")
        out.write(write_record(rec))
        n += 1
    return n


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: never half a file.

    The same policy as every output (:func:`mariage.outfile.write_output`): a
    symbolic link, FIFO, device, folder or read-only file is not replaced.
    """
    from ..outfile import write_output

    write_output(path, text)
