"""Summaries of many records: results, hands, points per seat, declarations, tricks.

:class:`Stats` takes records one at a time (:meth:`Stats.add_text` checks and
replays each, keeping only running totals, so memory does not grow with the
number of records) and groups them by ruleset. Each :class:`RulesetStats`
counts matches and their results (per side, per reason and per player: players
change seats from match to match), hands and tricks, card points won per seat,
declarations by kind (how many, their value, by whom), and the number of hands
per match. :meth:`Stats.as_dict`, :meth:`Stats.text` and :func:`stats_html`
give them as JSON, text and a page of SVG bar charts (:mod:`.chart`).

>>> from mariage import load_rules
>>> from mariage.arena.bots import make_bot
>>> from mariage.notation import record_match, write_record
>>> rules = load_rules("marianna")
>>> stats = Stats()
>>> for seed in (1, 2):
...     rec = record_match(rules, seed, [make_bot("greedy", i) for i in range(4)])
...     problems = stats.add_text(write_record(rec), file="m.mrg", number=seed)
>>> m = stats.rulesets["marianna"]
>>> m.matches, sum(m.wins.values()), m.hands == sum(k * n for k, n in m.match_lengths.items())
(2, 2, True)
>>> sum(m.card_points.values()) == 120 * m.hands  # every card point goes to some seat
True
>>> stats.invalid, sorted(m.declarations) == sorted(set(m.declarations))
(0, True)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from mariage.engine.declared import declared_kind
from mariage.engine.state import GameState
from mariage.errors import printable

from .. import __version__
from ..lazyrecord import field, record
from ..notation.errors import RecordError
from ..notation.model import Act, Hand
from ..notation.replay import check_text, team_name

__all__ = ["RulesetStats", "Stats", "stats_html"]


class _Tally:
    """The listener of one record's replay: hands, tricks, points and declarations."""

    def __init__(self) -> None:
        self.hands = 0
        self.tricks = 0
        self.trick_wins: Counter[int] = Counter()
        self.card_points: Counter[int] = Counter()
        self.declared: list[tuple[int, int, int, int]] = []
        self._seen = 0

    def on_deal(self, state: GameState, hand: Hand) -> None:
        self.hands += 1
        self._seen = len(state.declared)

    def on_act(self, state: GameState, act: Act, trick_done: bool, hand_over: bool) -> None:
        if len(state.declared) > self._seen:
            self.declared.extend(state.declared[self._seen:])
        self._seen = len(state.declared)
        if trick_done and state.tricks:
            _, cards, winner = state.tricks[-1]
            self.tricks += 1
            self.trick_wins[winner] += 1
            self.card_points[winner] += sum(state.rules.points[c] for c in cards)


