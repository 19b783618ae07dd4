"""Sub-commands of the ``mariage`` command line, one module each.

Each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Add the module to :data:`COMMANDS`, with its command's
name and one-line help, to register it: the top-level ``mariage --help`` lists
them from here without importing any command's module.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["COMMANDS", "description_files", "parse_options", "parse_seed", "path_arg"]

#: module -> (the command's name, its one-line help); each module reads its own here
COMMANDS: dict[str, tuple[str, str]] = {
    "list_cmd": (
        "list",
        "list the bundled rulesets, one line each (--long: with their options and defaults)"),
    "rules_cmd": ("rules", "print a ruleset's rules as readable text with their IDs"),
    "play_cmd": ("play", "play a whole match with built-in bots and print it trick by trick"),
    "check_spec": (
        "check-spec", "check a game description against the schema and for consistency"),
    "validate": (
        "validate", "check game records (syntax, deals, every action, annotations, results)"),
    "replay": ("replay", "show a recorded match trick by trick: hands, trump, winners and scores"),
    "view": ("view", "rewrite records as one seat saw them (unseen cards become ??)"),
    "engine": (
        "engine", "speak the engine protocol (line-delimited JSON) on standard input and output"),
    "conformance_cmd": (
        "conformance",
        "run the conformance suite against an engine (default: the reference engine)"),
    "render": (
        "render",
        "draw records: a self-contained HTML page to step through, or an SVG of a trick or deal"),
    "completion": (
        "completion",
        "print a shell completion script (bash or zsh): source <(mariage completion bash)"),
    "match_cmd": (
        "match",
        "play engines and built-in bots against each other (seats rotate over paired deals)"),
    "stats": (
        "stats", "summarise records: results, hands, points per seat, declarations, tricks"),
}


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """Turn ``["target=301", ...]`` into a dict; raise ``ValueError`` on a bad pair.

    >>> parse_options(["target=301", " marriage = free "])
    {'target': '301', 'marriage': 'free'}
    """
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            shown = repr(pair) if len(pair) <= 60 else \
                f"{pair[:60]!r}... ({len(pair)} characters)"
            raise ValueError(f"--option takes NAME=VALUE, got {shown}")
        name = key.strip()
        if name in out:  # which one holds would be a guess
            shown = name if len(name) <= 60 else f"{name[:60]}... ({len(name)} characters)"
            raise ValueError(f"--option: '{shown}' is given twice")
        out[name] = value.strip()
    return out


def whole_arg(text: str) -> int:
    """A whole number on the command line (``--record``, ``--games``, ``--jobs``...):
    ASCII digits with an optional sign, as every input reads one
    (:func:`~mariage.errors.whole_number`); ``int()`` alone took ``'１'``, ``'1_0'``.
    What is refused is quoted back cut.

    >>> whole_arg("12"), whole_arg("-3")
    (12, -3)
    >>> whole_arg("1_0")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: not a whole number (ASCII digits): '1_0'
    """
    import argparse

    from ..errors import MAX_WHOLE_DIGITS, shown, whole_number

    value = whole_number(text)
    if value is not None:
        return value
    digits = text[1:] if text[:1] in ("+", "-") else text
    if digits.isascii() and digits.isdigit():  # a whole number, too long to read...
        if len(digits) <= MAX_WHOLE_DIGITS:  # ...but for its sign
            return int(text)
        raise argparse.ArgumentTypeError(
            f"a whole number of more than {MAX_WHOLE_DIGITS} digits: {shown(text)}")
    raise argparse.ArgumentTypeError(f"not a whole number (ASCII digits): {shown(text)}")


def seconds_arg(text: str) -> float:
    """A time in seconds on the command line (``match --time``): ASCII digits with an
    optional decimal point (``5``, ``0.5``, ``.5``); ``float()`` alone took ``'١'``,
    ``'1_0'``, ``' 0.5'``, ``'1e3'``. What is refused is quoted back cut.

    >>> seconds_arg("5"), seconds_arg("0.25"), seconds_arg(".5")
    (5.0, 0.25, 0.5)
    >>> seconds_arg("1_0")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: not a number of seconds (ASCII digits, a '.'): '1_0'
    """
    import argparse
    import re

    from ..errors import shown

    if not re.fullmatch(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+", text):
        raise argparse.ArgumentTypeError(
            f"not a number of seconds (ASCII digits, a '.'): {shown(text)}")
    return float(text)


def path_arg(text: str) -> str:
    """A file or folder named on the command line, not empty: ``''`` (an unset shell
    variable) was ``: No such file or directory``, and ``--suite ''`` or ``--expect ''``
    ran as if the option were not given.

    >>> path_arg("a.mrg")
    'a.mrg'
    >>> path_arg("")
    Traceback (most recent call last):
        ...
    argparse.ArgumentTypeError: the name is empty (an unset shell variable?)
    """
    import argparse

    if not text:
        raise argparse.ArgumentTypeError("the name is empty (an unset shell variable?)")
    return text


def stdin_once(files: Sequence[str]) -> None:
    """A usage error if ``-`` (standard input) is among ``files`` more than once: it can
    be read once (``stats - -`` said "I/O operation on closed file", ``validate - -``
    found no record the second time and exited 1 over records that were all good).

    >>> stdin_once(["-", "a.mrg"])
    >>> stdin_once(["-", "a.mrg", "-"])
    Traceback (most recent call last):
        ...
    ValueError: -: standard input is named 2 times; it can be read once
    """
    if files.count("-") > 1:
        raise ValueError(f"-: standard input is named {files.count('-')} times; it can be "
                         "read once")


def parse_seed(text: str) -> int:
    """A deal seed: a whole number from 0 to 2**64-1 (records never hold other seeds)."""
    import argparse

    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 20 \
            or int(digits) >= 1 << 64:  # isdigit() alone took '１' and '²'
        shown = digits if len(digits) <= 24 else digits[:20] + "..."
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0 to 2**64-1, "
                                         f"got {shown!r}")
    return int(digits)


def ruleset_files(ruleset: str) -> list[str]:
    """The file ``ruleset`` is read from (as :func:`~mariage.spec.rulesload.load_rules` finds
    it), in a list: what an output may not replace. A name is never read from the
    working folder, so a file there of that name is none; an unknown name: no file.

    >>> ruleset_files("marianna")[0].endswith("marianna.yaml"), ruleset_files("nowhere")
    (True, [])
    """
    from mariage.errors import MariageError
    from mariage.spec.specload import resolve_ruleset

    try:
        return [str(resolve_ruleset(ruleset))]
    except (MariageError, OSError, ValueError):  # unknown: load_rules says why
        return []


def description_files(*rulesets: str) -> list[str]:
    """Every game description a command may read, in a list: what an output may not
    replace (``stats --spec h.yaml --out h.yaml`` replaced the description with its
    report, ``conformance --json spec/mariazza.yaml`` a bundled one). They are the files
    ``rulesets`` are read from (:func:`ruleset_files`), the ``--spec`` files given, and
    the bundled descriptions, which a record read may name.

    >>> files = description_files()
    >>> any(f.endswith("marianna.yaml") for f in files)
    True
    """
    from mariage.resources import spec_dir
    from mariage.spec.specnames import registered_files

    files = [f for name in rulesets for f in ruleset_files(name)]
    files += [str(p) for p in registered_files()]
    return files + [str(p) for p in sorted(spec_dir().rglob("*")) if p.is_file()]
