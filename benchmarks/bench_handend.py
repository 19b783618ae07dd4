"""Benchmark: the cost of the end of a hand against an ordinary decision.

For every bundled ruleset (default options), random playouts are recorded
once (the decks and the actions chosen, as in ``bench_playout.py``) and then
replayed through the public API, timing each call on its own:

* an *ordinary decision*: an ``apply`` that neither completes a trick nor
  ends the hand (a card that is not the last of its trick, a declaration...);
* a *trick end*: an ``apply`` that completes a trick and the hand goes on;
* the *hand end*: the ``apply`` that ends the hand (scoring it, checking the
  match end, passing the deal on);
* the *next deal*: ``deal`` of the next hand's deck;
* ``legal_actions()`` before each action (what a player asks before deciding).

An ordinary *decision* of a playout is ``legal_actions()`` and an ordinary
``apply``; the table gives the end of the hand against both.

The end-of-hand step is the hand end plus the next deal (the first deal of a
match is left out: it follows a new state, not a hand end). Each figure is
the median over all calls of that kind (a call during which the process lost
its core to another job would weigh on a mean); runs are repeated and
interleaved and the lowest median of each kind is kept; the timer's own cost
(a pair of ``perf_counter_ns`` calls with nothing between) is taken off.
The figures that matter are the ratios to an ordinary decision, which do not
depend on the machine.

    python benchmarks/bench_handend.py            # 1000 hands per ruleset, best of 5
    python benchmarks/bench_handend.py --quick    # 200 hands, best of 3
    python benchmarks/bench_handend.py --before mariage_before  # two versions, one run

``--before PKG`` replays the same hands, interleaved in the same runs, with
another copy of the package importable as ``PKG`` (an older version copied
under another name), and prints its table first.

``--own`` times instead the deck of the next deal from the interpreter's own
seeded generator (``SeededDeals.next_deal``: the shuffle of the canonical deck,
or a gathered pack cut), which ``new_match`` and ``mariage play`` deal from: per
ruleset, the median over 2000 decks of a stream, the lowest of the interleaved
runs, under each package.

    python benchmarks/bench_handend.py --own --before mariage_before

``--seeded`` times instead the ``apply`` that ends a hand of a match from ``new_match``
(the hand end, the seeded generator's next deck and its deal, as ``mariage play`` and
the AI environments see it): per ruleset, 600 hands of seeded random play recorded once
per package and replayed, the median of those calls, the lowest of the runs (the
packages alternating), in µs.

    python benchmarks/bench_handend.py --seeded --before mariage_before

``--parts`` splits the next deal of those hands, timed at each hand's end as above, in
replays of their own (one way of dealing each, interleaved): ``GameState.deal`` as a
caller deals; the same with the last hand's ``actions`` and ``tricks`` dropped before
the timer (what freeing them costs); the generated checked deal called straight (so
``deal`` less it is the method around it); the generated deal without the deck's check
(the one the seeded generator's decks take); the hands and the stock alone (the deal
plan's straight-line code; the state then dealt untimed). Per ruleset, in µs: the
method around the deal, the deck's check, the last hand freed, the other resets and the
opening of the first trick, the hands and the stock; and, over an ordinary decision, the
end of a hand and its *floor*: the hand end and the hands and stock alone (what the end
of a hand would cost with no check, no reset and nothing freed).

    python benchmarks/bench_handend.py --parts --quick [--before mariage_before] [RULESET ...]

``--minimal`` times the same way the hand-written engine of default Marianna
(``minimal_marianna.py``, no deck's check, no record) beside the reference's Marianna,
on the same decks (each engine's own random choices): the end of a hand of each over
its own ordinary decision.

    python benchmarks/bench_handend.py --minimal --quick
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mariage
from bench_playout import make_workload

#: the kinds of call timed
ORDINARY, TRICK, HAND, DEAL, LEGAL = range(5)
KINDS = ("ordinary apply", "trick end", "hand end", "next deal", "legal_actions()")


@dataclass
class Script:
    """A recorded playout: per hand, (first dealer or None for a new match, deck, first,
    actions with their kinds)."""

    rules: Any  # the Rules of ``package``
    package: ModuleType
    hands: list[tuple[int | None, list[int], int | None, list[tuple[Any, int]]]] = \
        field(default_factory=list)


def record(name: str, hands: int, seed: int, package: ModuleType = mariage) -> Script:
    """Play ``hands`` random hands of ruleset ``name`` (as ``bench_playout``) and note
    each action's kind; ``package``: the ``mariage`` package to run (another copy of
    it, to compare two versions in one process)."""
    rules = package.load_rules(name, {})
    work = make_workload(rules, hands, seed)
    randrange = random.Random(seed).randrange
    skip_last = 1 if rules.call_out_rule else 0
    script = Script(rules, package)
    state = package.GameState(rules, first_dealer=0)
    new: int | None = 0
    for i, deck in enumerate(work.decks):
        if state.terminal:
            new = i % work.nseats
            state = package.GameState(rules, first_dealer=new)
        state.deal(deck, work.firsts[i])
        acts: list[tuple[Any, int]] = []
        while state.to_act is not None:
            actions = state.legal_actions()
            if rules.claim_rule is not None:
                actions = [a for a in actions if type(a) is not package.Claim]
            action = actions[randrange(len(actions) - skip_last)]
            tricks = len(state.tricks)
            state.apply(action)
            if state.to_act is None:
                kind = HAND
            elif len(state.tricks) != tricks:
                kind = TRICK
            else:
                kind = ORDINARY
            acts.append((action, kind))
        script.hands.append((new, deck, work.firsts[i], acts))
        new = None
    return script


def timer_cost() -> int:
    """Nanoseconds of one pair of ``perf_counter_ns`` calls (the best of many)."""
    clock = time.perf_counter_ns
    best = 10**9
    for _ in range(2000):
        t = clock()
        u = clock()
        best = min(best, u - t)
    return best


def replay(script: Script, times: list[list[int]]) -> None:
    """Replay ``script`` once, appending each call's nanoseconds to ``times`` by kind."""
    clock = time.perf_counter_ns
    rules = script.rules
    make = script.package.GameState
    state = None
    deals, legals = times[DEAL], times[LEGAL]
    for new, deck, first, acts in script.hands:
        if new is not None:
            state = make(rules, first_dealer=new)
            state.deal(deck, first)
        else:
            assert state is not None
            t = clock()
            state.deal(deck, first)
            deals.append(clock() - t)
        apply, legal = state.apply, state.legal_actions
        for action, kind in acts:
            t = clock()
            legal()
            legals.append(clock() - t)
            t = clock()
            apply(action)
            times[kind].append(clock() - t)


