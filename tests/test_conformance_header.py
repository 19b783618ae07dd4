"""A filtered load reads only the files it needs, and never leaves out a test a full parse
would run: every certain header value is checked against the full parse."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mariage.conformance import suite
from mariage.conformance.header import front_matter_of, read_header
from mariage.conformance.suite import SuiteError, load_suite, parse_test

CANON = ("id: demo/a\ndescription: a demo\nkind: scenario\nruleset: marianna\n"
         "rules: [core.hand, core.follow]\noptions: {}\nstart: {dealer: 0, deck: []}\n"
         "steps:\n- {\"act\": \"QS\"}\n")


def _full(front: str) -> suite.Test | None:
    try:
        return parse_test(f"---\n{front}---\n", "x.test")
    except SuiteError:
        return None


def _agrees(front: str) -> None:
    """Whatever the header is certain of, the full parse says too (or refuses the file)."""
    head = read_header(front)
    test = _full(front)
    if test is None:
        return
    if head.ruleset is not None:
        assert head.ruleset == test.ruleset, front
    if head.kind is not None:
        assert head.kind == test.kind, front
    if head.rules is not None:
        assert head.rules == test.rules, front


def test_every_bundled_header_agrees_with_the_full_parse() -> None:
    tests = load_suite()
    certain = 0
    for t in tests:
        front = front_matter_of((suite.tests_dir() / t.path).read_text(encoding="utf-8"))
        assert front is not None
        head = read_header(front)
        assert head.ruleset in (None, t.ruleset), t.path
        assert head.kind in (None, t.kind), t.path
        assert head.rules in (None, t.rules), t.path
        certain += head.ruleset is not None
    assert certain > 0.9 * len(tests)  # the point: most files need no parse


@pytest.fixture(scope="module")
def every() -> list[suite.Test]:
    """The whole suite, parsed once for the module: each filter below is compared with it
    (each load after ``suite._PARSED.clear()`` parses its files again, as it should)."""
    return load_suite()


@pytest.mark.parametrize("filters", [
    {"rulesets": ["marianna"]}, {"rulesets": ["schnapsen", "*"]}, {"kinds": ["perft"]},
    {"kinds": ["protocol", "golden"]}, {"rules": ["core.hand"]}, {"rules": ["marianna."]},
    {"rulesets": ["thousand"], "kinds": ["option"], "rules": ["thousand."]},
])
def test_a_filtered_load_equals_filtering_the_full_parse(filters: dict[str, list[str]],
                                                         every: list[suite.Test]) -> None:
    sets, kinds, rules = (set(filters.get(k, ())) for k in ("rulesets", "kinds", "rules"))
    want = [t.id for t in every if (not sets or t.ruleset in sets)
            and (not kinds or t.kind in kinds)
            and (not rules or any(r == w or (w.endswith(".") and r.startswith(w))
                                  for r in t.rules for w in rules))]
    suite._PARSED.clear()
    got = [t.id for t in load_suite(**filters)]  # type: ignore[arg-type]
    assert got == want and got


def test_a_filtered_load_parses_only_what_it_needs(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is surely of another ruleset is not parsed: a broken one is not even
    noticed, and the parse count is that of the wanted files."""
    (tmp_path / "a.test").write_text(f"---\n{CANON}---\n", encoding="utf-8")
    (tmp_path / "b.test").write_text("---\nid: b\nruleset: schnapsen\nkind: [unclosed\n---\n",
                                     encoding="utf-8")
    parsed = _counting(monkeypatch)
    suite._PARSED.clear()
    assert [t.id for t in load_suite(tmp_path, rulesets=["marianna"])] == ["demo/a"]
    assert parsed == ["a.test"]
    with pytest.raises(SuiteError, match=r"b\.test"):  # an unfiltered load still reads it
        load_suite(tmp_path)


