"""The disk cache of descriptions and compiled rules (issue #16 item 1).

Every test uses its own ``XDG_CACHE_HOME``; none times anything.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mariage.spec import diskcache
from mariage.spec.rulesload import _DOCUMENTS, _RULES_CACHE, load_rules
from mariage.spec.specload import load_document

REFERENCE = str(Path(__file__).resolve().parent.parent / "reference")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    diskcache._SECRETS.clear()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MARIAGE_NO_CACHE", raising=False)
    monkeypatch.delenv("MARIAGE_CACHE_ENTRIES", raising=False)  # (the session sets it)
    # the process's rules put back afterwards: the later tests of this worker would
    # otherwise load and compile every ruleset again
    rules, documents = dict(_RULES_CACHE), dict(_DOCUMENTS)
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    yield tmp_path / "xdg" / "mariage"
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    _RULES_CACHE.update(rules)
    _DOCUMENTS.update(documents)


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.pickle"))


def test_location_follows_xdg_and_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert diskcache.cache_dir() == tmp_path / "mariage"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert diskcache.cache_dir() == tmp_path / "home" / ".cache" / "mariage"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # not absolute: ignored, per XDG
    assert diskcache.cache_dir() == tmp_path / "home" / ".cache" / "mariage"


def test_rules_and_documents_are_stored_and_reused(cache: Path) -> None:
    rules = load_rules("mariglia")
    assert len(_entries(cache)) == 2  # the document and the compiled rules
    key_file = cache / "key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert cache.stat().st_mode & 0o777 == 0o700
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    again = load_rules("mariglia")
    assert again is not rules and again == rules
    assert load_document("mariglia").where("match.end.target") is not None


def test_a_changed_file_is_read_again(cache: Path, tmp_path: Path) -> None:
    spec = tmp_path / "house.yaml"
    spec.write_text("extends: mariglia\nruleset: house\nname: First\n", encoding="utf-8")
    assert load_rules(spec).name == "First"
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    spec.write_text("extends: mariglia\nruleset: house\nname: Second\n", encoding="utf-8")
    assert load_rules(spec).name == "Second"
    assert load_document(spec).data["name"] == "Second"


def test_a_changed_parent_is_read_again(cache: Path, tmp_path: Path) -> None:
    parent = tmp_path / "base.yaml"
    parent.write_text("extends: mariglia\nruleset: base\nname: Base\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: base\nruleset: child\n", encoding="utf-8")
    assert load_document(child).data["name"] == "Base"
    parent.write_text("extends: mariglia\nruleset: base\nname: Changed\n", encoding="utf-8")
    assert load_document(child).data["name"] == "Changed"


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_a_corrupted_entry_is_ignored_and_rebuilt(cache: Path, damage: str) -> None:
    load_rules("mariazza")
    for entry in _entries(cache):
        blob = entry.read_bytes()
        if damage == "truncate":
            entry.write_bytes(blob[: len(blob) // 2])
        elif damage == "flip":
            entry.write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
        elif damage == "garbage":
            entry.write_bytes(os.urandom(len(blob)))
        else:
            entry.write_bytes(b"")
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    assert load_rules("mariazza").ruleset == "mariazza"
    for entry in _entries(cache):  # rebuilt: sound again
        assert diskcache.load(entry.stem) is not None


class _Boom:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("echo pwned > /dev/null",))


def test_an_unauthenticated_pickle_is_never_loaded(cache: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    load_rules("mariazza")
    calls: list[object] = []
    monkeypatch.setattr(pickle, "loads", lambda *a, **k: calls.append(a) or None)
    for entry in _entries(cache):  # a forged entry: right magic, wrong MAC
        entry.write_bytes(b"MARIAGE\x01" + b"\0" * 32 + pickle.dumps(([], _Boom())))
        assert diskcache.load(entry.stem) is None
    assert calls == []


def test_nothing_is_loaded_from_a_folder_others_may_write(cache: Path) -> None:
    load_rules("mariazza")
    key = _entries(cache)[0].stem
    assert diskcache.load(key) is not None
    cache.chmod(0o777)
    try:
        assert diskcache.load(key) is None
    finally:
        cache.chmod(0o700)
    entry = _entries(cache)[0]
    entry.chmod(0o666)
    assert diskcache.load(entry.stem) is None


def test_a_symlinked_entry_is_not_followed(cache: Path, tmp_path: Path) -> None:
    load_rules("mariazza")
    entry = _entries(cache)[0]
    elsewhere = tmp_path / "elsewhere.pickle"
    elsewhere.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(elsewhere)
    assert diskcache.load(entry.stem) is None


def test_a_key_file_readable_by_others_disables_the_cache(cache: Path) -> None:
    load_rules("mariazza")
    key = _entries(cache)[0].stem
    (cache / "key").chmod(0o644)
    diskcache._SECRETS.clear()  # the key is read once per process: as a new process would
    assert diskcache.load(key) is None


def test_the_cache_can_be_turned_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    load_rules("marjapussi")
    assert not cache.exists()


def test_an_unwritable_cache_is_not_an_error(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    assert load_rules("marjapussi").ruleset == "marjapussi"


def test_temporary_files_of_killed_runs_are_ignored_and_tidied(cache: Path) -> None:
    load_rules("mariazza")
    left = cache / "tmp-99999999-x.part"
    left.write_bytes(b"half")
    os.utime(left, (1, 1))  # long ago
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    diskcache.store("another", 1, [])
    assert not left.exists()


def test_entries_are_bounded(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diskcache, "_MAX_ENTRIES", 3)
    for i in range(6):
        diskcache.store(f"k{i}", i, [])
    assert len(_entries(cache)) == 3


@pytest.mark.parametrize(("value", "kept"), [("4", 4), ("0", 3), ("x", 3), ("", 3)])
def test_the_bound_of_entries_may_be_set(cache: Path, monkeypatch: pytest.MonkeyPatch,
                                         value: str, kept: int) -> None:
    monkeypatch.setattr(diskcache, "_MAX_ENTRIES", 3)  # the default, as above
    monkeypatch.setenv("MARIAGE_CACHE_ENTRIES", value)
    for i in range(6):
        diskcache.store(f"k{i}", i, [])
    assert len(_entries(cache)) == kept
    assert diskcache.load("k5") == 5  # the newest are kept


def test_cached_documents_name_files_relative_to_the_working_folder(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").mkdir()
    spec = tmp_path / "a" / "house.yaml"
    spec.write_text("extends: mariglia\nruleset: house\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_document(str(spec)).files[-1] == os.path.join("a", "house.yaml")
    monkeypatch.chdir(tmp_path / "a")
    assert load_document(str(spec)).files[-1] == "house.yaml"
    monkeypatch.chdir(tmp_path)
    assert load_document(str(spec)).files[-1] == os.path.join("a", "house.yaml")


def _cli_probe(argv: list[str], shown: str, **env_extra: str) -> list[str]:
    """Run ``mariage ARGV`` in a fresh process (its output discarded); print ``shown``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REFERENCE + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra)
    probe = ("import sys, mariage.cli as c, io, contextlib\n"
             "out = io.StringIO()\n"
             "with contextlib.redirect_stdout(out):\n"
             f"    c.main({argv!r})\n"
             f"print({shown})\n")
    done = subprocess.run([sys.executable, "-c", probe], env=env, check=True,
                          capture_output=True, text=True)
    return done.stdout.split()


