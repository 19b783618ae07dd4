"""The reference engine: the interpreter behind the engine protocol.

:class:`ReferenceEngine` answers one request at a time (:meth:`~ReferenceEngine.handle`);
:func:`serve` runs it over a pair of streams until ``quit`` or the end of
input. ``mariage engine`` is ``serve(ReferenceEngine(), stdin, stdout)``.

Every request gets an answer: a bad line, an unknown or malformed request, a
value out of range or of the wrong type is answered with an error (see
``docs/protocol.rst``), and the engine carries on. A line longer than
:data:`~mariage.conformance.protocol.MAX_LINE` bytes is read in bounded pieces
and answered with ``bad_json``, so memory stays bounded whatever is sent.

Faulty engines (:mod:`mariage.conformance.faulty`) subclass it and change only
:meth:`~ReferenceEngine.make_rules` or :meth:`~ReferenceEngine.make_state`.

A ``start`` or ``deal`` naming the engine's ``seat`` may hide cards (``??``):
the engine then plays on a guess of them (:mod:`mariage.conformance.hidden`),
told by the ``reveal`` of each ``apply`` what its seat comes to see.

>>> engine = ReferenceEngine()
>>> engine.handle({"type": "hello", "protocol": 2})["protocol"]
2
>>> deck = [f"{r}{s}" for s in "HDCS" for r in "A3KQJ76542"]
>>> engine.handle({"type": "start", "ruleset": "marianna", "dealer": 0, "deck": deck})
{'type': 'ok'}
>>> engine.handle({"type": "legal"})["actions"][:2]
['marianna:H', 'AH']
>>> engine.handle({"type": "apply", "action": "QS"})["rule"]
'core.hand'
>>> engine.handle({"type": "choose", "seed": 1})
{'type': 'choose', 'seat': 1, 'action': 'marianna:H'}
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import IO, Any

from mariage.arena.bots import BOTS, make_bot
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets, load_document

from .. import __version__
from ..errors import IllegalActionError, MariageError
from .hidden import HiddenHand, parse_hidden_deck, parse_reveal
from .protocol import (
    HIDDEN_CARDS,
    MAX_LINE,
    PROTOCOL_VERSION,
    ProtocolError,
    check_message,
    decode,
    encode,
    seat_state_json,
    state_json,
)

__all__ = ["INT_OPTION_MAX", "MAX_BUDGET_MS", "ReferenceEngine", "serve"]

#: The largest value the reference engine accepts for an ``int`` option.
INT_OPTION_MAX = 1_000_000

#: The largest ``budget_ms`` of a ``choose`` request (one minute).
MAX_BUDGET_MS = 60_000


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


def _seat_or_none(msg: dict[str, Any], key: str, nseats: int) -> int | None:
    value = _int_or_none(msg, key)
    if value is not None and not 0 <= value < nseats:
        raise ProtocolError("bad_request", f"'{key}' must be a seat 0..{nseats - 1}, "
                            f"got {value if abs(value) < 10**9 else 'a huge number'}")
    return value


def _show(value: Any) -> str:
    return json.dumps(value)[:40]


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def check_options(ruleset: str, specs: dict[str, Any], options: dict[str, Any]) -> None:
    """Refuse option values of the wrong JSON type (``bad_request``) or not offered
    (``unsupported``): no string for a number, no fraction, no ``"yes"`` for a bool."""
    for name, value in options.items():
        spec = specs.get(name)
        if not isinstance(spec, dict):
            raise ProtocolError("unsupported", f"{ruleset} has no option '{name}'")
        kind = spec.get("type")
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ProtocolError("bad_request", f"option '{name}' takes a whole number "
                                    f"(JSON integer), got {_show(value)}")
            lo = spec.get("min", 0)
            hi = min(spec.get("max", INT_OPTION_MAX), INT_OPTION_MAX)
            if not lo <= value <= hi:
                raise ProtocolError("unsupported", f"option '{name}' must be in {lo}..{hi}")
        elif kind == "bool":
            if not isinstance(value, bool):
                raise ProtocolError("bad_request", f"option '{name}' takes true or false, "
                                    f"got {_show(value)}")
        elif not any(_same(value, v) for v in spec.get("values") or ()):
            raise ProtocolError("unsupported", f"option '{name}' takes one of "
                                f"{_show(spec.get('values'))}, got "
                                f"{_show(value)}")


class ReferenceEngine:
    """The reference interpreter speaking the engine protocol.

    ``ruleset_files``: also accept a ``ruleset`` that is the path of a YAML
    description (a regular file ending in ``.yaml``); off by default, so a
    request can only name a bundled ruleset.
    """

    name = "mariage-reference"
    #: the bundled ruleset names, listed at the first ``start`` (listing the folder at
    #: every ``start`` took a sixth of the reference's time in a run of the whole suite)
    _bundled: frozenset[str] | None = None

    def __init__(self, ruleset_files: bool = False) -> None:
        self.rules: Rules | None = None
        self.state: GameState | None = None
        self.ruleset_files = ruleset_files
        #: the hand in progress when it was dealt with hidden cards, else ``None``
        self.hidden: HiddenHand | None = None

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
            opts: dict[str, Any] = {}
            for k, v in specs.items():
                if not v:
                    continue
                opts[k] = {key: v[key] for key in ("type", "default", "default_when", "values",
                                                   "min", "max") if key in v}
                if v.get("type") == "int":
                    opts[k]["max"] = min(v.get("max", INT_OPTION_MAX), INT_OPTION_MAX)
            rulesets[name] = {"options": opts}
        return {"type": "hello", "engine": self.name, "version": __version__,
                "protocol": PROTOCOL_VERSION, "rulesets": rulesets,
                "requests": ["choose"], "bots": sorted(BOTS),
                "features": [HIDDEN_CARDS, *(["ruleset_files"] if self.ruleset_files else [])]}

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Answer one request (already decoded). Never raises: a failure of the
        engine itself is answered with ``internal_error``; what is no message (no
        object, no string ``type``) gets the code :func:`serve` gives the line."""
        try:
            return self._handle(check_message(msg))
        except ProtocolError as exc:
            return _error(exc.code, exc.message)
        except Exception as exc:  # the engine must never die on a request
            return _error("internal_error", f"the engine failed on this request: "
                          f"{type(exc).__name__}: {str(exc)[:200]}")

    def _handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        kind = msg["type"]
        try:
            if kind == "hello":
                return self.hello()
            if kind == "quit":
                return {"type": "bye"}
            if kind == "start":
                return self._start(msg)
            if self.state is None or self.rules is None:
                if kind in ("deal", "legal", "apply", "state", "resign", "choose"):
                    return _error("no_match", "start a match first")
                return _error("unknown_type", f"unknown request type '{kind}'")
            if kind == "deal":
                return self._deal(msg)
            if kind == "legal":
                return self._legal(msg)
            if kind == "apply":
                return self._apply(msg)
            if kind == "resign":
                seat = _seat_or_none(msg, "seat", self.rules.nseats)
                if seat is None:
                    raise ProtocolError("bad_request", "'resign' needs a 'seat'")
                self.state.resign(seat)
                return {"type": "ok"}
            if kind == "choose":
                return self._choose(msg)
            if kind == "state":
                if self.hidden is not None:
                    return {"type": "state", **seat_state_json(self.state, self.hidden.seat)}
                return {"type": "state", **state_json(self.state)}
            return _error("unknown_type", f"unknown request type '{kind}'")
        except ProtocolError as exc:
            return _error(exc.code, exc.message)
        except IllegalActionError as exc:
            return _error("illegal_action", str(exc), exc.rule_id)

    def _ruleset(self, name: str) -> str:
        """The ruleset to load for ``name``: a bundled name, or a file where allowed."""
        if self._bundled is None:
            self._bundled = frozenset(list_rulesets())
        if name in self._bundled:
            return name
        if self.ruleset_files:
            path = Path(name)
            try:
                if path.suffix in (".yaml", ".yml") and path.is_file():
                    return str(path)
            except OSError as exc:  # a name too long, no access to a folder on its way
                raise ProtocolError("unsupported", f"'{name[:80]}': {exc.strerror}") from None
            raise ProtocolError("unsupported", f"'{name[:80]}' is neither a bundled ruleset "
                                "nor a .yaml file")
        raise ProtocolError("unsupported", f"unknown ruleset '{name[:80]}' (rulesets: "
                            f"{', '.join(list_rulesets())})")

    def _start(self, msg: dict[str, Any]) -> dict[str, Any]:
        ruleset = msg.get("ruleset")
        options = msg.get("options")
        if options is None:
            options = {}
        if not isinstance(ruleset, str) or not isinstance(options, dict):
            raise ProtocolError("bad_request", "'start' needs a string 'ruleset' and an "
                                "object 'options'")
        source = self._ruleset(ruleset)
        try:
            specs = load_rules(source).document.get("options") or {}
            check_options(ruleset, specs, options)
            rules = self.make_rules(source, options)
        except MariageError as exc:
            return _error("unsupported", str(exc))
        dealer = _int_or_none(msg, "dealer")
        if rules.first_dealer == "none":
            if dealer is not None:
                raise ProtocolError("bad_request", f"{ruleset} has no dealer: 'dealer' "
                                    "must be null")
        elif dealer is None or not 0 <= dealer < rules.nseats:
            raise ProtocolError("bad_request", f"'dealer' must be a seat 0..{rules.nseats - 1}")
        state = self.make_state(rules, dealer)
        # a refused deal leaves the previous match intact
        self.rules, (self.state, self.hidden) = rules, self._deal_into(state, rules, msg)
        return {"type": "ok"}

    def _deal(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.state is not None and self.rules is not None
        self.state, self.hidden = self._deal_into(self.state, self.rules, msg)
        return {"type": "ok"}

    @staticmethod
    def _deal_into(state: GameState, rules: Rules, msg: dict[str, Any]
                   ) -> tuple[GameState, HiddenHand | None]:
        """Deal ``msg``'s deck into ``state``: in full, or as the view of ``msg``'s ``seat``
        (then the state is the guess of a :class:`HiddenHand`)."""
        deck = msg.get("deck")
        if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
            raise ProtocolError("bad_request", "'deck' must be a list of card codes")
        first = _int_or_none(msg, "first_player")
        if first is not None and not 0 <= first < rules.nseats:
            raise IllegalActionError("core.deal", seat=None, action="deal",
                                     reason=f"'first_player' must be a seat 0.."
                                     f"{rules.nseats - 1} or null")
        seat = _seat_or_none(msg, "seat", rules.nseats)
        if seat is None:
            state.deal(deck, first)
            return state, None
        hand = HiddenHand(state, seat, parse_hidden_deck(rules, deck), first)
        return hand.state, hand

    def _choose(self, msg: dict[str, Any]) -> dict[str, Any]:
        """An action for the seat to act, chosen by a built-in bot from that seat's view."""
        assert self.state is not None and self.rules is not None
        st = self.state
        seat = _seat_or_none(msg, "seat", self.rules.nseats)
        budget = msg.get("budget_ms", 1000)
        if isinstance(budget, bool) or not isinstance(budget, int) \
                or not 1 <= budget <= MAX_BUDGET_MS:
            raise ProtocolError("bad_request", f"'budget_ms' must be a whole number "
                                f"1..{MAX_BUDGET_MS}")
        bot_name = msg.get("bot")
        if bot_name is None:  # (absent or null: as a seat)
            bot_name = "greedy"
        if not isinstance(bot_name, str):  # a value of the wrong JSON type, as elsewhere
            raise ProtocolError("bad_request", f"'bot' must be the text of a bot (bots: "
                                f"{', '.join(sorted(BOTS))})")
        if bot_name not in BOTS:
            raise ProtocolError("unsupported", f"no bot {bot_name[:40]!r} (bots: "
                                f"{', '.join(sorted(BOTS))})")
        seed = msg.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ProtocolError("bad_request", "'seed' must be a whole number 0..2^64-1")
        if st.phase is Phase.OVER:
            raise IllegalActionError(self.rules.core_over, seat=seat, action="choose",
                                     reason="the match is over")
        if st.phase is Phase.DEAL or st.to_act is None:
            raise IllegalActionError(self.rules.core_phase, seat=seat, action="choose",
                                     reason="no seat is to act between hands")
        if seat is not None and seat != st.to_act:
            raise IllegalActionError("core.turn", seat=seat, action="choose",
                                     reason=f"seat {st.to_act} is to act")
        if self.hidden is not None and st.to_act != self.hidden.seat:
            raise ProtocolError("bad_request", f"this hand was dealt as seat "
                                f"{self.hidden.seat} sees it: choose only for that seat")
        me = st.to_act
        view = _sample_view(st, me, random.Random(seed))
        action = make_bot(bot_name, seed).choose(view)
        legal = st.legal_actions()
        if action not in legal:  # the sample allowed an action the real hand does not
            action = legal[0]
        return {"type": "choose", "seat": me, "action": action_text(self.rules, action)}

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
        hidden = self.hidden
        if hidden is None or self.state.phase in (Phase.DEAL, Phase.OVER):
            self.state.apply(action, seat)
            return {"type": "ok"}
        deck, hands = parse_reveal(self.rules, msg.get("reveal"))
        public = msg.get("state")
        if public is not None and not isinstance(public, dict):
            raise ProtocolError("bad_request", "'state' must be an object")
        who = self.state.to_act if seat is None else seat
        if who is None:
            self.state.apply(action, seat)  # refused: no seat is to act
            return {"type": "ok"}
        hidden.apply(who, action, deck, hands, public)
        self.state = hidden.state
        return {"type": "ok"}


def _sample_view(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` in which every card ``seat`` cannot see is dealt afresh.

    The other hands keep their sizes and the cards they have shown; the stock
    keeps its size and the turned-up card its place. A bot given this copy
    decides from ``seat``'s view only.
    """
    r = state.rules
    view = state.clone()
    if r.open_hands:
        return view
    turn = state.turn_up
    hidden: list[int] = []
    for s in range(r.nseats):
        if s != seat:
            hidden.extend(r.cards_of(state.hands[s] & ~state.known[s]))
    hidden.extend(c for c in state.stock if c != turn)
    # a stock put aside by a close is unseen but for its turned-up card, at the bottom
    seen_aside = state.aside[0] if state.aside and r.turn_up == "under_stock" else -1
    hidden.extend(c for c in state.aside if c != seen_aside)
    hidden.sort()
    rng.shuffle(hidden)
    it = iter(hidden)
    for s in range(r.nseats):
        if s != seat:
            shown = state.hands[s] & state.known[s]
            mask = shown
            for _ in range((state.hands[s] & ~state.known[s]).bit_count()):
                mask |= 1 << next(it)
            view.hands[s] = mask
    view.stock = [c if c == turn else next(it) for c in state.stock]
    view.aside = [c if c == seen_aside else next(it) for c in state.aside]
    return view


def _read_line(inp: IO[Any]) -> tuple[Any, bool]:
    """The next line of ``inp`` (at most :data:`MAX_LINE` units kept) and whether it was
    longer; ``None`` at the end of input."""
    raw = inp.readline(MAX_LINE + 1)
    if not raw:
        return None, False
    nl = "\n" if isinstance(raw, str) else b"\n"
    if raw.endswith(nl) or len(raw) <= MAX_LINE:
        return raw, False
    while True:  # too long: skip the rest of the line in bounded pieces
        more = inp.readline(MAX_LINE)
        if not more or more.endswith(nl):
            return raw[:0], True


#: What a blank line may hold (JSON's own white space, without the line feed).
_BLANK = " \t\r"


def serve(engine: ReferenceEngine, inp: IO[Any], out: IO[str]) -> int:
    """Answer requests from ``inp`` on ``out`` until ``quit`` or end of input; return 0.

    ``inp`` may be a text or a binary stream (bytes that are not UTF-8 are
    answered with ``bad_json``).
    """
    for what, value, method in (("engine", engine, "handle"), ("inp", inp, "readline"),
                                ("out", out, "write")):
        if not callable(getattr(value, method, None)):  # else an AttributeError, later
            raise TypeError(f"serve: {what} has no method {method}: {type(value).__name__}")
    while True:
        raw, too_long = _read_line(inp)
        if raw is None:
            break
        reply: dict[str, Any]
        msg: dict[str, Any] | None = None
        if too_long:
            reply = _error("bad_json", f"the line is longer than {MAX_LINE} bytes")
        else:
            if isinstance(raw, bytes):
                try:
                    raw = raw.decode("utf-8")
                except UnicodeDecodeError:
                    raw = None
            if raw is None:
                reply = _error("bad_json", "the line is not UTF-8 text")
            else:
                line = raw.rstrip("\n").strip(_BLANK)
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
