"""Card and suit names: French (canonical) and Italian, mapped one to one.

Canonical codes are French: a rank (``A 3 K Q J 7 ... 2``, ``T`` for ten) and
an upper-case suit letter (``H D C S``). Italian codes use the Italian rank
letters ``R`` (re, king), ``C`` (cavallo, the horse, in the queen's place) and
``F`` (fante, jack), other ranks unchanged, and a lower-case suit letter:
``c`` coppe = hearts, ``d`` denari = diamonds, ``b`` bastoni = clubs, ``s``
spade = spades. Upper and lower case never clash: ``Cc`` is the horse of
coppe (QH), ``QC`` the queen of clubs. Suits may also be written as words,
French or Italian, where an action names a suit (``marianna:coppe``).

>>> french_card("Rc"), french_card("Cb"), french_card("7d"), french_card("KH")
('KH', 'QC', '7D', 'KH')
>>> italian_card("QH")
'Cc'
>>> normalize_action("marianna:coppe"), normalize_action("exchange:7s")
('marianna:H', 'exchange:7S')

German codes (the pack of Marjapussi as played in Germany) are written suit,
hyphen, rank: suits ``r`` rot (red) = hearts, ``s`` Schellen (bells) =
diamonds, ``e`` Eichel (acorns) = clubs, ``g`` Grün (green) = spades; ranks
``A``, ``Z`` (or ``10``) for the ten, ``K``, ``O`` (Ober) = queen, ``U``
(Unter) = jack, ``9`` to ``6``. The hyphen keeps them apart from Italian codes.

>>> french_card("r-A"), french_card("g-O"), french_card("s-Z"), french_card("e-10")
('AH', 'QS', 'TD', 'TC')
>>> normalize_action("give:r-A+r-Z+g-K+g-O"), normalize_action("call:rot")
('give:AH+TH+KS+QS', 'call:H')
>>> normalize_action("bid:100:trefle"), normalize_action("take:cœur")
('bid:100:C', 'take:H')
"""

from __future__ import annotations

__all__ = ["french_card", "italian_card", "normalize_action"]

_IT_RANK = {"R": "K", "C": "Q", "F": "J"}
_FR_RANK = {v: k for k, v in _IT_RANK.items()}
_IT_SUIT = {"c": "H", "d": "D", "b": "C", "s": "S"}
_FR_SUIT = {v: k for k, v in _IT_SUIT.items()}
_SUIT_WORDS = {
    "coppe": "H", "denari": "D", "bastoni": "C", "spade": "S",
    "hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S",
}
_IT_RANKS = frozenset("A23456789TRCF")
_DE_SUIT = {"r": "H", "s": "D", "e": "C", "g": "S"}
_DE_RANK = {"A": "A", "Z": "T", "10": "T", "K": "K", "O": "Q", "U": "J", "9": "9", "8": "8",
            "7": "7", "6": "6"}
_SUIT_WORDS.update({"rot": "H", "herz": "H", "schellen": "D", "eichel": "C", "gruen": "S",
                    "grün": "S"})
# French, as Belote is written in France: coeur (or cœur), carreau, trefle (or trèfle), pique
_SUIT_WORDS.update({"coeur": "H", "cœur": "H", "carreau": "D", "trefle": "C", "trèfle": "C",
                    "pique": "S"})


def french_card(code: str) -> str:
    """The canonical (French) code of ``code``; other text comes back unchanged."""
    if len(code) == 2 and code[1] in _IT_SUIT and code[0] in _IT_RANKS:
        return _IT_RANK.get(code[0], code[0]) + _IT_SUIT[code[1]]
    if len(code) in (3, 4) and code[1] == "-" and code[0] in _DE_SUIT and code[2:] in _DE_RANK:
        return _DE_RANK[code[2:]] + _DE_SUIT[code[0]]
    return code


def italian_card(code: str) -> str:
    """The Italian code of a canonical French code."""
    return _FR_RANK.get(code[0], code[0]) + _FR_SUIT[code[1]]


def normalize_action(text: str) -> str:
    """An action text with Italian cards and suit words turned canonical."""
    if ":" not in text:
        return french_card(text)
    return ":".join(_SUIT_WORDS.get(p, "+".join(french_card(c) for c in p.split("+")))
                    for p in text.split(":"))
