"""``mariage replay FILE``: show a recorded match trick by trick."""

from __future__ import annotations

import argparse
import sys

from ..notation.batch import open_input
from ..notation.errors import NotationError
from ..notation.model import Act, Hand, Record
from ..notation.reader import read_records
from ..notation.replay import check_record, measure, team_name
from ..state import GameState

NAME = "replay"
HELP = "show a recorded match trick by trick: hands, trump, winners and scores"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a record file; - reads stdin")
    parser.add_argument("--record", "-r", type=int, default=1, metavar="N",
                        help="which record of the file (1 = first; default 1)")


#: The mark after a card the record left unknown (``??``) and the search placed.
INFERRED = "?"


class _Show:
    def __init__(self) -> None:
        self.tricks_seen = 0
        self.inferred = 0

    def on_inferred(self, st: GameState, mask: int) -> None:
        self.inferred = mask

    def _cards(self, st: GameState, mask: int) -> str:
        r = st.rules
        return " ".join(r.card_code[c] + (INFERRED if self.inferred >> c & 1 else "")
                        for c in r.cards_of(mask))

    def on_deal(self, st: GameState, hand: Hand) -> None:
        r = st.rules
        who = (f"dealer {r.seat_names[st.dealer]}" if st.dealer is not None
               else f"first {r.seat_names[st.leader]}")
        print(f"\n=== Hand {st.hand_no} ({who}) ===")
        if self.inferred:
            print(f"  (cards marked {INFERRED} are unknown in the record: one consistent "
                  "deal is shown)")
        for s, name in enumerate(r.seat_names):
            print(f"  {name:>3}: {self._cards(st, st.hands[s])}")
        if self.inferred and st.stock:  # in drawing order, top card first
            print("  stock: " + " ".join(
                r.card_code[c] + (INFERRED if self.inferred >> c & 1 else "")
                for c in reversed(st.stock)))
        if st.turn_up is not None:
            mark = INFERRED if self.inferred >> st.turn_up & 1 else ""
            print(f"  turned up: {r.card_code[st.turn_up]}{mark}")
        print(f"  trump: {r.suits[st.trump] if st.trump >= 0 else '-'}")
        self.tricks_seen = 0

    def on_act(self, st: GameState, act: Act, trick_done: bool, hand_over: bool) -> None:
        r = st.rules
        trump = r.suits[st.trump] if st.trump >= 0 else "-"
        if not trick_done and not (len(act.text) <= 3 and act.text in r.card_index):
            print(f"  {act.seat}: {act.text}  (trump {trump})")
        if trick_done:
            leader, cards, winner = st.tricks[-1]
            seats = [(leader + i) % r.nseats for i in range(len(cards))]
            shown = " ".join(f"{r.seat_names[s]}:{r.card_code[c]}"
                             for s, c in zip(seats, cards, strict=True))
            pts = " ".join(f"{r.team_names[t]} {st.hand_points(t)}" for t in range(len(r.teams)))
            print(f"  trick {len(st.tricks):>2}: {shown}  -> {r.seat_names[winner]}  "
                  f"(trump {trump}; {pts})")
        if hand_over and st.history and st.history[-1].number == st.hand_no:
            h = st.history[-1]
            names = r.team_names
            print(f"  hand over ({h.ended}): points "
                  + ", ".join(f"{names[t]} {p}" for t, p in enumerate(h.points))
                  + "; scored " + ", ".join(f"{names[t]} +{p}" for t, p in enumerate(h.score)))
            print("  match: " + ", ".join(f"{names[t]} {p}" for t, p in enumerate(measure(st))))


def pick(file: str, number: int) -> Record:
    """Record ``number`` (1-based) of ``file``."""
    if number < 1:
        raise ValueError("--record counts from 1")
    stream = sys.stdin.buffer if file == "-" else open_input(file)
    with stream:
        for rec in read_records(stream, "<stdin>" if file == "-" else file):
            if rec.number == number:
                return rec
    raise ValueError(f"{file} has no record {number}")


def run(args: argparse.Namespace) -> int:
    try:
        rec = pick(args.file, args.record)
    except OSError as exc:
        raise ValueError(f"{args.file}: {exc.strerror}") from None
    except NotationError as exc:
        sys.stderr.write(f"{exc.error}\n")
        return 1
    out = check_record(rec, listener=_Show(), strict=True)
    if out.errors:
        sys.stderr.write(f"{out.errors[0]}\n")
        return 1
    st = out.state
    if st is not None and st.result is not None and out.rules is not None:
        res = st.result
        print(f"\nResult: {team_name(out.rules, res.winner)} wins ({res.reason}); "
              + ", ".join(f"{out.rules.team_names[t]} {p}" for t, p in enumerate(res.scores)))
    else:
        print("\nResult: unfinished")
    return 0
