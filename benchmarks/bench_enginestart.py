"""What the engine's supervisor adds to starting and stopping an engine.

An engine is started (:class:`~mariage.conformance.client.ProcessTransport`), says
hello and is stopped, under the supervisor (:mod:`mariage.conformance.supervisor`)
and without it (started directly, as before), the two alternating so that a busy
moment of the machine falls on both. The engine is the example engine
``conformance/examples/minimal_engine.py``. Medians of the repeats, in ms, with the
CPU time (user + system) of the runner's children per start.

    python benchmarks/bench_enginestart.py            # 30 repeats of each
    python benchmarks/bench_enginestart.py -n 5       # a few seconds
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from mariage.conformance import client, supervision
from mariage.conformance.client import EngineClient

ENGINE = Path(__file__).resolve().parent.parent / "conformance" / "examples" / \
    "minimal_engine.py"


def once(supervised: bool) -> tuple[float, float, float]:
    """Start, hello, stop: (start to hello answered, stop, children's CPU) in ms."""
    client.supervised = (supervision.supervised if supervised  # type: ignore[assignment]
                         else lambda: False)
    before = os.times()
    t0 = time.perf_counter()
    engine = EngineClient.for_command(f"{sys.executable} {ENGINE}", timeout=30)
    engine.hello()
    t1 = time.perf_counter()
    engine.close()
    t2 = time.perf_counter()
    after = os.times()
    cpu = (after.children_user + after.children_system
           - before.children_user - before.children_system)
    return 1000 * (t1 - t0), 1000 * (t2 - t1), 1000 * cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=30, help="repeats of each (default 30)")
    n = parser.parse_args().n
    runs: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
    once(True)  # compiled files in place
    for k in range(2 * n):
        which = k % 2 == 0
        runs[which].append(once(which))
    print(f"{'':12} {'start+hello':>12} {'stop':>8} {'CPU':>8}   (medians of {n}, ms)")
    for which, name in ((False, "direct"), (True, "supervised")):
        cols = [statistics.median(r[i] for r in runs[which]) for i in range(3)]
        print(f"{name:12} {cols[0]:12.1f} {cols[1]:8.1f} {cols[2]:8.1f}")
    d, s = (statistics.median(r[0] for r in runs[w]) for w in (False, True))
    print(f"the supervisor adds {s - d:.1f} ms to a start ({s / d:.2f}x)")


if __name__ == "__main__":
    main()
