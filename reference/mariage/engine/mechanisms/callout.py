"""Calling out: a claim that one's side has reached the target, checked at once.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> mech = DEFAULT_MECHANISMS
>>> mech.rule_ids(mech.call_out, load_rules("mariaggia"))
['mariaggia.call-out', 'mariaggia.call-out.penalty']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, CallOut
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["CallingOut"]


class CallingOut(Mechanism):
    """A call-out by any seat at any moment, won or penalised."""

    __slots__ = ()
    name: ClassVar[str] = "calling out"
    sections: ClassVar[tuple[str, ...]] = ("call_out",)
    any_seat: ClassVar[tuple[tuple[type, str], ...]] = ((CallOut, "apply_call_out"),)
    #: a call-out ends the hand by the hand end (:meth:`Scoring.end_hand`), nothing else
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {"apply_call_out": ()}

    def offers_any_time(self, rules: Rules) -> bool:
        """Calling out is open to every seat at every moment where the rules have it."""
        return bool(rules.call_out_rule)

    def all_actions(self, rules: Rules) -> list[Action]:
        """A call-out, where the rules have one."""
        return [CallOut()] if rules.call_out_rule else []

    def any_time(self, st: GameState, seat: int, out: list[Action]) -> None:
        """A call-out, always."""
        out.append(CallOut())

    def apply_call_out(self, st: GameState, seat: int, action: CallOut) -> None:
        """``seat`` calls out."""
        r = st.rules
        if not r.call_out_rule:
            refuse(st, r.core_phase, seat, action, "this ruleset has no calling out")
        st.actions.append((seat, action))
        self.settle(st, seat)

    def settle(self, st: GameState, seat: int) -> None:
        """End the hand on ``seat``'s call-out: won if his side has the target."""
        r = st.rules
        team = r.team_of[seat]
        end_hand = st.mech.scoring.end_hand
        claim = st.match_scores[team] + st.hand_points(team)
        if claim >= r.match_target:
            end_hand(st, "call_out", winner=team)
            return
        if r.call_out_penalty == "lose_match":  # the hand failed; the call-out ends the match
            others = [t for t in range(len(r.teams)) if t != team]
            end_hand(st, "call_out_failed", winner=others[0] if len(others) == 1 else None,
                     zero_team=team, match_reason="call_out")
            return
        end_hand(st, "call_out_failed", zero_team=team)
