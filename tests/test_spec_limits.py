"""Hostile and odd descriptions: each is refused quickly with one located line, never a traceback.

Issue #13 item 2. Speed is not timed here (see ``benchmarks/``); what is
checked is that the bounds in ``docs/limits.rst`` hold and say where.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from mariage.cli import main
from mariage.errors import OptionError, SpecError, SpecFileError
from mariage.spec.compile import check_document
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import (
    MAX_DEPTH,
    MAX_EXTENDS,
    MAX_NODES,
    MAX_SPEC_BYTES,
    _compose_with,
    load_document,
    parse_yaml_text,
    resolve_ruleset,
)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path) -> SpecError:
    with pytest.raises(SpecError) as info:
        check_document(load_document(path))
    err = info.value
    text = str(err)
    assert "\n" not in text
    return err


def _bomb(levels: int) -> str:
    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_is_refused_at_the_alias(tmp_path: Path) -> None:
    text = _bomb(9)
    assert len(text) < 500  # the 415-byte bomb expands to 9**9 values
    err = _error(_write(tmp_path, "bomb.yaml", text))
    assert err.code == "S002"
    assert err.location is not None and err.location.line == 6  # where the count passes
    assert f"more than {MAX_NODES} values" in err.message


def test_recursive_alias_is_located(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "rec.yaml", "ruleset: r\na: &a [1, {b: *a}]\n"))
    assert (err.location.line, err.location.column) == (2, 15)  # type: ignore[union-attr]
    assert "recursive alias" in err.message


def test_alias_before_anchor_is_located(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "undef.yaml", "a: *nowhere\n"))
    assert (err.location.line, err.location.column) == (1, 4)  # type: ignore[union-attr]
    assert "no anchor" in err.message


@pytest.mark.parametrize("flow", [True, False])
def test_deep_nesting_is_refused(tmp_path: Path, flow: bool) -> None:
    if flow:
        text = "a: " + "[" * 1000 + "]" * 1000 + "\n"
    else:
        text = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "x\n"
    err = _error(_write(tmp_path, "deep.yaml", text))
    assert f"nested deeper than {MAX_DEPTH} levels" in err.message
    assert err.location is not None and err.location.line >= 1


def test_nesting_at_the_bound_is_read(tmp_path: Path) -> None:
    data, _ = parse_yaml_text("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1), "t")
    depth, node = 0, data
    while isinstance(node, dict | list) and node:
        node = node["a"] if isinstance(node, dict) else node[0]
        depth += 1
    assert depth == MAX_DEPTH - 1


def test_deep_but_allowed_nesting_is_a_schema_error_not_a_recursion_error(
        tmp_path: Path) -> None:
    text = ("format: 1\nruleset: d\nsources: " + "{a: " * (MAX_DEPTH - 2) + "1"
            + "}" * (MAX_DEPTH - 2) + "\n")
    err = _error(_write(tmp_path, "deepok.yaml", text))
    assert err.code == "S001"


def test_too_large_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "big.yaml", "# " + "x" * MAX_SPEC_BYTES + "\n")
    err = _error(path)
    assert "larger than" in err.message and err.code == "S002"


def test_huge_integer_is_located(tmp_path: Path) -> None:
    path = _write(tmp_path, "int.yaml", "extends: marianna\nruleset: b\nversion: "
                  + "9" * 5000 + "\n")
    err = _error(path)
    assert (err.location.line, err.location.column) == (3, 10)  # type: ignore[union-attr]
    assert "out of range" in err.message


def test_unsafe_tag_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, "tag.yaml", "ruleset: b\nname: !!python/object:os.system x\n")
    err = _error(path)
    assert (err.location.line, err.location.column) == (2, 7)  # type: ignore[union-attr]
    assert "not allowed" in err.message


def test_two_documents_are_refused(tmp_path: Path) -> None:
    err = _error(_write(tmp_path, "two.yaml", "a: 1\n---\nb: 2\n"))
    assert err.location is not None and err.location.line == 2


def test_aliases_still_work_and_keep_positions(tmp_path: Path) -> None:
    data, marks = parse_yaml_text("a: &x {b: 1}\nc: *x\n", "t.yaml")
    assert data == {"a": {"b": 1}, "c": {"b": 1}}
    assert data["a"] is not data["c"]
    assert str(marks[("c", "b")]) == "t.yaml:1:11"


def test_extends_merge_is_linear_enough(tmp_path: Path) -> None:
    # 5,000 sources took 16 s: the merge copied every mark once per key
    sources = "".join(f"  s{i}: {{title: 'T{i}'}}\n" for i in range(5000))
    path = _write(tmp_path, "many.yaml", f"extends: marianna\nruleset: many\nsources:\n{sources}")
    doc = load_document(path)
    assert len(doc.data["sources"]) > 5000
    assert str(doc.where("sources.s4999.title")).endswith("many.yaml:5003:18")
    assert str(doc.where("match.end.target")).endswith("marianna.yaml:218:13") or \
        doc.where("match.end.target") is not None


def test_long_extends_chain_is_refused(tmp_path: Path) -> None:
    _write(tmp_path, "c0.yaml", "extends: marianna\nruleset: c0\n")
    for i in range(1, MAX_EXTENDS + 3):
        _write(tmp_path, f"c{i}.yaml", f"extends: c{i - 1}\nruleset: c{i}\n")
    err = _error(tmp_path / f"c{MAX_EXTENDS + 2}.yaml")
    assert err.code == "S004" and "more than" in err.message


def test_parent_without_ruleset_is_located(tmp_path: Path) -> None:
    _write(tmp_path, "noname.yaml", "name: x\nversion: 1\n")
    path = _write(tmp_path, "child.yaml", "extends: ./noname.yaml\nruleset: c\n")
    err = _error(path)
    assert err.location is not None and err.location.file.endswith("noname.yaml")
    assert err.path == "ruleset" and "'ruleset'" in err.message


def test_spec_without_ruleset_is_located(tmp_path: Path) -> None:
    text = (resolve_ruleset("marianna").read_text(encoding="utf-8")
            .replace("ruleset: marianna\n", ""))
    err = _error(_write(tmp_path, "anon.yaml", text))
    assert err.code == "S001" and "'ruleset'" in err.message
    assert err.location is not None and err.location.file.endswith("anon.yaml")


def test_missing_parent_file_names_the_extends_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "orphan.yaml", "ruleset: o\nextends: ./gone.yaml\n")
    err = _error(path)
    assert (err.location.line, err.location.column) == (2, 10)  # type: ignore[union-attr]
    assert not isinstance(err, SpecFileError)


def test_missing_file_is_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(SpecFileError):
        load_document(tmp_path / "absent.yaml")


def test_c_and_python_loaders_agree_on_positions() -> None:
    assert hasattr(yaml, "CSafeLoader"), "PyPI's PyYAML wheels bundle libyaml"
    text = ("a: 'é€😀'\nb: [1, {c: \"ü\", d: 2}]\nlong: >\n  folded\n  text\n"
            "e: &e {f: [x, y]}\ng: *e\n")
    assert _compose_with(yaml.CSafeLoader, text, "t") == _compose_with(yaml.SafeLoader, text, "t")
    for name in ("marianna", "marjapussi", "mariaggia"):
        spec = resolve_ruleset(name).read_text(encoding="utf-8")
        assert _compose_with(yaml.CSafeLoader, spec, "t") == \
            _compose_with(yaml.SafeLoader, spec, "t")


@pytest.mark.parametrize("text", [
    "a: [1,\n",                # flow sequence left open
    "a: 1\n\tb: 2\n",          # a tab where a token starts
    "a: 'open\n",              # a quoted scalar left open
    "a: b: c\n",               # a mapping value where none is allowed
])
def test_syntax_errors_are_the_python_loaders(text: str) -> None:
    # whichever loader parses, the message and position are the Python loader's
    with pytest.raises(SpecError) as fast:
        parse_yaml_text(text, "t.yaml")
    with pytest.raises(SpecError) as slow:
        _compose_with(yaml.SafeLoader, text, "t.yaml")
    assert str(fast.value) == str(slow.value)
    assert str(fast.value).startswith("t.yaml:") and "\n" not in str(fast.value)


def test_int_option_bounds_are_enforced() -> None:
    with pytest.raises(OptionError) as info:
        load_rules("marianna", {"target": str(10**11)})
    assert "between" in str(info.value)


def test_int_option_needs_an_upper_bound(tmp_path: Path) -> None:
    text = resolve_ruleset("marianna").read_text(encoding="utf-8")
    start = text.index("  target:\n")
    block_end = text.index("\n  ", text.index("binds:", start))
    block = text[start:block_end]
    lines = [ln for ln in block.splitlines() if not ln.strip().startswith("max:")]
    err = _error(_write(tmp_path, "nomax.yaml", text.replace(block, "\n".join(lines))))
    assert err.path.startswith("options.target") and "max" in err.message


def test_option_max_beyond_the_fields_bound_is_located(tmp_path: Path) -> None:
    text = resolve_ruleset("marianna").read_text(encoding="utf-8")
    start = text.index("  target:\n")
    stop = text.index("max:", start)
    eol = text.index("\n", stop)
    changed = text[:stop] + "max: 100000000000" + text[eol:]
    err = _error(_write(tmp_path, "bigmax.yaml", changed))
    assert "target" in err.message or "target" in err.path


@pytest.mark.parametrize("argv_tail", [["x.yaml"], ["bomb.yaml"]])
def test_check_spec_exit_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str], argv_tail: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    _write(tmp_path, "bomb.yaml", _bomb(9))
    code = main(["check-spec", *argv_tail])
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert code == (2 if argv_tail == ["x.yaml"] else 1)


def test_texts_follow_the_number_of_suits(tmp_path: Path) -> None:
    from mariage.rulebook.render import render_text

    path = _write(tmp_path, "three.yaml", "extends: mariazza\nruleset: three\n"
                  "pack:\n  suits: [H, D, C]\n")
    rules = load_rules(path)
    assert len(rules.suits) == 3
    text = render_text(rules, str(path))
    assert "four suits" not in text and "three suits" in text


def _traced_lines(path: Path) -> int:
    """Lines of the loader run to load ``path``: a machine-independent measure of work."""
    import sys
    import types

    from mariage.spec import specload

    count = 0
    target = specload.__file__

    def local(frame: types.FrameType, event: str, arg: object) -> object:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def tracer(frame: types.FrameType, event: str, arg: object) -> object:
        return local if frame.f_code.co_filename == target else None

    specload._READ_CACHE.clear()
    sys.settrace(tracer)
    try:
        specload._load_document(path, ())
    finally:
        sys.settrace(None)
    return count


def test_extends_merge_work_grows_linearly(tmp_path: Path) -> None:
    # not a timing: the loader's executed lines for n and 4n sources
    work = []
    for n in (500, 2000):
        sources = "".join(f"  s{i}: {{title: 'T{i}'}}\n" for i in range(n))
        path = _write(tmp_path, f"many{n}.yaml",
                      f"extends: marianna\nruleset: many\nsources:\n{sources}")
        work.append(_traced_lines(path))
    assert work[1] < 5 * work[0], work  # quadratic merging made this about 16x


def test_anchors_cost_nothing_until_an_alias_uses_them() -> None:
    # every collection anchored, none aliased: memory as for the same text without anchors
    import tracemalloc

    def chain(i: int, anchored: bool) -> str:
        depth = MAX_DEPTH - 2
        opens = "".join((f"&a{i}_{d} " if anchored else "") + "{k: " for d in range(depth))
        return f"c{i}: {opens}1" + "}" * depth + "\n"

    import gc

    peaks = []
    for anchored in (False, True):
        text = "".join(chain(i, anchored) for i in range(300))
        runs = []
        for _ in range(2):  # the lower of two: a collection of other tests' garbage
            gc.collect()    # during one run must not count as this parse's memory
            tracemalloc.start()
            parse_yaml_text(text, "t.yaml")
            runs.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        peaks.append(min(runs))
    assert peaks[1] < 1.5 * peaks[0], peaks


def test_without_libyaml_the_python_loader_reads_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = resolve_ruleset("mariaggia").read_text(encoding="utf-8")
    fast = parse_yaml_text(text, "m.yaml")
    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    assert parse_yaml_text(text, "m.yaml") == fast
    with pytest.raises(SpecError) as info:
        parse_yaml_text("a: [1,\n", "t.yaml")
    assert str(info.value).startswith("t.yaml:2:1: YAML syntax:")
