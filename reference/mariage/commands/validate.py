"""``mariage validate FILE...``: check game records by replaying them.

Files may be compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``) and a path may
be a directory of shards (its ``*.mrg`` files). In text format each problem is
printed as soon as it is found, at most ``--max-problems`` of them (default 100; the
last line says how many more were found). Exit 0 only when every record of every file is
valid; 1 when a problem was found; 2 for a usage error (a file that cannot be
opened).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..errors import MariageError, printable
from ..infile import open_regular
from ..notation.batch import (
    MAX_JOBS,
    NO_RECORD_FILES,
    FileSummary,
    InputError,
    empty_folders,
    input_files,
    validate_file,
)
from ..notation.errors import RecordError
from ..notation.reader import DEFAULT_LIMIT
from ..terminate import end_now, first_workers, signals_end_at_once, start_workers, worker_start
from . import COMMANDS, path_arg, stdin_once, whole_arg
from .capped import Capped, add_max_problems, check_max

NAME, HELP = COMMANDS["validate"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", type=path_arg,
                        help="record files (.gz .bz2 .xz .zst read as such), directories of "
                        "shards; - reads stdin")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_true",
                      help="stop each file at its first problem")
    mode.add_argument("--lenient", action="store_true",
                      help="report every problem (the default)")
    parser.add_argument("--jobs", "-j", type=whole_arg, default=1, metavar="N",
                        help="worker processes (default 1)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="validate the files on a Dask cluster: a scheduler address "
                        "(tcp://host:8786), or local:N for N local workers")
    parser.add_argument("--search-limit", type=whole_arg, default=DEFAULT_LIMIT, metavar="N",
                        help="replays allowed to the search for a consistent deal of a "
                        f"partial record, per hand (default {DEFAULT_LIMIT})")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default text)")
    add_max_problems(parser, "in the text report (the JSON report has every one)")


def _print_summary(summary: FileSummary) -> None:
    state = "ok" if summary.ok else "INVALID"
    # one write with its newline (print writes the line and its end apart): a signal's
    # handler may run between two writes (a collection's finalizer runs Python code) and
    # flush what standard output holds, which is then whole lines only
    sys.stdout.write(f"{printable(summary.file)}: {state}: {summary.records} records, "
                     f"{summary.valid} valid, {summary.records - summary.valid} invalid, "
                     f"{summary.problems} problems\n")
    sys.stdout.flush()


class _Report:
    """The text report's problems, at most ``limit`` of them (0: all)."""

    def __init__(self, limit: int) -> None:
        # no flush of its own: on a terminal stdout is line-buffered anyway; into a pipe or
        # a file, a million problems cost a million writes less (the summary line flushes)
        self.cap = Capped(limit, sys.stdout)

    def __call__(self, err: RecordError) -> None:
        self.cap.write(str(err))


class _JsonReport:
    """The JSON report, written as it goes: each problem when found, nothing kept.

    One JSON document: ``{"files": [{"file": ..., "errors": [...], "records": ...,
    ...}, ...], "ok": ...}``; each file's counts follow its errors.
    """

    def __init__(self) -> None:
        import json  # only for this format: a text run does not pay its import

        self.dumps = json.dumps
        self.files = 0
        self.errors = 0
        sys.stdout.write('{"files": [')

    def start(self, name: str) -> None:
        sep = "," if self.files else ""
        self.files += 1
        self.errors = 0
        sys.stdout.write(f'{sep}\n  {{"file": {self.dumps(name)}, "errors": [')

    def error(self, err: RecordError) -> None:
        sep = "," if self.errors else ""
        self.errors += 1
        sys.stdout.write(f"{sep}\n    {self.dumps(err.as_dict())}")

    def end(self, summary: FileSummary | None) -> None:
        counts = {k: v for k, v in summary.as_dict().items() if k not in ("file", "errors")} \
            if summary is not None else {"ok": False, "unread": True}
        sys.stdout.write(("\n  " if self.errors else "") + "], "
                         + self.dumps(counts)[1:])

    def close(self, ok: bool) -> None:
        sys.stdout.write(f'\n], "ok": {self.dumps(ok)}}}\n')


def _usage(name: str, why: object) -> None:
    sys.stderr.write(f"mariage: error: {printable(f'{name}: {why}')}\n")


