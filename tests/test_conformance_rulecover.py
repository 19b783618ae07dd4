"""Every rule in force checked under any configuration: the focused tests of the
neighbouring configurations and of the first step that exercises a rule, and the
census of derived suites over every single house rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from mariage.conformance.census import census_row, configurations
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.configuration import Configuration, make_configuration
from mariage.conformance.coverage import unreachable_under
from mariage.conformance.derive import derive_suite
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.exercise import exercise_tests, match_end_rules
from mariage.conformance.faultkit import Fault
from mariage.conformance.faulty import FaultyEngine
from mariage.conformance.generate import render_test
from mariage.conformance.neighbours import governed, neighbours, search_neighbour
from mariage.conformance.results import Outcome
from mariage.conformance.runner import run_test
from mariage.conformance.suite import parse_test
from mariage.engine.rules import Rules
from mariage.spec.inforce import not_in_force

SCHNAPSEN_HOUSE = ["close_allowed=false", "claim_mode=auto", "marriage_lead=king",
                   "marriage_counting=next_trick_after_declaring"]


class _Neighbour(ReferenceEngine):
    """An engine written for another house: whatever options ``start`` names, it plays
    ``options`` (one value other than the configuration's)."""

    def __init__(self, options: dict[str, Any]) -> None:
        super().__init__()
        self.options = options

    def make_rules(self, ruleset: str, options: dict[str, Any]) -> Rules:
        return super().make_rules(ruleset, self.options)


def _run(engine: ReferenceEngine, test: dict[str, Any]) -> Outcome:
    client = EngineClient(lambda: ThreadTransport(engine), timeout=30)
    try:
        return run_test(client, parse_test(render_test(test), "x.test"))
    finally:
        client.close()


@pytest.mark.parametrize("option, value", [("marriage_lead", "either"),
                                           ("claim_mode", "explicit"),
                                           ("marriage_counting", "immediate"),
                                           ("close_allowed", True),
                                           ("match_target", 8)])
def test_an_engine_of_the_neighbouring_house_fails_its_test(option: str, value: Any) -> None:
    config = make_configuration("schnapsen", SCHNAPSEN_HOUSE)
    test, why = search_neighbour(config, option, value)
    assert test is not None, why
    names = governed(config.rules, option)
    assert names and set(names) <= set(test["rules"])
    assert _run(ReferenceEngine(), test).status == "pass"
    out = _run(_Neighbour({**config.options, option: value}), test)
    assert out.status == "fail", out.message
    assert set(out.blamed) & set(names)


def test_neighbours_are_every_other_value_and_whole_numbers_one_step_away() -> None:
    config = make_configuration("schnapsen", SCHNAPSEN_HOUSE)
    near = neighbours(config)
    assert ("close_allowed", True) in near and ("claim_mode", "explicit") in near
    assert ("marriage_lead", "either") in near and ("marriage_lead", "queen") in near
    assert ("marriage_lead", "king") not in near
    assert [v for name, v in near if name == "match_target"] == [6, 8]


def test_a_neighbour_that_governs_only_rules_switched_off_is_not_searched() -> None:
    config = make_configuration("schnapsen", ["close_allowed=false"])
    test, why = search_neighbour(config, "close_min_talon", 3)
    assert test is None and "not in force" in why


def _scale_off_by_one(rules: Rules) -> Rules:
    return replace(rules, gp_scale=tuple((p, t, v + 1) for p, t, v in rules.gp_scale))


@pytest.mark.parametrize("rule", ["schnapsen.score.scale", "schnapsen.score.claim",
                                  "schnapsen.match.tie"])
def test_a_rule_exercise_test_fails_an_engine_that_breaks_the_rule(rule: str) -> None:
    """The scale one game point too high: the tests found for the claim's score, the
    scale and the match's end (its result) all fail, charged to their rule."""
    config = make_configuration("schnapsen", ["claim_mode=auto"])
    found, why = exercise_tests(config, [rule])
    assert rule in found, why
    test = found[rule]
    assert test["rules"][0] == rule and test["steps"][-1]["rules"] == [rule]
    assert _run(ReferenceEngine(), test).status == "pass"
    fault = Fault("scale-plus-one", rule, ("schnapsen",), "the scale one higher",
                  patch=_scale_off_by_one)
    out = _run(FaultyEngine(fault), test)
    assert out.status == "fail" and rule in out.blamed, out.message


def test_a_refusal_found_by_the_exercise_search_expects_the_rule_it_is_refused_by() -> None:
    config = make_configuration("sixty-six", ["turnup_after=first_round"])
    found, why = exercise_tests(config, ["schnapsen.play.switch", "core.phase"])
    assert not why
    switch = found["schnapsen.play.switch"]
    assert switch["negative"]["rule"] in switch["rules"][1:]  # refused by a duty
    assert found["core.phase"]["negative"]["rule"] == "core.phase"
    for test in found.values():
        assert _run(ReferenceEngine(), test).status == "pass"


def test_the_match_end_of_thousand_is_exercised_at_the_defaults() -> None:
    """A match to 1000 never ends within the seeded deals: the long match played for
    its end reaches the match end's rules (they were unchecked at the defaults)."""
    config = make_configuration("thousand", [])
    wanted = sorted(match_end_rules(config.rules))
    assert wanted == ["core.over", "thousand.match.end", "thousand.match.tie",
                      "thousand.running.barrel", "thousand.running.win"]
    found, why = exercise_tests(config, wanted)
    assert set(found) == set(wanted), why
    for rule, test in found.items():
        assert test["steps"][-1]["rules"] == [rule]
        assert _run(ReferenceEngine(), test).status == "pass"
    over = found["core.over"]["steps"][-1]  # an action after the end, refused by core.over
    assert over["error"] == {"code": "illegal_action", "rule": "core.over"}


def test_the_rules_of_the_auction_and_the_running_totals_are_exercised() -> None:
    """Polish Thousand's stored tests are all about other option values, so the search
    alone checks its auction's end, the talon shown, the first lead of the contract and
    the running totals (they were unchecked at the defaults): each test it finds
    passes against the reference and names the rule at its last step."""
    config = make_configuration("thousand-pl", [])
    r = config.rules
    wanted = [r.auction_end_rule, r.talon_shown_rule, r.contract_lead_rule, r.running_rule,
              r.contract_result_rule, r.redeal_rule]
    found, why = exercise_tests(config, [x for x in wanted if x])
    assert not why and len(found) == 6
    for rule, test in found.items():
        assert test["steps"][-1]["rules"] == [rule]
        assert _run(ReferenceEngine(), test).status == "pass"


def test_a_hand_played_out_short_of_the_target_is_exercised() -> None:
    """Mariazza's rule on a hand played out short of the target, reachable at 71: the
    search finds the step that exercises it and the reference passes it."""
    config = make_configuration("mariazza", ["target=71"])
    found, why = exercise_tests(config, ["mariazza.score.unfinished"])
    assert not why
    test = found["mariazza.score.unfinished"]
    assert test["steps"][-1]["rules"] == ["mariazza.score.unfinished"]
    assert _run(ReferenceEngine(), test).status == "pass"


def test_the_deal_of_a_stored_test_of_another_value_starts_the_search() -> None:
    """The stored throw-in on a weak talon is about a threshold of 5: under 6 it no longer
    holds as written, but its deal, replayed, still brings a talon worth fewer points,
    which no seeded deal brings: the search finds the throw-in there."""
    config = make_configuration("thousand", ["redeal_weak_prikup=6"])
    found, why = exercise_tests(config, ["thousand.throw-in.weak-talon"])
    assert not why
    test = found["thousand.throw-in.weak-talon"]
    assert "stored test thousand/throw-in/weak-talon" in test["description"]
    assert test["steps"][-1]["act"] == "redeal"
    assert test["steps"][-1]["rules"] == ["thousand.throw-in.weak-talon"]
    assert _run(ReferenceEngine(), test).status == "pass"


def test_rules_no_protocol_test_can_check_under_a_configuration_are_unreachable() -> None:
    assert "belote.deal.first-dealer" in unreachable_under(make_configuration(
        "belote", []).rules)  # drawn by lot: start names the dealer
    assert "belote.deal.first-dealer" not in unreachable_under(make_configuration(
        "belote", ["first_dealer=seat2"]).rules)
    assert "mariazza.score.unfinished" in unreachable_under(make_configuration(
        "mariazza", []).rules)  # 41 of 120: one of two always reaches it
    assert set(unreachable_under(make_configuration("mariazza", ["target=71"]).rules)) == {
        "mariazza.match.tie"}  # segni one at a time: never level (the twenty-third session)


def _unchecked(config: Configuration) -> dict[str, str]:
    return census_row(config).unchecked


def test_the_house_configuration_of_the_docs_checks_every_rule_in_force() -> None:
    config = make_configuration("schnapsen", SCHNAPSEN_HOUSE)
    row = census_row(config)
    assert row.unchecked == {} and row.percent == 100.0
    assert row.counted == len(config.rules.rule_ids) - len(not_in_force(config.rules)) \
        - len(unreachable_under(config.rules))  # the marriage's once-a-suit limit
    suite = derive_suite(config)
    kinds = {t["id"].split("/")[1] for t in suite.tests}
    assert {"neighbour", "exercise", "fault"} <= kinds


#: Census sample: configurations and the rules in force that no step of a seeded match
#: under them can reach (so no focused test can be derived), with why.
#: Rows once here, now checked by the search for the rules they left unchecked (a whole
#: census of each family stays here, or in the node engine's derived runs, or in
#: :func:`test_census_of_every_single_option_value_of_a_ruleset`): ``marianna
#: declare_when=trick_start`` (one declaration a trick argued unreachable, brink),
#: ``belote-coinche coinche_deal_packets=2-3-3`` (a contract failed or tied, the
#: announcements shown, the suit auction's end: brink), ``belote first_dealer=seat0``
#: (brink), ``marjapussi pack_size=32`` and ``marjapussi-de deal_packet_size=3`` (asks
#: settled at once; the contract and the calls: census16); ``schnapsen`` in the docs'
#: house configuration (the whole row, in the fast set, above) and ``mariglia
#: turn_up_bonus=false`` (in the census of every Mariglia option value, below).
CENSUS_SAMPLE: list[tuple[str, list[str], set[str]]] = [
    ("schnapsen", ["close_allowed=false"], set()),
    # at the defaults: the match's end (a long match), the rules made unreachable
    # (coverage.unreachable_under) left out
    ("thousand", [], set()),
    ("mariazza", [], set()),
    # a team over the target with only its belote in the deal, and the rounded and the
    # exact totals judging the match otherwise: matches steered to the brink of their
    # end come to them (conformance/brink.py); in contrée only a capot leaves a team
    # its belote alone (lopsided hands)
    ("belote", [], set()),
    ("belote-coinche", ["target=1000"], set()),
    ("belote-contree", [], set()),
    ("sixty-six", ["close_allowed=false"], set()),
    # a deal refused between hands where every scored hand ends the match
    ("belote", ["target=1"], set()),
    # a match of one hand is never dealt again: the deal is checked refused while the
    # hand is still in play (a stored scenario's step, found since the fifteenth session)
    ("mariaggia", ["target=1"], set()),
    # a talon of 10 cards is never 11: what follows a close is unreachable (listed by
    # coverage.unreachable_under), the close itself is checked refused
    ("schnapsen", ["close_min_talon=11"], set()),
    ("sixty-six", ["close_min_talon=20"], set()),
    # sixteenth session: rules named through a wider rule (a declaration after an ask
    # refused by one a trick; under trick_six the cut-off of the whole-hand declarations
    # is unreachable: a hand holds 4 cards once their window is closed), hand ends
    # (the seat sitting out, the contract, the last trick, a drawn hand carried), calls,
    # asks settled at once, split marriages; once-a-suit unreachable where the queen is
    # led; further seeded matches where a match is one short hand (Mariazza target=1: a
    # top score of exactly 60 needs 60 held points added at once, never met by them; a
    # hand built for it since the twenty-first session, conformance/exacttop.py)
    ("marianna", ["trick_six=true"], set()),
    ("marianna-siciliana", ["declare_when=trick_start"], set()),
    ("sixty-six-3", ["close_allowed=false"], set()),
    ("sixty-six-3", ["claim_mode=auto"], set()),
    ("schnapsen", ["marriage_lead=queen"], set()),
    ("sixty-six-4", ["deal_packets=2-2-2-2"], set()),
    ("mariazza", ["target=1"], set()),
]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset, options, unreachable", CENSUS_SAMPLE)
def test_census_every_rule_in_force_and_reachable_is_checked(
        ruleset: str, options: list[str], unreachable: set[str]) -> None:
    """Fails as soon as a rule in force becomes unchecked under one of these
    configurations (or a rule listed as unreachable there gets checked: update the
    list)."""
    assert set(_unchecked(make_configuration(ruleset, options))) == unreachable


@pytest.mark.slow
def test_census_of_every_single_option_value_of_a_ruleset() -> None:
    rows = [census_row(c) for c in configurations("mariglia")]
    assert len(rows) >= 5
    assert all(r.percent == 100.0 for r in rows), [r.text() for r in rows if r.unchecked]
