"""``mariage engine``: run the reference interpreter as a protocol engine on stdin/stdout."""

from __future__ import annotations

import argparse
import sys

from ..conformance.engine import ReferenceEngine, serve

NAME = "engine"
HELP = "speak the engine protocol (line-delimited JSON) on standard input and output"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = "The protocol is described in docs/protocol.rst."


def run(args: argparse.Namespace) -> int:
    return serve(ReferenceEngine(), sys.stdin, sys.stdout)
