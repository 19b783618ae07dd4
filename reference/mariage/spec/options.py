"""Options: their declarations in a description, their values, and applying them.

Kept apart from the compiler so that reading what a ruleset is (``mariage
list``) does not import the compiled rules' classes.

>>> from mariage.spec.specload import load_document
>>> summary(load_document("marianna-2"))
Summary(title='Marianna for two', parent='marianna', nseats=2, ncards=40)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from mariage.errors import OptionError, SpecError, did_you_mean

from .specload import Document, deep_copy

__all__ = ["Summary", "option_specs", "parse_option_value", "resolve", "summary", "value_key"]


def option_specs(doc: Document) -> dict[str, dict[str, Any]]:
    """The option declarations of a description, by name."""
    opts: dict[str, dict[str, Any]] = doc.data.get("options", {}) or {}
    return opts


def parse_option_value(name: str, spec: Mapping[str, Any], raw: Any) -> Any:
    """Convert ``raw`` (a string from a command line, or a typed value) to the option's type."""
    kind = spec["type"]
    if kind == "int":
        if isinstance(raw, bool):
            raise OptionError(f"option '{name}' takes a whole number, got {raw!r}", option=name)
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise OptionError(f"option '{name}' takes a whole number, got {raw!r}",
                              option=name) from None
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = (f"between {lo} and {hi}" if lo is not None and hi is not None
                      else f"at least {lo}" if lo is not None else f"at most {hi}")
            raise OptionError(f"option '{name}' must be {bounds}, got {value}", option=name)
        return value
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option '{name}' takes true or false, got {raw!r}", option=name)
    values = spec["values"]
    for v in values:
        if str(v) == str(raw):
            return v
    raise OptionError(f"option '{name}' takes one of {', '.join(map(str, values))}; "
                      f"got {raw!r}", option=name)


def value_key(value: Any) -> str:
    """How an option value is written as a key of its ``effects``."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _set_path(data: dict[str, Any], path: str, value: Any, doc: Document, where: str) -> None:
    parts = path.split(".")
    node: Any = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not isinstance(node, dict) or (part not in node and not last):
            raise SpecError(f"option effect names '{path}', which does not exist "
                            f"(no '{'.'.join(parts[:i + 1])}')", location=doc.where(where),
                            path=where, code="S010")
        if i == len(parts) - 1:
            node[part] = deep_copy({"v": value})["v"]
        else:
            node = node[part]


def resolve(doc: Document, options: Mapping[str, Any] | None = None
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply option values to a description; return (data, option values in force)."""
    specs = option_specs(doc)
    given = dict(options or {})
    for name in given:
        if name not in specs:
            raise OptionError(f"{doc.data['ruleset']} has no option '{name}' (options: "
                              f"{', '.join(specs) or 'none'})" + did_you_mean(name, specs),
                              option=name)
    values: dict[str, Any] = {}
    data = deep_copy(doc.data)
    for name, spec in specs.items():
        raw = given.get(name, spec["default"])
        value = parse_option_value(name, spec, raw)
        values[name] = value
        for path in spec.get("binds", []) or []:
            _set_path(data, path, value, doc, f"options.{name}.binds")
        effects = (spec.get("effects") or {}).get(value_key(value), {}) or {}
        for path, v in effects.items():
            _set_path(data, path, v, doc, f"options.{name}.effects.{value_key(value)}.{path}")
    return data, values


class Summary(NamedTuple):
    """What ``mariage list`` shows of a ruleset with its default options."""

    title: str
    parent: str | None
    nseats: int
    ncards: int


def summary(doc: Document) -> Summary:
    """The title, parent, seats and cards of ``doc`` with its default options, read
    from the description as the compiler reads them (without compiling it)."""
    data, _ = resolve(doc)
    pack = data["pack"]
    removed = {str(x) for x in pack.get("remove_ranks", [])}
    ranks = [str(x) for x in pack["ranks"] if str(x) not in removed]
    ncards = len(pack["suits"]) * len(ranks) - len(pack.get("remove_cards", []))
    return Summary(data["name"], data.get("parent"), data["players"]["count"], ncards)
