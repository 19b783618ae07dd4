"""Exceptions raised by :mod:`mariage`.

Every exception derives from :class:`MariageError`. Each one carries the
location of the problem (a file position for bad input, a deal/trick/seat for
bad play) and, where a rule is broken, the stable rule ID from ``spec/``.

>>> from mariage.errors import IllegalActionError
>>> err = IllegalActionError("marianna.decl.window", seat=1, action="declare marianna H",
...                          reason="no declaration after the stock is exhausted",
...                          hand=1, trick=6)
>>> err.rule_id, err.seat, err.trick
('marianna.decl.window', 1, 6)
>>> str(err).startswith("hand 1, trick 6, seat 1, action 'declare marianna H': no declaration")
True
"""

from __future__ import annotations

import operator
import os
import re
from collections.abc import Iterable
from typing import TypeVar

from .lazyrecord import frozen_record

_T = TypeVar("_T")

__all__ = [
    "ActionTextError",
    "IllegalActionError",
    "Location",
    "MariageError",
    "OptionError",
    "SeatError",
    "SpecError",
    "SpecFileError",
    "UnknownNameError",
    "UnknownRulesetError",
    "count_argument",
    "did_you_mean",
    "expect_str",
    "one_line",
    "printable",
    "whole_number",
]


class MariageError(Exception):
    """Root of every error this package raises on purpose; ``code`` is its stable code.

    One ``except`` clause catches them all, whatever went wrong:

    >>> from mariage import load_rules
    >>> for name, options in (("mariana", None), ("marianna", {"targte": 41})):
    ...     try:
    ...         load_rules(name, options)
    ...     except MariageError as err:
    ...         print(type(err).__name__, err.code, err)
    UnknownRulesetError S100 unknown ruleset 'mariana' (known: ...); did you mean 'marianna'?
    OptionError S101 marianna has no option 'targte' (options: ...); did you mean 'target'?
    """

    code: str = "E000"


@frozen_record
class Location:
    """A position in a text file: 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column}"
        return self.file


class SpecError(MariageError):
    """A game description is malformed (schema) or inconsistent.

    ``path`` is the location inside the document, as a dotted path
    (``declarations.marianna.value.schedule``); ``location`` the file, line and
    column, where known. A house ruleset with a misspelt key:

    >>> import pathlib, tempfile
    >>> from mariage import load_rules
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "house.yaml")
    ...     _ = path.write_text("extends: marianna\\nnme: House rules\\n")
    ...     try:
    ...         load_rules(path)
    ...     except SpecError as err:
    ...         print(err.code, err.path, err.location.line, err.location.column)
    ...         print(err)
    S001 nme 2 6
    ...house.yaml:2:6: at 'nme': unexpected key: ... ('nme' was unexpected) [S001]
    """

    code = "S001"

    def __init__(self, message: str, *, location: Location | None = None,
                 path: str = "", code: str | None = None) -> None:
        self.message = message
        self.location = location
        self.path = path
        if code is not None:
            self.code = code
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        at = f"at '{self.path}': " if self.path else ""
        return f"{where}{at}{self.message} [{self.code}]"


class SpecFileError(SpecError):
    """A description file cannot be read at all (missing, a folder, unreadable).

    The command line reports it as a usage error (exit code 2), where a file
    that was read and found bad is exit code 1.

    >>> str(SpecFileError("file not found", location=Location("house.yaml")))
    'house.yaml: file not found [S003]'
    """

    code = "S003"

    def __init__(self, message: str, *, location: Location | None = None,
                 path: str = "") -> None:
        super().__init__(message, location=location, path=path, code="S003")


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'X'?"`` for the choice closest to a mistyped ``word``, or ``""``;
    where ``word`` has a character none of the choices has that is no ASCII one (a
    look-alike: a Cyrillic ``А`` for the Latin ``A``), the hint names it, as the two
    cannot be told apart on the screen.

    >>> did_you_mean("mariana", ["marianna", "mariazza", "schnapsen"])
    "; did you mean 'marianna'?"
    >>> did_you_mean("chess", ["marianna", "mariazza"])
    ''
    >>> did_you_mean("n", ["N", "W", "S", "E"])
    "; did you mean 'N'?"
    >>> did_you_mean("\u0410", ["A", "B"])
    '; it has U+0410 CYRILLIC CAPITAL LETTER A, not an ASCII character'
    """
    if not isinstance(word, str):  # (a name given to the API as a number, None...)
        return ""
    choices = [c for c in choices if isinstance(c, str)]
    by_case = {c.casefold(): c for c in choices}
    import difflib  # only when a name is wrong: not on every start

    close = difflib.get_close_matches(word.casefold(), list(by_case), n=1, cutoff=0.6)
    hint = f"; did you mean '{by_case[close[0]]}'?" if close else ""
    known = set("".join(choices))
    odd = next((c for c in word if not c.isascii() and c not in known), None)
    if odd is not None:
        import unicodedata

        name = unicodedata.name(odd, "") or unicodedata.category(odd)
        hint += f"; it has U+{ord(odd):04X} {name}, not an ASCII character"
    return hint


