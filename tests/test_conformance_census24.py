"""The census's gap of Thousand's foreign trump closed in the twenty-fourth session.

``thousand-pl no_lead_foreign_trump=true`` was 47 of 48: ``thousand.lead.first`` was
never exercised. The rule is reachable (every hand played has a declarer who leads
it), but the duty the reference named for a lead under the option was the foreign
trump's on every lead, even where no trump had been declared (the first trick always,
as marriages are declared only from the second lead): the first lead was never offered
under its own rule. The foreign trump is now named only where it limits the lead
(:meth:`~mariage.engine.mechanisms.trickplay.TrickPlay.foreign_trumps`); the cards
refused and the rules they are refused by are unchanged. The Russian rulesets were at
100% only because a stored scenario (``thousand/talon/exchange``) still applies there.

The offset-2 sample then showed ``thousand-pl redeal_low_hand=60`` at 47 of 48:
``thousand.throw-in`` (a throw-in no rule entitles) unchecked. Reachable too: a throw-in
out of the claims' windows is refused by it at nearly every step; but the search never
probed a throw-in, and the fault search (any player throws in where one may) finds no
difference where every dealt hand is below 60 points. The throw-in is now one of the
actions probed at each step (``exercised._PROBED``).

Each row's one unchecked rule is checked here by the search for it alone (under every
ruleset of the family for the first lead); the two whole census rows (130 s of the slow
run's CPU) are gone: the whole census of the Thousand family runs in
``tests/test_conformance_rulecover.py`` (``thousand`` at its defaults) and
``tests/test_engine_node26_thousand.py`` (``thousand``, ``thousand-4``).
"""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules, new_match
from mariage.conformance import exercised
from mariage.conformance.configuration import make_configuration
from mariage.conformance.exercise import exercise_tests
from mariage.conformance.exercised import probe_refusals
from mariage.conformance.ruleprobe import offer_rules, refusal_rule
from mariage.engine.actions import Play, Redeal
from mariage.engine.prng import SplitMix64
from mariage.engine.state import Phase

RULESETS = ["thousand", "thousand-2", "thousand-4", "thousand-pl"]
FIRST = "thousand.lead.first"
FOREIGN = "thousand.lead.foreign-trump"
OPTION = {"no_lead_foreign_trump": True}


def _leads(ruleset: str, seed: int, options: dict[str, bool], steps: int = 4000
           ) -> list[GameState]:
    """The states at which a card is led (copies) in a match of seeded deals whose
    actions are drawn at random (from ``seed`` too)."""
    state = new_match(load_rules(ruleset, options), seed=seed)
    rng = SplitMix64(seed)
    out: list[GameState] = []
    while state.phase != Phase.OVER and steps:
        steps -= 1
        if state.phase == Phase.PLAY and not state.trick_cards and state.to_act is not None:
            out.append(state.clone())
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_first_lead_is_offered_under_its_own_rule(ruleset: str, seed: int) -> None:
    """Fails without the change: every lead under the option was offered under the
    foreign trump's rule, the first lead of a hand too."""
    leads = _leads(ruleset, seed, OPTION)
    first = [st for st in leads if st.trick_no == 1]
    assert first, "no hand was played"
    for st in first:
        assert st.trump < 0  # no marriage is declared before the second lead
        for action in st.legal_actions():
            if isinstance(action, Play):
                assert offer_rules(st, action) == (FIRST,)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_foreign_trump_is_named_where_it_limits_the_lead(ruleset: str, seed: int
                                                            ) -> None:
    """The argument checked on the reference: at every lead of seeded matches (but one
    where a declared marriage's card must be led, ``lead_mask``), the cards refused are
    the foreign trumps (:meth:`foreign_trumps`), each refused by the foreign
    trump's rule, and that rule is the duty named for a card led exactly where some
    card is refused; elsewhere the lead's own rule (the first lead's, or the trick
    winner's) is."""
    limited = free = 0
    for st in _leads(ruleset, seed, OPTION):
        seat = st.to_act
        assert seat is not None
        if st.lead_mask:
            continue
        tricks = st.mech.tricks
        hand = st.hands[seat]
        foreign = tricks.foreign_trumps(st, seat, hand)
        refused = {c for c in st.rules.cards_of(hand)
                   if refusal_rule(st, Play(c)) is not None}
        assert refused == set(st.rules.cards_of(foreign))
        assert all(refusal_rule(st, Play(c)) == FOREIGN for c in refused)
        for card in st.rules.cards_of(hand):
            named = tricks.violation(st, seat, card)[0]
            assert (named == FOREIGN) == bool(foreign)
        if foreign:
            limited += 1
            assert all(offer_rules(st, a) == (FOREIGN,) for a in st.legal_actions()
                       if isinstance(a, Play))
        else:
            free += 1
            want = FIRST if st.trick_no == 1 else st.rules.trick_rule
            assert all(offer_rules(st, a) == (want,) for a in st.legal_actions()
                       if isinstance(a, Play))
    assert free and limited + free > 8


