"""Validating whole files, record by record, on one or several processes.

Records are read one at a time (:func:`~.reader.split_records`) and checked
in batches; with ``jobs > 1`` the batches go to a pool of worker processes,
with a bounded number in flight, so memory stays flat whatever the file size.
Results come back in file order; with ``report``, each problem is handed over
as soon as its record is checked, rather than kept until the end.

Inputs may be compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``) and a path may
be a directory of shards (:func:`input_files`); :func:`open_input` reads them,
streaming.

>>> import io
>>> text = b'[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult *\\n'
>>> summary = validate_stream(io.BytesIO(text), "t.mrg")
>>> summary.records, summary.valid, summary.errors
(1, 1, [])
"""

from __future__ import annotations

import io
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, cast

from ..errors import MariageError, count_argument, expect_path, expect_str
from ..infile import open_regular
from ..lazyrecord import field, record
from .errors import RecordError
from .reader import DEFAULT_LIMIT, RawRecord, split_records, stream_failure

__all__ = [
    "COMPRESSIONS",
    "MAX_JOBS",
    "MAX_RATIO",
    "RECORD_SUFFIX",
    "DecompressionError",
    "FileSummary",
    "InputError",
    "check_raw",
    "input_files",
    "open_input",
    "validate_file",
    "validate_stream",
]

#: Records sent to a worker process at a time.
BATCH = 64
#: Most worker processes ``jobs`` may ask for (``validate --jobs``, ``--scheduler local:N``).
MAX_JOBS = 256
#: The file-name endings read as compressed streams.
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zst")
#: In a directory, the files read as records: ``*.mrg``, compressed or not.
RECORD_SUFFIX = ".mrg"

Report = Callable[[RecordError], None]


class InputError(MariageError):
    """An input that cannot be opened as records (a missing optional module, say)."""


@record
class FileSummary:
    """What validating one file found.

    ``problems`` counts every problem; ``errors`` holds them, unless they were
    handed to a ``report`` function as they were found.

    >>> import os, tempfile
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "two.mrg")
    ...     with open(path, "w") as f:
    ...         _ = f.write(text + "\\n" + text.replace("B:JS", "B:AS"))
    ...     summary = validate_file(path)
    >>> summary.records, summary.valid, summary.problems, summary.ok
    (2, 1, 1, False)
    >>> [(e.record, e.line, e.code, e.rule_id) for e in summary.errors]
    [(2, 25, 'N141', 'core.hand')]
    """

    file: str
    records: int = 0
    valid: int = 0
    errors: list[RecordError] = field(default_factory=list)
    bytes: int = 0
    problems: int = 0

    @property
    def ok(self) -> bool:
        """True when every record is valid and the file had no problem."""
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"file": self.file, "records": self.records, "valid": self.valid,
                "invalid": self.records - self.valid, "ok": self.ok,
                "problems": self.problems, "errors": [e.as_dict() for e in self.errors]}


def check_raw(raw: RawRecord, strict: bool, search_limit: int = DEFAULT_LIMIT
              ) -> list[RecordError]:
    """Parse and check one record, hand by hand; its problems (strict: at most one).

    A valid record in the canonical layout is recognised by the fast path
    (:func:`~.fast.fast_valid`); any other goes to the full validator.
    """
    if not isinstance(raw, RawRecord):  # else an AttributeError on 'problems'
        raise TypeError(f"check_raw: raw is a RawRecord (split_records makes them), not "
                        f"{type(raw).__name__}")
    if raw.problems:
        return raw.problems[:1] if strict else list(raw.problems)
    # (imported here: a command that only reads records, such as ``stats``, needs neither)
    from .fast import fast_valid
    from .replay import check_text

    if fast_valid(raw.text, file=raw.file, number=raw.number, line=raw.line):
        return []
    return check_text(raw.text, file=raw.file, number=raw.number, line=raw.line,
                      strict=strict, search_limit=search_limit).errors


def _check_batch(batch: list[RawRecord], strict: bool, search_limit: int = DEFAULT_LIMIT
                 ) -> list[list[RecordError]]:
    return [check_raw(raw, strict, search_limit) for raw in batch]


