"""What search costs: clone, undo and a clone-then-playout step, against hand-written code.

The positions are mid-hand states of default Marianna, reached by seeded
random play from seeded deals; the reference states deal their next hands
from a :class:`~mariage.engine.deals.SeededDeals` stream, as ``mariage.new_match``
makes them, so a clone copies that stream too. The minimal hand-written
engine (``minimal_marianna.py``, with its hand-written ``clone``,
``snapshot`` and ``restore``) reaches the very same positions by the same
choices (``tests/test_benchmark_agreement.py`` checks that both engines play
alike). Everything is timed in one process, interleaved, in chunks of 20
positions with the best of ``--repeat`` kept per chunk, and reported as
ratios:

* **clone** (each position copied 20 times in a row, as a search copies its
  root): the reference ``clone()`` against the implementation it replaced
  (a loop over the slots with ``getattr``/``setattr`` and a ``deepcopy`` of
  the deal stream, kept below as :func:`previous_clone`, given the deal
  source as it then was: a plain object, not a slotted one) and against the
  minimal engine's hand-written copy;
* **undo**: ``undo()`` of one action, against the minimal engine's
  ``restore`` of a snapshot; and one *apply + undo* step with undo on
  (the journal entry is a snapshot), against *clone + apply*;
* **clone-then-playout**: clone the position, then play random actions to
  the end of the hand, against the same with the minimal engine (here the
  reference positions have no deal source, as in a search that stops at the
  end of the hand; the minimal engine has none either); and the same
  playouts made with undo on and taken back to the position by ``undo()``
  (*playout+undo*), as a search built on undo does, or by one ``undo_to``
  of a ``mark()`` made at the position (*playout+undo_to*), the journal on or
  with undo for marks only (``enable_undo(marks_only=True)``: no journal, a
  record per mark; each state fresh in each timed run, so every playout pays
  one record);
* **lines**: ``n`` random actions from each position (1, 2, 4, 8, 16; fewer
  where the hand ends first) taken back by ``undo_to`` a mark, against the
  same line played on a clone: the length up to which undo pays;
* **apply** alone (undo off), the base of *apply+undo*; and the minimal engine's own
  apply alone, the base of its *apply+undo* (a snapshot before, a restore after: the
  cheapest undo written by hand for this one ruleset).

Usage::

    python benchmarks/bench_search.py            # 400 positions, best of 15
    python benchmarks/bench_search.py --quick    # 100 positions, best of 5
    python benchmarks/bench_search.py --quick --rulesets   # every ruleset (or those named)

``--rulesets`` measures, per ruleset, on play-phase states of its own
(reached by seeded random play): *apply+undo* over *apply* alone, and
*playout+undo_to* over *clone+playout* (with the journal, and for marks
only). With ``--kinds`` it splits *apply* and *apply+undo* by the kind of
action taken (a card within its trick, the last card of a trick, the hand's
last card, any other action), as the undo journal treats them differently (a
trail or a snapshot)::

    python benchmarks/bench_search.py --quick --rulesets marianna mariazza --kinds

With ``--per-root K`` each position is played out ``K`` times in a row, as a search
plays from its root, instead of once in turn with the others (where 100 kept states
played in turn outgrow a core's cache: see benchmarks/history/search.md, "why marks only loses
by time what it wins in instructions")::

    python benchmarks/bench_search.py --quick --rulesets marjapussi --per-root 16
"""

from __future__ import annotations

import argparse
import copy
import gc
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import mariage
from mariage.engine.deals import SeededDeals
from minimal_marianna import MinimalMarianna

#: the clone must be at least this many times faster than the one it replaced
TARGET_CLONE_SPEEDUP = 5.0


def previous_clone(self: mariage.GameState) -> mariage.GameState:
    """The clone() this project had before (commit ca9d461), for the speedup."""
    new = mariage.GameState.__new__(type(self))
    for name in mariage.GameState.__slots__:
        if name == "_undo":  # the slot came with undo; the old code had no such slot
            new._undo = None
            continue
        v = getattr(self, name)
        if isinstance(v, list):
            v = [x[:] if isinstance(x, list) else x for x in v]
        setattr(new, name, v)
    if self.deal_source is not None:
        new.deal_source = copy.deepcopy(self.deal_source, {id(self.rules): self.rules})
    return new


