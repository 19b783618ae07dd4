"""The generated end of a hand (``engine/handend.py``) against ``Scoring.end_hand``, the
generated opening of a trick (the first one, after the deal, too) against
``TrickPlay.start_trick``, and the generated play resumed after the winner's pause
(``engine/resume.py``) against ``Claims.go_on`` with ``TrickPlay.draw``.

Whole matches are played twice on the same deals and choices: by the reference
mechanisms, which run the code generated per ruleset, and by the same
mechanisms with the scoring (or the trick play) subclassed with the same
behaviour, which leaves no generated code for that step, so that the
mechanism's method runs. Every slot must agree after every action, up to and
past the end of the match. An action sent by the seat to act is also sent
without naming the seat (``GameState.apply`` then calls its applier itself)
against the same action sent with the seat named (through ``_dispatch``).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from families import by_family
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.actions import Claim, Decline
from mariage.engine.deals import SeededDeals
from mariage.engine.fastpath import start_trick
from mariage.engine.handend import hand_end
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, MatchEnd, Mechanisms, Scoring, TrickPlay
from mariage.engine.phase import DEAL
from mariage.engine.resume import resume
from propkit import option_grid, pick_action, rules_for
from test_fastpath import _differing


class _OwnScoring(Scoring):
    """The reference scoring with ``end_hand`` overridden (same behaviour)."""

    __slots__ = ()

    def end_hand(self, st: GameState, how: str, winner: int | None = None,
                 zero_team: int | None = None, match_reason: str | None = None) -> None:
        super().end_hand(st, how, winner, zero_team, match_reason)


class _OwnCheck(MatchEnd):
    """The reference match end with ``check`` overridden (same behaviour)."""

    __slots__ = ()

    def check(self, st: GameState, after_hand: bool, reason: str) -> None:
        super().check(st, after_hand, reason)


class _OwnStart(TrickPlay):
    """The reference trick play with ``start_trick`` overridden (same behaviour)."""

    __slots__ = ()

    def start_trick(self, st: GameState, leader: int) -> None:
        super().start_trick(st, leader)


class _OwnDraw(TrickPlay):
    """The reference trick play with ``draw`` overridden (same behaviour)."""

    __slots__ = ()

    def draw(self, st: GameState, winner: int) -> None:
        super().draw(st, winner)


def _samples(name: str) -> list[dict[str, Any]]:
    grid = option_grid(name)
    rng = random.Random(f"hand end {name}")
    return [{}, *rng.sample(grid, min(3, len(grid)))]


def test_a_changed_step_leaves_no_generated_hand_end() -> None:
    rules = load_rules("marianna")
    assert hand_end(DEFAULT_MECHANISMS, rules) is not None
    assert hand_end(replace(DEFAULT_MECHANISMS, scoring=_OwnScoring()), rules) is None
    assert hand_end(replace(DEFAULT_MECHANISMS, match_end=_OwnCheck()), rules) is None


def test_one_hand_end_is_written_per_dispatch_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dispatch table writes the hand end once and hands it to both card plays (the
    plain one and undo's trail), instead of each writing its own."""
    from mariage.engine import dispatch, handend

    written: list[str] = []

    def counted(mech: Mechanisms, rules: Any) -> Any:
        written.append(rules.ruleset)
        return hand_end(mech, rules)

    monkeypatch.setattr(handend, "hand_end", counted)
    monkeypatch.setattr(dispatch, "hand_end", counted)
    rules = rules_for("marianna", {"declare_when": "trick_start"})  # a table not made yet
    dispatch._DISPATCH.clear()
    table = dispatch.dispatch_of(DEFAULT_MECHANISMS, rules)
    assert written == ["marianna"] and table.play_trail is not None


