"""A fast path for valid records in the canonical layout.

Most records in an archive are valid and written in the canonical layout
(:func:`~.writer.write_record`: one tag per line, one deal part per line, a
trick per line, single spaces). :func:`fast_valid` checks such a record line
by line, without Lark and without building the model objects, driving the
engine directly; it answers only *valid* (``True``) or *not sure*
(``False``). On the slightest doubt (any other layout, a comment, a tab, an
unknown card, any problem at all, even an unexpected exception) it gives up
and the full validator (:func:`~.replay.check_text`) runs on the record from
the start, so every problem is found and reported by the full validator
only, with its place and code, exactly as without the fast path.

It is sound by construction where it says ``True``: it runs the same header
checks, lays out each deal with the same :func:`~.layout.layout`, applies
every action to the same engine and re-checks every annotation with the same
:func:`~.replay.note_problem`, and it accepts only a subset of what the
grammar accepts. The fuzz tests check that whatever it accepts, the full
validator accepts too.

>>> from mariage import load_rules
>>> from mariage.bots import make_bot
>>> from mariage.notation.recorder import record_match
>>> from mariage.notation.writer import write_record
>>> rules = load_rules("mariglia")
>>> text = write_record(record_match(rules, 1, [make_bot("greedy", i) for i in range(4)]))
>>> fast_valid(text)
True
>>> fast_valid(text.replace("(won ", "(won X", 1))   # a problem: the full validator reports it
False
"""

from __future__ import annotations

import re

from ..actions import Action, Play, parse_action
from ..errors import IllegalActionError
from ..rules import Rules
from ..state import Phase
from .cards import french_card, normalize_action
from .layout import layout
from .model import UNKNOWN, Deal, DealPart, Note, Record, Result, Tag
from .reader import _CARDS, MAX_DIGITS, _tag_value, _unquote
from .replay import _Checker, _Stop, note_problem
from .search import DEFAULT_LIMIT

__all__ = ["fast_valid"]

_DEAL, _OVER = Phase.DEAL, Phase.OVER

_TAG_LINE = re.compile(r'\[([A-Za-z0-9?_+\-]+)((?: "(?:[^"\\\n]|\\["\\])*")*)\]')
_PART = re.compile(r"([A-Za-z][A-Za-z0-9]*):((?: [A-Za-z0-9?]+)*)")
_NOTES = re.compile(r"\([^()\n]*\)(?: \([^()\n]*\))*")
_NOTE = re.compile(r"\(([^()\n]*)\)")
_ACT = re.compile(r'[A-Za-z][A-Za-z0-9]*:[^\s(){}\[\]"]+')
_WORD = re.compile(r"[A-Za-z0-9?_+\-]+")
_TRICK = re.compile(r"[0-9]+\.")
_MARKS = {f"{k}.": k for k in range(1, 100)}
_RESIGN = None  # the action of a resignation in the per-rules cache

# per rules: SEAT:ACTION as written -> (seat index, action, or None for a resignation)
_MOVES: dict[int, tuple[Rules, dict[str, tuple[int, Action | None]]]] = {}


class _Unsure(Exception):
    """The fast path gives up: the full validator decides."""


def _unsure(*_: object) -> None:
    raise _Unsure


def _moves_of(rules: Rules) -> dict[str, tuple[int, Action | None]]:
    hit = _MOVES.get(id(rules))
    if hit is not None and hit[0] is rules:
        cache = hit[1]
        if len(cache) > 4096:  # bounded, whatever the input
            cache.clear()
        return cache
    if len(_MOVES) > 64:
        _MOVES.clear()
    cache = {}
    _MOVES[id(rules)] = (rules, cache)
    return cache


def _move(word: str, rules: Rules, cache: dict[str, tuple[int, Action | None]]
          ) -> tuple[int, Action | None]:
    if _ACT.fullmatch(word) is None:
        raise _Unsure
    seat, _, text = word.partition(":")
    if seat not in rules.seat_names:
        raise _Unsure
    if text == "resign" or (text.startswith("resign:") and len(text) > 7):
        move: tuple[int, Action | None] = (rules.seat_names.index(seat), _RESIGN)
    else:
        try:
            action = parse_action(rules, normalize_action(text))
        except ValueError:
            raise _Unsure from None
        move = (rules.seat_names.index(seat), action)
    cache[word] = move
    return move


def fast_valid(text: str, *, file: str = "<string>", number: int = 1, line: int = 1) -> bool:
    """True when ``text`` is a valid record in the canonical layout; False: not sure.

    ``False`` says nothing about validity: run the full validator
    (:func:`~.replay.check_text`), which finds and places every problem.
    """
    try:
        return _check(text, file, number, line)
    except Exception:  # _Unsure, or anything unforeseen: the full validator decides
        return False


