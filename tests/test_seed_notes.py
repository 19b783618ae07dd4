"""The source notes in seeds/ and the specs' source citations agree with each other.

- every rule ID named in a note exists in some ruleset;
- every rule of every ruleset (except the shared core rules) is named in a note;
- each note numbers its clauses 1, 2, 3... without gaps;
- every ``KEY ¶N`` locator in spec/*.yaml names a listed source whose note has
  clause N, and cross-references between notes point at existing clauses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import mariage
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
SPECS = sorted((ROOT / "spec").glob("*.yaml"))
NOTES = sorted(SEEDS.glob("*.md"))

CLAUSE = re.compile(r"^### ¶(\d+)\b", re.MULTILINE)
TICKED = re.compile(r"`([^`\s]+)`")
RULE_ID = re.compile(r"^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+$")
FILE_LIKE = re.compile(r"\.(?:md|ya?ml|py|txt|json)$")
LOCATOR = re.compile(r"^(\S+)(?: ¶(\d+))?$")
CROSS_REF = re.compile(r"\b(notes|00[0-4]) ¶(\d+)")


def clauses(path: Path) -> list[int]:
    return [int(n) for n in CLAUSE.findall(path.read_text(encoding="utf-8"))]


def ids_in_notes() -> dict[str, set[str]]:
    """Rule-ID-shaped tokens in backticks, per note file name."""
    out: dict[str, set[str]] = {}
    for path in NOTES:
        tokens = TICKED.findall(path.read_text(encoding="utf-8"))
        out[path.name] = {t for t in tokens if RULE_ID.match(t) and not FILE_LIKE.search(t)}
    return out


def rule_ids() -> set[str]:
    """Every rule ID of every ruleset, disabled ones included."""
    ids: set[str] = set()
    for name in mariage.list_rulesets():
        ids.update(info.id for info in mariage.load_rules(name, {}).infos)
    for spec in SPECS:
        ids.update(_ids_in(yaml.safe_load(spec.read_text(encoding="utf-8"))))
    return ids


def _ids_in(node: Any, top: str = "") -> set[str]:
    out: set[str] = set()
    if isinstance(node, dict):
        if "id" in node and "text" in node and top != "options":
            out.add(str(node["id"]))
        for key, value in node.items():
            out |= _ids_in(value, top or str(key))
    elif isinstance(node, list):
        for value in node:
            out |= _ids_in(value, top)
    return out


def locators(node: Any, path: str = "") -> list[tuple[str, str]]:
    """(path, locator) for every ``source:`` value in a spec document."""
    out: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{path}.{key}" if path else str(key)
            if key == "source":
                for loc in value if isinstance(value, list) else [value]:
                    out.append((here, str(loc)))
            elif key != "sources":
                out += locators(value, here)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += locators(value, f"{path}.{i}")
    return out


def sources_of(spec: Path) -> dict[str, str]:
    """The spec's source keys (its parents' too) mapped to note files."""
    doc = yaml.safe_load(spec.read_text(encoding="utf-8"))
    parent = doc.get("extends")
    out = sources_of(spec.parent / f"{parent}.yaml") if parent else {}
    for key, entry in (doc.get("sources") or {}).items():
        out[key] = entry["file"]
    return out


def test_there_is_a_note_per_source_text() -> None:
    names = {p.name for p in NOTES}
    assert {"000.md", "001.md", "002.md", "003.md", "004.md", "notes.md"} <= names
    texts = sorted((ROOT.parent / "shared" / "seeds").glob("*.txt"))
    if texts:  # the source texts sit beside the checkout in the project workspace
        assert {f"{t.name[:3]}.md" for t in texts} <= names


@pytest.mark.parametrize("note", NOTES, ids=lambda p: p.name)
def test_clauses_are_numbered_without_gaps(note: Path) -> None:
    numbers = clauses(note)
    if note.name == "README.md":
        assert numbers == []
        return
    assert numbers, f"{note.name} has no clauses"
    assert numbers == list(range(1, len(numbers) + 1)), f"{note.name}: {numbers}"


def test_every_id_in_the_notes_is_a_rule() -> None:
    known = rule_ids()
    unknown = {f"{name}: {rid}" for name, ids in ids_in_notes().items()
               for rid in ids - known}
    assert not unknown, sorted(unknown)


def test_every_rule_is_in_some_note() -> None:
    named = set().union(*ids_in_notes().values())
    missing = {rid for rid in rule_ids() if not rid.startswith("core.")} - named
    assert not missing, sorted(missing)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: p.name)
def test_source_locators_point_at_clauses(spec: Path) -> None:
    files = sources_of(spec)
    doc = yaml.safe_load(spec.read_text(encoding="utf-8"))
    bad = []
    for where, loc in locators(doc):
        m = LOCATOR.match(loc)
        if not m:
            bad.append(f"{where}: '{loc}' is not KEY or KEY ¶N")
            continue
        key, number = m.group(1), m.group(2)
        if key not in files:
            bad.append(f"{where}: source '{key}' is not listed under 'sources'")
        elif number is not None and int(number) not in clauses(ROOT / files[key]):
            bad.append(f"{where}: {files[key]} has no clause {number}")
    assert not bad, bad


def test_cross_references_between_notes_exist() -> None:
    numbers = {p.stem: set(clauses(p)) for p in NOTES}
    bad = []
    for path in NOTES:
        for key, number in CROSS_REF.findall(path.read_text(encoding="utf-8")):
            if int(number) not in numbers[key]:
                bad.append(f"{path.name}: {key} ¶{number}")
    assert not bad, bad
