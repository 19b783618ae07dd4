"""The talon of the auction's winner: shown, taken, and conceding the hand after it.

Runs the talon dealt face down (the cards left after the deal), which the
declarer turns face up for everybody (or not, as the rules say) and takes into
his hand as soon as the auction is won; and the declarer's concession after
seeing it, within the rules' window: the hand is then scored unplayed (each
opponent an award, the declarer nothing or his bid, by how many times he has
conceded in the match).

>>> from mariage import load_rules, GameState
>>> from mariage.engine.deals import canonical_deck
>>> from mariage.engine.actiontext import parse_action
>>> state = GameState(load_rules("thousand"), first_dealer=2)
>>> state.deal(canonical_deck(state.rules))
>>> for text in ("bid:100", "pass", "pass"):
...     state.apply(parse_action(state.rules, text))
>>> state.phase.name, state.declarer, state.hands[0].bit_count(), state.stock
('PASSING', 0, 10, [])
>>> [action_text(state.rules, a) for a in state.legal_actions()][:2]
['concede', 'give:AH']
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, ChooseTalon, Concede, Give, Redeal
from ..actiontext import action_text
from ..phase import AUCTION, CONTRACT, PASSING, PLAY
from .base import Mechanism, refuse
from .contract import round_to

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["Talon", "action_text"]

#: the concession and the throw-in, and the choice of each packet of the talon
#: (immutable: every listing shares them)
_CONCEDE, _REDEAL = Concede(), Redeal()
_choose = cache(ChooseTalon)


class Talon(Mechanism):
    """The declarer's talon: shown, taken; conceding the hand after seeing it."""

    __slots__ = ()
    name: ClassVar[str] = "talon, concession and throwing in"
    steps: ClassVar[tuple[str, ...]] = ('begin', 'take', 'packet_choices', 'offer_concede',
                                        'concession_sheet', 'sitter')
    sections: ClassVar[tuple[str, ...]] = ("talon", "contract.concede", "throw_in")
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((Concede, "apply_concede"),
                                                       (ChooseTalon, "apply_choose"))
    any_seat: ClassVar[tuple[tuple[type, str], ...]] = ((Redeal, "apply_redeal"),)

    def all_actions(self, rules: Rules) -> list[Action]:
        """A concession and a claim to throw the hand in, where the rules allow them."""
        out: list[Action] = [Concede()] if rules.concede_rule is not None else []
        out.extend(ChooseTalon(k) for k in range(rules.talon_packets if
                                                 rules.talon_packets > 1 else 0))
        return [*out, Redeal()] if rules.throw_in_rule is not None else out

    # ------------------------------------------------------------ the talon
    def shown(self, st: GameState) -> bool:
        """True if the talon is turned face up for everybody in this hand (not that of a
        blind contract, unless the rules show it)."""
        if st.blind and not st.rules.blind_talon_shown:
            return False
        mode = st.rules.talon_shown
        if mode == "not_at_minimum":
            return not self.compulsory_minimum(st)
        return mode == "always"

    @staticmethod
    def compulsory_minimum(st: GameState) -> bool:
        """True if the auction gave the declarer the compulsory opening at the lowest bid,
        nobody raising it. Where nobody must open (an opening ``free``) a contract at the
        lowest bid was bid of the declarer's own will and is not the compulsory one
        (Thousand notes 3 and 5.1 speak of "the compulsory 100 that nobody raised")."""
        return st.contract == st.rules.bid_min and st.rules.opening != "free"

    def begin(self, st: GameState) -> None:
        """The auction is won: the declarer chooses a packet of the talon (where it lies
        in packets) or takes it; then the passing starts."""
        if st.rules.talon_packets > 1:
            st.phase = PASSING
            st.pass_step = -1  # before the passing's first step: choosing a packet
            st.to_act = st.declarer
            return
        self.take(st)
        st.mech.passing.start(st)

    def packet_choices(self, st: GameState) -> list[Action]:
        """The packets the declarer may choose (while he is to choose one)."""
        return [_choose(k) for k in range(st.rules.talon_packets)]

    def apply_choose(self, st: GameState, seat: int, action: ChooseTalon) -> None:
        """The declarer takes packet ``action.packet``; the others are laid aside unseen."""
        r = st.rules
        if r.talon_packets_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no talon in packets")
        if st.phase != PASSING or st.pass_step >= 0 or seat != st.declarer:
            refuse(st, r.talon_packets_rule, seat, action,
                   "only the declarer chooses a packet of the talon, once, after the auction")
        if not 0 <= action.packet < r.talon_packets:
            refuse(st, r.talon_packets_rule, seat, action,
                   f"the talon lies in {r.talon_packets} packets (talon:1 to "
                   f"talon:{r.talon_packets})")
        st.actions.append((seat, action))
        deck = st.stock[::-1]  # in deck order (the stock's last card is the top one)
        size = len(deck) // r.talon_packets
        at = action.packet * size
        st.aside.extend(deck[:at] + deck[at + size:])
        st.stock = deck[at:at + size][::-1]
        self.take(st)
        st.mech.passing.start(st)

    def take(self, st: GameState) -> None:
        """The declarer shows the talon (where the rules say so) and takes it."""
        talon = 0
        for c in st.stock:
            talon |= 1 << c
        st.stock = []
        st.talon = talon
        if self.shown(st):
            st.known[st.declarer] |= talon
        st.hands[st.declarer] |= talon

    # ------------------------------------------------------------ conceding
    def may_concede(self, st: GameState, seat: int) -> bool:
        """True if ``seat`` may concede the hand now."""
        r = st.rules
        if r.concede_rule is None or seat != st.declarer:
            return False
        if r.concede_limit and st.concessions[r.team_of[seat]] >= r.concede_limit:
            return False
        if r.golden_rule is not None and st.mech.running.golden(st):
            return False  # no concession in a golden hand
        if st.phase == PASSING:  # (step -1: a packet of the talon not chosen yet)
            return st.pass_step == 0 or (st.pass_step > 0
                                         and r.concede_window == "before_first_lead")
        if r.concede_window != "before_first_lead":
            return False
        if st.phase == PLAY:  # the contract fixed, the first card not led yet
            return st.trick_no == 1 and not st.trick_cards and not st.declared
        return st.phase == CONTRACT

    def offer_concede(self, st: GameState, seat: int, out: list[Action]) -> None:
        """Add the concession to ``out`` if ``seat`` may concede now."""
        if self.may_concede(st, seat):
            out.append(_CONCEDE)

    def apply_concede(self, st: GameState, seat: int, action: Concede) -> None:
        """The declarer gives up the hand: it is scored unplayed."""
        r = st.rules
        if r.concede_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no concession")
        if not self.may_concede(st, seat):
            if r.golden_rule is not None and st.mech.running.golden(st):
                refuse(st, r.golden_rule, seat, action, "no concession in a golden hand")
            limit = r.concede_limit and st.concessions[r.team_of[seat]] >= r.concede_limit
            why = (f"at most {r.concede_limit} concessions per player in a game" if limit else
                   "only the declarer concedes, after taking the talon and "
                   + ("before giving a card" if r.concede_window == "before_exchange"
                      else "before the first lead"))
            refuse(st, r.concede_rule, seat, action, why)
        st.actions.append((seat, action))
        st.concessions[r.team_of[seat]] += 1
        st.hand_over_reason = "conceded"
        st._appliers.end_hand(st, "conceded")  # Scoring.end_hand (engine.handend)

    def concession_sheet(self, st: GameState) -> list[int]:
        """What each side books for a conceded hand."""
        r = st.rules
        out = [0] * len(r.teams)
        team = r.team_of[st.declarer]
        count = st.concessions[team]
        award = r.concede_award
        if r.concede == "lose_bid":
            out[team] = -st.contract
            if r.concede_half_bid:
                # half the bid to a multiple of 5, a half up (52.5 -> 55): the bid to 10
                award = round_to(st.contract, 10) // 2
        elif r.concede == "award_each":
            if count % r.concede_costly_every == 0:
                out[team] = -st.contract
        elif count <= 1:  # free_first: a player's first concession costs nothing
            award = 0
        for t in st.sides_in_hand():
            if t != team:
                out[t] = award
        self.sitter(st, out)
        return out

    def sitter(self, st: GameState, out: list[int]) -> None:
        """Book what the seat sitting the hand out scores from the talon into ``out``."""
        r = st.rules
        if st.out < 0 or r.sitter_talon_rule is None:
            return
        talon = st.talon
        value = 0
        for s, (m, v) in enumerate(zip(r.bid_pair_masks, r.bid_pair_values, strict=True)):
            held = (talon & m).bit_count()
            if held == 2 and (r.sitter_talon != "card_points" or r.sitter_pairs):
                value += v
            elif held == 1 and r.sitter_talon == "card_points" and r.sitter_half_pairs:
                value += v // 2
            del s
        if r.sitter_talon == "card_points":
            points = sum(r.points[c] for c in r.cards_of(talon))
            value += round_to(points, r.rounding, r.round_down)
        else:
            value += r.sitter_ace_value * (talon & r.rank_mask[0]).bit_count()
        out[r.team_of[st.out]] = value

    # ------------------------------------------------------------ throwing in
    def offers_any_time(self, rules: Rules) -> bool:
        """Claims to throw a hand in are open to any seat at their moment; a concession
        open until the first lead is offered in the play phase too."""
        return rules.throw_in_rule is not None or self.concedes_in_play(rules)

    @staticmethod
    def concedes_in_play(rules: Rules) -> bool:
        """True if the declarer may still concede once the contract is fixed, before the
        first card is led (``contract.concede.window: before_first_lead``)."""
        return rules.concede_rule is not None and rules.concede_window == "before_first_lead"

    def any_time(self, st: GameState, seat: int, out: list[Action]) -> None:
        """The claim to throw the hand in, if ``seat`` may make it now; in the play
        phase, the declarer's concession where its window runs to the first lead."""
        if st.phase == PLAY and self.may_concede(st, seat):
            out.append(_CONCEDE)
        if (st.phase != PLAY or st.trick_no == 1) and self.throw_in_claim(st, seat):
            out.append(_REDEAL)

    any_time_depends: ClassVar[tuple[str, ...]] = ("throw_in_claim", "may_concede")

    def any_time_gate(self, rules: Rules) -> str | None:
        """In the play phase, a hand is thrown in (or conceded) only before the first
        lead, while nothing is declared (what :meth:`throw_in_claim` and
        :meth:`may_concede` ask there)."""
        return "st.trick_no == 1 and not st.trick_cards and not st.declared"

    def any_time_phases(self, rules: Rules) -> tuple[int, ...] | None:
        """Where :meth:`throw_in_claim` may name a rule: the auction (a dealt hand's
        claims), the passing (the talon's), the contract (claims after the exchange).

        >>> from mariage import load_rules
        >>> [p.name for p in Talon().any_time_phases(load_rules("thousand"))]
        ['CONTRACT']
        """
        before = any(moment == "before_bidding" for _, moment, _ in rules.throw_four)
        after = any(moment != "before_bidding" for _, moment, _ in rules.throw_four)
        talon = bool(rules.throw_talon_below or rules.throw_talon_rank)
        return tuple(phase for phase, claims in ((AUCTION, before or bool(rules.throw_low_below)),
                                                  (PASSING, talon), (CONTRACT, after)) if claims)

    def throw_in_claim(self, st: GameState, seat: int) -> str | None:
        """The rule that lets ``seat`` throw the hand in now, or ``None``."""
        r = st.rules
        phase = st.phase
        if seat == st.out:
            return None
        hand = st.hands[seat]
        if phase == AUCTION and not st.actions:  # before the first bid: the dealt hand
            for mask, moment, rule in r.throw_four:
                if moment == "before_bidding" and hand & mask == mask:
                    return rule
            if r.throw_low_below and sum(r.points[c] for c in r.cards_of(hand)) < \
                    r.throw_low_below:
                return r.throw_low_rule
            return None
        if phase == PASSING and st.pass_step == 0 and seat == st.declarer:  # talon shown
            at_min = self.compulsory_minimum(st) or not r.throw_talon_at_minimum
            talon = st.talon
            if at_min and talon and st.known[seat] & talon == talon:
                if r.throw_talon_below and \
                        sum(r.points[c] for c in r.cards_of(talon)) < r.throw_talon_below:
                    return r.throw_talon_rule
                if r.throw_talon_rank and \
                        (talon & r.throw_talon_rank_mask).bit_count() >= r.throw_talon_rank:
                    return r.throw_talon_rank_rule
            return None
        after = phase == CONTRACT or (phase == PLAY and st.trick_no == 1 and not st.trick_cards
                                      and not st.declared and st.declarer >= 0)
        if not after:
            return None
        for mask, moment, rule in r.throw_four:
            if moment != "before_bidding" and hand & mask == mask and (
                    moment == "after_exchange" or not mask & self.received(st, seat)):
                return rule
        return None

    def received(self, st: GameState, seat: int) -> int:
        """The cards ``seat`` did not hold after the deal: the talon and cards given him."""
        got = st.talon if seat == st.declarer else 0
        steps = iter(st.rules.passing_steps)
        for _, action in st.actions:
            if type(action) is Give:
                _, receiver, _ = next(steps)
                if st.mech.passing.role(st, receiver) == seat:
                    got |= action.cards
        return got

    def apply_redeal(self, st: GameState, seat: int, action: Redeal) -> None:
        """``seat`` throws the hand in: it is not scored and is dealt again."""
        r = st.rules
        if r.throw_in_rule is None:
            refuse(st, r.core_phase, seat, action, "this ruleset has no claims to throw a "
                   "hand in")
        if not 0 <= seat < r.nseats or self.throw_in_claim(st, seat) is None:
            refuse(st, r.throw_in_rule, seat, action, "no rule entitles this player to "
                   "throw the hand in now")
        st.actions.append((seat, action))
        st._appliers.end_hand(st, "redeal")  # Scoring.end_hand (engine.handend)
