"""Reading records: split a byte stream into records, then parse each with Lark.

A file is read line by line: a record starts at each line beginning with
``[Mariage``, so memory stays bounded by the largest record, whatever the size
of the file. Lines that are not UTF-8, lines longer than :data:`MAX_LINE` and
records larger than :data:`MAX_RECORD` are reported with their codes. A
byte-order mark at the start of the file is skipped.

:func:`parse_record` can hand each hand to a ``sink`` as soon as it is parsed
(the validator checks a record hand by hand that way); numbers longer than
:data:`MAX_DIGITS` digits are errors (``N112``), never converted; after a
syntax error, :func:`syntax_errors` finds the record's other syntax errors
in about one more parse.

>>> import io
>>> data = b'[Mariage "1"]\\n[Ruleset "marianna"]\\nresult *\\n'
>>> [r.tag("Ruleset") for r in read_records(io.BytesIO(data))]
['marianna']
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, BinaryIO

from ..errors import count_argument, expect_str
from ..infile import not_text
from ..lazyrecord import field, record
from .errors import NotationError, RecordError, odd_character, odd_column, tag_trouble
from .grammar import grammar_text, parser
from .model import Record, expect_text
from .pieces import (  # the pieces a line is read into, shared with .build
    MAX_DIGITS,
    Sink,
)

if TYPE_CHECKING:  # Lark is imported only when a record is parsed (not on the fast path)
    import lark
    from lark.exceptions import UnexpectedInput

    from .build import Builder

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_DIGITS",
    "MAX_LINE",
    "MAX_RECORD",
    "MAX_SYNTAX_ERRORS",
    "RawRecord",
    "parse_record",
    "parse_records",
    "read_record",
    "read_records",
    "split_records",
    "syntax_errors",
]

#: The longest line accepted, in bytes (a canonical line is well under 200).
MAX_LINE = 64 * 1024
#: The largest record accepted, in bytes.
MAX_RECORD = 8 * 1024 * 1024
#: The longest number accepted anywhere in a record (hand and trick numbers,
#: annotation values, option values), in digits.
#: The default number of replays before the deal search (:mod:`mariage.notation.search`)
#: gives up; here so that checking a full record does not import the search.
DEFAULT_LIMIT = 5000
_START = b"[Mariage"
#: A carriage return with more of the line after it: the file's lines end in CR alone
#: (read as one line, the file was 'a line too long' or two records ran together).
_LONE_CR = re.compile(rb"\r+[^\r\n \t]")
_BOM = b"\xef\xbb\xbf"


@record
class RawRecord:
    """The text of one record, where it starts, and problems found while reading it."""

    text: str
    number: int
    line: int
    file: str
    problems: list[RecordError] = field(default_factory=list)


#: What :func:`split_records` asks when reading the stream fails: ``broken(exc, line)``
#: gives the problem to report (reading stops there), or None to raise ``exc``.
Broken = Callable[[Exception, int], "RecordError | None"]


def split_records(stream: BinaryIO, file: str = "<stream>", broken: Broken | None = None
                  ) -> Iterator[RawRecord | RecordError]:
    """Yield each record of ``stream`` in turn, and file-level problems as they are met.

    ``broken``: called when reading the stream raises (a damaged compressed file,
    say) with the exception and the number of the line that could not be read;
    the problem it returns is yielded last, or, if it returns None, the exception
    is raised. A record is not parsed here: a :class:`RawRecord` is its text and
    where it starts.

    >>> import io
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> stream = io.BytesIO((text + "\\n" + text).encode())
    >>> [(raw.number, raw.line) for raw in split_records(stream, "two.mrg")]
    [(1, 1), (2, 15)]
    """
    body = bytearray()  # the record's lines, decoded when the record is complete
    size = 0
    number = 0
    start = 0
    lineno = 0
    problems: list[RecordError] = []  # the record's line problems: at most MAX_SYNTAX_ERRORS
    skips: list[int] = []  # lines left out of the record (too long)
    junk_reported = False
    early = 0  # problems reported before the first record: at most MAX_SYNTAX_ERRORS
    readline = getattr(stream, "readline", None)
    if readline is None:  # a str, a path: "has no attribute 'readline'" said nothing
        raise TypeError(f"split_records reads a binary stream (open(path, 'rb'), "
                        f"open_input(path)), not {type(stream).__name__}")
    expect_str(file, "split_records: file")  # else a failure as a problem is printed
    longest = MAX_LINE + 1
    raw = b"\n"  # the last piece read: a line ends with it when it ends with a newline
    cut = 0  # 1: the first line, after its byte-order mark, was cut at the length limit
    while True:
        try:
            raw = readline(longest)
        except Exception as exc:  # at the line after the last one read whole
            whole = lineno - (cut if lineno > 1 else 0) - (not raw.endswith(b"\n"))
            err = _broken(broken, exc, whole + 1)
            yield err
            return
        if not raw:
            break
        lineno += 1
        if lineno == 1 and not isinstance(raw, bytes | bytearray):  # a text stream
            raise TypeError(f"split_records reads a binary stream (open(path, 'rb'), "
                            f"open_input(path)): this one gives {type(raw).__name__}")
        if lineno == 1 and raw.startswith(_BOM):
            raw = raw[3:]
            cut = 0 if raw.endswith(b"\n") else 1  # if more follows, it goes on as line 2
        elif lineno == 1 and (foreign := not_text(raw)):  # one problem, not one a line
            yield RecordError("N100", f"the file is {foreign}: records are UTF-8 text",
                              file=file, line=1, column=1)
            return
        if lineno == 1 and (cr := _LONE_CR.search(raw)):  # the whole file as one line
            yield RecordError("N110", "the lines end in CR alone (an old Mac's line ends): "
                              "records end their lines in LF or CR LF", file=file, line=1,
                              column=cr.start() + 1)
            return
        if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
            total = len(raw)
            while True:  # skip the rest of the line without keeping it
                try:
                    raw = readline(MAX_LINE)
                except Exception as exc:  # in this line, after the last one read whole
                    err = _broken(broken, exc, lineno - (cut if lineno > 1 else 0))
                    yield err
                    return
                total += len(raw)
                if not raw or raw.endswith(b"\n"):
                    break
            if number:
                _keep(problems, RecordError("N101", f"line of {total} bytes (limit "
                                            f"{MAX_LINE})", file=file, line=lineno, column=1,
                                            record=number))
                skips.append(lineno)
            elif early < MAX_SYNTAX_ERRORS:  # before the first record: streamed, not kept
                early += 1
                yield RecordError("N101", f"line of {total} bytes (limit {MAX_LINE})",
                                  file=file, line=lineno, column=1, record=number)
            continue
        if raw.startswith(_START):
            if number:
                yield _raw_record(body, number, start, file, problems, skips)
            number += 1
            start = lineno
            body = bytearray()
            size = 0
            problems = []
            skips = []
        elif not number:
            if early < MAX_SYNTAX_ERRORS:
                text = _decoded(raw, problems, file, lineno, number)
            else:  # enough listed before the first record: the rest is skipped
                text = _quiet_decoded(raw)
            if text.strip() and not junk_reported:
                junk_reported = True
                tag = text.lstrip().startswith("[")  # a tag written before [Mariage]
                problems.append(RecordError("N103", "text before the first record (a record "
                                            "starts with a [Mariage \"1\"] line" +
                                            ("; [Mariage] is the first tag, the others "
                                             "follow it" if tag else "") + ")", file=file,
                                            line=lineno, column=1,
                                            token=text.strip()[:40]))
            early += len(problems)
            yield from problems  # before the first record: streamed, not kept
            problems = []
            continue
        size += len(raw)
        if size > MAX_RECORD:
            _decoded(raw, problems, file, lineno, number)  # a line not kept: checked now
            if size - len(raw) <= MAX_RECORD:
                _keep(problems, RecordError("N102", f"record larger than {MAX_RECORD} bytes",
                                            file=file, line=lineno, column=1, record=number))
            continue
        body += raw
    if number:
        yield _raw_record(body, number, start, file, problems, skips)
    else:
        yield from problems
        yield RecordError("N104", "no record found (a record starts with a [Mariage \"1\"] "
                          "line)", file=file, line=max(lineno, 1), column=1)


def stream_failure(exc: Exception, line: int, file: str) -> RecordError | None:
    """A read of a record file that failed (compressed data cut short, or not of the
    compression its name says, a disk error) as problem N105 at ``line``; None for any
    other exception (which is then raised).

    >>> print(stream_failure(EOFError("compressed file ended early"), 3, "a.mrg.gz"))
    a.mrg.gz:3:1: N105: the file cannot be read further: compressed file ended early
    """
    import zlib  # (here: a read that never fails needs none of it)

    lzma = sys.modules.get("lzma")  # an LZMAError comes only from a file lzma was read with
    errors = (OSError, EOFError, zlib.error, ValueError) + ((lzma.LZMAError,) if lzma else ())
    if isinstance(exc, errors):
        why = str(exc) or type(exc).__name__
    elif type(exc).__module__.split(".")[0] in ("zstandard", "compression", "_zstd"):
        why = str(exc)  # zstandard.ZstdError and other decoders' own errors
    else:
        return None
    return RecordError("N105", f"the file cannot be read further: {why}", file=file,
                       line=line, column=1)


def _broken(broken: Broken | None, exc: Exception, line: int) -> RecordError:
    """The problem ``broken`` reports for a failed read at ``line``; else ``exc`` is raised."""
    err = broken(exc, line) if broken is not None else None
    if err is None:
        raise exc
    return err


def _decoded(raw: bytes, problems: list[RecordError], file: str, line: int, number: int
             ) -> str:
    """The text of one line; a line that is not UTF-8 is reported and read as empty."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        if len(problems) >= MAX_SYNTAX_ERRORS:  # enough listed: not even made
            return "\n"
        problems.append(RecordError("N100", f"byte 0x{raw[exc.start]:02x} is not UTF-8 "
                                    f"({exc.reason})", file=file, line=line,
                                    column=exc.start + 1, record=number))
        return "\n"


