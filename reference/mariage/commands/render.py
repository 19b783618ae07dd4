"""``mariage render FILE --html OUT``: a record as a page to step through, or an SVG.

``--html OUT`` writes one self-contained page per record (for a file of
several records, ``OUT`` gets the record number: ``match-1.html``,
``match-2.html``...). ``--svg OUT --hand N [--trick K]`` draws one trick, or
the deal of hand N. Files are written atomically. A record that the
validator finds bad is still drawn, with each problem shown at the step where
it occurs; the exit code is then 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

from ..notation.errors import NotationError, RecordError

if TYPE_CHECKING:  # the reader and the drawing are imported when the command runs
    from ..notation.model import Record
from ..errors import one_line, shown
from . import COMMANDS, description_files, path_arg, whole_arg
from .capped import Capped, add_max_problems, check_max

NAME, HELP = COMMANDS["render"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", type=path_arg,
                        help="a record file; - reads stdin")
    out = parser.add_mutually_exclusive_group(required=True)
    out.add_argument("--html", metavar="OUT", help="write an HTML page (one per record)")
    out.add_argument("--svg", metavar="OUT", help="write an SVG of one trick or deal")
    parser.add_argument("--record", "-r", type=whole_arg, default=None, metavar="N",
                        help="only record N (1 = first; default: every record, or the first "
                        "for --svg)")
    parser.add_argument("--hand", type=whole_arg, metavar="N", help="the hand to draw (--svg)")
    parser.add_argument("--trick", type=whole_arg, metavar="K",
                        help="the trick to draw (--svg; without it, the deal)")
    add_max_problems(parser, "on stderr (the page shows every one)")


def _numbered(path: str, number: int) -> str:
    stem, ext = os.path.splitext(path)
    return f"{stem}-{number}{ext or '.html'}"


def run(args: argparse.Namespace) -> int:
    from ..notation.batch import open_input
    from ..notation.reader import parse_record, split_records, stream_failure
    from ..outfile import check_destination, write_output
    from ..viewer.draw import render_html, render_svg
    from ..viewer.timeline import timeline

    if args.record is not None and args.record < 1:  # 0 is no record, not "every record"
        raise ValueError("--record counts from 1")
    # at most so many problems on stderr: a record of 20,000 wrong annotations wrote
    # 20,000 lines (the pages show each one)
    told = Capped(check_max(args.max_problems), sys.stderr)
    if args.svg is not None and args.hand is None:
        raise ValueError("--svg needs --hand N (and --trick K for one trick)")
    if args.html is not None and (args.hand is not None or args.trick is not None):
        raise ValueError("--hand and --trick go with --svg")
    destination = args.svg if args.svg is not None else args.html
    check_destination(destination, "--svg" if args.svg is not None else "--html",
                      reads=[args.file, *description_files()])
    name = "<stdin>" if args.file == "-" else args.file
    try:
        stream = sys.stdin.buffer if args.file == "-" else open_input(args.file)
    except OSError as exc:
        raise ValueError(f"{args.file}: {exc.strerror}") from None
    wanted = args.record if args.record is not None else 1 if args.svg is not None else 0
    records: list[tuple[Record, str]] = []
    bad = False
    with stream:
        for raw in split_records(stream, name, lambda exc, line: stream_failure(exc, line,
                                                                                name)):
            if isinstance(raw, RecordError):
                sys.stderr.write(f"{raw}\n")
                bad = True
                continue
            if wanted and raw.number != wanted:
                continue
            if raw.problems:
                for err in raw.problems:
                    sys.stderr.write(f"{err}\n")
                bad = True
                continue
            try:
                rec = parse_record(raw.text, file=name, number=raw.number, line=raw.line)
            except NotationError as exc:
                sys.stderr.write(f"{exc.error}\n")
                bad = True
                continue
            records.append((rec, raw.text))
    if not records:
        if bad:
            return 1
        raise ValueError(f"{args.file} has no record {shown(wanted)}" if wanted
                         else f"{args.file} has no record")
    if args.svg is not None:
        tl = timeline(records[0][0])
        try:
            picture = render_svg(tl, args.hand, args.trick)
        except ValueError as exc:  # no such hand or trick: the record's problems say why
            where = f"{args.file}, record {records[0][0].number}: {exc}"
            if not tl.errors:
                raise ValueError(where) from None
            _tell(told, tl.errors)  # the record was checked and found bad: exit 1, not 2
            told.close()
            sys.stderr.write(f"mariage: error: {one_line(where)}\n")
            return 1
        write_output(args.svg, picture, "--svg")
        print(args.svg)
        _tell(told, tl.errors)
        told.close()
        return 1 if bad or tl.errors else 0  # bad: a problem of the file (N103...) too
    several = len(records) > 1 or (not wanted and records[0][0].number > 1)
    outs = [_numbered(args.html, rec.number) if several else args.html for rec, _ in records]
    for out in outs:  # every page's destination checked before the first is drawn
        check_destination(out, "--html", reads=[args.file, *description_files()])
    for (rec, source), out in zip(records, outs, strict=True):
        tl = timeline(rec)
        bad = bad or not tl.ok
        write_output(out, render_html(tl, source), "--html")
        print(out)
        _tell(told, tl.errors)
    told.close()
    return 1 if bad else 0


def _tell(told: Capped, errors: list[RecordError]) -> None:
    """The problems a page shows, on standard error too (one line each, as ``validate``
    prints them, at most ``--max-problems`` in all): the exit code 1 says why, not only
    the drawing."""
    for err in errors:
        told.write(str(err))
