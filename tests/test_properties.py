"""Properties of random matches, for every ruleset and every option combination.

A :class:`Referee` watches a whole match and checks, at every step, what the
rules notes say must hold: every card is somewhere exactly once; tricks go
to the right seat with the trump in force at their end; declarations score
by their schedule and move trump as their game says; hand records add up;
a fully played hand holds the whole pack's card points; the match ends when,
and only when, a side has reached the target alone. The expectations below
are written from ``../shared/RULES-NOTES.md``, not read from the engine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from families import by_family
from hypothesis import given
from hypothesis import strategies as st
from mariage import (
    Action,
    Answer,
    CallOut,
    Declare,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    Rules,
    action_text,
    new_match,
)
from mariage.engine.actions import Bid, Kontra, Raise
from mariage.engine.deals import SeededDeals
from mariage.engine.mechanisms.questions import CALLED_PAIR
from propkit import (
    CHOICES,
    RULESETS,
    SEEDS,
    Hooks,
    candidate_actions,
    document,
    int_choices,
    option_grid,
    options_for,
    pick_action,
    play_match,
    rules_for,
    same_state,
    snapshot,
)

# ---------------------------------------------------------------- the facts
#: the rulesets this referee models; Schnapsen and Sixty-six (closing, claims, game
#: points) have their own referee in test_properties_talon.py, Sixty-six for four in
#: test_properties_sixty_six_4.py, Sixty-six for three in test_properties_sixty_six_3.py
# the talon games and Belote have referees of their own (test_properties_sixty_six_4.py,
# test_rules_belote.py)
REFEREE_RULESETS = tuple(n for n in RULESETS if n not in ("schnapsen", "sixty-six",
                                                          "sixty-six-3", "sixty-six-4",
                                                          "belote", "belote-coinche",
                                                          "belote-contree")
                         # no independent referee of Thousand yet (marriages by suit, a
                         # trump that waits, the running totals): its random whole games
                         # are checked by test_notation and test_rules_thousand
                         and not n.startswith("thousand"))
TURNED_TRUMP = {"mariglia", "mariaggia", "mariazza"}  # trump is the turned-up card's suit
HELD_UNTIL_LEADING = {"mariazza"}  # a non-leader's declaration counts when he next leads


def pack_total(rules: Rules) -> int:
    """Card points in the pack, from the notes."""
    if rules.ruleset == "mariglia":
        return 60
    if rules.ruleset == "marjapussi":
        return 140 if rules.option("point_system") == "simplified" else 120
    if rules.ruleset == "marjapussi-de":  # card points and the last-trick bonus
        cards = 140 if rules.option("card_values") == "simplified" else 120
        return cards + int(rules.option("last_trick_bonus"))
    return 120


def opt(rules: Rules, name: str, default: Any = None) -> Any:
    """The value of option ``name``, or ``default`` where the ruleset lacks it."""
    return dict(rules.options).get(name, default)


def is_cinquecento(rules: Rules) -> bool:
    """Cinquecento and the presets built on it (the notes' values and trump)."""
    return "cinquecento" in (rules.ruleset, rules.parent)
# German bidding Marjapussi, from its notes: pair values, and the score sheet
MJDE_PAIRS = (100, 80, 60, 40)


def mjde_sheet(rules: Rules, points: list[int], tricks: list[int], bid: tuple[int, int],
               kontras: int) -> tuple[int, ...]:
    """What each team books: ``bid`` is (value, declarer seat) or (0, -1)."""
    value, declarer = bid
    sheet = rules.option("scoring")
    step = 5 if rules.option("defender_rounding") == "nearest_5" else 1

    def rounded(x: int) -> int:
        return (x + step // 2) // step * step

    if declarer < 0:
        return tuple(rounded(p) for p in points) if sheet == "wurzel" else (0, 0)
    me = declarer % 2
    them = 1 - me
    made = points[me] > value if rules.option("made_if") == "more_than" else points[me] >= value
    out = [0, 0]
    out[me] = value if made else -value
    if sheet != "wurzel":  # no schwarz; each Kontra and Re doubles the line (1.13)
        out[me] *= 2 ** kontras
        return tuple(out)
    factor = int(rules.option("schwarz_factor"))
    if tricks[me] == 0:
        out[me] = -factor * value
    doublings = kontras - 1 if kontras and 0 in tricks else kontras
    out[me] *= 2 ** doublings
    out[them] = -factor * value if tricks[them] == 0 and made else rounded(points[them])
    return tuple(out)


def marianna_schedule(rules: Rules) -> tuple[int, ...]:
    if is_cinquecento(rules):
        return (40, 20, 20, 20)
    if opt(rules, "marianna_values") == "20-40-60-80":
        return (20, 40, 60, 80)
    return (40, 60, 80, 100)


def declaration_value(rules: Rules, name: str, order: int, suit: int, trump: int,
                      makes_trump: bool) -> int:
    """What a declaration is worth, given the order of ordered ones before it."""
    if name == "marianna":
        return marianna_schedule(rules)[order]
    if name == "mariannino":
        if opt(rules, "mariannino_value") == "next_plus_200":
            return marianna_schedule(rules)[min(order, 3)] + 200
        return 250
    if name == "mariannone":
        return 500
    if name == "accusa":
        return 40 if rules.option("accusa_trump_40") and suit == trump else 20
    if name == "mariazza":
        return 40 if rules.option("trump_mariazza_40") and suit == trump else 20
    if name == "marriage":
        return 2 if makes_trump else 1
    raise AssertionError(f"no expectation for declaration {name}")


def makes_trump(rules: Rules, name: str, trump: int, wanted: bool) -> bool:
    """Whether declaring ``name`` now sets the trump suit."""
    if rules.ruleset in TURNED_TRUMP or name == "mariannone":
        return False
    if name == "mariannino":
        first_fixes = is_cinquecento(rules) or opt(rules, "first_fixes_trump")
        return trump < 0 or not first_fixes
    if name == "marianna":
        first_fixes = is_cinquecento(rules) or opt(rules, "first_fixes_trump")
        return trump < 0 or not first_fixes
    if name == "marriage":
        return trump < 0 and wanted
    raise AssertionError(f"no trump rule for declaration {name}")


def tie_is_a_draw(rules: Rules) -> bool:
    """Whether equal scores at or over the target end the match drawn (the tie option)."""
    return dict(rules.options).get("tie") == "draw"


def trick_winner(rules: Rules, leader: int, cards: tuple[int, ...], trump: int) -> int:
    """The seat that takes a trick: highest trump, else highest card of the suit led."""
    led = rules.suit_of[cards[0]]

    def strength(c: int) -> tuple[int, int]:
        suit = rules.suit_of[c]
        if suit == trump:
            return (2, -rules.rank_of[c])
        return (1, -rules.rank_of[c]) if suit == led else (0, 0)

    best = max(range(len(cards)), key=lambda i: strength(cards[i]))
    return (leader + best) % rules.nseats


# ---------------------------------------------------------------- the referee
class Referee(Hooks):
    """Checks a match at every step against an independent model of the hand."""

    def __init__(self, rules: Rules) -> None:
        self.r = rules
        nteams = len(rules.teams)
        self.bonus = [0] * nteams
        self.hands_seen = 0
        self.steps = 0

    # -- a new hand
    def dealt(self, state: GameState) -> None:
        r = self.r
        nteams = len(r.teams)
        self.trump = r.suit_of[state.turn_up] if r.ruleset in TURNED_TRUMP else -1
        assert state.trump == self.trump
        self.dealer = state.dealer
        self.order = 0
        self.captured = [0] * nteams
        self.tricks = [0] * nteams
        self.decl_points = [0] * nteams
        self.game_points = [0] * nteams
        self.held = [0] * r.nseats
        self.caller: int | None = None
        self.claim_good = False
        self.last_team = -1
        self.ndeclared = 0
        self.bid = (0, -1)  # bidding games: (value, declarer) as the auction goes
        self.kontras = 0
        self.called = 0
        self.credited = [0] * r.nseats
        if r.turn_up_bonus and state.turn_up is not None and state.dealer is not None:
            assert r.ruleset == "mariglia"
            self.bonus[r.team_of[state.dealer]] += r.points[state.turn_up]
        if r.turn_up == "dealer_last" and state.dealer is not None:
            assert state.turn_up is not None and state.hands[state.dealer] >> state.turn_up & 1
        self.check_cards(state)
        self.check_ended(state)

    # -- around each action
    def before(self, state: GameState, seat: int, action: Action) -> None:
        self.trump_before = state.trump
        self.leading = seat == state.leader and not state.trick_cards
        self.ntricks = len(state.tricks)
        if isinstance(action, CallOut):
            self.caller = self.r.team_of[seat]
            self.claim_good = (state.match_scores[self.caller] + self.points()[self.caller]
                               >= self.r.match_target)

    def after(self, state: GameState, seat: int, action: Action) -> None:
        r = self.r
        self.steps += 1
        if isinstance(action, Bid):
            assert action.value > self.bid[0] and action.value % 5 == 0
            self.bid = (action.value, seat)
        elif isinstance(action, Raise) and action.value:
            assert action.value > self.bid[0] and action.value <= 420
            self.bid = (action.value, seat)
        elif isinstance(action, Kontra):
            self.kontras += 1
        wanted = action.trump if isinstance(action, Declare) else True
        if isinstance(action, Play) and len(state.tricks) > self.ntricks:
            self.trick_done(state, self.trump_before)
        self.check_declarations(state, wanted)
        if state.phase in (Phase.PLAY, Phase.WINDOW, Phase.ANSWER, Phase.AUCTION,
                           Phase.PASSING, Phase.CONTRACT, Phase.QUESTION):
            assert state.trump == self.trump, "trump differs from the rules"
            self.check_cards(state)
            if r.hand_target is not None:
                assert max(self.points()) < r.hand_target, "the hand should have ended"
        self.check_ended(state)
        if state.phase == Phase.DEAL:
            self.check_play_on(state)

    def resigned(self, state: GameState, seat: int) -> None:
        assert state.terminal
        assert state.result is not None and state.result.reason == "resign"
        assert state.result.winner != self.r.team_of[seat]
        self.check_result(state)

    # -- pieces
    def points(self) -> list[int]:
        return [c + d for c, d in zip(self.captured, self.decl_points, strict=True)]

    def trick_done(self, state: GameState, trump: int) -> None:
        r = self.r
        leader, cards, winner = state.tricks[-1]
        assert len(cards) == r.nseats
        assert winner == trick_winner(r, leader, cards, trump), "wrong trick winner"
        team = r.team_of[winner]
        self.captured[team] += sum(r.points[c] for c in cards)
        self.tricks[team] += 1
        if r.ruleset == "marjapussi-de" and sum(self.tricks) == 9:
            self.captured[team] += int(r.option("last_trick_bonus"))
        self.last_team = team
        over = sum(self.tricks) == r.ncards // r.nseats or (
            r.hand_target is not None and max(self.points()) >= r.hand_target)
        if self.held[winner] and not over:  # credited as the winner leads the next trick
            self.decl_points[team] += self.held[winner]
            self.held[winner] = 0

    def check_declarations(self, state: GameState, wanted: bool) -> None:
        r = self.r
        for seat, index, suit, value in state.declared[self.ndeclared:]:
            team = r.team_of[seat]
            if index == CALLED_PAIR:  # a trump call of the bidding game
                once = r.option("pair_credit_once_per_hand")
                fresh = not (self.called if once else self.credited[seat]) >> suit & 1
                assert value == (MJDE_PAIRS[suit] if fresh else 0)
                if self.trump < 0 or r.option("trump_rule") == "latest":
                    self.trump = suit
                self.called |= 1 << suit
                self.credited[seat] |= 1 << suit
                self.decl_points[team] += value
                continue
            if index < 0:  # a split marriage won by its side
                assert r.asks[-1 - index].name == "cover"
                assert value == 20
                if opt(r, "split_order", "first") == "first":
                    self.order += 1
                first_fixes = is_cinquecento(r) or opt(r, "first_fixes_trump")
                if self.trump < 0 or not first_fixes:
                    self.trump = suit
                self.decl_points[team] += value
                continue
            d = r.declarations[index]
            sets = makes_trump(r, d.name, self.trump, wanted)
            expected = declaration_value(r, d.name, self.order, suit, self.trump, sets)
            assert value == expected, f"{d.name} #{self.order + 1} scored {value}"
            if d.name == "marianna":
                self.order += 1
            if sets:
                self.trump = suit
            if d.units == "game_points":
                self.game_points[team] += value
            elif r.ruleset in HELD_UNTIL_LEADING and not self.leading:
                self.held[seat] += value
            else:
                self.decl_points[team] += value
        self.ndeclared = len(state.declared)

    def check_cards(self, state: GameState) -> None:
        r = self.r
        seen = 0
        for hand in state.hands:
            assert seen & hand == 0, "a card is in two hands"
            seen |= hand
        played = [c for _, cards, _ in state.tricks for c in cards]
        for c in [*state.stock, *state.trick_cards, *played]:
            assert not seen >> c & 1, f"{r.card_code[c]} is in two places"
            seen |= 1 << c
        assert seen == r.full_mask, "cards are missing"
        assert len(state.tricks) == max(state.trick_no - 1, 0)
        sizes = [h.bit_count() for h in state.hands]
        if state.phase == Phase.PASSING:  # the declarer holds 13 cards between the steps
            assert sum(sizes) == r.ncards and sorted(sizes) in ([9, 9, 9, 9], [5, 9, 9, 13])
            return
        base = max(sizes)
        for s in range(r.nseats):
            assert sizes[s] == base - (s in state.trick_seats and base > 0) or \
                sizes[s] == base, "hand sizes out of step"
        if state.turn_up is not None and r.turn_up == "under_stock":
            assert state.stock[0] == state.turn_up, "the turned card lies under the stock"

    def check_ended(self, state: GameState) -> None:
        while self.hands_seen < len(state.history):
            record = state.history[self.hands_seen]
            self.hands_seen += 1
            self.check_record(state, record)
        if state.terminal:
            self.check_result(state)

    def check_record(self, state: GameState, rec: Any) -> None:
        r = self.r
        assert rec.number == state.hand_no
        assert rec.dealer == self.dealer
        if rec.ended == "turn_up_bonus":
            assert state.terminal and not any(rec.score)
            return
        assert rec.tricks == tuple(self.tricks)
        assert rec.points == tuple(self.points()), (rec, self.points())
        if rec.ended == "played_out":
            assert sum(self.captured) == pack_total(r)
            assert sum(self.tricks) == r.ncards // r.nseats
            if r.ruleset == "mariglia":
                assert sum(self.captured) + sum(self.tricks) == 70
        if rec.ended == "call_out_failed":  # under either penalty; lose_match ends the match
            assert not self.claim_good
            assert state.terminal == (r.option("call_out_penalty") == "lose_match")
        if rec.ended == "call_out":  # only a rightful call-out
            assert state.terminal and self.claim_good
        if rec.ended == "target":
            assert r.hand_target is not None and max(self.points()) >= r.hand_target
        elif r.hand_target is not None:
            assert max(self.points()) < r.hand_target
        assert rec.score == self.expected_score(rec.ended), (rec, self.expected_score(rec.ended))
        if r.match_measure == "hands_won":
            pts = self.points()
            top = max(pts)
            winners = [t for t, p in enumerate(pts) if p == top]
            unfinished = (rec.ended == "played_out" and r.hand_target is not None
                          and top < r.hand_target and r.option("unfinished_hand") == "nobody")
            expected = winners[0] if len(winners) == 1 and top != 60 and not unfinished \
                else None
            assert rec.winner == expected
            for t in range(len(r.teams)):
                assert state.segni[t] == sum(h.winner == t for h in state.history)
        else:
            res = state.result
            for t in range(len(r.teams)):
                total = sum(h.score[t] for h in state.history) + self.bonus[t]
                if res is not None and res.reason == "target" and res.winner == t:
                    total += r.match_bonus  # a bonus for reaching the target first
                assert state.match_scores[t] == total, "match score is not the sum of hands"

    def expected_score(self, ended: str) -> tuple[int, ...]:
        r = self.r
        nteams = len(r.teams)
        if r.ruleset == "mariazza":
            return (0,) * nteams
        if r.ruleset == "mariglia":
            totals = [c + t for c, t in zip(self.captured, self.tricks, strict=True)]
            return tuple(max(0, x - 35) for x in totals)
        if r.ruleset == "marjapussi-de":
            if ended != "played_out":
                return (0,) * nteams
            return mjde_sheet(r, self.points(), self.tricks, self.bid, self.kontras)
        if r.ruleset == "marjapussi":
            score = list(self.game_points)
            if ended == "played_out":
                threshold = 75 if r.option("point_system") == "simplified" else 61
                for t in range(nteams):
                    score[t] += self.captured[t] >= threshold
                score[self.last_team] += 1
                top = max(self.captured)
                leaders = [t for t in range(nteams) if self.captured[t] == top]
                if r.option("majority_point") == "separate" and len(leaders) == 1:
                    score[leaders[0]] += 1
            return tuple(score)
        score = self.points()
        if ended == "call_out_failed":
            assert self.caller is not None  # a wrong caller scores nothing for the hand
            score[self.caller] = 0
        return tuple(score)

    def check_result(self, state: GameState) -> None:
        r = self.r
        res = state.result
        assert res is not None
        measure = state.segni if r.match_measure == "hands_won" else state.match_scores
        assert res.scores == tuple(measure)
        if res.reason in ("target", "turn_up_bonus"):
            assert res.winner is not None
            others = [s for t, s in enumerate(measure) if t != res.winner]
            assert measure[res.winner] >= r.match_target
            assert all(measure[res.winner] > s for s in others)
        elif res.reason == "call_out":
            assert self.caller is not None
            if self.claim_good:
                assert res.winner == self.caller
            else:
                assert r.option("call_out_penalty") == "lose_match"
                assert res.winner is not None and res.winner != self.caller
        elif res.reason == "match_won":
            assert state.history[-1].ended == "match_won"
        elif res.reason == "tie" and (r.match_measure == "hands_played" or r.match_max_hands):
            assert res.winner is None and measure[0] == measure[1]
        elif res.reason == "hands":  # a session of a fixed number of hands, or a hand limit
            limit = r.match_target if r.match_measure == "hands_played" else r.match_max_hands
            assert limit and state.hand_no == limit
            assert measure[res.winner] > measure[1 - res.winner]
        elif res.reason == "tie":
            assert res.winner is None and tie_is_a_draw(r)
            top = max(measure)
            assert top >= r.match_target and list(measure).count(top) > 1
        else:
            assert res.reason == "resign"

    def check_play_on(self, state: GameState) -> None:
        """Between hands, nobody may have reached the target alone."""
        r = self.r
        measure = state.segni if r.match_measure == "hands_won" else state.match_scores
        top = max(measure)
        if r.match_measure == "hands_played":  # a session: scores are no target
            assert state.hand_no < r.match_target
            return
        if tie_is_a_draw(r):
            assert top < r.match_target, "the match should have ended"
        else:
            assert top < r.match_target or list(measure).count(top) > 1


# ---------------------------------------------------------------- the properties
@pytest.mark.parametrize("name", REFEREE_RULESETS)
def test_every_option_combination_plays_clean_matches(name: str) -> None:
    """One match per combination of enum/bool options, ints alternately default and small."""
    small = {k: v[1] for k, v in int_choices(name).items()}
    grid = option_grid(name)
    for i, options in enumerate(grid):
        rules = rules_for(name, {**options, **(small if i % 2 else {})})
        referee = Referee(rules)
        state = play_match(rules, i, i + 7, referee)
        assert state.terminal and referee.hands_seen == len(state.history)


@pytest.mark.parametrize("name", REFEREE_RULESETS)
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_random_matches_keep_every_invariant(name: str, data: st.DataObject, seed: int,
                                             choice: int) -> None:
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    referee = Referee(rules)
    state = play_match(rules, seed, choice, referee)
    assert state.terminal
    assert referee.steps > 0 or state.result is not None


class Log(Hooks):
    """Records everything that happens in a match, as text."""

    def __init__(self, rules: Rules) -> None:
        self.r = rules
        self.lines: list[str] = []

    def dealt(self, state: GameState) -> None:
        self.lines.append(f"deal {state.hand_no} {state.dealer} "
                          + " ".join(self.r.format_cards(h) for h in state.hands))

    def after(self, state: GameState, seat: int, action: Action) -> None:
        self.lines.append(f"{seat} {action_text(self.r, action)} {state.trump}")


@pytest.mark.parametrize("name", by_family())
@given(data=st.data(), seed=SEEDS, choice=CHOICES)
def test_same_seed_gives_the_same_match(name: str, data: st.DataObject, seed: int,
                                        choice: int) -> None:
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    first, second = Log(rules), Log(rules)
    # a match to a far total (Thousand) runs to hundreds of hands: its first hundred or so
    stop = 3000 if rules.running_rule is not None else None
    a = play_match(rules, seed, choice, first, stop_after=stop)
    b = play_match(rules, seed, choice, second, stop_after=stop)
    assert first.lines == second.lines
    assert a.history == b.history and a.result == b.result
    # new_match deals the same hands from the same seed
    auto = new_match(rules, seed)
    assert auto.dealer == SeededDeals(rules, seed).first_dealer
    manual = first.lines[0]
    assert manual == f"deal 1 {auto.dealer} " + " ".join(rules.format_cards(h)
                                                         for h in auto.hands)


def check_legal_equals_accepted(state: GameState) -> int:
    """Every candidate action is accepted by a clone iff it is legal, for every seat."""
    r = state.rules
    before = snapshot(state)
    candidates = candidate_actions(r, state)
    checked = 0
    for seat in range(r.nseats):
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), "an action is listed twice"
        assert set(legal) <= set(candidates)
        legal_set = set(legal)
        for action in candidates:
            trial = state.clone()
            try:
                trial.apply(action, seat=seat)
            except IllegalActionError as exc:
                assert action not in legal_set, \
                    f"seat {seat}: legal {action_text(r, action)} refused: {exc}"
                assert same_state(trial, state), "a refused action changed the state"
                assert exc.seat == seat and exc.rule_id
                continue
            assert action in legal_set, \
                f"seat {seat}: {action_text(r, action)} accepted but not legal"
            checked += 1
    assert snapshot(state) == before, "trying actions on clones changed the original"
    return checked


