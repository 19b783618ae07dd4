"""An independent reader and writer of game records, written from ``docs/notation.rst`` alone.

Nothing here imports :mod:`mariage`: the test that uses it compares what this reader
finds in a record (tags, deals, actions, annotations, result) with what the reference
reports, and rewrites records in layouts of its own that the reference must read to
the same game. Where the docs leave a choice, the reading chosen is said in place.

>>> rec = read_record('[Mariage "1"]\\n[Ruleset "mariazza"]\\nhand 1\\ndeal first: A\\n'
...                   'A: Rc 2S\\nB: 2H AD\\n1. A:KH B:2H (won B)\\nresult *\\n')
>>> rec.tag("Ruleset"), rec.hands[0].parts[1], rec.hands[0].actions()
('mariazza', ('A', ('KH', '2S')), [('A', 'KH'), ('B', '2H')])
>>> rec.result
('*', None)
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Where the shipped records live (the conformance tests hold one record each, after
#: their front matter; docs pages hold them in ``mariage-record`` blocks).
ROOT = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------- cards
#: "Canonical codes are French: a rank (A 3 K Q J 7 6 5 4 2, T for ten, 9 8) and a
#: suit letter H D C S."
FRENCH_RANKS = "A3KQJ765429T8"
SUITS = "HDCS"
#: "Italian codes ... R re, C cavallo, F fante -> K, Q, J (other ranks unchanged);
#: c coppe, d denari, b bastoni, s spade -> H, D, C, S" (lower case suits).
ITALIAN_RANKS = {"R": "K", "C": "Q", "F": "J"}
ITALIAN_SUITS = {"c": "H", "d": "D", "b": "C", "s": "S"}
ITALIAN_PLAIN = "A3765429T8"  # the ranks an Italian code writes as the French one
#: "German codes ... suit, hyphen, rank: r s e g are hearts, diamonds, clubs and spades,
#: ranks A, Z (or 10), K, O, U and 9 to 6 (the German pack's)."
GERMAN_SUITS = {"r": "H", "s": "D", "e": "C", "g": "S"}
GERMAN_RANKS = {"A": "A", "Z": "T", "10": "T", "K": "K", "O": "Q", "U": "J", "9": "9",
                "8": "8", "7": "7", "6": "6"}
#: "Where an action names a suit, a suit word is accepted too": the Italian, English,
#: French and German names of the suits.
SUIT_WORDS = {"coppe": "H", "denari": "D", "bastoni": "C", "spade": "S", "hearts": "H",
              "diamonds": "D", "clubs": "C", "spades": "S", "coeur": "H", "cœur": "H",
              "carreau": "D", "trefle": "C", "trèfle": "C", "pique": "S", "rot": "H",
              "herz": "H", "schellen": "D", "eichel": "C", "gruen": "S", "grün": "S"}
UNKNOWN = "??"


def french(card: str) -> str | None:
    """The French code of a card as a record may write it, ``??`` as is; None if no card."""
    if card == UNKNOWN:
        return card
    if len(card) == 2 and card[0] in FRENCH_RANKS and card[1] in SUITS:
        return card
    if len(card) == 2 and card[1] in ITALIAN_SUITS and (
            card[0] in ITALIAN_RANKS or card[0] in ITALIAN_PLAIN):
        return ITALIAN_RANKS.get(card[0], card[0]) + ITALIAN_SUITS[card[1]]
    suit, dash, rank = card.partition("-")
    if dash and suit in GERMAN_SUITS and rank in GERMAN_RANKS:
        return GERMAN_RANKS[rank] + GERMAN_SUITS[suit]
    return None


def italian(card: str) -> str:
    """The Italian code of a French card code."""
    back = {v: k for k, v in ITALIAN_RANKS.items()}
    suits = {v: k for k, v in ITALIAN_SUITS.items()}
    return back.get(card[0], card[0]) + suits[card[1]]


def german(card: str) -> str:
    """The German code of a French card code (ten ``Z``); as it is where the German pack
    has no such rank (2 to 5)."""
    back = {"T": "Z", "Q": "O", "J": "U"}
    suits = {v: k for k, v in GERMAN_SUITS.items()}
    rank = back.get(card[0], card[0])
    return suits[card[1]] + "-" + rank if rank in GERMAN_RANKS else card


def canonical_action(text: str) -> str:
    """An action's text with every card and suit word it names in canonical form: the
    pieces between ``:`` and ``+`` that are cards (Italian, German) or suit words."""
    if text == "resign" or text.startswith("resign:"):
        return text  # a reason is kept as written
    out = []
    for piece in re.split(r"([:+])", text):
        if piece in (":", "+"):
            out.append(piece)
            continue
        card = french(piece) if piece != UNKNOWN else None
        out.append(card if card is not None and len(piece) > 1 else SUIT_WORDS.get(piece, piece))
    return "".join(out)


# --------------------------------------------------------------------------- tokens
class ScribeError(ValueError):
    """This reader refuses the text: where and why."""

    def __init__(self, line: int, column: int, why: str) -> None:
        super().__init__(f"{line}:{column}: {why}")
        self.line, self.column, self.why = line, column, why


@dataclass(frozen=True)
class Token:
    """One token: ``tag`` ``[..]``, ``comment`` ``{..}``, ``note`` ``(..)`` or ``word``."""

    kind: str
    text: str
    line: int
    column: int


_SPACE = " \t\r\n\f"
_STOPS = _SPACE + "(){}[]\""


def tokens(text: str) -> Iterator[Token]:
    """The tokens of a record: "spaces, tabs and line ends separate tokens"; a tag lies
    on one line, its values in double quotes with ``\\"`` and ``\\\\``; a comment is in
    braces with no braces inside (over several lines); an annotation in parentheses."""
    i, line, start = 0, 1, 0
    n = len(text)
    while i < n:
        c = text[i]
        if c in _SPACE:
            if c == "\n":
                line, start = line + 1, i + 1
            i += 1
            continue
        col = i - start + 1
        if c == "[":
            j = i + 1
            while j < n and text[j] != "]":
                if text[j] == "\n":
                    raise ScribeError(line, col, "a tag ends on its line")
                if text[j] == '"':
                    j += 1
                    while j < n and text[j] != '"':
                        if text[j] == "\n":
                            raise ScribeError(line, col, "a tag value ends on its line")
                        j += 2 if text[j] == "\\" else 1
                j += 1
            if j >= n:
                raise ScribeError(line, col, "unterminated tag")
            yield Token("tag", text[i:j + 1], line, col)
            i = j + 1
        elif c == "{":
            j = text.find("}", i)
            if j < 0 or "{" in text[i + 1:j]:
                raise ScribeError(line, col, "a comment has no braces inside and ends")
            yield Token("comment", text[i:j + 1], line, col)
            line += text.count("\n", i, j)
            if "\n" in text[i:j]:
                start = text.rfind("\n", i, j) + 1
            i = j + 1
        elif c == "(":
            j = i + 1
            while j < n and text[j] not in "()\n":
                j += 1
            if j >= n or text[j] != ")":
                raise ScribeError(line, col, "an annotation ends with ')' on its line")
            yield Token("note", text[i:j + 1], line, col)
            i = j + 1
        elif c in ")}]\"":
            raise ScribeError(line, col, f"unexpected {c!r}")
        else:
            j = i
            while j < n and text[j] not in _STOPS:
                j += 1
            yield Token("word", text[i:j], line, col)
            i = j


def tag_values(token: Token) -> tuple[str, tuple[str, ...]]:
    """``[Name "value" ...]``: the name and the values (escapes undone)."""
    m = re.fullmatch(r'\[[ \t]*([A-Za-z0-9?_+\-]+)((?:[ \t]+"(?:[^"\\]|\\["\\])*")*)[ \t]*\]',
                     token.text)
    if m is None:
        raise ScribeError(token.line, token.column, "malformed tag")
    values = tuple(re.sub(r'\\(["\\])', r"\1", v[1:-1])
                   for v in re.findall(r'"(?:[^"\\]|\\["\\])*"', m.group(2)))
    return m.group(1), values


# --------------------------------------------------------------------------- records
@dataclass
class Item:
    """One piece of a hand's play: ``mark`` (trick number), ``act`` (seat, action),
    ``note`` (key and values) or ``comment``; with its place."""

    kind: str
    values: tuple[str, ...]
    line: int
    column: int
    written: str = ""


@dataclass
class Hand:
    """``hand N``, its deal (label, cards), its play."""

    number: int
    line: int
    column: int
    number_place: tuple[int, int] = (0, 0)  # where ``N`` of ``hand N`` is written
    parts: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    part_places: list[tuple[int, int, tuple[tuple[int, int], ...]]] = field(
        default_factory=list)
    items: list[Item] = field(default_factory=list)

    def part(self, label: str) -> tuple[str, ...] | None:
        """The cards of the deal part ``label`` (French codes), None without it."""
        return next((cards for lab, cards in self.parts if lab == label), None)

    def actions(self) -> list[tuple[str, str]]:
        """Every action in order: (seat, canonical action text)."""
        return [(i.values[0], i.values[1]) for i in self.items if i.kind == "act"]


@dataclass
class Record:
    """One record as this reader sees it."""

    tags: list[tuple[str, tuple[str, ...]]]
    tag_places: list[tuple[int, int]]
    comments: list[str]
    hands: list[Hand]
    result: tuple[str, str | None] | None
    result_place: tuple[int, int] | None = None
    winner_place: tuple[int, int] | None = None  # where the result's team is written

    def tag(self, name: str) -> str | None:
        """The first value of the first tag ``name``."""
        return next((v[0] for n, v in self.tags if n == name and v), None)

    def all_tags(self, name: str) -> list[tuple[str, ...]]:
        return [v for n, v in self.tags if n == name]


_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9]*:")
_MARK = re.compile(r"[0-9]+\.")
_ACT = re.compile(r"([A-Za-z][A-Za-z0-9]*):(\S+)")
_WORD = re.compile(r"[A-Za-z0-9?_+\-]+")


def read_tags(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The tags of a record's header, as :func:`read_record` reads them (the rest of the
    record is not read: a look at a record's ruleset need not read its hands)."""
    out = []
    for tok in tokens(text):
        if tok.kind != "tag":
            break
        out.append(tag_values(tok))
    return out