def measure(script: Script, repeat: int, overhead: int, best: list[float],
            counts: list[int]) -> None:
    """Replay ``repeat`` times; keep in ``best`` the lowest median ns per call of each kind
    (and in ``counts`` the number of calls of each kind in one replay).

    The median, not the mean: on a shared machine a call during which the process
    lost its core takes many times its cost, and a mean would count that in.
    """
    for _ in range(repeat):
        times: list[list[int]] = [[] for _ in range(5)]
        gc.disable()
        try:
            replay(script, times)
        finally:
            gc.enable()
        counts[:] = [len(t) for t in times]
        for k in range(5):
            if times[k]:
                best[k] = min(best[k], statistics.median(times[k]) - overhead)


Results = list[tuple[str, list[float], list[int]]]


def own_decks(names: Sequence[str], repeat: int, seed: int,
              packages: Sequence[ModuleType]) -> dict[tuple[str, str], float]:
    """Per package and ruleset, the lowest median nanoseconds of ``next_deal()`` of the
    package's ``SeededDeals`` (2000 decks a run; runs interleaved by package)."""
    clock = time.perf_counter_ns
    best: dict[tuple[str, str], float] = {}
    for _ in range(repeat):
        for name in names:
            for p in packages:
                deals = p.SeededDeals(p.load_rules(name, {}), seed)
                step = deals.next_deal
                times = []
                gc.disable()
                for _ in range(2000):
                    t = clock()
                    step()
                    times.append(clock() - t)
                gc.enable()
                key = (p.__name__, name)
                best[key] = min(best.get(key, float("inf")), statistics.median(times))
    return best


