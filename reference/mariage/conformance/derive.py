"""The suite derived for one configuration, by the reference interpreter.

For a :class:`~mariage.conformance.configuration.Configuration` (a ruleset
and option values), :func:`derive_suite` makes a whole suite without any
hand-written expectation:

* golden matches and perft counts generated from seeded deals under the
  configuration;
* every stored scenario and option test of the ruleset (and of the rulesets
  it extends) replayed through the reference under the configuration
  (:func:`rederive`): kept, with every expectation recomputed, where its
  steps stay legal and its rules still apply; else skipped, with the reason;
* for every faulty engine whose rule the configuration has, a focused test
  found by searching seeded deals for the first step where the faulty engine
  and the reference differ (:mod:`mariage.conformance.faultsearch`);
* for every neighbouring configuration (one option at another value), a focused
  test where it and the configuration first differ
  (:mod:`mariage.conformance.neighbours`);
* for every rule in force still named by no focused test, one found by
  searching seeded deals for the first step that exercises it
  (:mod:`mariage.conformance.exercise`).

The result is cached on disk by configuration (:mod:`mariage.spec.diskcache`);
:func:`write_suite` writes it as test files in the format of
``conformance/tests``, so an engine author can keep it in CI.

>>> from mariage.conformance.configuration import make_configuration
>>> from mariage.conformance.suite import load_suite
>>> config = make_configuration("mariglia", ["turn_up_bonus=false"])
>>> kept = rederive(load_suite(rulesets=["mariglia"], kinds=["scenario"])[0], config)
>>> kept["options"], kept["id"]
({'turn_up_bonus': False}, 'mariglia/core/basics')
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import load_document

from ..errors import IllegalActionError, MariageError
from .configuration import CONFIGURATION_FILE, Configuration, effective_options, show_value
from .coverage import FOCUSED
from .generate import _Body, golden_test, long_match, perft_test, render_test
from .protocol import state_json
from .reports import write_atomic
from .suite import Test, parse_test, tests_dir

__all__ = ["DERIVE_VERSION", "DerivedSuite", "check_suite_folder", "derive_suite", "rederive",
           "write_suite"]

#: Bumped whenever what is derived changes (part of the cache key).
DERIVE_VERSION = 2

#: The seeds of the derived golden matches (the first a whole match, the others a hand).
GOLDEN_SEEDS = (1, 2)
#: The seeds of the derived perft tests, and their node budget.
PERFT_SEEDS = (1, 2)
PERFT_BUDGET = 3000


@dataclass
class DerivedSuite:
    """The derived suite of one configuration: tests (front matter dicts), the stored
    tests left out with the reason, and what the fault search found."""

    ruleset: str
    options: dict[str, Any]
    tests: list[dict[str, Any]] = field(default_factory=list)
    #: stored test ID -> why it does not hold under the configuration
    skipped: dict[str, str] = field(default_factory=dict)
    #: fault name -> (rule, the focused test's ID, or ``""`` and why none was found)
    faults: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    #: neighbour ``NAME=VALUE`` -> the focused test's ID, or ``""`` and why none was found
    neighbours: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: rule in force named by no other focused test -> the test found for it, or ``""``
    #: and why none was found
    exercised: dict[str, tuple[str, str]] = field(default_factory=dict)

    def as_tests(self) -> list[Test]:
        """The tests, read back as the runner reads test files."""
        return [parse_test(render_test(t), f"{t['id']}.test") for t in self.tests]


class _Skip(Exception):
    """A stored test that does not hold under the configuration (the message says why)."""


def _conflict(test: Test, config: Configuration) -> str:
    specs = load_document(config.ruleset).data.get("options") or {}
    for name, value in test.options.items():
        if name not in specs:
            return f"the test sets option '{name}', which {config.name} does not have"
        have = effective_options(config.ruleset, config.options)[name]
        if type(have) is not type(value) or have != value:
            return (f"the test is about {name}={show_value(value)}; the configuration has "
                    f"{name}={show_value(have)}")
    return ""


def _state_fields(state: GameState, want: dict[str, Any]) -> dict[str, Any]:
    have = state_json(state)
    return {k: have[k] for k in want if k in have}


def _apply(state: GameState, rules: Rules, step: dict[str, Any], n: int) -> None:
    """Apply one step; raise :class:`IllegalActionError`, or :class:`_Skip` for a step
    that cannot be taken at all (a deal in the middle of a hand)."""
    if "act" in step:
        state.apply(parse_action(rules, step["act"]), step.get("seat"))
    elif "deal" in step:
        if state.phase != Phase.DEAL and not step.get("error"):
            raise _Skip(f"step {n}: the next hand is dealt, but the hand is not over "
                        "under this configuration")
        state.deal(step["deal"]["deck"], step["deal"].get("first_player"))
    elif "resign" in step:
        state.resign(step["resign"])


def _legal_expectations(state: GameState, rules: Rules, step: dict[str, Any],
                        out: dict[str, Any]) -> None:
    """Recompute ``legal``, ``legal_has`` and ``legal_not``: the same actions checked,
    each on the side the reference now puts it."""
    have = {action_text(rules, a) for a in state.legal_actions(step.get("seat"))}
    if "legal" in step:
        out["legal"] = sorted(have)
    named = list(step.get("legal_has", ())) + list(step.get("legal_not", ()))
    if named:
        yes = [a for a in named if a in have]
        no = [a for a in named if a not in have]
        if yes:
            out["legal_has"] = yes
        if no:
            out["legal_not"] = no


def rederive(test: Test, config: Configuration) -> dict[str, Any]:
    """``test`` (a stored scenario or option test) replayed under ``config``, with every
    expectation recomputed by the reference; :class:`_Skip`'s reason as ``ValueError``
    if it does not hold there."""
    try:
        return _rederive(test, config)
    except _Skip as exc:
        raise ValueError(str(exc)) from None


def _rederive(test: Test, config: Configuration) -> dict[str, Any]:
    why = _conflict(test, config)
    if why:
        raise _Skip(why)
    rules = config.rules
    gone = [r for r in test.rules if r not in rules.rule_ids]
    if gone:
        raise _Skip(f"rule {gone[0]} does not apply under this configuration")
    start = test.start
    dealer = start.get("dealer")
    if dealer is not None and not 0 <= dealer < rules.nseats:  # another number of players
        raise _Skip(f"the deal is not a deal of this configuration: dealer seat {dealer} of "
                    f"{rules.nseats}")
    state = GameState(rules, first_dealer=dealer)
    body = _Body(rules, dealer)
    try:
        state.deal(start["deck"], start.get("first_player"))
    except (IllegalActionError, ValueError) as exc:
        raise _Skip(f"the deal is not a deal of this configuration: {exc}") from None
    body.deal(state)
    out: dict[str, Any] = {
        "id": test.id,
        "description": f"{test.description} (derived for {config.label})",
        "kind": "option" if config.options else test.kind,
        "ruleset": config.ruleset,
        "rules": list(test.rules),
        "options": dict(config.options),
        "features": [*test.features, "derived"],
    }
    steps: list[dict[str, Any]] = []
    negative: dict[str, Any] | None = None
    for i, step in enumerate(test.steps):
        n = i + 1
        new: dict[str, Any] = {k: copy.deepcopy(step[k]) for k in ("act", "seat", "deal",
                                                                  "resign") if k in step}
        _legal_expectations(state, rules, step, new)
        err = step.get("error")
        seat, trick, table = state.to_act, state.trick_no, len(state.tricks)
        trump = state.trump
        try:
            _apply(state, rules, step, n)
        except IllegalActionError as exc:
            if not err:
                raise _Skip(f"step {n}: '{step.get('act')}' is refused under this "
                            f"configuration [{exc.rule_id}]") from None
            if err.get("rule") in test.rules and exc.rule_id != err.get("rule"):
                raise _Skip(f"step {n}: '{step.get('act')}' is refused by {exc.rule_id} "
                            f"under this configuration, not by {err['rule']}") from None
            new["error"] = {"code": "illegal_action", "rule": exc.rule_id}
            negative = {"step": n, **new["error"]}
        except ValueError:
            if not err or err.get("code") != "bad_action":
                raise _Skip(f"step {n}: '{step.get('act')}' is not an action of this "
                            "configuration") from None
            new["error"] = {"code": "bad_action"}
            negative = {"step": n, "code": "bad_action"}
        else:
            if err:
                raise _Skip(f"step {n}: '{step.get('act', 'the step')}' is legal under this "
                            f"configuration (the test expects {err.get('rule') or err})")
            if "act" in step:
                body.act(state, step.get("seat", seat) or 0,
                         parse_action(rules, step["act"]), (trick, table, trump))
            elif "deal" in step:
                body.deal(state)
        if "state" in step:
            new["state"] = _state_fields(state, step["state"])
        if step.get("rules"):
            new["rules"] = list(step["rules"])
        steps.append(new)
    if negative:
        out["negative"] = negative
    out["start"] = copy.deepcopy(start)  # (the stored test may be kept: _stored_tests)
    if test.initial is not None:
        fresh = GameState(rules, first_dealer=start.get("dealer"))
        fresh.deal(start["deck"], start.get("first_player"))
        out["initial"] = _state_fields(fresh, test.initial)
    out["steps"] = steps
    try:
        out["_body"] = body.text(state)
    except (MariageError, ValueError, KeyError):
        out["_body"] = ""
    return out


def _rename(test: dict[str, Any], config: Configuration) -> dict[str, Any]:
    """A generated test's ID under the ruleset's own name (a description file's path
    is the ``ruleset`` given to ``start``, never part of an ID)."""
    if config.ruleset != config.name:
        test["id"] = config.name + test["id"][len(config.ruleset):]
    return test


def _generated(config: Configuration) -> list[dict[str, Any]]:
    out = []
    far = long_match(load_rules(config.ruleset, config.options))
    for i, seed in enumerate(GOLDEN_SEEDS):
        out.append(_rename(golden_test(config.ruleset, config.options, seed,
                                       f"derived-{seed}", one_hand=far or i > 0), config))
    for seed in PERFT_SEEDS:
        out.append(_rename(perft_test(config.ruleset, config.options, seed,
                                      f"derived-{seed}", PERFT_BUDGET), config))
    return out


def _build(config: Configuration, faults: bool) -> DerivedSuite:
    from .faultsearch import _stored_tests, fault_tests
    from .neighbours import neighbour_tests

    suite = DerivedSuite(config.ruleset, dict(config.options))
    suite.tests.extend(_generated(config))
    for test in _stored_tests(config.bases):  # (read once for the searches too)
        try:
            suite.tests.append(rederive(test, config))
        except ValueError as exc:
            suite.skipped[test.id] = str(exc)
    if faults:
        found, why = fault_tests(config)
        suite.tests.extend(found.values())
        for name, (rule, reason) in why.items():
            suite.faults[name] = (rule, found[name]["id"] if name in found else "", reason)
        near, far = neighbour_tests(config)
        suite.tests.extend(near.values())
        suite.neighbours = {show: (t["id"], "") for show, t in near.items()}
        suite.neighbours.update((show, ("", reason)) for show, reason in far.items())
        _exercise(suite, config)
    return suite


def _exercise(suite: DerivedSuite, config: Configuration) -> None:
    """A rule-exercise test (:mod:`mariage.conformance.exercise`) for each rule in force
    and reachable (:func:`~mariage.conformance.coverage.unreachable_under`) that no
    focused test of ``suite`` names yet."""
    from mariage.spec.inforce import not_in_force

    from .coverage import unreachable_under
    from .exercise import exercise_tests

    rules = config.rules
    named = {r for t in suite.tests if t["kind"] in FOCUSED for r in t["rules"]}
    off = set(not_in_force(rules)) | set(unreachable_under(rules))
    wanted = [r for r in rules.rule_ids if r not in named and r not in off]
    found, why = exercise_tests(config, wanted)
    suite.tests.extend(found.values())
    suite.exercised = {r: (found[r]["id"], "") if r in found else ("", why[r]) for r in wanted}


@lru_cache(maxsize=1)
def _code_key() -> str:
    """Names, sizes and modification times of every module of the package and of every
    stored test file (the disk cache's own key covers only the spec layer; a derived
    suite depends on all of it: a scenario added or regenerated is replayed under each
    configuration, so it must not be served the suite derived before it)."""
    h = hashlib.sha256()
    base = Path(__file__).resolve().parent.parent
    tests = tests_dir()
    for root, pattern in ((base, "*.py"), (tests, "*.test")):
        for path in sorted(root.rglob(pattern)):
            st = path.stat()
            h.update(f"{path.relative_to(root)}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()


def derive_suite(config: Configuration, faults: bool = True, cache: bool = True
                 ) -> DerivedSuite:
    """The suite derived for ``config`` (from the disk cache when it holds it)."""
    from mariage.spec import diskcache

    key = diskcache.make_key("derived-suite", DERIVE_VERSION, _code_key(), config.key, faults)
    if cache:
        hit = diskcache.load(key)
        if isinstance(hit, DerivedSuite):
            return hit
    suite = _build(config, faults)
    if cache:
        diskcache.store(key, suite, load_document(config.ruleset).paths)
    return suite


def check_suite_folder(folder: Path) -> None:
    """Raise :class:`ValueError` unless :func:`write_suite` may write into ``folder``: a
    folder (or none yet) whose ``tests`` holds no test file. Test files already there,
    of another configuration or of the bundled suite, would be read with the new ones
    by ``--suite folder`` (or be replaced by them): a suite neither of them is.

    >>> import tempfile
    >>> check_suite_folder(Path(tempfile.mkdtemp()) / "new")
    >>> from mariage.resources import conformance_dir
    >>> check_suite_folder(conformance_dir())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --write-suite ...: .../tests already holds ... test files (...); ...
    """
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"--write-suite {folder}: is not a folder")
    tests = folder / "tests"
    if not tests.is_dir():
        return
    held = sorted(tests.rglob("*.test"))
    if held:
        first = held[0].relative_to(tests)
        raise ValueError(f"--write-suite {folder}: {tests} already holds {len(held)} test "
                         f"files ({first}...); a derived suite is written into a new or "
                         "empty folder, not mixed with them")


def write_suite(suite: DerivedSuite, folder: Path) -> int:
    """Write the derived suite under ``folder/tests`` (one ``.test`` file per test),
    ``folder/skipped.txt`` (the stored tests left out, with the reason) and
    ``folder/configuration.json`` (the configuration, whose coverage ``--suite folder``
    reports); return the number of test files written. Each file is written whole (a
    temporary file renamed)."""
    tests = folder / "tests"
    for t in suite.tests:
        path = tests / f"{t['id']}.test"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, render_test(t))
    lines = [f"# stored tests left out of the suite derived for {suite.ruleset} "
             + " ".join(f"{k}={show_value(v)}" for k, v in suite.options.items())]
    lines += [f"{tid}: {why}" for tid, why in sorted(suite.skipped.items())]
    lines += [f"fault {name} [{rule}]: {why}"
              for name, (rule, tid, why) in sorted(suite.faults.items()) if not tid]
    lines += [f"neighbour {show}: {why}"
              for show, (tid, why) in sorted(suite.neighbours.items()) if not tid]
    lines += [f"rule {rule}: {why}"
              for rule, (tid, why) in sorted(suite.exercised.items()) if not tid]
    write_atomic(folder / "skipped.txt", "\n".join(lines) + "\n")
    # what --suite FOLDER reads to report the coverage of this configuration
    write_atomic(folder / CONFIGURATION_FILE,
                 json.dumps({"ruleset": suite.ruleset, "options": suite.options}) + "\n")
    return len(suite.tests)
