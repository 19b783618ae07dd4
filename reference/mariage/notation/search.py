"""Completing a partial deal: find the unknown cards' places so every action is legal.

A record written by one seat shows ``??`` for cards that seat could not see.
Such a record is valid when at least one full deal is consistent with it.
The search replays candidate deals. Where an action is refused, it first
tries to learn a bound on where an unknown card may lie
(:mod:`mariage.notation.deduce`: a card the seat played lies at a place the
seat received; a card whose presence alone breaks a duty lies at none of
them; a card a declaration needs lies at one of them), and takes the nearest
deck that respects every bound so far, found by matching cards to places
(:mod:`mariage.notation.placement`). A case that no deck fits is proven
impossible. Where a refusal teaches nothing exact (the
trump was set by an answer that names no suit; an action that needs some
cards and must lack others), the deal is repaired by exchanging two unknown
cards that are both still unplayed at that moment:

- a seat plays (or exchanges) an unknown card it does not hold: that card
  changes places with each unknown card the seat holds, in turn;
- any other refusal depends on the content of the acting seat's hand: one of
  its unknown cards changes places with an unknown card held elsewhere.

The search by learned bounds runs first while it teaches (about one replay per unknown
card; it leaves after ``QUICK_EXACT`` replays that teach nothing), then the exchanges
for a few replays (``QUICK_TRIES``): where no duty binds they often find a deal at once;
then the bounds again, to the limit. Past a step whose effect depends on the cards (an
answer that names no suit), there are two ways on, which take turns a replay each: stop
learning there and exchange cards, or follow each effect the step may have as a case of
its own (the first search by bounds takes the second way only). A case meets such a step
during its replay and goes on with the effect the deck gives; each other effect the step
may have becomes a case of its own. A replay that meets a card played by a seat that
does not hold it while a stock is drawn from exchanges the card in and goes on,
collecting a bound for each; the next replay starts from the deck with those cards
exchanged in, and with the bounds from the rest of the hand where the collecting ended
with no stock left. Past a quarter of the tries left, the search without those two takes
one turn in three (on some records that fit no deal, only one of them proves it early).
A search that gives up reports every try used, so that only a search that covered every
deal says that none fits. Where the turned-up card is unknown, each unknown card in turn
is tried as the turned-up card (it fixes the trump); the cases of several turned-up
cards end together where one replay shows them all impossible (an annotation the trump
alone refutes; a window no hand opens, the same for each card of the suit; a card the
record plays while the turned-up card still lies out of every hand). Best first (the
children of the deal whose replay got furthest are tried first), with a memory of tried
deals, up to ``limit`` replays. The first fill puts each unknown card where the seat
that first plays it can hold it. Cards passed unseen (``give:?``) split the search by
learned bounds into one case per set of cards that may have been passed; where those are
too many, the exchanges (which choose the cards passed from each deal tried) have every
try left.

>>> from mariage import load_rules, GameState, Play
>>> rules = load_rules("marianna")
>>> st = GameState(rules, first_dealer=3)
>>> deck = list(range(40))
>>> partial = [c if 5 > i else -1 for i, c in enumerate(deck)]   # only N's cards known
>>> acts = [(0, Play(0)), (1, Play(7)), (2, Play(12)), (3, Play(30))]
>>> found, tries = complete_deal(st, partial, [-1] * 40, None, acts)
>>> found is not None and found[:5] == deck[:5]
True
"""

from __future__ import annotations

import heapq
from collections.abc import Generator, Sequence

from mariage.engine.actions import Action, Answer, Give, played_card
from mariage.engine.arguments import check_rules
from mariage.engine.deals import deal_owners
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

from .deduce import DEAD, LEARNED, give_choices, learn, possible_effects, settle
from .firstfault import played_elsewhere
from .placement import (
    DECIDE,
    GIVE,
    NOTE,
    Placement,
    Refusal,
    Swapped,
    pop_made,
    replay_tracked,
)
from .reader import DEFAULT_LIMIT
from .swapsearch import Step, Verify, _attempt, _initial_fill, _repairs, _swap_search
from .turnedup import turned_up_alike

