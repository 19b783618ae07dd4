"""The mypyc experiment: random playouts with the mechanisms compiled, against pure Python.

The package is copied to a temporary folder, its mechanism modules
(``mariage/engine/mechanisms/*.py``) are compiled there with mypyc (the
checkout is not touched), and the playouts of ``bench_playout.py`` run in
fresh processes, alternately on the pure-Python checkout and on the compiled
copy. Each process reports every ruleset's decisions per second as a ratio
to the minimal hand-written Marianna engine run in that same process
(median of ``--repeat`` paired runs, CPU time); the speed-up of the compiled
build is the ratio of those ratios.

Only the mechanisms are compiled: ``GameState`` makes its copies and each
new hand's fields with ``object.__new__`` and generated code, which a mypyc
class does not allow, and a compiled mechanism cannot be subclassed by an
interpreted one (the extension point of :mod:`mariage.engine.mechanisms`)
unless marked so. Needs mypy (with mypyc) and a C compiler.

    python benchmarks/bench_mypyc.py                 # marianna, schnapsen, marjapussi-de
    python benchmarks/bench_mypyc.py --rulesets marianna --hands 1000 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: run in each fresh process: one line per ruleset, "name ratio"
_PROBE = """
import statistics, sys, time
sys.path.insert(0, {bench!r})
import mariage
from bench_playout import make_workload, minimal_factory, play_hands, reference_factory
names, hands, repeat = {names!r}, {hands!r}, {repeat!r}
rules = {{n: mariage.load_rules(n, {{}}) for n in {{*names, "marianna"}}}}
base_work = make_workload(rules["marianna"], hands, 1)
works = {{n: make_workload(rules[n], hands, 1) for n in names}}
ratios = {{n: [] for n in names}}
for _ in range(repeat):
    t = time.process_time()
    _, d0 = play_hands(minimal_factory, base_work, 1)
    base = d0 / (time.process_time() - t)
    for n in names:
        r = rules[n]
        t = time.process_time()
        _, d = play_hands(reference_factory(r), works[n], 1, 1 if r.call_out_rule else 0,
                          r.claim_rule is not None)
        ratios[n].append(d / (time.process_time() - t) / base)
print(mariage.engine.mechanisms.trickplay.__file__)
for n in names:
    print(n, statistics.median(ratios[n]))
"""


def build(folder: Path) -> Path:
    """A copy of the package in ``folder`` with its mechanisms compiled; its import path."""
    ref = folder / "reference"
    shutil.copytree(ROOT / "reference" / "mariage", ref / "mariage",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for data in ("spec", "grammar", "conformance"):  # found next to the package, as in a checkout
        (folder / data).symlink_to(ROOT / data)
    modules = sorted(str(p.relative_to(ref)) for p in (ref / "mariage" / "engine" /
                                                       "mechanisms").glob("*.py"))
    subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=ref, check=True,
                   stdout=subprocess.DEVNULL)
    return ref


def measure(path: Path, names: list[str], hands: int, repeat: int) -> dict[str, float]:
    """Each ruleset's ratio to the minimal engine, in a fresh process on ``path``."""
    env = dict(os.environ, PYTHONPATH=str(path))
    code = _PROBE.format(bench=str(ROOT / "benchmarks"), names=names, hands=hands,
                         repeat=repeat)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True).stdout.split("\n")
    compiled = out[0].endswith(".so")
    assert compiled == (path != ROOT / "reference"), f"unexpected module: {out[0]}"
    return {line.split()[0]: float(line.split()[1]) for line in out[1:] if line.strip()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default="marianna,schnapsen,marjapussi-de")
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--repeat", type=int, default=5, help="paired runs per process")
    parser.add_argument("--rounds", type=int, default=2, help="processes per build")
    args = parser.parse_args()
    names = args.rulesets.split(",")
    with tempfile.TemporaryDirectory(prefix="mariage-mypyc-") as tmp:
        compiled_path = build(Path(tmp))
        pure: dict[str, list[float]] = {n: [] for n in names}
        compiled: dict[str, list[float]] = {n: [] for n in names}
        for _ in range(args.rounds):
            for n, r in measure(ROOT / "reference", names, args.hands, args.repeat).items():
                pure[n].append(r)
            for n, r in measure(compiled_path, names, args.hands, args.repeat).items():
                compiled[n].append(r)
    print(f"mypyc experiment: mechanisms compiled; {args.hands} hands, median of "
          f"{args.repeat} paired runs per process, {args.rounds} processes per build")
    print("| ruleset | pure Python (ratio to minimal) | compiled | speed-up |")
    print("|---|---:|---:|---:|")
    for n in names:
        p, c = statistics.median(pure[n]), statistics.median(compiled[n])
        print(f"| {n} | {p:.3f} | {c:.3f} | {c / p:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
