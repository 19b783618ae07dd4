"""The notation's token patterns: what each piece of a record may hold, in one place.

The terminals of ``grammar/record.lark`` say what a record's text may hold, but some of
them are whole lines (``MOVES``, ``DEAL_PART``, ``TAG``), and the pieces inside them, a
seat name, an action, a card, are not terminals of their own. The fast reader
(:mod:`.fast`), the writer (:mod:`.writer`) and the builder (:mod:`.build`, through
:mod:`.pieces`) each need those pieces one by one: they take them from here.
``tests/test_notation_tokens.py`` checks each pattern against the grammar (a piece
that a pattern accepts is read back by the Lark parser as that very piece, and one it
refuses is not), so that the two cannot drift apart.

Each pattern is meant for ``fullmatch``:

>>> [bool(WORD.fullmatch(w)) for w in ("Mariage", "played_out", "N+S", "a b")]
[True, True, True, False]
>>> [bool(NAME.fullmatch(w)) for w in ("N", "p2", "stock", "2p", "N_S")]
[True, True, True, False, False]
>>> [bool(ACTION.fullmatch(w)) for w in ("KH", "marianna:H", "give:AH+TH", "A(H)")]
[True, True, True, False]
>>> [bool(CARD.fullmatch(w)) for w in ("AH", "??", "r-A", "r-", "AH.")]
[True, True, True, False, False]
>>> bool(CARD_CODE.fullmatch("r-A")), bool(ACT.fullmatch("N:bid:120"))
(False, True)
>>> NOTE.fullmatch("(won N)") is not None, NOTE.fullmatch("(a (b))") is None
(True, True)
>>> bool(COMMENT.fullmatch("a {brace}")), bool(TRICK.fullmatch("12."))
(False, True)
"""

from __future__ import annotations

import re

__all__ = ["ACT", "ACTION", "CARD", "CARD_CODE", "COMMENT", "NAME", "NOTE", "NOTE_TEXT",
           "TRICK", "WORD"]

#: A word: a tag's name, a hand number, a result's team and reason, a word of an
#: annotation (the grammar's ``WORD``).
WORD = re.compile(r"[A-Za-z0-9?_+\-]+")

#: A name: a seat's, before the colon of its action, and a deal part's label
#: (``N:``, ``stock:``).
NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")

#: The text of an action, after ``SEAT:``: no space, parenthesis, brace, bracket or quote.
ACTION = re.compile(r'[^\s(){}\[\]"]+')

#: One action as written in a line of moves: ``SEAT:ACTION``.
ACT = re.compile(f"{NAME.pattern}:{ACTION.pattern}")

#: A card in a deal part: a code, with the German pack's ``-`` suffix where it has one
#: (``AH``, ``??``, ``r-A``).
CARD = re.compile(r"[A-Za-z0-9?]+(?:-[A-Za-z0-9]+)?")

#: A card code without the ``-`` suffix: the French codes and ``??`` (the fast reader's).
CARD_CODE = re.compile(r"[A-Za-z0-9?]+")

#: The text of an annotation, inside its parentheses (one line, no parenthesis).
NOTE_TEXT = re.compile(r"[^()\n]*")

#: One annotation, parentheses included: ``(won N)``, ``(points 40 11)``.
NOTE = re.compile(rf"\({NOTE_TEXT.pattern}\)")

#: The text of a comment, inside its braces (any lines, no brace).
COMMENT = re.compile(r"[^{}]*")

#: A trick number: ``1.``.
TRICK = re.compile(r"[0-9]+\.")
