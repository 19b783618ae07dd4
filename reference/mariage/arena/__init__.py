"""Matches between engines and bots, and the players that search.

* :mod:`mariage.arena.search`: :func:`determinize` (a full state drawn from
  what one seat knows) and :class:`MonteCarloBot`, the built-in ``mc`` player;
* :mod:`mariage.arena.ismcts`: :class:`~mariage.arena.ismcts.ISMCTS`, information-set
  Monte Carlo tree search, the built-in ``ismcts`` player;
* :mod:`mariage.arena.players`: the players of a match: built-in bots and
  outside engines spoken to over the engine protocol, with ``choose``;
* :mod:`mariage.arena.hiding`: what the referee tells each engine: the deal
  with the cards its seat cannot see hidden, and what it comes to see;
* :mod:`mariage.arena.match`: ``mariage match``: games with rotated seats over
  paired deals, forfeits, records and the results table;
* :mod:`mariage.arena.refengine`: the reference engine with ``choose``
  (``python -m mariage.arena.refengine``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazynames import lazy_names

if TYPE_CHECKING:  # what the names are, for type checkers; at run time, imported on first use
    from .search import MonteCarloBot, determinize

#: the built-in players a seat of ``mariage match`` may be given (light: ``--help`` reads it)
BOT_NAMES = ("random", "greedy", "mc", "ismcts")

__all__ = ["BOT_NAMES", "MonteCarloBot", "determinize"]

_LAZY = dict.fromkeys(("MonteCarloBot", "determinize"), "search")

__getattr__, __dir__ = lazy_names(globals(), _LAZY)
