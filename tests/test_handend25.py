"""The end of a hand in the talon games, by generated code (issue #28, twenty-fifth session).

A ``Decline`` sent by the seat to act after the hand's last trick ends a Schnapsen or
Sixty-six hand. The dispatch table's applier for it (``Dispatch.to_act``) is written per
ruleset (``mariage.engine.resume.resume_decline``: the decline entered, the play resumed
without the draw, the hand end), where it was :meth:`Claims.apply_decline`, which calls
:meth:`Claims.go_on`. These tests hold the written decline to the mechanism's own at
every moment (the hand's end, a decline in the middle of a hand, a close's reply, a
decline refused), and the checked deal's stock, read from the deck's locals, to the
plan's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.actions import Claim, Decline, Play
from mariage.engine.dispatch import dispatch_of
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, Claims
from mariage.engine.outcomes import HandRecord
from mariage.errors import IllegalActionError
from test_nextdeal23 import _take_source
from test_search_support import fingerprint

RULESETS = list_rulesets()
TALON = [n for n in RULESETS if load_rules(n).talon_game]


class _OwnDecline(Claims):
    """The claims of the reference, whose decline is its own method (nothing written)."""

    __slots__ = ()

    def apply_decline(self, st: GameState, seat: int, action: Decline) -> None:
        super().apply_decline(st, seat, action)


REFERENCE = replace(DEFAULT_MECHANISMS, claims=_OwnDecline())


#: the slots that hold the mechanisms or what is made of them (not the game)
MADE_OF_MECHANISMS = frozenset({"_appliers", "_deals", "_lays", "hooks", "mech"})


def _game(state: GameState) -> dict[str, Any]:
    return {k: v for k, v in fingerprint(state).items() if k not in MADE_OF_MECHANISMS}


def _deal_both(rng: random.Random, states: tuple[GameState, GameState], first: int | None
               ) -> None:
    """A shuffled pack dealt to both states."""
    deck = list(range(states[0].rules.ncards))
    rng.shuffle(deck)
    for st in states:
        st.deal(list(deck), first)


def _sent_to_both(states: tuple[GameState, GameState], action: Any,
                  seat: int | None = None) -> tuple[str, str] | None:
    """``action`` sent to both states: None where it is taken, else the rule and the
    message it is refused with (the state then untouched), the same for both."""
    outcomes: list[tuple[str, str] | None] = []
    for st in states:
        before = _game(st)
        try:
            st.apply(action, seat)
            outcomes.append(None)
        except IllegalActionError as e:
            outcomes.append((e.rule_id, str(e)))
            assert _game(st) == before
    assert outcomes[0] == outcomes[1]
    return outcomes[0]


def _written(applier: Any) -> bool:
    code = getattr(applier, "__code__", None)
    return code is not None and code.co_filename.startswith("<decline in ")


@pytest.mark.parametrize("name", RULESETS)
def test_the_decline_is_written_where_the_claims_apply_it(name: str) -> None:
    """A talon game's decline is the written one; no other game writes one; a claims
    mechanism with a decline of its own keeps it."""
    rules = load_rules(name)
    table = dispatch_of(DEFAULT_MECHANISMS, rules)
    assert _written(table.to_act.get(Decline)) == bool(rules.talon_game)
    own = dispatch_of(REFERENCE, rules).to_act.get(Decline)
    assert not _written(own)
    if rules.talon_game:
        assert own == REFERENCE.claims.apply_decline


def _pick(rng: random.Random, legal: list[Any]) -> Any:
    """Declines, closes and the other actions that are not cards taken often, claims
    (which end the hand) seldom."""
    others = [a for a in legal if type(a) is not Play and type(a) is not Claim]
    if len(others) < len(legal) and rng.random() < 0.9:
        legal = [a for a in legal if type(a) is not Claim]
    return rng.choice(others if others and rng.random() < 0.6 else legal)


@pytest.mark.parametrize("name", TALON)
def test_the_written_decline_plays_as_the_mechanism(name: str) -> None:
    """Over random hands (non-card actions preferred, so that closes, their replies and
    declines in the middle of a hand come up) two states, one with the written decline
    and one with the mechanism's, stay equal after every action; a decline sent at
    random moments is refused by both alike, the states untouched."""
    rules = load_rules(name)
    rng = random.Random(f"decline {name}")
    first = 0 if rules.first_lead == "lot" else None
    written_ends = declines = refused = 0
    for match in range(6):
        a = GameState(rules, first_dealer=match % rules.nseats)
        b = GameState(rules, first_dealer=match % rules.nseats, mechanisms=REFERENCE)
        assert _written(a._appliers.to_act[Decline]) and not _written(b._appliers.to_act[Decline])
        for _hand in range(4):
            if a.terminal:
                break
            _deal_both(rng, (a, b), first)
            while a.to_act is not None:
                if rng.random() < 0.1:  # a decline, legal or not
                    outcome = _sent_to_both((a, b), Decline())
                    refused += outcome is not None
                    declines += outcome is None
                else:
                    action = _pick(rng, a.legal_actions())
                    assert action in b.legal_actions()
                    hand = a.hand_no
                    a.apply(action)
                    b.apply(action)
                    declines += type(action) is Decline
                    written_ends += type(action) is Decline and a.to_act is None \
                        and a.hand_no == hand
                assert _game(a) == _game(b)
    assert written_ends > 4 and declines > written_ends and refused > 0, \
        (written_ends, declines, refused)


@pytest.mark.parametrize("name", ["schnapsen", "sixty-six", "marianna", "thousand",
                                  "belote"])
def test_the_checked_deal_reads_the_stock_from_the_locals(name: str,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """After its check, the checked deal reads no card of the deck by a subscript or a
    slice: the card turned up and the stock are the locals the deck was unpacked into,
    the stock last card first."""
    rules = load_rules(name)
    n = rules.ncards
    source = _take_source(name, monkeypatch)
    dealt = source.split("    st.hand_no += 1\n")[1]
    assert "c[" not in dealt
    stock = next(line for line in dealt.split("\n") if line.startswith("    st.stock = "))
    items = stock.split("= [")[1].rstrip("]").split(", ") if "[]" not in stock else []
    cards = [int(i[1:]) for i in items if i != "t"]
    assert cards == sorted(cards, reverse=True) and (not cards or cards[0] == n - 1)


@pytest.mark.parametrize("name", RULESETS)
def test_the_hand_end_leaves_the_default_fields_out_of_its_plain_record(name: str) -> None:
    """The hand end appends its record's fields up to the last that it writes (the
    others their defaults); read, the record has every field, and equals the record of
    the fields written out in full."""
    rules = load_rules(name)
    rng = random.Random(f"record {name}")
    state = GameState(rules, first_dealer=0)
    first = 0 if rules.first_lead == "lot" else None
    deck = list(range(rules.ncards))
    rng.shuffle(deck)
    state.deal(deck, first)
    skip_last = 1 if rules.call_out_rule else 0  # (the call out, listed last: its own path)
    while state.to_act is not None:
        legal = [a for a in state.legal_actions() if type(a) is not Claim]
        state.apply(legal[rng.randrange(len(legal) - skip_last)])
    plain = state._history[-1]
    fields = HandRecord.__match_args__
    assert type(plain) is tuple and 6 <= len(plain) <= len(fields)
    defaults = [vars(HandRecord)["__record_defaults__"][f] for f in fields[len(plain):]]
    record = state.history[-1]
    assert type(record) is HandRecord and len(record) == len(fields)
    assert tuple(record) == (*plain, *defaults)
    if name in ("marianna", "schnapsen", "sixty-six"):  # (no contract: its fields left out)
        assert len(plain) < len(fields)
