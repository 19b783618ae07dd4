"""The API pages' examples run: the notation tutorial (as doctests) and the conformance
example (against the reference engine instead of ``./my-engine``)."""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_read_and_walk_a_record_tutorial_runs(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = doctest.testfile(str(DOCS / "api-notation.rst"), module_relative=False,
                           optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert res.failed == 0 and res.attempted >= 20
    assert (tmp_path / "match.mrg").is_file()


def test_the_conformance_example_runs() -> None:
    text = (DOCS / "api-conformance.rst").read_text(encoding="utf-8")
    m = re.search(r"\.\. code-block:: python\n\n((?:   .*\n|\n)+)", text)
    assert m is not None
    code = "\n".join(line[3:] for line in m.group(1).splitlines())
    assert "./my-engine --json" in code
    code = code.replace("./my-engine --json", f"{sys.executable} -m mariage engine")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "api-conformance.rst", "exec"), {})
    ok, count = out.getvalue().split()
    assert ok == "True" and int(count) > 0