def ruleset_of(text: str) -> str | None:
    """The first value of the first ``[Ruleset]`` tag, as ``read_record(text).tag``."""
    return next((v[0] for n, v in read_tags(text) if n == "Ruleset" and v), None)


def read_record(text: str) -> Record:
    """Read one record: tags, comments, hands (``hand N``, ``deal`` and labelled card
    lists, then trick numbers, actions, annotations and comments), the result."""
    toks = list(tokens(text))
    k = 0
    tags: list[tuple[str, tuple[str, ...]]] = []
    places: list[tuple[int, int]] = []
    while k < len(toks) and toks[k].kind == "tag":
        tags.append(tag_values(toks[k]))
        places.append((toks[k].line, toks[k].column))
        k += 1
    if not tags or tags[0][0] != "Mariage":
        where = toks[0] if toks else Token("word", "", 1, 1)
        raise ScribeError(where.line, where.column, "a record starts with [Mariage]")
    comments = []
    while k < len(toks) and toks[k].kind == "comment":
        comments.append(toks[k].text)
        k += 1
    hands: list[Hand] = []
    result: tuple[str, str | None] | None = None
    result_place = winner_place = None
    while k < len(toks):
        t = toks[k]
        if t.kind == "word" and t.text == "hand":
            k = _hand(toks, k, hands)
        elif t.kind == "word" and t.text == "result":
            words = []
            k += 1
            if k < len(toks):
                winner_place = (toks[k].line, toks[k].column)
            while k < len(toks) and toks[k].kind == "word" and len(words) < 2 \
                    and toks[k].text not in ("hand", "result"):
                words.append(toks[k].text)
                k += 1
            if words == ["*"]:
                result = ("*", None)
            elif words and all(_WORD.fullmatch(w) for w in words):
                result = (words[0], words[1] if len(words) > 1 else None)
            else:
                raise ScribeError(t.line, t.column, "result TEAM REASON or result *")
            result_place = (t.line, t.column)
            if k < len(toks):
                raise ScribeError(toks[k].line, toks[k].column, "nothing after the result")
        else:
            raise ScribeError(t.line, t.column, f"unexpected {t.text!r}")
    return Record(tags, places, comments, hands, result, result_place, winner_place)