class LegalityProbe(Hooks):
    """Runs :func:`check_legal_equals_accepted` after the first deal and at chosen steps."""

    def __init__(self, steps: set[int]) -> None:
        self.steps = steps
        self.count = 0
        self.probed = 0

    def dealt(self, state: GameState) -> None:
        if state.hand_no == 1 and not state.terminal:
            check_legal_equals_accepted(state)
            self.probed += 1

    def before(self, state: GameState, seat: int, action: Action) -> None:
        if self.count in self.steps:
            check_legal_equals_accepted(state)
            self.probed += 1
        self.count += 1


@pytest.mark.parametrize("name", by_family())
@given(data=st.data(), seed=SEEDS, choice=CHOICES,
       steps=st.sets(st.integers(0, 250), min_size=1, max_size=3))
def test_legal_actions_equal_accepted_actions(name: str, data: st.DataObject, seed: int,
                                              choice: int, steps: set[int]) -> None:
    rules = rules_for(name, data.draw(options_for(name), label="options"))
    probe = LegalityProbe(steps)
    play_match(rules, seed, choice, probe, stop_after=max(steps) + 1)
    assert probe.probed >= 1


@pytest.mark.parametrize("name", RULESETS)
def test_nothing_is_legal_between_hands_or_after_the_match(name: str) -> None:
    rules = rules_for(name, {})
    state = GameState(rules, first_dealer=0 if rules.first_dealer != "none" else None)
    for seat in range(rules.nseats):
        assert state.legal_actions(seat) == []
    for action in candidate_actions(rules):
        with pytest.raises(IllegalActionError) as info:
            state.apply(action, seat=0)
        assert info.value.rule_id == "core.phase"
    state.resign(0)
    for action in candidate_actions(rules)[:5]:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        assert info.value.rule_id == "core.over"