def _side_by_side(ruleset: str, generic: Mechanisms, unnamed: bool = False,
                  choose: Any = pick_action, ended: str | None = None) -> tuple[int, int]:
    """Play matches of ``ruleset`` (sampled options) by the reference mechanisms and by
    ``generic`` on the same deals and choices (``choose``), comparing every slot after
    every action; the hands dealt and matches finished (with ``ended``: the hands that
    ended so, after a Decline, instead of the hands dealt). ``unnamed``: the reference
    state is sent the seat to act's actions without the seat (the other always with it)."""
    hands = matches = 0
    for opts in _samples(ruleset):
        rules = rules_for(ruleset, opts)
        for seed in range(2):
            rng = random.Random(seed)
            deals = SeededDeals(rules, seed)
            fast = GameState(rules, first_dealer=deals.first_dealer)
            slow = GameState(rules, first_dealer=deals.first_dealer, mechanisms=generic)
            for _ in range(2500):
                if fast.terminal:
                    matches += 1
                    break
                if fast.phase == DEAL:
                    hands += ended is None
                    deck, first = deals.next_deal(fast)
                    fast.deal(deck, first)
                    slow.deal(deck, first)
                else:
                    seat, action = choose(rng, fast)
                    fast.apply(action, seat=None if unnamed and seat == fast.to_act else seat)
                    slow.apply(action, seat=seat)
                    if ended is not None and isinstance(action, Decline) and fast.history \
                            and fast.history[-1].ended == ended and fast.to_act is None:
                        hands += 1
                assert _differing(fast, slow) == []
    return hands, matches


@pytest.mark.parametrize("ruleset", by_family())
def test_generated_hand_end_equals_the_scoring_methods(ruleset: str) -> None:
    hands, matches = _side_by_side(ruleset, replace(DEFAULT_MECHANISMS, scoring=_OwnScoring()))
    assert hands > 10 and matches >= 1


@pytest.mark.parametrize("ruleset", by_family())
def test_generated_trick_start_equals_the_trick_play_method(ruleset: str) -> None:
    rules = load_rules(ruleset)
    assert start_trick(replace(DEFAULT_MECHANISMS, tricks=_OwnStart()), rules) is not \
        start_trick(DEFAULT_MECHANISMS, rules)
    hands, _ = _side_by_side(ruleset, replace(DEFAULT_MECHANISMS, tricks=_OwnStart()))
    assert hands > 10


#: the talon games: the winner of a trick may pause before the draw or after the last trick
TALON = by_family([n for n in list_rulesets() if load_rules(n).talon_game])


def _claims_seldom(rng: random.Random, state: GameState) -> tuple[int, Any]:
    """A seeded random (seat, action) of the seat to act, a claim one time in ten where
    another action is offered (``pick_action`` claims whenever it may, so that its
    hands never end after the winner's pause)."""
    seat = state.to_act
    assert seat is not None
    acts = state.legal_actions()
    others = [a for a in acts if not isinstance(a, Claim)]
    return seat, rng.choice(others if others and rng.random() < 0.9 else list(acts))


@pytest.mark.parametrize("ruleset", TALON)
def test_generated_play_resumed_equals_the_claims_method(ruleset: str) -> None:
    rules = load_rules(ruleset)
    assert resume(DEFAULT_MECHANISMS, rules, Scoring().end_hand) is not None
    generic = replace(DEFAULT_MECHANISMS, tricks=_OwnDraw())
    assert resume(generic, rules, Scoring().end_hand) is None
    hands, matches = _side_by_side(ruleset, generic, unnamed=True, choose=_claims_seldom)
    assert hands > 10 and matches >= 1
    # and the pause was resumed: the hands that end after it, ended that way
    resumed = _side_by_side(ruleset, generic, unnamed=True, choose=_claims_seldom,
                            ended="played_out")
    assert resumed[0] > 10


@pytest.mark.parametrize("ruleset", ["belote", "thousand"])
def test_a_hand_end_whose_record_facts_come_from_the_mechanism(ruleset: str) -> None:
    """Hand points scored with the takers' or the contract's facts asked of the mechanism
    (no written sheet): the generated record names no hand's winner it never set."""
    from mariage.engine.state import new_match

    rules = replace(load_rules(ruleset), score_kind="points")
    end = hand_end(DEFAULT_MECHANISMS, rules)
    assert end is not None
    state, plain = new_match(rules, seed=1), new_match(rules, seed=1)
    end(state, "redeal")
    DEFAULT_MECHANISMS.scoring.end_hand(plain, "redeal")
    assert state.history == plain.history and state.history[-1].winner is None
