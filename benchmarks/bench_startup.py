"""Start-up time of ``mariage`` commands, as ratios to ``python -c pass``.

Each command runs as a fresh process (``python -m mariage ...`` on this
checkout), its standard output thrown away. Runs of every command are
interleaved, so that a busy moment of the machine falls on all of them; the
best and the median wall time of the repeats are kept, and the smallest CPU
time (user + system), which a busy machine disturbs less than wall time.

*Warm* runs use a disk cache filled by one run before timing (in a temporary
``XDG_CACHE_HOME``, so the user's own cache is neither used nor touched), with
compiled modules kept (``PYTHONDONTWRITEBYTECODE`` is unset and
``PYTHONPYCACHEPREFIX`` points into the same temporary folder), as after any
installation; *no cache* runs set ``MARIAGE_NO_CACHE=1`` and show what the
cache saves.

``--against REV`` times the package of the git revision ``REV`` (its ``reference``
folder, taken out with ``git archive``) in the same loop: each command of each tree in
turn (which tree goes first alternates from one round to the next), each tree with a
disk cache of its own, and prints the ratios of both (CPU time, best and median) side by
side. ``--only WORD,...`` keeps the commands whose name holds
one of the words (the baseline is always run).

    python benchmarks/bench_startup.py            # 20 repeats
    python benchmarks/bench_startup.py --quick    # 5 repeats: a few seconds
    python benchmarks/bench_startup.py --repeat 15 --against main --only replay,stats

``--instructions`` counts the machine instructions of one warm run of each command
instead (``valgrind --tool=callgrind``, with ``PYTHONHASHSEED=0``): a figure that a busy
machine does not move, of each tree with ``--against``.

    python benchmarks/bench_startup.py --instructions --against main --only play,validate
"""

from __future__ import annotations

import argparse
import io
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a canonical record of a Marianna match (a test fixture), for ``validate``
RECORD = ROOT / "tests" / "data" / "records" / "good" / "marianna.mrg"
TARGET_MS = 150.0

CASES: list[tuple[str, list[str], bool]] = [
    ("python -c pass (baseline)", ["-c", "pass"], True),
    ("python -c 'import yaml' (for scale)", ["-c", "import yaml"], True),
    ("mariage --version", ["-m", "mariage", "--version"], True),
    ("mariage list (warm)", ["-m", "mariage", "list"], True),
    ("mariage rules marianna (warm)", ["-m", "mariage", "rules", "marianna"], True),
    ("mariage --help", ["-m", "mariage", "--help"], True),
    ("mariage validate, one canonical record (warm)",
     ["-m", "mariage", "validate", str(RECORD)], True),
    ("mariage replay, one record (warm)", ["-m", "mariage", "replay", str(RECORD)], True),
    ("mariage stats, one record (warm)", ["-m", "mariage", "stats", str(RECORD)], True),
    ("mariage completion bash (warm)", ["-m", "mariage", "completion", "bash"], True),
    ("mariage conformance --help", ["-m", "mariage", "conformance", "--help"], True),
    ("mariage match --help", ["-m", "mariage", "match", "--help"], True),
    ("mariage check-spec marianna.yaml (warm)",
     ["-m", "mariage", "check-spec", str(ROOT / "spec" / "marianna.yaml")], True),
    ("import mariage", ["-c", "import mariage"], True),
    ("import mariage.cli", ["-c", "import mariage.cli"], True),
    ("mariage play marianna --quiet, a bot match (warm)",
     ["-m", "mariage", "play", "marianna", "--quiet"], True),
    ("mariage list (no cache)", ["-m", "mariage", "list"], False),
    ("mariage rules marianna (no cache)", ["-m", "mariage", "rules", "marianna"], False),
]


def _env(cache: str, use_cache: bool, package: Path = ROOT / "reference") -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(package) + os.pathsep + env.get("PYTHONPATH", "")
    env["XDG_CACHE_HOME"] = cache
    # compiled modules kept as in any installation, in the temporary folder
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = os.path.join(cache, "pycache")
    env.pop("MARIAGE_NO_CACHE", None)
    if not use_cache:
        env["MARIAGE_NO_CACHE"] = "1"
    return env


