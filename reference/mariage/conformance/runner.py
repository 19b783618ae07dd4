"""Running conformance tests against an engine, one fresh match per test.

:func:`run_test` plays one test through an :class:`~mariage.conformance.client.EngineClient`
and returns an :class:`Outcome`; :func:`run_suite` runs many, restarting the
engine after any crash, hang or garbage, and applies the expected failures.
The rules for interpreting a test are in ``docs/conformance.rst``. What a run
found is kept in :mod:`mariage.conformance.results`, the rules a difference is
charged to are found by :mod:`mariage.conformance.blame`, and which tests an
engine's ``hello`` covers is judged in :mod:`mariage.conformance.configuration`.

>>> from mariage.conformance.client import EngineClient, ThreadTransport
>>> from mariage.conformance.engine import ReferenceEngine
>>> from mariage.conformance.suite import parse_test
>>> test = parse_test('''---
... id: demo/not-in-hand
... description: a card that is not in hand is refused
... rules: [core.hand]
... ruleset: marianna
... kind: scenario
... start: {dealer: 0, deck: [AH, 3H, KH, QH, JH, 7H, 6H, 5H, 4H, 2H, AD, 3D, KD, QD, JD,
...   7D, 6D, 5D, 4D, 2D, AC, 3C, KC, QC, JC, 7C, 6C, 5C, 4C, 2C, AS, 3S, KS, QS, JS,
...   7S, 6S, 5S, 4S, 2S]}
... steps: [{act: QS, error: {code: illegal_action, rule: core.hand}}]
... ---
... ''', "demo.test")
>>> client = EngineClient(lambda: ThreadTransport(ReferenceEngine()), timeout=5)
>>> run_test(client, test).status
'pass'
>>> client.close()
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mariage.engine.state import GameState

from .blame import Diff, Reference, Refusals, charge, first_step_charges, legal_blame, rule_ids
from .client import EngineClient, EngineFailure, HandshakeError
from .configuration import why_skipped
from .limits import MAX_HANGS, TEST_TIMEOUT
from .protocheck import (
    ANY_RULESET,
    ProtocolStepFailed,
    needs_match,
    protocol_ruleset,
    run_protocol_steps,
)
from .protocol import sorted_card_sets
from .results import SKIP_REASONS, Outcome, RunResult
from .suite import Test

__all__ = ["MAX_DIFFERENCES", "MAX_HANGS", "SKIP_REASONS", "TEST_TIMEOUT", "HangWatch", "Outcome",
           "RunResult",
           "TestFailed", "legal_blame", "legal_difference", "perft_divide",
           "perft_divide_blame", "perft_walk", "run_suite", "run_test"]



class TestFailed(Exception):
    """The engine answered, but not as the test expects."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.message = message
        self.step = step
        super().__init__(message)


#: At most this many differences are reported for one test.
MAX_DIFFERENCES = 20

def _expect_ok(reply: dict[str, Any], what: str, step: int | None) -> None:
    if reply.get("type") != "ok":
        detail = f"{reply.get('code')}" + (f" [{reply['rule']}]" if "rule" in reply else "")
        raise TestFailed(f"{what}: refused ({detail}): {reply.get('message', '')}", step)


def _norm_state(state: dict[str, Any]) -> dict[str, Any]:
    out = sorted_card_sets(state)
    out.pop("type", None)
    out.pop("id", None)
    return out


