"""Generated source, compiled once per machine: the code cache of the generated functions.

The engine writes straight-line functions per ruleset and per class of record
(the play phase, the duties, the trick's end, the deal, the hand's end, a
record's ``__init__``...) and compiles them when they are first needed. Compiling
their source is a large part of a short command's start (7-8 ms of the 58 ms of
``mariage validate`` of one record), so :func:`run` keeps the compiled code:

* in the process, per source text (the same source is compiled once);
* on disk, where a *store* has been set (:func:`keep_in`; the disk cache of
  :mod:`mariage.spec.diskcache` sets itself as the store when it is imported):
  one entry holding the marshalled code of each source by its BLAKE2b digest
  (over the name the code is compiled under and its text), read once, on the
  first source that is not in the process's memory, and written again when the
  process ends if it compiled anything new. The entry is authenticated and
  kept as the disk cache keeps any other; ``MARIAGE_NO_CACHE=1`` turns it off.

What is run is always what the source says: the digest covers the whole text,
so changed source is compiled afresh, and code marshalled by another version of
Python is never read (the store's key holds the version).

>>> ns: dict[str, object] = {}
>>> run("def double(x):\\n    return 2 * x\\n", "<example>", ns)
>>> ns["double"](21)
42
>>> compiled("x = 1\\n", "<example>") is compiled("x = 1\\n", "<example>")
True
"""

from __future__ import annotations

import atexit
import contextlib
import marshal
from collections.abc import Callable
from types import CodeType
from typing import Any

try:  # the BLAKE2 module alone: importing hashlib loads OpenSSL first
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - a Python built without the module
    from hashlib import blake2b as _blake2b

__all__ = ["compiled", "keep_in", "run"]

#: the most bytes of marshalled code kept on disk (the entry is read whole by every
#: process that needs one: beyond this, a process keeps only the code it used itself)
MAX_BYTES = 2_000_000

#: source text and name -> code, in this process
_MEMO: dict[tuple[str, str], CodeType] = {}


class _Disk:
    """The entry of marshalled code on disk, as this process sees it."""

    def __init__(self, load: Callable[[], Any], save: Callable[[dict[bytes, bytes]], None]
                 ) -> None:
        self.load = load
        self.save = save
        self.entries: dict[bytes, bytes] | None = None  # read on the first miss
        self.used: set[bytes] = set()
        self.added = False

    def code(self, source: str, name: str) -> CodeType:
        if self.entries is None:
            found = self.load()
            self.entries = dict(found) if _sound(found) else {}
        digest = _blake2b(f"{name}\0{source}".encode("utf-8", "surrogatepass"),
                          digest_size=16).digest()
        self.used.add(digest)
        blob = self.entries.get(digest)
        if blob is not None:
            try:
                code = marshal.loads(blob)
            except (EOFError, ValueError, TypeError):
                code = None
            if type(code) is CodeType and code.co_filename == name:
                return code
        code = compile(source, name, "exec")
        self.entries[digest] = marshal.dumps(code)
        if not self.added:
            self.added = True
            atexit.register(self.write)
        return code

    def write(self) -> None:
        """Keep what this process added (and, within :data:`MAX_BYTES`, what was there)."""
        entries = self.entries
        if not self.added or entries is None:
            return
        if sum(map(len, entries.values())) > MAX_BYTES:
            entries = {k: v for k, v in entries.items() if k in self.used}
        with contextlib.suppress(Exception):  # a cache that cannot be written is not used
            self.save(entries)
        self.added = False


def _sound(found: object) -> bool:
    return type(found) is dict and all(
        type(k) is bytes and type(v) is bytes for k, v in found.items())


_DISK: _Disk | None = None


def keep_in(load: Callable[[], Any] | None,
            save: Callable[[dict[bytes, bytes]], None] | None = None) -> None:
    """Keep compiled code on disk: ``load()`` gives the stored mapping of digests to
    marshalled code (or anything else: then none is stored), ``save(mapping)`` stores
    it. ``keep_in(None)`` keeps it in the process only."""
    global _DISK
    if _DISK is not None:
        _DISK.write()
    _DISK = None if load is None or save is None else _Disk(load, save)


def compiled(source: str, name: str) -> CodeType:
    """The code of ``source`` compiled under ``name`` (``exec`` mode), from the cache."""
    key = (source, name)
    code = _MEMO.get(key)
    if code is None:
        disk = _DISK
        code = compile(source, name, "exec") if disk is None else disk.code(source, name)
        if len(_MEMO) >= 4096:  # bounded, whatever the callers generate
            _MEMO.clear()
        _MEMO[key] = code
    return code


def run(source: str, name: str, namespace: dict[str, Any]) -> None:
    """Run generated ``source`` (compiled under ``name``) in ``namespace``."""
    exec(compiled(source, name), namespace)