class _OldDeals:
    """The deal source as it was before it had slots (a plain object, so a plain deepcopy)."""

    def __init__(self, deals: SeededDeals) -> None:
        self.rules = deals.rules
        self.rng = deals.rng
        self.first_dealer = deals.first_dealer

    def next_deal(self, state: object = None) -> tuple[list[int], int | None]:
        """The next deal, as :class:`SeededDeals` gives it (the copy is what is timed)."""
        return SeededDeals.next_deal(self)  # type: ignore[arg-type]


@dataclass
class Positions:
    """The same positions in both engines, with the action to take in each."""

    reference: list[mariage.GameState]
    minimal: list[MinimalMarianna]
    hand_only: list[mariage.GameState]  # the reference positions without a deal source
    previous: list[mariage.GameState]  # with the deal source as the previous clone() knew it
    actions: list[tuple[mariage.Action, int]]  # (reference action, minimal action)


def make_positions(count: int, seed: int) -> Positions:
    """``count`` mid-hand positions of default Marianna, each from its own seeded deal."""
    rules = mariage.load_rules("marianna", {})
    ref_states: list[mariage.GameState] = []
    min_states: list[MinimalMarianna] = []
    actions: list[tuple[mariage.Action, int]] = []
    for i in range(count):
        rng = random.Random(seed * 1_000_003 + i)
        ref = mariage.new_match(rules, seed * 1_000_003 + i)
        deals = SeededDeals(rules, seed * 1_000_003 + i)
        deck, _ = deals.next_deal()
        assert deals.first_dealer is not None
        mini = MinimalMarianna(deals.first_dealer)
        mini.deal(deck)
        for _ in range(rng.randrange(0, 36)):
            ref_acts, min_acts = ref.legal_actions(), mini.legal_actions()
            assert len(ref_acts) == len(min_acts), "the engines disagree"
            k = rng.randrange(len(ref_acts))
            ref.apply(ref_acts[k])
            mini.apply(min_acts[k])
        ref_acts, min_acts = ref.legal_actions(), mini.legal_actions()
        k = rng.randrange(len(ref_acts))
        ref_states.append(ref)
        min_states.append(mini)
        actions.append((ref_acts[k], min_acts[k]))
    hand_only = [s.clone() for s in ref_states]
    for s in hand_only:
        s.deal_source = None
    previous = [s.clone() for s in ref_states]
    for s in previous:
        assert isinstance(s.deal_source, SeededDeals)
        s.deal_source = _OldDeals(s.deal_source)
    return Positions(ref_states, min_states, hand_only, previous, actions)


def timed(run: Callable[[], Any]) -> float:
    """Seconds taken by ``run()``, with the cyclic garbage collector off (as ``timeit`` does;
    no collection before either: in a big process, such as a test run, one costs seconds)."""
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


#: copies made of each position in a row, as a search copies its root again and again
INNER = 20


def bench_clone(pos: Positions) -> dict[str, Callable[[], float]]:
    ref, mini = pos.reference, pos.minimal
    inner = range(INNER)

    # each copy is dropped at once, as a search drops a playout's copy
    def new() -> float:
        def run() -> None:
            for s in ref:
                for _ in inner:
                    s.clone()
        return timed(run) / INNER

    def old() -> float:
        def run() -> None:
            for s in pos.previous:
                for _ in inner:
                    previous_clone(s)
        return timed(run) / INNER

    def hand() -> float:
        def run() -> None:
            for m in mini:
                for _ in inner:
                    m.clone()
        return timed(run) / INNER

    return {"clone (reference)": new, "clone (previous)": old, "clone (minimal)": hand}


