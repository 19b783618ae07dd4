"""The fast paths of the AI environments against their plain forms, for every ruleset.

PettingZoo's observations are made when first read (:mod:`mariage.ai.lazyobs`), from the
live state or from a snapshot taken before a step changes it; masks come from a table of
card ids; OpenSpiel keeps its current player and the deal's snapshot. Each is checked
against the same thing built from scratch, after every step of random play.
"""

from __future__ import annotations

import copy
import pickle
import random
from itertools import repeat

import numpy as np
import pyspiel
import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai import encoding, openspiel_game, openspiel_observer
from mariage.ai.encoding import ActionSpace, Encoder, Pick
from mariage.ai.lazyobs import LazyObservation
from mariage.ai.listed import KeptListings
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.actions import Action, Give, Play
from mariage.engine.dispatch import play_split_of
from mariage.engine.fastpath import cards_of
from mariage.engine.phase import Phase
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterator

RULESETS = list_rulesets()


def _scratch(env: MariageEnv, agent: str) -> np.ndarray:
    """The agent's vector by an encoder that has kept nothing from earlier calls."""
    assert env.state_ is not None
    return Encoder(env.rules).vector(env.state_, env.possible_agents.index(agent), env.picked)


def _mask_by_hash(space: ActionSpace, env: MariageEnv) -> np.ndarray:
    """The mask of the seat to act with every id looked up by the action itself."""
    state = env.state_
    assert state is not None
    out = np.zeros(space.size, np.int8)
    if state.phase in (Phase.DEAL, Phase.OVER):
        return out
    if env.picked or space._picking(state):
        out[space.legal_ids(state, picked=env.picked)] = 1
    else:
        out[[space.ids[a] for a in state.legal_actions()]] = 1
    return out


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_observations_read_late_equal_the_vectors_built_when_observed(
        name: str, seed: int) -> None:
    """Every agent observed after every step; some read at once, some one, two or more
    steps later (after the state moved on), some never: each read equals the vector a
    fresh encoder built when it was observed; masks equal those looked up by hash."""
    env = MariageEnv(name, max_hands=3)
    env.reset(seed=seed)
    rng = random.Random(seed)
    waiting: list[tuple[int, int, LazyObservation, np.ndarray]] = []
    step = late = 0
    for agent in env.agent_iter(3000):
        for other in env.possible_agents:
            if other in env.agents:
                obs = env.observe(other)
                assert isinstance(obs, LazyObservation)
                waiting.append((step + rng.randrange(4), step, obs, _scratch(env, other)))
        due = [w for w in waiting if w[0] <= step]
        waiting = [w for w in waiting if w[0] > step]
        for _, seen, obs, expected in due:
            assert np.array_equal(obs["observation"], expected)
            late += seen < step  # read after the state changed
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert np.array_equal(info["action_mask"], _mask_by_hash(env.space, env))
        assert obs["action_mask"] is info["action_mask"]
        legal = np.flatnonzero(obs["action_mask"])
        if rng.random() < 0.5:  # some read the vector before acting, some never do
            assert np.array_equal(obs["observation"], _scratch(env, agent))
        env.step(int(legal[rng.randrange(len(legal))]))
        step += 1
    for _, _, obs, expected in waiting:
        assert np.array_equal(obs["observation"], expected)
    assert step > 5 and late > step


