"""Reading a test file's ruleset, kind and rule IDs without parsing its front matter.

A filtered run (``mariage conformance --ruleset R``, ``--kind K``, ``--rule ID``) need
not parse the YAML of every test file: :func:`read_header` finds the top-level
``ruleset``, ``kind`` and ``rules`` lines of the front matter by plain text search,
and gives a field's value only when that reading is *certain* to be what the full
parse would give, else ``None`` (the file is then parsed in full). A file is left out
of a run only on a certain value, so no test that a full parse would run is ever left
out (``docs/conformance.rst``, "Filtered runs"). The reading is certain when:

* the front matter has no backslash (no escaped spelling of a key) and starts with a
  block mapping (its first character is a letter: not ``{``, ``[``, ``?``, ``&``,
  ``!`` or a comment);
* the key occurs once in the front matter as a whole word (a character before or
  after it that could belong to a longer word, a letter, digit, ``_`` or ``-``, makes
  another word), so there is no second key of that name, quoted or not;
* that one occurrence is a line ``KEY: VALUE`` at column 0, and the next line (if
  any) starts at column 0 too, so VALUE does not go on over more lines;
* VALUE is a plain word that YAML reads as text (``marianna``, not ``null``, ``yes``
  or ``1.0``), or a quoted text without quotes or backslashes in it (``"*"``); for
  ``rules``, a one-line flow list ``[a.b, c.d]`` of such plain words.

>>> h = read_header("id: t\\nkind: scenario\\nruleset: marianna\\nrules: [core.hand]\\n")
>>> h.ruleset, h.kind, h.rules
('marianna', 'scenario', ('core.hand',))
>>> read_header("id: t\\nruleset: mari\\n  anna\\n").ruleset is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yaml import ScalarNode
from yaml.resolver import Resolver

from ..errors import expect_str

__all__ = ["Header", "front_matter_of", "read_header"]

_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*\Z")
_QUOTED = re.compile(r"\"[^\"\\]*\"\Z|'[^']*'\Z")
_INNER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_STR = "tag:yaml.org,2002:str"
_RESOLVER: Any = Resolver()  # the tags a plain scalar resolves to, as the loader does


@dataclass(frozen=True)
class Header:
    """The certain values of a test file's front matter; ``None`` where not certain."""

    ruleset: str | None = None
    kind: str | None = None
    rules: tuple[str, ...] | None = None


def front_matter_of(text: str) -> str | None:
    """The front matter of a test file's text (between its ``---`` lines, ending in a
    line feed), or ``None`` if it has none (the full parse says why).

    >>> front_matter_of("---\\nid: a\\n---\\nbody")
    'id: a\\n'
    """
    if not expect_str(text, "front_matter_of: text").startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    return None if end < 0 else text[4:end + 1]


def _scalar(value: str) -> str | None:
    """The text a one-line YAML value surely stands for, else ``None``."""
    if _QUOTED.match(value):
        return value[1:-1]
    if _WORD.match(value) and _RESOLVER.resolve(ScalarNode, value, (True, False)) == _STR:
        return value
    return None


def _words(front: str, key: str) -> int:
    """How many times ``key`` occurs in ``front`` as a whole word (no letter, digit, ``_``
    or ``-`` just before or after it)."""
    n = 0
    at = front.find(key)
    while at >= 0:
        after = at + len(key)
        if not (at and front[at - 1] in _INNER) and not (
                after < len(front) and front[after] in _INNER):
            n += 1
        at = front.find(key, after)
    return n


def _line_of(front: str, key: str) -> str | None:
    """The value text of the one top-level line ``key: ...``, if ``key`` occurs once as a
    word and its value ends with its line; else ``None``."""
    if _words(front, key) != 1:
        return None
    head = key + ": "
    at = 0 if front.startswith(head) else front.find("\n" + head) + 1
    if at == 0 and not front.startswith(head):
        return None
    end = front.find("\n", at)
    if end < 0:
        return None
    if end + 1 < len(front) and front[end + 1] in " \t\r\n#":
        return None  # the value may go on over the next line
    return front[at + len(head):end]


def _rules(value: str) -> tuple[str, ...] | None:
    if not (value.startswith("[") and value.endswith("]")):
        return None
    inner = value[1:-1].strip()
    if not inner:
        return ()
    items = [_scalar(v.strip()) for v in inner.split(",")]
    if any(v is None or not _WORD.match(v) for v in items):
        return None
    return tuple(v for v in items if v is not None)


def read_header(front: str) -> Header:
    """The certain ``ruleset``, ``kind`` and ``rules`` of the front matter ``front``."""
    if "\\" in expect_str(front, "read_header: front") or not front[:1].isalpha():
        return Header()
    ruleset = _line_of(front, "ruleset")
    kind = _line_of(front, "kind")
    rules = _line_of(front, "rules")
    return Header(None if ruleset is None else _scalar(ruleset),
                  None if kind is None else _scalar(kind),
                  None if rules is None else _rules(rules))
