"""Capture bonus: the side that wins a named card in a trick scores extra for the hand.

Runs ``scoring.capture_bonus``: a card named by rank and suit, or by rank in
the trump suit of the hand (the ten of trumps), is worth a fixed bonus, in the
units of the match score, to the side whose trick holds it. It is added to
what the hand scores, whoever wins the hand, a drawn hand included; a hand
that ends before the card is played, or a hand without trump, gives nobody
the bonus.

>>> from mariage import load_rules
>>> rules = load_rules("sixty-six-4", {"ten_of_trumps_point": True})
>>> rules.ranks[rules.capture_bonus_rank], rules.capture_bonus_value
('T', 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["CaptureBonus"]


class CaptureBonus(Mechanism):
    """The bonus for winning a named card in a trick."""

    __slots__ = ()
    name: ClassVar[str] = "capture bonus"
    sections: ClassVar[tuple[str, ...]] = ("scoring.capture_bonus",)
    #: the bonus goes into the hand's score, nothing of the state
    trail_hooks: ClassVar[dict[str, tuple[str, ...]]] = {"add": ()}

    def card(self, st: GameState) -> int:
        """The card that earns the bonus in this hand, or -1 (no trump to name it by)."""
        r = st.rules
        suit = st.trump if r.capture_bonus_suit < 0 else r.capture_bonus_suit
        card = suit * len(r.ranks) + r.capture_bonus_rank
        return card if suit >= 0 and card < r.ncards else -1

    def winner(self, st: GameState) -> int | None:
        """The side that has won the card in a trick of this hand, or ``None``."""
        card = self.card(st)
        for _, cards, won_by in st.tricks:
            if card in cards:
                return st.rules.team_of[won_by]
        return None

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """When the hand is scored, where the rules have a capture bonus."""
        return (("hand_scored", "add"),) if rules.capture_bonus_rule is not None else ()

    def add(self, st: GameState, added: list[int]) -> None:
        """Add the bonus to the hand's score of the side that won the card (if any)."""
        team = self.winner(st)
        if team is not None:
            added[team] += st.rules.capture_bonus_value
