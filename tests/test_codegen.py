"""The code cache of generated source (mariage.codegen): same code, compiled once, kept on disk."""

from __future__ import annotations

import marshal
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mariage import codegen

ROOT = Path(__file__).resolve().parent.parent


class _Store:
    """A store in memory, as the disk cache is one on disk."""

    def __init__(self, held: Any = None) -> None:
        self.held = held
        self.loads = 0
        self.saves: list[dict[bytes, bytes]] = []

    def load(self) -> Any:
        self.loads += 1
        return self.held

    def save(self, entries: dict[bytes, bytes]) -> None:
        self.saves.append(dict(entries))
        self.held = dict(entries)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty memo and no store; the disk cache's store put back afterwards."""
    saved_disk = codegen._DISK
    monkeypatch.setattr(codegen, "_MEMO", {})
    codegen._DISK = None
    yield
    codegen._DISK = saved_disk


def _no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("compiled although the code was kept")

    monkeypatch.setattr(codegen, "compile", refuse, raising=False)


SOURCE = "def triple(x):\n    return 3 * x\n"


def test_runs_what_the_source_says(fresh: None) -> None:
    ns: dict[str, Any] = {}
    codegen.run(SOURCE, "<triple>", ns)
    assert ns["triple"](14) == 42
    assert ns["triple"].__code__.co_filename == "<triple>"
    other: dict[str, Any] = {}
    codegen.run(SOURCE.replace("3 *", "4 *"), "<triple>", other)
    assert other["triple"](14) == 56  # changed source: compiled afresh


def test_the_same_source_is_compiled_once_in_a_process(fresh: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    first = codegen.compiled(SOURCE, "<triple>")
    _no_compiling(monkeypatch)
    assert codegen.compiled(SOURCE, "<triple>") is first


def test_code_kept_in_the_store_is_not_compiled_again(fresh: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = _Store()
    codegen.keep_in(store.load, store.save)
    codegen.compiled(SOURCE, "<triple>")
    assert store.loads == 1 and store.saves == []  # written when the process ends
    codegen._DISK.write()  # type: ignore[union-attr]
    assert len(store.saves) == 1 and len(store.held) == 1
    # a new process: nothing in memory, the store read once, nothing compiled
    monkeypatch.setattr(codegen, "_MEMO", {})
    codegen.keep_in(store.load, store.save)
    _no_compiling(monkeypatch)
    ns: dict[str, Any] = {}
    codegen.run(SOURCE, "<triple>", ns)
    assert ns["triple"](5) == 15
    assert store.loads == 2
    codegen._DISK.write()  # type: ignore[union-attr]
    assert len(store.saves) == 1  # nothing new: nothing written


@pytest.mark.parametrize("held", [
    None, "text", {"a": b"x"}, {b"a": "x"}, [1, 2],
])
def test_anything_but_a_mapping_of_bytes_is_not_read(fresh: None, held: Any) -> None:
    store = _Store(held)
    codegen.keep_in(store.load, store.save)
    ns: dict[str, Any] = {}
    codegen.run(SOURCE, "<triple>", ns)
    assert ns["triple"](2) == 6


def test_damaged_or_misplaced_code_is_compiled_afresh(fresh: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    store = _Store()
    codegen.keep_in(store.load, store.save)
    codegen.compiled(SOURCE, "<triple>")
    codegen._DISK.write()  # type: ignore[union-attr]
    (digest,) = store.held
    for blob in (b"\x00garbage", b"", marshal.dumps(42),
                 marshal.dumps(compile("def triple(x):\n    return 0\n", "<other>", "exec"))):
        monkeypatch.setattr(codegen, "_MEMO", {})
        codegen.keep_in(_Store({digest: blob}).load, store.save)
        ns: dict[str, Any] = {}
        codegen.run(SOURCE, "<triple>", ns)
        assert ns["triple"](3) == 9, blob


def test_beyond_the_bound_only_the_code_used_is_kept(fresh: None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    store = _Store()
    codegen.keep_in(store.load, store.save)
    for i in range(5):
        codegen.compiled(f"x = {i}\n", "<n>")
    codegen._DISK.write()  # type: ignore[union-attr]
    assert len(store.held) == 5
    monkeypatch.setattr(codegen, "MAX_BYTES", 1)
    monkeypatch.setattr(codegen, "_MEMO", {})
    codegen.keep_in(store.load, store.save)
    codegen.compiled("x = 1\n", "<n>")  # kept, used
    codegen.compiled("x = 99\n", "<n>")  # new
    codegen._DISK.write()  # type: ignore[union-attr]
    assert len(store.held) == 2


def test_a_store_that_fails_is_not_an_error(fresh: None) -> None:
    def broken(entries: dict[bytes, bytes]) -> None:
        raise OSError("disk full")

    codegen.keep_in(lambda: None, broken)
    codegen.compiled(SOURCE, "<triple>")
    codegen._DISK.write()  # type: ignore[union-attr]


_COUNT = textwrap.dedent("""
    import builtins, sys
    made = []
    plain = builtins.compile
    def counting(source, name, *args, **kwargs):
        made.append(str(name))
        return plain(source, name, *args, **kwargs)
    builtins.compile = counting
    from mariage import GameState, load_rules
    from mariage.engine.deals import canonical_deck
    state = GameState(load_rules("marianna"), first_dealer=0)
    state.deal(canonical_deck(state.rules))
    while state.to_act is not None:
        state.apply(state.legal_actions()[0])
    print(sum(n.startswith(("<play phase", "<fresh deal", "<hand end", "<duties"))
              for n in made))
""")


def test_a_warm_process_compiles_no_generated_function(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), PYTHONPATH=str(ROOT / "reference"))
    env.pop("MARIAGE_NO_CACHE", None)

    def generated() -> int:
        out = subprocess.run([sys.executable, "-c", _COUNT], env=env, capture_output=True,
                             text=True, check=True)
        return int(out.stdout.strip().splitlines()[-1])

    assert generated() >= 3  # cold: compiled, and kept when the process ended
    assert generated() == 0  # warm: every one from the disk cache
    env["MARIAGE_NO_CACHE"] = "1"
    assert generated() >= 3
