"""The record viewer: a record as steps, drawn as a self-contained HTML page or an SVG.

* :func:`timeline` replays a record and snapshots the table after every step;
* :func:`render_html` writes one page that steps through the match;
* :func:`render_svg` draws one trick, or one hand's deal, for embedding.

The drawing's names are imported from their module on first use: ``mariage replay``,
which needs the timeline, does not load the drawing. (``timeline`` is imported at once:
the function has its module's name, which the import of the module would otherwise
leave bound to the module.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazynames import lazy_names
from .timeline import Declared, HandEnd, Step, Timeline, timeline

if TYPE_CHECKING:  # what the names are, for type checkers; at run time, imported on first use
    from .draw import render_html, render_svg

_LAZY = dict.fromkeys(("render_html", "render_svg"), "draw")

__all__ = ["Declared", "HandEnd", "Step", "Timeline", "render_html", "render_svg", "timeline"]

__getattr__, __dir__ = lazy_names(globals(), _LAZY)
