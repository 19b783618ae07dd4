"""A ``kill`` (SIGTERM) stops a command the way Ctrl-C does: cleanly.

By default SIGTERM ends Python at once, without running ``finally`` blocks, so
the engines a command runs (each in a session of its own, out of reach of the
signal) would live on, and a temporary output file would stay behind. Within
:func:`terminate_raises`, SIGTERM raises :class:`Terminated` instead, so every
engine is stopped and nothing half-written is left; the command line then
exits with code 143 (128 + 15), as a process ended by the signal would. A
second SIGTERM ends the process at once.

A command with worker processes and no output file (``validate --jobs N``) uses
:func:`signals_end_at_once` instead: an exception raised amid a pool's locks could
hang it, and its workers would print tracebacks as the pipes to it break. It starts
its pool with :func:`start_workers` and :func:`worker_start`, so that a signal sent to
the process (or to its whole group) is taken by its main thread, not by a thread of the
pool, and no worker outlives it; and it waits for each result with :func:`result_of`,
which wakes the main thread now and then: a signal that came just before the wait began
still ends the process, and a worker that died does not leave it waiting for ever.

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
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, TypeVar

if TYPE_CHECKING:
    import weakref

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

__all__ = ["TICK", "Terminated", "end_now", "first_workers", "result_of", "signals_end_at_once",
           "start_workers",
           "terminate_raises", "worker_start"]

#: Seconds :func:`result_of` waits before it looks again: the longest a signal's handler
#: may wait in the main thread (one taken by another thread, or just before the wait).
TICK = 0.1


class Terminated(BaseException):
    """SIGTERM arrived (a ``BaseException``: no ``except Exception`` swallows it)."""

    def __init__(self) -> None:
        super().__init__("terminated")


def _main_thread() -> bool:
    """Whether this is the main thread, as ``threading`` tells it; without importing
    ``threading`` where no module did (then no thread was started through it, and the
    package starts none otherwise: ``validate`` of one file need not import it)."""
    threading = sys.modules.get("threading")
    return threading is None or threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def terminate_raises() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` in this process (main thread
    only; elsewhere the block runs as it is). A worker process forked within it dies
    of the signal as before."""
    if not _main_thread():
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


@contextlib.contextmanager
def signals_end_at_once(workers: Callable[[], Iterable[int]]) -> Iterator[None]:
    """Within the block, SIGTERM and SIGINT end this process at once: the processes
    ``workers()`` names are killed first (SIGKILL, so none prints a traceback), what
    standard output holds is flushed, one line goes to standard error (``mariage:
    terminated`` or ``mariage: interrupted``), and the exit code is 143 or 130. A worker
    forked within the block dies of SIGTERM as by default and leaves Ctrl-C (SIGINT, sent
    to the whole foreground group) to this process. Main thread only; elsewhere the block
    runs as it is. For a command whose only output is what it has printed already."""
    if not _main_thread():
        yield
        return
    pid = os.getpid()

    def handler(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != pid:  # a forked worker
            if signum == signal.SIGTERM:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGTERM)
            return
        for signal_name in (signal.SIGTERM, signal.SIGINT):  # a second one waits no more
            signal.signal(signal_name, signal.SIG_DFL)
        word, code = ("terminated", 143) if signum == signal.SIGTERM else ("interrupted", 130)
        end_now(f"mariage: {word}", code, workers)

    old = [(s, signal.signal(s, handler)) for s in (signal.SIGTERM, signal.SIGINT)]
    try:
        yield
    finally:
        for s, was in old:
            signal.signal(s, signal.SIG_DFL if was is None else was)


def end_now(line: str, code: int, workers: Callable[[], Iterable[int]]) -> NoReturn:
    """End this process at once with exit code ``code``: the processes ``workers()`` names
    are killed first (SIGKILL: none prints a traceback, none is waited for), what standard
    output holds is flushed, and ``line`` goes to standard error. For a command whose only
    output is what it has printed already, when waiting for its workers could last for
    ever: after a signal, or after one of a pool's workers died (an idle worker holds the
    lock of the pool's queue of tasks, and ``Pool.terminate()`` takes that lock first)."""
    with contextlib.suppress(Exception):
        for worker in workers():
            with contextlib.suppress(OSError):
                os.kill(worker, signal.SIGKILL)
    with contextlib.suppress(Exception):  # a write it interrupted: reentrant, lost
        sys.stdout.flush()
    with contextlib.suppress(OSError):
        os.write(2, f"{line}\n".encode(errors="replace"))
    os._exit(code)


