"""Start-up: a command imports only what it uses (which modules, not how long it takes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from mariage.commands import COMMANDS

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records" / "good"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A disk cache of this test's own (filled by a first run, as after any use)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("MARIAGE_NO_CACHE", raising=False)
    return tmp_path


def imported(argv: list[str]) -> tuple[int, set[str]]:
    """Run ``mariage ARGV`` in a fresh process (output discarded): its exit code and the
    modules it imported."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "reference") + os.pathsep + env.get("PYTHONPATH", "")
    probe = ("import sys, io, contextlib, mariage.cli as c\n"
             "out = io.StringIO()\n"
             "try:\n"
             "    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):\n"
             f"        code = c.main({argv!r})\n"
             "except SystemExit as e:\n"
             "    code = e.code\n"
             "print(code, *sorted(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", probe], env=env, check=True,
                          capture_output=True, text=True)
    code, *names = done.stdout.split()
    return int(code), set(names)


def test_help_imports_no_command_module() -> None:
    code, names = imported(["--help"])
    assert code == 0
    commands = {n for n in names if n.startswith("mariage.commands.")}
    assert commands == set(), commands
    assert not {"lark", "yaml", "jsonschema", "mariage.engine.state"} & names


def test_help_still_lists_every_command() -> None:
    import contextlib
    import io

    from mariage.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["--help"])
    for command, help_text in COMMANDS.values():
        assert command in out.getvalue()
        assert help_text.split()[0] in out.getvalue()


def test_a_command_imports_only_its_own_module() -> None:
    code, names = imported(["list"])
    assert code == 0
    assert {n for n in names if n.startswith("mariage.commands.")} == {
        "mariage.commands.list_cmd"}


def test_validating_a_canonical_record_does_not_import_lark(cache: Path) -> None:
    record = str(RECORDS / "marianna.mrg")
    imported(["validate", record])  # fills the cache
    code, names = imported(["validate", record])
    assert code == 0
    assert "lark" not in names
    assert not {"yaml", "jsonschema"} & names
    # the rules come from the disk cache: the compiler and the description's loading are
    # not imported (issue #28.4: 15% of a warm validate's CPU time)
    assert not {"mariage.spec.compile", "mariage.spec.options", "mariage.spec.specload",
                "mariage.spec.yamlread"} & names
    assert "mariage.spec.rulesload" in names
    assert "mariage.notation.fast" in names  # checked by the fast path, not another way
    # a full record needs no deal search, no workers, no decompression (nor shutil,
    # which argparse imports to learn the terminal's width)
    assert not {"mariage.notation.search", "mariage.notation.deduce",
                "mariage.notation.placement", "multiprocessing",
                "gzip", "bz2", "lzma", "shutil"} & names
    # the text report needs no JSON, the cache's digests no OpenSSL (hashlib), and the
    # records no dataclasses (which imports inspect, ast, dis and tokenize)
    assert not {"json", "hashlib", "hmac", "_hashlib", "dataclasses", "inspect"} & names
    # its signals end it at once (mariage.terminate), without threading or weakref: one
    # file is checked in the main thread, with no pool of workers
    assert not {"threading", "weakref"} & names


def test_a_record_the_fast_path_declines_still_gets_lark(cache: Path, tmp_path: Path) -> None:
    text = (RECORDS / "marianna.mrg").read_text(encoding="utf-8")
    odd = tmp_path / "odd.mrg"
    # a comment before the moves on their line: valid, but not for the fast path
    odd.write_text(text.replace("\n1. ", "\n{a comment} 1. ", 1), encoding="utf-8")
    code, names = imported(["validate", str(odd)])
    assert code == 0
    assert "lark" in names


def test_replay_stats_and_a_bot_match_import_only_what_they_use(cache: Path) -> None:
    """``replay`` and ``stats`` of a record in text: no ``dataclasses`` (which imports
    ``inspect``, ``ast``, ``dis`` and ``tokenize``: a tenth of a replay's start), no
    ``signal`` and ``threading`` (for SIGTERM and workers: neither runs here), no ``copy``
    (nothing is copied). ``play`` of a bot match: no compiler (the record's option tags
    come from the description's options) and no ``dataclasses`` (a state's copies share its
    frozen records without making their dataclass parameters). One cache for all three."""
    record = str(RECORDS / "marianna.mrg")
    imported(["replay", record])  # fills the cache
    for command in ("replay", "stats"):
        code, names = imported([command, record])
        assert code == 0
        assert not {"dataclasses", "inspect", "ast", "lark", "signal", "threading", "copy",
                    "mariage.terminate"} & names, command
    code, names = imported(["play", "marianna", "--quiet"])
    assert code == 0
    assert not {"dataclasses", "inspect", "mariage.spec.compile", "yaml", "lark"} & names
    # nor, with no --out and no --human, the notation (record writing, the reader and
    # the replay), a person's player (and textwrap), nor random (the greedy bots draw
    # nothing): issue #28.4, a seventh of a bot match's start-up
    assert not {n for n in names if n.startswith("mariage.notation")}
    assert not {"mariage.commands.human", "textwrap", "random", "copy"} & names