# ------------------------------------------------------------------ inputs
#: Bound on decompression: at most this many bytes out per compressed byte read,
#: beyond :data:`RATIO_ALLOWANCE` (records compress about 10 to 20 times).
MAX_RATIO = 1000
#: Decompressed bytes always allowed, whatever the ratio (a small file of few bytes).
RATIO_ALLOWANCE = 1 << 20


class DecompressionError(ValueError):
    """Compressed data that end early, or decompress beyond :data:`MAX_RATIO`."""


class _Checked(io.RawIOBase):
    """A decompressing reader, bounded by :data:`MAX_RATIO` of the compressed bytes read.

    ``raw`` is the compressed file (its position: the compressed bytes consumed),
    ``inner`` the decompressor reading from it.
    """

    def __init__(self, raw: BinaryIO, inner: Any) -> None:
        super().__init__()
        self._raw = raw
        self._inner = inner
        self._out = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        n: int = self._inner.readinto(buffer)
        self._out += n
        if self._out > MAX_RATIO * self._raw.tell() + RATIO_ALLOWANCE:
            raise DecompressionError(
                f"decompresses to more than {MAX_RATIO} bytes per compressed byte "
                "(a decompression bomb?); not read further")
        return n

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            self._raw.close()
            super().close()


class _ZstdFrames(io.RawIOBase):
    """zstd frames decompressed from ``raw`` (``zstandard``), checking that each ends.

    ``zstandard``'s own stream reader stops quietly where a file was cut; this
    one raises :class:`DecompressionError` if the data end inside a frame.
    """

    def __init__(self, raw: BinaryIO, module: Any) -> None:
        super().__init__()
        self._raw = raw
        self._make = module.ZstdDecompressor().decompressobj
        self._obj: Any = None
        self._pending = b""
        self._at = 0
        self._done = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        while self._at >= len(self._pending) and not self._done:
            self._fill()
        n = min(len(view), len(self._pending) - self._at)
        view[:n] = self._pending[self._at:self._at + n]
        self._at += n
        return n

    def _fill(self) -> None:
        # small pieces: a zstd block of 3 bytes may stand for 128 KiB, so the output
        # of one piece stays a few MiB, and the ratio bound is checked between pieces
        data = self._raw.read(128)
        self._pending, self._at = b"", 0
        if not data:
            self._done = True
            if self._obj is not None and not self._obj.eof:
                raise DecompressionError("compressed file ended before the end of a zstd "
                                         "frame (the file was cut short)")
            return
        out = []
        while data:
            if self._obj is None or self._obj.eof:
                self._obj = self._make()
            out.append(self._obj.decompress(data))
            data = self._obj.unused_data if self._obj.eof else b""
        self._pending = b"".join(out)


def _zstd_reader(raw: BinaryIO) -> Any:
    try:  # Python 3.14 and later
        from compression import zstd  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        pass
    else:
        return zstd.ZstdFile(raw)
    try:
        import zstandard  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise InputError("reading .zst files needs the zstandard module: "
                         "pip install 'mariage[zstd]'") from None
    return _ZstdFrames(raw, zstandard)


