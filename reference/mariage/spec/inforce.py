"""Which rules a configuration switches off: the rules *not in force*.

A rule is written down under a path of the game description (``closing``,
``scoring.closer`` ...). An option may switch a whole part of the game off
(``enabled: false`` on a mapping, as ``close_allowed=false`` does to ``closing``);
every rule at or under a switched-off path is then not in force: the rulebook
prints it as such, and the conformance runner leaves it out of a configuration's
rule coverage, since no match under that configuration can check it.

>>> from mariage import load_rules
>>> "schnapsen.close" in not_in_force(load_rules("schnapsen", {"close_allowed": False}))
True
>>> "schnapsen.close" in not_in_force(load_rules("schnapsen"))
False
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine.rules import RuleInfo, Rules

__all__ = ["disabled_paths", "in_force", "not_in_force"]


def disabled_paths(data: Any, path: tuple[str, ...] = ()) -> set[str]:
    """Dotted paths of every mapping of ``data`` switched off with ``enabled: false``."""
    out: set[str] = set()
    if isinstance(data, dict):
        if data.get("enabled", True) is False and path:
            out.add(".".join(path))
        for k, v in data.items():
            out |= disabled_paths(v, (*path, str(k)))
    return out


def in_force(info: RuleInfo, disabled: set[str]) -> bool:
    """False if the rule's path, or a path above it, is in ``disabled``."""
    parts = info.path.split(".")
    return not any(".".join(parts[:i]) in disabled for i in range(1, len(parts) + 1))


def not_in_force(rules: Rules) -> tuple[str, ...]:
    """The IDs of the rules of ``rules`` that its options switch off, in document order."""
    disabled = disabled_paths(rules.document)
    return tuple(i.id for i in rules.infos if not in_force(i, disabled))