@pytest.mark.parametrize("front", [
    CANON.replace("ruleset: marianna\n", "ruleset: mari\n  anna\n"),     # continued value
    CANON.replace("ruleset: marianna\n", "ruleset: marianna\n\n  x\n"),  # after a blank
    CANON + "ruleset: schnapsen\n",                                    # duplicate key
    CANON + "\"ruleset\": schnapsen\n",                                # quoted duplicate
    CANON + "\"rul\\x65set\": schnapsen\n",                            # escaped duplicate
    CANON + "? ruleset\n: schnapsen\n",                                # explicit key
    CANON.replace("ruleset: marianna", "ruleset: null"),               # not a text
    CANON.replace("ruleset: marianna", "ruleset: yes"),
    CANON.replace("ruleset: marianna", "ruleset: marianna # comment"),
    CANON.replace("ruleset: marianna", "ruleset: \"*\""),
    CANON.replace("kind: scenario", "kind: 'perft'"),
    "{" + CANON.replace("\n", ", ").rstrip(", ") + "}\n",             # flow mapping
    CANON.replace("rules: [core.hand, core.follow]", "rules: [core.hand,\n  core.x]"),
    CANON.replace("rules: [core.hand, core.follow]", "rules: [1.5]"),
    CANON.replace("steps:\n", "steps:\n- {\"act\": \"QS\", \"rules\": [a]}\n"),
])
def test_unusual_front_matters_are_read_right_or_not_at_all(front: str) -> None:
    _agrees(front)


def test_a_continued_value_is_not_certain() -> None:
    head = read_header(CANON.replace("ruleset: marianna\n", "ruleset: mari\n  anna\n"))
    assert head.ruleset is None
    assert read_header(CANON + "ruleset: schnapsen\n").ruleset is None


PIECES = ["ruleset", "kind", "rules", ":", " ", "\n", "\n  ", "'", "\"", "#", "[", "]", ",",
          "{", "}", "?", "-", "marianna", "schnapsen", "scenario", "null", "a.b", "\\"]


@settings(max_examples=400, deadline=None)
@given(st.integers(0, len(CANON)), st.lists(st.sampled_from(PIECES), max_size=8))
def test_no_edit_makes_the_header_disagree_with_the_full_parse(at: int,
                                                               extra: list[str]) -> None:
    _agrees(CANON[:at] + "".join(extra) + CANON[at:])


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = suite.parse_test

    def counting(text: str, where: str) -> suite.Test:
        parsed.append(where)
        return real(text, where)

    monkeypatch.setattr(suite, "parse_test", counting)
    return parsed


def _forget() -> None:
    """As a new process starts: no parse, header or read of the disk cache kept."""
    suite._PARSED.clear()
    suite._HEADERS.clear()
    suite._STORED.clear()
    suite._SIGNED.clear()


