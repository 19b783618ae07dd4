"""An ask sent while an ask waits for its answer is refused by ``core.phase``.

``docs/protocol.rst`` orders the refusals: ``core.turn`` first, then ``core.phase``
for an action of a kind not taken now ("an ask waiting for its answer"), then the
ruleset's own rules. The reference refused an ask from the partner due to answer
under the ask's own rule (``marjapussi.ask.any``), where a marriage sent at the same
moment got ``core.phase`` (found by the Node.js Marjapussi engine written from the
docs, twenty-fifth session).
"""

from __future__ import annotations

import pytest
from mariage import IllegalActionError, load_rules, new_match
from mariage.engine.actions import AskPartner
from mariage.engine.prng import SplitMix64
from mariage.engine.state import GameState, Phase


def _answers(seed: int, steps: int = 3000) -> list[GameState]:
    """Copies of the states of a seeded random Marjapussi match where an answer is due."""
    state = new_match(load_rules("marjapussi"), seed=seed)
    rng = SplitMix64(seed)
    out: list[GameState] = []
    while state.phase != Phase.OVER and steps:
        steps -= 1
        if state.phase == Phase.ANSWER:
            out.append(state.clone())
        acts = state.legal_actions()
        state.apply(acts[rng.below(len(acts))])
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_ask_awaiting_its_answer_refuses_another_by_the_phase(seed: int) -> None:
    """Fails before the change: the ask's own rule was named."""
    states = _answers(seed)
    assert states, "the random match met no ask"
    rules = states[0].rules
    for st in states:
        seat = st.to_act
        assert seat is not None
        for ask in range(len(rules.asks)):
            for suit in (-1, 0):
                with pytest.raises(IllegalActionError) as err:
                    st.apply(AskPartner(ask, suit))
                assert err.value.rule_id == rules.core_phase
