"""The ``mariage`` command line.

Exit codes: 0 success; 1 the input was checked and found bad (an invalid
record, a failing conformance run, an inconsistent spec); 2 a usage error (an
unknown ruleset, a bad option value, a missing file). Errors are one line on
standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

from . import __version__
from .commands import COMMANDS
from .errors import MariageError

__all__ = ["main", "parse_options"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit code 2
        sys.stderr.write(f"mariage: error: {message}\n")
        raise SystemExit(2)


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """Turn ``["target=301", ...]`` into a dict; raise ``ValueError`` on a bad pair."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes NAME=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = _Parser(prog="mariage", description="Rules, records and conformance for the "
                     "marriage family of card games.")
    parser.add_argument("--version", action="version", version=f"mariage {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        mod = importlib.import_module(f"mariage.commands.{name}")
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        code: int = args._run(args)
    except MariageError as exc:
        sys.stderr.write(f"mariage: error: {exc}\n")
        return 1 if getattr(exc, "code", "").startswith("S0") else 2
    except ValueError as exc:
        sys.stderr.write(f"mariage: error: {exc}\n")
        return 2
    except OSError as exc:  # a file that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"mariage: error: {where}{exc.strerror or exc}\n")
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        sys.stderr.write("mariage: interrupted\n")
        return 130
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