def _on_cluster(args: argparse.Namespace, files: list[str]
                ) -> tuple[list[FileSummary], list[str]]:
    """The summaries of ``files`` validated on ``--scheduler``; the files unreadable.

    A file that cannot be opened is reported here, as without a cluster; when
    none is left, no cluster is sought.
    """
    from ..notation.cluster import summaries_on

    if "-" in files:
        raise ValueError("--scheduler reads files, not standard input")
    readable, unread = [], []
    for name in files:
        try:
            open_regular(name).close()
        except OSError as exc:
            _usage(name, exc.strerror or exc)
            unread.append(name)
            continue
        readable.append(name)
    if not readable:
        return [], unread
    return (summaries_on(args.scheduler, readable, strict=args.strict,
                         search_limit=args.search_limit), unread)


def _workers() -> list[int]:
    """The worker processes of this run's pool (none before it starts)."""
    if "multiprocessing" not in sys.modules:
        return []
    import multiprocessing

    return [p.pid for p in multiprocessing.active_children() if p.pid is not None]


def run(args: argparse.Namespace) -> int:
    # SIGTERM or Ctrl-C: the workers killed, one line, exit 143 or 130 (nothing written
    # but the report, which stops where it was)
    with signals_end_at_once(_workers):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.scheduler is not None and not args.scheduler.strip():  # not "no cluster"
        raise ValueError("--scheduler: the address is empty (tcp://HOST:PORT or local:N)")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise ValueError(f"--jobs takes a number of processes from 1 to {MAX_JOBS}, "
                         f"got {str(args.jobs)[:20]}")
    if args.search_limit < 1:
        raise ValueError("--search-limit takes a number of replays, at least 1")
    stdin_once(args.files)
    text = args.format == "text"
    _report = _Report(check_max(args.max_problems))
    usage = False

    def unreadable(exc: OSError) -> None:
        nonlocal usage
        _usage(exc.filename or "?", exc.strerror or exc)
        usage = True

    files = list(input_files(args.files, on_error=unreadable))
    for name in empty_folders(args.files, files):
        _usage(name, NO_RECORD_FILES)
        usage = True
    ok = True
    # on a cluster the report begins once its results are in: a scheduler that fails
    # leaves standard output empty, not a JSON document begun and never ended
    out = None if text or args.scheduler is not None else _JsonReport()

    def done(summary: FileSummary) -> None:
        nonlocal ok
        ok = ok and summary.ok
        if out is None:
            for err in summary.errors:
                _report(err)
            _print_summary(summary)
        else:
            out.start(summary.file)
            for err in summary.errors:
                out.error(err)
            out.end(summary)

    if args.scheduler is not None:
        summaries, unread = _on_cluster(args, files)
        usage = usage or bool(unread)
        out = None if text else _JsonReport()
        for summary in summaries:
            done(summary)
        if out is not None:
            for name in unread:  # listed as without a cluster
                out.start(name)
                out.end(None)
    else:
        pool: Any = None
        if args.jobs > 1:
            import multiprocessing
            pool = start_workers(lambda: multiprocessing.Pool(
                args.jobs, initializer=worker_start, initargs=(os.getpid(),)))
            first_workers(pool)  # watched while the pool serves every file
        try:
            for name in files:
                if out is not None:
                    out.start(name)
                try:
                    summary = validate_file(name, strict=args.strict, jobs=args.jobs,
                                            pool=pool,
                                            report=_report if out is None else out.error,
                                            search_limit=args.search_limit)
                except ChildProcessError as exc:  # a worker died: the pool is not to be
                    # trusted, nor waited for (a dead worker may hold its queue's lock)
                    end_now(f"mariage: error: {exc}", 2, _workers)
                except (OSError, InputError) as exc:
                    _usage(name, getattr(exc, "strerror", None) or exc)
                    usage = True
                    if out is not None:
                        out.end(None)
                    continue
                except MariageError as exc:  # a refusal the checker let escape (a fault
                    # of the checker's): this file named, the report ended, the rest read
                    _usage(name, f"could not be checked to its end: {exc}")
                    usage = True
                    if out is not None:
                        out.end(None)
                    continue
                ok = ok and summary.ok
                if out is None:
                    _print_summary(summary)
                else:
                    out.end(summary)
        finally:
            if pool is not None:
                pool.terminate()
    if out is not None:
        out.close(ok and not usage)
    else:
        _report.cap.close()
    if usage:
        return 2
    return 0 if ok else 1
