"""Protocol conformance: the framing and error rules of ``docs/protocol.rst``, tested.

A test of kind ``protocol`` (``conformance/tests/protocol/*.test``) sends lines
as they are, not only well-formed requests, and checks each answer: a line
that is not JSON gets ``bad_json``, an unknown request ``unknown_type``, a
request before ``start`` gets ``no_match``, and so on. After every answered
line the runner sends a *probe* (``{"type": "state"}``) and expects the
answer the protocol gives at that point (a ``state`` once a match is started,
else ``no_match``): the engine must keep answering, one response per request,
in order. An engine that exits on a bad line, or answers a second time, fails.

The rule IDs of these tests are ``protocol.*`` (:data:`PROTOCOL_RULES`, listed
in ``docs/protocol.rst``). Their ``ruleset`` is ``"*"``: they run against any
engine. The steps that need a match start one of the first bundled ruleset
the engine's ``hello`` lists, dealt from the seeded deal generator
(``docs/prng.rst``, seed 1).

A step holds one of:

``send``
   a line of text sent as it is (a line feed is added);
``send_hex``
   the bytes of a line, in hexadecimal (bytes that are not UTF-8);
``send_long``
   a whole number N: a JSON object ``{"type": "state", "pad": "xx..."}`` of
   exactly N bytes;
``request``
   a JSON object, sent as one line;
``start``
   a ``start`` of the chosen ruleset and deal, with these fields replaced;
``apply``
   an ``apply`` of this action text; ``@foreign`` stands for an action word
   of another ruleset that the chosen one does not have;

and what to expect: ``error`` (``{code, rule}``: an error with that code, and
that rule where given), ``reply`` (fields the answer must have, exactly), or
``silent: true`` (no answer at all: a blank line). ``rules`` may name the
step's own rule IDs.

>>> PROTOCOL_RULES["protocol.framing.json"]
'a line that is not JSON is answered with bad_json'
>>> padded(40)
'{"type":"state","pad":"xxxxxxxxxxxxxxx"}'
>>> len(padded(1 << 20).encode())
1048576
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mariage.engine.actiontext import parse_action
from mariage.engine.deals import SeededDeals
from mariage.engine.state import GameState
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets

from .client import EngineClient, EngineFailure, HandshakeError
from .protocol import encode
from .results import ANY_RULESET

if TYPE_CHECKING:
    from .suite import Test

__all__ = ["ANY_RULESET", "FOREIGN_ACTIONS", "PROTOCOL_RULES", "ProtocolStepFailed",
           "padded", "protocol_ruleset", "run_protocol_steps"]


#: The framing and error rules of the protocol, by rule ID (``docs/protocol.rst``).
PROTOCOL_RULES = {
    "protocol.framing.json": "a line that is not JSON is answered with bad_json",
    "protocol.framing.object": "a JSON value that is not an object is answered with bad_json",
    "protocol.framing.type": "an object without a string 'type' is answered with bad_request",
    "protocol.framing.strict": "NaN, Infinity and numbers too large for a double are not "
                               "JSON: bad_json",
    "protocol.framing.utf8": "a line that is not UTF-8 is answered with bad_json",
    "protocol.framing.blank": "blank lines (spaces, tabs, a carriage return) are never "
                              "answered; other white space is not blank: bad_json",
    "protocol.framing.crlf": "a carriage return before the line feed is ignored",
    "protocol.framing.id": "a request's 'id' is copied unchanged into its answer",
    "protocol.framing.fields": "fields not described are ignored",
    "protocol.framing.line": "a line of 1 MiB is accepted; a longer one gets one bad_json and "
                             "is skipped to its line feed",
    "protocol.framing.answer": "every request gets exactly one answer, in order, and the "
                               "engine goes on after an error",
    "protocol.request.unknown": "a request type that is not known is answered with "
                                "unknown_type",
    "protocol.request.no-match": "a request that needs a match, before any start, is "
                                 "answered with no_match",
    "protocol.start.unsupported": "a ruleset or option the engine does not list is "
                                  "answered with unsupported",
    "protocol.start.bad-request": "a start with a field of the wrong JSON type is answered "
                                  "with bad_request",
    "protocol.start.refused": "a refused start leaves the match in progress as it was",
    "protocol.action.bad": "an action text that is not an action of the ruleset (a word of "
                           "another ruleset, a card that does not exist) gets bad_action",
    "protocol.action.bad-request": "an apply without a string 'action' gets bad_request",
    "protocol.quit": "quit is answered with bye",
}

#: Action words of one ruleset or another; ``@foreign`` is the first of them that
#: the chosen ruleset does not have.
FOREIGN_ACTIONS = ("bid:120", "marianna:H", "ask:cover:H", "accusa:H", "kontra")


class ProtocolStepFailed(Exception):
    """A step of a protocol test was not answered as the protocol says."""

    def __init__(self, step: int, message: str, rules: tuple[str, ...] = ()) -> None:
        self.step = step
        self.message = message
        self.rules = rules
        super().__init__(message)


def padded(size: int) -> str:
    """A JSON object ``{"type": "state", "pad": ...}`` of exactly ``size`` bytes (at
    least 24)."""
    head = '{"type":"state","pad":"'
    return head + "x" * max(0, size - len(head) - 2) + '"}'


@lru_cache(maxsize=32)
def _deal(ruleset: str) -> tuple[int | None, tuple[str, ...], int | None]:
    """The dealer, deck and first player of the seeded deal (seed 1) of ``ruleset``."""
    rules = load_rules(ruleset)
    deals = SeededDeals(rules, 1)
    state = GameState(rules, first_dealer=deals.first_dealer)
    deck, first = deals.next_deal()
    return state.dealer, tuple(rules.card_code[c] for c in deck), first


@lru_cache(maxsize=32)
def foreign_action(ruleset: str) -> str:
    """An action word of another ruleset that ``ruleset`` does not have.

    >>> foreign_action("marianna"), foreign_action("marjapussi-de")
    ('bid:120', 'marianna:H')
    """
    rules = load_rules(ruleset)
    for text in FOREIGN_ACTIONS:
        try:
            parse_action(rules, text)
        except ValueError:
            return text
    raise ValueError(f"{ruleset} knows every action word of {FOREIGN_ACTIONS}")


def protocol_ruleset(info: dict[str, Any] | None) -> str | None:
    """The ruleset protocol tests play: the first bundled one the ``hello`` lists."""
    sets = (info or {}).get("rulesets")
    if not isinstance(sets, dict):
        return None
    bundled = set(list_rulesets())
    return next((name for name in sets if name in bundled), None)


def needs_match(test: Test) -> bool:
    """Does ``test`` start a match (and so need a ruleset the engine plays)?"""
    return any("start" in s or "apply" in s for s in test.steps)


def _line(step: dict[str, Any], ruleset: str | None) -> str | bytes:
    """The line a step sends."""
    if "send" in step:
        return str(step["send"])
    if "send_hex" in step:
        return bytes.fromhex(str(step["send_hex"]))
    if "send_long" in step:
        return padded(int(step["send_long"]))
    if "request" in step:
        return encode(step["request"])
    assert ruleset is not None
    if "start" in step:
        dealer, deck, first = _deal(ruleset)
        req: dict[str, Any] = {"type": "start", "ruleset": ruleset, "options": {},
                               "dealer": dealer, "deck": list(deck), "first_player": first}
        req.update(step["start"] or {})
        return encode(req)
    if "apply" in step:
        text = str(step["apply"])
        return encode({"type": "apply",
                       "action": foreign_action(ruleset) if text == "@foreign" else text})
    raise ValueError("a protocol step needs send, send_hex, send_long, request, start or apply")


def _shown(line: str | bytes) -> str:
    text = line if isinstance(line, str) else line.hex(" ")
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _mismatch(reply: dict[str, Any], want: dict[str, Any]) -> str:
    """What of ``want`` the ``reply`` lacks (JSON values compared with their type)."""
    for key, value in want.items():
        got = reply.get(key, "<missing>")
        if type(got) is not type(value) or got != value:
            return f"{key}: expected {encode({'v': value})[5:-1]}, the engine said " \
                   f"{encode({'v': got})[5:-1] if got != '<missing>' else 'nothing'}"
    return ""


def run_protocol_steps(client: EngineClient, test: Test, ruleset: str | None,
                       known_rules: frozenset[str] = frozenset()) -> tuple[int, int]:
    """Play a protocol test; raise :class:`ProtocolStepFailed` at the first wrong
    answer. Return (refusals expected with a rule ID, of them named rightly).

    ``known_rules``: rule IDs of ``ruleset``; a refusal naming none of them is
    accepted as a refusal that does not name its rule (``docs/conformance.rst``).
    """
    client.renew()  # a fresh engine: no match from an earlier test
    client.hello()
    started = False
    expected_rule = named = 0
    answering: tuple[str, ...] = ()  # the rules of the request being answered
    n = 0
    try:
        for n, step in enumerate(test.steps, 1):
            rules = tuple(step.get("rules") or test.rules)
            answering = rules
            line = _line(step, ruleset)

            def fail(text: str, blame: tuple[str, ...] = rules, n: int = n) -> ProtocolStepFailed:
                return ProtocolStepFailed(n, f"step {n}: {text}", blame)

            if step.get("silent"):
                client.send_only(line)
                continue
            before = client.request({"type": "state"}) if started and "error" in step else None
            reply = client.exchange(line)
            err = step.get("error")
            if err is not None:
                if reply.get("type") != "error" or reply.get("code") != err.get("code"):
                    raise fail(f"{_shown(line)} must be answered with {err.get('code')}, "
                               f"the engine said {_describe(reply)}")
                if "rule" in err:
                    expected_rule += 1
                    got = reply.get("rule")
                    if got == err["rule"]:
                        named += 1
                    elif isinstance(got, str) and got in known_rules:
                        raise fail(f"{_shown(line)} must be refused with rule {err['rule']}, the "
                                   f"engine named {got}")
            want = step.get("reply")
            if want is not None:
                wrong = _mismatch(reply, want)
                if wrong:
                    raise fail(f"the answer to {_shown(line)}: {wrong}")
            if reply.get("type") == "bye":  # the engine may exit now: the next test starts afresh
                client.close()
                client.info = None
                break
            if err is None and reply.get("type") == "ok" and "start" in step:
                started = True
            if before is not None and client.request({"type": "state"}) != before:
                raise fail(f"{_shown(line)} was refused but changed the state",
                           ("protocol.start.refused",) if "start" in step else rules)
            answering = ("protocol.framing.answer",)
            probe = client.request({"type": "state"})
            alive = probe.get("type") == "state" if started else probe.get("code") == "no_match"
            if not alive:
                raise fail(f"after {_shown(line)} the engine answered the next request "
                           f"{{\"type\": \"state\"}} with {_describe(probe)} (expected "
                           f"{'a state' if started else 'no_match'}): it must answer every "
                           "request once, in order, and go on", ("protocol.framing.answer",))
    except EngineFailure as exc:  # charged to the rules of the request being answered
        if isinstance(exc, HandshakeError):
            raise
        raise EngineFailure(exc.kind, f"step {n}: {exc.head}", exc.tail, exc.request,
                            answering) from None
    return expected_rule, named


def _describe(reply: dict[str, Any]) -> str:
    if reply.get("type") == "error":
        rule = f" [{reply['rule']}]" if "rule" in reply else ""
        return f"{reply.get('code')}{rule}"
    return f"a {reply.get('type')!r} message"
