"""Which rule IDs a failing test is charged to, and how a refusal names its rule.

A test lists the rules it checks; a difference is charged to the ones that
decide what differs: the step's own ``rules``, the rule its expected refusal
names, the rules the reference interpreter names for a legal-action
difference (:func:`legal_blame`), or the test's rules that govern the state
field that differs (:func:`charge`). Of the differences after one step, only
those of the earliest cause are kept (:func:`first_step_charges`).

>>> from mariage.conformance.suite import parse_test
>>> test = parse_test('''---
... id: demo/charge
... description: two rules
... rules: [marianna.score.hand, marianna.trick.winner]
... ruleset: marianna
... kind: scenario
... start: {dealer: 0, deck: [AH]}
... steps: []
... ---
... ''', "demo.test")
>>> charge(test, None, "tricks_won")
('marianna.trick.winner',)
>>> charge(test, {"rules": ["core.turn"]}, "tricks_won")
('core.turn',)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mariage.engine.state import GameState

from ..errors import MariageError
from .suite import Test

__all__ = ["Diff", "Reference", "Refusals", "charge", "first_step_charges", "governed_fields",
           "legal_blame", "rule_ids"]

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


def governed_fields(rule: str) -> tuple[str, ...]:
    """The state fields ``rule`` governs (by :data:`_GOVERNS`), in their order there.

    >>> governed_fields("schnapsen.match.tie")
    ('match_scores', 'last_hand', 'result', 'segni', 'terminal', 'phase', 'hand')
    """
    return tuple(f for f, frags in _GOVERNS.items()
                 if f not in ("legal", "refused", "accepted") and any(x in rule for x in frags))


def _reachable(test: Test) -> tuple[str, ...]:
    """The test's rules less those no engine can break in its ruleset (``UNREACHABLE``,
    imported when a failure is charged: making it compiles the rules of every ruleset)."""
    from .coverage import UNREACHABLE

    return tuple(r for r in test.rules if f"{test.ruleset} {r}" not in UNREACHABLE)


def _governing(rules: Sequence[str], what: str) -> Iterator[tuple[str, ...]]:
    """Of ``rules``, those that decide ``what`` first (:data:`_FIRST`), then all those that
    govern it (:data:`_GOVERNS`)."""
    for frags in (_FIRST.get(what, ()), _GOVERNS.get(what, ())):
        yield tuple(r for r in rules if any(f in r for f in frags))


class Reference:
    """The reference interpreter following a test's steps, to name the rule of a
    difference: the rule refusing an action the engine lists too many, the rules
    offering one it misses, the rules a step of a golden match exercises."""

    def __init__(self, test: Test) -> None:
        from mariage.spec.rulesload import load_rules

        from .generate import _dealt_rules

        self.rules = load_rules(test.ruleset, test.options)
        self.state = GameState(self.rules, first_dealer=test.start.get("dealer"))
        self.state.deal(test.start["deck"], test.start.get("first_player"))
        #: the rules exercised since the state was last compared
        self.since: set[str] = _dealt_rules(self.rules)

    @classmethod
    def of(cls, test: Test) -> Reference | None:
        """The reference at the start of ``test``; ``None`` if it cannot follow it."""
        try:
            return cls(test)
        except Exception:
            return None

    def place(self) -> str:
        """Where the match stands, for a message: ``hand 1, trick 3, seat 2 to act``."""
        st = self.state
        if st.terminal:
            return f"hand {st.hand_no}, the match is over"
        if st.to_act is None:
            return f"hand {st.hand_no}, between hands"
        return f"hand {st.hand_no}, trick {st.trick_no}, seat {st.to_act} to act"

    def step(self, step: dict[str, Any]) -> bool:
        """Take ``step`` (a refused one changes nothing); ``False`` once lost."""
        from mariage.engine.actiontext import parse_action

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
        except (ValueError, MariageError, KeyError, TypeError):  # a deal with no deck...
            return False  # (a test of what an engine refuses): not to be followed
        return True

    def state_blame(self, test: Test, what: str) -> tuple[str, ...]:
        """The test's rules that decide state field ``what`` (the most specific first: see
        :data:`_FIRST`), narrowed to those exercised since the state was last compared."""
        golden = test.kind == "golden"  # its rules are those its steps exercise
        for mine in _governing(_reachable(test), what):
            narrow = tuple(r for r in mine if r in self.since) if golden else ()
            if narrow or mine:
                return narrow or mine
        return ()

    def end_blame(self, test: Test, what: str, engine_state: dict[str, Any]
                  ) -> tuple[str, ...]:
        """:meth:`state_blame`, except that the end of the match (``terminal``,
        ``result``) is charged to the test's rules of the match's end when the engine's
        match scores are those of the reference: the scores are right, the end is not
        (a target compared with ``>`` instead of ``>=``)."""
        if what in ("terminal", "result"):
            from .protocol import state_json

            mine = tuple(r for r in _reachable(test) if ".match." in r)
            if mine and engine_state.get("match_scores") == state_json(
                    self.state).get("match_scores"):
                return mine
        return self.state_blame(test, what)

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
    from mariage.engine.actiontext import parse_action

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
class Diff:
    """One difference of a test: its step (``None`` at the start), its text, its rules."""

    step: int | None
    text: str
    charged: tuple[str, ...]


@dataclass
class Refusals:
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
def rule_ids(ruleset: str) -> frozenset[str]:
    """The rule IDs of a bundled ruleset (empty for one the reference does not know)."""
    from mariage.spec.rulesload import load_rules

    try:
        return frozenset(load_rules(ruleset).rule_ids)
    except (MariageError, ValueError, OSError):
        return frozenset()


def charge(test: Test, step: dict[str, Any] | None, what: str) -> tuple[str, ...]:
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
    rules = _reachable(test) or test.rules
    for mine in _governing(rules, what):
        if mine:
            return mine
    return rules


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


def first_step_charges(diffs: list[Diff]) -> tuple[str, ...]:
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
