"""The fast path for canonical records reads deals and closing notes as the full validator.

:func:`mariage.notation.fast.fast_valid` lays out canonical deals itself (for rules
without packets of several sizes or a turned-up card in the dealer's hand) and
compares the notes that close a hand with what the writer writes. Both must agree
with the full validator: the same deck and first player as
:func:`~mariage.notation.layout.layout`, and every record it accepts valid.
"""

from __future__ import annotations

import contextlib
import functools
import random
import unittest.mock
from collections.abc import Iterator
from typing import Any

import pytest
from families import by_family
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage import GameState, list_rulesets, load_rules
from mariage.notation import fast as fast_module
from mariage.notation import replay
from mariage.notation.batch import check_raw
from mariage.notation.checked import Checked
from mariage.notation.fast import _canonical_deal, fast_valid
from mariage.notation.layout import layout
from mariage.notation.reader import DEFAULT_LIMIT, RawRecord, parse_record
from mariage.notation.replay import check_text
from mariage.notation.writer import write_record
from notationkit import recorded_match


def _unsure(*_: object) -> None:
    raise AssertionError("a recorded deal has a problem")


def _canonical(name: str) -> bool:
    """Deals the fast path lays out itself (the others go through the layout)."""
    rules = load_rules(name)
    return not rules.deal_packets and rules.turn_up in ("none", "under_stock")


@functools.cache
def _recorded(name: str, seed: int) -> str:
    """A match of ``name`` played with ``seed``, as written (for the two tests below)."""
    return write_record(recorded_match(name, {}, seed, seed + 3))


@pytest.mark.parametrize("name", list_rulesets())
def test_the_fast_path_accepts_the_records_of_every_ruleset(name: str) -> None:
    for seed in range(2):
        text = _recorded(name, seed)
        assert fast_valid(text), (name, seed)


def test_some_rulesets_are_laid_out_by_the_layout() -> None:
    # packets or a dealer's turned-up card: the layout, not the fast reader, lays them out
    assert {"mariglia", "schnapsen", "sixty-six"} <= {
        name for name in list_rulesets() if not _canonical(name)}


@pytest.mark.parametrize("name", [n for n in list_rulesets() if _canonical(n)])
def test_canonical_deals_are_laid_out_as_the_layout_does(name: str) -> None:
    rules = load_rules(name)
    for seed in range(2):
        text = _recorded(name, seed)
        rec = parse_record(text)
        lines = text.split("\n")
        for hand in rec.hands:
            written = {p.label: p.cards for p in hand.deal.parts}.get("dealer")
            dealer = None if written is None else rules.seat_names.index(written[0])
            st = GameState(rules, first_dealer=dealer)  # the dealer is all the layout needs
            lay = layout(rules, hand.deal, st.dealer, _unsure)
            assert lay is not None
            start = lines.index(f"hand {hand.number}") + 1
            deck, first, after = _canonical_deal(rules, st, lines, start)
            assert (deck, first) == (lay.deck, lay.first), (name, seed, hand.number)
            assert after == start + len(hand.deal.parts)


def _mutations(text: str) -> list[str]:
    lines = text.split("\n")
    i = lines.index("hand 2") if "hand 2" in lines else lines.index("hand 1")
    deal = lines[i + 1]
    seat_row = lines[i + 2]
    label, _, cards = seat_row.partition(": ")
    first, *rest = cards.split(" ")
    out = [
        text.replace(deal, deal + " N", 1),  # a second dealer
        text.replace(deal, "deal dealer: " + ("X" if not deal.endswith("X") else "Y"), 1),
        text.replace(seat_row, f"{label}: {' '.join(rest)}", 1),  # a card short
        text.replace(seat_row, f"{label}: {' '.join([first, first, *rest[1:]])}", 1),
        text.replace(seat_row, f"{label}: {' '.join([*rest, first])}", 1),  # reordered: valid
        text.replace(seat_row, f"{label}:  {cards}", 1),
        text.replace(seat_row, f"{label}: ?? {' '.join(rest)}", 1),
        text.replace(seat_row, seat_row + "\nstock: " + first, 1),  # one part too many
    ]
    for key in ("points", "scored", "match", "ended"):
        k = text.find(f"({key} ")
        if k >= 0:
            j = text.index(")", k)
            out.append(text[:k] + f"({key} 1 2)" + text[j + 1:])
            out.append(text[:k] + f"({key}  " + text[k + len(key) + 2:])
    k = text.find("(ended ")
    if k >= 0:
        out.append(text[:k] + "(won Z) " + text[k:])
    return out