def test_an_observation_is_a_dict_to_every_reader() -> None:
    """Copies, merges, pickles, comparisons and views of an unread observation hold the
    vector, as a plain dict of the same items would."""
    env = MariageEnv("schnapsen")
    env.reset(seed=5)
    agent = env.agent_selection
    expected = _scratch(env, agent)
    mask = env.infos[agent]["action_mask"]
    plain = {"observation": expected, "action_mask": mask}

    def fresh() -> LazyObservation:
        obs = env.observe(agent)
        assert isinstance(obs, LazyObservation) and obs.unread
        return obs

    def same(got: object) -> None:
        assert isinstance(got, dict) and list(got) == ["observation", "action_mask"]
        assert np.array_equal(got["observation"], expected)
        assert got["action_mask"] is mask or np.array_equal(got["action_mask"], mask)

    obs = fresh()
    assert obs["action_mask"] is mask and obs.unread  # the mask alone leaves it unread
    for reader in (dict, lambda o: {**o}, lambda o: dict(**o), copy.copy, copy.deepcopy,
                   lambda o: pickle.loads(pickle.dumps(o)), lambda o: o | {},
                   lambda o: {} | o, lambda o: dict(o.items()), lambda o: o.copy(),
                   lambda o: dict(zip(list(o), o.values(), strict=True)),
                   lambda o: {k: o.get(k) for k in ("observation", "action_mask")}):
        same(reader(fresh()))
    merged: dict[str, object] = {}
    merged.update(fresh())
    same(merged)
    assert repr(fresh()).startswith("{'observation': array(")
    obs = fresh()
    assert obs.keys() == plain.keys() and len(obs) == 2 and "observation" in obs
    for probe in (len, lambda o: "observation" in o, lambda o: o.keys(), reversed):
        obs = fresh()  # each of these reads it: the vector, then the mask, as a plain dict
        probe(obs)
        assert not obs.unread and list(dict.keys(obs)) == ["observation", "action_mask"]
        assert np.array_equal(dict.__getitem__(obs, "observation"), expected)
    assert list(reversed(fresh())) == ["action_mask", "observation"]
    obs = fresh()
    with pytest.raises(KeyError, match="other"):
        obs["other"]
    assert obs.unread and obs.get("other", 3) == 3
    assert all(np.array_equal(a, b) for a, b in zip(obs.values(), plain.values(),
                                                       strict=True))
    obs = fresh()
    obs["extra"] = 1  # a change makes the vector first, and keeps it
    assert np.array_equal(obs["observation"], expected) and obs["extra"] == 1
    obs = fresh()
    assert np.array_equal(obs.pop("observation"), expected) and list(obs) == ["action_mask"]


def test_a_reset_leaves_the_last_matchs_observations_as_they_were() -> None:
    env = MariageEnv("marianna")
    env.reset(seed=1)
    agent = env.agent_selection
    obs, expected = env.observe(agent), _scratch(env, agent)
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.infos[env.agent_selection]["action_mask"])[0]))
    assert np.array_equal(obs["observation"], expected)


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_agent_iter_and_last_answer_as_pettingzoos_own(name: str, seed: int) -> None:
    """The environment's own ``agent_iter`` and ``last`` give, after every step of random
    play, what PettingZoo's ``AECIterator`` and ``AECEnv.last`` give on a twin
    environment (same seed, same actions): agents, rewards, ends, infos and masks."""
    ours, twin = MariageEnv(name, max_hands=2), MariageEnv(name, max_hands=2)
    ours.reset(seed=seed)
    twin.reset(seed=seed)
    rng = random.Random(seed)
    limit = 40 + 7 * seed  # the iteration stops at max_iter (or once no agent is left)
    theirs = AECIterator(twin, limit)
    steps = 0
    for agent in ours.agent_iter(limit):
        assert agent == next(theirs)
        obs, reward, terminated, truncated, info = ours.last()
        t_obs, t_reward, t_terminated, t_truncated, t_info = AECEnv.last(twin)
        assert (reward, terminated, truncated) == (t_reward, t_terminated, t_truncated)
        assert info.keys() == t_info.keys()
        assert np.array_equal(info["action_mask"], t_info["action_mask"])
        assert np.array_equal(obs["action_mask"], t_obs["action_mask"])
        if rng.random() < 0.3:
            assert np.array_equal(obs["observation"], t_obs["observation"])
        assert ours.last(observe=False)[0] is None
        if terminated or truncated:
            ours.step(None)
            twin.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        ours.step(action)
        twin.step(action)
        steps += 1
    with pytest.raises(StopIteration):
        next(theirs)
    assert steps > 5 and ours.agents == twin.agents


