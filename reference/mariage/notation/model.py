"""The parsed form of a game record: plain immutable values.

Positions (line, column) are kept for error messages but never take part in
equality, so ``parse(write(r)) == r`` compares content only.

>>> act = Act("N", "KH", line=3, column=4)
>>> act == Act("N", "KH")
True
"""

from __future__ import annotations

from ..errors import count_argument, expect_str
from ..lazyrecord import field, frozen_record, hashable_record

__all__ = [
    "FORMAT_VERSION",
    "UNKNOWN",
    "Act",
    "Comment",
    "Deal",
    "DealPart",
    "Hand",
    "Item",
    "Note",
    "Record",
    "Result",
    "Tag",
    "TrickMark",
    "expect_record",
    "expect_text",
]

#: The format version this package reads and writes (the ``[Mariage "1"]`` tag).
FORMAT_VERSION = "1"
#: The mark of a card unknown to the record's writer.
UNKNOWN = "??"


@frozen_record
class Tag:
    """A header tag ``[Name "value" ...]``.

    >>> from mariage.notation import parse_record
    >>> record = parse_record('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Seat "A" "Anna"]\\n'
    ...                       '[Dealer "B"]\\n\\nresult *\\n')
    >>> record.tags[2]
    Tag(name='Seat', values=('A', 'Anna'), line=3, column=2)
    >>> record.tags[2] == Tag("Seat", ("A", "Anna")), record.tag("Dealer")
    (True, 'B')
    """

    name: str
    values: tuple[str, ...]
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


# One object per action and annotation: not frozen, because a frozen dataclass takes
# three times as long to build. Treat it as a value all the same (it hashes as one).
@hashable_record
class Act:
    """An action ``SEAT:TEXT``: the seat's name and the canonical action text (or ``resign``).

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> act = record.hands[0].items[1]
    >>> act, str(act)
    (Act(seat='A', text='marriage:D', line=0, column=0, written=''), 'A:marriage:D')
    """

    seat: str
    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    #: the action as the record wrote it, where that differs from ``text`` (Italian names)
    written: str = field(default="", compare=False)

    def __str__(self) -> str:
        return f"{self.seat}:{self.text}"

    def as_written(self) -> str:
        """``SEAT:TEXT`` as the record wrote it (for messages that quote the input).

        >>> Act("N", "QH", written="Cc").as_written(), str(Act("N", "QH", written="Cc"))
        ('N:Cc', 'N:QH')
        """
        return f"{self.seat}:{self.written or self.text}"


# One object per action and annotation: not frozen, because a frozen dataclass takes
# three times as long to build. Treat it as a value all the same (it hashes as one).
@hashable_record
class TrickMark:
    """A trick number ``7.`` before the first action of that trick.

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> [item.number for item in record.hands[0].items if isinstance(item, TrickMark)]
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    """

    number: int
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


# One object per action and annotation: not frozen, because a frozen dataclass takes
# three times as long to build. Treat it as a value all the same (it hashes as one).
@hashable_record
class Note:
    """An annotation ``(key value ...)`` that the validator re-checks.

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> [str(item) for item in record.hands[0].items if isinstance(item, Note)][-5:]
    ['(ended claim)', '(points 68 37)', '(scored 1 0)', '(segno A)', '(match 1 0)']
    """

    key: str
    values: tuple[str, ...]
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return "(" + " ".join((self.key, *self.values)) + ")"


@frozen_record
class Comment:
    """A comment ``{...}``; ``text`` is what lies between the braces.

    >>> from mariage.notation import parse_record
    >>> record = parse_record('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n'
    ...                       '{Anna v. Bruno, Vienna}\\n\\nresult *\\n')
    >>> record.comments
    (Comment(text='Anna v. Bruno, Vienna', line=4, column=1),)
    """

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


Item = Act | TrickMark | Note | Comment


@frozen_record
class DealPart:
    """One labelled line of a deal: ``N: AH 3H ?? ?? ??`` or ``stock: ...``.

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> [part.label for part in record.hands[0].deal.parts]
    ['dealer', 'A', 'B', 'stock', 'turnup']
    >>> record.hands[0].deal.part("A").cards
    ('QH', 'AD', 'KD', 'QD', 'JD')
    """

    label: str
    cards: tuple[str, ...]
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    columns: tuple[int, ...] = field(default=(), compare=False)
    #: the cards as the record wrote them (Italian names), where any differs from ``cards``
    written: tuple[str, ...] = field(default=(), compare=False)

    def card_as_written(self, index: int) -> str:
        """Card ``index`` of the part as the record wrote it."""
        return self.written[index] if self.written else self.cards[index]


@frozen_record
class Deal:
    """A hand's deal as written: its labelled parts in order (:class:`DealPart`).

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> deal = record.hands[0].deal
    >>> deal.part("turnup").cards, deal.part("dealer").cards, deal.part("N") is None
    (('KS',), ('B',), True)
    """

    parts: tuple[DealPart, ...]

    def part(self, label: str) -> DealPart | None:
        """The part with ``label``, or ``None``."""
        for p in self.parts:
            if p.label == label:
                return p
        return None


