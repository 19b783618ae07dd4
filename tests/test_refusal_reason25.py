"""A declaration refused by the phase says which phase (twenty-fifth session): a marriage
sent between a trick and the draw (Schnapsen, ``close_before_draw``) was refused with
"the partner must answer first", in a game for two without partners or asks."""

from __future__ import annotations

import pytest
from mariage import GameState, load_rules
from mariage.engine.actiontext import parse_action
from mariage.errors import IllegalActionError

DECK = ["JS", "KH", "QH", "AH", "TH", "KC", "AS", "TD", "JD", "QC",
        "JC", "AD", "JH", "QD", "TC", "TS", "QS", "KD", "AC", "KS"]


def test_a_marriage_between_trick_and_draw_names_the_moment() -> None:
    rules = load_rules("schnapsen", {"close_before_draw": True})
    state = GameState(rules, first_dealer=1)
    state.deal(DECK)
    for text in ("TD", "TH"):  # seat 0 leads the ten, takes the ten of hearts
        state.apply(parse_action(rules, text))
    with pytest.raises(IllegalActionError) as info:
        state.apply(parse_action(rules, "marriage:H"))
    assert info.value.rule_id == "core.phase"
    assert "partner" not in str(info.value)
    assert "claim, close, draw or decline" in str(info.value)
