"""Load game descriptions: YAML with positions, ``extends:``, schema and consistency checks.

A description is read with PyYAML's safe composer; every value keeps the
file, line and column it came from, so that every problem can be reported
where it is. A ruleset may ``extends:`` another: mappings merge key by key,
anything else is replaced, and ``null`` removes a key.

>>> from mariage.spec.specload import load_document
>>> doc = load_document("marianna")
>>> doc.data["match"]["end"]["target"]
501
>>> doc.where("match.end.target").file.endswith("marianna.yaml")
True
"""

from __future__ import annotations

import bisect
import copy
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mariage.errors import Location, SpecError, SpecFileError, UnknownRulesetError
from mariage.infile import real_path
from mariage.lazyrecord import field, record
from mariage.resources import schema_path

from .specnames import (  # (re-exported: names to files, spec.specnames)
    EXTENDS_ANYWHERE_ENV,
    RULESET_NAME,
    SEARCH_PATH_ENV,
    _looks_like_path,
    _named_past,
    _register,
    cache_context,
    extends_anywhere,
    is_ruleset_name,
    known_rulesets,
    list_rulesets,
    on_registry_change,
    resolve_name,
    resolve_parent,
    resolve_ruleset,
    search_path,
    unregister_spec,
)

if TYPE_CHECKING:  # jsonschema is imported only when a description is checked
    import jsonschema

__all__ = [
    "EXTENDS_ANYWHERE_ENV",
    "MAX_DEPTH",
    "MAX_EXTENDS",
    "MAX_INT",
    "MAX_NODES",
    "MAX_SPEC_BYTES",
    "RULESET_NAME",
    "SEARCH_PATH_ENV",
    "Document",
    "cache_context",
    "expect_document",
    "extends_anywhere",
    "is_ruleset_name",
    "known_rulesets",
    "list_rulesets",
    "load_document",
    "on_registry_change",
    "parse_yaml_text",
    "read_yaml",
    "register_spec",
    "resolve_name",
    "resolve_parent",
    "resolve_ruleset",
    "search_path",
    "unregister_spec",
]

Marks = dict[tuple[str, ...], Location]