def _hand(toks: list[Token], k: int, hands: list[Hand]) -> int:
    head = toks[k]
    if k + 2 >= len(toks) or toks[k + 1].kind != "word" or not toks[k + 1].text.isdigit() \
            or toks[k + 2].text != "deal":
        raise ScribeError(head.line, head.column, "hand N, then deal")
    hand = Hand(int(toks[k + 1].text), head.line, head.column,
                (toks[k + 1].line, toks[k + 1].column))
    hands.append(hand)
    k += 3
    # the deal: labelled lists of cards; a card is a word with no ':' and not a mark
    while k < len(toks) and toks[k].kind == "word" and _LABEL.fullmatch(toks[k].text):
        label_tok = toks[k]
        k += 1
        cards, cols = [], []
        while k < len(toks) and toks[k].kind == "word" and ":" not in toks[k].text \
                and not _MARK.fullmatch(toks[k].text) and toks[k].text not in ("hand", "result"):
            cards.append(toks[k].text)
            cols.append((toks[k].line, toks[k].column))
            k += 1
        label = label_tok.text[:-1]
        if label in ("dealer", "first"):
            hand.parts.append((label, tuple(cards)))
        else:
            hand.parts.append((label, tuple(french(c) or "!" + c for c in cards)))
        hand.part_places.append((label_tok.line, label_tok.column, tuple(cols)))
    if not hand.parts:
        raise ScribeError(head.line, head.column, "a deal has labelled lines")
    # the play
    while k < len(toks):
        t = toks[k]
        if t.kind == "word" and t.text in ("hand", "result"):
            break
        if t.kind == "comment":
            hand.items.append(Item("comment", (t.text,), t.line, t.column))
        elif t.kind == "note":
            words = tuple(t.text[1:-1].split())
            hand.items.append(Item("note", words, t.line, t.column))
        elif t.kind == "word" and _MARK.fullmatch(t.text):
            hand.items.append(Item("mark", (t.text[:-1],), t.line, t.column))
        elif t.kind == "word" and (m := _ACT.fullmatch(t.text)):
            hand.items.append(Item("act", (m.group(1), canonical_action(m.group(2))),
                                   t.line, t.column, t.text))
        else:
            raise ScribeError(t.line, t.column, f"unexpected {t.text!r} in a hand")
        k += 1
    return k