def test_another_process_reads_the_parsed_suite_from_the_disk_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder of many test files is parsed once: the next process reads the parses from
    the disk cache (an entry keyed by every file's path, size and modification time),
    and parses again only a file changed since."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for n in range(suite._DISK_FILES):
        front = CANON.replace("demo/a", f"demo/{n}").replace("QS", ["QS", "KS"][n % 2])
        (tmp_path / f"{n:03}.test").write_text(f"---\n{front}---\n", encoding="utf-8")
    parsed = _counting(monkeypatch)
    _forget()
    first = load_suite(tmp_path)
    assert len(parsed) == suite._DISK_FILES
    _forget()
    parsed.clear()
    again = load_suite(tmp_path)
    assert parsed == [] and again == first  # every test as parsed, none parsed again
    _forget()
    changed = tmp_path / "007.test"
    changed.write_text(changed.read_text(encoding="utf-8").replace("KS", "AS"), "utf-8")
    tests = load_suite(tmp_path)
    assert parsed == [f"{n:03}.test" for n in range(suite._DISK_FILES)]  # a new key
    assert tests[7].steps[0]["act"] == "AS"
    _forget()


def test_a_second_whole_load_reads_no_file_unless_one_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk cache's key is a digest of every file's content; a second whole load in
    the same process makes it again only where a file's stats changed."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for n in range(suite._DISK_FILES):
        front = CANON.replace("demo/a", f"demo/{n}")
        (tmp_path / f"{n:03}.test").write_text(f"---\n{front}---\n", encoding="utf-8")
    _forget()
    first = load_suite(tmp_path)
    opened: list[Path] = []
    real = suite.open_regular

    def counting(path: Path) -> Any:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(suite, "open_regular", counting)
    assert load_suite(tmp_path) == first and opened == []
    changed = tmp_path / "007.test"
    changed.write_text(changed.read_text(encoding="utf-8").replace("QS", "AS"), "utf-8")
    os.utime(changed, ns=(0, 0))  # (a new time: the stats differ)
    assert load_suite(tmp_path)[7].steps[0]["act"] == "AS"
    assert len(opened) == suite._DISK_FILES + 1  # every file hashed, the changed one parsed
    _forget()


def _many(tmp_path: Path, fronts: dict[int, str]) -> None:
    """A folder of :data:`~mariage.conformance.suite._DISK_FILES` test files (kept in the
    disk cache), the canonical one but for its id, or ``fronts[n]`` for file ``n``."""
    for n in range(suite._DISK_FILES):
        front = fronts.get(n, CANON.replace("demo/a", f"demo/{n}"))
        tmp_path.mkdir(exist_ok=True)
        (tmp_path / f"{n:03}.test").write_text(f"---\n{front}---\n", encoding="utf-8")


def test_a_filtered_load_takes_the_parses_a_whole_load_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process's filtered load (pytest's collection loads the suite by kinds, four
    times a CI run) parses nothing and reads no header where a whole load kept the
    parses: it parsed each file not left out by its header (about 1,500, 2.8 CPU-s)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _many(tmp_path / "t", {n: CANON.replace("demo/a", f"demo/{n}").replace(
        "marianna", "schnapsen") for n in range(0, suite._DISK_FILES, 3)})
    _forget()
    whole = load_suite(tmp_path / "t")
    parsed = _counting(monkeypatch)
    headers: list[str] = []
    monkeypatch.setattr(suite, "read_header", lambda front: headers.append(front))
    _forget()
    tests = load_suite(tmp_path / "t", rulesets=["schnapsen"], kinds=["scenario"])
    assert parsed == [] and headers == []
    assert tests == [t for t in whole if t.ruleset == "schnapsen"] and len(tests) == 34
    _forget()


ONE_ID = {10: CANON.replace("demo/a", "demo/x"),  # one id in three files: 10 and 50 left
          50: CANON.replace("demo/a", "demo/x").replace("marianna", "schnapsen"),  # out of
          70: CANON.replace("demo/a", "demo/x").replace("marianna", "mariglia # not certain")}


@pytest.mark.parametrize("fronts", [ONE_ID, {**ONE_ID, 70: ONE_ID[70].replace(" # not certain",
                                                                             "")}])
@pytest.mark.parametrize("filters", [{"rulesets": ["marianna"]}, {"rulesets": ["schnapsen"]},
                                     {"rulesets": ["mariglia"]}, {"kinds": ["scenario"]},
                                     {"rulesets": ["marianna", "schnapsen"]}])
def test_a_test_id_used_twice_is_found_as_without_the_disk_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fronts: dict[int, str],
        filters: dict[str, list[str]]) -> None:
    """A filtered load checks a test id to be used once among the files it parses: the
    parses read from the disk cache change nothing of what it finds (a file its header
    leaves out is not checked; one whose header is not certain is)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    _many(tmp_path / "t", fronts)

    def outcome() -> list[str] | str:
        try:
            return [t.id for t in load_suite(tmp_path / "t", **filters)]
        except SuiteError as exc:
            return str(exc)

    _forget()
    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    alone = outcome()
    monkeypatch.delenv("MARIAGE_NO_CACHE")
    _forget()
    found = re.escape("050.test: test id 'demo/x' is also used by 010")
    with pytest.raises(SuiteError, match=found):
        load_suite(tmp_path / "t")  # a whole load finds it, and keeps the parses made
    _forget()
    parsed = _counting(monkeypatch)
    assert outcome() == alone  # files 0 to 50 read from the disk cache, the others not
    assert not {"010.test", "050.test"} & set(parsed)
    for path in sorted((tmp_path / "t").glob("*.test")):
        suite._parsed(path, path.name)  # every file held (as after a whole load)
    parsed.clear()
    assert outcome() == alone and parsed == []
    _forget()
