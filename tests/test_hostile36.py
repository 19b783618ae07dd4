"""The thirty-sixth session's hostile sweep: fuzzed records, descriptions, engine requests
and calls of the API.

Each test names what happened before its fix.
"""

from __future__ import annotations

from hostilekit import deadline
from mariage import GameState, load_rules
from mariage.arena.hiding import SeatView
from mariage.conformance.engine import ReferenceEngine
from mariage.conformance.protocol import seat_state_json
from mariage.engine.actiontext import action_text
from mariage.engine.deals import canonical_deck


def test_an_action_out_of_turn_told_to_a_hidden_hand_is_refused_at_once() -> None:
    """A seat told that seat 3 is to act, then sent a card of seat 1 (a runner out of step,
    or a hostile one), searched every deal for a minute before it refused (17 s in
    Mariglia, 69 s in Belote): no deal keeps the ``to_act`` it was told and lets seat 1
    play."""
    rules = load_rules("mariglia")
    referee = GameState(rules, first_dealer=0)
    deck = canonical_deck(rules)
    referee.deal(deck)
    view = SeatView(0)
    engine = ReferenceEngine()
    assert engine.handle({"type": "start", "ruleset": "mariglia", "dealer": 0, "seat": 0,
                          "deck": view.deal(referee, deck)}) == {"type": "ok"}
    for _ in range(2):
        seat, action = referee.to_act, referee.legal_actions()[0]
        referee.apply(action)
        assert engine.handle({"type": "apply", "action": action_text(rules, action),
                              "seat": seat, "state": seat_state_json(referee, 0)}
                             ) == {"type": "ok"}
    assert referee.to_act == 3
    card = rules.card_code[rules.cards_of(referee.hands[1])[0]]
    with deadline(5):
        reply = engine.handle({"type": "apply", "action": card, "seat": 1})
    assert reply["rule"] == "core.turn" and "it is seat 3's turn" in reply["message"]
    # the seat told to act still plays
    action = referee.legal_actions()[0]
    assert engine.handle({"type": "apply", "action": action_text(rules, action), "seat": 3}
                         ) == {"type": "ok"}
