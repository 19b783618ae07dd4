"""Engines that play every rule right but break the protocol's framing or errors.

Each is the reference engine served through a filter on its input or its
output, the way a real engine's loop goes wrong: it exits on a line that is
not JSON, answers every error with ``internal_error``, answers blank lines,
drops the ``id``, or reads ``NaN`` as a number. The protocol tests
(:mod:`mariage.conformance.protocheck`) must fail each on a test naming its
rule (the table in ``docs/conformance.rst``).

Run one as an engine with ``python -m mariage.conformance.faulty_protocol
NAME``; with no name, the list is printed.

>>> PROTOCOL_FAULTS["exit-on-bad-json"].rule
'protocol.framing.json'
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

from .engine import ReferenceEngine, serve

__all__ = ["PROTOCOL_FAULTS", "ProtocolFault", "faulty_server", "main"]

#: The error codes that are not a rule's refusal.
_NOT_RULES = ("bad_json", "bad_request", "unknown_type", "no_match", "unsupported",
              "bad_action")


@dataclass(frozen=True)
class ProtocolFault:
    """One engine that breaks one rule of the protocol: on each input line
    (``read``) and on each answer (``write``; ``None`` keeps it)."""

    name: str
    rule: str
    description: str
    read: Callable[[bytes], bytes] | None = None
    write: Callable[[dict[str, Any]], dict[str, Any]] | None = None


class _Exit(Exception):
    """The engine stops, as a program that exits."""


def _exit_on_bad_json(reply: dict[str, Any]) -> dict[str, Any]:
    if reply.get("code") == "bad_json":
        raise _Exit
    return reply


def _internal_error(reply: dict[str, Any]) -> dict[str, Any]:
    if reply.get("code") in _NOT_RULES:
        return {**reply, "code": "internal_error"}
    return reply


def _no_id(reply: dict[str, Any]) -> dict[str, Any]:
    reply.pop("id", None)
    return reply


def _answer_blank(line: bytes) -> bytes:
    return b"blank\n" if line and not line.strip(b" \t\r\n") else line


def _lenient_numbers(line: bytes) -> bytes:
    return re.sub(rb"-?Infinity|NaN|\d+(\.\d+)?[eE]\+?\d{3,}", b"0", line)


PROTOCOL_FAULTS = {f.name: f for f in (
    ProtocolFault("exit-on-bad-json", "protocol.framing.json",
                  "the engine exits on a line that is not JSON", write=_exit_on_bad_json),
    ProtocolFault("internal-error-for-all", "protocol.framing.json",
                  "every error that is not a rule's refusal is answered with internal_error",
                  write=_internal_error),
    ProtocolFault("answers-blank-lines", "protocol.framing.blank",
                  "a blank line is answered (with bad_json)", read=_answer_blank),
    ProtocolFault("drops-the-id", "protocol.framing.id",
                  "the 'id' of a request is not copied into its answer", write=_no_id),
    ProtocolFault("lenient-numbers", "protocol.framing.strict",
                  "NaN, Infinity and 1e999 are read as numbers", read=_lenient_numbers),
)}


class _Input:
    """The engine's input, each line passed through ``read``."""

    def __init__(self, inp: IO[Any], read: Callable[[bytes], bytes]) -> None:
        self.inp = inp
        self.read = read

    def readline(self, size: int = -1) -> bytes:
        line = self.inp.readline(size)
        return self.read(line if isinstance(line, bytes) else line.encode())


class _Output:
    """The engine's output, each answer passed through ``write``."""

    def __init__(self, out: IO[str], write: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
        self.out = out
        self.write_reply = write

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.out.write(json.dumps(self.write_reply(json.loads(line))) + "\n")
        return len(text)

    def flush(self) -> None:
        self.out.flush()


def faulty_server(fault: ProtocolFault) -> Callable[[ReferenceEngine, IO[Any], IO[str]], int]:
    """A ``serve`` with the fault built in (for
    :class:`~mariage.conformance.client.ThreadTransport`)."""
    def run(engine: ReferenceEngine, inp: IO[Any], out: IO[str]) -> int:
        src: Any = _Input(inp, fault.read) if fault.read else inp
        dst: Any = _Output(out, fault.write) if fault.write else out
        try:
            return serve(engine, src, dst)
        except _Exit:
            return 3
    return run


def main(argv: list[str] | None = None) -> int:
    """``python -m mariage.conformance.faulty_protocol NAME``: serve that engine."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in PROTOCOL_FAULTS:
        for f in PROTOCOL_FAULTS.values():
            print(f"{f.name:24} {f.rule:26} {f.description}")
        return 0 if not args else 2
    return faulty_server(PROTOCOL_FAULTS[args[0]])(ReferenceEngine(), sys.stdin.buffer,
                                                   sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
