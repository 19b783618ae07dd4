"""The header of a record checked before its replay: the tags, the rules, the first dealer.

Part of :mod:`mariage.notation.replay` (its checker calls :func:`check_header` once per
record, before the first hand): each tag given once where it must be, with its number
of values; the format version; the ruleset, a name and never a file, loaded with the
record's options; the seats it names; the first dealer; and where the record starts at a
later hand, the score and state carried into it (:mod:`.laterstart`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mariage.engine.deals import fixed_first_dealer
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.spec.rulesload import load_rules
from mariage.spec.specnames import is_ruleset_name

from ..errors import MariageError, OptionError, SpecError, did_you_mean
from .checked import action_cache
from .laterstart import apply_start
from .model import FORMAT_VERSION, Record, Tag
from .reader import MAX_DIGITS

if TYPE_CHECKING:
    from .replay import _Checker

__all__ = ["check_header", "later_start", "tag_named"]

#: The tags a record gives at most once (``Option`` and ``Seat``: once per option, per seat).
_ONCE = ("Mariage", "Ruleset", "Dealer", "Observer", "StartHand", "StartScore")


def check_header(ch: _Checker) -> bool:
    """Check the header of ``ch``'s record: the tags each given once and with their number
    of values, the format version, the ruleset (a name, never a file) and its options
    loaded, the seats named, the first dealer; then a later start (:func:`later_start`).
    Makes ``ch``'s rules and state; False where the replay cannot start (each problem
    reported through ``ch.error``, which stops a strict check).

    >>> from mariage.notation.reader import parse_record
    >>> from mariage.notation.replay import _Checker
    >>> ch = _Checker(parse_record('[Mariage "1"]\\n[Ruleset "marianna"]\\n[Dealer "X"]\\n'),
    ...               False, None, 10)
    >>> check_header(ch), [e.code for e in ch.out.errors]
    (False, ['N124'])
    """
    rec = ch.rec
    tags = rec.tags
    if not tags or tags[0].name != "Mariage":
        ch.error("N120", "a record starts with the tag [Mariage \"1\"]",
                 tags[0].line if tags else 0, tags[0].column if tags else 0)
    counts: dict[str, int] = {}
    keyed: set[tuple[str, str]] = set()
    for t in tags:
        counts[t.name] = counts.get(t.name, 0) + 1
        if t.name in _ONCE and counts[t.name] == 2:  # which one holds would be a guess
            ch.error("N120", f"the tag {t.name} is given twice", t.line, t.column)
        if t.name in ("Option", "Seat") and t.values:
            if (t.name, t.values[0]) in keyed:
                ch.error("N120", f"the tag {t.name} {t.values[0][:40]!r} is given twice",
                         t.line, t.column, token=t.values[0][:40])
            keyed.add((t.name, t.values[0]))
        want = 2 if t.name in ("Option", "Seat") else 1
        if t.name in ("Mariage", "Ruleset", "Dealer", "Option", "Seat", "Observer") \
                and len(t.values) != want:
            ch.error("N120", f"the tag {t.name} takes {want} value(s)", t.line, t.column)
    version = rec.tag("Mariage")
    if version is not None and version != FORMAT_VERSION:
        t = tag_named(ch.rec, "Mariage")
        ch.error("N121", f"format version {version!r} is not supported (this reader "
                 f"reads version {FORMAT_VERSION})", t.line, t.column, token=version)
        return False
    name = rec.ruleset
    if name is None:
        ch.error("N120", "the tag [Ruleset \"...\"] is missing")
        return False
    if not is_ruleset_name(name):  # a record names a ruleset, never a file to read
        t = tag_named(ch.rec, "Ruleset")
        ch.error("N122", "the tag [Ruleset \"...\"] holds a ruleset name (lower-case "
                 "letters, digits and '-', at most 64), not a file", t.line, t.column,
                 token=name[:40])
        return False
    for t in tags:
        if t.name == "Option" and len(t.values) == 2 and len(t.values[1]) > MAX_DIGITS \
                and t.values[1].lstrip("+-").isdigit():
            ch.error("N112", f"the value of option {t.values[0]!r} is longer than "
                     f"{MAX_DIGITS} digits", t.line, t.column, token=t.values[0])
            return False
    try:
        rules = load_rules(name, rec.options)
    except OptionError as exc:
        t = next((t for t in tags if t.name == "Option" and t.values
                  and t.values[0] == exc.option), tag_named(ch.rec, "Ruleset"))
        ch.error("N123", str(exc), t.line, t.column, token=exc.option or None)
        return False
    except (SpecError, MariageError, OSError) as exc:
        t = tag_named(ch.rec, "Ruleset")
        ch.error("N122", str(exc), t.line, t.column, token=name)
        return False
    ch.rules = ch.out.rules = rules
    ch._actions = action_cache(rules)
    seats = rules.seat_names
    for t in tags:
        if t.name in ("Seat", "Observer") and t.values and t.values[0] not in seats:
            ch.error("N124", f"no seat {t.values[0]!r} in {rules.ruleset} (seats: "
                     f"{', '.join(seats)}){did_you_mean(t.values[0], seats)}", t.line,
                     t.column, token=t.values[0])
    dealer_text = rec.tag("Dealer")
    dealer: int | None = None
    if rules.first_dealer == "none":
        if dealer_text not in (None, "-"):
            t = tag_named(ch.rec, "Dealer")
            ch.error("N125", f"{rules.ruleset} has no dealer", t.line, t.column,
                     token=dealer_text)
    elif dealer_text is None:
        ch.error("N125", "the first dealer is missing: [Dealer \"SEAT\"]")
        return False
    elif dealer_text not in seats:
        t = tag_named(ch.rec, "Dealer")
        ch.error("N124", f"no seat {dealer_text!r} (seats: {', '.join(seats)})"
                 f"{did_you_mean(dealer_text, seats)}",
                 t.line, t.column, token=dealer_text)
        return False
    else:
        dealer = seats.index(dealer_text)
        fixed = fixed_first_dealer(rules)
        if fixed is not None and fixed != dealer and rec.tag("StartHand") in (None, "1"):
            t = tag_named(ch.rec, "Dealer")
            ch.error("N125", f"the rules of {rules.ruleset} make {seats[fixed]} the "
                     "first dealer", t.line, t.column, token=dealer_text)
            return False
    ch.state = ch.out.state = GameState(rules, first_dealer=dealer)
    return later_start(ch, rules, ch.state)


def later_start(ch: _Checker, rules: Rules, st: GameState) -> bool:
    """``[StartHand]``, ``[StartScore]``, ``[StartState]``: a record of later hands."""
    first = apply_start(rules, st, ch.rec.tags, tag_named(ch.rec, "StartHand"),
                        lambda code, msg, line, col, token, rule_id=None: ch.error(
                          code, msg, line, col, token=token, rule_id=rule_id))
    ch.first_hand = first or 1
    return first is not None


def tag_named(rec: Record, name: str) -> Tag:
    """The first tag called ``name`` of ``rec``, else an empty one at the record's start
    (where a problem with a missing tag is reported)."""
    for t in rec.tags:
        if t.name == name:
            return t
    return Tag(name, (), rec.line, 1)
