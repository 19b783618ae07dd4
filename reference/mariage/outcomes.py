"""How hands and matches end: the records a :class:`~mariage.state.GameState` keeps.

They live apart from :mod:`mariage.state` so that the mechanisms that make them
(scoring, match end) import them once, at module level, rather than on every
hand; :mod:`mariage.state` exports them under its own name as before.

>>> HandRecord(1, 0, (60, 60), (60, 60), (5, 5), "played_out").winner is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HandRecord", "MatchResult"]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: the winning team (or ``None``) and why."""

    winner: int | None
    reason: str
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """The outcome of one finished hand."""

    number: int
    dealer: int | None
    points: tuple[int, ...]  # card points plus declarations, per team
    score: tuple[int, ...]  # what was added to the match score, per team
    tricks: tuple[int, ...]
    ended: str  # played_out | target | call_out | match_won
    winner: int | None = None  # the team that took the hand (segno), where that counts
    # bidding games: the contract of the hand
    contract: int = 0  # the game value (0: no contract)
    declarer: int = -1
    made: bool | None = None  # None: nobody bid
    schwarz: tuple[int, ...] = ()  # the teams that won no trick
    kontras: int = 0  # Kontra and Re said
