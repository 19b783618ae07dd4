"""The interpreter is split by mechanism: every rule ID leads to the one module that runs it."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mariage import GameState, load_rules
from mariage.engine.deals import SeededDeals
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, TrickPlay, mechanism_of
from mariage.spec.specload import list_rulesets

# Facts of the description that no step of play runs (the compiled rules carry them),
# and the core rules of turn and phase that GameState's dispatch checks itself.
FACT_SECTIONS = {"pack", "players", "visibility", "core.turn", "core.phase"}


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_every_rule_has_one_owner(ruleset: str) -> None:
    rules = load_rules(ruleset)
    for info in rules.infos:
        owner = mechanism_of(rules, info.id)
        if info.path in FACT_SECTIONS:
            assert owner is None, info.id
        else:
            assert owner is not None, f"{info.id} ({info.path}) is run by no mechanism"
            claims = sorted(m.claim(info.path) for m in DEFAULT_MECHANISMS.all())
            assert claims[-1] > claims[-2], f"{info.id}: two mechanisms claim it equally"


def test_rule_ids_listed_per_mechanism_partition_the_rules() -> None:
    rules = load_rules("marianna")
    listed = [i for m in DEFAULT_MECHANISMS.all() for i in DEFAULT_MECHANISMS.rule_ids(m, rules)]
    assert len(listed) == len(set(listed))
    assert set(listed) == {i.id for i in rules.infos if i.path not in FACT_SECTIONS}


def test_a_replaced_mechanism_is_the_one_that_runs() -> None:
    class NoDraw(TrickPlay):
        def draw(self, st: GameState, winner: int) -> None:
            return None

    rules = load_rules("marianna")
    deals = SeededDeals(rules, 3)
    normal = GameState(rules, first_dealer=deals.first_dealer)
    changed = GameState(rules, first_dealer=deals.first_dealer,
                        mechanisms=replace(DEFAULT_MECHANISMS, tricks=NoDraw()))
    deck, first = deals.next_deal()
    for st in (normal, changed):
        st.deal(deck, first)
        while st.trick_no == 1:
            st.apply(st.legal_actions()[-1])
    assert len(normal.stock) == len(changed.stock) - rules.nseats
    clone = changed.clone()
    assert clone.mech is changed.mech
