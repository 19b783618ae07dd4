"""Validating an archive of record shards on a Dask cluster.

:func:`validate_bag` turns files and directories of shards into a Dask bag
with one partition per shard; each partition validates its file on a worker
(:func:`~.batch.validate_file`) and holds one :class:`~.batch.FileSummary`.
Computing the bag gives the same summaries, in the same order, as validating
the files one by one in a single process. Dask is an optional extra:
``pip install 'mariage[dask]'``.

Where the bag runs is Dask's choice: the local threads by default, or the
cluster of a :class:`distributed.Client` created before ``compute()``. The
workers open the files themselves, so on a real cluster the paths must be
readable by every worker (a shared file system, or the same archive copied to
each machine)::

    from distributed import Client
    from mariage.notation.cluster import validate_bag

    client = Client("tcp://scheduler.example:8786")   # or Client(LocalCluster())
    summaries = validate_bag(["archive/"]).compute()
    bad = [s for s in summaries if not s.ok]

``mariage validate archive/ --scheduler tcp://scheduler.example:8786`` does
the same from the command line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .batch import FileSummary, InputError, input_files, validate_file
from .errors import RecordError
from .search import DEFAULT_LIMIT

__all__ = ["summaries_on", "validate_bag"]


def _dask_bag() -> Any:
    try:
        import dask.bag  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise InputError("validating on a Dask cluster needs Dask: "
                         "pip install 'mariage[dask]'") from None
    return dask.bag


#: Problems a worker sends back per file (all are counted): a summary stays small.
MAX_KEPT = 1000


def _one(path: str, strict: bool, search_limit: int) -> FileSummary:
    kept: list[RecordError] = []

    def keep(err: RecordError) -> None:
        if len(kept) < MAX_KEPT:
            kept.append(err)

    try:
        summary = validate_file(path, strict=strict, search_limit=search_limit, report=keep)
        summary.errors = kept
        return summary
    except (OSError, InputError) as exc:  # reported like any problem, on the worker
        why = getattr(exc, "strerror", None) or str(exc)
        summary = FileSummary(path, problems=1)
        summary.errors.append(RecordError("N105", f"the file cannot be read: {why}",
                                          file=path))
        return summary


def validate_bag(paths: Iterable[str], *, strict: bool = False,
                 search_limit: int = DEFAULT_LIMIT) -> Any:
    """A Dask bag of the :class:`~.batch.FileSummary` of every shard of ``paths``.

    ``paths`` are files (compressed or not) and directories of shards
    (see :func:`~.batch.input_files`); each file is one partition, validated
    on a worker. ``compute()`` returns the summaries in file order.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for i in range(2):
    ...     with open(os.path.join(folder, f"shard{i}.mrg"), "w") as f:
    ...         _ = f.write('[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult *\\n')
    >>> bag = validate_bag([folder])
    >>> [(os.path.basename(s.file), s.records, s.ok) for s in bag.compute(scheduler="sync")]
    [('shard0.mrg', 1, True), ('shard1.mrg', 1, True)]
    """
    files = list(input_files(paths))
    bag = _dask_bag()
    if not files:
        return bag.from_sequence([], npartitions=1)
    return bag.from_sequence(files, npartitions=len(files)).map(_one, strict, search_limit)


def summaries_on(scheduler: str, paths: Iterable[str], *, strict: bool = False,
                 search_limit: int = DEFAULT_LIMIT) -> list[FileSummary]:
    """Validate ``paths`` on the Dask cluster at ``scheduler``; the summaries in file order.

    ``scheduler`` is a scheduler address (``tcp://host:8786``), or ``local`` /
    ``local:N`` for a cluster of N worker processes on this machine.
    """
    bag = validate_bag(paths, strict=strict, search_limit=search_limit)
    try:
        from distributed import (  # type: ignore[attr-defined, import-not-found, unused-ignore]
            Client,
            LocalCluster,
        )
    except ImportError:
        raise InputError("validating on a Dask cluster needs dask.distributed: "
                         "pip install 'mariage[dask]'") from None
    if scheduler == "local" or scheduler.startswith("local:"):
        count = scheduler.partition(":")[2] or "2"
        if not count.isdigit() or not count.isascii() or len(count) > 3 \
                or not 0 < int(count) <= 256:
            raise ValueError(f"--scheduler local:N takes a number of workers, got {count!r}")
        workers = int(count)
        with LocalCluster(n_workers=workers, threads_per_worker=1,  # type: ignore[no-untyped-call, unused-ignore]
                          processes=True, dashboard_address=None) as cluster, \
                _new_client(Client, cluster) as client:
            return _run(client, bag)
    _probe(scheduler)
    client = _connect(Client, scheduler)
    with client:
        _has_workers(client, scheduler)
        return _run(client, bag, scheduler)


def _run(client: Any, bag: Any, scheduler: str = "") -> list[FileSummary]:
    """Compute ``bag`` on ``client``; while waiting, check every
    :data:`SCHEDULER_TIMEOUT` seconds that the scheduler still answers and still has
    workers, so that a scheduler that stalls after the connection, or loses every
    worker, ends the run with one line instead of hanging it."""
    future = client.compute(bag)
    while True:
        try:
            return list(future.result(timeout=SCHEDULER_TIMEOUT))
        except TimeoutError:
            if scheduler:
                _has_workers(client, scheduler)


#: Seconds a scheduler has to accept a connection and to answer it.
SCHEDULER_TIMEOUT = 10.0
#: Address schemes the command line connects to (TLS and UCX need a configuration of
#: their own: use :func:`validate_bag` with your own ``distributed.Client``);
#: ``inproc`` names a scheduler in this same process.
SCHEMES = ("tcp", "inproc")


def _fail(scheduler: str, why: object) -> InputError:
    shown = scheduler if len(scheduler) <= 80 else scheduler[:60] + "..."
    return InputError(f"no Dask scheduler at {shown}: {' '.join(str(why).split())[:300]}")


def _probe(scheduler: str) -> None:
    """Check that ``scheduler`` is a TCP address where something answers as Dask does.

    A Dask scheduler speaks first: on a new connection it sends a handshake,
    framed by an 8-byte count of frames. A server that accepts and stays
    silent, or sends something else, is refused here, within
    :data:`SCHEDULER_TIMEOUT` seconds, instead of hanging ``Client()``.
    """
    import socket
    import struct

    scheme, sep, rest = scheduler.partition("://")
    if not sep:
        scheme, rest = "tcp", scheduler
    if scheme not in SCHEMES:
        raise _fail(scheduler, f"the scheme '{scheme}://' is not supported here (only "
                    f"{', '.join(s + '://' for s in SCHEMES)}, or local:N); for TLS or UCX "
                    "use mariage.notation.cluster.validate_bag with a Client of your own")
    if scheme == "inproc":  # in this process: no socket to probe, Client() is bounded
        return
    host, colon, port_text = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port_text.isdigit() or not port_text.isascii() \
            or len(port_text) > 5 or not 0 < int(port_text) < 65536:
        raise _fail(scheduler, "expected tcp://HOST:PORT")
    try:
        with socket.create_connection((host, int(port_text)), timeout=SCHEDULER_TIMEOUT) as s:
            head = b""
            while len(head) < 8:
                piece = s.recv(8 - len(head))
                if not piece:
                    raise _fail(scheduler, "the connection was closed without an answer")
                head += piece
    except TimeoutError:
        raise _fail(scheduler, f"no answer within {SCHEDULER_TIMEOUT:g} s (not a Dask "
                    "scheduler, or a stalled one)") from None
    except (OSError, ValueError) as exc:  # refused, unknown host, a name too long...
        why = getattr(exc, "strerror", None) or exc
        raise _fail(scheduler, f"cannot connect: {why}") from None
    frames = struct.unpack("<Q", head)[0]
    if not 0 < frames <= 64:
        raise _fail(scheduler, "the answer is not a Dask handshake")


def _bounded(scheduler: str, what: str, call: Any) -> Any:
    """``call()`` in a thread, within ``2 *`` :data:`SCHEDULER_TIMEOUT` seconds, or
    :class:`InputError` (a Dask call may wait without a bound for a stalled scheduler,
    and may fail in many ways; each becomes one line)."""
    import threading

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # any failure: reported as one line below
            box["error"] = exc

    thread = threading.Thread(target=run, name="mariage-dask-call", daemon=True)
    thread.start()
    thread.join(SCHEDULER_TIMEOUT * 2)
    if thread.is_alive():
        raise _fail(scheduler, f"the scheduler did not {what} within "
                    f"{SCHEDULER_TIMEOUT * 2:g} s")
    if "error" in box:
        exc = box["error"]
        raise _fail(scheduler, f"{type(exc).__name__}: {exc}") from None
    return box["value"]


def _connect(client_class: Any, scheduler: str) -> Any:
    """A ``Client`` connected to ``scheduler``, within a deadline, or :class:`InputError`.

    ``Client()`` waits without a bound for a scheduler that answers the first
    message but not the next.
    """
    return _bounded(scheduler, "complete the connection",
                    lambda: _new_client(client_class, scheduler,
                                        timeout=f"{SCHEDULER_TIMEOUT}s"))


def _new_client(client_class: Any, *args: Any, **kwargs: Any) -> Any:
    """``client_class(*args, **kwargs)`` after a garbage collection. A ``Client`` left
    unreachable by an earlier call (one given up on a stalled scheduler) closes itself
    when it is collected; collected while a new ``Client`` starts its event loop, it
    waits for the loop runner's lock that the new one holds, and both wait forever (seen
    in the test suite). Collected here, before the new one starts, it closes alone."""
    import gc

    gc.collect()
    return client_class(*args, **kwargs)


def _has_workers(client: Any, scheduler: str) -> None:
    """Refuse a scheduler without workers (the computation would wait for one forever),
    or one that no longer answers."""
    info = _bounded(scheduler, "answer", client.scheduler_info)
    workers = info.get("workers") if isinstance(info, dict) else None
    if not workers:
        raise _fail(scheduler, "the scheduler has no workers")