@record
class Document:
    """A merged game description with the source position of every value."""

    data: dict[str, Any]
    marks: Marks = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    """The files read, resolved (``files`` are the names shown in messages)."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # marks packed as plain tuples: a pickle of thousands of frozen Locations
        # takes longer to load than the cache saves
        names = sorted({loc.file for loc in self.marks.values()})
        index = {n: i for i, n in enumerate(names)}
        packed = [(k, index[v.file], v.line, v.column) for k, v in self.marks.items()]
        return (_restore_document, (self.data, names, packed, self.files, self.paths))

    def where(self, path: str | tuple[str, ...]) -> Location | None:
        """The position of ``path`` (dotted or tuple), or of its nearest ancestor."""
        key = tuple(path.split(".")) if isinstance(path, str) else tuple(path)
        while True:
            if key in self.marks:
                return self.marks[key]
            if not key:
                return None
            key = key[:-1]


def expect_document(doc: object, call: str) -> Document:
    """``doc`` if it is a :class:`Document`, else a ``TypeError`` naming ``call`` (a name
    or ``None`` failed deep inside, as an ``AttributeError``)."""
    if not isinstance(doc, Document):
        raise TypeError(f"{call}: doc must be a Document (load_document(name) makes one), "
                        f"not {type(doc).__name__}")
    return doc


def _restore_document(data: dict[str, Any], names: list[str],
                      packed: list[tuple[tuple[str, ...], int, int, int]], files: list[str],
                      paths: list[str]) -> Document:
    return Document(data, _LazyMarks(names, packed), files, paths)


class _LazyMarks(dict[tuple[str, ...], Location]):
    """Marks of a cached document, made into Locations only when first looked at.

    ``mariage list`` never looks at them; an error message looks at a few.
    """

    def __init__(self, names: list[str], packed: list[tuple[tuple[str, ...], int, int, int]]
                 ) -> None:
        super().__init__()
        self._pending: tuple[list[str], list[tuple[tuple[str, ...], int, int, int]]] | None = (
            names, packed)

    def _fill(self) -> None:
        if self._pending is None:
            return
        names, packed = self._pending
        self._pending = None
        make, setattr_ = object.__new__, object.__setattr__
        for key, i, line, column in packed:
            loc = make(Location)
            setattr_(loc, "file", names[i])
            setattr_(loc, "line", line)
            setattr_(loc, "column", column)
            dict.__setitem__(self, key, loc)

    def __getitem__(self, key: tuple[str, ...]) -> Location:
        self._fill()
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._fill()
        return dict.__contains__(self, key)

    def get(self, key: tuple[str, ...], default: Any = None) -> Any:
        self._fill()
        return dict.get(self, key, default)

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[tuple[str, ...], Location]:
        self._fill()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, _LazyMarks):
            other._fill()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        self._fill()
        return (dict, (dict(dict.items(self)),))


from .yamlread import (  # noqa: E402 - the reader needs Marks above
    _READ_CACHE,  # noqa: F401 - tests reach the reader's cache through this module
    MAX_DEPTH,
    MAX_EXTENDS,
    MAX_INT,
    MAX_NODES,
    MAX_SPEC_BYTES,
    _compose_with,  # noqa: F401 - as above
    parse_yaml_text,
    read_yaml,
)


def register_spec(path: str | Path) -> str:
    """Make the description in ``path`` known by its ``ruleset`` name; return that name.

    Afterwards a record whose ``[Ruleset "NAME"]`` names it, or
    ``load_rules("NAME")``, reads this file. The description is loaded and
    checked against the schema first, so a bad file fails here, with its
    position.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "house.yaml").write_text(
    ...     "extends: marianna\\nruleset: house\\nname: House rules\\n", encoding="utf-8")
    >>> register_spec(folder / "house.yaml")
    'house'
    >>> load_document("house").data["name"]
    'House rules'
    >>> unregister_spec("house")
    """
    doc = load_document(Path(path))
    name = str(doc.data["ruleset"])
    _register(name, real_path(path))
    return name


def _merge(base: Any, over: Any, base_marks: _MarkIndex, over_marks: _MarkIndex,
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
                base_marks.copy_under((*path, k), out_marks)
        for k in over:
            if k not in base and over[k] is not None:
                result[k] = over[k]
                over_marks.copy_under((*path, k), out_marks)
        if path in over_marks.marks:
            out_marks[path] = over_marks.marks[path]
        elif path in base_marks.marks:
            out_marks[path] = base_marks.marks[path]
        return result
    over_marks.copy_under(path, out_marks)
    return over


class _MarkIndex:
    """Marks sorted by path, so that the marks under a path are one slice (linear merging)."""

    def __init__(self, marks: Marks) -> None:
        self.marks = marks
        self.keys = sorted(marks)

    def copy_under(self, prefix: tuple[str, ...], dst: Marks) -> None:
        n = len(prefix)
        i = bisect.bisect_left(self.keys, prefix)
        keys, marks = self.keys, self.marks
        while i < len(keys) and keys[i][:n] == prefix:
            dst[keys[i]] = marks[keys[i]]
            i += 1


def load_document(name_or_path: str | Path, *, _seen: tuple[str, ...] = ()) -> Document:
    """Load a ruleset by name or by file path, resolving ``extends:``.

    Runs the JSON Schema check on the merged result; consistency checks are
    done when the description is compiled (see :mod:`mariage.spec.compile`). A
    description loaded before, whose files have not changed, comes from the
    disk cache (:mod:`mariage.spec.diskcache`).

    >>> load_document("cinquecento").files[-1].endswith("cinquecento.yaml")
    True
    """
    if _seen:
        return _load_document(name_or_path, _seen)
    from . import diskcache

    path = resolve_ruleset(name_or_path)
    key = diskcache.make_key("document", *cache_context(path))
    hit = diskcache.load(key)
    if isinstance(hit, Document):
        return hit
    doc = _load_document(path, ())
    diskcache.store(key, doc, doc.paths)
    return doc


def _load_document(name_or_path: str | Path, _seen: tuple[str, ...]) -> Document:
    path = resolve_ruleset(name_or_path, None if not _seen else Path(_seen[-1]).parent)
    display = _display(path)
    data, marks = read_yaml(path, display)
    if not isinstance(data, dict):
        raise SpecError("a game description must be a mapping", location=marks.get(()),
                        code="S002")
    parent_name = data.get("extends")
    files = [display]
    paths = [str(real_path(path))]
    if parent_name is not None:
        if not isinstance(parent_name, str):
            raise SpecError("'extends' names a ruleset", location=marks.get(("extends",)),
                            path="extends", code="S001")
        if len(_seen) >= MAX_EXTENDS:
            raise SpecError(f"'extends' goes more than {MAX_EXTENDS} descriptions deep",
                            location=marks.get(("extends",)), path="extends", code="S004")
        try:
            parent_path = resolve_ruleset(parent_name, path.parent)
        except SpecFileError as exc:
            raise SpecError(f"'extends: {parent_name[:200]}': {exc.message}",
                            location=marks.get(("extends",)), path="extends",
                            code="S004") from None
        except UnknownRulesetError as exc:
            raise SpecError(str(exc), location=marks.get(("extends",)), path="extends",
                            code="S004") from None
        if not _looks_like_path(parent_name) and real_path(parent_path) == real_path(path):
            parent_path = _named_past(parent_name, path) or parent_path
        chain = (*_seen, str(path))
        if real_path(parent_path) in {real_path(p) for p in chain}:
            raise SpecError("'extends' makes a cycle: " + " -> ".join([*chain, str(parent_path)]),
                            location=marks.get(("extends",)), path="extends", code="S004")
        try:
            parent = _load_document(parent_path, chain)
        except SpecFileError as exc:  # the parent is named here: say where
            raise SpecError(f"'extends: {parent_name[:200]}': {exc.message}",
                            location=marks.get(("extends",)), path="extends",
                            code="S004") from None
        if not isinstance(parent.data.get("ruleset"), str):
            raise SpecError("missing key: 'ruleset' is a required property",
                            location=parent.where(()), path="ruleset", code="S001")
        out_marks: Marks = {}
        child = {k: v for k, v in data.items() if k != "extends"}
        merged = _merge(parent.data, child, _MarkIndex(parent.marks), _MarkIndex(marks), (),
                        out_marks)
        merged["parent"] = parent.data["ruleset"]
        out_marks[("parent",)] = marks[("extends",)]
        data, marks = merged, out_marks
        files = parent.files + files
        paths = parent.paths + paths
    doc = Document(data, marks, files, paths)
    if not _seen:
        validate_schema(doc)
    return doc


def _display(path: Path) -> str:
    try:
        return str(real_path(path).relative_to(Path.cwd()))
    except (ValueError, OSError):
        return str(path)


_SCHEMA_CACHE: dict[str, Any] = {}


def game_schema() -> dict[str, Any]:
    """The JSON Schema of a game description (``spec/schema/game.schema.json``)."""
    if "game" not in _SCHEMA_CACHE:
        import json

        _SCHEMA_CACHE["game"] = json.loads(schema_path().read_text(encoding="utf-8"))
    schema: dict[str, Any] = _SCHEMA_CACHE["game"]
    return schema


_VALIDATOR: list[jsonschema.Draft202012Validator] = []


def _whole_number(_checker: object, instance: object) -> bool:
    """The schema's ``integer``: a whole number as written, never a float or a boolean.

    JSON Schema counts ``2.0`` as an integer; a description read from YAML keeps
    ``2.0`` a float, which no count, index or range of the rules can take.
    """
    return isinstance(instance, int) and not isinstance(instance, bool)


def _validator() -> jsonschema.Draft202012Validator:
    if not _VALIDATOR:  # building a validator resolves the whole schema: do it once
        import jsonschema

        base = jsonschema.Draft202012Validator
        strict = jsonschema.validators.extend(  # type: ignore[no-untyped-call, unused-ignore]
            base, type_checker=base.TYPE_CHECKER.redefine("integer", _whole_number))
        _VALIDATOR.append(strict(game_schema()))
    return _VALIDATOR[0]


#: what an object's schema may say and still leave a value under one of its keys to be
#: checked alone, where the object keeps its keys (``required``, ``additionalProperties``
#: false and the counts of keys hold while no key comes or goes)
_PER_KEY = frozenset({"type", "description", "title", "$comment", "properties", "required",
                      "additionalProperties", "minProperties", "maxProperties",
                      "propertyNames", "$schema", "$id", "$defs"})


def _resolved(node: Any) -> Any:
    """``node`` itself, or what its lone ``$ref`` (``#/...``, beside a description at
    most) names; ``None`` where it says more beside its reference."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if set(node) - {"$ref", "description"} or not str(ref).startswith("#/"):
            return None
        node = game_schema()
        for part in str(ref)[2:].split("/"):
            node = node.get(part) if isinstance(node, dict) else None
    return node