@record
class RulesetStats:
    """The running totals of the valid records of one ruleset."""

    ruleset: str
    seats: list[str]
    teams: list[str]
    measure: str
    matches: int = 0
    finished: int = 0
    hands: int = 0
    tricks: int = 0
    wins: Counter[str] = field(default_factory=Counter)  # side (or '-': nobody)
    reasons: Counter[str] = field(default_factory=Counter)
    #: the side placed last, where the others play on for the places (``match.places``)
    losers: Counter[str] = field(default_factory=Counter)
    player_matches: Counter[str] = field(default_factory=Counter)
    player_wins: Counter[str] = field(default_factory=Counter)
    card_points: Counter[str] = field(default_factory=Counter)  # per seat
    trick_wins: Counter[str] = field(default_factory=Counter)  # per seat
    declarations: Counter[str] = field(default_factory=Counter)  # per kind: how many
    declaration_points: Counter[str] = field(default_factory=Counter)  # per kind: value
    declared_by: Counter[str] = field(default_factory=Counter)  # per seat: how many
    match_lengths: Counter[int] = field(default_factory=Counter)  # hands per match

    def per_hand(self, counter: Counter[str]) -> dict[str, float]:
        """``counter`` per seat divided by the number of hands (0 without hands)."""
        return {s: round(counter[s] / self.hands, 2) if self.hands else 0.0 for s in self.seats}

    def as_dict(self) -> dict[str, Any]:
        """The totals and averages as a JSON-ready dict."""
        return {
            "ruleset": self.ruleset, "matches": self.matches, "finished": self.finished,
            "hands": self.hands, "tricks": self.tricks,
            "hands_per_match": round(self.hands / self.matches, 2) if self.matches else 0,
            "tricks_per_hand": round(self.tricks / self.hands, 2) if self.hands else 0,
            "wins": dict(self.wins), "reasons": dict(self.reasons),
            "losers": dict(self.losers),
            "players": {p: {"matches": n, "wins": self.player_wins[p]}
                        for p, n in sorted(self.player_matches.items())},
            "card_points": {s: self.card_points[s] for s in self.seats},
            "card_points_per_hand": self.per_hand(self.card_points),
            "tricks_won": {s: self.trick_wins[s] for s in self.seats},
            "tricks_won_per_hand": self.per_hand(self.trick_wins),
            "declarations": {k: {"count": n, "points": self.declaration_points[k]}
                             for k, n in sorted(self.declarations.items())},
            "declarations_by_seat": {s: self.declared_by[s] for s in self.seats},
            "match_lengths": {str(k): n for k, n in sorted(self.match_lengths.items())},
        }

    def text(self) -> list[str]:
        """The totals as lines of text."""
        d = self.as_dict()
        out = [f"{self.ruleset}: {self.matches} matches ({self.finished} finished), "
               f"{self.hands} hands ({d['hands_per_match']} a match), {self.tricks} tricks "
               f"({d['tricks_per_hand']} a hand)"]
        out.append("  results: " + (", ".join(
            f"{side} {n}" for side, n in self.wins.most_common()) or "none") + (
            " (" + ", ".join(f"{r} {n}" for r, n in self.reasons.most_common()) + ")"
            if self.reasons else ""))
        if self.losers:
            out.append("  losers: " + ", ".join(
                f"{side} {n}" for side, n in self.losers.most_common()))
        if self.player_matches:
            out.append("  players: " + ", ".join(
                f"{printable(p)} {self.player_wins[p]}/{n}"
                for p, n in sorted(self.player_matches.items()))
                + " (won/played)")
        out.append("  card points a hand: " + ", ".join(
            f"{s} {v}" for s, v in d["card_points_per_hand"].items()))
        out.append("  tricks a hand: " + ", ".join(
            f"{s} {v}" for s, v in d["tricks_won_per_hand"].items()))
        out.append("  declarations: " + (", ".join(
            f"{k} {n} ({self.declaration_points[k]} points)"
            for k, n in self.declarations.most_common()) or "none"))
        return out


