"""The engine protocol: framing rules, errors, the state's JSON form, `mariage engine`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from mariage.conformance.engine import ReferenceEngine, serve
from mariage.conformance.protocol import ERROR_CODES, ProtocolError, decode, state_json

DECK = [f"{r}{s}" for s in "HDCS" for r in "A3KQJ76542"]


def talk(lines: list[str]) -> list[dict]:
    import io

    out = io.StringIO()
    serve(ReferenceEngine(), io.StringIO("".join(line + "\n" for line in lines)), out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_blank_lines_ignored_unknown_fields_ignored_id_echoed() -> None:
    replies = talk(["", "   ", json.dumps({"type": "state", "id": 7, "colour": "red"})])
    assert replies == [{"type": "error", "code": "no_match", "id": 7,
                        "message": "start a match first"}]


def test_bad_lines_get_errors_and_the_engine_goes_on() -> None:
    replies = talk(["not json", "[1, 2]", '{"kind": 1}', '{"type": "dance"}',
                    json.dumps({"type": "start", "ruleset": "marianna", "dealer": 0,
                                "deck": DECK}),
                    '{"type": "apply"}', '{"type": "apply", "action": "KX"}',
                    '{"type": "apply", "action": "QS"}', '{"type": "quit"}', '{"type": "state"}'])
    codes = [r.get("code", r["type"]) for r in replies]
    assert codes == ["bad_json", "bad_json", "bad_request", "unknown_type", "ok",
                     "bad_request", "bad_action", "illegal_action", "bye"]
    assert replies[7]["rule"] == "core.hand"
    assert set(codes) - {"ok", "bye"} <= set(ERROR_CODES)


def test_start_checks_dealer_and_options() -> None:
    e = ReferenceEngine()
    assert e.handle({"type": "start", "ruleset": "marianna", "deck": DECK})["code"] == \
        "bad_request"
    assert e.handle({"type": "start", "ruleset": "mariazza", "dealer": 0,
                     "deck": DECK})["code"] == "bad_request"
    assert e.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": DECK,
                     "options": {"colour": "red"}})["code"] == "unsupported"
    assert e.handle({"type": "start", "ruleset": "nowhere", "dealer": 0,
                     "deck": DECK})["code"] == "unsupported"
    bad = e.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": DECK[:39]})
    assert bad["code"] == "illegal_action" and bad["rule"] == "core.deal"
    ok = e.handle({"type": "start", "ruleset": "mariazza", "dealer": None, "deck": DECK,
                   "first_player": 1, "options": {"target": 71}})
    assert ok == {"type": "ok"}
    assert e.handle({"type": "state"})["to_act"] == 1


def test_state_fields_and_refusal_leaves_state_unchanged() -> None:
    e = ReferenceEngine()
    e.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": DECK})
    before = e.handle({"type": "state"})
    assert set(before) == {"type", "phase", "hand", "trick", "dealer", "leader", "to_act",
                           "trump", "turn_up", "table", "stock", "hands", "declared",
                           "tricks_won", "hand_points", "match_scores", "segni", "last_hand",
                           "terminal", "result"}
    assert e.handle({"type": "apply", "action": "AD"})["rule"] == "core.hand"
    assert e.handle({"type": "state"}) == before
    assert e.handle({"type": "apply", "action": "marianna:H"}) == {"type": "ok"}
    after = e.handle({"type": "state"})
    assert after["trump"] == "H" and after["declared"] == [[1, "marianna", "H", 40]]
    assert after["hand_points"] == [0, 40]


def test_legal_for_another_seat_and_call_out() -> None:
    e = ReferenceEngine()
    e.handle({"type": "start", "ruleset": "mariaggia", "dealer": 0, "deck": DECK})
    assert e.handle({"type": "legal", "seat": 0}) == {"type": "legal", "seat": 0,
                                                      "actions": ["callout"]}
    assert e.handle({"type": "legal", "seat": 5})["code"] == "bad_request"
    assert e.handle({"type": "apply", "action": "callout", "seat": 0}) == {"type": "ok"}
    assert e.handle({"type": "state"})["last_hand"]["ended"] == "call_out_failed"


def test_hello_lists_rulesets_and_options() -> None:
    hello = ReferenceEngine().hello()
    assert hello["protocol"] == 2 and hello["engine"] == "mariage-reference"
    assert hello["features"] == ["hidden_cards"]
    assert hello["rulesets"]["marjapussi"]["options"]["pack_size"]["values"] == [36, 32, 28]
    assert "marianna_values" not in hello["rulesets"]["cinquecento"]["options"]


def test_decode_rejects_non_objects() -> None:
    with pytest.raises(ProtocolError):
        decode('"text"')
    with pytest.raises(ProtocolError):
        decode('{"type": 3}')


def test_state_json_between_hands_is_empty() -> None:
    from mariage import GameState, load_rules

    st = GameState(load_rules("marianna"), first_dealer=0)
    view = state_json(st)
    assert view["phase"] == "deal" and view["hands"] == [[], [], [], []]


def test_mariage_engine_subprocess() -> None:
    proc = subprocess.run([sys.executable, "-m", "mariage", "engine"],
                          input='{"type":"hello","protocol":1}\n{"type":"quit"}\n',
                          capture_output=True, text=True, timeout=60, check=True)
    lines = [json.loads(x) for x in proc.stdout.splitlines()]
    assert [x["type"] for x in lines] == ["hello", "bye"]
