"""Where a match stands: the phases of :class:`~mariage.engine.state.GameState`.

The module-level aliases (``DEAL``, ``PLAY``...) exist for the hot path:
reading a module global is cheaper than an enum member access.

>>> Phase.PLAY == PLAY, int(Phase.OVER)
(True, 4)
"""

from __future__ import annotations

from enum import IntEnum

__all__ = [
    "AFTER_TRICK",
    "ANSWER",
    "AUCTION",
    "BIDDING",
    "CLOSE_REPLY",
    "CONTRACT",
    "DEAL",
    "OVER",
    "PASSING",
    "PLAY",
    "QUESTION",
    "TAKING",
    "WAITING_FOR",
    "WINDOW",
    "Phase",
]


class Phase(IntEnum):
    """Where the match stands: ``GameState.phase``. A match is over in ``OVER``.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand"), seed=1)
    >>> state.phase, state.legal_actions()[:2]
    (<Phase.AUCTION: 5>, [Bid(value=100), Bid(value=105)])
    >>> state = new_match(load_rules("marianna"), seed=1)
    >>> while state.phase is not Phase.OVER:
    ...     state.apply(state.legal_actions()[0])
    >>> state.terminal, state.legal_actions()
    (True, [])
    """

    DEAL = 0  #: waiting for the next hand's deal (a chance event)
    PLAY = 1  #: a seat is to declare, ask, exchange or play a card
    WINDOW = 2  #: declaration window at the start of a trick (one seat at a time)
    ANSWER = 3  #: the partner must answer an ask
    OVER = 4  #: the match has ended
    # bidding games
    AUCTION = 5  #: the auction: the seat to act bids or passes
    PASSING = 6  #: cards passed between partners (one step at a time)
    CONTRACT = 7  #: the declarer keeps or raises the game value
    QUESTION = 8  #: the partner must answer a trump-call question

    # ---- talon games (values 10-14 are theirs)
    AFTER_TRICK = 10  #: the winner of a trick may claim, close before the draw, or go on
    CLOSE_REPLY = 11  #: just after a close, the closer's opponent may exchange or decline

    # ---- a turned card taken in rounds (values 20-24 are theirs)
    TAKING = 20  #: the seat to act takes the turned card, names a suit, or passes
    BIDDING = 21  #: an auction of a value and a trump suit, with doubling and redoubling


DEAL, PLAY, WINDOW, ANSWER, OVER = Phase.DEAL, Phase.PLAY, Phase.WINDOW, Phase.ANSWER, Phase.OVER
AUCTION, PASSING, CONTRACT, QUESTION = (Phase.AUCTION, Phase.PASSING, Phase.CONTRACT,
                                        Phase.QUESTION)
AFTER_TRICK, CLOSE_REPLY = Phase.AFTER_TRICK, Phase.CLOSE_REPLY
TAKING, BIDDING = Phase.TAKING, Phase.BIDDING

#: What a phase other than play waits for: why a card, or a declaration, is refused in it
#: (rule ``core.phase``).
WAITING_FOR: dict[Phase, str] = {
    ANSWER: "the partner must answer first",
    WINDOW: "the declaration window is open: declare or pass",
    AUCTION: "the auction is on: bid or pass",
    PASSING: "the partners are passing cards",
    CONTRACT: "the declarer must keep or raise the game value first",
    QUESTION: "the partner must answer the question first",
    AFTER_TRICK: "the trick's winner must first claim, close, draw or decline",
    CLOSE_REPLY: "the closer's opponent must first exchange or decline",
}