@pytest.mark.parametrize("name", list_rulesets())
def test_whatever_the_fast_path_accepts_is_valid(name: str) -> None:
    text = write_record(recorded_match(name, {}, 5, 9))
    for changed in _mutations(text):
        if changed == text:
            continue
        errors = check_text(changed, strict=True).errors
        accepted = fast_valid(changed)
        if accepted:
            assert errors == [], (name, changed[:300])
        if errors:
            assert not accepted


# --------------------------------------------- the fast path against the full validator
# Records of every ruleset played by the property-test player, changed where the fast
# path reads for itself: the header tags (kept by what the header check reads), the
# trick marks, the notes after a trick or a declaration, the closing notes of a hand,
# the words of the play. Whatever the change, validating through the fast path
# (check_raw) reports exactly what the full validator reports, strict and lenient;
# and the fast path takes every record it is given unchanged.

@functools.cache
def _played(name: str, seed: int) -> str:
    return write_record(recorded_match(name, {}, seed, seed + 7))


def _tag_changes(text: str, rules_seats: tuple[str, ...]) -> list[str]:
    lines = text.split("\n")
    head = [i for i, line in enumerate(lines) if line.startswith("[")]
    out = []
    dealer = next((i for i in head if lines[i].startswith("[Dealer ")), None)
    if dealer is not None:
        for seat in (*rules_seats, "X", "-"):
            out.append(text.replace(lines[dealer], f'[Dealer "{seat}"]', 1))
        out.append(text.replace(lines[dealer], lines[dealer] + "\n" + lines[dealer], 1))
        out.append(text.replace(lines[dealer] + "\n", "", 1))
    seat_tag = next((i for i in head if lines[i].startswith("[Seat ")), None)
    if seat_tag is not None:
        name = lines[seat_tag].split('"')[1]
        out.append(text.replace(lines[seat_tag], f'[Seat "{name}" "someone else"]', 1))
        out.append(text.replace(lines[seat_tag], f'[Seat "{name}"]', 1))
        out.append(text.replace(lines[seat_tag], '[Seat "Q" "nobody"]', 1))
    out.append(text.replace('[Mariage "1"]', '[Mariage "2"]', 1))
    out.append(text.replace('[Mariage "1"]\n', '[Event "x"]\n[Mariage "1"]\n', 1))
    out.append(text.replace("]\n", ']\n[Event "a \\"quoted\\" name"]\n', 1))
    out.append(text.replace("]\n", ']\n[Option "target" "7"]\n', 1))
    out.append(text.replace("]\n", ']\n[StartHand "1"]\n', 1))
    out.append(text.replace("]\n", ']\n[StartHand "2"]\n[StartScore "1" "2"]\n', 1))
    return out


def _play_changes(text: str, pick: random.Random) -> list[str]:
    lines = text.split("\n")
    plays = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    notes = [i for i, line in enumerate(lines) if "(" in line and not line.startswith("[")]
    out = []
    for _ in range(6):
        i = pick.choice(plays)
        words = lines[i].split(" ")
        mark = words[0]
        changed = list(lines)
        k = pick.randrange(9)
        if k == 0:  # another trick number
            changed[i] = " ".join([f"{int(mark[:-1]) + pick.choice((-1, 1, 10))}.", *words[1:]])
        elif k == 1:  # the mark twice, or alone
            changed[i] = " ".join([mark, *words]) if pick.random() < 0.5 else mark
        elif k == 2:  # the mark in the middle of the line, where the writer never puts it
            changed[i] = " ".join([*words[1:2], mark, *words[2:]])
        elif k == 3:  # no mark
            changed[i] = " ".join(words[1:])
        elif k == 4:  # two actions swapped
            a, b = pick.sample(range(1, len(words)), 2)
            words[a], words[b] = words[b], words[a]
            changed[i] = " ".join(words)
        elif k == 5 and notes:  # a note's value changed
            j = pick.choice(notes)
            line = lines[j]
            at = pick.choice([m for m in range(len(line)) if line[m] == " " and "(" in
                              line[:m]] or [len(line) - 1])
            changed[j] = line[:at] + " 1" + line[at:]
        elif k == 6 and notes:  # a note dropped, or its seat, suit or team changed
            j = pick.choice(notes)
            line = lines[j]
            start = line.index("(")
            end = line.index(")", start)
            inner = line[start + 1:end].split(" ")
            if pick.random() < 0.5 or len(inner) < 2:
                changed[j] = (line[:start] + line[end + 2:]).rstrip()
            else:
                inner[1] = pick.choice(["N", "E", "S", "W", "H", "D", "-", "A", "B", "NS"])
                changed[j] = line[:start + 1] + " ".join(inner) + line[end:]
        elif k == 7:  # a line moved to the next
            changed[i:i + 2] = [changed[i] + " " + changed[i + 1]] if i + 1 < len(changed) \
                else [changed[i]]
        else:  # a line dropped
            del changed[i]
        out.append("\n".join(changed))
    return out


