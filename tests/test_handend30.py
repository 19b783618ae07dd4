"""An action without fields applied straight by ``GameState.apply`` (issue #28, thirtieth
session).

A ``Decline`` (which ends a talon game's hand), a ``Pass``, a ``Concede``, a ``Close``...
has no field to check. When the seat to act sends one (no seat named) and marks are
off, ``GameState.apply`` calls its applier from ``Dispatch.to_act_plain`` at once,
where it went through the marks' test, the fields' lookup and the phase's tests before
calling the same applier from ``Dispatch.to_act``. These tests hold the table to what it
is made of, the call to the path it takes, and the play to the checked path's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.actionfields import FIELDS_OK
from mariage.engine.actions import Claim, Close, Concede, Decline, Pass, Play
from mariage.engine.dispatch import dispatch_of
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from test_handend25 import _deal_both, _game, _pick, _sent_to_both

RULESETS = list_rulesets()
#: actions without fields, sent at random moments (legal or not)
PLAIN = (Decline(), Pass(), Concede(), Close())
@pytest.mark.parametrize("name", RULESETS)
def test_the_plain_appliers_are_those_without_fields(name: str) -> None:
    """``to_act_plain`` holds the appliers of ``to_act`` whose action type has no field
    to check, the same objects, and no other."""
    table = dispatch_of(DEFAULT_MECHANISMS, load_rules(name))
    assert table.to_act_plain == {k: a for k, a in table.to_act.items()
                                  if FIELDS_OK[k] is None}
    assert Play not in table.to_act_plain
    assert all(table.to_act_plain[k] is table.to_act[k] for k in table.to_act_plain)


def _spied(state: GameState, calls: list[Any]) -> None:
    """The state's plain appliers replaced by ones that note each call, then apply."""
    def spy(applier: Any) -> Any:
        def noted(st: GameState, seat: int, action: Any) -> None:
            calls.append(action)
            applier(st, seat, action)
        return noted
    table = state._appliers
    state._appliers = replace(table, to_act_plain={
        k: spy(a) for k, a in table.to_act_plain.items()})


@pytest.mark.parametrize("name", ["schnapsen", "thousand"])
def test_apply_calls_the_plain_applier_of_the_seat_to_act(name: str) -> None:
    """A decline (Schnapsen) or a pass (Thousand's auction) sent with no seat named
    takes the plain applier; named for the seat to act, or with marks on, it does not."""
    rules = load_rules(name)
    rng = random.Random(name)
    kind = Decline if rules.talon_game else Pass
    taken = checked = 0
    for match in range(8):
        state = GameState(rules, first_dealer=match % rules.nseats)
        deck = list(range(rules.ncards))
        rng.shuffle(deck)
        state.deal(deck)
        calls: list[Any] = []
        _spied(state, calls)
        while state.to_act is not None:
            legal = [a for a in state.legal_actions() if type(a) is not Claim]
            plain = [a for a in legal if type(a) is kind]
            if plain and match % 4 == 1:  # named for the seat to act: the checked path
                state.apply(plain[0], seat=state.to_act)
                assert calls == []
                checked += 1
            elif plain and match % 4 == 2:  # marks on: the checked path
                state.enable_undo(marks_only=True)
                state.mark()
                state.apply(plain[0])
                assert calls == []
                checked += 1
                break
            elif plain:
                state.apply(plain[0])
                assert calls == [plain[0]]
                calls.clear()
                taken += 1
            else:
                state.apply(rng.choice(legal))
                calls.clear()
    assert taken > 2 and checked > 2, (taken, checked)


@pytest.mark.parametrize("name", RULESETS)
def test_the_plain_path_plays_as_the_checked_path(name: str) -> None:
    """Over random hands (the actions that are not cards preferred), a state whose
    plain appliers are taken and one without any (every action by the checked path)
    stay equal after every action other than a card and at each hand's end; an action
    without fields sent at random moments, by the seat to act or another, is refused by
    both alike, the states untouched."""
    rules = load_rules(name)
    rng = random.Random(f"plain {name}")
    first = 0 if rules.first_lead == "lot" else None
    plain = refused = 0
    offered = False
    for match in range(2):
        a = GameState(rules, first_dealer=match % rules.nseats)
        b = GameState(rules, first_dealer=match % rules.nseats)
        b._appliers = replace(b._appliers, to_act_plain={})
        for _hand in range(3):
            if a.terminal:
                break
            _deal_both(rng, (a, b), first)
            while a.to_act is not None:
                if rng.random() < 0.15:  # an action without fields, legal or not
                    seat = None if rng.random() < 0.7 else rng.randrange(rules.nseats)
                    refused += _sent_to_both((a, b), rng.choice(PLAIN), seat) is not None
                    continue
                legal = a.legal_actions()
                offered |= any(FIELDS_OK[type(x)] is None and type(x) is not Claim
                               for x in legal)
                action = _pick(rng, legal)
                a.apply(action)
                b.apply(action)
                if type(action) is not Play or a.to_act is None:  # (a card: one path)
                    plain += FIELDS_OK[type(action)] is None
                    assert _game(a) == _game(b)
    assert refused > 0 and plain > 0 if offered else refused > 0, (name, refused, plain)
