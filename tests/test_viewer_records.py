"""Every record the validator accepts can be shown: ``replay --format json``, ``render --html``
and ``render --svg`` for bot-played matches of every bundled ruleset and preset.

The rulesets come from :func:`mariage.list_rulesets`, so a ruleset added later is
covered without being named here. From each match come the records a user may
hold: the whole match, one seat's view of it (``mariage view``: unseen cards
``??``), a partial record (cut in the middle of a hand, ``result *``), and a
record of the match's later hands (``[StartHand]``, ``[StartScore]``, ``[StartState]``:
the running totals' barrel and bolts...). Each is
checked by the validator first; then the viewer must draw it without a problem
and agree with the full match: a partial record's steps are the full match's
first steps, a later-hand record's scores are the full match's, a seat's view
has the same tricks and scores.
"""

from __future__ import annotations

import dataclasses
import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import list_rulesets, load_rules
from mariage.arena.bots import make_bot
from mariage.cli import main
from mariage.commands.replay import as_json
from mariage.conformance.generate import long_match
from mariage.notation import record_match
from mariage.notation.model import Act, Record, Result, Tag
from mariage.notation.reader import parse_record
from mariage.notation.replay import check_record
from mariage.notation.views import later_record, view
from mariage.notation.writer import write_record
from mariage.viewer import Timeline, render_html, render_svg, timeline
from mariage.viewer.chart import hand_scores
from mariage.viewer.draw import page_data

RULESETS = list_rulesets()
SEEDS = st.integers(0, 2**64 - 1)
KINDS = {"declaration", "ask", "call"}


def played(ruleset: str, seed: int) -> Record:
    """A whole match of ``ruleset`` between a random and a greedy bot per seat, as read back
    from its text (what a user holds)."""
    rules = load_rules(ruleset)
    target = (rules.document.get("options") or {}).get("target")
    if long_match(rules) and target:  # hundreds of hands to 1000: to the lowest target
        rules = load_rules(ruleset, {"target": target["min"]})
    bots = [make_bot("random" if s % 2 else "greedy", seed + s) for s in range(rules.nseats)]
    text = write_record(record_match(rules, seed, bots))
    return parse_record(text, file=f"{ruleset}.mrg")


def reread(rec: Record) -> Record:
    """``rec`` written and read back (line numbers as in its own text)."""
    return parse_record(write_record(rec), file=rec.file)


def partial(rec: Record, pick: random.Random) -> tuple[Record, int]:
    """``rec`` cut after some action before the last (``result *``), the rest of that hand
    dropped; also how many actions it keeps."""
    places = [(h, i + 1) for h, hand in enumerate(rec.hands)
              for i, item in enumerate(hand.items) if isinstance(item, Act)][:-1]
    h, cut = places[pick.randrange(len(places))]
    hand = rec.hands[h]
    kept = [*rec.hands[:h], dataclasses.replace(hand, items=hand.items[:cut])]
    count = sum(isinstance(i, Act) for hd in kept for i in hd.items)
    return reread(dataclasses.replace(rec, hands=tuple(kept), result=Result(None))), count


def later(rec: Record, first: int) -> Record:
    """The hands of ``rec`` from hand ``first`` on, with the match score and the state
    carried into that hand (``[StartScore]``, ``[StartState]``), as read back."""
    return reread(later_record(rec, first))


def valid(rec: Record) -> bool:
    return not check_record(rec).errors


def shows(tl: Timeline) -> dict[str, Any]:
    """Draw ``tl`` every way the viewer can and check each picture; the JSON replay."""
    rules = load_rules(tl.ruleset or "", tl.options)
    page = render_html(tl, write_record(tl.record))
    assert page_data(page) == json.loads(json.dumps(tl.as_dict()))
    replay = as_json(tl)
    json.dumps(replay)
    _, scores = hand_scores(tl)  # the chart: a linked point per completed hand
    assert [h.hand for h in scores] == [h["number"] for h in replay["hands"] if h["end"]]
    for h in scores:
        assert f'href="#hand={h.hand}"' in page
    hands = [s.hand for s in tl.steps if s.kind == "deal"]
    assert [h["number"] for h in replay["hands"]] == hands
    for step in tl.steps:
        for d in step.declarations:
            assert d.kind in KINDS and d.rule in rules.rule_ids, d
            assert d.seat in tl.seats and d.suit in rules.suits
    # each hand's pictures: all of them, but of a match of hundreds of hands (Thousand)
    # its first ten and its last two
    for hand in hands if len(hands) <= 12 else [*hands[:10], *hands[-2:]]:
        deal = ET.fromstring(render_svg(tl, hand))
        assert deal.tag.endswith("svg")
        tricks = [s for s in tl.steps if s.hand == hand and s.winner is not None]
        for s in tricks:
            svg = render_svg(tl, hand, s.trick)
            ET.fromstring(svg)
            assert f">{s.winner} wins<" in svg
    return replay


def public(tl: Timeline) -> list[tuple[Any, ...]]:
    """What every seat saw at each step: the action (cards passed between partners not
    named), the trick, its winner, the scores."""
    return [(s.kind, s.hand, s.trick, s.seat,
             "give" if (s.action or "").startswith("give:") else s.action,
             s.winner, s.trump, s.points, s.match,
             [(d.seat, d.name, d.suit, d.value, d.kind) for d in s.declarations])
            for s in tl.steps if s.kind != "start"]


