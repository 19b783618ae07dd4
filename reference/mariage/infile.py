"""Open input files safely: regular files only, checked without blocking.

Opening a FIFO for reading waits until a writer comes, and reading a device
may never end, so every file ``mariage`` reads on its own (records, game
descriptions, cache entries) is opened with :func:`open_regular`: the file is
opened without waiting (``O_NONBLOCK``), its type is checked on the open
descriptor (no race between the check and the use), and anything but a
regular file is refused with an :class:`OSError` that names the path.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "a.mrg")
>>> _ = open(path, "w").write("text")
>>> with open_regular(path) as f:
...     f.read()
b'text'
>>> os.mkfifo(os.path.join(folder, "pipe.mrg"))
>>> try:
...     open_regular(os.path.join(folder, "pipe.mrg"))
... except OSError as exc:
...     print(exc.strerror)
is not a regular file (a FIFO, socket or device); not read
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["NOT_REGULAR", "NUL_IN_NAME", "check_name", "check_regular", "not_text", "open_regular",
           "real_path"]

NOT_REGULAR = "is not a regular file (a FIFO, socket or device); not read"
NUL_IN_NAME = "a file name cannot hold a NUL character"


def check_name(path: str | os.PathLike[str]) -> None:
    """An :class:`OSError` naming ``path`` if it holds a NUL (Python's own refusal is a
    ValueError, "embedded null byte", that names no file).

    >>> check_name("a\\0b.mrg")
    Traceback (most recent call last):
    ...
    OSError: [Errno 22] a file name cannot hold a NUL character: 'a\\x00b.mrg'
    """
    if "\0" in os.fspath(path):
        raise OSError(errno.EINVAL, NUL_IN_NAME, os.fspath(path))


def real_path(path: str | os.PathLike[str]) -> Path:
    """``path`` absolute, its links followed as far as they go: a loop of links or a NUL
    in the name is no error here (``Path.resolve`` raises RuntimeError on a loop under
    Python 3.11, ValueError on a NUL); opening the file says what is wrong.

    >>> real_path("/") == Path("/")
    True
    """
    try:
        return Path(os.path.realpath(path))
    except ValueError:
        return Path(os.path.abspath(path))


def _kind_error(mode: int, path: str | os.PathLike[str]) -> OSError | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, "is a folder", os.fspath(path))
    return OSError(errno.EINVAL, NOT_REGULAR, os.fspath(path))


def check_regular(path: str | os.PathLike[str]) -> None:
    """Raise :class:`OSError` unless ``path`` is a regular file (links followed).

    >>> check_regular("/dev/null")
    Traceback (most recent call last):
    ...
    OSError: [Errno 22] is not a regular file (a FIFO, socket or device); not read: '/dev/null'
    """
    check_name(path)
    err = _kind_error(os.stat(path).st_mode, path)
    if err is not None:
        raise err


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """Open ``path`` for reading bytes if it is a regular file; else raise :class:`OSError`.

    The open itself never blocks (a FIFO is opened without waiting for a
    writer, then refused).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_BINARY", 0)
    check_name(path)
    fd = os.open(path, flags)
    try:
        err = _kind_error(os.fstat(fd).st_mode, path)
        if err is not None:
            raise err
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return open(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


#: What a file starts with when it is no UTF-8 text: byte-order marks (longest first),
#: then (:data:`_PACKED`) the magic numbers of compressed files and archives.
_MAGIC = ((b"\xff\xfe\x00\x00", "UTF-32 text (little-endian, with a byte-order mark)"),
          (b"\x00\x00\xfe\xff", "UTF-32 text (big-endian, with a byte-order mark)"),
          (b"\xff\xfe", "UTF-16 text (little-endian, with a byte-order mark)"),
          (b"\xfe\xff", "UTF-16 text (big-endian, with a byte-order mark)"))
_PACKED = ((b"\x1f\x8b", "gzip-compressed data (name it .gz)"),
           (b"BZh", "bzip2-compressed data (name it .bz2)"),
           (b"\xfd7zXZ\x00", "xz-compressed data (name it .xz)"),
           (b"\x28\xb5\x2f\xfd", "zstd-compressed data (name it .zst)"),
           (b"PK\x03\x04", "a zip archive (unpack it first)"))


def not_text(first: bytes, packed: bool = True) -> str:
    """What the first line of a file is when it is plainly no UTF-8 text (a byte-order
    mark of UTF-16 or UTF-32, every other byte NUL; with ``packed``, a compressed file's
    or a zip archive's magic number), else ``""``: such a file is one problem, not one
    per line (a record file) or a puzzling byte number (a game description).

    >>> not_text("[Mariage".encode("utf-16-le")), not_text(b"[Mariage")
    ('UTF-16 text (little-endian, without a byte-order mark)', '')
    >>> not_text(b"\\x1f\\x8b\\x08"), not_text(b"\\x1f\\x8b\\x08", packed=False)
    ('gzip-compressed data (name it .gz)', '')
    """
    for magic, what in _MAGIC + (_PACKED if packed else ()):
        if first.startswith(magic) and (magic != b"BZh" or first[4:10] == b"1AY&SY"):
            return what
    head = first[:16]
    if len(head) >= 4 and b"\x00" in head[:4]:
        for width in (4, 2):
            for at, order in ((0, "little"), (width - 1, "big")):
                if all(b == 0 for i, b in enumerate(head) if i % width != at) and \
                        all(head[at::width]):
                    bits = 8 * width
                    return f"UTF-{bits} text ({order}-endian, without a byte-order mark)"
    return ""