def _once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(cases: list[tuple[str, list[str], bool]], repeat: int
            ) -> list[tuple[str, float, float, float]]:
    """(case, best wall, median wall, best CPU seconds) per case."""
    with tempfile.TemporaryDirectory(prefix="mariage-bench-cache-") as cache:
        for _, args, use_cache in cases:  # fill the cache (and the OS file cache)
            _once(args, _env(cache, use_cache))
        times: dict[str, list[tuple[float, float]]] = {name: [] for name, _, _ in cases}
        for _ in range(repeat):
            for name, args, use_cache in cases:
                times[name].append(_once(args, _env(cache, use_cache)))
    return [(name, min(w for w, _ in t), statistics.median(w for w, _ in t),
             min(c for _, c in t)) for name, t in times.items()]


def _extract(rev: str, into: Path) -> Path:
    """The ``reference`` folder of git revision ``rev`` (with the bundled rulesets and
    grammar beside it, where the package finds them), written under ``into``."""
    done = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "reference", "spec",
                           "grammar"], capture_output=True)
    if done.returncode:  # (a path, a typo: git's own words, not a traceback)
        why = done.stderr.decode(errors="replace").strip().splitlines()
        raise SystemExit(f"bench_startup: --against {rev}: not a git revision of this "
                         f"checkout ({why[-1] if why else 'git archive failed'})")
    archive = done.stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "reference"


def paired(cases: list[tuple[str, list[str], bool]], repeat: int, rev: str
           ) -> list[tuple[str, list[float], list[float]]]:
    """(case, CPU seconds of the tree at ``rev``, CPU seconds of this tree) per case, the
    two trees' runs alternating."""
    with tempfile.TemporaryDirectory(prefix="mariage-bench-pair-") as tmp:
        before = _extract(rev, Path(tmp) / "before")
        trees = [(before, os.path.join(tmp, "cache-before")),
                 (ROOT / "reference", os.path.join(tmp, "cache-after"))]
        for package, cache in trees:
            for _, args, use_cache in cases:
                _once(args, _env(cache, use_cache, package))
        cpu: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n, _, _ in cases}
        for turn in range(repeat):
            # each tree first in every other round: the second run of a pair ran slower
            # (one tree against itself: ratios 0.05-0.27 higher), whichever tree it was
            order = [0, 1] if turn % 2 == 0 else [1, 0]
            for name, args, use_cache in cases:
                for k in order:
                    package, cache = trees[k]
                    cpu[name][k].append(_once(args, _env(cache, use_cache, package))[1])
    return [(name, *cpu[name]) for name, _, _ in cases]


