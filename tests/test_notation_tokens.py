"""The notation's token patterns (mariage.notation.tokens) agree with the Lark grammar.

The fast reader and the writer check each piece of a record with the patterns of
:mod:`mariage.notation.tokens`; the Lark parser reads ``grammar/record.lark``. For each
kind of piece, each candidate text (the pieces of the stored conformance records, and
those with one awkward character put in) is set in a small record where that piece
goes; the Lark parser must read that very piece back where the pattern accepts the
text, and must not where it refuses it. So a pattern and the grammar cannot drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from lark import Tree
from lark.exceptions import UnexpectedInput
from mariage.notation import tokens
from mariage.notation.cards import french_card, normalize_action
from mariage.notation.errors import NotationError
from mariage.notation.grammar import parser, terminal_pattern
from mariage.notation.model import Act, Comment, Note, Record, TrickMark
from mariage.notation.reader import _builder, parse_record

ROOT = Path(__file__).resolve().parent.parent
HEAD = '[Mariage "1"]\n[Ruleset "marianna"]\n'
HAND = "\nhand 1\ndeal N: {card}\n{play}\n"


def _hand(card: str = "AH", play: str = "1. N:AH") -> str:
    return HEAD + HAND.format(card=card, play=play) + "\nresult *\n"


def _read(text: str) -> Record | None:
    """The record Lark's parser (with the builder) reads from ``text``; None: refused."""
    builder, lark_parser = _builder()
    builder.reset("<test>", 1, 1, None)
    try:
        rec = lark_parser.parse(text)
    except (UnexpectedInput, NotationError):
        return None
    finally:
        builder.reset("<test>", 1, 1, None)
    assert isinstance(rec, Record)
    return rec


def _tag_name(s: str) -> bool:
    """The grammar reads ``s`` as the second tag's name (from Lark's own tokens: the
    builder finds a tag's name with the very pattern under test)."""
    try:
        tree = parser().parse(f'[Mariage "1"]\n[{s} "x"]\n')
    except UnexpectedInput:
        return False
    tags = [t for t in tree.children if isinstance(t, Tree) and t.data == "tag"]
    if len(tags) != 2:
        return False
    token = str(tags[1].children[0])  # [ NAME "x" ]
    return token[1:-1].split(None, 1)[0] == s and token[1:-1].split(None, 1)[1] == '"x"'


def _acts(rec: Record | None) -> list[Any]:
    return [] if rec is None or len(rec.hands) != 1 else list(rec.hands[0].items)


def _comment(s: str) -> bool:
    rec = _read(HEAD + "{" + s + "}\n")
    return rec is not None and [c.text for c in rec.comments] == [s]


def _result(s: str) -> bool:
    rec = _read(HEAD + f"\nresult {s}\n")
    return rec is not None and rec.result is not None and rec.result.winner == s \
        and rec.result.reason is None


def _reason(s: str) -> bool:
    rec = _read(HEAD + f"\nresult N {s}\n")
    return rec is not None and rec.result is not None and rec.result.winner == "N" \
        and rec.result.reason == s


def _seat(s: str) -> bool:
    items = _acts(_read(_hand(play=f"1. {s}:AH")))
    acts = [i for i in items if isinstance(i, Act)]
    return len(acts) == 1 and acts[0].seat == s and acts[0].text == "AH"


def _action(s: str) -> bool:
    items = _acts(_read(_hand(play=f"1. N:{s}")))
    acts = [i for i in items if isinstance(i, Act)]
    return len(items) == 2 and len(acts) == 1 and acts[0].seat == "N" \
        and acts[0].text == normalize_action(s)


def _annotation(s: str) -> bool:
    """Read back as one annotation after an action, and the whole of ``s`` one by the
    grammar's ``NOTES`` terminal (white space around it would be read as a separator)."""
    items = _acts(_read(_hand(play=f"1. N:AH {s}")))
    return len(items) == 3 and isinstance(items[2], Note) \
        and [i.text for i in items if isinstance(i, Act)] == ["AH"] \
        and re.fullmatch(terminal_pattern("NOTES"), s) is not None and s.count("(") == 1


def _trick(s: str) -> bool:
    """Read back as a trick mark before an action (white space around ``s`` would be read
    as a separator, not as part of the mark)."""
    items = _acts(_read(_hand(play=f"{s} N:AH")))
    return [type(i) for i in items] == [TrickMark, Act] and not any(c.isspace() for c in s)


def _deal_label(s: str) -> bool:
    rec = _read(HEAD + f"\nhand 1\ndeal {s}: AH\n\nresult *\n")
    if rec is None or len(rec.hands) != 1:
        return False
    parts = rec.hands[0].deal.parts
    return [(p.label, p.cards) for p in parts] == [(s, ("AH",))]


def _card(s: str) -> bool:
    rec = _read(_hand(card=s, play=""))
    if rec is None or len(rec.hands) != 1:
        return False
    return [(p.label, p.cards) for p in rec.hands[0].deal.parts] == [("N", (french_card(s),))]


