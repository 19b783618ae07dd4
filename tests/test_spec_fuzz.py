"""Fuzzing spec loading and ``check-spec``: whatever the file, one located line, in bounded time.

Hypothesis makes descriptions that are wrong in every way it can think of:
bundled descriptions with characters cut, added or moved; deep nests; alias
patterns (bombs, recursion, aliases as keys); values of the wrong type put
anywhere in a valid description. For each, loading and checking must

* end in success or in :class:`SpecError` / :class:`OptionError` (never
  another exception, never a traceback from ``mariage check-spec``),
* say where: the message starts with the file name, and with
  ``:line:column`` whenever the problem has a place in the file,
* be one line, ending with the error code,
* finish within :data:`BOUND_SECONDS` (a generous hang detector, not a speed
  test: speed is measured in ``benchmarks/``).

In CI (the default) each property runs a few dozen examples. For long hunts::

    MARIAGE_FUZZ=long pytest tests/test_spec_fuzz.py            # 20,000 examples each
    MARIAGE_FUZZ_EXAMPLES=500 pytest tests/test_spec_fuzz.py    # any number
    python tests/test_spec_fuzz.py --long --minutes 120          # rounds until time is up
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hostilekit import deadline
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mariage.cli import main
from mariage.errors import OptionError, SpecError
from mariage.spec.compile import check_document
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import MAX_DEPTH, load_document, resolve_ruleset

BOUND_SECONDS = 60
"""Longest any one example may take before it counts as a hang."""


def _examples() -> int:
    if os.environ.get("MARIAGE_FUZZ_EXAMPLES"):
        return int(os.environ["MARIAGE_FUZZ_EXAMPLES"])
    return 20_000 if os.environ.get("MARIAGE_FUZZ") == "long" else 25


FUZZ = settings(max_examples=_examples(), deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much],
                derandomize=os.environ.get("MARIAGE_FUZZ") != "long")

BUNDLED = {name: resolve_ruleset(name).read_text(encoding="utf-8")
           for name in ("marianna", "mariglia", "mariazza", "cinquecento")}
_LOCATED = re.compile(r"^(?P<file>.+?)(:(?P<line>\d+):(?P<col>\d+))?: .*\[(S\d{3})\]$")
_TMP = tempfile.TemporaryDirectory(prefix="mariage-fuzz-")  # removed at exit
_FOLDER = Path(_TMP.name)


def _bounded(seconds: int = BOUND_SECONDS) -> contextlib.AbstractContextManager[None]:
    """Fail (do not hang) if the body runs longer than ``seconds``."""
    return deadline(seconds)


@contextlib.contextmanager
def _no_disk_cache() -> Iterator[None]:
    old = os.environ.get("MARIAGE_NO_CACHE")
    os.environ["MARIAGE_NO_CACHE"] = "1"
    try:
        yield
    finally:
        if old is None:
            del os.environ["MARIAGE_NO_CACHE"]
        else:
            os.environ["MARIAGE_NO_CACHE"] = old


def check_text(data: bytes | str) -> None:
    """Write ``data`` as a description and check it both ways; assert the properties."""
    path = _FOLDER / "fuzz.yaml"
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    path.write_bytes(raw)
    from mariage.spec.rulesload import _DOCUMENTS, _RULES_CACHE

    _RULES_CACHE.clear()
    _DOCUMENTS.clear()
    with _no_disk_cache(), _bounded():
        try:
            doc = load_document(path)
            check_document(doc)
            load_rules(path)
        except (SpecError, OptionError) as exc:
            _assert_located(exc, path)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = main(["check-spec", str(path)])
    text = err.getvalue()
    assert code in (0, 1), text
    assert "Traceback" not in text
    assert (text == "") == (code == 0), text
    if text:
        assert text.count("\n") == 1, text


def _assert_located(exc: Exception, path: Path) -> None:
    text = str(exc)
    assert "\n" not in text, text
    if isinstance(exc, OptionError):  # a default the option refuses: named, not placed
        assert "option" in text, text
        return
    assert isinstance(exc, SpecError)
    m = _LOCATED.match(text)
    assert m, f"not located: {text!r}"
    assert Path(m["file"]).name in (path.name, *[f"{n}.yaml" for n in BUNDLED]), text
    placeless = ("larger than", "file not found", "cannot read", "is a folder")
    if not any(p in exc.message for p in placeless):
        assert m["line"] is not None, f"no line:column in {text!r}"
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1


# ---------------------------------------------------------------- strategies
YAML_BITS = st.sampled_from([
    ":", " ", "\n", "  ", "-", "- ", "[", "]", "{", "}", ",", "&a ", "*a", "!!str ", "!!int ",
    "!!python/object:os.system ", "'", '"', "#", "|", ">", "?", "\t", "~", "null", "true",
    "1e999", "9" * 40, "0x1F", "0o17", "1:30", "2024-01-01", "<<: *a", "---", "...", "%YAML 1.1",
    "\x00", "\ufeff", "é", "\U0001F600", "\r\n",
])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A bundled description with a few cuts, insertions and moved lines."""
    text = BUNDLED[draw(st.sampled_from(sorted(BUNDLED)))]
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["cut", "insert", "swap", "indent", "dup"]))
        lines = text.split("\n")
        if kind == "cut":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + text[i + draw(st.integers(1, 40)):]
        elif kind == "insert":
            i = draw(st.integers(0, len(text)))
            bit = draw(st.one_of(YAML_BITS, st.text(max_size=8)))
            text = text[:i] + bit + text[i:]
        elif kind == "swap" and len(lines) > 2:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        elif kind == "indent":
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = " " * draw(st.integers(0, 7)) + lines[i].lstrip()
            text = "\n".join(lines)
        elif kind == "dup":
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
    return text


