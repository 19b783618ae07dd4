"""The hostile-input sweep: every command that reads a file, given every kind of bad file.

Each case must end in a clear error: a non-zero exit code, a message on standard error
naming the file (no traceback), lines of bounded length, and no output file left
behind. A file that is valid only for the other kind of command (a description given to
``validate``, a record given to ``rules``) is as bad as any other. The full product of
files and commands is marked slow; a sample of it runs in the fast suite.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hostilekit import deadline, forget_house, run_cli

GOOD_RECORD = (Path(__file__).parent / "data" / "records" / "good" / "marianna.mrg").read_bytes()
GOOD_SPEC = b"format: 1\nextends: marianna\nruleset: house\nname: House\nversion: 1\n"


def _aliases() -> bytes:
    """Eight levels of YAML aliases, nine copies each: 9**8 values once expanded."""
    lines = [b'a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for n in range(1, 8):
        lines.append(b"a%d: &a%d [" % (n, n) + b",".join([b"*a%d" % (n - 1)] * 9) + b"]")
    return b"\n".join(lines) + b"\n"


pytestmark = pytest.mark.usefixtures(forget_house.__name__)

#: Bad files by name: what each holds.
FILES: dict[str, Callable[[], bytes]] = {
    "empty": lambda: b"",
    "random-bytes": lambda: random.Random(16).randbytes(4096),
    "nul-bytes": lambda: b"\0" * 100,
    "latin-1": lambda: '[Mariage "1"]\n[Ruleset "é"]\n'.encode("latin-1"),
    "utf-16": lambda: GOOD_RECORD.decode("utf-8").encode("utf-16"),
    "huge-line": lambda: b"x" * 3_000_000,
    "nested-yaml": lambda: b"a: " + b"[" * 5000 + b"]" * 5000 + b"\n",
    "nested-json": lambda: b"[" * 100_000 + b"]" * 100_000,
    "alias-bomb": _aliases,
    "python-tag": lambda: b"format: 1\nextends: !!python/object/apply:os.system ['true']\n",
    "yaml-list": lambda: b"- 1\n- 2\n",
    "huge-integer": lambda: b"format: " + b"9" * 100_000 + b"\n",
    "escape-codes": lambda: b"\x1b]0;title\x07\x1b[2J\n",
    "record-huge-hand": lambda: GOOD_RECORD.replace(b"hand 1\n", b"hand " + b"9" * 30 + b"\n", 1),
    "record-negative-hand": lambda: GOOD_RECORD.replace(b"hand 1\n", b"hand -1\n", 1),
    "record-odd-result": lambda: GOOD_RECORD.replace(b"result ", b"result \xe2\x80\xae ", 1),
    "record-escape-note": lambda: GOOD_RECORD.replace(b"(won ", b"(won \x1b[31m", 1),
    "record-huge-option": lambda: GOOD_RECORD.replace(
        b'[Ruleset "marianna"]', b'[Ruleset "marianna"]\n[Option "target" "' + b"9" * 5000
        + b'"]', 1),
    "record-cut": lambda: GOOD_RECORD[:len(GOOD_RECORD) // 2],
    "spec-for-records": lambda: b"\xef\xbb\xbf" + GOOD_SPEC.replace(b"\n", b"\r\n"),
    "record-for-specs": lambda: b"\xef\xbb\xbf" + GOOD_RECORD.replace(b"\n", b"\r\n"),
}
#: Names that are no file to read.
SPECIAL = ["a-folder", "/dev/null", "missing", "fifo"]

#: The commands, ``{f}`` for the file and ``{out}`` for an output file; which files are
#: valid for it (``record-for-specs`` is a record, BOM and CR LF, that record commands read).
COMMANDS: dict[str, tuple[list[str], str]] = {
    "rules": (["rules", "{f}"], "spec"),
    "check-spec": (["check-spec", "{f}"], "spec"),
    "play": (["play", "-q", "{f}", "--out", "{out}"], "spec"),
    "play-spec": (["play", "-q", "house", "--spec", "{f}"], "spec"),
    "match": (["match", "-n", "1", "--quiet", "{f}", "--out", "{out}"], "spec"),
    "validate": (["validate", "{f}"], "record"),
    "validate-json": (["validate", "--format", "json", "{f}"], "record"),
    "replay": (["replay", "{f}"], "record"),
    "replay-json": (["replay", "--format", "json", "{f}"], "record"),
    "view": (["view", "-s", "N", "{f}"], "record"),
    "render-html": (["render", "--html", "{out}", "{f}"], "record"),
    "render-svg": (["render", "--svg", "{out}", "--hand", "1", "{f}"], "record"),
    "stats": (["stats", "--out", "{out}", "{f}"], "record"),
    "stats-json": (["stats", "--format", "json", "{f}"], "record"),
    "conformance-expect": (["conformance", "--ruleset", "marianna", "--rule", "core.turn",
                            "--expect", "{f}", "--json", "{out}"], "expect"),
}
#: Commands whose output shows the problems of the records they read (exit 1 all the same):
#: ``stats`` leaves an invalid record out of its totals, ``render`` marks its problems.
DRAWS_PROBLEMS = {"stats", "render-html", "render-svg"}
#: The file each kind of command reads as valid (else it is refused like any other).
VALID = {"spec": {"spec-for-records"}, "record": {"record-for-specs"}, "expect": {"empty"}}


def _place(name: str, folder: Path) -> str:
    if name in FILES:
        path = folder / f"{name}.in"
        path.write_bytes(FILES[name]())
        return str(path)
    if name == "a-folder":
        (folder / "a-folder").mkdir()
        return str(folder / "a-folder")
    if name == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs on this system")
        os.mkfifo(folder / "fifo")
        return str(folder / "fifo")
    return name if name == "/dev/null" else str(folder / "missing.in")


def _sweep(command: str, name: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv, kind = COMMANDS[command]
    path = _place(name, folder)
    out = folder / "out.txt"
    with deadline(60):
        code, said, err = run_cli([a.format(f=path, out=out) for a in argv], capsys)
    assert all(len(line) <= 1100 for line in err.splitlines())  # messages are cut
    if command.startswith("validate") or command == "replay-json":
        err += said  # their report, problems included, is their output
    assert "Traceback" not in err
    if name in VALID[kind]:
        assert code in (0, 1), err  # read: a verdict (1: the house rules lose a match...)
        return
    assert code not in (0, None), f"exit 0 for {name}"
    assert err.strip(), "no message"
    shown = path if name != "missing" else "missing.in"
    first = err.splitlines()[0]
    assert shown in err or Path(shown).name in first or "a-folder" in first, first
    if command in DRAWS_PROBLEMS and out.exists():  # a record read, drawn with its problems
        assert code == 1 and out.stat().st_size > 0
    else:
        assert not out.exists(), "an output file was written"


SAMPLE = [("validate", "random-bytes"), ("replay", "record-cut"), ("rules", "alias-bomb"),
          ("stats", "a-folder"), ("render-svg", "/dev/null"), ("conformance-expect", "nul-bytes"),
          ("play", "record-for-specs"), ("match", "python-tag"), ("view", "utf-16"),
          ("replay-json", "record-huge-hand"), ("check-spec", "nested-json"),
          ("render-html", "fifo"), ("render-svg", "record-huge-option")]


@pytest.mark.parametrize(("command", "name"), SAMPLE)
def test_a_sample_of_the_sweep(command: str, name: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    _sweep(command, name, tmp_path, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("name", [*FILES, *SPECIAL])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_refuses_every_bad_file_clearly(command: str, name: str, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    _sweep(command, name, tmp_path, capsys)
