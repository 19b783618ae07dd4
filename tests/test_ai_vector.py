"""The observation vector's generated code (:mod:`mariage.ai.vectorcode`) against the
layout it documents, for every ruleset and seat, after every step of random play.

The expected vector is written here from scratch, part by part, by the names and offsets
of :func:`mariage.ai.layout.observation_features` (the tables of ``docs/ai.rst``) and the
meanings they state, from the state's fields: no code of the encoder is used to make it.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.encoding import Encoder
from mariage.ai.layout import Feature, action_list, feature_names, observation_features
from mariage.engine.actions import Action
from mariage.engine.actiontext import action_text
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules
from mariage.engine.state import GameState

RULESETS = list_rulesets()
#: id of the rules -> (the rules, their features by name, the auction's scale): the
#: layout's tables of a ruleset, read once (every action it could offer was listed again
#: for each vector, nine tenths of the test's time)
_TABLES: dict[int, tuple[Rules, dict[str, Feature], int, dict[str, int]]] = {}


def _tables(r: Rules) -> tuple[dict[str, Feature], int, dict[str, int]]:
    """The features of ``r``'s layout by name, the scale of its bids (the greatest
    whole-number value of an action, or 1), and the place of each name in ``said``."""
    held = _TABLES.get(id(r))
    if held is None or held[0] is not r:
        feats = {f.name: f for f in observation_features(r)}
        scale = max((a.value for a in action_list(r)
                     if type(getattr(a, "value", None)) is int), default=0) or 1
        place = ({name: k for k, name in enumerate(feature_names(r, (feats["said"],)))}
                 if "said" in feats else {})
        held = _TABLES[id(r)] = (r, feats, scale, place)
    return held[1], held[2], held[3]


def standing_divisor(r: Rules) -> float:
    """What the standing is divided by, written here from the docs' table: the target,
    or for a match of a number of hands the hands times the larger of the highest bid and
    twice the pack's points."""
    if r.match_measure == "hands_played":
        return max(1, r.match_target) * max(1, r.bid_max, 2 * r.pack_points)
    return max(1, r.match_target)


def _cards(out: np.ndarray, at: int, cards: int) -> None:
    """Set 1 at ``at + c`` for each card ``c`` of the bit mask ``cards``."""
    for c in range(cards.bit_length()):
        if cards >> c & 1:
            out[at + c] = 1.0


def expected(state: GameState, seat: int, picked: int, open_hands: bool) -> np.ndarray:
    """The vector of ``seat`` as the layout's table describes it, part by part."""
    r = state.rules
    n, c, t = r.nseats, r.ncards, len(r.teams)
    feats = _tables(r)[0]
    size = sum(f.size for f in feats.values())
    out = np.zeros(size, np.float32)
    seats = [(seat + k) % n for k in range(n)]  # counted from the observer
    team = r.team_of[seat]
    sides = [(team + k) % t for k in range(t)]
    _cards(out, feats["hand"].offset, state.hands[seat])
    for k in range(1, n):
        other = seats[k]
        shown = state.hands[other] if open_hands else state.known[other] & state.hands[other]
        _cards(out, feats[f"known_hand_{k}"].offset, shown)
    played = 0
    for _, cards, _ in state.tricks:
        for card in cards:
            played |= 1 << card
    for k, card in enumerate(state.trick_cards):
        out[feats[f"trick_card_{k}"].offset + card] = 1.0
        played |= 1 << card
    _cards(out, feats["played"].offset, played)
    out[feats["turn_up"].offset + (c if state.turn_up is None else state.turn_up)] = 1.0
    out[feats["trump"].offset + (len(r.suits) if state.trump < 0 else state.trump)] = 1.0
    out[feats["phase"].offset + list(Phase).index(state.phase)] = 1.0
    to_act = state.to_act
    out[feats["to_act"].offset + (n if to_act is None else (to_act - seat) % n)] = 1.0
    if state.phase not in (Phase.DEAL, Phase.OVER):
        out[feats["leader"].offset + (state.leader - seat) % n] = 1.0
    for k, other in enumerate(seats):
        out[feats["hand_sizes"].offset + k] = state.hands[other].bit_count() / c
    out[feats["stock_size"].offset] = len(state.stock) / c
    standing = state.standing()
    for k, side in enumerate(sides):
        out[feats["hand_points"].offset + k] = \
            (state.captured[side] + state.decl_points[side]) / (r.pack_points or 1)
        out[feats["standing"].offset + k] = standing[side] / standing_divisor(r)
    for _, kind, suit, _ in state.declared:
        if kind >= 0:
            out[feats["declared"].offset + kind * len(r.suits) + suit] = 1.0
    bidding_part(out, feats, state, seat)
    said_part(out, feats, state, state.actions, seat)
    if "picked" in feats and picked and (open_hands or to_act == seat):
        _cards(out, feats["picked"].offset, picked)
    return out