def bench_undo(pos: Positions) -> dict[str, Callable[[], float]]:
    def ref_undo() -> float:
        states = []
        for s, (a, _) in zip(pos.reference, pos.actions, strict=True):
            c = s.clone()
            c.enable_undo()
            c.apply(a)
            states.append(c)
        return timed(lambda: [c.undo() for c in states])

    def min_undo() -> float:
        pairs = []
        for m, (_, a) in zip(pos.minimal, pos.actions, strict=True):
            c = m.clone()
            snap = c.snapshot()
            c.apply(a)
            pairs.append((c, snap))
        return timed(lambda: [c.restore(snap) for c, snap in pairs])

    def ref_apply_undo() -> float:
        states = []
        for s in pos.reference:
            c = s.clone()
            c.enable_undo()
            states.append(c)
        acts = [a for a, _ in pos.actions]

        def run() -> None:
            for c, a in zip(states, acts, strict=True):
                c.apply(a)
                c.undo()
        return timed(run)

    def ref_apply() -> float:
        states = [s.clone() for s in pos.reference]  # undo off
        acts = [a for a, _ in pos.actions]

        def run() -> None:
            for c, a in zip(states, acts, strict=True):
                c.apply(a)
        return timed(run)

    def ref_clone_apply() -> float:
        acts = [a for a, _ in pos.actions]

        def run() -> None:
            for s, a in zip(pos.reference, acts, strict=True):
                s.clone().apply(a)
        return timed(run)

    def min_apply() -> float:
        states = [m.clone() for m in pos.minimal]
        acts = [a for _, a in pos.actions]

        def run() -> None:
            for c, a in zip(states, acts, strict=True):
                c.apply(a)
        return timed(run)

    def min_apply_undo() -> float:
        states = [m.clone() for m in pos.minimal]
        acts = [a for _, a in pos.actions]

        def run() -> None:
            for c, a in zip(states, acts, strict=True):
                snap = c.snapshot()
                c.apply(a)
                c.restore(snap)
        return timed(run)

    return {"undo (reference)": ref_undo, "undo (minimal restore)": min_undo,
            "apply (reference)": ref_apply,
            "apply+undo (reference)": ref_apply_undo,
            "clone+apply (reference)": ref_clone_apply,
            "apply (minimal)": min_apply, "apply+undo (minimal)": min_apply_undo}


def play_out(state: Any, randrange: Callable[[int], int], most: int = -1) -> int:
    """Random legal actions on ``state`` until its hand ends (or ``most`` are made);
    how many were made."""
    made = 0
    while state.to_act is not None and made != most:
        acts = state.legal_actions()
        state.apply(acts[randrange(len(acts))])
        made += 1
    return made


def bench_playout(pos: Positions, seed: int) -> dict[str, Callable[[], float]]:
    def ref_run() -> float:
        randrange = random.Random(seed).randrange

        def run() -> None:
            for s in pos.hand_only:
                c = s.clone()
                play_out(c, randrange)
        return timed(run)

    def min_run() -> float:
        randrange = random.Random(seed).randrange

        def run() -> None:
            for m in pos.minimal:
                c = m.clone()
                play_out(c, randrange)
        return timed(run)

    def ref_undo_run() -> float:
        randrange = random.Random(seed).randrange
        states = [s.clone() for s in pos.hand_only]
        for c in states:
            c.enable_undo()

        def run() -> None:
            for c in states:
                for _ in range(play_out(c, randrange)):  # back, as a search does
                    c.undo()
        return timed(run)

    def ref_mark_run() -> float:
        randrange = random.Random(seed).randrange
        states = [s.clone() for s in pos.hand_only]

        def run() -> None:
            for c in states:
                mark = c.mark()
                play_out(c, randrange)
                c.undo_to(mark)  # back to the position in one call
        return timed(run)

    def ref_marks_run() -> float:
        randrange = random.Random(seed).randrange
        states = [s.clone() for s in pos.hand_only]
        for c in states:
            c.enable_undo(marks_only=True)

        def run() -> None:
            for c in states:
                mark = c.mark()
                play_out(c, randrange)
                c.undo_to(mark)  # back to the position from the mark's record
        return timed(run)

    return {"clone+playout (reference)": ref_run, "playout+undo (reference)": ref_undo_run,
            "playout+undo_to (reference)": ref_mark_run,
            "playout+undo_to (marks only)": ref_marks_run,
            "clone+playout (minimal)": min_run}


#: lengths of the lines played from each position by ``bench_lines``
LINES = (1, 2, 4, 8, 16)


