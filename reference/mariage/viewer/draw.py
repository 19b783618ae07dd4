"""Drawing a timeline: the self-contained HTML page and SVG pictures.

:func:`render_html` returns one HTML page that holds the whole match (its
steps as JSON, the style sheet and the script inline): it loads nothing from
the network and needs no build step. :func:`render_svg` draws one trick, or
one hand's deal, as a standalone SVG for embedding in a page or a document.

>>> from mariage.notation.reader import parse_record
>>> from mariage.viewer import timeline
>>> text = '''[Mariage "1"]
... [Ruleset "mariazza"]
...
... hand 1
... deal first: A
... A: 4D KC JC 2C 4S
... B: 2H AD 2D 3C 6S
... stock: 5S 3H QC JS 5C AC 4H QD 7H KH 5D AH 4C JD QS 6D 2S AS 7C 3S KD 7S 3D 5H 7D QH KS 6H 6C
... turnup: JH
... 1. A:KC B:2H (won B)
... result *
... '''
>>> tl = timeline(parse_record(text))
>>> page = render_html(tl, text)
>>> page.startswith("<!DOCTYPE html>") and "http://" not in page and "https://" not in page
True
>>> page_data(page)["result"] == tl.result
True
>>> svg = render_svg(tl, hand=1, trick=1)
>>> svg.startswith("<svg") and ">B wins<" in svg and svg.count('class="card"') == 2
True
>>> render_svg(tl, hand=2)
Traceback (most recent call last):
...
ValueError: the record has no hand 2 (it replays 1 hand)
"""

from __future__ import annotations

import html
import json
import os
import re
from importlib import resources

from .. import __version__
from ..errors import shown
from .chart import hands_table, score_chart
from .timeline import Step, Timeline, expect_timeline

__all__ = ["find_step", "page_data", "render_html", "render_svg"]

SUIT_SYMBOLS = {"H": "\u2665", "D": "\u2666", "C": "\u2663", "S": "\u2660"}
_RANKS = {"T": "10"}


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


#: a placeholder of ``page.html``: ``@NAME@``
_SLOT = re.compile(r"@([A-Z]+)@")
#: the element of the page that holds the timeline as JSON
_DATA = re.compile(r'<script type="application/json" id="record-data">(.*?)</script>', re.S)


def _fill(template: str, values: dict[str, str]) -> str:
    """``template`` with each ``@NAME@`` slot filled, in one pass over the template only.

    The text put in is never searched again, so a record that says ``@DATA@`` or
    ``@JS@`` stays what it is. A slot without a value is a bug of the template.
    """
    parts = _SLOT.split(template)  # literal, name, literal, name, ..., literal
    for i in range(1, len(parts), 2):
        parts[i] = values[parts[i]]
    return "".join(parts)


def page_data(page: str) -> dict[str, object]:
    """The timeline a page of :func:`render_html` holds, as a dict (see ``Timeline.as_dict``).

    The data sits in a ``<script type="application/json" id="record-data">`` element of
    its own; raises ``ValueError`` for a page without one.
    """
    m = _DATA.search(page)
    if m is None:
        raise ValueError("not a page of the record viewer (no record-data element)")
    data: dict[str, object] = json.loads(m.group(1))
    return data


def render_html(tl: Timeline, source: str = "") -> str:
    """One self-contained HTML page that steps through ``tl``; ``source`` is the record text.

    The timeline is embedded as JSON in a ``<script type="application/json">`` element
    of its own, escaped so that no ``</script>`` or ``<!--`` can end it early; the
    script reads it from there. Text of the record is HTML-escaped wherever it shows.
    """
    expect_timeline(tl, "render_html")
    if not isinstance(source, str):
        raise TypeError(f"render_html: source is the record's text, a str, "
                        f"not {type(source).__name__}")
    players = ", ".join(f"{s}: {p}" for s, p in tl.players.items())
    seats = " / ".join("".join(team) for team in tl.team_seats)
    subtitle = f"{len(tl.seats)} players" + (f" ({seats})" if seats else "")
    if players:
        subtitle += f"; {players}"
    if tl.options:
        subtitle += "; options " + ", ".join(f"{k}={v}" for k, v in tl.options.items())
    problems = len(tl.errors)
    result = f"Result: {tl.result}" + (
        f". {problems} problem{'s' if problems != 1 else ''} found by the validator"
        if problems else ". The record is valid.")
    where = os.path.basename(tl.record.file) if tl.record.file not in ("<string>", "<stdin>") \
        else ""
    title = f"{tl.title} \u2014 record {tl.record.number}" + (f" of {where}" if where else "")
    return _fill(_asset("page.html"), {
        "VERSION": html.escape(__version__),
        "TITLE": html.escape(title),
        "SUBTITLE": html.escape(subtitle),
        "RESULT": html.escape(result),
        "RECORD": html.escape(source),
        "CSS": _asset("viewer.css"),
        "JS": _asset("viewer.js"),
        "DATA": _script_json(tl.as_dict()),
        "CHART": score_chart(tl),
        "HANDS": hands_table(tl),
    })


