"""A package's public names imported on first use (:pep:`562`), for its ``__init__``.

``mariage`` and ``mariage.notation`` name what they offer in a table, public
name -> the module of the package that defines it, and import each module
only when one of its names is first asked for, so that a command imports only
the modules it runs. This module imports nothing of the package, so the
facade that uses it still imports nothing when it is loaded.

>>> import types
>>> pkg = types.ModuleType("mariage")
>>> getter, lister = lazy_names(pkg.__dict__, {"GameState": "engine.state"})
>>> getter("GameState").__name__, "GameState" in pkg.__dict__
('GameState', True)
>>> "GameState" in lister()
True
>>> getter("Nothing")
Traceback (most recent call last):
    ...
AttributeError: module 'mariage' has no attribute 'Nothing'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(namespace: dict[str, Any], where: Mapping[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of the package whose globals are
    ``namespace``: each name of ``where`` is imported from the package's module
    ``where[name]`` (relative to the package) when first asked for, then kept in
    ``namespace`` so that later lookups do not come here again.
    """
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted([*namespace, *where])

    return __getattr__, __dir__
