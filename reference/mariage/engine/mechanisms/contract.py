"""The contract: fixing the game value, the first lead, made or failed, the score sheet.

Runs the declarer's one raise after the exchange (or keeping his bid), his
lead to the first trick, Kontra and Re where the rules allow them, and the
result of a contract hand: the playing party makes its game if its points
reach the value, either party may be schwarz (no trick), and the score sheet
books the value for the playing party and the rounded points of the
defenders (schwarz multiplied), or the value alone.

>>> from mariage.engine.mechanisms.contract import round_to
>>> round_to(137, 5), round_to(138, 5), round_to(3, 5), round_to(2, 5)
(135, 140, 5, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Action, Kontra, Raise
from ..phase import CONTRACT, PLAY
from .auction import Auction
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Contract", "round_to"]


def round_to(points: int, step: int, down: bool = False) -> int:
    """``points`` rounded to the nearest multiple of ``step`` (halves up), or ``down``.

    >>> [round_to(p, 5) for p in (52, 53, 57, 58, 2)], round_to(57, 5, down=True)
    ([50, 55, 55, 60, 0], 55)
    """
    if down:
        return points // step * step
    return (points + step // 2) // step * step



@lru_cache(maxsize=64)
def _raises(least: int, step: int, ceiling: int) -> tuple[Raise, ...]:
    """Every raise from ``least`` to ``ceiling`` by ``step``, made once (actions are
    immutable, so every listing of the contract shares them)."""
    return tuple(Raise(v) for v in range(least, ceiling + 1, step))


class Contract(Mechanism):
    """The game value, the declarer's lead, doubling and the contract's result."""

    __slots__ = ()
    name: ClassVar[str] = "contract"
    steps: ClassVar[tuple[str, ...]] = ("start", "sheet", "facts")
    sections: ClassVar[tuple[str, ...]] = ("contract", "scoring.sheet")
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Raise, "apply_raise"),)
    any_seat: ClassVar[tuple[tuple[type, str], ...]] = ((Kontra, "apply_kontra"),)
    phases: ClassVar[tuple[int, ...]] = (CONTRACT,)

    def hand_end_slots(self, rules: Rules) -> tuple[str, ...]:
        """:meth:`sheet` and :meth:`facts` write nothing of the state (see
        :meth:`Scoring.hand_end_slots`)."""
        return ()

    # ------------------------------------------------------------ raise
    def start(self, st: GameState) -> None:
        """After the passing: the declarer fixes the value, or play begins (at once in a
        golden hand whose contract may not be raised)."""
        r = st.rules
        if r.raise_rule is not None and (r.golden_rule is None or r.golden_raise
                                         or not st.mech.running.golden(st)):
            st.phase = CONTRACT
            st.to_act = st.declarer
            return
        self.play(st)

    def play(self, st: GameState) -> None:
        """The declarer leads to the first trick."""
        st.phase = PLAY
        st._appliers.start_trick(st, st.declarer)

    def all_actions(self, rules: Rules) -> list[Action]:
        """Keeping the bid, every raise, and Kontra and Re where the rules have them."""
        if rules.auction_rule is None:
            return []
        top = Auction().ceiling(rules)
        out: list[Action] = [Raise(0)]
        if rules.raise_rule:
            out.extend(Raise(v) for v in range(rules.bid_min + rules.bid_step, top + 1,
                                               rules.bid_step))
        if rules.kontra_rule:
            out += [Kontra(False), Kontra(True)]
        return out

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Keep the bid, or raise it to any higher allowed value."""
        r = st.rules
        top = st.mech.auction.ceiling(r)
        if r.bid_cap != "none":  # the cap, judged on the hand after the exchange
            top = min(top, st.mech.auction.cap(st, st.hands[seat]))
        out: list[Action] = []
        if r.concede_rule is not None:
            st.mech.talon.offer_concede(st, seat, out)
        out.append(Raise(0))
        low, step = st.contract + r.bid_step, r.bid_step
        i, off = divmod(low - r.bid_min, step)  # the ladder's raises are bid_min + i * step
        if off or i < 0:
            out.extend(Raise(v) for v in range(low, top + 1, step))
        elif top >= low:
            ladder = _raises(r.bid_min, step, st.mech.auction.ceiling(r))
            out += ladder[i:1 + (top - r.bid_min) // step]
        return out

    listing_depends: ClassVar[tuple[str, ...]] = ()

    def phase_listing(self, rules: Rules) -> Callable[[GameState, int], list[Action]] | None:
        """:meth:`legal_in_phase` with the ceiling, the ladder of raises and the keep
        (``Raise(0)``, shared) bound once, where the auction's ceiling and cap are its own
        (:class:`Auction`'s) and the contract stands on the ladder's steps.

        >>> from mariage import load_rules, new_match
        >>> state = new_match(load_rules("thousand-pl"), 1)
        >>> while state.phase.name != "CONTRACT":  # all pass; the last set of cards given
        ...     state.apply(state.legal_actions()[0 if state.phase.name == "AUCTION" else -1])
        >>> state.contract, Contract().phase_listing(state.rules)(state, state.to_act)[:2]
        (100, [Raise(value=0), Raise(value=110)])
        """
        r = rules
        if r.auction_rule is None:
            return None
        least, step, ceiling = r.bid_min, r.bid_step, Auction().ceiling(r)
        ladder = _raises(least, step, ceiling)
        keep = Raise(0)
        concede = r.concede_rule is not None
        capped = r.bid_cap != "none"
        legal_in_phase = self.legal_in_phase

        def listing(st: GameState, seat: int) -> list[Action]:
            if getattr(st.mech.auction.ceiling, "__func__", None) is not Auction.ceiling \
                    or getattr(st.mech.auction.cap, "__func__", None) is not Auction.cap:
                return legal_in_phase(st, seat)  # an auction of its own ceiling or cap
            top = ceiling
            if capped:  # the cap, judged on the hand after the exchange
                most = st.mech.auction.cap(st, st.hands[seat])
                if most < top:
                    top = most
            out: list[Action] = []
            if concede:
                st.mech.talon.offer_concede(st, seat, out)
            out.append(keep)
            low = st.contract + step
            i, off = divmod(low - least, step)
            if off or i < 0:
                out.extend(Raise(v) for v in range(low, top + 1, step))
            elif top >= low:
                out += ladder[i:1 + (top - least) // step]
            return out
        return listing

    def apply_raise(self, st: GameState, seat: int, action: Raise) -> None:
        """The declarer keeps (0) or raises the game value."""
        r = st.rules
        if st.phase != CONTRACT:
            if r.golden_rule is not None and not r.golden_raise and st.phase == PLAY \
                    and st.declarer == seat and st.mech.running.golden(st):
                refuse(st, r.golden_rule, seat, action, "the contract of a golden hand is "
                       "not raised")
            if r.raise_rule is not None and st.phase == PLAY and st.declarer == seat:
                refuse(st, r.raise_rule, seat, action, "the game value is fixed once, "
                       "after the exchange")
            refuse(st, r.core_phase, seat, action, "the game value is fixed after the exchange")
        v = action.value
        top_value = st.mech.auction.ceiling(r)
        if v and (v <= st.contract or v % r.bid_step or v > top_value):
            top = f" and at most {top_value}"
            refuse(st, r.raise_rule, seat, action,
                   f"a raise must be a multiple of {r.bid_step} above {st.contract}{top}")
        if v and r.bid_cap != "none" and v > st.mech.auction.cap(st, st.hands[seat]):
            refuse(st, r.bid_cap_rule, seat, action, "with the pairs in this hand the "
                   f"contract may be at most {st.mech.auction.cap(st, st.hands[seat])}")
        st.actions.append((seat, action))
        if v:
            st.contract = v
        self.play(st)

    # ------------------------------------------------------------ Kontra and Re
    def offers_any_time(self, rules: Rules) -> bool:
        """Kontra and Re are open at any moment of the play where the rules have them."""
        return rules.kontra_rule is not None

    def kontra_ok(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may say the next Kontra or Re now."""
        r = st.rules
        if st.phase != PLAY or st.declarer < 0 or st.kontras >= r.hand_size:
            return False
        playing = r.team_of[seat] == r.team_of[st.declarer]
        if playing != (st.kontras % 2 == 1):
            return False
        return st.hands[seat].bit_count() >= r.hand_size - st.kontras

    def any_time(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The Kontra or Re ``seat`` may say."""
        if self.kontra_ok(st, seat):
            out.append(Kontra(st.kontras % 2 == 1))

    def apply_kontra(self, st: GameState, seat: int, action: Kontra) -> None:
        """``seat`` doubles."""
        r = st.rules
        if r.kontra_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no Kontra")
        if not self.kontra_ok(st, seat) or action.re != (st.kontras % 2 == 1):
            refuse(st, r.kontra_rule, seat, action,
                   "Kontra comes from a defender, Re from the playing party, in turn, while "
                   "the player still holds enough cards")
        st.actions.append((seat, action))
        st.kontras += 1

    # ------------------------------------------------------------ result
    def playing_team(self, st: GameState) -> int:
        """The playing party's team, or -1 in a hand nobody bid."""
        return st.rules.team_of[st.declarer] if st.declarer >= 0 else -1

    def made(self, st: GameState) -> bool | None:
        """True if the playing party made its game (``None``: no contract)."""
        team = self.playing_team(st)
        if team < 0:
            return None
        pts = st.hand_points(team)
        r = st.rules
        if r.round_first:
            pts = round_to(pts, r.rounding, r.round_down)
        if r.made_if == "more_than":
            return pts > st.contract
        return pts >= st.contract

    def schwarz(self, st: GameState) -> tuple[int, ...]:
        """The teams that won no trick."""
        return tuple(t for t, won in enumerate(st.tricks_won) if won == 0)

    def sheet(self, st: GameState, how: str) -> list[int]:
        """What each team books on the score sheet for this hand."""
        r = st.rules
        nteams = len(r.teams)
        out = [0] * nteams
        if how == "conceded":
            return st.mech.talon.concession_sheet(st)
        if how != "played_out":
            return out
        team = self.playing_team(st)
        if r.sheet_mode == "each_rounded":  # each opponent for himself, no schwarz
            sides = st.sides_in_hand()
            for t in sides:
                out[t] = round_to(st.hand_points(t), r.rounding, r.round_down)
            out[team] = st.contract if self.made(st) else -st.contract
            st.mech.talon.sitter(st, out)
            return out
        if team < 0:
            if r.sheet_mode == "wurzel":
                return [round_to(st.hand_points(t), r.rounding) for t in range(nteams)]
            return out
        value = st.contract
        made = self.made(st)
        out[team] = value if made else -value
        if r.sheet_mode != "wurzel":  # each Kontra and Re doubles the line (no schwarz)
            out[team] *= 2 ** st.kontras
            return out
        schwarz = self.schwarz(st)
        doublings = st.kontras
        if team in schwarz:
            out[team] = -r.schwarz_factor * value
        if schwarz and doublings:
            doublings -= 1
        out[team] *= 2 ** doublings
        for t in range(nteams):
            if t == team:
                continue
            if t in schwarz and made:
                out[t] = -r.schwarz_factor * value
            else:
                out[t] = round_to(st.hand_points(t), r.rounding)
        return out

    def facts(self, st: GameState) -> dict[str, Any]:
        """The contract facts of a finished hand, for its record."""
        made = None if st.hand_over_reason == "conceded" else self.made(st)
        schwarz = self.schwarz(st) if st.rules.schwarz_rule is not None else ()
        return {"contract": st.contract, "declarer": st.declarer, "made": made,
                "schwarz": schwarz, "kontras": st.kontras}