def split_records(text: str) -> list[tuple[int, str]]:
    """"A record starts at a line that begins with [Mariage": each record's first line
    (1-based) and text. Text before the first record is left out."""
    starts = [m.start() for m in re.finditer(r"(?m)^\[Mariage", text)]
    return [(text.count("\n", 0, s) + 1, text[s:e])
            for s, e in zip(starts, [*starts[1:], len(text)], strict=False)]


# --------------------------------------------------------------------------- shipped
def shipped_records() -> list[tuple[str, int, str]]:
    """Every record the project ships: (file, first line in it, text). Conformance tests
    hold theirs after the front matter (the second ``---`` line); ``tests/data`` files are
    records (the ``good`` ones valid); docs pages hold them in ``mariage-record`` blocks."""
    out: list[tuple[str, int, str]] = []
    for path in sorted((ROOT / "conformance" / "tests").rglob("*.test")):
        text = path.read_text(encoding="utf-8")
        head = text.find("\n---\n", 4)
        if head < 0:
            continue
        body = text[head + 5:]
        offset = text.count("\n", 0, head + 5)
        out += [(str(path.relative_to(ROOT)), offset + line, rec)
                for line, rec in split_records(body)]
    for path in sorted((ROOT / "tests" / "data" / "records" / "good").glob("*.mrg")):
        out += [(str(path.relative_to(ROOT)), line, rec)
                for line, rec in split_records(path.read_text(encoding="utf-8"))]
    for path in sorted((ROOT / "docs").rglob("*.rst")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"(?m)^( *)\.\. mariage-record::.*\n\n((?:\1   .*\n|\n)+)", text):
            lines = [row[len(m.group(1)) + 3:] for row in m.group(2).split("\n")]
            out.append((str(path.relative_to(ROOT)), text.count("\n", 0, m.start(2)) + 1,
                        "\n".join(lines).strip("\n") + "\n"))
    return out