def print_own(names: Sequence[str], repeat: int, seed: int,
              packages: Sequence[ModuleType]) -> None:
    """The table of :func:`own_decks` (and each package's over the first's)."""
    best = own_decks(names, repeat, seed, packages)
    print(f"the next deck from the seeded generator (SeededDeals.next_deal), µs, median of "
          f"2000, best of {repeat}")
    print(f"{'ruleset':<22}" + "".join(f"{p.__name__:>16}" for p in packages) +
          ("" if len(packages) < 2 else f"{'ratio':>8}"))
    for name in names:
        row = [best[p.__name__, name] / 1000 for p in packages]
        print(f"{name:<22}" + "".join(f"{x:>16.2f}" for x in row) +
              ("" if len(row) < 2 else f"{row[-1] / row[0]:>8.2f}"))


def seeded_script(package: ModuleType, name: str, hands: int, seed: int
                  ) -> tuple[Any, list[int], list[Any], set[int]]:
    """Random play of ``name``'s matches from ``new_match`` until ``hands`` hands have
    ended: the rules, the matches' seeds, the actions (``None`` where a new match
    starts) and the positions of those that ended a hand."""
    rules = package.load_rules(name, {})
    rng = random.Random(seed)
    skip_last = 1 if rules.call_out_rule else 0
    seeds = [rng.randrange(1 << 30)]
    state = package.new_match(rules, seeds[0])
    actions: list[Any] = []
    ends: set[int] = set()
    while len(ends) < hands:
        if state.terminal:
            seeds.append(rng.randrange(1 << 30))
            state = package.new_match(rules, seeds[-1])
            actions.append(None)
        legal = [a for a in state.legal_actions() if type(a) is not package.Claim]
        action = legal[rng.randrange(len(legal) - skip_last)]
        hand = state.hand_no
        state.apply(action)
        actions.append(action)
        if state.hand_no != hand:
            ends.add(len(actions) - 1)
    return rules, seeds, actions, ends


def seeded_ends(package: ModuleType, rules: Any, seeds: list[int], actions: list[Any],
                ends: set[int]) -> float:
    """Replay a :func:`seeded_script`: the median nanoseconds of the applies that end a
    hand (the next hand dealt by the seeded generator within them)."""
    clock = time.perf_counter_ns
    next_seed = iter(seeds)
    state = package.new_match(rules, next(next_seed))
    times = []
    gc.disable()
    try:
        for i, action in enumerate(actions):
            if action is None:
                state = package.new_match(rules, next(next_seed))
            elif i in ends:
                t = clock()
                state.apply(action)
                times.append(clock() - t)
            else:
                state.apply(action)
    finally:
        gc.enable()
    return statistics.median(times)


def print_seeded(names: Sequence[str], repeat: int, seed: int,
                 packages: Sequence[ModuleType]) -> None:
    """The table of the applies that end a hand of a seeded match (see above)."""
    print(f"the apply that ends a hand of a seeded match (the next hand dealt in it), µs, "
          f"median of 600, best of {repeat}")
    print(f"{'ruleset':<22}" + "".join(f"{p.__name__:>16}" for p in packages) +
          ("" if len(packages) < 2 else f"{'after - before':>16}"))
    for name in names:
        scripts = {p.__name__: seeded_script(p, name, 600, seed) for p in packages}
        best = {p.__name__: float("inf") for p in packages}
        for k in range(repeat):
            for p in (packages if k % 2 else packages[::-1]):
                best[p.__name__] = min(best[p.__name__], seeded_ends(p, *scripts[p.__name__]))
        row = [best[p.__name__] / 1000 for p in packages]
        print(f"{name:<22}" + "".join(f"{x:>16.2f}" for x in row) +
              ("" if len(row) < 2 else f"{row[-1] - row[0]:>+16.2f}"))


#: the ways of dealing the next hand that ``--parts`` times, each in replays of its own
PART_WAYS = ("deal", "freed first", "checked", "unchecked", "hands and stock")


def _plan_lays(script: Script) -> tuple[Any, ...]:
    """The deal plan's code of the hands and the stock alone, by the seat that takes the
    first packet (``()`` where the package has none)."""
    try:
        dealing = importlib.import_module(f"{script.package.__name__}.engine.mechanisms.dealing")
        return tuple(dealing._deal_plan(script.rules).lay)
    except (ImportError, AttributeError):
        return ()