@pytest.mark.parametrize("name", RULESETS)
@given(seed=SEEDS, choice=CHOICES)
def test_a_clone_does_not_share_the_deal_stream(name: str, seed: int, choice: int) -> None:
    """Finishing a hand on a clone of an auto-dealing state leaves the original's deals alone."""
    rules = rules_for(name, {})
    state = new_match(rules, seed)
    reference = new_match(rules, seed)
    rng = random.Random(choice)
    while state.hand_no == 1 and not state.terminal:
        seat, action = pick_action(rng, state)
        if isinstance(action, CallOut):
            continue
        trial = state.clone()
        trial.apply(action, seat=seat)
        state.apply(action, seat=seat)
        reference.apply(action, seat=seat)
    if not state.terminal:
        assert state.hands == reference.hands, "the clone consumed the original's next deal"


def test_answers_in_candidates_cover_every_answer_form() -> None:
    rules = rules_for("marjapussi", {})
    forms = {type(a).__name__ for a in candidate_actions(rules)}
    assert forms == {"Play", "Declare", "AskPartner", "Answer", "Exchange", "Pass", "CallOut",
                     "Close", "Claim", "Draw", "Decline", "Concede", "Redeal"}
    assert Answer(True, 2) in candidate_actions(rules)
    assert document("marjapussi").data["ruleset"] == "marjapussi"