def _check(text: str, file: str, number: int, first_line: int) -> bool:
    if "\r" in text or "\t" in text or "{" in text:
        return False
    lines = text.split("\n")
    n = len(lines)
    i = 0
    tags = []
    while i < n and lines[i][:1] == "[":
        m = _TAG_LINE.fullmatch(lines[i])
        if m is None:
            return False
        values = tuple(_unquote(v.group()) for v in _tag_value().finditer(m.group(2)))
        tags.append(Tag(m.group(1), values, first_line + i, 2))
        i += 1
    header = Record(tuple(tags), (), (), None, file, number, first_line)
    checker = _Checker(header, True, None, DEFAULT_LIMIT)
    try:
        if not checker.header():
            return False
    except _Stop:
        return False
    rules, st = checker.rules, checker.state
    assert rules is not None and st is not None
    cache = _moves_of(rules)
    cards = _CARDS
    seat_names = rules.seat_names
    won = [f"(won {name})" for name in seat_names]
    expected = checker.first_hand
    result: Result | None = None
    while True:
        while i < n and not lines[i]:
            i += 1
        if i >= n:
            break
        head = lines[i]
        if head.startswith("result"):
            words = head.split(" ")
            if words[0] != "result" or len(words) > 3 or any(not w for w in words):
                return False
            if len(words) == 2 and words[1] == "*":
                result = Result(None, None, first_line + i, 1)
            elif len(words) >= 2 and all(_WORD.fullmatch(w) for w in words[1:]):
                result = Result(words[1], words[2] if len(words) > 2 else None,
                                first_line + i, 1)
            else:
                return False
            i += 1
            while i < n and not lines[i]:
                i += 1
            if i < n:
                return False
            break
        if not head.startswith("hand "):
            return False
        num = head[5:]
        if not num.isdigit() or not num.isascii() or len(num) > MAX_DIGITS \
                or int(num) != expected or st.phase != _DEAL:
            return False
        expected += 1
        i += 1
        if i >= n or not lines[i].startswith("deal "):
            return False
        parts = []
        row = lines[i][5:]
        while True:
            m = _PART.fullmatch(row)
            if m is None:
                break
            codes = []
            for w in m.group(2).split():
                code = cards.get(w)
                if code is None:
                    if len(cards) > 4096:  # bounded, whatever the input
                        cards.clear()
                    code = cards[w] = french_card(w)
                if code == UNKNOWN:
                    return False  # a partial deal: the search is the full validator's
                codes.append(code)
            parts.append(DealPart(m.group(1), tuple(codes)))
            i += 1
            if i >= n:
                break
            row = lines[i]
        if not parts:
            return False
        lay = layout(rules, Deal(tuple(parts)), st.dealer, _unsure)
        if lay is None or -1 in lay.deck:
            return False
        try:
            st.deal(lay.deck, lay.first)
        except IllegalActionError:
            return False
        last: Action | None = None
        tricks = st.tricks  # the same list for the whole hand
        while i < n:
            row = lines[i]
            if not row or (row[0] == "h" and row.startswith("hand")) or (
                    row[0] == "r" and row.startswith("result")):
                break
            k = row.find("(")  # annotations close the line
            if k < 0:
                words = row.split(" ")
            elif k == 0:
                words = []
            elif row[k - 1] == " ":
                words = row[:k - 1].split(" ")
            else:
                return False
            want_act = False
            for tok in words:
                move = cache.get(tok)
                if move is None:
                    if not tok:
                        return False
                    mark = _MARKS.get(tok)
                    if mark is None and tok[-1] == "." and _TRICK.fullmatch(tok):
                        if len(tok) > MAX_DIGITS + 1:
                            return False
                        mark = int(tok[:-1])
                    if mark is not None:
                        if want_act:
                            return False
                        phase = st.phase
                        if phase != _DEAL and phase != _OVER and mark != st.trick_no:
                            return False
                        want_act = True
                        continue
                    move = _move(tok, rules, cache)
                want_act = False
                seat, action = move
                last = action
                if action is None:
                    if st.phase == _OVER:
                        return False
                    st.resign(seat)
                    continue
                try:  # refused too between hands and after the match (N143, N144)
                    st.apply(action, seat)
                except IllegalActionError:
                    return False
            if want_act:
                return False
            if k >= 0:
                # the last action ended a trick: a play that left no card on the table
                trick_done = type(last) is Play and not st.trick_cards
                notes = row[k:]
                if trick_done and notes == won[tricks[-1][2]]:
                    i += 1  # the common case, as note_problem would find it
                    continue
                if _NOTES.fullmatch(notes) is None:
                    return False
                for inner in _NOTE.findall(notes):
                    words = inner.split()
                    if trick_done and len(words) == 2 and words[0] == "won" \
                            and words[1] == seat_names[tricks[-1][2]]:
                        continue  # the common case, as note_problem would find it
                    note = Note(words[0], tuple(words[1:])) if words else Note("", ())
                    if note_problem(st, note, trick_done) is not None:
                        return False
            i += 1
    checker.rec = Record(header.tags, (), (), result, file, number, first_line)
    try:
        checker.finish()
    except _Stop:
        return False
    return not checker.out.errors
