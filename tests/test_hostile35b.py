"""Follow-ups of the thirty-fifth session's hostile sweep (``test_hostile35``): an engine
that closes its output and runs on (each test waited 1.2 s on it: 32 Schnapsen tests took
43 s), :meth:`ReferenceEngine.handle` given what is no message, and the last deep errors
of the API given the wrong types.

Each test names what happened before its fix.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import threading
import time
from typing import Any

import pytest
from mariage import GameState, Play, load_rules, new_match
from mariage.arena.search import determinize
from mariage.conformance.client import CLOSE_GRACE, ProcessTransport
from mariage.conformance.engine import ReferenceEngine, serve
from mariage.notation.errors import RecordError
from mariage.notation.placement import replay_tracked
from mariage.notation.reader import syntax_errors
from mariage.spec.options import parse_option_value

RULES = load_rules("schnapsen")
STATE = new_match(RULES, 1)


# -- an engine that closed its output ---------------------------------------------------

class _Engine:
    """The process of an engine as :class:`ProcessTransport` asks it: running until
    ``exits_at`` (a :func:`time.monotonic` time; ``None``: for good), then exited with
    code 1."""

    pid = -1

    def __init__(self, exits_at: float | None) -> None:
        self.exits_at = exits_at

    def poll(self) -> int | None:
        return 1 if self.exits_at is not None and time.monotonic() >= self.exits_at else None

    def wait(self, timeout: float) -> int:
        left = timeout if self.exits_at is None else self.exits_at - time.monotonic()
        time.sleep(max(0.0, min(left, timeout)))
        code = self.poll()
        if code is None:
            raise subprocess.TimeoutExpired("engine", timeout)
        return code


def _transport(exits_at: float | None, said: bytes) -> tuple[ProcessTransport, int]:
    """A :class:`ProcessTransport` of no process (its engine :class:`_Engine`), whose
    standard error has said ``said`` and is read by its own thread, as a started one's
    is; and the write end of that standard error (to close: the engine exits)."""
    t = object.__new__(ProcessTransport)
    err_r, err_w = os.pipe()
    t.proc, t._watch, t._tail = _Engine(exits_at), None, bytearray()  # type: ignore[assignment]
    t.closed_for_good = False
    os.write(err_w, said)
    t._errors = threading.Thread(target=t._drain, args=(os.fdopen(err_r, "rb"),), daemon=True)
    t._errors.start()
    return t, err_w


def test_an_engine_that_closed_its_output_and_runs_on_is_not_waited_for() -> None:
    """Its last words were waited for 1.0 s (0.5 s for it to exit, 0.5 s for its standard
    error to end) on each test, then 0.2 s more for it to take its ``quit``: an engine
    whose output is closed can never answer again."""
    t, err_w = _transport(None, b"closing my output\n")
    try:
        t0 = time.monotonic()
        words = t.last_words()
        spent = time.monotonic() - t0
    finally:
        os.close(err_w)
        t._errors.join(5)
    assert words == "; its standard error ends: closing my output"
    assert t.closed_for_good and t.exit_status() == ""  # "closed its output but did not exit"
    assert spent < CLOSE_GRACE + 0.4


def test_an_engine_that_is_exiting_still_has_its_last_words_waited_for() -> None:
    """The other side of the grace: an engine whose output ended as it exits (its standard
    error ends with it) is given its time to say why and to end."""
    t, err_w = _transport(time.monotonic() + CLOSE_GRACE + 0.2, b"Traceback ...\n")
    os.write(err_w, b"KeyError: 'deck'\n")
    os.close(err_w)  # its standard error ends: it is exiting (0.2 s past the grace)
    t._errors.join(5)  # (read to its end, as when the output's end is read)
    words = t.last_words()
    assert words == "; its standard error ends: Traceback ... | KeyError: 'deck'"
    assert not t.closed_for_good and t.exit_status() == "the engine exited with code 1"


# -- the reference engine given what is no message --------------------------------------

def _served(line: str) -> dict[str, Any]:
    out = io.StringIO()
    serve(ReferenceEngine(), io.StringIO(line + "\n"), out)
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


@pytest.mark.parametrize(("message", "code"), [
    ({}, "bad_request"), ({"type": 5}, "bad_request"), ({"type": None}, "bad_request"),
    ({"type": ["hello"]}, "bad_request"), ([], "bad_json"), ([{"type": "hello"}], "bad_json"),
    (None, "bad_json"), ("hello", "bad_json"), (7, "bad_json")])
def test_handle_answers_what_is_no_message_as_serve_answers_its_line(message: object,
                                                                       code: str) -> None:
    """``handle({})`` was ``internal_error`` (``KeyError: 'type'``), as were a list, None
    and a text; ``{"type": 5}`` was ``unknown_type``. :func:`serve` answers their lines
    ``bad_json`` (no object) or ``bad_request`` (no string ``type``)."""
    answer = ReferenceEngine().handle(message)  # type: ignore[arg-type]
    assert answer["type"] == "error" and answer["code"] == code
    assert answer == _served(json.dumps(message))


# -- the API given the wrong types --------------------------------------------------------

@pytest.mark.parametrize(("args", "error", "match"), [
    ((0, None), TypeError, r"^determinize: rng must be a random\.Random, not NoneType$"),
    ((0, 5), TypeError, r"^determinize: rng must be a random\.Random, not int$"),
    ((2, random.Random(1)), ValueError, r"^determinize: seat must be a seat number from 0"),
    ((0, random.Random(1), [1]), TypeError, r"^determinize: voids must be a sequence of 2 "),
    ((0, random.Random(1), 5), TypeError, r"^determinize: voids must be a sequence of 2 ")])
def test_determinize_names_a_wrong_argument(args: tuple[Any, ...], error: type,
                                            match: str) -> None:
    """``rng=None`` was ``AttributeError: 'NoneType' object has no attribute 'shuffle'``;
    seat 2 of two dealt every hand again (none kept as the seat's own); ``voids=[1]`` was
    an ``IndexError``."""
    with pytest.raises(error, match=match):
        determinize(STATE, *args)
    assert determinize(STATE, 0, random.Random(1), [0, 0]).hands[0] == STATE.hands[0]


@pytest.mark.parametrize(("name", "spec", "error", "match"), [
    ("x", {}, ValueError, r"^parse_option_value: option 'x': its declaration's type is "
                          r"int, bool or enum, not None$"),
    ("x", {"type": "float"}, ValueError, r"type is int, bool or enum, not 'float'$"),
    ("x", None, TypeError, r"^parse_option_value: option 'x': its declaration is a mapping"),
    ("x", {"type": "enum"}, ValueError, r"an enum declares its list of values, not None$"),
    ("x", {"type": "enum", "values": 5}, ValueError, r"its list of values, not 5$"),
    ("x", {"type": "int", "min": "a"}, ValueError, r"its min and max are whole numbers"),
    (None, {"type": "int"}, TypeError, r"^parse_option_value: name must be a str")])
def test_parse_option_value_names_a_wrong_declaration(name: object, spec: object,
                                                     error: type, match: str) -> None:
    """``spec={}`` was ``KeyError: 'type'``, an enum without values ``KeyError:
    'values'``, ``values=5`` "'int' object is not iterable", ``min='a'`` "'<' not
    supported", a name of None "object of type 'NoneType' has no len()"."""
    with pytest.raises(error, match=match):
        parse_option_value(name, spec, "1")  # type: ignore[arg-type]
    assert parse_option_value("x", {"type": "int", "min": 1}, " 3 ") == 3


FIRST = RecordError("N110", "unexpected 'x'", line=1)


@pytest.mark.parametrize(("args", "kwargs", "match"), [
    ((None, FIRST), {}, r"^syntax_errors: the text of a record is a str, not NoneType$"),
    ((b"x", FIRST), {}, r"^syntax_errors: the text of a record is a str, not bytes"),
    (("x", None), {}, r"^syntax_errors: first is the RecordError of the record's first "),
    (("x", FIRST), {"file": None}, r"^syntax_errors: file must be a str, not NoneType$"),
    (("x", FIRST), {"line": "a"}, r"^syntax_errors: line must be a whole number"),
    (("x", FIRST), {"number": 1.5}, r"^syntax_errors: number must be a whole number"),
    (("x", FIRST), {"limit": None}, r"^syntax_errors: limit must be a whole number")])
def test_syntax_errors_names_a_wrong_argument(args: tuple[Any, ...], kwargs: dict[str, Any],
                                              match: str) -> None:
    """``first=None`` was ``AttributeError: 'NoneType' object has no attribute 'code'``,
    bytes "a bytes-like object is required", ``line='a'`` "unsupported operand type(s)",
    ``limit=None`` "'<' not supported"."""
    with pytest.raises(TypeError, match=match):
        syntax_errors(*args, **kwargs)
    assert syntax_errors("x", FIRST) == [FIRST]


@pytest.mark.parametrize(("start", "deck", "first", "acts", "error", "match"), [
    (None, list(range(20)), None, [], TypeError,
     r"^replay_tracked: the state is a GameState, not NoneType$"),
    (RULES, list(range(20)), None, [], TypeError, r"the state is a GameState, not Rules$"),
    ("new", None, None, [], TypeError, r"^replay_tracked: deck is a list of card numbers, "
                                       r"not None$"),
    ("new", "abc", None, [], TypeError, r"deck is a list of card numbers, not 'abc'$"),
    ("new", list(range(20)), "a", [], ValueError, r"^replay_tracked: first must be a seat"),
    ("new", list(range(20)), None, None, TypeError,
     r"^replay_tracked: acts is a sequence of \(seat, action\) pairs, not NoneType$"),
    ("new", list(range(20)), None, [(1, Play(0)), 5], TypeError,
     r"^replay_tracked: acts\[1\] is a \(seat, action\) pair, not 5$")])
def test_replay_tracked_names_a_wrong_argument(start: object, deck: object, first: object,
                                               acts: object, error: type, match: str) -> None:
    """``start=None`` was ``AttributeError: 'NoneType' object has no attribute 'clone'``,
    ``deck=None`` "'NoneType' object is not iterable", ``first='a'`` a refused deal
    (``core.deal``) that named no argument, a step that is no pair "cannot unpack
    non-iterable int object"."""
    state = GameState(RULES) if start == "new" else start
    with pytest.raises(error, match=match):
        replay_tracked(state, deck, first, acts, None)  # type: ignore[arg-type]
    refusal = replay_tracked(GameState(RULES), list(range(20)), None, [(0, Play(0))], None)
    assert refusal is not None and refusal.rule_id == "core.turn"