# --------------------------------------------------------------------------- writer
@dataclass(frozen=True)
class Layout:
    """How :func:`write` lays a record out (every choice the docs leave free)."""

    eol: str = "\n"
    gap: str = " "  # between the tokens of a line
    tag_order: str = "as_read"  # as_read | shuffled (Mariage first)
    moves_per_line: int = 0  # 0: a trick per line (at its marks); n: n actions a line
    marks: bool = True
    notes: bool = True
    notes_alone: bool = False  # annotations on lines of their own
    comments: bool = False  # comments in the header, between moves, over lines
    inline: bool = False  # the comments between moves beside them on their lines
    cards: str = "french"  # french | italian | german
    blank_lines: int = 1
    parts: str = "as_read"  # as_read | shuffled: the deal's labelled lines in any order
    seed: int = 0


def write(rec: Record, lay: Layout) -> str:
    """``rec`` in layout ``lay``."""
    rng = random.Random(lay.seed)
    g, eol = lay.gap, lay.eol
    rows: list[str] = []
    tags = list(rec.tags)
    if lay.tag_order == "shuffled":
        rest = tags[1:]
        rng.shuffle(rest)
        tags = [tags[0], *rest]
    for name, values in tags:
        quoted = "".join(g + '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
                         for v in values)
        rows.append(f"[{name}{quoted}]")
    rows += rec.comments
    if lay.comments:
        rows.append("{a comment of the independent writer,\nover two lines}")
    for hand in rec.hands:
        rows += [""] * lay.blank_lines
        rows.append(f"hand{g}{hand.number}")
        parts = list(hand.parts)
        if lay.parts == "shuffled":
            rng.shuffle(parts)
        for k, (label, cards) in enumerate(parts):
            shown = cards if label in ("dealer", "first") else tuple(
                _card_as(c, lay.cards) for c in cards)
            row = g.join((f"{label}:", *shown))
            rows.append(("deal" + g + row) if k == 0 else row)
        rows += _play_rows(hand, lay, rng)
    rows += [""] * lay.blank_lines
    if rec.result is not None:
        winner, reason = rec.result
        rows.append(g.join(w for w in ("result", winner, reason) if w))
    return eol.join(rows) + eol


def _card_as(card: str, how: str) -> str:
    if card == UNKNOWN or how == "french":
        return card
    return italian(card) if how == "italian" else german(card)


#: The suit words :func:`write` uses in actions, per layout of the cards.
_WORDS_OF = {"italian": {"H": "coppe", "D": "denari", "C": "bastoni", "S": "spade"},
             "german": {"H": "rot", "D": "schellen", "C": "eichel", "S": "gruen"}}


def _action_as(item: Item, how: str) -> str:
    seat, text = item.values
    if how != "french" and not text.startswith("resign"):
        pieces = re.split(r"([:+])", text)
        words = _WORDS_OF[how]
        text = "".join(_card_as(p, how) if french(p) == p and len(p) == 2 else
                       words[p] if k and p in words else p for k, p in enumerate(pieces))
    return f"{seat}:{text}"


def _play_rows(hand: Hand, lay: Layout, rng: random.Random) -> list[str]:
    rows: list[str] = []
    line: list[str] = []
    count = 0

    def flush() -> None:
        nonlocal count
        if line:
            rows.append(lay.gap.join(line))
            line.clear()
        count = 0

    items = hand.items
    for k, item in enumerate(items):
        if item.kind == "mark":
            if not lay.marks:
                continue
            if not lay.moves_per_line:
                flush()
            if k + 1 >= len(items) or items[k + 1].kind != "act":
                continue  # a mark precedes an action
            line.append(item.values[0] + ".")
        elif item.kind == "act":
            if line and lay.notes_alone and line[-1].startswith("("):
                flush()
            if lay.moves_per_line and count >= lay.moves_per_line and \
                    not (line and line[-1].endswith(".")):
                flush()
            line.append(_action_as(item, lay.cards))
            count += 1
            if lay.comments and rng.random() < 0.05:
                if lay.inline:  # (never between a trick number and its action)
                    line.append("{beside the moves}")
                else:
                    flush()
                    rows.append("{between the moves}")
        elif item.kind == "note":
            if not lay.notes:
                continue
            if lay.notes_alone and line and not line[-1].startswith("("):
                flush()
            line.append("(" + " ".join(item.values) + ")")
        else:
            flush()
            rows.append(item.values[0])
    flush()
    return rows