def bench_lines(pos: Positions, seed: int) -> dict[str, Callable[[], float]]:
    """A line of ``n`` random actions from each position (or fewer, where the hand ends
    first), taken back by ``undo_to`` a mark or played on a clone: where undo pays."""
    def line(n: int, by_undo: bool) -> Callable[[], float]:
        def measure() -> float:
            randrange = random.Random(seed).randrange
            states = [s.clone() for s in pos.hand_only]
            for c in states:
                c.enable_undo()

            def run() -> None:
                for s in states:
                    if by_undo:
                        c, mark = s, s.mark()
                    else:
                        c = s.clone()
                    play_out(c, randrange, n)
                    if by_undo:
                        c.undo_to(mark)
            return timed(run)
        return measure

    out: dict[str, Callable[[], float]] = {}
    for n in LINES:
        out[f"line {n}: clone (reference)"] = line(n, False)
        out[f"line {n}: undo_to (reference)"] = line(n, True)
    return out


def run_all(positions: int, repeat: int, seed: int, chunk: int = 20) -> dict[str, float]:
    """Best time per position (seconds) of every measure.

    The positions are timed in chunks of ``chunk``; each chunk keeps its best
    of ``repeat`` interleaved runs, and the chunks' bests are added up, so a
    moment when the machine is busy spoils one chunk's run, not the figure.
    """
    pos = make_positions(positions, seed)
    chunks = [Positions(pos.reference[i:i + chunk], pos.minimal[i:i + chunk],
                        pos.hand_only[i:i + chunk], pos.previous[i:i + chunk],
                        pos.actions[i:i + chunk])
              for i in range(0, positions, chunk)]
    total: dict[str, float] = {}
    for part in chunks:
        measures = {**bench_clone(part), **bench_undo(part), **bench_playout(part, seed),
                    **bench_lines(part, seed)}
        best = dict.fromkeys(measures, float("inf"))
        for _ in range(repeat):
            for name, run in measures.items():
                best[name] = min(best[name], run())
        for name, t in best.items():
            total[name] = total.get(name, 0.0) + t
    return {name: t / positions for name, t in total.items()}


def line_ratio(us: dict[str, float], n: int) -> float:
    """A line of ``n`` actions taken back by ``undo_to``, over the same line on a clone."""
    return us[f"line {n}: undo_to (reference)"] / us[f"line {n}: clone (reference)"]


def render(best: dict[str, float], positions: int, repeat: int) -> str:
    us = {k: v * 1e6 for k, v in best.items()}
    lines = [f"{'measure':<28}{'us per position':>16}", "-" * 44]
    lines += [f"{k:<28}{v:>16.2f}" for k, v in us.items()]
    speedup = us["clone (previous)"] / us["clone (reference)"]
    verdict = "meets" if speedup >= TARGET_CLONE_SPEEDUP else "misses"
    lines += [
        "",
        f"clone speedup over the previous clone(): {speedup:.1f}x "
        f"({verdict} the target {TARGET_CLONE_SPEEDUP:g}x)",
        f"clone: reference / hand-written cost: "
        f"{us['clone (reference)'] / us['clone (minimal)']:.1f}x "
        f"(previous: {us['clone (previous)'] / us['clone (minimal)']:.1f}x)",
        f"undo: reference / hand-written restore cost: "
        f"{us['undo (reference)'] / us['undo (minimal restore)']:.1f}x",
        f"apply+undo / clone+apply (reference): "
        f"{us['apply+undo (reference)'] / us['clone+apply (reference)']:.2f}",
        f"apply+undo / apply alone (reference): "
        f"{us['apply+undo (reference)'] / us['apply (reference)']:.2f}",
        f"apply+undo / apply alone (hand-written snapshot and restore): "
        f"{us['apply+undo (minimal)'] / us['apply (minimal)']:.2f}",
        f"playout+undo back / clone+playout (reference): "
        f"{us['playout+undo (reference)'] / us['clone+playout (reference)']:.2f}",
        f"playout+undo_to(mark) / clone+playout (reference): "
        f"{us['playout+undo_to (reference)'] / us['clone+playout (reference)']:.2f}",
        f"playout+undo_to(mark), marks only / clone+playout (reference): "
        f"{us['playout+undo_to (marks only)'] / us['clone+playout (reference)']:.2f}",
        "a line of n actions taken back by undo_to / played on a clone (reference): "
        + ", ".join(f"n={n} {line_ratio(us, n):.2f}" for n in LINES),
        f"apply+undo: reference / hand-written cost: "
        f"{us['apply+undo (reference)'] / us['apply+undo (minimal)']:.1f}x",
        f"clone+playout: reference / hand-written cost: "
        f"{us['clone+playout (reference)'] / us['clone+playout (minimal)']:.2f}x "
        f"(speed ratio {us['clone+playout (minimal)'] / us['clone+playout (reference)']:.3f})",
        f"({positions} positions, best of {repeat})",
    ]
    return "\n".join(lines)


