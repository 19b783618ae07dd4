"""The slots a ruleset never writes, left out of the next deal (issue #28, twenty-second session).

:mod:`mariage.engine.unwritten` declares, per group of slots, the modules whose code
writes them and the rules under which it runs; the next deal neither stores nor
compares a slot whose rules are not met. A slot wrongly declared (written where the
declaration says it cannot be) would carry the last hand's value into the next: these
tests play every ruleset and hold each slot left out to its start at every hand's end
and after every action, compare the state after each next deal with one reset in full
by the generic path, and scan the package's source for the writes of every declared slot.
"""

from __future__ import annotations

import ast
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from mariage import GameState, Play, list_rulesets, load_rules
from mariage.engine.freshhand import hand_values, slots_of
from mariage.engine.mechanisms import DEFAULT_MECHANISMS, Auction
from mariage.engine.mechanisms.dealing import _plan_of
from mariage.engine.unwritten import WRITERS, unwritten_slots

RULESETS = list_rulesets()
#: every ruleset as bundled, and options that bring in a part its default lacks
CASES = [(name, {}) for name in RULESETS] + [("marjapussi-de", {"kontra_re": True})]
PACKAGE = Path(__file__).resolve().parent.parent / "reference" / "mariage"

#: slots that hold objects, not the hand's data (compared by identity where at all)
_NOT_DATA = frozenset({"rules", "mech", "_appliers", "_undo", "_marks", "_fresh", "_deals",
                       "_lays"})


def _full_deal(ref: GameState, deck: list[int], first: int | None) -> None:
    """The next deal by the generic path: every slot of the hand reset, then laid."""
    r = ref.rules
    dealer = ref.dealer
    start = 0 if dealer is None else (dealer + 1) % r.nseats
    ref.reset_hand()
    ref.hand_no += 1
    _plan_of(r).lay[start](ref, deck, dealer)
    ref.mech.dealing._open(ref, first, start)


def _data(st: GameState) -> dict[str, Any]:
    return {name: getattr(st, name) for name in slots_of(type(st))
            if name not in _NOT_DATA and hasattr(st, name)}


def _pick(state: GameState, rng: random.Random) -> Any:
    """A legal action at random; the actions that are not cards (Kontra, closes, claims,
    asks...) are rare among the legal ones: taken half the time where there are some."""
    actions = state.legal_actions()
    other = [a for a in actions if type(a) is not Play]
    pick = other if other and rng.random() < 0.5 else actions
    return pick[rng.randrange(len(pick))]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_slots_left_out_keep_their_start_and_the_deal_matches_a_full_reset(
        name: str, options: dict[str, Any]) -> None:
    rules = load_rules(name, options)
    starts = hand_values(GameState, rules)
    assert starts is not None
    deals = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = GameState(rules, first_dealer=seed % rules.nseats)
        left_out = unwritten_slots(state)
        for _ in range(6):
            if state.terminal:
                break
            deck = list(range(rules.ncards))
            rng.shuffle(deck)
            first = rng.randrange(rules.nseats) if rules.first_lead == "lot" else None
            ref = state.clone()
            if state.hand_no:  # a next deal: the same deck by the full reset
                _full_deal(ref, deck, first)
            else:
                ref.deal(deck, first)
            state.deal(deck, first)
            assert _data(state) == _data(ref), f"{name}: the deal differs from a full reset"
            deals += 1
            while state.to_act is not None:
                state.apply(_pick(state, rng))
                for slot in left_out:
                    assert getattr(state, slot) == starts[slot], \
                        f"{name}: {slot} written, but declared unwritten"
    assert deals >= 3


def test_the_slots_left_out_where_the_rules_lack_their_part() -> None:
    marianna = GameState(load_rules("marianna"), first_dealer=0)
    assert {"auction_passed", "ask_level", "call_credit", "pairs_said", "announced",
            "bid_suit", "double_window", "strain"} <= unwritten_slots(marianna)
    thousand = unwritten_slots(GameState(load_rules("thousand"), first_dealer=0))
    assert "auction_passed" not in thousand and "blind" not in thousand
    coinche = unwritten_slots(GameState(load_rules("belote-coinche"), first_dealer=0))
    assert not {"bid_suit", "double_window", "strain", "kontras"} & coinche
    kontra = GameState(load_rules("marjapussi-de", {"kontra_re": True}), first_dealer=0)
    assert "kontras" not in unwritten_slots(kontra)


def test_another_class_of_mechanism_or_state_keeps_the_full_reset() -> None:
    class Other(Auction):
        pass

    rules = load_rules("marianna")
    mech = replace(DEFAULT_MECHANISMS, auction=Other())
    assert unwritten_slots(GameState(rules, first_dealer=0, mechanisms=mech)) == frozenset()

    class Extended(GameState):
        __slots__ = ()

    assert unwritten_slots(Extended(rules, first_dealer=0)) == frozenset()


def test_a_slot_left_out_and_poked_stays_as_poked() -> None:
    """What the declaration means: the next deal no longer touches the slot at all."""
    rules = load_rules("marianna")
    state = GameState(rules, first_dealer=0)
    state.deal(list(range(rules.ncards)))
    state.ask_level[1] = 3
    while state.to_act is not None:
        state.apply(state.legal_actions()[0])
    state.deal(list(range(rules.ncards)))
    assert state.ask_level[1] == 3 and state.known == [0, 0, 0, 0]


# ------------------------------------------------------------------ the source scan
_MUTATORS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort",
                       "reverse", "__setitem__", "__iadd__"})


