"""An engine's command line, checked before it is started: a program that exists and
can run, no shell operator (the runner starts the program itself, never a shell).

>>> shell_operator("python3 engine.py | tee log")
'|'
>>> shell_operator("python3 engine.py") is None
True
"""

from __future__ import annotations

import os
import shlex
import shutil

from ..errors import expect_str

__all__ = ["check_command", "shell_operator"]


def check_command(command: str) -> list[str]:
    """The argument list of an engine command line, or ``ValueError`` saying why not.

    The program must exist and be executable (looked up on ``PATH`` when the
    name has no ``/``).

    >>> check_command("cat -u")[1:]
    ['-u']
    >>> check_command("")
    Traceback (most recent call last):
    ValueError: --engine: the command is empty
    """
    try:
        argv = shlex.split(expect_str(command, "--engine: the command"))
    except ValueError as exc:
        raise ValueError(f"--engine: cannot split the command line: {exc}") from None
    if not argv:
        raise ValueError("--engine: the command is empty")
    op = shell_operator(command)
    if op is not None:  # a shell would pipe or redirect; the program would get it as text
        raise ValueError(f"--engine: {op!r} is a shell operator, but no shell runs the "
                         "command (the program would get it as an argument): quote it, or "
                         "run a shell yourself, as in \"sh -c '...'\"")
    prog = argv[0]
    if "/" in prog:
        if not os.path.isfile(prog):  # a folder, a FIFO or a device is no program either
            kind = "is a folder" if os.path.isdir(prog) else "is not a regular file" \
                if os.path.exists(prog) else "no such program"
            raise ValueError(f"--engine: {prog}: {kind}" if kind != "no such program"
                             else f"--engine: no such program: {prog}{_missing_hint(argv)}")
        if not os.access(prog, os.X_OK):
            raise ValueError(f"--engine: {prog} is not executable")
    elif shutil.which(prog) is None:
        raise ValueError(f"--engine: '{prog}' is not a program on PATH{_missing_hint(argv)}")
    return argv


def shell_operator(command: str) -> str | None:
    """The first character of ``command`` that a POSIX shell would read as an operator
    (a pipe, a redirection, a list, a subshell, a command substitution), outside quotes
    and not escaped; ``None`` if there is none.

    >>> shell_operator("engine --log 2>/dev/null"), shell_operator("engine '|' 'a;b'")
    ('>', None)
    """
    quote = ""
    escaped = False
    for ch in command:
        if escaped:
            escaped = False
        elif quote == "'":
            quote = "" if ch == "'" else quote
        elif ch == "\\":
            escaped = True
        elif quote:
            quote = "" if ch == '"' else quote
        elif ch in "'\"":
            quote = ch
        elif ch in _OPERATORS:
            return ch
    return None


_OPERATORS = frozenset("|&;<>()`")


def _missing_hint(argv: list[str]) -> str:
    """Why a program named on a command line may not be found, where that can be seen: a
    name with spaces not quoted, or a ``~`` or ``$`` only a shell expands."""
    for k in range(2, len(argv) + 1):
        joined = " ".join(argv[:k])
        if os.path.isfile(joined):
            return f" (the file '{joined}' exists: quote a name that has spaces)"
    if argv[0].startswith("~") or "$" in argv[0]:
        return " (no shell runs the command: '~' and '$' are not expanded)"
    return ""
