"""``mariage match``: engines and bots play each other; every game becomes a record.

The entrants are given by *home seat*. Games come in rounds of one deal per
team count: in game ``g`` of a round every entrant moves ``g`` seats on, so
each side plays the same deals from every side of the table and the luck of
the cards cancels out. A game's deals come from the seed
``seed + round`` (the deal generator of ``docs/prng.rst``).

A player that sends an action that is not legal (or not an action), that
crashes, or that does not answer in time, loses the game at once: the
referee resigns its seat, and the record shows ``SEAT:resign`` followed by a
comment ``{SEAT forfeits (KIND): REASON}``, and the header a tag
``[Termination "SEAT forfeits (KIND): REASON"]``.

>>> from mariage import load_rules
>>> from mariage.arena.players import BotPlayer
>>> rules = load_rules("mariazza", {"target": 10})
>>> match = Match(rules, {0: lambda: BotPlayer("greedy", 1), 1: lambda: BotPlayer("random", 2)})
>>> games = match.play(games=4, seed=3)
>>> [g.seating for g in games]
[(0, 1), (1, 0), (0, 1), (1, 0)]
>>> sum(row.games for row in match.table(games))
8
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Mapping

from mariage.engine.actiontext import parse_action
from mariage.engine.arguments import check_rules
from mariage.engine.deals import SeededDeals
from mariage.engine.phase import DEAL
from mariage.engine.prng import MASK64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from ..errors import IllegalActionError, expect_each, printable
from ..lazyrecord import frozen_record, replace
from ..notation.model import Comment, Note, Record, Tag
from ..notation.recorder import Recorder
from .players import Forfeit, Player

__all__ = ["GameResult", "Interrupted", "Match", "Row", "render_table", "wilson"]

#: The ``Termination`` tag of a game's record cut short by Ctrl-C (``result *``).
UNFINISHED = "unfinished: interrupted"


@frozen_record
class GameResult:
    """One game: who sat where, how it ended, and its record.

    ``seating[s]`` is the home seat of the entrant in seat ``s``;
    ``winner`` is the winning *home team* (the team of the winner's home
    seats), or ``None``; ``forfeit`` is ``(seat, kind, reason)`` or ``None``;
    ``loser`` the losing home team where the others played on for the places
    (``match.places``: :attr:`GameState.loser <mariage.engine.state.GameState.loser>`),
    else ``None``.
    """

    number: int
    seed: int
    seating: tuple[int, ...]
    winner: int | None
    reason: str
    forfeit: tuple[int, str, str] | None
    record: Record
    loser: int | None = None


@frozen_record
class Row:
    """One side's line of the results table (a side: the entrants of one home team)."""

    team: int
    players: str
    games: int
    wins: int
    draws: int
    losses: int
    forfeits: int
    #: the games it was placed last in, where the others play on for the places
    #: (``match.places``; its other losses were second places); ``None`` elsewhere
    last: int | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a game. ``record`` is the game's record up to its last finished hand
    (none if the first was not finished), with ``result *`` and the tag ``[Termination
    "unfinished: interrupted"]``: valid, replayable, and marked as cut short."""

    def __init__(self, number: int, record: Record) -> None:
        super().__init__(f"game {number} interrupted")
        self.number = number
        self.record = record


def _unfinished(rec: Recorder) -> Record:
    """What ``rec`` holds, up to its last finished hand (a hand is finished once its
    closing annotations, the last being ``(match ...)``, are recorded), marked unfinished."""
    record = rec.record(None)
    hands = record.hands
    if hands and not (hands[-1].items and isinstance(last := hands[-1].items[-1], Note)
                      and last.key == "match"):
        hands = hands[:-1]
    return replace(record, tags=(*record.tags, Tag("Termination", (UNFINISHED,))),
                   hands=hands)


class Match:
    """Games between the entrants of ``entrants`` (home seat -> player factory).

    A seat left out gets a ``greedy`` bot. Each factory is called once; the
    player is kept for every game (an engine process is reused).
    """

    def __init__(self, rules: Rules, entrants: Mapping[int, Callable[[], Player]],
                 time_s: float = 5.0, max_actions: int = 100_000) -> None:
        from .players import BotPlayer

        check_rules(rules, "Match")
        self.rules = rules
        n = rules.nseats
        for seat in entrants:
            if not 0 <= seat < n:
                raise ValueError(f"no seat {seat} in {rules.ruleset}")
        self.players: list[Player] = [entrants[s]() if s in entrants else BotPlayer("greedy", s)
                                      for s in range(n)]
        self.time_ms = max(1, round(time_s * 1000))
        self.max_actions = max_actions

    def close(self) -> None:
        """Stop every engine."""
        for p in self.players:
            p.close()

    def ready(self) -> None:
        """Check every player before the first game (an engine must answer ``hello`` and
        list ``choose``); ``ValueError`` naming the first that cannot play."""
        for p in self.players:
            p.ready()

    def seatings(self) -> Iterator[tuple[int, ...]]:
        """The seating of each game of a round: entrants moved on by 0, 1, ... seats."""
        n = self.rules.nseats
        for shift in range(len(self.rules.teams)):
            yield tuple((s - shift) % n for s in range(n))

    def play(self, games: int, seed: int) -> list[GameResult]:
        """Play ``games`` games; round ``k`` deals from seed ``seed + k`` (modulo 2**64, as
        the generator reads it: a seed near 2**64 runs on from 0)."""
        self.ready()
        out: list[GameResult] = []
        seatings = list(self.seatings())
        for g in range(games):
            rnd, k = divmod(g, len(seatings))
            out.append(self.play_game(g + 1, (seed + rnd) & MASK64, seatings[k]))
        return out

    def play_game(self, number: int, seed: int, seating: tuple[int, ...]) -> GameResult:
        """One game from ``seed``; the entrant of home seat ``seating[s]`` sits in seat ``s``."""
        r = self.rules
        players = [self.players[h] for h in seating]
        deals = SeededDeals(r, seed)
        state = GameState(r, first_dealer=deals.first_dealer)
        names = [p.name for p in players]
        rec = Recorder(r, deals.first_dealer, names,
                       [("Seed", str(seed)), ("Game", str(number))])
        try:
            return self._play(number, seed, seating, players, state, deals, rec)
        except KeyboardInterrupt:
            raise Interrupted(number, _unfinished(rec)) from None

    def _play(self, number: int, seed: int, seating: tuple[int, ...], players: list[Player],
              state: GameState, deals: SeededDeals, rec: Recorder) -> GameResult:
        r = self.rules
        forfeit: tuple[int, str, str] | None = None
        count = 0
        while not state.terminal and forfeit is None:
            if state.phase == DEAL:
                deck, first = deals.next_deal(state)
                state.deal(deck, first)
                rec.on_deal(state)
                forfeit = self._tell_deal(players, state, deck, first)
                continue
            seat = state.to_act
            assert seat is not None
            forfeit = self._turn(state, seat, players, rec)
            count += 1
            if count > self.max_actions:
                raise RuntimeError(f"game {number} did not end")
        if forfeit is not None and not state.terminal:
            seat, kind, reason = forfeit
            before = (state.trick_no, len(state.tricks), state.trump)
            state.resign(seat)
            rec.on_action(state, seat, None, *before)
            for s, p in enumerate(players):
                if s != seat:
                    with contextlib.suppress(Forfeit):  # the game is over anyway
                        p.resigned(state, seat)
        record = rec.record(state)
        if forfeit is not None:
            seat, kind, reason = forfeit
            text = f"{r.seat_names[seat]} forfeits ({kind}): {_clean(reason)}"
            hands = record.hands
            last = replace(hands[-1], items=(*hands[-1].items, Comment(text)))
            record = replace(record, tags=(*record.tags, Tag("Termination", (text,))),
                             hands=(*hands[:-1], last))
        res = state.result
        assert res is not None
        winner = loser = None
        if res.winner is not None:
            home_seat = next(seating[s] for s in range(r.nseats) if r.team_of[s] == res.winner)
            winner = r.team_of[home_seat]
        if state.loser is not None:  # (the places played on: match.places)
            loser = r.team_of[next(seating[s] for s in range(r.nseats)
                                   if r.team_of[s] == state.loser)]
        return GameResult(number, seed, seating, winner, res.reason, forfeit, record, loser)

    def _tell_deal(self, players: list[Player], state: GameState, deck: list[int],
                   first: int | None) -> tuple[int, str, str] | None:
        def tell(s: int, p: Player) -> None:
            if state.hand_no == 1:
                p.start(state, s, deck, first)
            else:
                p.dealt(state, deck, first)
        return self._tell_all(players, tell)

    def _tell_all(self, players: list[Player],
                  call: Callable[[int, Player], None]) -> tuple[int, str, str] | None:
        for s, p in enumerate(players):
            try:
                call(s, p)
            except Forfeit as exc:
                return (s, exc.kind, exc.reason)
        return None

    def _turn(self, state: GameState, seat: int, players: list[Player],
              rec: Recorder) -> tuple[int, str, str] | None:
        r = self.rules
        try:
            text = players[seat].choose(state, seat, self.time_ms)
        except Forfeit as exc:
            return (seat, exc.kind, exc.reason)
        try:
            action = parse_action(r, text)
        except ValueError:  # what the engine wrote, quoted: no control character may act
            return (seat, "illegal", printable(f"'{text[:40]}' is not an action of {r.ruleset}"))
        before = (state.trick_no, len(state.tricks), state.trump)
        try:
            state.apply(action, seat)
        except IllegalActionError as exc:
            return (seat, "illegal", printable(f"{text} [{exc.rule_id}] {exc.reason}"))
        rec.on_action(state, seat, action, *before)
        return self._tell_all(players, lambda s, p: p.applied(state, seat, text))

    def table(self, games: list[GameResult]) -> list[Row]:
        """One row per side (home team): games, wins, draws, losses, forfeits; and, where
        the others play on for the places, the games it was placed last in."""
        r = self.rules
        rows = []
        for team in range(len(r.teams)):
            seats = [s for s in range(r.nseats) if r.team_of[s] == team]
            names = " + ".join(f"{r.seat_names[s]}:{self.players[s].name}" for s in seats)
            wins = sum(1 for g in games if g.winner == team)
            draws = sum(1 for g in games if g.winner is None)
            forfeits = sum(1 for g in games if g.forfeit is not None
                           and r.team_of[g.seating[g.forfeit[0]]] == team)
            last = sum(1 for g in games if g.loser == team) \
                if r.places_rule is not None else None
            rows.append(Row(team, names, len(games), wins, draws, len(games) - wins - draws,
                            forfeits, last))
        return rows


def _clean(text: str) -> str:
    """One line without braces or quotes, fit for a comment and a tag value."""
    return " ".join(text.replace("{", "(").replace("}", ")").replace('"', "'").split())[:200]


def render_table(rules: Rules, rows: list[Row]) -> str:
    """The results as a text table: win rate with its 95% Wilson interval (and, where the
    others play on for the places, a column of the games each side was placed last in:
    its other losses were second places)."""
    check_rules(rules, "render_table")
    listed = expect_each(rows, Row, "render_table: rows (Match.table makes them)")
    places = any(row.last is not None for row in listed)
    last_head = f"{'last':>6}" if places else ""
    head = f"{'side':<6}{'games':>6}{'wins':>6}{'draws':>6}{'losses':>7}{last_head}" \
           f"{'win rate':>10}{'95% CI':>16}{'forfeits':>10}  players"
    lines = [head, "-" * len(head)]
    for row in listed:
        lo, hi = wilson(row.wins, row.games)
        last = f"{row.last or 0:>6}" if places else ""
        lines.append(f"{rules.team_names[row.team]:<6}{row.games:>6}{row.wins:>6}"
                     f"{row.draws:>6}{row.losses:>7}{last}{row.win_rate:>10.3f}"
                     f"{f'{lo:.3f}-{hi:.3f}':>16}{row.forfeits:>10}  {row.players}")
    return "\n".join(lines)
