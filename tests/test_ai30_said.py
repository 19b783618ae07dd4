"""The observation holds what the seats said this hand (:mod:`mariage.ai.sayings`): two
states that differ only by something said give every seat different vectors. A
branch says it (an announcement of the Belote family, the pair of trumps said with its
card, a question to the partner in Marjapussi or the Sicilian forms, with its answer),
the other does not, and both then play the same cards: before the ``said`` part the
seats saw the same vector in both (once the trick was over, nothing else told them)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mariage import list_rulesets, load_rules, new_match
from mariage.ai.encoding import Encoder
from mariage.ai.layout import observation_features
from mariage.ai.sayings import has_sayings, said_labels
from mariage.engine.actions import Action, Announce, Answer, AskPartner, Play, Question, SayPair
from mariage.engine.phase import Phase
from mariage.engine.state import GameState


def _said_branch(state: GameState, kind: type) -> tuple[list[Action], Action] | None:
    """Where the seat to act may say something of ``kind`` before (or with) a card:
    what it says (a question with its partner's no) and the card it then plays; None
    where it may not."""
    if state.phase != Phase.PLAY:
        return None
    legal = state.legal_actions()
    plays = [a for a in legal if type(a) is Play]
    for a in legal:
        if type(a) is not kind:
            continue
        if type(a) is SayPair:
            return [], a  # (its card is Play(a.card) in the other branch)
        if type(a) is Announce and plays:
            return [a], plays[0]
        if type(a) in (Question, AskPartner):
            after = state.clone()
            after.apply(a)
            answer = after.legal_actions()[-1]  # (a no where the partner may refuse)
            after.apply(answer)
            if type(answer) is Answer and not answer.yes:
                plays = [p for p in after.legal_actions() if type(p) is Play]
                if plays:
                    return [a, answer], plays[0]
    return None


def _branches(name: str, kind: type) -> tuple[GameState, GameState]:
    """Two states of random play of ``name``: one where a seat said something and
    played a card, one where it played the same card without a word, the rest of the
    trick played the same."""
    rules = load_rules(name)
    for seed in range(40):
        state = new_match(rules, seed)
        rng = random.Random(seed)
        while state.to_act is not None and state.hand_no <= 2:
            branch = _said_branch(state, kind)
            if branch is not None:
                said, card = branch
                talking, silent = state.clone(), state.clone()
                for a in said:
                    talking.apply(a)
                talking.apply(card)
                silent.apply(Play(card.card) if type(card) is SayPair else card)
                while talking.trick_cards and talking.phase == Phase.PLAY:
                    plays = [a for a in talking.legal_actions() if type(a) is Play]
                    if not plays or plays != [a for a in silent.legal_actions()
                                              if type(a) is Play]:
                        break
                    talking.apply(plays[0])
                    silent.apply(plays[0])
                else:
                    return talking, silent
            legal = [a for a in state.legal_actions()
                     if type(a) not in (Announce, SayPair, Question, AskPartner)] \
                or state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    raise AssertionError(f"{name}: nothing said in 40 matches")


@pytest.mark.parametrize(("name", "kind"), [
    ("belote", Announce), ("belote", SayPair), ("belote-coinche", Announce),
    ("belote-contree", SayPair), ("marjapussi", AskPartner), ("marjapussi-de", Question),
    ("marianna-siciliana", AskPartner)])
def test_what_was_said_tells_states_apart(name: str, kind: type) -> None:
    talking, silent = _branches(name, kind)
    enc = Encoder(talking.rules)
    assert talking.hands == silent.hands and talking.tricks == silent.tricks
    for seat in range(talking.rules.nseats):
        assert not np.array_equal(enc.vector(talking, seat), enc.vector(silent, seat)), \
            (name, seat)


def test_only_rulesets_that_say_things_have_a_said_part() -> None:
    """The part's size is the seats times one block of labels, none for a ruleset
    with nothing to say; its values are named after it."""
    for name in list_rulesets():
        rules = load_rules(name)
        feats = {f.name: f for f in observation_features(rules)}
        block = said_labels(rules)
        assert has_sayings(rules) == ("said" in feats) == bool(block)
        if block:
            enc = Encoder(rules)
            names = enc.feature_names()
            assert len(names) == enc.size
            part = feats["said"]
            assert part.size == rules.nseats * len(block)
            assert names[part.offset:part.offset + part.size] == \
                [f"said[{k}:{label}]" for k in range(rules.nseats) for label in block]
    assert not has_sayings(load_rules("thousand"))
