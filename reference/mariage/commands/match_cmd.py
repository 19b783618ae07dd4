"""``mariage match RULESET``: engines and bots play each other; results and records."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from mariage.engine.rules import Rules
from mariage.spec.compile import load_rules

from ..arena.match import Match, render_table
from ..arena.players import BOT_NAMES, BotPlayer, EnginePlayer, Player
from ..notation.writer import write_atomically, write_record
from . import parse_options

NAME = "match"
HELP = "play engines and built-in bots against each other (seats rotate over paired deals)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a path to a .yaml file")
    parser.add_argument("--engine", "-e", action="append", default=[], metavar="SEAT=CMD",
                        help="an engine command for a home seat (seat name or number); "
                             "it must answer the choose request (repeatable)")
    parser.add_argument("--bot", "-b", action="append", default=[], metavar="SEAT=NAME",
                        help=f"a built-in player for a home seat ({', '.join(BOT_NAMES)}); "
                             "seats not given play greedy (repeatable)")
    parser.add_argument("--games", "-n", type=int, default=10, help="games to play (10)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first round's deals")
    parser.add_argument("--time", type=float, default=5.0, metavar="T",
                        help="seconds per move for an engine (default 5; 0.5 s more is "
                             "allowed for the pipe)")
    parser.add_argument("--playouts", type=int, default=96, help="playouts per move of mc")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="an option value (repeatable)")
    parser.add_argument("--out", metavar="FILE", help="write every game's record to FILE")
    parser.add_argument("--quiet", "-q", action="store_true", help="no line per game")
    parser.epilog = ("Each engine sees a protocol session of its own; an engine that lists "
                     "the hidden_cards feature (protocol 2) is dealt only its own seat's "
                     "view. The choose request is described in mariage.arena.players.")


def _seat(rules: Rules, text: str) -> int:
    if text in rules.seat_names:
        return rules.seat_names.index(text)
    if text.isdigit() and int(text) < rules.nseats:
        return int(text)
    raise ValueError(f"no seat '{text}' in {rules.ruleset} (seats: "
                     f"{' '.join(rules.seat_names)})")


def _engine(command: str, timeout: float) -> Callable[[], Player]:
    return lambda: EnginePlayer(command, timeout=timeout)


def _bot(name: str, seed: int, playouts: int) -> Callable[[], Player]:
    return lambda: BotPlayer(name, seed, playouts)


def entrants(rules: Rules, engines: list[str], bots: list[str], time_s: float,
             playouts: int, seed: int) -> dict[int, Callable[[], Player]]:
    """Home seat -> player factory, from ``SEAT=CMD`` and ``SEAT=NAME`` arguments."""
    out: dict[int, Callable[[], Player]] = {}
    for kind, specs in (("engine", engines), ("bot", bots)):
        for spec in specs:
            seat_text, sep, value = spec.partition("=")
            if not sep or not value.strip():
                raise ValueError(f"--{kind} needs SEAT=VALUE, got '{spec}'")
            seat = _seat(rules, seat_text.strip())
            if seat in out:
                raise ValueError(f"seat {seat_text} is given twice")
            value = value.strip()
            if kind == "engine":
                out[seat] = _engine(value, max(10.0, time_s))
            else:
                if value not in BOT_NAMES:
                    raise ValueError(f"unknown bot '{value}' (bots: {', '.join(BOT_NAMES)})")
                out[seat] = _bot(value, seed * 101 + seat, playouts)
    return out


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.ruleset, parse_options(args.option))
    if args.games < 1:
        raise ValueError("--games must be at least 1")
    if args.time <= 0:
        raise ValueError("--time must be positive")
    match = Match(rules, entrants(rules, args.engine, args.bot, args.time, args.playouts,
                                  args.seed), time_s=args.time)
    results = []
    try:
        seatings = list(match.seatings())
        for g in range(args.games):
            rnd, k = divmod(g, len(seatings))
            game = match.play_game(g + 1, args.seed + rnd, seatings[k])
            results.append(game)
            if not args.quiet:
                who = "draw" if game.winner is None else rules.team_names[game.winner]
                note = ""
                if game.forfeit is not None:
                    seat, kind, reason = game.forfeit
                    note = f"; {rules.seat_names[seat]} forfeits ({kind}): {reason}"
                print(f"game {game.number:>4} (seed {game.seed}, "
                      f"shift {k}): side {who} ({game.reason}){note}", flush=True)
    finally:
        match.close()
    if args.out:
        write_atomically(args.out, "\n".join(write_record(g.record) for g in results))
    print(render_table(rules, match.table(results)))
    sys.stdout.flush()
    return 0
