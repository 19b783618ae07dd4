"""Write an output file safely: whole or not at all, and never over something it should not.

:func:`write_output` is what every command that writes a file uses (``play
--out``, ``match --out``, ``render --html/--svg``, ``conformance
--json/--junit/--trace``), after :func:`check_destination` has checked the
destination before any work started. It refuses an empty name,
and will not replace a symbolic link, a FIFO, a device, a folder or a
read-only file (an error names the destination, not a temporary file). The
text goes to a temporary file in the same folder, which is then renamed over
the destination, so a reader never sees half a file. A temporary file left by
a killed run (its process is gone) is removed by the next write to the same
destination; one from a run still going is left alone.

>>> import tempfile, os
>>> folder = tempfile.mkdtemp()
>>> target = os.path.join(folder, "match.txt")
>>> write_output(target, "hello\\n")
>>> open(target, encoding="utf-8").read()
'hello\\n'
>>> os.symlink(target, os.path.join(folder, "link.txt"))
>>> try:
...     write_output(os.path.join(folder, "link.txt"), "x")
... except OSError as exc:
...     print(exc.strerror)
is a symbolic link; not replaced
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable

__all__ = ["check_destination", "check_destinations", "write_output"]

_TAG = ".mariage-"


def _refuse(path: str, why: str, code: int = errno.EEXIST) -> OSError:
    return OSError(code, why, path)


def check_destination(path: str, option: str = "--out", reads: Iterable[str] = ()) -> None:
    """Raise :class:`OSError` (naming ``path``) if ``path`` may not be written.

    ``option`` names the command-line option in the message for an empty name.
    ``reads`` are the files the command reads: the destination may be none of them
    (``render --svg x.mrg x.mrg`` would replace the record with its picture).

    Called before a long run, so that it fails at once rather than at the end.

    >>> try:
    ...     check_destination("/dev/null")
    ... except OSError as exc:
    ...     print(exc.filename, exc.strerror)
    /dev/null is not a regular file (a FIFO, socket or device); not replaced
    """
    path = os.fspath(path)  # (a TypeError for a number or None, not an AttributeError)
    if not path or not path.strip():
        raise ValueError(f"{option}: the file name is empty")
    if path == "-":  # standard output elsewhere: here it would make a file named "-"
        raise ValueError(f"{option} -: this option writes a file, not standard output "
                         "(./- names a file called -)")
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise _refuse(path, "No such file or directory (the folder does not exist)",
                          errno.ENOENT) from None
        if not os.access(folder, os.W_OK | os.X_OK):
            raise _refuse(path, "the folder is not writable", errno.EACCES) from None
        return
    mode = info.st_mode
    if stat.S_ISLNK(mode):
        raise _refuse(path, "is a symbolic link; not replaced")
    if stat.S_ISDIR(mode):
        raise _refuse(path, "is a folder", errno.EISDIR)
    if not stat.S_ISREG(mode):
        raise _refuse(path, "is not a regular file (a FIFO, socket or device); not replaced")
    # no write bit at all is read-only for everyone, root included (who os.access lets by)
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK):
        raise _refuse(path, "is read-only; not replaced", errno.EACCES)
    if any(_same_file(path, name) for name in reads):
        raise _refuse(path, "is also a file this command reads; not replaced")


def check_destinations(outputs: Iterable[tuple[str, str | None]],
                       reads: Iterable[str] = ()) -> None:
    """:func:`check_destination` for each ``(option, path)`` given (a None path: not
    asked for), and no two options naming the same file: one would overwrite the other.

    >>> try:
    ...     check_destinations([("--json", "r.out"), ("--junit", None), ("--trace", "./r.out")])
    ... except OSError as exc:
    ...     print(exc.filename, exc.strerror)
    ./r.out is also named by --json; not written twice
    """
    reads = list(reads)
    seen: list[tuple[str, str]] = []
    for option, path in outputs:
        if path is None:
            continue
        check_destination(path, option, reads)
        for other_option, other in seen:
            if _one_destination(path, other):
                raise _refuse(path, f"is also named by {other_option}; not written twice")
        seen.append((option, path))


def _one_destination(one: str, other: str) -> bool:
    """True if writing ``one`` and ``other`` would write the same file (there or not)."""
    def where(path: str) -> tuple[str, str]:
        full = os.path.abspath(path)
        return os.path.realpath(os.path.dirname(full)), os.path.basename(full)

    return where(one) == where(other) or _same_file(one, other)


def _same_file(one: str, other: str) -> bool:
    """True if ``one`` and ``other`` name the same file.

    ``-`` is standard input: the same file as ``one`` if standard input is that
    file opened (``render - --svg x.mrg < x.mrg``); a pipe or a terminal is none.

    >>> _same_file(__file__, __file__), _same_file(__file__, "/")
    (True, False)
    """
    try:
        if other == "-":
            return _stdin_is(one)
        return os.path.samefile(one, other)
    except (OSError, ValueError):  # not there, unreadable, a NUL in the name
        return False


def _stdin_is(path: str) -> bool:
    """True if standard input (descriptor 0) is the regular file ``path``."""
    info = os.fstat(0)
    return stat.S_ISREG(info.st_mode) and os.path.samestat(info, os.stat(path))


def _stale(folder: str, base: str) -> None:
    """Remove temporary files for ``base`` left by processes that no longer run."""
    prefix = f".{base}{_TAG}"
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        pid_text = name[len(prefix):].split("-", 1)[0]
        if not pid_text.isdigit() or not pid_text.isascii() or len(pid_text) > 10 \
                or _alive(int(pid_text)):
            continue
        try:
            full = os.path.join(folder, name)
            if stat.S_ISREG(os.lstat(full).st_mode):
                os.unlink(full)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process, or cannot tell: leave its file alone
    return True


def write_output(path: str, text: str, option: str = "--out") -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, after :func:`check_destination`."""
    check_destination(path, option)
    folder = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(path)
    _stale(folder, base)
    try:
        import tempfile  # (with it, random and hashlib: only when a file is written)

        fd, tmp = tempfile.mkstemp(prefix=f".{base}{_TAG}{os.getpid()}-", suffix=".tmp",
                                   dir=folder)
    except OSError as exc:  # name the file asked for, not the temporary one
        raise OSError(exc.errno, exc.strerror, path) from None
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            try:
                mode = stat.S_IMODE(os.stat(path).st_mode)
            except FileNotFoundError:
                mask = os.umask(0)
                os.umask(mask)
                mode = 0o666 & ~mask
            os.chmod(tmp, mode)
            check_destination(path)  # it may have changed while we wrote
            os.replace(tmp, path)
        except OSError as exc:
            if exc.filename == path:
                raise
            raise OSError(exc.errno, exc.strerror, path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