def part_replay(script: Script, way: int, plan: Sequence[Any], times: list[list[int]]) -> Any:
    """Replay ``script`` once as :func:`replay` does, but deal each next hand the ``way``-th
    of :data:`PART_WAYS` (timed; a way that leaves the hand undealt is followed by
    ``deal``, untimed); the last state (each way plays the same game)."""
    clock = time.perf_counter_ns
    rules = script.rules
    make = script.package.GameState
    nseats = rules.nseats
    state = None
    deals, legals = times[DEAL], times[LEGAL]
    for new, deck, first, acts in script.hands:
        if new is not None:
            state = make(rules, first_dealer=new)
            state.deal(deck, first)
        else:
            assert state is not None
            dealer = state.dealer
            at = -1 if dealer is None else dealer
            if way == 0:
                t = clock()
                state.deal(deck, first)
                deals.append(clock() - t)
            elif way == 1:
                state.actions, state.tricks = [], []
                t = clock()
                state.deal(deck, first)
                deals.append(clock() - t)
            elif way == 4:
                lay = plan[0 if dealer is None else (dealer + 1) % nseats]
                t = clock()
                lay(state, deck, dealer)
                deals.append(clock() - t)
                state.deal(deck, first)
            else:
                step = (state._deals if way == 2 else state._lays)[at]
                t = clock()
                done = step(state, deck, dealer, first)
                deals.append(clock() - t)
                if way == 2 and not done:
                    raise SystemExit(f"{script.package.__name__}: the checked deal refused a deck")
        apply, legal = state.apply, state.legal_actions
        for action, kind in acts:
            t = clock()
            legal()
            legals.append(clock() - t)
            t = clock()
            apply(action)
            times[kind].append(clock() - t)
    return state


def print_parts(names: Sequence[str], hands: int, repeat: int, seed: int,
                packages: Sequence[ModuleType]) -> None:
    """The table of the next deal's parts (see the module's text), per package."""
    overhead = timer_cost()
    rows: dict[tuple[str, str], list[list[float]]] = {}
    scripts = {(p.__name__, n): record(n, hands, seed, p) for p in packages for n in names}
    plans = {k: _plan_lays(s) for k, s in scripts.items()}
    for _ in range(repeat):
        for n in names:
            for p in packages:
                k = (p.__name__, n)
                script = scripts[k]
                probe = script.package.GameState(script.rules, first_dealer=0)
                ways = range(5) if probe._deals and probe._lays and plans[k] else range(2)
                best = rows.setdefault(k, [[float("inf")] * 5 for _ in PART_WAYS])
                for way in ways:
                    times: list[list[int]] = [[] for _ in range(5)]
                    gc.disable()
                    try:
                        part_replay(script, way, plans[k], times)
                    finally:
                        gc.enable()
                    for kind in range(5):
                        if times[kind]:
                            best[way][kind] = min(best[way][kind],
                                                  statistics.median(times[kind]) - overhead)
    print(f"the next deal's parts: {hands} hands per ruleset, best of {repeat} medians, seed "
          f"{seed}, µs (decision, end, floor: over an ordinary decision)")
    for p in packages:
        if len(packages) > 1:
            print(f"\n{p.__name__}:")
        head = (f"{'ruleset':<22}{'decision':>9}{'hand end':>9}{'deal':>7}{'method':>8}"
                f"{'check':>7}{'freed':>7}{'resets':>8}{'hands':>7}{'end/dec':>9}"
                f"{'floor/dec':>10}")
        print(head)
        print("-" * len(head))
        for n in names:
            b = rows[p.__name__, n]
            deal, freed_first, checked, unchecked, laid = (b[w][DEAL] / 1000 for w in range(5))
            dec = min(b[w][ORDINARY] + b[w][LEGAL] for w in range(5)) / 1000
            end = min(b[w][HAND] for w in range(5)) / 1000
            freed = deal - freed_first
            parts = [deal - checked, checked - unchecked, freed, unchecked - laid - freed, laid]
            shown = "".join(f"{x:>{w}.2f}" if x == x and abs(x) != float("inf") else f"{'-':>{w}}"
                            for x, w in zip(parts, (8, 7, 7, 8, 7), strict=True))
            floor = f"{(end + laid) / dec:>10.2f}" if laid != float("inf") else f"{'-':>10}"
            print(f"{n:<22}{dec:>9.2f}{end:>9.2f}{deal:>7.2f}{shown}{(end + deal) / dec:>9.2f}"
                  f"{floor}")
    print("method: GameState.deal around the generated deal; check: the deck's check; freed: "
          "the last hand's actions and tricks\nfreed; resets: the rest of the new hand's "
          "fields and the first trick's opening; hands: the hands and the stock\nalone; "
          "floor: the hand end and the hands and stock alone, over a decision")


