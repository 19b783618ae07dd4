"""``mariage engine``: run the reference interpreter as a protocol engine on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

from ..conformance.engine import ReferenceEngine, serve
from . import COMMANDS

NAME, HELP = COMMANDS["engine"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "The protocol is described in docs/protocol.rst."
    parser.add_argument("--ruleset-files", action="store_true",
                        help="also accept a 'ruleset' that is the path of a .yaml file (by "
                             "default only bundled ruleset names are accepted)")


def run(args: argparse.Namespace) -> int:
    try:
        # the stream itself, not the command line's guard: once the runner went away the
        # engine stops (a guarded stream would go on answering into /dev/null)
        return serve(ReferenceEngine(ruleset_files=args.ruleset_files), sys.stdin.buffer,
                     getattr(sys.stdout, "inner", sys.stdout))
    except BrokenPipeError:  # the runner went away
        return 0