def _quiet_decoded(raw: bytes) -> str:
    """The text of one line, a line that is not UTF-8 read as empty, without a report."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "\n"


def _keep(problems: list[RecordError], err: RecordError) -> None:
    """Keep ``err`` among a record's problems, unless MAX_SYNTAX_ERRORS are kept already."""
    if len(problems) < MAX_SYNTAX_ERRORS:
        problems.append(err)


def _raw_record(body: bytearray, number: int, start: int, file: str,
                problems: list[RecordError], skips: list[int]) -> RawRecord:
    """The record made of the lines kept (from line ``start``), decoded at once.

    Where a line is not UTF-8, each is decoded on its own as the lines are read:
    the lines left out (too long, ``N101``) are skipped in the count, and the
    problems are put in line order (those of lines past the size limit, decoded as
    they were read, come after every line kept).
    """
    try:
        return RawRecord(body.decode("utf-8"), number, start, file, problems)
    except UnicodeDecodeError:
        pass
    skipped = set(skips)
    text = io.StringIO()  # line by line, without a list of lines: lines may be many
    line = start
    found: list[RecordError] = []
    at = 0
    while at < len(body):
        end = body.find(b"\n", at) + 1 or len(body)
        while line in skipped:
            line += 1
        text.write(_decoded(bytes(body[at:end]), found, file, line, number))
        line += 1
        at = end
    problems.extend(found)
    problems.sort(key=lambda p: p.line)  # stable: the order of one line's problems stays
    del problems[MAX_SYNTAX_ERRORS:]
    return RawRecord(text.getvalue(), number, start, file, problems)


