"""Ruleset names to files: the bundled rulesets, registered files, the search path.

The first stage of loading a description (:mod:`mariage.spec.specload` reads what
this finds): a name is looked up among the files made known by
:func:`~mariage.spec.specload.register_spec`, the bundled rulesets, then the folders
of ``MARIAGE_SPEC_PATH``, never in the working folder; text that looks like a path is a
file the user named; ``extends:`` looks next to the description first, and a path
there must stay within the folders a description may name. Also what a loaded
description depends on besides its files (:func:`cache_context`), for the disk cache.
:mod:`mariage.spec.specload` re-exports every public name.

>>> resolve_ruleset("marianna").name, is_ruleset_name("a/b")
('marianna.yaml', False)
>>> "thousand" in known_rulesets()
True
"""

from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from pathlib import Path

from mariage.errors import Location, SpecFileError, UnknownRulesetError
from mariage.infile import real_path
from mariage.resources import spec_dir

__all__ = [
    "EXTENDS_ANYWHERE_ENV",
    "RULESET_NAME",
    "SEARCH_PATH_ENV",
    "cache_context",
    "extends_anywhere",
    "is_ruleset_name",
    "known_rulesets",
    "list_rulesets",
    "on_registry_change",
    "registered_files",
    "registered_specs",
    "resolve_name",
    "resolve_parent",
    "resolve_ruleset",
    "restore_specs",
    "search_path",
    "unregister_spec",
]


def list_rulesets(directory: str | os.PathLike[str] | None = None) -> list[str]:
    """Names of the bundled rulesets (or of the descriptions in ``directory``, a path),
    in a stable order.

    >>> "marianna" in list_rulesets()
    True

    A ``directory`` that is no folder is an ``OSError`` naming it (a mistyped folder
    listed no ruleset, as an empty one does), one that is no path a ``TypeError``.
    """
    if directory is None:
        return sorted(p.stem for p in spec_dir().glob("*.yaml"))
    if not isinstance(directory, str | os.PathLike) or isinstance(os.fspath(directory), bytes):
        raise TypeError(f"list_rulesets: directory is a folder (a str or a Path), "
                        f"not {type(directory).__name__}")
    base = Path(directory)
    if not base.is_dir():
        missing = not base.exists()
        raise (FileNotFoundError if missing else NotADirectoryError)(
            errno.ENOENT if missing else errno.ENOTDIR,
            "list_rulesets: no such folder" if missing else "list_rulesets: not a folder",
            str(directory))
    return sorted(p.stem for p in base.glob("*.yaml"))


_REGISTERED: dict[str, Path] = {}
#: worker processes see the registrations here: a JSON object of name -> path (a path
#: may hold ``os.pathsep``, which once split ``/tmp/a:b/house.yaml`` in two)
_FILES_ENV = "MARIAGE_SPEC_FILES"
SEARCH_PATH_ENV = "MARIAGE_SPEC_PATH"
"""Environment variable: folders (separated by ``os.pathsep``) searched for ``NAME.yaml``."""


def _register(name: str, path: Path) -> None:
    """Make ``name`` stand for the file ``path`` (:func:`~.specload.register_spec`, which
    loads and checks it first), here and in worker processes."""
    _REGISTERED[name] = path
    _export_registry()
    _registry_changed()


def _export_registry() -> None:
    if _REGISTERED:
        import json  # (not at import: a command without --spec never needs it)

        os.environ[_FILES_ENV] = json.dumps({n: str(p) for n, p in _REGISTERED.items()})
    else:
        os.environ.pop(_FILES_ENV, None)


def _exported() -> dict[str, Path]:
    """The registrations of the process that started this one (none where the variable
    holds anything but a JSON object of names to paths)."""
    text = os.environ.get(_FILES_ENV)
    if not text:
        return {}
    import json

    try:
        given = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(given, dict):
        return {}
    return {k: Path(v) for k, v in given.items() if isinstance(v, str) and v}


def _registered(name: str) -> Path | None:
    if name in _REGISTERED:
        return _REGISTERED[name]
    return _exported().get(name)


def registered_specs() -> dict[str, Path]:
    """The rulesets made known to this process by :func:`~.specload.register_spec`
    (``--spec``), in the order they were given, with their files.

    >>> isinstance(registered_specs(), dict)
    True
    """
    return dict(_REGISTERED)


