"""Where a match stands: the phases of :class:`~mariage.state.GameState`.

The module-level aliases (``DEAL``, ``PLAY``...) exist for the hot path:
reading a module global is cheaper than an enum member access.

>>> Phase.PLAY == PLAY, int(Phase.OVER)
(True, 4)
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["AFTER_TRICK", "ANSWER", "CLOSE_REPLY", "DEAL", "OVER", "PLAY", "WINDOW", "Phase"]


class Phase(IntEnum):
    """Where the match stands."""

    DEAL = 0  #: waiting for the next hand's deal (a chance event)
    PLAY = 1  #: a seat is to declare, ask, exchange or play a card
    WINDOW = 2  #: declaration window at the start of a trick (one seat at a time)
    ANSWER = 3  #: the partner must answer an ask
    OVER = 4  #: the match has ended
    # ---- talon games (values 10-14 are theirs)
    AFTER_TRICK = 10  #: the winner of a trick may claim, close before the draw, or go on
    CLOSE_REPLY = 11  #: just after a close, the closer's opponent may exchange or decline


DEAL, PLAY, WINDOW, ANSWER, OVER = Phase.DEAL, Phase.PLAY, Phase.WINDOW, Phase.ANSWER, Phase.OVER
AFTER_TRICK, CLOSE_REPLY = Phase.AFTER_TRICK, Phase.CLOSE_REPLY
