"""The store of kept listings of an action numbering (``mariage.ai.numbering``,
``mariage.ai.listed.KeptListings``): one per numbering, read and filled by every action
space of it, so by the PettingZoo, Gymnasium and OpenSpiel environments of a ruleset
alike (an environment made anew finds what the others kept), none shared across
numberings, bounded; a listing is found by its first action's kind, its last object and
its length, and is the one kept only if it equals the kept list; a mask handed out is
the caller's own. PettingZoo reads a lead's other actions (questions, calls) from it,
with the bytes of their mask from their lowest id, and the masks outside the play phase
(``ActionSpace.listed_mask``)."""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable

import numpy as np
import pyspiel
import pytest
from mariage import load_rules
from mariage.ai import numbering as numbering_module
from mariage.ai import openspiel_game
from mariage.ai.encoding import ActionSpace
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.numbering import LISTINGS_KEPT, NUMBERINGS_KEPT, numbering
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Action, Bid, Pass, Play
from mariage.engine.mechanisms.questions import _asked
from mariage.engine.phase import Phase

# (questions at a lead and an auction; declarations made anew and a talon; belote's
# announcements at a lead; a closing offered at a lead)
RULESETS = ["marjapussi-de", "thousand", "thousand-2", "belote-coinche", "sixty-six"]


def _legal_ids(env: MariageEnv) -> list[int]:
    """The legal ids of the agent to act, as the action space lists them."""
    assert env.state_ is not None
    return env.space.legal_ids(env.state_, picked=env.picked, listing=env._picks)


def _played(env: MariageEnv, seed: int, rng: random.Random) -> list[tuple[str, list[int]]]:
    """A match of random play: per step the phase and the ids the mask has."""
    out: list[tuple[str, list[int]]] = []
    env.reset(seed=seed)
    for _agent in env.agent_iter(600):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert obs is not None and env.state_ is not None
        ids = np.flatnonzero(obs["action_mask"]).tolist()
        out.append((env.state_.phase.name, ids))
        env.step(ids[rng.randrange(len(ids))])
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mask_is_the_legal_ids_with_lists_kept(ruleset: str) -> None:
    """In random play of two PettingZoo environments and a Gymnasium one of the ruleset
    at once (sharing the store of the numbering) and one of another ruleset, every mask
    is the action space's legal ids, a new writeable array (the agent writing all over
    it changes no later mask of any environment)."""
    other = "thousand" if ruleset != "thousand" else "marjapussi-de"
    envs = [MariageEnv(ruleset, max_hands=2), MariageEnv(ruleset, max_hands=2),
            MariageEnv(other, max_hands=2)]
    gym = MariageGymEnv(ruleset, opponents="random", max_hands=2)
    rng = random.Random(ruleset)
    for seed in range(3):
        for env in envs:
            env.reset(seed=seed)
        obs, _ = gym.reset(seed=seed)
        over = False
        while any(env.agents for env in envs) or not over:
            for env in envs:
                if not env.agents:
                    continue
                pz_obs, _, terminated, truncated, info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                assert pz_obs is not None
                mask = pz_obs["action_mask"]
                assert mask is info["action_mask"] and mask.flags.writeable
                ids = np.flatnonzero(mask).tolist()
                assert ids == _legal_ids(env)
                action = ids[rng.randrange(len(ids))]
                mask[:] = 1  # (the agent's own array: nothing kept changes)
                env.step(action)
            if not over:
                mask = obs["action_mask"]
                state = gym.state
                assert state is not None and mask.flags.writeable
                ids = np.flatnonzero(mask).tolist()
                assert ids == gym.space.legal_ids(state, None, gym.picked,
                                                gym._listing or None)
                action = ids[rng.randrange(len(ids))]
                mask[:] = 1
                obs, _, terminated, truncated, _ = gym.step(action)
                over = terminated or truncated


def _registered(ruleset: str, options: dict[str, object]) -> str:
    """The name of an OpenSpiel game of ``ruleset`` with ``options``, registered now
    (once a process)."""
    name = f"mariage_test_{ruleset}_" + "_".join(f"{k}{v}" for k, v in options.items())
    if name not in pyspiel.registered_names():
        openspiel_game.register(ruleset, dict(options), name=name)
    return name


