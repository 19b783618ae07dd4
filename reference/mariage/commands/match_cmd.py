"""``mariage match RULESET``: engines and bots play each other; results and records."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from mariage.errors import did_you_mean, printable, whole_number

from ..arena import BOT_NAMES
from . import (
    COMMANDS,
    description_files,
    parse_options,
    parse_seed,
    seconds_arg,
    whole_arg,
)

if TYPE_CHECKING:  # imported where the match is played, not for --help (start-up)
    from mariage.engine.rules import Rules

    from ..arena.match import GameResult, Match
    from ..arena.players import Player

NAME, HELP = COMMANDS["match_cmd"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a path to a .yaml file")
    parser.add_argument("--engine", "-e", action="append", default=[], metavar="SEAT=CMD",
                        help="an engine command for a home seat (seat name or number); "
                             "it must answer the choose request (repeatable)")
    parser.add_argument("--bot", "-b", action="append", default=[], metavar="SEAT=NAME",
                        help=f"a built-in player for a home seat ({', '.join(BOT_NAMES)}); "
                             "seats not given play greedy (repeatable)")
    parser.add_argument("--games", "-n", type=whole_arg, default=10,
                        help=f"games to play (default 10, at most {MAX_GAMES})")
    parser.add_argument("--seed", type=parse_seed, default=1,
                        help="seed of the first round's deals, 0 to 2**64-1 (default 1)")
    parser.add_argument("--time", type=seconds_arg, default=5.0, metavar="T",
                        help="seconds per move for an engine (default 5; 0.5 s more is "
                             "allowed for the pipe)")
    parser.add_argument("--playouts", type=whole_arg, default=96,
                        help=f"playouts per move of mc, iterations of ismcts (default 96, at most "
                             f"{MAX_PLAYOUTS})")
    parser.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="an option value (repeatable)")
    parser.add_argument("--out", metavar="FILE", help="write every game's record to FILE")
    parser.add_argument("--quiet", "-q", action="store_true", help="no line per game")
    parser.add_argument("--no-forfeits", action="store_true",
                        help="exit 1 if any game was forfeited (an illegal action, a crash, a "
                             "timeout, an error or a desync), once the table and the records "
                             "are written: for an engine's own CI")
    parser.epilog = ("Each engine sees a protocol session of its own; an engine that lists "
                     "the hidden_cards feature (protocol 2) is dealt only its own seat's "
                     "view. The choose request is described in mariage.arena.players.")


#: Bounds of the command's numbers (docs/limits.rst).
MAX_GAMES = 1_000_000
MAX_PLAYOUTS = 100_000
MAX_TIME = 3600.0


def _check_numbers(args: argparse.Namespace) -> None:
    """Refuse numbers beyond the command's bounds, before anything is loaded or played."""
    for option, value, most in (("--games", args.games, MAX_GAMES),
                                ("--playouts", args.playouts, MAX_PLAYOUTS)):
        if not 1 <= value <= most:
            shown = str(value) if len(str(value)) <= 24 else str(value)[:20] + "..."
            raise ValueError(f"{option} takes a whole number from 1 to {most}, got {shown}")
    if not 0 < args.time <= MAX_TIME:  # also refuses nan and inf
        raise ValueError(f"--time takes seconds, more than 0 and at most {MAX_TIME:g}, "
                         f"got {args.time}")


def _seat(rules: Rules, text: str) -> int:
    if text in rules.seat_names:
        return rules.seat_names.index(text)
    number = whole_number(text) if text.isdigit() else None
    if number is not None and number < rules.nseats:
        return number
    raise ValueError(f"no seat '{text}' in {rules.ruleset} (seats: "
                     f"{' '.join(rules.seat_names)})" + did_you_mean(text, rules.seat_names))


def _engine(command: str, timeout: float) -> Callable[[], Player]:
    from ..arena.players import EnginePlayer

    return lambda: EnginePlayer(command, timeout=timeout)


def _bot(name: str, seed: int, playouts: int) -> Callable[[], Player]:
    from ..arena.players import BotPlayer

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
                from ..conformance.client import check_command

                check_command(value)  # a missing program or a folder: refused before any game
                out[seat] = _engine(value, max(10.0, time_s))
            else:
                if value not in BOT_NAMES:
                    raise ValueError(f"unknown bot '{value}' (bots: {', '.join(BOT_NAMES)})"
                                     + did_you_mean(value, BOT_NAMES))
                out[seat] = _bot(value, seed * 101 + seat, playouts)
    return out


