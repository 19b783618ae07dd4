"""The deal search on records with every card hidden, against the exchange search it replaced.

Each record is a match of seeded random play (``record_match`` with the
``random`` bot), written with every hand, the stock and the turned-up card as
``??``: only the actions are known, so every hand's deal must be found. Each
record is checked twice in the same process, interleaved: by the search of
:mod:`mariage.notation.search` (bounds learned from refused actions,
:mod:`mariage.notation.deduce`, and a matching of cards to places,
:mod:`mariage.notation.placement`) and by the search it replaced
(exchanging two unknown cards, best first, kept in ``search._swap_search``).
Reported per ruleset: the records found valid by each, the replays used
(median per hand that needed a search), and the CPU time of each, with their
ratio.

With ``--scaling`` it measures instead how the cost of checking a record
grows with the hidden cards: each record is checked whole, with a share of
each deal's cards hidden (a quarter, a half, three quarters, all; the same
cards at every level, drawn once per record), and as each seat saw it
(:func:`mariage.notation.views.view`); reported per ruleset: the CPU time of
each, as a ratio to the whole record, and per hidden card, as a ratio to the
cost per hidden card at a quarter hidden. A search whose cost is at most
linear in the hidden cards keeps the last figures at or under 1. Before each
check the process's objects are collected and frozen (``gc.freeze``): a full
collection of them costs several ms, as much as a whole cell. With
``--compare`` each case is also checked, interleaved, by the search as it was
before a replay that collected bounds for cards played unheld handed on its deck
with those cards exchanged in, and, where it ended with no stock left, the bounds
from the rest of the hand (``search.FORCED_DECK``, ``search.SETTLE_COLLECTED``
off; issue #28's ninth round): one row each.

Usage::

    python benchmarks/bench_dealsearch.py            # 10 records per ruleset
    python benchmarks/bench_dealsearch.py --quick    # 3, and 5 rulesets
    python benchmarks/bench_dealsearch.py --rulesets schnapsen,mariglia --records 20
    python benchmarks/bench_dealsearch.py --scaling --quick
    python benchmarks/bench_dealsearch.py --scaling --compare --records 6   # before / after
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from mariage import list_rulesets, load_rules
from mariage.arena.bots import make_bot
from mariage.notation import search
from mariage.notation.model import Deal, DealPart, Record
from mariage.notation.recorder import record_match
from mariage.notation.replay import check_record
from mariage.notation.views import view

QUICK = ["marianna", "mariglia", "schnapsen", "sixty-six", "marjapussi-de"]


def hide_all(rec: Record) -> Record:
    """``rec`` with every card of every deal written ``??``."""
    hands = []
    for hand in rec.hands:
        parts = tuple(p if p.label in ("dealer", "first") else
                      DealPart(p.label, ("??",) * len(p.cards)) for p in hand.deal.parts)
        hands.append(replace(hand, deal=Deal(parts)))
    return replace(rec, hands=tuple(hands))


@contextmanager
def counting(tries: list[int], old: bool) -> Iterator[None]:
    """Count the replays of each search; with ``old``, use the exchange search."""
    real = search.complete_deal

    def counted(*args: Any, **kwargs: Any) -> tuple[list[int] | None, int]:
        if old:
            found, used = _old_search(*args, **kwargs)
        else:
            found, used = real(*args, **kwargs)
        tries.append(used)
        return found, used

    # the replay imports the search's name when a deal needs it: patch it there
    search.complete_deal = counted
    try:
        yield
    finally:
        search.complete_deal = real


def _old_search(start: Any, slots: Any, owner: Any, first: Any, acts: Any,
                limit: int = search.DEFAULT_LIMIT, verify: Any = None,
                chosen: Any = None) -> tuple[list[int] | None, int]:
    # (the old search chose no cards for the replay: ``chosen`` is left as it came)
    r = start.rules
    tpos = search.turnup_place(r, start.dealer)
    if tpos >= 0 and slots[tpos] >= 0:
        tpos = -1
    unknown = {c for c in range(r.ncards) if c not in set(slots)}
    return search._swap_search(start, slots, owner, first, acts, limit, verify, tpos, unknown)


def run(name: str, records: int, limit: int) -> dict[str, Any]:
    """Both searches on ``records`` hidden records of ``name``."""
    rules = load_rules(name)
    out: dict[str, Any] = {"name": name}
    for label in ("new", "old"):
        out[label] = {"valid": 0, "cpu": 0.0, "tries": []}
    for seed in range(records):
        players = [make_bot("random", seed * 7 + i) for i in range(rules.nseats)]
        rec = hide_all(record_match(rules, seed, players))
        for label, old in (("new", False), ("old", True)):  # interleaved
            tries: list[int] = []
            with counting(tries, old):
                start = time.process_time()
                errors = check_record(rec, search_limit=limit).errors
                out[label]["cpu"] += time.process_time() - start
            out[label]["valid"] += not errors
            out[label]["tries"].extend(tries)
    return out


def hide_some(rec: Record, order: list[int], share: float) -> tuple[Record, int]:
    """``rec`` with the first ``share`` of each deal's cards in ``order`` (positions in the
    deal's card list) written ``??``, and how many cards that hides."""
    hands, hidden = [], 0
    for hand in rec.hands:
        places = [(i, j) for i, p in enumerate(hand.deal.parts)
                  if p.label not in ("dealer", "first") for j in range(len(p.cards))]
        picked = [places[k] for k in order if k < len(places)]
        chosen = set(picked[:round(share * len(places))])
        hidden += len(chosen)
        parts = tuple(DealPart(p.label, tuple("??" if (i, j) in chosen else c
                                              for j, c in enumerate(p.cards)))
                      for i, p in enumerate(hand.deal.parts))
        hands.append(replace(hand, deal=Deal(parts)))
    return replace(rec, hands=tuple(hands)), hidden


