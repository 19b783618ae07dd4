"""Load game descriptions: YAML with positions, ``extends:``, schema and consistency checks.

A description is read with PyYAML's safe composer; every value keeps the
file, line and column it came from, so that every problem can be reported
where it is. A ruleset may ``extends:`` another: mappings merge key by key,
anything else is replaced, and ``null`` removes a key.

>>> from mariage.specload import load_document
>>> doc = load_document("marianna")
>>> doc.data["match"]["end"]["target"]
501
>>> doc.where("match.end.target").file.endswith("marianna.yaml")
True
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .errors import Location, SpecError, UnknownRulesetError
from .resources import schema_path, spec_dir

__all__ = ["Document", "list_rulesets", "load_document", "read_yaml"]

Marks = dict[tuple[str, ...], Location]


@dataclass
class Document:
    """A merged game description with the source position of every value."""

    data: dict[str, Any]
    marks: Marks = field(default_factory=dict)
    files: list[str] = field(default_factory=list)

    def where(self, path: str | tuple[str, ...]) -> Location | None:
        """The position of ``path`` (dotted or tuple), or of its nearest ancestor."""
        key = tuple(path.split(".")) if isinstance(path, str) else tuple(path)
        while True:
            if key in self.marks:
                return self.marks[key]
            if not key:
                return None
            key = key[:-1]


def _plain(node: yaml.Node, file: str, path: tuple[str, ...], marks: Marks) -> Any:
    """Turn a composed YAML node into plain data, recording a mark per path."""
    marks[path] = Location(file, node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node, file)
            if not isinstance(key, str | int | bool):
                raise SpecError("mapping keys must be plain scalars",
                                location=Location(file, key_node.start_mark.line + 1,
                                                  key_node.start_mark.column + 1),
                                path=".".join(path), code="S002")
            skey = _key_text(key)
            if skey in out:
                raise SpecError(f"key '{skey}' appears twice",
                                location=Location(file, key_node.start_mark.line + 1,
                                                  key_node.start_mark.column + 1),
                                path=".".join(path), code="S002")
            out[skey] = _plain(value_node, file, (*path, skey), marks)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, file, (*path, str(i)), marks) for i, item in enumerate(node.value)]
    return _scalar(node, file)


def _key_text(key: object) -> str:
    if key is True:
        return "true"
    if key is False:
        return "false"
    return str(key)


def _scalar(node: yaml.Node, file: str) -> Any:
    constructor = yaml.SafeLoader("")
    try:
        return constructor.construct_object(node, deep=True)
    except yaml.YAMLError as exc:  # pragma: no cover - composer already checked tags
        raise SpecError(f"bad value: {exc}", location=Location(
            file, node.start_mark.line + 1, node.start_mark.column + 1), code="S002") from None


_READ_CACHE: dict[tuple[str, str, int, int], tuple[Any, Marks]] = {}


def read_yaml(path: Path, display: str | None = None) -> tuple[Any, Marks]:
    """Read one YAML file safely; return (data, marks). Errors carry file:line:column.

    A file read before, unchanged since (same modification time and size), is
    not parsed again; the caller always gets its own copy of the data.
    """
    name = display or str(path)
    try:
        stat = path.stat()
        key = (str(path.resolve()), name, stat.st_mtime_ns, stat.st_size)
    except OSError:
        key = None
    if key is not None and key in _READ_CACHE:
        data, marks = _READ_CACHE[key]
        return copy.deepcopy(data), dict(marks)
    data, marks = _read_yaml(path, name)
    if key is not None:
        if len(_READ_CACHE) > 256:  # bounded, whatever is loaded
            _READ_CACHE.clear()
        _READ_CACHE[key] = (copy.deepcopy(data), dict(marks))
    return data, marks


def _read_yaml(path: Path, name: str) -> tuple[Any, Marks]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError("file not found", location=Location(name), code="S003") from None
    except UnicodeDecodeError as exc:
        before = exc.object[:exc.start]
        loc = Location(name, before.count(b"\n") + 1, exc.start - before.rfind(b"\n"))
        raise SpecError(f"not UTF-8 text (byte {exc.start})", location=loc,
                        code="S003") from None
    except OSError as exc:
        raise SpecError(f"cannot read: {exc.strerror}", location=Location(name),
                        code="S003") from None
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        loc = Location(name, mark.line + 1, mark.column + 1) if mark else Location(name)
        raise SpecError(f"YAML syntax: {exc.problem}", location=loc, code="S002") from None
    except yaml.YAMLError as exc:
        raise SpecError(f"YAML: {exc}", location=Location(name), code="S002") from None
    if node is None:
        raise SpecError("empty document", location=Location(name, 1, 1), code="S002")
    marks: Marks = {}
    return _plain(node, name, (), marks), marks


def list_rulesets(directory: Path | None = None) -> list[str]:
    """Names of the bundled rulesets, in a stable order.

    >>> "marianna" in list_rulesets()
    True
    """
    base = directory or spec_dir()
    return sorted(p.stem for p in base.glob("*.yaml"))


def _resolve_file(name_or_path: str, relative_to: Path | None) -> Path:
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml") and (candidate.exists() or relative_to is None):
        return candidate
    if relative_to is None and ("/" in name_or_path or candidate.is_file()):
        if candidate.is_dir():
            raise SpecError("is a folder, not a game description", location=Location(
                name_or_path), code="S003")
        return candidate  # a path: read it, and report what is wrong with it
    for base in ([relative_to] if relative_to else []) + [spec_dir()]:
        p = base / f"{name_or_path}.yaml"
        if p.exists():
            return p
    raise UnknownRulesetError(name_or_path, list_rulesets())


def _merge(base: Any, over: Any, base_marks: Marks, over_marks: Marks,
           path: tuple[str, ...], out_marks: Marks) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        result: dict[str, Any] = {}
        for k in base:
            if k in over:
                if over[k] is None:
                    continue
                result[k] = _merge(base[k], over[k], base_marks, over_marks, (*path, k), out_marks)
            else:
                result[k] = base[k]
                _copy_marks(base_marks, (*path, k), out_marks)
        for k in over:
            if k not in base and over[k] is not None:
                result[k] = over[k]
                _copy_marks(over_marks, (*path, k), out_marks)
        if path in over_marks:
            out_marks[path] = over_marks[path]
        return result
    _copy_marks(over_marks, path, out_marks)
    return over


def _copy_marks(src: Marks, prefix: tuple[str, ...], dst: Marks) -> None:
    n = len(prefix)
    for k, v in src.items():
        if k[:n] == prefix:
            dst[k] = v


def load_document(name_or_path: str | Path, *, _seen: tuple[str, ...] = ()) -> Document:
    """Load a ruleset by bundled name or by file path, resolving ``extends:``.

    Runs the JSON Schema check on the merged result; consistency checks are
    done when the description is compiled (see :mod:`mariage.compile`).
    """
    path = _resolve_file(str(name_or_path), None if not _seen else Path(_seen[-1]).parent)
    display = _display(path)
    data, marks = read_yaml(path, display)
    if not isinstance(data, dict):
        raise SpecError("a game description must be a mapping", location=marks.get(()),
                        code="S002")
    parent_name = data.get("extends")
    files = [display]
    if parent_name is not None:
        if not isinstance(parent_name, str):
            raise SpecError("'extends' names a ruleset", location=marks.get(("extends",)),
                            path="extends", code="S001")
        try:
            parent_path = _resolve_file(parent_name, path.parent)
        except UnknownRulesetError as exc:
            raise SpecError(str(exc), location=marks.get(("extends",)), path="extends",
                            code="S004") from None
        chain = (*_seen, str(path))
        if parent_path.resolve() in {Path(p).resolve() for p in chain}:
            raise SpecError("'extends' makes a cycle: " + " -> ".join([*chain, str(parent_path)]),
                            location=marks.get(("extends",)), path="extends", code="S004")
        parent = load_document(parent_path, _seen=chain)
        out_marks: Marks = {}
        child = {k: v for k, v in data.items() if k != "extends"}
        merged = _merge(parent.data, child, parent.marks, marks, (), out_marks)
        merged["parent"] = parent.data["ruleset"]
        out_marks[("parent",)] = marks[("extends",)]
        data, marks = merged, out_marks
        files = parent.files + files
    doc = Document(data, marks, files)
    if not _seen:
        validate_schema(doc)
    return doc


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


_SCHEMA_CACHE: dict[str, Any] = {}


def game_schema() -> dict[str, Any]:
    """The JSON Schema of a game description (``spec/schema/game.schema.json``)."""
    if "game" not in _SCHEMA_CACHE:
        _SCHEMA_CACHE["game"] = json.loads(schema_path().read_text(encoding="utf-8"))
    schema: dict[str, Any] = _SCHEMA_CACHE["game"]
    return schema


_VALIDATOR: list[jsonschema.Draft202012Validator] = []


def _schema_errors(data: Any) -> Iterator[jsonschema.ValidationError]:
    if not _VALIDATOR:  # building a validator resolves the whole schema: do it once
        _VALIDATOR.append(jsonschema.Draft202012Validator(game_schema()))
    errors = _VALIDATOR[0].iter_errors(data)
    return iter(sorted(errors, key=lambda e: list(map(str, e.path))))


def validate_schema(doc: Document, data: Any = None, context: str = "") -> None:
    """Check ``doc`` (or ``data`` with ``doc``'s marks) against the schema.

    Raises :class:`SpecError` for the first error, naming file:line:column, the
    path in the document and what the schema expected.
    """
    target = doc.data if data is None else data
    for err in _schema_errors(target):
        best = jsonschema.exceptions.best_match([err])
        path = tuple(str(p) for p in best.absolute_path)
        if best.validator == "additionalProperties" and isinstance(best.instance, dict):
            known = best.schema.get("properties", {})
            path += tuple(k for k in best.instance if k not in known)[:1]
        raise SpecError(f"{context}{_explain(best)}", location=doc.where(path),
                        path=".".join(path), code="S001")


def _explain(err: jsonschema.ValidationError) -> str:
    if err.validator == "additionalProperties":
        return f"unexpected key: {err.message}"
    if err.validator == "required":
        return f"missing key: {err.message}"
    if err.validator == "enum":
        return f"expected one of {err.validator_value}, got {err.instance!r}"
    if err.validator == "type":
        return f"expected {err.validator_value}, got {type(err.instance).__name__} {err.instance!r}"
    return err.message


def deep_copy(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a plain document."""
    return copy.deepcopy(data)
