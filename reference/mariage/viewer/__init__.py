"""The record viewer: a record as steps, drawn as a self-contained HTML page or an SVG.

* :func:`timeline` replays a record and snapshots the table after every step;
* :func:`render_html` writes one page that steps through the match;
* :func:`render_svg` draws one trick, or one hand's deal, for embedding.

Each name is imported from its module on first use: ``mariage replay``, which needs
the timeline, does not load the drawing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazynames import lazy_names

if TYPE_CHECKING:  # what the names are, for type checkers; at run time, imported on first use
    from .draw import render_html, render_svg
    from .timeline import Declared, HandEnd, Step, Timeline, timeline

_LAZY = {
    **dict.fromkeys(("render_html", "render_svg"), "draw"),
    **dict.fromkeys(("Declared", "HandEnd", "Step", "Timeline", "timeline"), "timeline"),
}

__all__ = ["Declared", "HandEnd", "Step", "Timeline", "render_html", "render_svg", "timeline"]

__getattr__, __dir__ = lazy_names(globals(), _LAZY)
