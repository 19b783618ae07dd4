"""A per-user disk cache of loaded descriptions, compiled rules and rulebooks, keyed by content.

Loading a description means parsing YAML and checking it against the JSON
Schema; compiling it precomputes masks for every card. Both take longer than
everything else ``mariage list`` or ``mariage rules`` does, so the results are
kept on disk and reused while nothing they were made from has changed.

Where
    ``$XDG_CACHE_HOME/mariage`` if that variable is set, else
    ``~/.cache/mariage``. ``MARIAGE_NO_CACHE=1`` turns the cache off. It keeps
    its newest 256 entries, or as many as ``MARIAGE_CACHE_ENTRIES`` says (a
    whole number from 1 up; anything else is the default).
Key
    A BLAKE2b digest (32 bytes) over the package version, the package's own source files (their
    names, sizes and modification times), the content of every bundled
    description and of the schema, the working folder (error positions name
    files relative to it), the registered descriptions and
    ``MARIAGE_SPEC_PATH``, and what was asked for (the file, the option
    values). An entry also lists each file the result was read from with the
    BLAKE2b digest of its content, checked again on every use: change one byte of a
    description and its entry is ignored and rebuilt.
Safety
    Entries are pickles, so they are read only if they can be trusted: the
    folder and the file must be the user's own and writable by nobody else,
    the file must be a regular file (not a link, a FIFO or a folder: opened
    without waiting, then checked), and it must carry a keyed BLAKE2b digest (a MAC) made with a
    secret key that only this user can read (``key``, mode 0600, in the same
    folder) over the entry's key and content, and hold that key: an authentic
    entry copied over another key's entry is not used. A file that fails any
    check, or is corrupted or truncated, is ignored (and replaced on the next
    write); nothing is ever unpickled from anywhere else. Entries are written
    to a temporary file and renamed, so a killed run leaves no half entry; its
    temporary file is removed later.

>>> import tempfile, os
>>> saved = os.environ.get("XDG_CACHE_HOME")
>>> os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp()
>>> store("example", {"answer": 42}, [])
>>> load("example")
{'answer': 42}
>>> load("never stored") is None
True
>>> os.environ.pop("XDG_CACHE_HOME") and None
>>> if saved is not None: os.environ["XDG_CACHE_HOME"] = saved
"""

from __future__ import annotations

import contextlib
import marshal
import os
import pickle
import stat
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from mariage import codegen
from mariage.infile import open_regular
from mariage.lazyrecord import field_names, is_record

try:  # the BLAKE2 module alone: importing hashlib loads OpenSSL first (3 ms of every start)
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - a Python built without the module
    from hashlib import blake2b as _blake2b
try:  # what hmac.compare_digest is, without importing hmac (and with it hashlib)
    from _operator import _compare_digest as _same_digest
except ImportError:  # pragma: no cover - another implementation of Python
    from hmac import compare_digest as _same_digest  # type: ignore[no-redef]

__all__ = ["DISABLE_ENV", "ENTRIES_ENV", "cache_dir", "file_digest", "load", "make_key",
           "store"]

DISABLE_ENV = "MARIAGE_NO_CACHE"
"""Set to anything but ``""`` or ``0`` to turn the disk cache off."""

_MAGIC = b"MARIAGE\x03"  # 2: the MAC covers the key too; 3: BLAKE2b in place of SHA-256
_KEY_FILE = "key"
_MAX_ENTRIES = 256
ENTRIES_ENV = "MARIAGE_CACHE_ENTRIES"
"""How many entries the cache keeps (its newest), if not 256: a test run or a server that
compiles thousands of configurations may keep them all."""
_STALE_SECONDS = 3600.0
_PACKAGE = Path(__file__).resolve().parent.parent  # the whole package, not spec/ alone


def enabled() -> bool:
    """Whether the disk cache is in use (``MARIAGE_NO_CACHE`` unset, empty or ``0``).

    >>> import os
    >>> saved = os.environ.get("MARIAGE_NO_CACHE")
    >>> os.environ["MARIAGE_NO_CACHE"] = "1"
    >>> enabled()
    False
    >>> os.environ.pop("MARIAGE_NO_CACHE") and None
    >>> if saved is not None: os.environ["MARIAGE_NO_CACHE"] = saved
    """
    return os.environ.get(DISABLE_ENV, "") in ("", "0")


def cache_dir() -> Path | None:
    """The cache folder: ``$XDG_CACHE_HOME/mariage`` or ``~/.cache/mariage``.

    None when neither can be known (no home folder): then nothing is cached.

    >>> import os
    >>> saved = os.environ.get("XDG_CACHE_HOME")
    >>> os.environ["XDG_CACHE_HOME"] = "/var/tmp/cache"
    >>> str(cache_dir())
    '/var/tmp/cache/mariage'
    >>> os.environ.pop("XDG_CACHE_HOME") and None
    >>> if saved is not None: os.environ["XDG_CACHE_HOME"] = saved
    """
    base = os.environ.get("XDG_CACHE_HOME", "")
    if base and os.path.isabs(base):
        return Path(base) / "mariage"
    try:
        return Path.home() / ".cache" / "mariage"
    except (RuntimeError, KeyError, OSError):
        return None


