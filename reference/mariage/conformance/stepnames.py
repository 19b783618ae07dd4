"""Rules a step exercises through another rule: a refusal charged to a wider rule, the
score of a seat that sat the hand out.

The exercise search (:mod:`mariage.conformance.exercise`) names the rules each step
exercises as a golden match does (:mod:`mariage.conformance.ruleprobe`). Some rules
of the spec the reference never names by their own ID, because a wider rule acts for
them; a step where that rule acts on their behalf exercises them all the same:

* the **cut-off of the whole-hand declarations** where it is the declarations' own
  window (Marianna's ``combination_window=declarations``, whatever that window is:
  the stock, or one trick more under ``trick_six``): a mariannino tried after the
  window closed is refused by the window's rule, and the test that tries it checks the
  cut-off too (:func:`cut_off_refusals`);
* that **asking is the asker's declaration** for the trick (Siciliana's split marriage):
  the asker, once answered, tries to declare and is refused by the rule of one
  declaration a trick (:func:`spent_declaration_refusals`);
* whether a **split marriage that scored counts in the order** of the mariannas' values:
  a marianna declared after it in the hand, its value set by that order; and a split
  **spoiled** by a declaration that set trump in its trick: the trick that ends it, won
  by the asking side, scores nothing (:func:`split_rules`);
* the **settling of an ask at once** (Marjapussi's: the marriage named or completed
  in answer is declared for the side): the yes that settles it (:func:`settled_rules`);
* **calls** (German Marjapussi's): one by a seat that has not just won a trick, or of
  a suit called already, refused (:func:`call_refusals`); one that succeeds makes its
  suit trump (:func:`offered_rules`); whether the contract is made and a side without a
  trick at the end of every hand played out, where no running totals name them
  (:func:`hand_end_rules`);
* the **last trick's card points** of a hand played out, the game points a **drawn hand
  carries** to the next hand with a winner (Sixty-six for four) (:func:`hand_end_rules`);
* what the seat **sitting the hand out** scores (the three-handed Sixty-six's dealer):
  every hand scored while a seat sits out exercises it, a hand with a winner (he scores
  as much) or a drawn one (he scores nothing) (:func:`sitting_out_rules`).

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("marianna"), seed=1)
>>> cut_off_refusals(state), borrowed_refusals(state)  # the window open, nobody asked
({}, {})
>>> split_rules(state, state.legal_actions()[0])
set()
>>> sitting_out_rules(state, True)   # nobody sits out in Marianna
set()
"""

from __future__ import annotations

from mariage.engine.actions import Action, Answer, AskPartner, Call, Declare, Play
from mariage.engine.rules import Ask
from mariage.engine.state import GameState, Phase

from .ruleprobe import refusal_rule

__all__ = [
    "asked_this_trick",
    "borrowed_refusals",
    "call_refusals",
    "capot_replaces_last",
    "carried_draw_rules",
    "cut_off_refusals",
    "hand_end_rules",
    "held_but_spent",
    "offered_rules",
    "settled_rules",
    "sitting_out_rules",
    "spent_declaration_refusals",
    "split_rules",
]


def borrowed_refusals(state: GameState) -> dict[str, tuple[Action, str]]:
    """Rule -> an action refused now by a wider rule acting for it, and that rule: the
    cut-off of the whole-hand declarations (:func:`cut_off_refusals`), the ask that is
    the asker's declaration for the trick (:func:`spent_declaration_refusals`); and a
    call refused by its own rule (:func:`call_refusals`)."""
    return {**cut_off_refusals(state), **spent_declaration_refusals(state),
            **call_refusals(state)}


def call_refusals(state: GameState) -> dict[str, tuple[Action, str]]:
    """Where the rules have calls (German Marjapussi's): a call by a seat that has not
    just won a trick, refused by the rule on who calls; by the winner, his pair of a
    suit called already, refused by the rule of once a suit."""
    r = state.rules
    seat = state.to_act
    if r.calls_rule is None or seat is None or state.phase != Phase.PLAY:
        return {}
    if seat != state.leader or state.trick_cards or state.trick_no <= 1:
        tries: list[Call] = [Call(0)]
    else:
        tries = [Call(s) for s in range(len(r.suits)) if state.called >> s & 1
                 and state.hands[seat] & r.call_pair_masks[s] == r.call_pair_masks[s]]
    for tried in tries:
        rule = refusal_rule(state, tried)
        if rule and rule in (r.calls_rule, r.call_once_rule):
            return {rule: (tried, rule)}
    return {}


