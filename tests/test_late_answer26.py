"""A second answer that arrives only after the next request was written.

:meth:`Transport.unasked` sees a second answer written before the next request; one
written after it would be read as that request's answer. The client numbers the requests
it sends (the protocol has an engine copy a request's ``id`` into its answer), so the late
answer is known by the id of the earlier request it carries.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from mariage.conformance.client import EngineClient, EngineFailure

#: An engine that copies ids; from the second ``state`` on (argv[1] == "late") it first
#: answers the previous request once more, then this one; or (argv[1] == "twice") copies
#: no id and answers each ``state`` twice at once.
ENGINE = """
import json, sys
late = sys.argv[1] == "late"
previous = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        reply = {"type": "hello", "protocol": 2, "engine": "late", "rulesets": {}}
    elif msg["type"] == "quit":
        break
    else:
        reply = {"type": "error", "code": "no_match", "message": "no match"}
    if "id" in msg and sys.argv[1] != "twice":
        reply["id"] = msg["id"]
    if sys.argv[1] == "twice" and msg["type"] == "state":  # two answers, no id: unasked
        sys.stdout.write(json.dumps(reply) + "\\n")
    if late and previous is not None and msg["type"] == "state":
        sys.stdout.write(json.dumps(previous) + "\\n")
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
    previous = reply
"""


def _client(tmp_path: Path, mode: str) -> EngineClient:
    script = tmp_path / "late.py"
    script.write_text(ENGINE)
    return EngineClient.for_command(f"{sys.executable} {script} {mode}", timeout=5)


def test_a_late_second_answer_is_named_not_taken_for_the_next(tmp_path: Path) -> None:
    client = _client(tmp_path, "late")
    try:
        client.hello()
        client.begin_test()
        with pytest.raises(EngineFailure) as info:
            client.request({"type": "state"})
    finally:
        client.close()
    assert info.value.kind == "garbage"
    assert "carries the id 1 of an earlier request (this one's is 2)" in info.value.message
    assert "'state'" in info.value.message and info.value.request == 1


def test_an_engine_answering_once_gets_its_answers_without_the_id(tmp_path: Path) -> None:
    client = _client(tmp_path, "once")
    try:
        client.hello()
        replies = [client.request({"type": "state"}) for _ in range(3)]
        own = client.request({"type": "state", "id": "mine"})
    finally:
        client.close()
    assert replies == 3 * [{"type": "error", "code": "no_match", "message": "no match"}]
    assert own["id"] == "mine"  # an id the caller gave is the caller's to read


def test_a_second_answer_without_an_id_is_an_unasked_line(tmp_path: Path) -> None:
    """An engine that copies no id (the ``protocol.framing.id`` test's to judge) and
    answers twice: the second answer, there before the next request is written, is a
    line no request asked for, not that request's answer."""
    client = _client(tmp_path, "twice")
    try:
        client.hello()
        client.begin_test()
        assert client.request({"type": "state"})["type"] == "error"
        time.sleep(0.3)  # the second answer written
        with pytest.raises(EngineFailure) as info:
            client.request({"type": "legal"})
    finally:
        client.close()
    assert info.value.kind == "garbage" and info.value.request == 2
    assert info.value.message.startswith("before request 2 ('legal'): the engine wrote a "
                                         "line no request asked for")
