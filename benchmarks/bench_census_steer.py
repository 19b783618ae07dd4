"""CPU of the census's derivation with and without the seventeenth session's steering.

For each configuration, the suite is derived without the disk cache
(:func:`mariage.conformance.derive.derive_suite` with ``cache=False``) with the new
searches off (``exercise.LITIGE_MATCHES = 0``, ``exercise.SUITED_MATCHES = 0``, the litige
not argued unreachable) and on, alternating, ``--rounds`` times each in this one process;
it prints the CPU time (``time.process_time``) of each run, their medians and the ratio,
and the coverage each way::

    python benchmarks/bench_census_steer.py --rounds 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import mariage.conformance.exercise as exercise
import mariage.conformance.litige as litige
import mariage.conformance.unreachable as unreachable
from mariage.conformance.census import census_row
from mariage.conformance.configuration import make_configuration
from mariage.conformance.derive import derive_suite

CONFIGS = [("belote-coinche", ["bid_min=160"]), ("belote-contree", ["bid_min=160"]),
           ("belote-contree", ["coinche_timing=any_time"]), ("belote-contree", ["bid_max=80"])]

_ARGUED = unreachable.litige_unreachable


def _set(on: bool) -> None:
    exercise.LITIGE_MATCHES = 2 if on else 0
    exercise.SUITED_MATCHES = 2 if on else 0
    argued = _ARGUED if on else (lambda rules: [])
    unreachable.litige_unreachable = argued  # type: ignore[assignment]
    litige.litige_unreachable = argued  # type: ignore[assignment]


def main() -> None:
    """Time each configuration's derivation, off and on, alternating."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    for ruleset, options in CONFIGS:
        config = make_configuration(ruleset, options)
        times: dict[bool, list[float]] = {False: [], True: []}
        rows = {}
        for _ in range(args.rounds):
            for on in (False, True):
                _set(on)
                t = time.process_time()
                suite = derive_suite(config, cache=False)
                times[on].append(time.process_time() - t)
                rows[on] = census_row(config, suite).text()
        off, on = statistics.median(times[False]), statistics.median(times[True])
        print(f"{config.label}: off {[round(x, 1) for x in times[False]]} "
              f"on {[round(x, 1) for x in times[True]]} s CPU, ratio {on / off:.3f}")
        print(f"   off: {rows[False]}\n   on:  {rows[True]}")
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
