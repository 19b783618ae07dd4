"""``mariage replay FILE``: show a recorded match trick by trick."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mariage.engine.state import GameState

from ..engine.outcomes import loser_note
from ..errors import shown
from ..notation.batch import open_input
from ..notation.checked import Checked
from ..notation.errors import NotationError
from ..notation.model import Act, Hand, Record
from ..notation.reader import read_record
from ..notation.replay import check_record, measure, team_name
from ..viewer.timeline import Step, Timeline, timeline
from . import COMMANDS, path_arg, whole_arg
from .capped import Capped, add_max_problems, check_max
from .showing import draws, header

NAME, HELP = COMMANDS["replay"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", type=path_arg,
                        help="a record file; - reads stdin")
    parser.add_argument("--record", "-r", type=whole_arg, default=1, metavar="N",
                        help="which record of the file (1 = first; default 1)")
    add_max_problems(parser, "on stderr (the JSON report has every one)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format (default text); json reports every problem")


#: The mark after a card the record left unknown (``??``) and the search placed.
INFERRED = "?"
#: The mark after a card the rules refused that lenient mode shows played (N141).
REFUSED = "!"


class _Show:
    """Prints the match as it is replayed: one line per trick, actions in the order made.

    A declaration made after a card of the trick was played is shown inside that
    trick's line, after the card it followed; one made before the lead has its own line.
    """

    def __init__(self, players: dict[str, str] | None = None) -> None:
        self.pending: list[str] = []
        self.inferred = 0
        self.players = players
        self.stock: list[int] = []  # as it was before the action being shown
        self.refused: set[int] = set()  # id() of the acts applied though refused
        self.trick = 0  # the trick of the last action shown

    def on_forced(self, act: Act) -> None:
        if not self.refused:
            print(f"  (a card marked {REFUSED} breaks a rule; shown as played, its "
                  "problem is listed at the end)")
        self.refused.add(id(act))

    def on_inferred(self, st: GameState, mask: int) -> None:
        self.inferred = mask

    def _cards(self, st: GameState, mask: int) -> str:
        r = st.rules
        return " ".join(r.card_code[c] + (INFERRED if self.inferred >> c & 1 else "")
                        for c in r.cards_of(mask))

    def on_deal(self, st: GameState, hand: Hand) -> None:
        r = st.rules
        if self.players is not None:  # the header, once
            print(header(r, self.players))
            self.players = None
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
        if st.stock and not self.inferred:
            print(f"  stock: {len(st.stock)} cards")
        print(f"  trump: {r.suits[st.trump] if st.trump >= 0 else '-'}")
        self.pending = []
        self.stock = list(st.stock)
        self._hand_over(st)  # a hand may end at its deal (a turned-up card's bonus)

    @staticmethod
    def _state(st: GameState) -> str:
        r = st.rules
        trump = r.suits[st.trump] if st.trump >= 0 else "-"
        pts = " ".join(f"{r.team_names[t]} {st.hand_points(t)}" for t in range(len(r.teams)))
        held = " ".join(f"{r.seat_names[s]} {v}" for s, v in enumerate(st.held) if v)
        return f"trump {trump}; {pts}" + (f"; held {held}" if held else "")

    def on_act(self, st: GameState, act: Act, trick_done: bool, hand_over: bool) -> None:
        r = st.rules
        is_card = act.text in r.card_index
        played = f"{act.seat}:{act.text}" + (REFUSED if id(act) in self.refused else "")
        self.trick = st.trick_no
        if trick_done:
            _, _, winner = st.tricks[-1]
            shown = " ".join([*self.pending, played])
            print(f"  trick {len(st.tricks):>2}: {shown}  -> {r.seat_names[winner]}  "
                  f"({self._state(st)})")
            self.pending = []
        elif is_card:
            self.pending.append(played)
        elif self.pending or st.trick_cards:  # made after a card of this trick
            trump = r.suits[st.trump] if st.trump >= 0 else "-"
            self.pending.append(f"{act.seat}:{act.text} (trump {trump})")
        else:
            print(f"  {act.seat}: {act.text}  ({self._state(st)})")
        drawn = draws(st, self.stock, self.inferred) if not hand_over else None
        if drawn:
            print(f"  {drawn}")
        self.stock = list(st.stock)
        if hand_over:
            self._hand_over(st)

    def stopped(self, why: str = "the replay stops here") -> None:
        """The cards of the trick under way where the replay stopped (a refused action,
        the record's end), with ``why``."""
        if self.pending:
            print(f"  trick {self.trick:>2}: {' '.join(self.pending)}  ({why})")

    def _hand_over(self, st: GameState) -> None:
        """How the hand ended and the match score, once the hand is scored."""
        r = st.rules
        if st.history and st.history[-1].number == st.hand_no:
            if self.pending:
                print(f"  trick {st.trick_no:>2}: {' '.join(self.pending)}  (not finished)")
                self.pending = []
            h = st.history[-1]
            names = r.team_names
            line = (f"  hand over ({h.ended}): points "
                    + ", ".join(f"{names[t]} {p}" for t, p in enumerate(h.points)))
            if r.score_kind == "segno":
                line += f"; segno {team_name(r, h.winner)}" if h.winner is not None \
                    else "; no segno"
            else:
                line += "; scored " + ", ".join(f"{names[t]} {p:+d}" for t, p in enumerate(h.score))
            print(line)
            print("  match: " + ", ".join(f"{names[t]} {p}" for t, p in enumerate(measure(st))))


def pick(file: str, number: int) -> Record:
    """Record ``number`` (1-based) of ``file``."""
    if number < 1:
        raise ValueError("--record counts from 1")
    stream = sys.stdin.buffer if file == "-" else open_input(file)
    with stream:  # the records before it split off, not parsed: their problems are theirs
        rec = read_record(stream, "<stdin>" if file == "-" else file, number)
    if rec is None:
        raise ValueError(f"{file} has no record {shown(number)}")
    return rec


def as_json(tl: Timeline) -> dict[str, Any]:
    """The match of ``tl`` hand by hand, as ``mariage replay --format json`` prints it.

    Each hand has its deal, every action in the order made (with the trick, the
    trump and the points after it), the tricks and how the hand ended. An action
    (or a deal) with problems lists them under ``problems`` (a card refused but
    applied, an annotation after it that is wrong); a replay stopped before the
    record's end names the problem it stopped at under ``stopped``. A valid record
    has neither key.

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> rec = record_match(load_rules("mariazza"), seed=2,
    ...                    bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> first = as_json(timeline(rec))["hands"][0]
    >>> first["tricks"][0]
    {'number': 1, 'cards': [['A', '2C'], ['B', '3C']], 'winner': 'B', 'points': [0, 10]}
    >>> first["end"]["segno"], first["end"]["points"]
    ('A', [43, 31])
    >>> "stopped" in as_json(timeline(rec))
    False
    """
    hands: list[dict[str, Any]] = []
    for step in tl.steps:
        if step.kind == "start":
            continue
        if step.kind == "deal":
            hands.append({"number": step.hand, "dealer": step.dealer, "first": step.to_act,
                          "deal": step.hands, "turn_up": step.turn_up, "trump": step.trump,
                          "actions": [], "tricks": [], "end": None} | _problems(tl, step))
        else:
            hand = hands[-1]
            hand["actions"].append({"seat": step.seat, "action": step.action,
                                    "kind": step.kind, "trick": step.trick,
                                    "trump": step.trump, "points": step.points,
                                    "held": step.held, "notes": step.notes}
                                   | _problems(tl, step))
            if step.winner is not None:
                hand["tricks"].append({"number": step.trick,
                                       "cards": [list(p) for p in step.table],
                                       "winner": step.winner, "points": step.points})
        if step.hand_end is not None:  # after an action, or at the deal (a bonus)
            end = step.hand_end
            hands[-1]["end"] = {"ended": end.ended, "points": end.points,
                                "match": step.match}
            if end.segno is not None:
                hands[-1]["end"]["segno"] = end.segno
            else:
                hands[-1]["end"]["scored"] = end.scored
    return {"file": tl.record.file, "record": tl.record.number, "ruleset": tl.ruleset,
            "options": tl.options, "seats": tl.seats, "players": tl.players,
            "teams": dict(zip(tl.teams, tl.team_seats, strict=True)), "hands": hands,
            "result": tl.result, "ok": tl.ok, "errors": [e.as_dict() for e in tl.errors]} \
        | ({"stopped": tl.stopped.as_dict()} if tl.stopped is not None else {})


def _problems(tl: Timeline, step: Step) -> dict[str, Any]:
    """``{"problems": [...]}``: the problems found at ``step`` (the one the replay
    stopped at aside: it belongs to the action refused, not to the one before it)."""
    found = [e.as_dict() for e in step.errors if e is not tl.stopped]
    return {"problems": found} if found else {}


def run(args: argparse.Namespace) -> int:
    check_max(args.max_problems)
    try:
        rec = pick(args.file, args.record)
    except OSError as exc:
        raise ValueError(f"{args.file}: {exc.strerror or exc}") from None
    except NotationError as exc:
        if args.format == "json":
            import json  # (only here: the text report needs none)

            print(json.dumps({"ok": False, "errors": [exc.error.as_dict()],
                              "stopped": exc.error.as_dict()}, indent=2))
        else:
            sys.stderr.write(f"{exc.error}\n")
            print(f"Result: none: the record cannot be read: {exc.error}")
        return 1
    if args.format == "json":
        import json

        tl = timeline(rec)
        print(json.dumps(as_json(tl), indent=2, ensure_ascii=False))
        return 0 if tl.ok else 1
    # lenient: every problem is reported in one run (all of a deal's, say), one line each;
    # a card refused but held is shown applied (N141), any other refused action stops it
    show = _Show(rec.players)
    out = check_record(rec, listener=show, strict=False)
    if out.errors:
        show.stopped()
        cap = Capped(args.max_problems, sys.stderr)
        for err in out.errors:
            cap.write(str(err))
        cap.close()
    else:
        show.stopped("the record ends here")
    print(f"\n{last_line(out, args.max_problems)}")
    return 1 if out.errors else 0


def last_line(out: Checked, limit: int = 0) -> str:
    """The line that ends ``mariage replay``: the result, or why there is none.

    A replay that stopped (a refused action, say) names where and why; a record
    replayed to its end with problems says how many there are (each is on stderr, or the
    first ``limit`` of them: ``--max-problems``).

    >>> from mariage.notation.reader import parse_record
    >>> rec = parse_record('[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "N"]\\nresult *\\n')
    >>> last_line(check_record(rec))
    'Result: unfinished'
    >>> last_line(check_record(parse_record('[Mariage "1"]\\n[Ruleset "nope"]\\n')))[:74]
    "Result: none: the replay stopped at <string>:2:2: N122 record 1, at 'nope'"
    """
    problems = len(out.errors)
    where = f"the first {limit}" if 0 < limit < problems else "each"
    count = f"{problems} problem{'s' if problems != 1 else ''} in all, {where} listed on stderr"
    if out.stopped is not None:
        return f"Result: none: the replay stopped at {out.stopped} ({count})"
    st, rules = out.state, out.rules
    if st is not None and st.result is not None and rules is not None:
        res = st.result
        line = (f"Result: {team_name(rules, res.winner)} wins ({res.reason}){loser_note(st)}; "
                + ", ".join(f"{rules.team_names[t]} {p}" for t, p in enumerate(res.scores)))
    else:
        line = "Result: unfinished"
    return f"{line}; the record is not valid ({count})" if problems else line
