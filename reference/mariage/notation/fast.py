"""A fast path for valid records in the canonical layout.

Most records in an archive are valid and written in the canonical layout
(:func:`~.writer.write_record`: one tag per line, one deal part per line, a
trick per line, single spaces). :func:`fast_valid` checks such a record line
by line, without Lark and without building the model objects, driving the
engine directly; it answers only *valid* (``True``) or *not sure*
(``False``). A record spaced otherwise (CR LF, tabs, runs of spaces, blank
lines, comments alone on their lines where the grammar reads a comment) is
first respaced (:func:`~.respace.respaced_lines`: only white space and comments
change). On
the slightest doubt (any other layout, a comment beside other words, an
unknown card, any problem at all, even an unexpected exception) it gives up
and the full validator (:func:`~.replay.check_text`) runs on the record from
the start, so every problem is found and reported by the full validator
only, with its place and code, exactly as without the fast path.

It is sound by construction where it says ``True``: it runs the same header
checks (once per set of the tags they read: a header like one already
checked gets the state that check made), lays out each deal as
:func:`~.layout.layout` does (the canonical deals through a per-ruleset deck
order, the others through the layout itself), applies every action to the
same engine and accepts an annotation only where
:func:`~.replay.note_problem` would (the common ones compared whole with what
it accepts, the others through it), and it accepts only a subset of what the
grammar accepts. What it reads once per ruleset (each word of the play as a
seat and an action or a trick mark, each card of a deal) is kept in bounded
tables. The fuzz tests and ``tests/test_notation_fast.py`` check that
whatever it accepts, the full validator accepts too.

>>> from mariage import load_rules
>>> from mariage.arena.bots import make_bot
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
from operator import itemgetter
from typing import Any

from mariage.engine.actions import Action, Play, SayPair
from mariage.engine.actiontext import parse_action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from mariage.spec.rulesload import load_rules

from .annotations import TAKERS_NOTES, contract_note, measure, takers_keys, takers_note
from .cards import french_card, normalize_action
from .laterstart import Carried, carried, restore
from .layout import layout
from .model import UNKNOWN, Deal, DealPart, Note, Record, Result, Tag, expect_text
from .pieces import _CARDS, MAX_DIGITS, _tag_value, _unquote
from .reader import DEFAULT_LIMIT
from .replay import _Checker, _Stop, note_problem
from .respace import respaced_lines
from .tokens import ACT, CARD_CODE, NAME, NOTE, NOTE_TEXT, TRICK, WORD

__all__ = ["fast_valid"]

_DEAL, _OVER, _PLAY = Phase.DEAL, Phase.OVER, Phase.PLAY

# The canonical layout's lines, made of the notation's token patterns (:mod:`.tokens`):
# single spaces, French cards. (All but the tag line as text, compiled on first use by
# ``re``'s own cache: the canonical layout of a deal and its plain moves need none of them;
# issue #28.4.)
_TAG_LINE = re.compile(rf'\[({WORD.pattern})((?: "(?:[^"\\\n]|\\["\\])*")*)\]')
_PART = rf"({NAME.pattern}):((?: {CARD_CODE.pattern})*)"
_NOTES = rf"{NOTE.pattern}(?: {NOTE.pattern})*"
_NOTE = rf"\(({NOTE_TEXT.pattern})\)"

#: What a word of a hand's play is: a card played, another action, a resignation, a
#: trick mark. A word's entry in the per-rules table is (kind, seat or trick number,
#: action or None).
_PLAYED, _OTHER, _RESIGNED, _MARK = 0, 1, 2, 3
#: Trick marks as written (``"1."``...), by number: a hand has fewer tricks (a higher
#: trick number is an IndexError: unsure). Trick 0 (the auction or the talon, before
#: trick 1) has none: ``0.`` is read as a word, and refused (N145 in the replay).
_MARKS = ["\n", *(f"{k}." for k in range(1, 100))]  # "\n": in no line
_Entry = tuple[int, int, "Action | None"]
#: The largest number written in a record: ``MAX_DIGITS`` digits.
_BOUND = 10 ** MAX_DIGITS
#: The header tags the header check reads (with ``Seat``, whose player name it does not).
_HEADER_TAGS = frozenset({"Mariage", "Ruleset", "Dealer", "Option", "StartHand", "StartScore",
                          "StartState", "Observer"})


class _Unsure(Exception):
    """The fast path gives up: the full validator decides."""


def _unsure(*_: object) -> None:
    raise _Unsure


class _Tables:
    """What the fast path reads once per ruleset, kept for every record of those rules.

    ``words``: a word of a hand's play as written -> its entry; ``cards``: a card as
    written in a deal -> its number (known cards only); ``orders``: per dealer, the
    deck order of the canonical deal's words. The tables of words and cards are
    bounded, whatever the input.
    """

    __slots__ = ("canonical", "card", "cards", "dealer_rows", "ended", "labels", "orders",
                 "prefixes", "rules", "segno", "trump", "won", "won_tail", "words")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.words: dict[str, _Entry] = {}
        self.cards: dict[str, int] = {}
        self.card = self.cards.__getitem__
        names = rules.seat_names
        self.won = [f"(won {name})" for name in names]
        # the annotations as they follow " (" on a line: (won SEAT) for each seat, and
        # (trump S) for each suit and (trump -) last, indexed by the trump (-1: none)
        self.won_tail = [f"won {name})" for name in names]
        self.trump = [f"trump {suit})" for suit in (*rules.suits, "-")]
        # the closing notes' (segno TEAM) per team, None where a name is not a word;
        # (ended HOW) per way a hand ends, as they come
        self.segno = [f" (segno {name})" if WORD.fullmatch(name) else None
                      for name in rules.team_names]
        self.ended: dict[str, str | None] = {}
        self.prefixes = [name + ": " for name in names]
        self.dealer_rows = ["dealer: " + name for name in names]
        # seat names that could not be labels of deal parts (as ``_PART`` reads them)
        self.labels = all(NAME.fullmatch(name) for name in names)
        # deals the canonical reader lays out itself; others go through the layout
        self.canonical = not rules.deal_packets and rules.turn_up in ("none", "under_stock")
        self.orders: dict[int | None, Any] = {}

    def order(self, dealer: int | None) -> Any:
        """The deck from the words of a canonical deal (the seats' hands in seat order,
        the stock, the turned-up card): hands in packets from the seat after the
        dealer, the turned-up card, the stock, as :func:`~.layout.layout` lays it out."""
        hit = self.orders.get(dealer)
        if hit is None:
            r = self.rules
            n, size, packet = r.nseats, r.hand_size, r.packet
            stock = r.stock_size - (1 if r.turn_up == "under_stock" else 0)
            start = 0 if dealer is None else (dealer + 1) % n
            # the seats dealt to, in seat order (a seat sitting the hand out has none)
            out = r.sitter(dealer)
            place = {s: k for k, s in enumerate(s for s in range(n) if s != out)}
            dealt = len(place) * size
            deck: list[int] = []
            for k in range(size // packet):
                for j in range(n):
                    seat = (start + j) % n
                    if seat != out:
                        at = place[seat] * size + k * packet
                        deck.extend(range(at, at + packet))
            if r.turn_up == "under_stock":
                deck.append(dealt + max(stock, 0))
            deck.extend(range(dealt, dealt + max(stock, 0)))
            hit = self.orders[dealer] = itemgetter(*deck) if len(deck) > 1 else \
                (lambda words: tuple(words[i] for i in deck))
        return hit


_TABLES: dict[int, _Tables] = {}
# the header tags the header check reads -> (ruleset, options, rules, first dealer,
# first hand, segni, match scores, carried state), or None for a header it refuses
_Header = tuple[str, dict[str, str], Rules, "int | None", int, list[int], list[int], Carried]
_HEADERS: dict[tuple[object, ...], _Header | None] = {}
_MISSING: Any = object()


def _tables(rules: Rules) -> _Tables:
    hit = _TABLES.get(id(rules))
    if hit is not None and hit.rules is rules:
        return hit
    if len(_TABLES) > 64:
        _TABLES.clear()
    hit = _TABLES[id(rules)] = _Tables(rules)
    return hit


def _word(word: str, t: _Tables) -> _Entry:
    """The entry of a word of a hand's play, kept in the rules' table; unsure if odd."""
    if not word:
        raise _Unsure
    if word[-1] == "." and TRICK.fullmatch(word):
        if len(word) > MAX_DIGITS + 1:
            raise _Unsure
        entry: _Entry = (_MARK, int(word[:-1]), None)
    else:
        if ACT.fullmatch(word) is None:
            raise _Unsure
        seat, _, text = word.partition(":")
        rules = t.rules
        if seat not in rules.seat_names:
            raise _Unsure
        index = rules.seat_names.index(seat)
        if text == "resign" or (text.startswith("resign:") and len(text) > 7):
            entry = (_RESIGNED, index, None)
        else:
            try:
                action = parse_action(rules, normalize_action(text))
            except ValueError:
                raise _Unsure from None
            entry = (_PLAYED if type(action) is Play else _OTHER, index, action)
    if len(t.words) > 4096:  # bounded within a record too (marks of any number, say)
        t.words.clear()
    t.words[word] = entry
    return entry


def _deal_card(word: str, t: _Tables) -> int:
    """The number of a card written ``word`` in a deal part; unsure unless a known card."""
    if CARD_CODE.fullmatch(word) is None:
        raise _Unsure
    index = t.rules.card_index.get(french_card(word))
    if index is None:  # an unknown card, or ``??``: the full validator's
        raise _Unsure
    if len(t.cards) > 4096:  # bounded within a record too
        t.cards.clear()
    t.cards[word] = index
    return index


def _canonical_deal(rules: Rules, st: GameState, lines: list[str], i: int,
                    t: _Tables | None = None) -> tuple[list[int], int | None, int]:
    """The deck and first player of a deal written in the canonical labels and order.

    For rules without packets of several sizes and with no turned-up card or one
    under the stock; only the parts ``dealer:``/``first:``, each seat's hand in seat
    order, ``stock:`` and ``turnup:`` as the writer writes them, with known cards in
    the counts the rules deal. The deck is the one :func:`~.layout.layout` makes of
    such a deal (hands in packets from the seat after the dealer, the turned-up card,
    the stock); the engine's deal checks that every card is there once. Returns
    (deck, first player, index of the line after the deal).
    """
    if t is None:
        t = _tables(rules)
    if not t.labels or st.placed:  # (placed players sit out: the layout reads it)
        raise _Unsure
    size = rules.hand_size
    under = rules.turn_up == "under_stock"
    dealer = st.dealer
    first: int | None = None
    row = lines[i][5:]  # after "deal "
    if dealer is not None:  # the dealer's part, as the layout checks it
        if row != t.dealer_rows[dealer]:
            label, _, seat = row.partition(": ")
            if label != "dealer" or CARD_CODE.fullmatch(seat) is None \
                    or french_card(seat) != rules.seat_names[dealer]:
                raise _Unsure
        i += 1
        row = lines[i]
    if rules.first_lead == "lot":
        label, _, seat = row.partition(": ")
        if label != "first" or CARD_CODE.fullmatch(seat) is None:
            raise _Unsure
        first = rules.seat_names.index(french_card(seat))  # ValueError: not a seat, unsure
        i += 1
        row = lines[i]
    words: list[str] = []
    n = len(lines)
    out = rules.sitter(dealer)
    for k, prefix in enumerate(t.prefixes):
        if k == out:  # a seat sitting the hand out: his part, without cards
            if row != prefix[:-1]:
                raise _Unsure
            i += 1
            row = lines[i] if i < n else ""
            continue
        if not row.startswith(prefix):  # the seat's name, then ": " (no ":" in a name)
            raise _Unsure
        hand = row[len(prefix):].split(" ")
        if len(hand) != size:
            raise _Unsure
        words += hand
        i += 1
        row = lines[i] if i < n else ""
    want_stock = rules.stock_size - (1 if under else 0)
    if rules.stock_size:
        if not row.startswith("stock: "):
            raise _Unsure
        stock = row[7:].split(" ")
        if len(stock) != want_stock:
            raise _Unsure
        words += stock
        i += 1
        row = lines[i] if i < n else ""
    elif want_stock:
        raise _Unsure
    if under:
        if not row.startswith("turnup: ") or " " in row[8:]:
            raise _Unsure
        words.append(row[8:])
        i += 1
    # another part (a trick's line starts with its mark, a digit): the full validator's
    if i < n and not lines[i][:1].isdigit() and re.fullmatch(_PART, lines[i]):
        raise _Unsure
    ordered = t.order(dealer)(words)
    try:
        deck = list(map(t.card, ordered))
    except KeyError:  # a card not seen yet in these rules (or an unknown one: unsure)
        deck = [t.cards[w] if w in t.cards else _deal_card(w, t) for w in ordered]
    return deck, first, i


def _closing(st: GameState, won: str, t: _Tables) -> str:
    """The annotations the writer puts after the action that ended a hand, or "" if unsure.

    Each is what :func:`~.annotations.note_problem` accepts in this state: every value
    is a word or a number of at most ``MAX_DIGITS`` digits, so the text splits back
    into exactly these values.
    """
    r = st.rules
    h = st.history[-1]
    match = measure(st)
    values = (*h.points, *h.score, *match)
    if max(values) >= _BOUND or min(values) <= -_BOUND:
        return ""
    ended = h.ended
    head = t.ended.get(ended)
    if head is None:
        if WORD.fullmatch(ended) is None:
            return ""
        head = t.ended[ended] = f"(ended {ended}) (points "
    text = f"{won} {head}" if won else head
    text += " ".join(map(str, h.points)) + ") (scored " + " ".join(map(str, h.score)) + ")"
    if h.winner is not None:
        segno = t.segno[h.winner]
        if segno is None:
            return ""
        text += segno
    if r.takers_rule is not None and h.outcome:
        keys: tuple[str, ...] = takers_keys(r)
    elif r.auction_rule is not None and ended == "played_out":
        keys = ("contract", "schwarz")
    else:
        keys = ()
    for key in keys:
        words = takers_note(r, h, key) if key in TAKERS_NOTES else contract_note(r, h, key)
        for w in words:
            if WORD.fullmatch(w) is None:
                return ""
        text += f" ({key} {' '.join(words)})"
    return text + " (match " + " ".join(map(str, match)) + ")"


def fast_valid(text: str, *, file: str = "<string>", number: int = 1, line: int = 1) -> bool:
    """True when ``text`` is a valid record in the canonical layout; False: not sure.

    ``False`` says nothing about validity: run the full validator
    (:func:`~.replay.check_text`), which finds and places every problem.

    >>> from mariage.notation import check_text
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> fast_valid(text), fast_valid(text.replace("B:JS", "B:AS"))
    (True, False)
    >>> unknown = text.replace("A: QH AD KD QD JD", "A: QH AD KD QD ??")
    >>> fast_valid(unknown), check_text(unknown).ok  # a card to infer: not sure
    (False, True)
    """
    expect_text(text, "fast_valid", file, number, line)  # None was "not sure", as a record
    try:
        return _check(text, file, number, line)
    except Exception:  # _Unsure, or anything unforeseen: the full validator decides
        return False


def _header(lines: list[str], file: str, number: int, first_line: int
            ) -> tuple[GameState, int, int]:
    """The state the header starts from, the first hand's number and the index of the
    line after the tags; unsure if the header check refuses the tags.

    The header check (:meth:`~.replay._Checker.header`) reads the tags ``Mariage``,
    ``Ruleset``, ``Dealer``, ``Option``, ``StartHand``, ``StartScore``,
    ``StartState`` and ``Observer``, the seat of each ``Seat`` tag and the count of its
    values, and
    whether the first tag is ``Mariage``: what it finds for them is kept, so a header
    like one already checked is not checked again (the player names and other tags
    change nothing).
    """
    n = len(lines)
    i = 0
    tags: list[tuple[str, tuple[str, ...]]] = []
    key: list[object] = []
    while i < n and lines[i][:1] == "[":
        m = _TAG_LINE.fullmatch(lines[i])
        if m is None:
            raise _Unsure
        name, quoted = m.group(1, 2)
        if "\\" in quoted:  # an escape: read each value as the reader does
            values = tuple(_unquote(v.group()) for v in _tag_value().finditer(quoted))
        else:  # ' "a" "b"': no quote inside a value, so the values lie between '" "'
            values = tuple(quoted[2:-1].split('" "')) if quoted else ()
        tags.append((name, values))
        if name in _HEADER_TAGS:
            key.append((name, values))
        elif name == "Seat":
            key.append((name, len(values), values[:1]))
        i += 1
    key.append(bool(tags) and tags[0][0] == "Mariage")
    hkey = tuple(key)
    known = _HEADERS.get(hkey, _MISSING)
    if known is None:
        raise _Unsure
    if known is not _MISSING:
        name, options, rules, dealer, first, segni, scores, state = known
        # the same rules as the check had (load_rules's cache, unless it was emptied)
        if load_rules(name, options) is rules:
            st = GameState(rules, first_dealer=dealer)
            st.hand_no = first - 1  # what the check's later_start sets
            st.segni = list(segni)
            st.match_scores = list(scores)
            restore(st, state)
            return st, first, i
    header = Record(tuple(Tag(name, values, first_line + k, 2)
                          for k, (name, values) in enumerate(tags)),
                    (), (), None, file, number, first_line)
    checker = _Checker(header, True, None, DEFAULT_LIMIT)
    if len(_HEADERS) > 4096:  # bounded, whatever the input
        _HEADERS.clear()
    try:
        ok = checker.header()
    except _Stop:
        ok = False
    state, rules_ = checker.state, checker.rules
    if not ok or state is None or rules_ is None or header.ruleset is None:
        _HEADERS[hkey] = None
        raise _Unsure
    _HEADERS[hkey] = (header.ruleset, header.options, rules_, state.first_dealer,
                      checker.first_hand, list(state.segni), list(state.match_scores),
                      carried(state))
    return state, checker.first_hand, i


def _check(text: str, file: str, number: int, first_line: int) -> bool:
    if "\r" in text or "\t" in text or "{" in text or "  " in text or " \n" in text \
            or "\n " in text:
        respaced = respaced_lines(text)
        if respaced is None:
            return False
        lines = respaced
    else:
        lines = text.split("\n")
    n = len(lines)
    st, expected, i = _header(lines, file, number, first_line)
    rules = st.rules
    t = _tables(rules)
    get = t.words.get
    seat_names = rules.seat_names
    won = t.won_tail
    marks = _MARKS
    canonical = t.canonical
    play = st.mech.tricks.apply_play
    apply = st.apply
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
            elif len(words) >= 2 and all(WORD.fullmatch(w) for w in words[1:]):
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
            deck, first, i = _canonical_deal(rules, st, lines, i, t)
        else:
            lay = _written_layout(rules, st, lines, i)
            if lay is None:
                return False
            deck, first, i = lay
        st.deal(deck, first)  # IllegalActionError: the full validator's
        last_played = False  # the last action of the hand so far was a card played
        tricks = st.tricks  # the same list for the whole hand
        while i < n:
            row = lines[i]
            if not row:  # white space within the play (the hand ends at the next hand)
                i += 1
                continue
            c = row[0]
            if c == "(":  # annotations alone
                notes = row[1:]
            else:
                if (c == "h" and row.startswith("hand")) or (
                        c == "r" and row.startswith("result")):
                    break
                # the actions, then the annotations after " (" (notes: what follows it);
                # a "(" with no space before it stays in a word, which no table holds
                # and no action or mark can be (unsure)
                body, sep, notes = row.partition(" (")
                if body:
                    words = body.split(" ")
                    # the mark of the trick under way (the mark a trick mark may have in
                    # any phase), read here rather than as a word: an action must follow
                    want_act = words[0] == marks[st.trick_no]
                    if want_act:
                        del words[0]
                    kind = _MARK
                    for word in words:
                        kind, who, action = get(word) or _word(word, t)
                        if not kind:  # a card played (_PLAYED)
                            # what GameState.apply does for a card played at the seat's
                            # turn (the validator's state has no undo journal and no deal
                            # source); the play checks the phase itself (no other mechanism
                            # applies a card played: any other phase refuses it, as apply)
                            if who == st.to_act:
                                play(st, who, action)  # type: ignore[arg-type]
                            else:  # refused too between hands, after the match (N143, N144)
                                apply(action, who)  # type: ignore[arg-type]
                        elif kind == _MARK:
                            if want_act:
                                return False
                            phase = st.phase
                            if phase != _DEAL and phase != _OVER and (
                                    who != st.trick_no or not who):
                                return False
                            want_act = True
                            continue
                        elif kind == _OTHER:
                            apply(action, who)  # type: ignore[arg-type]
                        else:  # a resignation
                            if st.phase == _OVER:
                                return False
                            st.resign(who)
                        want_act = False
                    if want_act:  # a trick mark must be followed by an action
                        return False
                    # a card played, or said with the pair of trumps (belote:KH)
                    last_played = not kind or type(action) is SayPair
                if not sep:
                    i += 1
                    continue
            # the last action ended a trick: a card played that left none on the table
            trick_done = last_played and not st.trick_cards
            if trick_done and notes == won[tricks[-1][2]]:
                i += 1  # the common case, as note_problem would find it
                continue
            trump = st.trump
            if notes == t.trump[trump if trump >= 0 else -1]:
                i += 1  # a declaration's (trump S), as note_problem would find it
                continue
            notes = "(" + notes
            phase = st.phase
            if phase in (_DEAL, _OVER) and st.history \
                    and st.history[-1].number == st.hand_no and notes == _closing(
                        st, t.won[tricks[-1][2]] if trick_done else "", t):
                i += 1  # the end of a hand, as note_problem would find each note
                continue
            if re.fullmatch(_NOTES, notes) is None:
                return False
            for inner in re.findall(_NOTE, notes):
                words = inner.split()
                if trick_done and len(words) == 2 and words[0] == "won" \
                        and words[1] == seat_names[tricks[-1][2]]:
                    continue  # the common case, as note_problem would find it
                note = Note(words[0], tuple(words[1:])) if words else Note("", ())
                if note_problem(st, note, trick_done) is not None:
                    return False
            i += 1
    checker = _Checker(Record((), (), (), result, file, number, first_line), True, None,
                       DEFAULT_LIMIT)
    checker.rules, checker.state = rules, st
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
        m = re.fullmatch(_PART, row)
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
    lay = layout(rules, Deal(tuple(parts)), st.dealer, _unsure, placed=st.placed)
    if lay is None or -1 in lay.deck:
        return None
    return lay.deck, lay.first, i
