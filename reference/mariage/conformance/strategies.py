"""Hypothesis strategies for engine authors: deals, option sets and legal action sequences.

Needs Hypothesis (``pip install mariage[test]``). Everything drawn is in the
protocol's terms (card codes, action texts, ``start`` fields), so an engine
in any language can be driven with it through the protocol, and the
reference interpreter tells what is legal::

    from hypothesis import given
    from mariage.conformance.strategies import matches

    @given(matches("marianna", max_actions=40))
    def test_my_engine_accepts_every_legal_sequence(match):
        engine.start(match.ruleset, match.options, **match.start)
        for step in match.steps:
            ...

>>> from hypothesis import given, settings
>>> @settings(max_examples=5, derandomize=True, database=None)
... @given(decks("mariglia"))
... def check(deck):
...     assert sorted(deck) == sorted(pack("mariglia"))
>>> check()
>>> wanted = "mariazza"
>>> @settings(max_examples=5, derandomize=True, database=None)
... @given(matches(wanted, max_actions=10))
... def check_match(m):
...     assert m.ruleset == wanted and len(m.steps) <= 11
>>> check_match()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from mariage.engine.actiontext import action_text
from mariage.engine.state import GameState, Phase
from mariage.spec.options import given_only
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets, load_document

from ..errors import MariageError

__all__ = ["Match", "decks", "matches", "option_sets", "pack", "rulesets", "starts"]


def pack(ruleset: str, options: dict[str, Any] | None = None) -> list[str]:
    """Every card code of the ruleset's pack (under ``options``), in the spec's order."""
    rules = load_rules(ruleset, options or {})
    return [rules.card_code[c] for c in range(rules.ncards)]


def rulesets() -> st.SearchStrategy[str]:
    """The bundled ruleset names."""
    return st.sampled_from(list_rulesets())


def decks(ruleset: str, options: dict[str, Any] | None = None) -> st.SearchStrategy[list[str]]:
    """Decks for ``start``/``deal``: every card of the pack once, top card first."""
    return st.permutations(pack(ruleset, options))


def _valid(ruleset: str, options: dict[str, Any]) -> bool:
    try:
        load_rules(ruleset, options)
    except MariageError:
        return False
    return True


def option_sets(ruleset: str, int_span: int = 3) -> st.SearchStrategy[dict[str, Any]]:
    """Option values differing from the defaults (possibly none), each valid.

    ``int`` options are drawn from their ``min`` up to ``int_span`` times the
    default; enum values keep their JSON type.
    """
    specs = load_rules(ruleset).document.get("options") or {}
    parts: dict[str, st.SearchStrategy[Any]] = {}
    for name, spec in specs.items():
        if not spec:
            continue
        kind = spec["type"]
        if kind == "bool":
            parts[name] = st.booleans()
        elif kind == "int":
            lo = int(spec.get("min", 1))
            hi = int(spec.get("max", max(lo, int(spec["default"]) * int_span)))
            parts[name] = st.integers(lo, hi)
        else:
            parts[name] = st.sampled_from(list(spec["values"]))
    doc = load_document(ruleset)

    def differing(values: dict[str, Any]) -> dict[str, Any]:
        return given_only(doc, values)

    return st.fixed_dictionaries({}, optional=parts).map(differing).filter(
        lambda o: _valid(ruleset, o))


@st.composite
def starts(draw: st.DrawFn, ruleset: str, options: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    """The ``dealer``, ``deck`` and ``first_player`` fields of a ``start`` request."""
    rules = load_rules(ruleset, options or {})
    dealer = None if rules.first_dealer == "none" else draw(st.integers(0, rules.nseats - 1))
    first = draw(st.integers(0, rules.nseats - 1)) if rules.first_lead == "lot" else None
    return {"dealer": dealer, "deck": draw(decks(ruleset, options)), "first_player": first}


@dataclass
class Match:
    """A match drawn by :func:`matches`: start it, then send each step.

    ``steps`` are in the suite's step format: ``{"act": TEXT}`` (by the seat
    to act) or ``{"deal": {"deck": [...], "first_player": ...}}``.
    """

    ruleset: str
    options: dict[str, Any]
    start: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)


@st.composite
def matches(draw: st.DrawFn, ruleset: str | None = None, max_actions: int = 60,
            options: dict[str, Any] | None = None) -> Match:
    """A match and a sequence of up to ``max_actions`` legal actions of the seat to act
    (as the reference interpreter rules), with the deals of later hands."""
    name = ruleset if ruleset is not None else draw(rulesets())
    opts = options if options is not None else draw(option_sets(name))
    rules = load_rules(name, opts)
    start = draw(starts(name, opts))
    state = GameState(rules, first_dealer=start["dealer"])
    state.deal(start["deck"], start["first_player"])
    match = Match(name, opts, start)
    acts = 0
    while acts < max_actions and not state.terminal:
        if state.phase is Phase.DEAL:
            deal = draw(starts(name, opts))
            state.deal(deal["deck"], deal["first_player"])
            match.steps.append({"deal": {"deck": deal["deck"],
                                         "first_player": deal["first_player"]}})
            continue
        legal = state.legal_actions()
        action = legal[draw(st.integers(0, len(legal) - 1))]
        state.apply(action)
        match.steps.append({"act": action_text(rules, action)})
        acts += 1
    return match
