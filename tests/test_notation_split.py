"""Splitting a byte stream into records, as :func:`~mariage.notation.reader.split_records` does.

The splitter keeps a record's lines as bytes and decodes the record at once; it
must give exactly what decoding each line as it is read gives: the same texts,
the same problems in line order (``N100`` a line not UTF-8, ``N101`` a line too
long, ``N102`` a record too large, ``N103`` text before the first record, ``N104``
no record), and a failed read reported by ``broken`` at the line that could not
be read (the line after the last one read whole). The reference below reads and
decodes line by line; the limits are made small so that short inputs reach them.
"""

from __future__ import annotations

import io
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from mariage.notation import reader
from mariage.notation.errors import RecordError
from mariage.notation.reader import RawRecord, split_records

LINE, RECORD = 40, 200


class Failing(io.BytesIO):
    """A stream whose ``fail_at``-th read (counting from 1) raises OSError; 0: never."""

    def __init__(self, data: bytes, fail_at: int) -> None:
        super().__init__(data)
        self.calls = 0
        self.fail_at = fail_at
        self.complete = 0  # lines read whole, as a counting reader sees them

    def readline(self, size: int | None = -1) -> bytes:
        self.calls += 1
        if self.calls == self.fail_at:
            raise OSError("damaged")
        line = super().readline(size)
        self.complete += line.endswith(b"\n")
        return line


def reference(stream: Failing, file: str) -> list[RawRecord | RecordError]:
    """Each line decoded as it is read; a failed read ends the list with N105."""
    out: list[RawRecord | RecordError] = []
    texts: list[str] = []
    problems: list[RecordError] = []
    number = start = lineno = size = 0
    junk = False

    def problem(code: str, message: str, line: int, column: int = 1, **more: object) -> None:
        err = RecordError(code, message, file=file, line=line, column=column,
                          **more)  # type: ignore[arg-type]
        (problems if number else out).append(err)  # before the first record: at once

    def read(size: int) -> bytes | None:
        try:
            return stream.readline(size)
        except OSError as exc:
            out.append(RecordError("N105", f"the file cannot be read further: {exc}",
                                   file=file, line=stream.complete + 1, column=1))
            return None

    while True:
        raw = read(LINE + 1)
        if raw is None:
            return out
        if not raw:
            break
        lineno += 1
        if lineno == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        if len(raw) > LINE and not raw.endswith(b"\n"):
            total = len(raw)
            while True:
                more = read(LINE)
                if more is None:
                    return out
                total += len(more)
                if not more or more.endswith(b"\n"):
                    break
            problem("N101", f"line of {total} bytes (limit {LINE})", lineno, record=number)
            continue
        if raw.startswith(b"[Mariage"):
            if number:
                out.append(RawRecord("".join(texts), number, start, file, problems))
            else:
                out.extend(problems)
            number += 1
            start, texts, size, problems = lineno, [], 0, []
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problem("N100", f"byte 0x{raw[exc.start]:02x} is not UTF-8 ({exc.reason})",
                    lineno, exc.start + 1, record=number)
            text = "\n"
        if not number:
            if text.strip() and not junk:
                junk = True
                tag = "; [Mariage] is the first tag, the others follow it" \
                    if text.lstrip().startswith("[") else ""
                problem("N103", "text before the first record (a record starts with a "
                        f"[Mariage \"1\"] line{tag})", lineno, token=text.strip()[:40])
            continue
        size += len(raw)
        if size > RECORD:
            if size - len(raw) <= RECORD:
                problem("N102", f"record larger than {RECORD} bytes", lineno, record=number)
            continue
        texts.append(text)
    if number:
        out.append(RawRecord("".join(texts), number, start, file, problems))
    else:
        out.extend(problems)
        out.append(RecordError("N104", "no record found (a record starts with a "
                               "[Mariage \"1\"] line)", file=file, line=max(lineno, 1),
                               column=1))
    return out


PIECES = [b'[Mariage "1"]', b'[Ruleset "marianna"]', b"hand 1", b"1. N:AH E:7H", b"",
          b"  ", b"caf\xc3\xa9", b"bad \xff byte", b"\xc3", b"x" * (LINE - 1), b"y" * LINE,
          b"z" * (LINE + 1), b"w" * (3 * LINE), b"\xef\xbb\xbf[Mariage", b"junk",
          b"[Mariage \xfe", b"\xe2\x82" + b"v" * (LINE + 5), b"s" * 90]


@st.composite
def streams(draw: st.DrawFn) -> tuple[bytes, int]:
    lines = draw(st.lists(st.sampled_from(PIECES), max_size=30))
    data = b"\n".join(lines) + (b"\n" if draw(st.booleans()) else b"")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data, draw(st.integers(0, 40))


def _split(data: bytes, fail_at: int) -> list[RawRecord | RecordError]:
    def broken(exc: Exception, line: int) -> RecordError:
        return RecordError("N105", f"the file cannot be read further: {exc}",
                           file="f.mrg", line=line, column=1)

    return list(split_records(Failing(data, fail_at), "f.mrg", broken))


@settings(max_examples=300, deadline=None, database=None)
@given(streams())
def test_records_decoded_at_once_are_the_lines_decoded_one_by_one(
        case: tuple[bytes, int]) -> None:
    data, fail_at = case
    with mock.patch.object(reader, "MAX_LINE", LINE), \
            mock.patch.object(reader, "MAX_RECORD", RECORD):
        assert _split(data, fail_at) == reference(Failing(data, fail_at), "f.mrg")


def test_the_problems_of_a_record_come_in_line_order() -> None:
    data = b"\n".join([b'[Mariage "1"]', b"a \xff", b"l" * (LINE + 3), b"b \xfe", b"c"] +
                      [b"s" * 30] * 8 + [b"d \xfd"])
    with mock.patch.object(reader, "MAX_LINE", LINE), \
            mock.patch.object(reader, "MAX_RECORD", RECORD):
        [rec] = _split(data, 0)
    assert isinstance(rec, RawRecord)
    assert [(p.code, p.line) for p in rec.problems] == [
        ("N100", 2), ("N101", 3), ("N100", 4), ("N102", 11), ("N100", 14)]
    assert rec.text.split("\n")[:4] == ['[Mariage "1"]', "", "", "c"]


def test_a_failed_read_is_placed_at_the_line_not_read() -> None:
    data = b'[Mariage "1"]\nresult *\n[Mariage "1"]\nresult *\n'
    out = _split(data, 4)  # the fourth line cannot be read
    assert [type(x).__name__ for x in out] == ["RawRecord", "RecordError"]
    assert isinstance(out[1], RecordError) and (out[1].code, out[1].line) == ("N105", 4)
    try:  # without ``broken``, the error is raised
        list(split_records(Failing(data, 2), "f.mrg"))
    except OSError as exc:
        assert str(exc) == "damaged"
    else:
        raise AssertionError("the read error was swallowed")
