"""The reference engine: the interpreter behind the engine protocol.

:class:`ReferenceEngine` answers one request at a time (:meth:`~ReferenceEngine.handle`);
:func:`serve` runs it over a pair of text streams until ``quit`` or the end of
input. ``mariage engine`` is ``serve(ReferenceEngine(), stdin, stdout)``.

Faulty engines (:mod:`mariage.conformance.faulty`) subclass it and change only
:meth:`~ReferenceEngine.make_rules` or :meth:`~ReferenceEngine.make_state`.

>>> engine = ReferenceEngine()
>>> engine.handle({"type": "hello", "protocol": 1})["protocol"]
1
>>> deck = [f"{r}{s}" for s in "HDCS" for r in "A3KQJ76542"]
>>> engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": deck})
{'type': 'ok'}
>>> engine.handle({"type": "legal"})["actions"][:2]
['marianna:H', 'AH']
>>> engine.handle({"type": "apply", "action": "QS"})["rule"]
'core.hand'
"""

from __future__ import annotations

from typing import Any, TextIO

from .. import __version__
from ..actions import action_text, parse_action
from ..compile import load_rules
from ..errors import IllegalActionError, MariageError
from ..rules import Rules
from ..specload import list_rulesets, load_document
from ..state import GameState
from .protocol import PROTOCOL_VERSION, ProtocolError, decode, encode, state_json

__all__ = ["ReferenceEngine", "serve"]


def _error(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if rule is not None:
        out["rule"] = rule
    return out


def _int_or_none(msg: dict[str, Any], key: str) -> int | None:
    value = msg.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError("bad_request", f"'{key}' must be a seat number or null")
    return value


class ReferenceEngine:
    """The reference interpreter speaking the engine protocol."""

    name = "mariage-reference"

    def __init__(self) -> None:
        self.rules: Rules | None = None
        self.state: GameState | None = None

    # -- the two hooks a faulty engine may override
    def make_rules(self, ruleset: str, options: dict[str, Any]) -> Rules:
        """Compile the rules of a match."""
        return load_rules(ruleset, options)

    def make_state(self, rules: Rules, dealer: int | None) -> GameState:
        """A fresh match state."""
        return GameState(rules, first_dealer=dealer)

    # -- requests
    def hello(self) -> dict[str, Any]:
        """The handshake response: who we are and what we support."""
        rulesets: dict[str, Any] = {}
        for name in list_rulesets():
            specs = load_document(name).data.get("options") or {}  # no compiling here
            rulesets[name] = {"options": {k: {key: v[key] for key in
                                              ("type", "default", "values", "min", "max")
                                              if key in v}
                                          for k, v in specs.items() if v}}
        return {"type": "hello", "engine": self.name, "version": __version__,
                "protocol": PROTOCOL_VERSION, "rulesets": rulesets}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (already decoded)."""
        kind = msg["type"]
        try:
            if kind == "hello":
                return self.hello()
            if kind == "quit":
                return {"type": "bye"}
            if kind == "start":
                return self._start(msg)
            if self.state is None or self.rules is None:
                if kind in ("deal", "legal", "apply", "state", "resign"):
                    return _error("no_match", "start a match first")
                return _error("unknown_type", f"unknown request type '{kind}'")
            if kind == "deal":
                return self._deal(msg)
            if kind == "legal":
                return self._legal(msg)
            if kind == "apply":
                return self._apply(msg)
            if kind == "resign":
                seat = _int_or_none(msg, "seat")
                if seat is None:
                    raise ProtocolError("bad_request", "'resign' needs a 'seat'")
                self.state.resign(seat)
                return {"type": "ok"}
            if kind == "state":
                return {"type": "state", **state_json(self.state)}
            return _error("unknown_type", f"unknown request type '{kind}'")
        except ProtocolError as exc:
            return _error(exc.code, exc.message)
        except IllegalActionError as exc:
            return _error("illegal_action", str(exc), exc.rule_id)

    def _start(self, msg: dict[str, Any]) -> dict[str, Any]:
        ruleset = msg.get("ruleset")
        options = msg.get("options") or {}
        if not isinstance(ruleset, str) or not isinstance(options, dict):
            raise ProtocolError("bad_request", "'start' needs a string 'ruleset' and an "
                                "object 'options'")
        try:
            rules = self.make_rules(ruleset, options)
        except MariageError as exc:
            return _error("unsupported", str(exc))
        dealer = _int_or_none(msg, "dealer")
        if rules.first_dealer == "none":
            if dealer is not None:
                raise ProtocolError("bad_request", f"{ruleset} has no dealer: 'dealer' "
                                    "must be null")
        elif dealer is None or not 0 <= dealer < rules.nseats:
            raise ProtocolError("bad_request", f"'dealer' must be a seat 0..{rules.nseats - 1}")
        self.rules = rules
        self.state = self.make_state(rules, dealer)
        return self._deal(msg)

    def _deal(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.state is not None
        deck = msg.get("deck")
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise ProtocolError("bad_request", "'deck' must be a list of card codes")
        self.state.deal(deck, _int_or_none(msg, "first_player"))
        return {"type": "ok"}

    def _legal(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.state is not None and self.rules is not None
        seat = _int_or_none(msg, "seat")
        if seat is not None and not 0 <= seat < self.rules.nseats:
            raise ProtocolError("bad_request", "no such seat")
        acts = self.state.legal_actions(seat)
        who = self.state.to_act if seat is None else seat
        return {"type": "legal", "seat": who,
                "actions": [action_text(self.rules, a) for a in acts]}

    def _apply(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.state is not None and self.rules is not None
        text = msg.get("action")
        if not isinstance(text, str):
            raise ProtocolError("bad_request", "'apply' needs a string 'action'")
        seat = _int_or_none(msg, "seat")
        if seat is not None and not 0 <= seat < self.rules.nseats:
            raise ProtocolError("bad_request", "no such seat")
        try:
            action = parse_action(self.rules, text)
        except ValueError as exc:
            return _error("bad_action", str(exc))
        self.state.apply(action, seat)
        return {"type": "ok"}


def serve(engine: ReferenceEngine, inp: TextIO, out: TextIO) -> int:
    """Answer requests from ``inp`` on ``out`` until ``quit`` or end of input; return 0."""
    for raw in inp:
        line = raw.strip()
        if not line:
            continue
        try:
            msg = decode(line)
        except ProtocolError as exc:
            reply = _error(exc.code, exc.message)
        else:
            reply = engine.handle(msg)
            if "id" in msg:
                reply["id"] = msg["id"]
        out.write(encode(reply) + "\n")
        out.flush()
        if reply["type"] == "bye":
            break
    return 0
