"""Validating whole files, record by record, on one or several processes.

Records are read one at a time (:func:`~.reader.split_records`) and checked
in batches; with ``jobs > 1`` the batches go to a pool of worker processes,
with a bounded number in flight, so memory stays flat whatever the file size.
Results come back in file order.

>>> import io
>>> text = b'[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult *\\n'
>>> summary = validate_stream(io.BytesIO(text), "t.mrg")
>>> summary.records, summary.valid, summary.errors
(1, 1, [])
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from .errors import NotationError, RecordError
from .reader import RawRecord, parse_record, split_records
from .replay import check_record

__all__ = ["FileSummary", "check_raw", "validate_stream"]

BATCH = 64


@dataclass(slots=True)
class FileSummary:
    """What validating one file found."""

    file: str
    records: int = 0
    valid: int = 0
    errors: list[RecordError] = field(default_factory=list)
    bytes: int = 0

    @property
    def ok(self) -> bool:
        """True when every record is valid and the file had no problem."""
        return not self.errors

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"file": self.file, "records": self.records, "valid": self.valid,
                "invalid": self.records - self.valid, "ok": self.ok,
                "errors": [e.as_dict() for e in self.errors]}


def check_raw(raw: RawRecord, strict: bool) -> list[RecordError]:
    """Parse and check one record; its problems (strict: at most one)."""
    if raw.problems:
        return raw.problems[:1] if strict else list(raw.problems)
    try:
        rec = parse_record(raw.text, file=raw.file, number=raw.number, line=raw.line)
    except NotationError as exc:
        return [exc.error] if strict else syntax_errors(raw, exc.error)
    return check_record(rec, strict=strict).errors


#: At most this many syntax errors are reported for one record in lenient mode.
MAX_SYNTAX_ERRORS = 50


def syntax_errors(raw: RawRecord, first: RecordError) -> list[RecordError]:
    """Lenient mode: every syntax error of a record, not only the first.

    Each line with an error is blanked (so line numbers stay true) and the
    record parsed again, until it parses or no progress is made. A record with
    a syntax error is not replayed: a blanked line may have held actions, and
    lenient mode never invents or drops an action silently.
    """
    errors = [first]
    lines = raw.text.split("\n")
    while len(errors) < MAX_SYNTAX_ERRORS:
        last = errors[-1]
        index = last.line - raw.line
        if last.code != "N110" or not 0 <= index < len(lines) or not lines[index].strip():
            break
        lines[index] = ""
        try:
            parse_record("\n".join(lines), file=raw.file, number=raw.number, line=raw.line)
        except NotationError as exc:
            if (exc.error.line, exc.error.column) == (last.line, last.column):
                break
            errors.append(exc.error)
            continue
        break
    return errors


def _check_batch(batch: list[RawRecord], strict: bool) -> list[list[RecordError]]:
    return [check_raw(raw, strict) for raw in batch]


def _batches(stream: BinaryIO, file: str, summary: FileSummary
             ) -> Iterator[list[RawRecord] | RecordError]:
    batch: list[RawRecord] = []
    for item in split_records(stream, file):
        if isinstance(item, RecordError):
            if batch:
                yield batch
                batch = []
            yield item
            continue
        summary.bytes += len(item.text)
        batch.append(item)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def validate_stream(stream: BinaryIO, file: str, *, strict: bool = False, jobs: int = 1,
                    pool: Any = None) -> FileSummary:
    """Validate every record of ``stream``; strict mode stops at the first problem."""
    summary = FileSummary(file)

    def take(results: list[list[RecordError]]) -> bool:
        for errs in results:
            summary.records += 1
            if errs:
                summary.errors.extend(errs)
                if strict:
                    return False
            else:
                summary.valid += 1
        return True

    def file_error(err: RecordError) -> bool:
        summary.errors.append(err)
        return not strict

    if jobs <= 1 and pool is None:
        for item in _batches(stream, file, summary):
            if isinstance(item, RecordError):
                if not file_error(item):
                    break
            elif not take(_check_batch(item, strict)):
                break
        return summary
    own = pool is None
    if own:
        pool = multiprocessing.Pool(jobs)
    try:
        pending: deque[Any] = deque()
        going = True
        for item in _batches(stream, file, summary):
            if isinstance(item, RecordError):
                while pending and going:  # keep file order
                    going = take(pending.popleft().get())
                if not going or not file_error(item):
                    going = False
                    break
                continue
            pending.append(pool.apply_async(_check_batch, (item, strict)))
            while len(pending) > 2 * max(jobs, 1) and going:
                going = take(pending.popleft().get())
            if not going:
                break
        while pending and going:
            going = take(pending.popleft().get())
    finally:
        if own:
            pool.terminate()
    return summary