def registered_files() -> list[Path]:
    """The description files given by name to this process (``--spec``), here or in the
    process that started this one.

    >>> isinstance(registered_files(), list)
    True
    """
    files = list(_REGISTERED.values())
    files += [p for p in _exported().values() if p not in files]
    return files


def unregister_spec(name: str) -> None:
    """Forget a ruleset made known by :func:`~mariage.spec.specload.register_spec`
    (nothing if unknown).

    >>> unregister_spec("no-such-ruleset")
    """
    if _REGISTERED.pop(name, None) is not None:
        _export_registry()
        _registry_changed()


def restore_specs(saved: dict[str, Path]) -> None:
    """Make the registrations those of ``saved`` again (as :func:`registered_specs` gave
    them): what a command's ``--spec`` made known is forgotten when it returns, so that a
    second command in the same process (:func:`mariage.cli.main` called twice) lists and
    reads only its own.

    >>> saved = registered_specs()
    >>> restore_specs(saved)
    >>> registered_specs() == saved
    True
    """
    if saved != _REGISTERED:
        _REGISTERED.clear()
        _REGISTERED.update(saved)
        _export_registry()
        _registry_changed()


_REGISTRY_LISTENERS: list[Callable[[], None]] = []


def on_registry_change(listener: Callable[[], None]) -> None:
    """Call ``listener`` whenever :func:`~mariage.spec.specload.register_spec` or
    :func:`unregister_spec` changes what a name stands for.

    A later stage whose cache is keyed by ruleset name (the compiled rules of
    :mod:`mariage.spec.compile`) clears it here, so this module never imports it.

    >>> seen = []
    >>> on_registry_change(lambda: seen.append(1))
    >>> unregister_spec("no-such-ruleset"); seen  # nothing was registered: no change
    []
    >>> _REGISTRY_LISTENERS.pop() and None
    """
    _REGISTRY_LISTENERS.append(listener)


def _registry_changed() -> None:
    for listener in _REGISTRY_LISTENERS:
        listener()


def search_path() -> list[Path]:
    """The folders of ``MARIAGE_SPEC_PATH``, in order (empty entries skipped).

    >>> import os
    >>> saved = os.environ.get("MARIAGE_SPEC_PATH")
    >>> os.environ["MARIAGE_SPEC_PATH"] = os.pathsep.join(["/a", "", "/b"])
    >>> [str(p) for p in search_path()]
    ['/a', '/b']
    >>> os.environ.pop("MARIAGE_SPEC_PATH") and None
    >>> if saved is not None: os.environ["MARIAGE_SPEC_PATH"] = saved
    """
    raw = os.environ.get(SEARCH_PATH_ENV, "")
    return [Path(p) for p in raw.split(os.pathsep) if p]


def known_rulesets() -> list[str]:
    """Every name :func:`~mariage.spec.specload.load_document` resolves: bundled,
    registered, on the search path.

    >>> set(list_rulesets()) <= set(known_rulesets())
    True
    """
    names = set(list_rulesets()) | set(_REGISTERED)
    for folder in search_path():
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.yaml") if p.is_file())
    return sorted(names)


RULESET_NAME = re.compile(r"[a-z][a-z0-9-]{0,63}")
"""What a ruleset name looks like (the schema's pattern, at most 64 characters)."""
EXTENDS_ANYWHERE_ENV = "MARIAGE_EXTENDS_ANYWHERE"
"""Environment variable: ``1`` lets ``extends:`` name a file in any folder (the
command line's ``--allow-extends-anywhere`` sets it)."""


def is_ruleset_name(text: str) -> bool:
    """Whether ``text`` is a ruleset name (never a path): what a record's tag may hold.

    >>> is_ruleset_name("sixty-six-3"), is_ruleset_name("/etc/passwd"), is_ruleset_name("a.yaml")
    (True, False, False)
    """
    return RULESET_NAME.fullmatch(text) is not None


def resolve_name(name: str) -> Path:
    """The file of the ruleset called ``name``: registered, bundled, or on the search path.

    Only names are looked up, never paths, and never in the working folder:
    this is how a record's ``[Ruleset "..."]`` tag is resolved.

    >>> resolve_name("mariazza").name
    'mariazza.yaml'
    >>> try:
    ...     resolve_name("../../etc/passwd")
    ... except UnknownRulesetError as exc:
    ...     print(str(exc)[:40])
    unknown ruleset '../../etc/passwd' (know
    """
    if is_ruleset_name(name):
        registered = _registered(name)
        if registered is not None:
            return registered
        for base in [spec_dir(), *search_path()]:
            p = base / f"{name}.yaml"
            if p.is_file():
                return p
    raise UnknownRulesetError(name, known_rulesets())


