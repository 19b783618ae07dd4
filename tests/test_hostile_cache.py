"""The disk cache under attack or damage (issue #26.5): an entry is valid only under its
own key, and a broken entry of any kind (folder, FIFO, truncated, another key's) is
rebuilt, never served, never waited on, never an error.
"""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import test_diskcache
from hostilekit import deadline
from mariage.cli import main
from mariage.spec import diskcache
from mariage.spec.rulesload import _DOCUMENTS, _RULES_CACHE
from mariage.spec.specload import _READ_CACHE

cache = test_diskcache.cache  # the fixture: a cache folder of the test's own


def _rules(capsys: pytest.CaptureFixture[str], name: str) -> tuple[int, str, str]:
    _RULES_CACHE.clear()  # as a new process: only the disk cache remembers
    _DOCUMENTS.clear()
    _READ_CACHE.clear()
    with deadline(30):
        code = main(["rules", name])
    out, err = capsys.readouterr()
    return code, out, err


def _entries(folder: Path) -> set[Path]:
    return set(folder.glob("*.pickle"))


def _kind(entry: Path) -> type:
    blob = entry.read_bytes()
    return type(pickle.loads(blob[len(diskcache._MAGIC) + 32:])[-1])  # our own test entries


def test_an_entry_is_valid_only_under_its_own_key(cache: Path) -> None:
    diskcache.store("one", "the first", [])
    diskcache.store("two", "the second", [])
    first = cache / "one.pickle"
    assert first.exists() and diskcache.load("one") == "the first"
    shutil.copyfile(first, cache / "two.pickle")
    assert diskcache.load("two") is None  # authentic, but not this key's
    diskcache.store("two", "the second", [])
    assert diskcache.load("two") == "the second"


def test_another_rulesets_entries_copied_over_are_not_served(
        cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, marianna, _ = _rules(capsys, "marianna")
    assert code == 0 and marianna.startswith("Marianna")
    theirs = _entries(cache)
    code, mariglia, _ = _rules(capsys, "mariglia")
    assert code == 0 and mariglia.startswith("Mariglia")
    mine = _entries(cache) - theirs
    by_kind = {_kind(p): p for p in theirs}
    assert {_kind(p) for p in mine} == set(by_kind)  # the document, rules, the text
    for entry in mine:
        shutil.copyfile(by_kind[_kind(entry)], entry)  # same kind, other key: authentic
    code, out, err = _rules(capsys, "mariglia")
    assert code == 0 and out == mariglia, err


def _folder(entry: Path) -> None:
    entry.unlink()
    entry.mkdir()
    (entry / "x").write_text("x", encoding="utf-8")


def _fifo(entry: Path) -> None:
    entry.unlink()
    os.mkfifo(entry)


def _truncated(entry: Path) -> None:
    entry.write_bytes(entry.read_bytes()[:50])


def _empty(entry: Path) -> None:
    entry.write_bytes(b"")


def _link(entry: Path) -> None:
    target = entry.with_suffix(".elsewhere")
    entry.rename(target)
    entry.symlink_to(target)


BREAKS: dict[str, Callable[[Path], None]] = {
    "folder": _folder, "fifo": _fifo, "truncated": _truncated, "empty": _empty, "link": _link}


@pytest.mark.parametrize("kind", sorted(BREAKS))
def test_a_broken_entry_of_any_kind_is_rebuilt(kind: str, cache: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    if kind == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    code, want, _ = _rules(capsys, "marianna")
    assert code == 0
    entries = _entries(cache)
    for entry in entries:
        BREAKS[kind](entry)
    code, out, err = _rules(capsys, "marianna")
    assert (code, out, err) == (0, want, "")
    for entry in entries:  # each rebuilt: a sound entry again, and used
        assert entry.is_file() and not entry.is_symlink(), (kind, entry)
        assert entry.read_bytes().startswith(diskcache._MAGIC)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_place_of_the_key_or_a_source_is_not_waited_on(
        cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, want, _ = _rules(capsys, "marianna")
    diskcache._SECRETS.clear()
    (cache / "key").unlink()
    os.mkfifo(cache / "key")
    code, out, err = _rules(capsys, "marianna")
    assert (code, out, err) == (0, want, "")
    key = cache / "key"  # replaced by a new key: entries are made with it again
    assert key.is_file() and key.stat().st_mode & 0o777 == 0o600
    diskcache._SECRETS.clear()
    assert _rules(capsys, "marianna") == (0, want, "")
    assert all(diskcache.load(p.stem) is not None for p in _entries(cache))
    os.unlink(key)
    os.mkfifo(key)
    with deadline(10):
        assert diskcache.file_digest(key) is None
