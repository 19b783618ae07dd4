"""Faulty engines for German Marjapussi: auction, passing, contract, trump calls
and the score sheet, one rule broken each."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mariage.engine.actions import Call
from mariage.engine.mechanisms import (
    Auction,
    Contract,
    TrumpCalls,
)
from mariage.engine.rules import Rules, When
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError
from . import faulty_talon  # noqa: F401  (registered first: the list keeps its order)
from .faultkit import (
    _fault,
    _m,
)


class _PassNotFinal(Auction):
    """A player who passed is asked again when his turn comes round."""

    __slots__ = ()

    def next_turn(self, st: GameState, seat: int) -> None:
        n = st.rules.nseats
        if sum(st.auction_passed) == n or (st.high_bidder >= 0
                                            and sum(st.auction_passed) == n - 1):
            super().next_turn(st, seat)
            return
        st.to_act = (seat + 1) % n


class _NoFourthTurn(Auction):
    """Three passes without a bid end the auction: the fourth player never speaks."""

    __slots__ = ()

    def next_turn(self, st: GameState, seat: int) -> None:
        if st.high_bidder < 0 and sum(st.auction_passed) == st.rules.nseats - 1:
            self.nobody(st)
            return
        super().next_turn(st, seat)


class _ForehandLeadsContract(Contract):
    """Forehand leads to the first trick of a contract instead of the declarer."""

    __slots__ = ()

    def play(self, st: GameState) -> None:
        st.phase = Phase.PLAY
        st.mech.tricks.start_trick(st, st.leader)


class _CalledSuitAgain(TrumpCalls):
    """A suit already called may be announced or named again."""

    __slots__ = ()

    def pairs(self, st: GameState, seat: int) -> list[int]:
        hand = st.hands[seat]
        return [s for s, m in enumerate(st.rules.call_pair_masks) if hand & m == m]

    def apply_call(self, st: GameState, seat: int, action: Call) -> None:
        called = st.called
        st.called &= ~(1 << action.suit)
        try:
            super().apply_call(st, seat, action)
        except IllegalActionError:
            st.called = called
            raise
        st.called |= called


def _mjde(rules: Rules, **changes: Any) -> Rules:
    return replace(rules, **changes) if rules.auction_rule is not None else rules


_fault("pass-not-final", "marjapussi-de.auction.pass", "marjapussi-de",
       "a player who passed is asked to bid again when his turn comes round",
       mechanisms=_m(auction=_PassNotFinal()))
_fault("bid-below-120", "marjapussi-de.auction.bids", "marjapussi-de",
       "the engines' 'no bid yet' marker 115 is accepted as an opening bid",
       lambda r: _mjde(r, bid_min=115))
_fault("holder-bids-again", "marjapussi-de.auction.end", "marjapussi-de",
       "after three passes the holder of the bid gets another turn",
       lambda r: _mjde(r, auction_end="holder_may_raise"))
_fault("no-fourth-turn", "marjapussi-de.auction.last", "marjapussi-de",
       "three passes without a bid end the auction before the fourth player speaks",
       mechanisms=_m(auction=_NoFourthTurn()))
_fault("all-pass-redeal", "marjapussi-de.auction.no-bid", "marjapussi-de",
       "a hand nobody bid is thrown in instead of played",
       lambda r: _mjde(r, no_bid="redeal"))
_fault("pass-three-cards", "marjapussi-de.passing", "marjapussi-de",
       "three cards are passed each way instead of four",
       lambda r: _mjde(r, passing_steps=((1, 0, 3), (0, 1, 3))))
_fault("no-raise", "marjapussi-de.contract.raise", "marjapussi-de",
       "the declarer cannot raise the game value after the exchange",
       lambda r: _mjde(r, raise_rule=None))
_fault("forehand-leads-contract", "marjapussi-de.contract.lead", "marjapussi-de",
       "forehand, not the declarer, leads to the first trick of a contract",
       mechanisms=_m(contract=_ForehandLeadsContract()))
_fault("no-first-trick-ace", "marjapussi-de.play.first-trick-ace", "marjapussi-de",
       "the ace of the suit led need not be played in the first trick",
       lambda r: _mjde(r, first_trick_rank=-1))
_fault("no-duty-to-go-over", "marjapussi-de.play.beat", "marjapussi-de",
       "a player following suit need not go over the best card",
       duty="head_rule", head=When.NEVER)
_fault("no-mitstechen", "marjapussi-de.play.trump", "marjapussi-de",
       "a void player whose trumps cannot win may discard (no Mitstechen)",
       duty="void_rule", void_duty="beat")
_fault("first-call-fixes-trump", "marjapussi-de.calls.trump", "marjapussi-de",
       "the first call fixes trump (the Finnish rule) instead of the latest ruling",
       lambda r: _mjde(r, call_trump_latest=False))
_fault("suit-called-twice", "marjapussi-de.calls.once", "marjapussi-de",
       "a suit already called may be announced again",
       mechanisms=_m(calls=_CalledSuitAgain()))
_fault("no-asking-levels", "marjapussi-de.calls.levels", "marjapussi-de",
       "a player may announce his own pair after asking a question",
       lambda r: _mjde(r, levels_rule=None))
_fault("half-needs-own-half", "marjapussi-de.calls.ask-half", "marjapussi-de",
       "a half question is allowed only in a suit the asker holds a half of",
       lambda r: _mjde(r, half_needs_own=True))
_fault("recall-scores-again", "marjapussi-de.calls.recall", "marjapussi-de",
       "a pair recalled by a half question scores again for the answering partner",
       lambda r: _mjde(r, call_once_per_player=True))
_fault("no-last-trick-bonus", "marjapussi-de.score.last-trick", "marjapussi-de",
       "no 20 card points for the last trick",
       lambda r: _mjde(r, last_trick_points=0))
_fault("schwarz-single", "marjapussi-de.score.sheet", "marjapussi-de",
       "schwarz defenders of a made game book minus the value, not twice it",
       lambda r: _mjde(r, schwarz_factor=1))