def _looks_like_path(text: str) -> bool:
    return Path(text).suffix in (".yaml", ".yml") or "/" in text or os.sep in text


def resolve_ruleset(name_or_path: str | Path, relative_to: Path | None = None) -> Path:
    """The file a ruleset name or path stands for.

    A :class:`~pathlib.Path`, or text that looks like a path (with a folder
    separator or a ``.yaml``/``.yml`` ending), is a file the user named. Any
    other text is a ruleset name (:func:`resolve_name`): registered files
    (:func:`~mariage.spec.specload.register_spec`), the bundled rulesets, then the folders of
    ``MARIAGE_SPEC_PATH``; the working folder is never searched. With
    ``relative_to`` (the folder of a description that ``extends:`` it), see
    :func:`resolve_parent`.

    >>> resolve_ruleset("marianna").name
    'marianna.yaml'
    """
    if isinstance(name_or_path, Path):
        return name_or_path
    text = str(name_or_path)
    if relative_to is not None:
        return resolve_parent(text, relative_to)
    if _looks_like_path(text):
        return Path(text)  # a path: read it, and report what is wrong with it
    try:
        return resolve_name(text)
    except UnknownRulesetError as exc:
        try:
            here = "\0" not in text and Path(text).exists()
        except (OSError, ValueError):  # a name too long for a file
            here = False
        if here:  # a file named like a ruleset: not read
            raise UnknownRulesetError(text, exc.known, f"; to read the file '{text}' here, "
                                      f"give it as a path: ./{text}") from None
        raise


def extends_anywhere() -> bool:
    """Whether ``extends:`` may name a file anywhere (see :func:`resolve_parent`)."""
    return os.environ.get(EXTENDS_ANYWHERE_ENV, "") not in ("", "0")


def resolve_parent(text: str, folder: Path) -> Path:
    """The file that ``extends: text`` names, in a description kept in ``folder``.

    A name is looked for as ``folder/NAME.yaml``, then as :func:`resolve_name`
    does. A path (relative to ``folder``) must lead, links followed, into
    ``folder``, the bundled rulesets or a folder of ``MARIAGE_SPEC_PATH``,
    unless ``MARIAGE_EXTENDS_ANYWHERE=1`` (``--allow-extends-anywhere``);
    otherwise :class:`SpecFileError`, before the file is opened.
    """
    if not _looks_like_path(text):
        if text not in ("", ".", "..") and "\0" not in text:  # a file name in the folder
            p = folder / f"{text}.yaml"
            try:
                if p.exists():
                    return p
            except OSError:  # a name too long for a file: no such file, so a name
                pass
        return resolve_name(text)
    candidate = Path(text)
    path = candidate if candidate.is_absolute() else folder / candidate
    if extends_anywhere():
        return path
    real = real_path(path)  # a loop of links, a NUL: opening the file says so
    for base in (folder, spec_dir(), *search_path()):
        if real.is_relative_to(real_path(base)):
            return path
    raise SpecFileError("'extends' names a file outside the description's folder, the "
                        f"bundled rulesets and {SEARCH_PATH_ENV}; not read (pass "
                        "--allow-extends-anywhere to allow it)", location=Location(text[:200]))


def cache_context(path: Path) -> tuple[object, ...]:
    """What a loaded description depends on besides file contents (for the disk cache).

    >>> cache_context(resolve_ruleset("marianna"))[0].endswith("marianna.yaml")
    True
    """
    try:
        here = os.getcwd()
    except OSError:  # the working folder was removed: names are shown absolute
        here = ""
    return (str(real_path(path)), here, sorted(_REGISTERED.items()),
            os.environ.get(_FILES_ENV, ""), os.environ.get(SEARCH_PATH_ENV, ""),
            extends_anywhere())


def _named_past(name: str, itself: Path) -> Path | None:
    """The ruleset called ``name`` other than the file ``itself``: the bundled one, else one
    on the search path (``None`` if there is none). A description never extends itself,
    so ``extends: thousand`` in a description that is itself found by that name (a
    ``--spec`` file with ``ruleset: thousand``, a ``thousand.yaml``) means the next
    ruleset of the name, as it did before the file was made known by it."""
    mine = real_path(itself)
    for base in [spec_dir(), *search_path()]:
        p = base / f"{name}.yaml"
        if p.is_file() and real_path(p) != mine:
            return p
    return None
