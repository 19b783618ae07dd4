"""Exchange of a trump: the holder of a named card of trump takes the turned-up card.

>>> from mariage import load_rules, GameState
>>> from mariage.deals import canonical_deck
>>> state = GameState(load_rules("mariazza"), first_dealer=None)
>>> state.deal(canonical_deck(state.rules), first_player=0)
>>> state.mech.exchange.card(state, 0)
-1
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Exchange
from ..phase import PLAY
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["TrumpExchange"]


class TrumpExchange(Mechanism):
    """Exchanging a low trump for the turned-up card."""

    __slots__ = ()
    name: ClassVar[str] = "exchange of a trump"
    sections: ClassVar[tuple[str, ...]] = ("exchange",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Exchange, "apply_exchange"),)

    def offers(self, rules: Rules) -> bool:
        """An exchange is offered in play wherever the rules name a card to exchange."""
        return rules.exchange_rank is not None

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The exchange open to ``seat``, if any."""
        if st.forced[seat] < 0:
            ex = self.card(st, seat)
            if ex >= 0:
                out.append(Exchange(ex))

    def card(self, st: GameState, seat: int) -> int:
        """The card ``seat`` may exchange now, or -1."""
        r = st.rules
        if r.exchange_rank is None or st.turn_up is None or st.trump < 0 or not st.stock:
            return -1
        if r.exchange_window == "first_trick" and st.trick_no != 1:
            return -1
        card = r.card_index_of(st.trump, r.exchange_rank)
        if st.hands[seat] >> card & 1 and card != st.turn_up:
            return card
        return -1

    def apply_exchange(self, st: GameState, seat: int, action: Exchange) -> None:
        """``seat`` gives ``action.card`` for the turned-up card."""
        r = st.rules
        ex = self.card(st, seat) if st.phase == PLAY else -1
        if ex < 0 or ex != action.card or st.forced[seat] >= 0:
            refuse(st, r.exchange_rule, seat, action,
                   "only the holder of that card of trump may exchange it for the "
                   "turned-up card, at his turn, while the stock lasts")
        st.actions.append((seat, action))
        assert st.turn_up is not None
        old = st.turn_up
        st.hands[seat] ^= (1 << action.card) | (1 << old)
        st.known[seat] |= 1 << old
        st.known[seat] &= ~(1 << action.card)
        st.stock[0] = action.card
        st.turn_up = action.card
        if r.exchange_reopens:  # he may declare (again) after the exchange
            st.decl_this_trick[seat] = 0
