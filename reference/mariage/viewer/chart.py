"""Charts as SVG inline in HTML (no script, no library): the match hand by hand, and bars.

:func:`hand_scores` reads a timeline's hands: the match score after each one
(points, or hands won), what it added, how it ended and the declarations made
in it. :func:`score_chart` draws the running score of each side with a point
per hand that links to that hand (``#hand=N``, which the viewer's page steps
to); :func:`hands_table` lists the same hands as an HTML table;
:func:`bar_chart` draws labelled bars (``mariage stats`` uses it).

>>> from mariage import load_rules
>>> from mariage.arena.bots import make_bot
>>> from mariage.notation import record_match
>>> from mariage.viewer import timeline
>>> rec = record_match(load_rules("mariazza"), seed=2,
...                    bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
>>> tl = timeline(rec)
>>> start, hands = hand_scores(tl)
>>> start, hands[0].hand, hands[0].match == hands[0].scored, hands[-1].match
([0, 0], 1, True, [4, 2])
>>> svg = score_chart(tl)
>>> svg.startswith("<svg") and svg.count('href="#hand=') == len(hands)
True
>>> bar = bar_chart([("marianna", 12), ("tierce", 3)], "declarations")
>>> bar.count("<rect") - 1, ">marianna<" in bar and ">12<" in bar
(2, True)
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field

from .timeline import Declared, Timeline

__all__ = ["COLOURS", "HandScore", "bar_chart", "hand_scores", "hands_table", "score_chart"]

#: one colour per side, told apart also by those who do not see red and green apart
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")
SUIT_SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}


@dataclass(slots=True)
class HandScore:
    """One hand as the match saw it: the match score after it (in the match's measure),
    what it added to each side, how it ended and the declarations made in it."""

    hand: int
    match: list[int]
    scored: list[int]
    ended: str
    declarations: list[Declared] = field(default_factory=list)
    dealer: str | None = None
    #: the seat that led the hand's first trick
    led: str | None = None


def hand_scores(tl: Timeline) -> tuple[list[int], list[HandScore]]:
    """The match score before the first hand of ``tl`` and each completed hand after it."""
    deals = [s for s in tl.steps if s.kind == "deal"]
    start = list(deals[0].match) if deals else [0] * len(tl.teams)
    hands: list[HandScore] = []
    made: dict[int, list[Declared]] = {}
    dealer: dict[int, str | None] = {}
    led: dict[int, str | None] = {}
    for step in tl.steps:
        if step.kind == "start":
            continue
        if step.kind == "deal":
            dealer[step.hand] = step.dealer
        elif step.kind == "play" and step.hand not in led and step.table:
            led[step.hand] = step.table[0][0]
        if len(step.declarations) > len(made.get(step.hand, [])):
            made[step.hand] = list(step.declarations)
        if step.hand_end is not None:
            end = step.hand_end
            scored = list(end.scored)
            if tl.measure == "hands_won":  # what the hand added is its segno
                scored = [int(team == end.segno) for team in tl.teams]
            hands.append(HandScore(step.hand, list(step.match), scored, end.ended,
                                   made.get(step.hand, []), dealer.get(step.hand),
                                   led.get(step.hand)))
    return start, hands


def _esc(text: object) -> str:
    return html.escape(str(text))


def _declared(d: Declared) -> str:
    suit = SUIT_SYMBOLS.get(d.suit, d.suit)
    return f"{d.seat} {d.name} {suit} {d.value}"


def score_chart(tl: Timeline, width: int = 640, height: int = 240) -> str:
    """The running match score of each side, a point per hand linking to ``#hand=N``.

    A dashed line marks the target where the match is played to one; a small
    mark above a hand says that declarations were made in it (their list is the
    point's tooltip).
    """
    start, hands = hand_scores(tl)
    unit = "hands won" if tl.measure == "hands_won" else "points"
    label = f"the match score in {unit}, hand by hand"
    head = (f'<svg class="chart score-chart" '
            f'viewBox="0 0 {width} {height}" width="100%" role="img" '
            f'aria-label="{_esc(label)}" font-family="system-ui, sans-serif" font-size="12">'
            f"<title>{_esc(label)}</title>")
    if not hands:
        return (head + f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle" '
                f'fill="#5b6670">no hand was completed</text></svg>')
    left, right, top, bottom = 52, 12, 36, 30
    series = [start] + [h.match for h in hands]
    values = [v for row in series for v in row]
    target = tl.target if tl.measure != "hands_played" and tl.target else None
    lo = min(0, *values)
    hi = max(1, *values, *([target] if target else []))
    n = len(series) - 1

    def x(i: int) -> float:
        return round(left + (width - left - right) * i / max(1, n), 1)

    def y(v: int) -> float:
        return round(top + (height - top - bottom) * (hi - v) / (hi - lo), 1)

    body: list[str] = []
    for v in sorted({lo, 0, hi, *([target] if target else [])}):
        dash = ' stroke-dasharray="5 4"' if v == target else ""
        body.append(f'<line x1="{left}" x2="{width - right}" y1="{y(v)}" y2="{y(v)}" '
                    f'stroke="#9aa3ab" stroke-width="1"{dash}/>'
                    f'<text x="{left - 6}" y="{y(v) + 4}" text-anchor="end" fill="#5b6670">'
                    f"{v}</text>")
        if v == target:
            body.append(f'<text x="{width - right}" y="{y(v) - 4}" text-anchor="end" '
                        f'fill="#5b6670">target {v}</text>')
    every = max(1, n // 16)
    names = [f"{team} ({''.join(seats)})" if "".join(seats) != team else team
             for team, seats in zip(tl.teams, tl.team_seats, strict=True)]
    for i, h in enumerate(hands, start=1):
        if i % every == 0 or i == n:
            body.append(f'<text x="{x(i)}" y="{height - bottom + 16}" text-anchor="middle" '
                        f'fill="#5b6670">{h.hand}</text>')
    for t, team in enumerate(tl.teams):
        colour = COLOURS[t % len(COLOURS)]
        points = " ".join(f"{x(i)},{y(row[t])}" for i, row in enumerate(series))
        body.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                    f'stroke-width="2.5"><title>{_esc(team)}</title></polyline>')
    for i, h in enumerate(hands, start=1):
        said = "; ".join(_declared(d) for d in h.declarations)
        tip = f"Hand {h.hand} ({h.ended}): " + ", ".join(
            f"{team} {h.match[t]} ({h.scored[t]:+d})" for t, team in enumerate(tl.teams)) + (
            f". Declarations: {said}" if said else "")
        dots = "".join(f'<circle cx="{x(i)}" cy="{y(h.match[t])}" r="4" '
                       f'fill="{COLOURS[t % len(COLOURS)]}"/>' for t in range(len(tl.teams)))
        mark = (f'<path d="M{x(i)} {top - 13} l4 5 l-4 5 l-4 -5 z" fill="#c0262d"/>'
                if h.declarations else "")
        body.append(f'<a href="#hand={h.hand}" class="hand-link" data-hand="{h.hand}">'
                    f"<title>{_esc(tip)}</title>{mark}{dots}</a>")
    legend = []
    at = left
    for t, name in enumerate(names):
        legend.append(f'<rect x="{at}" y="4" width="12" height="12" '
                      f'fill="{COLOURS[t % len(COLOURS)]}"/>'
                      f'<text x="{at + 16}" y="14" fill="#1d232a">{_esc(name)}</text>')
        at += 28 + 7 * len(name)
    legend.append(f'<text x="{width - right}" y="14" text-anchor="end" fill="#5b6670">'
                  f"{_esc(unit)} after each hand</text>")
    return head + "".join(body + legend) + "</svg>"


def hands_table(tl: Timeline) -> str:
    """Every completed hand as a row: a link to it, its dealer and who led the first trick,
    each side's score, its declarations and how it ended."""
    _, hands = hand_scores(tl)
    if not hands:
        return ""
    head = "".join(f"<th>{_esc(team)}</th>" for team in tl.teams)
    rows = []
    for h in hands:
        cells = "".join(f'<td class="num">{h.match[t]} <span class="muted">'
                        f"({h.scored[t]:+d})</span></td>" for t in range(len(tl.teams)))
        said = ", ".join(_declared(d) for d in h.declarations)
        rows.append(f'<tr><td><a href="#hand={h.hand}" data-hand="{h.hand}">Hand {h.hand}'
                    f"</a></td><td>{_esc(h.dealer or '-')}</td><td>{_esc(h.led or '-')}</td>"
                    f"{cells}<td>{_esc(said) or '-'}</td><td>{_esc(h.ended)}</td></tr>")
    return (f'<table class="scores hands"><thead><tr><th>hand</th><th>dealer</th><th>led</th>'
            f"{head}<th>declarations</th><th>ended</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def bar_chart(items: Sequence[tuple[str, float]], title: str, unit: str = "",
              width: int = 640) -> str:
    """Horizontal bars, one per ``(label, value)``, each with its value written after it."""
    row, left = 22, min(220, 16 + 7 * max((len(label) for label, _ in items), default=4))
    height = 30 + row * max(1, len(items))
    top = max((v for _, v in items), default=0) or 1
    body = [f'<svg class="chart bar-chart" '
            f'viewBox="0 0 {width} {height}" width="100%" role="img" aria-label="{_esc(title)}" '
            f'font-family="system-ui, sans-serif" font-size="12"><title>{_esc(title)}</title>'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
            f'<text x="4" y="16" font-weight="600" fill="#1d232a">{_esc(title)}</text>']
    span = width - left - 70
    for i, (label, value) in enumerate(items):
        yy = 26 + row * i
        w = round(span * max(0.0, value) / top, 1)
        shown = f"{value:g}" if isinstance(value, int) else f"{value:.2f}"
        body.append(f'<text x="{left - 6}" y="{yy + 13}" text-anchor="end" fill="#1d232a">'
                    f"{_esc(label)}</text>"
                    f'<rect x="{left}" y="{yy + 2}" width="{w}" height="{row - 6}" '
                    f'fill="{COLOURS[i % len(COLOURS)]}"><title>{_esc(label)}: {shown} '
                    f"{_esc(unit)}</title></rect>"
                    f'<text x="{left + w + 6}" y="{yy + 13}" fill="#1d232a">{shown}</text>')
    if not items:
        body.append(f'<text x="{left}" y="40" fill="#5b6670">none</text>')
    return "".join(body) + "</svg>"
