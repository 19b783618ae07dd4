"""The score sheets written out for the hand end (``engine/sheets.py``) against the
mechanisms' own methods, on the ends of hands that random play seldom reaches.

Random hands are played to their end, then what the sheet reads is set at random
(the sides' card points and tricks, a capot, the announcements kept or dropped, the
pair of trumps, a bid and its doublings, a held-over total, the match scores near
the target): the generated hand end and :meth:`Scoring.end_hand` (which asks the
mechanisms) must leave every slot of two copies of that state equal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.contractsheet import (
    TABLE_REACH,
    contract_facts,
    contract_lines,
    rounding_table,
)
from mariage.engine.handend import hand_end
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.mechanisms.contract import round_to
from mariage.engine.phase import DEAL, PLAY
from mariage.engine.runningsheet import settle_lines
from mariage.engine.sheets import (
    game_points_lines,
    record_values,
    takers_lines,
)
from propkit import option_grid, pick_action, rules_for
from test_fastpath import _state_of

TAKERS = [n for n in list_rulesets() if load_rules(n).takers_rule is not None]
#: the rulesets whose sheet is the contract's (the Thousand family, German Marjapussi)
CONTRACTS = [n for n in list_rulesets() if load_rules(n).score_kind == "contract"]


def _played_hand(r: Any, rng: random.Random) -> GameState:
    """A state just after a random hand of ``rules`` was played out (or passed)."""
    state = GameState(r, first_dealer=None if r.first_dealer == "none" else 0)
    deck = list(range(r.ncards))
    rng.shuffle(deck)
    state.deal(deck, 0 if r.first_lead == "lot" else None)
    while state.phase != DEAL and not state.terminal:
        seat, action = pick_action(rng, state)
        state.apply(action, seat=seat)
    return state


def _unsettled(state: GameState, rng: random.Random) -> None:
    """Set at random what the takers' sheet reads, as the state was before its hand
    end; the phase back to play."""
    r = state.rules
    nteams = len(r.teams)
    tricks = r.hand_size + state.draw_tricks
    state.phase = PLAY
    state.declarer = rng.randrange(r.nseats)
    capot = rng.random() < 0.3
    wins = [0] * nteams
    if capot:
        wins[rng.randrange(nteams)] = tricks
    else:
        for _ in range(tricks):
            wins[rng.randrange(nteams)] += 1
    state.tricks_won = wins
    total = sum(r.points) + r.last_trick_points
    first = rng.choice([0, total // 2, rng.randrange(total + 1), total, 80, 81, 82,
                        total - 80, total - 81, total - 82])  # at a bid of 80 and its 82
    state.captured = [first, total - first] if nteams == 2 else \
        [rng.randrange(total) for _ in range(nteams)]
    if rng.random() < 0.4:
        state.announced = []
    state.pair_by = rng.choice([-1, *range(r.nseats)])
    state.pot = rng.choice([0, 0, 80, 162])
    state.round_residue = [rng.randrange(-9, 10) for _ in range(nteams)]
    if r.sa_rule is not None:  # a bid: its value, the capot and générale bids, doublings
        values = [v for v in (r.sa_min, r.sa_min + 10, 160, r.sa_capot_value,
                              r.sa_generale_value) if v]
        state.contract = rng.choice(values)
        state.kontras = rng.randrange(3)
    if rng.random() < 0.2:
        state.match_scores = [rng.randrange(r.match_target + 200) for _ in range(nteams)]
    if rng.random() < 0.2:
        del state.tricks[rng.randrange(len(state.tricks) + 1):]


def _unsettled_contract(state: GameState, rng: random.Random) -> None:
    """Set at random what the contract's sheet and the running totals read: the hand
    points, the declarer (or nobody), the contract, its doublings and a blind one, a
    seat sitting out and its talon, the barrel, bolts, falls and golden hands, the
    totals near the target, the barrel and the dump."""
    r = state.rules
    nteams = len(r.teams)
    state.phase = PLAY
    state.declarer = rng.choice([-1, *range(r.nseats), *range(r.nseats)])
    state.captured = [rng.randrange(0, 125) for _ in range(nteams)]
    state.decl_points = [rng.choice([0, 0, 40, 60, 100]) for _ in range(nteams)]
    state.tricks_won = [rng.choice([0, 1, 3, 7]) for _ in range(nteams)]
    state.contract = rng.choice([0, 100, 110, 120, 125, 200])
    state.blind = rng.random() < 0.3
    state.kontras = rng.randrange(3)
    if r.sits_out != "none" and rng.random() < 0.7:
        state.out = rng.randrange(r.nseats)
        state.talon = rng.getrandbits(r.ncards)
    marks = [r.barrel_at, r.match_target, r.dump_value, 0, 50, 500]
    state.match_scores = [rng.choice(marks) + rng.choice([-25, -5, 0, 5, 25])
                          for _ in range(nteams)]
    state.barrel = [rng.choice([-1, -1, 0, 1, 2]) for _ in range(nteams)]
    state.bolts = [rng.randrange(4) for _ in range(nteams)]
    state.falls = [rng.randrange(3) for _ in range(nteams)]
    state.golden_done = rng.randrange(r.hand_seats + 1)
    state.golden_made = rng.randrange(2)
    state.concessions = [rng.randrange(3) for _ in range(nteams)]


def _both_ways(name: str, written_steps: Callable[[Any], bool],
               unsettled: Callable[[GameState, random.Random], None],
               endings: tuple[str, ...]) -> int:
    """Score random ends of hands of ``name`` (sampled options) by the generated hand end
    and by :meth:`Scoring.end_hand`; every slot must agree. The cases compared."""
    rng = random.Random(f"sheets {name}")
    grid = option_grid(name)
    cases = 0
    for opts in [{}, *rng.sample(grid, min(12, len(grid)))]:
        rules = rules_for(name, opts)
        assert written_steps(rules)
        written = hand_end(DEFAULT_MECHANISMS, rules)
        assert written is not None
        for _ in range(25):
            state = _played_hand(rules, rng)
            if state.terminal:
                continue
            unsettled(state, rng)
            how = endings[0] if rng.random() < 0.8 else rng.choice(endings)
            fast, slow = state.clone(), state.clone()
            written(fast, how)
            DEFAULT_MECHANISMS.scoring.end_hand(slow, how)
            assert _state_of(fast) == _state_of(slow), (opts, how)
            cases += 1
    return cases


@pytest.mark.parametrize("name", TAKERS)
def test_the_written_takers_sheet_scores_as_the_mechanism(name: str) -> None:
    def written(rules: Any) -> bool:
        return takers_lines(DEFAULT_MECHANISMS, rules, {}) is not None

    assert _both_ways(name, written, _unsettled, ("played_out", "redeal", "void")) > 100


@pytest.mark.parametrize("name", CONTRACTS)
def test_the_written_contract_sheet_and_totals_score_as_the_mechanisms(name: str) -> None:
    def written(rules: Any) -> bool:
        assert contract_lines(DEFAULT_MECHANISMS, rules, {}) is not None
        if rules.running_rule is not None:
            assert settle_lines(DEFAULT_MECHANISMS, rules, {}) is not None
        return contract_facts(DEFAULT_MECHANISMS, rules, {}, record_values(rules)) is not None

    def unsettled(state: GameState, rng: random.Random) -> None:
        if state.declarer < 0 and state.rules.sheet_mode == "each_rounded":
            state.declarer = 0  # (a hand of the Thousand family is always bid)
        _unsettled_contract(state, rng)

    endings = ("played_out", "conceded", "redeal")
    assert _both_ways(name, written, unsettled, endings) > 100


#: the Thousand family: each side's points rounded from a table (contractsheet.rounding_table)
EACH_ROUNDED = [n for n in CONTRACTS if load_rules(n).sheet_mode == "each_rounded"]


@pytest.mark.parametrize("name", EACH_ROUNDED)
def test_points_beyond_the_rounding_table_score_as_the_mechanism(name: str) -> None:
    """Hand points at and past both ends of the table (negative ones read from its end,
    beyond it worked out): the written sheet rounds them as ``Contract.sheet`` does."""
    reach = TABLE_REACH
    edges = [-reach - 7, -reach, -reach + 3, -3, -2, 0, 2, 3, 62, 63, reach - 3, reach - 1,
             reach, reach + 2, 2 * reach - 3, 10 * reach + 3]

    def written(rules: Any) -> bool:
        return contract_lines(DEFAULT_MECHANISMS, rules, {}) is not None

    def unsettled(state: GameState, rng: random.Random) -> None:
        state.declarer = max(state.declarer, 0)
        _unsettled_contract(state, rng)
        state.declarer = max(state.declarer, 0)
        state.captured = [rng.choice(edges) for _ in state.captured]
        state.decl_points = [0 for _ in state.decl_points]

    assert _both_ways(name, written, unsettled, ("played_out",)) > 100
    table = rounding_table(5, False)
    points = (0, 2, 3, reach - 1)
    assert [table[p] for p in points] == [round_to(p, 5) for p in points]


#: the rulesets scored by Scoring.hand_score alone, which the hand end writes out too
PLAIN = [n for n in list_rulesets() if load_rules(n).score_kind in ("excess", "table", "segno")]


def _unsettled_points(state: GameState, rng: random.Random) -> None:
    """Set at random what the plain scores read: card and hand points (ties at the top
    included), tricks, the game points and the last trick's winner."""
    r = state.rules
    nteams = len(r.teams)
    state.phase = PLAY
    state.captured = [rng.choice([0, 30, 35, 36, 60, 61, 75, 80]) for _ in range(nteams)]
    state.decl_points = [rng.choice([0, 0, 20, 40]) for _ in range(nteams)]
    state.tricks_won = [rng.randrange(6) for _ in range(nteams)]
    state.game_points = [rng.randrange(3) for _ in range(nteams)]
    state.last_winner = rng.choice([-1, *range(r.nseats)])