def game_line(rules: Rules, match: Match, game: GameResult, shift: int) -> str:
    """One game: who sat where (``SEAT=HOME:NAME``, entrants named by their home seat),
    which side won and how, and a forfeit."""
    names = rules.seat_names

    def entrant(home: int) -> str:
        return f"{names[home]}:{match.players[home].name}"

    seats = " ".join(f"{names[s]}={entrant(h)}" for s, h in enumerate(game.seating))
    if game.winner is None:
        outcome = f"no winner ({game.reason})"
    else:
        side = " + ".join(entrant(h) for h in rules.teams[game.winner])
        outcome = f"side {rules.team_names[game.winner]} ({side}) wins ({game.reason})"
        if game.loser is not None:  # the others played on for the places (match.places)
            lost = " + ".join(entrant(h) for h in rules.teams[game.loser])
            outcome += f"; side {rules.team_names[game.loser]} ({lost}) loses"
    note = ""
    if game.forfeit is not None:
        seat, kind, reason = game.forfeit
        note = (f"; {names[seat]} ({entrant(game.seating[seat])}) forfeits ({kind}): "
                f"{reason}")
    return f"game {game.number:>4} (seed {game.seed}, shift {shift}): {seats}; {outcome}{note}"


def _interrupted(out: str | None, results: list[GameResult], exc: KeyboardInterrupt) -> int:
    """After Ctrl-C: the records of the games finished, then what was played of the game
    cut short (its finished hands, marked unfinished: ``result *`` and ``[Termination
    "unfinished: interrupted"]``), written whole to ``out``; one line; exit code 130."""
    from ..arena.match import Interrupted
    from ..notation.writer import write_record
    from ..outfile import write_output

    records = [g.record for g in results]
    cut = ""
    if isinstance(exc, Interrupted):
        records.append(exc.record)
        k = len(exc.record.hands)
        cut = (f"; game {exc.number} cut short, its {k} finished hand{'s' * (k != 1)} kept "
               "and marked unfinished (result *)")
    if out is None:
        where = " (no --out: no record written)"
    else:
        write_output(out, "\n".join(write_record(r) for r in records))
        where = f"; records written to {printable(out)}"
    sys.stderr.write(f"mariage: interrupted after {len(results)} games finished{cut}"
                     f"{where}\n")
    return 130


def run(args: argparse.Namespace) -> int:
    from mariage.spec.rulesload import load_rules

    from ..arena.match import Interrupted, Match, render_table
    from ..notation.writer import write_record
    from ..outfile import check_destination, write_output

    _check_numbers(args)
    if args.out is not None:
        # refuse a bad destination before playing, not after; nor the description read
        check_destination(args.out, reads=description_files(args.ruleset))
    rules = load_rules(args.ruleset, parse_options(args.option))
    match = Match(rules, entrants(rules, args.engine, args.bot, args.time, args.playouts,
                                  args.seed), time_s=args.time)
    results: list[GameResult] = []
    try:
        try:
            match.ready()
            seatings = list(match.seatings())
            if args.seed + (args.games - 1) // len(seatings) >= 1 << 64:
                raise ValueError(f"--seed {args.seed}: the rounds' seeds (one more per "
                                 "round) would pass 2**64-1")
            for g in range(args.games):
                rnd, k = divmod(g, len(seatings))
                game = match.play_game(g + 1, args.seed + rnd, seatings[k])
                results.append(game)
                if not args.quiet:
                    print(game_line(rules, match, game, k), flush=True)
        finally:
            match.close()
    except KeyboardInterrupt as exc:  # Ctrl-C: the games so far are kept
        if not results and not isinstance(exc, Interrupted):
            raise  # before the first game: nothing to keep
        return _interrupted(args.out, results, exc)
    if args.out is not None:
        write_output(args.out, "\n".join(write_record(g.record) for g in results))
    print(render_table(rules, match.table(results)))
    sys.stdout.flush()
    forfeits = [g for g in results if g.forfeit is not None]
    if args.no_forfeits and forfeits:
        first = forfeits[0]
        assert first.forfeit is not None
        seat, kind, _reason = first.forfeit
        home = first.seating[seat]
        names = rules.seat_names
        sys.stderr.write(f"mariage: {len(forfeits)} of {len(results)} games forfeited "
                         f"(--no-forfeits); the first: game {first.number}, "
                         f"{names[seat]} ({names[home]}:{match.players[home].name}) "
                         f"({kind})\n")
        return 1
    return 0
