"""``[StartState]``: a record of a match's later hands carries the running totals' barrel
and bolts (and the rest of the match state between hands), and replays as the whole
match; a malformed tag is a one-line error with its place and code N126."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from mariage import GameState, load_rules
from mariage.arena.bots import make_bot
from mariage.cli import main
from mariage.engine.deals import SeededDeals
from mariage.engine.phase import Phase
from mariage.notation.model import Record, Tag
from mariage.notation.reader import parse_record
from mariage.notation.recorder import record_match
from mariage.notation.replay import check_record, check_text
from mariage.notation.views import later_record
from mariage.notation.writer import write_record


def _match() -> Record:
    rules = load_rules("thousand")
    return record_match(rules, 0, [make_bot("random", s) for s in range(3)])


def _without(rec: Record, field: str) -> Record:
    return dataclasses.replace(rec, tags=tuple(
        t for t in rec.tags if not (t.name == "StartState" and t.values[0] == field)))


@pytest.mark.parametrize(("field", "hand", "code"), [("bolts", 3, "N154"),
                                                     ("barrel", 24, "N126")])
def test_a_record_cut_where_the_state_matters_replays_the_whole_match(field: str, hand: int,
                                                                      code: str) -> None:
    rec = _match()
    whole = check_record(rec)
    late = parse_record(write_record(later_record(rec, hand)))
    carried = {t.values[0]: t.values[1:] for t in late.tags if t.name == "StartState"}
    assert field in carried
    out = check_record(late)
    assert out.errors == []
    assert out.state is not None and whole.state is not None
    assert out.state.match_scores == whole.state.match_scores
    assert out.state.barrel == whole.state.barrel and out.state.bolts == whole.state.bolts
    # without the field the same hands replay differently (the annotations disagree), or
    # the score carried in is impossible without it (a total at the barrel, off it)
    bare = check_record(parse_record(write_record(_without(late, field))))
    assert code in {e.code for e in bare.errors}


BAD = [
    ('"bolts" "0" "3" "0"', "impossible"),  # past the limit (3 bolts are a penalty)
    ('"barrel" "-2" "0" "0"', "impossible"),
    ('"bolts" "0" "1"', "one per team"),
    ('"bolts" "0" "x" "1"', "one per team"),
    ('"spin" "1"', "keeps between hands"),
    ('"held" "40"', "keeps between hands"),  # a litige: not a Thousand rule
]


@pytest.mark.parametrize(("values", "why"), BAD)
def test_a_malformed_start_state_is_one_line_with_its_place(
        values: str, why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = write_record(later_record(_match(), 3))
    lines = text.split("\n")
    at = next(i for i, s in enumerate(lines) if s.startswith("[StartHand"))
    lines.insert(at + 1, f"[StartState {values}]")
    bad = "\n".join(lines)
    errors = check_text(bad, file="x.mrg").errors
    assert errors and errors[0].code == "N126" and why in errors[0].message
    assert (errors[0].line, errors[0].column) == (at + 2, 2)  # the tag's name
    src = tmp_path / "x.mrg"
    src.write_text(bad)
    assert main(["validate", str(src)]) == 1
    err = capsys.readouterr()
    said = (err.out + err.err).strip().splitlines()
    assert any(f"x.mrg:{at + 2}:2: N126" in s for s in said)
    assert "Traceback" not in err.err


def test_a_field_given_twice_or_without_start_hand() -> None:
    late = later_record(_match(), 3)
    again = Tag("StartState", ("bolts", "0", "0", "0"))
    twice = dataclasses.replace(late, tags=(*late.tags, again))
    assert [e.code for e in check_record(parse_record(write_record(twice))).errors] == ["N126"]
    first = dataclasses.replace(late, tags=tuple(t for t in late.tags if t.name != "StartHand"))
    errors = check_record(parse_record(write_record(first))).errors
    assert errors and errors[0].code == "N120" and "needs [StartHand]" in errors[0].message


def test_unrounded_totals_carry_into_a_later_record_of_belote() -> None:
    """Where rounding does not decide the game, the totals before rounding go on."""
    rules = load_rules("belote-coinche", {"rounding_decides_game": False})
    rec = record_match(rules, 1, [make_bot("greedy", s) for s in range(4)])
    whole = check_record(rec)
    assert whole.errors == [] and whole.state is not None
    late = parse_record(write_record(later_record(rec, 3)))
    carried = {t.values[0]: t.values[1:] for t in late.tags if t.name == "StartState"}
    assert "unrounded" in carried
    out = check_record(late)
    assert out.errors == [] and out.state is not None
    assert out.state.round_residue == whole.state.round_residue
    assert out.state.match_scores == whole.state.match_scores
    # where the written totals decide, the exact ones go on too: a later record starts
    # from the state the whole record reaches
    default = record_match(load_rules("belote-coinche"), 1,
                           [make_bot("greedy", s) for s in range(4)])
    whole = check_record(default)
    late = parse_record(write_record(later_record(default, 3)))
    assert [t for t in late.tags if t.name == "StartState" and t.values[0] == "unrounded"]
    out = check_record(late)
    assert out.errors == [] and out.state is not None and whole.state is not None
    assert out.state.round_residue == whole.state.round_residue
    # and none where nothing is rounded
    plain = record_match(load_rules("belote-coinche", {"rounding": "none"}), 1,
                         [make_bot("greedy", s) for s in range(4)])
    assert not [t for t in later_record(plain, 3).tags if t.name == "StartState"
                and t.values[0] == "unrounded"]


def _play_checking_the_carry(ruleset: str, options: dict[str, object], seed: int) -> int:
    """Play a seeded random match; at each new hand the carried-in check must accept the
    state the match reached. The number of hands begun on the barrel."""
    rules = load_rules(ruleset, options)
    deals = SeededDeals(rules, seed)
    state = GameState(rules, first_dealer=deals.first_dealer)
    bots = [make_bot("random", s) for s in range(rules.nseats)]
    on = 0
    while not state.terminal:
        if state.phase == Phase.DEAL:
            assert state.mech.running.carried_in(state) is None, (state.match_scores,
                                                                  state.barrel)
            on += any(b >= 0 for b in state.barrel)
            state.deal(*deals.next_deal(state))
            continue
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state))
    return on


@pytest.mark.parametrize(("ruleset", "options"), [
    ("thousand", {}), ("thousand-pl", {}), ("thousand-4", {}), ("thousand-2", {}),
    ("thousand", {"barrel_penalty": 0}), ("thousand", {"barrel_collision": "all_fall"}),
    ("thousand", {"barrel_clamp": False})])
def test_every_state_a_match_reaches_is_a_state_it_may_be_carried_in_with(
        ruleset: str, options: dict[str, object]) -> None:
    on = sum(_play_checking_the_carry(ruleset, options, seed) for seed in range(2))
    assert on > 0  # the barrel was reached


@pytest.mark.parametrize(("score", "state", "why"), [
    ('"880" "0" "0"', None, "A's total 880 is impossible off the barrel"),
    ('"950" "0" "0"', None, "A's total 950 is impossible off the barrel"),
    ('"700" "0" "0"', '"barrel" "1" "-1" "-1"', "A's total 700 is impossible on the barrel"),
    ('"0" "900" "0"', '"barrel" "-1" "0" "-1"', "B's total 900 is impossible on the barrel"),
])
def test_a_barrel_the_score_and_state_disagree_on_is_refused(score: str, state: str | None,
                                                              why: str) -> None:
    text = write_record(later_record(_match(), 3))
    lines = [s for s in text.split("\n") if not s.startswith(("[StartScore", "[StartState"))]
    at = next(i for i, s in enumerate(lines) if s.startswith("[StartHand"))
    lines[at + 1:at + 1] = [f"[StartScore {score}]"] + (
        [f"[StartState {state}]"] if state else [])
    errors = check_text("\n".join(lines), file="x.mrg").errors
    assert errors and errors[0].code == "N126" and why in errors[0].message
    assert errors[0].rule_id == "thousand.running.barrel"
    assert errors[0].line == at + (3 if state else 2)  # the barrel's tag, else the score's