def said_part(out: np.ndarray, feats: dict[str, Feature], state: GameState,
              actions: Sequence[tuple[int, Action]], seat: int) -> None:
    """What was said, where the layout has it, from the hand's actions (or a view's):
    each statement by its text, each question by its text and the next action's (the
    answer), ``?`` while there is none, in the block of the seat that said it; the pair
    of trumps said (kept by the state: its action is the card's play) by its suit."""
    if "said" not in feats:
        return
    r = state.rules
    n = r.nseats
    feats_of_r, _, place = _tables(r)
    if feats_of_r.get("said") != feats["said"]:  # (a caller's own features)
        place = {name: k for k, name in enumerate(feature_names(r, (feats["said"],)))}
    said = []
    for k, (who, action) in enumerate(actions):
        if type(action).__name__ in ("Announce", "Call"):
            said.append((who, action_text(r, action)))
        elif type(action).__name__ in ("Question", "AskPartner"):
            answer = actions[k + 1][1] if k + 1 < len(actions) else None
            said.append((who, action_text(r, action) + "=" +
                         ("?" if answer is None else action_text(r, answer))))
    if r.pair_rule is not None and r.pair_declare == "explicit":  # (said aloud, not
        # scored by itself)
        pairs = [*state.pairs_said, *([(state.pair_by, state.trump)]
                                      if state.pair_by >= 0 else [])]
        said += [(who, f"{r.pair_word}:{r.suits[suit]}") for who, suit in pairs]
    for who, label in said:
        out[feats["said"].offset + place[f"said[{(who - seat) % n}:{label}]"]] = 1.0


def bidding_part(out: np.ndarray, feats: dict[str, Feature], state: GameState,
                 seat: int) -> None:
    """The auction's parts, where the layout has them, from the state's fields."""
    if "bid" not in feats:
        return
    r = state.rules
    n, s = r.nseats, len(r.suits)
    scale = _tables(r)[1]
    for part, q in (("bid_holder", state.high_bidder), ("declarer", state.declarer)):
        out[feats[part].offset + (n if q < 0 else (q - seat) % n)] = 1.0
    if feats["bid_suit"].size:
        none = s + len(r.strain_names)
        out[feats["bid_suit"].offset + (none if state.bid_suit < 0 else state.bid_suit)] = 1.0
    if feats["strain"].size:
        out[feats["strain"].offset + (len(r.strain_names) if state.strain < 0
                                      else state.strain - s)] = 1.0
    for q in range(n):
        out[feats["passed"].offset + (q - seat) % n] = float(state.auction_passed[q])
    out[feats["bid"].offset] = state.high_bid / scale
    out[feats["contract"].offset] = state.contract / scale
    out[feats["doubled"].offset] = state.kontras
    out[feats["passes"].offset] = state.pass_step / n


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), picked=st.sampled_from([0, 0b1001, 0b110]))
def test_every_vector_is_the_layouts(name: str, seed: int, picked: int) -> None:
    """After every step of a random match (up to 3 hands), every seat's vector, as
    observed and as the open-handed global state, live and from a snapshot taken then
    and read after the state moved on, equals the layout's, value for value."""
    rules = load_rules(name)
    encoders = [Encoder(rules), Encoder(rules, open_hands=True)]
    state = new_match(rules, seed)
    rng = random.Random(seed)
    held = []  # (encoder, snapshot, seat, the vector it must give)
    while state.to_act is not None and state.hand_no <= 3:
        for enc in encoders:
            for seat in range(rules.nseats):
                want = expected(state, seat, picked, enc.open_hands)
                got = enc.vector(state, seat, picked)
                assert got.dtype == np.float32 and got.shape == want.shape
                assert np.array_equal(got, want), (name, seed, len(state.history), seat)
                if rng.random() < 0.1:
                    held.append((enc, enc.snapshot(state, picked), seat, want))
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for enc, snapshot, seat, want in held:  # read after the state moved on
        assert np.array_equal(enc.vector_of(snapshot, seat), want)


def test_a_vector_is_never_changed_by_the_next() -> None:
    """Each vector is an array of its own: those kept stay as they were made."""
    rules = load_rules("marianna")
    enc = Encoder(rules)
    state = new_match(rules, 7)
    kept = []
    for _ in range(12):
        vec = enc.vector(state, 0)
        kept.append((vec, vec.copy()))
        state.apply(state.legal_actions()[0])
    assert all(np.array_equal(v, was) for v, was in kept)
    assert len({id(v) for v, _ in kept}) == len(kept)


def test_an_encoder_pickles_and_copies() -> None:
    """An encoder's generated functions are made again when it is unpickled; a copy
    makes the same vectors."""
    rules = load_rules("thousand")
    enc = Encoder(rules)
    state = new_match(rules, 3)
    for _ in range(9):
        state.apply(state.legal_actions()[-1])
    for other in (pickle.loads(pickle.dumps(enc)), copy.deepcopy(enc)):
        for seat in range(rules.nseats):
            assert np.array_equal(other.vector(state, seat), enc.vector(state, seat))
