"""A second answer that arrives only after the next request was written.

:meth:`Transport.unasked` sees a second answer written before the next request; one
written after it would be read as that request's answer. The client numbers the requests
it sends (the protocol has an engine copy a request's ``id`` into its answer), so the late
answer is known by the id of the earlier request it carries.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mariage.conformance.client import EngineClient, EngineFailure

#: An engine that copies ids; from the second ``state`` on (argv[1] == "late") it first
#: answers the previous request once more, then this one.
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
    if "id" in msg:
        reply["id"] = msg["id"]
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
