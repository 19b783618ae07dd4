"""Everything the reference can emit is defined in docs/protocol.rst: every hand ending and
match ending found in the interpreter's source, every error code the engine answers with,
every state field of every ruleset (in a hand and between hands), and the segni and
hand winners as documented."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.protocol import bidding_json, state_json
from mariage.engine.deals import SeededDeals
from mariage.engine.state import GameState
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "reference" / "mariage"
PROTOCOL = (ROOT / "docs" / "protocol.rst").read_text(encoding="utf-8")
ENDINGS = PROTOCOL.split("Hand endings", 1)[1].split("Outside a hand", 1)[0]
ERRORS = PROTOCOL.split("\nErrors\n", 1)[1]
STATE = PROTOCOL.split("\nThe state\n", 1)[1].split("\nErrors\n", 1)[0]


def _strings(node: ast.AST | None) -> set[str]:
    """The string constants a value may be: a constant, either side of ``a if c else b``,
    or either side of ``x or "y"``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    if isinstance(node, ast.BoolOp):
        return set().union(*(_strings(v) for v in node.values))
    return set()


def _calls(folder: Path) -> list[ast.Call]:
    out: list[ast.Call] = []
    for path in sorted(folder.rglob("*.py")):
        out += [n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(n, ast.Call)]
    return out


def _name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def emitted_endings() -> set[str]:
    """Every hand ending and match ending the interpreter's source can set."""
    found: set[str] = set()
    positions = {"end_hand": 1, "finish": 2, "check": 2}
    for call in _calls(PACKAGE / "engine"):
        at = positions.get(_name(call))
        if at is not None and len(call.args) > at:
            found |= _strings(call.args[at])
        for kw in call.keywords:
            if kw.arg in ("reason", "match_reason") and _name(call) != "IllegalActionError":
                found |= {s for s in _strings(kw.value) if " " not in s}
    return found


def emitted_error_codes() -> set[str]:
    """Every error code the reference engine's source answers with: the first argument
    of each ``ProtocolError`` and ``_error``, and each ``"code"`` of a dict literal."""
    found: set[str] = set()
    for call in _calls(PACKAGE / "conformance") + _calls(PACKAGE / "arena"):
        if _name(call) in ("ProtocolError", "_error") and call.args:
            found |= _strings(call.args[0])
    for path in (PACKAGE / "conformance" / "engine.py", PACKAGE / "arena" / "refengine.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if _strings(key) == {"code"}:
                        found |= _strings(value)
    return found


def test_the_source_scan_finds_the_endings_it_should() -> None:
    found = emitted_endings()
    assert {"played_out", "target", "call_out", "call_out_failed", "match_won", "claim",
            "false_claim", "redeal", "turn_up_bonus", "tie", "hands", "resign",
            "schneider_bummerl"} <= found


def test_every_ending_the_interpreter_emits_is_documented() -> None:
    for value in emitted_endings():
        assert f"``{value}``" in ENDINGS, f"'{value}' is not described under Hand endings " \
            "or Match endings of docs/protocol.rst"


def test_every_error_code_the_engine_emits_is_documented() -> None:
    codes = emitted_error_codes()
    assert {"bad_json", "bad_request", "unknown_type", "no_match", "unsupported",
            "bad_action", "illegal_action", "internal_error"} <= codes
    for code in codes:
        assert f"``{code}``" in ERRORS, code


#: Random play seldom ends a match that runs to a total (a Thousand of random bids
#: drifts below zero for ever): a match stops here after this many hands.
HANDS = 40


def _states(ruleset: str, seed: int = 1) -> list[GameState]:
    """States of a seeded random match: in hands, between hands and at its end (or
    after :data:`HANDS` hands)."""
    rules = load_rules(ruleset)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    state.deal_source = deals
    state.deal(*deals.next_deal())
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.terminal and len(state.history) < HANDS:
        acts = state.legal_actions()
        state.apply(acts[rng.randrange(len(acts))])
        if state.history and len(out) < 2:
            between = state.clone()
            out.append(between)
    out.append(state)
    return out


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_every_state_field_of_every_ruleset_is_documented(ruleset: str) -> None:
    fields: set[str] = set()
    for st in _states(ruleset):
        view = state_json(st)
        fields |= set(view)
        for key in ("last_hand", "result", "bidding"):
            if isinstance(view.get(key), dict):
                fields |= {f"{key}.{k}" for k in view[key]}
        if st.rules.auction_rule is not None:
            fields |= {f"bidding.{k}" for k in bidding_json(st, False)}
    for name in fields:
        head, _, sub = name.partition(".")
        assert f"``{head}``" in STATE, f"{ruleset}: state field '{head}' is not documented"
        if sub:
            assert f'"{sub}"' in STATE or f"``{sub}``" in STATE, \
                f"{ruleset}: '{name}' is not documented"


@pytest.mark.parametrize("ruleset", list_rulesets())
def test_segni_and_hand_winners_are_as_documented(ruleset: str) -> None:
    """Hands have a winner where hands are counted (segno scoring) and in the talon games
    (game points): there segni count them; elsewhere segni stay zero and last_hand.winner
    is null but for a rightful call-out."""
    state = _states(ruleset)[-1]
    rules = state.rules
    has_winner = rules.score_kind in ("segno", "game_points")
    winners = [h.winner for h in state.history]
    if has_winner:
        assert list(state.segni) == [winners.count(t) for t in range(len(rules.teams))]
        assert any(w is not None for w in winners)
    else:
        assert not any(state.segni)
        assert all(h.winner is None or h.ended == "call_out" for h in state.history)
    assert ("Schnapsen" in STATE and "Sixty-six" in STATE) or not has_winner


def test_the_hello_and_choose_answers_are_documented() -> None:
    engine = ReferenceEngine()
    hello = engine.handle({"type": "hello", "protocol": 2})
    for key in hello:
        assert f'"{key}"' in PROTOCOL or f"``{key}``" in PROTOCOL, key
    deck = [f"{r}{s}" for s in "HDCS" for r in "A3KQJ76542"]
    engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": deck})
    for key in engine.handle({"type": "choose", "seed": 1}):
        assert f'"{key}"' in PROTOCOL, key


def test_mariglia_hand_points_are_card_points_and_tricks_make_the_70() -> None:
    """As docs/protocol.rst says: hand_points leave out the point per trick; the score is
    the excess over 35 of card points plus tricks (70 in all)."""
    assert "60 + 10 =\n                  70" in STATE or "60 + 10 = 70" in STATE
    played = [h for seed in (1, 2, 3) for h in _states("mariglia", seed)[-1].history
              if h.ended == "played_out"]
    assert played
    for h in played:
        assert sum(h.points) == 60 and sum(h.tricks) == 10
        assert h.score == tuple(max(0, p + t - 35) for p, t in zip(h.points, h.tricks,
                                                                   strict=True))