class UnknownRulesetError(MariageError):
    """No bundled or given ruleset has this name."""

    code = "S100"

    def __init__(self, name: str, known: list[str], hint: str = "") -> None:
        self.name = name
        self.known = known
        shown = name if len(name) <= 80 else f"{name[:60]}... ({len(name)} characters)"
        super().__init__(f"unknown ruleset '{shown}' (known: {', '.join(known)})"
                         + (hint or did_you_mean(name, known)))


class OptionError(MariageError):
    """An option name or value is not valid for a ruleset.

    ``option`` names the option at fault; ``rule_id`` the rule that cannot be played with
    its value, where the value is refused together with other options' values (an
    ``invalid_when`` case of the description), else "".

    >>> from mariage import load_rules
    >>> try:
    ...     load_rules("thousand-4", {"opening_bid": "dealer_auto_100"})
    ... except OptionError as err:
    ...     print(err.option, err.rule_id)
    ...     print(err)
    opening_bid thousand.auction.opening
    thousand-4: opening_bid=dealer_auto_100 cannot be played with players=4, sitter=dealer: ...
    >>> try:
    ...     load_rules("marianna", {"target": "x"})
    ... except OptionError as err:
    ...     print(err.option, repr(err.rule_id), err)
    target '' option 'target' takes a whole number, got 'x'
    """

    code = "S101"

    def __init__(self, message: str, *, option: str = "", rule_id: str = "") -> None:
        self.option = option
        self.rule_id = rule_id
        super().__init__(message)


class SeatError(MariageError, ValueError):
    """A seat (or a side) given to the engine's API is no seat of the table: not a whole
    number, or out of range. A ``ValueError`` too, as it was before it had a class.

    >>> isinstance(SeatError("apply: seat must be ..."), ValueError)
    True
    """

    code = "R002"


class ActionTextError(MariageError, ValueError):
    """A text that is no action of the rules (``parse_action``): another game's action,
    a card not in the pack, a typing error. A ``ValueError`` too, as it was before.

    >>> isinstance(ActionTextError("not an action of marianna: 'bid:120'"), ValueError)
    True
    """

    code = "R003"


class UnknownNameError(MariageError, KeyError):
    """A name the rules do not have, looked up in them (``rules.card``, ``rules.info``,
    ``rules.option``): it says what was looked up and in which ruleset. A ``KeyError``
    too, as it was before (whose message was the name alone).

    >>> from mariage import load_rules
    >>> try:
    ...     load_rules("schnapsen").card("ZH")
    ... except KeyError as err:
    ...     print(err)
    schnapsen has no card code 'ZH' (known: AH TH KH QH JH AD TD ...)
    """

    code = "R004"

    def __init__(self, what: str, name: object, ruleset: str, known: Iterable[str]) -> None:
        self.name = name
        names = list(known)
        listed = " ".join(names[:7]) + (" ..." if len(names) > 7 else "")
        hint = did_you_mean(name, names) if isinstance(name, str) else ""
        super().__init__(f"{ruleset} has no {what} {shown(name)} (known: {listed}){hint}")

    def __str__(self) -> str:  # (a KeyError's would quote the message)
        return str(self.args[0])