def test_a_warm_process_neither_parses_yaml_nor_imports_jsonschema(cache: Path) -> None:
    shown = "'jsonschema' in sys.modules, 'yaml' in sys.modules"
    _cli_probe(["list"], shown)
    assert _cli_probe(["list"], shown) == ["False", "False"]
    assert _cli_probe(["list"], shown, MARIAGE_NO_CACHE="1") == ["True", "True"]


def test_no_home_folder_means_no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.delenv("MARIAGE_NO_CACHE", raising=False)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    assert diskcache.cache_dir() is None
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    assert load_rules("mariglia").ruleset == "mariglia"


def test_a_warm_rules_command_compiles_nothing(cache: Path) -> None:
    argv = ["rules", "mariazza", "-o", "target=21"]
    shown = ("len(out.getvalue()), 'mariage.spec.compile' in sys.modules,"
             " 'mariage.rulebook.render' in sys.modules")
    cold = _cli_probe(argv, shown)
    warm = _cli_probe(argv, shown)
    assert int(cold[0]) > 1000
    assert cold == [cold[0], "True", "True"]
    assert warm == [cold[0], "False", "False"]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_cached_rulebook_is_the_one_made_without_the_cache(
        cache: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    from mariage.commands.rules_cmd import rulebook_output

    made = rulebook_output("mariazza", {"target": "21"}, fmt)
    assert len(_entries(cache)) >= 3  # the document, the rules, the rulebook
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    assert rulebook_output("mariazza", {"target": "21"}, fmt) == made
    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    assert rulebook_output("mariazza", {"target": "21"}, fmt) == made
    assert rulebook_output("mariazza", {}, fmt) != made


def test_a_cached_rulebook_follows_its_files(cache: Path, tmp_path: Path) -> None:
    from mariage.commands.rules_cmd import rulebook_output

    parent = tmp_path / "base.yaml"
    parent.write_text("extends: mariglia\nruleset: base\nname: Base Game\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: base\nruleset: child\n", encoding="utf-8")
    assert "Base Game" in rulebook_output(str(child), {})
    parent.write_text("extends: mariglia\nruleset: base\nname: Changed Game\n",
                      encoding="utf-8")
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    text = rulebook_output(str(child), {})
    assert "Changed Game" in text and "Base Game" not in text


def test_every_module_of_the_package_is_in_the_fingerprint() -> None:
    """A changed module anywhere in the package (the rulebook's renderer, the engine) must
    give new keys; when the cache moved into ``mariage/spec`` the fingerprint walked only
    that folder, and ``mariage rules`` went on printing the text of the old renderer."""
    import mariage

    assert Path(mariage.__file__).resolve().parent == diskcache._PACKAGE


def test_the_fingerprint_follows_each_file_by_its_stamps(tmp_path: Path) -> None:
    """The fingerprint reads the files' sizes and times, not their content (reading and
    hashing the bundled descriptions took a warm command's start 3-4 ms): a file changed,
    added or removed anywhere below the folder changes it, compiled modules do not."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    (tmp_path / "notes.txt").write_text("not a module\n")

    def stamps(suffix: str = ".py") -> list[str]:
        out: list[str] = []
        diskcache._stamps(str(tmp_path), suffix, out)
        return out

    first = stamps()
    assert [s.split("\0")[0] for s in first] == [str(tmp_path / "a.py"),
                                                  str(tmp_path / "sub" / "b.py")]
    (tmp_path / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"compiled")
    assert stamps() == first
    os.utime(tmp_path / "sub" / "b.py", ns=(1, 1))  # the same size, another time
    second = stamps()
    assert second != first
    (tmp_path / "a.py").write_text("x = 10\n")
    os.utime(tmp_path / "a.py", ns=(1, 1))
    assert stamps() not in (first, second)
    assert len(stamps("")) == 3  # every file (but the compiled), for the bundled data


def test_the_grammars_terminals_come_from_one_entry(cache: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminals' patterns the fast readers need are one entry of the cache, read once
    by a process (a replay read twelve, one per terminal, each with its own MAC and the
    grammar file's digest), and give the patterns Lark gives."""
    from mariage.notation import grammar

    names = ("COMMENT", "STRING")
    monkeypatch.setattr(grammar, "_PATTERNS", {})
    monkeypatch.setattr(grammar, "_READ", [])
    made = {name: grammar.terminal_pattern(name) for name in names}  # (compiled, stored)
    assert made["COMMENT"] == r"\{[^{}]*\}"
    monkeypatch.setattr(grammar, "_PATTERNS", {})  # a new process
    monkeypatch.setattr(grammar, "_READ", [])
    loads: list[str] = []
    real = diskcache.load
    monkeypatch.setattr(diskcache, "load", lambda key: loads.append(key) or real(key))
    assert {name: grammar.terminal_pattern(name) for name in names} == made
    assert len(loads) == 1


def test_the_option_values_of_a_description_compile_from_one_reading(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiling several values of its options reads (and schema-checks) a description
    once per process, even with the disk cache off."""
    from mariage.spec import specload

    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    readings: list[str] = []

    def counted(name_or_path: str | Path) -> object:
        readings.append(str(name_or_path))
        return load_document(name_or_path)

    monkeypatch.setattr(specload, "load_document", counted)  # (rulesload imports it on a miss)
    targets = [load_rules("mariglia", {"target": t}).match_target for t in (21, 31, 41)]
    assert targets == [21, 31, 41]
    assert readings == ["mariglia"]


def test_a_parent_changed_between_two_option_values_is_read_again(
        cache: Path, tmp_path: Path) -> None:
    parent = tmp_path / "base.yaml"
    parent.write_text("extends: mariglia\nruleset: base\nname: Base\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("extends: base\nruleset: child\n", encoding="utf-8")
    assert load_rules(child, {"target": 21}).name == "Base"
    parent.write_text("extends: mariglia\nruleset: base\nname: Gone\n", encoding="utf-8")
    assert load_rules(child, {"target": 31}).name == "Gone"
