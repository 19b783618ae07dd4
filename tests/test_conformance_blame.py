"""Blame (#22.6): a failure is charged only to the rules its failing step checks; in golden
and perft steps, to the rule the reference names refusing the engine's extra action or
offering the action it missed."""

from __future__ import annotations

from mariage import load_rules
from mariage.conformance.client import EngineClient, ThreadTransport
from mariage.conformance.faulty import FAULTS, FaultyEngine
from mariage.conformance.reports import by_rule, summary_text
from mariage.conformance.runner import legal_blame, run_suite, run_test
from mariage.conformance.suite import load_suite
from mariage.engine.state import GameState


def _run(fault: str, tests: list) -> object:  # type: ignore[type-arg]
    client = EngineClient(lambda: ThreadTransport(FaultyEngine(FAULTS[fault])), timeout=30)
    try:
        return run_suite(client, tests)
    finally:
        client.close()


def _failing_rules(result: object) -> set[str]:
    return {k for k, v in by_rule(result.outcomes).items() if v["failing"]}  # type: ignore[attr-defined]


def test_a_broken_must_beat_duty_is_charged_to_that_duty_only() -> None:
    result = _run("mariglia-head-always", load_suite(rulesets=["mariglia"]))
    assert _failing_rules(result) == {"mariglia.play.head"}
    text = summary_text(result)  # type: ignore[arg-type]
    tail = text.split("rule IDs with failing tests", 1)[-1]
    assert "mariglia.play.head" in tail and "mariglia.play.follow" not in tail


def test_a_missing_turn_up_bonus_is_not_charged_to_the_pack_or_the_tie() -> None:
    result = _run("mariglia-no-turn-up-bonus", load_suite(rulesets=["mariglia"]))
    failing = _failing_rules(result)
    assert "mariglia.score.turn-up" in failing
    assert not failing & {"mariglia.pack", "mariglia.match.tie", "mariglia.match.end"}


def test_golden_and_perft_extra_actions_are_charged_to_the_refusing_rule() -> None:
    tests = load_suite(rulesets=["mariglia"], kinds=["golden", "perft"])
    result = _run("mariglia-no-follow", tests)
    for o in result.outcomes:  # type: ignore[attr-defined]
        assert o.status == "fail"
        # a card off suit is refused by the follow duty; without it a low card of the
        # suit led is listed too, which the reference refuses by the duty to beat
        assert o.charged[0] == "mariglia.play.follow", (o.id, o.charged)
        assert set(o.charged) <= {"mariglia.play.follow", "mariglia.play.head"}


def test_golden_missing_actions_are_charged_to_the_offering_rule() -> None:
    test = load_suite(rulesets=["mariglia"], kinds=["golden"])[0]
    client = EngineClient(lambda: ThreadTransport(FaultyEngine(FAULTS["mariglia-head-always"])),
                          timeout=30)
    try:
        out = run_test(client, test)
    finally:
        client.close()
    assert out.status == "fail" and "missing [" in out.details[0]
    assert out.charged == ("mariglia.play.head",)


def test_legal_blame_names_the_reference_rules() -> None:
    rules = load_rules("mariglia")
    st = GameState(rules, first_dealer=0)
    deck = [rules.card_code[c] for c in range(rules.ncards)]
    st.deal(deck)
    seat = st.to_act
    assert seat is not None
    lead = rules.card_code[rules.cards_of(st.hands[seat])[0]]
    st.apply(st.legal_actions()[0])
    follower = st.to_act
    assert follower is not None
    held = [rules.card_code[c] for c in rules.cards_of(st.hands[follower])]
    legal = {rules.card_code[a.card] for a in st.legal_actions()  # type: ignore[union-attr]
             if hasattr(a, "card")}
    refused = [c for c in held if c not in legal]
    if refused:
        assert legal_blame(st, None, [], refused[:1])[0].startswith("mariglia.play.")
    assert legal_blame(st, None, [], [lead]) == ("core.hand",)  # played already
    some = next(a for a in st.legal_actions())
    assert legal_blame(st, None, [rules.card_code[some.card]], [])  # type: ignore[union-attr]