def _state_diffs(expected: dict[str, Any], got: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, text) for each field given in ``expected`` that ``got`` differs in."""
    want = _norm_state(expected)
    have = _norm_state(got)
    return [(k, f"{k}: expected {want[k]!r}, engine says {have.get(k, '<missing>')!r}")
            for k in want if have.get(k, "<missing>") != want[k]]


def _compare_state(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    return [text for _, text in _state_diffs(expected, got)]


def _describe(step: dict[str, Any], where: str = "") -> str:
    """The step in words, with ``where`` the match stands (``hand 1, trick 3, seat 2 to
    act``) when the reference could follow the test."""
    at = f" ({where})" if where else ""
    if "act" in step:
        seat = f" by seat {step['seat']}" if "seat" in step else ""
        return f"action '{step['act']}'{seat}{at}"
    if "deal" in step:
        return f"deal of the next hand{at}"
    if "resign" in step:
        return f"resignation of seat {step['resign']}{at}"
    return "step"


def _show_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def legal_actions_of(reply: dict[str, Any], what: str) -> list[str]:
    """The action texts of an answer to ``legal``, or :class:`TestFailed` saying exactly
    what is wrong with the answer (``what`` says which request it answered)."""
    kind = reply.get("type")
    if kind == "error":
        detail = f"{reply.get('code')}" + (f" [{reply['rule']}]" if "rule" in reply else "")
        raise TestFailed(f"{what}: 'legal' was refused ({detail}): {reply.get('message', '')}")
    if kind != "legal":
        raise TestFailed(f"{what}: 'legal' was answered with a {kind!r} message, not 'legal'")
    acts = reply.get("actions")
    if not isinstance(acts, list):
        raise TestFailed(f"{what}: the 'legal' answer is malformed: 'actions' must be a list "
                         f"of action texts, the engine sent {type(acts).__name__} "
                         f"{_show_value(acts)}")
    bad = [a for a in acts if not isinstance(a, str)]
    if bad:
        raise TestFailed(f"{what}: the 'legal' answer is malformed: every action must be a "
                         f"text, the engine sent {_show_value(bad[0])}")
    return list(acts)


def legal_difference(want: Iterable[str], have: Iterable[str]) -> str:
    """``missing [...] / extra [...]``: what a legal-action list lacks and has too many.

    >>> legal_difference(["AH", "KH"], ["KH", "2S"])
    "missing ['AH'] / extra ['2S']"
    """
    w, h = set(want), set(have)
    parts = []
    if w - h:
        parts.append(f"missing {sorted(w - h)}")
    if h - w:
        parts.append(f"extra {sorted(h - w)}")
    return " / ".join(parts) or "no difference"


def _check_legal(client: EngineClient, step: dict[str, Any], n: int, where: str = "",
                 seat: int | str | None = "?") -> tuple[str, list[str], list[str]]:
    """Compare the legal actions before ``step``; return the difference or ``""``, and
    the actions missing and extra.

    ``seat`` is the seat the answer must name: the step's ``seat``, else the seat to
    act (``None`` between hands); ``"?"`` where it is not known.
    """
    keys = [k for k in ("legal", "legal_has", "legal_not") if k in step]
    if not keys:
        return "", [], []
    req: dict[str, Any] = {"type": "legal"}
    if "seat" in step:
        req["seat"] = step["seat"]
        seat = step["seat"]
    reply = client.request(req)
    try:
        got = legal_actions_of(reply, f"step {n}: before {_describe(step, where)}")
    except TestFailed as exc:
        raise TestFailed(exc.message, n) from None
    if seat != "?" and reply.get("seat", "<missing>") != seat:
        want = f"was asked for seat {seat}" if "seat" in step else (
            f"was asked for the seat to act, seat {seat}" if seat is not None
            else "must name no seat (null): nobody is to act")
        return (f"step {n}: 'legal' before {_describe(step, where)} {want}; "
                f"the engine answered for seat {reply.get('seat', '<missing>')}"), [], []
    have = set(got)
    if len(have) != len(got):
        return f"step {n}: the legal actions list a duplicate: {sorted(got)}", [], []
    before = f"step {n}: legal actions before {_describe(step, where)}: "
    if "legal" in step and set(step["legal"]) != have:
        return (before + legal_difference(step["legal"], have),
                sorted(set(step["legal"]) - have), sorted(have - set(step["legal"])))
    missing = sorted(set(step.get("legal_has", ())) - have)
    extra = sorted(set(step.get("legal_not", ())) & have)
    if missing or extra:
        return before + " / ".join(
            ([f"missing {missing}"] if missing else []) +
            ([f"extra {extra} (must not be legal)"] if extra else [])), missing, extra
    return "", [], []


def _send_step(client: EngineClient, step: dict[str, Any]) -> dict[str, Any]:
    if "act" in step:
        req: dict[str, Any] = {"type": "apply", "action": step["act"]}
        if "seat" in step:
            req["seat"] = step["seat"]
        return client.request(req)
    if "deal" in step:
        return client.request({"type": "deal", **step["deal"]})
    if "resign" in step:
        return client.request({"type": "resign", "seat": step["resign"]})
    raise TestFailed("a step needs 'act', 'deal' or 'resign'")


def _state(client: EngineClient) -> dict[str, Any]:
    reply = client.request({"type": "state"})
    if reply.get("type") != "state":
        raise TestFailed(f"'state' answered with {reply.get('type')!r}")
    return reply


def _start(client: EngineClient, test: Test) -> None:
    reply = client.request({"type": "start", "ruleset": test.ruleset, "options": test.options,
                            **test.start})
    _expect_ok(reply, "start of the match", None)


class _Diffs(Exception):
    """Every difference of a test that went on past its first one."""

    def __init__(self, diffs: list[Diff]) -> None:
        self.diffs = diffs
        super().__init__(diffs[0].text)


def _run_steps(client: EngineClient, test: Test, tally: Refusals | None = None) -> None:
    """Play the steps; go on past differences as long as the engine accepts the recorded
    actions (and refuses the refused ones); raise :class:`_Diffs` with all of them."""
    diffs: list[Diff] = []
    tally = tally or Refusals(rule_ids(test.ruleset))

    ref = Reference.of(test)

    def note(n: int | None, step: dict[str, Any] | None, what: str, text: str,
             named: tuple[str, ...] = ()) -> None:
        charged = charge(test, step, what) if step is not None and (
            step.get("rules") or (isinstance(step.get("error"), dict)
            and step["error"].get("rule"))) else named or charge(test, step, what)
        diffs.append(Diff(n, text, charged))
        if len(diffs) >= MAX_DIFFERENCES:
            raise _Diffs(diffs)

    def state_blame(what: str) -> tuple[str, ...]:
        return ref.state_blame(test, what) if ref is not None else ()

    def stop() -> None:
        if diffs:
            raise _Diffs(diffs)

    _start(client, test)
    if test.initial is not None:
        found = _state_diffs(test.initial, _state(client))
        for what, text in found:
            note(0, None, what, "after the start of the match: " + text, state_blame(what))
        if ref is not None:
            ref.since = set()
    for i, step in enumerate(test.steps):
        n = i + 1
        where = ref.place() if ref is not None else ""
        try:
            _run_step(client, test, step, n, where, ref, tally, note, stop, diffs)
            if ref is not None and not ref.step(step):
                ref = None
            if "state" in step:
                have = _state(client)
                for what, text in _state_diffs(step["state"], have):
                    note(n, step, what, f"step {n}: after {_describe(step, where)}: {text}",
                         ref.end_blame(test, what, have) if ref is not None else ())
                if ref is not None:
                    ref.since = set()
        except EngineFailure as exc:  # say where: the step, the hand, the trick, the seat
            if isinstance(exc, HandshakeError):
                raise
            raise EngineFailure(exc.kind, f"step {n}: {_describe(step, where)}: {exc.head}",
                                exc.tail, exc.request, _named_by(step)) from None
    stop()


def _named_by(step: dict[str, Any]) -> tuple[str, ...]:
    """The rule IDs a step names itself (its ``rules``, else its expected error's
    ``rule``): those an engine failure while the step is answered is charged to."""
    if step.get("rules"):
        return tuple(str(r) for r in step["rules"])
    err = step.get("error")
    if isinstance(err, dict) and isinstance(err.get("rule"), str):
        return (err["rule"],)
    return ()


def _run_step(client: EngineClient, test: Test, step: dict[str, Any], n: int, where: str,
              ref: Reference | None, tally: Refusals, note: Callable[..., None],
              stop: Callable[[], None], diffs: list[Diff]) -> None:
    """Check the legal actions before one step, send it and judge the answer."""
    seat = "?" if ref is None else ref.state.to_act
    legal, missing, extra = _check_legal(client, step, n, where, seat)
    if legal:
        named = ref.legal_blame(step, missing, extra) if ref is not None else ()
        note(n, step, "legal", legal, named)
    err = step.get("error")
    before = _state(client) if err else None
    reply = _send_step(client, step)
    if err:
        if reply.get("type") != "error":
            note(n, step, "accepted", f"step {n}: {_describe(step, where)} must be refused "
                 f"({err.get('code')} [{err.get('rule', '-')}]), the engine accepted it")
            stop()  # the engine's match is no longer the test's
        if not tally.judge(err, reply):
            note(n, step, "refused", f"step {n}: {_describe(step, where)} must be refused with "
                 f"{err.get('code')} [{err.get('rule', '-')}], the engine said "
                 f"{reply.get('code')} [{reply.get('rule', '-')}]")
        assert before is not None
        changed = _compare_state(before, _state(client))
        if changed:
            note(n, step, "refused", f"step {n}: a refused action changed the state: "
                 + "; ".join(changed))
            stop()
    elif reply.get("type") != "ok":
        detail = f"{reply.get('code')}" + (f" [{reply['rule']}]" if "rule" in reply else "")
        rule = reply.get("rule")
        offered = ref.legal_blame(step, [step["act"]], []) \
            if ref is not None and "act" in step else ()
        text = (f"step {n}: {_describe(step, where)}: refused ({detail}): "
                f"{reply.get('message', '')}; the test expects it accepted"
                + (f" (legal under {', '.join(offered)})" if offered else ""))
        if isinstance(rule, str) and (rule in test.rules or rule in offered):
            diffs.append(Diff(n, text, (rule,)))
        else:  # a golden match: the reference's; a focused test: those of its rules the
            # reference offers the action under, else its rules that govern legality
            mine = tuple(r for r in offered if r in test.rules)
            note(n, step, "refused", text, offered if test.kind == "golden" else mine)
        raise _Diffs(diffs)  # the engine's match is no longer the test's


def _client_and_test(client: object, test: object, call: str) -> None:
    """A ``TypeError`` naming ``call`` unless it was given a client and a test (else an
    ``AttributeError``, deep inside)."""
    for what, value, kind in (("client", client, EngineClient), ("test", test, Test)):
        if not isinstance(value, kind):
            raise TypeError(f"{call}: {what} is a {kind.__name__}, not {type(value).__name__}")


def perft_walk(client: EngineClient, test: Test) -> list[int]:
    """Count legal action sequences of each length 1..depth through the protocol.

    Going back up the tree restarts the match and replays the prefix.
    """
    _client_and_test(client, test, "perft_walk")
    counts = [0] * test.depth

    def walk(prefix: list[str]) -> None:
        acts = _engine_legal(client, prefix)
        d = len(prefix)
        counts[d] += len(acts)
        if d + 1 >= test.depth:
            return
        for i, a in enumerate(acts):
            if i:
                _replay(client, test, prefix)
            _expect_ok(client.request({"type": "apply", "action": a}),
                       f"after {prefix}: the listed action '{a}'", None)
            walk([*prefix, a])

    _start(client, test)
    if test.depth:  # depth 0: no sequence to count
        walk([])
    return counts


def _replay(client: EngineClient, test: Test, prefix: Sequence[str]) -> None:
    _start(client, test)
    for a in prefix:
        _expect_ok(client.request({"type": "apply", "action": a}), f"replay of '{a}'", None)


def _engine_legal(client: EngineClient, prefix: Sequence[str]) -> list[str]:
    reply = client.request({"type": "legal"})
    return legal_actions_of(reply, f"after {list(prefix)}")


def perft_divide(client: EngineClient, test: Test) -> str:
    """:func:`perft_divide_blame` without the rules."""
    _client_and_test(client, test, "perft_divide")
    return perft_divide_blame(client, test)[0]


def perft_divide_blame(client: EngineClient, test: Test) -> tuple[str, tuple[str, ...]]:
    """The first node (depth first, in the engine's order) whose legal actions differ
    from the reference interpreter's, with its path from the root; ``""`` if none.

    Only run after a perft count differs: it walks the tree again beside the
    reference interpreter.
    """
    from mariage.engine.actiontext import action_text, parse_action
    from mariage.spec.rulesload import load_rules

    _client_and_test(client, test, "perft_divide_blame")
    rules = load_rules(test.ruleset, test.options)
    ref = GameState(rules, first_dealer=test.start.get("dealer"))
    ref.deal(test.start["deck"], test.start.get("first_player"))

    blame: list[str] = []

    def walk(prefix: list[str], node: GameState) -> str:
        have = _engine_legal(client, prefix)
        want = [action_text(rules, a) for a in node.legal_actions()]
        if sorted(have) != sorted(want):
            path = " ".join(prefix) or "(the root)"
            blame.extend(legal_blame(node, None, [a for a in want if a not in have],
                                     [a for a in have if a not in want]))
            return (f"first differing node: {path}: legal actions "
                    f"{legal_difference(want, have)}")
        if len(prefix) + 1 >= test.depth:
            return ""
        for i, a in enumerate(have):
            if i:
                _replay(client, test, prefix)
            _expect_ok(client.request({"type": "apply", "action": a}),
                       f"after {prefix}: the listed action '{a}'", None)
            child = node.clone()
            child.apply(parse_action(rules, a))
            found = walk([*prefix, a], child)
            if found:
                return found
        return ""

    _start(client, test)
    return walk([], ref), tuple(blame)


def _run_protocol(client: EngineClient, test: Test, tally: Refusals) -> None:
    """A protocol test, against the ruleset :func:`protocol_ruleset` picks."""
    ruleset = protocol_ruleset(client.info)
    tally.known = rule_ids(ruleset) if ruleset else frozenset()
    expected, named = run_protocol_steps(client, test, ruleset, tally.known)
    tally.expected += expected
    tally.refused += expected
    tally.named += named


def _supported(client: EngineClient, test: Test) -> tuple[str, str]:
    """``("", "")`` if the engine's hello covers the test, else (reason key, message)."""
    info = client.info or {}
    if test.ruleset == ANY_RULESET:
        if needs_match(test) and protocol_ruleset(info) is None:
            return "ruleset", "the engine lists no bundled ruleset to start a match of"
        return "", ""
    return why_skipped(info, test.ruleset, test.options)


def run_test(client: EngineClient, test: Test, test_timeout: float | None = TEST_TIMEOUT,
             require_rules: bool = False) -> Outcome:
    """Run one test; an engine failure is an ``error`` and restarts the engine.

    The error is charged to the rules the step being answered names itself, if any;
    else to no rule (:attr:`Outcome.blamed <mariage.conformance.results.Outcome.blamed>`).

    A failed handshake raises :class:`~mariage.conformance.client.HandshakeError`:
    no test can run against that engine. ``test_timeout`` limits the whole test.
    ``require_rules``: a refusal that does not name the expected rule ID fails
    (by default it counts as a refusal, reported apart as not naming its rule).
    """
    _client_and_test(client, test, "run_test")
    t0 = time.perf_counter()
    out = Outcome(test.id, test.ruleset, test.kind, test.rules, "pass")
    tally = Refusals(rule_ids(test.ruleset), require_rules)
    if client.info is None:
        client.set_deadline(None)
        try:
            client.hello()
        except HandshakeError:
            client.restart()
            raise
    client.begin_test()
    client.set_deadline(test_timeout)
    if client.log is not None:
        client.start_log()
    try:
        key, why = _supported(client, test)
        if why:
            out.status, out.message, out.skip_reason = "skip", why, key
        elif test.kind == "protocol":
            _run_protocol(client, test, tally)
        elif test.kind == "perft":
            got = perft_walk(client, test)
            if got != list(test.counts):
                first = next(d for d in range(len(got)) if got[d] != test.counts[d])
                out.status = "fail"
                out.message = (f"perft: {got[first]} action sequences of length {first + 1}, "
                               f"expected {test.counts[first]} (all: {got} vs "
                               f"{list(test.counts)})")
                out.details = [out.message]
                out.charged = charge(test, None, "legal")
                try:
                    node, named = perft_divide_blame(client, test)
                except TestFailed as exc:
                    node, named = f"divide stopped: {exc.message}", ()
                if named:
                    out.charged = named
                if node:
                    out.message += f"; {node}"
                    out.details.append(node)
        else:
            _run_steps(client, test, tally)
    except ProtocolStepFailed as exc:
        out.status, out.message, out.step = "fail", exc.message, exc.step
        out.details, out.charged = [exc.message], exc.rules
    except _Diffs as exc:
        head = exc.diffs[0]
        out.status, out.message, out.step = "fail", head.text, head.step
        if len(exc.diffs) > 1:
            out.message += f" (and {len(exc.diffs) - 1} more differences)"
        out.details = [d.text for d in exc.diffs]
        out.charged = first_step_charges(exc.diffs)
    except TestFailed as exc:
        out.status, out.message, out.step = "fail", exc.message, exc.step
    except EngineFailure as exc:  # charged to the rules of the step answered, if any
        out.status, out.message = "error", str(exc)
        out.engine_failure, out.request, out.charged = exc.kind, exc.request, exc.rules
        if client.log is not None:
            out.exchange = list(client.log)
        client.restart()
    finally:
        client.set_deadline(None)
        out.refusals, out.refused, out.named = tally.expected, tally.refused, tally.named
    if out.status == "fail" and client.log is not None:
        out.exchange = list(client.log)
    out.seconds = time.perf_counter() - t0
    return out


class HangWatch:
    """The tests in a row an engine timed out on, against a limit (0: none); a test that
    passes or fails in between starts the count again, a skipped one (it asks the engine
    nothing) does not.

    >>> watch = HangWatch(2)
    >>> watch.note(Outcome("a", "r", "scenario", (), "error", engine_failure="timeout"))
    False
    >>> watch.note(Outcome("b", "r", "scenario", (), "error", engine_failure="timeout"))
    True
    >>> watch.why()
    'the engine timed out 2 times in a row (in a, b)'
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.hung: list[str] = []

    def note(self, outcome: Outcome) -> bool:
        """Count ``outcome``; True once the engine has hung on ``limit`` tests in a row."""
        if outcome.engine_failure == "timeout":
            self.hung.append(outcome.id)
        elif outcome.status != "skip":
            self.hung.clear()
        return bool(self.limit) and len(self.hung) >= self.limit

    def why(self) -> str:
        """The tests the engine hung on, in a row, as one clause."""
        return (f"the engine timed out {len(self.hung)} times in a row "
                f"(in {', '.join(self.hung)})")


def run_suite(client: EngineClient, tests: Iterable[Test], expected: Iterable[str] = (),
              progress: Callable[[Outcome], None] | None = None,
              test_timeout: float | None = TEST_TIMEOUT,
              require_rules: bool = False, max_hangs: int = MAX_HANGS) -> RunResult:
    """Run ``tests`` in order; mark the ``expected`` failures (test IDs).

    A failed handshake stops the run at once, and so does an engine that times out
    on ``max_hangs`` tests in a row (0: never): :attr:`RunResult.aborted` says why
    and :attr:`RunResult.not_run` how many tests were left. ``require_rules``: see
    :func:`run_test`.
    """
    t0 = time.perf_counter()
    todo = list(tests)
    xfail = set(expected)
    outcomes: list[Outcome] = []
    aborted = ""
    watch = HangWatch(max_hangs)
    for n, test in enumerate(todo):
        try:
            o = run_test(client, test, test_timeout, require_rules)
        except HandshakeError as exc:
            aborted = (f"the engine failed its handshake: {exc.message}; "
                       f"{len(todo) - n} tests were not run")
            break
        hung = watch.note(o)
        if test.id in xfail:
            if o.status in ("fail", "error"):
                o.status = "xfail"
            elif o.status == "pass":
                o.status, o.message = "xpass", "listed as an expected failure, but it passed"
        outcomes.append(o)
        if progress:
            progress(o)
        if hung and n + 1 < len(todo):
            aborted = (f"{watch.why()}; {len(todo) - n - 1} tests were not run "
                       f"(--max-hangs {max_hangs})")
            break
    return RunResult(outcomes, client.info, time.perf_counter() - t0, client.requests,
                     client.restarts, aborted=aborted, not_run=len(todo) - len(outcomes))