try:  # threading.local itself, without importing threading (a replay takes no thread)
    from _thread import _local as _thread_local
except ImportError:  # pragma: no cover - an interpreter without it
    from threading import local as _thread_local

_LOCAL = _thread_local()


def _plain_builder() -> Builder:
    """This thread's builder for :mod:`.quickparse` (no Lark)."""
    found: Builder | None = getattr(_LOCAL, "plain", None)
    if found is None:
        from .build import Builder

        found = _LOCAL.plain = Builder()
    return found


def _builder() -> tuple[Builder, lark.Lark]:
    """This thread's builder and the parser that calls it (the builder holds the state of
    one parse, so threads, such as a Dask worker's, each need their own)."""
    found: tuple[Builder, lark.Lark] | None = getattr(_LOCAL, "builder", None)
    if found is None:
        from .build import lark_builder

        builder = lark_builder()
        found = _LOCAL.builder = (builder, parser.__wrapped__(builder))
    return found
_CLOSERS = {'"': '"', "{": "}", "[": "]", "(": ")"}


def parse_record(text: str, *, file: str = "<string>", number: int = 1,
                 line: int = 1, sink: Sink | None = None) -> Record:
    """Parse the text of one record; raise :class:`NotationError` (N110-N112) if malformed.

    ``line`` is the line of the file where ``text`` starts. With ``sink``, each
    hand is given to ``sink(header, hand)`` as soon as it is parsed (``header``:
    the record's tags and comments) and is left out of the returned record, so
    that a large record is checked in memory bounded by one hand; an exception
    raised by ``sink`` stops the parse.

    >>> text = '[Mariage "1"]\\n[Ruleset "marianna"]\\nhand 1\\ndeal deck: AH\\nresult *\\n'
    >>> seen = []
    >>> rec = parse_record(text, sink=lambda header, hand: seen.append(hand.number))
    >>> seen, rec.hands, rec.result.winner
    ([1], (), None)
    """
    from .quickparse import parse

    expect_text(text, "parse_record", file, number, line)
    plain = _plain_builder()
    plain.reset(file, number, line, sink)
    try:
        found = parse(text, plain)  # a well-formed record: without Lark
    finally:
        plain.reset(file, number, line, None)
    if found is not None:
        rec: Any = found
    else:  # a syntax error (or not sure): Lark finds and places it
        from lark.exceptions import UnexpectedInput

        builder, lark_parser = _builder()
        builder.reset(file, number, line, sink)
        try:
            rec = lark_parser.parse(text)
        except UnexpectedInput as exc:
            raise NotationError(_syntax_error(exc, text, file, number, line)) from None
        finally:
            builder.reset(file, number, line, None)
    assert isinstance(rec, Record)
    return Record(rec.tags, rec.comments, rec.hands, rec.result, file, number, line)


