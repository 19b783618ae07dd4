"""The observation tensor's values are what their names say: read by name from
``Encoder.feature_names()``, they agree with the observation string of the same seat
(``seat A hand 1 trick 1 cards [..] shown B[..] table [B:KS] trump C turnup AC stock
10 ...``), a text made by another path. Seats in the names count from the observer."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the ai extra) is not installed")

from families import by_family  # noqa: E402
from mariage import load_rules  # noqa: E402
from mariage.ai import openspiel_game  # noqa: E402
from mariage.ai.encoding import Encoder  # noqa: E402


def on(names: dict[str, int], v: list[float], prefix: str) -> list[str]:
    """The bracketed keys of the features ``prefix[...]`` whose value is 1."""
    return sorted(n[len(prefix) + 1:-1] for n, i in names.items()
                  if n.startswith(prefix + "[") and v[i] == 1.0)


def check_view(rules: Any, names: dict[str, int], text: str, v: list[float],
               player: int) -> None:
    n = rules.nseats
    seat_no = {name: s for s, name in enumerate(rules.seat_names)}
    cards = re.search(r" cards \[([^\]]*)\]", text)
    assert cards is not None, text
    assert on(names, v, "hand") == sorted(cards.group(1).split()), text
    for seat, shown in re.findall(r" (\w+)\[([^\]]*)\]", text.split(" table ")[0]):
        if seat in seat_no:  # another seat's shown cards: known_hand_<from the observer>
            k = (seat_no[seat] - player) % n
            assert on(names, v, f"known_hand_{k}") == sorted(shown.split()), text
    table = re.search(r" table \[([^\]]*)\]", text)
    assert table is not None
    entries = table.group(1).split()
    for pos in range(n):  # trick_card_<position in the trick>: the cards on the table
        want = [entries[pos].split(":")[1]] if pos < len(entries) else []
        assert on(names, v, f"trick_card_{pos}") == want, text
    turn_up = re.search(r" turnup (\S+)", text)
    if turn_up is not None and any(k.startswith("turn_up[") for k in names):
        assert on(names, v, "turn_up") == ["none" if turn_up.group(1) == "-"
                                          else turn_up.group(1)], text
    stock = re.search(r" stock (\d+)", text)
    if stock is not None and "stock_size[0]" in names:
        assert v[names["stock_size[0]"]] * rules.ncards == pytest.approx(
            int(stock.group(1))), text


@pytest.mark.parametrize("ruleset", by_family())
def test_the_named_values_agree_with_the_observation_string(ruleset: str) -> None:
    rules = load_rules(ruleset)
    names = {name: i for i, name in enumerate(Encoder(rules).feature_names())}
    game = pyspiel.load_game(openspiel_game.game_name(ruleset))
    rng = random.Random(11)
    views = 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            for p in range(game.num_players()):
                check_view(rules, names, state.observation_string(p),
                           state.observation_tensor(p), p)
                views += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert views > 20


def test_a_part_whose_last_value_means_none_names_it_none() -> None:
    """``to_act[2]`` of a game for two would read as a third seat: the value that
    means nobody (no seat to act, no decision in a slot) is named ``[none]``, the
    others the seats counted from the observer, as the layout's meanings say."""
    from mariage.ai.layout import feature_names, info_state_features, observation_features

    for ruleset in ("schnapsen", "sixty-six-3", "belote-contree"):  # an auction's parts too
        rules = load_rules(ruleset)
        # the values at the deal and the first decision's slot (the others repeat it)
        features = info_state_features(rules)[:len(observation_features(rules)) + 3]
        assert features[-3].name == "slot_0_actor"
        names = feature_names(rules, features)
        for f in features:
            if f.meaning.endswith(("last: none", "last: no decision")) and f.size:
                assert names[f.offset + f.size - 1] == f"{f.name}[none]", (ruleset, f)
        seats = [f"dealt_to_act[{k}]" for k in range(rules.nseats)]
        assert names[names.index(seats[0]):][:rules.nseats] == seats


def test_the_seat_to_act_is_named_from_the_observer() -> None:
    from mariage import new_match, observe

    rules = load_rules("sixty-six-3")
    enc = Encoder(rules)
    names = enc.feature_names()
    state, rng, seen = new_match(rules, seed=4), random.Random(4), set()
    while True:
        for seat in range(rules.nseats):
            to_act = observe(state, seat).to_act
            want = "none" if to_act is None else str((to_act - seat) % rules.nseats)
            v = enc.vector(state, seat)
            assert on(dict(zip(names, range(len(names)), strict=True)), list(v),
                      "to_act") == [want]
            seen.add(want)
        if state.terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    assert seen == {"0", "1", "2", "none"}


def test_the_information_state_tensor_names_every_value() -> None:
    """``InfoStateEncoder.feature_names()``: one name per value of the tensor, in every
    ruleset, each part's first value named after the part (as ``Encoder``'s)."""
    import numpy as np
    from mariage.ai.encoding import InfoStateEncoder
    from mariage.spec.specload import list_rulesets

    for ruleset in list_rulesets():
        enc = InfoStateEncoder(load_rules(ruleset))
        names = enc.feature_names()
        tensor = enc.tensor(np.zeros(enc.start.size, np.float32), [], 0)
        assert len(names) == len(tensor) == enc.size, ruleset
        assert len(set(names)) == len(names), ruleset
        assert all(names[f.offset].startswith(f"{f.name}[") for f in enc.features if f.size)
