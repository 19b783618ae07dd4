"""Helpers of the hostile-input tests: a deadline, so that a hang fails instead of waiting."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from typing import Any

import pytest


class Hang(BaseException):
    """Raised by :func:`deadline`: not an ``Exception``, so no handler of the code
    under test (``except OSError``, ``except Exception``) can swallow it."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail with :class:`Hang` if the block runs longer than ``seconds``.

    A blocking open of a FIFO or a read that never ends is interrupted (main
    thread only; on systems without ``SIGALRM`` the block just runs). The alarm
    repeats every second after the first, should a handler swallow it anyway.
    """
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s: a hang")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``mariage ARGV`` in this process: the exit code (argparse's refusals included),
    standard output and standard error."""
    from mariage.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own refusals
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def forget_house() -> Iterator[None]:
    """After the test, forget the ruleset ``house`` a ``--spec`` made known in this
    process (the command line's registry outlives a call of ``main``)."""
    from mariage.spec.specload import unregister_spec

    yield
    unregister_spec("house")