def find_step(tl: Timeline, hand: int, trick: int | None = None) -> Step:
    """The deal step of ``hand``, or the step that completes ``trick`` of it.

    Raises ``ValueError`` naming what exists when there is no such hand or trick.
    """
    expect_timeline(tl, "find_step")
    hands = sorted({s.hand for s in tl.steps if s.kind == "deal"})
    if hand not in hands:
        n = len(hands)
        raise ValueError(f"the record has no hand {shown(hand)} (it replays {n} hand"
                         f"{'s' if n != 1 else ''})")
    in_hand = [s for s in tl.steps if s.hand == hand and s.kind != "start"]
    if trick is None:
        return in_hand[0]
    # a card may also go to the table with a declaration (belote:QS plays the queen)
    tricks = [s for s in in_hand if s.kind != "deal" and s.trick == trick and s.table]
    if not tricks:
        last = max((s.trick for s in in_hand if s.kind == "play"), default=0)
        raise ValueError(f"hand {hand} has no trick {shown(trick)} (it has {last})")
    done = [s for s in tricks if s.winner is not None]
    return done[0] if done else tricks[-1]


def _card_svg(code: str, x: float, y: float, w: float = 44, h: float = 62) -> str:
    if code == "??":
        return (f'<g class="card"><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" '
                f'fill="#2b4c9b" stroke="#1c356f"/></g>')
    rank, suit = code[:-1], code[-1]
    colour = "#c0262d" if suit in "HD" else "#1d232a"
    sym = SUIT_SYMBOLS.get(suit, suit)
    return (f'<g class="card"><title>{html.escape(code)}</title>'
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="#fbfaf7" '
            f'stroke="#9aa3ab"/>'
            f'<text x="{x + 5}" y="{y + 17}" fill="{colour}" font-size="15" '
            f'font-weight="700">{html.escape(_RANKS.get(rank, rank))}</text>'
            f'<text x="{x + w - 6}" y="{y + h - 8}" fill="{colour}" font-size="22" '
            f'text-anchor="end">{sym}</text></g>')


def _text(x: float, y: float, s: str, size: int = 14, anchor: str = "start",
          weight: str = "400") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" '
            f'font-weight="{weight}" fill="#1d232a">{html.escape(s)}</text>')


def _svg(width: float, height: float, label: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{html.escape(label)}" '
            f'font-family="system-ui, sans-serif">'
            f'<title>{html.escape(label)}</title>'
            f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
            + "".join(body) + "</svg>\n")


def render_svg(tl: Timeline, hand: int, trick: int | None = None) -> str:
    """An SVG of trick ``trick`` of ``hand`` (each card above its seat), or of the deal."""
    step = find_step(expect_timeline(tl, "render_svg"), hand, trick)
    trump = SUIT_SYMBOLS.get(step.trump or "", "none")
    if trick is not None:
        n = len(step.table)
        width = max(60 + 60 * n, 200)
        body = [_text(10, 20, f"Hand {hand}, trick {trick}; trump {trump}", weight="600")]
        for i, (seat, code) in enumerate(step.table):
            x = 10 + 60 * i
            if seat == step.winner:
                body.append(f'<rect x="{x - 3}" y="{30 - 3}" width="50" height="68" rx="7" '
                            f'fill="#f2c230"/>')
            body.append(_card_svg(code, x, 30))
            body.append(_text(x + 22, 112, seat, anchor="middle"))
        if step.winner:
            body.append(_text(10, 134, f"{step.winner} wins", weight="600"))
        label = f"hand {hand}, trick {trick}: " + " ".join(f"{s}:{c}" for s, c in step.table)
        return _svg(width, 144, label, body)
    rows = tl.seats
    longest = max((len(step.hands.get(s, [])) for s in rows), default=0)
    width = max(70 + 48 * longest, 260)
    height = 40 + 72 * len(rows) + (72 if step.turn_up else 0)
    who = f"dealer {step.dealer}" if step.dealer else ""
    body = [_text(10, 20, f"Hand {hand}: the deal; trump {trump}" + (f"; {who}" if who else ""),
                  weight="600")]
    y = 34
    for seat in rows:
        body.append(_text(10, y + 36, seat, size=16, weight="700"))
        for i, code in enumerate(step.hands.get(seat, [])):
            body.append(_card_svg(code, 50 + 48 * i, y))
        y += 72
    if step.turn_up:
        body.append(_text(10, y + 36, "up", size=14))
        body.append(_card_svg(step.turn_up, 50, y))
    label = f"hand {hand}: the deal"
    return _svg(width, height, label, body)
