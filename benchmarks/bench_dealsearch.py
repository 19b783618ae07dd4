"""The deal search on records with every card hidden, against the exchange search it replaced.

Each record is a match of seeded random play (``record_match`` with the
``random`` bot), written with every hand, the stock and the turned-up card as
``??``: only the actions are known, so every hand's deal must be found. Each
record is checked twice in the same process, interleaved: by the search of
:mod:`mariage.notation.search` (bounds learned from refused actions and a
matching of cards to places, :mod:`mariage.notation.deduce`) and by the
search it replaced (exchanging two unknown cards, best first, kept in
``search._swap_search``). Reported per ruleset: the records found valid by
each, the replays used (median per hand that needed a search), and the CPU
time of each, with their ratio.

Usage::

    python benchmarks/bench_dealsearch.py            # 10 records per ruleset
    python benchmarks/bench_dealsearch.py --quick    # 3, and 5 rulesets
    python benchmarks/bench_dealsearch.py --rulesets schnapsen,mariglia --records 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from mariage import list_rulesets, load_rules
from mariage.arena.bots import make_bot
from mariage.notation import replay as replay_module
from mariage.notation import search
from mariage.notation.model import Deal, DealPart, Record
from mariage.notation.recorder import record_match
from mariage.notation.replay import check_record

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

    replay_module.complete_deal = counted  # the name the replay calls
    try:
        yield
    finally:
        replay_module.complete_deal = real


def _old_search(start: Any, slots: Any, owner: Any, first: Any, acts: Any,
                limit: int = search.DEFAULT_LIMIT, verify: Any = None
                ) -> tuple[list[int] | None, int]:
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


def median(xs: list[int]) -> float:
    """The median of ``xs`` (0 for none)."""
    return statistics.median(xs) if xs else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--records", type=int, default=None)
    parser.add_argument("--rulesets", default=None)
    parser.add_argument("--limit", type=int, default=search.DEFAULT_LIMIT)
    args = parser.parse_args(argv)
    names = (args.rulesets.split(",") if args.rulesets
             else QUICK if args.quick else list_rulesets())
    records = args.records or (3 if args.quick else 10)
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
