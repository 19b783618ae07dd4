"""Focused tests found by search: where a faulty engine and the reference first differ.

For each faulty engine of the kill table (:mod:`mariage.conformance.faulty`)
whose broken rule the configuration has, :func:`search_fault` plays seeded
deals under the configuration on the reference and on the faulty engine side
by side (in process, no protocol), step by step, and stops at the first step
where they differ:

* the legal actions differ: the step tries the first action the faulty engine
  lists and the reference refuses (expected refused, with the reference's rule
  ID), else the first action the reference lists and the faulty engine does
  not (expected legal);
* an action out of turn, a card not in the hand, or an action after the end of
  the match is accepted by the faulty engine and refused by the reference
  (probed at each step);
* the state after a step or a deal differs: the step expects the reference's
  values of the fields that differ.

The test holds the deal, the plain steps before that one, and that step with
its expectation, and names the broken rule (the step's ``rules``, so that a
failure is charged to it alone). The search is bounded (:data:`MATCHES` deals
of at most :data:`MAX_STEPS` steps) and seeded: the same configuration always
gives the same tests. A fault that shows nowhere within the bound is reported
with the reason.

>>> from mariage.conformance.configuration import make_configuration
>>> from mariage.conformance.faulty import FAULTS
>>> test, why = search_fault(FAULTS["mariglia-no-follow"], make_configuration("mariglia", []))
>>> test["rules"], test["steps"][-1]["rules"], why
(['mariglia.play.follow', 'mariglia.play.head'], ['mariglia.play.follow'], '')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import fields
from functools import lru_cache
from typing import Any

from mariage.engine.actions import Action, CallOut, Play
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.mechanisms.passing import CardSets
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError, MariageError
from .configuration import Configuration
from .faulty import FAULTS, Fault, FaultyEngine
from .faulty_generic import generic_faults
from .generate import _Body
from .protocol import state_json, view_key
from .ruleprobe import refusal_rule
from .suite import Test, load_suite

__all__ = ["MATCHES", "MAX_STEPS", "applies", "choose", "fault_tests", "faults_for",
           "first_difference", "focused_test", "same_rules", "search_fault", "stored_start"]

#: How many seeded deals (matches) the search plays at most for one fault.
MATCHES = 16
#: How many steps of one match the search plays at most.
MAX_STEPS = 700
#: Out-of-turn and not-in-hand probes are made in the first steps of each match only.
PROBE_STEPS = 40


def applies(fault: Fault, rules: Rules) -> bool:
    """Whether ``fault`` breaks a rule these rules have."""
    return fault.rule in rules.rule_ids


def same_rules(a: Rules, b: Rules) -> bool:
    """Whether two compiled rules are equal in every field."""
    return all(getattr(a, f.name) == getattr(b, f.name) for f in fields(a))


def _norm(state: dict[str, Any]) -> dict[str, Any]:
    out = dict(state)
    if isinstance(out.get("hands"), list):
        out["hands"] = [sorted(h) for h in out["hands"]]
    return out


def _diff(ref: GameState, bad: GameState,
          key: Callable[[GameState], tuple[Any, ...]] | None = None) -> dict[str, Any]:
    """The reference's value of each state field the faulty state differs in.

    Most steps differ in nothing: ``key`` (:func:`~mariage.conformance.protocol.view_key`
    of the two, if any) tells so from the raw fields, with no view made. Else, where
    both name the cards alike, the hands are compared as bit masks before any card is
    named: a hand's codes are the same set exactly when its mask is the same (in play;
    no hands are shown between hands)."""
    if key is not None and key(ref) == key(bad):
        return {}
    if ref.rules.card_code == bad.rules.card_code and (
            ref.phase in (Phase.DEAL, Phase.OVER) or ref.hands == bad.hands) and \
            state_json(ref, hands=False) == state_json(bad, hands=False):
        return {}
    want = state_json(ref)
    norm, have = _norm(want), _norm(state_json(bad))
    if norm == have:
        return {}
    return {k: v for k, v in want.items() if norm[k] != have.get(k)}


class _Texts:
    """The canonical texts of actions under one compiled ruleset, kept once asked for: a
    walk lists the same legal actions (an auction's bids) step after step.

    >>> from mariage import load_rules
    >>> texts = _Texts(load_rules("marianna"))
    >>> texts(Play(0)), texts(Play(0)), len(texts.known)
    ('AH', 'AH', 1)
    """

    __slots__ = ("known", "rules")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.known: dict[Action, str] = {}

    def __call__(self, action: Action) -> str:
        try:
            return self.known[action]
        except KeyError:
            text = self.known[action] = action_text(self.rules, action)
            return text
        except TypeError:  # an action that cannot be a key (a field holding a list)
            return action_text(self.rules, action)


def choose(state: GameState, rng: SplitMix64, style: int,
           legal: Sequence[Action] | None = None) -> Action:
    """A seeded choice of the next action: uniform (style 0), preferring actions other
    than cards (style 1), or uniform with a call-out now and then (style 2); a call-out
    always when it is right (``legal``: the state's legal actions, if listed already)."""
    acts = state.legal_actions() if legal is None else legal
    # sets of cards to pass: each a Give, so only the head is looked at
    head = acts.head if isinstance(acts, CardSets) else acts
    calls = [a for a in head if isinstance(a, CallOut)]
    if calls:
        seat = state.to_act
        if seat is not None:
            team = state.rules.team_of[seat]
            if state.match_scores[team] + state.hand_points(team) >= \
                    state.rules.match_target:
                return calls[0]
            if style == 2 and rng.below(12) == 0:
                return calls[0]
        acts = [a for a in acts if not isinstance(a, CallOut)] or acts
    if style == 1:  # (the other styles draw nothing for it)
        special = acts if isinstance(acts, CardSets) and not any(
            isinstance(a, Play) for a in head) else [a for a in acts if not isinstance(a, Play)]
        if special and rng.below(3):
            return special[rng.below(len(special))]
    return acts[rng.below(len(acts))]


class _Found(Exception):
    """The first difference: the step that shows it (``initial`` for the deal itself)."""

    def __init__(self, step: dict[str, Any] | None, initial: dict[str, Any] | None = None
                 ) -> None:
        self.step = step
        self.initial = initial
        super().__init__("difference")


def _accepts(state: GameState, action: Action, seat: int | None) -> bool:
    try:
        state.clone().apply(action, seat)
    except (IllegalActionError, MariageError, ValueError, IndexError, KeyError,
            AssertionError, AttributeError):
        return False
    return True


def _ref_probes(ref: GameState, rules: Rules, legal: Sequence[Action] | None = None
               ) -> list[tuple[Action, int | None, str, str]]:
    """The actions the reference refuses that a faulty engine may take: one for another
    seat, a card not in the hand, one after the end (``legal``: the reference's legal
    actions, if listed already), each with its seat, the rule it is refused by and its
    text."""
    probes: list[tuple[Action, int | None]] = []
    if ref.phase in (Phase.OVER, Phase.DEAL):
        probes.append((rules.play_actions[0], None))
    elif ref.to_act is not None:
        first = next((a for a in (ref.legal_actions() if legal is None else legal)
                      if not isinstance(a, CallOut)), None)
        if first is not None and rules.nseats > 1:
            probes.append((first, (ref.to_act + 1) % rules.nseats))
        if ref.phase == Phase.PLAY:
            held = ref.hands[ref.to_act]
            out = next((c for c in range(rules.ncards) if not held >> c & 1), None)
            if out is not None:
                probes.append((rules.play_actions[out], None))
    found = []
    for action, seat in probes:
        rule = refusal_rule(ref, action, seat)
        if rule is not None:
            found.append((action, seat, rule, action_text(rules, action)))
    return found


def _probe_bad(bad: GameState, frules: Rules,
               probes: Iterable[tuple[Action, int | None, str, str]]) -> None:
    """Raise :class:`_Found` for the first of the reference's refused ``probes``
    (:func:`_ref_probes`) the faulty engine takes."""
    for _, seat, rule, text in probes:
        try:
            theirs = parse_action(frules, text)
        except ValueError:
            continue
        if _accepts(bad, theirs, seat):
            step: dict[str, Any] = {"act": text}
            if seat is not None:
                step["seat"] = seat
            step["error"] = {"code": "illegal_action", "rule": rule}
            raise _Found(step)


def _probe(ref: GameState, bad: GameState, rules: Rules, frules: Rules,
           legal: Sequence[Action] | None = None) -> None:
    """Raise :class:`_Found` for an action the reference refuses and the faulty engine
    takes: one for another seat, a card not in the hand, one after the end (``legal``:
    the reference's legal actions, if listed already)."""
    _probe_bad(bad, frules, _ref_probes(ref, rules, legal))


def _probe_resign(ref: GameState, bad: GameState,
                  key: Callable[[GameState], tuple[Any, ...]] | None = None) -> None:
    """Raise :class:`_Found` if a resignation of the seat to act ends the match otherwise
    on the faulty engine (tried on copies; ``key`` as for :func:`_diff`)."""
    seat = ref.to_act
    if seat is None:
        return
    mine, theirs = ref.clone(), bad.clone()
    mine.resign(seat)
    try:
        theirs.resign(seat)
    except Exception:
        raise _Found({"resign": seat, "state": state_json(mine)}) from None
    found = _diff(mine, theirs, key)
    if found:
        raise _Found({"resign": seat, "state": found})


def _legal_step(ref: GameState, bad: GameState, rules: Rules,
                texts: tuple[_Texts, _Texts] | None = None, same: bool = False,
                legal: Sequence[Action] | None = None,
                alike: dict[Action, bool] | None = None) -> None:
    """Raise :class:`_Found` if the legal actions of the seat to act differ (``texts``:
    the texts of the reference's and of the faulty engine's actions, if kept; ``same``:
    the two play rules equal in every field, so that the same actions in the same order
    have the same texts and need no naming; ``legal``: the reference's legal actions, if
    listed already; ``alike``: whether an action has the same text under both rules, as
    far as kept, so that the same actions of other rules need no naming either)."""
    mine, theirs = texts or (_Texts(rules), _Texts(bad.rules))
    acts = ref.legal_actions() if legal is None else legal
    try:
        their_acts: Sequence[Action] | None = bad.legal_actions()
    except Exception:
        their_acts = None
    if their_acts == acts and (same or _named_alike(acts, alike, texts)):
        return
    want = [mine(a) for a in acts]
    try:
        have = [theirs(a) for a in their_acts] if their_acts is not None else []
    except Exception:
        have = []
    if set(want) == set(have):
        return
    extra = [a for a in have if a not in want]
    missing = [a for a in want if a not in have]
    if extra:
        step: dict[str, Any] = {"act": extra[0], "legal_not": extra}
        if missing:
            step["legal_has"] = missing
        try:
            rule = refusal_rule(ref, parse_action(rules, extra[0]))
        except ValueError:  # not even an action of these rules (another configuration's)
            step["error"] = {"code": "bad_action"}
        else:
            step["error"] = {"code": "illegal_action", "rule": rule or rules.core_phase}
        raise _Found(step)
    raise _Found({"act": missing[0], "legal_has": missing})


def _named_alike(acts: Sequence[Action], alike: dict[Action, bool] | None,
                 texts: tuple[_Texts, _Texts] | None) -> bool:
    """Whether each of ``acts`` has the same text under the two rules of ``texts`` (kept
    in ``alike``). The sets of cards to pass (:class:`CardSets`, many ``Give`` actions)
    are not named one by one where the two rules name the cards alike: the text of a
    ``Give`` is made of its cards' codes alone (:func:`action_text`)."""
    if texts is None or alike is None:
        return False
    a_rules, b_rules = texts[0].rules, texts[1].rules
    if type(acts) is CardSets and type(a_rules) is type(b_rules) and \
            a_rules.card_code == b_rules.card_code:
        acts = acts.head
    for a in acts:
        try:
            ok = alike.get(a)
            if ok is None:
                ok = alike[a] = texts[0](a) == texts[1](a)
        except Exception:  # no key, or no text under one of the rules: named below
            return False
        if not ok:
            return False
    return True


def stored_start(rules: Rules, stored: Test | None, rng: SplitMix64
                 ) -> tuple[int | None, list[dict[str, Any]], list[dict[str, Any]]]:
    """Where a walk from the deal of ``stored`` starts: the first dealer, the deals in
    turn (``{"deck", "first_player"}``) and the recorded actions (steps with ``act``, not
    refused, of the seat to act). Without a stored test, or with one of a ruleset with
    other seats, a seeded dealer (drawn from ``rng``) and no deals nor actions."""
    dealer = stored.start.get("dealer") if stored is not None else None
    if (stored is not None and (dealer is None) != (rules.first_dealer == "none")) or (
            isinstance(dealer, int) and not 0 <= dealer < rules.nseats):
        stored = None  # a stored test of a ruleset with other seats: a seeded deal
    if stored is None:
        return (None if rules.first_dealer == "none" else rng.below(rules.nseats)), [], []
    given = [{"deck": list(stored.start["deck"]),
              "first_player": stored.start.get("first_player")}]
    given += [dict(st["deal"]) for st in stored.steps if "deal" in st]
    script = [st for st in stored.steps if "act" in st and not st.get("error")
              and "seat" not in st]
    return dealer, given, script


class _Shared:
    """What the walks of one search keep between them: the texts of the reference's and
    of the faulty engine's actions, the faulty engine's reading of a text, and whether
    the two rules are equal in every field."""

    __slots__ = ("alike", "parsed", "same", "texts")

    def __init__(self, rules: Rules, frules: Rules) -> None:
        self.texts = (_Texts(rules), _Texts(frules))
        self.parsed: dict[str, Action] = {}
        self.alike: dict[Action, bool] = {}
        self.same = frules is rules or same_rules(frules, rules)

    def theirs(self, frules: Rules, text: str) -> Action:
        """The action ``text`` names under the faulty engine's rules ``frules`` (read once:
        a parse depends on nothing else, and actions are frozen)."""
        action = self.parsed.get(text)
        if action is None:
            action = self.parsed[text] = parse_action(frules, text)
        return action


class _Trace:
    """The reference's side of the walks from one start (a seed, and the deal of a stored
    test or none) under one compiled ruleset: at each step, its legal actions, the
    refusals probed, the deals tried or the action chosen and its text. They depend on
    the reference's state alone, the same in every walk from that start (the choices are
    seeded), so they are worked out once for every fault and neighbour searched, as far
    as the longest walk goes; each walk plays them on its own reference."""

    def __init__(self, rules: Rules, seed: int, stored: Test | None) -> None:
        self.rules = rules
        self.rng = SplitMix64(seed)
        self.style = seed % 3
        self.dealer, self.given, self.script = stored_start(rules, stored, self.rng)
        self.ref = GameState(rules, first_dealer=self.dealer)
        self.texts = _Texts(rules)
        self.first = self._deal()
        #: per step: (legal actions, probes, deals tried or None, (action, text) or None)
        self.steps: list[tuple[Any, ...]] = []

    def step(self, n: int) -> tuple[Any, ...]:
        """What the reference lists, probes and does at step ``n`` of a walk."""
        while len(self.steps) <= n:
            self.steps.append(self._next_step(len(self.steps)))
        return self.steps[n]

    def _next_step(self, n: int) -> tuple[Any, ...]:
        ref = self.ref
        phase = ref.phase
        between = phase == Phase.OVER or phase == Phase.DEAL
        legal = None if between or ref.to_act is None else ref.legal_actions()
        probes = _ref_probes(ref, self.rules, legal) if n < PROBE_STEPS or between else ()
        if phase == Phase.OVER:
            return legal, probes, None, None
        if phase == Phase.DEAL:
            return legal, probes, self._deal(), None
        action = self._next(legal)
        text = self.texts(action)
        ref.apply(action)
        return legal, probes, None, (action, text)

    def _new_deal(self) -> dict[str, Any]:
        if self.given:
            return self.given.pop(0)
        r = self.rules
        first = self.rng.below(r.nseats) if r.first_lead == "lot" else None
        cards = list(range(r.ncards))
        self.rng.shuffle(cards)
        return {"deck": [r.card_code[c] for c in cards], "first_player": first}

    def _deal(self) -> tuple[dict[str, Any], ...]:
        """The deals tried, in turn (a stored deal of another pack, then a seeded one),
        the last one dealt."""
        deal = self._new_deal()
        try:
            self.ref.deal(deal["deck"], deal["first_player"])
        except (IllegalActionError, ValueError):  # a stored deal of another pack
            self.given = []
            refused, deal = deal, self._new_deal()
            self.ref.deal(deal["deck"], deal["first_player"])
            return refused, deal
        return (deal,)

    def _next(self, legal: Sequence[Action] | None) -> Action:
        """The next action: the stored test's while it stays legal, else a seeded choice
        (``legal``: the reference's legal actions, if listed already)."""
        ref = self.ref
        while self.script:
            text = self.script.pop(0)["act"]
            try:
                action = parse_action(self.rules, text)
            except ValueError:
                self.script = []
                break
            if action in (ref.legal_actions() if legal is None else legal):
                return action
            self.script = []
        return choose(ref, self.rng, self.style, legal)


#: the traces of the walks under the compiled rules searched last: the rules, and each
#: trace by its seed and stored test (held, so that its ``id`` is not another's)
_TRACES: list[Any] = [None, {}]


def _trace(rules: Rules, seed: int, stored: Test | None) -> _Trace:
    """The trace of the walks from ``seed`` (and ``stored``) under ``rules``, made once."""
    if _TRACES[0] is not rules:
        _TRACES[:] = [rules, {}]
    key = (seed, id(stored))
    kept = _TRACES[1].get(key)
    if kept is None:
        kept = _TRACES[1][key] = (stored, _Trace(rules, seed, stored))
    trace: _Trace = kept[1]
    return trace


class _Walk:
    """One match on the reference and the faulty engine side by side: from a seeded
    deal, or from the deal of a stored test (its recorded actions played first, as long
    as they stay legal under the configuration; its later deals used in turn), as its
    :class:`_Trace` lists them. The deals and actions given to the reference are kept,
    so that the record of a walk that finds a difference is made by playing them again
    (:meth:`record`), not by every walk as it goes."""

    def __init__(self, config: Configuration, engine: FaultyEngine, frules: Rules,
                 seed: int, stored: Test | None = None, shared: _Shared | None = None
                 ) -> None:
        self.rules = r = config.rules
        self.frules = frules
        self.trace = _trace(r, seed, stored)
        self.dealer = self.trace.dealer
        self.ref = GameState(r, first_dealer=self.dealer)
        self.bad = engine.make_state(frules, self.dealer)
        self.steps: list[dict[str, Any]] = []
        self.start: dict[str, Any] = {"dealer": self.dealer}
        self.shared = shared if shared is not None and self.bad.rules is frules \
            else _Shared(r, self.bad.rules)
        self.texts = self.shared.texts
        self.same = self.shared.same
        self.key = view_key(self.ref, self.bad)
        #: what the reference was given, in turn: (deck, first player) or an action
        self.played: list[tuple[list[Any], int | None] | Action] = []

    def record(self) -> str:
        """The record of the walk in the project's notation: the reference's deals and
        actions played again on a new state, with a recorder (a walk is seeded, and the
        reference deterministic: the same states as the walk's)."""
        state = GameState(self.rules, first_dealer=self.dealer)
        body = _Body(self.rules, self.dealer)
        for given in self.played:
            if isinstance(given, tuple):
                try:
                    state.deal(*given)
                except (IllegalActionError, ValueError):  # tried, as the walk did
                    continue
                body.deal(state)
                continue
            before, seat = (state.trick_no, len(state.tricks), state.trump), state.to_act
            state.apply(given)
            body.act(state, seat or 0, given, before)
        return body.text(self.ref)

    def _deal_now(self, tried: tuple[dict[str, Any], ...], first: bool) -> dict[str, Any]:
        for deal in tried:  # (each walk its own copy of the deal)
            deal = {**deal, "deck": list(deal["deck"])}
            self.played.append((list(deal["deck"]), deal["first_player"]))
            try:
                self.ref.deal(deal["deck"], deal["first_player"])
            except (IllegalActionError, ValueError):  # a stored deal of another pack
                continue
        if first:
            self.start.update(deal)
        try:
            self.bad.deal(deal["deck"], deal["first_player"])
        except Exception:
            self._deal_differs(deal, state_json(self.ref), first)
        found = _diff(self.ref, self.bad, self.key)
        if found:
            self._deal_differs(deal, found, first)
        return deal

    @staticmethod
    def _deal_differs(deal: dict[str, Any], found: dict[str, Any], first: bool) -> None:
        if first:
            raise _Found(None, initial=found)
        raise _Found({"deal": deal, "state": found})

    def run(self, max_steps: int = MAX_STEPS) -> None:
        """Play until the first difference (raises :class:`_Found`) or the bound. The
        reference's legal actions, probes and choices come from the trace."""
        trace = self.trace
        self._deal_now(trace.first, True)
        ref, bad, rules, key, shared = self.ref, self.bad, self.rules, self.key, self.shared
        for n in range(max_steps):
            legal, probes, deals, chosen = trace.step(n)
            if probes:
                _probe_bad(bad, self.frules, probes)
            if n == 0:
                _probe_resign(ref, bad, key)
            if deals is not None:
                self.steps.append({"deal": self._deal_now(deals, False)})
                continue
            if chosen is None:  # the match is over
                return
            _legal_step(ref, bad, rules, self.texts, self.same, legal, shared.alike)
            action, text = chosen
            self.played.append(action)
            ref.apply(action)
            try:
                bad.apply(shared.theirs(self.frules, text))
            except Exception:
                raise _Found({"act": text, "legal_has": [text]}) from None
            found = _diff(ref, bad, key)
            if found:
                raise _Found({"act": text, "state": found})
            self.steps.append({"act": text})


def focused_test(config: Configuration, walk: _Walk, found: _Found, test_id: str,
                 description: str, rules: list[str], charged: list[str]) -> dict[str, Any]:
    """The focused test of a difference ``found`` at the end of ``walk``: the deal, the
    plain steps before it and the step that shows it, naming ``rules`` (and the rule of
    an expected refusal); a failure at that step is charged to ``charged``."""
    rules = list(rules)
    step = found.step
    if step is not None:
        err = step.get("error")
        if err and err.get("rule") and err["rule"] not in rules:
            rules.append(err["rule"])
        step["rules"] = list(charged)
    test: dict[str, Any] = {
        "id": test_id,
        "description": description,
        "kind": "option" if config.options else "scenario",
        "ruleset": config.ruleset,
        "rules": rules,
        "options": dict(config.options),
        "features": ["fault-search", "derived"],
    }
    if step is not None and "error" in step:
        test["negative"] = {"step": len(walk.steps) + 1, **step["error"]}
    test["start"] = walk.start
    if found.initial is not None:
        test["initial"] = found.initial
    test["steps"] = [*walk.steps, *([step] if step is not None else [])]
    try:
        test["_body"] = walk.record()
    except (MariageError, ValueError, KeyError):
        test["_body"] = ""
    return test


def first_difference(config: Configuration, engine: FaultyEngine, frules: Rules,
                     rules: Iterable[str], matches: int = MATCHES,
                     max_steps: int = MAX_STEPS) -> tuple[_Walk, _Found, str] | int:
    """The first step where ``engine`` (playing ``frules``) and the reference differ under
    ``config``: the walk, the difference and where (``seed N`` or a stored test), or the
    number of steps played without one. ``matches`` seeded deals come first; then the
    deals of the stored tests naming one of ``rules`` (situations written by hand to
    reach them), their actions played first."""
    steps = 0
    wanted = set(rules)
    starts: list[tuple[int, Test | None]] = [(seed, None) for seed in range(1, matches + 1)]
    stored = [t for t in _stored_tests(config.bases) if wanted & set(t.rules)]
    starts += [(MATCHES + 1 + i, t) for i, t in enumerate(stored)]
    shared = _Shared(config.rules, frules)
    for seed, test in starts:
        walk = _Walk(config, engine, frules, seed, test, shared)
        try:
            walk.run(max_steps)
        except _Found as found:
            return walk, found, f"seed {seed}" if test is None else f"the stored test {test.id}"
        steps += len(walk.steps)
    return steps


def search_fault(fault: Fault, config: Configuration) -> tuple[dict[str, Any] | None, str]:
    """The focused test for ``fault`` under ``config`` and ``""``, or ``None`` and why
    there is none (:func:`first_difference`)."""
    rules = config.rules
    engine = FaultyEngine(fault)
    try:
        frules = engine.make_rules(config.ruleset, config.options)
    except Exception as exc:
        return None, f"the faulty engine cannot compile this configuration: {exc}"
    if fault.state_class is None and fault.mechanisms is None and same_rules(frules, rules):
        return None, "the fault changes nothing under this configuration"
    got = first_difference(config, engine, frules, [fault.rule])
    if isinstance(got, int):
        stored = len(_stored(config.bases, fault.rule))
        return None, (f"no difference from the reference in {MATCHES} seeded deals and "
                      f"{stored} deals of stored tests ({got} steps)")
    walk, found, where = got
    description = (f"Found by search for the faulty engine '{fault.name}' "
                   f"({fault.description}): the first step where it and the "
                   f"reference differ, in the deal of {where} under {config.label}.")
    return focused_test(config, walk, found, f"{config.name}/fault/{fault.name}",
                        description, [fault.rule], [fault.rule]), ""


@lru_cache(maxsize=8)
def _stored_tests(bases: tuple[str, ...]) -> tuple[Test, ...]:
    return tuple(load_suite(rulesets=bases, kinds=("scenario", "option")))


def _stored(bases: tuple[str, ...], rule: str) -> list[Test]:
    """The stored tests of these rulesets that name ``rule``."""
    return [t for t in _stored_tests(bases) if rule in t.rules]


def faults_for(rules: Rules) -> list[Fault]:
    """The faulty engines of the kill table, then the generic ones made for ``rules``
    (:mod:`mariage.conformance.faulty_generic`)."""
    return [*FAULTS.values(), *generic_faults(rules)]


def fault_tests(config: Configuration) -> tuple[dict[str, dict[str, Any]],
                                                 dict[str, tuple[str, str]]]:
    """For each fault that applies to ``config``: its focused test (by fault name), and
    (rule, why none) for those without one (``why`` is ``""`` when found)."""
    rules = config.rules
    found: dict[str, dict[str, Any]] = {}
    why: dict[str, tuple[str, str]] = {}
    for fault in faults_for(rules):
        if not applies(fault, rules):
            continue
        test, reason = search_fault(fault, config)
        if test is not None:
            found[fault.name] = test
        why[fault.name] = (fault.rule, reason)
    return found, why

