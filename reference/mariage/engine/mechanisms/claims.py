"""Claims ("going out"): a player says he has reached the hand target; the claim is checked.

Runs when a claim may be made (by the winner of a trick before the next
lead, also after the last trick where the rules allow it, and just after a
declaration), the check (true with at least the target in counted points,
false otherwise), the automatic mode (the hand stops by itself at a claim
moment), and the moment after a trick: the winner may claim, close the stock
before the draw where the rules allow it, or go on. Which game points a true,
false or missing claim scores is the game-point mechanism's business.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> mech = DEFAULT_MECHANISMS
>>> mech.rule_ids(mech.claims, load_rules("schnapsen"))
['schnapsen.claim', 'schnapsen.claim.timing']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Claim, Close, Decline, Draw
from ..phase import AFTER_TRICK, CLOSE_REPLY, OVER, PLAY
from .base import Mechanism, refuse
from .trickplay import START_WRITES

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Claims"]

#: the actions of the play phase and the moment after a trick (immutable: shared)
_CLAIM, _CLOSE, _DRAW, _DECLINE = Claim(), Close(), Draw(), Decline()


class Claims(Mechanism):
    """Claiming the hand target, and the winner's moment after a trick."""

    __slots__ = ()
    name: ClassVar[str] = "claims"
    sections: ClassVar[tuple[str, ...]] = ("claim",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Claim, "apply_claim"),
                                                       (Draw, "apply_draw"),
                                                       (Decline, "apply_decline"))
    phases: ClassVar[tuple[int, ...]] = (AFTER_TRICK,)
    #: before the hand's last trick, only an automatic claim ends the hand; the winner's
    #: pause changes the phase, the seat to act and the trick's lists, which undo keeps
    quiet_hooks: ClassVar[dict[str, str]] = {
        "after_trick": "not (st.rules.claim_auto and st.rules.claim_rule is not None)"}
    #: a claim sets who claimed and whether rightly, then ends the hand by the hand end
    #: a draw (or a decline after the last trick) resumes the play (Claims.go_on: the
    #: draw, the hand end or the next trick); a decline on a close lets it take effect
    #: (TalonClosing.apply_decline)
    trail_actions: ClassVar[dict[str, tuple[str, ...]]] = {
        "apply_claim": ("claim_by", "claim_ok"),
        "apply_draw": ("phase", "hands", "known", "stock", "turn_up", *START_WRITES),
        "apply_decline": ("phase", "hands", "known", "stock", "turn_up", "aside",
                          "draw_tricks", "_tricks_per_hand", *START_WRITES)}
    trail_calls: ClassVar[dict[str, tuple[tuple[str, str], ...]]] = {
        "apply_draw": (("tricks", "draw"), ("tricks", "start_trick")),
        "apply_decline": (("tricks", "draw"), ("tricks", "start_trick"),
                          ("closing", "apply_decline"), ("closing", "finish_close"))}
    #: an automatic claim after a trick: the last trick's bonus, who claimed (then the
    #: hand end), or the winner's pause
    mark_hooks: ClassVar[dict[str, tuple[str, ...]]] = {
        "after_trick": ("captured", "claim_by", "claim_ok", "phase", "to_act", "trick_seats",
                        "trick_cards")}

    def offers(self, rules: Rules) -> bool:
        """Claims are actions wherever the rules have explicit claims."""
        return rules.claim_rule is not None and not rules.claim_auto

    def all_actions(self, rules: Rules) -> list[Action]:
        """A claim, a draw and a decline after a trick."""
        return [Claim(), Draw(), Decline()] if rules.claim_rule is not None else []

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """A claim, if ``seat`` may claim now (on lead)."""
        if self.claim_on_lead(st, seat):
            out.append(_CLAIM)

    gate_depends: ClassVar[tuple[str, ...]] = ("claim_on_lead",)

    def offer_gate(self, rules: Rules) -> str | None:
        """``seat`` leads (what :meth:`claim_on_lead` asks first)."""
        return "not st.trick_cards and seat == st.leader"

    def offer_exact(self, rules: Rules) -> tuple[str, Action] | None:
        """Exactly :meth:`claim_on_lead` in the play phase, with these rules' claim moments.

        >>> from mariage import load_rules
        >>> Claims().offer_exact(load_rules("schnapsen"))[0].split(" and ", 2)[2]
        '(st.decl_this_trick[seat] > 0 or st.last_winner == seat)'
        """
        if not self.offers(rules):
            return None
        just_declared = "st.decl_this_trick[seat] > 0"
        if rules.claim_after_declaration and rules.claim_after_trick:
            moment = f"({just_declared} or st.last_winner == seat)"
        elif rules.claim_after_declaration:
            moment = just_declared
        elif rules.claim_after_trick:
            moment = "st.decl_this_trick[seat] <= 0 and st.last_winner == seat"
        else:
            return None
        return f"not st.trick_cards and seat == st.leader and {moment}", _CLAIM

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """After a trick: claim, close before the draw, or go on (draw, or let the hand end)."""
        r = st.rules
        out: list[Action] = []
        if r.claim_rule is not None and not r.claim_auto and r.claim_after_trick:
            out.append(_CLAIM)
        if st.mech.closing.can_close_before_draw(st, seat):
            out.append(_CLOSE)
        out.append(_DRAW if st.stock else _DECLINE)
        return out

    def phase_listing(self, rules: Rules) -> Callable[[GameState, int], list[Action]]:
        """:meth:`legal_in_phase` with the claim (where the rules have it here) and the
        least stock for a close bound once; the close before the draw is asked as
        :meth:`TalonClosing.can_close_before_draw` does, unless the closing mechanism
        is another class (then asked in full).

        >>> from mariage import load_rules
        >>> Claims().phase_listing(load_rules("sixty-six")) is not None
        True
        """
        from .closing import TalonClosing

        head = (_CLAIM,) if rules.claim_rule is not None and not rules.claim_auto \
            and rules.claim_after_trick else ()
        before_draw = rules.close_before_draw and rules.close_rule is not None
        least = rules.close_min_stock

        reference = TalonClosing.can_close_before_draw

        def listing(st: GameState, seat: int) -> list[Action]:
            if getattr(st.mech.closing.can_close_before_draw, "__func__", None) is reference:
                # the reference rule, read inline
                stock = st.stock
                close = before_draw and st.closed_by < 0 and stock and len(stock) >= least \
                    and seat == st.last_winner
            else:
                close = st.mech.closing.can_close_before_draw(st, seat)
            if close:
                return [*head, _CLOSE, _DRAW]
            return [*head, _DRAW if st.stock else _DECLINE]
        return listing

    # ------------------------------------------------------------ queries
    def counted(self, st: GameState, seat: int) -> int:
        """The counted points of ``seat``'s side: card points and declarations that count."""
        return st.hand_points(st.rules.team_of[seat])

    def claim_on_lead(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may claim now in the play phase, before his lead."""
        r = st.rules
        if r.claim_rule is None or r.claim_auto or st.phase != PLAY or st.trick_cards \
                or seat != st.leader:
            return False
        if st.decl_this_trick[seat] > 0:  # just declared: only where that is a claim moment
            return r.claim_after_declaration
        return r.claim_after_trick and st.last_winner == seat

    # -------------------------------------------------------------- apply
    def apply_claim(self, st: GameState, seat: int, action: Claim) -> None:
        """``seat`` claims to have reached the target."""
        r = st.rules
        if r.claim_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no claims")
        if r.claim_auto:
            refuse(st, r.claim_rule, seat, action, "claims are automatic in these rules")
        ok = (st.phase == AFTER_TRICK and r.claim_after_trick) or self.claim_on_lead(st, seat)
        if not ok:
            refuse(st, r.claim_timing_rule, seat, action,
                   "a claim is made only by the winner of a trick before the next lead, or "
                   "just after a declaration")
        st.actions.append((seat, action))
        self.settle(st, seat)

    def settle(self, st: GameState, seat: int) -> None:
        """End the hand on ``seat``'s claim, true or false."""
        st.claim_by = seat
        st.claim_ok = self.counted(st, seat) >= st.rules.claim_target
        # Scoring.end_hand, by code generated per ruleset where it runs (engine.handend)
        st._appliers.end_hand(st, "claim" if st.claim_ok else "false_claim")

    def apply_draw(self, st: GameState, seat: int, action: Draw) -> None:
        """The winner of the trick goes on: both draw, and he leads."""
        if st.phase != AFTER_TRICK or not st.stock:
            why = "there is nothing to draw now"
            if st.stock and not (st.rules.close_before_draw and st.rules.close_rule):
                # no pause after a trick: the draw is no action of its own here
                why += ("; under these rules the players draw by themselves after each trick "
                        "(no draw is written)")
            refuse(st, st.rules.core_phase, seat, action, why)
        st.actions.append((seat, action))
        self.go_on(st, seat)

    def apply_decline(self, st: GameState, seat: int, action: Decline) -> None:
        """Decline a claim after the last trick, or an exchange on a close."""
        if st.phase == CLOSE_REPLY:
            st.mech.closing.apply_decline(st, seat, action)
            return
        if st.phase != AFTER_TRICK or st.stock:
            refuse(st, st.rules.core_phase, seat, action, "there is nothing to decline now")
        st.actions.append((seat, action))
        self.go_on(st, seat)

    def go_on(self, st: GameState, winner: int) -> None:
        """Carry on after a trick as if there had been no pause: draw, end or next trick
        (by code generated per ruleset where the draw and the trick's opening are the
        reference ones, :mod:`mariage.engine.resume`)."""
        written = st._appliers.go_on
        if written is not None:
            written(st, winner)
            return
        st.phase = PLAY
        mech = st.mech
        if st.stock:
            mech.tricks.draw(st, winner)
        if st.trick_no >= st._tricks_per_hand:
            st._appliers.end_hand(st, "played_out")  # Scoring.end_hand (engine.handend)
            return
        st._appliers.start_trick(st, winner)  # TrickPlay.start_trick (engine.fastpath)

    def hooks(self, rules: Rules) -> tuple[tuple[str, str], ...]:
        """After a trick in a talon game; after declaration points, for automatic claims."""
        out: tuple[tuple[str, str], ...] = ()
        if rules.talon_game:
            out += (("after_trick", "after_trick"),)
        if rules.claim_auto and rules.claim_after_declaration:
            out += (("after_points", "after_declaration"),)
        return out

    hook_gate_depends: ClassVar[dict[str, tuple[str, ...]]] = {
        "after_trick": ("counted", "pause")}

    def hook_gate(self, method: str, rules: Rules) -> str | None:
        """After a trick, the talon rules act at the last trick, or while the stock lasts
        where the stock may be closed before the draw; automatic claims may act after any
        trick.

        >>> from mariage import load_rules
        >>> Claims().hook_gate("after_trick", load_rules("schnapsen"))
        'st.trick_no >= st._tricks_per_hand'
        """
        if method != "after_trick" or (rules.claim_rule is not None and rules.claim_auto
                                       and rules.claim_after_trick):
            return None
        last = "st.trick_no >= st._tricks_per_hand"
        return f"{last} or st.stock" if rules.close_rule is not None \
            and rules.close_before_draw else last

    def after_trick(self, st: GameState, winner: int) -> bool:
        """Run the talon rules after a trick; True if they took over (pause or hand end)."""
        r = st.rules
        last = st.trick_no >= st._tricks_per_hand
        if last and r.last_trick_bonus and (st.closed_by < 0 or r.last_trick_when_closed):
            st.captured[r.team_of[winner]] += r.last_trick_bonus
        # the last trick is a claim moment, unless the played-out row is flat: that row
        # is the one of a hand nobody closed, so after a close it stays one
        claim_after = not last or r.gp_claim_after_last or st.closed_by >= 0
        if r.claim_rule is not None and r.claim_auto and r.claim_after_trick \
                and claim_after and self.counted(st, winner) >= r.claim_target:
            st.claim_by = winner
            st.claim_ok = True
            st._appliers.end_hand(st, "claim")  # Scoring.end_hand (engine.handend)
            return True
        if last:
            if (r.claim_rule is not None and not r.claim_auto and r.claim_after_trick
                    and claim_after):
                self.pause(st, winner)
                return True
            return False
        if st.stock and st.mech.closing.can_close_before_draw(st, winner):
            self.pause(st, winner)
            return True
        return False

    def pause(self, st: GameState, winner: int) -> None:
        """The winner's moment after the trick."""
        st.phase = AFTER_TRICK
        st.to_act = winner
        st.trick_seats = []
        st.trick_cards = []

    def after_declaration(self, st: GameState, seat: int) -> None:
        """Automatic claims: a declaration may carry ``seat`` to the target."""
        r = st.rules
        if (r.claim_auto and r.claim_after_declaration and st.phase != OVER
                and self.counted(st, seat) >= r.claim_target):
            st.claim_by = seat
            st.claim_ok = True
            st._appliers.end_hand(st, "claim")  # Scoring.end_hand (engine.handend)
