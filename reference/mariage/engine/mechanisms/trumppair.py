"""The pair of trumps said as it is played (belote and rebelote).

A player holding the two cards of the pair in trumps (king and queen) scores
its value for his side by saying so as he plays the first of them (the second
word follows with the other card). Where the rules say it explicitly, saying
it is his choice, made with the card: ``belote:KH`` plays the king of hearts
and says the pair; playing the card without it forfeits the pair. Where the
rules make it automatic, the holder of both scores it. The pair enters no
comparison of announcements.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.actions import Take
>>> from mariage.engine.deals import canonical_deck
>>> state = GameState(load_rules("belote"), first_dealer=3)
>>> state.deal(canonical_deck(state.rules))
>>> state.apply(Take())
>>> [state.rules.card_code[c] for c in state.mech.trump_pair.pair_cards(state)]
['KC', 'QC']
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, SayPair
from ..phase import PLAY
from .base import Mechanism, refuse

if TYPE_CHECKING:
    from ..rules import Rules
    from ..state import GameState

__all__ = ["TrumpPair"]

#: saying the pair with a card, made once per card (immutable: every listing shares it)
_say = cache(SayPair)


class TrumpPair(Mechanism):
    """Saying the pair of trumps with its first card, or scoring it automatically."""

    __slots__ = ()
    name: ClassVar[str] = "pair of trumps"
    sections: ClassVar[tuple[str, ...]] = ("trump_pair",)
    applies: ClassVar[tuple[tuple[type, str], ...]] = ((SayPair, "apply_say"),)
    steps: ClassVar[tuple[str, ...]] = ("trump_known", "pair_seats")

    def offers(self, rules: Rules) -> bool:
        """The pair is said with a card where the rules make saying it a choice."""
        return rules.pair_rule is not None and rules.pair_declare == "explicit"

    def all_actions(self, rules: Rules) -> list[Action]:
        """Saying the pair with each card of each suit's pair."""
        if not self.offers(rules):
            return []
        return [SayPair(rules.card_index_of(s, ri)) for s in range(len(rules.suits))
                for ri in rules.pair_ranks]

    def pair_cards(self, st: GameState) -> tuple[int, ...]:
        """The cards of the pair in the trump suit (empty before trump is fixed)."""
        r = st.rules
        if st.trump < 0 or r.pair_rule is None:
            return ()
        return tuple(r.card_index_of(st.trump, ri) for ri in r.pair_ranks)

    def pair_suits(self, st: GameState) -> tuple[int, ...]:
        """The suits whose pair counts: the trump suit; every suit in an all-trump
        contract; none without trumps or before trump is fixed."""
        r = st.rules
        if r.pair_rule is None:
            return ()
        if st.trump >= 0:
            return (st.trump,)
        if st.strain >= 0 and r.strain_kinds[st.strain - len(r.suits)] == "all_trump":
            return tuple(range(len(r.suits)))
        return ()

    def said(self, st: GameState, suit: int) -> bool:
        """True if the pair of ``suit`` has been said this hand."""
        if suit == st.trump:
            return st.pair_by >= 0
        return any(s == suit for _, s in st.pairs_said)

    def may_say(self, st: GameState, seat: int) -> list[int]:
        """The cards with which ``seat`` (to act) may say a pair now."""
        if st.phase != PLAY or st.to_act != seat:
            return []
        r = st.rules
        out: list[int] = []
        legal = -1
        for suit in self.pair_suits(st):
            mask = r.pair_masks[suit]
            if st.hands[seat] & mask != mask or self.said(st, suit):
                continue  # the hot path: he does not hold the pair
            cards = [r.card_index_of(suit, ri) for ri in r.pair_ranks]
            if r.pair_order == "first_rank_first":
                cards = cards[:1]
            if legal < 0:
                legal = st.legal_plays(seat)
            out += [c for c in cards if legal >> c & 1]
        return out

    def record(self, st: GameState, seat: int, suit: int) -> None:
        """``seat`` scores the pair of ``suit``."""
        if suit == st.trump:
            st.pair_by = seat
        else:
            st.pairs_said.append((seat, suit))

    def pair_seats(self, st: GameState) -> list[int]:
        """The seat of each pair said this hand. A pair scored automatically where the
        rules fix the order of its cards counts only if they were played in that order
        (its first rank played, in an earlier trick than the other)."""
        said = list(st.pairs_said)
        if st.pair_by >= 0:
            said.insert(0, (st.pair_by, st.trump))
        r = st.rules
        if r.pair_declare == "automatic" and r.pair_order == "first_rank_first":
            said = [(s, suit) for s, suit in said if self.in_order(st, suit)]
        return [s for s, _ in said]

    @staticmethod
    def in_order(st: GameState, suit: int) -> bool:
        """True if the pair of ``suit`` was played first rank first: that card played,
        the other one not yet or in a later trick."""
        r = st.rules
        first, second = (r.card_index_of(suit, ri) for ri in r.pair_ranks)
        when = {c: n for n, (_, cards, _) in enumerate(st.tricks) for c in cards
                if c in (first, second)}
        return first in when and when[first] < when.get(second, len(st.tricks))

    def offer(self, st: GameState, seat: int, out: list[Action]) -> None:
        """Saying the pair with each of its cards ``seat`` may play now."""
        out += [_say(c) for c in self.may_say(st, seat)]

    gate_depends: ClassVar[tuple[str, ...]] = ("may_say", "pair_suits")

    def offer_gate(self, rules: Rules) -> str | None:
        """``seat`` holds the pair of the trump suit; or trump is not one suit but a
        contract without one trump is in force (where :meth:`pair_suits` may list others)
        and he holds the pair of some suit.

        >>> from mariage import load_rules
        >>> gate = TrumpPair().offer_gate(load_rules("belote-coinche"))
        >>> gate.split(" else ")[1].startswith("st.strain >= 0 and (h & 12 == 12 or ")
        True
        """
        masks = tuple(rules.pair_masks)
        some = " or ".join(f"h & {m} == {m}" for m in masks)
        return (f"(h & {masks}[st.trump] == {masks}[st.trump] if st.trump >= 0 "
                f"else st.strain >= 0 and ({some}))")

    def trump_known(self, st: GameState) -> None:
        """Trump is fixed and hands are full: where the pair is automatic, its holder has it."""
        r = st.rules
        if r.pair_rule is None or r.pair_declare != "automatic":
            return
        for suit in self.pair_suits(st):
            mask = r.pair_masks[suit]
            for s in range(r.nseats):
                if st.hands[s] & mask == mask:
                    self.record(st, s, suit)

    def apply_say(self, st: GameState, seat: int, action: SayPair) -> None:
        """``seat`` says the pair and plays ``action.card``, its first card."""
        r = st.rules
        if not self.offers(r):
            refuse(st, r.core_phase, seat, action, "the pair of trumps is not said here")
        if action.card not in self.may_say(st, seat):
            refuse(st, r.pair_rule, seat, action, "the pair is said by the holder of both "
                   "its trumps, with a legal play of the first of them"
                   + (f" (the {r.ranks[r.pair_ranks[0]]} first)"
                      if r.pair_order == "first_rank_first" else ""))
        self.record(st, seat, r.suit_of[action.card])
        other = r.pair_masks[r.suit_of[action.card]] & ~(1 << action.card)
        st.known[seat] |= other  # saying it shows that he holds the other card
        st.mech.tricks.apply_play(st, seat, r.play_actions[action.card])