def _same_outcome(text: str) -> bool:
    """check_raw (the fast path first) reports what the full validator reports."""
    raw = RawRecord(text, 1, 1, "r.mrg")
    accepted = fast_valid(text, file="r.mrg")
    for strict in (True, False):
        checked = check_text(text, file="r.mrg", strict=strict)
        full = checked.errors
        with _answered(text, strict, accepted, checked):
            assert check_raw(raw, strict) == full, (strict, text[:400])
        if accepted:
            assert full == [], text[:400]
    return accepted


@contextlib.contextmanager
def _answered(text: str, strict: bool, accepted: bool, checked: Checked) -> Iterator[None]:
    """While it lasts, the fast path and the full validator that :func:`check_raw` calls,
    asked about ``text`` as :func:`_same_outcome` has just asked them, answer what they
    answered it (``accepted``, ``checked``): check_raw asked them again, the same
    question (half of this file's time); asked anything else, they answer afresh."""
    where = {"file": "r.mrg", "number": 1, "line": 1}
    fast_asked = ((text,), where)
    full_asked = ((text,), {**where, "strict": strict, "search_limit": DEFAULT_LIMIT})

    def fast(*args: Any, **kwargs: Any) -> bool:
        return accepted if (args, kwargs) == fast_asked else fast_valid(*args, **kwargs)

    def full(*args: Any, **kwargs: Any) -> Checked:
        return checked if (args, kwargs) == full_asked else check_text(*args, **kwargs)

    with unittest.mock.patch.object(fast_module, "fast_valid", fast), \
            unittest.mock.patch.object(replay, "check_text", full):
        yield


@pytest.mark.parametrize("name", by_family())
def test_header_changes_give_the_full_validators_outcome(name: str) -> None:
    text = _played(name, 1)
    seats = load_rules(name).seat_names
    for changed in _tag_changes(text, seats):
        first = _same_outcome(changed)
        assert _same_outcome(changed) == first  # the second time from the kept header
    # a header kept from an earlier record decides nothing by itself: the same tags
    # with other player names, after the rules cache was emptied
    from mariage.spec.rulesload import _DOCUMENTS, _RULES_CACHE

    assert fast_valid(text)
    kept = dict(_RULES_CACHE), dict(_DOCUMENTS)
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    try:
        assert _same_outcome(text.replace('" "p', '" "q'))
    finally:  # put back: the process's later tests loaded every ruleset they use again
        _RULES_CACHE.update(kept[0])
        _DOCUMENTS.update(kept[1])


@settings(max_examples=30, deadline=None, database=None, derandomize=True)
@given(st.sampled_from(list_rulesets()), st.integers(0, 2), st.integers(0, 10 ** 6))
def test_play_changes_give_the_full_validators_outcome(name: str, seed: int,
                                                       which: int) -> None:
    text = _played(name, seed)
    assert _same_outcome(text)  # unchanged: the fast path takes it
    for changed in _play_changes(text, random.Random(which)):
        _same_outcome(changed)


