"""What the environments keep between steps to answer faster: a long listing's ids and
mask by its objects (``mariage.ai.listed``), and the engine's listing of a set being
picked one card per decision (OpenSpiel's and PettingZoo's ``_picks``). Kept answers must
always be those of the state as it is: these tests compare them, at every decision of
random play, with ids looked up by each action's hash from a listing made anew."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from mariage import load_rules
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace, Pick
from mariage.ai.listed import KeptListings
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Bid, Concede, Give, Pass
from mariage.engine.phase import Phase
from mariage.engine.state import GameState
from pzkit import live_turns

FACTORED = ["marjapussi-de", "thousand-2"]


def _by_hash(space: ActionSpace, state: GameState, picked: int) -> list[int]:
    """The legal ids of the seat to act from a listing made now, each looked up by hash;
    while a set is picked, the actions besides the sets (before the first pick) and a pick
    of every card that, with those picked, completes some legal set."""
    legal = state.legal_actions()
    if not (space.pick_size and state.phase == Phase.PASSING and state.pass_step >= 0):
        return sorted(space.ids[a] for a in legal)
    cards = 0
    out = []
    for a in legal:
        if type(a) is Give:
            if a.cards & picked == picked:
                cards |= a.cards
        elif not picked:
            out.append(space.ids[a])
    out += [space.ids[Pick(c)] for c in state.rules.cards_of(cards & ~picked)]
    return sorted(out)


def _ids_of(listing: list[object]) -> list[int]:
    """Ids for a test: a bid's value, 0 for anything else."""
    return [a.value if type(a) is Bid else 0 for a in listing]


def test_a_kept_listing_is_the_one_whose_actions_are_listed() -> None:
    """Two listings with the same first kind, last object and length but other actions
    between get their own ids, each time; a listing of equal actions made anew is
    answered by the kept one (it holds its objects, so their ``id()`` stays theirs)."""
    kept = KeptListings(200)
    last = Bid(150)
    low = [Pass(), Bid(100), Bid(110), last]
    high = [Pass(), Bid(120), Bid(130), last]
    for _ in range(3):
        assert kept.get(low, _ids_of)[1] == [0, 100, 110, 150]
        assert kept.get(high, _ids_of)[1] == [0, 120, 130, 150]
    anew = [Pass(), Bid(120), Bid(130), last]
    objects, ids, ordered, mask, tail = kept.get(anew, _ids_of)
    assert ids == [0, 120, 130, 150] and ordered == sorted(ids)
    assert np.flatnonzero(mask).tolist() == sorted(set(ids))
    assert tail == mask[ordered[0]:].tobytes()
    assert all(a is b for a, b in zip(objects, high, strict=True))  # (the kept ones)


def test_listings_differing_by_their_first_object_are_kept_side_by_side() -> None:
    """``by_objects``: two listings of the same length and last object whose first
    objects are of the same kind but differ (a lead's exchange of one card or another,
    then a close and a claim) are each looked up once, however they alternate, and each
    gets its own ids (fails if they are found by their first action's kind: each would
    push the other out)."""
    kept = KeptListings(200)
    looked: list[int] = []

    def ids_of(listing: list[object]) -> list[int]:
        looked.append(len(listing))
        return _ids_of(listing)

    last = Bid(150)
    one, two = [Bid(100), Pass(), last], [Bid(120), Pass(), last]
    for _ in range(3):
        assert kept.by_objects(one, ids_of)[1] == [100, 0, 150]
        assert kept.by_objects(two, ids_of)[1] == [120, 0, 150]
    assert looked == [3, 3]


def test_kept_listings_are_bounded() -> None:
    """At most ``bound`` listings are kept (the table is cleared when full)."""
    kept = KeptListings(10, bound=4)
    listings = [[Pass(), Bid(v), Bid(v + 1)] for v in range(9)]
    for listing in listings:
        kept.get(listing, _ids_of)
        assert len(kept._kept) <= 4


@pytest.mark.parametrize("name", ["thousand-2", "marjapussi-de", "belote-contree", "thousand"])
def test_openspiel_kept_listings_answer_as_the_state_is(name: str) -> None:
    """At every decision of random sampled-chance games, some legal actions asked first
    and some not, some decisions made on a clone, a seat about to pick a set sometimes
    concedes instead (Thousand for two) after its listing was kept: the legal ids of
    OpenSpiel (Python and pyspiel's C++ road) are those looked up by hash from a listing
    made anew, and a listing kept is the engine's listing now."""
    game = pyspiel.load_game(openspiel_game.game_name(name),
                             {"hands": 3, "chance": "sampled", "seed": 4})
    space = ActionSpace(load_rules(name))
    rng = random.Random(8)
    conceded = picks = 0
    for _ in range(8):
        state = game.new_initial_state()
        while not state.is_terminal():
            want = _by_hash(space, state.gs, state.picked)
            # a listing kept is the one the engine makes now (not one of an earlier set)
            assert state._picks is None or state._picks == state.gs.legal_actions()
            if rng.random() < 0.7:
                assert state.legal_actions() == want
            assert pyspiel.State.legal_actions(state) == want
            concede = [i for i in want if type(space.action(i)) is Concede]
            action = concede[0] if concede and rng.random() < 0.5 else rng.choice(want)
            conceded += action in concede
            picks += type(space.action(action)) is Pick
            if rng.random() < 0.1:
                state = state.clone()
            state.apply_action(action)
    assert picks or not space.pick_size
    assert conceded or name != "thousand-2"


def _checked_choice(env: MariageEnv, rng: random.Random) -> int:
    """The action a random agent takes, once the mask of the agent to act (in its info
    and its observation) and the listing kept are checked against the state now; a
    concession offered is taken half of the time."""
    obs, _, _, _, info = env.last()
    assert env.state_ is not None and obs is not None
    want = _by_hash(env.space, env.state_, env.picked)
    assert env._picks is None or env._picks == env.state_.legal_actions()
    assert np.flatnonzero(info["action_mask"]).tolist() == want
    assert np.flatnonzero(obs["action_mask"]).tolist() == want
    concede = [i for i in want if type(env.space.action(i)) is Concede]
    return concede[0] if concede and rng.random() < 0.5 else rng.choice(want)


@pytest.mark.parametrize("name", FACTORED)
def test_pettingzoo_masks_answer_as_the_state_is(name: str) -> None:
    """The mask of the agent to act, in its info and its observation, is the one looked up
    by hash at every step of random matches where a seat about to pick a set sometimes
    concedes after its listing was kept (Thousand for two); a listing kept is the
    engine's listing now."""
    env = MariageEnv(name, max_hands=3)
    rng = random.Random(2)
    conceded = 0
    for _ in live_turns(env, range(6)):
        action = _checked_choice(env, rng)
        conceded += type(env.space.action(action)) is Concede
        env.step(action)
    assert conceded or name != "thousand-2"
