"""``validate --jobs N`` waits for its workers' batches in steps: a signal the main thread
did not see arrive still ends it, and a worker that dies mid-batch ends the wait with an
error instead of leaving it waiting for ever (both hung before: the wait had no end)."""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mariage.notation import batch
from mariage.terminate import signals_end_at_once, start_workers, worker_start

REFERENCE = Path(__file__).resolve().parent.parent / "reference"
RECORD = b'[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "N"]\nresult *\n'

# The main thread waits for a batch that never comes (its worker sleeps) when SIGTERM is
# taken by another thread: as when it comes in the instant before the wait began, only
# the main thread's next bytecode runs the handler.
SCRIPT = textwrap.dedent(f"""
    import io, multiprocessing, signal, threading, time
    from mariage.notation import batch
    from mariage.terminate import signals_end_at_once

    def stuck(*args):
        time.sleep(120)

    def poke():
        time.sleep(0.3)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

    batch._check_batch = stuck
    workers = lambda: [p.pid for p in multiprocessing.active_children()]
    with signals_end_at_once(workers):
        pool = multiprocessing.Pool(1)
        threading.Thread(target=poke, daemon=True).start()
        batch.validate_stream(io.BytesIO({RECORD!r}), "r.mrg", jobs=1, pool=pool)
    print("the wait ended without the signal")
""")


def _run(script: str) -> tuple[int, str, str]:
    """``script`` run by a new Python in a session of its own: exit code, out, err."""
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(REFERENCE)})
    try:
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            if proc.poll() is None:
                raise  # the process itself still waits
            # it ended, but a worker the pool forked anew after the kills (a race with
            # the kill of its workers at the end) still holds the output open: what the
            # process wrote is read once the group is gone (left open in the closing note)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate(timeout=30)
    finally:
        # the workers too, should one be left (none left: the group is gone, ESRCH; a
        # race with the workers' exit made this fail now and then)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return proc.returncode, out, err


def test_a_signal_taken_by_another_thread_ends_the_wait_for_a_batch() -> None:
    assert _run(SCRIPT) == (143, "", "mariage: terminated\n")


def _dies(*args: object) -> None:
    os._exit(3)


@pytest.mark.timeout(30)  # before the fix: a wait without end
def test_a_worker_that_dies_mid_batch_ends_the_wait_with_an_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "_check_batch", _dies)
    with multiprocessing.get_context("fork").Pool(1) as pool, \
            pytest.raises(ChildProcessError, match=r"worker process ended \(exit code 3\)"):
        batch.validate_stream(io.BytesIO(RECORD), "r.mrg", jobs=1, pool=pool)


def _dispositions(*args: object) -> tuple[bool, bool]:
    return (signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
            signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


def test_a_worker_dies_of_sigterm_by_default_whatever_its_parent_does_with_it() -> None:
    """Not by the parent's handler, which runs only between bytecodes: a SIGTERM from the
    pool's ``terminate()`` just before a worker waited for the queue's lock was missed,
    and the pool waited for that worker for ever."""
    with signals_end_at_once(lambda: []):
        pool = start_workers(lambda: multiprocessing.get_context("fork").Pool(
            1, initializer=worker_start))
        try:
            assert pool.apply(_dispositions) == (True, True)
        finally:
            pool.terminate()


def test_a_worker_whose_parent_is_not_the_pools_maker_ends_at_once() -> None:
    """A worker forked as the command ended (its parent gone before the worker asked to
    die with it) is adopted by init or by a subreaper: either way its parent is no longer
    the process that made the pool, and it ends instead of running on holding the
    command's output open."""
    fork = multiprocessing.get_context("fork")
    codes = []
    for parent in (os.getpid(), os.getppid()):  # its maker; a process that is not
        worker = fork.Process(target=worker_start, args=(parent,))
        worker.start()
        worker.join(30)
        codes.append(worker.exitcode)
    assert codes == [0, 1]


# Both first workers of a pool killed while idle (one of them holds the lock of the queue
# of tasks as it waits for one): the pool replaces them, and the new ones wait for that
# lock for ever. A wait that watched only the workers of the moment never ended; the
# pool's terminate() takes that lock too, so the command ends at once (end_now).
IDLE = textwrap.dedent(f"""
    import io, multiprocessing, os, signal, time
    from mariage.notation import batch
    from mariage.terminate import end_now, first_workers, start_workers, worker_start

    # as validate makes its pool: a worker forked anew as the process ends dies with it
    pool = start_workers(lambda: multiprocessing.get_context("fork").Pool(
        2, initializer=worker_start, initargs=(os.getpid(),)))
    first = first_workers(pool)
    pool.apply(abs, (1,))
    time.sleep(0.3)
    for worker in first:
        os.kill(worker.pid, signal.SIGKILL)
    time.sleep(0.5)
    try:
        batch.validate_stream(io.BytesIO({RECORD!r}), "r.mrg", jobs=2, pool=pool)
    except ChildProcessError as exc:
        end_now(f"error: {{exc}}", 2,
                lambda: [p.pid for p in multiprocessing.active_children()])
    print("no error")
""")


def test_workers_that_died_idle_before_the_file_end_the_wait_with_an_error() -> None:
    code, out, err = _run(IDLE)
    assert (code, out) == (2, "")
    assert err.startswith("error: a worker process ended (exit code -9) before it returned")