class Stats:
    """Running totals of many records, by ruleset; invalid records are counted, not used."""

    def __init__(self) -> None:
        self.rulesets: dict[str, RulesetStats] = {}
        self.records = 0
        self.invalid = 0

    def add_text(self, text: str, *, file: str = "<string>", number: int = 1,
                 line: int = 1) -> list[RecordError]:
        """Check one record's text and add it if valid; its problems (at most one)."""
        self.records += 1
        tally = _Tally()
        checked = check_text(text, file=file, number=number, line=line, strict=True,
                             listener=tally)
        rules, state = checked.rules, checked.state
        if checked.errors or rules is None or state is None:
            self.invalid += 1
            return checked.errors[:1]
        name = checked.record.ruleset or rules.ruleset
        seats = list(rules.seat_names)
        rs = self.rulesets.get(name)
        if rs is None:
            rs = self.rulesets[name] = RulesetStats(name, seats, list(rules.team_names),
                                                    rules.match_measure)
        rs.matches += 1
        rs.hands += tally.hands
        rs.tricks += tally.tricks
        rs.match_lengths[tally.hands] += 1
        players = checked.record.players
        for who in {players[s] for s in seats if s in players}:  # a name once per match
            rs.player_matches[who] += 1
        if state.result is not None:
            res = state.result
            rs.finished += 1
            side = team_name(rules, res.winner)
            rs.wins[side] += 1
            rs.reasons[res.reason] += 1
            if state.loser is not None:
                rs.losers[team_name(rules, state.loser)] += 1
            if res.winner is not None:
                for who in {players[seats[s]] for s in rules.teams[res.winner]
                            if seats[s] in players}:
                    rs.player_wins[who] += 1
        for s, n in tally.card_points.items():
            rs.card_points[seats[s]] += n
        for s, n in tally.trick_wins.items():
            rs.trick_wins[seats[s]] += n
        for seat, kind, _, value in tally.declared:
            what = declared_kind(rules, kind).name
            rs.declarations[what] += 1
            rs.declaration_points[what] += value
            rs.declared_by[seats[seat]] += 1
        return []

    def as_dict(self) -> dict[str, Any]:
        """Every ruleset's totals, and how many records were read and found invalid."""
        return {"records": self.records, "valid": self.records - self.invalid,
                "invalid": self.invalid,
                "rulesets": [rs.as_dict() for _, rs in sorted(self.rulesets.items())]}

    def text(self) -> str:
        """The totals as text, a block per ruleset."""
        lines = [f"{self.records} records, {self.records - self.invalid} valid, "
                 f"{self.invalid} invalid (not counted below)"]
        for _, rs in sorted(self.rulesets.items()):
            lines += ["", *rs.text()]
        return "\n".join(lines) + "\n"


def stats_html(stats: Stats, title: str = "Records") -> str:
    """A self-contained page of the totals: a section of bar charts per ruleset."""
    import html  # (the text and JSON reports need neither: start-up)

    from .chart import bar_chart

    esc = html.escape
    parts = [f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
             f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
             f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
             f"style-src 'unsafe-inline'\">\n"
             f'<meta name="generator" content="mariage {esc(__version__)}">\n'
             f"<title>{esc(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
             f"<h1>{esc(title)}</h1>\n<p>{stats.records} records, "
             f"{stats.records - stats.invalid} valid, {stats.invalid} invalid "
             f"(not counted).</p>\n"]
    for _, rs in sorted(stats.rulesets.items()):
        d = rs.as_dict()
        parts.append(f'<section id="{esc(rs.ruleset)}"><h2>{esc(rs.ruleset)}</h2>\n<p>'
                     f"{rs.matches} matches ({rs.finished} finished), {rs.hands} hands "
                     f"({d['hands_per_match']} a match), {rs.tricks} tricks "
                     f"({d['tricks_per_hand']} a hand).</p>\n")
        charts = [
            bar_chart(rs.wins.most_common(), "matches won by side", "matches"),
            bar_chart([(f"{p} ({rs.player_wins[p]}/{n})", rs.player_wins[p] / n)
                       for p, n in sorted(rs.player_matches.items())],
                      "share of matches won by player", "of the matches played"),
            bar_chart(list(d["card_points_per_hand"].items()), "card points a hand by seat",
                      "points"),
            bar_chart(list(d["tricks_won_per_hand"].items()), "tricks won a hand by seat",
                      "tricks"),
            bar_chart(rs.declarations.most_common(), "declarations by kind", "made"),
            bar_chart([(f"{k} hands", n) for k, n in sorted(rs.match_lengths.items())],
                      "matches by number of hands", "matches"),
        ]
        parts.append("".join(f'<figure>{c}</figure>\n' for c in charts) + "</section>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)


_CSS = ("body{font-family:system-ui,sans-serif;margin:0 auto;padding:0.5rem;max-width:60rem;"
        "color:#1d232a;background:#eef1ee}section{background:white;border:1px solid #d9dde1;"
        "border-radius:0.6rem;padding:0.5rem 0.8rem;margin:0.6rem 0}"
        "figure{margin:0.4rem 0}.chart{display:block;width:100%;height:auto}"
        "h1{font-size:1.3rem}h2{font-size:1.1rem}")
