"""The exported Hypothesis strategies draw what the reference engine accepts."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.strategies import Match, decks, matches, option_sets, pack, starts


@given(st.sampled_from(["marianna", "marjapussi", "mariglia"]).flatmap(
    lambda r: st.tuples(st.just(r), option_sets(r))))
def test_option_sets_are_accepted(pair: tuple[str, dict]) -> None:
    ruleset, options = pair
    e = ReferenceEngine()
    reply = e.handle({"type": "start", "ruleset": ruleset, "options": options, "dealer": 0,
                      "deck": pack(ruleset, options), "first_player": None})
    assert reply == {"type": "ok"}, (options, reply)


@given(starts("mariazza"))
def test_starts_are_accepted(start: dict) -> None:
    assert ReferenceEngine().handle({"type": "start", "ruleset": "mariazza", **start}) == \
        {"type": "ok"}


@given(decks("marjapussi", {"pack_size": 28}))
def test_decks_are_the_pack(deck: list[str]) -> None:
    assert sorted(deck) == sorted(pack("marjapussi", {"pack_size": 28})) and len(deck) == 28


@given(matches(max_actions=80))
def test_every_drawn_action_is_listed_and_accepted(match: Match) -> None:
    e = ReferenceEngine()
    assert e.handle({"type": "start", "ruleset": match.ruleset, "options": match.options,
                     **match.start}) == {"type": "ok"}
    for step in match.steps:
        if "deal" in step:
            assert e.handle({"type": "deal", **step["deal"]}) == {"type": "ok"}
            continue
        assert step["act"] in e.handle({"type": "legal"})["actions"]
        assert e.handle({"type": "apply", "action": step["act"]}) == {"type": "ok"}
