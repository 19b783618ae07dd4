"""Which rule the reference names for an action: refusing it, or offering it.

A failure at a step of a golden match or a perft walk is charged to these
(``docs/conformance.rst``, *Which rules a failure is charged to*): an action
the engine lists and the reference does not is charged to the rule the
reference refuses it by (:func:`refusal_rule`); an action the reference lists
and the engine does not, to the rules the reference offers it under
(:func:`offer_rules`: the duty in force for a card, the declaration's, ask's
or mechanism's own rule for the rest). :func:`node_rules` is what one step of
a match exercises: every refusal of a card of the hand, and the offer of the
action taken.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.actiontext import parse_action
>>> from mariage.engine.deals import canonical_deck
>>> rules = load_rules("mariglia")
>>> st = GameState(rules, first_dealer=0)
>>> st.deal(canonical_deck(rules))
>>> refusal_rule(st, parse_action(rules, "QS"))
'core.hand'
>>> offer_rules(st, st.legal_actions()[0])
('mariglia.lead.first',)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mariage.engine.actions import (
    Action,
    Answer,
    AskPartner,
    Bid,
    Call,
    CallOut,
    Claim,
    Close,
    Declare,
    Decline,
    Draw,
    Exchange,
    Give,
    Pass,
    Play,
    Question,
    Raise,
    SuitBid,
)
from mariage.engine.state import GameState, Phase

from ..errors import IllegalActionError

__all__ = ["announcements_tie", "card_refusals", "declaration_refusals", "dump_rules",
           "ending_rules",
           "node_rules", "offer_rules", "phase_rules", "refusal_rule", "refusals",
           "rounding_tells", "trick_rules"]

#: The rule fields of compiled rules under which each kind of action is offered.
_OFFERED_BY: dict[type, tuple[str, ...]] = {
    Pass: ("decl_window_rule", "auction_pass_rule"),
    Exchange: ("exchange_rule",),
    CallOut: ("call_out_rule",),
    Close: ("close_rule",),
    Claim: ("claim_rule", "claim_timing_rule"),
    Draw: ("close_rule",),
    Decline: ("close_rule", "claim_rule"),
    Bid: ("bid_rule",),
    Give: ("passing_rule",),
    Raise: ("raise_rule",),
    Call: ("call_announce_rule", "call_pair_rule"),
    Question: ("ask_pair_rule", "ask_half_rule"),
    Answer: ("answers_rule",),
}


def refusal_rule(state: GameState, action: Action, seat: int | None = None) -> str | None:
    """The rule ID the reference refuses ``action`` (for ``seat``) by; ``None`` if it
    accepts it. ``state`` is not changed."""
    try:
        state.clone().apply(action, seat)
    except IllegalActionError as exc:
        return exc.rule_id
    return None


def _play_rules(st: GameState, action: Play) -> tuple[str, ...]:
    """The duty in force for a card of the seat to act (the lead's rule when leading)."""
    r = st.rules
    seat = st.to_act
    if seat is None or st.phase != Phase.PLAY:
        return ()
    rule, _ = st.mech.tricks.violation(st, seat, action.card)
    if rule:  # the duty that would take this very card away
        return (rule,)
    out: list[str | None] = []
    ob = st._ob_stock if st.trick_no <= st.draw_tricks else st._ob_no_stock
    if st.trick_cards and ob is not None:
        led = r.suit_of[st.trick_cards[0]]
        if st.hands[seat] & r.suit_mask[led]:
            out.append(ob.follow_rule)
        else:
            out.append(ob.void_rule)
        out.append(ob.free_rule)
    elif not st.trick_cards:
        out.append(r.first_lead_rule if st.trick_no == 1 else r.trick_rule)
    return tuple(dict.fromkeys(x for x in out if x))


def offer_rules(state: GameState, action: Action) -> tuple[str, ...]:
    """The rule IDs the reference offers ``action`` under, at ``state``."""
    r = state.rules
    if isinstance(action, Play):
        return _play_rules(state, action)
    if isinstance(action, Declare):
        return (r.declarations[action.decl].rule,)
    if isinstance(action, AskPartner):
        return (r.asks[action.ask].rule,)
    if isinstance(action, SuitBid):
        return _suit_bid_rules(state, action)
    out: list[str] = []
    if isinstance(action, Answer) and state.pending_ask is not None:
        out.append(r.asks[state.pending_ask[0]].answer_rule)
    for name in _OFFERED_BY.get(type(action), ()):
        value = getattr(r, name, None)
        if isinstance(value, str):
            out.append(value)
    return tuple(dict.fromkeys(x for x in out if x))


def _suit_bid_rules(state: GameState, action: SuitBid) -> tuple[str, ...]:
    """A bid of a value and a trump suit is offered under the rule on bids, and a bid of
    capot or générale under that bid's own rule too."""
    r = state.rules
    own = r.sa_capot_rule if action.value == r.sa_capot_value else \
        r.sa_generale_rule if r.sa_generale_value and action.value == r.sa_generale_value \
        else None
    return tuple(x for x in (r.sa_bid_rule, own) if x)


def card_refusals(state: GameState) -> dict[str, Action]:
    """Rule ID -> the first card of the hand of the seat to act that it refuses."""
    out: dict[str, Action] = {}
    seat = state.to_act
    if seat is not None and state.phase == Phase.PLAY:
        tricks = state.mech.tricks
        r = state.rules
        held = state.hands[seat] & ~tricks.legal_plays(state, seat)
        for card in r.cards_of(held):
            rule, _ = tricks.violation(state, seat, card)
            if rule and rule not in out:
                out[rule] = r.play_actions[card]
    return out


def declaration_refusals(state: GameState) -> dict[str, Action]:
    """Rule ID -> the first declaration (of each kind, in each suit) that the seat to
    act may not make now and that the reference refuses by it."""
    r = state.rules
    if state.to_act is None or state.phase != Phase.PLAY:
        return {}
    return refusals(state, [Declare(decl, suit) for decl in range(len(r.declarations))
                            for suit in range(len(r.suits))])


def refusals(state: GameState, actions: Iterable[Action]) -> dict[str, Action]:
    """Rule ID -> the first of ``actions`` that is not legal now and that the reference
    refuses by that rule."""
    out: dict[str, Action] = {}
    legal = set(state.legal_actions()) if state.to_act is not None else set()
    for action in actions:
        if action in legal:
            continue
        rule = refusal_rule(state, action)
        if rule and rule not in out:
            out[rule] = action
    return out


def ending_rules(state: GameState, ended: bool) -> set[str]:
    """The rule IDs deciding the score of a hand that the last step ended (``ended``):
    the claim and its row of the game-point scale by how the hand ended (a true or
    false claim; the cards played out, the talon closed or not), the scoring of a
    contract played out and its rounding, a hand played out with nobody at the target,
    a side at the target that may not win on it (it wrote only its pair of trumps), the
    running totals' rules (:func:`_running_rules`), the rule on rounded totals where the
    rounding changes who stands at the target or ahead (:func:`rounding_tells`);
    and at the end of the match, the rule on a
    level match (whether it is one)."""
    r = state.rules
    out: list[str | None] = []
    if ended:
        how, closed = state.hand_over_reason, state.closed_by >= 0
        if how in ("claim", "false_claim"):
            out += [r.claim_rule, r.claim_timing_rule]
        if how == "claim":
            out.append(r.gp_claim_rule)
            if closed and r.team_of[state.closed_by] == r.team_of[state.claim_by]:
                out.append(r.gp_closer_rule)
            elif closed:
                out.append(r.gp_beaten_rule)
            else:
                out.append(r.gp_scale_rule)
        elif how == "false_claim":
            out.append(r.gp_false_rule)
        elif how == "played_out" and closed:
            out.append(r.gp_failed_rule)
        elif how == "played_out" and r.gp_played_rule:
            out += [r.gp_played_rule, r.gp_scale_rule if r.gp_played_mode != "last_trick"
                    else None]
        if how == "played_out" and r.takers_rule:  # a contract played out: scored, rounded
            out += [r.takers_rule, r.round_rule, *_contract_rules(state)]
        if how == "played_out" and r.segno_unfinished_rule and r.hand_target is not None \
                and all(state.hand_points(t) < r.hand_target for t in range(len(r.teams))):
            out.append(r.segno_unfinished_rule)  # played out, nobody at the target
        if r.pair_alone_rule and _held_back(state):
            out.append(r.pair_alone_rule)  # at the target with only its pair: not won
    if ended and r.segno_void_rule and state.history and \
            max(state.history[-1].points) == r.segno_void_top:
        out.append(r.segno_void_rule)  # a top score that takes no segno
    if ended and r.running_rule:  # the hand added to the running totals
        out += _running_rules(state)
    if ended and r.round_game_rule and r.round_mode != "none" and rounding_tells(state):
        out.append(r.round_game_rule)  # the written totals judge otherwise than the exact
    if state.phase == Phase.OVER and state.terminal:
        out.append(r.tie_rule)
    return {x for x in out if x}


def _held_back(state: GameState) -> bool:
    """Whether a side at the target wrote only its pair of trumps and has not won on it
    (:data:`~GameState.no_win`): while the match goes on, or where it ends by its limit
    of hands with that side's score the highest, so that it would have won at the target
    without the rule (twenty-eighth session: Coinche's ``deal_limit=3`` holds such a side
    back only in its last deal).

    >>> from mariage import load_rules, GameState
    >>> state = GameState(load_rules("belote"))
    >>> state.match_scores, state.no_win = [1010, 300], 1
    >>> _held_back(state), _held_back(GameState(load_rules("belote")))
    (True, False)
    """
    scores, target = state.match_scores, state.rules.match_target
    held = [s for t, s in enumerate(scores) if state.no_win >> t & 1 and s >= target]
    if not held or state.phase != Phase.OVER:
        return bool(held)
    result = state.result
    return bool(state.rules.match_max_hands) and result is not None and \
        result.reason in ("hands", "tie") and max(held) >= max(scores)


def _contract_rules(state: GameState) -> list[str | None]:
    """The rules of the takers' result a contract played out exercises: failed
    (dedans), tied (litige), a pair of trumps said (where it is written), equal best
    announcements of two sides (neither, or the first, counts)."""
    r = state.rules
    outcome = state.deal_outcome
    out = [r.takers_failed_rule if outcome == "failed" else None,
           r.takers_tie_rule if outcome == "tied" else None]
    if r.takers_pair_rule and state.mech.trump_pair.pair_seats(state):
        out.append(r.takers_pair_rule)
    if r.announce_tie_rule and announcements_tie(state):
        out.append(r.announce_tie_rule)
    return out


def announcements_tie(state: GameState) -> bool:
    """Whether two sides announced combinations of the same best rank this hand.

    >>> from mariage import load_rules, GameState
    >>> state = GameState(load_rules("belote"))
    >>> announcements_tie(state)   # nothing announced
    False
    """
    r = state.rules
    if not r.combos or len(state.announced) < 2:
        return False
    ann = state.mech.announcements
    keyed = [(ann.rank_key(state, m), r.team_of[m[0]]) for m in state.announced]
    top = max(k for k, _ in keyed)
    return len({t for k, t in keyed if k == top}) > 1


def rounding_tells(state: GameState) -> bool:
    """Whether the written (rounded) totals and the totals before rounding judge the
    match differently now: which sides stand at the target and ahead of the others
    (a side that may not win there, :data:`~GameState.no_win`, left out).

    >>> from mariage import load_rules, GameState
    >>> state = GameState(load_rules("belote-coinche"))
    >>> state.match_scores, state.round_residue = [2000, 1200], [-3, 4]
    >>> rounding_tells(state)       # written 2000 reaches the target, exact 1997 not
    True
    >>> state.round_residue = [2, 4]
    >>> rounding_tells(state)
    False
    """
    r = state.rules
    written = state.match_scores
    exact = [s + e for s, e in zip(written, state.round_residue, strict=True)]
    return _ahead(written, r.match_target, state.no_win) != \
        _ahead(exact, r.match_target, state.no_win)


def _ahead(scores: list[int], target: int, no_win: int) -> tuple[int, ...]:
    """The sides at ``target`` or over it (not those of ``no_win``) with the highest
    score among them."""
    reached = [t for t, s in enumerate(scores) if s >= target and not no_win >> t & 1]
    top = max((scores[t] for t in reached), default=0)
    return tuple(t for t in reached if scores[t] == top)


def _running_rules(state: GameState) -> list[str | None]:
    """The rules of the running totals a hand that just ended exercises: the totals; a
    hand thrown in (not scored, dealt again); a contract played out, judged made or not;
    an opponent left without a trick (a bolt); a total set to the barrel."""
    r = state.rules
    how = state.hand_over_reason
    out = [r.running_rule, r.redeal_rule if how == "redeal" else None]
    if how == "played_out" and state.declarer >= 0:
        side = r.team_of[state.declarer]
        out.append(r.contract_result_rule)
        out.append(r.bolt_rule if any(
            not won and t != side and (state.out < 0 or t != r.team_of[state.out])
            for t, won in enumerate(state.tricks_won)) else None)
    if r.barrel_rule and r.barrel_at in state.match_scores and not (
            state.phase == Phase.OVER and r.barrel_at >= r.match_target):
        out.append(r.barrel_rule)  # a total set to the barrel, not one that won there
    return out


def dump_rules(before: Sequence[int], state: GameState) -> set[str]:
    """The rule of a total reset to 0 (Thousand's 555) where the hand that just ended
    took a side's total from ``before`` (the running totals before it) to exactly the
    dump value, and the total now stands at 0.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand", {"dump_at_555": "positive"}), seed=1)
    >>> dump_rules([0, 0, 0], state)  # no hand ended yet
    set()
    """
    r = state.rules
    if r.dump_rule is None or not state.history:
        return set()
    added = state.history[-1].score
    for t, now in enumerate(state.match_scores):
        total = before[t] + added[t]
        if now == 0 and total and (total == r.dump_value or (
                r.dump_negative and total == -r.dump_value)):
            return {r.dump_rule}
    return set()


def phase_rules(state: GameState, before: Phase) -> set[str]:
    """The rule IDs a step that left phase ``before`` for the state's phase exercises:
    the end of the auction (and the talon shown at its end), and the lead of the first
    trick of a contract (who leads it).

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand"), seed=1)
    >>> while state.phase == Phase.AUCTION:
    ...     state.apply(state.legal_actions()[-1])
    >>> sorted(phase_rules(state, Phase.AUCTION))
    ['thousand.auction.end', 'thousand.talon.shown']
    """
    r = state.rules
    out: list[str | None] = []
    if before == Phase.AUCTION and state.phase != Phase.AUCTION:
        out += [r.auction_end_rule, r.talon_shown_rule]
    if before == Phase.BIDDING and state.phase == Phase.PLAY:  # a bid won a suit auction
        out.append(r.sa_rule)
    if state.phase == Phase.PLAY and before != Phase.PLAY and state.declarer >= 0 \
            and not state.tricks and not state.trick_cards:
        out.append(r.contract_lead_rule)
    return {x for x in out if x}


def trick_rules(state: GameState, tricks_before: int) -> set[str]:
    """The rule IDs a step that ended the first trick exercises (the table held
    ``tricks_before`` tricks before it): the announcements shown when it is over."""
    r = state.rules
    if tricks_before == 0 and len(state.tricks) == 1 and state.announced and \
            r.announce_show != "none":
        return {r.announce_show_rule} if r.announce_show_rule else set()
    return set()


def node_rules(state: GameState, taken: Action | None) -> set[str]:
    """The rule IDs one step exercises: the refusal of each card in the hand of the seat
    to act that may not be played, and the offer of the action ``taken``."""
    out: set[str] = set(card_refusals(state))
    if taken is not None:
        out.update(offer_rules(state, taken))
        if isinstance(taken, Declare):  # declaring scores it, may set trump, is credited
            d = state.rules.declarations[taken.decl]
            out.update(x for x in (d.value_rule, d.trump_rule, d.credit_rule) if x)
    return out
