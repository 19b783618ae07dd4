"""An independent check of the game-record notation (``docs/notation.rst``).

The expectations come from :mod:`scribekit`, a reader and writer written from the
docs alone (it imports nothing of :mod:`mariage`). The reference is only the thing
checked: its reader and replay (the API behind ``mariage replay --format json`` and
``mariage validate``) must find in every shipped record what the docs say is
there (the tags, the deals, every action, the trick winners, the hands' ends and
the result); must read the independent writer's own layouts of each to the same
game; and must name the documented code, at the place of the change, for every
change the docs forbid, with the fast path (:func:`~mariage.notation.fast_valid`,
the parser without Lark) never disagreeing with the full validator.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from mariage.commands.replay import as_json
from mariage.notation.build import Builder
from mariage.notation.errors import NotationError
from mariage.notation.fast import fast_valid
from mariage.notation.quickparse import parse as quick_parse
from mariage.notation.reader import _builder, parse_record
from mariage.notation.replay import check_text
from mariage.viewer.timeline import timeline
from scribekit import UNKNOWN, Layout, Record, read_record, shipped_records, write

SHIPPED = shipped_records()


def _sample(every: int) -> list[tuple[str, int, str]]:
    """A fixed sample of the shipped records: each ruleset's first, then every ``every``-th
    by a hash of the file name (the same sample on every run)."""
    seen: set[str] = set()
    out = []
    for file, line, text in SHIPPED:
        ruleset = (read_record(text).tag("Ruleset") or "") + file.split("/")[-2]
        digest = int(hashlib.sha256(file.encode()).hexdigest()[:8], 16)
        if ruleset not in seen or digest % every == 0:
            seen.add(ruleset)
            out.append((file, line, text))
    return out


SAMPLE = _sample(40)


def _id(case: tuple[str, int, str]) -> str:
    return f"{case[0]}:{case[1]}"


# ------------------------------------------------------------------ the comparison
_RESULT = re.compile(r"(\S+) wins \((\S+)\)|no winner \((\S+)\)|drawn \((\S+)\)")


def replayed(text: str) -> dict[str, Any]:
    """What the reference's replay reports of ``text`` (``mariage replay --format json``)."""
    return as_json(timeline(parse_record(text)))


def _plain(card: str) -> str:
    return card.rstrip("?") if card != UNKNOWN else card  # an inferred card: "KH?"


def compare(mine: Record, ref: dict[str, Any]) -> list[str]:
    """Where the reference's replay differs from what this reader found in the record."""
    out: list[str] = []
    hands = ref["hands"]
    if [h.number for h in mine.hands] != [h["number"] for h in hands]:
        return [f"hands {[h.number for h in mine.hands]} != {[h['number'] for h in hands]}"]
    for hand, got in zip(mine.hands, hands, strict=True):
        at = f"hand {hand.number}"
        dealer, first = hand.part("dealer"), hand.part("first")
        if dealer is not None and list(dealer) != [got["dealer"]]:
            out.append(f"{at}: dealer {dealer} != {got['dealer']}")
        if first is not None and list(first) != [got["first"]]:
            out.append(f"{at}: first {first} != {got['first']}")
        for seat, cards in got["deal"].items():
            written = hand.part(seat)
            if written is None:
                continue  # a deck: deal
            have = Counter(map(_plain, cards))
            want = Counter(c for c in written if c != UNKNOWN)
            if want - have or sum(have.values()) != len(written):
                out.append(f"{at}: {seat} dealt {sorted(have)} != {sorted(written)}")
        turnup = hand.part("turnup")
        if turnup and got["turn_up"] is not None and turnup[0] != UNKNOWN \
                and _plain(got["turn_up"]) != turnup[0]:
            out.append(f"{at}: turn-up {turnup} != {got['turn_up']}")
        acts = [(a["seat"], _plain(a["action"])) for a in got["actions"]]
        if hand.actions() != acts:
            out.append(f"{at}: actions differ: {hand.actions()[:40]} != {acts[:40]}")
            continue
        out += _against_notes(at, hand, got)
    out += _result(mine, ref)
    return out


