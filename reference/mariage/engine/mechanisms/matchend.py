"""Match end: the target, ties, immediate wins and resignation.

>>> from mariage import load_rules, GameState
>>> state = GameState(load_rules("marianna"), first_dealer=0)
>>> state.mech.match_end.measure(state)
(0, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mariage.errors import IllegalActionError, shown

from ..outcomes import HandRecord
from ..phase import OVER
from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["MatchEnd"]


class MatchEnd(Mechanism):
    """Deciding when the match is over and who won it."""

    __slots__ = ()
    name: ClassVar[str] = "match end"
    steps: ClassVar[tuple[str, ...]] = ("check", "finish")
    sections: ClassVar[tuple[str, ...]] = ("match", "core.over", "core.resign")

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """The slots :meth:`check` and :meth:`finish` may write after a hand besides the
        phase and the seat to act: the result, and the scores where a match bonus is
        booked (see :meth:`Scoring.hand_end_slots`)."""
        slots = ("_result", "match_scores") if rules.match_bonus else ("_result",)
        return (*slots, "placed") if rules.places_rule is not None else slots

    def measure(self, st: GameState) -> tuple[int, ...]:
        """The scores the match is decided on (points, or hands won)."""
        return tuple(st.segni if st.rules.match_measure == "hands_won" else st.match_scores)

    def judged(self, st: GameState) -> tuple[int, ...]:
        """The scores the target and the winner are judged on: the measure, or where
        rounding does not decide the match (``match.rounded``) the totals before rounding.

        >>> from mariage import load_rules, GameState
        >>> state = GameState(load_rules("belote-coinche", {"rounding_decides_game": False}))
        >>> state.match_scores, state.round_residue = [1990, 80], [5, -4]
        >>> state.mech.match_end.judged(state)
        (1995, 76)
        """
        scores = self.measure(st)
        if st.rules.round_decides_game:
            return scores
        return tuple(s + e for s, e in zip(scores, st.round_residue, strict=True))

    def finish(self, st: GameState, winner: int | None, reason: str) -> None:
        """End the match now, won by ``winner`` (``None``: drawn or no winner)."""
        st.phase = OVER
        st.to_act = None
        st._result = (winner, reason, self.measure(st))  # its parts (GameState.result)

    def check(self, st: GameState, after_hand: bool, reason: str) -> None:
        """End the match if a side has reached the target (ties as the rules say)."""
        r = st.rules
        if r.match_measure == "hands_played":
            self.check_hands(st, after_hand)
            return
        if r.places_rule is not None:
            self.check_places(st, after_hand, reason)
            return
        scores = self.judged(st)
        target = r.match_target
        reached = [t for t, s in enumerate(scores) if s >= target and not st.no_win >> t & 1] \
            if scores and max(scores) >= target else []
        if not reached:
            if r.match_max_hands and after_hand and self.hands_counted(st) >= r.match_max_hands:
                self.check_hands(st, after_hand, r.match_max_hands)
            return
        if r.match_bonus:  # the first side to reach the target books a bonus
            top = max(scores[t] for t in reached)
            best = [t for t in reached if scores[t] == top]
            if len(best) == 1:
                st.match_scores[best[0]] += r.match_bonus
                scores = self.judged(st)
        top = max(scores[t] for t in reached)
        best = [t for t in reached if scores[t] == top]
        if len(best) != 1:
            if r.tie_mode == "draw":
                self.finish(st, None, "tie")
            return  # otherwise, a tie at or over the target: play on
        self.finish(st, best[0], reason)
        if not after_hand:
            zeros = tuple(0 for _ in scores)
            st.history.append(HandRecord(st.hand_no, st.dealer, zeros, zeros, zeros, reason))

    def check_places(self, st: GameState, after_hand: bool, reason: str) -> None:
        """Where the others play on for the places (``match.places``): a side that reaches
        the target alone at the top among those not yet placed takes the next place
        (:attr:`GameState.placed`) and leaves the play; once one side is left, it is last
        and the match is over, won by the first placed. A tie at the top plays on (the
        rules allow no other tie here, :meth:`mariage.spec.compile` checks it).

        >>> from mariage import load_rules, GameState
        >>> state = GameState(load_rules("sixty-six-3", {"three_hand_play_for_loser": True}))
        >>> state.match_scores = [7, 3, 6]
        >>> state.mech.match_end.check(state, True, "target")
        >>> state.placed, state.terminal
        ((0,), False)
        >>> state.match_scores = [7, 3, 8]
        >>> state.mech.match_end.check(state, True, "target")
        >>> state.placed, state.result.winner, state.loser
        ((0, 2, 1), 0, 1)
        """
        r = st.rules
        scores = self.judged(st)
        placed = st.placed
        reached = [t for t, s in enumerate(scores)
                   if s >= r.match_target and t not in placed and not st.no_win >> t & 1]
        if not reached:
            return
        top = max(scores[t] for t in reached)
        best = [t for t in reached if scores[t] == top]
        if len(best) != 1:
            return  # a tie at the top: play on
        placed += (best[0],)
        left = tuple(t for t in range(len(r.teams)) if t not in placed)
        if len(left) > 1:
            st.placed = placed  # the others play on
            return
        st.placed = placed + left
        self.finish(st, placed[0], reason)
        if not after_hand:
            zeros = tuple(0 for _ in scores)
            st.history.append(HandRecord(st.hand_no, st.dealer, zeros, zeros, zeros, reason))

    def over_before(self, st: GameState) -> tuple[str, bool] | None:
        """Why a match carried into its next hand is already over (the score and state a
        record of later hands starts from, ``st.hand_no`` the hands before it), and
        whether its score says so (else its count of hands); None where the rules play
        that hand: what :meth:`check` (or, with running totals, the win rule) would
        decide on these scores after the hand before.

        >>> from mariage import load_rules, GameState
        >>> state = GameState(load_rules("belote"))
        >>> state.match_scores = [1000, 1000]          # a tie at the target: play on
        >>> state.mech.match_end.over_before(state) is None
        True
        >>> state.match_scores = [1010, 1000]
        >>> state.mech.match_end.over_before(state)
        ('a score of 1010 already ends the match (target 1000)', True)
        """
        r = st.rules
        if r.match_measure == "hands_played":
            if st.hand_no >= r.match_target:
                return f"the match is over after hand {r.match_target}", False
            return None
        scores = self.judged(st)
        target = r.match_target
        if r.running_rule is not None:  # the win rule decides (a total past an exact target
            win = r.win_rule             # is impossible: over too)
            rule = "at_least" if win == "exactly" else win
            won = [s for s in scores if st.mech.running.wins(rule, s, target)]
            return (f"a total of {max(won)} already wins (target {target}, {win})", True) \
                if won else None
        reached = [s for t, s in enumerate(scores) if s >= target and not st.no_win >> t & 1]
        if r.places_rule is not None:  # over once all but one have a place
            if len(reached) >= len(scores) - 1:
                return f"scores of {sorted(reached)} already end the match (target {target})", True
            return None
        if reached and (reached.count(max(reached)) == 1 or r.tie_mode == "draw"):
            return f"a score of {max(reached)} already ends the match (target {target})", True
        if r.match_max_hands and r.match_max_hands_count == "all" \
                and st.hand_no >= r.match_max_hands:
            return f"the match is over after hand {r.match_max_hands}", False
        return None

    def hands_counted(self, st: GameState) -> int:
        """The hands played so far, as a limit of hands counts them (void ones or not)."""
        if st.rules.match_max_hands_count == "all":
            return st.hand_no
        return sum(1 for h in st.history if h.ended != "void")

    def check_hands(self, st: GameState, after_hand: bool, hands: int = 0) -> None:
        """A match of a fixed number of hands: over after the last, the higher score wins."""
        r = st.rules
        if not after_hand or self.hands_counted(st) < (hands or r.match_target):
            return
        scores = self.judged(st)
        top = max(scores)
        best = [t for t, s in enumerate(scores) if s == top]
        self.finish(st, best[0] if len(best) == 1 else None,
                    "hands" if len(best) == 1 else "tie")

    def resign(self, st: GameState, seat: int) -> None:
        """``seat`` resigns: the match ends at once and the other side wins."""
        r = st.rules
        if st.phase == OVER:
            raise IllegalActionError(r.core_over, seat=seat, action="resign",
                                     reason="the match is over", hand=st.hand_no,
                                     trick=st.trick_no)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < r.nseats:
            raise IllegalActionError("core.resign", seat=seat, action="resign",
                                     reason=f"no such seat: {shown(seat)} (seats 0 to "
                                            f"{r.nseats - 1})", hand=st.hand_no)
        others = [t for t in range(len(r.teams)) if t != r.team_of[seat]]
        if r.places_rule is not None and st.placed:  # the winner stays first (match.places)
            if r.team_of[seat] not in st.placed:  # one of those playing on: he is last
                st.placed = (*st.placed, *(t for t in others if t not in st.placed),
                             r.team_of[seat])
            self.finish(st, st.placed[0], "resign")
            return
        self.finish(st, others[0] if len(others) == 1 else None, "resign")
