"""The ``mariage`` command line.

Exit codes: 0 success; 1 the input was checked and found bad (an invalid
record, a failing conformance run, an inconsistent spec); 2 a usage error (an
unknown ruleset, a bad option value, a missing file). Errors are one line on
standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO, cast

from . import __version__
from .commands import COMMANDS, parse_options
from .errors import MariageError, SpecFileError, did_you_mean, one_line, shown

__all__ = ["build_parser", "exit_code", "main", "parse_options"]


def _suggest(message: str) -> str:
    """argparse's ``invalid choice: 'x' (choose from ...)`` with a "did you mean"."""
    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if not m:
        return message
    choices = [c.strip().strip("'\"") for c in m.group(2).split(",")]
    return message + did_you_mean(m.group(1), choices)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it (``COLUMNS``, the
    terminal, else 80), without importing shutil (which imports bz2, lzma...)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, told the width (argparse imports shutil to find it, and
    makes a formatter for every argument added, so every command would import it)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width)


#: where :class:`_StoreOnce` notes the values given, in the namespace while it is parsed
_GIVEN = "_mariage_given"


class _StoreOnce(argparse._StoreAction):
    """argparse's ``store``, refusing an option given twice with two values: argparse
    kept the last without a word (``--seed 1 ... --seed 2`` played seed 2, ``--html a
    --html b`` wrote only ``b``). The same value twice is no contradiction."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given = vars(namespace).setdefault(_GIVEN, {})
        if self.dest in given and given[self.dest] != values:
            first, then = (shown(v, 40) for v in (given[self.dest], values))
            parser.error(f"{'/'.join(self.option_strings)} is given twice ({first}, "
                         f"then {then}): give it once")
        given[self.dest] = values
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        for name in (None, "store"):  # its argument groups share the registry
            self.register("action", name, _StoreOnce)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        parsed, rest = super().parse_known_args(args, namespace)
        parsed.__dict__.pop(_GIVEN, None)  # a sub-command's parser drops it before it is copied
        return parsed, rest

    def error(self, message: str) -> Any:  # one line, exit code 2
        text = _suggest(_one_line(message))
        if len(text) > 300:  # argparse quotes whatever was given, however long
            text = text[:200] + " ... " + text[-80:]
        sys.stderr.write(f"mariage: error: {text}\n")
        raise SystemExit(2)


_SPEC_COMMANDS = frozenset({"list", "play", "rules", "validate", "replay", "view", "stats"})
"""Commands that take ``--spec FILE``: a description file whose ruleset they may name."""


def _module_for(command: str) -> str | None:
    """The module of :data:`COMMANDS` that defines ``command`` (``check-spec``...)."""
    base = command.replace("-", "_")
    for name in COMMANDS:
        if name in (base, f"{base}_cmd"):
            return name
    return None


def build_parser(only: str | None = None, *, full: bool = True) -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command.

    With ``only`` (a command name), only that command's module is imported,
    which keeps start-up short; an unknown name gets the full parser. With
    ``full=False``, the commands whose module is not imported are still
    listed, with their help, but take no arguments (enough for ``--help`` and
    for refusing an unknown command); with both, a known ``only`` is the one
    command of the parser (its arguments are all that will be read: listing the
    others would cost a sub-parser each).

    >>> build_parser().parse_args(["rules", "marianna"]).ruleset
    'marianna'
    """
    parser = _Parser(prog="mariage", description="Rules, records and conformance for the "
                     "marriage family of card games.")
    parser.add_argument("--version", action="version", version=f"mariage {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    module = _module_for(only) if only else None
    for name, (command, help_text) in COMMANDS.items():
        if module != name and (module or not full):
            if not full and module is None:  # listed only: its module is not imported
                sub.add_parser(command, help=help_text, description=help_text)
            continue
        # the disk cache first: it keeps the code of the functions and records that the
        # command's modules generate as they are imported (mariage.codegen)
        importlib.import_module("mariage.spec.diskcache")
        mod = importlib.import_module(f"mariage.commands.{name}")
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        if mod.NAME in _SPEC_COMMANDS:
            p.add_argument("--spec", action="append", default=[], metavar="FILE",
                           help="a game description file; the ruleset it names can then be "
                                "used like a bundled one (repeatable)")
        p.add_argument("--allow-extends-anywhere", action="store_true",
                       help="let 'extends:' in a description name a file in any folder "
                       "(by default: the description's own folder, the bundled rulesets "
                       "and MARIAGE_SPEC_PATH only)")
        # a command that describes the command line (completion) builds all of it
        p.set_defaults(_run=mod.run, _build_parser=build_parser)
    return parser


#: The commands that run engines, which SIGTERM stops cleanly (:mod:`mariage.terminate`).
_RUNS_ENGINES = frozenset({"conformance", "match"})


def _command_of(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if not arg.startswith("-"):
            return arg
        return None  # an option before the command: --help, --version
    return None


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


def _error(message: object) -> None:
    try:
        sys.stderr.write(f"mariage: error: {one_line(message)}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # stderr itself is gone: nothing left to tell
        pass


def _quiet_stdout(stream: TextIO | None = None) -> None:
    """After a closed pipe: point stdout at /dev/null so the final flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, (stream or sys.stdout).fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


class _ReaderMayGo:
    """Standard output that outlives its reader: once the reader went away
    (``mariage validate *.txt | head -1``), what is written goes to ``/dev/null`` and
    the command goes on to its end, so that its exit code still gives its verdict (an
    invalid record after the lines the reader took still exits 1).

    A character its encoding cannot write (``PYTHONIOENCODING=ascii``, a Latin-1
    locale; Python's standard error writes it as its escape) is an error naming the
    character and the encoding, where it was ``'ascii' codec can't encode character
    '\\u2665'``: what goes out may be a record, never to be changed silently."""

    def __init__(self, inner: TextIO, name: str = "standard output") -> None:
        self.inner = inner
        self.gone = False
        self.name = name

    def write(self, text: str) -> int:
        try:
            return self.inner.write(text)
        except BrokenPipeError:
            self._went()
            return len(text)
        except UnicodeEncodeError as exc:
            raise ValueError(_unwritable(exc, self.name)) from None
        except OSError as exc:  # a full disk, a closed terminal: the error says where
            raise self._named(exc) from None

    def flush(self) -> None:
        try:
            self.inner.flush()
        except BrokenPipeError:
            self._went()
        except OSError as exc:
            raise self._named(exc) from None

    def _named(self, exc: OSError) -> OSError:
        """``exc`` naming this stream, whose rest is dropped (the exit's own flush would
        fail again)."""
        if not exc.filename:
            exc.filename = self.name
        _quiet_stdout(self.inner)
        return exc

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def _went(self) -> None:
        self.gone = True
        _quiet_stdout(self.inner)
        try:  # noqa: SIM105 - contextlib is not imported at start-up; the buffer's rest
            self.inner.flush()  # goes to /dev/null now
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> Any:  # fileno, isatty, encoding, buffer, ...
        return getattr(self.inner, name)


def _unwritable(exc: UnicodeEncodeError, stream: str) -> str:
    """Why ``stream`` could not write a character, and what to do about it."""
    import unicodedata

    odd = exc.object[exc.start:exc.start + 1]
    name = unicodedata.name(odd, "") if odd else ""
    what = f"U+{ord(odd):04X}{' ' + name if name else ''}" if odd else "a character"
    return (f"{stream} cannot write {what}: its encoding is {exc.encoding} (from "
            "PYTHONIOENCODING or the locale); set PYTHONIOENCODING=utf-8")


def exit_code(exc: BaseException) -> int:
    """The exit code for an error: 1 for input checked and found bad, 2 for a usage error.

    >>> from mariage.errors import SpecError, SpecFileError, Location
    >>> exit_code(SpecError("bad", location=Location("f.yaml", 1, 1)))
    1
    >>> exit_code(SpecFileError("file not found", location=Location("f.yaml")))
    2
    """
    if isinstance(exc, SpecFileError):
        return 2
    if isinstance(exc, MariageError):
        return 1 if getattr(exc, "code", "").startswith("S0") else 2
    return 2


def _open_closed_streams() -> None:
    """A standard stream the caller closed (``>&-``, ``<&-``, ``2>&-``) reads or writes
    ``/dev/null`` instead, as if redirected there: Python leaves it ``None`` (every
    ``print`` and read would fail with a traceback), and the first file opened would take
    its descriptor (and a child process would write its output into that file)."""
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:  # closed: put /dev/null at this descriptor
            try:
                null = os.open(os.devnull, os.O_RDONLY if fd == 0 else os.O_WRONLY)
            except OSError:
                continue
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        stream = open(fd, "r" if fd == 0 else "w", encoding="utf-8",  # noqa: SIM115 - for
                      errors="replace", closefd=False)  # the whole run, as sys.stdout is
        setattr(sys, name, stream)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code.

    Errors are one line on standard error; once the reader of standard output
    went away (``mariage validate *.txt | head -1``) the command goes on quietly to
    its end, so that the exit code is still its verdict; a standard stream closed
    before the start is ``/dev/null``.
    """
    _open_closed_streams()
    args_list = list(sys.argv[1:] if argv is None else argv)
    out, err = _ReaderMayGo(sys.stdout), _ReaderMayGo(sys.stderr, "standard error")
    sys.stdout, sys.stderr = cast(TextIO, out), cast(TextIO, err)
    try:
        if args_list == ["--version"]:  # without importing every command
            print(f"mariage {__version__}")
            raise SystemExit(0)  # as argparse's version action does
        # a command that runs engines stops them on SIGTERM (not one with a pool of
        # workers: an exception raised amid the pool's locks can hang its terminate())
        if _command_of(args_list) not in _RUNS_ENGINES:
            return _run(args_list)
        from .terminate import terminate_raises  # (its signal handling: only here)

        with terminate_raises():
            return _run(args_list)
    finally:
        sys.stdout, sys.stderr = out.inner, err.inner
        for guard in (out, err):
            try:  # a full disk at the last flush: nothing left to tell
                guard.flush()
            except (OSError, ValueError):
                _quiet_stdout(guard.inner)


def _run(args_list: list[str]) -> int:
    """:func:`main` once standard output may lose its reader."""
    try:
        parser = build_parser(_command_of(args_list), full=False)
        args = parser.parse_args(args_list)
        if not getattr(args, "_run", None):
            parser.print_help()
            return 2
        undo = _command_scope(args)
        try:
            code: int = args._run(args)
            sys.stdout.flush()
        finally:
            if undo is not None:
                undo()
    except BrokenPipeError:  # a write that did not pass through sys.stdout
        _quiet_stdout()
        return 0
    except MariageError as exc:
        _error(exc)
        return exit_code(exc)
    except ValueError as exc:
        _error(exc)
        return 2
    except OSError as exc:  # a file that cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        _error(f"{where}{exc.strerror or exc}")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("mariage: interrupted\n")
        return 130
    except RecursionError:
        _error("input nested too deeply")
        return 1
    except MemoryError:
        _error("out of memory")
        return 1
    except BaseException as exc:
        if not _terminated(exc):
            raise
        sys.stderr.write("mariage: terminated\n")  # SIGTERM: engines stopped, no output
        return 143  # half-written
    return code


def _command_scope(args: argparse.Namespace) -> Callable[[], None] | None:
    """Make the rulesets of ``--spec`` known, and put ``--allow-extends-anywhere`` in
    force, for the command about to run; return what undoes both when it returns (None
    where there is nothing to undo), so that a later :func:`main` in the same process (a
    test, a notebook) lists and reads only what it is given."""
    specs = getattr(args, "spec", None) or []
    anywhere = getattr(args, "allow_extends_anywhere", False)
    if not specs and not anywhere:
        return None
    from mariage.spec.specload import EXTENDS_ANYWHERE_ENV, register_spec
    from mariage.spec.specnames import registered_specs, restore_specs

    saved, was_anywhere = registered_specs(), os.environ.get(EXTENDS_ANYWHERE_ENV)

    def undo() -> None:
        restore_specs(saved)
        if was_anywhere is None:
            os.environ.pop(EXTENDS_ANYWHERE_ENV, None)
        else:
            os.environ[EXTENDS_ANYWHERE_ENV] = was_anywhere

    try:
        if anywhere:
            os.environ[EXTENDS_ANYWHERE_ENV] = "1"  # worker processes inherit it
        given: dict[str, str] = {}  # ruleset name -> the --spec file that describes it
        for spec in specs:
            if not spec:
                raise ValueError("--spec: the file name is empty")
            name = register_spec(spec)
            if name in given and os.path.realpath(given[name]) != os.path.realpath(spec):
                raise ValueError(f"--spec: {given[name]} and {spec} both describe the "
                                 f"ruleset '{name}' (which one is meant would be a guess)")
            given[name] = spec
    except BaseException:
        undo()
        raise
    return undo


def _terminated(exc: BaseException) -> bool:
    """Whether ``exc`` is :class:`mariage.terminate.Terminated` (SIGTERM), which only a
    command that imported that module can raise (the others do not import it: its
    ``signal`` and ``threading`` are a tenth of a replay's imports)."""
    terminate = sys.modules.get("mariage.terminate")
    return terminate is not None and isinstance(exc, terminate.Terminated)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
