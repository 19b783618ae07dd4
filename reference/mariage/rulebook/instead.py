"""What a rule an option value puts out of force says happens instead.

An option's effects may switch a rule off and give it a text of its own: Thousand's
``raise_allowed=false`` switches the raise off and says that the winning bid is the
contract. The rulebook prints that text after "not in force".

>>> spec = {"effects": {False: {"contract.raise.enabled": False,
...                             "contract.raise.text": "The bid is the contract."}}}
>>> data = {"contract": {"raise": {"id": "x.contract.raise"}}}
>>> says_instead(spec, "false", "x.contract.raise", data, lambda v: str(v).lower())
True
>>> says_instead(spec, "true", "x.contract.raise", data, lambda v: str(v).lower())
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["says_instead"]


def says_instead(spec: dict[str, Any], shown: str, rid: str, data: Any,
                 show: Callable[[Any], str]) -> bool:
    """True if the effects of the option value ``shown`` (as ``show`` writes values)
    give the rule ``rid`` a text of its own (``PATH.text`` where ``PATH`` is the rule)."""
    for key, effects in (spec.get("effects") or {}).items():
        if show(key) != shown or not isinstance(effects, dict):
            continue
        for path in effects:
            if path.endswith(".text") and _rule_id(data, path[:-len(".text")]) == rid:
                return True
    return False


def _rule_id(data: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(part)
    return data.get("id") if isinstance(data, dict) else None