def test_the_spaces_of_a_numbering_share_one_store() -> None:
    """The PettingZoo, Gymnasium and OpenSpiel environments of a ruleset read the store
    of its numbering; those of another ruleset, or of the same ruleset with another
    option (another ladder of bids), have their own."""
    rules = load_rules("thousand")
    store = numbering(rules).listed
    spaces = [MariageEnv("thousand").space, MariageEnv("thousand").space,
              MariageGymEnv("thousand").space, ActionSpace(rules)]
    assert all(space._listed is store for space in spaces)
    # an OpenSpiel game's space is made when the game is registered (the bundled ones
    # at import, whose numbering may have been dropped since): a game registered now
    game = pyspiel.load_game(_registered("thousand", {"bid_min": 110}))
    space = game.space  # type: ignore[attr-defined]
    assert space._listed is numbering(space.rules).listed
    assert ActionSpace(space.rules)._listed is space._listed is not store
    others = [MariageEnv("thousand-2").space,
              MariageEnv("thousand", {"bid_min": 120}).space]
    assert others[0]._listed is not store and others[1]._listed is not store
    assert others[0]._listed is not others[1]._listed


def _lookups(env: MariageEnv, seeds: range) -> int:
    """How many listings of three or more actions outside the play phase or besides
    the cards in it ``env`` looks up, in random matches of ``seeds``."""
    space = env.space
    looked = 0

    def counted(lookup: Callable[[list[Action]], list[int]]
                ) -> Callable[[list[Action]], list[int]]:
        def ids(listing: list[Action]) -> list[int]:
            nonlocal looked
            looked += len(listing) > 2
            return lookup(listing)
        return ids

    space._ids_at_once = counted(space._ids_at_once)  # type: ignore[method-assign]
    for seed in seeds:
        _played(env, seed, random.Random(seed))
    return looked


@pytest.mark.parametrize("ruleset", ["thousand", "marjapussi-de"])
def test_an_environment_made_anew_finds_what_others_kept(ruleset: str) -> None:
    """A PettingZoo environment made anew, playing the matches another environment of
    the ruleset played, looks up few of the listings the first looked up (an
    auction's ladder, a lead's questions: the same objects, found in the numbering's
    store); where each environment had a store of its own, it would look up as many.
    (An auction's masks and answers are made from their phase's window, from the
    ladder's ids looked up once: the first environment looks up 3 to 5 listings, 14 to
    17 before the windows.)"""
    numbering(load_rules(ruleset)).listed._kept.clear()
    first = _lookups(MariageEnv(ruleset, max_hands=2), range(3))
    second = _lookups(MariageEnv(ruleset, max_hands=2), range(3))
    assert first >= 3 and second * 4 < first


@pytest.mark.parametrize("ruleset", ["thousand", "marjapussi-de"])
def test_a_kept_list_of_the_same_key_but_other_actions_is_not_taken(ruleset: str) -> None:
    """Every listing kept in the numbering's store replaced by one of the same key
    (first kind, last object, length) but of other objects, with a mask of every id: a
    match played again with the same ids gets the masks it got the first time (the kept
    list is compared, not trusted)."""
    env = MariageEnv(ruleset, max_hands=2)
    store = numbering(env.rules).listed
    store._kept.clear()
    seen = _played(env, 4, random.Random(4))
    assert {phase for phase, _ in seen} >= {"AUCTION", "PLAY"}
    everything = np.ones(env.space.size, np.int8)
    everything.flags.writeable = False
    every_id = list(range(env.space.size))
    assert len(store._kept) >= 3  # (the ladder, raises; the bids are made from windows)
    for key, (listing, *_) in list(store._kept.items()):
        store._kept[key] = ([object()] * len(listing), every_id,  # type: ignore[list-item]
                            every_id, everything, bytes([1] * env.space.size))
    again = _played(MariageEnv(ruleset, max_hands=2), 4, random.Random(4))
    assert again == seen


def test_questions_of_the_same_first_and_last_are_told_apart() -> None:
    """Two lead listings of questions with the same first and last question and length
    but another in the middle: each gets its own ids and the bytes of its mask from
    its lowest id."""
    env = MariageEnv("marjapussi-de")
    _, pair, halves = _asked(len(env.rules.suits))
    one, two = [pair, halves[0], halves[3]], [pair, halves[1], halves[3]]
    space, cut = env.space, env._cut
    for listing in (one, two, one):
        _, ids, low, tail = env._keep_others(listing)
        assert ids == [space.ids[a] for a in listing]
        assert tail is not None and low == min(ids) >= cut
        assert len(tail) == space.size - low
        assert [low + i for i, b in enumerate(tail) if b] == sorted(ids)


