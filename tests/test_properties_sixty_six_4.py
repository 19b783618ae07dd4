"""Properties of random Sixty-six for four matches, checked by an independent model.

The referee follows whole matches and recomputes, from the rules notes
(``../shared/RULES-NOTES-schnapsen.md`` section 4) and not from the engine:
the deal in packets (3-2-3 or 2-2-2-2) from the dealer's left with the
dealer's last card turned for trump; every card's legality (follow and win
the trick if possible; void: trump, over-trumping if possible, and by the
option still trumping when unable to); every trick's winner; the 10 for the
last trick; the game points by 66, 100 and all the tricks, the 65-65 draw and
its bonus, the ten of trumps; the next dealer; the end of the match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mariage import GameState, Phase, Play, Rules
from mariage.engine.deals import SeededDeals
from propkit import CHOICES, SEEDS, option_grid, options_for, rules_for

X4 = "sixty-six-4"


def opt(rules: Rules, name: str) -> Any:
    return rules.option(name)


def beats(rules: Rules, card: int, best: int, trump: int) -> bool:
    """Does ``card`` take the lead of a trick from ``best``?"""
    if rules.suit_of[card] == rules.suit_of[best]:
        return rules.rank_of[card] < rules.rank_of[best]
    return rules.suit_of[card] == trump


def allowed(rules: Rules, hand: list[int], trick: list[int], trump: int) -> set[int]:
    """Section 4's duties for the next card of ``trick`` from ``hand``."""
    if not trick:
        return set(hand)
    best = trick[0]
    for c in trick[1:]:
        if beats(rules, c, best, trump):
            best = c
    led = rules.suit_of[trick[0]]
    same = [c for c in hand if rules.suit_of[c] == led]
    if same:
        winning = [c for c in same if beats(rules, c, best, trump)]
        return set(winning or same)
    trumps = [c for c in hand if rules.suit_of[c] == trump]
    if not trumps:
        return set(hand)
    winning = [c for c in trumps if beats(rules, c, best, trump)]
    if winning:
        return set(winning)
    return set(trumps) if opt(rules, "undertrump_required") else set(hand)


def scale(rules: Rules, winner_points: int, loser_tricks: int) -> int:
    if loser_tricks == 0:
        return 3
    if winner_points > 100 or (winner_points == 100 and opt(rules, "hundred_counts_two")):
        return 2
    return 1


