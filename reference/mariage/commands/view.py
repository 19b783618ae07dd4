"""``mariage view FILE --seat S``: the records as one seat could have written them."""

from __future__ import annotations

import argparse
import sys

from ..errors import shown
from ..notation.batch import open_input
from ..notation.errors import NotationError
from ..notation.reader import read_record, read_records
from ..notation.views import view
from ..notation.writer import write_record
from . import COMMANDS, path_arg, whole_arg

NAME, HELP = COMMANDS["view"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", type=path_arg,
                        help="a record file; - reads stdin")
    parser.add_argument("--seat", "-s", required=True, help="the seat's name (N, W, A...)")
    parser.add_argument("--record", "-r", type=whole_arg, default=None, metavar="N",
                        help="only record N (1 = first; default: every record)")


def run(args: argparse.Namespace) -> int:
    if args.record is not None and args.record < 1:  # 0 is no record, not "every record"
        raise ValueError("--record counts from 1")
    name = "<stdin>" if args.file == "-" else args.file
    try:
        stream = sys.stdin.buffer if args.file == "-" else open_input(args.file)
    except OSError as exc:
        raise ValueError(f"{args.file}: {exc.strerror}") from None
    written = 0
    try:
        with stream:
            # record N alone is parsed: a problem of another one is not its own
            wanted = read_records(stream, name) if args.record is None else filter(
                None, [read_record(stream, name, args.record)])
            for rec in wanted:
                if written:
                    sys.stdout.write("\n")
                sys.stdout.write(write_record(view(rec, args.seat)))
                written += 1
    except NotationError as exc:
        sys.stderr.write(f"{exc.error}\n")
        return 1
    if args.record is not None and not written:
        raise ValueError(f"{args.file} has no record {shown(args.record)}")
    return 0
