"""Closing the stock (talon): who may close and when, what a close changes, what it remembers.

Runs the close itself (by the player about to lead, or by the winner of a
trick before the draw where the rules allow it), its effect (no more drawing,
the stock out of play, the turned-up card gone, the ``no_stock`` duties from
the next card: the switch of play duties by "stock closed or exhausted"
rather than by trick number), the snapshot of the closer's opponent at that
moment, and the exchange the opponent may make right after a close.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("schnapsen"), first_dealer=0)
>>> state.deal(canonical_deck(state.rules))
>>> state.mech.closing.can_close(state, 1)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Close, Decline
from ..phase import AFTER_TRICK, CLOSE_REPLY, PLAY
from .base import Mechanism, refuse
from .exchange import shared_exchange
from .trickplay import START_WRITES

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["TalonClosing"]

#: the close and the decline of an exchange (immutable: every listing shares them)
_CLOSE, _DECLINE = Close(), Decline()


class TalonClosing(Mechanism):
    """Closing the stock, and the opponent's reply to a close."""

    __slots__ = ()
    name: ClassVar[str] = "closing the stock"
    steps: ClassVar[tuple[str, ...]] = ("can_close_before_draw", "apply_decline", "finish_close")
    sections: ClassVar[tuple[str, ...]] = ("closing", "play.switch")
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Close, "apply_close"),)
    phases: ClassVar[tuple[int, ...]] = (CLOSE_REPLY,)
    #: a close notes the closer and the opponent's count, then waits for the reply or
    #: takes effect: the stock set aside, the trick opened again (TrickPlay.start_trick)
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "apply_close": ("closed_by", "close_from_lead", "close_opp_points", "close_opp_tricks",
                        "aside", "stock", "turn_up", "draw_tricks", "_tricks_per_hand",
                        *START_WRITES)}
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "apply_close": (("tricks", "start_trick"),)}

    def offers(self, rules: Rules) -> bool:
        """A close is offered in play wherever the rules allow closing."""
        return rules.close_rule is not None

    def all_actions(self, rules: Rules) -> list[Action]:
        """A close, and declining the exchange offered at a close."""
        return [Close(), Decline()] if rules.close_rule is not None else []

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """A close, if ``seat`` may close now."""
        if self.can_close(st, seat):
            out.append(_CLOSE)

    gate_depends: ClassVar[tuple[str, ...]] = ("can_close", "stock_ok")

    def offer_gate(self, rules: Rules) -> str | None:
        """``seat`` leads and the stock is open (what :meth:`can_close` asks first)."""
        return "not st.trick_cards and seat == st.leader and st.stock and st.closed_by < 0"

    def offer_exact(self, rules: Rules) -> tuple[str, Action] | None:
        """Exactly :meth:`can_close` in the play phase (with :meth:`stock_ok`), under
        these rules' least stock and first-lead rule.

        >>> from mariage import load_rules
        >>> "len(st.stock) >= 2" in TalonClosing().offer_exact(load_rules("schnapsen"))[0]
        True
        """
        if not self.offers(rules):
            return None
        least = max(1, rules.close_min_stock)
        stock = "st.stock" if least == 1 else f"len(st.stock) >= {least}"
        cond = (f"not st.trick_cards and seat == st.leader and st.closed_by < 0 and {stock}"
                " and st.decl_this_trick[seat] == 0 and st.forced[seat] < 0")
        return (cond if rules.close_on_first_lead else f"{cond} and st.trick_no > 1"), _CLOSE

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Right after a close: the opponent's exchange, or decline."""
        out: list[Action] = []
        ex = st.mech.exchange.card(st, seat)
        if ex >= 0:
            out.append(shared_exchange(ex))
        out.append(_DECLINE)
        return out

    # ------------------------------------------------------------ queries
    def stock_ok(self, st: GameState) -> bool:
        """True if the stock is open and holds enough cards for a close."""
        r = st.rules
        return (r.close_rule is not None and st.closed_by < 0 and bool(st.stock)
                and len(st.stock) >= r.close_min_stock)

    def can_close(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may close now, on lead with full hands (play phase)."""
        r = st.rules
        return (st.phase == PLAY and self.stock_ok(st) and seat == st.leader
                and not st.trick_cards and st.decl_this_trick[seat] == 0
                and st.forced[seat] < 0 and (st.trick_no > 1 or r.close_on_first_lead))

    def can_close_before_draw(self, st: GameState, seat: int) -> bool:
        """True if ``seat``, who has just won a trick, may close before the draw."""
        return st.rules.close_before_draw and self.stock_ok(st) and seat == st.last_winner

    # -------------------------------------------------------------- apply
    def apply_close(self, st: GameState, seat: int, action: Close) -> None:
        """``seat`` closes the stock."""
        r = st.rules
        rule = r.close_rule or r.core_phase
        if st.phase == AFTER_TRICK:
            if not self.can_close_before_draw(st, seat):
                refuse(st, rule, seat, action, "the stock cannot be closed before this draw")
            self.close(st, seat, from_lead=False)
            return
        if st.phase != PLAY:
            refuse(st, r.core_phase, seat, action, "not the moment to close the stock")
        if not self.can_close(st, seat):
            refuse(st, rule, seat, action, self.why_not(st, seat))
        self.close(st, seat, from_lead=True)

    def why_not(self, st: GameState, seat: int) -> str:
        """Why ``seat`` may not close now (for a refusal)."""
        r = st.rules
        if r.close_rule is None:
            return "closing is not allowed in these rules"
        if st.closed_by >= 0:
            return "the stock is already closed"
        if not st.stock:
            return "the stock is exhausted"
        if len(st.stock) < r.close_min_stock:
            return f"the stock must hold at least {r.close_min_stock} cards to be closed"
        if seat != st.leader or st.trick_cards:
            return "only the player about to lead may close, before he leads"
        if st.decl_this_trick[seat]:
            return "the stock must be closed before declaring"
        return "the stock may not be closed on the first lead of the hand"

    def close(self, st: GameState, seat: int, from_lead: bool) -> None:
        """Close the stock for ``seat``: note the opponent, then the reply or the effect."""
        r = st.rules
        st.actions.append((seat, _CLOSE))
        opp = st.opponent(r.team_of[seat]) if r.hand_sides == 2 else -1
        st.closed_by = seat
        st.close_from_lead = from_lead
        if opp >= 0:
            st.close_opp_points = st.hand_points(opp)
            st.close_opp_tricks = st.tricks_won[opp]
        if r.close_reply_rule is not None:
            other = st.next_seat(seat)
            st.phase = CLOSE_REPLY
            st.to_act = other
            if st.mech.exchange.card(st, other) >= 0:
                return
        self.finish_close(st)

    def finish_close(self, st: GameState) -> None:
        """The close takes effect: the stock goes out of play and strict play begins."""
        seat = st.closed_by
        st.aside = st.stock
        st.stock = []
        st.turn_up = None
        if st.close_from_lead:
            st.trick_no -= 1  # the trick is opened again, now without the stock
        st.draw_tricks = st.trick_no
        st.phase = PLAY
        st._appliers.start_trick(st, seat)
        st._tricks_per_hand = st.trick_no + st.hands[seat].bit_count() - 1

    def apply_decline(self, st: GameState, seat: int, action: Decline) -> None:
        """The closer's opponent declines the exchange on a close."""
        st.actions.append((seat, action))
        self.finish_close(st)
