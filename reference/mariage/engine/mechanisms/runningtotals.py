"""Running totals: the barrel, bolts, dumps and the win check, after each scored hand.

Runs, in a fixed order after the hand's entries are known (the contract, the
opponents' rounded points, a concession): the multipliers (a blind contract's
entry, every entry of a golden hand), the barrel filter for players on the
barrel at the start of the hand, bolts for a hand without a trick, adding the
entries to the totals, the win check (at or past the target; the declarer
first when several reach it), the barrel's attempts, falls, mounting and
collisions, and dumps; after the last golden hand, totals back to 0 if no golden
contract was made (where the rules say so). A hand thrown in is not scored and is
dealt again.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS as M
>>> M.rule_ids(M.running, load_rules("thousand"))[:3]
['thousand.running', 'thousand.running.barrel', 'thousand.running.bolts']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["RunningTotals"]


class RunningTotals(Mechanism):
    """The rules of the running totals: barrel, bolts, dumps, winning, redeals."""

    __slots__ = ()
    name: ClassVar[str] = "running totals"
    steps: ClassVar[tuple[str, ...]] = ('settle', 'golden', 'wins')
    sections: ClassVar[tuple[str, ...]] = ("match.running",)

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """The slots :meth:`settle` may write, where the rules keep running totals (see
        :meth:`Scoring.hand_end_slots`)."""
        if rules.running_rule is None:
            return ()
        return ("barrel", "bolts", "falls", "golden_done", "golden_made", "match_scores",
                "next_dealer")

    def settle(self, st: GameState, how: str, added: list[int]) -> tuple[int | None] | None:
        """Book ``added`` (the hand's entries, changed in place by the barrel and bolts)
        into the totals; ``(winner,)`` if the game is over (``(None,)``: a draw)."""
        r = st.rules
        if how == "redeal":  # thrown in: not scored, dealt again
            if r.redeal_same_dealer:
                st.next_dealer = st.dealer
            return None
        scores = st.match_scores
        n = len(scores)
        decl = r.team_of[st.declarer] if st.declarer >= 0 else -1
        if st.blind and how == "played_out":  # multipliers: a blind contract's entry
            added[decl] *= r.blind_multiplier
        golden = r.golden_rule is not None and self.golden(st)
        if golden:  # ... and every entry of a golden hand
            st.golden_done += 1
            if decl >= 0 and how == "played_out" and added[decl] > 0:  # made
                st.golden_made = 1
            for t in range(n):
                added[t] *= r.golden_multiplier
        on = [b >= 0 for b in st.barrel]  # on the barrel at the start of the hand
        if r.barrel_rule is not None:
            for t in range(n):
                if on[t] and (t != decl or (added[t] < 0 and not r.barrel_fail_off)):
                    added[t] = 0
        sides = st.sides_in_hand() if r.barrel_rule is not None or r.bolt_condition != "off" \
            else ()
        if r.bolt_condition != "off" and how == "played_out":
            self.bolts(st, added, sides, decl, on)
        target = r.match_target
        for t in range(n):
            if r.win_rule == "exactly" and scores[t] + added[t] > target:
                added[t] = 0  # a hand that would pass the target leaves the total
            scores[t] += added[t]
        win = r.win_rule
        reached = [t for t in range(n) if scores[t] >= target] if win == "at_least" \
            else [t for t in range(n) if self.wins(win, scores[t], target)]
        if reached:
            if decl in reached:
                return (decl,)
            top = max(scores[t] for t in reached)
            best = [t for t in reached if scores[t] == top]
            return (best[0] if len(best) == 1 else None,)
        if r.barrel_rule is not None:
            self.barrel(st, on, sides)
        if r.dump_rule is not None:
            for t in range(n):
                if scores[t] == r.dump_value or (r.dump_negative and scores[t] == -r.dump_value):
                    scores[t] = 0
        if golden and r.golden_reset and st.golden_done == r.hand_seats and not st.golden_made:
            scores[:] = [0] * n  # the golden hands over, no golden contract made
        return None

    def golden(self, st: GameState) -> bool:
        """True if the hand in progress is a golden one: among the game's first hands
        scored, one per player taking part in a hand."""
        return st.rules.golden_rule is not None and st.golden_done < st.rules.hand_seats

    @staticmethod
    def wins(rule: str, total: int, target: int) -> bool:
        """True if ``total`` wins under the win rule ``rule``.

        >>> RunningTotals.wins("at_least", 1000, 1000), RunningTotals.wins("more_than", 1000, 1000)
        (True, False)
        """
        if rule == "more_than":
            return total > target
        if rule == "exactly":
            return total == target
        return total >= target

    def bolts(self, st: GameState, added: list[int], sides: tuple[int, ...], decl: int,
              on: list[bool]) -> None:
        """Bolts of a played hand: a set completed costs its penalty from the entry."""
        r = st.rules
        for t in sides:
            if on[t]:  # hands on the barrel do not count
                continue
            if t == decl and not r.bolt_declarer:  # no bolt: a hand without one
                if r.bolt_consecutive:
                    st.bolts[t] = 0
                continue
            bolt = st.tricks_won[t] == 0 if r.bolt_condition == "no_tricks" else added[t] == 0
            if bolt:
                st.bolts[t] += 1
                if st.bolts[t] >= r.bolt_limit:
                    added[t] -= r.bolt_penalty
                    st.bolts[t] = 0
            elif r.bolt_consecutive:
                st.bolts[t] = 0

    def barrel(self, st: GameState, on: list[bool], sides: tuple[int, ...]) -> None:
        """Attempts and falls of the players on the barrel, then mounting and collisions."""
        r = st.rules
        scores = st.match_scores
        at = r.barrel_at
        for t in range(len(scores)):
            if not on[t]:
                continue
            if scores[t] < at:  # a loss took him off
                st.barrel[t] = -1
                continue
            if t not in sides:  # sat the hand out: no attempt used
                continue
            st.barrel[t] += 1
            if r.barrel_clamp:
                scores[t] = at
            if r.barrel_attempts and st.barrel[t] >= r.barrel_attempts:
                self.fall(st, t)
        mounted = [t for t in range(len(scores)) if not on[t] and scores[t] >= at]
        for t in mounted:
            st.barrel[t] = 0
            if r.barrel_clamp:
                scores[t] = at
        if not mounted or r.barrel_collision == "coexist":
            return
        already = [t for t in range(len(scores)) if on[t] and st.barrel[t] >= 0]
        if r.barrel_collision == "knock_off":
            for t in already:
                self.fall(st, t)
        elif len(already) + len(mounted) >= 2:  # all_fall
            for t in already + mounted:
                self.fall(st, t)

    def carried_in(self, st: GameState) -> tuple[str, str] | None:
        """Why the totals and barrel state a match is carried in with (a record of its
        later hands) cannot arise under the rules, and the rule, or None. After every
        scored hand a team whose total reached the barrel is on it, held there at the
        barrel's mark where the rules clamp; a team on it is at or over that mark (a loss
        takes it off). Only a fall with no penalty leaves a team at the mark and off the
        barrel, and only the golden hands' reset a team on it at 0.

        >>> from mariage import load_rules, GameState
        >>> state = GameState(load_rules("thousand"))
        >>> state.match_scores = [880, 500, 0]
        >>> state.mech.running.carried_in(state)
        ("A's total 880 is impossible off the barrel: from 880 a team is on it", \
'thousand.running.barrel')
        >>> state.barrel[0] = 1
        >>> state.mech.running.carried_in(state) is None
        True
        """
        r = st.rules
        if r.barrel_rule is None:
            return None
        at = r.barrel_at
        for t, (total, on) in enumerate(zip(st.match_scores, st.barrel, strict=True)):
            name = r.team_names[t] if t < len(r.team_names) else str(t)
            reset = total == 0 and r.golden_rule is not None and r.golden_reset
            if on >= 0 and (total < at or (r.barrel_clamp and total != at)) and not reset:
                held = f"exactly {at}" if r.barrel_clamp else f"at least {at}"
                return (f"{name}'s total {total} is impossible on the barrel: a team on it "
                        f"is at {held}", r.barrel_rule)
            if on < 0 and total >= at and not (total == at and r.barrel_penalty == 0
                                               and r.barrel_attempts):
                return (f"{name}'s total {total} is impossible off the barrel: from {at} "
                        "a team is on it", r.barrel_rule)
        return None

    def fall(self, st: GameState, team: int) -> None:
        """``team`` falls off the barrel: back by the penalty (to 0 on a third fall)."""
        r = st.rules
        st.barrel[team] = -1
        st.falls[team] += 1
        st.match_scores[team] = r.barrel_at - r.barrel_penalty
        if r.barrel_third_fall_resets and st.falls[team] == 3:
            st.match_scores[team] = 0