@st.composite
def nested(draw: st.DrawFn) -> str:
    """Nests of flow or block collections around and beyond the depth bound."""
    depth = draw(st.integers(1, MAX_DEPTH * 4))
    style = draw(st.sampled_from(["flow-seq", "flow-map", "block", "mixed"]))
    head = "extends: marianna\nruleset: deep\n" if draw(st.booleans()) else ""
    if style == "flow-seq":
        body = "sources: " + "[" * depth + "1" + "]" * depth
    elif style == "flow-map":
        body = "sources: " + "{a: " * depth + "1" + "}" * depth
    elif style == "block":
        body = "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "x"
    else:
        body = "sources: " + "".join(draw(st.sampled_from(["[", "{a: "]))
                                     for _ in range(depth)) + "1"
    return head + body + "\n"


@st.composite
def aliased(draw: st.DrawFn) -> str:
    """Anchors and aliases: fan-out bombs, recursion, aliases as keys, undefined aliases."""
    kind = draw(st.sampled_from(["bomb", "recursive", "key", "undefined", "fine", "merge"]))
    if kind == "bomb":
        fan = draw(st.integers(2, 12))
        levels = draw(st.integers(2, 12))
        lines = [f"l0: &l0 [{', '.join(['x'] * fan)}]"]
        lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * fan)}]" for i in range(1, levels)]
        return "\n".join(lines) + "\n"
    if kind == "recursive":
        inner = draw(st.sampled_from(["[1, *a]", "{b: *a}", "[[[*a]]]", "{b: [1, {c: *a}]}"]))
        return f"ruleset: r\na: &a {inner}\n"
    if kind == "key":
        return "a: &k name\n*k : 1\nb: &m {x: 1}\n? *m\n: 2\n"
    if kind == "undefined":
        return "extends: marianna\nruleset: u\nname: *nowhere\n"
    if kind == "merge":
        return "base: &b {x: 1}\nother:\n  <<: *b\n  y: 2\n"
    return ("extends: marianna\nruleset: al\nsources: &s\n  extra: {title: x}\n"
            "name: &n Aliased\nversion: 1\n")


JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20),
              st.floats(allow_nan=True), st.text(max_size=20)),
    lambda kids: st.one_of(st.lists(kids, max_size=4),
                           st.dictionaries(st.text(min_size=1, max_size=8), kids, max_size=4)),
    max_leaves=12)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*path, i))


_BASE = yaml.safe_load(BUNDLED["marianna"])
_BASE_PATHS = [p for p in _paths(_BASE) if p]


@st.composite
def wrong_types(draw: st.DrawFn) -> str:
    """A valid description with one value (anywhere) replaced by something else."""
    import copy

    data = copy.deepcopy(_BASE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_BASE_PATHS))
        node = data
        try:
            for part in path[:-1]:
                node = node[part]
            node[path[-1]] = draw(JSONISH)
        except (KeyError, IndexError, TypeError):
            continue
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


# ---------------------------------------------------------------- properties
@pytest.mark.slow
@FUZZ
@given(mutated())
def test_mutated_descriptions(text: str) -> None:
    check_text(text)


@pytest.mark.slow
@FUZZ
@given(nested())
def test_deep_nesting(text: str) -> None:
    check_text(text)


@pytest.mark.slow
@FUZZ
@given(aliased())
def test_aliases(text: str) -> None:
    check_text(text)


@pytest.mark.slow
@FUZZ
@given(wrong_types())
def test_wrong_types(text: str) -> None:
    check_text(text)


@pytest.mark.slow
@FUZZ
@given(st.binary(max_size=300))
def test_arbitrary_bytes(data: bytes) -> None:
    check_text(data)


@pytest.mark.parametrize("text", [
    "a: " + "[" * 1000 + "]" * 1000 + "\n",
    "l0: &l0 [x,x,x,x,x,x,x,x,x]\n" + "".join(
        f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 9)),
    "ruleset: r\na: &a [1, *a]\n",
    "extends: marianna\nruleset: x\nmatch: {end: {target: 100000000000}}\n",
    "extends: marianna\nruleset: x\noptions: {target: {max: 100000000000}}\n",
])
def test_the_issues_examples(text: str) -> None:
    # the examples of issue #13 item 2, through the same checks as the fuzzer's
    check_text(text)


def _run_long(minutes: float, examples: int) -> int:  # pragma: no cover - a manual hunt
    """Run this file under pytest, round after round with fresh seeds, until time is up."""
    import subprocess
    import time

    stop = time.monotonic() + minutes * 60
    env = dict(os.environ, MARIAGE_FUZZ="long", MARIAGE_FUZZ_EXAMPLES=str(examples))
    rounds = 0
    while True:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               __file__], env=env, check=False)
        if done.returncode != 0:
            return done.returncode
        rounds += 1
        print(f"round {rounds}: every property passed {examples} examples", flush=True)
        if time.monotonic() >= stop:
            return 0


if __name__ == "__main__":  # pragma: no cover
    import argparse

    ap = argparse.ArgumentParser(description="Fuzz spec loading for a while.")
    ap.add_argument("--long", action="store_true", help="run rounds until --minutes are up")
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--examples", type=int, default=2000, help="examples per property and round")
    ns = ap.parse_args()
    sys.exit(_run_long(ns.minutes if ns.long else 1.0, ns.examples))
