"""``load_rules``: a ruleset's compiled :class:`~mariage.engine.rules.Rules`, from this
process's cache, else the disk cache, else compiled (:mod:`mariage.spec.compile`).

A warm command (``validate``, ``replay``, ``stats``) finds its rules in the disk cache;
the compiler, the option machinery and the YAML reader are imported only when it does
not (issue #28's start-up: no module imported that the command does not use).

>>> rules = load_rules("schnapsen")
>>> rules.ruleset, rules.name, rules.option("match_target")
('schnapsen', 'Schnapsen', 7)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mariage.engine.rules import Rules
from mariage.errors import SpecError

from . import diskcache
from .specnames import cache_context, on_registry_change, resolve_ruleset

if TYPE_CHECKING:
    from .specload import Document

__all__ = ["load_rules"]

_RULES_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Rules] = {}
on_registry_change(_RULES_CACHE.clear)  # the cache names rulesets, which registering changes
#: disk-cache key of a description -> (the description, each of its files with the digest
#: of its content when read): read once per process for the compilations of its option
#: values, which copy what they change (:func:`~mariage.spec.options.resolve`)
_DOCUMENTS: dict[str, tuple[Document, tuple[tuple[str, str | None], ...]]] = {}
on_registry_change(_DOCUMENTS.clear)


def load_rules(name_or_path: str | Path, options: Mapping[str, Any] | None = None) -> Rules:
    """Load and compile a ruleset (bundled name or file path) with option values.

    Results are cached per (ruleset, options): the returned object is immutable.
    A name that is not a string or path, or ``options`` that are not a mapping of
    option names, is refused with a TypeError saying so; an unknown ruleset, option or
    value with a :class:`~mariage.errors.MariageError` (:class:`~mariage.errors.OptionError`
    for an option).

    >>> rules = load_rules("schnapsen")
    >>> rules.ruleset, rules.name, rules.option("match_target")
    ('schnapsen', 'Schnapsen', 7)
    >>> load_rules("schnapsen", {"match_target": 11}).option("match_target")
    11
    >>> load_rules("schnapsen") is rules
    True
    >>> load_rules("marianna-3").parent  # a variant extends its parent's description
    'marianna'
    """
    if not isinstance(name_or_path, str | Path):
        raise TypeError(f"load_rules: the ruleset must be a name or a path, "
                        f"not {type(name_or_path).__name__}")
    if options is not None:
        if not isinstance(options, Mapping):
            raise TypeError(f"load_rules: options must be a mapping of option names to "
                            f"values (a dict), not {type(options).__name__}")
        for name in options:
            if not isinstance(name, str):
                raise TypeError(f"load_rules: an option name is a string, "
                                f"not {name!r} ({type(name).__name__})")
    key = (str(name_or_path), tuple(sorted((k, _key_text(v)) for k, v in (options or {}).items())))
    cached = _RULES_CACHE.get(key)
    if cached is not None:
        return cached
    rules = _build_cached(name_or_path, options or {})
    _RULES_CACHE[key] = rules
    return rules


def _key_text(value: object) -> str:
    """An option value as a cache key holds it: ``str``, but for a whole number too long to
    write out (refused by its option, yet ``str`` of it would raise first)."""
    if type(value) is int and value.bit_length() > 4000:
        return f"int:{value.bit_length()}:{hash(value)}"
    return str(value)


def _build_cached(name_or_path: str | Path, options: Mapping[str, Any]) -> Rules:
    """:func:`~mariage.spec.compile.build`, through the disk cache
    (:mod:`mariage.spec.diskcache`)."""
    path = resolve_ruleset(name_or_path)
    context = cache_context(path)
    key = diskcache.make_key("rules", *context,
                             sorted((k, _key_text(v)) for k, v in options.items()))
    hit = diskcache.load(key)
    if isinstance(hit, Rules):
        return hit
    from .compile import build  # the compiler, only on a miss
    from .options import options_at_fault

    doc = _document(path, name_or_path)
    try:
        rules = build(doc, options)
    except SpecError as exc:
        if options:
            load_rules(name_or_path)  # at its defaults: a problem there is the description's
            raise options_at_fault(doc, options, exc) from exc
        raise
    diskcache.store(key, rules, doc.paths)
    return rules


def _document(path: Path, name_or_path: str | Path) -> Document:
    """:func:`load_document` of ``name_or_path`` (resolved to ``path``), kept for this
    process while none of its files changes: compiling every value of every option reads
    the same description hundreds of times, and each reading checks it against the
    schema again (the disk cache keeps fewer entries than that)."""
    key = diskcache.make_key("document", *cache_context(path))
    held = _DOCUMENTS.get(key)
    if held is not None and all(diskcache.file_digest(f) == d for f, d in held[1]):
        return held[0]
    from .specload import load_document  # (YAML and the schema, only on a miss)

    doc = load_document(name_or_path)
    if len(_DOCUMENTS) >= 64:  # bounded, whatever the caller loads
        _DOCUMENTS.clear()
    _DOCUMENTS[key] = (doc, tuple((f, diskcache.file_digest(f)) for f in doc.paths))
    return doc
