"""What a step of the search exercises: the refusals it probes, the offers and effects of
the action taken (by the seat to act, or by a seat not to act at any moment), and the
rules of the steps between hands and of the match's end.

Split out of :mod:`mariage.conformance.exercise` (eighteenth session), which walks the
seeded matches and keeps the tests; this module only names rules.

>>> from mariage import load_rules
>>> sorted(match_end_rules(load_rules("mariglia")))[:2]
['core.over', 'mariglia.match.end']
"""

from __future__ import annotations

from typing import Any

from mariage.engine.actions import (
    Action,
    Announce,
    Claim,
    Close,
    Concede,
    Declare,
    Decline,
    Draw,
    Pass,
    Redeal,
)
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError, MariageError
from .blame import governed_fields
from .builthands import again_rules
from .protocol import state_json
from .ruleprobe import (
    card_refusals,
    declaration_refusals,
    ending_rules,
    node_rules,
    offer_rules,
    refusals,
)
from .stepnames import borrowed_refusals, offered_rules

__all__ = [
    "aside_rules",
    "auction_turn_rules",
    "between_hands_rules",
    "exercised",
    "governed_state",
    "match_end_rules",
    "out_of_turn",
    "probe_refusals",
    "short_deal",
    "taken_rules",
]

#: The actions without arguments probed at each step: one that is not legal there is
#: refused by a rule (the phase's, a claim's, a close's...), which that step exercises.
#: A throw-in (``Redeal``, where the rules have claims to throw a hand in) is refused by
#: the throw-in's rule wherever no rule lets the seat to act throw the hand in: out of its
#: windows, or a hand too good for it (twenty-fourth session; before, only the fault
#: search and stored tests checked it, and where every dealt hand may throw in, as
#: ``thousand-pl redeal_low_hand=60``, neither did).
_PROBED: tuple[type, ...] = (Close, Claim, Draw, Decline, Pass, Concede, Redeal)

#: What taking an action also exercises besides its offer: the rule fields of its
#: effects (closing the talon stops the draw and notes the opponent's points; an
#: announcement is made under the rule on announcing).
_EFFECTS: dict[type, tuple[str, ...]] = {Close: ("close_effect_rule", "close_snapshot_rule"),
                                         Announce: ("announce_rule",)}


#: id of compiled rules -> (those rules, :data:`_PROBED`, the actions of it they can write
#: and read): asked at every step of a search, worked out once per rules (a few kept)
_KNOWN: dict[int, tuple[Rules, tuple[type, ...], list[Action]]] = {}


def probe_refusals(state: GameState) -> dict[str, Action]:
    """Rule -> the first action without arguments (:data:`_PROBED`) it refuses now, of
    those the rules can write and read."""
    rules = state.rules
    hit = _KNOWN.get(id(rules))
    if hit is None or hit[0] is not rules or hit[1] is not _PROBED:
        if len(_KNOWN) >= 16:
            _KNOWN.clear()
        hit = _KNOWN[id(rules)] = (rules, _PROBED, [a for a in (kind() for kind in _PROBED)
                                                    if _known(rules, a)])
    return refusals(state, hit[2])


def _known(rules: Rules, action: Action) -> bool:
    try:
        return parse_action(rules, action_text(rules, action)) == action
    except (ValueError, KeyError, MariageError):
        return False


def exercised(state: GameState, taken: Action
              ) -> tuple[dict[str, tuple[Action, str]], set[str]]:
    """What taking ``taken`` at ``state`` exercises: rule -> an action refused because
    of it (a card, a declaration, an action without arguments) and the rule it is
    refused by (in the first trick of the duties after the talon, the switch of the
    duties too); and the rules of the offer of ``taken`` and of its effects (with a
    declaration on offer, the rule of the window for declaring; a throw-in, the rule
    of the claim that allows it: a low hand, a weak talon...)."""
    r = state.rules
    cards = card_refusals(state)
    refused = {rule: (a, rule) for rule, a in
               {**probe_refusals(state), **declaration_refusals(state), **cards}.items()}
    if cards and r.play_switch_rule and state.trick_no == state.draw_tricks + 1:
        rule, card = next(iter(cards.items()))
        refused.setdefault(r.play_switch_rule, (card, rule))
    refused = {**borrowed_refusals(state), **refused}  # a refusal charged to a wider rule
    offered = node_rules(state, taken) - set(cards) | taken_rules(state, taken)
    if isinstance(taken, Redeal) and state.to_act is not None:  # the claim's own rule
        offered.add(state.mech.talon.throw_in_claim(state, state.to_act) or "")
        offered.discard("")
    if r.decl_window_rule and any(isinstance(a, Declare) for a in state.legal_actions()):
        offered.add(r.decl_window_rule)
    offered |= offered_rules(state, taken) | again_rules(state, taken)
    return refused, offered


