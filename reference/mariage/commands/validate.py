"""``mariage validate FILE...``: check game records by replaying them.

Exit 0 only when every record of every file is valid; 1 when a problem was
found; 2 for a usage error (a file that cannot be opened).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..notation.batch import FileSummary, validate_stream

NAME = "validate"
HELP = "check game records (syntax, deals, every action, annotations, results)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files; - reads stdin")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--strict", action="store_true",
                      help="stop each file at its first problem")
    mode.add_argument("--lenient", action="store_true",
                      help="report every problem (the default)")
    parser.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                        help="worker processes (default 1)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="report format (default text)")


def run(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise ValueError("--jobs takes a number of processes, at least 1")
    summaries: list[FileSummary] = []
    usage = False
    pool: Any = None
    if args.jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(args.jobs)
    try:
        for name in args.files:
            if name == "-":
                summary = validate_stream(sys.stdin.buffer, "<stdin>", strict=args.strict,
                                          jobs=args.jobs, pool=pool)
            else:
                try:
                    stream = open(name, "rb")  # noqa: SIM115
                except OSError as exc:
                    sys.stderr.write(f"mariage: error: {name}: {exc.strerror}\n")
                    usage = True
                    continue
                with stream:
                    summary = validate_stream(stream, name, strict=args.strict,
                                              jobs=args.jobs, pool=pool)
            summaries.append(summary)
            if args.format == "text":
                for err in summary.errors:
                    print(err)
                state = "ok" if summary.ok else "INVALID"
                print(f"{summary.file}: {state}: {summary.records} records, {summary.valid} "
                      f"valid, {summary.records - summary.valid} invalid, "
                      f"{len(summary.errors)} problems")
    finally:
        if pool is not None:
            pool.terminate()
    ok = all(s.ok for s in summaries)
    if args.format == "json":
        print(json.dumps({"ok": ok and not usage, "files": [s.as_dict() for s in summaries]},
                         indent=2))
    if usage:
        return 2
    return 0 if ok else 1