@pytest.mark.parametrize("name", PLAIN)
def test_the_written_plain_scores_score_as_the_scoring(name: str) -> None:
    assert _both_ways(name, lambda rules: True, _unsettled_points,
                      ("played_out", "target", "call_out")) > 100


#: the talon games, scored in game points
TALON = [n for n in list_rulesets() if load_rules(n).score_kind == "game_points"]


def _unsettled_talon(state: GameState, rng: random.Random) -> None:
    """Set at random what the game points of a hand played out read: hand points (equal
    ones, and each step of the scale), the loser's tricks, the last trick's winner, the
    bonus carried from a drawn hand; no close."""
    r = state.rules
    nteams = len(r.teams)
    state.phase = PLAY
    state.closed_by = -1
    state.captured = [rng.choice([0, 20, 32, 33, 34, 50, 66, 70]) for _ in range(nteams)]
    state.decl_points = [rng.choice([0, 0, 20, 40]) for _ in range(nteams)]
    state.tricks_won = [rng.choice([0, 0, 1, 3]) for _ in range(nteams)]
    state.last_winner = rng.randrange(r.nseats)
    state.carry_bonus = rng.choice([0, 0, 1])


@pytest.mark.parametrize("name", TALON)
def test_the_written_game_points_score_as_the_mechanism(name: str) -> None:
    def written(rules: Any) -> bool:
        return game_points_lines(DEFAULT_MECHANISMS, rules, {}) is not None

    assert _both_ways(name, written, _unsettled_talon, ("played_out",)) > 100


def _unsettled_closed(state: GameState, rng: random.Random) -> None:
    """As :func:`_unsettled_talon`, but a seat in the hand has closed the stock (the
    closer's opponent had no trick or some, and some points, then), or not; any dealer
    (the next dealer follows the hand's winner in some rules); the match scores up to
    the target (a seat sitting out scores up to one short of it in some rules)."""
    _unsettled_talon(state, rng)
    r = state.rules
    state.match_scores = [rng.randrange(r.match_target) for _ in r.teams]
    playing = [s for s in range(r.nseats) if s != state.out]
    state.closed_by = rng.choice([-1, *playing, *playing])
    state.close_opp_tricks = rng.choice([0, 0, 1, 2])
    state.close_opp_points = rng.choice([0, 20, 33, 40])
    if state.dealer is not None:
        state.dealer = rng.randrange(r.nseats)


@pytest.mark.parametrize("name", TALON)
def test_the_written_failed_close_and_next_dealer_score_as_the_mechanism(name: str) -> None:
    def written(rules: Any) -> bool:
        return game_points_lines(DEFAULT_MECHANISMS, rules, {}) is not None

    assert _both_ways(name, written, _unsettled_closed, ("played_out",)) > 100