def file_digest(path: str | Path) -> str | None:
    """BLAKE2b digest (32 bytes, hex) of a file's content, or None if it cannot be read.

    >>> file_digest("/no/such/file") is None
    True
    """
    try:
        with open_regular(path) as f:  # a FIFO put in a file's place is not waited on
            return _blake2b(f.read(), digest_size=32).hexdigest()
    except OSError:
        return None


_CODE: list[str] = []


def _code_fingerprint() -> str:
    """Names, sizes and modification times of the package's modules and of the bundled
    data (read from their folders once per process: their stamps, not their content,
    which would take a warm command's start several milliseconds to read and hash)."""
    if not _CODE:
        from mariage import __version__
        from mariage.resources import spec_dir

        stamps = [__version__]  # every module: any may define what is cached
        _stamps(str(_PACKAGE), ".py", stamps)
        _stamps(str(spec_dir()), "", stamps)
        _CODE.append(_blake2b("\0".join(stamps).encode("utf-8", "surrogateescape"),
                              digest_size=32).hexdigest())
    return _CODE[0]


def _stamps(folder: str, suffix: str, out: list[str]) -> None:
    """Append to ``out`` the path, size and modification time of each file of ``folder``
    whose name ends with ``suffix``, and of its folders' files (but ``__pycache__``), in
    the order of their names (symbolic links to folders are not followed)."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name != "__pycache__":
                _stamps(entry.path, suffix, out)
        elif entry.name.endswith(suffix):
            try:
                st = entry.stat()
            except OSError:
                out.append(f"{entry.path}\0-")
                continue
            out.append(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}")


def make_key(*parts: object) -> str:
    """A cache key for ``parts`` (made text), the package and the bundled descriptions.

    >>> make_key("rules", "marianna") == make_key("rules", "marianna")
    True
    >>> make_key("rules", "marianna") == make_key("rules", "mariglia")
    False
    """
    h = _blake2b(_code_fingerprint().encode(), digest_size=32)
    for part in parts:
        h.update(b"\0" + repr(part).encode())
    return h.hexdigest()


def _private_dir(create: bool) -> Path | None:
    """The cache folder if it is (or can be made) ours alone; else None."""
    folder = cache_dir()
    if folder is None:
        return None
    if create:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return None
    try:
        info = os.lstat(folder)
    except OSError:
        return None
    if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid()
            or info.st_mode & 0o022):
        return None
    return folder


_SECRETS: dict[Path, bytes] = {}


def _secret(folder: Path, create: bool) -> bytes | None:
    """The user's secret key (made on first use), read once per process."""
    if folder in _SECRETS:
        return _SECRETS[folder]
    key = _read_secret(folder, create)
    if key is not None:
        _SECRETS[folder] = key
    return key


def _read_secret(folder: Path, create: bool, renew: bool = True) -> bytes | None:
    path = folder / _KEY_FILE
    try:
        fd = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        if not create:
            return None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                         | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:  # another process made it just now
            return _read_secret(folder, create=False)
        except OSError:
            return None
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(32))
        return _read_secret(folder, create=False)
    except OSError:  # a link, say
        return _renew_key(folder, path) if create and renew else None
    if not _own_file(fd, 0o077):  # a folder, a FIFO, open to others
        return _renew_key(folder, path) if create and renew else None
    with os.fdopen(fd, "rb") as f:
        key = f.read(64)
    if len(key) == 32:
        return key
    return _renew_key(folder, path) if create and renew else None


def _renew_key(folder: Path, path: Path) -> bytes | None:
    """Replace a broken key (in the user's private folder) by a new one; entries made
    with the old key are then rebuilt."""
    try:
        if path.is_dir() and not path.is_symlink():
            import shutil

            shutil.rmtree(path)
        else:
            path.unlink()
    except OSError:
        return None
    return _read_secret(folder, create=True, renew=False)


#: Opening never waits (a FIFO), never follows a link.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


def _own_file(fd: int, forbidden: int) -> bool:
    """Whether ``fd`` is a regular file of this user without the ``forbidden`` mode bits.

    If not, ``fd`` is closed (a folder, a FIFO, a device: never read).
    """
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() \
            and not info.st_mode & forbidden:
        os.set_blocking(fd, True)
        return True
    os.close(fd)
    return False


def _mac(secret: bytes, key: str, payload: bytes) -> bytes:
    """The HMAC of an entry: over its key and its content, so it is valid only in its place."""
    return _blake2b(key.encode("ascii", "replace") + b"\0" + payload, key=secret,
                    digest_size=32).digest()


def _entry(folder: Path, key: str) -> Path:
    return folder / f"{key}.pickle"


