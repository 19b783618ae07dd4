"""Problems found in game records: stable codes and the error object.

Every problem a reader or validator finds is a :class:`RecordError` with a
stable code from :data:`CODES`, the place (file, line, column, record, hand,
trick, seat, offending token), the rule ID where a rule of the game is broken,
and a message a person understands.

>>> err = RecordError("N141", "must follow suit", file="a.mrg", line=12, column=9,
...                   record=2, hand=1, trick=7, seat="W", token="W:2S", rule_id="r.follow")
>>> print(err)
a.mrg:12:9: N141 record 2, hand 1, trick 7, seat W, at 'W:2S': must follow suit [r.follow]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import MariageError, count_argument, expect_str, printable
from ..lazyrecord import field_names, frozen_record

__all__ = ["CODES", "NotationError", "RecordError", "expected_text", "odd_character", "odd_column",
           "tag_trouble"]

#: Every error code, with what it means. Codes never change meaning.
CODES: dict[str, str] = {
    # the file
    "N100": "the input is not valid UTF-8",
    "N101": "a line is longer than the limit",
    "N102": "a record is larger than the limit",
    "N103": "text before the first record",
    "N104": "no record in the input",
    "N105": "the file cannot be read further (corrupt or truncated compressed data)",
    # syntax
    "N110": "syntax error",
    "N111": "the record ends in the middle of a construct (truncated)",
    "N112": "a number is longer than the limit (9 digits)",
    # the header
    "N120": "a required tag is missing, repeated or malformed",
    "N121": "unsupported format version",
    "N122": "unknown ruleset",
    "N123": "unknown option or bad option value",
    "N124": "unknown seat",
    "N125": "the dealer is missing, not allowed, or not the one the rules give",
    "N126": "a [StartState] field is unknown, repeated, malformed or impossible under the rules "
            "(alone or with [StartScore])",
    # the deal
    "N130": "unknown card",
    "N131": "a card is dealt twice",
    "N132": "wrong number of cards in a hand, the stock or the deck",
    "N133": "malformed deal (label missing, unknown or not allowed)",
    "N134": "hands are not numbered 1, 2, 3...",
    "N135": "no full deal is consistent with this partial record",
    "N136": "the search for a consistent deal gave up (limit reached)",
    # the actions
    "N140": "unknown action",
    "N141": "illegal action: a rule of the game forbids it",
    "N142": "action out of turn",
    "N143": "action after the end of the hand",
    "N144": "action after the end of the match",
    "N145": "wrong trick number",
    "N146": "the hand stops before it is over",
    # annotations
    "N150": "wrong trick winner",
    "N151": "wrong trump",
    "N152": "wrong hand points",
    "N153": "wrong match score",
    "N154": "wrong hand result",
    "N155": "unknown, misplaced or malformed annotation",
    "N156": "wrong contract, result or schwarz",
    # the match
    "N160": "wrong match result",
    "N161": "the record stops before the match is over (and is not marked unfinished)",
    "N162": "a hand after the end of the match",
}


@frozen_record
class RecordError:
    """One problem in a record. ``line``/``column`` are 1-based (0: unknown); ``code``
    is one of :data:`CODES`; ``rule_id`` the rule of the game broken, if any.

    >>> from mariage.notation import check_record, parse_record
    >>> text = ('[Mariage "1"]\\n[Ruleset "schnapsen"]\\n[Dealer "B"]\\n\\nhand 1\\n'
    ...         'deal dealer: B\\nA: QH AD KD QD JD\\nB: TH QC JC TS JS\\n'
    ...         'stock: KH QS AS AC TD KC AH JH TC\\nturnup: KS\\n'
    ...         '1. A:marriage:D A:QD B:JS (won B)\\n\\nresult *\\n')
    >>> bad = parse_record(text.replace("B:JS", "B:AS"), file="bad.mrg")
    >>> (err,) = check_record(bad).errors
    >>> err.code, err.line, err.column, err.seat, err.token, err.rule_id
    ('N141', 11, 22, 'B', 'B:AS', 'core.hand')
    >>> print(err)  # doctest: +NORMALIZE_WHITESPACE
    bad.mrg:11:22: N141 record 1, hand 1, trick 1, seat B, at 'B:AS': that card is not
    in the player's hand [core.hand]
    """

    code: str
    message: str
    file: str = "<string>"
    line: int = 0
    column: int = 0
    record: int = 0
    hand: int = 0
    trick: int = 0
    seat: str | None = None
    token: str | None = None
    rule_id: str | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}:{self.column}"
        ctx = []
        if self.record:
            ctx.append(f"record {self.record}")
        if self.hand:
            ctx.append(f"hand {self.hand}")
        if self.trick:
            ctx.append(f"trick {self.trick}")
        if self.seat is not None:
            ctx.append(f"seat {self.seat}")
        if self.token is not None:  # a token of any length is quoted cut
            ctx.append(f"at {self.token!r}" if len(self.token) <= 80 else
                       f"at {self.token[:60]!r}... ({len(self.token)} characters)")
        head = f"{where}: {self.code}"
        if ctx:
            head += " " + ", ".join(ctx)
        rule = f" [{self.rule_id}]" if self.rule_id else ""
        # printed for people: a file name (a shard's) or a message quoting the record
        # cannot act on the terminal
        return printable(f"{head}: {self.message}{rule}")

    def as_dict(self) -> dict[str, Any]:
        """The error as a JSON-ready dict (every field is a plain value: no deep copy).

        >>> RecordError("N100", "bad", line=2).as_dict()["line"]
        2
        """
        return {f: getattr(self, f) for f in _FIELDS}


_FIELDS = field_names(RecordError)


class NotationError(MariageError):
    """Raised by the strict reader and validator: carries the :class:`RecordError`
    (``error``) and its ``code``.

    >>> from mariage.notation import parse_record, validate
    >>> try:
    ...     parse_record('[Mariage "1"]\\n%%\\n', file="bad.mrg")
    ... except NotationError as exc:
    ...     print(exc.code, exc.error.line, exc.error.column)
    N110 2 1
    """

    def __init__(self, error: RecordError) -> None:
        self.error = error
        self.code = error.code
        super().__init__(str(error))


#: what a writer puts where the grammar expects each of its terminals, in the order of a
#: record (Lark's names, such as ``HAND`` or ``PLAY``, mean nothing to a writer)
_SHAPES = {
    "TAG": 'a tag [Name "value"]', "COMMENT": "a comment {...}", "DEAL": "'deal'",
    "DEAL_LINES": "the deal's lines like N: AH 3H", "PLAY": "a move like N:AH",
    "NOTES": "an annotation like (won N)", "HAND": "'hand N'", "RESULT": "'result TEAM REASON'",
    "WORD": "a word", "STAR": "'*'", "<END-OF-FILE>": "the end of the record",
}


def expected_text(names: Iterable[str]) -> str:
    """What the parser expected where a syntax error stopped it (the names of the
    grammar's terminals), as a writer of records puts it. After a hand's moves the
    parser expects the next hand or the result, since a hand's play is one terminal:
    there more moves are what a writer most likely meant, and they are named too.

    >>> expected_text(["HAND", "RESULT"])
    "a move like N:AH, an annotation like (won N), 'hand N' or 'result TEAM REASON'"
    >>> expected_text(["<END-OF-FILE>"])
    'the end of the record'
    >>> expected_text([])
    'nothing more at this point'
    """
    wanted = {"<END-OF-FILE>" if name == "$END" else name for name in names}
    if wanted == {"HAND", "RESULT"}:
        wanted |= {"PLAY", "NOTES"}
    said = [shape for name, shape in _SHAPES.items() if name in wanted]
    said += sorted(wanted - set(_SHAPES))
    if not said:  # a part of a record parsed alone, whose grammar wants nothing more
        return "nothing more at this point"
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


def odd_character(bad: str) -> str:
    """The first character of ``bad`` that is not printable ASCII, named, with what the
    notation writes instead; ``""`` if there is none. A no-break space, a full-width
    digit or a zero-width joiner looks like what the notation expects and is not.

    >>> odd_character("\\u00a0")
    " (U+00A0 NO-BREAK SPACE: the notation's words, numbers and blanks are ASCII)"
    >>> odd_character("\\x0b")
    " (U+000B, a control character: the notation's words, numbers and blanks are ASCII)"
    >>> odd_character("@@"), odd_character("\\t")
    ('', '')
    """
    at = _first_odd(bad)
    return "" if at < 0 else f" ({_named(bad[at])})"


def odd_column(text: str, column: int) -> str:
    """Where ``text``, which starts at ``column`` (1-based) of its line, holds a
    character that is not printable ASCII: ``"; column N holds"`` that character named;
    ``""`` if there is none. Two plays joined by a zero-width joiner or a full-width
    digit in place of their blank read as one word: this says which character did it.

    >>> odd_column("2H\\u200dN:2D", 11)
    "; column 13 holds U+200D ZERO WIDTH JOINER: the notation's words, numbers and blanks are ASCII"
    >>> odd_column("2H", 11)
    ''
    """
    at = _first_odd(text)
    if at < 0:
        return ""
    where = f"column {column + at}" if column > 0 else "it"
    return f"; {where} holds {_named(text[at])}"


def tag_trouble(line: str, column: int) -> str:
    r"""Why the tag that opens at ``column`` (1-based, its ``[``) of ``line`` is no tag:
    ``"; column N: ..."``, the first place its shape breaks; ``""`` if none is found.
    A tag is ``[Name "value" ...]`` on one line, a value in double quotes where a
    backslash escapes only ``"`` and itself.

    >>> print(tag_trouble('[Seed 1]', 1))
    ; column 7: a tag's values are in double quotes, a blank before each ([Name "value"])
    >>> print(tag_trouble('[Event "caf\\u00e9"]', 1))
    ; column 12: in a tag's value a backslash escapes only \" and \\
    >>> print(tag_trouble('[Seed "1\\"]', 1))
    ; column 7: the value is not closed on its line (\" is a quote inside it)
    >>> tag_trouble('[Seed "1"]', 1), tag_trouble('  [Seed "1"] x', 3)
    ('', '')
    """
    expect_str(line, "tag_trouble: line")
    column = count_argument(column, "tag_trouble: column", 1)

    def past(at: int, chars: str) -> int:
        while at < len(line) and line[at] in chars:
            at += 1
        return at

    named = past(past(column, " \t"), _TAG_NAME)
    if named == past(column, " \t"):
        return f"; column {named + 1}: a tag starts with its name ([Name \"value\"])"
    at = named
    while True:
        start = past(at, " \t")
        if start >= len(line):
            return f"; column {start + 1}: the tag is not closed with ']' on its line"
        if line[start] == "]":
            return ""
        if start == at == named:
            return (f"; column {start + 1}: {line[start]!r} is no part of a tag's name "
                    "(letters, digits, ?_+-)")
        if line[start] != '"' or start == at:
            return (f"; column {start + 1}: a tag's values are in double quotes, a blank "
                    'before each ([Name "value"])')
        at = start + 1
        while at < len(line) and line[at] != '"':
            if line[at] == "\\" and line[at + 1:at + 2] not in ('"', "\\"):
                return (f"; column {at + 1}: in a tag's value a backslash escapes only "
                        '\\" and \\\\')
            at += 2 if line[at] == "\\" else 1
        if at >= len(line):
            inside = ' (\\" is a quote inside it)' if '\\"' in line[start:] else ""
            return f"; column {start + 1}: the value is not closed on its line{inside}"
        at += 1


_TAG_NAME = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789?_+-"


def _first_odd(text: str) -> int:
    return next((i for i, c in enumerate(text) if not " " <= c <= "~" and c not in "\t\r\n"),
                -1)


def _named(odd: str) -> str:
    import unicodedata

    name = unicodedata.name(odd, "")
    what = f"U+{ord(odd):04X} {name}" if name else f"U+{ord(odd):04X}, a control character"
    return f"{what}: the notation's words, numbers and blanks are ASCII"
