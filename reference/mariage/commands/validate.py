"""``mariage validate FILE...``: check game records by replaying them.

Files may be compressed (``.gz``, ``.bz2``, ``.xz``, ``.zst``) and a path may
be a directory of shards (its ``*.mrg`` files). In text format each problem is
printed as soon as it is found. Exit 0 only when every record of every file is
valid; 1 when a problem was found; 2 for a usage error (a file that cannot be
opened).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..notation.batch import FileSummary, InputError, input_files, validate_file
from ..notation.errors import RecordError
from ..notation.search import DEFAULT_LIMIT
from . import COMMANDS

NAME, HELP = COMMANDS["validate"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="record files (.gz .bz2 .xz .zst read as such), directories of "
                        "shards; - reads stdin")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_true",
                      help="stop each file at its first problem")
    mode.add_argument("--lenient", action="store_true",
                      help="report every problem (the default)")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="worker processes (default 1)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="validate the files on a Dask cluster: a scheduler address "
                        "(tcp://host:8786), or local:N for N local workers")
    parser.add_argument("--search-limit", type=int, default=DEFAULT_LIMIT, metavar="N",
                        help="replays allowed to the search for a consistent deal of a "
                        f"partial record, per hand (default {DEFAULT_LIMIT})")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default text)")


def _print_summary(summary: FileSummary) -> None:
    state = "ok" if summary.ok else "INVALID"
    print(f"{summary.file}: {state}: {summary.records} records, {summary.valid} "
          f"valid, {summary.records - summary.valid} invalid, "
          f"{summary.problems} problems", flush=True)


def _report(err: RecordError) -> None:
    print(err, flush=True)


def _usage(name: str, why: object) -> None:
    sys.stderr.write(f"mariage: error: {name}: {why}\n")


def _on_cluster(args: argparse.Namespace, files: list[str]) -> tuple[list[FileSummary], bool]:
    """The summaries of ``files`` validated on ``--scheduler``; whether any was unreadable.

    A file that cannot be opened is reported here, as without a cluster; when
    none is left, no cluster is sought.
    """
    from ..notation.cluster import summaries_on

    if "-" in files:
        raise ValueError("--scheduler reads files, not standard input")
    readable = []
    for name in files:
        try:
            open(name, "rb").close()
        except OSError as exc:
            _usage(name, exc.strerror or exc)
            continue
        readable.append(name)
    if not readable:
        return [], True
    return (summaries_on(args.scheduler, readable, strict=args.strict,
                         search_limit=args.search_limit), len(readable) < len(files))


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise ValueError("--jobs takes a number of processes, at least 1")
    if args.search_limit < 1:
        raise ValueError("--search-limit takes a number of replays, at least 1")
    text = args.format == "text"
    files = list(input_files(args.files))
    summaries: list[FileSummary] = []
    usage = False
    for name in args.files:
        if name != "-" and os.path.isdir(name) and not any(
                f.startswith(os.path.join(name, "")) for f in files):
            _usage(name, "no record files (*.mrg, compressed or not) in this directory")
            usage = True
    if args.scheduler:
        summaries, unread = _on_cluster(args, files)
        usage = usage or unread
        if text:
            for summary in summaries:
                for err in summary.errors:
                    _report(err)
                _print_summary(summary)
    else:
        pool: Any = None
        if args.jobs > 1:
            import multiprocessing
            pool = multiprocessing.Pool(args.jobs)
        try:
            for name in files:
                try:
                    summary = validate_file(name, strict=args.strict, jobs=args.jobs,
                                            pool=pool, report=_report if text else None,
                                            search_limit=args.search_limit)
                except OSError as exc:
                    _usage(name, exc.strerror or exc)
                    usage = True
                    continue
                except InputError as exc:
                    _usage(name, exc)
                    usage = True
                    continue
                summaries.append(summary)
                if text:
                    _print_summary(summary)
        finally:
            if pool is not None:
                pool.terminate()
    ok = all(s.ok for s in summaries)
    if not text:
        print(json.dumps({"ok": ok and not usage, "files": [s.as_dict() for s in summaries]},
                         indent=2))
    if usage:
        return 2
    return 0 if ok else 1
