"""The auction: bids and passes for the right to play a contract.

Runs who speaks first and in what order (clockwise from the player after
the dealer, skipping players who passed), the bid range and step, the
finality of a pass, when the auction ends (at once when all others have
passed, or after one more turn for the holder of the standing bid), the last
player's turn after all others passed without a bid, and what happens when
nobody bids (the hand is played without a contract, or thrown in).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("marjapussi-de"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> state.phase.name, state.to_act, [action_text(state.rules, a) for a in state.legal_actions()][:3]
('AUCTION', 0, ['pass', 'bid:120', 'bid:125'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Bid, Pass, action_text
from ..phase import AUCTION, PLAY
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Auction", "action_text"]


class Auction(Mechanism):
    """Bidding for the contract: bids, final passes, the declarer, nobody bidding."""

    __slots__ = ()
    name: ClassVar[str] = "auction"
    steps: ClassVar[tuple[str, ...]] = ("open", "ceiling")
    sections: ClassVar[tuple[str, ...]] = ("auction",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Bid, "apply_bid"),)
    phases: ClassVar[tuple[int, ...]] = (AUCTION,)

    def applies_for(self, rules: Rules) -> tuple[tuple[type, str], ...]:
        """A pass is the auction's while the rules have one."""
        return ((Pass, "apply_pass"),) if rules.auction_rule is not None else ()

    def all_actions(self, rules: Rules) -> list[Action]:
        """A pass and every bid the rules allow."""
        if rules.auction_rule is None:
            return []
        bids = range(rules.bid_min, self.ceiling(rules) + 1, rules.bid_step)
        return [Pass(), *(Bid(v) for v in bids)]

    # ------------------------------------------------------------ queries
    def ceiling(self, rules: Rules) -> int:
        """The highest bid allowed: the rules' ceiling, or else the most a side can score."""
        if rules.bid_max:
            return rules.bid_max
        most = rules.pack_points + rules.last_trick_points + sum(rules.call_values)
        return max(rules.bid_min, most - most % rules.bid_step)

    def lowest(self, st: GameState) -> int:
        """The lowest bid allowed now."""
        r = st.rules
        return r.bid_min if st.high_bid == 0 else st.high_bid + r.bid_step

    def bid_ok(self, st: GameState, value: int) -> bool:
        """True if ``value`` is a bid allowed now."""
        r = st.rules
        return (value >= self.lowest(st) and value % r.bid_step == 0
                and value <= self.ceiling(r))

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Pass, then every allowed bid from the lowest up."""
        r = st.rules
        out: list[Action] = [Pass()]
        out.extend(Bid(v) for v in range(self.lowest(st), self.ceiling(r) + 1, r.bid_step))
        return out

    # -------------------------------------------------------------- apply
    def open(self, st: GameState) -> None:
        """Start the auction of a freshly dealt hand: forehand speaks first."""
        st.phase = AUCTION
        st.to_act = st.leader

    def apply_bid(self, st: GameState, seat: int, action: Bid) -> None:
        """``seat`` bids ``action.value``."""
        r = st.rules
        if st.phase != AUCTION:
            refuse(st, r.core_phase, seat, action, "bids are made only in the auction")
        if not self.bid_ok(st, action.value):
            low = self.lowest(st)
            top = f" and at most {self.ceiling(r)}"
            if st.high_bid >= self.ceiling(r):
                why = f"the standing bid is the highest ({st.high_bid}): only a pass is left"
            else:
                why = f"a bid must be a multiple of {r.bid_step}, at least {low}{top}"
            refuse(st, r.bid_rule, seat, action, why)
        st.actions.append((seat, action))
        st.high_bid = action.value
        st.high_bidder = seat
        if st.holder_turn:  # the holder's last word: he raised his own bid
            self.won(st, seat)
            return
        self.next_turn(st, seat)

    def apply_pass(self, st: GameState, seat: int, action: Pass) -> None:
        """``seat`` passes (final); outside the auction, the declarations' pass."""
        if st.phase != AUCTION:
            st.mech.declarations.apply_pass(st, seat, action)
            return
        st.actions.append((seat, action))
        if st.holder_turn:  # the holder stands on his bid
            self.won(st, seat)
            return
        st.auction_passed[seat] = True
        self.next_turn(st, seat)

    def next_turn(self, st: GameState, seat: int) -> None:
        """End the auction if it is over, else give the turn to the next active player."""
        r = st.rules
        n = r.nseats
        passed = st.auction_passed
        npassed = sum(passed)
        if npassed == n:
            self.nobody(st)
            return
        if st.high_bidder >= 0 and npassed == n - 1:
            if r.auction_end == "holder_may_raise" and seat != st.high_bidder:
                st.holder_turn = True
                st.to_act = st.high_bidder
                return
            self.won(st, st.high_bidder)
            return
        nxt = (seat + 1) % n
        while passed[nxt]:
            nxt = (nxt + 1) % n
        st.to_act = nxt

    def won(self, st: GameState, declarer: int) -> None:
        """The auction is won by ``declarer`` at the standing bid."""
        st.holder_turn = False
        st.declarer = declarer
        st.contract = st.high_bid
        st.mech.passing.start(st)

    def nobody(self, st: GameState) -> None:
        """Every player passed: play without a contract, or throw the hand in."""
        r = st.rules
        if r.no_bid == "redeal":
            st.mech.scoring.end_hand(st, "redeal")
            return
        st.phase = PLAY
        st.mech.tricks.start_trick(st, st.leader)
