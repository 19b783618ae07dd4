"""The record viewer: a record as steps, drawn as a self-contained HTML page or an SVG.

* :func:`timeline` replays a record and snapshots the table after every step;
* :func:`render_html` writes one page that steps through the match;
* :func:`render_svg` draws one trick, or one hand's deal, for embedding.
"""

from __future__ import annotations

from .draw import render_html, render_svg
from .timeline import Declared, HandEnd, Step, Timeline, timeline

__all__ = ["Declared", "HandEnd", "Step", "Timeline", "render_html", "render_svg", "timeline"]
