"""The observation shows the auction's present where the rules bid for a contract: the
highest bid and its holder, the contract and the declarer, the doublings, the suit or
strain bid, who passed and the passes so far (:func:`mariage.ai.layout.bidding_of`),
read back from the values its feature names name. Without them a seat bid blind and
played without knowing the contract: a Thousand's auction looked the same before and
after three bids."""

from __future__ import annotations

import numpy as np
import pytest
from mariage import load_rules, new_match
from mariage.ai.encoding import Encoder
from mariage.ai.layout import bid_scale, bidding_of
from mariage.ai.policies import make_policy


def _read(names: list[str], vector: np.ndarray, part: str) -> list[str]:
    """The labels of the values of ``part`` that are set."""
    return [n[len(part) + 1:-1] for n, x in zip(names, vector, strict=True)
            if n.startswith(part + "[") and x]


@pytest.mark.parametrize("name", ["thousand", "belote-coinche", "belote", "marjapussi-de"])
def test_the_observation_shows_the_auction(name: str) -> None:
    rules = load_rules(name)
    enc = Encoder(rules)
    names = enc.feature_names()
    at = {n: i for i, n in enumerate(names)}
    scale, n = bid_scale(rules), rules.nseats
    suits = (*rules.suits, *rules.strain_names)
    seen: dict[tuple[int, bytes], tuple[object, ...]] = {}
    bids = 0
    for seed in range(3):
        state = new_match(rules, seed)
        policy = make_policy("random", seed=seed)
        while not state.terminal and state.hand_no <= 1:
            (high, holder, declarer, contract, doubled, bid_suit, strain, passed,
             passes) = now = bidding_of(state)
            bids += high > 0
            for seat in range(n):
                v = enc.vector(state, seat)
                assert seen.setdefault((seat, v.tobytes()), now) == now, \
                    "one observation, two auctions"
                assert v[at["bid[0]"]] * scale == pytest.approx(high)
                assert v[at["contract[0]"]] * scale == pytest.approx(contract)
                assert v[at["doubled[0]"]] == doubled
                assert v[at["passes[0]"]] * n == pytest.approx(passes)
                assert _read(names, v, "bid_holder") == \
                    [str((holder - seat) % n) if holder >= 0 else "none"]
                assert _read(names, v, "declarer") == \
                    [str((declarer - seat) % n) if declarer >= 0 else "none"]
                assert _read(names, v, "passed") == \
                    sorted(str((q - seat) % n) for q in range(n) if passed[q])
                if rules.sa_rule:
                    assert _read(names, v, "bid_suit") == \
                        [suits[bid_suit] if bid_suit >= 0 else "none"]
                if rules.strain_names:
                    assert _read(names, v, "strain") == \
                        [suits[strain] if strain >= 0 else "none"]
            state.apply(policy.choose(state))
    assert bids or name == "belote"  # (bids met)
