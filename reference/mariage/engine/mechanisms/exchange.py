"""Exchange of a trump: the holder of a named card of trump takes the turned-up card.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("mariazza"), first_dealer=None)
>>> state.deal(canonical_deck(state.rules), first_player=0)
>>> state.mech.exchange.card(state, 0)
-1
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Exchange
from ..phase import CLOSE_REPLY, PLAY
from .base import Mechanism, refuse
from .trickplay import START_WRITES

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["TrumpExchange", "shared_exchange"]

#: the exchange of a card, made once per card (actions are immutable: listings share them)
shared_exchange = cache(Exchange)


class TrumpExchange(Mechanism):
    """Exchanging a low trump for the turned-up card."""

    __slots__ = ()
    name: ClassVar[str] = "exchange of a trump"
    steps: ClassVar[tuple[str, ...]] = ("card",)
    sections: ClassVar[tuple[str, ...]] = ("exchange",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Exchange, "apply_exchange"),)
    #: the two cards swapped (hand, known cards, stock, the card turned up), a
    #: declaration given back; after a close, the close takes effect
    #: (TalonClosing.finish_close)
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "apply_exchange": ("hands", "known", "stock", "turn_up", "decl_this_trick", "aside",
                           "draw_tricks", "_tricks_per_hand", *START_WRITES)}
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "apply_exchange": (("closing", "finish_close"), ("tricks", "start_trick"))}

    def offers(self, rules: Rules) -> bool:
        """An exchange is offered in play wherever the rules name a card to exchange."""
        return rules.exchange_rank is not None

    def all_actions(self, rules: Rules) -> list[Action]:
        """An exchange of each card (the rules name which one can be given)."""
        return [Exchange(c) for c in range(rules.ncards)] if rules.exchange_rank is not None \
            else []

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The exchange open to ``seat``, if any."""
        if st.forced[seat] < 0:
            ex = self.card(st, seat)
            if ex >= 0:
                out.append(shared_exchange(ex))

    gate_depends: ClassVar[tuple[str, ...]] = ("card", "conditions_hold")

    def offer_gate(self, rules: Rules) -> str | None:
        """A card is turned up, trump is set, the stock lasts and ``seat`` holds the card
        of trump that is exchanged (what :meth:`card` asks first); in the talon games
        where the leader exchanges, ``seat`` is about to lead (:meth:`conditions_hold`)."""
        if rules.exchange_rank is None:
            return "False"
        bits = tuple(1 << rules.card_index_of(s, rules.exchange_rank)
                     for s in range(len(rules.suits)))
        lead = " and not st.trick_cards and seat == st.leader" \
            if rules.talon_game and rules.exchange_who == "leader" else ""
        return ("st.turn_up is not None and st.trump >= 0 and st.stock "
                f"and st.forced[seat] < 0 and h & {bits}[st.trump]{lead}")

    def card(self, st: GameState, seat: int) -> int:
        """The card ``seat`` may exchange now, or -1."""
        r = st.rules
        if r.exchange_rank is None or st.turn_up is None or st.trump < 0 or not st.stock:
            return -1
        if r.exchange_window == "first_trick" and st.trick_no != 1:
            return -1
        if r.talon_game and not self.conditions_hold(st, seat):
            return -1
        card = r.card_index_of(st.trump, r.exchange_rank)
        if st.hands[seat] >> card & 1 and card != st.turn_up:
            return card
        return -1

    def apply_exchange(self, st: GameState, seat: int, action: Exchange) -> None:
        """``seat`` gives ``action.card`` for the turned-up card."""
        r = st.rules
        ex = self.card(st, seat) if st.phase == PLAY or st.phase == CLOSE_REPLY else -1
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
        if st.phase == CLOSE_REPLY:
            st.mech.closing.finish_close(st)

    # ---- talon games: who may exchange, and when
    def conditions_hold(self, st: GameState, seat: int) -> bool:
        """The conditions of the talon games: on lead, a trick won, stock size, no close.

        Right after a close, only the closer's opponent may exchange, with no
        other condition.
        """
        r = st.rules
        if st.phase == CLOSE_REPLY:
            return seat != st.closed_by
        if st.closed_by >= 0 or len(st.stock) < r.exchange_min_stock:
            return False
        if r.exchange_who == "leader" and (seat != st.leader or st.trick_cards
                                           or st.decl_this_trick[seat]):
            return False
        return not r.exchange_requires_trick or st.tricks_won[r.team_of[seat]] > 0