__all__ = ["DEFAULT_LIMIT", "complete_deal", "turnup_place"]

#: Replays of the exchange search tried before the search by learned bounds.
QUICK_TRIES = 64
#: Decide a step whose effect depends on the cards during the replay (the deck's own
#: effect; the others become cases) instead of a replay that stops there, and do so in
#: the first search by bounds too (False: the search as it was before, kept for the
#: benchmark's comparison, ``bench_dealsearch.py --scaling --compare``).
DECIDE_ON_THE_WAY = True
#: Share the bounds one replay collects between the cases of turned-up cards of the
#: same suit (False: each case collects its own, as before; for the benchmark).
SHARE_BY_SUIT = True
#: Where the turned-up card of a replay lies in no hand at its refused step, end the
#: cases whose turned-up card the record plays before that step (False: each such
#: case costs a replay, as before issue #28's eighth round; for the benchmark).
UNPLAYED_TURN_UP = True
#: After a replay that collected bounds for cards played unheld, go on from its deck with
#: those cards exchanged in (False: from the deck replayed; for the benchmark).
FORCED_DECK = True
#: A replay that collected bounds and ends, refused, where no stock is left: the bounds
#: from the rest of the hand too (``deduce.settle``; False: as before; the benchmark).
SETTLE_COLLECTED = True
#: Replays of the search by learned bounds that teach nothing (their children are
#: exchanges) before the exchange search is tried.
QUICK_EXACT = 8

#: The effect a case expects of each step whose effect depends on the cards.
Effects = dict[int, tuple[object, ...]]
#: The cards a case passes at each unseen pass (``give:?``), by step.
Gives = dict[int, int]


def _effect_may_depend(rules: Rules, action: Action | None) -> bool:
    """May what ``action`` settles depend on the hidden cards? An answer that names no
    suit, or a step that sets the trump without naming it where no turned-up card
    (fixed in each case of the search) names it."""
    if getattr(action, "suit", 0) >= 0:
        return False
    return isinstance(action, Answer) or turnup_place(rules, 0) < 0


def turnup_place(rules: Rules, dealer: int | None) -> int:
    """The place in the deck of the turned-up card (it sets the trump), or -1.

    >>> from mariage import load_rules
    >>> turnup_place(load_rules("schnapsen"), 1), turnup_place(load_rules("mariazza"), 1)
    (6, 10)
    """
    check_rules(rules, "turnup_place")
    if rules.turn_up in ("under_stock", "to_taker"):  # shown before the rest is dealt
        return deal_owners(rules, dealer).index(-2)
    if rules.turn_up == "dealer_last" and dealer is not None:
        owner = deal_owners(rules, dealer)
        return max(i for i, o in enumerate(owner) if o == dealer)
    return -1


