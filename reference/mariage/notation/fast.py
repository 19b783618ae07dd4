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
from collections.abc import Callable
from typing import cast

from ..actions import Action, Play, parse_action
from ..errors import IllegalActionError
from ..rules import Rules
from ..state import GameState, Phase
from .annotations import contract_note, measure, team_name
from .cards import french_card, normalize_action
from .layout import layout
from .model import UNKNOWN, Deal, DealPart, Note, Record, Result, Tag
from .reader import _CARDS, MAX_DIGITS, _tag_value, _unquote
from .replay import _Checker, _Stop, note_problem
from .search import DEFAULT_LIMIT

__all__ = ["fast_valid"]

_DEAL, _OVER, _PLAY = Phase.DEAL, Phase.OVER, Phase.PLAY

_TAG_LINE = re.compile(r'\[([A-Za-z0-9?_+\-]+)((?: "(?:[^"\\\n]|\\["\\])*")*)\]')
_PART = re.compile(r"([A-Za-z][A-Za-z0-9]*):((?: [A-Za-z0-9?]+)*)")
_NOTES = re.compile(r"\([^()\n]*\)(?: \([^()\n]*\))*")
_NOTE = re.compile(r"\(([^()\n]*)\)")
_ACT = re.compile(r'[A-Za-z][A-Za-z0-9]*:[^\s(){}\[\]"]+')
_WORD = re.compile(r"[A-Za-z0-9?_+\-]+")
_TRICK = re.compile(r"[0-9]+\.")
_MARKS = {f"{k}.": k for k in range(1, 100)}
_RESIGN = None  # the action of a resignation in the per-rules cache
_CARD_WORD = re.compile(r"[A-Za-z0-9?]+")
_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9]*")

# per rules: SEAT:ACTION as written -> (seat index, action, or None for a resignation)
_MOVES: dict[int, tuple[Rules, dict[str, tuple[int, Action | None]]]] = {}
# per rules: a card as written in a deal -> its card number (known cards only)
_DEAL_CARDS: dict[int, tuple[Rules, dict[str, int]]] = {}


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


def _deal_cards_of(rules: Rules) -> dict[str, int]:
    """The rules' table of deal cards as written; unsure if a seat's name could not be
    a label of a deal part (the grammar's, as ``_PART`` reads it)."""
    hit = _DEAL_CARDS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if not all(_LABEL.fullmatch(name) for name in rules.seat_names):
        raise _Unsure
    if len(_DEAL_CARDS) > 64:
        _DEAL_CARDS.clear()
    table: dict[str, int] = {}
    _DEAL_CARDS[id(rules)] = (rules, table)
    return table


def _deal_card(word: str, rules: Rules, table: dict[str, int]) -> int:
    """The number of a card written ``word`` in a deal part; unsure unless a known card."""
    if _CARD_WORD.fullmatch(word) is None:
        raise _Unsure
    index = rules.card_index.get(french_card(word))
    if index is None:  # an unknown card, or ``??``: the full validator's
        raise _Unsure
    if len(table) > 4096:  # bounded, whatever the input
        table.clear()
    table[word] = index
    return index