#: a recorded playout of the minimal engine: per hand (first dealer or None, deck, actions
#: with their kinds)
MinimalScript = list[tuple[int | None, list[int], list[tuple[int, int]]]]


def minimal_script(hands: int, seed: int) -> MinimalScript:
    """Random play of the minimal engine (``minimal_marianna.py``) on the decks of
    :func:`record`'s Marianna, each action noted with its kind (as :func:`record`)."""
    from minimal_marianna import MinimalMarianna

    work = make_workload(mariage.load_rules("marianna", {}), hands, seed)
    randrange = random.Random(seed).randrange
    game = MinimalMarianna(first_dealer=0)
    out: MinimalScript = []
    new: int | None = 0
    for i, deck in enumerate(work.decks):
        if game.terminal:
            new = i % work.nseats
            game = MinimalMarianna(first_dealer=new)
        game.deal(deck)
        acts = []
        while game.to_act is not None:
            actions = game.legal_actions()
            action = actions[randrange(len(actions))]
            trick = game.trick_no
            game.apply(action)
            kind = HAND if game.to_act is None else TRICK if game.trick_no != trick else ORDINARY
            acts.append((action, kind))
        out.append((new, deck, acts))
        new = None
    return out


def minimal_replay(script: MinimalScript, times: list[list[int]]) -> None:
    """:func:`replay` of a :func:`minimal_script`."""
    from minimal_marianna import MinimalMarianna

    clock = time.perf_counter_ns
    game = None
    for new, deck, acts in script:
        if new is not None:
            game = MinimalMarianna(first_dealer=new)
            game.deal(deck)
        else:
            assert game is not None
            t = clock()
            game.deal(deck)
            times[DEAL].append(clock() - t)
        apply, legal = game.apply, game.legal_actions
        for action, kind in acts:
            t = clock()
            legal()
            times[LEGAL].append(clock() - t)
            t = clock()
            apply(action)
            times[kind].append(clock() - t)


def print_minimal(hands: int, repeat: int, seed: int) -> None:
    """The end of a hand of the minimal engine and of the reference's Marianna, each over
    its own ordinary decision (runs interleaved, best medians)."""
    minimal = minimal_script(hands, seed)
    reference = record("marianna", hands, seed)
    overhead = timer_cost()
    best = {"minimal": [float("inf")] * 5, "reference": [float("inf")] * 5}
    counts = [0] * 5
    for _ in range(repeat):
        times: list[list[int]] = [[] for _ in range(5)]
        gc.disable()
        try:
            minimal_replay(minimal, times)
        finally:
            gc.enable()
        for kind in range(5):
            best["minimal"][kind] = min(best["minimal"][kind],
                                        statistics.median(times[kind]) - overhead)
        measure(reference, 1, overhead, best["reference"], counts)
    print(f"default Marianna, the minimal engine and the reference: {hands} hands, best of "
          f"{repeat} medians, seed {seed}, µs")
    head = (f"{'engine':<12}{'apply':>7}{'legal':>7}{'trick end':>10}{'hand end':>9}"
            f"{'next deal':>10}{'end/dec':>9}{'hand end/dec':>13}{'deal/dec':>9}")
    print(head)
    print("-" * len(head))
    for name, ns in best.items():
        dec = ns[ORDINARY] + ns[LEGAL]
        print(f"{name:<12}{ns[ORDINARY] / 1000:>7.2f}{ns[LEGAL] / 1000:>7.2f}"
              f"{ns[TRICK] / 1000:>10.2f}{ns[HAND] / 1000:>9.2f}{ns[DEAL] / 1000:>10.2f}"
              f"{(ns[HAND] + ns[DEAL]) / dec:>9.2f}{ns[HAND] / dec:>13.2f}{ns[DEAL] / dec:>9.2f}")


