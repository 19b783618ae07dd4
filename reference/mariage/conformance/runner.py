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
from functools import lru_cache
from typing import Any

from mariage.engine.state import GameState

from ..errors import MariageError
from .client import EngineClient, EngineFailure, HandshakeError
from .configuration import effective_options, show_value, unsupported
from .coverage import UNREACHABLE
from .protocheck import (
    ANY_RULESET,
    ProtocolStepFailed,
    needs_match,
    protocol_ruleset,
    run_protocol_steps,
)
from .suite import Test

__all__ = ["MAX_DIFFERENCES", "SKIP_REASONS", "TEST_TIMEOUT", "Outcome", "RunResult",
           "TestFailed", "legal_blame", "legal_difference", "perft_divide",
           "perft_divide_blame", "perft_walk", "run_suite", "run_test"]

#: Default limit for a whole test, in seconds (no stream of ``log`` lines extends it).
TEST_TIMEOUT = 300.0

#: Why a test is skipped: the reason key and its text in reports.
SKIP_REASONS = {
    "ruleset": "ruleset not supported",
    "option": "option not supported",
    "value": "option value not supported",
    "configuration": "configuration not played",
    "derivation": "does not hold under the configuration",
}


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
    #: for a skip: the key of :data:`SKIP_REASONS`
    skip_reason: str = ""
    #: the rule IDs a failure is charged to (those of the step where it happened)
    charged: tuple[str, ...] = ()
    #: every difference found (a test goes on past its first one where it can)
    details: list[str] = field(default_factory=list)
    #: the exchange of a failing test (request, response) for ``--trace``
    exchange: list[tuple[str, str]] = field(default_factory=list)
    #: steps reached that expect a refusal naming a rule ID; of them, those the engine
    #: refused with the expected code, and those where it also named that rule
    refusals: int = 0
    refused: int = 0
    named: int = 0

    @property
    def blamed(self) -> tuple[str, ...]:
        """The rule IDs this outcome counts against: :attr:`charged`, else all the test's."""
        return self.charged or self.rules

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
    #: why the run stopped before its end (a failed handshake), else ``""``
    aborted: str = ""

    @property
    def ran(self) -> int:
        """How many tests were run (not skipped)."""
        return sum(1 for o in self.outcomes if o.status != "skip")

    def refusal_levels(self) -> tuple[int, int, int]:
        """Steps expecting a refusal with a rule ID, how many the engine refused (with
        the expected code), and how many of those named the rule."""
        return (sum(o.refusals for o in self.outcomes), sum(o.refused for o in self.outcomes),
                sum(o.named for o in self.outcomes))

    @property
    def ok(self) -> bool:
        """True when at least one test ran, every test passed or failed as expected,
        no expectation is stale and the run was not stopped."""
        return (all(o.ok for o in self.outcomes) and not self.stale and not self.aborted
                and self.ran > 0)

    def skips(self) -> dict[str, list[Outcome]]:
        """Skipped tests by reason (keys of :data:`SKIP_REASONS`)."""
        out: dict[str, list[Outcome]] = {}
        for o in self.outcomes:
            if o.status == "skip":
                out.setdefault(o.skip_reason or "ruleset", []).append(o)
        return out

    def verdict(self) -> str:
        """One line: why the run failed, or that it passed.

        >>> RunResult([], None, 0.0, 0, 0).verdict()
        'FAILED: no test ran'
        """
        if self.aborted:
            return f"FAILED: the run stopped: {self.aborted}"
        if self.ran == 0:
            parts = [f"{len(v)} skipped ({SKIP_REASONS[k]})" for k, v in self.skips().items()]
            return "FAILED: no test ran" + (": " + ", ".join(parts) if parts else "")
        bad = [o for o in self.outcomes if not o.ok]
        if bad or self.stale:
            return (f"FAILED: {len(bad)} tests failed" +
                    (f", {len(self.stale)} stale expectations" if self.stale else ""))
        return "PASSED"


#: At most this many differences are reported for one test.
MAX_DIFFERENCES = 20