def _against_notes(at: str, hand: Any, got: dict[str, Any]) -> list[str]:
    """Each trick winner and hand end written in the record against the replay's."""
    out = []
    ends: dict[int, str] = {}  # actions played -> winner of the trick they end
    for done, action in enumerate(got["actions"], 1):
        for trick in got["tricks"]:
            if trick["number"] == action["trick"] and action["seat"] == trick["cards"][-1][0] \
                    and _plain(action["action"]).endswith(trick["cards"][-1][1]):
                ends[done] = trick["winner"]
    count = 0
    end = got["end"] or {}
    for item in hand.items:
        if item.kind == "act":
            count += 1
        elif item.kind == "note" and item.values:
            key, values = item.values[0], list(item.values[1:])
            if key == "won" and ends.get(count) != values[0]:
                out.append(f"{at}, action {count}: (won {values[0]}) but {ends.get(count)}")
            elif key == "ended" and end.get("ended") != values[0]:
                out.append(f"{at}: (ended {values[0]}) but {end.get('ended')}")
            elif key in ("scored", "match") and key in end \
                    and [str(v) for v in end[key]] != values:
                out.append(f"{at}: ({key} {' '.join(values)}) but {end[key]}")
            elif key == "segno" and "segno" in end and end["segno"] != values[0]:
                out.append(f"{at}: (segno {values[0]}) but {end['segno']}")
    return out


def _result(mine: Record, ref: dict[str, Any]) -> list[str]:
    said = ref["result"]
    if mine.result is None or mine.result[0] == "*":  # a record that stops early
        return [] if said in (None, "unfinished") else [
            f"result {mine.result} but the replay: {said}"]
    m = _RESULT.match(said or "")
    if m is None:
        return [f"result {mine.result} but the replay: {said}"]
    winner = m.group(1) or "-"
    reason = m.group(2) or m.group(3) or m.group(4)
    if (winner, reason) != (mine.result[0], mine.result[1] or reason):
        return [f"result {mine.result} but the replay: {said}"]
    return []


def _lark(text: str) -> Any:
    builder, parser = _builder()
    builder.reset("<string>", 1, 1, None)
    try:
        return parser.parse(text)
    finally:
        builder.reset("<string>", 1, 1, None)


def paths_agree(text: str, errors: list[Any]) -> list[str]:
    """The fast path never says valid where the validator finds a problem, and the parser
    without Lark reads a record as Lark does (or leaves it to Lark)."""
    out = []
    if errors and fast_valid(text):
        out.append(f"the fast path accepts what the validator refuses: {errors[0]}")
    builder = Builder()
    builder.reset("<string>", 1, 1, None)
    quick_error = slow_error = None
    try:
        quick = quick_parse(text, builder)
    except NotationError as exc:  # a number too long: the builder refuses it
        quick, quick_error = None, exc.error
    try:
        slow = _lark(text)
    except Exception as exc:  # Lark refuses: the plain parser must leave it to Lark
        slow_error = getattr(exc, "orig_exc", exc)
        if quick is not None:
            out.append(f"the plain parser reads what Lark refuses ({type(exc).__name__})")
        if quick_error is not None and (not isinstance(slow_error, NotationError) or (
                quick_error.code, quick_error.line, quick_error.column) != (
                slow_error.error.code, slow_error.error.line, slow_error.error.column)):
            out.append(f"the plain parser refuses with {quick_error}, Lark with {slow_error}")
        return out
    if quick_error is not None:
        out.append(f"the plain parser refuses what Lark reads: {quick_error}")
    if quick is not None and (quick.tags, quick.comments, quick.hands, quick.result) != (
            slow.tags, slow.comments, slow.hands, slow.result):
        out.append("the plain parser and Lark read the record differently")
    return out


def check_shipped(case: tuple[str, int, str]) -> list[str]:
    file, line, text = case
    mine = read_record(text)
    ref = parse_record(text)
    out = []
    if [(t.name, t.values) for t in ref.tags] != mine.tags:
        out.append(f"tags {[(t.name, t.values) for t in ref.tags]} != {mine.tags}")
    errors = check_text(text).errors
    if errors:
        out.append(f"refused: {errors[0]}")
    out += compare(mine, replayed(text))
    out += paths_agree(text, errors)
    return [f"{file}:{line}: {o}" for o in out]


