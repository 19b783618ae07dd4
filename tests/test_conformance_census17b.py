"""The rules the census found unchecked in the older families under single house rules
(seventeenth session), now exercised by the search or argued unreachable: hands built
for rare declarations (a whole hand where only the leader declares, a second mariannino
with another king in the window at the trick's start, a marianna after a split marriage
that scored), the long match played on where bids cannot end it sooner (Mariaggia to
10,000, German Marjapussi's session of 500 hands), and the rules that never act (the once
limit of the mariannone, which wins the match; the deal in a one-hand match; the first
lead of a hand nobody bid where such a hand is thrown in)."""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules, new_match
from mariage.conformance.builthands import again_rules, built_hand, built_rules
from mariage.conformance.configuration import make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.exercise import bids_end_sooner, exercise_tests, match_end_rules
from mariage.conformance.neveracts import never_acts
from mariage.conformance.ruleprobe import offer_rules
from mariage.engine.actions import Declare, Pass, Play
from mariage.engine.actiontext import parse_action
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase
from mariage.errors import IllegalActionError

BUILT = [
    ("marianna-2", ["declare_when=trick_start"], "marianna.decl.mariannino.once"),
    ("marianna-3", ["declare_when=trick_start"], "marianna.decl.mariannino.once"),
    ("marianna-3", ["declare_who=leader"], "marianna.decl.mariannone.value"),
    ("marianna-3", ["declare_who=leader"], "marianna.decl.mariannone.trump"),
    ("marianna-siciliana", ["declare_who=leader"], "siciliana.split.order"),
    ("cinquecento-siciliana", ["declare_who=leader"], "siciliana.split.order"),
    ("cinquecento-siciliana", ["declare_when=trick_start"], "siciliana.split.order"),
]


@pytest.mark.parametrize("ruleset,options,rule", BUILT)
def test_the_search_finds_the_rare_declarations_in_built_hands(
        ruleset: str, options: list[str], rule: str) -> None:
    """Fails without the built hands (exercise_tests' BUILT_MATCHES walks): the seeded,
    stored and further matches leave these rules unchecked (the census before)."""
    config = make_configuration(ruleset, options)
    found, why = exercise_tests(config, [rule])
    assert why == {}
    test = found[rule]
    assert "built" not in test["id"] and test["rules"] == [rule]
    last = test["steps"][-1]
    action = parse_action(config.rules, last["act"])
    assert isinstance(action, Declare) and last["act"] in last["legal"]


def _replay(rules_name: str, options: dict[str, object], seed: int, wanted: set[str]
            ) -> tuple[GameState, list[str]]:
    rules = load_rules(rules_name, options)
    state = GameState(rules, first_dealer=0)
    built = built_hand(state, SplitMix64(seed), wanted)
    assert built is not None
    deal, actions = built
    state.deal(list(deal["deck"]), deal["first_player"])
    for text in actions:
        state.apply(parse_action(rules, text))
    return state, actions


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_built_hand_gives_a_second_mariannino_with_another_king(seed: int) -> None:
    state, _ = _replay("marianna-2", {"declare_when": "trick_start"}, seed,
                       {"marianna.decl.mariannino.once"})
    made = [(seat, suit) for seat, kind, suit, _ in state.declared
            if state.rules.declarations[kind].name == "mariannino"]
    assert len(made) == 2 and made[0][0] == made[1][0] and made[0][1] != made[1][1]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_built_hand_scores_a_marianna_after_a_split_that_scored(seed: int) -> None:
    state, actions = _replay("marianna-siciliana", {"declare_who": "leader"}, seed,
                             {"siciliana.split.order"})
    kinds = [kind for _, kind, _, _ in state.declared]
    assert kinds[0] < 0 and kinds[-1] >= 0  # the split scored first, a marianna after it
    assert actions[0].startswith("ask:") and actions[-1].startswith("marianna:")


def test_built_rules_come_from_the_rule_data() -> None:
    assert built_rules(load_rules("schnapsen")) == set()
    assert built_rules(load_rules("marianna-siciliana")) >= {"siciliana.split.order"}
    outside = load_rules("marianna-siciliana", {"split_order": "outside"})
    assert "siciliana.split.order" not in built_rules(outside)  # not ordered: not built
    # the once limit of the match-winning mariannone is never built for (it never acts)
    assert "marianna.decl.mariannone.once" not in built_rules(load_rules("marianna-3"))


