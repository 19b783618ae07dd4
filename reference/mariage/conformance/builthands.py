"""Hands built for rare declarations: a whole hand, a second one of a kind, a split's order.

Some declarations need a hand that random deals almost never give, and some
configurations leave the seat holding it little room to declare: a whole hand of
four kings and a queen (Marianna's mariannone) where only the leader declares, a
second mariannino with another king where declarations are made only in the window
at a trick's start, a marianna declared after a split marriage that scored
(Siciliana's order of values) where only the leader, or the window at the trick's
start, declares. :func:`built_hand` builds the deal instead of drawing it: a seeded
deck whose cards are swapped so that the seat that leads the first trick holds the
declaration's cards (for a second one of its kind, the next cards of the stock are
the other cards of the rank that names its suit; for a split, the partner holds the
other half, the asker a marianna of another suit, and the other cards of the split's
suit lie at the bottom of the stock), then plays it out on a clone eagerly (asks and
declarations first, a yes to an ask, the card that names a whole hand's suit played
after it, an ordered declaration held back until the split has scored) and keeps the
first of :data:`BUILT_DEALS` candidates whose steps exercise a wanted rule
(:func:`built_step_rules`). The deal and the actions become the search's next deal and
recorded actions, as the brink's hands do (:mod:`mariage.conformance.brink`).

Which rules it builds for is read from the rule data (:func:`built_rules`): the
rules of the whole-hand declarations (their own, value, trump and once rules; not the
once rule of one that wins the match, which never acts,
:mod:`mariage.conformance.neveracts`), the order rule of an ordered ask, and the rule
of a top score that takes no segno, for which the hand is built by
:func:`~mariage.conformance.exacttop.exact_top_hand` (twenty-first session), and the
throw-in claims on a hand or a talon worth fewer card points than a threshold some deal
can fall below (:func:`claim_rules`; twenty-eighth session: Thousand's
``redeal_weak_prikup=1`` needs a talon of three nines): the cheapest cards of the pack
are swapped into the first seat to act or into the talon, every seat passes in the
auction where it may, and the throw-in is claimed as soon as it is offered.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.prng import SplitMix64
>>> rules = load_rules("marianna-3", {"declare_who": "leader"})
>>> sorted(built_rules(rules))  # doctest: +NORMALIZE_WHITESPACE
['marianna.decl.mariannino', 'marianna.decl.mariannino.once',
 'marianna.decl.mariannino.trump', 'marianna.decl.mariannino.value',
 'marianna.decl.mariannone', 'marianna.decl.mariannone.trump',
 'marianna.decl.mariannone.value']
>>> state = GameState(rules, first_dealer=0)
>>> deal, actions = built_hand(state, SplitMix64(1), {"marianna.decl.mariannone.value"})
>>> actions[0]   # the first leader holds four kings and a queen
'mariannone:C'
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import Action, Answer, AskPartner, Declare, Pass, Play, Redeal
from mariage.engine.actiontext import action_text
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Declaration, Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError
from .dealtplaces import dealt_positions, seeded_places
from .exacttop import exact_top_hand, exact_top_rules
from .stepnames import split_rules

__all__ = ["BUILT_DEALS", "BUILT_MATCHES", "again_rules", "built_hand", "built_rules",
           "built_step_rules", "claim_rules"]

#: How many built deals :func:`built_hand` plays out on a clone for one hand at most.
BUILT_DEALS = 16

#: How many matches the exercise search plays with built hands at most.
BUILT_MATCHES = 2

#: The bound of a built hand's steps (a hand that does not end within it is dropped).
_HAND_STEPS = 400

_BETWEEN = (Phase.DEAL, Phase.OVER)


def _whole(rules: Rules) -> list[Declaration]:
    return [d for d in rules.declarations if d.whole_hand and not d.same_suit]


def _decl_rules(d: Declaration) -> set[str]:
    out = {d.rule, d.value_rule, d.trump_rule, d.credit_rule or ""}
    if not d.wins_match:  # (the once limit of one that ends the match never acts)
        out.add(d.once_rule)
    return {x for x in out if x}


def built_rules(rules: Rules) -> set[str]:
    """The rules :func:`built_hand` builds hands for (see the module's text)."""
    out: set[str] = set()
    for d in _whole(rules):
        out |= _decl_rules(d)
    out.update(a.order_rule for a in rules.asks if a.ordered and a.order_rule)
    return (out | exact_top_rules(rules) | set(claim_rules(rules))) & set(rules.rule_ids)


def claim_rules(rules: Rules) -> dict[str, tuple[bool, int]]:
    """The throw-in claims on a hand or a talon worth fewer card points than a threshold
    that the cheapest cards of the pack fall below: rule -> (whether it is the talon's,
    how many cards hold it). (Below no deal can meet the threshold: unreachable,
    :func:`~mariage.conformance.coverage.unreachable_under`.)

    >>> from mariage import load_rules
    >>> claim_rules(load_rules("thousand", {"redeal_weak_prikup": 1}))
    {'thousand.throw-in.weak-talon': (True, 3)}
    >>> claim_rules(load_rules("thousand"))   # both thresholds 0: never
    {}
    """
    out: dict[str, tuple[bool, int]] = {}
    for rule, below, talon, size in (
            (rules.throw_low_rule, rules.throw_low_below, False, rules.hand_size),
            (rules.throw_talon_rule, rules.throw_talon_below, True, rules.stock_size)):
        if rule and size and sum(sorted(rules.points)[:size]) < below:
            out[rule] = (talon, size)
    return out


def again_rules(state: GameState, taken: Action) -> set[str]:
    """The once rule of a declaration ``taken`` made again in another suit in this hand,
    where its limit is once a suit (anyone's, or the seat's own): the limit lets it be.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("marianna"), seed=1)
    >>> again_rules(state, Declare(0, 1))   # none declared yet
    set()
    >>> state.used_suit[0][2] = 1           # a marianna of the first suit declared
    >>> again_rules(state, Declare(0, 1))
    {'marianna.decl.once'}
    """
    r = state.rules
    seat = state.to_act
    if not isinstance(taken, Declare) or seat is None or \
            not 0 <= taken.decl < len(r.declarations):
        return set()
    d = r.declarations[taken.decl]
    if d.once_scope not in ("suit", "suit_per_player") or not d.once_rule:
        return set()
    used = state.used_suit[d.index]
    mine = used[seat] if d.once_scope == "suit_per_player" else _or_all(used)
    return {d.once_rule} if mine & ~(1 << taken.suit) else set()


def _or_all(values: list[int]) -> int:
    out = 0
    for v in values:
        out |= v
    return out


def built_step_rules(state: GameState, taken: Action) -> set[str]:
    """The rules of :func:`built_rules` taking ``taken`` at ``state`` exercises: a
    declaration's own rules, its once rule where it is made again in another suit
    (:func:`again_rules`), and the rules of a split marriage
    (:func:`~mariage.conformance.stepnames.split_rules`)."""
    r = state.rules
    out = split_rules(state, taken) | again_rules(state, taken)
    if isinstance(taken, Redeal) and state.to_act is not None:  # the claim allowing it
        out.add(state.mech.talon.throw_in_claim(state, state.to_act) or "")
        out.discard("")
    if isinstance(taken, Declare) and 0 <= taken.decl < len(r.declarations):
        d = r.declarations[taken.decl]
        out |= {x for x in (d.rule, d.value_rule, d.trump_rule) if x}
    return out


def built_hand(state: GameState, rng: SplitMix64, wanted: set[str]
               ) -> tuple[dict[str, Any], list[str]] | None:
    """The next hand to play from ``state`` (between hands, or before the first deal)
    for the rules of ``wanted`` (:func:`built_rules`): its deal and its actions, the first
    of :data:`BUILT_DEALS` built deals played out eagerly on a clone whose steps
    exercise one of them; ``None`` where none is wanted or no deal does."""
    r = state.rules
    want = wanted & built_rules(r)
    if not want:
        return None
    if want & exact_top_rules(r):  # a top score of exactly the void value
        exact = exact_top_hand(state, rng)
        if exact is not None:
            return exact
    plans = [d for d in _whole(r) if want & _decl_rules(d)]
    asks = [a for a in r.asks if a.order_rule in want]
    claims = [c for rule, c in claim_rules(r).items() if rule in want]
    for k in range(BUILT_DEALS):
        if claims and (k % 2 or not (plans or asks)):  # a throw-in claim (every other)
            deal = _claim_deal(state, rng, *claims[k % len(claims)])
        else:
            deal = _built_deal(state, rng, plans[k % len(plans)] if plans and
                               (not asks or k % 2) else None, asks[0] if asks else None)
        if deal is None:
            return None
        trial = state.clone()
        try:
            trial.deal(list(deal["deck"]), deal["first_player"])
        except (IllegalActionError, ValueError):
            return None
        actions = _play_eagerly(trial, rng, want)
        if actions is not None:
            return deal, actions
    return None


def _seats_positions(state: GameState, deck: list[int], first: int | None
                     ) -> tuple[int, list[list[int]], list[int]] | None:
    """Deal ``deck`` (card numbers) on a clone: the first leader, each seat's deck
    positions, and the stock's positions in the order drawn."""
    found = dealt_positions(state, deck, first)
    return None if found is None else found[1:]


def _built_deal(state: GameState, rng: SplitMix64, d: Declaration | None,
                ask: Any) -> dict[str, Any] | None:
    """A seeded deck with the cards swapped in for the whole hand ``d`` (the first
    leader holding it, the other cards of its suit's rank next in the stock) or for the
    split marriage of ``ask`` (the first leader holding a half and an ordered
    declaration of another suit, his partner the other half, the other cards of that
    suit last in the stock)."""
    r = state.rules
    found = seeded_places(state, rng)
    if found is None:
        return None
    deck, first, _, leader, seats, stock = found
    wants: list[tuple[int, int]] = []  # (card, position)
    if d is not None:
        cards: list[int] = []
        for mask, count in d.rank_counts:
            pool = [c for c in r.cards_of(mask) if c not in cards]
            rng.shuffle(pool)
            cards += pool[:count]
        if len(cards) > len(seats[leader]):
            return None
        wants += list(zip(cards, seats[leader], strict=False))
        pivots = [c for c in r.cards_of(r.rank_mask[d.suit_rank]) if c not in cards]
        wants += list(zip(pivots, stock, strict=False))  # drawn next: another suit
    elif ask is not None:
        partners = [s for s in range(r.nseats) if s != leader
                    and r.team_of[s] == r.team_of[leader]]
        marriage = r.declarations[ask.declaration]
        if not partners or not marriage.same_suit:
            return None
        s, t = rng.below(len(r.suits)), rng.below(len(r.suits) - 1)
        t += t >= s
        half = r.cards_of(marriage.suit_masks[s])
        if rng.below(2):
            half.reverse()
        mine = [half[0], *r.cards_of(marriage.suit_masks[t])]
        if len(mine) > len(seats[leader]) or not seats[partners[0]]:
            return None
        wants += list(zip(mine, seats[leader], strict=False))
        wants.append((half[1], seats[partners[0]][0]))
        rest = [c for c in r.cards_of(r.suit_mask[s]) if c not in half]
        wants += list(zip(rest, reversed(stock), strict=False))  # drawn last
    else:
        return None
    for card, pos in wants:
        at = deck.index(card)
        deck[at], deck[pos] = deck[pos], deck[at]
    return {"deck": [r.card_code[c] for c in deck], "first_player": first}


def _claim_deal(state: GameState, rng: SplitMix64, talon: bool, size: int
                ) -> dict[str, Any] | None:
    """A seeded deck with the ``size`` cheapest cards of the pack (ties drawn by ``rng``)
    swapped into the talon (with ``talon``) or into the hand of the first seat to act."""
    r = state.rules
    found = seeded_places(state, rng)
    if found is None:
        return None
    deck, first, _, leader, seats, stock = found
    places = stock if talon else seats[leader]
    if len(places) < size:
        return None
    pool = list(range(r.ncards))
    rng.shuffle(pool)
    cheap = sorted(pool, key=lambda c: r.points[c])[:size]  # stable: the draw breaks ties
    for card, pos in zip(cheap, places, strict=False):
        at = deck.index(card)
        deck[at], deck[pos] = deck[pos], deck[at]
    return {"deck": [r.card_code[c] for c in deck], "first_player": first}


def _play_eagerly(trial: GameState, rng: SplitMix64, want: set[str]) -> list[str] | None:
    """Play ``trial``'s hand to its end eagerly (:func:`_eager`): the actions' texts, if
    a step exercises a rule of ``want``; else ``None``."""
    actions: list[str] = []
    hit = False
    while trial.phase not in _BETWEEN:
        if len(actions) >= _HAND_STEPS:
            return None
        action = _eager(trial, rng, want)
        hit = hit or bool(want & built_step_rules(trial, action))
        actions.append(action_text(trial.rules, action))
        trial.apply(action)
        if hit:
            break
    return actions if hit else None


def _eager(state: GameState, rng: SplitMix64, want: set[str]) -> Action:
    """An ask or a yes first; then a declaration (an ordered one held back while a split
    whose order is wanted has not scored); after a whole hand declared, the card that
    named its suit; else a pass where declaring is over, else a seeded choice."""
    r = state.rules
    acts = state.legal_actions()
    if Redeal() in acts and state.to_act is not None and \
            state.mech.talon.throw_in_claim(state, state.to_act) in want:
        return Redeal()  # a throw-in wanted: claimed as soon as offered
    asks = [a for a in acts if isinstance(a, AskPartner)]
    if asks and any(r.asks[a.ask].order_rule in want for a in asks):
        return asks[rng.below(len(asks))]
    yes = [a for a in acts if isinstance(a, Answer) and a.yes]
    if yes:
        return yes[0]
    scored = any(kind < 0 for _, kind, _, _ in state.declared)
    hold = not scored and any(a.order_rule in want for a in r.asks)
    decls = [a for a in acts if isinstance(a, Declare)
             and not (hold and r.declarations[a.decl].ordered)]
    whole = [a for a in decls if r.declarations[a.decl].whole_hand]
    if whole or decls:
        pick = whole or decls
        return pick[rng.below(len(pick))]
    seat = state.to_act
    plays = [a for a in acts if isinstance(a, Play)]
    if plays and seat is not None:
        named = [r.declarations[kind] for by, kind, _, _ in state.declared
                 if by == seat and kind >= 0 and r.declarations[kind].whole_hand]
        ranks = {d.suit_rank for d in named}
        lead = [a for a in plays if r.rank_of[a.card] in ranks]
        if lead:
            return lead[0]
    if Pass() in acts:
        return Pass()
    return acts[rng.below(len(acts))]