@pytest.mark.parametrize("case", SAMPLE, ids=_id)
def test_a_shipped_record_reads_as_the_docs_say(case: tuple[str, int, str]) -> None:
    assert check_shipped(case) == []


@pytest.mark.slow
def test_every_shipped_record_reads_as_the_docs_say() -> None:
    found = [p for case in SHIPPED for p in check_shipped(case)]
    assert found == [], "\n".join(found[:20])


def test_the_shipped_records_are_found() -> None:
    """Several thousand records: every ruleset's conformance tests, the good examples."""
    assert len(SHIPPED) > 2000
    rulesets = {read_record(t).tag("Ruleset") for _, _, t in SHIPPED}
    assert {"marianna", "thousand", "belote", "schnapsen", "marjapussi-de"} <= rulesets
    assert any(f.startswith("docs/") for f, _, _ in SHIPPED)


# ------------------------------------------------------------------ the writer's layouts
LAYOUTS = {
    "crlf-tabs": Layout(eol="\r\n", gap="\t"),
    "wide-shuffled-tags": Layout(gap="  ", tag_order="shuffled", blank_lines=3, seed=1),
    "a-move-a-line-comments": Layout(moves_per_line=1, notes_alone=True, comments=True),
    "bare-italian": Layout(marks=False, notes=False, cards="italian"),
    "three-a-line-german-comments": Layout(moves_per_line=3, cards="german", comments=True,
                                           seed=2),
    "comments-beside-moves": Layout(comments=True, inline=True, seed=3),
}


def _game(ref: dict[str, Any]) -> list[Any]:
    """What makes the game: the deals, every action, the tricks, the ends, the result."""
    return [[(h["number"], h["dealer"], h["first"], h["deal"], h["turn_up"],
              [(a["seat"], a["action"]) for a in h["actions"]],
              [(t["cards"], t["winner"]) for t in h["tricks"]], h["end"])
             for h in ref["hands"]], ref["result"]]


