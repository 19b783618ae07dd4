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
        if not count.isdigit() or not 0 < int(count) <= 256:
            raise ValueError(f"--scheduler local:N takes a number of workers, got {count!r}")
        workers = int(count)
        with LocalCluster(n_workers=workers, threads_per_worker=1,  # type: ignore[no-untyped-call, unused-ignore]
                          processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:  # type: ignore[no-untyped-call, unused-ignore]
            return _run(client, bag)
    try:
        client = Client(scheduler, timeout="5s")  # type: ignore[no-untyped-call, unused-ignore]
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"no Dask scheduler at {scheduler}: {exc}") from None
    with client:
        return _run(client, bag)


def _run(client: Any, bag: Any) -> list[FileSummary]:
    return list(client.compute(bag).result())