class IllegalActionError(MariageError):
    """An action was refused by the rules.

    ``rule_id`` names the rule that forbids it; ``seat`` is the acting seat
    (0-based, in playing order); ``action`` is the action's canonical text;
    ``reason`` says why; ``hand`` and ``trick`` count from 1 (0: not known, or
    before the first trick). The state is left as it was.

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("thousand-pl")
    >>> state = new_match(rules, seed=1)
    >>> try:
    ...     state.apply(parse_action(rules, "bid:100"))
    ... except IllegalActionError as err:
    ...     print(err.rule_id, err.seat, err.action)
    ...     print(err)  # doctest: +NORMALIZE_WHITESPACE
    thousand.auction.bids 1 bid:100
    hand 1, seat 1, action 'bid:100': a bid must be a multiple of 10, at least 110 and
    at most 400 [thousand.auction.bids]
    >>> state.to_act, len(state.actions)
    (1, 0)
    """

    code = "R001"

    def __init__(self, rule_id: str, *, seat: int | None, action: str, reason: str,
                 hand: int = 0, trick: int = 0) -> None:
        self.rule_id = rule_id
        self.seat = seat
        self.action = action
        self.reason = reason
        self.hand = hand
        self.trick = trick
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = []
        if self.hand:
            parts.append(f"hand {self.hand}")
        if self.trick:
            parts.append(f"trick {self.trick}")
        seat = self.seat  # what was sent as a seat: any object, of any size
        if seat is not None:
            parts.append(f"seat {seat if type(seat) is int and -99 < seat < 99 else shown(seat)}")
        parts.append(f"action '{self.action}'")
        return f"{', '.join(parts)}: {self.reason} [{self.rule_id}]"


#: A whole number as text: ASCII digits with an optional sign; no spaces, no ``_``, no
#: digits of other scripts (``int()`` takes ``'１０'``, ``'٣'`` and ``'1_000'``).
_WHOLE = r"[+-]?[0-9]+"  # (compiled on first use, by ``re``'s own cache: issue #28.4)

#: The longest whole number read (Python refuses to convert longer ones).
MAX_WHOLE_DIGITS = 4300


