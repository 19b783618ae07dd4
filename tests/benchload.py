"""The benchmarks' scripts loaded as modules by the tests that check them (the
``benchmarks`` folder is no package): each loaded once a process, by its file name.

>>> load("minimal_marianna").__name__
'minimal_marianna'
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["BENCH", "load"]

#: the benchmarks' folder
BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


def load(name: str) -> ModuleType:
    """The benchmark script ``name`` (without ``.py``) as a module, kept in
    ``sys.modules`` under that name (a script that imports another by name finds it: the
    folder is put on the import path)."""
    if name in sys.modules:
        return sys.modules[name]
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
