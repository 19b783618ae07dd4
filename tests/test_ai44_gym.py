"""The Gymnasium reset's new match made by what is worked out once per rules
(:func:`mariage.engine.matchmaker.match_maker`): the same state, deals and first dealer as
``new_match``, for every bundled ruleset and the seeds at the ends of the range; any other
seed refused as before; a match a user holds is never changed by the resets after it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.gym_env import MariageGymEnv
from mariage.engine.matchmaker import match_maker
from mariage.engine.mechanisms.dealing import Dealing
from mariage.engine.phase import Phase
from mariage.engine.state import GameState

RULESETS = list_rulesets()
#: seeds at both ends of new_match's range, small ones and large ones
SEEDS = (0, 1, 7, 31, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1)


def _slots(state: GameState) -> dict[str, Any]:
    """The state's saved slots but its deals' source (an object of its own per match)."""
    saved = state.__getstate__()
    assert isinstance(saved, dict)
    return {k: v for k, v in saved.items() if k != "deal_source"}


def _source(state: GameState) -> tuple[Any, ...]:
    """What the state's deals' source deals from: the rules, the generator, the first
    dealer."""
    source = state.deal_source
    assert source is not None
    return type(source), source.rules, source.rng.state, source.first_dealer  # type: ignore[attr-defined]


def _same_match(a: GameState, b: GameState) -> None:
    assert type(a) is type(b)
    assert _slots(a) == _slots(b)
    assert _source(a) == _source(b)
    assert a.hands is not b.hands and a._history is not b._history


def _play_hand(state: GameState, rng: random.Random) -> list[Any]:
    """Play the state's hand at random to its end; the actions taken."""
    taken = []
    hand = state.hand_no
    while state.phase is not Phase.OVER and state.hand_no == hand:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply(action)
        taken.append(action)
    return taken


@pytest.mark.parametrize("ruleset", RULESETS)
def test_match_maker_makes_new_matchs_state(ruleset: str) -> None:
    rules = load_rules(ruleset)
    make = match_maker(rules)
    assert make is not None  # (every bundled ruleset has a starter)
    for seed in SEEDS:
        _same_match(make(seed), new_match(rules, seed))


@pytest.mark.parametrize("ruleset", ["thousand-2", "marianna", "mariazza", "belote",
                                     "schnapsen", "cinquecento"])
def test_match_maker_deals_the_same_later_hands(ruleset: str) -> None:
    rules = load_rules(ruleset)
    make = match_maker(rules)
    assert make is not None
    for seed in (3, 2**64 - 1):
        a, b = make(seed), new_match(rules, seed)
        rng = random.Random(seed)
        for _ in range(3):  # the same actions: the same next deals from both sources
            if a.phase is Phase.OVER:
                break
            taken = _play_hand(a, rng)
            for action in taken:
                b.apply(action)
            _same_match(a, b)


def test_match_maker_answers_each_rules_own() -> None:
    thousand, marianna = load_rules("thousand"), load_rules("marianna")
    make = match_maker(thousand)
    assert make is not None
    assert make(5).rules is thousand and match_maker(marianna) is not make
    with pytest.raises(TypeError, match="match_maker"):
        match_maker("thousand")  # type: ignore[arg-type]


def test_match_maker_asks_a_changed_dealing_class_again(monkeypatch: Any) -> None:
    rules = load_rules("thousand")
    make = match_maker(rules)
    assert make is not None
    kept = make(3)
    assert kept._lays and kept._deals  # the fresh deals offered, kept from the making
    assert kept._lays == new_match(rules, 3)._lays
    # the class changed after: each new match asks it again, as new_match does
    monkeypatch.setattr(Dealing, "dealer_lays", lambda self, st: ())
    monkeypatch.setattr(Dealing, "dealer_takes", lambda self, st: ())
    a, b = make(3), new_match(rules, 3)
    assert a._lays == () == b._lays and a._deals == () == b._deals
    _same_match(a, b)
    monkeypatch.undo()
    assert make(4)._lays == kept._lays


@pytest.mark.parametrize("ruleset", ["thousand-2", "thousand", "thousand-pl", "mariazza",
                                     "schnapsen", "marjapussi-de"])
def test_reset_state_as_new_match(ruleset: str) -> None:
    env = MariageGymEnv(ruleset, opponents="random", max_hands=1)
    for seed in (0, 9, 2**64 - 1):
        env.reset(seed=seed)
        state = env.state
        assert state is not None and env._match is not None
        # new_match's, with the opponents' actions to the learner's first decision
        fresh = new_match(env.rules, seed)
        for action in env._match.log:
            fresh.apply(action)
        _same_match(state, fresh)


@pytest.mark.parametrize("ruleset", ["thousand-2", "mariazza"])
def test_reset_refuses_seeds_as_before(ruleset: str) -> None:
    env = MariageGymEnv(ruleset, opponents="random")
    with pytest.raises(ValueError):
        env.reset(seed=2**64)  # (new_match's range: 0 to 2**64-1)
    with pytest.raises(TypeError):
        env.reset(seed=True)  # type: ignore[arg-type]
    with pytest.raises(Exception):  # noqa: B017 - Gymnasium's own error for a negative seed
        env.reset(seed=-1)
    env.reset(seed=2**64 - 1)  # the top of the range is a seed
    assert env.state is not None and env.np_random_seed == 2**64 - 1


@pytest.mark.parametrize("ruleset", ["thousand-2", "thousand", "marianna"])
def test_held_match_never_changed_by_later_resets(ruleset: str) -> None:
    env = MariageGymEnv(ruleset, opponents="random", max_hands=1)
    rng = random.Random(4)
    held: list[tuple[GameState, dict[str, Any], tuple[Any, ...]]] = []
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        state = env.state
        assert state is not None
        assert all(state is not kept for kept, _, _ in held)
        while True:
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            if terminated or truncated:
                break
        state = env.state  # (a hand held back dealt when read)
        assert state is not None
        if seed % 2 == 0:  # some held by the user, others dropped
            held.append((state, _slots(state), _source(state)))
    for state, slots, source in held:  # the later matches left each held one as it was
        assert _slots(state) == slots and _source(state) == source
