"""The record notation: every played match validates and round-trips; views; writer."""

from __future__ import annotations

import io

import pytest
from families import by_family
from hypothesis import given
from hypothesis import strategies as st
from mariage import load_rules
from mariage.arena.bots import make_bot
from mariage.notation.batch import validate_stream
from mariage.notation.model import UNKNOWN, Record
from mariage.notation.reader import parse_record, read_records
from mariage.notation.recorder import record_match
from mariage.notation.replay import check_record
from mariage.notation.views import view
from mariage.notation.writer import write_record, write_records
from notationkit import recorded_match
from propkit import RULESETS, int_choices, option_grid


def _configs() -> list[tuple[str, dict[str, object]]]:
    """Every ruleset with every enum/bool option value and every int option choice, each
    varied one at a time from the defaults (and the full enum/bool grid for small grids)."""
    out: list[tuple[str, dict[str, object]]] = []
    for name in RULESETS:
        grid = option_grid(name)
        seen = set()
        for opts in grid if len(grid) <= 8 else grid[:1]:
            seen.add(tuple(sorted(opts.items())))
            out.append((name, opts))
        if len(grid) > 8:
            base = grid[0]
            for opts in grid:
                diff = [k for k in opts if opts[k] != base[k]]
                if len(diff) == 1:
                    out.append((name, opts))
        for opt, values in int_choices(name).items():
            for v in values[1:]:
                out.append((name, {**grid[0], opt: v}))
    return out


CONFIGS = _configs()


def _roundtrip(rec: object) -> str:
    return _read_back(rec)[0]


def _read_back(rec: object) -> tuple[str, Record]:
    """The text of ``rec``, and the record read from it (equal to ``rec``, written as it)."""
    assert not isinstance(rec, str)
    text = write_record(rec)  # type: ignore[arg-type]
    back = parse_record(text)
    assert back == rec
    assert write_record(back) == text
    return text, back


@pytest.mark.parametrize(("name", "options"), CONFIGS,
                         ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}"
                              for n, o in CONFIGS])
def test_every_ruleset_and_option_value_validates_and_roundtrips(name: str,
                                                                  options: dict[str, object]
                                                                  ) -> None:
    for seed in (1, 2):
        rec = recorded_match(name, options, seed, seed * 31)
        text, back = _read_back(rec)
        checked = check_record(back, strict=False)  # (the text read once)
        assert checked.errors == [], text[:2000]
        assert checked.state is not None and checked.state.terminal


def test_options_that_differ_from_default_are_written() -> None:
    rec = recorded_match("marianna", {"marianna_values": "20-40-60-80", "target": 125}, 1, 1)
    assert rec.options == {"marianna_values": "20-40-60-80", "target": "125"}
    assert rec.tag("Dealer") in ("N", "W", "S", "E")
    assert check_record(rec).errors == []


def test_mariazza_records_have_a_first_player_and_no_dealer() -> None:
    rec = recorded_match("mariazza", {}, 3, 3)
    assert rec.tag("Dealer") is None
    for hand in rec.hands:
        assert hand.deal.part("first") is not None
        assert hand.deal.part("dealer") is None
        assert hand.deal.part("turnup") is not None


@given(st.sampled_from(RULESETS), st.integers(0, 10_000), st.integers(0, 10_000))
def test_hypothesis_roundtrip_and_fixed_point(name: str, seed: int, choice: int) -> None:
    grid = option_grid(name)
    rec = recorded_match(name, grid[choice % len(grid)], seed, choice)
    text = _roundtrip(rec)
    assert check_record(parse_record(text)).errors == []


def test_play_bots_records_validate_for_every_ruleset() -> None:
    for name in RULESETS:
        rules = load_rules(name)
        rec = record_match(rules, 4, [make_bot("greedy", i) for i in range(rules.nseats)])
        assert check_record(parse_record(_roundtrip(rec))).errors == []


