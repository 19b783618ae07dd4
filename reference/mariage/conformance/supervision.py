"""The runner's side of an engine run under its supervisor
(:mod:`~mariage.conformance.supervisor`): the two pipes, the supervisor's reports, and
the stop.

On Linux :class:`~mariage.conformance.client.ProcessTransport` starts each engine
through the supervisor, which takes in every process the engine started that detaches
and ends them all when the engine is stopped, or when the runner dies.

>>> watch = Supervision()
>>> watch.command(["engine", "--fast"])[-2:]
['engine', '--fast']
>>> watch.close()
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import sys
import time
from typing import Any

from . import supervisor
from .supervisor import END_WITHIN

__all__ = ["Supervision", "supervised"]


def supervised() -> bool:
    """Can engines be started under the supervisor here (Linux, with an interpreter to
    run it)?"""
    return sys.platform.startswith("linux") and bool(sys.executable)


class Supervision:
    """The runner's side of one supervised engine: the two pipes, the supervisor's
    reports, and the stop.

    :meth:`command` is the argument list to start (with :attr:`fds` passed to it);
    :meth:`started` reads the first report once the process is started.
    """

    def __init__(self) -> None:
        self._status, status_w = os.pipe()
        control_r, self._control = os.pipe()
        self.fds: tuple[int, ...] = (status_w, control_r)
        #: the engine's process id, once started; ``None`` when the supervisor became
        #: the engine (``direct``)
        self.pid: int | None = None
        #: the engine's return code, once it has ended
        self.code: int | None = None
        self._buf = b""
        self._ended = False  # the supervisor's reports are over
        self._program = ""

    def command(self, argv: list[str]) -> list[str]:
        """The supervisor's argument list that runs the engine ``argv``."""
        self._program = argv[0] if argv else ""
        return [sys.executable, "-I", "-S", "-c", _LAUNCH.format(folder=os.path.dirname(
            os.path.abspath(supervisor.__file__))), *map(str, self.fds), *argv]

    def started(self, timeout: float = 30.0) -> None:
        """Close the supervisor's ends of the pipes and wait for its first report; raise
        :class:`OSError` (as :class:`subprocess.Popen` would) if the engine could not be
        started."""
        for fd in self.fds:
            os.close(fd)
        self.fds = ()
        end = time.monotonic() + timeout
        while not self._ended and b"\n" not in self._buf:
            if not select.select([self._status], [], [], max(0.0, end - time.monotonic()))[0]:
                raise OSError(f"the supervisor did not start the engine within {timeout:g} s")
            self._read()
        line, _, self._buf = self._buf.partition(b"\n")
        if line == b"direct":  # exec'd: its reports end at the exec, or say why not
            while not self._ended:
                self._read()
            line = self._buf.partition(b"\n")[0]
            if not line:
                return
        word, _, value = line.decode("ascii", "replace").partition(" ")
        if word == "started" and value.isdigit():
            self.pid = int(value)
            return
        number = int(value) if word == "error" and value.isdigit() else 0
        if not number:
            raise OSError("the supervisor ended before it started the engine")
        raise OSError(number, os.strerror(number), self._program)

    def _read(self) -> None:
        try:
            chunk = os.read(self._status, 512)
        except OSError:
            chunk = b""
        if not chunk:
            self._ended = True
        self._buf += chunk

    def returncode(self, proc: Any, timeout: float = 0.0) -> int | None:
        """The engine's return code, waiting at most ``timeout`` seconds for it; ``None``
        while it runs. ``proc`` is the supervisor's :class:`subprocess.Popen`: should
        the supervisor end without a word (killed), its own code stands for the
        engine's."""
        end = time.monotonic() + timeout
        while True:
            while self.code is None and b"\n" in self._buf:  # read with the first report
                line, _, self._buf = self._buf.partition(b"\n")
                word, _, value = line.decode("ascii", "replace").partition(" ")
                if word == "exit":
                    self.code = int(value)
            if self.code is not None or self._ended or not select.select(
                    [self._status], [], [], max(0.0, end - time.monotonic()))[0]:
                break
            self._read()
        if self.code is None and self._ended:
            self.code = proc.poll() if timeout <= 0 else _wait(proc, timeout)
        return self.code

    def stop(self, proc: Any, timeout: float = END_WITHIN + 1) -> bool:
        """Tell the supervisor to end every process below it, and wait for it to exit
        (at most ``timeout`` s); did it?"""
        with contextlib.suppress(OSError):
            os.close(self._control)
        self._control = -1
        return _wait(proc, timeout) is not None

    def close(self) -> None:
        """Release the pipes (the supervisor, if it still runs, ends all)."""
        for fd in (self._status, self._control, *self.fds):
            with contextlib.suppress(OSError):
                if fd >= 0:
                    os.close(fd)
        self._status = self._control = -1
        self.fds = ()


#: The supervisor's start: its module loaded from its compiled file (a script would be
#: compiled at every start); its folder last on the path, so that it shadows nothing.
_LAUNCH = ("import sys; sys.path.append({folder!r}); import supervisor; "
           "sys.exit(supervisor.run(sys.argv))")


def _wait(proc: Any, timeout: float) -> int | None:
    try:
        code: int = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return code