#: At most this many syntax errors are reported for one record in lenient mode.
MAX_SYNTAX_ERRORS = 1000
#: (the patterns of the error paths as text, compiled on first use by ``re``'s own cache:
#: a record read without fault never compiles them; issue #28.4)
_DEAL_WORD = r"(?<![A-Za-z0-9?_+\-])deal(?![A-Za-z0-9?_+\-:])"
_LONG_NUMBER = rf"[0-9]{{{MAX_DIGITS + 1},}}"
# a keyword in another case (``Hand 1``) still opens its part, so that its error is the
# only one of that hand rather than one a line
_CHUNK = r"[ \t]*((?i:hand|result))(?![A-Za-z0-9?_+\-:])"
_KEYWORDS = ("hand", "deal", "result")


@cache
def _chunk_parser() -> lark.Lark:
    """A parser of a record's parts (header, one hand, the result): used after an error."""
    import lark

    return lark.Lark(grammar_text(), parser="lalr", start=["record", "hand", "result"],
                     lexer="contextual", maybe_placeholders=False)


def _chunks(lines: list[str]) -> list[tuple[int, str]]:
    """Where each part of a record starts (line index, start symbol): the header, then a
    part at each line that opens a hand or the result outside a comment."""
    out = [(0, "record")]
    in_comment = False
    for i, text in enumerate(lines):
        if not in_comment and i:
            m = re.match(_CHUNK, text)
            if m:
                out.append((i, m.group(1).lower()))
        if ("{" in text or "}" in text) and not text.lstrip().startswith("["):
            for ch in text:
                if ch == "{":
                    in_comment = True
                elif ch == "}":
                    in_comment = False
    return out


