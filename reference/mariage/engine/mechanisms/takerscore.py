"""The takers' contract judged against the defence: made, failed (dedans), tied (litige).

Each side's total is its card points (with the last trick, or the capot value
for all tricks), its announcements where its side holds the best one, and the
pair of trumps it said. The takers make their contract with more than the
defenders; then each side writes its total. Failing, the takers write nothing
but a pair they said (where it stays with its holders) and the defenders write
the failed-contract points, all valid announcements and their own pair. Equal
totals: the takers fail, make it, or (litige) the defenders write theirs and
the takers' total is held for the winner of the next played deal. A side that
takes every trick while taking (capot) has made it, and the defenders'
announcements change sides; takers who take no trick have failed, whatever they
announced. Written lines are rounded as the rules say.

>>> from mariage.engine.mechanisms.takerscore import round_line
>>> [round_line(85, mode) for mode in ("none", "nearest10_5up", "nearest10_6up")]
[85, 90, 80]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .base import Mechanism

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["TakersScore", "round_line"]


def round_line(points: int, mode: str) -> int:
    """A written line rounded to tens: ``nearest10_5up`` (85 up), ``nearest10_6up`` (85
    down, 86 up), or not at all (``none``)."""
    if mode == "nearest10_5up":
        return (points + 5) // 10 * 10
    if mode == "nearest10_6up":
        return (points + 4) // 10 * 10
    return points


#: the outcome of a deal whose sides have equal totals, per ``takers_tie``
_TIE_OUTCOME = {"litige": "tied", "tie_fails": "failed", "tie_makes": "made"}
#: whether a deal's outcome made the contract (``None``: held over, a litige)
_MADE = {"made": True, "failed": False}

#: per side: card points, counting announcements, the pair said (TakersScore.totals)
_Totals = tuple[list[int], list[int], list[int]]


class TakersScore(Mechanism):
    """The totals of a deal, the takers' result, the held-over tie and the written lines."""

    __slots__ = ()
    name: ClassVar[str] = "takers against the defence"
    sections: ClassVar[tuple[str, ...]] = ("scoring.takers", "match.pair_alone")
    steps: ClassVar[tuple[str, ...]] = ("sheet", "facts")

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """The slots :meth:`sheet` may write, where the rules have takers (see
        :meth:`Scoring.hand_end_slots`)."""
        if rules.takers_rule is None:
            return ()
        return ("deal_outcome", "pot", "round_residue", "no_win")

    def totals(self, st: GameState) -> tuple[list[int], list[int], list[int]]:
        """Per side: card points (capot counted), counting announcements, the pair said."""
        r = st.rules
        nteams = len(r.teams)
        cards = st.captured[:]
        if st.strain >= 0 and r.all_trump_scale[0] != r.all_trump_scale[1] and \
                r.strain_kinds[st.strain - len(r.suits)] == "all_trump":
            to, of = r.all_trump_scale  # scaled to the deal's usual worth, halves up
            cards = [(2 * c * to + of) // (2 * of) for c in cards]
        tricks = r.hand_size + st.draw_tricks
        won = st.tricks_won
        if tricks in won:  # capot
            t = won.index(tricks)
            if r.capot_mode == "flat":
                cards[t] = r.capot_value
            else:
                cards[t] += r.capot_value - r.last_trick_points
        ann = st.mech.announcements.points(st) if r.combos else [0] * nteams
        pair = [0] * nteams
        for seat in st.mech.trump_pair.pair_seats(st):
            pair[r.team_of[seat]] += r.pair_value
        return cards, ann, pair

    def compared(self, st: GameState, totals: _Totals | None = None) -> tuple[int, int]:
        """The takers' and the defenders' totals as the contract compares them (from
        :meth:`totals`, or ``totals`` where the caller has them already)."""
        r = st.rules
        taker = r.team_of[st.declarer]
        cards, ann, pair = self.totals(st) if totals is None else totals
        if st.tricks_won[taker] == r.hand_size + st.draw_tricks:  # capot: theirs change sides
            ann = [sum(ann) if t == taker else 0 for t in range(len(ann))]
        counted = pair if r.takers_counts_pair else [0] * len(pair)
        mine = cards[taker] + ann[taker] + counted[taker]
        theirs = sum(cards[t] + ann[t] + counted[t] for t in range(len(cards)) if t != taker)
        return mine, theirs

    def outcome(self, st: GameState) -> str:
        """``made``, ``failed`` or ``tied`` (a litige), from the totals of a played deal."""
        return self._judged(st, *self.compared(st))

    def _judged(self, st: GameState, mine: int, theirs: int) -> str:
        """:meth:`outcome` of the takers' and the defenders' totals ``mine``, ``theirs``."""
        r = st.rules
        taker = r.team_of[st.declarer]
        capot = st.tricks_won[taker] == r.hand_size + st.draw_tricks
        tie = _TIE_OUTCOME[r.takers_tie]
        if st.contract:  # a bid: its value to reach (capot: every trick)
            if st.contract == r.sa_capot_value:
                return "made" if capot else "failed"
            if st.contract == r.sa_generale_value:  # every trick by the bidder alone
                alone = capot and all(w == st.declarer for _, _, w in st.tricks)
                return "made" if alone else "failed"
            if r.bid_must_beat and mine == theirs and mine >= st.contract:
                return tie
            ok = mine >= st.contract and (not r.bid_must_beat or mine > theirs) and \
                (not r.bid_80_needs_82 or st.contract >= 82 or mine >= 82)
            return "made" if ok else "failed"
        if capot:
            return "made"
        if not st.tricks_won[taker]:  # every trick to the defence: dedans, whatever the
            return "failed"            # takers announced
        if mine != theirs:
            return "made" if mine > theirs else "failed"
        return tie

    def sheet(self, st: GameState, how: str) -> list[int]:
        """What each side writes for this deal (and the held-over total taken or grown)."""
        r = st.rules
        nteams = len(r.teams)
        if how != "played_out":
            return [0] * nteams
        taker = r.team_of[st.declarer]
        won = st.tricks_won
        cards, ann, pair = self.totals(st)
        if won[taker] == r.hand_size + st.draw_tricks and any(ann):  # capot: the defenders'
            ann = [sum(ann) if t == taker else 0 for t in range(nteams)]  # change sides
        totals = [c + a + p for c, a, p in zip(cards, ann, pair, strict=True)]
        # kept for the record (facts); worked out here (as compared does, from these
        # totals) where outcome and compared are these (a subclass's own are asked)
        cls = type(self)
        if cls.outcome is TakersScore.outcome and cls.compared is TakersScore.compared:
            counted = totals if r.takers_counts_pair else \
                [c + a for c, a in zip(cards, ann, strict=True)]
            mine = counted[taker]
            result = st.deal_outcome = self._judged(st, mine, sum(counted) - mine)
        else:
            result = st.deal_outcome = self.outcome(st)
        out = [0] * nteams
        pair_only = -1
        if st.contract and result != "tied":
            out, winner, pair_only = self.bid_sheet(st, result, cards, ann, pair, totals)
        elif result == "made":
            out = totals
            winner = taker
        elif result == "failed":
            winner = st.opponent(taker)
            keeps = r.takers_pair_on_failure == "holder_keeps"
            if pair[taker] and keeps:
                out[taker] = pair[taker]
                pair_only = taker
            base = cards[winner] if st.tricks_won[winner] == r.hand_size + st.draw_tricks \
                else r.takers_failed_points
            out[winner] = base + sum(ann) + pair[winner] + (0 if keeps else pair[taker])
        else:  # tied: the defenders write theirs, the takers' total waits
            winner = -1
            for t in range(nteams):
                if t != taker:
                    out[t] = totals[t]
            st.pot += totals[taker]
        if winner >= 0 and st.pot:
            out[winner] += st.pot
            st.pot = 0
        if r.pair_alone_cannot_win:  # (mark_pair_only asks this first)
            for t in range(nteams):
                if not won[t] and pair[t] and out[t] == pair[t]:
                    pair_only = t  # no trick: only its pair of trumps
            self.mark_pair_only(st, pair_only)
        mode = r.round_mode
        if mode == "none":
            return out
        written = [round_line(v, mode) for v in out]
        if r.round_game_rule:  # the totals before rounding, kept beside the written ones
            for t in range(nteams):
                st.round_residue[t] += out[t] - written[t]
        return written

    def bid_sheet(self, st: GameState, result: str, cards: list[int], ann: list[int],
                  pair: list[int], totals: list[int]) -> tuple[list[int], int, int]:
        """What each side writes for a bid contract made or failed (before the held-over
        total and rounding), the side that won the deal, and a side left with only its
        pair of trumps (-1: none)."""
        r = st.rules
        nteams = len(r.teams)
        taker = r.team_of[st.declarer]
        value = st.contract
        m = (1, 2, r.bid_redouble_factor)[st.kontras]
        out = [0] * nteams
        winner = taker if result == "made" else st.opponent(taker)
        loser = st.opponent(winner)
        keeps = r.takers_pair_on_failure == "holder_keeps"
        flat = r.bid_capot_cards == "flat"
        if flat and st.tricks_won[taker] == r.hand_size + st.draw_tricks:
            cards = [r.bid_capot_base if t == taker else cards[t] for t in range(nteams)]
        if result == "made" and m == 1:
            mode = r.bid_score_mode
            mine = cards[taker] + ann[taker] + pair[taker]
            out[taker] = value + (mine if mode != "bid_only" else pair[taker])
            if mode == "made_only":
                out[taker] = mine
            for t in range(nteams):
                if t != taker:
                    out[t] = totals[t]
            return out, winner, -1
        capot = st.tricks_won[winner] == r.hand_size + st.draw_tricks and (
            winner == taker or r.bid_defence_capot)
        if flat and value in (r.sa_capot_value, r.sa_generale_value):  # made or failed
            capot = True
        base = r.bid_capot_base if capot else r.bid_failed_base
        won_pair = pair[winner] + (pair[loser] if not keeps else 0)
        if r.bid_multiplier_base == "bid_only":
            out[winner] = base + sum(ann) + m * value + won_pair
        elif r.bid_multiplier_base == "fixed_320_640" and m > 1:
            out[winner] = 320 if m == 2 else 640  # fixed, whatever a redouble multiplies by
        elif r.bid_pair_multiplied:
            out[winner] = (base + sum(ann) + value + won_pair) * m
        else:
            out[winner] = (base + sum(ann) + value) * m + won_pair
        pair_only = -1
        if keeps and pair[loser]:
            out[loser] = pair[loser]
            pair_only = loser
        return out, winner, pair_only

    def mark_pair_only(self, st: GameState, team: int) -> None:
        """A side that won a trick may win the match again; a side that wrote only its
        pair of trumps after failing (or taking no trick) may not win on this deal."""
        r = st.rules
        if not r.pair_alone_cannot_win:
            return
        for t in range(len(r.teams)):
            if st.tricks_won[t]:
                st.no_win &= ~(1 << t)
        if team >= 0:
            st.no_win |= 1 << team

    def facts(self, st: GameState) -> dict[str, Any]:
        """The contract facts of a finished deal, for its record."""
        if st.declarer < 0:
            return {"held": st.pot}
        r = st.rules
        played = len(st.tricks) == r.hand_size + st.draw_tricks
        # the outcome the sheet was written from (worked out again only without a sheet)
        outcome = (st.deal_outcome or self.outcome(st)) if played else ""
        return {"declarer": st.declarer, "contract": st.contract, "kontras": st.kontras,
                "trump": st.trump if st.strain < 0 else st.strain,  # SA, TA past the suits
                "made": _MADE.get(outcome) if played else None, "outcome": outcome,
                "announce_side": st.mech.announcements.best_side(st) if r.combos else -1,
                "held": st.pot}