#: kind -> (its pattern, whether Lark's parser reads ``s`` back as that piece)
KINDS: dict[str, tuple[Any, Callable[[str], bool]]] = {
    "tag name": (tokens.WORD, _tag_name),
    "comment": (tokens.COMMENT, _comment),
    "result": (tokens.WORD, _result),
    "reason": (tokens.WORD, _reason),
    "seat": (tokens.NAME, _seat),
    "action": (tokens.ACTION, _action),
    "annotation": (tokens.NOTE, _annotation),
    "deal label": (tokens.NAME, _deal_label),
    "card": (tokens.CARD, _card),
    "trick": (tokens.TRICK, _trick),
}

#: Characters put into each piece: the grammar's separators and delimiters, and others.
AWKWARD = [" ", "\t", "\n", "(", ")", "[", "]", "{", "}", '"', "\\", ":", ".", "-", "+", "_",
           "?", "*", "#", "/", ",", "0", "9", "a", "Z", "é"]


#: Pieces of forms the stored records may lack: German and Italian cards, a comment.
MORE = {"card": ["r-A", "e-10", "??", "Rc"], "action": ["give:r-A+g-O", "marianna:coppe"],
        "comment": ["a comment", ""], "seat": ["p2"], "annotation": ["()", "(won N)"]}


@cache
def corpus() -> dict[str, set[str]]:
    """The pieces of the stored conformance records, by kind (one record in three)."""
    found: dict[str, set[str]] = {kind: set() for kind in KINDS}
    paths = sorted((ROOT / "conformance" / "tests").rglob("*.test"))
    assert len(paths) > 100
    for path in paths[::3]:
        for doc in path.read_text(encoding="utf-8").split("\n---\n"):
            if not doc.startswith("[Mariage"):
                continue
            rec = parse_record(doc)
            found["tag name"].update(t.name for t in rec.tags)
            found["comment"].update(c.text for c in rec.comments)
            if rec.result is not None and rec.result.winner is not None:
                found["result"].add(rec.result.winner)
                if rec.result.reason:
                    found["reason"].add(rec.result.reason)
            for hand in rec.hands:
                for part in hand.deal.parts:
                    found["deal label"].add(part.label)
                    found["card"].update(part.cards)
                for item in hand.items:
                    if isinstance(item, TrickMark):
                        found["trick"].add(f"{item.number}.")
                    elif isinstance(item, Act):
                        found["seat"].add(item.seat)
                        found["action"].add(item.text)
                    elif isinstance(item, Note):
                        found["annotation"].add(str(item))
                    elif isinstance(item, Comment):
                        found["comment"].add(item.text)
    return found


def candidates(kind: str) -> list[str]:
    """The corpus's pieces of ``kind`` and :data:`MORE`'s, a few of them with each awkward
    character put in at the start, inside and at the end, each awkward character alone,
    and nothing."""
    pieces = sorted(corpus()[kind])
    bases = pieces[:: max(1, len(pieces) // 6)][:6] + MORE.get(kind, [])
    out = set(pieces) | set(MORE.get(kind, [])) | set(AWKWARD) | {""}
    for base in bases:
        mid = len(base) // 2
        for ch in AWKWARD:
            out.update((ch + base, base[:mid] + ch + base[mid:], base + ch))
    return sorted(out)


def test_the_corpus_holds_each_kind() -> None:
    found = corpus()
    assert {kind for kind, pieces in found.items() if not pieces} <= {"comment"}
    assert {"N", "E", "S", "W"} <= found["seat"] and "bid:100" in found["action"]
    assert "AH" in found["card"] and "(won N)" in found["annotation"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_pattern_accepts_what_the_grammar_reads_back(kind: str) -> None:
    pattern, reads_back = KINDS[kind]
    differ = [(s, bool(pattern.fullmatch(s)), reads_back(s)) for s in candidates(kind)
              if bool(pattern.fullmatch(s)) != reads_back(s)]
    assert not differ, f"{kind}: (text, pattern, grammar) disagree: {differ[:10]}"


def test_the_candidates_reach_both_answers() -> None:
    """Each kind is tried on texts the grammar reads and on texts it refuses."""
    for kind, (pattern, _) in KINDS.items():
        answers = {bool(pattern.fullmatch(s)) for s in candidates(kind)}
        assert answers == {True, False}, kind


def test_the_card_code_is_a_card_without_the_suffix() -> None:
    """The fast reader's card (no German suffix) is a card the grammar reads."""
    for s in candidates("card"):
        if tokens.CARD_CODE.fullmatch(s):
            assert tokens.CARD.fullmatch(s) and "-" not in s, s
    assert tokens.CARD.fullmatch("r-A") and not tokens.CARD_CODE.fullmatch("r-A")


def test_an_act_is_a_seat_a_colon_and_an_action() -> None:
    for seat in [s for s in candidates("seat") if ":" not in s][:60]:
        for action in ("AH", "bid:120", "A H", "(x)"):
            whole = f"{seat}:{action}"
            both = bool(tokens.NAME.fullmatch(seat) and tokens.ACTION.fullmatch(action))
            assert bool(tokens.ACT.fullmatch(whole)) == both, whole