def spent_declaration_refusals(state: GameState) -> dict[str, tuple[Action, str]]:
    """Where an ask is the asker's declaration for the trick: its rule -> a declaration
    the asker holds and tries after it, refused now only by the rule of one declaration
    a trick (that rule's ID); empty where he holds none (:func:`held_but_spent`)."""
    r = state.rules
    per_trick = r.decl_per_trick_rule
    asked = asked_this_trick(state)
    if asked is None or not asked.declaring_rule or not per_trick:
        return {}
    for tried in held_but_spent(state):
        if refusal_rule(state, tried) == per_trick:
            return {asked.declaring_rule: (tried, per_trick)}
    return {}


def held_but_spent(state: GameState) -> list[Declare]:
    """The declarations the seat to act could make now had he not declared (or asked)
    in this trick: those legal on a copy with his declarations of the trick reset.

    >>> from mariage import load_rules, new_match
    >>> held_but_spent(new_match(load_rules("marianna-siciliana"), seed=2))
    []
    """
    seat = state.to_act
    if seat is None:
        return []
    trial = state.clone()
    trial.decl_this_trick[seat] = 0
    return [a for a in trial.legal_actions() if isinstance(a, Declare)]


def asked_this_trick(state: GameState) -> Ask | None:
    """The ask the seat to act made before leading this trick, where it is his
    declaration for the trick (``None`` if he made none, or it is not).

    >>> from mariage import load_rules, new_match
    >>> asked_this_trick(new_match(load_rules("marianna-siciliana"), seed=2)) is None
    True
    """
    r = state.rules
    seat = state.to_act
    if not r.asks or seat is None or state.phase != Phase.PLAY or state.trick_cards \
            or seat != state.leader:
        return None
    for by, action in reversed(state.actions):
        if isinstance(action, Play):  # the last trick's cards: no ask in this one
            return None
        if by == seat and isinstance(action, AskPartner) and 0 <= action.ask < len(r.asks):
            ask = r.asks[action.ask]
            return ask if ask.uses_declaration else None
    return None


def offered_rules(state: GameState, taken: Action) -> set[str]:
    """The rules taking ``taken`` at ``state`` exercises besides its offer: those of an
    ask or a split marriage (:func:`split_rules`); a call that succeeds makes its suit
    trump (a pair announced, or named in answer to the question for a pair)."""
    r = state.rules
    out = split_rules(state, taken)
    pair = state.question is not None and state.question[0] == 0  # "a pair?" asked
    if r.call_trump_rule and (isinstance(taken, Call) or (
            isinstance(taken, Answer) and taken.yes and pair)):
        out.add(r.call_trump_rule)
    return out


def split_rules(state: GameState, taken: Action) -> set[str]:
    """The rules of an ask ``taken`` at ``state`` exercises (:func:`settled_rules`) and
    those of a split marriage: a marianna
    declared after a split scored in the hand (its value by the order of values), the
    card that ends the trick of a split the asking side wins, where a declaration that
    set trump in it spoils the split (nothing scored)."""
    r = state.rules
    if not r.asks:
        return set()
    out: set[str] = set()
    if isinstance(taken, Declare) and 0 <= taken.decl < len(r.declarations) and \
            r.declarations[taken.decl].ordered:
        out.update(r.asks[-1 - kind].order_rule for _, kind, _, _ in state.declared
                   if kind < 0)
    split = state.split
    if split is not None and isinstance(taken, Play) and \
            len(state.trick_cards) == r.hand_seats - 1:
        ask, team = r.asks[split[0]], split[1]
        trial = state.clone()
        trial.apply(taken)
        scored = any(kind == -1 - ask.index for _, kind, _, _ in trial.declared[
            len(state.declared):])
        if r.team_of[trial.last_winner] == team and not scored:
            out.add(ask.spoiled_rule)
    out.discard("")
    return out | settled_rules(state, taken)