_STOPS = (signal.SIGTERM, signal.SIGINT)


def start_workers(start: Callable[[], T]) -> T:
    """``start()`` (which makes a pool of workers, and the threads that tend it) with
    SIGTERM and SIGINT blocked in this thread: the pool's threads inherit the block, so the
    kernel gives these signals to the main thread, whose handler runs at once (a signal
    taken by another thread would wait until the main thread's next bytecode, maybe
    never). Each worker unblocks them again in :func:`worker_start`."""
    if not hasattr(signal, "pthread_sigmask"):
        return start()
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        return start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_start(parent: int | None = None) -> None:
    """The initializer of a pool's workers started by :func:`start_workers`: die of SIGTERM
    at once, as by default, and leave SIGINT (Ctrl-C, sent to the whole foreground group)
    to the parent; take them again; and (on Linux) die with the process that started the
    pool: a worker it forks as it ends, or one waiting on a lock a killed worker held, is
    not left. (A handler inherited from the parent would run only between bytecodes: a
    SIGTERM that came just before a worker began to wait for the lock of the pool's queue
    was missed, and the pool's ``terminate()`` waited for that worker for ever.)
    ``parent`` is the process id of the process that made the pool (pass it as the pool's
    ``initargs``): a worker the pool forked just as that process ended, whose parent died
    before the line that asks to die with it, ends at once even where its orphans go to a
    process other than init (a subreaper)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    # (on every system: a worker whose maker is gone ends instead of running on)
    now = os.getppid()
    if (parent is not None and now != parent) or (parent is None and now == 1):
        os._exit(1)  # the parent died before the line above, or before this worker ran


class _Result(Protocol[T_co]):  # a pool's AsyncResult
    def wait(self, timeout: float | None = None) -> None: ...
    def ready(self) -> bool: ...
    def get(self, timeout: float | None = None) -> T_co: ...


class _Worker(Protocol):  # a pool's worker process
    @property
    def exitcode(self) -> int | None: ...


#: each pool's first processes, kept as long as the pool (made at the first pool)
_FIRST_WORKERS: list[weakref.WeakKeyDictionary[object, tuple[Any, ...]]] = []


def first_workers(pool: object) -> tuple[Any, ...]:
    """The processes ``pool`` (a ``multiprocessing`` pool) had when this was first asked of
    it: call it as the pool is made. A pool replaces a worker that died with a new one, but
    the dead one may have held the lock of the queue of tasks (a worker waiting for a task
    holds it), for which its replacement then waits for ever: :func:`result_of` watches
    these, so that such a death is seen whenever it happened."""
    if not _FIRST_WORKERS:
        import weakref

        _FIRST_WORKERS.append(weakref.WeakKeyDictionary())
    first = _FIRST_WORKERS[0]
    try:
        return first[pool]
    except KeyError:
        workers = first[pool] = tuple(getattr(pool, "_pool", ()))
        return workers


def result_of(result: _Result[T], workers: Sequence[_Worker] = ()) -> T:
    """``result.get()``, waited for :data:`TICK` seconds at a time. A signal's handler runs
    in the main thread only between bytecodes: a signal that came in the instant before
    an endless wait began (or was taken by another thread) would wait with it, and a pool
    never returns the task of a worker that died (killed by the signal that was missed, or
    by the kernel for memory). Between two waits the handler runs; and when one of
    ``workers`` (the pool's processes when the work was given out) has ended, this raises
    ``ChildProcessError``, since no worker of a pool ends of itself.

    >>> from multiprocessing.pool import ThreadPool
    >>> with ThreadPool(1) as pool:
    ...     print(result_of(pool.apply_async(pow, (2, 10))))
    1024
    """
    while True:
        result.wait(TICK)
        if result.ready():
            return result.get()
        for worker in workers:
            code = worker.exitcode
            if code is not None:
                raise ChildProcessError(f"a worker process ended (exit code {code}) before "
                                        "it returned its work")
