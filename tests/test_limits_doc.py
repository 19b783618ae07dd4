"""docs/limits.rst states the bounds the code enforces (issue #13 item 6)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mariage.conformance import protocol
from mariage.notation import reader, search
from mariage.spec import specload

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGE = (DOCS / "limits.rst").read_text(encoding="utf-8")


def _kib(n: int) -> str:
    return f"{n // 1024} KiB" if n < 1 << 20 else f"{n >> 20} MiB"


@pytest.mark.parametrize(("name", "value", "shown"), [
    ("MAX_SPEC_BYTES", specload.MAX_SPEC_BYTES, _kib(specload.MAX_SPEC_BYTES)),
    ("MAX_DEPTH", specload.MAX_DEPTH, f"{specload.MAX_DEPTH} levels"),
    ("MAX_NODES", specload.MAX_NODES, f"{specload.MAX_NODES:,}"),
    ("MAX_EXTENDS", specload.MAX_EXTENDS, f"{specload.MAX_EXTENDS} descriptions"),
    ("MAX_LINE", reader.MAX_LINE, _kib(reader.MAX_LINE)),
    ("MAX_RECORD", reader.MAX_RECORD, _kib(reader.MAX_RECORD)),
    ("MAX_SYNTAX_ERRORS", reader.MAX_SYNTAX_ERRORS, f"at most {reader.MAX_SYNTAX_ERRORS}"),
    ("MAX_DIGITS", reader.MAX_DIGITS, f"{reader.MAX_DIGITS} digits"),
    ("DEFAULT_LIMIT", search.DEFAULT_LIMIT, f"{search.DEFAULT_LIMIT:,}"),
    ("MAX_LINE", protocol.MAX_LINE, _kib(protocol.MAX_LINE)),
])
def test_each_bound_is_stated_with_its_value(name: str, value: int, shown: str) -> None:
    assert name in PAGE
    assert shown in PAGE, f"{name} = {value}: the page should say {shown!r}"


def test_the_hostile_input_bounds_are_stated() -> None:
    from mariage.commands import match_cmd, validate
    from mariage.conformance import suite
    from mariage.notation import batch, cluster
    from mariage.spec import options

    records = (DOCS / "limits-records.rst").read_text(encoding="utf-8")
    for name, shown, page in [
        ("MAX_RATIO", f"{batch.MAX_RATIO:,} (``MAX_RATIO``", records),
        ("MAX_KEPT", f"at most {cluster.MAX_KEPT:,} problems per file", records + PAGE),
        ("SCHEDULER_TIMEOUT", f"{cluster.SCHEDULER_TIMEOUT:g} s (``SCHEDULER_TIMEOUT``", PAGE),
        ("MAX_GAMES", f"1 to {match_cmd.MAX_GAMES:,} (``MAX_GAMES``", PAGE),
        ("MAX_PLAYOUTS", f"1 to {match_cmd.MAX_PLAYOUTS:,}", PAGE),
        ("MAX_TIME", f"at most {match_cmd.MAX_TIME:g}", PAGE),
        ("MAX_SHOWN", f"to {options.MAX_SHOWN} characters (``MAX_SHOWN``", PAGE),
        ("MAX_TEST_BYTES", f"{suite.MAX_TEST_BYTES >> 20} MiB", PAGE),
        ("MAX_PERFT_DEPTH", f"0 to {suite.MAX_PERFT_DEPTH:,} (``MAX_PERFT_DEPTH``", PAGE),
        ("MAX_SEND_LONG", f"{suite.MAX_SEND_LONG >> 20} MiB (``MAX_SEND_LONG``", PAGE),
        ("MAX_JOBS", f"1 to {validate.MAX_JOBS} worker processes", PAGE),
    ]:
        assert name in page and shown in " ".join(page.split()), (name, shown)


def test_the_integer_bound_is_stated() -> None:
    exponent = len(str(specload.MAX_INT)) - 1
    assert 10**exponent == specload.MAX_INT
    assert f"10\\ :sup:`{exponent}`" in PAGE


def test_the_schema_bounds_are_stated() -> None:
    schema = specload.game_schema()
    target = schema["properties"]["match"]["properties"]["end"]["properties"]["target"]
    assert f"match target at most {target['maximum']:,}" in PAGE
    assert f"{schema['properties']['options']['maxProperties']} per description" in PAGE
    values = schema["$defs"]["option"]["properties"]["values"]["maxItems"]
    assert f"{values} values per ``enum`` option" in PAGE


def test_the_page_is_in_the_toctree() -> None:
    index = (DOCS / "index.rst").read_text(encoding="utf-8")
    toctrees = re.findall(r"\.\. toctree::\n((?:[ \t]+.*\n|\n)+)", index)
    assert any(re.search(r"^\s+limits$", t, re.M) for t in toctrees)


def test_each_section_is_there() -> None:
    for title in ("Exit codes", "Game descriptions", "Game records", "Engine protocol",
                  "Conformance runner", "Your own rulesets"):
        assert f"\n{title}" in PAGE


def test_a_process_holds_the_rules_it_compiled_from_a_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's "Rules held by a process": an edited description is read again only by
    a new process, with or without the disk cache."""
    from mariage import load_rules

    assert "Rules held by a process" in PAGE
    monkeypatch.setenv("MARIAGE_NO_CACHE", "1")
    house = tmp_path / "house.yaml"
    house.write_text("extends: mariglia\nruleset: house18\nname: House Mariglia\n",
                     encoding="utf-8")
    first = load_rules(house)
    house.write_text("extends: mariglia\nruleset: house18\nname: Another Name\n",
                     encoding="utf-8")
    assert load_rules(house) is first
    assert load_rules(str(house)) is first
