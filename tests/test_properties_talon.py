"""Properties of random Schnapsen and Sixty-six matches, checked by an independent model.

The :class:`TalonReferee` follows a whole match and recomputes, from the rules
notes (``../shared/RULES-NOTES-schnapsen.md``) and not from the engine: the
deal from the deck order of section 7; every trick's winner; the strict-play
duties once the talon is closed or exhausted; when marriages count; the 10
for the last trick; the game points of every way a hand can end (the tables
of sections 1.11 and 2.6, with the options that change them); the next
dealer; and the end of the match at the target.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mariage import Action, Claim, Close, Declare, Exchange, GameState, Phase, Play, Rules
from propkit import CHOICES, SEEDS, Hooks, int_choices, option_grid, options_for, rules_for

TALON = ("schnapsen", "sixty-six")


def opt(rules: Rules, name: str, default: Any) -> Any:
    return dict(rules.options).get(name, default)


def scale(points: int, tricks: int) -> int:
    """Section 1.11: 1 with 33 or more, 2 below with a trick, 3 without a trick."""
    if tricks == 0:
        return 3 if points < 33 else 1
    return 1 if points >= 33 else 2


def deck_positions(rules: Rules) -> tuple[list[int], int, list[int], int]:
    """Section 7: deck indices of the non-dealer's and dealer's cards, turn-up, talon start."""
    six = rules.ruleset == "sixty-six"
    first_round = opt(rules, "turnup_after", "all_cards" if six else "first_round") \
        == "first_round"
    if not six:
        if first_round:
            return [0, 1, 2, 7, 8], 6, [3, 4, 5, 9, 10], 11
        return [0, 1, 2, 6, 7], 10, [3, 4, 5, 8, 9], 11
    if first_round:
        return [0, 1, 2, 7, 8, 9], 6, [3, 4, 5, 10, 11, 12], 13
    return [0, 1, 2, 6, 7, 8], 12, [3, 4, 5, 9, 10, 11], 13


class TalonReferee(Hooks):
    """An independent model of a Schnapsen or Sixty-six match, checked at every step."""

    def __init__(self, rules: Rules, deals: list[list[int]]) -> None:
        self.r = rules
        self.deals = deals
        self.six = rules.ruleset == "sixty-six"
        self.hands_checked = 0
        self.carry = 0
        self.expected_dealer: int | None = None

    # -- options in force, read as the notes name them
    def o(self, name: str, default_s: Any, default_x: Any) -> Any:
        return opt(self.r, name, default_x if self.six else default_s)

    def dealt(self, state: GameState) -> None:
        r = self.r
        deck = self.deals[state.hand_no - 1]
        nd_pos, turn_pos, d_pos, talon_start = deck_positions(r)
        dealer = state.dealer
        assert dealer is not None
        if self.expected_dealer is not None:
            assert dealer == self.expected_dealer, "wrong dealer"
        nd = 1 - dealer
        assert state.hands[nd] == sum(1 << deck[i] for i in nd_pos)
        assert state.hands[dealer] == sum(1 << deck[i] for i in d_pos)
        assert state.turn_up == deck[turn_pos] and state.trump == r.suit_of[deck[turn_pos]]
        assert state.stock[-1] == deck[talon_start] and state.stock[0] == deck[turn_pos]
        assert state.to_act == nd
        self.dealer = dealer
        self.captured = [0, 0]
        self.tricks = [0, 0]
        self.marriages: list[tuple[int, int, int]] = []  # seat, value, trick count then
        self.closer = -1
        self.snap = (0, 0)
        self.last_winner = -1
        self.talon_out = False
        self.ntricks = 0

    def counted(self, team: int) -> int:
        """Card points plus the marriages that count (section 0 and option marriage_counting)."""
        mode = self.o("marriage_counting", "any_trick", "any_trick")
        total = self.captured[team]
        for seat, value, tricks_then in self.marriages:
            if seat != team:
                continue
            if mode == "immediate" or (mode == "any_trick" and self.tricks[team] > 0) or (
                    mode == "next_trick_after_declaring" and self.tricks[team] > tricks_then):
                total += value
        return total

    def before(self, state: GameState, seat: int, action: Action) -> None:
        if isinstance(action, Play) and state.trick_cards and (
                state.closed_by >= 0 or not state.stock):
            self.check_strict(state, seat, action.card)
        if isinstance(action, Close):
            assert self.closer < 0
            self.closer = seat
            self.snap = (self.counted(1 - seat), self.tricks[1 - seat])
        if isinstance(action, Declare):
            d = self.r.declarations[action.decl]
            assert d.name == "marriage" and seat == state.leader and not state.trick_cards
            if not self.o("marriage_after_close", True, False):
                assert state.stock and state.closed_by < 0, "no marriage after the talon"
            value = 40 if action.suit == state.trump else 20
            if opt(self.r, "marriage_values", "20/40") == "20/20":
                value = 20
            self.marriages.append((seat, value, self.tricks[seat]))
        if isinstance(action, Exchange) and state.phase == Phase.PLAY:
            assert state.closed_by < 0 and seat == state.leader
            if self.o("exchange_requires_trick", False, True):
                assert self.tricks[seat] > 0
        if isinstance(action, Claim):
            self.claimer = seat

    def check_strict(self, state: GameState, seat: int, card: int) -> None:
        """Section 1.5: follow and head if possible, else trump, else anything."""
        r = self.r
        led = state.trick_cards[0]
        hand = state.hands[seat]
        same = [c for c in r.cards_of(hand) if r.suit_of[c] == r.suit_of[led]]
        trumps = [c for c in r.cards_of(hand) if r.suit_of[c] == state.trump]
        if opt(r, "strict_duty", "follow_head_trump") == "follow_only":
            if same:
                assert card in same
            return
        higher = [c for c in same if r.rank_of[c] < r.rank_of[led]]
        if higher:
            assert card in higher, "must head the trick"
        elif same:
            assert card in same, "must follow suit"
        elif trumps:
            assert card in trumps, "must trump"

    def after(self, state: GameState, seat: int, action: Action) -> None:
        r = self.r
        while len(state.tricks) > self.ntricks:
            self.trick_done(state)
        while self.hands_checked < len(state.history):
            self.hand_done(state, state.history[self.hands_checked])
            self.hands_checked += 1
        if state.phase not in (Phase.DEAL, Phase.OVER):
            seen = 0
            for h in state.hands:
                assert not seen & h
                seen |= h
            for c in [*state.stock, *state.aside, *state.trick_cards,
                      *(c for t in state.tricks for c in t[1])]:
                assert not seen >> c & 1
                seen |= 1 << c
            assert seen == r.full_mask, "a card is lost"
            for t in (0, 1):
                assert state.hand_points(t) == self.counted(t), (t, state.hand_points(t))

    def trick_done(self, state: GameState) -> None:
        r = self.r
        leader, cards, winner = state.tricks[self.ntricks]
        self.ntricks += 1
        a, b = cards
        if r.suit_of[a] == r.suit_of[b]:
            want = leader if r.rank_of[a] < r.rank_of[b] else 1 - leader
        else:
            want = 1 - leader if r.suit_of[b] == state.trump else leader
        assert winner == want, "wrong trick winner"
        self.captured[winner] += r.points[a] + r.points[b]
        self.tricks[winner] += 1
        self.last_winner = winner
        last = not state.hands[0] and not state.hands[1]
        if last and (self.closer < 0 or opt(r, "last_trick_bonus_when_closed", False)) and \
                opt(r, "last_trick_rule", "ten_points" if self.six else "one_point") \
                == "ten_points":  # after a close too where the option says so (notes §6)
            self.captured[winner] += 10

    def hand_done(self, state: GameState, rec: Any) -> None:
        r = self.r
        if rec.ended == "played_out":
            assert not state.hands[0] and not state.hands[1], "cards left unplayed"
        expected, winner = self.expected(rec.ended)
        if winner is not None:
            expected[winner] += self.carry
            self.carry = 0
        elif opt(r, "draw_bonus_next_hand", False):
            self.carry += 1
        assert list(rec.score) == expected, (rec, expected, self.closer, self.snap)
        assert rec.winner == winner
        nxt = self.o("next_dealer", "alternate", "winner")
        if nxt == "alternate":
            self.expected_dealer = 1 - self.dealer
        elif winner is None:
            self.expected_dealer = self.dealer
        else:
            self.expected_dealer = winner if nxt == "winner" else 1 - winner
        if state.terminal and state.result is not None and state.result.reason != "resign":
            assert max(state.match_scores) >= r.match_target
            assert state.result.winner == state.match_scores.index(max(state.match_scores))
        elif not state.terminal:
            assert max(state.match_scores) < r.match_target

    def failed_close(self) -> int:
        _, opp_tricks = self.snap
        if opp_tricks == 0:
            return 3
        if self.o("failed_close_score", "pagat", "pagat") == "hoyle":
            return 1 if self.counted(self.closer) >= 33 else 2
        return 2

    def true_claim(self, seat: int) -> int:
        opp = 1 - seat
        if self.closer == seat:
            if self.o("close_snapshot", "at_close", "at_end") == "at_close":
                return scale(*self.snap)
            return scale(self.counted(opp), self.tricks[opp])
        if self.closer >= 0:
            if self.o("beaten_closer_score", "like_failed_close", "flat2") == "flat2":
                return 2
            return self.failed_close()
        return scale(self.counted(opp), self.tricks[opp])

    def expected(self, ended: str) -> tuple[list[int], int | None]:
        out = [0, 0]
        if ended == "claim":
            seat = self.claimer if opt(self.r, "claim_mode", "explicit") == "explicit" \
                else self.auto_claimer()
            assert self.counted(seat) >= 66
            out[seat] = self.true_claim(seat)
            return out, seat
        if ended == "false_claim":
            seat = self.claimer
            assert self.counted(seat) < 66
            opp = 1 - seat
            if self.closer == seat and opt(self.r, "closer_false_claim",
                                           "false_claim_row") == "failed_close_row":
                out[opp] = self.failed_close()
                return out, opp
            how = self.o("false_claim_score", "pagat", "flat2")
            if how == "as_claimed":
                out[opp] = self.true_claim(seat)
            elif how == "pagat" and self.tricks[opp] == 0:
                out[opp] = 3
            else:
                out[opp] = 2
            return out, opp
        assert ended == "played_out"
        if self.closer >= 0:
            out[1 - self.closer] = self.failed_close()
            return out, 1 - self.closer
        if opt(self.r, "last_trick_rule", "ten_points" if self.six else "one_point") \
                == "one_point":
            out[self.last_winner] = 1
            return out, self.last_winner
        a, b = self.counted(0), self.counted(1)
        if a == b:
            return out, None
        w = 0 if a > b else 1
        out[w] = scale(self.counted(1 - w), self.tricks[1 - w])
        return out, w

    def auto_claimer(self) -> int:
        return max((0, 1), key=self.counted)


def play(rules: Rules, seed: int, choice: int) -> tuple[GameState, TalonReferee]:
    """A whole match with random choices; claims are made only sometimes, true or false."""
    rng = random.Random(choice)
    from mariage.engine.deals import SeededDeals

    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    decks: list[list[int]] = []
    ref = TalonReferee(rules, decks)
    steps = 0
    while not state.terminal and steps < 20_000:
        if state.phase == Phase.DEAL:
            deck, first = deals.next_deal()
            decks.append(list(deck))
            state.deal(deck, first)
            ref.dealt(state)
            continue
        acts = state.legal_actions()
        seat = state.to_act
        assert seat is not None
        claims = [a for a in acts if isinstance(a, Claim)]
        good = claims and state.hand_points(seat) >= 66
        if claims and ((good and rng.random() < 0.7) or rng.random() < 0.03):
            action: Action = claims[0]
        else:
            rest = [a for a in acts if not isinstance(a, Claim)]
            bold = [a for a in rest if isinstance(a, Declare | Exchange | Close)]
            pool = bold if bold and rng.random() < 0.3 else rest
            action = pool[rng.randrange(len(pool))]
        ref.before(state, seat, action)
        state.apply(action)
        ref.after(state, seat, action)
        steps += 1
    assert state.terminal
    return state, ref


@pytest.mark.parametrize("name", TALON)
def test_every_option_value_plays_clean_matches(name: str) -> None:
    small = {k: v[1] for k, v in int_choices(name).items()}
    for i, options in enumerate(option_grid(name)):
        rules = rules_for(name, {**options, **(small if i % 2 else {})})
        for seed in (i, i + 100):
            state, ref = play(rules, seed, seed * 7 + 1)
            assert ref.hands_checked == len(state.history) > 0


@pytest.mark.parametrize("name", TALON)
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_random_talon_matches_keep_every_invariant(name: str, data: st.DataObject, seed: int,
                                                   choice: int) -> None:
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    state, ref = play(rules, seed, choice)
    assert ref.hands_checked == len(state.history)
