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

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.handend import hand_end
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.phase import DEAL, PLAY
from mariage.engine.sheets import takers_lines
from propkit import option_grid, pick_action, rules_for
from test_fastpath import _state_of

TAKERS = [n for n in list_rulesets() if load_rules(n).takers_rule is not None]


def _played_hand(rules: object, rng: random.Random) -> GameState:
    """A state just after a random hand of ``rules`` was played out (or passed)."""
    state = GameState(rules, first_dealer=0)  # type: ignore[arg-type]
    deck = list(range(state.rules.ncards))
    rng.shuffle(deck)
    state.deal(deck)
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
    first = rng.choice([0, total // 2, rng.randrange(total + 1), total])
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


@pytest.mark.parametrize("name", TAKERS)
def test_the_written_takers_sheet_scores_as_the_mechanism(name: str) -> None:
    rng = random.Random(f"sheets {name}")
    grid = option_grid(name)
    cases = 0
    for opts in [{}, *rng.sample(grid, min(12, len(grid)))]:
        rules = rules_for(name, opts)
        assert takers_lines(DEFAULT_MECHANISMS, rules, {}) is not None
        written = hand_end(DEFAULT_MECHANISMS, rules)
        assert written is not None
        for _ in range(25):
            state = _played_hand(rules, rng)
            if state.terminal:
                continue
            _unsettled(state, rng)
            how = "played_out" if rng.random() < 0.9 else "redeal"
            fast, slow = state.clone(), state.clone()
            written(fast, how)
            DEFAULT_MECHANISMS.scoring.end_hand(slow, how)
            assert _state_of(fast) == _state_of(slow), (opts, how)
            cases += 1
    assert cases > 100
