"""The supervisor of one engine: a small process that ends every process the engine
started, detached orphans included.

The runner starts it in a fresh interpreter
(:class:`~mariage.conformance.supervision.Supervision`: ``python -I -S -c "...import
supervisor..." STATUS CONTROL ENGINE...``, the module's compiled file loaded from its own
folder; it imports only a few modules of the standard library, so that it starts fast).
It makes itself a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): a process the
engine started that detaches (``setsid``, a double fork, an orphan) is taken in by the
supervisor, not by ``init``, whatever its environment holds. It then starts the engine
as its child, which gets the supervisor's standard input, output and error as they are
(no byte of the protocol passes through the supervisor), and lets go of its own copies
of them.

It reports on the pipe ``STATUS``: ``started PID`` once the engine runs, ``error
ERRNO`` if it could not be started, ``exit CODE`` when the engine ends (``CODE`` as
:attr:`subprocess.Popen.returncode` gives it: negative for a signal), and it reaps
every process taken in meanwhile. When ``CONTROL`` is closed (by the runner, to stop
the engine, or because the runner died, however), it kills (SIGKILL) and reaps every
process below it, orphans taken in included, and exits. The duty of reaping orphans
is the supervisor's alone: the runner, and a test run in its process, keep none.

Where ``prctl`` is missing the supervisor says ``direct`` and becomes the engine
(``exec``): the runner's earlier means apply (the engine's process group and the
mark in its environment, :mod:`~mariage.conformance.strays`).

>>> _descendants(os.getpid())  # no process runs below this one
[]
"""

from __future__ import annotations

import os
import select
import sys
import time

TYPE_CHECKING = False  # (typing is not imported: the start would take longer)
if TYPE_CHECKING:
    import signal
else:  # the same functions and numbers, without the enums that take 5 ms to import
    import _signal as signal

__all__ = ["END_WITHIN", "main", "run"]

#: prctl's option numbers (linux/prctl.h)
PR_SET_CHILD_SUBREAPER = 36

#: How long the supervisor tries to end the processes below it before it gives up.
END_WITHIN = 5.0


def _subreaper() -> bool:
    """Make this process a child subreaper; could it?"""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _say(fd: int, text: str) -> None:
    try:  # noqa: SIM105 (no contextlib: it would slow the start by a few ms)
        os.write(fd, text.encode() + b"\n")
    except OSError:  # the runner is gone: nobody to tell
        pass


def _descendants(me: int) -> list[int] | None:
    """Every process below ``me`` (read from ``/proc``); ``None`` without ``/proc``."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    parent = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):  # gone meanwhile
                continue
            children.setdefault(parent, []).append(int(name))
    out: list[int] = []
    stack = [me]
    while stack:
        for child in children.get(stack.pop(), ()):
            out.append(child)
            stack.append(child)
    return out


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except OSError:  # empty (BlockingIOError)
        pass


#: the engine, once reaped
_ENDED: list[int] = []


def _reap(engine: int, status: int) -> bool:
    """Reap every child that has ended, telling the engine's end; is a child left?"""
    while True:
        try:
            pid, how = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        if pid == engine:
            _ENDED.append(engine)
            _say(status, f"exit {os.waitstatus_to_exitcode(how)}")


def _end_all(engine: int, status: int, wake: int) -> None:
    """Kill every process below this one and reap them, until none is left (a process
    whose parent is killed is taken in here, and found on the next look)."""
    me = os.getpid()
    end = time.monotonic() + END_WITHIN
    while time.monotonic() < end:
        found = _descendants(me)
        if found is None:  # no /proc: the engine alone (the runner kills the group), if
            found = [] if _ENDED else [engine]  # not reaped (its number may be reused)
            end = min(end, time.monotonic() + 0.2)
        for pid in found:
            try:  # noqa: SIM105 (as in _say)
                os.kill(pid, signal.SIGKILL)
            except OSError:  # gone meanwhile
                pass
        if not _reap(engine, status):
            return
        select.select([wake], [], [], 0.01)
        _drain(wake)


def main(argv: list[str]) -> int:
    """Run the engine ``argv[3:]`` under supervision (see the module's text)."""
    status, control, command = int(argv[1]), int(argv[2]), argv[3:]
    if not _subreaper():
        _say(status, "direct")
        for fd in (status, control):
            os.set_inheritable(fd, False)  # closed by the exec: its end says it ran
        os.execvp(command[0], command)  # an OSError: reported below, in __main__
    wake, wake_w = os.pipe()
    for fd in (wake, wake_w):
        os.set_blocking(fd, False)
    signal.set_wakeup_fd(wake_w)
    stopped: list[int] = []
    ends = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    before = {sig: signal.getsignal(sig) for sig in ends}
    signal.signal(signal.SIGCHLD, lambda *_: None)
    for sig in ends:
        signal.signal(sig, lambda sig, _frame: stopped.append(sig))
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD, *ends})
    failed, failed_w = os.pipe()
    engine = os.fork()
    if engine == 0:  # the engine: the signals as the supervisor got them, then exec
        number = 0
        try:
            signal.set_wakeup_fd(-1)
            for sig in ends:
                signal.signal(sig, signal.SIG_IGN if before[sig] == signal.SIG_IGN
                              else signal.SIG_DFL)
            for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)  # as subprocess's restore_signals
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            for fd in (status, control, wake, wake_w, failed):
                os.close(fd)
            os.execvp(command[0], command)
        except OSError as exc:
            number = exc.errno or 0
        finally:
            try:
                os.write(failed_w, str(number).encode())
            finally:
                os._exit(127)
    os.close(failed_w)
    why = os.read(failed, 64)  # nothing: the exec closed it
    os.close(failed)
    if why:
        os.waitpid(engine, 0)
        _say(status, f"error {why.decode()}")
        return 127
    _say(status, f"started {engine}")
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the engine's alone: its end is the runner's end of file
        os.dup2(null, fd)
    os.close(null)
    while not stopped:
        ready = select.select([control, wake], [], [])[0]
        if control in ready:
            try:
                if not os.read(control, 512):
                    break  # the runner closed it, or is gone
            except OSError:
                break
        _drain(wake)
        _reap(engine, status)
    _end_all(engine, status, wake)
    return 0


def run(argv: list[str]) -> int:
    """:func:`main`, an engine that cannot be run told as ``error ERRNO``."""
    try:
        return main(argv)
    except OSError as exc:  # the direct exec failed
        _say(int(argv[1]), f"error {exc.errno or 0}")
        return 127


if __name__ == "__main__":
    sys.exit(run(sys.argv))