@frozen_record
class Hand:
    """One hand: its number, deal and items (actions, trick marks, notes, comments).

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> hand = record.hands[1]
    >>> hand.number, hand.items[0], [str(item) for item in hand.items[1:4]]
    (2, TrickMark(number=1, line=0, column=0), ['B:JH', 'A:QS', '(won A)'])
    """

    number: int
    deal: Deal
    items: tuple[Item, ...]
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@frozen_record
class Result:
    """The ``result`` line: the winning team (``-`` for nobody) and the reason; both
    ``None`` for ``result *``, a match not finished (a record without a result line
    has no :attr:`Record.result`).

    >>> from mariage import load_rules
    >>> from mariage.arena.bots import make_bot
    >>> from mariage.notation import record_match
    >>> record = record_match(load_rules("schnapsen"), seed=42,
    ...                       bots=[make_bot("greedy", 0), make_bot("greedy", 1)])
    >>> record.result
    Result(winner='B', reason='target', line=0, column=0)
    """

    winner: str | None
    reason: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


def expect_record(value: object, call: str) -> None:
    """TypeError unless ``value`` is a :class:`Record` (``call`` names who needs it).

    >>> expect_record("[Mariage ...", "write_record")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: write_record: a Record is needed (parse_record(text) makes one ...), not str
    """
    if not isinstance(value, Record):
        raise TypeError(f"{call}: a Record is needed (parse_record(text) makes one of a "
                        f"record's text), not {type(value).__name__}")


def expect_text(value: object, call: str, file: object = "", number: object = 1,
                line: object = 1) -> None:
    """TypeError unless ``value`` is a str: the text of a record (bytes must be decoded);
    the place given with it, a ``file`` name and the record's ``number`` and first
    ``line`` (from 1), is checked too (a file named by a number failed only when a
    problem was printed, ``unsupported operand type(s) for +=``; a line of 1.5 placed
    problems on line 16.5).

    >>> expect_text(b"[Mariage]", "parse_record")
    Traceback (most recent call last):
    ...
    TypeError: parse_record: the text of a record is a str, not bytes (decode it: UTF-8)
    >>> expect_text("[Mariage]", "check_text", file=3)
    Traceback (most recent call last):
    ...
    TypeError: check_text: file must be a str, not int
    """
    if not isinstance(value, str):
        hint = " (decode it: UTF-8)" if isinstance(value, bytes | bytearray) else ""
        raise TypeError(f"{call}: the text of a record is a str, "
                        f"not {type(value).__name__}{hint}")
    if file.__class__ is not str:
        expect_str(file, f"{call}: file")
    if (number.__class__ is not int or line.__class__ is not int
            or number < 1 or line < 1):
        count_argument(number, f"{call}: number", 1)
        count_argument(line, f"{call}: line", 1)


@frozen_record
class Record:
    """One match. ``number`` and ``line`` locate it in its file (not compared).

    >>> from mariage.notation import parse_record, write_record
    >>> text = '''[Mariage "1"]
    ... [Ruleset "schnapsen"]
    ... [Seat "A" "Anna"]
    ... [Dealer "B"]
    ...
    ... hand 1
    ... deal dealer: B
    ... A: QH AD KD QD JD
    ... B: TH QC JC TS JS
    ... stock: KH QS AS AC TD KC AH JH TC
    ... turnup: KS
    ... 1. A:marriage:D A:QD B:JS (won B)
    ...
    ... result *
    ... '''
    >>> record = parse_record(text, file="short.mrg")
    >>> record.ruleset, record.players, record.options, len(record.hands), record.file
    ('schnapsen', {'A': 'Anna'}, {}, 1, 'short.mrg')
    >>> write_record(record) == text
    True
    """

    tags: tuple[Tag, ...]
    comments: tuple[Comment, ...]
    hands: tuple[Hand, ...]
    result: Result | None
    file: str = field(default="<string>", compare=False)
    number: int = field(default=1, compare=False)
    line: int = field(default=1, compare=False)

    def tag(self, name: str) -> str | None:
        """The first value of the first tag called ``name``, or ``None``."""
        for t in self.tags:
            if t.name == name and t.values:
                return t.values[0]
        return None

    @property
    def ruleset(self) -> str | None:
        """The ``Ruleset`` tag."""
        return self.tag("Ruleset")

    @property
    def options(self) -> dict[str, str]:
        """The ``Option`` tags as a dict (name to value text)."""
        return {t.values[0]: t.values[1] for t in self.tags
                if t.name == "Option" and len(t.values) == 2}

    @property
    def players(self) -> dict[str, str]:
        """The ``Seat`` tags: seat name to player name."""
        return {t.values[0]: t.values[1] for t in self.tags
                if t.name == "Seat" and len(t.values) == 2}
