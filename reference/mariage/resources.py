"""Where the bundled data lives: ``spec/``, ``grammar/`` and ``conformance/``.

In an installed wheel they sit in ``mariage/_data/``; in a source checkout
they are the top-level folders of the repository.

>>> (spec_dir() / "marianna.yaml").exists()
True
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["conformance_dir", "data_dir", "grammar_dir", "schema_path", "spec_dir"]

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The bundled folder ``name`` (``spec``, ``grammar`` or ``conformance``)."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"bundled data folder '{name}' is missing from this installation")


def spec_dir() -> Path:
    """The folder of bundled rulesets."""
    return data_dir("spec")


def grammar_dir() -> Path:
    """The folder of the record grammar."""
    return data_dir("grammar")


def conformance_dir() -> Path:
    """The folder of the conformance suite."""
    return data_dir("conformance")


def schema_path() -> Path:
    """The JSON Schema of a game description."""
    return spec_dir() / "schema" / "game.schema.json"