def _checked_alone(data: Any, base: Any, path: list[str]) -> tuple[Any, Any]:
    """The value of ``data`` to check again where an option wrote at ``path``, and its
    schema: the value written, where its key was in ``base`` (valid) and each schema on
    the way asks nothing of its object but of each key's value; else the nearest value
    holding it that can be checked alone (the object a key was added to, at most the
    whole document)."""
    node: Any = game_schema()
    for part in path:
        here = _resolved(node)
        if not (isinstance(data, dict) and isinstance(base, dict) and part in base
                and part in data and isinstance(here, dict)
                and here.get("type") == "object" and set(here) <= _PER_KEY):
            break
        extra = here.get("additionalProperties")
        sub = here.get("properties", {}).get(part, extra if isinstance(extra, dict) else None)
        if sub is None:
            break
        data, base, node = data[part], base[part], sub
    return data, node


def _written_valid(data: Any, base: Any, written: Iterable[str]) -> bool:
    """Whether every value options wrote into ``data`` (a copy of the valid ``base``, at
    the dotted paths ``written``) is valid where it stands, checked alone
    (:func:`_checked_alone`): then ``data`` is valid. An option's values are so checked
    against the few keys they set, not their whole sections (twice as quick a compile)."""
    validator = _validator()
    for path in written:
        value, node = _checked_alone(data, base, path.split("."))
        if value is data or not validator.evolve(schema=node).is_valid(value):
            return False
    return True


