"""Reading YAML with positions, within bounds: the reader of game descriptions.

Descriptions come from anyone, so the reader builds the data from the
parser's events without recursion and refuses, with a located one-line
error, what is too large, too deep, has too many values (aliases counted as
copies), integers out of range, or tags other than plain YAML types. The C
parser is used where PyYAML has it; a syntax error is reported by re-reading
with the Python parser, so messages and positions are the same either way.

>>> data, marks = parse_yaml_text("a: [1, {b: 2}]\\n", "t.yaml")
>>> data, marks[("a", "1", "b")].line
({'a': [1, {'b': 2}]}, 1)
"""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

from mariage.errors import Location, SpecError, SpecFileError
from mariage.infile import NOT_REGULAR, not_text, open_regular

Marks = dict[tuple[str, ...], Location]

__all__ = ["MAX_DEPTH", "MAX_EXTENDS", "MAX_INT", "MAX_NODES", "MAX_SPEC_BYTES", "Marks",
           "parse_yaml_text", "read_yaml"]


# Bounds on what a description may be; docs/limits.rst states each one.
MAX_SPEC_BYTES = 256 * 1024
"""Largest description file read, in bytes (the biggest bundled one is about 13 KB)."""
MAX_DEPTH = 32
"""Deepest nesting of mappings and lists (the bundled descriptions nest 9 deep)."""
MAX_NODES = 100_000
"""Most values in one file, counting every copy an alias makes."""
MAX_INT = 10**15
"""Largest magnitude of an integer written in a description."""
MAX_EXTENDS = 8
"""Longest ``extends:`` chain above a description."""

