"""Focused tests found by search: the first step that exercises a rule.

A rule in force that no stored scenario, faulty engine or neighbouring
configuration checks under a configuration still gets a focused test:
:func:`exercise_tests` plays seeded deals under the configuration on the
reference and stops, for each such rule, at the first step that
*exercises* it, as a golden match names the rules of its steps
(:mod:`mariage.conformance.ruleprobe`):

* a **refusal**: a card of the hand of the seat to act, a declaration, or an
  action without arguments (a close, a claim, a draw...; between hands too), or
  between hands a deal short of a card, that the reference refuses by the rule;
  the test's last step tries it and expects it refused with that rule's ID;
* an **offer** (the action taken is offered under the rule), the **outcome**
  of a step (the trick's winner, the draw, the hand's score, the rotation, the
  match's end), the effects of closing the talon, the **row of the score** a
  hand that ends is scored by (a true or false claim, a close) and the rule on a
  **level match** at its end, and a **deal** (the pack, the deal; at the first
  deal the players' rule, to whom it deals, and the visibility rule, what it
  lays open); the test's last step takes the action (or deals), expecting the
  legal actions before it and, after it, the state fields the rule governs
  (:func:`mariage.conformance.blame.governed_fields`; every field if none);
* the **switch of the duties** (strict play after the talon): the first card
  refused in the first trick after it, expected refused by the duty's rule.

The test holds the deal, the plain steps before that one and that step, and
names the rule; a failure at that step is charged to it alone. The search is
bounded (:data:`EXERCISE_MATCHES` deals of at most
:data:`~mariage.conformance.faultsearch.MAX_STEPS` steps) and seeded; a rule
no step reaches within it is reported with the reason.

>>> from mariage.conformance.configuration import make_configuration
>>> config = make_configuration("schnapsen", ["claim_mode=auto"])
>>> found, why = exercise_tests(config, ["schnapsen.score.claim", "schnapsen.match.tie"])
>>> test = found["schnapsen.score.claim"]
>>> test["id"], test["steps"][-1]["rules"], "last_hand" in test["steps"][-1]["state"]
('schnapsen/exercise/schnapsen.score.claim', ['schnapsen.score.claim'], True)
>>> "schnapsen.match.tie" in found, why
(True, {})
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mariage.engine.actions import (
    Action,
    Bid,
    BlindBid,
    Claim,
    Close,
    Pass,
    Raise,
    SuitBid,
)
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.deals import fixed_first_dealer
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError, MariageError
from .brink import BRINK_MATCHES, brink_hand, brink_rules, steered_rules
from .builthands import BUILT_MATCHES, built_hand, built_rules
from .climb import CLIMB_DEALS, CLIMB_MATCHES, climb_hand
from .configuration import Configuration
from .exercised import (
    aside_rules,
    auction_turn_rules,
    between_hands_rules,
    exercised,
    governed_state,
    match_end_rules,
    out_of_turn,
    probe_refusals,
    short_deal,
    taken_rules,
)
from .faultsearch import MAX_STEPS, _stored_tests, choose, stored_start
from .generate import _before, _Body, _dealt_rules, _outcome_rules
from .litige import litige_hand, litige_rules
from .pace import paced_steps
from .pairalone import pair_alone_hand, pair_room
from .ruleprobe import (
    dump_rules,
    ending_rules,
    phase_rules,
    refusal_rule,
    trick_rules,
)
from .stepnames import hand_end_rules
from .suite import Test

__all__ = ["EXERCISE_MATCHES", "KEEN_MATCHES", "LONG_MATCH_STEPS", "aside_rules",
           "auction_turn_rules",
           "between_hands_rules", "bids_end_sooner", "exercise_tests",
           "exercised", "match_end_rules", "taken_rules"]

#: How many seeded deals (matches) the search plays at most.
EXERCISE_MATCHES = 8


#: The bound of the one long match played for the rules of the match's end (a match of
#: Thousand to 1000 takes 2,500 to 4,500 steps of play for the most points).
LONG_MATCH_STEPS = 8000


#: How many more long matches, bid to end the match (:func:`_keen`), the search plays for
#: the rules of its end the first long match leaves unchecked.
KEEN_MATCHES = 4

#: The bound of a match of hands built to climb to its end
#: (:func:`~mariage.conformance.climb.climb_hand`): about 15 hands of Thousand (one that
#: climbs ends in a handful: to 1,200 in three to six), so that where the built hands do
#: not climb fast enough (Marjapussi to 5,000) they cost little.
CLIMB_STEPS = 600

#: The most steps a long match or a match of hands built to climb is played to past its
#: bound, where its pace projects its end within them (:mod:`~mariage.conformance.pace`,
#: twenty-third session): twice the steps of the long match pooled with the keen ones.
PACE_REACH = 2 * LONG_MATCH_STEPS * (1 + KEEN_MATCHES)

#: How many built deals a hand of a climbing match is chosen from once the match is
#: played on past its bound (:data:`~mariage.conformance.climb.CLIMB_DEALS` before):
#: Marjapussi's climber makes about as many game points a hand from 4 as from 16, at a
#: quarter of the cost, over the hundreds of hands to 10,000.
PACED_DEALS = 4


#: The bids whose value greedy play counts in a steered match after the first
#: :data:`PAIR_ALONE_AFTER` (where the brink's hands alone found nothing): a suit bid's too (else
#: it bids générale or capot on a level, and a match under ``generale=5000`` ends at its
#: first hand); the long match keeps counting only ``Bid`` and ``Raise``.
_EVERY_BID: tuple[type, ...] = (Bid, Raise, SuitBid, BlindBid)


#: How many steered matches of a search are played on the brink's hands alone (as
#: before the sixteenth session) before hands are chosen for the pair alone too
#: (:func:`_steer`): where the brink finds it, as at the defaults, it costs nothing more.
PAIR_ALONE_AFTER = BRINK_MATCHES

#: How many more steered matches, with hands chosen for the pair alone, the search plays
#: after the :data:`~mariage.conformance.brink.BRINK_MATCHES` steered to their brink.
PAIR_ALONE_MATCHES = 4


#: How many more matches of hands chosen for a litige
#: (:func:`~mariage.conformance.litige.litige_hand`) the search plays after the
#: :data:`~mariage.conformance.brink.BRINK_MATCHES` of hands chosen for rare ends, where
#: those and the further matches leave the litige unchecked.
LITIGE_MATCHES = 2

#: How many more matches steered to their brink, with hands for the pair alone whose
#: trump the auction names where the pair and the other side's trumps fit
#: (``pair_alone_hand(..., suited=True)``), the search plays last where the pair alone
#: is still unchecked.
SUITED_MATCHES = 2

#: How many more matches, steered as those of :data:`SUITED_MATCHES` but toward a brink
#: where the other sides stand far enough below the target that the hand of the pair alone
#: does not take them there (:func:`~mariage.conformance.pairalone.pair_room`;
#: twenty-eighth session: contrée's ``target=666`` climbed to 650 against 620), the search
#: plays last where the pair alone is still unchecked.
ROOMY_MATCHES = 2


def _choice(state: GameState, search: _Search) -> Action:
    """The seeded choice of faultsearch; in every other match, a claim only when it is
    true and a close now and then (random play claims falsely and closes long before a
    true claim or a hand played out comes)."""
    action = choose(state, search.rng, search.style)
    if search.seed % 2 == 0 or state.to_act is None:
        return action
    r = state.rules
    if isinstance(action, Claim) and \
            state.hand_points(r.team_of[state.to_act]) < r.claim_target:
        pass
    elif not isinstance(action, Close) or search.rng.below(8) == 0:
        return action
    others = [a for a in state.legal_actions() if not isinstance(a, Claim | Close)]
    return others[search.rng.below(len(others))] if others else action


def _greedy(state: GameState, search: _Search) -> Action:
    """The choice of a match played for its end: the action after which the side to act
    holds the most points in the hand, the lowest bid or a pass on a level (a contract
    random play fails drives running totals down, away from the target)."""
    team = state.rules.team_of[state.to_act or 0]
    best: list[tuple[int, int, Action]] = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        cost = int(getattr(action, "value", 0)) if isinstance(action, search.costed) else 0
        best.append((after.hand_points(team), -cost, action))
    top = max(p[:2] for p in best)
    ties = [a for *p, a in best if tuple(p) == top]
    return ties[search.rng.below(len(ties))]


def _keen(state: GameState, search: _Search) -> Action:
    """The choice of a match played for its end where :func:`_greedy` does not end it: in
    an auction, the lowest bid that takes the bidder's side to the target if made, or the
    lowest bid by the first to speak where nobody must open (all passing throws the hand
    in); else
    the greedy choice (whose lowest bids never reach a target the lowest contract falls
    short of, and whose passes throw every hand in where nobody must open)."""
    seat = state.to_act
    acts = state.legal_actions()
    bids = sorted((a for a in acts if isinstance(a, Bid | Raise)), key=lambda a: a.value)
    if seat is None or not bids:
        return _greedy(state, search)
    r = state.rules
    need = r.match_target - state.match_scores[r.team_of[seat]]
    enough = [a for a in bids if a.value >= need]
    if enough:
        return enough[0]
    if state.phase == Phase.AUCTION and state.high_bidder < 0 and Pass() in acts and \
            not any(isinstance(a, Pass | Bid) for _, a in state.actions):  # the first opens
        return bids[0]
    return _greedy(state, search)


def bids_end_sooner(rules: Rules) -> bool:
    """Whether keen bids (:func:`_keen`) may end a match sooner than greedy play: where
    the hand has a bidding of any kind (an auction, a suit auction, takers) and the match
    is played to a score (not a number of hands). Elsewhere the steps of the
    :data:`KEEN_MATCHES` are spent on the long match itself, played on (seventeenth
    session: a match to 10,000 of Mariaggia ends in about 13,000 steps, a session of 500
    hands of German Marjapussi in about 25,000).

    German Marjapussi bids, but its session is a number of hands, so it is not among them:

    >>> from mariage import list_rulesets, load_rules
    >>> sooner = [r for r in list_rulesets() if bids_end_sooner(load_rules(r))]
    >>> len(sooner), sooner[:4]
    (7, ['belote', 'belote-coinche', 'belote-contree', 'thousand'])
    """
    bidding = rules.auction_rule or rules.sa_rule or rules.takers_rule
    return bool(bidding) and rules.match_measure != "hands_played"


def _keen_matches(config: Configuration, ends: set[str], found: dict[str, dict[str, Any]],
                  pooled: bool) -> int:
    """Up to :data:`KEEN_MATCHES` more long matches for the rules of the match's end
    (``ends``) the long match left without a test, bid by :func:`_keen` (none where
    ``pooled``: their steps went to the long match); then, where the match is played to
    a score of points (not a number of hands, played or won), up to
    :data:`~mariage.conformance.climb.CLIMB_MATCHES` of hands built to climb to its end
    (:func:`~mariage.conformance.climb.climb_hand`); the steps played."""
    steps = 0
    for seed in range(2, 2 if pooled else KEEN_MATCHES + 2):
        if not ends:
            break
        steps += _walk(config, seed, ends, found, max_steps=LONG_MATCH_STEPS, probe=False,
                       keen=True)
    for seed in range(1, CLIMB_MATCHES + 1):  # (a number of hands: no hand shortens it)
        if not ends or config.rules.match_measure != "points":
            break
        steps += _walk(config, seed, ends, found, max_steps=CLIMB_STEPS, probe=False,
                       climb=True, pace=True)
    return steps


class _Search:
    """One seeded match under the configuration, with the plain steps so far."""

    def __init__(self, config: Configuration, seed: int, stored: Test | None = None
                 ) -> None:
        r = self.rules = config.rules
        self.config = config
        self.rng = SplitMix64(seed)
        self.style = seed % 3
        self.seed = seed
        self.where = f"the deal of seed {seed}" if stored is None else \
            f"the deal of the stored test {stored.id}"
        self.dealer, self.given, self.script = stored_start(r, stored, self.rng)
        fixed = fixed_first_dealer(r)
        if stored is None and fixed is not None:  # the seat the rules make the first dealer
            self.dealer = fixed
        self.state = GameState(r, first_dealer=self.dealer)
        self.body = _Body(r, self.dealer)
        self.start: dict[str, Any] = {"dealer": self.dealer}
        self.steps: list[dict[str, Any]] = []
        #: the bids whose value greedy play counts as a cost (:func:`_greedy`)
        self.costed: tuple[type, ...] = (Bid, Raise)
        self.litige = False  # hands chosen for a litige first (_steer)
        self.suited = False  # the pair alone's trump named by the auction (_steer)
        self.room = 0  # the others' room below the target the pair alone needs (_steer)

    def deal(self) -> dict[str, Any]:
        """Deal the next stored deal (while the reference takes them), else a seeded one."""
        while self.given:
            deal = self.given.pop(0)
            try:
                self.state.deal(list(deal["deck"]), deal.get("first_player"))
            except (IllegalActionError, ValueError):  # a stored deal of another pack
                self.given = self.script = []
                break
            self.body.deal(self.state)
            return {"deck": list(deal["deck"]), "first_player": deal.get("first_player")}
        r = self.rules
        first = self.rng.below(r.nseats) if r.first_lead == "lot" else None
        cards = list(range(r.ncards))
        self.rng.shuffle(cards)
        deck = [r.card_code[c] for c in cards]
        self.state.deal(deck, first)
        self.body.deal(self.state)
        return {"deck": deck, "first_player": first}

    def recorded(self) -> tuple[Action | None, tuple[str, str] | None]:
        """The stored test's next recorded action if the reference takes it now; else
        ``None`` and, if the reference refuses it, its text and the rule it refuses it
        by; the recorded actions are dropped from the first one not taken."""
        if not self.script or self.state.to_act is None:
            return None, None
        text = self.script.pop(0)["act"]
        try:
            action = parse_action(self.rules, text)
        except (ValueError, KeyError, MariageError):
            self.script = []
            return None, None
        if action in self.state.legal_actions():
            return action, None
        self.script = []
        rule = refusal_rule(self.state, action)
        return None, (action_text(self.rules, action), rule) if rule else None

    def test(self, rule: str, last: dict[str, Any] | None,
             initial: dict[str, Any] | None = None) -> dict[str, Any]:
        """The focused test of ``rule``: the plain steps so far, then ``last``."""
        config = self.config
        test: dict[str, Any] = {
            "id": f"{config.name}/exercise/{rule}",
            "description": (f"Found by search for the first step that exercises {rule} "
                            f"under {config.label}, in {self.where}."),
            "kind": "option" if config.options else "scenario",
            "ruleset": config.ruleset,
            "rules": [rule],
            "options": dict(config.options),
            "features": ["rule-search", "derived"],
        }
        if last is not None:
            last["rules"] = [rule]
            if "error" in last:
                test["negative"] = {"step": len(self.steps) + 1, **last["error"]}
                if last["error"]["rule"] != rule:  # refused by a duty the rule switched on
                    test["rules"].append(last["error"]["rule"])
        test["start"] = dict(self.start)
        if initial is not None:
            test["initial"] = initial
        test["steps"] = [*self.steps, *([last] if last is not None else [])]
        try:
            test["_body"] = self.body.text(self.state)
        except (MariageError, ValueError, KeyError):
            test["_body"] = ""
        return test


def _walk(config: Configuration, seed: int, todo: set[str],
          found: dict[str, dict[str, Any]], stored: Test | None = None,
          max_steps: int = MAX_STEPS, probe: bool = True, steer: frozenset[str] = frozenset(),
          keen: bool = False, litige: bool = False, suited: bool = False,
          build: bool = False, climb: bool = False, pace: bool = False, room: int = 0
          ) -> int:
    """Play one seeded match (from the deal of ``stored``, its recorded actions first
    while the reference takes them), adding to ``found`` the test of each rule of
    ``todo`` at the first step that exercises it; return the number of steps played.
    Without ``probe``, only what the steps taken exercise is looked at (no refusal is
    tried: cheaper, for a long match played for its end). With ``steer``, each hand
    after the first is chosen for the rules of ``steer`` still to find
    (:func:`~mariage.conformance.brink.brink_hand`), and the first hand too where they
    are not only those of the match's brink (:func:`~mariage.conformance.brink.brink_rules`:
    a match climbs to its brink over several hands). With ``keen`` (and without
    ``probe``), the bids are chosen to end the match (:func:`_keen`). With ``litige``
    (and ``steer``), hands are chosen for a litige first; with ``suited``, those for
    the pair alone have the trump the auction names fit it (:func:`_steer`), and with
    ``room`` the other sides stay that far below the target for it. With
    ``build``, each hand is built for the rules of ``todo``
    (:func:`~mariage.conformance.builthands.built_hand`); with ``climb``, each is built
    to climb to the match's end (:func:`~mariage.conformance.climb.climb_hand`). With
    ``pace``, the match is played on past ``max_steps`` while its pace projects its end
    within :data:`PACE_REACH` steps (:func:`~mariage.conformance.pace.paced_steps`)."""
    s = _Search(config, seed, stored)
    s.litige, s.suited, s.room = litige, suited, room
    if steer and seed > PAIR_ALONE_AFTER:  # greedy play counts every bid's value too
        s.costed = _EVERY_BID
    rules = s.rules
    between = between_hands_rules(rules) & steer
    if steer - brink_rules(rules):  # the first hand chosen too
        _steer(s, todo & steer, bool(todo & between))
    if build or climb:
        _build(s, todo, climb)
    s.start.update(s.deal())
    for rule in sorted(todo & (_dealt_rules(rules) | _first_deal_rules(s))):
        found[rule] = s.test(rule, None, governed_state(s.state, rule))
    todo -= set(found)
    for _ in paced_steps(max_steps, s.state if pace else None, PACE_REACH):
        st = s.state
        if not todo or st.phase == Phase.OVER or (steer and not todo & steer):
            break
        if st.phase == Phase.DEAL:
            if probe or steer:
                _between_hands(st, s, todo, found)
            if steer:
                _steer(s, todo & steer, bool(todo & between))
            if build or climb:
                _build(s, todo, climb, len(s.steps) >= max_steps)
            deal = s.deal()
            for rule in sorted(todo & _dealt_rules(rules)):
                found[rule] = s.test(rule, {"deal": deal, "state": governed_state(st, rule)})
            todo -= set(found)
            s.steps.append({"deal": deal})
            continue
        action, refused_now = s.recorded()
        if refused_now is not None and refused_now[1] in todo:  # refused by a rule to find
            text, rule = refused_now
            found[rule] = s.test(rule, {"act": text, "legal_not": [text], "error": {
                "code": "illegal_action", "rule": rule}})
            todo.discard(rule)
        aside = out_of_turn(st, todo) if action is None and probe else None
        refused: dict[str, tuple[Action, str]]
        if aside is not None:  # a seat not to act takes what it may take at any moment
            actor, action = aside
            refused, offered = {}, aside_rules(st, action, actor)
        else:
            actor = None
            if action is None:
                action = _choice(st, s) if probe else (_keen if keen else _greedy)(st, s)
            refused, offered = exercised(st, action) if probe else \
                ({}, taken_rules(st, action))
        for rule in sorted(todo & set(refused)):
            tried, by = refused[rule]
            found[rule] = s.test(rule, {
                "act": action_text(rules, tried), "legal_not": [action_text(rules, tried)],
                "error": {"code": "illegal_action", "rule": by}})
        todo -= set(found)
        legal_acts = list(st.legal_actions(actor))  # named where a test is written
        text = action_text(rules, action)
        before, seat, phase = _before(st), st.to_act if actor is None else actor, st.phase
        totals = list(st.match_scores)
        st.apply(action, actor)
        s.body.act(st, seat or 0, action, before)
        offered |= _outcome_rules(st, before)
        over = (Phase.DEAL, Phase.OVER)
        offered |= ending_rules(st, phase not in over and st.phase in over)
        offered |= hand_end_rules(st, phase not in over and st.phase in over)
        if phase not in over and st.phase in over:  # a total reset to 0 by the hand
            offered |= dump_rules(totals, st)
        offered |= phase_rules(st, phase) | trick_rules(st, before[1])
        offered |= auction_turn_rules(st, phase)
        if st.phase in (Phase.OVER,) and rules.win_rule_id:  # the running totals' win check
            offered.add(rules.win_rule_id)
        who: dict[str, int] = {} if actor is None else {"seat": actor}
        legal: list[str] | None = None
        for rule in sorted(todo & offered):
            if legal is None:
                legal = [action_text(rules, a) for a in legal_acts]
            found[rule] = s.test(rule, {"act": text, **who, "legal": legal,
                                        "state": governed_state(st, rule)})
        todo -= set(found)
        s.steps.append({"act": text, **who})
    if s.state.phase == Phase.OVER and rules.core_over in todo:  # an action after the end
        late = probe_refusals(s.state).get(rules.core_over)
        if late is not None:
            found[rules.core_over] = s.test(rules.core_over, {
                "act": action_text(rules, late), "error": {
                    "code": "illegal_action", "rule": rules.core_over}})
            todo.discard(rules.core_over)
    return len(s.steps)


def _first_deal_rules(s: _Search) -> set[str]:
    """The rules the first deal exercises: to whom it deals, what it lays open, and who
    deals it where the rules fix the first dealer (and the search starts from that seat)."""
    r = s.rules
    out = {r.visibility_rule, r.players_rule}
    if r.first_dealer_rule and s.dealer is not None and s.dealer == fixed_first_dealer(r):
        out.add(r.first_dealer_rule)
    return {x for x in out if x}


def _steer(s: _Search, wanted: set[str], go_on: bool) -> None:
    """Choose the next hand for the rules of ``wanted`` (from the match of seed
    :data:`PAIR_ALONE_AFTER` + 1 on, the pair alone first,
    :func:`~mariage.conformance.pairalone.pair_alone_hand`; then :func:`brink_hand`; with
    ``go_on``, one after which the match goes on, to reach the next hand's start): its
    deal and actions become the search's next deal and recorded actions."""
    own = SplitMix64(s.rng.state ^ len(s.steps))  # its own draws: the brink's hands as before
    alone = pair_alone_hand(s.state, own, wanted, s.suited, s.room) \
        if s.seed > PAIR_ALONE_AFTER else None
    even = litige_hand(s.state, own, wanted) if s.seed > BRINK_MATCHES and s.litige else None
    steered = alone or even or brink_hand(s.state, s.rng, wanted, go_on, s.room)
    if steered is not None:  # the hand to play, and how
        s.given, s.script = [steered[0]], [{"act": a} for a in steered[1]]


def _build(s: _Search, wanted: set[str], climb: bool = False, paced: bool = False) -> None:
    """Build the next hand for the rules of ``wanted``
    (:func:`~mariage.conformance.builthands.built_hand`), or with ``climb`` to climb to
    the match's end (:func:`~mariage.conformance.climb.climb_hand`; ``paced``: past the
    walk's bound, from :data:`PACED_DEALS` deals): its deal and actions become the
    search's next deal and recorded actions."""
    built = climb_hand(s.state, s.rng, wanted, PACED_DEALS if paced else CLIMB_DEALS) \
        if climb else built_hand(s.state, s.rng, wanted)
    if built is not None:
        s.given, s.script = [built[0]], [{"act": a} for a in built[1]]


def _between_hands(st: GameState, s: _Search, todo: set[str],
                   found: dict[str, dict[str, Any]]) -> None:
    """The refusals between hands: an action without arguments, a deal short of a card."""
    rules = s.rules
    between = probe_refusals(st)  # an action between hands
    for rule in sorted(todo & set(between)):
        text = action_text(rules, between[rule])
        found[rule] = s.test(rule, {"act": text, "error": {
            "code": "illegal_action", "rule": rule}})
    short = short_deal(st)  # a deal that is not the whole pack
    if short is not None and short[1] in todo:
        found[short[1]] = s.test(short[1], {"deal": short[0], "error": {
            "code": "illegal_action", "rule": short[1]}})
    todo -= set(found)


def exercise_tests(config: Configuration, wanted: Iterable[str]
                   ) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """The focused test of each rule of ``wanted`` that a step of a seeded match under
    ``config`` exercises (by rule), and why there is none for the others. After the
    seeded matches, the deals of the stored tests naming a rule still without one (their
    recorded actions first, while the reference takes them; one it refuses by such a
    rule exercises it), then, for the rules of the match's end, one long match played
    for its end (:data:`LONG_MATCH_STEPS`), and for those only a hand at its brink
    reaches, up to :data:`~mariage.conformance.brink.BRINK_MATCHES` matches whose hands
    are chosen to take them there (:mod:`mariage.conformance.brink`); then, for the rare
    ends of a hand (a litige, equal best announcements) and the rules between hands, as
    many matches whose hands, the first too, are chosen for them (with a hand all pass
    where every other ends the match)."""
    todo = {r for r in wanted if r in config.rules.rule_ids}
    found: dict[str, dict[str, Any]] = {}
    steps = 0
    for seed in range(1, EXERCISE_MATCHES + 1):
        if not todo:
            break
        steps += _walk(config, seed, todo, found)
    stored = [t for t in _stored_tests(config.bases) if todo & set(t.rules)]
    for i, test in enumerate(stored):
        if todo & set(test.rules):
            steps += _walk(config, EXERCISE_MATCHES + 1 + i, todo, found, test)
    ends = todo & match_end_rules(config.rules)
    if ends:  # where bids cannot end it sooner, the keen matches' steps go on in one
        pooled = not bids_end_sooner(config.rules)
        steps += _walk(config, 1, ends, found, probe=False, max_steps=LONG_MATCH_STEPS * (
            1 + KEEN_MATCHES if pooled else 1), pace=pooled)
        steps += _keen_matches(config, ends, found, pooled)
    rules = config.rules
    brinks = todo & brink_rules(rules)
    for seed in range(1, BRINK_MATCHES + 1):
        if brinks <= set(found):
            break
        steps += _walk(config, seed, todo & brinks, found, max_steps=LONG_MATCH_STEPS,
                       probe=False, steer=frozenset(brink_rules(rules)))
    for seed in range(BRINK_MATCHES + 1, BRINK_MATCHES + PAIR_ALONE_MATCHES + 1):
        if brinks <= set(found):  # then hands chosen for the pair alone, every bid costed
            break
        steps += _walk(config, seed, todo & brinks, found, max_steps=LONG_MATCH_STEPS,
                       probe=False, steer=frozenset(brink_rules(rules)))
    rare = frozenset(steered_rules(rules) - brink_rules(rules) | between_hands_rules(rules))
    rares = todo & rare
    for seed in range(1, BRINK_MATCHES + 1):
        if rares <= set(found):
            break
        steps += _walk(config, seed, todo - set(found), found, max_steps=LONG_MATCH_STEPS,
                       probe=False, steer=rare)
    more, more_steps = _more_matches(config, todo, found, wanted, stored)
    steps += more_steps
    for seed in range(BRINK_MATCHES + 1, BRINK_MATCHES + LITIGE_MATCHES + 1):
        if not todo & litige_rules(rules) - set(found):  # hands chosen for a litige
            break
        steps += _walk(config, seed, todo - set(found), found, max_steps=LONG_MATCH_STEPS,
                       probe=False, steer=rare, litige=True)
        more += 1
    first = BRINK_MATCHES + PAIR_ALONE_MATCHES + 1
    for seed in range(first, first + SUITED_MATCHES):
        if rules.pair_alone_rule not in brinks - set(found):
            break
        steps += _walk(config, seed, todo & brinks - set(found), found,
                       max_steps=LONG_MATCH_STEPS, probe=False,
                       steer=frozenset(brink_rules(rules)), suited=True)
        more += 1
    first += SUITED_MATCHES  # then with room left below the target by the other sides
    for seed in range(first, first + ROOMY_MATCHES):
        if rules.pair_alone_rule not in brinks - set(found):
            break
        steps += _walk(config, seed, todo & brinks - set(found), found,
                       max_steps=LONG_MATCH_STEPS, probe=False,
                       steer=frozenset(brink_rules(rules)), suited=True, room=pair_room(rules))
        more += 1
    builds = todo & built_rules(rules) - set(found)  # hands built for rare declarations
    for seed in range(1, BUILT_MATCHES + 1):
        if builds <= set(found):
            break
        steps += _walk(config, seed, builds - set(found), found, build=True)
    todo -= set(found)
    long = " and a long match" if ends else ""
    if ends and config.rules.match_measure == "points":
        long += f" and {CLIMB_MATCHES} matches of hands built to climb to its end"
    if brinks:
        long += f" and {BRINK_MATCHES + PAIR_ALONE_MATCHES} matches steered to their brink"
    if rares:
        long += f" and {BRINK_MATCHES} matches of hands chosen for rare ends"
    if more:
        long += f" and {more} more matches"
    if builds:
        long += f" and {BUILT_MATCHES} matches of hands built for rare declarations"
    why = {r: (f"no step exercises it in {EXERCISE_MATCHES} seeded deals, {len(stored)} "
               f"deals of stored tests{long} ({steps} steps) under this configuration")
           for r in wanted if r not in found}
    return found, why


#: The bound, in steps, of the further seeded matches :func:`_more_matches` plays, and of
#: their number: matches of one short hand (a low target, one hand) are cheap, and many
#: more of them fit in the steps the first :data:`EXERCISE_MATCHES` take.
MORE_STEPS = 6000
MORE_MATCHES = 64


def _more_matches(config: Configuration, todo: set[str], found: dict[str, dict[str, Any]],
                  wanted: Iterable[str] = (), walked: Iterable[Test] = ()
                  ) -> tuple[int, int]:
    """Further matches for the rules of ``todo`` still without a test (none where only
    the rules of the match's end are left: the long match is played for those): from the
    deals of the stored tests naming a rule of ``wanted`` not ``walked`` yet (a rule found
    earlier by the seeded matches no longer sends the search to them, where others may
    lie), then seeded ones, all while their steps stay within :data:`MORE_STEPS` (a walk
    begun is played to its end): how many, and their steps."""
    left = {r for r in todo if r not in found}
    ends = match_end_rules(config.rules)
    if not left - ends:
        return 0, 0
    named, done = set(wanted), {t.id for t in walked}
    stored = [t for t in _stored_tests(config.bases) if named & set(t.rules)
              and t.id not in done]
    matches = steps = 0
    for i, test in enumerate(stored):
        if steps >= MORE_STEPS or not left - ends:
            break
        steps += _walk(config, 200 + i, left, found, test)
        matches += 1
    for seed in range(100, 100 + MORE_MATCHES):
        if steps >= MORE_STEPS or not left - ends:
            break
        steps += _walk(config, seed, left, found)
        matches += 1
    return matches, steps