def syntax_errors(text: str, first: RecordError, *, file: str = "<string>", number: int = 1,
                  line: int = 1, limit: int = MAX_SYNTAX_ERRORS) -> list[RecordError]:
    """Every syntax error of a record, given its first one (lenient mode), up to ``limit``.

    Each line with an error is blanked (so line numbers stay true) and only the
    part of the record holding it (the header, one hand or the result) is parsed
    again; the later parts are parsed one by one. Finding them all costs about
    one parse of the record, however many there are.

    >>> text = '[Mariage "1"]\\n[Ruleset "marianna"]\\n%%%\\nhand 1\\ndeal deck: AH\\n!!\\n'
    >>> try:
    ...     parse_record(text)
    ... except NotationError as exc:
    ...     [(e.code, e.line) for e in syntax_errors(text, exc.error)]
    [('N110', 3), ('N110', 6)]
    """
    expect_text(text, "syntax_errors")
    if not isinstance(first, RecordError):  # else an AttributeError ('code'), deep inside
        raise TypeError(f"syntax_errors: first is the RecordError of the record's first "
                        f"syntax error (NotationError.error), not {type(first).__name__}")
    expect_str(file, "syntax_errors: file")
    number, line, limit = (count_argument(value, f"syntax_errors: {what}", 1) for value, what
                           in ((number, "number"), (line, "line"), (limit, "limit")))
    errors = [first]
    if first.code not in ("N110", "N112"):
        return errors
    from lark.exceptions import UnexpectedInput

    lines = text.split("\n")
    chunks = _chunks(lines)
    bad = first.line - line
    if not 0 <= bad < len(lines):
        return errors
    k = max(i for i, (start, _) in enumerate(chunks) if start <= bad)
    starts = {start for start, _ in chunks[1:]}
    lines[bad] = _blanked(lines[bad], first, bad in starts)
    parse = _chunk_parser().parse
    # an error in the opening of a hand (``hand N`` and ``deal``) leaves the rest of the
    # hand without its shape: each line of it would be an error of its own
    if first.code != "N112" and chunks[k][1] == "hand" \
            and bad <= _opening_end(lines, chunks[k][0]):
        k += 1
    for i in range(k, len(chunks)):
        start, kind = chunks[i]
        end = chunks[i + 1][0] if i + 1 < len(chunks) else len(lines)
        floor = first.line if i == k else 0  # errors at or before it: no progress
        while len(errors) < limit:
            part = "\n".join(lines[start:end])
            try:
                tree = parse(part, start=kind)
            except UnexpectedInput as exc:
                err = _syntax_error(exc, part, file, number, line + start)
            else:  # well formed: a number too long is the builder's to find (N112)
                long = _long_number(tree, file, number, line + start) \
                    if kind == "hand" else None
                if long is not None:
                    errors.append(long)
                break
            if err.code == "N111" and end < len(lines):
                word = lines[end].split()[0]
                err = RecordError("N110", f"unexpected {word!r}: what comes before it is "
                                  "incomplete", file=file, line=line + end, column=1,
                                  record=number, token=word)
                errors.append(err)
                break
            if err.line <= floor:
                break
            errors.append(err)
            index = err.line - line
            if err.code != "N110" or not start <= index < end or not lines[index].strip() \
                    or (kind == "hand" and index <= _opening_end(lines, start)):
                break
            lines[index] = _blanked(lines[index], err, index in starts)
            floor = err.line
    return errors[:limit]