def complete_deal(start: GameState, slots: Sequence[int], owner: Sequence[int],
                  first: int | None, acts: Sequence[Step], limit: int = DEFAULT_LIMIT,
                  verify: Verify | None = None,
                  chosen: dict[int, int] | None = None) -> tuple[list[int] | None, int]:
    """A full deck consistent with ``slots`` (``-1`` unknown) and ``acts``, and the tries used.

    ``start`` is the match state waiting for this deal (it is not changed).
    ``verify`` also checks the record's annotations along the replay: a deal
    that contradicts one (a trick winner, the trump, the points) is repaired
    like one that makes an action illegal.
    ``chosen``: where cards were passed unseen (``give:?``), a dict that receives
    the cards of each such pass (step index to a card mask) in the deal found,
    where the search chose them; a replay that passes those cards agrees with
    the search (:func:`~mariage.notation.placement.unseen_give` chooses the
    others). Without it, the deal found must also fit the cards ``unseen_give``
    chooses.
    Returns ``(None, tries)``: no consistent deal (``tries < limit``) or the
    search gave up (``tries >= limit``).
    """
    if played_elsewhere(slots, owner, acts) is not None:
        return None, 0  # a card known to be dealt to a seat that kept it: no deal fits
    r = start.rules
    unknown = set(range(r.ncards)) - set(slots)
    # the place of the turned-up card in the deck, where it is unknown (it sets the trump)
    tpos = turnup_place(r, start.dealer)
    if tpos >= 0 and slots[tpos] >= 0:
        tpos = -1
    # the bounds first, while they teach: where every card is dealt at once (no stock to
    # draw from), the rest of the hand places almost every card after one or two replays,
    # and where a stock is drawn from, each replay places one card more; the search
    # leaves them after QUICK_EXACT replays that teach nothing, or about one replay per
    # unknown card
    brief = min(len(unknown) + QUICK_EXACT, limit // 4)
    # past a step whose effect depends on the cards, this first search follows each
    # effect as a case (the deck's own first, decided during the replay)
    decides = DECIDE_ON_THE_WAY and any(_effect_may_depend(r, a) for _, a in acts)
    found, tries, exhaustive, settled = _exact(start, slots, owner, first, acts, brief, verify,
                                               tpos, by_effect=decides, chosen=chosen,
                                               patience=min(QUICK_EXACT, limit // 8))
    if found is not None or (settled and exhaustive):
        return found, tries
    if exhaustive:
        # then the exchanges, briefly: where no duty binds, they often find a deal at once
        quick = min(QUICK_TRIES, limit // 4)
        found, more = _swap_search(start, slots, owner, first, acts, quick, verify, tpos,
                                   unknown)
        tries += more
        if found is not None:
            return found, tries
        # two ways past an answer that names no suit (its effect depends on the cards):
        # stop learning there and exchange cards, or one case per effect; a replay each
        # in turn, so that neither waits for the other
        ways = (False, True) if any(_effect_may_depend(r, a) for _, a in acts) else (False,)
        base = tries
        runs = {k: _exact_steps(start, slots, owner, first, acts, limit - tries, verify, tpos,
                                by_effect, chosen) for k, by_effect in enumerate(ways)}
        done, turn = [0] * len(ways), 0  # the replays of each
        later = base + (limit - base) // 4 if FORCED_DECK or SETTLE_COLLECTED else limit
        while runs and exhaustive and tries < limit:
            if tries >= later:  # without FORCED_DECK, SETTLE_COLLECTED too: a turn in 3
                later, runs[len(done)] = limit, _exact_steps(
                    start, slots, owner, first, acts, limit - tries, verify, tpos, decides,
                    chosen, hand_on=False)
                done.append(0)
            turn += 1
            for k, run in [(k, run) for k, run in runs.items() if k < len(ways) or turn % 3 == 0]:
                try:
                    next(run)
                except StopIteration as stop:
                    found, done[k], exhaustive, settled = stop.value
                    tries = base + sum(done)
                    if found is not None or (settled and exhaustive):
                        return found, tries  # found, or proven that no deal fits
                    del runs[k]
                    if not exhaustive:
                        break  # too many cases of an unseen pass: the exchanges
                    continue
                done[k] += 1
                tries = base + sum(done)
                if tries >= limit:
                    break
        if exhaustive:
            return None, max(tries, limit)  # gave up: every try used
    # unseen passes with too many cases: the exchanges with every try left; they do not
    # cover every deal, so running out of exchanges proves nothing (the search gave up)
    found, more = _swap_search(start, slots, owner, first, acts, limit - tries, verify, tpos,
                               unknown)
    return found, tries + more if found is not None else max(tries + more, limit)


Exact = tuple[list[int] | None, int, bool, bool]


def _exact(start: GameState, slots: Sequence[int], owner: Sequence[int], first: int | None,
           acts: Sequence[Step], limit: int, verify: Verify | None, tpos: int,
           by_effect: bool, chosen: dict[int, int] | None = None,
           patience: int | None = None) -> Exact:
    """:func:`_exact_steps` run to its end."""
    steps = _exact_steps(start, slots, owner, first, acts, limit, verify, tpos, by_effect,
                         chosen, patience)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: Exact = stop.value
            return result


def _exact_steps(start: GameState, slots: Sequence[int], owner: Sequence[int],
                 first: int | None, acts: Sequence[Step], limit: int, verify: Verify | None,
                 tpos: int, by_effect: bool, chosen: dict[int, int] | None = None,
                 patience: int | None = None, hand_on: bool = True
                 ) -> Generator[None, None, Exact]:
    """The search by learned bounds (:mod:`mariage.notation.deduce`), each unknown
    card as the turned-up one where that is unknown, all in one search.

    A refusal that teaches a bound gives one child (the nearest deck that
    respects every bound learned so far), a refusal that splits into cases
    gives one child per case, and only one that teaches nothing gives the
    exchanges of :func:`_repairs`. Children with fewer exchanges since their
    last bound come first, then those whose replay got furthest. Past a step
    whose effect depends on the cards (an answer that names no suit), nothing
    exact is learned, or with ``by_effect`` the search splits into one case per
    effect the step may have and learns on in each. Cards passed unseen split
    the search into one case per set of cards that may have been passed
    (:func:`~mariage.notation.deduce.give_choices`), or, where those are too
    many, the search stops there. With ``patience``, it also stops after that
    many replays that taught nothing exact (whose children are exchanges).
    ``hand_on=False``: without :data:`FORCED_DECK` and :data:`SETTLE_COLLECTED`.
    Returns the deck found (or None), the replays used, whether the search
    covers every deal, and whether it ran to its end (both: no deal fits). A
    generator: it yields after each replay but the last, so that two searches
    can take turns.
    """
    r = start.rules
    fill = _initial_fill(slots, owner, r.ncards, acts)
    if tpos >= 0:  # each unknown card in turn is the turned-up one, the first fill's first
        turns = [fill[tpos]] + [c for c in range(r.ncards) if c not in slots and c != fill[tpos]]
    else:
        turns = [-1]
    played = [0] * (len(acts) + 1)
    for i, (_, a) in enumerate(acts):
        card = played_card(a) if a is not None else -1
        played[i + 1] = played[i] | (1 << card if card >= 0 else 0)
    dead_ids = (r.core_over,)
    # one search over every turned-up card: (exchanged since the last bound, -progress,
    # exchanges since the last bound, order, deck, case number, the bounds of that
    # case, the effects it expects of the steps whose effect depends on the cards,
    # the cards it passes at each unseen pass)
    heap: list[tuple[int, int, int, int, list[int] | Swapped, int, Placement, Effects,
                     Gives]] = []
    free_places = 0  # the unknown places, and the cards that may go there
    for p, c in enumerate(slots):
        if c < 0:
            free_places |= 1 << p
    free_cards = [c for c in range(r.ncards) if c not in set(slots)]
    for turn in turns:
        places = free_places
        first_deck = list(fill)
        if turn >= 0:  # the turned-up card changes places with the card at its place
            places &= ~(1 << tpos)
            at = first_deck.index(turn)
            first_deck[at], first_deck[tpos] = first_deck[tpos], turn
        bounds = Placement({c: places for c in free_cards if c != turn})
        heap.append((0, 0, 0, len(heap), first_deck, len(heap), bounds, {}, {}))
    seen: set[tuple[int, ...]] = set()
    pushed = ncases = len(heap)
    tries = stuck = 0
    movable = 0  # the cards of unknown places (the turned-up one too, where unknown)
    for c in range(r.ncards):
        if c not in slots:
            movable |= 1 << c
    hidden = any(type(a) is Give and a.cards < 0 for _, a in acts)
    exhaustive = True  # False once a case chose unseen cards from the deal tried
    suit_of = r.suit_of
    dead_suits = 0  # turned-up suits whose trump an annotation refuted: their cases too
    dead_turns = 0  # turned-up cards with which a refused action stays refused: their cases
    # the bounds collected (a card played unheld lies at a place its seat had received),
    # by the turned-up card's suit: which seat received which place follows from the
    # actions and the trump alone, so they hold in every case of that trump (cases that
    # expect no effect of a step and pass no unseen cards)
    shared: dict[int, set[tuple[int, int]]] = {}
    # the heap entries that stand for the other effects of a step decided during a
    # replay, by order number: the step (its state after this deck's effect)
    pending: dict[int, Refusal] = {}
    told = 0  # the replays reported (by yielding)
    while heap and tries < limit:
        if tries > told:  # the last replay is done: another search may take its turn
            told = tries
            yield
        entry, deck_or_none = pop_made(heap, 4)  # (and the next exchange of its refusal)
        _, _, swaps, order, _, case_no, placement, expect, gives = entry
        step = pending.pop(order, None)
        if step is not None:  # the other effects of a step decided during a replay: cases
            for effect in possible_effects(step, placement, played[step.index])[1:]:
                ncases += 1
                pushed += 1
                heapq.heappush(heap, (0, -step.index, 0, pushed, deck_or_none, ncases,
                                      Placement(dict(placement.allowed)),
                                      {**expect, step.index: effect}, gives))
            continue
        # the bounds that cases of another turned-up card of the same suit collected
        suit = suit_of[deck_or_none[tpos]] if tpos >= 0 and not expect and not gives else -1
        if suit >= 0 and SHARE_BY_SUIT:
            for c, places in shared.get(suit, ()):
                if c in placement.allowed:
                    placement.restrict(c, places)
        deck = placement.match(deck_or_none)
        if deck is None:
            continue  # the bounds of this case leave no deal
        if dead_suits and dead_suits >> suit_of[deck[tpos]] & 1:
            continue  # a case whose turned-up card gives a trump already refuted
        if dead_turns >> deck[tpos] & 1 and not expect and not gives:
            continue  # a turned-up card with which an action stays refused in any deal
        key = (case_no, *deck)  # a deck is tried again in a new case: it may teach more
        if key in seen:
            continue
        seen.add(key)
        tries += 1
        collected: list[tuple[int, int]] = []
        forced: list[int] = []
        decided: list[Refusal] | None = [] if by_effect and DECIDE_ON_THE_WAY else None
        # the case's turned-up card lies at its place in every deal of the case: never
        # exchanged (out of the hand that took it, a play of it would prove the case dead)
        mine = movable & ~(1 << deck[tpos]) if tpos >= 0 else movable
        refusal = replay_tracked(start, deck, first, acts, verify,
                                 expect if by_effect else None, gives, turnup_fixed=True,
                                 collect=collected, movable=mine, decided=decided,
                                 forced=forced if FORCED_DECK and hand_on else None)
        if decided and not collected and refusal is not None:
            # the steps this case had not decided: it goes on with the effect of this deck,
            # and each other effect the step may have is a case of its own, found when an
            # entry in the place of those cases comes first (most searches end before)
            expect = dict(expect)
            for step in decided:
                pushed += 1
                pending[pushed] = step
                heapq.heappush(heap, (0, -step.index, 0, pushed, deck, case_no,
                                      Placement(dict(placement.allowed)), dict(expect), gives))
                assert step.effect is not None  # (set for every step decided)
                expect[step.index] = step.effect
        if refusal is not None and tpos >= 0 and UNPLAYED_TURN_UP and not expect and not gives:
            # the turned-up card still lies turned up, in the stock or laid away with it at
            # the refused step, its place reached no seat yet (dealt, drawn, exchanged),
            # neither held nor played: it never reached a hand. Whether a seat had that
            # place by then follows from the actions alone, so in every case the turned-up
            # card is still out of the hands: no card the record plays before that step was
            # turned up
            turned, now = deck[tpos], refusal.state
            if (now.turn_up == turned or turned in now.stock or turned in now.aside) \
                    and not any(seen >> tpos & 1 for seen in refusal.received) \
                    and not any(h >> turned & 1 for h in now.hands) \
                    and not played[refusal.index] >> turned & 1:
                dead_turns |= played[refusal.index] & movable & ~(1 << turned)
        if collected and SETTLE_COLLECTED and hand_on and refusal is not None \
                and not refusal.note:
            # the collecting ended where no stock is left: the rest of the hand places the
            # cards each seat plays from then on (their places follow from the actions)
            settle(refusal, placement, acts, played[refusal.index])
        if collected:  # cards played by seats that did not hold them: one bound each
            if suit >= 0:  # the same places in every case of this trump
                shared.setdefault(suit, set()).update(collected)
            if all(c in placement.allowed for c, _ in collected):
                for c, places in collected:
                    placement.restrict(c, places)
                pushed += 1
                heapq.heappush(heap, (0, -len(acts), 0, pushed, forced or deck, case_no,
                                      placement, expect, gives))
            continue  # (a known card at a place no bound allows: no deal in this case)
        if refusal is None:
            if hidden and chosen is not None:  # the replay passes the cards of this case
                chosen.update(gives)
                return deck, tries, exhaustive, True
            # the record's replay chooses unseen cards by itself: it must agree
            if not hidden or _attempt(start, deck, first, acts, verify) is None:
                return deck, tries, exhaustive, True
            exhaustive = False  # this deal fits only other cards passed than it chooses
            continue
        if refusal.rule_id in dead_ids:
            continue
        if refusal.rule_id == NOTE and refusal.trump_known and (
                refusal.trump_before == refusal.state.trump or refusal.fixed_effect):
            # the actions and this trump (kept, or set from this case's turned-up card)
            # alone refuse it: no placement helps, nor another turned-up card of its suit,
            # where that card counts only by its suit (not where it scores)
            if tpos >= 0 and not r.turn_up_bonus:
                dead_suits |= 1 << suit_of[deck[tpos]]
            continue
        if refusal.rule_id == DECIDE:  # one case for each effect the step may have
            for effect in possible_effects(refusal, placement, played[refusal.index]):
                ncases += 1
                pushed += 1
                heapq.heappush(heap, (0, -refusal.index, 0, pushed, deck, ncases,
                                      Placement(dict(placement.allowed)),
                                      {**expect, refusal.index: effect}, gives))
            continue
        before = played[refusal.index]
        if refusal.rule_id == GIVE:  # one case for each set of cards that may be passed
            settle(refusal, placement, acts, before)
            choices = give_choices(refusal, placement, acts, before)
            if choices is None:  # too many cases: leave the search to the exchanges
                return None, tries, False, False
            for cards, case in choices:
                ncases += 1
                pushed += 1
                heapq.heappush(heap, (0, -refusal.index, 0, pushed, deck, ncases, case,
                                      expect, {**gives, refusal.index: cards}))
            continue
        if not refusal.note and settle(refusal, placement, acts, before) \
                and not placement.fits(deck):
            outcome, cases = LEARNED, [placement]  # the rest of the hand placed cards
        else:
            outcome, cases = learn(refusal, deck, placement, before)
        if outcome == DEAD:
            if tpos >= 0 and not expect and not gives and refusal.trump_known \
                    and refusal.rule_id == r.core_turn:
                # the other turned-up cards of this suit, if the answer is the same for them
                turned = deck[tpos]
                alike = 0
                for c in r.cards_of(movable & ~dead_turns):
                    if suit_of[c] == suit_of[turned] and c != turned:
                        alike |= 1 << c
                dead_turns |= turned_up_alike(refusal, placement, before, alike)
            continue
        children: list[tuple[list[int] | Swapped, int, Placement]] = []
        depth = 0
        if outcome == LEARNED:
            for case in cases:
                if case is not placement:
                    ncases += 1
                children.append((deck, ncases if case is not placement else case_no, case))
        else:  # exchanges: after every bound and case (of any turned-up card), best first
            stuck += 1
            if patience is not None and stuck >= patience:
                return None, tries, exhaustive, False
            depth = swaps + 1
            pos, pairs = {c: i for i, c in enumerate(deck)}, list[int]()
            unknown = set(placement.allowed)
            seats = {refusal.seat}
            if refusal.state.to_act is not None:
                seats.add(refusal.state.to_act)  # out of turn: a window one seat lacked
            for seat in sorted(seats):
                for x, y in _repairs(unknown, seat, refusal.action, refusal.state, -1):
                    pairs += (pos[x], pos[y])
            if pairs:  # one entry, which stands for each exchange in turn (order numbers)
                children.append(((tuple(deck), tuple(pairs), 0), case_no, placement))
        for child, number, case in children:
            pushed += 1
            heapq.heappush(heap, (min(depth, 1), -refusal.index, depth, pushed, child, number,
                                  case, expect, gives))
            pushed += len(child[1]) // 2 - 1 if isinstance(child, tuple) else 0
    return None, tries, exhaustive, not heap