def check_layout(case: tuple[str, int, str], name: str) -> list[str]:
    file, line, text = case
    rec = read_record(text)
    lay = LAYOUTS[name]
    if not lay.notes and UNKNOWN in text:
        return []  # a partial record's annotations narrow its deals: they stay
    rewritten = write(rec, lay)
    out = []
    if read_record(rewritten).tags != rec.tags and lay.tag_order == "as_read":
        out.append("the independent reader reads its own writing differently")
    errors = check_text(rewritten).errors
    if errors:
        out.append(f"refused in layout {name}: {errors[0]}")
    elif _game(replayed(rewritten)) != _game(replayed(text)):
        out.append(f"layout {name} reads as another game")
    out += paths_agree(rewritten, errors)
    return [f"{file}:{line}: {o}" for o in out]


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_reference_reads_the_independent_layouts_as_the_same_game(name: str) -> None:
    found = [p for case in SAMPLE[::4] for p in check_layout(case, name)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_shipped_record_in_every_layout(name: str) -> None:
    found = [p for case in SHIPPED for p in check_layout(case, name)]
    assert found == [], "\n".join(found[:10])


# ------------------------------------------------------------------ forbidden changes
#: The records the changes start from (valid, in the canonical layout): whole matches
#: with a result, a bidding game's hand with its contract, a seat's view.
BASES = {
    "marianna": "tests/data/records/good/marianna.mrg",
    "mariglia": "tests/data/records/good/mariglia.mrg",
    "marjapussi": "tests/data/records/good/marjapussi.mrg",
    "mariazza": "tests/data/records/good/mariazza.mrg",
    "thousand": "conformance/tests/thousand/golden/default.test",
    "view": "tests/data/records/good/marianna-view-S.mrg",
}
_TEXT = {f: t for f, _, t in SHIPPED}


def base(name: str) -> str:
    return _TEXT[BASES[name]]


Change = tuple[str, str, int, int]  # the changed text, the code, line and column expected


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _swap(text: str, line: int, column: int, old: str, new: str) -> str:
    """``text`` with the token ``old`` at ``line``:``column`` written ``new``."""
    rows = _lines(text)
    row = rows[line - 1]
    assert row[column - 1:column - 1 + len(old)] == old, (row, column, old)
    rows[line - 1] = row[:column - 1] + new + row[column - 1 + len(old):]
    return "\n".join(rows)


def _insert(text: str, before: int, *rows: str) -> str:
    """``text`` with ``rows`` inserted as lines ``before``, ``before + 1``..."""
    lines = _lines(text)
    return "\n".join([*lines[:before - 1], *rows, *lines[before - 1:]])


def _tag_line(rec: Record, name: str) -> int:
    return next(line for (n, _), (line, _) in zip(rec.tags, rec.tag_places, strict=True)
                if n == name)


def _notes(rec: Record, key: str) -> list[Any]:
    return [(h, i) for h in rec.hands for i in h.items if i.kind == "note"
            and i.values and i.values[0] == key]


def _note_change(text: str, key: str, code: str, change: Any) -> Change:
    """The first annotation ``(key ...)`` changed by ``change`` (its values -> new ones);
    the problem is placed at the annotation ("(")."""
    rec = read_record(text)
    _, item = _notes(rec, key)[0]
    old = "(" + " ".join(item.values) + ")"
    new = "(" + " ".join([key, *change(list(item.values[1:]))]) + ")"
    return _swap(text, item.line, item.column, old, new), code, item.line, item.column


def _bump(values: list[str]) -> list[str]:
    return [str(int(values[0]) + 1), *values[1:]]


def _header_changes() -> list[tuple[str, Change]]:
    text = base("marianna")
    rec = read_record(text)
    rs = _tag_line(rec, "Ruleset")
    dealer = _tag_line(rec, "Dealer")
    mariazza = base("mariazza")
    out = [
        ("Ruleset given twice", (_insert(text, rs + 1, '[Ruleset "marianna"]'), "N120",
                                 rs + 1, 2)),
        ("format version 2", (_swap(text, 1, 1, '[Mariage "1"]', '[Mariage "2"]'), "N121",
                              1, 2)),
        ("unknown ruleset", (_swap(text, rs, 1, '[Ruleset "marianna"]',
                                   '[Ruleset "marianna-x"]'), "N122", rs, 2)),
        ("unknown option", (_insert(text, rs + 1, '[Option "no_such" "1"]'), "N123",
                            rs + 1, 2)),
        ("bad option value", (_insert(text, rs + 1, '[Option "target" "many"]'), "N123",
                              rs + 1, 2)),
        ("unknown seat", (_insert(text, rs + 1, '[Seat "Q" "Quentin"]'), "N124", rs + 1, 2)),
        ("dealer not a seat", (_swap(text, dealer, 1, '[Dealer "W"]', '[Dealer "Q"]'),
                               "N124", dealer, 2)),
        # a missing tag: placed at the record's first line
        ("dealer missing", ("\n".join(r for r in _lines(text) if not r.startswith("[Dealer")),
                            "N125", 1, 1)),
        ("a dealer where there is none", (_insert(mariazza, 3, '[Dealer "A"]'), "N125", 3, 2)),
        ("a state field the rules do not keep", (_insert(
            text, rs + 1, '[StartHand "2"]', '[StartState "spin" "1"]'), "N126", rs + 2, 2)),
        ("a later hand past the target", (_insert(
            text, rs + 1, '[StartHand "2"]', '[StartScore "600" "0"]'), "N162", rs + 2, 2)),
    ]
    assert '[Dealer "W"]' in text
    return out


def _deal_changes() -> list[tuple[str, Change]]:
    text = base("marianna")
    rec = read_record(text)
    hand = rec.hands[0]
    places = dict(zip([lab for lab, _ in hand.parts], hand.part_places, strict=True))
    seats = [lab for lab, _ in hand.parts if lab not in ("dealer", "first", "stock", "turnup")]
    a, b = seats[0], seats[1]
    _, _, a_cols = places[a]
    b_line, b_col, b_cols = places[b]
    first_a, first_b = hand.part(a), hand.part(b)
    assert first_a is not None and first_b is not None
    s_line, s_col, _ = places["stock"]
    d_line, d_col, _ = places["dealer"]
    two = rec.hands[1]
    mariazza = base("mariazza")
    lot = read_record(mariazza).hands[0]
    f_line, f_col, _ = lot.part_places[0]
    assert lot.parts[0][0] == "first"
    no_first = _swap(mariazza, f_line, f_col, f"first: {lot.parts[0][1][0]}", "")
    f_line, f_col, _ = lot.part_places[1]  # the deal's first part is now the next
    return [
        ("a dealer line against the rules", (_swap(text, d_line, d_col, "dealer: W",
                                                   "dealer: S"), "N125", d_line, d_col)),
        # a part missing: placed at the deal's first part
        ("no first player where it is drawn by lot", (no_first, "N133", f_line, f_col)),
        ("unknown card", (_swap(text, *a_cols[1], first_a[1], "ZZ"), "N130", *a_cols[1])),
        ("a card dealt twice", (_swap(text, *b_cols[2], first_b[2], first_a[0]), "N131",
                                *b_cols[2])),
        # a wrong count: placed at the part's label
        ("a card short", (_swap(text, b_cols[-1][0], b_cols[-1][1] - 1, " " + first_b[-1],
                                ""), "N132", b_line, b_col)),
        ("unknown label", (_swap(text, s_line, s_col, "stock:", "stack:"), "N133", s_line,
                           s_col)),
        ("hands misnumbered", (_swap(text, two.line, two.column + 5, str(two.number),
                                     str(two.number + 1)), "N134", two.line, two.column)),
    ]


def _tricks(hand: Any) -> list[list[Any]]:
    """The card plays of each trick of a canonical hand: the actions after each trick
    number, up to the next (a card: a two-letter action text)."""
    out: list[list[Any]] = []
    for item in hand.items:
        if item.kind == "mark":
            out.append([])
        elif item.kind == "act" and out and len(item.values[1]) == 2:
            out[-1].append(item)
    return out


def _must_follow(text: str) -> Change:
    """A seat that followed suit plays instead a card of another suit it was dealt (and
    plays later): Mariglia's players must follow suit (``mariglia.play.follow``)."""
    rec = read_record(text)
    hand = rec.hands[0]
    tricks = _tricks(hand)
    for k, trick in enumerate(tricks):
        lead = trick[0].values[1][1]
        for item in trick[1:]:
            seat, card = item.values
            later = [i.values[1] for t in tricks[k + 1:] for i in t if i.values[0] == seat]
            dealt = hand.part(seat) or ()
            other = [c for c in later if c[1] != lead and c in dealt]
            if card[1] == lead and other:
                return (_swap(text, item.line, item.column, item.written, f"{seat}:{other[0]}"),
                        "N141", item.line, item.column)
    raise AssertionError("no trick to change")


def _play_changes() -> list[tuple[str, Change]]:
    text = base("marianna")
    rec = read_record(text)
    one, two = rec.hands[0], rec.hands[1]
    trick = _tricks(one)[1]
    p2, p3 = trick[1], trick[2]
    swapped = _swap(_swap(text, p3.line, p3.column, p3.written, p2.written), p2.line,
                    p2.column, p2.written, p3.written)
    mark = next(i for i in one.items if i.kind == "mark" and i.values[0] == "3")
    last_act = [i for i in one.items if i.kind == "act"][-1]
    final = rec.hands[-1]
    final_act = [i for i in final.items if i.kind == "act"][-1]
    assert rec.result_place is not None
    result_line = rec.result_place[0]
    rows = _lines(text)
    last_mark = [i for i in one.items if i.kind == "mark"][-1]
    cut = "\n".join(rows[:last_mark.line - 1] + rows[two.line - 1:])
    hand_rows = rows[final.line - 1:result_line - 1]
    extra = [f"hand {final.number + 1}", *hand_rows[1:]]
    first_act = next(i for i in one.items if i.kind == "act")
    return [
        ("unknown action", (_swap(text, first_act.line, first_act.column, first_act.written,
                                  first_act.values[0] + ":frobnicate"), "N140",
                            first_act.line, first_act.column)),
        ("not following suit", _must_follow(base("mariglia"))),
        ("out of turn", (swapped, "N142", p2.line, p2.column)),
        ("after the end of the hand", (_insert(text, two.line - 1, last_act.written), "N143",
                                       two.line - 1, 1)),
        ("after the end of the match", (_insert(text, result_line - 1, final_act.written),
                                        "N144", result_line - 1, 1)),
        ("wrong trick number", (_swap(text, mark.line, mark.column, "3.", "4."), "N145",
                                mark.line, mark.column)),
        ("a trick number before the auction", _before_auction()),
        ("a hand that stops early", (cut, "N146", last_mark.line, 1)),
        ("a hand after the match", (_insert(text, result_line, *extra), "N162",
                                    result_line, 1)),
    ]


def _before_auction() -> Change:
    text = base("thousand")
    rec = read_record(text)
    bid = next(i for i in rec.hands[0].items if i.kind == "act")
    return _swap(text, bid.line, bid.column, bid.written, "0. " + bid.written), "N145", \
        bid.line, bid.column


def _note_changes() -> list[tuple[str, Change]]:
    text = base("marianna")
    rec = read_record(text)
    won_hand, won = _notes(rec, "won")[0]
    seats = [lab for lab, _ in won_hand.parts if len(lab) == 1]
    other = next(s for s in seats if s != won.values[1])
    result_line, result_col = rec.result_place or (0, 0)
    assert rec.result is not None
    winner = rec.result[0]
    loser = next(t for t in ("NS", "WE") if t != winner)
    after = won.column + len("(" + " ".join(won.values) + ")")
    return [
        ("wrong trick winner", _note_change(text, "won", "N150", lambda v: [other])),
        ("wrong trump", _note_change(text, "trump", "N151",
                                     lambda v: ["C" if v[0] != "C" else "D"])),
        ("wrong hand points", _note_change(text, "points", "N152", _bump)),
        ("wrong match score", _note_change(text, "match", "N153", _bump)),
        ("wrong hand score", _note_change(text, "scored", "N154", _bump)),
        ("wrong ending", _note_change(text, "ended", "N154", lambda v: ["call_out"])),
        ("unknown annotation", (_swap(text, won.line, after, "", " (colour red)"), "N155",
                                won.line, after + 1)),
        ("wrong contract", _note_change(base("thousand"), "contract", "N156",
                                        lambda v: [*v[:-1], "failed" if v[-1] == "made"
                                                   else "made"])),
        ("wrong winner of the match", (_swap(text, result_line, result_col + 7, winner,
                                             loser), "N160", result_line, result_col)),
        ("no result before the match is over", _unfinished()),
    ]


def _unfinished() -> Change:
    """The last hand and the result left out: the record stops before the match is over;
    placed at the record's last token (where it stops)."""
    text = base("marianna")
    rec = read_record(text)
    rows = _lines(text)[:rec.hands[-1].line - 1]
    last = rec.hands[-2].items[-1]
    return "\n".join(rows) + "\n", "N161", last.line, last.column


def _partial_changes() -> list[tuple[str, Change]]:
    """Two cards of hand 1 made unknown (``??``: two deals fit) and a trick winner of that
    hand that neither gives: no deal fits (N135), or with a search of one replay, the
    search gives up (N136); placed at the hand."""
    text = base("marianna")
    rec = read_record(text)
    hand = rec.hands[0]
    places = dict(zip([lab for lab, _ in hand.parts], hand.part_places, strict=True))
    for seat in ("N", "W"):
        cards = hand.part(seat)
        assert cards is not None
        text = _swap(text, *places[seat][2][0], cards[0], UNKNOWN)
    won = [i for h, i in _notes(rec, "won") if h is hand][-1]
    seats = [lab for lab, _ in hand.parts if len(lab) == 1]
    other = next(s for s in seats if s != won.values[1])
    old = "(" + " ".join(won.values) + ")"
    bad = _swap(text, won.line, won.column, old, f"(won {other})")
    return [("no deal fits", (bad, "N135", hand.line, hand.column)),
            ("the search gives up", (bad, "N136", hand.line, hand.column))]


def _syntax_changes() -> list[tuple[str, Change]]:
    """A stray bracket (N110, at it), a comment never closed (N111, at its brace), a hand
    number of ten digits (N112, at the number); and a first dealer against the rules
    (Belote with ``first_dealer`` naming a seat: N125 at the tag)."""
    text = base("marianna")
    rec = read_record(text)
    act = [i for i in rec.hands[0].items if i.kind == "act"][1]
    two = rec.hands[1]
    assert rec.result_place is not None
    line = rec.result_place[0]
    belote = _TEXT["conformance/tests/belote/golden/first_dealer-seat1.test"]
    dealer = _tag_line(read_record(belote), "Dealer")
    return [
        ("a stray bracket", (_swap(text, act.line, act.column, "", "] "), "N110", act.line,
                             act.column)),
        ("a comment never closed", (_insert(text, line, "{never closed"), "N111", line, 1)),
        ("a hand number of ten digits", (_swap(text, two.line, two.column + 5, "2",
                                               "1234567890"), "N112", two.line,
                                         two.column + 5)),
        ("a first dealer against the rules", (_swap(belote, dealer, 1, '[Dealer "W"]',
                                                    '[Dealer "S"]'), "N125", dealer, 2)),
    ]


CHANGES = dict(_syntax_changes() + _header_changes() + _deal_changes() + _play_changes()
               + _note_changes() + _partial_changes())


def check_change(name: str) -> list[str]:
    """The reference names the expected code first, at its place, in both modes; the fast
    path does not accept it; the readers agree."""
    text, code, line, column = CHANGES[name]
    limit = 1 if code == "N136" else 5000
    out = []
    for strict in (False, True):
        errors = check_text(text, strict=strict, search_limit=limit).errors
        got = [(e.code, e.line, e.column) for e in errors[:1]]
        if got != [(code, line, column)]:
            out.append(f"{name} ({'strict' if strict else 'lenient'}): expected "
                       f"{code} at {line}:{column}, got {[str(e) for e in errors[:3]]}")
    out += paths_agree(text, check_text(text, search_limit=limit).errors)
    return out


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_forbidden_change_is_named_with_its_code_and_place(name: str) -> None:
    assert check_change(name) == []


def test_the_command_line_names_every_change(tmp_path: Path) -> None:
    """``mariage validate`` on a file of every change: each record's problem at its place
    in the file, exit 1, no traceback (a process of its own, as a user runs it)."""
    names = [n for n in sorted(CHANGES) if CHANGES[n][1] != "N136"]
    parts, expected, offset = [], [], 0
    for name in names:
        text, code, line, column = CHANGES[name]
        text = text if text.endswith("\n") else text + "\n"
        parts.append(text)
        expected.append(f"{offset + line}:{column}: {code}")
        offset += text.count("\n")
    path = tmp_path / "changes.mrg"
    path.write_text("".join(parts), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mariage", "validate", str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    out = run.stdout + run.stderr
    assert run.returncode == 1 and "Traceback" not in out
    missing = [f"{n}: {e}" for n, e in zip(names, expected, strict=True)
               if f"{path}:{e}" not in out]
    assert missing == [], out[:3000]
    assert f"{len(names)} records, 0 valid, {len(names)} invalid" in out


# ------------------------------------------------------------------ changes to any record
def any_record_changes(text: str) -> list[tuple[str, Change]]:
    """Changes that fit any full record in the canonical layout."""
    rec = read_record(text)
    if UNKNOWN in text or not rec.hands:
        return []
    out: list[tuple[str, Change]] = []
    rs = _tag_line(rec, "Ruleset")
    out.append(("Ruleset twice", (_insert(text, rs + 1, f'[Ruleset "{rec.tag("Ruleset")}"]'),
                                  "N120", rs + 1, 2)))
    hand = rec.hands[0]
    seat_parts = [(lab, cards, place) for (lab, cards), place in
                  zip(hand.parts, hand.part_places, strict=True) if cards and lab not in
                  ("dealer", "first")]
    if seat_parts:
        _, cards, (_, _, cols) = seat_parts[0]
        out.append(("unknown card", (_swap(text, *cols[0], cards[0], "ZZ"), "N130",
                                     *cols[0])))
    if rec.tag("StartHand") is None:
        out.append(("hand renumbered", (_swap(text, hand.line, hand.column + 5, "1", "7"),
                                        "N134", hand.line, hand.column)))
    marks = [i for i in hand.items if i.kind == "mark"]
    if marks:
        m = marks[-1]
        n = m.values[0]
        out.append(("trick number", (_swap(text, m.line, m.column, n + ".",
                                           f"{int(n) + 1}."), "N145", m.line, m.column)))
    wons = [i for i in hand.items if i.kind == "note" and i.values[:1] == ("won",)]
    seats = [lab for lab, _, _ in seat_parts if lab not in ("stock", "turnup", "deck")]
    if wons and len(seats) > 1:
        w = wons[0]
        other = next(s for s in seats if s != w.values[1])
        out.append(("trick winner", (_swap(text, w.line, w.column, f"(won {w.values[1]})",
                                           f"(won {other})"), "N150", w.line, w.column)))
    out += _play_order_changes(text, rec)
    return out


def _play_order_changes(text: str, rec: Record) -> list[tuple[str, Change]]:
    """Two cards of a trick played in the other order (N142 at the first moved), an
    action after hand 1's end (N143), a hand or an action after the match's (N162, N144)."""
    out: list[tuple[str, Change]] = []
    hand = rec.hands[0]
    items = hand.items
    for k in range(2, len(items) - 1):
        p1, p2, p3 = items[k - 2], items[k - 1], items[k]
        plays = all(i.kind == "act" and len(i.values[1]) == 2 for i in (p1, p2, p3))
        if plays and len({p1.values[0], p2.values[0], p3.values[0]}) == 3:
            swapped = _swap(_swap(text, p3.line, p3.column, p3.written, p2.written),
                            p2.line, p2.column, p2.written, p3.written)
            out.append(("out of turn", (swapped, "N142", p2.line, p2.column)))
            break
    acts = [i for i in items if i.kind == "act" and not i.values[1].startswith("resign")]
    if len(rec.hands) > 1 and acts:
        two = rec.hands[1].line
        out.append(("after the hand", (_insert(text, two - 1, acts[-1].written), "N143",
                                       two - 1, 1)))
    if rec.result is not None and rec.result[0] != "*" and rec.result_place is not None \
            and rec.result[1] != "resign":
        final = rec.hands[-1]
        line = rec.result_place[0]
        last = [i for i in final.items if i.kind == "act"]
        if last:
            out.append(("after the match", (_insert(text, line - 1, last[-1].written), "N144",
                                            line - 1, 1)))
        rows = _lines(text)[final.line:line - 1]
        out.append(("a hand after the match", (_insert(
            text, line, f"hand {final.number + 1}", *rows), "N162", line, 1)))
    return out


def check_any(case: tuple[str, int, str]) -> list[str]:
    file, line, text = case
    out = []
    for name, (changed, code, at, column) in any_record_changes(text):
        errors = check_text(changed).errors
        got = [(e.code, e.line, e.column) for e in errors[:1]]
        if got != [(code, at, column)]:
            out.append(f"{file}:{line}: {name}: expected {code} at {at}:{column}, got "
                       f"{[str(e) for e in errors[:2]]}")
        out += [f"{file}:{line}: {name}: {p}" for p in paths_agree(changed, errors)]
    return out


def test_changes_to_a_sample_of_records() -> None:
    found = [p for case in SAMPLE[::6] for p in check_any(case)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.slow
def test_changes_to_every_shipped_record() -> None:
    found = [p for case in SHIPPED for p in check_any(case)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.slow
def test_the_command_line_validates_every_shipped_record(tmp_path: Path) -> None:
    """``mariage validate --format json`` on one file of every shipped record."""
    path = tmp_path / "shipped.mrg"
    path.write_text("".join(t if t.endswith("\n") else t + "\n" for _, _, t in SHIPPED),
                    encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mariage", "validate", str(path),
                          "--format", "json"], capture_output=True, text=True, timeout=300,
                         check=False)
    assert run.returncode == 0, run.stdout[:2000] + run.stderr[:2000]
    summary = json.loads(run.stdout)["files"][0]
    assert (summary["records"], summary["valid"], summary["errors"]) == (
        len(SHIPPED), len(SHIPPED), [])
