"""Game points for a hand: a scale on the loser, and rows by how the hand ended.

Runs the ``game_points`` kind of hand score: a true claim (scored on the
scale of the opponent now, or for the closer on the opponent as he was when
the stock was closed, or as the rules say for the closer's opponent), a
false claim, a failed close, a hand played out (the last trick's winner, or
the higher total with a drawn hand on equal totals), the bonus a drawn hand
passes on, the next dealer by the hand's result, and a double match win.

The scale is a list of rows ``(min points, min tricks, game points)`` on the
loser; the first row whose conditions hold gives the game points:

>>> from mariage import load_rules
>>> gp = GamePoints()
>>> rules = load_rules("schnapsen")
>>> [gp.scale(rules, p, t) for p, t in ((40, 3), (32, 1), (0, 0))]
[1, 2, 3]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mariage.lazyrecord import replace

from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["GamePoints"]


class GamePoints(Mechanism):
    """Scoring a hand in game points by how it ended."""

    __slots__ = ()
    name: ClassVar[str] = "game points"
    steps: ClassVar[tuple[str, ...]] = ("hand_score",)
    sections: ClassVar[tuple[str, ...]] = ("scoring.game_points", "scoring.sitting_out",
                                           "match.bummerl")
    #: the Bummerl after the match's last hand may change how the result reads
    trail_hooks: ClassVar[dict[str, tuple[str, ...]]] = {"bummerl": ("_result",)}

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """The slots :meth:`hand_score` and :meth:`pass_deal` may write, where a hand
        scores game points (see :meth:`Scoring.hand_end_slots`)."""
        if rules.score_kind != "game_points":
            return ()
        return ("carry_bonus", "next_dealer", "segni")

    def scale(self, rules: Rules, points: int, tricks: int) -> int:
        """Game points on the scale for a loser with ``points`` and ``tricks``."""
        for min_points, min_tricks, value in rules.gp_scale:
            if points >= min_points and tricks >= min_tricks:
                return value
        return rules.gp_scale[-1][2]

    def failed_close(self, st: GameState) -> int:
        """What the closer's opponent scores when the close fails."""
        r = st.rules
        if st.close_opp_tricks == 0:
            return r.gp_failed_trickless
        if r.gp_failed_mode == "closer_scale":
            closer = st.hand_points(r.team_of[st.closed_by])
            for min_points, _, value in r.gp_scale:
                if closer >= min_points:
                    return value
        return r.gp_failed_points

    def true_claim(self, st: GameState, seat: int) -> int:
        """What ``seat`` scores for a true claim (now)."""
        r = st.rules
        team = r.team_of[seat]
        opp = st.opponent(team)
        if st.closed_by >= 0:
            if r.team_of[st.closed_by] == team:
                if r.gp_closer_at_end:
                    return self.scale(r, st.hand_points(opp), st.tricks_won[opp])
                return self.scale(r, st.close_opp_points, st.close_opp_tricks)
            if r.gp_beaten_mode == "like_failed_close":
                return self.failed_close(st)
            return r.gp_beaten_points
        return self.scale(r, st.hand_points(opp), st.tricks_won[opp])

    def false_claim(self, st: GameState, seat: int) -> int:
        """What the opponent of ``seat`` scores for ``seat``'s false claim."""
        r = st.rules
        team = r.team_of[seat]
        if st.closed_by >= 0 and r.team_of[st.closed_by] == team \
                and r.gp_false_closer == "failed_close_row":
            return self.failed_close(st)
        if r.gp_false_mode == "as_claimed":
            return self.true_claim(st, seat)
        return r.gp_false_trickless if st.tricks_won[st.opponent(team)] == 0 \
            else r.gp_false_points

    def hand_score(self, st: GameState, how: str) -> tuple[list[int], int | None]:
        """Game points per side for the hand, and the side that won it (``None``: drawn)."""
        r = st.rules
        added = [0] * len(r.teams)
        winner: int | None
        if how in ("claim", "false_claim"):
            team = r.team_of[st.claim_by]
            if how == "claim":
                winner, value = team, self.true_claim(st, st.claim_by)
            else:
                winner, value = st.opponent(team), self.false_claim(st, st.claim_by)
        elif st.closed_by >= 0:
            winner, value = st.opponent(r.team_of[st.closed_by]), self.failed_close(st)
        elif r.gp_played_mode == "last_trick":
            winner, value = r.team_of[st.last_winner], r.gp_played_points
        else:
            one, other = st.sides_in_hand()  # game points: two sides play each hand
            points, others = st.hand_points(one), st.hand_points(other)
            if points == others:
                winner, value = None, 0
            else:
                winner, loser = (one, other) if points > others else (other, one)
                value = self.scale(r, min(points, others), st.tricks_won[loser])
        if winner is None:
            st.carry_bonus += r.draw_bonus
        else:
            added[winner] = value + st.carry_bonus
            st.carry_bonus = 0
            if r.sitter_score == "hand_winner" and st.out >= 0 and not st.placed:
                self.sitter(st, added, added[winner])  # (a placed player scores nothing)
        self.pass_deal(st, winner)
        return added, winner

    def sitter(self, st: GameState, added: list[int], value: int) -> None:
        """The seat sitting the hand out scores ``value`` too (``scoring.sitting_out``),
        stopping one short of the match target where the rules say so."""
        r = st.rules
        team = r.team_of[st.out]
        if r.sitter_below_target:
            value = max(0, min(value, r.match_target - 1 - st.match_scores[team]))
        added[team] = value

    def pass_deal(self, st: GameState, winner: int | None) -> None:
        """Set the next dealer where the result of the hand decides it.

        With partnerships, the winning (or losing) side's player next after the dealer.
        """
        r = st.rules
        if r.rotation not in ("hand_winner", "hand_loser") or st.dealer is None:
            return
        if winner is None:
            st.next_dealer = st.dealer
            return
        team = winner if r.rotation == "hand_winner" else st.opponent(winner)
        # that side's player next after the dealer (the only one, where sides are single)
        n = r.nseats
        st.next_dealer = next(s % n for s in range(st.dealer + 1, st.dealer + n + 1)
                              if r.team_of[s % n] == team)

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """When the match is over, where the rules score a Bummerl."""
        return (("match_over", "bummerl"),) if rules.bummerl_rule is not None else ()

    def bummerl(self, st: GameState) -> None:
        """A match won while the loser has no game point counts double: say so."""
        res = st.result
        if res is None or res.winner is None:
            return
        if all(s == 0 for t, s in enumerate(st.match_scores) if t != res.winner):
            st.result = replace(res, reason="schneider_bummerl")
