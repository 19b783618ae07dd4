"""At most so many problems listed, as compilers do: ``--max-problems N`` of ``validate``
and ``replay``, and the line that says how many more were found.

>>> import io
>>> out = io.StringIO()
>>> cap = Capped(2, out)
>>> for k in range(5):
...     cap.write(f"problem {k}")
>>> cap.close()
>>> print(out.getvalue(), end="")
problem 0
problem 1
... and 3 more problems found and not shown (--max-problems 2; 0 shows all)
"""

from __future__ import annotations

import argparse
from typing import TextIO

__all__ = ["DEFAULT_MAX", "Capped", "add_max_problems", "check_max"]

#: Problems listed by default; the rest are counted.
DEFAULT_MAX = 100


def add_max_problems(parser: argparse.ArgumentParser, where: str) -> None:
    """Add ``--max-problems N`` to ``parser`` (``where``: where the problems are listed)."""
    from . import whole_arg

    parser.add_argument("--max-problems", type=whole_arg, default=DEFAULT_MAX, metavar="N",
                        help=f"list at most N problems {where}, then say how many more "
                        f"were found (default {DEFAULT_MAX}; 0 lists all; the exit code "
                        "is the same)")


def check_max(n: int) -> int:
    """``n`` if it is a count of problems (0: all), else ``ValueError``."""
    if n < 0:
        raise ValueError("--max-problems takes a number of problems, 0 for all")
    return n


class Capped:
    """Writes lines to ``out`` (one problem each) until ``limit`` of them (0: no limit),
    then counts the rest; :meth:`close` says how many were not shown."""

    def __init__(self, limit: int, out: TextIO) -> None:
        self.limit = check_max(limit)
        self.out = out
        self.shown = 0
        self.hidden = 0

    def write(self, line: str) -> None:
        """Write ``line`` (a newline is added), or count it past the limit."""
        if self.limit and self.shown >= self.limit:
            self.hidden += 1
            return
        self.shown += 1
        self.out.write(f"{line}\n")

    def close(self) -> None:
        """The last line, if problems were left out."""
        if self.hidden:
            s = "s" if self.hidden != 1 else ""
            self.out.write(f"... and {self.hidden} more problem{s} found and not shown "
                           f"(--max-problems {self.limit}; 0 shows all)\n")
