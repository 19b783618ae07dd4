"""Loading the conformance suite: test files with YAML front matter and a record body.

A test file (``conformance/tests/**/*.test``) is::

    ---
    <front matter: YAML mapping>
    ---
    <the match as a record in the project's notation, for people and validators>

The front matter is normative for the runner (``docs/conformance.rst``): it
names the test, the rule IDs it checks, the ruleset and options, the deal and
the steps to play, with what to expect. The body is informative.

>>> t = parse_test('''---
... id: demo
... description: a demo
... rules: [core.hand]
... ruleset: marianna
... kind: scenario
... start: {dealer: 0, deck: []}
... steps: [{act: QS, error: {code: illegal_action, rule: core.hand}}]
... ---
... ''', "demo.test")
>>> t.id, t.rules, t.steps[0]["act"]
('demo', ('core.hand',), 'QS')
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any, ClassVar

import yaml

from ..errors import MariageError, expect_each, expect_str
from ..infile import not_text, open_regular
from ..resources import conformance_dir
from ..spec import diskcache
from ..spec.diskcache import make_key
from .header import Header, front_matter_of, read_header
from .protocol import SURROGATE_ESCAPE, lone_surrogate

__all__ = [
    "KINDS",
    "SuiteError",
    "Test",
    "load_suite",
    "parse_test",
    "read_suite_file",
    "safe_yaml",
    "tests_dir",
]

#: The kinds of test (``protocol``: the framing and errors of the protocol, for any
#: ruleset; :mod:`mariage.conformance.protocheck`).
KINDS = ("golden", "scenario", "option", "perft", "protocol")

_BASE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _SafeLoader(_BASE_LOADER):  # type: ignore[misc]
    """The safe loader (in C where it is built), reading JSON's kinds of value only: a
    date written plainly stays text, a tag that makes another kind (``!!binary``,
    ``!!set``, ``!!timestamp``, ``!!omap``, ``!!pairs``) is refused at its place, and so
    is a whole number too long to convert (Python's limit of 4300 digits), rather than
    values the runner could not send or compare."""

    yaml_implicit_resolvers: ClassVar[dict[Any, list[tuple[str, Any]]]] = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _TIMESTAMP]
        for first, resolvers in _BASE_LOADER.yaml_implicit_resolvers.items()}

    def _refuse_tag(self, node: yaml.Node) -> Any:
        raise yaml.constructor.ConstructorError(
            None, None, f"tag '{node.tag.replace('tag:yaml.org,2002:', '!!')}' is not "
            "allowed (plain values only)",
            node.start_mark)

    def construct_mapping(self, node: yaml.Node, deep: bool = False) -> Any:
        """A mapping whose keys are each written once: of two, PyYAML kept the last and
        dropped the first without a word (``depth: 30`` then ``depth: 3``)."""
        if isinstance(node, yaml.MappingNode):
            seen: set[tuple[str, str]] = set()
            for key, _ in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    if (key.tag, key.value) in seen:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"the key {key.value[:40]!r} is given twice",
                            key.start_mark)
                    seen.add((key.tag, key.value))
        return super().construct_mapping(node, deep)

    def _whole_number(self, node: yaml.Node) -> Any:
        try:
            return self.construct_yaml_int(node)
        except ValueError:
            raise yaml.constructor.ConstructorError(
                None, None, f"a number of {len(str(node.value))} characters is too long",
                node.start_mark) from None


for _tag in ("binary", "set", "timestamp", "omap", "pairs"):
    _SafeLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _SafeLoader._refuse_tag)
_SafeLoader.add_constructor("tag:yaml.org,2002:int", _SafeLoader._whole_number)


def safe_yaml(text: str) -> Any:
    """The one YAML document of ``text``, read by the safe loader only (JSON's kinds
    of value: a date stays text).

    >>> safe_yaml("a: [1, 2]")
    {'a': [1, 2]}
    >>> safe_yaml("d: 2001-12-14")
    {'d': '2001-12-14'}
    """
    loader = _SafeLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


class SuiteError(MariageError):
    """A test file that cannot be read."""

    code = "C001"


@dataclass(frozen=True)
class Test:
    """One conformance test, as read from its front matter."""

    id: str
    description: str
    kind: str
    ruleset: str
    rules: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    features: tuple[str, ...] = ()
    start: dict[str, Any] = field(default_factory=dict)
    initial: dict[str, Any] | None = None
    steps: tuple[dict[str, Any], ...] = ()
    negative: dict[str, Any] | None = None
    depth: int = 0
    counts: tuple[int, ...] = ()
    path: str = ""
    body: str = ""


def tests_dir() -> Path:
    """The folder of the bundled test files."""
    return conformance_dir() / "tests"


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise SuiteError(f"{where}: front matter lacks '{key}'")
    value = data[key]
    if not isinstance(value, kind):
        raise SuiteError(f"{where}: '{key}' has the wrong type")
    return value


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose names are each given once (else a ValueError: the step is
    read again as YAML, which says where). It makes reading the whole suite about a
    tenth slower (0.89 to 1.01 s of CPU), once per process; cheaper checks were not.

    >>> _once([("act", "QS"), ("state", {})])
    {'act': 'QS', 'state': {}}
    """
    made = dict(pairs)
    if len(made) != len(pairs):
        raise ValueError("a name is given twice")
    return made


def _front_matter(text: str, where: str) -> Any:
    """Parse the front matter; step lines written as JSON are parsed as JSON (fast).

    What YAML read is checked for aliases (:func:`_refuse_shared`); JSON has none."""
    lines = text.split("\n")
    try:
        at = lines.index("steps:")
    except ValueError:
        return _refuse_shared(safe_yaml(text), where)
    steps: list[Any] = []
    stop = at + 1
    while stop < len(lines) and lines[stop].startswith("- {"):
        try:
            steps.append(json.loads(lines[stop][2:], object_pairs_hook=_once))
        except ValueError:  # (a name given twice: YAML reads the line and says where)
            return _refuse_shared(safe_yaml(text), where)
        stop += 1
    if stop < len(lines) and lines[stop][:1] in ("-", " ", "\t"):
        return _refuse_shared(safe_yaml(text), where)  # steps written otherwise: YAML reads
    data = _refuse_shared(safe_yaml("\n".join(lines[:at] + lines[stop:])),
                          where)
    if isinstance(data, dict):
        data["steps"] = steps
    return data


#: The deepest perft count a test may ask for (``[0] * depth`` is made before the walk).
MAX_PERFT_DEPTH = 10_000
#: The longest line a protocol test may send with ``send_long`` (three times the
#: protocol's bound of a line is the longest bundled one).
MAX_SEND_LONG = 16 << 20

_WHOLE = "a whole number"
_TEXTS = "a list of texts"
_MAPPING = "a mapping"
#: What each front-matter field and step field holds (a front-matter field may be absent or
#: null, a step field only absent: the runner acts on a step key given; which
#: fields a test needs is checked after).
_FIELDS: dict[str, str] = {"options": _MAPPING, "features": _TEXTS, "initial": _MAPPING,
                           "negative": _MAPPING, "rules": _TEXTS, "start": _MAPPING,
                           "depth": _WHOLE, "counts": "a list of whole numbers"}
_STEP_FIELDS: dict[str, str] = {
    "act": "a text", "apply": "a text", "send": "a text", "send_hex": "hexadecimal text",
    "legal": _TEXTS, "legal_has": _TEXTS, "legal_not": _TEXTS, "rules": _TEXTS,
    "state": _MAPPING, "error": _MAPPING, "deal": _MAPPING, "request": _MAPPING,
    "reply": _MAPPING, "start": _MAPPING, "seat": _WHOLE, "resign": _WHOLE,
    "send_long": _WHOLE, "silent": "true or false"}


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _holds(value: Any, what: str) -> bool:
    if what == _MAPPING:
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if what == _TEXTS:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if what == _WHOLE:
        return _is_whole(value)
    if what == "a list of whole numbers":
        return isinstance(value, list) and all(_is_whole(v) for v in value)
    if what == "true or false":
        return isinstance(value, bool)
    if what == "hexadecimal text":
        try:
            bytes.fromhex(value)
        except (TypeError, ValueError):
            return False
        return True
    return isinstance(value, str)


def _check_shape(data: dict[str, Any], where: str) -> None:
    """Refuse front matter the runner cannot use as it is: a field of the wrong type
    (``depth: [1]``, ``features: 5``, a step's ``act: 5``), a number beyond its bound,
    or a YAML alias (a value shared by reference: a few lines can stand for billions of
    values, which the runner would compare or send). Each refusal names the file, the
    step and the field (aliases are refused as the front matter is read)."""
    for key, what in _FIELDS.items():
        if data.get(key) is not None and not _holds(data[key], what):
            raise SuiteError(f"{where}: '{key}' must be {what}")
    depth = data.get("depth")
    if depth is not None and not 0 <= depth <= MAX_PERFT_DEPTH:
        raise SuiteError(f"{where}: 'depth' must be from 0 to {MAX_PERFT_DEPTH}, got {depth}")
    steps = data.get("steps")
    if steps is not None and not isinstance(steps, list):  # 1.5 or 5: a TypeError
        raise SuiteError(f"{where}: 'steps' must be a list of mappings, not "
                         f"{type(steps).__name__}")
    for n, step in enumerate(steps or [], 1):
        if not isinstance(step, dict):
            continue  # reported as such after
        for key, value in step.items():  # (null is no value: the runner reads a key given)
            kind = _STEP_FIELDS.get(key)
            if kind is not None and not _holds(value, kind):
                got = ", not null" if value is None else ""
                raise SuiteError(f"{where}: step {n}: '{key}' must be {kind}{got}")
        long = step.get("send_long")
        if long is not None and not 0 <= long <= MAX_SEND_LONG:
            raise SuiteError(f"{where}: step {n}: 'send_long' must be from 0 to "
                             f"{MAX_SEND_LONG:,}, got {long}")


def _refuse_surrogates(data: Any, where: str) -> None:
    """Refuse a text holding half of a UTF-16 pair alone (a JSON ``"\\ud800"``): it is
    no character, and no line holding it can be sent to the engine."""
    found = lone_surrogate(data)
    if found is not None:
        text, half = found
        raise SuiteError(f"{where}: the front matter holds a text with {half!a}, half of a "
                         f"UTF-16 pair alone, which is no character: {text[:60]!a}")


def _refuse_shared(data: Any, where: str) -> Any:
    """``data``, unless a value in it appears twice by reference (what a YAML alias
    makes): found in time linear in the distinct values, however many copies the
    aliases stand for."""
    seen: set[int] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        if id(node) in seen:
            raise SuiteError(f"{where}: the front matter repeats a value by a YAML alias "
                             "(write each value out)")
        seen.add(id(node))
        stack.extend(node.values() if isinstance(node, dict) else node)
    return data


def parse_test(text: str, where: str) -> Test:
    """Parse the text of one test file; ``where`` names it in errors. A byte order mark
    and CR LF line ends (a checkout on Windows) read as the file without them."""
    text = expect_str(text, "parse_test: text").removeprefix("\ufeff")
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if not text.startswith("---\n"):
        raise SuiteError(f"{where}:1:1: a test file starts with a '---' line")
    end = text.find("\n---\n", 3)
    if end < 0:
        raise SuiteError(f"{where}: the front matter has no closing '---' line")
    try:
        data = _front_matter(text[4:end + 1], where)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f":{mark.line + 2}:{mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None)
        why = f": {problem}" if problem else ""
        raise SuiteError(f"{where}{at}: the front matter is not valid YAML{why}") from None
    if not isinstance(data, dict):
        raise SuiteError(f"{where}: the front matter must be a mapping")
    _check_shape(data, where)
    if SURROGATE_ESCAPE.search(text, 0, end):
        _refuse_surrogates(data, where)
    kind = _need(data, "kind", str, where)
    if kind not in KINDS:
        raise SuiteError(f"{where}: unknown kind '{kind}' (kinds: {', '.join(KINDS)})")
    if kind == "perft":
        depth = _need(data, "depth", int, where)
        counts = _need(data, "counts", list, where)
        if len(counts) != depth:
            raise SuiteError(f"{where}: 'counts' must give one count for each length "
                             f"1..{depth}, got {len(counts)}")
    rules = _need(data, "rules", list, where)
    steps = data.get("steps") or []
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise SuiteError(f"{where}: 'steps' must be a list of mappings")
    return Test(
        id=_need(data, "id", str, where),
        description=_need(data, "description", str, where),
        kind=kind,
        ruleset=_need(data, "ruleset", str, where),
        rules=tuple(str(r) for r in rules),
        options=dict(data.get("options") or {}),
        features=tuple(data.get("features") or ()),
        start=dict(_need(data, "start", dict, where)),
        initial=data.get("initial"),
        steps=tuple(steps),
        negative=data.get("negative"),
        depth=int(data.get("depth") or 0),
        counts=tuple(int(c) for c in data.get("counts") or ()),
        path=where,
        body=text[end + 5:],
    )


#: A test file larger than this is refused (the largest bundled one is about 270 KB).
MAX_TEST_BYTES = 8 << 20


def _test_files(base: Path) -> list[Path]:
    """Every ``*.test`` file under ``base``; a folder that cannot be listed is an error."""
    def failed(exc: OSError) -> None:
        raise SuiteError(f"{exc.filename}: cannot list the folder: {exc.strerror or exc}")

    found: list[Path] = []
    for root, dirs, names in os.walk(base, onerror=failed):
        dirs.sort()
        found.extend(Path(root, n) for n in names if n.endswith(".test"))
    return sorted(found)


def read_suite_file(path: Path, where: str) -> str:
    """A test file's text (or another file a run reads, such as ``--expect``'s): a regular
    file only (a FIFO is never waited on), at most :data:`MAX_TEST_BYTES`, UTF-8; else
    :class:`SuiteError` naming ``where``."""
    try:
        with open_regular(path) as f:
            raw = f.read(MAX_TEST_BYTES + 1)
    except OSError as exc:
        raise SuiteError(f"{where}: {exc.strerror or exc}") from None
    if len(raw) > MAX_TEST_BYTES:
        raise SuiteError(f"{where}: larger than {MAX_TEST_BYTES:,} bytes")
    foreign = not_text(raw[:64], packed=False)
    if foreign:  # it was "not UTF-8 text (byte 0)", or no '---' line (NULs are UTF-8)
        raise SuiteError(f"{where}:1:1: the file is {foreign}: it must be UTF-8 text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{where}: not UTF-8 text (byte {exc.start})") from None


#: parsed test files of this process by (path, where, modification time, size): a suite
#: is often loaded again with other filters, and parsing is most of the cost
_PARSED: dict[tuple[str, str, int, int], Test] = {}


def _parsed(path: Path, where: str) -> Test:
    """The test of the file at ``path``, parsed once while it stays unchanged (a file
    that is not a regular one is read, and refused, each time)."""
    try:
        info = os.stat(path)
    except OSError:
        info = None
    if info is None or not stat.S_ISREG(info.st_mode):
        return parse_test(read_suite_file(path, where), where)
    key = (str(path), where, info.st_mtime_ns, info.st_size)
    test = _PARSED.get(key)
    if test is None:
        test = _PARSED[key] = parse_test(read_suite_file(path, where), where)
    return test


#: the headers of the test files of this process, by the key of :data:`_PARSED` (``None``:
#: a file without front matter): a filtered load reads every file's header
_HEADERS: dict[tuple[str, str, int, int], Header | None] = {}


def _left_out(path: Path, where: str, want_sets: set[str], want_kinds: set[str],
              want_rules: tuple[str, ...]) -> bool:
    """True if the file's header (:func:`~mariage.conformance.header.read_header`) shows
    for certain that its test is filtered out, so it need not be parsed; ``False`` when
    it may be wanted or the header is not certain (the file is then parsed in full)."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISREG(info.st_mode):
        return False  # read, and refused, by the full parse
    key = (str(path), where, info.st_mtime_ns, info.st_size)
    if key in _HEADERS:
        head = _HEADERS[key]
    else:
        front = front_matter_of(read_suite_file(path, where))
        head = _HEADERS[key] = None if front is None else read_header(front)
    if head is None:
        return False
    if want_sets and head.ruleset is not None and head.ruleset not in want_sets:
        return True
    if want_kinds and head.kind is not None and head.kind not in want_kinds:
        return True
    return bool(want_rules) and head.rules is not None and not _names(head.rules, want_rules)


def _names(rules: Iterable[str], wanted: tuple[str, ...]) -> bool:
    """True if one of ``rules`` is a wanted rule ID or starts with a wanted prefix
    (one ending in ``.``)."""
    return any(r == w or (w.endswith(".") and r.startswith(w)) for r in rules for w in wanted)


#: per folder of tests: the disk cache's key (:func:`_disk_key`) this process read or
#: stored, and how many of its files were parsed (or their headers read) then
_STORED: dict[str, tuple[str, int]] = {}

#: the fewest files a folder holds for its parses to be kept on disk (a few parse sooner
#: than an entry is checked)
_DISK_FILES = 100

_Listed = list[tuple[str, tuple[str, str, int, int]]]


def _listed(base: Path, files: list[Path]) -> tuple[str, _Listed] | None:
    """The disk cache's key for the parses of ``base``'s files (a digest of every file's
    path and content: an edit that keeps the size and the time is seen too), and each
    file's name with its key in :data:`_PARSED`; ``None`` where a file is not a regular
    one or is too long (read, and refused, each time) or the folder holds few
    files."""
    if len(files) < _DISK_FILES:
        return None
    try:  # a second whole load in this process: the files' stats as when last read
        stamps = tuple((p, i.st_mtime_ns, i.st_size, i.st_ino, i.st_mode)
                       for p, i in ((p, os.stat(p)) for p in files))
    except OSError:
        return None
    seen = _SIGNED.get(str(base))
    if seen is not None and seen[0] == stamps:  # (as :data:`_PARSED` trusts them)
        return seen[1]
    digest = blake2b(digest_size=32)
    listed: _Listed = []
    for path in files:
        where = str(path.relative_to(base))
        try:
            with open_regular(path) as f:
                info = os.fstat(f.fileno())
                if info.st_size > MAX_TEST_BYTES:  # refused by the parse: never read whole
                    return None
                digest.update(f"{where}\0{info.st_size}\0".encode() + f.read())
        except OSError:
            return None
        listed.append((where, (str(path), where, info.st_mtime_ns, info.st_size)))
    found = make_key("suite", str(base), digest.hexdigest()), listed
    _SIGNED[str(base)] = (stamps, found)
    return found


#: per folder of tests: its files' stats and :func:`_listed`'s answer when they were last
#: read and hashed (a second whole load in a process hashes them again only if changed)
_SIGNED: dict[str, tuple[tuple[tuple[Path, int, int, int, int], ...], tuple[str, _Listed]]] = {}


def _known(listed: _Listed) -> tuple[dict[str, Test], dict[str, Header | None]]:
    """The parses and headers this process holds of the files ``listed``, by name."""
    return ({where: _PARSED[k] for where, k in listed if k in _PARSED},
            {where: _HEADERS[k] for where, k in listed if k in _HEADERS})


def _count(known: tuple[dict[str, Test], dict[str, Header | None]]) -> int:
    return len(known[0]) + len(known[1])


def _from_disk(base: Path, files: list[Path]) -> tuple[str, _Listed] | None:
    """Fill this process's parses of ``base``'s files from the disk cache
    (:mod:`mariage.spec.diskcache`), once a process: each of the bundled files was
    otherwise parsed again by every process that loads the suite (a third of the time
    a test run takes to collect). The key and the files, or ``None`` (nothing kept)."""
    found = _listed(base, files)
    if found is None:
        return None
    key, listed = found
    folder = str(base)
    if _STORED.get(folder, ("",))[0] != key:
        kept = diskcache.load(key)
        if isinstance(kept, tuple) and len(kept) == 2:
            tests, headers = kept
            for where, k in listed:  # (a parse this process made is kept)
                if where in tests and k not in _PARSED:
                    _PARSED[k] = tests[where]
                if where in headers and k not in _HEADERS:
                    _HEADERS[k] = headers[where]
        _STORED[folder] = (key, _count(_known(listed)))
    return found


def _to_disk(base: Path, found: tuple[str, _Listed] | None) -> None:
    """Keep this process's parses of ``base``'s files where it made more than it read
    (after a whole load: at most once a process)."""
    if found is None:
        return
    key, listed = found
    known = _known(listed)
    if _count(known) > _STORED.get(str(base), ("", 0))[1]:
        diskcache.store(key, known, [])
        _STORED[str(base)] = (key, _count(known))


def load_suite(root: Path | None = None, *, rulesets: Iterable[str] = (),
               rules: Iterable[str] = (), kinds: Iterable[str] = ()) -> list[Test]:
    """Every test under ``root`` (default: the bundled suite), in path order.

    ``rulesets``, ``rules`` (rule IDs or prefixes ending in ``.``) and
    ``kinds`` filter the tests; empty means all. A filtered load parses only the
    files whose header does not show for certain that they are filtered out
    (:mod:`mariage.conformance.header`): test IDs are then checked to be unique
    among the files parsed, and a malformed file that is surely filtered out is
    not reported.
    """
    if root is not None and not isinstance(root, str | os.PathLike):
        raise TypeError(f"load_suite: root is a folder (a Path), not {type(root).__name__}")
    base = root or tests_dir()
    want_sets = set(_filter(rulesets, "rulesets"))
    want_rules = tuple(_filter(rules, "rules"))
    want_kinds = set(_filter(kinds, "kinds"))
    files = _test_files(base)
    found = _from_disk(base, files)  # the parses a whole load kept (a filtered load too:
    if want_sets or want_rules or want_kinds:  # it reads the headers of the files not held,
        return _load(base, files, want_sets, want_rules, want_kinds)  # stores nothing)
    try:
        return _load(base, files, want_sets, want_rules, want_kinds)
    finally:
        _to_disk(base, found)


def _filter(values: object, what: str) -> list[str]:
    """A filter of :func:`load_suite` as a list of names: one name given as a str was
    read as its letters, which no test matched (a run of no test, that passed)."""
    if isinstance(values, str):
        raise TypeError(f"load_suite: {what} is a list of names, not a str "
                        f"(write {what}=[{values[:40]!r}])")
    return expect_each(values, str, f"load_suite: {what}")


def _held(path: Path, where: str) -> Test | None:
    """The parse this process holds of the file at ``path`` (read from the disk cache or
    made before), unchanged since; ``None`` where there is none."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return _PARSED.get((str(path), where, info.st_mtime_ns, info.st_size))


def _load(base: Path, files: list[Path], want_sets: set[str], want_rules: tuple[str, ...],
          want_kinds: set[str]) -> list[Test]:
    filtered = bool(want_sets or want_rules or want_kinds)
    out: list[Test] = []
    seen: dict[str, str] = {}
    #: a filtered load's held parses whose header was not read: the file is checked for a
    #: test id used twice only where its header would have had it parsed (as without them)
    unread: dict[str, Path] = {}

    def counted(path: Path, where: str) -> bool:
        return not _left_out(path, where, want_sets, want_kinds, want_rules)

    for path in files:
        where = str(path.relative_to(base))
        held = _held(path, where) if filtered else None
        if held is not None:
            test = held
        elif filtered and not counted(path, where):
            continue
        else:
            test = _parsed(path, where)
        if test.id not in seen and test.id not in unread:
            if held is None:
                seen[test.id] = where
            else:
                unread[test.id] = path
        elif held is None or counted(path, where):  # (else left out by its header)
            first = unread.pop(test.id, None)
            if first is None or counted(first, str(first.relative_to(base))):
                used = seen[test.id] if first is None else str(first.relative_to(base))
                raise SuiteError(f"{where}: test id '{test.id}' is also used by {used}")
            seen[test.id] = where
        if want_sets and test.ruleset not in want_sets:
            continue
        if want_kinds and test.kind not in want_kinds:
            continue
        if want_rules and not _names(test.rules, want_rules):
            continue
        out.append(test)
    return out