def test_some_seeded_lead_is_limited_by_the_foreign_trump() -> None:
    """The test above is not vacuous: some seeded leads are limited."""
    assert any(st.mech.tricks.foreign_trumps(st, st.to_act, st.hands[st.to_act])
               for seed in (1, 2, 3, 4) for st in _leads("thousand-pl", seed, OPTION)
               if st.to_act is not None)


def test_without_the_option_nothing_is_foreign() -> None:
    for st in _leads("thousand-pl", 1, {}):
        assert st.to_act is not None
        assert st.mech.tricks.foreign_trumps(st, st.to_act, st.hands[st.to_act]) == 0


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_search_finds_the_first_lead_under_the_option(ruleset: str) -> None:
    """Fails without the change: the census row of ``thousand-pl`` said no step
    exercises it in 8 seeded deals, 10 stored and 9 more matches."""
    config = make_configuration(ruleset, ["no_lead_foreign_trump=true"])
    found, why = exercise_tests(config, [FIRST, FOREIGN])
    assert why == {} and sorted(found) == [FIRST, FOREIGN]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_leading_an_undeclared_marriage_is_still_named_under_auto_declare(seed: int
                                                                         ) -> None:
    """Under ``marriage_auto_declare`` (no foreign trump) the cards of a marriage he may
    declare are refused by the rule of declaring with the lead, and named by it; the
    other cards of a lead by no limit."""
    auto = "thousand.marriage.auto"
    seen = 0
    for st in _leads("thousand-pl", seed, {"marriage_auto_declare": True}):
        seat = st.to_act
        assert seat is not None
        if st.lead_mask:
            continue
        tricks = st.mech.tricks
        pairs = tricks.undeclared_pairs(st, seat, st.hands[seat])
        for card in st.rules.cards_of(st.hands[seat]):
            named = tricks.violation(st, seat, card)[0]
            if pairs >> card & 1 and pairs != st.hands[seat]:
                seen += 1
                assert named == auto and refusal_rule(st, Play(card)) == auto
            elif not pairs >> card & 1:
                assert named is None and refusal_rule(st, Play(card)) is None
    assert seen


THROW_IN = "thousand.throw-in"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_throw_in_no_rule_entitles_is_probed_and_refused_by_its_rule(seed: int) -> None:
    """The argument checked on the reference (``redeal_low_hand=60``): at every step of
    a seeded match, the probe names the throw-in's rule exactly where a throw-in by the
    seat to act is refused, and it is refused by that rule wherever no rule entitles him
    (``throw_in_claim``); such steps come in every hand, in the play."""
    state = new_match(load_rules("thousand-pl", {"redeal_low_hand": 60}), seed=seed)
    rng = SplitMix64(seed)
    refused_in_play = 0
    for _ in range(600):
        if state.phase == Phase.OVER:
            break
        seat = state.to_act
        assert seat is not None
        entitled = state.mech.talon.throw_in_claim(state, seat) is not None
        probed = probe_refusals(state)
        assert (THROW_IN in probed) == (refusal_rule(state, Redeal()) == THROW_IN)
        assert (refusal_rule(state, Redeal()) is None) == entitled
        if not entitled:
            assert probed.get(THROW_IN) == Redeal()
            refused_in_play += state.phase == Phase.PLAY
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    assert refused_in_play > 20


def test_the_search_finds_a_refused_throw_in_where_every_hand_may_throw_in() -> None:
    """Fails without the probe: no step exercised it in 8 seeded deals, 11 deals of
    stored tests and 9 more matches."""
    config = make_configuration("thousand-pl", ["redeal_low_hand=60"])
    found, why = exercise_tests(config, [THROW_IN])
    assert why == {} and list(found) == [THROW_IN]
    step = found[THROW_IN]["steps"][-1]
    assert step["act"] == "redeal" and step["error"]["rule"] == THROW_IN


def test_without_the_probe_the_search_finds_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exercised, "_PROBED", tuple(
        kind for kind in exercised._PROBED if kind is not Redeal))
    config = make_configuration("thousand-pl", ["redeal_low_hand=60"])
    found, why = exercise_tests(config, [THROW_IN])
    assert found == {} and THROW_IN in why


def test_no_throw_in_is_probed_where_the_rules_have_none() -> None:
    for ruleset in ("schnapsen", "belote", "marjapussi"):
        state = new_match(load_rules(ruleset), seed=1)
        assert all(not r.endswith("throw-in") for r in probe_refusals(state))
        assert load_rules(ruleset).throw_in_rule is None

