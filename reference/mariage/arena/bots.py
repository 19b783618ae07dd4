"""Built-in players by name: ``random``, ``greedy``, ``mc`` and ``ismcts``.

``random`` and ``greedy`` are :mod:`mariage.arena.plainbots`; ``mc`` is
:class:`mariage.arena.search.MonteCarloBot` and ``ismcts``
:class:`mariage.arena.ismcts.ISMCTS`: they search determinizations of their seat's view.

All are deterministic given their seed. None ever calls out or claims
wrongly: a call-out or a claim is offered to them only when it is good.

>>> from mariage import load_rules, new_match
>>> st = new_match(load_rules("marianna"), seed=3)
>>> bot = make_bot("greedy", seed=0)
>>> bot.choose(st) in st.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable

from mariage.errors import did_you_mean

from .plainbots import Bot, GreedyBot, RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]

def _monte_carlo(seed: int = 0) -> Bot:
    """The determinized Monte Carlo player of :mod:`mariage.arena.search`."""
    from .search import MonteCarloBot

    return MonteCarloBot(seed)


def _ismcts(seed: int = 0) -> Bot:
    """Information-set Monte Carlo tree search (:mod:`mariage.arena.ismcts`), 200
    iterations a decision."""
    from .ismcts import ISMCTS

    return ISMCTS(seed)


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot,
                                         "mc": _monte_carlo, "ismcts": _ismcts}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``greedy``, ``mc``, the Monte Carlo player, or
    ``ismcts``, information-set Monte Carlo tree search)."""
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot '{name}' (bots: {', '.join(BOTS)})"
                         + did_you_mean(name, BOTS)) from None
    return cls(seed)