def settled_rules(state: GameState, taken: Action) -> set[str]:
    """The settling rule of the ask awaiting an answer, where ``taken`` is a yes that
    settles it at once (the marriage named or completed is declared for the side)."""
    pending = state.pending_ask
    if not isinstance(taken, Answer) or not taken.yes or pending is None:
        return set()
    ask = state.rules.asks[pending[0]]
    return {ask.settle_rule} if ask.settle == "at_once" and ask.settle_rule else set()


def cut_off_refusals(state: GameState) -> dict[str, tuple[Action, str]]:
    """The cut-off of the whole-hand declarations (``rules.decl_combo_window_rule``) ->
    a whole-hand declaration the seat to act holds (legal but for its window, closed
    now) and the window's rule it is refused by; empty where there is no such cut-off or
    the seat holds none of them after the window."""
    r = state.rules
    rule = r.decl_combo_window_rule
    if not rule or state.to_act is None or state.phase != Phase.PLAY:
        return {}
    seat, decls = state.to_act, state.mech.declarations
    for d in r.declarations:
        if not d.whole_hand or decls.window_open(state, d.window):
            continue
        for suit in decls.melds(state, d, seat, state.hands[seat]):  # held: legal but
            tried = Declare(d.index, suit)                          # for the window
            if refusal_rule(state, tried) == d.window_rule:
                return {rule: (tried, d.window_rule)}
    return {}


def hand_end_rules(state: GameState, ended: bool) -> set[str]:
    """The rules the end of a hand by the last step (``ended``) exercises besides those
    :func:`~mariage.conformance.ruleprobe.ending_rules` names: what the seat sitting it
    out scores (:func:`sitting_out_rules`), the game points carried from a drawn hand
    (:func:`carried_draw_rules`); of a hand played out, the last trick's card points
    (but a capot's, :func:`capot_replaces_last`);
    where no running totals name it, whether the contract is made (a hand nobody bid is
    neither), and a side that took no trick (schwarz)."""
    out = sitting_out_rules(state, ended) | carried_draw_rules(state, ended)
    r = state.rules
    if not ended or state.hand_over_reason != "played_out":
        return out
    if r.last_trick_rule and r.last_trick_points and not capot_replaces_last(state):
        out.add(r.last_trick_rule)  # the last trick's card points
    if r.contract_result_rule and not r.running_rule:
        out.add(r.contract_result_rule)
    if r.schwarz_rule and 0 in state.tricks_won[:len(r.teams)]:
        out.add(r.schwarz_rule)
    return out


def capot_replaces_last(state: GameState) -> bool:
    """Whether the hand just played out was a capot whose bonus replaces the last
    trick's card points: where the rules have takers, one side won every trick (the
    capot's value counted instead of the last trick's, as the takers' scoring does).

    >>> from mariage import load_rules, new_match
    >>> capot_replaces_last(new_match(load_rules("belote"), seed=1))
    False
    """
    r = state.rules
    return r.takers_rule is not None and \
        r.hand_size + state.draw_tricks in state.tricks_won[:len(r.teams)]


def carried_draw_rules(state: GameState, ended: bool) -> set[str]:
    """The rule on the game points a drawn hand carries to the next hand with a winner,
    where the last step (``ended``) ended a hand won after a drawn one."""
    r = state.rules
    history = state.history
    if not (ended and r.draw_bonus_rule and r.draw_bonus and len(history) >= 2):
        return set()
    drawn, won = history[-2], history[-1]
    return {r.draw_bonus_rule} if drawn.winner is None and won.winner is not None \
        and drawn.ended == "played_out" else set()


def sitting_out_rules(state: GameState, ended: bool) -> set[str]:
    """The rule on what the seat sitting the hand out scores, where the last step
    (``ended``) ended a hand scored while a seat sat it out."""
    r = state.rules
    rule = r.sitter_score_rule
    if not (ended and rule and r.sitter_score != "none" and state.out >= 0):
        return set()
    return {rule} if state.history and state.history[-1].ended != "redeal" else set()