def _canonical_deal(rules: Rules, st: GameState, lines: list[str], i: int
                    ) -> tuple[list[int], int | None, int]:
    """The deck and first player of a deal written in the canonical labels and order.

    For rules without packets of several sizes and with no turned-up card or one
    under the stock; only the parts ``dealer:``/``first:``, each seat's hand in seat
    order, ``stock:`` and ``turnup:`` as the writer writes them, with known cards in
    the counts the rules deal. The deck is the one :func:`~.layout.layout` makes of
    such a deal (hands in packets from the seat after the dealer, the turned-up card,
    the stock); the engine's deal checks that every card is there once. Returns
    (deck, first player, index of the line after the deal).
    """
    n, size, packet = rules.nseats, rules.hand_size, rules.packet
    under = rules.turn_up == "under_stock"
    table = _deal_cards_of(rules)
    get = cast("Callable[[str], int | None]", table.get)
    dealer = st.dealer
    first: int | None = None
    row = lines[i][5:]  # after "deal "
    if dealer is not None:  # the dealer's part, as the layout checks it
        label, _, seat = row.partition(": ")
        if label != "dealer" or _CARD_WORD.fullmatch(seat) is None \
                or french_card(seat) != rules.seat_names[dealer]:
            raise _Unsure
        i += 1
        row = lines[i]
    if rules.first_lead == "lot":
        label, _, seat = row.partition(": ")
        if label != "first" or _CARD_WORD.fullmatch(seat) is None:
            raise _Unsure
        first = rules.seat_names.index(french_card(seat))  # ValueError: not a seat, unsure
        i += 1
        row = lines[i]
    hands = []
    for name in rules.seat_names:
        head, _, rest = row.partition(": ")
        if head != name:
            raise _Unsure
        words = rest.split(" ")
        if len(words) != size:
            raise _Unsure
        found = list(map(get, words))
        hand = cast("list[int]", found) if None not in found else \
            [table[w] if w in table else _deal_card(w, rules, table) for w in words]
        hands.append(hand)
        i += 1
        row = lines[i] if i < len(lines) else ""
    stock: list[int] = []
    want_stock = rules.stock_size - (1 if under else 0)
    if rules.stock_size:
        head, _, rest = row.partition(": ")
        words = rest.split(" ")
        if head != "stock" or len(words) != want_stock:
            raise _Unsure
        found = list(map(get, words))
        stock = cast("list[int]", found) if None not in found else \
            [table[w] if w in table else _deal_card(w, rules, table) for w in words]
        i += 1
        row = lines[i] if i < len(lines) else ""
    elif want_stock:
        raise _Unsure
    deck: list[int] = []
    start = 0 if dealer is None else (dealer + 1) % n
    for r in range(size // packet):
        for k in range(n):
            deck.extend(hands[(start + k) % n][r * packet:(r + 1) * packet])
    if under:
        head, _, word = row.partition(": ")
        if head != "turnup" or " " in word:
            raise _Unsure
        deck.append(table[word] if word in table else _deal_card(word, rules, table))
        i += 1
    deck.extend(stock)
    if i < len(lines) and _PART.fullmatch(lines[i]):  # another part: the full validator's
        raise _Unsure
    return deck, first, i


def _closing(st: GameState, won: str) -> str:
    """The annotations the writer puts after the action that ended a hand, or "" if unsure.

    Each is what :func:`~.annotations.note_problem` accepts in this state: every value
    is a word or a number of at most ``MAX_DIGITS`` digits, so the text splits back
    into exactly these values.
    """
    r = st.rules
    h = st.history[-1]
    words = [h.ended]
    parts = [won, f"(ended {h.ended})", "(points " + " ".join(map(str, h.points)) + ")",
             "(scored " + " ".join(map(str, h.score)) + ")"]
    if h.winner is not None:
        segno = team_name(r, h.winner)
        words.append(segno)
        parts.append(f"(segno {segno})")
    if r.auction_rule is not None and h.ended == "played_out":
        for key in ("contract", "schwarz"):
            values = contract_note(r, h, key)
            words.extend(values)
            parts.append(f"({key} " + " ".join(values) + ")")
    match = measure(st)
    parts.append("(match " + " ".join(map(str, match)) + ")")
    for w in words:
        if _WORD.fullmatch(w) is None:
            return ""
    for v in (*h.points, *h.score, *match):
        if len(str(abs(v))) > MAX_DIGITS:
            return ""
    return " ".join(p for p in parts if p)


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
        quoted = m.group(2)
        if "\\" in quoted:  # an escape: read each value as the reader does
            values = tuple(_unquote(v.group()) for v in _tag_value().finditer(quoted))
        else:  # ' "a" "b"': no quote inside a value, so the values lie between '" "'
            values = tuple(quoted[2:-1].split('" "')) if quoted else ()
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
    seat_names = rules.seat_names
    won = [f"(won {name})" for name in seat_names]
    # deals the canonical reader lays out itself; others go through the layout
    canonical = not rules.deal_packets and rules.turn_up in ("none", "under_stock")
    play = st.mech.tricks.apply_play
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
        if canonical:
            deck, first, i = _canonical_deal(rules, st, lines, i)
        else:
            lay = _written_layout(rules, st, lines, i)
            if lay is None:
                return False
            deck, first, i = lay
        try:
            st.deal(deck, first)
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
                    if st.phase is _PLAY and seat == st.to_act and type(action) is Play:
                        play(st, seat, action)  # what GameState.apply does (no undo, no source)
                    else:
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
                phase = st.phase
                if phase in (_DEAL, _OVER) and st.history \
                        and st.history[-1].number == st.hand_no and notes == _closing(
                            st, won[tricks[-1][2]] if trick_done else ""):
                    i += 1  # the end of a hand, as note_problem would find each note
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


def _written_layout(rules: Rules, st: GameState, lines: list[str], i: int
                    ) -> tuple[list[int], int | None, int] | None:
    """The deck and first player of any deal as the layout reads it, or None if unsure."""
    n = len(lines)
    cards = _CARDS
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
                return None  # a partial deal: the search is the full validator's
            codes.append(code)
        parts.append(DealPart(m.group(1), tuple(codes)))
        i += 1
        if i >= n:
            break
        row = lines[i]
    if not parts:
        return None
    lay = layout(rules, Deal(tuple(parts)), st.dealer, _unsure)
    if lay is None or -1 in lay.deck:
        return None
    return lay.deck, lay.first, i