def _instructions(args: list[str], env: dict[str, str]) -> float:
    """Machine instructions of one run of ``python ARGS`` (callgrind's count)."""
    with tempfile.TemporaryDirectory(prefix="mariage-bench-cg-") as tmp:
        done = subprocess.run(["valgrind", "--tool=callgrind",
                               f"--callgrind-out-file={os.path.join(tmp, 'out')}",
                               sys.executable, *args], env={**env, "PYTHONHASHSEED": "0"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              check=True)
    found = re.search(r"Collected : ([0-9]+)", done.stderr)
    if found is None:
        raise SystemExit(f"no count from valgrind: {done.stderr[-300:]}")
    return float(found.group(1))


def counted(cases: list[tuple[str, list[str], bool]], rev: str | None
            ) -> list[tuple[str, list[float]]]:
    """(case, instructions of a warm run per tree: the tree at ``rev`` first, if given)."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind")
    with tempfile.TemporaryDirectory(prefix="mariage-bench-ir-") as tmp:
        trees = [(ROOT / "reference", os.path.join(tmp, "cache-after"))]
        if rev:
            trees.insert(0, (_extract(rev, Path(tmp) / "before"),
                             os.path.join(tmp, "cache-before")))
        rows = []
        for name, args, use_cache in cases:
            counts = []
            for package, cache in trees:
                env = _env(cache, use_cache, package)
                _once(args, env)  # fills the cache, compiles the modules
                counts.append(_instructions(args, env))
            rows.append((name, counts))
    return rows


def _print_counted(rows: list[tuple[str, list[float]]], rev: str | None) -> None:
    base = rows[0][1]
    heads = ["before", "after"] if rev else ["instructions"]
    print(f"Python {sys.version.split()[0]}, machine instructions of one warm run (callgrind), "
          f"M, and the ratio to `python -c pass`" + (f"; before: {rev}, after: this checkout"
                                                     if rev else ""))
    print()
    print("| command | " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * len(heads))
    for name, counts in rows:
        cells = [f"{c / 1e6:.1f} M ({c / b:.2f}x)" for c, b in zip(counts, base, strict=True)]
        print(f"| {name} | " + " | ".join(cells) + " |")


def _print_paired(rows: list[tuple[str, list[float], list[float]]], repeat: int,
                  rev: str) -> None:
    base = rows[0]
    print(f"Python {sys.version.split()[0]}, {repeat} runs per command and tree, "
          f"alternating; CPU time (user + system) as a ratio to `python -c pass` of the same "
          f"loop; before: {rev}, after: this checkout; `python -c pass` "
          f"{statistics.median(base[1] + base[2]) * 1000:.1f} ms (median)")
    print()
    print("| command | before, best | after, best | before, median | after, median |")
    print("|---|---:|---:|---:|---:|")
    for name, old, new in rows:
        ratios = [min(t) / max(min(b), 1e-6) for t, b in ((old, base[1]), (new, base[2]))]
        medians = [statistics.median(t) / max(statistics.median(b), 1e-6)
                   for t, b in ((old, base[1]), (new, base[2]))]
        print(f"| {name} | {ratios[0]:.2f} | {ratios[1]:.2f} | {medians[0]:.2f} | "
              f"{medians[1]:.2f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 repeats instead of 20")
    parser.add_argument("--repeat", type=int, default=0, help="repeats per command")
    parser.add_argument("--only", default="", metavar="WORD,...",
                        help="only the commands whose name holds one of these words")
    parser.add_argument("--against", metavar="REV",
                        help="time the package of git revision REV in the same loop")
    parser.add_argument("--instructions", action="store_true",
                        help="count machine instructions (valgrind) instead of timing")
    args = parser.parse_args()
    repeat = args.repeat or (5 if args.quick else 20)
    words = [w for w in args.only.split(",") if w]
    cases = [CASES[0], *(c for c in CASES[1:] if not words or any(w in c[0] for w in words))]
    if args.instructions:
        _print_counted(counted(cases, args.against), args.against)
        return 0
    if args.against:
        _print_paired(paired(cases, repeat, args.against), repeat, args.against)
        return 0
    rows = measure(cases, repeat)
    base_best, base_median, base_cpu = rows[0][1], rows[0][2], rows[0][3]
    print(f"Python {sys.version.split()[0]}, {repeat} interleaved runs per command; "
          f"target: warm list and rules under {TARGET_MS:.0f} ms")
    print()
    print("| command | best ms | median ms | CPU ms (best) | ratio (best) | ratio (median) "
          "| ratio (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, best, median, cpu in rows:
        print(f"| {name} | {best * 1000:.0f} | {median * 1000:.0f} | {cpu * 1000:.0f} | "
              f"{best / base_best:.1f} | {median / base_median:.1f} | "
              f"{cpu / max(base_cpu, 1e-6):.1f} |")
    print()
    for name, best, median, _ in rows:
        if "(warm)" in name:
            state = "met" if best * 1000 < TARGET_MS else "NOT met"
            print(f"{name}: best {best * 1000:.0f} ms, median {median * 1000:.0f} ms: "
                  f"target {state} (best)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
