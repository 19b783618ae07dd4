"""The written match check of the generated hand end against ``Scoring.end_hand``, on
scores set at and around the target.

Where the match is won on reaching a target, the generated hand end (``engine/handend.py``)
writes :meth:`MatchEnd.check` out (``_decide``: two sides by a shorter test, more sides
unrolled). In random play few hands end with both sides at the target, level or held
back, so these hands are made: at each end of a hand of random matches the state is
copied, the match scores (or the hands won) before the hand are set so that after it
they land at, below, above or level with the target, with sides held back (``no_win``)
at random, and the copy is ended both by the generated code and by the plain
``Scoring.end_hand``; every slot (the result, the phase, the record, the dealer) must
agree. Each ruleset is played with its own tie rule and with ties drawn. A check
written wrong on purpose must be caught.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from mariage import GameState, load_rules
from mariage.engine import handend
from mariage.engine.fastpath import play_apply
from mariage.engine.handend import HandEnd, hand_end
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.phase import OVER
from mariage.engine.resume import resume
from propkit import pick_action
from test_fastpath import _state_of

#: two sides on points, three sides on points, two sides on the hands won
WRITTEN = ("belote-coinche", "marianna-3", "mariazza")


def _ended_hands(rules: Any, hands: int, seed: int) -> list[tuple[GameState, str]]:
    """Copies of the states of random matches of ``rules`` just before ``hands`` ends of
    hands, with how each hand ended."""
    mech = DEFAULT_MECHANISMS
    fast = hand_end(mech, rules)
    assert fast is not None
    kept: list[tuple[GameState, str]] = []

    def end(st: GameState, how: str) -> None:
        kept.append((st.clone(), how))
        fast(st, how)

    rng = random.Random(f"match {rules.ruleset} {seed}")
    while len(kept) < hands:
        state = GameState(rules, first_dealer=rng.randrange(rules.nseats))
        table = state._appliers
        state._appliers = replace(
            table, end_hand=end,
            apply_play=play_apply(mech, rules, end_hand=end, legal_plays=table.legal_plays),
            go_on=resume(mech, rules, end))
        while not state.terminal and len(kept) < hands:
            deck = list(range(rules.ncards))
            rng.shuffle(deck)  # (and the first player, where the rules draw lots for it)
            state.deal(deck, rng.randrange(rules.nseats) if rules.first_lead == "lot" else None)
            while state.to_act is not None:
                seat, action = pick_action(rng, state)
                state.apply(action, seat=seat)
    return kept


def _finals(rules: Any, rng: random.Random) -> list[tuple[int, ...]]:
    """The measures after a hand to try: each side just below, at, above or well above
    the target (every combination with two sides, a sample with more)."""
    t = rules.match_target
    step = 1 if rules.match_measure == "hands_won" else 10
    values = (t - step, t, t + step, t + 7 * step)
    every = list(itertools.product(values, repeat=len(rules.teams)))
    return every if len(rules.teams) == 2 else rng.sample(every, 24)


def _compared(rules: Any, fast: HandEnd, hands: int, seed: int) -> tuple[int, int, int]:
    """(hand ends compared, how many differ in some slot, how many ended the match)."""
    reference = DEFAULT_MECHANISMS.scoring.end_hand
    field = "segni" if rules.match_measure == "hands_won" else "match_scores"
    rng = random.Random(f"finals {rules.ruleset} {seed}")
    compared = differ = over = 0
    for state, how in _ended_hands(rules, hands, seed):
        probe = state.clone()
        reference(probe, how)  # what the hand adds to the measure
        gained = [a - b for a, b in zip(getattr(probe, field), getattr(state, field),
                                        strict=True)]
        for final in _finals(rules, rng):
            no_win = rng.choice((0, 0, rng.randrange(1 << len(rules.teams))))
            copies = []
            for end in (fast, reference):
                st = state.clone()
                setattr(st, field, [f - g for f, g in zip(final, gained, strict=True)])
                st.no_win = no_win
                end(st, how)
                copies.append(st)
            compared += 1
            differ += _state_of(copies[0]) != _state_of(copies[1])
            over += copies[1].phase == OVER
    return compared, differ, over


def _rules(name: str, tie: str | None) -> Any:
    rules = load_rules(name)
    return rules if tie is None else replace(rules, tie_mode=tie)


@pytest.mark.parametrize("tie", [None, "draw"])
@pytest.mark.parametrize("name", WRITTEN)
def test_the_written_match_check_ends_matches_as_the_plain_hand_end(name: str,
                                                                     tie: str | None) -> None:
    rules = _rules(name, tie)
    fast = hand_end(DEFAULT_MECHANISMS, rules)
    assert fast is not None and handend._check_gate(rules) is not None
    compared, differ, over = _compared(rules, fast, hands=12, seed=1)
    assert compared >= 12 * 16 and differ == 0
    assert compared // 4 < over < compared  # matches won, drawn and played on


def _wrong(lines: Callable[[Any], list[str]]) -> Callable[[Any], list[str]]:
    """``lines`` with a side's lead taken where it only draws level (``>`` as ``>=``)."""
    return lambda r: [line.replace(" > ", " >= ") for line in lines(r)]


@pytest.mark.parametrize(("name", "part"), [("belote-coinche", "_top_lines"),
                                            ("marianna-3", "_best_lines")])
def test_a_miswritten_match_check_is_caught(name: str, part: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rules = _rules(name, "draw")
    monkeypatch.setattr(handend, part, _wrong(getattr(handend, part)))
    fast = hand_end(DEFAULT_MECHANISMS, rules)
    assert fast is not None
    _, differ, _ = _compared(rules, fast, hands=4, seed=2)
    assert differ > 0
