"""The processes an engine started that left its process group, found and ended.

An engine runs in a process group of its own, which the runner kills whole when
it stops the engine (:class:`~mariage.conformance.client.ProcessTransport`). A
helper that calls ``setsid`` (or ``setpgid``) leaves that group, and would
outlive the run. So every engine is started with a mark in its environment
(:data:`MARK`, a value of its own, :func:`new_mark`), which its helpers inherit
however they detach (a new session, a double fork, an orphan taken in by
``init``); :func:`end_strays` finds every process of this user that carries
the mark, with every process they or the engine started, and kills them.

It reads ``/proc`` (Linux); where there is none it finds nothing, and only the
process group is killed. A helper that both clears its environment and
detaches from the engine's tree before the engine is stopped is not found here;
on Linux the engine's supervisor (:mod:`~mariage.conformance.supervisor`, a child
subreaper of its own, so that the runner is not one) takes it in and ends it,
and the scan is then left out when the engine is stopped.

>>> mark = new_mark()
>>> end_strays(mark, root=None)  # no process carries a fresh mark
[]
"""

from __future__ import annotations

import contextlib
import itertools
import os
import secrets
import signal

__all__ = ["MARK", "end_strays", "new_mark"]

#: The environment variable that marks an engine and every process it starts.
MARK = "MARIAGE_ENGINE_RUN"

_count = itertools.count(1)


def new_mark() -> str:
    """A mark no other engine of this or another run carries."""
    return f"{os.getpid()}.{next(_count)}.{secrets.token_hex(6)}"


def _table() -> dict[int, tuple[int, str]]:
    """Every process still running (not a zombie): pid -> (parent pid, state)."""
    table: dict[int, tuple[int, str]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return table
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):  # gone meanwhile
            continue
        state = fields[0].decode("ascii", "replace")
        if state not in ("Z", "X"):
            table[int(name)] = (int(fields[1]), state)
    return table


def _carries(pid: int, needle: bytes) -> bool:
    """Does process ``pid`` (of this user) have ``needle`` (``NAME=VALUE``) in its
    environment?"""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return needle in f.read().split(b"\0")
    except OSError:  # another user's, or gone
        return False


def _ancestors(table: dict[int, tuple[int, str]]) -> set[int]:
    """This process and its ancestors: never to be killed."""
    out = {os.getpid()}
    pid = os.getppid()
    while pid > 1 and pid not in out:
        out.add(pid)
        pid = table.get(pid, (0, ""))[0]
    return out


def end_strays(mark: str, root: int | None) -> list[int]:
    """Kill (SIGKILL) every process that carries ``mark`` and every descendant of those
    and of ``root`` (the engine's process id, itself included); the process ids killed,
    sorted. Looks again until no new one is found (one may fork while it looks)."""
    needle = f"{MARK}={mark}".encode()
    uid = os.getuid()
    killed: set[int] = set()
    for _ in range(20):
        table = _table()
        spare = _ancestors(table)
        found = {pid for pid in table if pid not in spare and _owned(pid, uid)
                 and _carries(pid, needle)}
        if root is not None and root in table:
            found.add(root)
        children: dict[int, list[int]] = {}
        for pid, (parent, _state) in table.items():
            children.setdefault(parent, []).append(pid)
        stack = list(found)
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in found:
                    found.add(child)
                    stack.append(child)
        new = found - spare - killed
        if not new:
            break
        for pid in new:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed |= new
    return sorted(killed)


def _owned(pid: int, uid: int) -> bool:
    try:
        return os.stat(f"/proc/{pid}").st_uid == uid
    except OSError:
        return False
