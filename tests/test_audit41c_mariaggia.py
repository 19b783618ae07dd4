"""Audit 41c: Mariaggia's call-out, checked against RULES-NOTES.md (Mariaggia)."""

from __future__ import annotations

from mariage import Phase
from mariage.rulebook.render import render_text
from rulekit import play, rules_of
from test_rules_mariaggia import _deal


def test_wrong_call_out_that_brings_the_opponent_to_the_target_ends_the_match() -> None:
    """Notes, Mariaggia: a wrong call-out stops the hand, the opponent keeps what he
    captured and declared; a player with 250 or more at the end of a hand wins. The
    reference ends the match when the kept points bring the opponent to 250; the rule
    text said without exception that a new hand is dealt."""
    state = _deal(["KC QC 4D 5D 6D", "AH KD QD 4H 5H"], turn_up="2S")
    state.match_scores = [0, 248]
    play(state, "4D KD 0@callout")  # B keeps 4: 252
    assert state.history[-1].ended == "call_out_failed"
    assert state.phase == Phase.OVER and state.result is not None
    assert state.result.winner == 1 and state.match_scores == [0, 252]
    text = render_text(rules_of("mariaggia"))
    said = " ".join(text.split("[mariaggia.call-out.penalty]", 1)[1].split("\n[", 1)[0].split())
    assert "a new hand is dealt." not in said, said