_PLAIN_TAGS = frozenset({
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float", "tag:yaml.org,2002:str"})
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


def _loc(name: str, mark: Any) -> Location:
    if mark is None:
        return Location(name)
    return Location(name, mark.line + 1, mark.column + 1)


def _one_line(text: object) -> str:
    return " ".join(str(text).split())


class _Frame:
    """A mapping or list being built by :func:`_compose`."""

    __slots__ = ("anchor", "container", "first_mark", "key", "key_mark", "path")

    def __init__(self, container: dict[str, Any] | list[Any], path: tuple[str, ...],
                 anchor: str | None, first_mark: int) -> None:
        self.container = container
        self.path = path
        self.anchor = anchor
        self.first_mark = first_mark
        self.key: str | None = None
        self.key_mark: Any = None


def _compose(loader: Any, name: str) -> tuple[Any, Marks]:
    """Build plain data and marks from the loader's event stream, without recursion.

    Nesting, the number of values (alias copies included) and integer sizes
    are bounded while reading, so an alias bomb or a deep nest is refused as
    soon as it passes a bound, at the position where it does.
    """
    import yaml

    marks_list: list[tuple[tuple[str, ...], Location]] = []
    # anchor -> (value, its marks as marks_list[first:end] with paths cut by n, size, or
    # for a scalar first = -1 and its own location): no copies until an alias asks
    anchors: dict[str, tuple[Any, int, int, int, int, Location | None]] = {}
    open_anchors: set[str] = set()
    stack: list[_Frame] = []
    count = 0
    root: Any = None
    have_root = False

    def fail(message: str, mark: Any) -> SpecError:
        return SpecError(message, location=_loc(name, mark), code="S002")

    def place(value: Any, mark: Any) -> tuple[str, ...] | None:
        """Put a finished value in its parent; return its path, or None for a key."""
        nonlocal root, have_root
        if not stack:
            root, have_root = value, True
            return ()
        top = stack[-1]
        if isinstance(top.container, list):
            path = (*top.path, str(len(top.container)))
            top.container.append(value)
            return path
        if top.key is None:  # this value is a key
            if not isinstance(value, str | int | bool):
                raise SpecError("mapping keys must be plain scalars", location=_loc(name, mark),
                                path=".".join(top.path), code="S002")
            skey = _key_text(value)
            if skey in top.container:
                raise SpecError(f"key '{skey}' appears twice", location=_loc(name, mark),
                                path=".".join(top.path), code="S002")
            top.key, top.key_mark = skey, mark
            return None
        path = (*top.path, top.key)
        top.container[top.key] = value
        top.key = None
        return path

    def next_path() -> tuple[str, ...] | None:
        if not stack:
            return ()
        top = stack[-1]
        if isinstance(top.container, list):
            return (*top.path, str(len(top.container)))
        return None if top.key is None else (*top.path, top.key)

    while loader.check_event():
        event = loader.get_event()
        kind = type(event)
        if kind in (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent):
            continue
        if kind is yaml.DocumentStartEvent:
            if have_root:
                raise fail("a description is one YAML document; found a second", event.start_mark)
            continue
        if kind is yaml.ScalarEvent:
            count += 1
            if count > MAX_NODES:
                raise fail(f"more than {MAX_NODES} values", event.start_mark)
            value = _scalar_value(loader, event, name)
            placed = place(value, event.start_mark)
            if placed is not None:
                marks_list.append((placed, _loc(name, event.start_mark)))
            if event.anchor is not None:
                anchors[event.anchor] = (value, -1, -1, 0, 1, _loc(name, event.start_mark))
            continue
        if kind is yaml.AliasEvent:
            anchor = event.anchor
            if anchor in open_anchors:
                raise fail(f"alias '*{anchor}' refers to a value that contains it (a recursive "
                           "alias)", event.start_mark)
            if anchor not in anchors:
                raise fail(f"alias '*{anchor}' has no anchor before it", event.start_mark)
            value, first, end, n, size, own = anchors[anchor]
            count += size
            if count > MAX_NODES:
                raise fail(f"more than {MAX_NODES} values (counting every copy an alias "
                           f"makes); '*{anchor}' copies {size}", event.start_mark)
            if next_path() is None:
                raise SpecError("mapping keys must be plain scalars, not aliases",
                                location=_loc(name, event.start_mark),
                                path=".".join(stack[-1].path), code="S002")
            placed = place(copy.deepcopy(value), event.start_mark)
            if placed is not None and own is not None:
                marks_list.append((placed, own))
            elif placed is not None:
                marks_list.extend([((*placed, *p[n:]), loc) for p, loc in marks_list[first:end]])
            continue
        if kind in (yaml.MappingStartEvent, yaml.SequenceStartEvent):
            count += 1
            if count > MAX_NODES:
                raise fail(f"more than {MAX_NODES} values", event.start_mark)
            if len(stack) >= MAX_DEPTH:
                raise fail(f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
            is_map = kind is yaml.MappingStartEvent
            if event.tag not in (None, "!", _MAP_TAG if is_map else _SEQ_TAG):
                raise fail(f"tag '{event.tag}' is not allowed (a description holds only "
                           "mappings, lists, strings, numbers, booleans and null)",
                           event.start_mark)
            path = next_path()
            if path is None:
                raise SpecError("mapping keys must be plain scalars",
                                location=_loc(name, event.start_mark),
                                path=".".join(stack[-1].path), code="S002")
            marks_list.append((path, _loc(name, event.start_mark)))
            container: dict[str, Any] | list[Any] = {} if is_map else []
            frame = _Frame(container, path, event.anchor, len(marks_list) - 1)
            if event.anchor is not None:
                open_anchors.add(event.anchor)
                anchors.pop(event.anchor, None)
            stack.append(frame)
            continue
        if kind in (yaml.MappingEndEvent, yaml.SequenceEndEvent):
            frame = stack.pop()
            place(frame.container, None)
            if frame.anchor is not None:
                open_anchors.discard(frame.anchor)
                end = len(marks_list)
                anchors[frame.anchor] = (frame.container, frame.first_mark, end,
                                         len(frame.path), end - frame.first_mark, None)
            continue
    if not have_root or root is None:
        raise SpecError("empty document", location=Location(name, 1, 1), code="S002")
    return root, dict(marks_list)


def _scalar_value(loader: Any, event: Any, name: str) -> Any:
    import yaml

    tag = event.tag
    if tag is None or tag == "!":
        tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag == _TIMESTAMP:  # a date written plainly is kept as the text it is
            return event.value
    if tag not in _PLAIN_TAGS:
        raise SpecError(f"tag '{tag}' is not allowed (a description holds only mappings, "
                        "lists, strings, numbers, booleans and null)",
                        location=_loc(name, event.start_mark), code="S002")
    node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
    try:
        value = loader.yaml_constructors[tag](loader, node)
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        if tag == "tag:yaml.org,2002:int":
            raise SpecError(f"integer {_clip(event.value)} is out of range (at most "
                            f"{MAX_INT:.0e} either way)", location=_loc(name, event.start_mark),
                            code="S002") from None
        raise SpecError(f"bad value {_clip(event.value)!r}: {_one_line(exc)}",
                        location=_loc(name, event.start_mark), code="S002") from None
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
        raise SpecError(f"integer {_clip(event.value)} is out of range (at most {MAX_INT:.0e} "
                        "either way)", location=_loc(name, event.start_mark), code="S002")
    if isinstance(value, str) and event.style == '"':  # only an escape writes these
        odd = _UNPRINTABLE.search(value)
        if odd is not None:
            raise SpecError(f"the text {_clip(value)!a} holds {_named(odd.group())}, written "
                            "with an escape: a description's texts hold printable characters",
                            location=_loc(name, event.start_mark), code="S002")
    return value


#: What YAML refuses written as such in a file, but reads from a double-quoted escape
#: (``"\\e"``, ``"\\x1b"``, ``"\\ud800"``): a control character (a line feed and a tab
#: are kept) or half of a UTF-16 pair alone, which no output can write.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _named(char: str) -> str:
    if "\ud800" <= char <= "\udfff":
        return f"U+{ord(char):04X}, half of a UTF-16 pair alone"
    return f"U+{ord(char):04X}, a control character"


def _clip(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "..."


def _key_text(key: object) -> str:
    if key is True:
        return "true"
    if key is False:
        return "false"
    return str(key)


_READ_CACHE: dict[tuple[str, str, int, int], tuple[Any, Marks]] = {}


def read_yaml(path: Path, display: str | None = None) -> tuple[Any, Marks]:
    """Read one YAML file safely; return (data, marks). Errors carry file:line:column.

    A file read before, unchanged since (same modification time and size), is
    not parsed again; the caller always gets its own copy of the data.

    >>> from mariage.resources import spec_dir
    >>> data, marks = read_yaml(spec_dir() / "marianna.yaml", "marianna.yaml")
    >>> data["ruleset"], str(marks[("ruleset",)])
    ('marianna', 'marianna.yaml:4:10')
    """
    if isinstance(path, str):  # a file name as text: what a caller means by it
        path = Path(path)
    elif not isinstance(path, Path):
        raise TypeError(f"read_yaml: path must be a Path, not {type(path).__name__}")
    name = display or str(path)
    try:
        stat = path.stat()
        key = (str(path.resolve()), name, stat.st_mtime_ns, stat.st_size)
    except (OSError, ValueError, RuntimeError):  # a NUL, a loop: reading it says so
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


def _read_bytes(path: Path, name: str) -> bytes:
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_SPEC_BYTES + 1)
    except FileNotFoundError:
        raise SpecFileError("file not found", location=Location(name)) from None
    except IsADirectoryError:
        raise SpecFileError("is a folder, not a game description", location=Location(name)
                            ) from None
    except OSError as exc:
        if exc.strerror == NOT_REGULAR:
            raise SpecFileError(NOT_REGULAR, location=Location(name)) from None
        raise SpecFileError(f"cannot read: {exc.strerror or exc}", location=Location(name)
                            ) from None
    if len(raw) > MAX_SPEC_BYTES:
        raise SpecError(f"file larger than {MAX_SPEC_BYTES // 1024} KiB", location=Location(
            name), code="S002")
    return raw


def parse_yaml_text(text: str, name: str) -> tuple[Any, Marks]:
    """Parse description text with the C loader where available, else the Python one.

    Both give the same positions; on a syntax error the Python loader reads
    the text again, so that the message and position are the same whichever
    loader is installed.

    >>> data, marks = parse_yaml_text("a: [1, {b: x}]\\n", "t.yaml")
    >>> data, str(marks[("a", "1", "b")])
    ({'a': [1, {'b': 'x'}]}, 't.yaml:1:12')
    >>> parse_yaml_text("a: [1,\\n", "t.yaml")
    Traceback (most recent call last):
    ...
    mariage.errors.SpecError: t.yaml:2:1: YAML syntax: expected the node content, but found \
'<stream end>' [S002]
    """
    import yaml

    fast = getattr(yaml, "CSafeLoader", None)
    if fast is not None:
        try:
            return _compose_with(fast, text, name)
        except yaml.YAMLError:
            pass  # the Python loader says what and where, below
    return _compose_with(yaml.SafeLoader, text, name)


def _compose_with(loader_cls: Any, text: str, name: str) -> tuple[Any, Marks]:
    import yaml

    if loader_cls is not yaml.SafeLoader:  # errors: the caller asks the Python loader
        loader = loader_cls(text)
        try:
            return _compose(loader, name)
        finally:
            loader.dispose()
    try:
        loader = loader_cls(text)  # checks every character: may fail already
        try:
            return _compose(loader, name)
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:
        before = text[:exc.position]
        loc = Location(name, before.count("\n") + 1, exc.position - before.rfind("\n"))
        what = f"#x{exc.character:04x}" if isinstance(exc.character, int) else "a character"
        raise SpecError(f"YAML syntax: character {what} is not allowed in YAML text",
                        location=loc, code="S002") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise SpecError(f"YAML syntax: {_one_line(exc.problem or exc.context)}",
                        location=_loc(name, mark), code="S002") from None
    except yaml.YAMLError as exc:
        raise SpecError(f"YAML: {_one_line(exc)}", location=Location(name),
                        code="S002") from None


def _read_yaml(path: Path, name: str) -> tuple[Any, Marks]:
    raw = _read_bytes(path, name)
    foreign = not_text(raw[:raw.find(b"\n") + 1 or 64], packed=False)
    if foreign:  # "byte 0" or a NUL said nothing of why
        raise SpecError(f"the file is {foreign}: a description is UTF-8 text",
                        location=Location(name, 1, 1), code="S003")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[:exc.start]
        loc = Location(name, before.count(b"\n") + 1, exc.start - before.rfind(b"\n"))
        raise SpecError(f"not UTF-8 text (byte {exc.start})", location=loc,
                        code="S003") from None
    return parse_yaml_text(text, name)