@pytest.mark.parametrize("name", by_family())
def test_every_seat_view_hides_cards_and_still_validates(name: str) -> None:
    rules = load_rules(name)
    rec = recorded_match(name, option_grid(name)[0], 5, 9)
    for seat in rules.seat_names:
        mine = view(rec, seat)
        assert mine.tag("Observer") == seat
        assert parse_record(write_record(mine)) == mine
        first = mine.hands[0].deal
        own = first.part(seat)
        assert own is not None and UNKNOWN not in own.cards
        if not rules.open_hands:
            others = [p for p in first.parts if p.label in rules.seat_names and p.label != seat]
            # a seat that sits the hand out has no cards to hide
            dealer = first.part("dealer")
            sitter = rules.sitter(rules.seat_names.index(dealer.cards[0])) \
                if dealer is not None else None
            out = None if sitter is None else rules.seat_names[sitter]
            assert all(UNKNOWN in p.cards for p in others if p.label != out)
            assert all(not p.cards for p in first.parts if p.label == out)
        assert check_record(mine).errors == [], write_record(mine)[:1500]


def test_open_hands_are_visible_in_views() -> None:
    rules = load_rules("mariaggia")
    assert rules.open_hands
    rec = recorded_match("mariaggia", {}, 2, 2)
    mine = view(rec, "A")
    for part in mine.hands[0].deal.parts:
        if part.label in rules.seat_names:
            assert UNKNOWN not in part.cards


def test_a_partial_record_with_no_consistent_deal_fails() -> None:
    rec = recorded_match("marianna", {}, 6, 6)
    mine = view(rec, "N")
    text = write_record(mine)
    # N's own hand is known; give one of N's known cards to another seat's play.
    hand = mine.hands[0]
    own = hand.deal.part("N")
    assert own is not None
    card = own.cards[0]
    first_act = next(i for i in hand.items if hasattr(i, "seat") and i.seat != "N")
    bad = text.replace(f"{first_act.seat}:{first_act.text}",  # type: ignore[union-attr]
                       f"{first_act.seat}:{card}", 1)
    errors = check_record(parse_record(bad)).errors
    assert errors and errors[0].code == "N135"


def test_italian_card_names_read_as_french() -> None:
    rec = record_match(load_rules("mariazza"), 1, [make_bot("greedy", i) for i in range(2)])
    text = write_record(rec)
    italian = {"KH": "Rc", "QC": "Cb", "JS": "Fs", "7D": "7d", "AH": "Ac"}
    it_text = text
    for fr, it in italian.items():
        it_text = it_text.replace(f" {fr}", f" {it}").replace(f":{fr}", f":{it}")
    assert it_text != text
    assert parse_record(it_text) == rec
    assert write_record(parse_record(it_text)) == text


def test_a_file_holds_many_records_read_one_at_a_time() -> None:
    recs = [recorded_match("mariglia", {}, s, s) for s in range(4)]
    buf = io.StringIO()
    write_records(recs, buf)
    data = buf.getvalue().encode()
    back = list(read_records(io.BytesIO(data), "m.mrg"))
    assert back == recs
    assert [r.number for r in back] == [1, 2, 3, 4]
    summary = validate_stream(io.BytesIO(data), "m.mrg")
    assert (summary.records, summary.valid, summary.errors) == (4, 4, [])


def test_jobs_give_the_same_summary() -> None:
    recs = [recorded_match("marianna", {}, s, s) for s in range(3)]
    buf = io.StringIO()
    write_records(recs, buf)
    data = buf.getvalue().encode().replace(b"(won N)", b"(won S)", 1)
    one = validate_stream(io.BytesIO(data), "x", jobs=1)
    two = validate_stream(io.BytesIO(data), "x", jobs=2)
    assert one.errors == two.errors and one.valid == two.valid == 2


def test_comments_are_kept() -> None:
    text = ('[Mariage "1"]\n[Ruleset "marianna"]\n[Dealer "N"]\n{a header note}\n\n'
            'hand 1\ndeal N: AH 3H KH QH JH\n{mid}\nresult *\n')  # deal incomplete
    rec = parse_record(text)
    assert rec.comments[0].text == "a header note"
    assert write_record(parse_record(write_record(rec))) == write_record(rec)
