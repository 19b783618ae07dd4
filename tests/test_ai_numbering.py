"""What an action space takes from the numbering listed once per rules
(``mariage.ai.numbering.numbering``), and the masks it makes over bytes: each space and
each mask must be what one made from nothing would be, and a space's dicts and a mask's
memory its own."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.encoding import ActionSpace
from mariage.ai.layout import action_list
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.rules import Rules


def _plain(rules: Rules) -> tuple[tuple[object, ...], dict[object, int], dict[type, int]]:
    """The actions, ids and ids of the kinds without fields, listed anew."""
    actions = action_list(rules)
    return (actions, {a: i for i, a in enumerate(actions)},
            {type(a): i for i, a in enumerate(actions)
             if dataclasses.is_dataclass(a) and not dataclasses.fields(a)})


def test_spaces_number_as_listed_anew() -> None:
    """Spaces made in turn for every ruleset, and for rules that differ by an option
    only (Thousand's lowest bid: another ladder), each twice, number their actions as a
    list made anew: a numbering kept for other rules (by name, say, not by the rules
    object) fails here."""
    rules_list = [load_rules(name) for name in list_rulesets()]
    rules_list += [load_rules("thousand", {"bid_min": 60}),
                   load_rules("thousand", {"bid_min": 120})]
    assert action_list(rules_list[-1]) != action_list(rules_list[-2])
    for _ in range(2):
        for rules in rules_list:
            space = ActionSpace(rules)
            actions, ids, by_class = _plain(rules)
            assert space.actions == actions and space.size == len(actions)
            assert space.ids == ids and space._by_class == by_class
            assert space._play_ids == [ids[a] for a in actions
                                       if type(a).__name__ == "Play"]


def test_a_space_has_its_own_dicts_and_reads_ids_only() -> None:
    """A space's ``ids`` is a read-only view of the numbering's dict (a write raises:
    fails if a space could change the ids every space of the rules reads); its other
    dicts are its own (changing one space's, which nothing in the package does, leaves
    the next space's as listed)."""
    rules = load_rules("marianna")
    first = ActionSpace(rules)
    second = ActionSpace(rules)
    assert first._by_class is not second._by_class
    action = first.actions[0]
    with pytest.raises(TypeError):
        first.ids[action] = 99  # type: ignore[index]
    first._by_class.clear()
    assert ActionSpace(rules).ids[action] == 0 == second.ids[action]
    assert ActionSpace(rules)._by_class == _plain(rules)[2]


@pytest.mark.parametrize("name", ["marjapussi-de", "thousand-2", "belote", "marianna"])
def test_masks_are_new_arrays(name: str) -> None:
    """Every mask (the play phase's and the picks' over bytes, the others) is a new
    writeable int8 array of its own memory: the masks of a whole random match, kept,
    still read as they did when made (fails if a mask's bytes were reused by a later
    one), and equal the legal ids."""
    env = MariageEnv(name, max_hands=2)
    rng = random.Random(4)
    kept: list[tuple[np.ndarray, list[int]]] = []
    for seed in range(2):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
                continue
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (env.space.size,)
            assert mask.flags.writeable and mask.flags.c_contiguous
            legal = np.flatnonzero(mask).tolist()
            assert env.state_ is not None
            assert legal == env.space.legal_ids(env.state_, None, env.picked, env._picks)
            kept.append((mask, legal))
            env.step(rng.choice(legal))
    assert len(kept) > 50
    for k, (mask, legal) in enumerate(kept):
        assert np.flatnonzero(mask).tolist() == legal, k
        if k:
            assert not np.shares_memory(mask, kept[k - 1][0])
    state = new_match(load_rules(name), 3)
    space = ActionSpace(state.rules)
    first = space.mask(state)
    first[:] = 0  # a caller may write in its mask: the next one is made anew
    assert np.flatnonzero(space.mask(state)).tolist() == space.legal_ids(state)