@pytest.mark.parametrize("name", RULESETS)
def test_openspiel_keeps_what_it_would_recompute(name: str) -> None:
    """``legal_actions`` and ``is_chance_node`` answer as pyspiel's own (C++) methods; the
    current player kept after each action is the one the engine state names; the
    chance outcomes are the cards left, equally likely; the information-state tensor's
    deal part is the vector each player had at the deal; the cards each player came to
    see by a decision (worked out only where a hand or shown cards gained one) are what
    the full comparison of before and after gives."""
    assert int(pyspiel.PlayerId.CHANCE) == openspiel_game._CHANCE
    assert int(pyspiel.PlayerId.TERMINAL) == openspiel_game._TERMINAL
    game = pyspiel.load_game(openspiel_game.game_name(name))
    rules = load_rules(name)
    encoder = Encoder(rules)
    rng = random.Random(7)
    for _ in range(2):
        state = game.new_initial_state()
        at_deal: list[np.ndarray] = []
        while not state.is_terminal():
            gs = state.gs
            # the Python shortcuts answer as pyspiel's C++ State does
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            for player in (None, *range(rules.nseats)):
                args = () if player is None else (player,)
                assert state.legal_actions(*args) == pyspiel.State.legal_actions(state, *args)
            if not state.is_chance_node():
                with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
                    pyspiel.State.legal_actions(state, -1)
                with pytest.raises(pyspiel.SpielError, match="pseudo-player"):
                    state.legal_actions(-1)
            if state.is_chance_node():
                assert state.current_player() == pyspiel.PlayerId.CHANCE
                outcomes = state.chance_outcomes()
                if state._kind == "card":
                    assert [c for c, _ in outcomes] == state.rest
                    # the game's rows of (card, probability) give what zipping the cards
                    # not yet placed with 1 / their number gives
                    left = sorted(set(range(rules.ncards)) - set(state.deck))
                    assert outcomes == list(zip(left, repeat(1.0 / len(left)), strict=False))
                assert sum(p for _, p in outcomes) == pytest.approx(1.0)
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                gs = state.gs
                if gs is not None and not state.deck and gs.phase != Phase.DEAL \
                        and len(gs.actions) == 0:
                    at_deal = [encoder.vector(gs, p) for p in range(rules.nseats)]
                continue
            assert gs is not None and state.current_player() == gs.to_act
            assert state.chance_outcomes() == []  # (no chance node: no outcome)
            for p in range(rules.nseats):
                assert np.array_equal(state.dealt_vector(p), at_deal[p])
            legal = state.legal_actions()
            own, known = gs.hands[:], gs.known[:]
            state.apply_action(legal[rng.randrange(len(legal))])
            while state._kind == "draw":  # the cards it drew placed first (fortieth session)
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            # what each player came to see, computed in full, as the state recorded it
            # (worked out when first asked, as the information state is)
            steps = openspiel_observer.seen_steps(state.steps_all)
            _, _, learned, drawn = steps[-1] if steps else (0, 0, (), ())
            if gs.phase not in (Phase.DEAL, Phase.OVER):
                seen = openspiel_observer.seen_cards
                assert list(learned) == [seen(gs.hands, gs.known, p) & ~seen(own, known, p)
                                         for p in range(rules.nseats)]
                assert list(drawn) == [h & ~o for h, o in zip(gs.hands, own, strict=True)]
        assert state.current_player() == pyspiel.PlayerId.TERMINAL
        assert state.legal_actions() == pyspiel.State.legal_actions(state) == []
        for p in range(rules.nseats):  # (the shortcut tells the end by the player alone)
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p) == []
        assert state.chance_outcomes() == []
        assert state.is_chance_node() is pyspiel.State.is_chance_node(state) is False


