"""``mariage play RULESET``: play a whole match with built-in bots and print it."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from mariage.arena.bots import BOTS, Bot, make_bot
from mariage.engine.actions import Give, Play
from mariage.engine.actiontext import action_text
from mariage.engine.deals import SeededDeals
from mariage.engine.observation import give_receivers, observe, public_action
from mariage.engine.outcomes import loser_note
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from mariage.spec.rulesload import load_rules

from ..errors import did_you_mean, printable, shown
from . import COMMANDS, description_files, parse_options, parse_seed, whole_arg
from .showing import draws, header

if TYPE_CHECKING:  # the record's writing and a person's play: imported when asked for
    from ..notation.recorder import Recorder

NAME, HELP = COMMANDS["play_cmd"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a path to a .yaml file")
    parser.add_argument("--seed", type=parse_seed, default=1,
                        help="deal seed, 0 to 2**64-1 (default 1)")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="an option value (repeatable)")
    parser.add_argument("--bots", default="greedy",
                        help=f"comma-separated bots, one per seat or one for all "
                             f"({', '.join(BOTS)}); default greedy")
    parser.add_argument("--quiet", "-q", action="store_true", help="print only the result")
    parser.add_argument("--out", metavar="FILE",
                        help="also write the match's record to FILE (written atomically)")
    parser.add_argument("--max-hands", type=whole_arg, metavar="N",
                        help="stop after N hands if the match has not ended (the record "
                             "then says unfinished); by default a match is played to its "
                             "end, or to 1,000,000 actions")
    parser.add_argument("--human", metavar="SEAT",
                        help="you play SEAT at the terminal (the bots play the others): "
                             "legal actions are listed, type a number or an action")


def _bots(spec: str, n: int, seed: int) -> list[Bot]:
    names = [s.strip() for s in spec.split(",")]
    if "" in names:  # was dropped: "random," played random at every seat, not a guess
        raise ValueError(f"--bots: name {names.index('') + 1} of {shown(spec)} is empty "
                         f"(one name, or {n} separated by commas: {', '.join(BOTS)})")
    if len(names) == 1:
        names = names * n
    if len(names) != n:
        raise ValueError(f"--bots needs 1 or {n} names, got {len(names)}")
    return [make_bot(name, seed * 101 + i) for i, name in enumerate(names)]


class MatchUnfinished(Exception):
    """A match stopped before its end: at ``max_hands`` hands (asked for) or at
    ``max_actions`` actions (a match the players never end, as bots bidding low on a
    clamped barrel with no limit of attempts)."""

    def __init__(self, why: str, asked: bool) -> None:
        super().__init__(why)
        self.why = why
        #: True where the caller's bound of hands stopped it
        self.asked = asked


def play_match(rules: Rules, seed: int, bots: list[Bot], out: TextIO | None = None,
               max_actions: int = 1_000_000, recorder: Recorder | None = None,
               observer: int | None = None, max_hands: int | None = None) -> GameState:
    """Play a seeded match to its end with ``bots``; print it to ``out`` if given.

    A ``recorder`` is told of every deal and action (see :mod:`mariage.notation`).
    With ``observer`` (the seat of a person playing), only what that seat sees is printed.
    Raises :class:`MatchUnfinished` where ``max_hands`` hands are over and the match is
    not, or after ``max_actions`` actions.
    """
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    printer = _Printer(rules, out, observer) if out else None
    if printer:
        printer.w(header(rules, {rules.seat_names[i]: b.name for i, b in enumerate(bots)})
                  + f"; seed {seed}")
    count = dealt = 0
    while not state.terminal:
        if state.phase == Phase.DEAL:
            if max_hands is not None and dealt >= max_hands:
                plural = "" if max_hands == 1 else "s"
                raise MatchUnfinished(
                    f"the match has not ended after {max_hands} hand{plural}", True)
            dealt += 1
            deck, first = deals.next_deal(state)
            state.deal(deck, first)
            if recorder:
                recorder.on_deal(state)
            if printer:
                printer.hand_start(state)
            continue
        seat = state.to_act
        assert seat is not None
        action = bots[seat].choose(state)
        hand_before = state.hand_no
        tricks_before = len(state.tricks)
        trick_before, trump_before = state.trick_no, state.trump
        state.apply(action)
        if recorder:
            recorder.on_action(state, seat, action, trick_before, tricks_before, trump_before)
        if printer:
            printer.action(state, seat, action, hand_before, tricks_before)
        count += 1
        if count >= max_actions:
            raise MatchUnfinished(f"the match has not ended after {max_actions:,} actions "
                                  f"({state.hand_no} hands)", False)
    if printer:
        printer.result(state)
    return state


class _Printer:
    """Prints the match; with ``observer`` (a person's seat), only what that seat sees."""

    def __init__(self, rules: Rules, out: TextIO, observer: int | None = None) -> None:
        self.r = rules
        self.out = out
        self.observer = observer
        self.stock: list[int] = []  # as it was before the action being shown

    def w(self, text: str) -> None:
        self.out.write(text + "\n")

    def seat(self, s: int) -> str:
        return self.r.seat_names[s]

    def hand_start(self, st: GameState) -> None:
        r = self.r
        dealer = "no dealer" if st.dealer is None else f"dealer {self.seat(st.dealer)}"
        self.w(f"\n=== Hand {st.hand_no} ({dealer}) ===")
        known = observe(st, self.observer).shown if self.observer is not None else st.hands
        for s in range(r.nseats):
            cards = [r.format_cards(st.hands[s] & known[s])] if st.hands[s] & known[s] else []
            cards += ["??"] * (st.hands[s] & ~known[s]).bit_count()
            self.w(f"  {self.seat(s):>3}: {' '.join(cards)}")
        if st.turn_up is not None:
            self.w(f"  turned up: {r.card_code[st.turn_up]}")
        if st.stock:
            self.w(f"  stock: {len(st.stock)} cards")
        if st.trump >= 0:
            self.w(f"  trump: {r.suits[st.trump]}")
        self.stock = list(st.stock)
        if st.phase == Phase.OVER:
            self.w("  the turn-up bonus ends the match")

    def action(self, st: GameState, seat: int, action: object, hand_before: int,
               tricks_before: int) -> None:
        r = self.r
        if not isinstance(action, Play):
            if self.observer is not None:
                receiver = give_receivers(st)[-1] if type(action) is Give else -1
                action = public_action(r, self.observer, seat, action,  # type: ignore[arg-type]
                                       receiver)
            self.w(f"  {self.seat(seat)}: {action_text(r, action)}  "  # type: ignore[arg-type]
                   f"(trump {r.suits[st.trump] if st.trump >= 0 else '-'})")
        finished = st.history[-1] if st.history and st.history[-1].number == hand_before \
            and (st.hand_no != hand_before or st.phase in (Phase.DEAL, Phase.OVER)) else None
        if (hand_before == st.hand_no and len(st.tricks) > tricks_before) or finished:
            tricks = st.tricks if hand_before == st.hand_no else None
            if tricks and len(tricks) > tricks_before:
                leader, cards, winner = tricks[-1]
                seats = [leader]  # in playing order, past a seat sitting the hand out
                while len(seats) < len(cards):
                    seats.append(st.next_seat(seats[-1]))
                shown = " ".join(f"{self.seat(s)}:{r.card_code[c]}"
                                 for s, c in zip(seats, cards, strict=True))
                self.w(f"  trick {len(tricks):>2}: {shown}  -> {self.seat(winner)}")
        if hand_before == st.hand_no:
            drawn = draws(st, self.stock, seen_by=self.observer)
            if drawn:
                self.w(f"  {drawn}")
            self.stock = list(st.stock)
        if finished:
            names = r.team_names
            pts = ", ".join(f"{names[t]} {p}" for t, p in enumerate(finished.points))
            add = ", ".join(f"{names[t]} {p:+d}" for t, p in enumerate(finished.score))
            self.w(f"  hand over ({finished.ended}): points {pts}; scored {add}")
            if finished.outcome:  # the takers against the defence
                side = finished.announce_side
                self.w(f"  taken by {self.seat(finished.declarer)}: {finished.outcome}; "
                       f"announcements: {names[side] if side >= 0 else 'none count'}"
                       + (f"; held {finished.held}" if finished.held else ""))
            elif finished.made is not None:  # a contract hand
                how = "made" if finished.made else "failed"
                sz = "".join(f"; {names[t]} schwarz" for t in finished.schwarz)
                self.w(f"  contract {finished.contract} by {self.seat(finished.declarer)}: "
                       f"{how}{sz}")
            tot = ", ".join(f"{names[t]} {p}" for t, p in enumerate(st.standing()))
            self.w(f"  match: {tot}")

    def result(self, st: GameState) -> None:
        res = st.result
        assert res is not None
        names = self.r.team_names
        who = names[res.winner] if res.winner is not None else "nobody"
        scores = ", ".join(f"{names[t]} {p}" for t, p in enumerate(res.scores))
        self.w(f"\nResult: {who} wins ({res.reason}){loser_note(st)}; {scores}; "
               f"{st.hand_no} hands")


def _seat(rules: Rules, name: str) -> int:
    """The seat called ``name`` (``--human``), or a usage error naming the seats."""
    if name in rules.seat_names:
        return rules.seat_names.index(name)
    raise ValueError(f"--human: no seat {name!r} in {rules.ruleset} (seats: "
                     f"{', '.join(rules.seat_names)})" + did_you_mean(name, rules.seat_names))


def _write_record(path: str, recorder: Recorder, state: GameState | None = None) -> None:
    from ..notation.writer import write_record
    from ..outfile import write_output
    write_output(path, write_record(recorder.record(state)))


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.ruleset, parse_options(args.option))
    bots = _bots(args.bots, rules.nseats, args.seed)
    human = None if args.human is None else _seat(rules, args.human)
    #: what ends a match a person leaves (raised by a person's player alone)
    left: tuple[type[Exception], ...] = ()
    if human is not None:
        from .human import Human, InputEnded
        bots[human] = Human(human, sys.stdin, sys.stdout)
        left = (InputEnded,)
    recorder = None
    if args.out is not None:
        from ..notation.recorder import Recorder
        from ..outfile import check_destination

        # refuse a bad destination before playing, not after; nor the description read
        check_destination(args.out, reads=[*description_files(args.ruleset), *args.spec])
        recorder = Recorder(rules, SeededDeals(rules, args.seed).first_dealer,
                            [b.name for b in bots], [("Seed", str(args.seed))])
    if args.max_hands is not None and args.max_hands < 1:
        raise ValueError(f"--max-hands: at least 1 hand, not {args.max_hands}")
    try:
        state = play_match(rules, args.seed, bots, None if args.quiet else sys.stdout,
                           recorder=recorder, observer=human, max_hands=args.max_hands)
    except MatchUnfinished as stop:  # the match so far, marked unfinished
        sys.stdout.flush()
        if recorder is not None:
            _write_record(args.out, recorder)
        sys.stderr.write(f"mariage: {stop.why}; it stops here"
                         + (f" (recorded unfinished in {printable(args.out)})\n"
                            if args.out else "\n"))
        return 0 if stop.asked else 1
    except left as ended:  # the player left: the match so far, marked unfinished
        from .human import InputUnusable
        sys.stdout.flush()
        if recorder is not None:
            _write_record(args.out, recorder)
        sys.stderr.write(f"mariage: {ended}; the match stops here"
                         + (f" (recorded unfinished in {printable(args.out)})\n"
                            if args.out else "\n"))
        return 1 if isinstance(ended, InputUnusable) else 0
    if recorder is not None:
        _write_record(args.out, recorder, state)
    if args.quiet:
        res = state.result
        assert res is not None
        names = rules.team_names
        who = names[res.winner] if res.winner is not None else "nobody"
        print(f"{who} wins ({res.reason}){loser_note(state)}; "
              + ", ".join(f"{names[t]} {p}" for t, p in enumerate(res.scores)))
    return 0