def _long_number(tree: Any, file: str, number: int, line: int) -> RecordError | None:
    """The first hand or trick number too long (N112) in a hand parsed without the
    builder (``tree``: Lark's, the hand's text starting at ``line``), or None."""
    from .build import Builder

    builder = Builder()
    builder.reset(file, number, line, None)
    kids = tree.children
    try:
        text = str(kids[1])
        if len(text) > MAX_DIGITS and text.isdigit():
            raise builder._too_long(text, *builder._pos(kids[1]), "a hand number")
        if len(kids) > 3:
            builder.play(kids[3])
    except NotationError as exc:
        return exc.error
    return None


def _opening_end(lines: list[str], start: int) -> int:
    """The index of the line that holds the keyword ``deal`` of the hand opened at line
    ``start`` (``hand N deal`` may span two lines, or three)."""
    for i in range(start, min(start + 3, len(lines))):
        if re.search(_DEAL_WORD, lines[i]):
            return i
    return start + 1


def _blanked(text: str, err: RecordError, opening: bool) -> str:
    """A line with a syntax error, as it is parsed again: blank, so line numbers stay
    true. A number too long (N112) is an error of its own: the line keeps its shape with
    the number cut short. The line that opens a hand or the result keeps what comes
    before the error, so that it still opens its part (blank, every line of the hand's
    deal was an error of its own)."""
    if err.code == "N112":
        return re.sub(_LONG_NUMBER, "0", text)
    if opening and err.column > 1:
        return text[:err.column - 1]
    return ""


_QUOTED = r'\{[^{}]*\}|\([^()\n]*\)|"(?:[^"\\\n]|\\.)*"'


def _odd_in_line(text: str, line: int) -> str:
    """Where a line the parser stopped in holds a character that is not ASCII outside
    its comments, notes and quoted values (a no-break space the lexer did not take for a
    blank makes it read the line otherwise), that character named with its column;
    ``""`` if there is none.

    >>> _odd_in_line("1.\\u00a0N:QS W:KS", 1)
    "; column 3 holds U+00A0 NO-BREAK SPACE: the notation's words, numbers and blanks are ASCII"
    >>> _odd_in_line('1. N:QS {très bien}', 1)
    ''
    """
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return ""
    return odd_column(re.sub(_QUOTED, lambda m: " " * len(m.group()), lines[line - 1]), 1)