class Referee:
    """An independent model of a four-hand Sixty-six match."""

    def __init__(self, rules: Rules) -> None:
        self.r = rules
        self.carry = 0
        self.scores = [0, 0]
        self.dealer: int | None = None

    def dealt(self, state: GameState, deck: list[int]) -> None:
        r = self.r
        if self.dealer is not None:
            assert state.dealer == self.dealer, "wrong dealer"
        dealer = state.dealer
        assert dealer is not None
        packets = [int(x) for x in str(opt(r, "deal_packets")).split("-")]
        hands: list[list[int]] = [[], [], [], []]
        pos = 0
        for size in packets:
            for i in range(1, 5):
                hands[(dealer + i) % 4] += deck[pos:pos + size]
                pos += size
        assert pos == 32
        assert [sorted(r.cards_of(h)) for h in state.hands] == [sorted(h) for h in hands]
        assert state.turn_up == deck[31] and state.trump == r.suit_of[deck[31]]
        assert state.to_act == (dealer + 1) % 4 and not state.stock
        self.hands = hands
        self.trump = state.trump
        self.points = [0, 0]
        self.tricks = [0, 0]
        self.ten_to: int | None = None
        self.trick: list[int] = []
        self.leader = (dealer + 1) % 4
        self.hand_dealer = dealer

    def played(self, seat: int, card: int) -> None:
        r = self.r
        assert seat == (self.leader + len(self.trick)) % 4, "out of turn"
        assert card in allowed(r, self.hands[seat], self.trick, self.trump), "a duty broken"
        self.hands[seat].remove(card)
        self.trick.append(card)
        if len(self.trick) < 4:
            return
        best = 0
        for i in range(1, 4):
            if beats(r, self.trick[i], self.trick[best], self.trump):
                best = i
        winner = (self.leader + best) % 4
        side = winner % 2
        self.points[side] += sum(r.points[c] for c in self.trick)
        self.tricks[side] += 1
        ten = self.trump * len(r.ranks) + r.ranks.index("T")
        if ten in self.trick:
            self.ten_to = side
        if not any(self.hands):
            self.points[side] += 10
        self.trick = []
        self.leader = winner

    def hand_over(self, state: GameState) -> None:
        r = self.r
        rec = state.history[-1]
        assert sum(self.points) == 130 and sum(self.tricks) == 8
        assert list(rec.points) == self.points and list(rec.tricks) == self.tricks
        score = [0, 0]
        a, b = self.points
        winner = None if a == b else (0 if a > b else 1)
        if winner is None:
            if opt(r, "draw_bonus_next_hand"):
                self.carry += 1
        else:
            score[winner] = scale(r, self.points[winner], self.tricks[1 - winner]) + self.carry
            self.carry = 0
        if opt(r, "ten_of_trumps_point") and self.ten_to is not None:
            score[self.ten_to] += 1
        assert list(rec.score) == score and rec.winner == winner, (rec, score)
        for t in (0, 1):
            self.scores[t] += score[t]
        assert state.match_scores == self.scores
        how = opt(r, "next_dealer")
        d = self.hand_dealer
        if how == "alternate":
            self.dealer = (d + 1) % 4
        elif winner is None:
            self.dealer = d
        else:
            side = winner if how == "winner" else 1 - winner
            self.dealer = next((d + i) % 4 for i in range(1, 5) if (d + i) % 2 == side)
        target = r.match_target
        reached = [t for t in (0, 1) if self.scores[t] >= target]
        if len(reached) == 1 or (reached and self.scores[0] != self.scores[1]):
            top = max(reached, key=self.scores.__getitem__)
            assert state.terminal and state.result is not None and state.result.winner == top
        else:
            assert not state.terminal


def play(rules: Rules, seed: int, choice: int) -> tuple[GameState, Referee]:
    rng = random.Random(choice)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    ref = Referee(rules)
    hands = 0
    while not state.terminal and hands < 200:
        if state.phase == Phase.DEAL:
            deck, first = deals.next_deal()
            state.deal(deck, first)
            ref.dealt(state, list(deck))
            hands += 1
            continue
        acts = state.legal_actions()
        assert all(isinstance(a, Play) for a in acts), "only card plays in this game"
        seat = state.to_act
        assert seat is not None
        assert {a.card for a in acts if isinstance(a, Play)} == \
            allowed(rules, ref.hands[seat], ref.trick, ref.trump)
        action = acts[rng.randrange(len(acts))]
        assert isinstance(action, Play)
        ntricks = len(state.history)
        state.apply(action)
        ref.played(seat, action.card)
        if len(state.history) > ntricks:
            ref.hand_over(state)
    return state, ref


def test_every_option_value_plays_clean_matches() -> None:
    for i, options in enumerate(option_grid(X4)):
        rules = rules_for(X4, {**options, "match_target": 3 if i % 2 else 7})
        for seed in (i, i + 100):
            state, ref = play(rules, seed, seed * 7 + 1)
            assert state.terminal and ref.scores == state.match_scores


@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_random_four_hand_matches_keep_every_invariant(data: st.DataObject, seed: int,
                                                      choice: int) -> None:
    rules = rules_for(X4, data.draw(options_for(X4), label="options"))
    state, _ = play(rules, seed, choice)
    assert state.terminal


@pytest.mark.parametrize("options", [{"ten_of_trumps_point": True, "match_target": 30},
                                     {"next_dealer": "winner"}, {"next_dealer": "loser"}])
def test_long_matches(options: dict[str, Any]) -> None:
    for seed in range(3):
        state, ref = play(rules_for(X4, options), seed, seed)
        assert state.terminal and len(state.history) >= 2 and ref.scores == state.match_scores