def test_the_notes_the_fast_path_compares_whole() -> None:
    # (trump S) after a declaration, the closing notes: compared as written, each
    # other spelling goes note by note through the full check
    found = {"trump": False, "closing": False, "won": False}
    for name in list_rulesets():
        text = _played(name, 0)
        here: set[str] = set()  # each kind of note once a ruleset: a whole check is long
        for line in text.split("\n"):
            if line[:1].isdigit() and " (won " in line and not found["won"]:
                found["won"] = True  # a "(" with no space before it, or two
                for other in (line.replace(" (won ", "(won ", 1),
                              line.replace(" (won ", " ((won ", 1)):
                    assert not fast_valid(text.replace(line, other, 1))
                    _same_outcome(text.replace(line, other, 1))
                # a space more is respaced: the fast path takes it
                assert _same_outcome(text.replace(line, line.replace(" (won ", "  (won "), 1))
            if line.endswith(")") and "(trump " in line and "trump" not in here:
                found["trump"] = True
                here.add("trump")
                for other in (line.replace("(trump ", "(trump  "),
                              line.replace("(trump ", "(trump X"),
                              line.replace(")", ") (trump -)", 1)):
                    _same_outcome(text.replace(line, other, 1))
            if "(ended " in line and "closing" not in here:
                found["closing"] = True
                here.add("closing")
                for other in (line.replace(") (", ")  (", 1),
                              line.replace("(match", "(segno -) (match"),
                              line.replace("(ended ", "(ended x")):
                    _same_outcome(text.replace(line, other, 1))
    assert all(found.values()), found


def test_the_tables_stay_bounded_within_a_record() -> None:
    from mariage.notation.fast import _tables, _word

    t = _tables(load_rules("marianna"))
    for k in range(10_000):  # trick marks of any number are words of the play too
        assert _word(f"{k + 1000}.", t)[0] == 3
        assert len(t.words) <= 4097
    text = _played("marianna", 0)
    assert fast_valid(text)  # a table emptied on the way is filled again


# ------------------------------------------- other spacing and comments, respaced
# A record spaced otherwise than the writer spaces it (CR LF, tabs, runs of spaces,
# blank lines, comments alone on their lines where the grammar reads a comment) is
# respaced and taken by the fast path; a comment the grammar does not allow where it
# stands is left to the full validator, which reports it.

def _hands(text: str) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.startswith("hand ")]


def _respacings(text: str) -> dict[str, str]:
    """Valid respellings of ``text``: only white space and comments changed."""
    lines = text.split("\n")
    last_tag = max(i for i, line in enumerate(lines) if line.startswith("["))
    first_hand = _hands(text)[0]
    deal_end = next(i for i in range(first_hand + 2, len(lines))
                    if lines[i][:1].isdigit() or lines[i].startswith("("))
    plays = [i for i, line in enumerate(lines) if line[:1].isdigit()]

    def at(pairs: dict[int, str]) -> str:  # a line put after each line index given
        return "\n".join(line + pairs.get(i, "") for i, line in enumerate(lines))

    return {
        "CR LF": text.replace("\n", "\r\n"),
        "tabs": text.replace(". ", ".\t").replace(" (", "\t("),
        "runs of spaces": "\n".join(line if line.startswith("[") else
                                    line.replace(" ", "   ") for line in lines),
        "spaces at the ends": "\n".join(line if not line else f"  {line} \t"
                                        for line in lines),
        "blank lines in the play": "\n".join(line + ("\n\n" if line[:1].isdigit() else "")
                                             for line in lines),
        "header comment": at({last_tag: "\n{ played online }\n{ two }"}),
        "comment opening a hand's play": at({deal_end - 1: "\n{ a good deal }"}),
        "comments in the play": at({i: "\n  {after this trick: W leads}" for i in plays[:3]}),
        "comments over several lines": at({plays[0]: "\n{ a long\n comment }",
                                           plays[1]: " { and\n another } "}),
        "comments beside the moves": "\n".join(
            " ".join([*line.split(" ")[:2], "{ why? }", *line.split(" ")[2:], "{end}"])
            if i in plays[:4] else line for i, line in enumerate(lines)),
        "comment ending the record's last hand": text.rstrip("\n") + "\n{ the end }\n"
        if "\nresult" not in text else text.replace("\nresult", "\n{ the end }\nresult"),
    }