def load(key: str) -> Any | None:
    """The value stored under ``key``, if the entry is sound and its files are unchanged."""
    if not enabled():
        return None
    folder = _private_dir(create=False)
    if folder is None:
        return None
    secret = _secret(folder, create=False)
    if secret is None:
        return None
    try:
        fd = os.open(_entry(folder, key), _READ_FLAGS)
    except OSError:
        return None
    try:
        if not _own_file(fd, 0o022):
            return None
    except OSError:
        os.close(fd)
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            blob = f.read()
        except OSError:
            return None
    if len(blob) < len(_MAGIC) + 32 or not blob.startswith(_MAGIC):
        return None
    mac, payload = blob[len(_MAGIC):len(_MAGIC) + 32], blob[len(_MAGIC) + 32:]
    if not _same_digest(mac, _mac(secret, key, payload)):
        return None  # forged, damaged, or another key's entry copied here
    try:
        stored_key, files, value = pickle.loads(payload)  # authenticated above: ours
    except Exception:  # a format from another version: rebuild
        return None
    if stored_key != key:
        return None
    for path, digest in files:
        if file_digest(path) != digest:
            return None
    return value


def store(key: str, value: Any, files: Iterable[str | Path]) -> None:
    """Keep ``value`` under ``key``, valid while each of ``files`` keeps its content.

    Never raises: a cache that cannot be written is simply not used.
    """
    if not enabled():
        return
    folder = _private_dir(create=True)
    if folder is None:
        return
    secret = _secret(folder, create=True)
    if secret is None:
        return
    listed = [(str(Path(p).resolve()), file_digest(p)) for p in files]
    if any(d is None for _, d in listed):
        return
    try:
        payload = _dumps((key, listed, value))
    except Exception:  # something unpicklable: not cached
        return
    blob = _MAGIC + _mac(secret, key, payload) + payload
    import tempfile

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f"tmp-{os.getpid()}-", suffix=".part", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        entry = _entry(folder, key)
        if os.path.isdir(entry) and not os.path.islink(entry):  # a broken entry: a folder
            import shutil

            shutil.rmtree(entry, ignore_errors=True)
        os.replace(tmp, entry)  # a FIFO, link or damaged file in its place is replaced
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _tidy(folder)


class _Pickler(pickle.Pickler):
    """Slotted dataclasses as (class, field values): much quicker to load than their state."""

    def reducer_override(self, obj: Any) -> Any:
        cls = type(obj)
        names = _SLOTTED.get(cls)
        if names is None:
            # (a class that says how it is pickled keeps its way: a loaded description
            # packs its thousands of source positions as plain tuples)
            if cls in _OTHER or "__reduce__" in vars(cls) or not (
                    any("__dataclass_fields__" in vars(k) for k in cls.__mro__)
                    and hasattr(cls, "__slots__")):
                _OTHER.add(cls)
                return NotImplemented
            names = _SLOTTED[cls] = field_names(cls) if is_record(cls) \
                else tuple(cls.__dataclass_fields__)
        return (_restore_slotted, (cls, names, tuple(getattr(obj, n) for n in names)))


_SLOTTED: dict[type, tuple[str, ...]] = {}
_OTHER: set[type] = set()


def _restore_slotted(cls: type, names: tuple[str, ...], values: tuple[Any, ...]) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in zip(names, values, strict=True):
        object.__setattr__(obj, name, value)
    return obj


def _dumps(value: Any) -> bytes:
    import io

    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _bound() -> int:
    """How many entries to keep: ``MARIAGE_CACHE_ENTRIES`` if it is a whole number from 1
    up (at most nine digits), else 256.

    >>> os.environ[ENTRIES_ENV] = "5000"; _bound()
    5000
    >>> os.environ[ENTRIES_ENV] = "-3"; _bound()
    256
    >>> del os.environ[ENTRIES_ENV]
    """
    text = os.environ.get(ENTRIES_ENV, "")
    if text.isascii() and text.isdigit() and len(text) <= 9 and int(text) > 0:
        return int(text)
    return _MAX_ENTRIES


def _tidy(folder: Path) -> None:
    """Drop old temporary files of killed runs, and the oldest entries beyond the bound.

    Runs after every store, so it reads only the folder's listing; it asks a file's
    time only of temporary files and, when there are too many entries, of the entries.
    """
    try:
        names = os.listdir(folder)
    except OSError:
        return
    now = time.time()
    entries: list[str] = []
    for name in names:
        if name.endswith(".part"):
            path = folder / name
            try:
                if now - os.lstat(path).st_mtime > _STALE_SECONDS:
                    path.unlink()
            except OSError:
                continue
        elif name.endswith(".pickle"):
            entries.append(name)
    bound = _bound()
    if len(entries) <= bound:
        return
    dated: list[tuple[float, Path]] = []
    for name in entries:
        path = folder / name
        try:
            dated.append((os.lstat(path).st_mtime, path))
        except OSError:
            continue
    dated.sort()
    for _, path in dated[:len(dated) - bound]:
        with contextlib.suppress(OSError):
            path.unlink()


def _code_key() -> str:
    import sys

    return make_key("code", sys.version, marshal.version)


def _load_code() -> Any:
    return load(_code_key())


def _save_code(entries: dict[bytes, bytes]) -> None:
    store(_code_key(), entries, [])


# the generated functions' compiled code is kept here too (see mariage.codegen)
codegen.keep_in(_load_code, _save_code)
