"""The end of a hand, thirty-eighth session: the record that the generated hand end
appends reads the tricks won (and a list of the sides' scores) by one ``tuple()``, not an
item per side, and the hand points games give the record's points and score as one
tuple, made once."""

from __future__ import annotations

import dis
import random

import pytest
from mariage import CallOut, Claim, GameState, list_rulesets, load_rules
from mariage.engine.deals import canonical_deck

RULESETS = list_rulesets()

#: the rulesets whose hand is scored by its points as they are (``score_kind: points``)
POINTS = ["marianna", "marianna-2", "marianna-3", "marianna-siciliana", "cinquecento",
          "cinquecento-siciliana", "mariaggia"]


def _items_read(code: dis.Bytecode | object, name: str) -> int:
    """How many times ``code`` reads an item of the attribute ``name`` by a constant
    index (``st.name[0]``), in it and the functions it defines."""
    found = 0
    codes = [code]
    while codes:
        c = codes.pop()
        ins = list(dis.get_instructions(c))  # type: ignore[arg-type]
        for a, b, d in zip(ins, ins[1:], ins[2:], strict=False):
            if a.opname == "LOAD_ATTR" and a.argval == name and b.opname == "LOAD_CONST" \
                    and type(b.argval) is int and d.opname == "BINARY_SUBSCR":
                found += 1
        codes += [k for k in c.co_consts if hasattr(k, "co_code")]  # type: ignore[attr-defined]
    return found


def _played(name: str, hands: int, seed: str) -> GameState:
    """A state of ``name`` after up to ``hands`` random hands (claims and call outs left
    out), each hand's record checked against the state at its end."""
    rules = load_rules(name)
    rng = random.Random(seed)
    state = GameState(rules, first_dealer=0)
    first = 0 if rules.first_lead == "lot" else None
    for _ in range(hands):
        deck = canonical_deck(rules)
        rng.shuffle(deck)
        state.deal(deck, first)
        while state.to_act is not None:
            legal = [a for a in state.legal_actions() if type(a) not in (Claim, CallOut)]
            state.apply(rng.choice(legal))
        wins = tuple(state.tricks_won)
        record = state.history[-1]
        assert record.tricks == wins and type(record.tricks) is tuple
        assert type(record.score) is tuple and len(record.score) == len(rules.teams)
        if state.terminal:
            break
    return state


@pytest.mark.parametrize("name", RULESETS)
def test_the_record_reads_the_tricks_won_in_one_call(name: str) -> None:
    """The generated hand end reads no item of ``st.tricks_won`` by a constant index for
    the record (one ``tuple()`` of the list), and the records it leaves hold the tricks
    won and the scores as tuples, as before."""
    state = GameState(load_rules(name), first_dealer=0)
    end_hand = state._appliers.end_hand
    assert end_hand.__code__.co_filename.startswith("<hand end of")
    assert _items_read(end_hand.__code__, "tricks_won") == 0
    assert "tuple" in end_hand.__code__.co_names
    _played(name, 3, f"record {name}")


@pytest.mark.parametrize("name", POINTS)
def test_the_hand_points_are_the_score_itself(name: str) -> None:
    """Where the hand points are the score, the hand end makes one tuple of them, which
    the record gives as its points and its score; the scores add up to the match's."""
    rules = load_rules(name)
    code = GameState(rules, first_dealer=0)._appliers.end_hand.__code__
    sides = len(rules.teams)
    built = [i.arg for i in dis.get_instructions(code) if i.opname == "BUILD_TUPLE"]
    assert built.count(sides) == 1, built
    state = _played(name, 4, f"points {name}")
    totals = [0] * sides
    for record in state.history:
        assert record.score is record.points
        totals = [a + b for a, b in zip(totals, record.score, strict=True)]
    assert totals == state.match_scores


def test_a_list_of_scores_is_recorded_by_one_call() -> None:
    """Where the sides' scores are a list (the contract sheet of Thousand), the record
    reads it by one ``tuple()``: no item of ``added`` read for the record."""
    code = GameState(load_rules("thousand"), first_dealer=0)._appliers.end_hand.__code__
    ins = list(dis.get_instructions(code))
    appended = [k for k, i in enumerate(ins) if i.argval == "_history"]
    assert appended
    # between the read of the list of records and its append, no item of ``added`` read
    for k in appended:
        end = next(j for j in range(k, len(ins)) if ins[j].opname == "CALL")
        window = ins[k:end]
        assert not any(i.opname == "LOAD_FAST" and i.argval == "added" and
                       window[n + 1].opname == "LOAD_CONST" for n, i in enumerate(window[:-1]))
    _played("thousand", 3, "thousand")