@pytest.mark.parametrize("name", by_family())
def test_records_spaced_otherwise_take_the_fast_path(name: str) -> None:
    text = _played(name, 2)
    for how, changed in _respacings(text).items():
        assert changed != text, how
        assert fast_valid(changed), how
        assert check_text(changed, strict=True).errors == [], how


def _misplacements(text: str) -> dict[str, str]:
    """``text`` with a comment or a CR where the grammar does not read one."""
    lines = text.split("\n")
    hand = _hands(text)[0]
    tags = [i for i, line in enumerate(lines) if line.startswith("[")]
    parts = [i for i in range(hand + 2, len(lines)) if ": " in lines[i]
             and not lines[i][:1].isdigit() and not lines[i].startswith("(")]
    play = next(i for i, line in enumerate(lines) if line[:1].isdigit())
    out = {
        "before the first tag": "{ x }\n" + text,
        "between two tags": text.replace(lines[tags[0]], lines[tags[0]] + "\n{ x }", 1),
        "between a hand's number and its deal": text.replace(lines[hand],
                                                              lines[hand] + "\n{ x }", 1),
        "after a trick mark": text.replace(lines[play], lines[play].replace(" ", " {x} ", 1),
                                           1),
        "stuck to a move": text.replace(lines[play], lines[play] + "{x}", 1),
        "over two lines, stuck to a move": text.replace(lines[play], lines[play] + "{ x\ny }",
                                                        1),
        "over two lines, between two tags": text.replace(lines[tags[0]],
                                                         lines[tags[0]] + "\n{ x\ny }", 1),
        "a tag's value over two lines": text.replace(lines[tags[-1]],
                                                      lines[tags[-1]] + '\n[Event "{\n}"]', 1),
        "a note over two lines": text.replace(lines[play], lines[play] + " (x {\n})", 1),
        "a lone CR": text.replace(lines[play], lines[play].replace(" ", " \r", 1), 1),
        "after the result": text.rstrip("\n") + "\n{ x }\n",
    }
    if parts and parts[0] + 1 in parts:  # a deal of several lines: between two parts
        out["between two parts of a deal"] = text.replace(
            lines[parts[0]], lines[parts[0]] + "\n{ x }", 1)
    return out


@pytest.mark.parametrize("name", ["marianna", "schnapsen", "thousand", "belote"])
def test_misplaced_comments_are_left_to_the_full_validator(name: str) -> None:
    text = _played(name, 2)
    for how, changed in _misplacements(text).items():
        assert not fast_valid(changed), how
        if how != "a lone CR":
            # where the grammar allows no comment: the full validator finds the error
            assert check_text(changed, strict=True).errors, how
        _same_outcome(changed)


def _layout_changes(text: str, pick: random.Random) -> list[str]:
    """Random white space, comments and CRs put anywhere in ``text``."""
    pieces = ["  ", "\t", "\n", "\r\n", "\r", "\n\n", " {c} ", "\n{c}\n", "{c}",
              "\n{ a\nb }\n", " \n", "\n ", "{", "}"]
    # in place of a space or a line end: mostly where the grammar allows them
    seps = [" {c} ", "\n{c}\n", " {c}\n", "\n{c} ", " {a} {b} ", "\t", "  ", "\r\n",
            " {(x)} ", " (x {c}) "]
    spots = [i for i, c in enumerate(text) if c in " \n"]
    out = []
    for _ in range(12):
        changed = text
        for _ in range(pick.randint(1, 3)):
            k = pick.randrange(len(changed) + 1)
            changed = changed[:k] + pick.choice(pieces) + changed[k:]
        out.append(changed)
        changed = text
        for k in sorted(pick.sample(spots, pick.randint(1, 3)), reverse=True):
            changed = changed[:k] + pick.choice(seps) + changed[k + 1:]
        out.append(changed)
    return out


@settings(max_examples=25, deadline=None, database=None, derandomize=True)
@given(st.sampled_from(list_rulesets()), st.integers(0, 10 ** 6))
def test_layout_changes_give_the_full_validators_outcome(name: str, which: int) -> None:
    text = _played(name, 1)
    for changed in _layout_changes(text, random.Random(which)):
        _same_outcome(changed)