def taken_rules(state: GameState, taken: Action) -> set[str]:
    """The rules of the offer of ``taken`` at ``state`` and of its effects (closing the
    talon, announcing and the kind announced), without probing any refusal.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("belote-coinche"), seed=1)
    >>> sorted(taken_rules(state, state.legal_actions()[1]))
    ['belote-coinche.auction.bids']
    """
    r = state.rules
    offered = set(offer_rules(state, taken))
    if isinstance(taken, Declare):  # declaring scores it, may set trump, is credited
        d = r.declarations[taken.decl]
        offered.update(x for x in (d.value_rule, d.trump_rule, d.credit_rule) if x)
    offered.update(x for name in _EFFECTS.get(type(taken), ())
                   if isinstance(x := getattr(r, name, None), str))
    if isinstance(taken, Announce) and 0 <= taken.combo < len(r.combos):
        offered.add(r.combos[taken.combo].rule)  # the kind announced
    return offered


def aside_rules(state: GameState, action: Action, seat: int) -> set[str]:
    """The rules ``seat``, not the seat to act, exercises by taking ``action`` now (one
    of those open to it at any moment): its offer's and its effects' rules and, for a
    throw-in, the rule of the claim that allows it (four nines held...) and the rules of
    the hand's end it makes (:func:`~mariage.conformance.ruleprobe.ending_rules`: the
    hand thrown in, not scored and dealt again; twenty-second session, where the claim's
    own rule was found first and the claim was never taken for the redeal's)."""
    out = taken_rules(state, action)
    if isinstance(action, Redeal):
        claim = state.mech.talon.throw_in_claim(state, seat)
        if claim:
            out.add(claim)
            after = state.clone()
            try:
                after.apply(action, seat)
            except IllegalActionError:
                return out
            out |= ending_rules(after, after.phase in (Phase.DEAL, Phase.OVER))
    return out


def out_of_turn(state: GameState, todo: set[str]) -> tuple[int, Action] | None:
    """A seat other than the one to act and an action open to it at any moment (a
    throw-in claimed out of turn...) that exercises a rule of ``todo``, if any; seats in
    order, then actions in the reference's order."""
    to_act = state.to_act
    if to_act is None or not todo:
        return None
    for seat in range(state.rules.nseats):
        if seat == to_act:
            continue
        for action in state.legal_actions(seat):
            if aside_rules(state, action, seat) & todo:
                return seat, action
    return None


def governed_state(state: GameState, rule: str) -> dict[str, Any]:
    have = state_json(state)
    names = [f for f in governed_fields(rule) if f in have]
    return {k: have[k] for k in names} if names else have


def between_hands_rules(rules: Rules) -> set[str]:
    """The rules a step between hands exercises (:func:`_between_hands`), as probed
    before the first deal: an action refused there, a deal short of a card.

    >>> from mariage import load_rules
    >>> sorted(between_hands_rules(load_rules("belote")))
    ['core.deal', 'core.phase']
    """
    fresh = GameState(rules, first_dealer=None if rules.first_dealer == "none" else 0)
    short = short_deal(fresh)
    return set(probe_refusals(fresh)) | ({short[1]} if short is not None else set())


def short_deal(state: GameState) -> tuple[dict[str, Any], str] | None:
    """Between hands: a deal of the whole pack but its last card, and the rule the
    reference refuses it by (``None`` if it takes it)."""
    r = state.rules
    deck = [r.card_code[c] for c in range(r.ncards - 1)]
    first = 0 if r.first_lead == "lot" else None
    try:
        state.clone().deal(deck, first)
    except IllegalActionError as exc:
        return {"deck": deck, "first_player": first}, exc.rule_id
    except ValueError:
        return None
    return None


def auction_turn_rules(state: GameState, before: Phase) -> set[str]:
    """The rule of the auction's turns a step in the auction after which it goes on
    exercises (``before``: the phase the step was taken in): a bid or a pass gives the
    turn to the next player still in it.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand", {"players": 2}), seed=1)
    >>> before = state.phase
    >>> state.apply(state.legal_actions()[-1])
    >>> auction_turn_rules(state, before), auction_turn_rules(state, Phase.PLAY)
    ({'thousand.auction'}, set())
    """
    r = state.rules
    going_on = before == Phase.AUCTION and state.phase == Phase.AUCTION
    return {r.auction_rule} if going_on and r.auction_rule else set()


def match_end_rules(rules: Rules) -> set[str]:
    """The rules the match's end names: its end, the rule on a level match, the running
    totals' win check and barrel (a total held below the target), and the refusal of any
    action after the end."""
    return {x for x in (rules.match_rule, rules.tie_rule, rules.win_rule_id, rules.core_over,
                        rules.barrel_rule) if x}