#: Which rule IDs (by fragment) govern each thing a step compares: a difference
#: is charged to the test's rules that contain one of these.
_GOVERNS: dict[str, tuple[str, ...]] = {
    "legal": (".play.", ".decl.", ".ask.", ".exchange", ".call-out", ".lead.", ".accusa",
              "core.turn", "core.hand", "core.phase", "core.over"),
    "refused": (".play.", ".decl.", ".ask.", ".exchange", ".call-out", ".lead.", "core."),
    "accepted": (".play.", ".decl.", ".ask.", ".exchange", ".call-out", ".lead.", "core."),
    "hand_points": (".score.", ".decl.value", ".value", ".held", ".pack", ".trick.points",
                    ".decl.", ".ask."),
    "match_scores": (".score.", ".match.", ".value", ".held", ".pack", ".turn-up"),
    "last_hand": (".score.", ".match.", ".hand.", ".call-out", ".turn-up", ".value"),
    "result": (".match.", ".score.", ".call-out", ".value", "core.resign", "core.over"),
    "segni": (".score.", ".hand.", ".match."),
    "terminal": (".match.", ".call-out", "core.resign", "core.over"),
    "phase": (".decl.window", ".hand.", ".match.", ".ask.", ".call-out", "core."),
    "trump": (".decl.trump", ".trump", ".deal", ".decl.", ".ask."),
    "hands": (".deal", ".draw", ".exchange", ".pack"),
    "stock": (".deal", ".draw", ".exchange", ".pack"),
    "turn_up": (".deal", ".draw", ".exchange"),
    "leader": (".trick.", ".lead.", ".draw"),
    "to_act": (".trick.", ".lead.", ".decl.window", ".ask.", "core.turn"),
    "tricks_won": (".trick.",),
    "table": (".trick.", ".play."),
    "trick": (".trick.", ".decl.window"),
    "dealer": (".deal", ".rotation"),
    "hand": (".deal", ".hand.", ".match."),
    "declared": (".decl.", ".ask."),
}


#: For the score fields: the rules that decide them first, before the pack's values
#: and the match's end that only feed them.
_FIRST: dict[str, tuple[str, ...]] = {
    field: (".score.", ".turn-up", ".decl.value", ".value", ".held", ".call-out")
    for field in ("hand_points", "match_scores", "last_hand", "result", "terminal")
}


class _Reference:
    """The reference interpreter following a test's steps, to name the rule of a
    difference: the rule refusing an action the engine lists too many, the rules
    offering one it misses, the rules a step of a golden match exercises."""

    def __init__(self, test: Test) -> None:
        from mariage.spec.compile import load_rules

        from .generate import _dealt_rules

        self.rules = load_rules(test.ruleset, test.options)
        self.state = GameState(self.rules, first_dealer=test.start.get("dealer"))
        self.state.deal(test.start["deck"], test.start.get("first_player"))
        #: the rules exercised since the state was last compared
        self.since: set[str] = _dealt_rules(self.rules)

    @classmethod
    def of(cls, test: Test) -> _Reference | None:
        """The reference at the start of ``test``; ``None`` if it cannot follow it."""
        try:
            return cls(test)
        except Exception:
            return None

    def step(self, step: dict[str, Any]) -> bool:
        """Take ``step`` (a refused one changes nothing); ``False`` once lost."""
        from mariage.engine.actions import parse_action

        from ..errors import IllegalActionError
        from .generate import _dealt_rules, _outcome_rules
        from .ruleprobe import node_rules

        st = self.state
        try:
            if "act" in step:
                action = parse_action(self.rules, step["act"])
                before = (st.trick_no, len(st.tricks), st.trump)
                taken = node_rules(st, action) if step.get("seat") in (
                    None, st.to_act) else set()
                st.apply(action, step.get("seat"))
                self.since |= taken | _outcome_rules(st, before)
            elif "deal" in step:
                st.deal(step["deal"]["deck"], step["deal"].get("first_player"))
                self.since |= _dealt_rules(self.rules)
            elif "resign" in step:
                st.resign(step["resign"])
                self.since.add("core.resign")
        except IllegalActionError:
            pass
        except (ValueError, MariageError):
            return False
        return True

    def state_blame(self, test: Test, what: str) -> tuple[str, ...]:
        """The test's rules that decide state field ``what`` (the most specific first: see
        :data:`_FIRST`), narrowed to those exercised since the state was last compared."""
        rules = [r for r in test.rules if f"{test.ruleset} {r}" not in UNREACHABLE]
        golden = test.kind == "golden"  # its rules are those its steps exercise
        for frags in (_FIRST.get(what, ()), _GOVERNS.get(what, ())):
            mine = tuple(r for r in rules if any(f in r for f in frags))
            narrow = tuple(r for r in mine if r in self.since) if golden else ()
            if narrow or mine:
                return narrow or mine
        return ()

    def legal_blame(self, step: dict[str, Any], missing: Sequence[str],
                    extra: Sequence[str]) -> tuple[str, ...]:
        """The rules the reference names for a legal-action difference before ``step``."""
        return legal_blame(self.state, step.get("seat"), missing, extra)