def test_a_list_holding_a_card_is_set_id_by_id() -> None:
    """Where some id of the list is not past the cards' ids, no bytes are used for its
    mask (its ids are set one by one)."""
    env = MariageEnv("marjapussi-de")
    _, pair, halves = _asked(len(env.rules.suits))
    ids_of = env.space.ids.__getitem__
    for listing in ([Play(3), pair], [pair, Play(3), halves[0]]):
        _, ids, _, tail = env._keep_others(listing)
        assert tail is None and ids == [*map(ids_of, listing)]


def test_an_illegal_bid_is_refused_where_the_listing_was_kept() -> None:
    """In an auction whose listings were kept (a second match of the same deals), an
    id the mask refuses is refused by the step, and the match is unchanged; an id the
    agent set to 0 in its own mask too (the step checks the mask it handed out)."""
    env = MariageEnv("thousand", max_hands=1)
    refused = 0
    for seed in (0, 1, 0, 1):
        rng = random.Random(seed)
        env.reset(seed=seed)
        while env.agents:
            state = env.state_
            assert state is not None
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert obs is not None
            mask = obs["action_mask"]
            ids = np.flatnonzero(mask).tolist()
            if state.phase == Phase.AUCTION and len(ids) > 1 and not mask.all():
                before = (len(state.history), env.agent_selection, bytes(mask))
                for illegal in (int(np.flatnonzero(mask == 0)[-1]), ids[-1]):
                    mask[ids[-1]] = 0
                    with pytest.raises(ValueError, match="is not legal"):
                        env.step(illegal)
                    mask[ids[-1]] = 1
                    assert (len(state.history), env.agent_selection, bytes(mask)) == before
                    refused += 1
            env.step(ids[rng.randrange(len(ids))])
    assert refused >= 8


def test_the_store_of_a_numbering_is_bounded() -> None:
    """A numbering's store keeps at most ``LISTINGS_KEPT`` listings (cleared when full),
    and the answers stay those of the listing asked."""
    rules = load_rules("thousand", {"bid_min": 60})  # (a numbering of its own here)
    space = ActionSpace(rules)
    store = numbering(rules).listed
    bids = [a for a in space.actions if type(a) is Bid]
    for k in range(LISTINGS_KEPT + 40):
        listing: list[Action] = [Pass(), Bid(bids[k % 8].value), Bid(bids[8].value)]
        ids = store.get(listing, space._ids_at_once)[1]
        assert ids == [space.ids[a] for a in listing]
        assert 0 < len(store._kept) <= LISTINGS_KEPT


def test_numberings_kept_are_bounded() -> None:
    """Numberings (with their stores) are kept for at most ``NUMBERINGS_KEPT`` rules: a
    new one drops the one used longest ago, not those used since (nor all of them)."""
    kept = numbering_module._KEPT
    saved = dict(kept)
    try:
        kept.clear()
        used = numbering(load_rules("thousand"))  # the first made
        schnapsen = load_rules("schnapsen")
        dummy = numbering(schnapsen)
        for k in range(NUMBERINGS_KEPT - 2):
            kept[-k - 1] = (schnapsen, dummy)
        assert numbering(load_rules("thousand")) is used  # (used again: now the last)
        MariageEnv("marianna")  # a new numbering: Schnapsen's, used longest ago, goes
        assert len(kept) == NUMBERINGS_KEPT
        assert id(schnapsen) not in kept and numbering(load_rules("thousand")) is used
    finally:
        kept.clear()
        kept.update(saved)


def test_ids_are_read_only_and_shared() -> None:
    """A space's ``ids`` is a read-only view of the numbering's dict: writing in it
    raises (so no environment's change can give another wrong ids, nor fill the shared
    store with them), and a pickled space comes back with the same view."""
    env, other = MariageEnv("thousand"), MariageEnv("thousand")
    action = env.space.actions[-1]
    with pytest.raises(TypeError):
        env.space.ids[action] = 0  # type: ignore[index]
    with pytest.raises(AttributeError):
        env.space.ids.clear()  # type: ignore[attr-defined]
    assert other.space.ids[action] == env.space.size - 1
    assert env.space.ids == numbering(env.rules).ids
    back = pickle.loads(pickle.dumps(env.space))
    assert back.ids == env.space.ids and back._listed is numbering(back.rules).listed
    with pytest.raises(TypeError):
        back.ids[action] = 0