def _target_slot(node: ast.expr) -> str | None:
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.attr if isinstance(node, ast.Attribute) else None


def _writes(slots: frozenset[str], lists: frozenset[str]) -> dict[str, set[str]]:
    """Per slot, the modules (paths under the package) whose source writes it: a store
    of the attribute or of an item of it, a list method called on it, ``setattr`` with
    its name, a name bound to it where it is one of ``lists`` (the name may write the
    list), or a string (generated code) that does one of these."""
    found: dict[str, set[str]] = {s: set() for s in slots}
    methods = "|".join(sorted(_MUTATORS))
    texts = {s: re.compile(rf"\.{s}(\[[^\]]*\])*\s*([-+|&^*]|<<|>>)?=(?!=)|\.{s}\.({methods})\("
                           + (rf"|\w\s*=\s*\w+\.{s}\b(?!\s*[\[.(])" if s in lists else ""))
             for s in slots}
    for path in PACKAGE.rglob("*.py"):
        module = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign | ast.Delete):
                targets = list(node.targets)
            elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                targets = [node.target]
            # a name bound to the list itself may write it: the module counts as a writer
            value = getattr(node, "value", None) if isinstance(node, ast.Assign | ast.AnnAssign | \
                ast.NamedExpr) else None
            if isinstance(value, ast.Attribute) and value.attr in lists:
                found[value.attr].add(module)
            while targets:
                t = targets.pop()
                if isinstance(t, ast.Tuple | ast.List):
                    targets += t.elts
                elif isinstance(t, ast.Starred):
                    targets.append(t.value)
                elif (slot := _target_slot(t)) in found:
                    found[slot].add(module)
            if isinstance(node, ast.Call):
                f = node.func
                if isinstance(f, ast.Attribute) and f.attr in _MUTATORS and \
                        (slot := _target_slot(f.value)) in found:
                    found[slot].add(module)
                if isinstance(f, ast.Name) and f.id == "setattr" and len(node.args) > 1 and \
                        isinstance(node.args[1], ast.Constant) and node.args[1].value in found:
                    found[node.args[1].value].add(module)
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for s, pattern in texts.items():
                    if pattern.search(node.value):
                        found[s].add(module)
    return found


#: writes the scan finds of an attribute of the same name on another object, by module:
#: the hand end's sheet writer keeps whether it writes the announcements' terms; a
#: replay counts the forced cards it met; a step of the viewer's timeline keeps the held
#: points
_SAME_NAME = {"announced": {"engine/sheets.py"}, "forced": {"notation/replay.py"},
              "held": {"viewer/timeline.py"},
              # the mechanism of the game points, ``mech.game_points``, bound to a name
              "game_points": {"engine/sheets.py"},
              # examples in docstrings (a state built by hand), and the hand end's
              # generated code that reads the list by a name
              "used_suit": {"conformance/builthands.py"}, "decl_points": {"engine/handend.py"},
              # the viewer's tally of a match keeps its own list of the declarations
              "declared": {"viewer/stats.py"},
              # the hidden cards dealt again on a copy (a seat's view, a search, the
              # turned-up card swapped): each item of the list replaced, its length kept,
              # so an empty list stays empty (tests/test_nextdeal23.py)
              "aside": {"arena/search.py", "conformance/engine.py", "notation/turnedup.py"}}

#: the deliberately faulty engines of the conformance kit write some slots in their own
#: classes of mechanism or state, which keep the full reset (unwritten_slots is empty)
_FAULTY = re.compile(r"conformance/faulty_\w+\.py")


def test_every_write_of_a_declared_slot_is_in_a_module_the_declaration_names() -> None:
    declared = {s: set(modules) for modules, _, group in WRITERS for s in group}
    starts = hand_values(GameState, load_rules("marianna"))
    assert starts is not None
    found = _writes(frozenset(declared), frozenset(s for s in declared if type(starts[s]) is list))
    # the state's own making and reset (``_new_hand``) writes every slot
    extra = {s: sorted(found[s] - {f"engine/{m}" for m in declared[s]} - {"engine/state.py"}
                       - _SAME_NAME.get(s, set())
                       - {m for m in found[s] if _FAULTY.fullmatch(m)}) for s in declared}
    assert {s: m for s, m in extra.items() if m} == {}
    assert all(found[s] for s in declared)  # the scan finds the declared writers


def test_the_scan_finds_a_write_it_must_find(tmp_path: Path) -> None:
    """The scan itself: each form of write is found (so the test above can fail)."""
    global PACKAGE
    (tmp_path / "m.py").write_text(
        "def f(st):\n    st.ask_level[0] = 1\n    st.pairs_said.append(2)\n"
        "    st.strain = 3\n    st.blind |= True\n    setattr(st, 'holder_turn', 1)\n"
        "    src = '    st.call_credit[s] |= 1'\n    said = st.announced\n"
        "    src = '    seen = st.kontras'\n    src = '    h = st.held'\n"
        "    ok = st.talon[0], st.forced[1]\n", encoding="utf-8")
    saved, PACKAGE = PACKAGE, tmp_path
    try:
        found = _writes(frozenset({"ask_level", "pairs_said", "strain", "blind", "holder_turn",
                                   "call_credit", "announced", "kontras", "talon", "forced",
                                   "held"}), frozenset({"announced", "forced", "held"}))
    finally:
        PACKAGE = saved
    assert {s for s, m in found.items() if m} == {"ask_level", "pairs_said", "strain", "blind",
                                                   "holder_turn", "call_credit", "announced",
                                                   "held"}
