"""A ``kill`` (SIGTERM) stops a command the way Ctrl-C does: cleanly.

By default SIGTERM ends Python at once, without running ``finally`` blocks, so
the engines a command runs (each in a session of its own, out of reach of the
signal) would live on, and a temporary output file would stay behind. Within
:func:`terminate_raises`, SIGTERM raises :class:`Terminated` instead, so every
engine is stopped and nothing half-written is left; the command line then
exits with code 143 (128 + 15), as a process ended by the signal would. A
second SIGTERM ends the process at once.

>>> import os, signal, time
>>> with terminate_raises():
...     try:
...         os.kill(os.getpid(), signal.SIGTERM)
...         time.sleep(5)  # interrupted at once
...     except Terminated as exc:
...         print(exc)
terminated
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = ["Terminated", "terminate_raises"]


class Terminated(BaseException):
    """SIGTERM arrived (a ``BaseException``: no ``except Exception`` swallows it)."""

    def __init__(self) -> None:
        super().__init__("terminated")


@contextlib.contextmanager
def terminate_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in this process (main thread
    only; elsewhere the block runs as it is). A worker process forked within it dies
    of the signal as before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pid = os.getpid()

    def handler(signum: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second one ends it at once
        if os.getpid() != pid:  # a forked worker: die of the signal, as by default
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if old is None else old)