def whole_number(raw: object) -> int | None:
    """``raw`` as a whole number, or ``None``: the one reading of a number in any input.

    An ``int`` (never a ``bool``), or text of ASCII digits with an optional sign.
    A float, even ``2.0``, is not a whole number, nor is text that only Python's
    ``int()`` reads (other scripts' digits, ``_``, spaces around it).

    >>> [whole_number(v) for v in (7, "-12", "+3", 2.0, True, "２", "٣", "1_0", " 5", "²")]
    [7, -12, 3, None, None, None, None, None, None, None]
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and len(raw) <= MAX_WHOLE_DIGITS and re.fullmatch(_WHOLE, raw):
        return int(raw)
    return None


def count_argument(value: object, what: str, lo: int, hi: int | None = None) -> int:
    """``value``, a count given to the API (``jobs``, ``search_limit``), as a whole
    number from ``lo`` (to ``hi``): a ``TypeError`` naming ``what`` for a bool, a float,
    a string or ``None``; a ``ValueError`` for a number out of range.

    >>> count_argument(3, "jobs", 1, 256)
    3
    >>> count_argument(10 ** 6, "validate_file: jobs", 1, 256)
    Traceback (most recent call last):
    ...
    ValueError: validate_file: jobs must be a whole number from 1 to 256, not 1000000
    >>> count_argument("5", "check_text: search_limit", 1)
    Traceback (most recent call last):
    ...
    TypeError: check_text: search_limit must be a whole number, at least 1, not '5' (str)
    """
    bounds = f" from {lo} to {hi}" if hi is not None else f", at least {lo}"
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        number = None
    if number is None or isinstance(value, bool):
        raise TypeError(f"{what} must be a whole number{bounds}, "
                        f"not {shown(value)} ({type(value).__name__})")
    if number < lo or (hi is not None and number > hi):
        raise ValueError(f"{what} must be a whole number{bounds}, not {shown(number)}")
    return number


def expect_str(value: object, what: str) -> str:
    """``value`` if it is a str, else a ``TypeError`` naming ``what`` (text given to the
    API as ``None``, bytes or a list failed deep inside, as an ``AttributeError``).

    >>> expect_str(None, "parse_test: text")
    Traceback (most recent call last):
    ...
    TypeError: parse_test: text must be a str, not NoneType
    """
    if not isinstance(value, str):
        hint = " (decode it: UTF-8)" if isinstance(value, bytes | bytearray) else ""
        raise TypeError(f"{what} must be a str, not {type(value).__name__}{hint}")
    return value


def expect_path(value: object, what: str) -> str:
    """``value`` (a str or an ``os.PathLike`` of one) as text, else a ``TypeError``
    naming ``what`` (``None`` was Python's own "expected str, bytes or os.PathLike
    object", bytes failed at ``startswith``, a ``Path`` kept as the file of problems failed
    as one was printed).

    >>> from pathlib import PurePosixPath
    >>> expect_path(PurePosixPath("a/b.mrg"), "open_input: path")
    'a/b.mrg'
    >>> expect_path(None, "open_input: path")
    Traceback (most recent call last):
    ...
    TypeError: open_input: path must be a str or an os.PathLike, not NoneType
    """
    name = os.fspath(value) if isinstance(value, os.PathLike) else value
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str or an os.PathLike, not {type(value).__name__}")
    return name


def expect_each(values: object, kind: type[_T], what: str) -> list[_T]:
    """``values`` as a list if it is an iterable (not a text) of ``kind`` only, else a
    ``TypeError`` naming ``what`` (a report given a string or ``None`` failed inside,
    as an ``AttributeError`` on its first item).

    >>> expect_each(("a", "b"), str, "f: names")
    ['a', 'b']
    >>> expect_each(["a", None], str, "f: names")
    Traceback (most recent call last):
    ...
    TypeError: f: names must be str values, not a NoneType among them
    """
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"{what} must be {kind.__name__} values, not {type(values).__name__}")
    listed = list(values)
    for value in listed:
        if not isinstance(value, kind):
            raise TypeError(f"{what} must be {kind.__name__} values, not a "
                            f"{type(value).__name__} among them")
    return listed


#: The longest error line before it is cut (:func:`one_line`).
MAX_ERROR_LINE = 1000


def one_line(message: object) -> str:
    """``message`` as one line for standard error: every run of white space (a newline
    too) becomes one space, and a line longer than :data:`MAX_ERROR_LINE` characters
    (a value quoted back whole) is cut in the middle, keeping where and why.

    >>> one_line("a.yaml:1:1: bad\\n  value")
    'a.yaml:1:1: bad value'
    >>> len(one_line("f:1:1: at 'x': '" + "y" * 100_000 + "' is too long [S001]"))
    829
    """
    text = printable(" ".join(str(message).split()))
    if len(text) > MAX_ERROR_LINE:
        text = f"{text[:600]} ... ({len(text)} characters) ... {text[-200:]}"
    return text


#: What a terminal obeys rather than shows: C0 and C1 controls (tab aside) and the
#: marks that reorder a line (bidirectional overrides and isolates); and what it shows as
#: nothing at all, so that a name holding it looks like another: the invisible format
#: characters (soft hyphen, zero-width space and joiners, word joiner, byte-order mark)
#: and the fillers that stand for no letter; and the line and paragraph separators
#: (U+2028, U+2029), a new line to many a terminal and to ``str.splitlines``.
#: (As text, compiled on first use by ``re``'s own cache: most text is plain ASCII, which
#: :func:`printable` passes without it, and most commands print no other; issue #28.4.)
_UNPRINTABLE = ("[\x00-\x08\x0a-\x1f\x7f-\x9f\xad\u034f\u061c\u115f\u1160"
                "\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e"
                "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
                "\U000e0000-\U000e0fff]")


def printable(text: str) -> str:
    """``text`` to print on a terminal: each control character (an escape sequence
    clears the screen or retitles the window; a right-to-left override reorders the
    line) is shown as its escape, so what a record says cannot act on the terminal; and
    so is each invisible one, so that ``'mariazza\\u200b'`` does not look like
    ``'mariazza'``.

    >>> printable("gr\\x1b[31mRED\\u202eeedy")
    'gr\\\\x1b[31mRED\\\\u202eeedy'
    >>> printable("Anna\\tBruno, Zoë"), printable("A\\u200b"), printable("\\ufeffx")
    ('Anna\\tBruno, Zoë', 'A\\\\u200b', '\\\\ufeffx')
    """
    if text.__class__ is not str:  # a subclass of str passes; None was an AttributeError
        expect_str(text, "printable: text")
    if text.isascii() and text.isprintable():  # no control character, nothing invisible
        return text
    return re.sub(_UNPRINTABLE, lambda m: m.group().encode("unicode_escape").decode("ascii"),
                  text)


def shown(value: object, width: int = 60) -> str:
    """``repr(value)`` to quote back in a message, cut to ``width`` characters; a whole
    number too long to write out (Python refuses past 4,300 digits, with a ValueError that
    would stand in for the message) is named by its size.

    >>> shown(10 ** 5000)
    '<a whole number of about 10**5000>'
    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    >>> shown([10 ** 5000])
    '<list>'
    """
    if isinstance(value, int) and value.bit_length() > 4000:
        sign = "-" if value < 0 else ""
        return f"<a whole number of about {sign}10**{int(value.bit_length() * 0.30103)}>"
    try:
        text = repr(value)
    except Exception:  # a huge number within a list, a repr that raises: named by type
        text = f"<{type(value).__name__}>"
    return text if len(text) <= width else text[:width - 3] + "..."