@pytest.mark.parametrize("ruleset", by_family())
@settings(max_examples=3)
@given(seed=SEEDS, cut=st.randoms(use_true_random=False))
def test_every_record_of_every_ruleset_is_shown(ruleset: str, seed: int,
                                                cut: random.Random) -> None:
    rec = played(ruleset, seed)
    assert valid(rec)
    full = timeline(rec)
    assert full.ok and full.result.split()[1] == "wins", full.errors
    shows(full)
    acts = sum(isinstance(i, Act) for h in rec.hands for i in h.items)
    assert len(full.steps) == 1 + len(rec.hands) + acts

    part, count = partial(rec, cut)
    assert valid(part)
    tl = timeline(part)
    assert tl.ok and tl.result == "unfinished"
    shows(tl)
    assert len(tl.steps) == 1 + len(part.hands) + count
    same = full.steps[1:len(tl.steps)]  # the last step: without the annotations cut off
    assert public(tl) == public(full)[:len(same)]
    assert [s.hands for s in tl.steps[1:]] == [s.hands for s in same]

    if len(rec.hands) > 1:
        first = rec.hands[cut.randrange(1, len(rec.hands))].number
        late = later(rec, first)
        assert valid(late)
        tl = timeline(late)
        assert tl.ok and tl.result == full.result
        shows(tl)
        assert public(tl) == [p for p in public(full) if p[1] >= first]


@pytest.mark.parametrize("ruleset", by_family())
@settings(max_examples=2)
@given(seed=SEEDS, which=st.integers(0, 3))
def test_a_seat_view_of_every_ruleset_is_shown(ruleset: str, seed: int, which: int) -> None:
    rec = played(ruleset, seed)
    full = timeline(rec)
    seat = full.seats[which % len(full.seats)]
    seen = reread(view(rec, seat))
    assert valid(seen)
    tl = timeline(seen)
    assert tl.ok and tl.observer == seat and tl.result == full.result
    shows(tl)
    assert public(tl) == public(full)
    for step, truth in zip(tl.steps, full.steps, strict=True):
        assert step.hands.get(seat) == truth.hands.get(seat)


def test_the_commands_show_a_bidding_game_with_called_pairs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """German Marjapussi records with a called pair (stored by the engine under a marker)
    replay as JSON and render as HTML and SVG, the pair named with its rule."""
    for seed in range(1, 40):
        rec = played("marjapussi-de", seed)
        tl = timeline(rec)
        calls = [d for s in tl.steps for d in s.declarations if d.kind == "call"]
        if calls:
            break
    assert calls and {(d.name, d.rule) for d in calls} == {("pair", "marjapussi-de.calls.pair")}
    src = tmp_path / "m.mrg"
    src.write_text(write_record(rec))
    assert main(["replay", str(src), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["hands"]
    assert main(["render", str(src), "--html", str(tmp_path / "m.html")]) == 0
    hand = next(s.hand for s in tl.steps if any(d.kind == "call" for d in s.declarations))
    assert main(["render", str(src), "--svg", str(tmp_path / "m.svg"), "--hand",
                 str(hand)]) == 0
    assert main(["render", str(src), "--svg", str(tmp_path / "t.svg"), "--hand",
                 str(hand), "--trick", "1"]) == 0
    capsys.readouterr()
    steps = page_data((tmp_path / "m.html").read_text())["steps"]
    assert any(d["kind"] == "call" and d["name"] == "pair"
               for s in steps for d in s["declarations"])
    seat = calls[0].seat  # the seat's view through the command line, then drawn
    assert main(["view", str(src), "--seat", seat]) == 0
    seen = tmp_path / "v.mrg"
    seen.write_text(capsys.readouterr().out)
    assert main(["render", str(seen), "--html", str(tmp_path / "v.html")]) == 0
    capsys.readouterr()
    assert main(["replay", str(seen), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"]
    assert page_data((tmp_path / "v.html").read_text())["observer"] == seat


def test_a_later_hand_record_of_a_match_of_a_fixed_number_of_hands() -> None:
    """German Marjapussi ends after a number of hands, whatever the scores (which may be
    negative): a record of its last hands is valid; one starting past the end is not."""
    rec = played("marjapussi-de", 0)
    last = rec.hands[-1].number
    late = later(rec, last)
    assert check_record(late).errors == []
    past = dataclasses.replace(late, tags=tuple(
        Tag("StartHand", (str(load_rules("marjapussi-de").match_target + 1),))
        if t.name == "StartHand" else t for t in late.tags))
    assert [e.code for e in check_record(reread(past)).errors] == ["N162"]


def test_a_seat_sees_its_own_cards_in_a_hand_that_ends_before_any_action() -> None:
    """Mariglia's turned-up bonus can end the match at the deal: the view still shows the
    seat's own hand of that deal."""
    rec = played("mariglia", 0)
    ends = [h for h in rec.hands if not any(isinstance(i, Act) for i in h.items)]
    assert ends  # the match of seed 0 ends that way
    for seat in timeline(rec).seats:
        mine = view(rec, seat)
        for hand, truth in zip(mine.hands, rec.hands, strict=True):
            assert hand.deal.part(seat).cards == truth.deal.part(seat).cards  # type: ignore[union-attr]
