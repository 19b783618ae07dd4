"""Scoring a hand: card points, declarations, game-point tables, excess and segni.

Runs the hand target (the hand ends the moment a side reaches it) and the
four kinds of hand score: ``points`` (everything counts), ``excess`` (only
what passes a threshold), ``table`` (game points for a threshold, the last
trick and the majority) and ``segno`` (the side with more points takes the
hand).

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> mech = DEFAULT_MECHANISMS
>>> mech.rule_ids(mech.scoring, load_rules("mariazza"))[:3]
['mariazza.hand.target', 'mariazza.score.hand', 'mariazza.score.sixty']
"""

from __future__ import annotations

from operator import add
from typing import TYPE_CHECKING, ClassVar

from ..outcomes import hand_record
from ..phase import DEAL, OVER
from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Scoring"]


class Scoring(Mechanism):
    """Ending a hand and adding its score to the match."""

    __slots__ = ()
    name: ClassVar[str] = "scoring"
    steps: ClassVar[tuple[str, ...]] = ("end_hand", "target_reached")
    sections: ClassVar[tuple[str, ...]] = ("hand_end", "scoring")
    #: the hand target stays out of reach: no side is at it, and the winner's side does
    #: not reach it even with the trick's card points and the winner's held points (a
    #: hook before this one may credit those), so the hook neither ends the hand nor
    #: changes anything
    quiet_hooks: ClassVar[dict[str, str]] = {
        "after_trick": "max(map(int.__add__, st.captured, st.decl_points)) < st.rules.hand_target"
                       " and st.hand_points(st.rules.team_of[winner]) + trick_points"
                       " + st.held[winner] < st.rules.hand_target"}
    #: otherwise the hook changes nothing, or ends the hand by the hand end
    ending_hooks: ClassVar[frozenset[str]] = frozenset({"after_trick"})

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """The slots :meth:`end_hand` may write besides the trick's and the phase (read
        by undo: :func:`mariage.engine.handend.hand_end_writes`): the record, how the hand
        ended, the match scores, and the hands won where a hand has a winner."""
        won = ("segni",) if rules.score_kind not in ("points", "contract", "takers") else ()
        return ("_history", "hand_over_reason", "match_scores", *won)

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """After a trick, where a hand ends at a target: is it reached?"""
        return (("after_trick", "after_trick"),) if rules.hand_target is not None else ()

    def after_trick(self, st: GameState, winner: int) -> bool:
        """End the hand if a side has reached the hand target (True if so)."""
        if self.target_reached(st):
            st._appliers.end_hand(st, "target")  # end_hand, by generated code (engine.handend)
            return True
        return False

    def target_reached(self, st: GameState) -> bool:
        """True if a side has reached the hand target."""
        target = st.rules.hand_target
        assert target is not None
        captured = st.captured  # a side's hand points: GameState.hand_points
        return bool(captured) and max(map(add, captured, st.decl_points)) >= target

    def hand_score(self, st: GameState, how: str) -> tuple[list[int], int | None]:
        """What each side adds to the match score for this hand, and the hand's winner."""
        r = st.rules
        kind = r.score_kind
        if kind == "points":  # the hand points (GameState.hand_points) of each side
            return list(map(add, st.captured, st.decl_points)), None
        if kind == "game_points":  # talon games (mechanisms.gamepoints)
            return st.mech.game_points.hand_score(st, how)
        nteams = len(r.teams)
        pts = list(map(add, st.captured, st.decl_points))
        added = [0] * nteams
        hand_winner: int | None = None
        if kind == "excess":
            for t in range(nteams):
                total = st.captured[t] + st.tricks_won[t] * r.trick_point
                if total > r.excess_threshold:
                    added[t] = total - r.excess_threshold
        elif kind == "table":
            added = list(st.game_points)
            if how == "played_out":
                for t in range(nteams):
                    if st.captured[t] >= r.table_threshold:
                        added[t] += r.table_threshold_points
                if st.last_winner >= 0:
                    added[r.team_of[st.last_winner]] += r.table_last_trick
                if r.table_majority_mode == "separate":
                    top = max(st.captured)
                    leaders = [t for t in range(nteams) if st.captured[t] == top]
                    if len(leaders) == 1:
                        added[leaders[0]] += r.table_majority
        elif kind == "contract":
            added = st.mech.contract.sheet(st, how)
        elif kind == "takers":
            added = st.mech.takers.sheet(st, how)
        elif kind == "segno":
            top = max(pts)
            leaders = [t for t in range(nteams) if pts[t] == top]
            unfinished = (how == "played_out" and r.segno_unfinished == "nobody"
                          and r.hand_target is not None and top < r.hand_target)
            if len(leaders) == 1 and top != r.segno_void_top and not unfinished:
                hand_winner = leaders[0]
        return added, hand_winner

    def end_hand(self, st: GameState, how: str, winner: int | None = None,
                 zero_team: int | None = None, match_reason: str | None = None) -> None:
        """Score the hand and decide whether the match goes on.

        ``winner`` set means the match is won at once by that team, for
        ``match_reason`` (default: ``how``, the hand's ending); ``zero_team``
        scores nothing for this hand.
        """
        r = st.rules
        mech = st.mech
        nteams = len(r.teams)
        pts = tuple(map(add, st.captured, st.decl_points))  # GameState.hand_points
        added, hand_winner = self.hand_score(st, how)
        for hand_scored in st.hooks.hand_scored:  # a capture bonus
            hand_scored(st, added)
        if zero_team is not None:
            added[zero_team] = 0
            if r.score_kind == "segno" and hand_winner == zero_team:
                hand_winner = None
        scores = st.match_scores
        decided = None
        if r.running_rule is not None:  # barrel, bolts, dumps, winning (mechanisms.runningtotals)
            decided = mech.running.settle(st, how, added)
        else:
            for t in range(nteams):
                scores[t] += added[t]
        if hand_winner is not None:
            st.segni[hand_winner] += 1
        if r.takers_rule is not None:
            st.history.append(hand_record(st.hand_no, st.dealer, pts, tuple(added),
                                          tuple(st.tricks_won), how, hand_winner,
                                          **mech.takers.facts(st)))
        elif r.auction_rule:
            st.history.append(hand_record(st.hand_no, st.dealer, pts, tuple(added),
                                          tuple(st.tricks_won), how, hand_winner,
                                          **mech.contract.facts(st)))
        else:
            st.history.append(hand_record(st.hand_no, st.dealer, pts, tuple(added),
                                          tuple(st.tricks_won), how, hand_winner))
        st.hand_over_reason = how
        st.to_act = None
        st.trick_seats = []
        st.trick_cards = []
        if winner is not None:
            mech.match_end.finish(st, winner, match_reason or how)
            return
        if decided is not None:
            mech.match_end.finish(st, decided[0], "target" if decided[0] is not None else "tie")
            return
        st.phase = DEAL
        if r.running_rule is None:
            mech.match_end.check(st, True, "target")  # after the hand, for the target
        if st.phase == OVER:
            for match_over in st.hooks.match_over:  # a Bummerl
                match_over(st)
        if st.phase == DEAL:
            mech.dealing.rotate_dealer(st)
        assert st.phase == DEAL or st.phase == OVER
