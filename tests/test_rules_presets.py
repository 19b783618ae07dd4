"""Per-rule tests of the presets: Marianna for two and for three, and Cinquecento with the
Sicilian split marriage.

Marianna for two: seats A B = 0 1, each his own side; with dealer 1 (B), A leads.
Marianna for three: seats N W S = 0 1 2, each his own side; with dealer 2, N leads.
Cinquecento (Sicilian): seats N W S E = 0 1 2 3 as in Marianna; dealer 3, N leads.

Every option a preset inherits is checked to do in the preset what it does in the
ruleset it comes from, and a whole match is played under it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mariage import GameState, Phase, Rules, load_rules
from mariage.spec.compile import option_specs
from mariage.spec.specload import load_document
from propkit import play_match
from rulekit import (
    cards,
    check_match_target,
    covers,
    legal_texts,
    play,
    play_out,
    play_tricks,
    refused,
    rules_of,
    start,
    suit,
)

A, B = 0, 1
M2, M3, CS = "marianna-2", "marianna-3", "cinquecento-siciliana"


# ---------------------------------------------------------------- Marianna for two
@covers("marianna-2.players", "marianna-2.deal", "marianna-2.draw", ruleset=M2)
def test_two_players_thirty_card_stock_twenty_tricks() -> None:
    r = rules_of(M2)
    assert r.nseats == 2 and r.teams == ((0,), (1,)) and r.ncards == 40
    assert r.stock_size == 30
    state = start(M2, ["AH 3H KH QH JH", "7H 6H 5H 4H 2H"], dealer=B, stock="AD 3D")
    assert state.to_act == A and len(state.stock) == 30
    play(state, "AH 2H")  # A wins and draws first
    assert "AD" in cards(state, A) and "3D" in cards(state, B)
    play_out(state)
    rec = state.history[-1]
    assert rec.ended == "played_out" and sum(rec.tricks) == 20
    assert sum(rec.points) == 120


@covers("marianna-2.decl.window", ruleset=M2)
def test_two_player_declarations_only_in_the_first_fifteen_tricks() -> None:
    state = start(M2, ["KH QH 2S 4S 5S"], dealer=B)
    play_tricks(state, 15, keep="KH QH")
    assert state.trick_no == 16 and not state.stock
    if state.to_act != A:
        play(state, legal_texts(state)[0])
    assert "KH QH" in cards(state, A)
    refused(state, "marianna:H", "marianna-2.decl.window")
    state = start(M2, ["KH QH 2S 4S 5S"], dealer=B)
    play_tricks(state, 14, keep="KH QH")
    assert state.trick_no == 15
    if state.to_act != A:
        play(state, legal_texts(state)[0])
    play(state, "marianna:H")
    assert state.trump == suit(state, "H")


@covers("marianna-2.decl.window", ruleset=M2, options={"trick_six": True})
def test_two_player_trick_six_option_means_the_sixteenth_trick() -> None:
    state = start(M2, ["KH QH 2S 4S 5S"], dealer=B, options={"trick_six": True})
    play_tricks(state, 15, keep="KH QH")
    assert state.trick_no == 16
    if state.to_act != A:
        play(state, legal_texts(state)[0])
    play(state, "marianna:H")
    assert state.trump == suit(state, "H")
    assert "sixteenth" in state.rules.info("marianna-2.decl.window").text


@covers("marianna-2.deal.rotation", "marianna.match.end", ruleset=M2)
def test_two_player_deal_alternates_and_the_match_goes_to_501() -> None:
    state = start(M2, ["AH 3H KH QH JH"], dealer=B)
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer == A
    check_match_target(lambda: start(M2, ["AH 3H KH QH JH"], dealer=B), 501)


# ---------------------------------------------------------------- Marianna for three
@covers("marianna-3.players", "marianna-3.pack", "marianna-3.deal", "marianna-3.draw",
        ruleset=M3)
def test_three_players_without_the_two_of_spades() -> None:
    r = rules_of(M3)
    assert r.nseats == 3 and r.teams == ((0,), (1,), (2,))
    assert r.ncards == 39 and "2S" not in r.card_index and r.pack_points == 120
    assert r.stock_size == 24
    state = start(M3, ["AH 3H KH QH JH"], dealer=2)
    assert state.to_act == 0 and len(state.stock) == 24
    play_out(state)
    rec = state.history[-1]
    assert sum(rec.tricks) == 13 and sum(rec.points) == 120 and len(rec.points) == 3


@covers("marianna-3.pack", ruleset=M3)
def test_a_deal_must_not_hold_the_removed_two() -> None:
    rules = rules_of(M3)
    state = GameState(rules, first_dealer=2)
    with pytest.raises(Exception, match="39 cards"):
        state.deal(list(range(40)))
    state.deal(list(range(39)))
    assert state.phase == Phase.PLAY


@covers("marianna-3.decl.window", "marianna.decl.value", ruleset=M3)
def test_three_player_declarations_only_in_the_first_eight_tricks() -> None:
    state = start(M3, ["KH QH 2C 4S 5S", "KD QD 2D 4D 5D"], dealer=2)
    play(state, "marianna:H 2C marianna:D")
    assert [v for (_, _, _, v) in state.declared] == [40, 60]
    state = start(M3, ["KH QH 3S 4S 5S"], dealer=2)
    play_tricks(state, 8, keep="KH QH")
    assert state.trick_no == 9 and not state.stock
    while state.to_act != 0:
        play(state, legal_texts(state)[0])
    refused(state, "marianna:H", "marianna-3.decl.window")


@covers("marianna-3.deal.rotation", "marianna.match.end", "marianna.match.tie", ruleset=M3)
def test_three_player_rotation_and_match_end() -> None:
    state = start(M3, ["AH 3H KH QH JH"], dealer=2)
    play_out(state)
    assert state.phase == Phase.DEAL and state.dealer == 0
    state = start(M3, ["AH 3H KH QH JH"], dealer=2)
    state.match_scores = [490, 495, 0]
    play_out(state)
    scores = state.match_scores
    top = max(scores)
    if state.terminal:
        assert state.result is not None and scores[state.result.winner or 0] == top >= 501
    else:
        assert top < 501 or scores.count(top) > 1


@covers("marianna-3.decl.window", ruleset=M3, options={"trick_six": True})
def test_three_player_trick_six_option_means_the_ninth_trick() -> None:
    assert "ninth" in rules_of(M3, trick_six=True).info("marianna-3.decl.window").text
    state = start(M3, ["KH QH 3S 4S 5S"], dealer=2, options={"trick_six": True})
    play_tricks(state, 8, keep="KH QH")
    while state.to_act != 0:
        play(state, legal_texts(state)[0])
    play(state, "marianna:H")
    assert state.trump == suit(state, "H")


@covers("marianna-3.pack", ruleset=M3)
def test_removed_cards_must_close_the_canonical_order(tmp_path: Path) -> None:
    spec = tmp_path / "m3.yaml"
    text = (Path(__file__).resolve().parents[1] / "spec" / f"{M3}.yaml").read_text(
        encoding="utf-8").replace('remove_cards: ["2S"]', 'remove_cards: ["2H"]')
    spec.write_text(text, encoding="utf-8")
    with pytest.raises(Exception, match="only the last cards"):
        load_rules(spec)


# ---------------------------------------------------------------- Cinquecento, Sicilian
def _cs(options: dict[str, object] | None = None) -> GameState:
    return start(CS, ["KH AS 3S 5S 6S", "KD QD 2C 5D 6D", "QH 2D 4C 5C 6C",
                      "2H 4H 7C 7S JS"], dealer=3, options=options)


@covers("siciliana.ask.cover", "siciliana.ask.answer", "siciliana.ask.cover-play",
        "siciliana.split.order", "cinquecento.decl.value", "cinquecento.decl.trump",
        ruleset=CS)
def test_cinquecento_split_counts_first_and_fixes_trump() -> None:
    state = _cs()
    play(state, "ask:cover:H yes KH 2C QH 2H")
    assert state.trump == suit(state, "H") and state.decl_points == [20, 0]
    play(state, "AS marianna:D")  # the second marianna of the hand: 20, trump stays
    assert state.declared[-1][3] == 20 and state.trump == suit(state, "H")


@covers("siciliana.split.order", ruleset=CS, options={"split_order": "outside"})
def test_cinquecento_split_outside_the_order() -> None:
    state = _cs({"split_order": "outside"})
    play(state, "ask:cover:H yes KH 2C QH 2H AS marianna:D")
    assert [v for (_, _, _, v) in state.declared] == [20, 40]


@covers("siciliana.split.spoiled", ruleset=CS)
def test_cinquecento_split_spoiled_by_an_opponents_marianna() -> None:
    state = _cs()
    play(state, "ask:cover:H yes KH marianna:D 2C QH 2H")
    assert state.decl_points == [0, 40] and state.trump == suit(state, "D")


@covers("siciliana.split.spoiled", ruleset=CS, options={"split_spoiled_by": "never"})
def test_cinquecento_split_never_spoiled_trump_stays_with_the_first() -> None:
    state = _cs({"split_spoiled_by": "never"})
    play(state, "ask:cover:H yes KH marianna:D 2C QH 2H")
    assert state.decl_points == [20, 40] and state.trump == suit(state, "D")


@covers("siciliana.split.spoiled", ruleset=CS, options={"split_spoiled_by": "any"})
def test_cinquecento_split_spoiled_by_any() -> None:
    state = start(CS, ["KH AS 3S 5S 6S", "2C 5C 6C 7C 4S", "QH KD QD 4C 5D",
                       "2H 4H 7S JS 5H"], dealer=3, options={"split_spoiled_by": "any"})
    play(state, "ask:cover:H yes KH 2C marianna:D QH 2H")
    assert state.decl_points == [40, 0] and state.trump == suit(state, "D")


@covers("siciliana.ask.declaration", ruleset=CS)
@covers("siciliana.ask.declaration", ruleset=CS, options={"split_ask": "may_declare"})
def test_cinquecento_split_ask_and_the_askers_declaration() -> None:
    hands = ["KH KS QS 5S 6S", "2C 5C 6C 7C 4S", "QH 2D 4D 4C 5D", "2H 4H 7S JS 5H"]
    state = start(CS, hands, dealer=3)
    play(state, "ask:cover:H yes")
    assert legal_texts(state) == ["KH"]  # asking was his declaration for the trick
    state = start(CS, hands, dealer=3, options={"split_ask": "may_declare"})
    play(state, "ask:cover:H yes marianna:S KH 2C QH 2H")
    # the first marianna fixes trump for the hand; the split still scores its 20
    assert state.decl_points == [60, 0] and state.trump == suit(state, "S")


@covers("siciliana.ask.cutoff", ruleset=CS, options={"split_window": "no_trump"})
def test_cinquecento_split_window_option() -> None:
    stock = "QS 2S 3D 3C  7S AH KD KC  6S 3H QD QC  5S JH JD JC  4S AD AC 7C"
    for opts, allowed in (({}, False), ({"split_window": "no_trump"}, True)):
        state = start(CS, ["KH AS 3S KS JS", "2D 4D 5D 6D 7D", "QH 2C 4C 5C 6C",
                           "2H 4H 5H 6H 7H"], dealer=3, stock=stock, options=opts)
        play_tricks(state, 5, keep="KH QH")
        assert state.trick_no == 6 and state.to_act == 0 and state.trump == -1
        assert ("ask:cover:H" in legal_texts(state)) == allowed


# ---------------------------------------------------------------- inherited options
def _behaviour(rules: Rules) -> dict[str, Any]:
    skip = {"options", "defaults", "infos", "document", "card_index", "ruleset", "name",
            "parent"}
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if f.name not in skip}


def _origin(preset: str, option: str) -> str:
    """The ruleset the preset takes ``option`` from."""
    for name in (load_rules(preset).parent or "", "marianna-siciliana"):
        if option in option_specs(load_document(name)):
            return name
    raise AssertionError(f"{preset}: where does {option} come from?")


def _option_test(preset: str, option: str, value: Any) -> Callable[[], None]:
    rules = load_rules(preset, {option: value})
    governed = tuple(i.id for i in rules.infos if option in i.options)
    assert governed, (preset, option)

    @covers(*governed, ruleset=preset, options={option: value})
    def test() -> None:
        origin = _origin(preset, option)
        base, changed = _behaviour(load_rules(preset)), _behaviour(rules)
        o_base, o_changed = (_behaviour(load_rules(origin)),
                             _behaviour(load_rules(origin, {option: value})))
        mine = {k for k in base if base[k] != changed[k]}
        theirs = {k for k in o_base if o_base[k] != o_changed[k]}
        assert mine and mine == theirs, (preset, option, value, mine, theirs)
        state = play_match(rules, seed=hash((option, str(value))) % 1000, choice_seed=3)
        assert state.terminal and state.history

    test.__name__ = f"test_{preset}_{option}_{value}".replace("-", "_").replace("+", "_")
    return test


def _inherited() -> list[tuple[str, str, Any]]:
    out = []
    for preset in (M2, M3, CS):
        for option, spec in option_specs(load_document(preset)).items():
            if spec["type"] == "int":
                values: list[Any] = [max(1, int(spec["default"]) // 3)]
            elif spec["type"] == "bool":
                values = [not spec["default"]]
            else:
                values = [v for v in spec["values"] if v != spec["default"]]
            out += [(preset, option, v) for v in values]
    return out


for _preset, _option, _value in _inherited():
    _fn = _option_test(_preset, _option, _value)
    globals()[_fn.__name__] = _fn


def test_the_default_test_run_covers_every_ruleset_without_a_parent() -> None:
    """The long per-ruleset properties run by default on every base ruleset (and the
    presets with a mechanism of their own); the other presets run with ``-m slow``."""
    from families import DEFAULT_RUN
    from mariage import list_rulesets

    assert set(list_rulesets()) >= DEFAULT_RUN
    bases = {n for n in list_rulesets() if len(load_document(n).files) == 1}
    assert bases and bases <= DEFAULT_RUN, bases - DEFAULT_RUN