def test_a_declaration_again_in_another_suit_names_its_once_rule() -> None:
    rules = load_rules("marianna-2")
    state = new_match(rules, seed=1)
    nino = next(d for d in rules.declarations if d.name == "mariannino")
    assert again_rules(state, Declare(nino.index, 1)) == set()
    state.used_suit[nino.index][1] = 1 << 0  # the other seat's mariannino of the first king
    assert again_rules(state, Declare(nino.index, 1)) == {nino.once_rule}  # anyone's: suit
    assert again_rules(state, Declare(nino.index, 0)) == set()  # the same suit: a refusal
    assert again_rules(state, Pass()) == set()


def test_the_mariannone_ends_the_match_so_its_once_limit_never_acts() -> None:
    rules = load_rules("marianna-3", {"declare_who": "leader"})
    state, actions = _replay("marianna-3", {"declare_who": "leader"}, 1,
                             {"marianna.decl.mariannone.value"})
    assert actions[0].startswith("mariannone:") and state.phase == Phase.OVER
    with pytest.raises(IllegalActionError) as refused:
        state.apply(parse_action(rules, actions[0]))
    assert refused.value.rule_id == rules.core_over  # never the once limit
    for ruleset in ("marianna", "marianna-2", "marianna-3", "marianna-siciliana"):
        assert "marianna.decl.mariannone.once" in unreachable_under(load_rules(ruleset))
    assert never_acts(load_rules("cinquecento")) == {}  # no declaration wins the match


def test_a_one_hand_match_never_deals_between_hands() -> None:
    rules = load_rules("marjapussi-de", {"hands": 1})
    assert "core.deal" in unreachable_under(rules)
    rng = SplitMix64(5)
    for seed in range(1, 6):
        state = new_match(rules, seed=seed)
        while state.phase != Phase.OVER:
            assert state.phase != Phase.DEAL  # no deal between hands: none is ever asked
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        with pytest.raises(IllegalActionError) as refused:
            state.deal(list(rules.card_code))
        assert refused.value.rule_id == rules.core_over
    # a hand thrown in counts too: all four pass, and the match is over, not dealt again
    redeal = load_rules("marjapussi-de", {"hands": 1, "all_pass": "redeal"})
    assert "core.deal" in unreachable_under(redeal)
    state = new_match(redeal, seed=1)
    while state.phase == Phase.AUCTION:
        state.apply(Pass())
    assert state.phase == Phase.OVER and state.hand_no == 1
    # two hands: a deal between them, reachable
    assert "core.deal" not in unreachable_under(load_rules("marjapussi-de", {"hands": 2}))


def test_a_hand_nobody_bid_is_never_led_where_it_is_thrown_in() -> None:
    rules = load_rules("marjapussi-de", {"all_pass": "redeal"})
    lead = rules.first_lead_rule
    assert lead in unreachable_under(rules)
    state = GameState(rules, first_dealer=0)  # no deal source: the next deal is asked
    state.deal(list(rules.card_code))
    while state.phase == Phase.AUCTION:  # everyone passes: thrown in, dealt again
        state.apply(Pass())
    assert state.phase == Phase.DEAL and state.history[-1].ended == "redeal"
    rng = SplitMix64(2)
    for seed in range(1, 9):  # every hand played has a declarer; its first lead is the duty's
        state = new_match(rules, seed=seed)
        while state.phase not in (Phase.PLAY, Phase.DEAL, Phase.OVER):
            acts = state.legal_actions()
            state.apply(acts[rng.below(len(acts))])
        if state.phase == Phase.PLAY and not state.tricks and not state.trick_cards:
            assert state.declarer >= 0
            for play in (a for a in state.legal_actions() if isinstance(a, Play)):
                assert lead not in offer_rules(state, play)
    # where the hand nobody bid is played, or no first-card duty governs the first lead
    assert lead not in unreachable_under(load_rules("marjapussi-de"))
    assert lead not in unreachable_under(load_rules(
        "marjapussi-de", {"all_pass": "redeal", "first_lead": "any"}))
    assert "thousand.lead.first" not in unreachable_under(load_rules("thousand"))


def test_the_long_match_goes_on_where_bids_cannot_end_it_sooner() -> None:
    """Fails without the pooled steps: the long match of 8,000 steps and the keen ones
    (as many, each from its own seed) leave Mariaggia's match to 10,000 unfinished."""
    config = make_configuration("mariaggia", ["target=10000"])
    assert not bids_end_sooner(config.rules)
    ends = match_end_rules(config.rules)
    found, why = exercise_tests(config, sorted(ends))
    assert why == {}
    end = found["mariaggia.match.tie"]["steps"][-1]["state"]
    assert end["phase"] == "over" and max(end["match_scores"]) >= 10000
    assert len(found["mariaggia.match.tie"]["steps"]) > 8000
    assert bids_end_sooner(load_rules("thousand"))
    assert bids_end_sooner(load_rules("belote"))
    assert bids_end_sooner(load_rules("marjapussi-de", {"session_end": "bonus_300_at_500"}))
