"""CPU time of the census per configuration, with and without the seventeenth session's
search for the older families (paired, alternated, in one process).

``python benchmarks/bench_census.py [--rounds N] [RULESET:OPTION=VALUE ...]`` derives
the suite of each configuration (no disk cache) twice per round: once as before the
seventeenth session (no hands built for rare declarations, no once rule named for a
declaration made again in another suit, the keen matches played apart from the long
match everywhere, no rule argued never to act by :mod:`mariage.conformance.neveracts`)
and once as now, in alternating order, and prints the CPU time of each (the median of
the rounds), its ratio, and the rules left unchecked each way. The load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager

from mariage.conformance import exercise, unreachable
from mariage.conformance.census import census_row
from mariage.conformance.configuration import make_configuration
from mariage.conformance.derive import derive_suite

DEFAULT = [
    "marianna-siciliana:declare_who=leader", "cinquecento-siciliana:declare_when=trick_start",
    "cinquecento-siciliana:declare_who=leader", "marianna-2:declare_when=trick_start",
    "marianna-3:declare_when=trick_start", "marianna-3:declare_who=leader",
    "mariaggia:target=10000", "marjapussi-de:hands=1", "marjapussi-de:hands=500",
    "marjapussi-de:all_pass=redeal", "marianna-siciliana", "cinquecento-siciliana",
    "marianna-2", "marianna-3", "mariazza", "mariaggia", "marjapussi", "marjapussi-de",
]


@contextmanager
def before() -> Iterator[None]:
    """The search and the unreachable rules as before the seventeenth session."""
    saved = (exercise.BUILT_MATCHES, exercise.again_rules, exercise.bids_end_sooner,
             unreachable.never_acts)
    exercise.BUILT_MATCHES = 0
    exercise.again_rules = lambda state, taken: set()  # type: ignore[assignment]
    exercise.bids_end_sooner = lambda rules: True  # type: ignore[assignment]
    unreachable.never_acts = lambda rules: {}  # type: ignore[assignment]
    try:
        yield
    finally:
        (exercise.BUILT_MATCHES, exercise.again_rules, exercise.bids_end_sooner,
         unreachable.never_acts) = saved


def _cpu(label: str, old: bool) -> tuple[float, list[str]]:
    ruleset, _, option = label.partition(":")
    config = make_configuration(ruleset, [option] if option else [])
    t = time.process_time()
    if old:
        with before():
            row = census_row(config, derive_suite(config, cache=False))
    else:
        row = census_row(config, derive_suite(config, cache=False))
    return time.process_time() - t, sorted(row.unchecked)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser()
    parser.add_argument("configs", nargs="*", default=DEFAULT)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    total = [0.0, 0.0]
    for label in args.configs:
        times: dict[bool, list[float]] = {True: [], False: []}
        left: dict[bool, list[str]] = {}
        for k in range(args.rounds):
            for old in ((True, False) if k % 2 == 0 else (False, True)):
                cpu, left[old] = _cpu(label, old)
                times[old].append(cpu)
        b, a = statistics.median(times[True]), statistics.median(times[False])
        total[0] += b
        total[1] += a
        print(f"{label}: before {b:.1f} s, after {a:.1f} s (x{a / b:.2f}); unchecked "
              f"before {left[True]}, after {left[False]}", flush=True)
    print(f"all: before {total[0]:.1f} s, after {total[1]:.1f} s (x{total[1] / total[0]:.3f})")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