def run(names: Sequence[str], hands: int, repeat: int, seed: int,
        packages: Sequence[ModuleType] = (mariage,)) -> list[Results]:
    """Per package and ruleset, the best median nanoseconds of each kind of call
    (runs interleaved: each repeat replays every ruleset under every package) and the
    number of calls of each kind."""
    keys = [(p.__name__, n) for p in packages for n in names]
    scripts = {(p.__name__, n): record(n, hands, seed, p) for p in packages for n in names}
    overhead = timer_cost()
    best = {k: [float("inf")] * 5 for k in keys}
    counts = {k: [0] * 5 for k in keys}
    for _ in range(repeat):
        for n in names:
            for p in packages:
                k = (p.__name__, n)
                measure(scripts[k], 1, overhead, best[k], counts[k])
    return [[(n, best[p.__name__, n], counts[p.__name__, n]) for n in names]
            for p in packages]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 hands, best of 3")
    parser.add_argument("--hands", type=int, default=None, help="hands per ruleset (1000)")
    parser.add_argument("--repeat", type=int, default=None, help="timed runs, best kept (5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", metavar="PKG", default=None,
                        help="also replay under this copy of the package (an older version)")
    parser.add_argument("--own", action="store_true",
                        help="time the seeded generator's next deck instead (see above)")
    parser.add_argument("--seeded", action="store_true",
                        help="time the hand end of seeded matches instead (see above)")
    parser.add_argument("--parts", action="store_true",
                        help="split the next deal into its parts instead (see above)")
    parser.add_argument("--minimal", action="store_true",
                        help="the minimal engine's end of a hand beside Marianna's instead")
    parser.add_argument("rulesets", nargs="*", help="default: every bundled ruleset")
    args = parser.parse_args(argv)
    hands = args.hands or (200 if args.quick else 1000)
    repeat = args.repeat or (3 if args.quick else 5)
    names = args.rulesets or mariage.list_rulesets()
    cpu = time.process_time()
    packages = [mariage] if args.before is None else \
        [importlib.import_module(args.before), mariage]
    if args.seeded:
        print_seeded(names, args.repeat or 7, args.seed, packages)
        print(f"CPU time of the whole run: {time.process_time() - cpu:.1f} s")
        return 0
    if args.parts:
        print_parts(names, hands, repeat, args.seed, packages)
        print(f"CPU time of the whole run: {time.process_time() - cpu:.1f} s")
        return 0
    if args.minimal:
        print_minimal(hands, repeat, args.seed)
        print(f"CPU time of the whole run: {time.process_time() - cpu:.1f} s")
        return 0
    if args.own:
        print_own(names, repeat, args.seed, packages)
        print(f"CPU time of the whole run: {time.process_time() - cpu:.1f} s")
        return 0
    tables = run(names, hands, repeat, args.seed, packages)
    print(f"end of hand against an ordinary decision: {hands} hands per ruleset, best of "
          f"{repeat}, seed {args.seed}, Python {sys.version.split()[0]}")
    for package, results in zip(packages, tables, strict=True):
        if len(packages) > 1:
            print(f"\n{package.__name__}:")
        head = (f"{'ruleset':<22}{'apply µs':>9}{'trick end':>10}{'hand end':>9}"
                f"{'next deal':>10}{'end of hand':>12}{'/decision':>10}{'hand end/dec':>13}"
                f"{'share':>7}{'end µs':>8}")
        print(head)
        print("-" * len(head))
        for name, ns, counts in results:
            base = ns[ORDINARY]
            end = ns[HAND] + ns[DEAL]
            per_hand = sum(ns[k] * counts[k] for k in range(5)) / counts[HAND]
            print(f"{name:<22}{base / 1000:>9.2f}{ns[TRICK] / base:>10.2f}"
                  f"{ns[HAND] / base:>9.2f}{ns[DEAL] / base:>10.2f}{end / base:>12.2f}"
                  f"{end / (base + ns[LEGAL]):>10.2f}{ns[HAND] / (base + ns[LEGAL]):>13.2f}"
                  f"{end / per_hand:>7.0%}{end / 1000:>8.2f}")
    print("apply µs: an ordinary apply (not ending a trick or the hand); the next columns: "
          "median cost as a ratio to it;\nend of hand = hand end + next deal; /decision: the "
          "end of hand over an ordinary decision\n(legal_actions() + apply); hand end/dec: "
          "the hand end alone (the apply that ends the hand) over that decision;\nshare: its part "
          "of a whole hand's calls (legal_actions() included); end µs: the end of hand in µs")
    print(f"CPU time of the whole run: {time.process_time() - cpu:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
