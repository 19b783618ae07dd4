"""Changes a record's author may not make, each with the code and place the docs give it,
written from ``docs/notation.rst`` alone (with :mod:`scribekit`; nothing of :mod:`mariage`).

A change is the changed text, the error code ``docs/notation.rst`` gives the problem,
and the line and column of the token at fault (the docs' *Reading and errors*): the
named changes start from a few valid records (:data:`BASES`); :func:`any_record_changes`
fit any full record in the canonical layout.
"""

from __future__ import annotations

from typing import Any

from scribekit import UNKNOWN, Record, french, read_record, shipped_records

SHIPPED = shipped_records()

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


def swap(text: str, line: int, column: int, old: str, new: str) -> str:
    """``text`` with the token ``old`` at ``line``:``column`` written ``new`` (a card
    ``old`` in French may be written there in another code)."""
    rows = _lines(text)
    row = rows[line - 1]
    if row[column - 1:column - 1 + len(old)] != old:
        written = row[column - 1:].split()[0]
        assert french(written) == old, (row, column, old)
        old = written
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
    return swap(text, item.line, item.column, old, new), code, item.line, item.column


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
        ("format version 2", (swap(text, 1, 1, '[Mariage "1"]', '[Mariage "2"]'), "N121",
                              1, 2)),
        ("unknown ruleset", (swap(text, rs, 1, '[Ruleset "marianna"]',
                                   '[Ruleset "marianna-x"]'), "N122", rs, 2)),
        ("unknown option", (_insert(text, rs + 1, '[Option "no_such" "1"]'), "N123",
                            rs + 1, 2)),
        ("bad option value", (_insert(text, rs + 1, '[Option "target" "many"]'), "N123",
                              rs + 1, 2)),
        ("unknown seat", (_insert(text, rs + 1, '[Seat "Q" "Quentin"]'), "N124", rs + 1, 2)),
        ("dealer not a seat", (swap(text, dealer, 1, '[Dealer "W"]', '[Dealer "Q"]'),
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
    no_first = swap(mariazza, f_line, f_col, f"first: {lot.parts[0][1][0]}", "")
    f_line, f_col, _ = lot.part_places[1]  # the deal's first part is now the next
    return [
        ("a dealer line against the rules", (swap(text, d_line, d_col, "dealer: W",
                                                   "dealer: S"), "N125", d_line, d_col)),
        # a part missing: placed at the deal's first part
        ("no first player where it is drawn by lot", (no_first, "N133", f_line, f_col)),
        ("unknown card", (swap(text, *a_cols[1], first_a[1], "ZZ"), "N130", *a_cols[1])),
        ("a card dealt twice", (swap(text, *b_cols[2], first_b[2], first_a[0]), "N131",
                                *b_cols[2])),
        # a wrong count: placed at the part's label
        ("a card short", (swap(text, b_cols[-1][0], b_cols[-1][1] - 1, " " + first_b[-1],
                                ""), "N132", b_line, b_col)),
        ("unknown label", (swap(text, s_line, s_col, "stock:", "stack:"), "N133", s_line,
                           s_col)),
        ("hands misnumbered", (swap(text, *two.number_place, str(two.number),
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
                return (swap(text, item.line, item.column, item.written, f"{seat}:{other[0]}"),
                        "N141", item.line, item.column)
    raise AssertionError("no trick to change")


def _play_changes() -> list[tuple[str, Change]]:
    text = base("marianna")
    rec = read_record(text)
    one, two = rec.hands[0], rec.hands[1]
    trick = _tricks(one)[1]
    p2, p3 = trick[1], trick[2]
    swapped = swap(swap(text, p3.line, p3.column, p3.written, p2.written), p2.line,
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
        ("unknown action", (swap(text, first_act.line, first_act.column, first_act.written,
                                  first_act.values[0] + ":frobnicate"), "N140",
                            first_act.line, first_act.column)),
        ("not following suit", _must_follow(base("mariglia"))),
        ("out of turn", (swapped, "N142", p2.line, p2.column)),
        ("after the end of the hand", (_insert(text, two.line - 1, last_act.written), "N143",
                                       two.line - 1, 1)),
        ("after the end of the match", (_insert(text, result_line - 1, final_act.written),
                                        "N144", result_line - 1, 1)),
        ("wrong trick number", (swap(text, mark.line, mark.column, "3.", "4."), "N145",
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
    return swap(text, bid.line, bid.column, bid.written, "0. " + bid.written), "N145", \
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
        ("unknown annotation", (swap(text, won.line, after, "", " (colour red)"), "N155",
                                won.line, after + 1)),
        ("wrong contract", _note_change(base("thousand"), "contract", "N156",
                                        lambda v: [*v[:-1], "failed" if v[-1] == "made"
                                                   else "made"])),
        ("wrong winner of the match", (swap(text, *(rec.winner_place or (0, 0)), winner,
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
    search gives up (N136): "no deal fits" at the annotation no deal gives, "gave up" at
    the hand."""
    text = base("marianna")
    rec = read_record(text)
    hand = rec.hands[0]
    places = dict(zip([lab for lab, _ in hand.parts], hand.part_places, strict=True))
    for seat in ("N", "W"):
        cards = hand.part(seat)
        assert cards is not None
        text = swap(text, *places[seat][2][0], cards[0], UNKNOWN)
    won = [i for h, i in _notes(rec, "won") if h is hand][-1]
    seats = [lab for lab, _ in hand.parts if len(lab) == 1]
    other = next(s for s in seats if s != won.values[1])
    old = "(" + " ".join(won.values) + ")"
    bad = swap(text, won.line, won.column, old, f"(won {other})")
    return [("no deal fits", (bad, "N135", won.line, won.column)),
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
        ("a stray bracket", (swap(text, act.line, act.column, "", "] "), "N110", act.line,
                             act.column)),
        ("a comment never closed", (_insert(text, line, "{never closed"), "N111", line, 1)),
        ("a hand number of ten digits", (swap(text, *two.number_place, "2", "1234567890"),
                                         "N112", *two.number_place)),
        ("a first dealer against the rules", (swap(belote, dealer, 1, '[Dealer "W"]',
                                                    '[Dealer "S"]'), "N125", dealer, 2)),
    ]


CHANGES = dict(_syntax_changes() + _header_changes() + _deal_changes() + _play_changes()
               + _note_changes() + _partial_changes())



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
        out.append(("unknown card", (swap(text, *cols[0], cards[0], "ZZ"), "N130",
                                     *cols[0])))
    if rec.tag("StartHand") is None:
        out.append(("hand renumbered", (swap(text, *hand.number_place, "1", "7"),
                                        "N134", hand.line, hand.column)))
    marks = [i for i in hand.items if i.kind == "mark"]
    if marks:
        m = marks[-1]
        n = m.values[0]
        out.append(("trick number", (swap(text, m.line, m.column, n + ".",
                                           f"{int(n) + 1}."), "N145", m.line, m.column)))
    wons = [i for i in hand.items if i.kind == "note" and i.values[:1] == ("won",)]
    seats = [lab for lab, _, _ in seat_parts if lab not in ("stock", "turnup", "deck")]
    if wons and len(seats) > 1:
        w = wons[0]
        other = next(s for s in seats if s != w.values[1])
        out.append(("trick winner", (swap(text, w.line, w.column, f"(won {w.values[1]})",
                                           f"(won {other})"), "N150", w.line, w.column)))
    out += _play_order_changes(text, rec)
    out += _any_note_changes(text, rec)
    return out


#: The annotations whose first number a change bumps, and the code that names it.
_BUMPED = {"points": "N152", "match": "N153", "scored": "N154"}


def _any_note_changes(text: str, rec: Record) -> list[tuple[str, Change]]:
    """The first of each numeric annotation bumped, the first trump changed, the ending
    named otherwise, the result given to no one (``-``) where a team won."""
    out: list[tuple[str, Change]] = []
    notes = [i for h in rec.hands for i in h.items if i.kind == "note" and i.values]
    for key, code in _BUMPED.items():
        found = next((i for i in notes if i.values[0] == key and len(i.values) > 1), None)
        if found is not None:
            old = "(" + " ".join(found.values) + ")"
            new = "(" + " ".join([key, *_bump(list(found.values[1:]))]) + ")"
            out.append((f"{key} bumped", (swap(text, found.line, found.column, old, new),
                                          code, found.line, found.column)))
    # a one-word annotation named otherwise: (trump S) another suit, (ended R) another way
    for key, code, name, swapped in (("trump", "N151", "trump changed", ("C", "D")),
                                     ("ended", "N154", "ending changed",
                                      ("call_out", "played_out"))):
        found = next((i for i in notes if i.values[0] == key and len(i.values) == 2), None)
        if found is not None:
            word = swapped[0] if found.values[1] != swapped[0] else swapped[1]
            changed = swap(text, found.line, found.column, f"({key} {found.values[1]})",
                           f"({key} {word})")
            out.append((name, (changed, code, found.line, found.column)))
    if rec.result is not None and rec.result[0] not in ("*", "-") and rec.result_place \
            and rec.winner_place:
        out.append(("result to no one", (swap(text, *rec.winner_place, rec.result[0], "-"),
                                         "N160", *rec.result_place)))
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
            swapped = swap(swap(text, p3.line, p3.column, p3.written, p2.written),
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
