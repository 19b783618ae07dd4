"""Running conformance tests against an engine, one fresh match per test.

:func:`run_test` plays one test through an :class:`~mariage.conformance.client.EngineClient`
and returns an :class:`Outcome`; :func:`run_suite` runs many, restarting the
engine after any crash, hang or garbage, and applies the expected failures.
The rules for interpreting a test are in ``docs/conformance.rst``.

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
from dataclasses import dataclass, field
from typing import Any

from .client import EngineClient, EngineFailure
from .suite import Test

__all__ = ["Outcome", "RunResult", "TestFailed", "perft_walk", "run_suite", "run_test"]


class TestFailed(Exception):
    """The engine answered, but not as the test expects."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.message = message
        self.step = step
        super().__init__(message)


@dataclass
class Outcome:
    """The result of one test: ``pass``, ``fail``, ``error`` or ``skip``.

    After expected failures are applied, ``xfail`` (failed as expected) and
    ``xpass`` (listed as failing but passed: this fails the run) may appear.
    """

    id: str
    ruleset: str
    kind: str
    rules: tuple[str, ...]
    status: str
    message: str = ""
    step: int | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """True if this outcome does not fail the run."""
        return self.status in ("pass", "xfail", "skip")


@dataclass
class RunResult:
    """Every outcome of a run, plus the engine's handshake and the counters."""

    outcomes: list[Outcome]
    engine: dict[str, Any] | None
    seconds: float
    requests: int
    restarts: int
    stale: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every test passed or failed as expected, and no expectation is stale."""
        return all(o.ok for o in self.outcomes) and not self.stale


def _expect_ok(reply: dict[str, Any], what: str, step: int | None) -> None:
    if reply.get("type") != "ok":
        detail = f"{reply.get('code')}" + (f" [{reply['rule']}]" if "rule" in reply else "")
        raise TestFailed(f"{what}: refused ({detail}): {reply.get('message', '')}", step)


def _norm_state(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    if isinstance(out.get("hands"), list):
        out["hands"] = [sorted(h) if isinstance(h, list) else h for h in out["hands"]]
    out.pop("type", None)
    out.pop("id", None)
    return out


def _compare_state(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    want = _norm_state(expected)
    have = _norm_state(got)
    return [f"{k}: expected {want[k]!r}, engine says {have.get(k, '<missing>')!r}"
            for k in want if have.get(k, "<missing>") != want[k]]


def _describe(step: dict[str, Any]) -> str:
    if "act" in step:
        seat = f" by seat {step['seat']}" if "seat" in step else ""
        return f"action '{step['act']}'{seat}"
    if "deal" in step:
        return "deal of the next hand"
    if "resign" in step:
        return f"resignation of seat {step['resign']}"
    return "step"


def _check_legal(client: EngineClient, step: dict[str, Any], n: int) -> None:
    keys = [k for k in ("legal", "legal_has", "legal_not") if k in step]
    if not keys:
        return
    req: dict[str, Any] = {"type": "legal"}
    if "seat" in step:
        req["seat"] = step["seat"]
    reply = client.request(req)
    if reply.get("type") != "legal" or not isinstance(reply.get("actions"), list):
        raise TestFailed(f"step {n}: 'legal' answered with {reply.get('type')!r}", n)
    got = [str(a) for a in reply["actions"]]
    have = set(got)
    if len(have) != len(got):
        raise TestFailed(f"step {n}: the legal actions list a duplicate: {got}", n)
    if "legal" in step:
        want = set(step["legal"])
        if want != have:
            raise TestFailed(f"step {n}: legal actions before {_describe(step)}: missing "
                             f"{sorted(want - have)}, not legal but listed {sorted(have - want)}",
                             n)
    missing = sorted(set(step.get("legal_has", ())) - have)
    if missing:
        raise TestFailed(f"step {n}: {missing} must be legal before {_describe(step)}", n)
    extra = sorted(set(step.get("legal_not", ())) & have)
    if extra:
        raise TestFailed(f"step {n}: {extra} must not be legal before {_describe(step)}", n)


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


def _run_steps(client: EngineClient, test: Test) -> None:
    _start(client, test)
    if test.initial is not None:
        diff = _compare_state(test.initial, _state(client))
        if diff:
            raise TestFailed("after the start of the match: " + "; ".join(diff), 0)
    for i, step in enumerate(test.steps):
        n = i + 1
        _check_legal(client, step, n)
        err = step.get("error")
        before = _state(client) if err else None
        reply = _send_step(client, step)
        if err:
            if reply.get("type") != "error":
                raise TestFailed(f"step {n}: {_describe(step)} must be refused "
                                 f"({err.get('code')} [{err.get('rule', '-')}]), "
                                 "the engine accepted it", n)
            if reply.get("code") != err.get("code") or (
                    "rule" in err and reply.get("rule") != err["rule"]):
                raise TestFailed(f"step {n}: {_describe(step)} must be refused with "
                                 f"{err.get('code')} [{err.get('rule', '-')}], the engine "
                                 f"said {reply.get('code')} [{reply.get('rule', '-')}]", n)
            assert before is not None
            diff = _compare_state(before, _state(client))
            if diff:
                raise TestFailed(f"step {n}: a refused action changed the state: "
                                 + "; ".join(diff), n)
        else:
            _expect_ok(reply, f"step {n}: {_describe(step)}", n)
        if "state" in step:
            diff = _compare_state(step["state"], _state(client))
            if diff:
                raise TestFailed(f"step {n}: after {_describe(step)}: " + "; ".join(diff), n)


def perft_walk(client: EngineClient, test: Test) -> list[int]:
    """Count legal action sequences of each length 1..depth through the protocol.

    Going back up the tree restarts the match and replays the prefix.
    """
    counts = [0] * test.depth

    def replay(prefix: Sequence[str]) -> None:
        _start(client, test)
        for a in prefix:
            _expect_ok(client.request({"type": "apply", "action": a}), f"replay of '{a}'", None)

    def walk(prefix: list[str]) -> None:
        reply = client.request({"type": "legal"})
        acts = reply.get("actions")
        if reply.get("type") != "legal" or not isinstance(acts, list):
            raise TestFailed(f"after {prefix}: 'legal' answered with {reply.get('type')!r}")
        d = len(prefix)
        counts[d] += len(acts)
        if d + 1 >= test.depth:
            return
        for i, a in enumerate(acts):
            if i:
                replay(prefix)
            _expect_ok(client.request({"type": "apply", "action": a}),
                       f"after {prefix}: the listed action '{a}'", None)
            walk([*prefix, a])

    _start(client, test)
    walk([])
    return counts


def _supported(client: EngineClient, test: Test) -> str:
    info = client.info or {}
    sets = info.get("rulesets")
    if not isinstance(sets, dict) or test.ruleset not in sets:
        return f"the engine does not list ruleset '{test.ruleset}'"
    opts = (sets[test.ruleset] or {}).get("options") or {}
    for name, value in test.options.items():
        spec = opts.get(name)
        if spec is None:
            return f"the engine does not list option '{name}'"
        values = spec.get("values")
        if values is not None and value not in values:
            return f"the engine does not list value {value!r} of option '{name}'"
    return ""


def run_test(client: EngineClient, test: Test) -> Outcome:
    """Run one test; an engine failure is an ``error`` and restarts the engine."""
    t0 = time.perf_counter()
    out = Outcome(test.id, test.ruleset, test.kind, test.rules, "pass")
    try:
        if client.info is None:
            client.hello()
        why = _supported(client, test)
        if why:
            out.status, out.message = "skip", why
        elif test.kind == "perft":
            got = perft_walk(client, test)
            if got != list(test.counts):
                first = next(d for d in range(len(got)) if got[d] != test.counts[d])
                out.status = "fail"
                out.message = (f"perft: {got[first]} action sequences of length {first + 1}, "
                               f"expected {test.counts[first]} (all: {got} vs "
                               f"{list(test.counts)})")
        else:
            _run_steps(client, test)
    except TestFailed as exc:
        out.status, out.message, out.step = "fail", exc.message, exc.step
    except EngineFailure as exc:
        out.status, out.message = "error", str(exc)
        client.restart()
        client.info = None
    out.seconds = time.perf_counter() - t0
    return out


def run_suite(client: EngineClient, tests: Iterable[Test], expected: Iterable[str] = (),
              progress: Callable[[Outcome], None] | None = None) -> RunResult:
    """Run ``tests`` in order; mark the ``expected`` failures (test IDs)."""
    t0 = time.perf_counter()
    xfail = set(expected)
    outcomes: list[Outcome] = []
    seen: set[str] = set()
    for test in tests:
        o = run_test(client, test)
        seen.add(test.id)
        if test.id in xfail:
            if o.status in ("fail", "error"):
                o.status = "xfail"
            elif o.status == "pass":
                o.status, o.message = "xpass", "listed as an expected failure, but it passed"
        outcomes.append(o)
        if progress:
            progress(o)
    return RunResult(outcomes, client.info, time.perf_counter() - t0, client.requests,
                     client.restarts)
