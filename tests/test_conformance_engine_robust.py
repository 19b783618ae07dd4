"""`mariage engine` answers every request and never dies (#13.3), and a Hypothesis fuzz
harness over the protocol and over the runner against misbehaving engines.

The fuzz tests run a bounded number of examples (the Hypothesis profile of
``tests/conftest.py``); ``MARIAGE_FUZZ_LONG=1`` runs them for hours
(100,000 examples each).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage.conformance.client import EngineClient, EngineFailure, HandshakeError, Transport
from mariage.conformance.engine import ReferenceEngine, serve
from mariage.conformance.protocol import ERROR_CODES, MAX_LINE
from mariage.conformance.runner import run_test
from mariage.conformance.suite import load_suite

DECK = [f"{r}{s}" for s in "HDCS" for r in "A3KQJ76542"]
START = {"type": "start", "ruleset": "marianna", "dealer": 0, "deck": DECK}
LONG = os.environ.get("MARIAGE_FUZZ_LONG") == "1"
FUZZ = settings(max_examples=100_000, deadline=None) if LONG else settings()


def talk(data: str | bytes, engine: ReferenceEngine | None = None) -> list[dict[str, Any]]:
    out = io.StringIO()
    inp: Any = io.BytesIO(data) if isinstance(data, bytes) else io.StringIO(data)
    serve(engine or ReferenceEngine(), inp, out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def lines(*msgs: Any) -> str:
    return "".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in msgs)


@pytest.mark.parametrize("line", ['{"type": "legal", "seat": NaN}', '{"type": "state", "x": '
                                  'Infinity}', '{"type": "state", "x": -Infinity}',
                                  '{"type": "state", "x": 1e999}', '{"type": "state", "x": ' +
                                  "9" * 5000 + "}"])
def test_not_json_numbers_are_bad_json(line: str) -> None:
    assert [r["code"] for r in talk(line + "\n")] == ["bad_json"]


@pytest.mark.parametrize("line", ["\f", "\v", "\x1c", "\u00a0", "\u2028",
                                  '\f{"type": "state"}'])
def test_lines_with_other_white_space_are_answered(line: str) -> None:
    replies = talk(line + "\n" + '{"type": "state"}\n')
    assert [r["code"] for r in replies] == ["bad_json", "no_match"]


def test_blank_lines_with_spaces_tabs_and_cr_are_ignored() -> None:
    assert talk(" \t\r\n\r\n" + '{"type": "state"}\r\n')[0]["code"] == "no_match"


def test_a_line_above_the_maximum_is_answered_and_skipped() -> None:
    big = '{"type": "state", "pad": "' + "x" * (MAX_LINE + 10) + '"}'
    replies = talk(lines(START, big, {"type": "legal"}))
    assert [r.get("code", r["type"]) for r in replies] == ["ok", "bad_json", "legal"]
    assert "longer than" in replies[1]["message"]


def test_bytes_that_are_not_utf8() -> None:
    replies = talk(b'{"type": "st\xffate"}\n{"type": "state"}\n')
    assert [r["code"] for r in replies] == ["bad_json", "no_match"]


@pytest.mark.parametrize("options,code", [
    ({"target": "301"}, "bad_request"), ({"target": 300.5}, "bad_request"),
    ({"target": True}, "bad_request"), ({"trick_six": "yes"}, "bad_request"),
    ({"trick_six": 1}, "bad_request"), ({"target": 10**30}, "unsupported"),
    ({"target": 0}, "unsupported"), ({"target": -5}, "unsupported"),
    ({"marianna_values": 40}, "unsupported"), ({"colour": "red"}, "unsupported"),
])
def test_strict_option_types(options: dict[str, Any], code: str) -> None:
    e = ReferenceEngine()
    assert e.handle({**START, "options": options})["code"] == code


def test_enum_values_keep_their_json_type() -> None:
    e = ReferenceEngine()
    start = {**START, "ruleset": "marjapussi"}
    assert e.handle({**start, "options": {"pack_size": "32"}})["code"] == "unsupported"
    assert e.handle({**start, "deck": _pack(32), "options": {"pack_size": 32}}) == {"type": "ok"}


def _pack(n: int) -> list[str]:
    from mariage import load_rules

    r = load_rules("marjapussi", {"pack_size": n})
    return [r.card_code[c] for c in range(r.ncards)]


@pytest.mark.parametrize("req", [
    {"type": "legal", "seat": 10**40}, {"type": "legal", "seat": -1},
    {"type": "apply", "action": "AH", "seat": 2**70}, {"type": "resign", "seat": 99},
    {"type": "resign", "seat": -1}, {"type": "resign", "seat": 1.5},
    {"type": "choose", "seat": 7}, {"type": "choose", "budget_ms": 0},
    {"type": "choose", "budget_ms": 10**12}, {"type": "choose", "seed": -1},
    {"type": "choose", "bot": "oracle"}, {"type": "deal", "deck": "AH"},
])
def test_out_of_range_numbers_get_errors(req: dict[str, Any]) -> None:
    e = ReferenceEngine()
    e.handle(START)
    before = e.handle({"type": "state"})
    reply = e.handle(req)
    assert reply["type"] == "error" and reply["code"] in ERROR_CODES
    assert reply["code"] != "internal_error"
    assert e.handle({"type": "state"}) == before


def test_start_out_of_range_dealer_and_first_player() -> None:
    e = ReferenceEngine()
    assert e.handle({**START, "dealer": 10**30})["code"] == "bad_request"
    for first in (7, -1, 10**30):
        reply = e.handle({**START, "ruleset": "mariazza", "dealer": None, "first_player": first})
        assert reply["code"] == "illegal_action" and reply["rule"] == "core.deal"
        assert "first_player" in reply["message"]


@pytest.mark.parametrize("ruleset", ["spec/marianna.yaml", "/dev/stdin", "../spec/marianna",
                                     "marianna.yaml", "/etc/passwd", "", "MARIANNA"])
def test_ruleset_must_be_a_bundled_name(ruleset: str) -> None:
    e = ReferenceEngine()
    assert e.handle({**START, "ruleset": ruleset})["code"] == "unsupported"


def test_ruleset_files_only_behind_the_flag(tmp_path: Any) -> None:
    from mariage.resources import spec_dir

    path = str(spec_dir() / "marianna.yaml")
    assert ReferenceEngine().handle({**START, "ruleset": path})["code"] == "unsupported"
    assert ReferenceEngine(ruleset_files=True).handle({**START, "ruleset": path}) == {"type": "ok"}
    assert ReferenceEngine(ruleset_files=True).handle(
        {**START, "ruleset": "/dev/stdin"})["code"] == "unsupported"


def test_a_refused_start_leaves_the_previous_match_intact() -> None:
    e = ReferenceEngine()
    e.handle(START)
    e.handle({"type": "apply", "action": "marianna:H"})
    before = e.handle({"type": "state"})
    for bad in ({**START, "deck": DECK[:39]}, {**START, "ruleset": "nowhere"},
                {**START, "options": {"target": "1"}}, {**START, "dealer": 9},
                {**START, "ruleset": "mariazza", "dealer": None, "first_player": 5}):
        assert e.handle(bad)["type"] == "error"
        assert e.handle({"type": "state"}) == before


def test_subprocess_memory_stays_bounded_on_a_huge_line(tmp_path: Any) -> None:
    """40 MiB on one line: answered with one error, and the engine's peak memory grows by
    far less than the line."""
    def peak(parts: list[bytes], repeat: int = 1) -> tuple[int, list[str]]:
        # written in pieces: the child's peak memory starts at ours when it is forked
        src = tmp_path / "in.txt"
        with src.open("wb") as f:
            f.write(parts[0])
            for _ in range(repeat):
                f.write(parts[1])
            f.write(parts[2])
        with src.open("rb") as inp:
            proc = subprocess.Popen([sys.executable, "-m", "mariage", "engine"], stdin=inp,
                                    stdout=subprocess.PIPE)
            assert proc.stdout is not None
            out = proc.stdout.read()
            _, _, usage = os.wait4(proc.pid, 0)
            proc.returncode = 0
        return usage.ru_maxrss, [json.loads(x)["type"] for x in out.splitlines()]

    base_kib, small = peak([b'{"type":"state","pad":"', b"x", b'"}\n{"type":"quit"}\n'])
    assert small == ["error", "bye"]
    rss_kib, types = peak([b'{"type":"state","pad":"', b"x" * (1 << 20),
                           b'"}\n{"type":"quit"}\n'], repeat=40)
    assert types == ["error", "bye"]
    assert rss_kib - base_kib < 15 << 10  # the whole line would take 40 MiB by itself


def test_choose_is_advertised_and_from_the_seats_view_only() -> None:
    e = ReferenceEngine()
    assert "choose" in e.hello()["requests"]
    e.handle(START)
    legal = e.handle({"type": "legal"})["actions"]
    got = e.handle({"type": "choose", "budget_ms": 50, "bot": "random", "seed": 3})
    assert got["type"] == "choose" and got["seat"] == 1 and got["action"] in legal
    # the hidden cards (other hands, stock) dealt otherwise: the same choice
    from mariage.conformance.engine import _sample_view

    assert e.state is not None
    a = _sample_view(e.state, 1, __import__("random").Random(5))
    assert a.hands[1] == e.state.hands[1] and len(a.stock) == len(e.state.stock)
    assert sorted(a.stock + [c for s in (0, 2, 3) for c in a.rules.cards_of(a.hands[s])]) == \
        sorted(e.state.stock + [c for s in (0, 2, 3) for c in a.rules.cards_of(
            e.state.hands[s])])


def test_choose_between_hands_and_without_a_match() -> None:
    e = ReferenceEngine()
    assert e.handle({"type": "choose"})["code"] == "no_match"
    e.handle(START)
    e.handle({"type": "resign", "seat": 0})
    reply = e.handle({"type": "choose"})
    assert reply["code"] == "illegal_action" and reply["rule"] == "core.over"


# ---------------------------------------------------------------- fuzzing the engine

WORDS = ["hello", "start", "deal", "legal", "apply", "resign", "state", "quit", "choose",
         "log", "", "HELLO"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**80, max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)
requests = st.fixed_dictionaries(
    {"type": st.sampled_from(WORDS)},
    optional={"ruleset": st.sampled_from(["marianna", "mariazza", "marjapussi", "x", "/dev/stdin"])
              | json_values,
              "dealer": st.integers(-3, 5) | json_values,
              "deck": st.just(DECK) | st.lists(st.sampled_from(DECK), max_size=45) | json_values,
              "first_player": st.integers(-1, 4) | json_values,
              "options": st.dictionaries(st.sampled_from(["target", "trick_six", "exchange",
                                                          "hands", "pack_size", "x"]),
                                         json_values, max_size=2) | json_values,
              "action": st.sampled_from(["AH", "marianna:H", "pass", "yes", "callout", "no",
                                         "ask:cover:H", "exchange:7H", "KH"]) | json_values,
              "seat": st.integers(-1, 5) | json_values, "id": json_values,
              "budget_ms": st.integers(-1, 70_000) | json_values,
              "bot": st.sampled_from(["greedy", "random", "x"]) | json_values,
              "seed": st.integers(-1, 2**65) | json_values})


def _mutate(line: str, data: st.DataObject) -> str:
    how = data.draw(st.sampled_from(["keep", "cut", "flip", "insert", "control"]))
    if how == "keep" or not line:
        return line
    at = data.draw(st.integers(0, len(line) - 1))
    if how == "cut":
        return line[:at]
    if how == "flip":
        return line[:at] + data.draw(st.characters(max_codepoint=0x2FFF)) + line[at + 1:]
    if how == "insert":
        return line[:at] + data.draw(st.sampled_from(["NaN", "Infinity", "1e999", "\f", "\x00",
                                                      '"', "{", "]", "\\"])) + line[at:]
    return data.draw(st.sampled_from(["\f", "\v", "\x1c\x1d", " \t ", "\r"])) + line


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_fuzz_every_line_gets_one_documented_answer(data: st.DataObject) -> None:
    reqs = data.draw(st.lists(requests, min_size=1, max_size=12))
    sent = [START, *reqs] if data.draw(st.booleans()) else reqs
    raw = [_mutate(json.dumps(r), data) for r in sent]
    raw = [x.replace("\n", " ") for x in raw]
    out = io.StringIO()
    serve(ReferenceEngine(), io.StringIO("".join(x + "\n" for x in raw)), out)
    replies = [json.loads(x) for x in out.getvalue().splitlines()]
    answered = [x for x in raw if x.strip(" \t\r")]
    ends = next((i for i, r in enumerate(replies) if r["type"] == "bye"), None)
    assert len(replies) == (ends + 1 if ends is not None else len(answered))
    for r in replies:
        assert r["type"] in ("ok", "hello", "legal", "state", "bye", "error", "choose")
        if r["type"] == "error":
            assert r["code"] in ERROR_CODES and r["code"] != "internal_error", r
            assert (r["code"] == "illegal_action") == ("rule" in r)


# ---------------------------------------------------------------- fuzzing the runner

class Scripted(Transport):
    """An engine that answers from a script of lines (``None``: stays silent)."""

    def __init__(self, script: list[str | None]) -> None:
        self.script = list(script)
        self.hello = json.dumps(ReferenceEngine().hello())
        self.said_hello = False

    def send(self, line: str | bytes, deadline: float | None = None,
             timeout: float = 10.0) -> None:
        if isinstance(line, str) and '"hello"' in line and not self.said_hello:
            self.said_hello = True
            self.script.insert(0, self.hello)

    def receive(self, deadline: float, timeout: float) -> str:
        if not self.script:
            raise EngineFailure("crash", "the engine closed its output (exited?)")
        if time.monotonic() > deadline:
            raise EngineFailure("timeout", "late")
        item = self.script.pop(0)
        if item is None:
            raise EngineFailure("timeout", f"no response within {timeout:g} s")
        return item

    def close(self) -> None:
        pass


response_lines = st.one_of(
    st.none(), st.just(""), st.just("   "), st.just('{"type": "log", "text": "x"}'),
    st.just('{"type": "ok"}'), st.just("not json"), st.just('{"type": "error", "code": '
                                                            '"illegal_action", "rule": "x"}'),
    st.just('{"type": "legal", "actions": ["AH", "AH"]}'), st.just('{"type": "legal"}'),
    st.just('{"type": "state", "phase": 3}'), st.just("[1, 2]"), st.just('{"type": 5}'),
    json_values.map(json.dumps), st.text(max_size=20).map(lambda t: t.replace("\n", "")))
TESTS = [t for t in load_suite(rulesets=["mariazza"]) if t.kind in ("scenario", "perft")][:6]


@pytest.mark.slow
@FUZZ
@given(st.lists(response_lines, max_size=40), st.sampled_from(TESTS))
def test_fuzz_runner_against_misbehaving_engines(script: list[str | None], test: Any) -> None:
    client = EngineClient(lambda: Scripted(script), timeout=1)
    try:
        out = run_test(client, test, test_timeout=5)
    except HandshakeError:  # only the hello can raise, and the script never breaks it
        pytest.fail("the scripted hello is always right")
    finally:
        client.close()
    assert out.status in ("fail", "error")
    assert out.message and "\n" not in out.message


@pytest.mark.slow
@FUZZ
@given(st.lists(st.one_of(st.binary(max_size=64), st.sampled_from(
    [b"\n", b'{"type": "ok"}\n', b'{"type": "log", "text": "x"}\n', b"   \n", b"\xff\xfe\n",
     b'{"type": "ok"', b"x" * 5000])), max_size=20))
def test_fuzz_transport_reads_any_bytes(chunks: list[bytes]) -> None:
    """Whatever bytes an engine writes, the runner's reader returns lines or reports an
    engine failure; it never raises anything else, and never waits past its deadline."""
    r, w = os.pipe()
    try:
        data = b"".join(chunks)
        os.write(w, data[:60000])
        os.close(w)
        w = -1
        transport = Transport(r, -1)
        seen = 0
        t0 = time.monotonic()
        while True:
            try:
                line = transport.receive(time.monotonic() + 1, 1)
            except EngineFailure as exc:
                assert exc.kind in ("crash", "garbage", "timeout")
                break
            assert "\n" not in line
            seen += 1
            assert seen <= data.count(b"\n")
        assert time.monotonic() - t0 < 5
    finally:
        os.close(r)
        if w >= 0:
            os.close(w)
