"""Taking the turned card: rounds of take or pass, naming a suit, then the second deal.

After a first deal of a few cards each, one card is turned up. In the first
round each player, from the one after the dealer, takes it (its suit becomes
trump) or passes; in a second round he may name a suit instead (another suit
than the turned card's, where the rules say so). The first take ends the
bidding: the taker gets the turned card and the rest of the pack is dealt,
fewer cards to the taker, so that every hand is full. If everyone passes in
every round the deal is void. Trump fixed, the card order and points of the
trump suit come into force (``pack.trump``).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("belote"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> state.phase.name, state.to_act, state.rules.card_code[state.turn_up]
('TAKING', 0, 'JC')
>>> [action_text(state.rules, a) for a in state.legal_actions()]
['pass', 'take']
>>> state.apply(Take())
>>> state.trump, bin(state.hands[0]).count("1"), state.phase.name
(2, 8, 'PLAY')
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, Pass, Take
from ..actiontext import action_text
from ..phase import PLAY, TAKING, Phase
from .base import LeaderOpening, Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["TurnedCardTaking", "action_text"]

#: the pass and the take of the first round, and the take naming each suit (made once:
#: actions are immutable, so every listing shares them)
_PASS, _TAKE = Pass(), Take()
_take = cache(Take)


class TurnedCardTaking(LeaderOpening, Mechanism):
    """Rounds of taking or refusing the turned card, the second deal, a void deal."""

    __slots__ = ()
    name: ClassVar[str] = "taking the turned card"
    opening_phase: ClassVar[Phase] = TAKING  # (LeaderOpening: ``open`` enters it)
    sections: ClassVar[tuple[str, ...]] = ("taking", "pack.trump", "pack.no_trump",
                                           "pack.all_trump")
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Take, "apply_take"),)
    phases: ClassVar[tuple[int, ...]] = (TAKING,)
    steps: ClassVar[tuple[str, ...]] = ("open", "open_lines", "fix_trump")

    def applies_for(self, rules: Rules) -> tuple[tuple[type, str], ...]:
        """A pass is this mechanism's while the rules take a turned card."""
        return ((Pass, "apply_pass"),) if rules.take_rule is not None else ()

    def all_actions(self, rules: Rules) -> list[Action]:
        """A pass, a take, and a take naming each suit."""
        if rules.take_rule is None:
            return []
        named = len(rules.suits) + (len(rules.strain_names) if rules.take_strains else 0)
        return [Pass(), Take(), *(Take(s) for s in range(named))]

    # ------------------------------------------------------------ queries
    def round_of(self, st: GameState) -> int:
        """The round of taking now (0 the first), from the passes so far."""
        return st.pass_step // st.rules.nseats

    def suits_named(self, st: GameState) -> list[int]:
        """The suits a player may name in the second round."""
        r = st.rules
        turned = r.suit_of[st.turn_up] if st.turn_up is not None else -1
        out = [s for s in range(len(r.suits)) if not (r.take_other_suits and s == turned)]
        if r.take_strains:  # the contracts without one trump suit (sans-atout, tout-atout)
            out += range(len(r.suits), len(r.suits) + len(r.strain_names))
        return out

    def legal_in_phase(self, st: GameState, seat: int) -> list[Action]:
        """Pass, then take (first round) or each suit that may be named (second round)."""
        if self.round_of(st) == 0:
            return [_PASS, _TAKE]
        return [_PASS, *(_take(s) for s in self.suits_named(st))]

    # -------------------------------------------------------------- apply
    def open(self, st: GameState) -> None:
        """Start the first round: the seat after the dealer speaks first."""
        st.phase = TAKING
        st.to_act = st.leader

    def apply_take(self, st: GameState, seat: int, action: Take) -> None:
        """``seat`` takes the turned card, or names a suit in a later round."""
        r = st.rules
        if st.phase != TAKING:
            refuse(st, r.take_rule or r.core_phase, seat, action,
                   "the turned card is taken only before play")
        first = self.round_of(st) == 0
        if first and action.suit >= 0:
            refuse(st, r.take_rule, seat, action, "in the first round only the turned card's "
                   "suit can be taken ('take')")
        if not first and action.suit not in self.suits_named(st):
            refuse(st, r.take_second_rule, seat, action, "in the second round a player names "
                   "a suit" + (" other than the turned card's" if r.take_other_suits else ""))
        assert st.turn_up is not None
        st.actions.append((seat, action))
        self.fix_trump(st, r.suit_of[st.turn_up] if first else action.suit)
        st.declarer = seat
        self.second_deal(st, seat)
        st.mech.trump_pair.trump_known(st)
        st.phase = PLAY
        st._appliers.start_trick(st, st.leader)

    def fix_trump(self, st: GameState, suit: int) -> None:
        """Make ``suit`` trump, with its card order and points where the pack has them; a
        ``suit`` past the last suit is a contract without one trump suit (no trump, all
        trump), with its own order, points and duties."""
        r = st.rules
        ns = len(r.suits)
        st.trump, st.strain = (suit, -1) if suit < ns else (-1, suit)
        if r.role_strength:
            st._strength = r.role_strength[suit]
            st._points = r.role_points[suit]
            st._higher = r.role_higher[suit]
        if r.all_trump_obligation is not None:
            all_trump = suit >= ns and r.strain_kinds[suit - ns] == "all_trump"
            st._ob_stock = r.all_trump_obligation if all_trump else r.obligation_stock
            st._ob_no_stock = r.all_trump_obligation if all_trump else r.obligation_no_stock

    def second_deal(self, st: GameState, taker: int) -> None:
        """The taker gets the turned card; the rest is dealt in one packet per seat."""
        r = st.rules
        n = r.nseats
        turned = st.turn_up
        assert turned is not None
        st.hands[taker] |= 1 << turned
        st.known[taker] |= 1 << turned  # seen by all
        st.turn_up = None
        start = taker if r.second_deal_start == "taker" else st.leader
        pop = st.stock.pop
        for i in range(n):
            s = (start + i) % n
            for _ in range(r.second_deal_taker if s == taker else r.second_deal_others):
                st.hands[s] |= 1 << pop()

    def apply_pass(self, st: GameState, seat: int, action: Pass) -> None:
        """``seat`` passes; after the last round of passes the deal is void."""
        if st.phase != TAKING:
            st.mech.declarations.apply_pass(st, seat, action)
            return
        r = st.rules
        st.actions.append((seat, action))
        st.pass_step += 1
        if st.pass_step >= r.take_rounds * r.nseats:
            if r.all_pass == "same_dealer":
                st.next_dealer = st.dealer
            st._appliers.end_hand(st, "void")  # Scoring.end_hand (engine.handend)
            return
        st.to_act = (seat + 1) % r.nseats