def _schema_errors(data: Any, base: Any = None, written: Iterable[str] | None = None
                   ) -> list[tuple[tuple[str, ...], jsonschema.ValidationError]]:
    """Schema errors of ``data`` as (path prefix, error), sorted by path.

    With ``base`` (data already found valid, with the same top-level keys),
    only the top-level sections that differ from it are checked again.
    """
    if written is not None:  # options wrote there alone: checked there, else the whole
        return [] if _written_valid(data, base, written) else _schema_errors(data)
    validator = _validator()
    sections = game_schema().get("properties", {})
    found: list[tuple[tuple[str, ...], jsonschema.ValidationError]]
    if (isinstance(base, dict) and isinstance(data, dict) and base.keys() == data.keys()
            and all(k in sections for k in data)):
        found = [((str(k),), err) for k in data if data[k] != base[k]
                 for err in validator.evolve(schema=sections[k]).iter_errors(data[k])]
    else:
        found = [((), err) for err in validator.iter_errors(data)]
    return sorted(found, key=lambda pe: [*pe[0], *map(str, pe[1].path)])


def validate_schema(doc: Document, data: Any = None, context: str = "",
                    written: Iterable[str] | None = None) -> None:
    """Check ``doc`` (or ``data`` with ``doc``'s marks) against the schema.

    Raises :class:`SpecError` for the first error, naming file:line:column, the
    path in the document and what the schema expected. ``data`` is ``doc``'s
    data with option values applied: only the sections they changed are
    checked again, or with ``written`` (the dotted paths the values were written at)
    the values written, each where it stands (:func:`_written_valid`).

    >>> doc = load_document("marianna")
    >>> data = deep_copy(doc.data)
    >>> data["match"]["end"]["target"] = 0
    >>> try:
    ...     validate_schema(doc, data, "with target=0: ")
    ... except SpecError as exc:
    ...     print(exc.path, exc.message)
    match.end.target with target=0: 0 is less than the minimum of 1
    """
    import jsonschema

    errors = _schema_errors(doc.data) if data is None else \
        _schema_errors(data, doc.data, written)
    for prefix, err in errors:
        best = jsonschema.exceptions.best_match([err])
        path = (*prefix, *(str(p) for p in best.absolute_path))
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
    """A deep copy of a plain document (mappings, lists and immutable scalars).

    Several times faster than :func:`copy.deepcopy`, which ``check-spec`` would
    otherwise spend most of its time in; the nesting is bounded by
    :data:`MAX_DEPTH`, so the recursion is too.

    >>> doc = {"a": [1, {"b": "x"}]}
    >>> copied = deep_copy(doc)
    >>> copied == doc, copied["a"] is doc["a"], copied["a"][1] is doc["a"][1]
    (True, False, False)
    """
    out: dict[str, Any] = _plain_copy(data)
    return out


def _plain_copy(node: Any) -> Any:
    kind = type(node)
    if kind is dict:
        return {k: _plain_copy(v) for k, v in node.items()}
    if kind is list:
        return [_plain_copy(v) for v in node]
    if kind in (str, int, float, bool) or node is None:
        return node
    return copy.deepcopy(node)  # anything else a caller put in: copied the slow, sure way
