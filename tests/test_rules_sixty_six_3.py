"""Per-rule tests of Sixty-six for three (the rules notes, section 3).

Seats A B C = 0 1 2, each for himself, play to the left. The dealer is dealt
nothing and sits the hand out; the two others play a hand of two-hand
Sixty-six. Unless said otherwise C deals, so A leads and B follows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from mariage import GameState, Phase, load_rules
from mariage.engine.deals import SeededDeals, deal_owners
from mariage.engine.observation import observe
from mariage.errors import SpecError
from mariage.spec.compile import option_specs
from mariage.spec.specload import load_document
from rulekit import covers, legal_texts, play, refused, start

X3 = "sixty-six-3"
A, B, C = 0, 1, 2


def deal3(hands: list[str | None], dealer: int = C, turn_up: str = "9S", stock: str = "",
          options: Mapping[str, Any] | None = None,
          state: GameState | None = None) -> GameState:
    return start(X3, hands, dealer=dealer, turn_up=turn_up, stock=stock, options=options,
                 state=state)


def won_first_trick(dealer: int = C) -> GameState:
    """The seat after the dealer leads the ace of hearts and wins it from the other."""
    first = (dealer + 1) % 3
    hands: list[str | None] = [None, None, None]
    hands[first] = "AH KS QS"
    hands[(dealer + 2) % 3] = "JH"
    st = deal3(hands, dealer=dealer)
    play(st, "AH JH")
    return st


def step(st: GameState) -> None:
    """One move of a plain hand: draw after a trick (or decline to claim after the
    last), else the last card one may play."""
    texts = legal_texts(st)
    moves = [t for t in ("draw", "decline") if t in texts] or [t for t in texts if len(t) == 2]
    play(st, moves[-1])


def run_out(st: GameState) -> GameState:
    """Play the hand to its end with :func:`step` (no claims, closes or marriages)."""
    hand = st.hand_no
    while st.phase not in (Phase.DEAL, Phase.OVER) and st.hand_no == hand:
        step(st)
    return st


def claim_with(st: GameState, seat: int, points: int) -> None:
    """``seat`` (on lead) has ``points`` counted points and claims."""
    st.captured[st.rules.team_of[seat]] = points
    play(st, "claim")


# ----------------------------------------------------------------- seats and deal
@covers("sixty-six-3.players", "sixty-six-3.deal", "sixty-six-3.deal.sits-out", ruleset=X3)
def test_three_players_the_dealer_is_dealt_nothing() -> None:
    r = load_rules(X3)
    assert r.nseats == 3 and r.teams == ((0,), (1,), (2,)) and r.direction == "clockwise"
    assert r.ncards == 24 and r.hand_seats == 2 and r.stock_size == 12
    for dealer in (A, B, C):
        st = GameState(r, first_dealer=dealer)
        st.deal(list(range(24)))
        first, second = (dealer + 1) % 3, (dealer + 2) % 3
        # three each from the dealer's left, three more each, then the turn-up
        assert st.hands[dealer] == 0 and st.out == dealer
        assert st.hands[first] == sum(1 << i for i in (0, 1, 2, 6, 7, 8))
        assert st.hands[second] == sum(1 << i for i in (3, 4, 5, 9, 10, 11))
        assert st.turn_up == 12 and len(st.stock) == 12 and st.stock[0] == 12
        assert deal_owners(r, dealer)[:13] == [first] * 3 + [second] * 3 + [first] * 3 \
            + [second] * 3 + [-2]


@covers("sixty-six-3.deal.sits-out", "sixty-six-3.lead.first", ruleset=X3)
def test_the_dealer_never_plays_or_draws() -> None:
    st = deal3([None, "AH KS", "JH"], dealer=A, stock="TD JD")  # B leads, C follows
    assert st.to_act == B and st.leader == B
    assert st.legal_actions(A) == []
    play(st, "AH")
    assert st.to_act == C
    refused(st, "JH", "core.turn", seat=A)
    play(st, "JH")
    # a trick of two cards; B draws first, then C; A nothing
    assert len(st.tricks) == 1 and st.tricks[0][1:] == ((0, 4), B)
    play(st, "draw")
    r = st.rules
    assert st.hands[A] == 0 and st.hands[B].bit_count() == st.hands[C].bit_count() == 6
    assert len(st.stock) == 10
    assert st.hands[B] >> r.card_index["TD"] & 1 and st.hands[C] >> r.card_index["JD"] & 1
    assert st.to_act == B


@covers("sixty-six-3.deal.sits-out", ruleset=X3)
def test_a_hand_is_a_two_hand_hand_between_the_others() -> None:
    st = deal3([None, None, None], dealer=B)  # C leads, A follows
    seats = set()
    while st.phase != Phase.DEAL:
        seats.add(st.to_act)
        step(st)
    assert seats == {A, C} and st.phase == Phase.DEAL
    rec = st.history[-1]
    assert rec.tricks[B] == 0 and rec.points[B] == 0


@covers("sixty-six-3.deal.sits-out", ruleset=X3)
def test_the_close_reply_goes_to_the_other_player_not_the_dealer() -> None:
    # A deals; B leads; C, on lead after winning, closes: B (not A) may exchange
    st = deal3([None, "9C", "AC KS QS"], dealer=A, turn_up="JD")
    play(st, "9C AC")
    assert st.to_act == C
    play(st, "close")
    assert st.phase == Phase.CLOSE_REPLY and st.to_act == B


@covers("sixty-six-3.decl.who", ruleset=X3)
def test_the_player_on_the_dealers_left_may_declare_on_the_first_lead() -> None:
    st = deal3(["KH QH 9C", "KD QD AH", None], turn_up="AS")  # C deals: A leads
    play(st, "marriage:H KH")
    refused(st, "marriage:D", "sixty-six-3.decl.who")  # B follows: no declaring
    play(st, "AH")
    assert st.tricks[-1][2] == B and st.hand_points(A) == 0  # A's 20 wait for a trick


@covers("sixty-six-3.visibility", ruleset=X3)
def test_the_dealer_sees_only_what_is_public() -> None:
    st = deal3(["AH KS", "JH", None], turn_up="9S")  # C deals and sits out
    seen = observe(st, C)
    assert seen.hand == 0 and seen.shown == (0, 0, 0) and seen.turn_up == st.turn_up
    assert seen.hand_sizes == (6, 6, 0) and seen.legal == ()
    assert observe(st, A).hand == st.hands[A] and observe(st, A).shown[B] == 0
    play(st, "AH JH")
    assert observe(st, C).tricks == tuple(st.tricks)  # every card played is public
    assert observe(st, A).reviewable == (0,) and observe(st, B).reviewable == (0,)


# ----------------------------------------------------------------- rotation
@covers("sixty-six-3.deal.rotation", ruleset=X3)
def test_the_deal_passes_to_the_left_whoever_wins() -> None:
    for dealer in (A, B, C):
        st = won_first_trick(dealer)
        claim_with(st, (dealer + 1) % 3, 70)
        assert st.history[-1].winner == (dealer + 1) % 3
        assert st.dealer == (dealer + 1) % 3  # the winner deals: he sits the next hand out
        st = won_first_trick(dealer)
        st.captured[st.rules.team_of[(dealer + 1) % 3]] = 50
        play(st, "claim")  # a false claim: the other player wins
        assert st.history[-1].winner == (dealer + 2) % 3 and st.dealer == (dealer + 1) % 3


# ----------------------------------------------------------------- the dealer's score
@covers("sixty-six-3.score.dealer", ruleset=X3)
def test_the_dealer_scores_as_the_winner() -> None:
    st = won_first_trick()  # C deals; A wins the first trick
    claim_with(st, A, 70)  # B has no trick: 3
    assert st.history[-1].score == (3, 0, 3) and st.match_scores == [3, 0, 3]
    st = won_first_trick()
    st.captured[B] = 40
    st.tricks_won[B] = 2
    claim_with(st, A, 70)  # B has 40 (more than 32): 1
    assert st.history[-1].score == (1, 0, 1)
    st = won_first_trick()
    claim_with(st, A, 50)  # a false claim: B scores 2, and so does the dealer
    assert st.history[-1].score == (0, 2, 2)


@covers("sixty-six-3.score.dealer", "sixty-six-3.match.end", ruleset=X3)
def test_the_dealer_stops_one_short_of_the_target() -> None:
    for before, gets in ((3, 3), (4, 2), (5, 1), (6, 0)):
        st = won_first_trick()
        st.match_scores[C] = before
        claim_with(st, A, 70)
        assert st.match_scores == [3, 0, before + gets] and st.match_scores[C] <= 6, before
        assert st.phase == Phase.DEAL and st.result is None


@covers("sixty-six-3.score.dealer", "sixty-six-3.score.played-out", ruleset=X3)
def test_a_drawn_hand_gives_the_dealer_nothing() -> None:
    st = run_out(won_first_trick())
    rec = st.history[-1]
    assert rec.ended == "played_out" and rec.winner in (A, B)
    assert rec.score[C] == rec.score[rec.winner] > 0
    # the same hand with the counts set for 65 each at the end: drawn
    st = won_first_trick()
    while len(st.tricks) < 11:
        step(st)
    probe = run_out(st.clone())
    last = probe.tricks[-1]
    won = st.rules.team_of[last[2]]
    gain = sum(st.rules.points[c] for c in last[1]) + 10
    st.captured[won], st.captured[B if won == A else A] = 65 - gain, 65
    rec = run_out(st).history[-1]
    assert rec.ended == "played_out" and rec.winner is None and rec.score == (0, 0, 0)
    assert st.dealer == A  # drawn hands too pass the deal on


@covers("sixty-six-3.match.end", "sixty-six-3.match.tie", ruleset=X3)
def test_the_first_to_seven_wins_the_match() -> None:
    st = won_first_trick()
    st.match_scores[:] = [5, 6, 6]
    claim_with(st, A, 70)  # A gets 3: 8; the dealer C stays on 6: no tie at the target
    assert st.terminal and st.result is not None and st.result.winner == A
    assert st.match_scores == [8, 6, 6]
    st = won_first_trick()
    st.match_scores[:] = [3, 6, 6]
    claim_with(st, A, 70)
    assert not st.terminal and st.match_scores == [6, 6, 6]


@covers("sixty-six-3.match.end", ruleset=X3)
def test_a_played_match_ends_with_one_winner_at_seven() -> None:
    st = GameState(load_rules(X3), first_dealer=A)
    hand = 0
    while not st.terminal:
        deal3([None, None, None], state=st)
        assert st.hands[st.out].bit_count() == 0 and st.out == st.dealer
        run_out(st)
        hand += 1
        assert hand < 60
    assert st.result is not None and st.result.winner is not None
    scores = st.match_scores
    assert scores[st.result.winner] >= 7
    assert all(s <= 6 for t, s in enumerate(scores) if t != st.result.winner)


# ----------------------------------------------------------------- the mechanism
def _variant(tmp_path: Any, extra: str) -> SpecError:
    path = tmp_path / "variant.yaml"
    path.write_text("format: 1\nextends: sixty-six-3\nruleset: variant\nname: V\nversion: 1\n"
                    + extra, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_rules(str(path))
    return err.value


def test_a_dealer_sitting_out_needs_one_seat_a_side(tmp_path: Any) -> None:
    err = _variant(tmp_path, "players:\n  teams: [[0, 1], [2]]\n  team_names: [AB, C]\n")
    assert "each player plays for himself" in str(err)


def test_a_score_for_sitting_out_needs_a_seat_sitting_out(tmp_path: Any) -> None:
    err = _variant(tmp_path, "deal:\n  sits_out: null\n")
    assert "needs 'deal.sits_out'" in str(err)


# ----------------------------------------------------------------- every option value
def check_match(rules: Any, seed: int) -> GameState:
    """A seeded match of random legal actions, checking at every step that the dealer
    sits the hand out and, at the end of each hand, that he scores as its winner,
    stopping one short of the target; the deal passes to the left. Where the others
    play on for the loser (``three_hand_play_for_loser``), once a player has won he sits
    out instead, scoring nothing, and the deal passes over him."""
    rng = random.Random(seed)
    deals = SeededDeals(rules, seed)
    st = GameState(rules, first_dealer=deals.first_dealer)
    target = rules.match_target
    while not st.terminal:
        dealer = st.dealer
        assert dealer is not None
        placed = st.placed
        out = placed[0] if placed else dealer  # (the winner sits out the play on)
        before = list(st.match_scores)
        st.deal(*deals.next_deal())
        assert st.out == out and st.hands[out] == 0
        assert st.leader == next(s % 3 for s in (dealer + 1, dealer + 2) if s % 3 != out)
        while st.phase not in (Phase.DEAL, Phase.OVER):
            assert st.to_act != out and st.legal_actions(out) == []
            assert out not in st.trick_seats and st.hands[out] == 0
            st.apply(rng.choice(st.legal_actions()))
        rec = st.history[-1]
        gained = [m - b for m, b in zip(st.match_scores, before, strict=True)]
        assert gained == list(rec.score) and rec.tricks[out] == rec.points[out] == 0
        if rec.winner is None:
            assert gained == [0, 0, 0]
        elif placed:
            assert rec.winner != out and gained[out] == 0
        else:
            assert rec.winner != dealer
            assert gained[dealer] == max(0, min(gained[rec.winner],
                                                target - 1 - before[dealer]))
            assert st.match_scores[dealer] < target
        assert sum(1 for g in gained if g) <= 2
        if not st.terminal:
            following = (dealer + 1) % 3
            assert st.dealer == (following if following not in st.placed
                                 else (dealer + 2) % 3)
    assert st.result is not None and st.result.winner is not None
    assert st.match_scores[st.result.winner] >= target
    return st


def _option_values() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    ints = {"match_target": 3, "exchange_min_talon": 4, "close_min_talon": 4}
    for name, spec in dict(option_specs(load_document(X3))).items():
        if spec["type"] == "bool":
            out.append((name, not spec["default"]))
        elif spec["type"] == "enum":
            out += [(name, v) for v in spec["values"] if v != spec["default"]]
        else:
            out.append((name, ints[name]))
    return out


OPTION_VALUES = _option_values()


def test_under_every_option_value(option: tuple[str, Any]) -> None:
    name, value = option
    rules = load_rules(X3, {name: value})
    assert rules.option(name) == value
    for seed in range(3):
        check_match(rules, seed)


for _name, _value in OPTION_VALUES:
    test_under_every_option_value = covers(
        "sixty-six-3.deal.sits-out", "sixty-six-3.score.dealer", ruleset=X3,
        options={_name: _value})(test_under_every_option_value)
test_under_every_option_value = pytest.mark.parametrize(
    "option", OPTION_VALUES, ids=[f"{n}={v}" for n, v in OPTION_VALUES])(
    test_under_every_option_value)
