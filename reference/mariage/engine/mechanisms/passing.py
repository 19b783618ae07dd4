"""Passing cards between partners: who gives how many cards to whom, in order.

After an auction the declarer and his partner pass cards face down in the
steps the rules list (in Marjapussi: four from the partner to the declarer,
then four back). Only the two of them see the cards.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marjapussi-de"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> for text in ("bid:120", "pass", "pass", "pass"):
...     state.apply(parse_action(state.rules, text))
>>> state.phase.name, state.declarer, state.to_act, len(state.legal_actions())
('PASSING', 0, 2, 126)
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Give, parse_action
from ..phase import PASSING
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Passing", "parse_action"]


class Passing(Mechanism):
    """Cards passed face down between the declarer and his partner."""

    __slots__ = ()
    name: ClassVar[str] = "passing between partners"
    steps: ClassVar[tuple[str, ...]] = ("start", "role")
    sections: ClassVar[tuple[str, ...]] = ("passing",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Give, "apply_give"),)
    phases: ClassVar[tuple[int, ...]] = (PASSING,)

    def all_actions(self, rules: Rules) -> list[Action]:
        """Every set of cards of each step's size."""
        out: list[Action] = []
        for count in sorted({c for _, _, c in rules.passing_steps}):
            out.extend(Give(sum(1 << c for c in combo))
                       for combo in combinations(range(rules.ncards), count))
        return out

    def partner(self, st: GameState, seat: int) -> int:
        """The partner of ``seat``."""
        r = st.rules
        return next(s for s in r.teams[r.team_of[seat]] if s != seat)

    def seats(self, st: GameState) -> tuple[int, int, int]:
        """(giver, receiver, count) of the current step (receiver -1: laid away)."""
        giver, receiver, count = st.rules.passing_steps[st.pass_step]
        return self.role(st, giver), self.role(st, receiver), count

    def role(self, st: GameState, role: int) -> int:
        """The seat of a role of a step: 0 the declarer, 1 his partner, 2 the first
        opponent after him in playing order, 3 the next one; 4 (laid away) is -1."""
        if role == 0:
            return st.declarer
        if role == 1:
            return self.partner(st, st.declarer)
        if role == 4:
            return -1
        first = st.next_seat(st.declarer)
        return first if role == 2 else st.next_seat(first)

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Every set of cards of the step's size from ``seat``'s hand (and a concession
        where the rules allow one now)."""
        _, _, count = self.seats(st)
        cards = st.rules.cards_of(st.hands[seat])
        out: list[Action] = []
        if st.rules.concede_rule is not None:
            st.mech.talon.offer_concede(st, seat, out)
        out.extend(Give(sum(1 << c for c in combo)) for combo in combinations(cards, count))
        return out

    def start(self, st: GameState) -> None:
        """Begin the passing after the auction (or go straight on to the contract)."""
        if not st.rules.passing_steps:
            st.mech.contract.start(st)
            return
        st.pass_step = 0
        st.phase = PASSING
        st.to_act = self.seats(st)[0]

    def apply_give(self, st: GameState, seat: int, action: Give) -> None:
        """``seat`` passes the cards of ``action`` to the receiver of the step."""
        r = st.rules
        if st.phase != PASSING:
            refuse(st, r.core_phase, seat, action, "cards are passed only after the auction")
        giver, receiver, count = self.seats(st)
        cards = action.cards
        if cards < 0 or cards & ~st.hands[seat] or cards.bit_count() != count:
            refuse(st, r.passing_rule, seat, action,
                   f"give exactly {count} cards from your own hand")
        st.actions.append((seat, action))
        st.hands[giver] ^= cards
        if receiver >= 0:
            st.hands[receiver] |= cards
            if r.give_face_up:  # shown to everybody
                st.known[receiver] |= cards
        else:
            st.aside.extend(r.cards_of(cards))
        st.known[giver] &= ~cards
        st.pass_step += 1
        if st.pass_step < len(r.passing_steps):
            st.to_act = self.seats(st)[0]
            return
        st.mech.contract.start(st)