SHARES = (0.25, 0.5, 0.75, 1.0)


def scaling(name: str, records: int, limit: int,
            variants: tuple[bool, ...] = (True,)) -> dict[bool, dict[str, Any]]:
    """CPU seconds of checking ``records`` records of ``name`` whole, with each share of
    their cards hidden and as each seat saw them; the hidden cards of each. One result
    per variant (``search.FORCED_DECK`` and ``search.SETTLE_COLLECTED``), each case
    checked by every variant in turn."""
    rules = load_rules(name)
    out: dict[bool, dict[str, Any]] = {v: {"cpu": {}, "hidden": {}} for v in variants}
    for seed in range(records):
        players = [make_bot("random", seed * 7 + i) for i in range(rules.nseats)]
        rec = record_match(rules, seed, players)
        rng = random.Random(seed)
        order = list(range(rules.ncards))
        rng.shuffle(order)
        cases = {"whole": (rec, 0)}
        for share in SHARES:
            cases[f"{share:.0%} hidden"] = hide_some(rec, order, share)
        for seat in rules.seat_names:
            seen = view(rec, seat)
            cases[f"seat {seat}"] = (seen, sum(c == "??" for h in seen.hands
                                               for p in h.deal.parts for c in p.cards))
        for label, (case, n) in cases.items():  # interleaved, record by record
            # each variant first for every other record
            for variant in variants[::-1] if seed % 2 else variants:
                cpu, hidden = out[variant]["cpu"], out[variant]["hidden"]
                search.FORCED_DECK = search.SETTLE_COLLECTED = variant
                # a collection of the whole process's objects (several ms once many
                # rulesets are loaded) would land in one cell of a few ms: collect now and
                # freeze the survivors, so that a cell pays only for its own objects
                gc.collect()
                gc.freeze()
                try:
                    start = time.process_time()
                    errors = check_record(case, search_limit=limit).errors
                    cpu[label] = cpu.get(label, 0.0) + time.process_time() - start
                finally:
                    search.FORCED_DECK = search.SETTLE_COLLECTED = True
                hidden[label] = hidden.get(label, 0) + n
                assert not errors, (name, seed, label, variant, errors[:1])
    return out


def _scaling_cells(res: dict[str, Any], labels: list[str]) -> list[str]:
    """The cells of one row of ``--scaling``: each label's CPU time as a ratio to the
    whole record, and per hidden card as a ratio to a quarter hidden."""
    cpu, hid = res["cpu"], res["hidden"]
    seats = [k for k in cpu if k.startswith("seat ")]
    cpu["seat views"] = sum(cpu[k] for k in seats) / len(seats)
    hid["seat views"] = sum(hid[k] for k in seats) // len(seats)
    base = cpu["whole"]
    quarter = (cpu["25% hidden"] - base) / max(hid["25% hidden"], 1)
    cells = []
    for label in labels:
        per = (cpu[label] - base) / max(hid[label], 1)
        cells.append(f"{cpu[label] / base:.1f} ({per / quarter:.2f})" if quarter > 0
                     else f"{cpu[label] / base:.1f}")
    return cells


def median(xs: list[int]) -> float:
    """The median of ``xs`` (0 for none)."""
    return statistics.median(xs) if xs else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--records", type=int, default=None)
    parser.add_argument("--rulesets", default=None)
    parser.add_argument("--limit", type=int, default=search.DEFAULT_LIMIT)
    parser.add_argument("--scaling", action="store_true",
                        help="cost against the number of hidden cards, and seat views")
    parser.add_argument("--compare", action="store_true",
                        help="with --scaling: also the search as it was before issue #28's "
                             "ninth round (FORCED_DECK, SETTLE_COLLECTED off), interleaved")
    args = parser.parse_args(argv)
    names = (args.rulesets.split(",") if args.rulesets
             else QUICK if args.quick else list_rulesets())
    records = args.records or (3 if args.quick else 10)
    if args.scaling:
        print(f"{records} records per ruleset; CPU time as a ratio to the whole record, "
              "and (in brackets) per hidden card as a ratio to a quarter hidden")
        labels = ["whole", *(f"{s:.0%} hidden" for s in SHARES), "seat views"]
        variants = (False, True) if args.compare else (True,)
        print("| ruleset | " + ("search | " if args.compare else "")
              + " | ".join(labels[1:]) + " |")
        print("|---|" + ("---|" if args.compare else "") + "---:|" * (len(labels) - 1))
        for name in names:
            results = scaling(name, records, args.limit, variants)
            for variant in variants:
                cells = _scaling_cells(results[variant], labels[1:])
                which = ("after | " if variant else "before | ") if args.compare else ""
                print(f"| {name} | {which}" + " | ".join(cells) + " |", flush=True)
        return 0
    print(f"{records} records per ruleset, every card hidden, search limit {args.limit}")
    print("| ruleset | valid (new) | valid (old) | replays per hand, median (new / old) "
          "| CPU s (new / old) | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        res = run(name, records, args.limit)
        new, old = res["new"], res["old"]
        ratio = new["cpu"] / old["cpu"] if old["cpu"] else 0.0
        print(f"| {name} | {new['valid']}/{records} | {old['valid']}/{records} | "
              f"{median(new['tries']):.0f} / {median(old['tries']):.0f} | "
              f"{new['cpu']:.1f} / {old['cpu']:.1f} | {ratio:.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