def open_input(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a record file for reading as bytes, decompressing by its name's ending.

    ``.gz``, ``.bz2`` and ``.xz`` use the standard library; ``.zst`` uses
    ``compression.zstd`` (Python 3.14) or the optional ``zstandard`` module
    (``pip install 'mariage[zstd]'``); without either it raises
    :class:`InputError`. Data are decompressed as they are read; compressed
    data that end early, or that decompress to more than :data:`MAX_RATIO`
    bytes per compressed byte, raise :class:`DecompressionError` when read
    there. Only a regular file is opened (:func:`~mariage.infile.open_regular`):
    a FIFO or a device raises :class:`OSError` at once.

    >>> import gzip, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "a.mrg.gz")
    >>> with gzip.open(path, "wb") as f:
    ...     _ = f.write(b'[Mariage "1"]\\n')
    >>> with open_input(path) as f:
    ...     f.readline()
    b'[Mariage "1"]\\n'
    """
    name = expect_path(path, "open_input: path")
    raw = open_regular(name)
    try:
        inner: Any
        if name.endswith(".gz"):  # each codec imported when a file needs it
            import gzip

            inner = gzip.GzipFile(fileobj=raw, mode="rb")
        elif name.endswith(".bz2"):
            import bz2

            inner = bz2.BZ2File(raw, "rb")
        elif name.endswith(".xz"):
            import lzma

            inner = lzma.LZMAFile(raw, "rb")  # noqa: SIM115 - closed by _Checked
        elif name.endswith(".zst"):
            inner = _zstd_reader(raw)
        else:
            return raw
        return cast(BinaryIO, io.BufferedReader(_Checked(raw, inner)))
    except BaseException:
        raw.close()
        raise


def _is_record_file(name: str) -> bool:
    for ext in COMPRESSIONS:
        if name.endswith(ext):
            name = name[:-len(ext)]
            break
    return name.endswith(RECORD_SUFFIX) and not name.startswith(".")


def input_files(paths: Iterable[str], on_error: Callable[[OSError], None] | None = None
                ) -> Iterator[str]:
    """Each file to read: a file as given, a directory as its shards.

    A directory stands for every ``*.mrg`` file in it and its sub-folders,
    compressed or not (``*.mrg.gz``...), in name order; hidden files are skipped.
    A folder that cannot be listed is never skipped silently: ``on_error`` is
    called with the :class:`OSError` (naming the folder), or, without it, the
    error is raised.

    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("b.mrg", "a.mrg.gz", "notes.txt", ".hidden.mrg", "2026/c.mrg"):
    ...         os.makedirs(os.path.dirname(os.path.join(folder, name)), exist_ok=True)
    ...         open(os.path.join(folder, name), "w").close()
    ...     print([os.path.relpath(p, folder) for p in input_files([folder])])
    ['2026/c.mrg', 'a.mrg.gz', 'b.mrg']
    >>> list(input_files(["-", "match.mrg"]))  # files as given (``-``: standard input)
    ['-', 'match.mrg']
    """
    if isinstance(paths, str | bytes) or not isinstance(paths, Iterable):  # "ab": a, b
        raise TypeError(f"input_files: paths must be an iterable of paths (a list), "
                        f"not {type(paths).__name__}")
    if on_error is not None and not callable(on_error):
        raise TypeError(f"input_files: on_error must be a function or None, "
                        f"not {type(on_error).__name__}")

    def failed(exc: OSError) -> None:
        if on_error is None:
            raise exc
        on_error(exc)

    for given in paths:
        path = expect_path(given, "input_files: path")
        if path != "-" and os.path.isdir(path):
            found: list[str] = []
            for root, dirs, files in os.walk(path, onerror=failed):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                found.extend(os.path.join(root, f) for f in files if _is_record_file(f))
            yield from sorted(found, key=lambda p: Path(p).parts)
        else:
            yield path


#: Why a folder named as records is refused when it holds none.
NO_RECORD_FILES = "no record files (*.mrg, compressed or not) in this directory"


def empty_folders(paths: Iterable[str], files: Iterable[str]) -> list[str]:
    """The folders among ``paths`` that hold no record file among ``files`` (what
    :func:`input_files` found): a folder of no records is a mistake, not zero records.

    >>> empty_folders(["a.mrg", "."], ["a.mrg"])
    ['.']
    """
    found = list(files)
    return [p for p in paths if p != "-" and os.path.isdir(p)
            and not any(f.startswith(os.path.join(p, "")) for f in found)]


def _broken_stream(exc: Exception, line: int, file: str) -> RecordError | None:
    """A decompression error (or a failed read) as a problem at ``line``; None: not one
    (:func:`~mariage.notation.reader.stream_failure`)."""
    return stream_failure(exc, line, file)


# ------------------------------------------------------------------ checking
def _batches(stream: BinaryIO, file: str, summary: FileSummary
             ) -> Iterator[list[RawRecord] | RecordError]:
    batch: list[RawRecord] = []

    def broken(exc: Exception, line: int) -> RecordError | None:
        return _broken_stream(exc, line, file)

    for item in split_records(stream, file, broken):
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
                    pool: Any = None, report: Report | None = None,
                    search_limit: int = DEFAULT_LIMIT) -> FileSummary:
    """Validate every record of ``stream``; strict mode stops at the first problem.

    ``search_limit``: the replays allowed to the search for a consistent deal,
    per hand of a partial record (see :mod:`mariage.notation.search`).

    With ``report``, each problem is passed to it as soon as its record is
    checked (and not kept in ``errors``); otherwise they are collected.

    >>> import io
    >>> bad = b'[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult * !\\n'
    >>> s = validate_stream(io.BytesIO(bad), "b.mrg", report=print)
    b.mrg:4:10: N110 record 1, at '!': unexpected text '!'
    >>> s.problems, s.errors
    (1, [])
    """
    expect_str(file, "validate_stream: file")  # the file of each problem printed
    jobs = count_argument(jobs, "validate: jobs", 1, MAX_JOBS)  # (a fork per job)
    search_limit = count_argument(search_limit, "validate: search_limit", 1)
    summary = FileSummary(file)

    def note(err: RecordError) -> None:
        summary.problems += 1
        if report is None:
            summary.errors.append(err)
        else:
            report(err)

    def take(results: list[list[RecordError]]) -> bool:
        for errs in results:
            summary.records += 1
            if errs:
                for err in errs:
                    note(err)
                if strict:
                    return False
            else:
                summary.valid += 1
        return True

    def file_error(err: RecordError) -> bool:
        note(err)
        return not strict

    if jobs == 1 and pool is None:
        for item in _batches(stream, file, summary):
            if isinstance(item, RecordError):
                if not file_error(item):
                    break
            elif not take(_check_batch(item, strict, search_limit)):
                break
        return summary
    from ..terminate import first_workers, result_of  # (only with workers: its signal
    # and threading cost a replay's start)

    own = pool is None
    if own:
        import multiprocessing  # only with workers: its import costs a start-up

        pool = multiprocessing.Pool(jobs)
    # the pool's first processes: one that ended took its batch with it, or may have
    # held the lock its replacement waits for (a worker waiting for a task holds it)
    workers = first_workers(pool)
    try:
        pending: deque[Any] = deque()
        going = True
        for item in _batches(stream, file, summary):
            if isinstance(item, RecordError):
                while pending and going:  # keep file order
                    going = take(result_of(pending.popleft(), workers))
                if not going or not file_error(item):
                    going = False
                    break
                continue
            pending.append(pool.apply_async(_check_batch, (item, strict, search_limit)))
            while len(pending) > 2 * jobs and going:
                going = take(result_of(pending.popleft(), workers))
            if not going:
                break
        while pending and going:
            going = take(result_of(pending.popleft(), workers))
    finally:
        if own:
            pool.terminate()
    return summary


def validate_file(path: str | os.PathLike[str], *, strict: bool = False, jobs: int = 1,
                  pool: Any = None, report: Report | None = None,
                  search_limit: int = DEFAULT_LIMIT) -> FileSummary:
    """Validate the records of the file at ``path`` (a str or a ``Path``; compressed or
    not; ``-``: stdin).

    A file that cannot be opened raises ``OSError``; a ``.zst`` file without a
    zstd module raises :class:`InputError`. A bad record's problem is reported
    with its place and the rule it breaks:

    >>> import gzip, os, tempfile
    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import parse_record, record_match, write_record
    >>> text = write_record(record_match(load_rules("schnapsen"), seed=42,
    ...                                  bots=[make_bot("greedy", 0), make_bot("greedy", 1)]))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "club.mrg.gz")
    ...     with gzip.open(path, "wt") as f:
    ...         _ = f.write(text.replace("B:JS", "B:AS", 1))
    ...     summary = validate_file(path)
    >>> summary.records, summary.valid
    (1, 0)
    >>> for err in summary.errors:
    ...     print(err.line, err.column, err.code, err.rule_id)
    13 22 N141 core.hand
    """
    path = expect_path(path, "validate_file: path")
    if path == "-":
        import sys

        return validate_stream(sys.stdin.buffer, "<stdin>", strict=strict, jobs=jobs,
                               pool=pool, report=report, search_limit=search_limit)
    with open_input(path) as stream:
        return validate_stream(stream, path, strict=strict, jobs=jobs, pool=pool,
                               report=report, search_limit=search_limit)