def ruleset_positions(name: str, count: int, seed: int) -> list[tuple[mariage.GameState,
                                                                       mariage.Action]]:
    """``count`` states of ``name`` in the play phase (seeded deals, 0 to 40 random actions
    into the match, kept where a card or an offer is to be chosen), without a deal source,
    each with a random legal action."""
    rules = mariage.load_rules(name, {})
    out: list[tuple[mariage.GameState, mariage.Action]] = []
    i = 0
    while len(out) < count:
        rng = random.Random(seed * 1_000_003 + i)
        state = mariage.new_match(rules, seed * 1_000_003 + i)
        i += 1
        for _ in range(rng.randrange(0, 41)):
            if state.terminal:
                break
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
        if state.terminal or state.phase != mariage.Phase.PLAY:
            continue
        state.deal_source = None  # a search that stops at the end of the hand
        acts = state.legal_actions()
        out.append((state, acts[rng.randrange(len(acts))]))
    return out


def bench_ruleset(pairs: list[tuple[mariage.GameState, mariage.Action]],
                  seed: int, per_root: int = 1) -> dict[str, Callable[[], float]]:
    """apply alone, apply+undo, clone+playout and playout+undo_to on one ruleset's states
    (``per_root`` playouts from each state in a row, as a search plays them from its
    root)."""
    def step(by_undo: bool) -> float:
        states = [(s.clone(), a) for s, a in pairs]
        for c, _ in states:
            if by_undo:
                c.enable_undo()

        def run() -> None:
            for c, a in states:
                c.apply(a)
                if by_undo:
                    c.undo()
        return timed(run)

    def playout(by_undo: bool, marks_only: bool = False) -> float:
        randrange = random.Random(seed).randrange
        states = [s.clone() for s, _ in pairs]
        for c in states:
            if marks_only:
                c.enable_undo(marks_only=True)

        def run() -> None:
            for s in states:
                for _ in range(per_root):
                    if by_undo:
                        c, mark = s, s.mark()
                    else:
                        c = s.clone()
                    while c.to_act is not None and not c.terminal:
                        acts = c.legal_actions()
                        c.apply(acts[randrange(len(acts))])
                    if by_undo:
                        c.undo_to(mark)
        return timed(run)

    return {"apply": lambda: step(False), "apply+undo": lambda: step(True),
            "clone+playout": lambda: playout(False), "playout+undo_to": lambda: playout(True),
            "marks only": lambda: playout(True, True)}


#: the kinds of action that ``--kinds`` times apart, in the order shown
KINDS = ("card in trick", "trick's end", "hand's last card", "other")


def action_kind(state: mariage.GameState, action: mariage.Action) -> str:
    """Which of :data:`KINDS` ``action`` is in ``state`` (a play-phase state)."""
    if type(action) is not mariage.Play:
        return "other"
    if len(state.trick_cards) + 1 < state.rules.hand_seats:
        return "card in trick"
    return "hand's last card" if state.trick_no >= state._tricks_per_hand else "trick's end"


def run_kinds(names: list[str], positions: int, repeat: int, seed: int
              ) -> dict[tuple[str, str], tuple[int, float, float]]:
    """Per ruleset and kind of action: how many states, and the best of ``repeat``
    interleaved runs of apply and apply+undo (seconds per state)."""
    out: dict[tuple[str, str], tuple[int, float, float]] = {}
    for name in names:
        groups: dict[str, list[tuple[mariage.GameState, mariage.Action]]] = {}
        for state, action in ruleset_positions(name, positions, seed):
            groups.setdefault(action_kind(state, action), []).append((state, action))
        for kind in (k for k in KINDS if k in groups):
            pairs = groups[kind]
            measures = bench_ruleset(pairs, seed)
            apply = undo = float("inf")
            for _ in range(repeat):
                apply = min(apply, measures["apply"]())
                undo = min(undo, measures["apply+undo"]())
            out[name, kind] = (len(pairs), apply / len(pairs), undo / len(pairs))
    return out