@pytest.mark.parametrize("name", ["marianna", "schnapsen", "thousand"])
def test_one_encoder_on_states_that_part_ways(name: str) -> None:
    """An encoder asked about two copies of a match that went different ways, in turn
    (as a search does), and about a state whose last trick was taken back and played
    otherwise, gives what a fresh encoder gives."""
    rules = load_rules(name)
    encoder = Encoder(rules)
    rng = random.Random(3)
    first = new_match(rules, 9)
    for _ in range(3 * rules.nseats):
        first.apply(rng.choice(list(first.legal_actions())))
    second = first.clone()
    second.enable_undo()
    checked = 0
    for _ in range(8 * rules.nseats):
        for state in (first, second):
            if state.terminal:
                continue
            ended = len(state.tricks)
            state.apply(rng.choice(list(state.legal_actions())))
            ended = len(state.tricks) > ended
            for seat in range(rules.nseats):
                assert np.array_equal(encoder.vector(state, seat),
                                      Encoder(rules).vector(state, seat))
            if state is second and ended and not second.terminal:
                # the card that ended the trick taken back, another played instead
                second.undo()
                second.apply(rng.choice(list(second.legal_actions())))
            for seat in range(rules.nseats):
                assert np.array_equal(encoder.vector(state, seat),
                                      Encoder(rules).vector(state, seat))
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("name", ["schnapsen", "belote-coinche", "thousand"])
def test_ids_kept_by_the_action_object_stay_those_of_the_hash(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Masks and legal ids that look the engine's action objects up by the object (a
    few kept at a time here, so that the table fills and is cleared often) equal those
    looked up by the action's hash, on two states played in turn (new objects and
    reused ones)."""
    monkeypatch.setattr(encoding, "_KEPT_OBJECTS", 3)
    rules = load_rules(name)
    space = ActionSpace(rules)
    rng = random.Random(7)
    states = [new_match(rules, 1), new_match(rules, 2)]
    others = 0
    for _ in range(150):
        for state in states:
            if state.terminal:
                continue
            legal = state.legal_actions()
            by_hash = sorted(space.ids[a] for a in legal)
            others += sum(type(a) is not Play for a in legal)
            assert space.legal_ids(state) == by_hash
            assert np.flatnonzero(space.mask(state)).tolist() == by_hash
            assert len(space._by_object) <= 3
            state.apply(legal[rng.randrange(len(legal))])
    assert others > 20


def test_what_is_kept_by_id_is_never_pickled() -> None:
    """The action objects kept by ``id()`` hold only in the process that kept them
    (another object there may have the same ``id()``): an unpickled space starts with
    none kept, and its ids and masks still equal those looked up by hash."""
    rules = load_rules("thousand")
    space = ActionSpace(rules)
    state = new_match(rules, 3)
    rng = random.Random(2)
    while state.phase != Phase.PLAY:  # the auction's objects kept
        space.legal_ids(state)
        space.mask(state)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert space._by_object
    again = pickle.loads(pickle.dumps(space))
    assert not again._by_object and not again._kept_alive and not again._kept_ids
    for _ in range(30):
        legal = state.legal_actions()
        by_hash = sorted(again.ids[a] for a in legal)
        assert again.legal_ids(state) == by_hash
        assert np.flatnonzero(again.mask(state)).tolist() == by_hash
        state.apply(legal[rng.randrange(len(legal))])


def test_actions_without_fields_are_looked_up_by_their_class() -> None:
    """Mariaggia's engine lists a new ``CallOut()`` each time: it is found by its class
    (one id for all), and no object of it is kept."""
    rules = load_rules("mariaggia")
    space = ActionSpace(rules)
    state = new_match(rules, 3)
    callouts = [a for a in state.legal_actions() if type(a).__name__ == "CallOut"]
    assert callouts and space.mask(state)[space.ids[callouts[0]]] == 1
    assert space.legal_ids(state) == sorted(space.ids[a] for a in state.legal_actions())
    assert not space._by_object


def _first_picks_by_hash(space: ActionSpace, legal: list[Action]) -> list[int]:
    """The ids of a seat about to pick a set, from the engine's listing looked up by hash:
    the actions besides the sets, and a pick of every card of some set."""
    cards = 0
    out = []
    for a in legal:
        if type(a) is Give:
            cards |= a.cards
        else:
            out.append(space.ids[a])
    out += [space.ids[Pick(c)] for c in space.rules.cards_of(cards)]
    return sorted(out)


@pytest.mark.parametrize("name", RULESETS)
def test_ids_from_the_engines_bits_equal_the_listed_actions(name: str) -> None:
    """In the play phase the ids and masks come from the engine's split listing (the bits
    of the cards, the other actions apart: ``play_split_of``), not from an action object
    per card. At every decision of random play (3 matches, every phase), that listing
    holds what ``legal_actions`` lists, and the ids, the mask (a fresh, writable int8
    array) and the ids of the seats not to act equal those looked up by hash; a pickled
    space answers the same."""
    rules = load_rules(name)
    space = ActionSpace(rules)
    rng = random.Random(11)
    plays = 0
    for seed in range(3):
        state = new_match(rules, seed)
        while not state.terminal and state.hand_no <= 2:
            legal = list(state.legal_actions())
            by_hash = sorted(space.ids[a] for a in legal) if not space._picking(state) \
                else _first_picks_by_hash(space, legal)
            if state.phase == Phase.PLAY:
                cards, others = play_split_of(state.mech, rules)(state, state.to_act)
                assert [a for a in legal if type(a) is not Play] == others
                assert [a for a in legal if type(a) is Play] == cards_of(rules, cards)
                plays += 1
            assert space.legal_ids(state) == by_hash
            mask = space.mask(state)
            assert mask.dtype == np.int8 and mask.shape == (space.size,)
            assert mask.flags.writeable and mask is not space.mask(state)
            assert np.flatnonzero(mask).tolist() == by_hash
            for seat in range(rules.nseats):
                if seat != state.to_act:
                    assert space.legal_ids(state, seat) == sorted(
                        space.ids[a] for a in state.legal_actions(seat))
                    assert np.flatnonzero(space.mask(state, seat)).tolist() == \
                        space.legal_ids(state, seat)
            state.apply(legal[rng.randrange(len(legal))])
    assert plays > 20
    # pickled (as OpenSpiel's states are), the space makes its generated functions again
    again = pickle.loads(pickle.dumps(space))
    state = new_match(rules, 9)
    assert again.legal_ids(state) == space.legal_ids(state)
    assert np.array_equal(again.mask(state), space.mask(state))


def test_ids_from_bits_follow_a_numbering_of_any_order() -> None:
    """Where the cards' ids do not follow one another (a numbering of another order),
    the ids from the engine's bits are still sorted and the mask set item by item gives
    the same legal ids as the hash."""
    rules = load_rules("schnapsen")
    space = ActionSpace(rules)
    order = list(reversed(range(rules.ncards)))
    space._play_ids = [space._play_ids[c] for c in order]
    space.ids = {**space.ids, **{Play(c): space._play_ids[c] for c in range(rules.ncards)}}
    space._listed = KeptListings(space.size)  # (its own store: not the numbering's)
    space._card_ids = encoding._id_lister(tuple(space._play_ids))
    space._cards_sorted = False
    space._mask_bytes = None
    state = new_match(rules, 5)
    rng = random.Random(3)
    for _ in range(12):
        legal = list(state.legal_actions())
        by_hash = sorted(space.ids[a] for a in legal)
        assert space.legal_ids(state) == by_hash
        assert np.flatnonzero(space.mask(state)).tolist() == by_hash
        state.apply(legal[rng.randrange(len(legal))])