def legal_blame(state: GameState, seat: int | None, missing: Sequence[str],
                extra: Sequence[str]) -> tuple[str, ...]:
    """The rules the reference names at ``state`` for the actions an engine lists too many
    (the rule refusing each) and misses (the rules offering each).

    >>> from mariage import load_rules
    >>> from mariage.engine.deals import canonical_deck
    >>> st = GameState(load_rules("mariglia"), first_dealer=0)
    >>> st.deal(canonical_deck(st.rules))
    >>> legal_blame(st, None, [], ["QS"])
    ('core.hand',)
    """
    from mariage.engine.actions import parse_action

    from .ruleprobe import offer_rules, refusal_rule

    out: list[str] = []
    for text in extra:
        try:
            rule = refusal_rule(state, parse_action(state.rules, text), seat)
        except ValueError:
            rule = state.rules.core_phase
        if rule:
            out.append(rule)
    for text in missing:
        try:
            out.extend(offer_rules(state, parse_action(state.rules, text)))
        except ValueError:
            continue
    return tuple(dict.fromkeys(out))


@dataclass
class _Diff:
    step: int | None
    text: str
    charged: tuple[str, ...]


@dataclass
class _Refusals:
    """The two levels of refusals in one test: refused, and refused naming the rule.

    An engine may refuse without a rule ID, or with words of its own: the
    refusal counts, the rule is not named. Naming one of the ruleset's rule
    IDs other than the expected one fails; so does any refusal that does not
    name its rule when ``require`` (``--require-rule-ids``).
    """

    known: frozenset[str]
    require: bool = False
    expected: int = 0
    refused: int = 0
    named: int = 0

    def judge(self, err: dict[str, Any], reply: dict[str, Any]) -> bool:
        """Count one refusal step; False if its answer is wrong (code, or rule)."""
        if "rule" in err:
            self.expected += 1
        if reply.get("type") != "error" or reply.get("code") != err.get("code"):
            return False
        if "rule" not in err:
            return True
        self.refused += 1
        got = reply.get("rule")
        if got == err["rule"]:
            self.named += 1
            return True
        return not self.require and not (isinstance(got, str) and got in self.known)


@lru_cache(maxsize=64)
def _rule_ids(ruleset: str) -> frozenset[str]:
    """The rule IDs of a bundled ruleset (empty for one the reference does not know)."""
    from mariage.spec.compile import load_rules

    try:
        return frozenset(load_rules(ruleset).rule_ids)
    except (MariageError, ValueError, OSError):
        return frozenset()


def _charge(test: Test, step: dict[str, Any] | None, what: str) -> tuple[str, ...]:
    """The rule IDs a difference at ``step`` in ``what`` is charged to.

    The step's own ``rules`` if it names any; else the rule its expected
    ``error`` names; else the test's rules that govern ``what``; else all of them.
    """
    if step is not None:
        if step.get("rules"):
            return tuple(str(r) for r in step["rules"])
        err = step.get("error")
        if isinstance(err, dict) and err.get("rule"):
            return (str(err["rule"]),)
    rules = tuple(r for r in test.rules if f"{test.ruleset} {r}" not in UNREACHABLE) \
        or test.rules
    for frags in (_FIRST.get(what, ()), _GOVERNS.get(what, ())):
        mine = tuple(r for r in rules if any(f in r for f in frags))
        if mine:
            return mine
    return rules


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


