"""Held declaration credit: points that wait until the declarer has won a trick.

Runs the credit modes ``with_trick`` (a declaration counts once the
declarer's side has won a trick in the hand, before or after declaring; a
declarer who never wins one scores nothing for it) and ``next_trick`` (it
counts only when the declarer next wins a trick after declaring). The
declarations mechanism asks :meth:`HeldCredit.hold` whether to hold a value;
the ``after_trick`` hook runs :meth:`HeldCredit.on_trick_won` for the winner of
each trick.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("schnapsen"), first_dealer=0)
>>> state.deal(canonical_deck(state.rules))
>>> state.mech.held_credit.hold(state, 1, 20, "with_trick"), state.held[1]
(True, 20)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["HeldCredit"]


class HeldCredit(Mechanism):
    """Declaration points held until the declarer wins a trick."""

    __slots__ = ()
    name: ClassVar[str] = "held declaration credit"
    steps: ClassVar[tuple[str, ...]] = ("hold",)
    #: the trick's winner holds nothing: the hook changes nothing (where he holds points,
    #: undo journals a snapshot of the trick's end: they are seldom held)
    quiet_hooks: ClassVar[dict[str, str]] = {"after_trick": "not st.held[winner]"}
    #: ... else what he holds counts
    mark_hooks: ClassVar[dict[str, tuple[str, ...]]] = {"after_trick": ("held", "decl_points")}

    def hold(self, st: GameState, seat: int, value: int, credit: str) -> bool:
        """Hold ``value`` for ``seat`` if it may not count yet; False if it counts at once."""
        if credit == "with_trick" and st.tricks_won[st.rules.team_of[seat]] > 0:
            return False
        st.held[seat] += value
        return True

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """After a trick, where declarations wait on a trick won (``credit_on_win``)."""
        return (("after_trick", "after_trick"),) if rules.credit_on_win else ()

    hook_gate_depends: ClassVar[dict[str, tuple[str, ...]]] = {
        "after_trick": ("on_trick_won",)}

    def hook_gate(self, method: str, rules: Rules) -> str | None:
        """After a trick, only a winner who holds points has anything to count."""
        return "st.held[winner]" if method == "after_trick" else None

    def after_trick(self, st: GameState, winner: int) -> bool:
        """The trick's winner's held points count now; the trick goes on (False)."""
        self.on_trick_won(st, winner)
        return False

    def on_trick_won(self, st: GameState, winner: int) -> None:
        """``winner`` has won a trick: whatever he holds now counts."""
        v = st.held[winner]
        if v:
            st.held[winner] = 0
            st.decl_points[st.rules.team_of[winner]] += v
