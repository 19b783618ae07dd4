"""The caller's deck unpacked by the generated check (issue #28, twenty-fourth session).

The generated next deal (``mariage.engine.mechanisms.dealing._check_lines``) unpacks a
caller's deck into one local per card and reads each card's bit by its name, where it
read ``c[12]`` and tested ``len(c)`` apart: the unpacking is also the check of the
deck's length. These tests hold the length check to what the mechanism's own check
says, for decks whose first cards are the whole pack, and the check's source to one
read of each card.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.mechanisms.dealing import _fresh_deals
from mariage.errors import IllegalActionError
from test_nextdeal23 import _take_source
from test_search_support import fingerprint

RULESETS = list_rulesets()


def _first(rules: Any) -> int | None:
    return 0 if rules.first_lead == "lot" else None


@pytest.mark.parametrize("name", RULESETS)
def test_a_deck_of_another_length_is_refused_whatever_it_starts_with(name: str) -> None:
    """Decks that hold the whole pack and more (0, which leaves the sum of the numbers
    as it was, a card again, a number above the pack, ``None``, a code, the pack
    twice), or the pack less its last card or cards: the generated check refuses each
    without touching the state, and the deal refuses it with ``core.deal``, as the
    mechanism's own check does."""
    rules = load_rules(name)
    n = rules.ncards
    first = _first(rules)
    deck = list(range(n))
    random.Random(f"length {name}").shuffle(deck)
    state = GameState(rules, first_dealer=0)
    fresh = _fresh_deals(state)
    assert fresh is not None
    start = 0 if state.dealer is None else (state.dealer + 1) % rules.nseats
    longer = [[*deck, extra] for extra in (0, deck[0], n, 2 * n, None, rules.card_code[0])]
    for cards in [*longer, [*deck, *deck], deck[:-1], deck[:-2], []]:
        before = fingerprint(state)
        with pytest.raises(IllegalActionError) as refused:
            state.mech.dealing.check_deck(state, cards, first)
        assert refused.value.rule_id == "core.deal"
        trial = state.clone()
        assert fresh.taken[start](trial, cards, trial.dealer, first) is False, len(cards)
        assert fingerprint(trial) == before
        with pytest.raises(IllegalActionError) as refused:
            state.deal(cards, first)
        assert refused.value.rule_id == "core.deal"
        assert fingerprint(state) == before
    state.deal(deck, first)  # and the pack itself is dealt
    assert state.hand_no == 1 and sum(bin(h).count("1") for h in state.hands) > 0


@pytest.mark.parametrize("name", ["marianna", "schnapsen", "belote-coinche", "thousand",
                                  "mariglia"])
def test_the_check_reads_each_card_once_by_name(name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The check unpacks the deck into ``c0``...``c{n-1}`` and reads each of them once for
    its bit (``_b[c7]``), with no subscript of the deck and no ``len()`` of it."""
    n = load_rules(name).ncards
    check = _take_source(name, monkeypatch).split("\n    if first")[0]
    assert f"        {', '.join(f'c{p}' for p in range(n))}, = c\n" in check
    assert sorted(int(p) for p in re.findall(r"_b\[c(\d+)\]", check)) == list(range(n))
    assert "c[" not in check and "len(c)" not in check
