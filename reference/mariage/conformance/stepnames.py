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
* what the seat **sitting the hand out** scores (the three-handed Sixty-six's dealer):
  every hand scored while a seat sits out exercises it, a hand with a winner (he scores
  as much) or a drawn one (he scores nothing) (:func:`sitting_out_rules`).

>>> from mariage import load_rules, new_match
>>> state = new_match(load_rules("marianna"), seed=1)
>>> cut_off_refusals(state)   # the window is open at the first trick
{}
>>> sitting_out_rules(state, True)   # nobody sits out in Marianna
set()
"""

from __future__ import annotations

from mariage.engine.actions import Action, Declare
from mariage.engine.state import GameState, Phase

from .ruleprobe import refusal_rule

__all__ = ["cut_off_refusals", "sitting_out_rules"]


def cut_off_refusals(state: GameState) -> dict[str, tuple[Action, str]]:
    """The cut-off of the whole-hand declarations (``rules.decl_combo_window_rule``) ->
    the first whole-hand declaration the seat to act tries now and the window's rule it
    is refused by; empty where there is no such cut-off or none is refused by it now."""
    r = state.rules
    rule = r.decl_combo_window_rule
    if not rule or state.to_act is None or state.phase != Phase.PLAY:
        return {}
    whole = [d for d in r.declarations if d.whole_hand]
    if not whole or state.mech.declarations.window_open(state, whole[0].window):
        return {}
    tried = Declare(whole[0].index, 0)  # the window is judged before the cards held
    return {rule: (tried, whole[0].window_rule)} \
        if refusal_rule(state, tried) == whole[0].window_rule else {}


def sitting_out_rules(state: GameState, ended: bool) -> set[str]:
    """The rule on what the seat sitting the hand out scores, where the last step
    (``ended``) ended a hand scored while a seat sat it out."""
    r = state.rules
    rule = r.sitter_score_rule
    if not (ended and rule and r.sitter_score != "none" and state.out >= 0):
        return set()
    return {rule} if state.history and state.history[-1].ended != "redeal" else set()