def render_kinds(table: dict[tuple[str, str], tuple[int, float, float]], positions: int,
                 repeat: int) -> str:
    lines = [f"{'ruleset':<24}{'kind of action':<18}{'states':>7}{'apply us':>10}"
             f"{'apply+undo us':>15}{'ratio':>7}", "-" * 81]
    for (name, kind), (count, apply, undo) in table.items():
        lines.append(f"{name:<24}{kind:<18}{count:>7}{apply * 1e6:>10.2f}{undo * 1e6:>15.2f}"
                     f"{undo / apply:>7.2f}")
    lines.append(f"({positions} play-phase states per ruleset, best of {repeat})")
    return "\n".join(lines)


def run_rulesets(names: list[str], positions: int, repeat: int, seed: int,
                 per_root: int = 1) -> dict[str, dict[str, float]]:
    """Per ruleset, the best of ``repeat`` interleaved runs of each measure (seconds per
    position; the playouts' ``per_root`` from a position together)."""
    out: dict[str, dict[str, float]] = {}
    for name in names:
        pairs = ruleset_positions(name, positions, seed)
        measures = bench_ruleset(pairs, seed, per_root)
        best = dict.fromkeys(measures, float("inf"))
        for _ in range(repeat):
            for key, run in measures.items():
                best[key] = min(best[key], run())
        out[name] = {key: t / positions for key, t in best.items()}
    return out


def render_rulesets(table: dict[str, dict[str, float]], positions: int, repeat: int) -> str:
    lines = [f"{'ruleset':<24}{'apply us':>9}{'apply+undo/apply':>18}"
             f"{'playout+undo_to/clone+playout':>31}{'marks only':>12}", "-" * 94]
    for name, us in table.items():
        lines.append(f"{name:<24}{us['apply'] * 1e6:>9.2f}"
                     f"{us['apply+undo'] / us['apply']:>18.2f}"
                     f"{us['playout+undo_to'] / us['clone+playout']:>31.2f}"
                     f"{us['marks only'] / us['clone+playout']:>12.2f}")
    lines.append(f"({positions} play-phase states per ruleset, best of {repeat})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 positions, best of 5")
    parser.add_argument("--positions", type=int, default=None, help="positions (400)")
    parser.add_argument("--repeat", type=int, default=None, help="timed runs, best kept (15)")
    parser.add_argument("--seed", type=int, default=1, help="seed of deals and choices")
    parser.add_argument("--rulesets", nargs="*", metavar="NAME", default=None,
                        help="instead: apply+undo and playout+undo_to per ruleset (all if "
                             "no name is given)")
    parser.add_argument("--kinds", action="store_true",
                        help="with --rulesets: apply and apply+undo by kind of action")
    parser.add_argument("--per-root", type=int, default=1, metavar="K",
                        help="with --rulesets: K playouts from each position in a row, as a "
                             "search plays them from its root (1)")
    args = parser.parse_args(argv)
    positions = args.positions or (100 if args.quick else 400)
    repeat = args.repeat or (5 if args.quick else 15)
    if positions < 1 or repeat < 1:
        parser.error("--positions and --repeat must be at least 1")
    if args.kinds and args.rulesets is None:
        parser.error("--kinds goes with --rulesets")
    if args.per_root != 1 and (args.rulesets is None or args.kinds):
        parser.error("--per-root goes with --rulesets (without --kinds)")
    if args.per_root < 1:
        parser.error("--per-root must be at least 1")
    if args.rulesets is not None:
        names = args.rulesets or mariage.list_rulesets()
        unknown = sorted(set(names) - set(mariage.list_rulesets()))
        if unknown:
            parser.error(f"no such ruleset: {', '.join(unknown)}")
        print(f"search support per ruleset, Python {sys.version.split()[0]}")
        if args.kinds:
            print(render_kinds(run_kinds(names, positions, repeat, args.seed),
                               positions, repeat))
            return 0
        print(render_rulesets(run_rulesets(names, positions, repeat, args.seed,
                                           args.per_root), positions, repeat))
        if args.per_root != 1:
            print(f"({args.per_root} playouts from each position in a row)")
        return 0
    print(f"search support, default Marianna, Python {sys.version.split()[0]}")
    print(render(run_all(positions, repeat, args.seed), positions, repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
