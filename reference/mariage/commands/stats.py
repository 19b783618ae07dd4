"""``mariage stats FILE...``: summarise many records (results, hands, points, declarations).

Files are read as ``validate`` reads them: compressed or not, folders of
shards, ``-`` for standard input, one record at a time, so memory stays the
same however many records there are. Each invalid record is reported in one
line on standard error (its first problem) and left out of the totals; the
exit code is then 1. So it is for a problem of a file rather than of a record (text
before the first record, no record found), which is reported but counted as no
record, as ``validate`` counts it. ``--format`` picks text (the default), JSON or
an HTML page of bar charts; ``--out FILE`` writes the report to a file instead of
standard output (whole or not at all).
"""

from __future__ import annotations

import argparse
import os
import sys

from ..infile import check_name
from ..notation.batch import (
    NO_RECORD_FILES,
    InputError,
    _broken_stream,
    empty_folders,
    input_files,
    open_input,
)
from ..notation.errors import RecordError
from ..notation.reader import split_records
from ..outfile import check_destination, write_output
from ..viewer.stats import Stats, stats_html
from . import COMMANDS, description_files, path_arg, stdin_once

NAME, HELP = COMMANDS["stats"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = "record files, read as validate reads them (compressed, folders, - for stdin)"
    parser.add_argument("files", nargs="+", metavar="FILE", type=path_arg, help=what)
    parser.add_argument("--format", choices=("text", "json", "html"), default="text",
                        help="report format (default text); html: a page of charts")
    parser.add_argument("--out", metavar="FILE",
                        help="write the report to FILE (atomically) instead of stdout")


def _problem(err: RecordError) -> None:
    sys.stderr.write(f"{err}\n")
    sys.stderr.flush()


def _read(stats: Stats, name: str) -> int:
    """Add every record of file ``name`` to ``stats``; report each problem at once.

    Return how many problems were the file's, not a record's (text before the first
    record, no record at all, a stream that cannot be read further): they are no
    record, so ``validate`` counts none for them and neither do the totals here.
    """
    stream = sys.stdin.buffer if name == "-" else open_input(name)
    file = "<stdin>" if name == "-" else name
    troubles = 0
    with stream:
        for item in split_records(stream, file, lambda exc, line: _broken_stream(exc, line,
                                                                                  file)):
            if isinstance(item, RecordError):  # the file cannot be read further, say
                troubles += 1
                _problem(item)
                continue
            if item.problems:
                stats.records += 1
                stats.invalid += 1
                _problem(item.problems[0])
                continue
            for err in stats.add_text(item.text, file=item.file, number=item.number,
                                      line=item.line):
                _problem(err)
    return troubles


def run(args: argparse.Namespace) -> int:
    stdin_once(args.files)
    if args.out is not None:
        check_destination(args.out)  # before reading anything
    for name in args.files:  # each named file there before any is read
        if name != "-":
            try:
                check_name(name)
                os.stat(name)
            except OSError as exc:  # not only "No such file": a loop of links, no access
                raise ValueError(f"{name}: {exc.strerror}") from None
    try:
        files = list(input_files(args.files))  # the names only: a folder's shards
    except OSError as exc:  # a folder that cannot be listed
        raise ValueError(f"{exc.filename or '?'}: {exc.strerror or exc}") from None
    for name in empty_folders(args.files, files):  # not "0 records", exit 0
        raise ValueError(f"{name}: {NO_RECORD_FILES}")
    if args.out is not None:  # nor one of the records it reads (a folder's shards too)
        check_destination(args.out, reads=[*files, *description_files()])
    stats = Stats()
    troubles = 0  # problems of the files, not of a record: exit 1 all the same
    for name in files:
        try:
            troubles += _read(stats, name)
        except InputError as exc:
            raise ValueError(f"{name}: {exc}") from None
        except OSError as exc:
            raise ValueError(f"{name}: {exc.strerror or exc}") from None
    if args.format == "json":
        import json  # (only here: the text report needs none)

        report = json.dumps(stats.as_dict(), indent=2, ensure_ascii=False) + "\n"
    elif args.format == "html":
        shown = ", ".join(os.path.basename(f) for f in args.files[:3]) + (
            "..." if len(args.files) > 3 else "")
        report = stats_html(stats, f"Records of {shown}")
    else:
        report = stats.text()
    if args.out is not None:
        write_output(args.out, report)
        print(args.out)
    else:
        sys.stdout.write(report)
    return 1 if stats.invalid or troubles else 0
