"""Random playouts of whole hands: the reference interpreter against a minimal engine.

Every ruleset (default options) plays the same number of hands through the public
API: deal a deck, then until the hand ends take ``legal_actions()`` and
``apply`` one of them chosen by a seeded :class:`random.Random`. A match that
ends starts a new one with the next deck. The minimal hand-written engine for
default Marianna (``minimal_marianna.py``) is driven by the very same loop in
the same process, and the figures are reported as ratios against it:
``ratio = reference speed / minimal speed`` (higher is better; the target for
Marianna is at least 0.8, issue #28).

Usage::

    python benchmarks/bench_playout.py            # full run
    python benchmarks/bench_playout.py --quick    # a few seconds
    python benchmarks/bench_playout.py --profile  # cProfile of the Marianna playouts
    python benchmarks/bench_playout.py --paired 7 marianna schnapsen  # CPU time, medians
    python benchmarks/bench_playout.py --paired 7 --before mariage_before  # two versions

``--paired R`` times, R times over, the minimal engine and right after it each
ruleset named (default: all), by this process's CPU time, and reports per
ruleset the median of the R ratios (each against the minimal run just before
it), so that a busy machine weighs on both sides of a ratio alike.
``--before PKG`` adds, in the same pairs, the rulesets as played by another
copy of the package importable as ``PKG`` (an older version copied under
another name), for before/after figures from one run.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import os
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mariage
from minimal_marianna import MinimalMarianna

TARGET_RATIO = 0.8  # issue #28 (it was 0.5)


class Engine(Protocol):
    """What the playout loop needs from a game state (reference or minimal)."""

    to_act: int | None

    @property
    def terminal(self) -> bool: ...

    def deal(self, deck: list[int], first_player: int | None = None) -> None: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def apply(self, action: Any) -> None: ...


@dataclass(frozen=True)
class Workload:
    """The deals of a run: deck orders, first players (or None) and the seat count."""

    decks: tuple[list[int], ...]
    firsts: tuple[int | None, ...]
    nseats: int


def make_workload(rules: mariage.Rules, hands: int, seed: int) -> Workload:
    """``hands`` shuffled decks from ``seed``, with a first player where the rules need one."""
    rng = random.Random(seed)
    decks, firsts = [], []
    for _ in range(hands):
        deck = list(range(rules.ncards))
        rng.shuffle(deck)
        decks.append(deck)
        firsts.append(rng.randrange(rules.nseats) if rules.first_lead == "lot" else None)
    return Workload(tuple(decks), tuple(firsts), rules.nseats)


def play_hands(new_match: Callable[[int], Engine], work: Workload, seed: int,
               skip_last: int = 0, no_claims: bool = False) -> tuple[int, int]:
    """Play one hand per deck with random choices; return (hands, decisions).

    ``skip_last`` leaves out the last legal actions from the choice: the
    call-out that rulesets with calling out list last (a random call-out would
    end nearly every hand within a few moves). ``no_claims`` leaves claims out
    of the choice in the talon games (Schnapsen, Sixty-six), for the same reason:
    a random claim is nearly always false and ends the hand at once. The claim
    type is the one of the package that plays (an older copy under another name
    has its own), looked up once.
    """
    randrange = random.Random(seed).randrange
    state = new_match(0)
    claim = sys.modules[type(state).__module__.partition(".")[0]].Claim if no_claims else None
    decisions = 0
    for i, deck in enumerate(work.decks):
        if state.terminal:
            state = new_match(i % work.nseats)
        state.deal(deck, work.firsts[i])
        while state.to_act is not None:
            actions = state.legal_actions()
            if no_claims:
                actions = [a for a in actions if type(a) is not claim]
            state.apply(actions[randrange(len(actions) - skip_last)])
            decisions += 1
    return len(work.decks), decisions


def reference_factory(rules: mariage.Rules, package: Any = mariage) -> Callable[[int], Engine]:
    """New reference matches of ``rules`` (of ``package``) with a given first dealer."""
    def new_match(dealer: int) -> Engine:
        state: Engine = package.GameState(rules, first_dealer=dealer)
        return state
    return new_match


def minimal_factory(dealer: int) -> Engine:
    """A new match of the minimal engine."""
    state: Engine = MinimalMarianna(dealer)
    return state


@dataclass
class Timing:
    """The best of several timed runs of one engine on one workload."""

    name: str
    hands: int = 0
    decisions: int = 0
    seconds: float = float("inf")

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds


def time_run(timing: Timing, new_match: Callable[[int], Engine], work: Workload, seed: int,
             skip_last: int, no_claims: bool = False) -> None:
    """Run once and keep the fastest time seen for ``timing``."""
    start = time.perf_counter()
    hands, decisions = play_hands(new_match, work, seed, skip_last, no_claims)
    elapsed = time.perf_counter() - start
    timing.hands, timing.decisions = hands, decisions
    timing.seconds = min(timing.seconds, elapsed)


def benchmark(hands: int, repeat: int, seed: int) -> tuple[Timing, list[Timing]]:
    """Time the minimal engine and every ruleset, interleaved, best of ``repeat``."""
    names = mariage.list_rulesets()
    rules = {n: mariage.load_rules(n, {}) for n in names}
    works = {n: make_workload(r, hands, seed) for n, r in rules.items()}
    minimal = Timing("minimal marianna")
    timings = [Timing(n) for n in names]
    for _ in range(repeat):
        time_run(minimal, minimal_factory, works["marianna"], seed, 0)
        for t in timings:
            r = rules[t.name]
            time_run(t, reference_factory(r), works[t.name], seed,
                     1 if r.call_out_rule else 0, r.claim_rule is not None)
    return minimal, timings


def cpu_run(new_match: Callable[[int], Engine], work: Workload, seed: int,
            skip_last: int = 0, no_claims: bool = False) -> float:
    """Decisions per second of CPU time of one run."""
    start = time.process_time()
    _, decisions = play_hands(new_match, work, seed, skip_last, no_claims)
    return decisions / (time.process_time() - start)


def paired(names: Sequence[str], hands: int, repeat: int, seed: int,
           before: str | None = None) -> str:
    """Median over ``repeat`` paired CPU-time runs of each ruleset's d/s ratio to the
    minimal engine (and, with ``before``, of the same rulesets under that package)."""
    packages: dict[str, Any] = {"": mariage}
    if before:
        packages = {"before": importlib.import_module(before), "after": mariage}
    rows = [(label, n) for n in names for label in packages]
    runs = []
    for label, n in rows:
        pkg = packages[label]
        rules = pkg.load_rules(n, {})
        work = make_workload(rules, hands, seed)
        runs.append((reference_factory(rules, pkg), work, 1 if rules.call_out_rule else 0,
                     rules.claim_rule is not None))
    base = make_workload(mariage.load_rules("marianna", {}), hands, seed)
    ratios: list[list[float]] = [[] for _ in rows]
    for factory, work, skip, claims in runs:  # warm up: generated code, caches
        cpu_run(factory, work, seed, skip, claims)
    cpu = time.process_time()
    for _ in range(repeat):
        for i, (factory, work, skip, claims) in enumerate(runs):
            minimal = cpu_run(minimal_factory, base, seed)
            ratios[i].append(cpu_run(factory, work, seed, skip, claims) / minimal)
    medians = {row: statistics.median(r) for row, r in zip(rows, ratios, strict=True)}
    lines = [f"paired CPU-time runs: {hands} hands, median of {repeat}, seed {seed}, "
             f"load average {os.getloadavg()[0]:.1f}, "
             f"CPU {time.process_time() - cpu:.1f} s",
             f"{'ruleset':<24}{'version':<8}{'ratio d/s':>10}{'min':>8}{'max':>8}"
             f"{'of marianna':>13}"]
    for (label, n), r in zip(rows, ratios, strict=True):
        own = medians.get((label, "marianna"))
        share = f"{medians[(label, n)] / own:>13.2f}" if own else ""
        lines.append(f"{n:<24}{label:<8}{medians[(label, n)]:>10.3f}{min(r):>8.3f}"
                     f"{max(r):>8.3f}{share}")
    return "\n".join(lines)


def render(minimal: Timing, timings: list[Timing]) -> str:
    """The results table (ratios against the minimal Marianna engine)."""
    head = (f"{'engine':<22}{'hands':>7}{'decisions':>10}{'hands/s':>10}{'decis./s':>11}"
            f"{'dec/hand':>9}{'ratio h/s':>10}{'ratio d/s':>10}")
    lines = [head, "-" * len(head)]
    for t in [minimal, *timings]:
        lines.append(
            f"{t.name:<22}{t.hands:>7}{t.decisions:>10}{t.hands_per_s:>10.0f}"
            f"{t.decisions_per_s:>11.0f}{t.decisions / t.hands:>9.1f}"
            f"{t.hands_per_s / minimal.hands_per_s:>10.3f}"
            f"{t.decisions_per_s / minimal.decisions_per_s:>10.3f}")
    ref = next(t for t in timings if t.name == "marianna")
    ratio = ref.hands_per_s / minimal.hands_per_s
    verdict = "meets" if ratio >= TARGET_RATIO else "misses"
    lines.append("")
    lines.append(f"marianna reference / minimal (same rules, same hands): {ratio:.3f} "
                 f"({verdict} the target {TARGET_RATIO})")
    lines.append("Other rulesets: their speed against the minimal Marianna engine; "
                 "only the marianna row compares like with like.")
    return "\n".join(lines)


def profile(hands: int, seed: int, top: int) -> str:
    """cProfile of the reference Marianna playouts, sorted by own time."""
    rules = mariage.load_rules("marianna", {})
    work = make_workload(rules, hands, seed)
    prof = cProfile.Profile()
    prof.runcall(play_hands, reference_factory(rules), work, seed)
    out = _Sink()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return "".join(out.parts)


class _Sink:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (200 hands, best of 2)")
    parser.add_argument("--hands", type=int, default=None, help="hands per run (default 2000)")
    parser.add_argument("--repeat", type=int, default=None, help="timed runs, best kept (5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and choices")
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of the reference Marianna playouts instead")
    parser.add_argument("--paired", type=int, default=0, metavar="R",
                        help="R paired CPU-time runs per ruleset, medians reported")
    parser.add_argument("--before", metavar="PKG", default=None,
                        help="with --paired: also time an older copy of the package named PKG")
    parser.add_argument("rulesets", nargs="*", help="with --paired: the rulesets (default all)")
    args = parser.parse_args(argv)
    if args.paired:
        names = args.rulesets or mariage.list_rulesets()
        print(paired(names, args.hands or 1000, args.paired, args.seed, args.before))
        return 0
    hands = args.hands or (200 if args.quick else 2000)
    repeat = args.repeat or (2 if args.quick else 5)
    if hands < 1 or repeat < 1:
        parser.error("--hands and --repeat must be at least 1")
    if args.profile:
        print(profile(hands, args.seed, 25))
        return 0
    print(f"random playouts, {hands} hands per ruleset, best of {repeat}, seed {args.seed}, "
          f"Python {sys.version.split()[0]}")
    minimal, timings = benchmark(hands, repeat, args.seed)
    print(render(minimal, timings))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