def _syntax_error(exc: UnexpectedInput, text: str, file: str, number: int,
                  first: int) -> RecordError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    from .errors import expected_text

    line = (getattr(exc, "line", 0) or 0)
    col = getattr(exc, "column", 0) or 0
    if isinstance(exc, UnexpectedEOF) or (
            isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        last = text.rstrip().count("\n") + 1
        return RecordError("N111", "the record ends in the middle (truncated?)", file=file,
                           line=first + last - 1, column=1, record=number)
    if isinstance(exc, UnexpectedToken):
        tok = str(exc.token).split("\n", 1)[0]  # (a deal's lines are one token)
        expected = expected_text(exc.expected)
        case = f"; the keyword is written {tok.lower()!r}, in lower case" \
            if tok.lower() in _KEYWORDS and tok != tok.lower() else ""
        return RecordError("N110", f"unexpected {tok[:40]!r} (expected {expected}){case}"
                           f"{_odd_in_line(text, line)}", file=file,
                           line=first + line - 1, column=col, record=number, token=tok[:80])
    if isinstance(exc, UnexpectedCharacters):
        lines = text.split("\n")  # as the parser counts lines: splitlines() also breaks
        src = lines[line - 1] if 0 < line <= len(lines) else ""  # at \v, \f, U+2028...
        here = src[col - 1:col]
        bad = here if here.isspace() or not src[col - 1:].strip() else \
            src[col - 1:col + 19].split()[0]  # a word, or the odd blank (\v, U+00A0) alone
        closer = _CLOSERS.get(bad[:1])
        if closer and closer not in text[(exc.pos_in_stream or 0) + 1:]:
            return RecordError("N111", f"{bad[:1]} is never closed: the record ends inside it "
                               "(truncated?)", file=file, line=first + line - 1, column=col,
                               record=number, token=bad)
        why = odd_character(bad) or (tag_trouble(src, col) if bad[:1] == "[" else "")
        return RecordError("N110", f"unexpected text {bad!r}{why}",
                           file=file, line=first + line - 1, column=col, record=number,
                           token=bad)
    return RecordError("N110", str(exc).splitlines()[0], file=file, line=first + line - 1,
                       column=col, record=number)


def parse_records(stream: BinaryIO, file: str = "<stream>"
                  ) -> Iterator[Record | RecordError]:
    """Each record of ``stream`` parsed, or the first problem that stopped it (a
    :class:`~.errors.RecordError`); reading goes on with the next record.

    >>> import io
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> broken = text.replace("1. A", "1. %%A")
    >>> stream = io.BytesIO((broken + "\\n" + text).encode())
    >>> for item in parse_records(stream, "two.mrg"):
    ...     print(item if isinstance(item, RecordError) else (item.number, item.line))
    two.mrg:11:1: N110 record 1, at '1': unexpected '1' (expected a move like N:AH,
    'hand N' or 'result TEAM REASON')
    (2, 15)
    """
    # a read that fails (a .gz cut short, a .zst that is not zstd) is problem N105 at its
    # line: it was an EOFError or a ZstdError traceback in replay, view and render
    for raw in split_records(stream, file, lambda exc, line: stream_failure(exc, line, file)):
        if isinstance(raw, RecordError):
            yield raw
            continue
        if raw.problems:
            yield from raw.problems
            continue
        try:
            yield parse_record(raw.text, file=file, number=raw.number, line=raw.line)
        except NotationError as exc:
            yield exc.error


def read_records(stream: BinaryIO, file: str = "<stream>") -> Iterator[Record]:
    """Each record of ``stream``, strictly: the first problem raises :class:`NotationError`.

    Records are read one at a time: a file of any size takes little memory.

    >>> import io
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> with io.BytesIO(text.encode()) as stream:
    ...     [(rec.ruleset, rec.tag("Dealer"), len(rec.hands)) for rec in read_records(stream)]
    [('schnapsen', 'B', 1)]
    >>> next(read_records(io.BytesIO(b'[Mariage "1"]\\n%%\\n'), "bad.mrg"))
    Traceback (most recent call last):
    ...
    mariage.notation.errors.NotationError: bad.mrg:2:1: N110 record 1, ...
    """
    for item in parse_records(stream, file):
        if isinstance(item, RecordError):
            raise NotationError(item)
        yield item


def read_record(stream: BinaryIO, file: str, number: int) -> Record | None:
    """Record ``number`` (from 1) of ``stream``, or None if it has fewer; the records
    before it are split off, not parsed, so that a problem of one of them does not stop
    the reading of another (``mariage replay -r 2`` of a file whose first record does
    not parse said why record 1 could not be read). A problem of the file (text before
    the first record, a read that fails) or of record ``number`` raises
    :class:`NotationError`.

    >>> import io
    >>> text = ('[Mariage "1"]\\n%%\\n\\n[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n'
    ...         '\\nhand 1\\ndeal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n\\nresult *\\n')
    >>> read_record(io.BytesIO(text.encode()), "two.mrg", 2).line
    4
    >>> read_record(io.BytesIO(text.encode()), "two.mrg", 3) is None
    True
    """
    for raw in split_records(stream, file, lambda exc, line: stream_failure(exc, line, file)):
        if isinstance(raw, RecordError):
            raise NotationError(raw)
        if raw.number != number:
            continue
        if raw.problems:
            raise NotationError(raw.problems[0])
        return parse_record(raw.text, file=file, number=raw.number, line=raw.line)
    return None
