"""Every class and function of the public API shows how it is used: its own docstring
holds at least one doctest example that prints something (``tests/test_doctests.py``
runs them all and checks their output).

The public API is what ``mariage.__all__`` and ``mariage.notation.__all__`` export,
and the search player of :mod:`mariage.arena.search`. Only a docstring's own examples
count: not the module's, and not one inherited from a base class.
"""

from __future__ import annotations

import doctest
import importlib
import inspect

import pytest

PACKAGES = ["mariage", "mariage.notation"]
EXTRA = [("mariage.arena.search", "MonteCarloBot"), ("mariage.arena.search", "determinize")]


def _public() -> list[tuple[str, str]]:
    names = []
    for package in PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) or inspect.isfunction(obj):
                names.append((package, name))
    return names + EXTRA


PUBLIC = _public()


def shown_examples(obj: object) -> list[doctest.Example]:
    """The examples of ``obj``'s own docstring that show an output (or an exception)."""
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return []
    examples = doctest.DocTestParser().get_examples(doc)
    return [e for e in examples if e.want.strip() or e.exc_msg]


def test_the_public_api_is_found() -> None:
    assert len(PUBLIC) >= 60
    assert ("mariage", "load_rules") in PUBLIC and ("mariage.notation", "Recorder") in PUBLIC
    assert ("mariage", "Action") not in PUBLIC  # a type alias: no docstring of its own


@pytest.mark.parametrize(("module", "name"), PUBLIC, ids=[f"{m}.{n}" for m, n in PUBLIC])
def test_has_an_example(module: str, name: str) -> None:
    obj = getattr(importlib.import_module(module), name)
    assert shown_examples(obj), f"{module}.{name} has no doctest example in its docstring"


def test_an_example_only_counts_in_the_objects_own_docstring() -> None:
    class Base:
        """A base.

        >>> 1 + 1
        2
        """

    class Bare(Base):
        pass

    class Silent:
        """Runs, shows nothing.

        >>> x = 1
        """

    def documented() -> None:
        """A function.

        >>> print("used")
        used
        """

    assert shown_examples(Base) and shown_examples(documented)
    assert shown_examples(Bare) == [] and shown_examples(Silent) == []
