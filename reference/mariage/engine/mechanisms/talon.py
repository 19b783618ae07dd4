"""The talon of the auction's winner: shown, taken, and conceding the hand after it.

Runs the talon dealt face down (the cards left after the deal), which the
declarer turns face up for everybody (or not, as the rules say) and takes into
his hand as soon as the auction is won; and the declarer's concession after
seeing it, within the rules' window: the hand is then scored unplayed (each
opponent an award, the declarer nothing or his bid, by how many times he has
conceded in the match).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> from mariage.engine.actions import parse_action
>>> state = GameState(load_rules("thousand"), first_dealer=2)
>>> state.deal(canonical_deck(state.rules))
>>> for text in ("bid:100", "pass", "pass"):
...     state.apply(parse_action(state.rules, text))
>>> state.phase.name, state.declarer, state.hands[0].bit_count(), state.stock
('PASSING', 0, 10, [])
>>> [action_text(state.rules, a) for a in state.legal_actions()][:2]
['concede', 'give:AH']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Concede, action_text
from ..phase import CONTRACT, PASSING
from .base import Mechanism, refuse
from .contract import round_to

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Talon", "action_text"]


class Talon(Mechanism):
    """The declarer's talon: shown, taken; conceding the hand after seeing it."""

    __slots__ = ()
    name: ClassVar[str] = "talon and concession"
    sections: ClassVar[tuple[str, ...]] = ("talon", "contract.concede")
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Concede, "apply_concede"),)

    def all_actions(self, rules: Rules) -> list[Action]:
        """A concession, where the rules allow one."""
        return [Concede()] if rules.concede_rule is not None else []

    # ------------------------------------------------------------ the talon
    def shown(self, st: GameState) -> bool:
        """True if the talon is turned face up for everybody in this hand."""
        mode = st.rules.talon_shown
        if mode == "not_at_minimum":
            return st.contract > st.rules.bid_min
        return mode == "always"

    def take(self, st: GameState) -> None:
        """The declarer shows the talon (where the rules say so) and takes it."""
        talon = 0
        for c in st.stock:
            talon |= 1 << c
        st.stock = []
        if self.shown(st):
            st.known[st.declarer] |= talon
        st.hands[st.declarer] |= talon

    # ------------------------------------------------------------ conceding
    def may_concede(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may concede the hand now."""
        r = st.rules
        if r.concede_rule is None or seat != st.declarer:
            return False
        if r.concede_limit and st.concessions[r.team_of[seat]] >= r.concede_limit:
            return False
        if st.phase == PASSING:
            return st.pass_step == 0 or r.concede_window == "before_first_lead"
        return st.phase == CONTRACT and r.concede_window == "before_first_lead"

    def offer_concede(self, st: GameState, seat: int, out: list[Action]) -> None:
        """Add the concession to ``out`` if ``seat`` may concede now."""
        if self.may_concede(st, seat):
            out.append(Concede())

    def apply_concede(self, st: GameState, seat: int, action: Concede) -> None:
        """The declarer gives up the hand: it is scored unplayed."""
        r = st.rules
        if r.concede_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no concession")
        if not self.may_concede(st, seat):
            limit = r.concede_limit and st.concessions[r.team_of[seat]] >= r.concede_limit
            why = (f"at most {r.concede_limit} concessions per player in a game" if limit else
                   "only the declarer concedes, after taking the talon and "
                   + ("before giving a card" if r.concede_window == "before_exchange"
                      else "before the first lead"))
            refuse(st, r.concede_rule, seat, action, why)
        st.actions.append((seat, action))
        st.concessions[r.team_of[seat]] += 1
        st.hand_over_reason = "conceded"
        st.mech.scoring.end_hand(st, "conceded")

    def concession_sheet(self, st: GameState) -> list[int]:
        """What each side books for a conceded hand."""
        r = st.rules
        out = [0] * len(r.teams)
        team = r.team_of[st.declarer]
        count = st.concessions[team]
        award = r.concede_award
        if r.concede == "lose_bid":
            out[team] = -st.contract
            if r.concede_half_bid:
                award = round_to(st.contract // 2, 5)
        elif r.concede == "award_each":
            if count % r.concede_costly_every == 0:
                out[team] = -st.contract
        elif count <= 1:  # free_first: a player's first concession costs nothing
            award = 0
        for t in st.sides_in_hand():
            if t != team:
                out[t] = award
        return out