def _state_diffs(expected: dict[str, Any], got: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, text) for each field given in ``expected`` that ``got`` differs in."""
    want = _norm_state(expected)
    have = _norm_state(got)
    return [(k, f"{k}: expected {want[k]!r}, engine says {have.get(k, '<missing>')!r}")
            for k in want if have.get(k, "<missing>") != want[k]]


def _compare_state(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    return [text for _, text in _state_diffs(expected, got)]


def _describe(step: dict[str, Any]) -> str:
    if "act" in step:
        seat = f" by seat {step['seat']}" if "seat" in step else ""
        return f"action '{step['act']}'{seat}"
    if "deal" in step:
        return "deal of the next hand"
    if "resign" in step:
        return f"resignation of seat {step['resign']}"
    return "step"


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


def _check_legal(client: EngineClient, step: dict[str, Any], n: int
                 ) -> tuple[str, list[str], list[str]]:
    """Compare the legal actions before ``step``; return the difference or ``""``, and
    the actions missing and extra."""
    keys = [k for k in ("legal", "legal_has", "legal_not") if k in step]
    if not keys:
        return "", [], []
    req: dict[str, Any] = {"type": "legal"}
    if "seat" in step:
        req["seat"] = step["seat"]
    reply = client.request(req)
    if reply.get("type") != "legal" or not isinstance(reply.get("actions"), list):
        raise TestFailed(f"step {n}: 'legal' answered with {reply.get('type')!r}", n)
    got = [str(a) for a in reply["actions"]]
    have = set(got)
    if len(have) != len(got):
        return f"step {n}: the legal actions list a duplicate: {sorted(got)}", [], []
    before = f"step {n}: legal actions before {_describe(step)}: "
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


#: State fields in the order one causes the next: of the differences after one step,
#: only those of the earliest group are charged (a wrong bonus at the deal also makes
#: the scores and the match's end differ: the bonus's rule is broken, not the end's).
_CAUSAL = ({"hands", "stock", "turn_up", "trump", "dealer"},
           {"table", "trick", "leader", "to_act", "tricks_won", "declared"},
           {"hand_points"},
           {"match_scores", "last_hand", "segni"})


def _group(text: str) -> int:
    field = text.split(": ", 2)[1] if text.count(": ") >= 2 else ""
    field = field.split(":")[0].strip()
    return next((i for i, g in enumerate(_CAUSAL) if field in g), len(_CAUSAL))


def _first_step_charges(diffs: list[_Diff]) -> tuple[str, ...]:
    """The rules a failing test is charged to: those of its first differing step only
    (later differences follow from it), and there of the earliest state fields."""
    first = [d for d in diffs if d.step == diffs[0].step]
    legal = [d for d in first if "legal actions" in d.text or "refused" in d.text
             or "must be refused" in d.text]
    if not legal:
        low = min(_group(d.text) for d in first)
        first = [d for d in first if _group(d.text) == low]
    else:
        first = legal
    charged: list[str] = []
    for d in first:
        charged.extend(r for r in d.charged if r not in charged)
    return tuple(charged)


class _Diffs(Exception):
    """Every difference of a test that went on past its first one."""

    def __init__(self, diffs: list[_Diff]) -> None:
        self.diffs = diffs
        super().__init__(diffs[0].text)


def _run_steps(client: EngineClient, test: Test, tally: _Refusals | None = None) -> None:
    """Play the steps; go on past differences as long as the engine accepts the recorded
    actions (and refuses the refused ones); raise :class:`_Diffs` with all of them."""
    diffs: list[_Diff] = []
    tally = tally or _Refusals(_rule_ids(test.ruleset))

    ref = _Reference.of(test)

    def note(n: int | None, step: dict[str, Any] | None, what: str, text: str,
             named: tuple[str, ...] = ()) -> None:
        charged = _charge(test, step, what) if step is not None and (
            step.get("rules") or (isinstance(step.get("error"), dict)
            and step["error"].get("rule"))) else named or _charge(test, step, what)
        diffs.append(_Diff(n, text, charged))
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
        legal, missing, extra = _check_legal(client, step, n)
        if legal:
            named = ref.legal_blame(step, missing, extra) if ref is not None else ()
            note(n, step, "legal", legal, named)
        err = step.get("error")
        before = _state(client) if err else None
        reply = _send_step(client, step)
        if err:
            if reply.get("type") != "error":
                note(n, step, "accepted", f"step {n}: {_describe(step)} must be refused "
                     f"({err.get('code')} [{err.get('rule', '-')}]), the engine accepted it")
                stop()  # the engine's match is no longer the test's
            if not tally.judge(err, reply):
                note(n, step, "refused", f"step {n}: {_describe(step)} must be refused with "
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
            text = (f"step {n}: {_describe(step)}: refused ({detail}): "
                    f"{reply.get('message', '')}")
            offered = ref.legal_blame(step, [step["act"]], []) \
                if ref is not None and "act" in step else ()
            if isinstance(rule, str) and (rule in test.rules or rule in offered):
                diffs.append(_Diff(n, text, (rule,)))
            else:  # a focused test: the rules it names; a golden match: the reference's
                note(n, step, "refused", text, offered if test.kind == "golden" else ())
            raise _Diffs(diffs)  # the engine's match is no longer the test's
        if ref is not None and not ref.step(step):
            ref = None
        if "state" in step:
            for what, text in _state_diffs(step["state"], _state(client)):
                note(n, step, what, f"step {n}: after {_describe(step)}: {text}",
                     state_blame(what))
            if ref is not None:
                ref.since = set()
    stop()


def perft_walk(client: EngineClient, test: Test) -> list[int]:
    """Count legal action sequences of each length 1..depth through the protocol.

    Going back up the tree restarts the match and replays the prefix.
    """
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
    walk([])
    return counts


def _replay(client: EngineClient, test: Test, prefix: Sequence[str]) -> None:
    _start(client, test)
    for a in prefix:
        _expect_ok(client.request({"type": "apply", "action": a}), f"replay of '{a}'", None)


def _engine_legal(client: EngineClient, prefix: Sequence[str]) -> list[str]:
    reply = client.request({"type": "legal"})
    acts = reply.get("actions")
    if reply.get("type") != "legal" or not isinstance(acts, list):
        raise TestFailed(f"after {list(prefix)}: 'legal' answered with {reply.get('type')!r}")
    return [str(a) for a in acts]


def perft_divide(client: EngineClient, test: Test) -> str:
    """:func:`perft_divide_blame` without the rules."""
    return perft_divide_blame(client, test)[0]


def perft_divide_blame(client: EngineClient, test: Test) -> tuple[str, tuple[str, ...]]:
    """The first node (depth first, in the engine's order) whose legal actions differ
    from the reference interpreter's, with its path from the root; ``""`` if none.

    Only run after a perft count differs: it walks the tree again beside the
    reference interpreter.
    """
    from mariage.engine.actions import action_text, parse_action
    from mariage.spec.compile import load_rules

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


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values of the same type (``True`` is not ``1``, ``36`` is not ``"36"``)."""
    return type(a) is type(b) and a == b


def _run_protocol(client: EngineClient, test: Test, tally: _Refusals) -> None:
    """A protocol test, against the ruleset :func:`protocol_ruleset` picks."""
    ruleset = protocol_ruleset(client.info)
    tally.known = _rule_ids(ruleset) if ruleset else frozenset()
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
    sets = info.get("rulesets")
    if isinstance(sets, dict) and test.ruleset not in sets and test.ruleset.endswith(
            (".yaml", ".yml")) and "ruleset_files" in (info.get("features") or ()):
        # a house description, given by path to an engine that reads descriptions
        why = unsupported(info, test.ruleset, test.options)
        return ("configuration", why) if why else ("", "")
    if not isinstance(sets, dict) or test.ruleset not in sets:
        return "ruleset", f"the engine does not list ruleset '{test.ruleset}'"
    entry = sets[test.ruleset]
    opts = entry.get("options") if isinstance(entry, dict) else None
    if not isinstance(opts, dict):
        opts = {}
    for name, value in test.options.items():
        spec = opts.get(name)
        if not isinstance(spec, dict):
            return "option", f"the engine does not list option '{name}' of {test.ruleset}"
        values = spec.get("values")
        if isinstance(values, list) and not any(_same(value, v) for v in values):
            return "value", f"the engine does not list value {value!r} of option '{name}'"
        lo, hi = spec.get("min"), spec.get("max")
        if isinstance(value, int) and not isinstance(value, bool) and (
                (isinstance(lo, int | float) and value < lo)
                or (isinstance(hi, int | float) and value > hi)):
            span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            return "value", (f"value {value} of option '{name}' is outside the engine's "
                             f"range {span}")
    why = _default_unsupported(opts, test)
    if why:
        return "value", why
    why = unsupported(info, test.ruleset, test.options)
    if why:
        return "configuration", why
    return "", ""


def _default_unsupported(opts: dict[str, Any], test: Test) -> str:
    """Why an option the test leaves at its default is at a value the engine does not
    list (its ``values`` or ``min`` .. ``max`` leave the default out), else ``""``."""
    try:
        defaults = effective_options(test.ruleset, {})
    except MariageError:  # a ruleset this package does not know: nothing to compare
        return ""
    for name, spec in opts.items():
        if name in test.options or name not in defaults or not isinstance(spec, dict):
            continue
        value = defaults[name]
        values = spec.get("values")
        lo, hi = spec.get("min"), spec.get("max")
        if (isinstance(values, list) and not any(_same(value, v) for v in values)) or (
                isinstance(value, int) and not isinstance(value, bool) and (
                    (isinstance(lo, int | float) and value < lo)
                    or (isinstance(hi, int | float) and value > hi))):
            return (f"the engine does not play the default {show_value(value)} of option "
                    f"'{name}'")
    return ""


def run_test(client: EngineClient, test: Test, test_timeout: float | None = TEST_TIMEOUT,
             require_rules: bool = False) -> Outcome:
    """Run one test; an engine failure is an ``error`` and restarts the engine.

    A failed handshake raises :class:`~mariage.conformance.client.HandshakeError`:
    no test can run against that engine. ``test_timeout`` limits the whole test.
    ``require_rules``: a refusal that does not name the expected rule ID fails
    (by default it counts as a refusal, reported apart as not naming its rule).
    """
    t0 = time.perf_counter()
    out = Outcome(test.id, test.ruleset, test.kind, test.rules, "pass")
    tally = _Refusals(_rule_ids(test.ruleset), require_rules)
    if client.info is None:
        client.set_deadline(None)
        try:
            client.hello()
        except HandshakeError:
            client.restart()
            raise
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
                out.charged = _charge(test, None, "legal")
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
        out.charged = _first_step_charges(exc.diffs)
    except TestFailed as exc:
        out.status, out.message, out.step = "fail", exc.message, exc.step
    except EngineFailure as exc:
        out.status, out.message = "error", str(exc)
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


def run_suite(client: EngineClient, tests: Iterable[Test], expected: Iterable[str] = (),
              progress: Callable[[Outcome], None] | None = None,
              test_timeout: float | None = TEST_TIMEOUT,
              require_rules: bool = False) -> RunResult:
    """Run ``tests`` in order; mark the ``expected`` failures (test IDs).

    A failed handshake stops the run at once: :attr:`RunResult.aborted` says why.
    ``require_rules``: see :func:`run_test`.
    """
    t0 = time.perf_counter()
    xfail = set(expected)
    outcomes: list[Outcome] = []
    aborted = ""
    for test in tests:
        try:
            o = run_test(client, test, test_timeout, require_rules)
        except HandshakeError as exc:
            aborted = f"the engine failed its handshake: {exc.message}"
            break
        if test.id in xfail:
            if o.status in ("fail", "error"):
                o.status = "xfail"
            elif o.status == "pass":
                o.status, o.message = "xpass", "listed as an expected failure, but it passed"
        outcomes.append(o)
        if progress:
            progress(o)
    return RunResult(outcomes, client.info, time.perf_counter() - t0, client.requests,
                     client.restarts, aborted=aborted)
