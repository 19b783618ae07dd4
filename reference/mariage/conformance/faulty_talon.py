"""Faulty engines for the talon games (Schnapsen, Sixty-six): closing, claims,
exchanges and game points, one rule broken each."""

from __future__ import annotations

from mariage.engine.mechanisms import (
    Claims,
    GamePoints,
    TalonClosing,
    TrumpExchange,
)
from mariage.engine.state import GameState, Phase

from . import faulty_core  # noqa: F401  (registered first: the list keeps its order)
from .faultkit import (
    _decls,
    _fault,
    _m,
    _no_cutoff,
)


class _ClosedTalonDraws(TalonClosing):
    """A close switches to strict play but the talon stays in play: drawing goes on."""

    def finish_close(self, st: GameState) -> None:
        stock, turn_up = st.stock, st.turn_up
        super().finish_close(st)
        st.stock, st.turn_up = stock, turn_up
        st._tricks_per_hand = st.rules.hand_size + st.rules.stock_size // st.rules.nseats


class _CloseKeepsOpenPlay(TalonClosing):
    """Strict play waits for the talon to run out by trick number, closed or not."""

    def finish_close(self, st: GameState) -> None:
        super().finish_close(st)
        st.draw_tricks = st.rules.stock_size // st.rules.nseats
        st.trick_no -= 1
        st.mech.tricks.start_trick(st, st.closed_by)


class _ClaimAnyTime(Claims):
    """The player on lead may claim at any moment, trick won or not."""

    def claim_on_lead(self, st: GameState, seat: int) -> bool:
        r = st.rules
        return (r.claim_rule is not None and not r.claim_auto and st.phase == Phase.PLAY
                and not st.trick_cards and seat == st.leader)


class _ClaimAfterDeclaring(Claims):
    """The winner of the last trick may claim between his marriage and its lead, even
    where a declaration is no claim moment (``claim_on_declaration=false``)."""

    def claim_on_lead(self, st: GameState, seat: int) -> bool:
        r = st.rules
        return super().claim_on_lead(st, seat) or (
            r.claim_rule is not None and not r.claim_auto and st.phase == Phase.PLAY
            and not st.trick_cards and seat == st.leader and r.claim_after_trick
            and st.last_winner == seat)


class _ExchangeAfterMarriage(TrumpExchange):
    """The leader may still exchange the low trump after declaring a marriage."""

    def conditions_hold(self, st: GameState, seat: int) -> bool:
        declared = st.decl_this_trick[seat]
        st.decl_this_trick[seat] = 0
        try:
            return super().conditions_hold(st, seat)
        finally:
            st.decl_this_trick[seat] = declared


class _DrawToLastTrick(GamePoints):
    """Equal totals are not a drawn hand: the winner of the last trick takes 1."""

    def hand_score(self, st: GameState, how: str) -> tuple[list[int], int | None]:
        added, winner = super().hand_score(st, how)
        if winner is None and how == "played_out":
            winner = st.rules.team_of[st.last_winner]
            added[winner] = 1
        return added, winner


_fault("jack-exchange-needs-trick", "schnapsen.exchange", "schnapsen",
       "the trump jack may be exchanged only by a player who has won a trick",
       exchange_requires_trick=True)
_fault("exchange-after-marriage", "schnapsen.exchange", "schnapsen",
       "the leader may exchange the trump jack after declaring a marriage",
       mechanisms=_m(exchange=_ExchangeAfterMarriage()))
_fault("nine-exchange-after-decl", "sixty-six.exchange", "sixty-six",
       "the trick winner may exchange the trump nine after declaring a marriage",
       mechanisms=_m(exchange=_ExchangeAfterMarriage()))
_fault("nine-exchange-without-trick", "sixty-six.exchange", "sixty-six",
       "the trump nine may be exchanged with no trick won",
       exchange_requires_trick=False)
_fault("no-close-on-first-lead", "schnapsen.close", "schnapsen",
       "the talon may not be closed before the first trick",
       close_on_first_lead=False)
_fault("closed-talon-still-drawn", "schnapsen.close.effect", "schnapsen",
       "after a close the players still draw from the talon",
       mechanisms=_m(closing=_ClosedTalonDraws()))
_fault("strict-by-trick-number", "schnapsen.play.switch", "schnapsen",
       "strict play begins only after the fifth trick, even when the talon was closed",
       mechanisms=_m(closing=_CloseKeepsOpenPlay()))
_fault("no-close-before-draw", "sixty-six.close", "sixty-six",
       "the winner of a trick may not close before drawing",
       close_before_draw=False)
_fault("no-exchange-at-close", "sixty-six.close.reply", "sixty-six",
       "the closer's opponent is not offered the nine exchange at the close",
       close_reply_rule=None)
_fault("marriage-counts-at-once", "schnapsen.decl.credit", "schnapsen sixty-six",
       "a marriage counts at once, even for a player with no trick",
       lambda r: _decls(r, "credit_rule", "schnapsen.decl.credit", credit="immediate"))
_fault("marriage-lead-free", "schnapsen.decl.lead", "schnapsen sixty-six",
       "after declaring a marriage any card may be led",
       lambda r: _decls(r, "lead_rule", "schnapsen.decl.lead", lead_masks=()))
_fault("claim-any-time", "schnapsen.claim.timing", "schnapsen",
       "the player on lead may claim without having won the last trick",
       mechanisms=_m(claims=_ClaimAnyTime()))
_fault("claim-after-declaring", "schnapsen.claim.timing", "schnapsen",
       "the winner of a trick may claim between his marriage and its lead where a "
       "declaration is no claim moment",
       mechanisms=_m(claims=_ClaimAfterDeclaring()))
_fault("false-claim-flat-two", "schnapsen.score.false-claim", "schnapsen",
       "a false claim scores 2 even when the opponent has no trick",
       gp_false_trickless=2)
_fault("closer-judged-at-end", "schnapsen.score.closer", "schnapsen",
       "the closer who goes out is scored on his opponent at the end, not at the close",
       gp_closer_at_end=True)
_fault("beaten-closer-flat-two", "schnapsen.score.beaten-closer", "schnapsen",
       "the closer's opponent who goes out first scores a flat 2",
       gp_beaten_mode="fixed")
_fault("failed-close-flat-two", "schnapsen.score.failed-close", "schnapsen",
       "a failed close scores 2 even when the opponent had no trick at the close",
       gp_failed_trickless=2)
_fault("last-trick-ten-after-close", "sixty-six.score.last-trick", "sixty-six",
       "the last trick earns 10 also when the talon was closed",
       last_trick_when_closed=True)
_fault("schnapsen-higher-total", "schnapsen.score.played-out", "schnapsen",
       "a hand played out goes to the higher total, not to the last trick's winner",
       gp_played_mode="higher_total")
_fault("no-drawn-hand", "sixty-six.score.played-out", "sixty-six",
       "equal totals after the last trick go to the last trick's winner",
       mechanisms=_m(game_points=_DrawToLastTrick()))
_fault("sixty-six-deal-alternates", "sixty-six.deal.rotation", "sixty-six",
       "the deal alternates instead of passing to the hand's winner",
       rotation="next_seat")
_fault("schnapsen-turn-up-last", "schnapsen.deal", "schnapsen",
       "the trump is turned after all the cards are dealt instead of after the first round",
       turn_up_round=0)
_fault("marriage-after-exhaustion", "sixty-six.decl.window", "sixty-six",
       "marriages are still allowed once the talon is closed or exhausted",
       lambda r: _no_cutoff(r, "sixty-six.decl.window"))


