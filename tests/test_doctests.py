"""Every docstring example of the package runs and gives the output it shows.

Each module of :mod:`mariage` is found by walking the installed package, so a
new module is tested without being listed here. One module is not imported:
``mariage.__main__`` (importing it runs the command line; the CLI tests run it
in a real process). The Sphinx extension is tested too: the ``test`` extra
installs Sphinx, so the README's test command runs every module's examples.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
from types import ModuleType

import mariage
import pytest

SCRIPTS = {"mariage.__main__"}
CORE = ["mariage", "mariage.engine.actions", "mariage.spec.compile", "mariage.engine.deals",
        "mariage.errors",
        "mariage.engine.observation", "mariage.engine.prng", "mariage.engine.rules",
        "mariage.spec.specload",
        "mariage.engine.state", "mariage.arena.bots", "mariage.resources"]


def _modules() -> list[str]:
    names = ["mariage"]
    for info in pkgutil.walk_packages(mariage.__path__, "mariage."):
        if info.name in SCRIPTS:
            continue
        names.append(info.name)
    return sorted(names)


MODULES = _modules()
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _run(module: ModuleType) -> doctest.TestResults:
    return doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True)


def test_every_module_is_found() -> None:
    assert set(CORE) <= set(MODULES)
    assert "mariage.commands.play_cmd" in MODULES
    assert "mariage.rulebook.sphinxext" in MODULES
    assert len(MODULES) >= 20


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = _run(module)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


@pytest.mark.parametrize("name", CORE)
def test_core_modules_have_examples(name: str) -> None:
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert examples > 0, f"{name} has no docstring example"
