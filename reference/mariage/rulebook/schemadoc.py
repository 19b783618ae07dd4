"""The field reference of the spec language, read from the JSON Schema.

The documentation page of the spec language is generated from these rows,
so it says exactly what ``spec/schema/game.schema.json`` says.

>>> import json
>>> from mariage.resources import schema_path
>>> rows = schema_rows(json.loads(schema_path().read_text(encoding="utf-8")))
>>> next(r for r in rows if r[0] == "deal.turn_up")[1]
'one of none, dealer_last, under_stock, to_taker'
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["schema_rows"]

_RULE_FIELDS = ("id", "source", "text", "decided", "option", "enabled")


def _schema_type(s: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in s:
        name = str(s["$ref"]).rsplit("/", 1)[-1]
        return {"rule_id": "rule ID", "source": "citation(s)",
                "obligation": "play duties (see below)",
                "option": "option (see below)"}.get(name, name)
    if "const" in s:
        return f"always {json.dumps(s['const'])}"
    if "enum" in s:
        return "one of " + ", ".join(str(v) for v in s["enum"])
    kind = s.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    words = str({"integer": "whole number", "string": "text", "boolean": "true or false",
                 "object": "mapping", "array": "list"}.get(kind, kind))
    if kind == "array" and isinstance(s.get("items"), dict):
        words += " of " + _schema_type(s["items"], defs)
    if "minimum" in s:
        words += f" ≥ {s['minimum']}"
    if "maximum" in s:
        words += f" ≤ {s['maximum']}"
    if "pattern" in s:
        words += f" matching {s['pattern']}"
    return words


def schema_rows(schema: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """Every field of the schema: (path, type, required, description), depth first.

    The fields every rule shares (``id``, ``source``, ``text``...) are listed
    once under the path ``<rule>``.
    """
    defs = schema.get("$defs", {})
    rows: list[tuple[str, str, str, str]] = []

    def walk(s: dict[str, Any], path: str) -> None:
        props = s.get("properties", {})
        required = set(s.get("required", []))
        if all(k in props for k in ("id", "source", "text")):
            rows.append((path + ".<rule fields>", "rule", "yes",
                         "This mapping is a rule: it has id, source and text (see Every rule)."))
        for key, sub in props.items():
            if key in _RULE_FIELDS and all(k in props for k in ("id", "source", "text")):
                continue
            p = f"{path}.{key}" if path else key
            rows.append((p, _schema_type(sub, defs), "yes" if key in required else "",
                         " ".join(str(sub.get("description", "")).split())))
            walk(sub, p)
        extra = s.get("additionalProperties")
        if isinstance(extra, dict):
            p = f"{path}.<name>"
            rows.append((p, _schema_type(extra, defs), "",
                         " ".join(str(extra.get("description", "")).split())))
            walk(extra, p)
        items = s.get("items")
        if isinstance(items, dict) and items.get("type") == "object":
            walk(items, f"{path}[]")

    walk(schema, "")
    rule = defs.get("obligation", {}).get("properties", {}).get("free", {})
    for key in _RULE_FIELDS:
        sub = rule.get("properties", {}).get(key, {})
        rows.append((f"<rule>.{key}", _schema_type(sub, defs),
                     "yes" if key in rule.get("required", []) else "",
                     " ".join(str(sub.get("description", "")).split())))
    for name in ("obligation", "option"):
        d = defs.get(name, {})
        rows.append((f"<{name}>", "mapping", "", " ".join(str(d.get("description", "")).split())))
        walk(d, f"<{name}>")
    return rows
