"""Benchmark: validating an archive of record shards on a local Dask cluster.

Writes an archive of gzip shards of Marianna records, validates it in this
process (the baseline: :func:`~mariage.notation.batch.validate_file` on each
shard in turn), then on local Dask clusters of 1, 2... worker processes (one
thread each), and reports for each the wall time, the CPU time (this process
and its children, the workers), the speed-up over the baseline by wall time,
and whether the results are identical to the baseline's.

    python benchmarks/bench_cluster.py --quick     # 8 shards of 0.15 MB
    python benchmarks/bench_cluster.py             # 16 shards of 0.5 MB, up to 2 workers

Needs the ``dask`` extra: ``pip install '.[dask]'``.
"""

from __future__ import annotations

import argparse
import gzip
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_validate import sample_records
from mariage.notation.batch import input_files, validate_file
from mariage.notation.cluster import validate_bag


def cpu() -> float:
    """CPU seconds of this process and its waited-for children."""
    a = resource.getrusage(resource.RUSAGE_SELF)
    b = resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def _own_cpu() -> float:
    """CPU seconds of the calling process (run on each worker)."""
    a = resource.getrusage(resource.RUSAGE_SELF)
    return a.ru_utime + a.ru_stime


def _warm(text: str) -> bool:
    from mariage.notation.replay import check_text

    return check_text(text).ok


def write_archive(root: Path, shards: int, size: int) -> int:
    """``shards`` gzip files of about ``size`` bytes of records each; the bytes of text."""
    records = sample_records(24)
    total = 0
    for s in range(shards):
        parts, n, i = [], 0, s
        while n < size:
            text = records[i % len(records)] + "\n"
            parts.append(text)
            n += len(text)
            i += 1
        (root / f"shard{s:03d}.mrg.gz").write_bytes(gzip.compress("".join(parts).encode()))
        total += n
    return total


def main() -> int:
    from distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small archive")
    parser.add_argument("--workers", type=int, default=2, help="most workers (default 2)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shards = 8 if args.quick else 16
        size = write_archive(root, shards, 150_000 if args.quick else 500_000)
        files = list(input_files([str(root)]))
        sample = sample_records(1)[0]
        _warm(sample)
        t, c = time.perf_counter(), cpu()
        baseline = [validate_file(f).as_dict() for f in files]
        wall0, cpu0 = time.perf_counter() - t, cpu() - c
        assert all(s["ok"] for s in baseline)
        records = sum(s["records"] for s in baseline)
        print(f"archive: {shards} shards, {size / 1e6:.1f} MB of records ({records} records)")
        print(f"  one process (baseline)  {wall0:6.2f} s wall  {cpu0:6.2f} s CPU  "
              f"{size / 1e6 / wall0:5.2f} MB/s")
        for workers in range(1, args.workers + 1):
            c = cpu()
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                client.run(_warm, sample)  # each worker loads the rules and the parser once
                before = client.run(_own_cpu)
                t = time.perf_counter()
                got = [s.as_dict() for s in client.compute(validate_bag([str(root)])).result()]
                wall = time.perf_counter() - t
                after = client.run(_own_cpu)
            used = cpu() - c  # the workers are waited for when the cluster closes
            tasks = sum(after[w] - before[w] for w in after)
            same = "identical" if got == baseline else "DIFFERENT"
            print(f"  {workers} worker(s)             {wall:6.2f} s wall  {tasks:6.2f} s CPU in "
                  f"the workers ({used:.2f} s with start-up and scheduler)  speed-up "
                  f"{wall0 / wall:4.2f}x  results {same}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
