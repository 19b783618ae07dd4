"""The package's architecture, checked from its source: layers, one-way imports, no cycle.

The import graph of every module of ``mariage`` is built from the AST: imports
at module level and inside functions and methods, and ``importlib`` imports of
a literal name or prefix; imports under ``if TYPE_CHECKING:`` are left out (they
never run). Two properties are checked:

* no import cycle anywhere (a function-level import that goes back up counts);
* every import goes down the layer order of ``docs/architecture.rst``
  (:data:`LAYERS`), or stays inside its own folder; the rooms of one layer do
  not import each other; inside ``spec/`` each stage of the road imports only
  earlier ones (:data:`SPEC_ROAD`).
"""

from __future__ import annotations

import ast
import functools
import importlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import mariage
import pytest

PACKAGE = Path(mariage.__file__).resolve().parent

#: The layers, lowest first; each is a list of rooms, each room a list of module
#: prefixes (``mariage.spec`` covers ``mariage.spec.compile``...). A module
#: belongs to the room of its longest matching prefix; ``=name`` matches that
#: module alone: ``mariage`` itself (the facade: it imports only its helper
#: ``mariage.lazynames``, which imports nothing, and loads
#: each public name on first use), and the packages ``mariage.engine`` and
#: ``mariage.arena``, whose ``__init__`` runs whenever one of their modules is
#: imported, so it sits in the lowest layer of its folder.
LAYERS: list[tuple[str, list[list[str]]]] = [
    ("base", [["=mariage", "mariage.lazynames", "mariage.errors", "mariage.resources",
               "mariage.outfile", "mariage.terminate",
               "mariage.infile", "mariage.lazyrecord", "mariage.tuplerecord",
               "mariage.codegen"]]),
    ("vocabulary", [["=mariage.engine", "mariage.engine.actions", "mariage.engine.actiontext",
                     "mariage.engine.rules", "mariage.engine.optionnote"]]),
    ("spec", [["mariage.spec"]]),
    ("engine", [["mariage.engine"]]),
    ("notation", [["mariage.notation"]]),
    ("bots", [["=mariage.arena", "mariage.arena.bots", "mariage.arena.cardplay",
               "mariage.arena.search", "mariage.arena.ismcts",
               "mariage.arena.plainbots"]]),
    ("services", [["mariage.conformance"], ["mariage.rulebook"], ["mariage.viewer"],
                  ["mariage.ai"]]),
    ("arena", [["mariage.arena"]]),
    ("commands", [["mariage.commands"]]),
    ("cli", [["mariage.cli", "mariage.__main__"]]),
]

#: The stages of loading a description, in the order of the road; a stage may
#: import only the stages before it. ``diskcache`` is the store the merged
#: documents and the compiled rules are kept in: it knows neither.
SPEC_ROAD = [
    "mariage.spec",
    "mariage.spec.yamlread",
    "mariage.spec.diskcache",
    "mariage.spec.specnames",
    "mariage.spec.specload",
    "mariage.spec.options",
    "mariage.spec.compile_games",
    "mariage.spec.compile",
    "mariage.spec.rulesload",  # the compiler imported on a miss only
]


@dataclass(frozen=True)
class Import:
    """One import that runs: the importing module, the imported one, where."""

    source: str
    target: str
    line: int

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} (line {self.line})"


def _module_files() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[1:2] == ["_data"]:  # an installed copy of the project's files (the
            continue  # example engine of conformance/examples is data, not the package)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _module_files()
#: the packages whose public names are loaded on first use (``mariage.lazynames``: the
#: facade, the arena, the notation, the viewer):
#: package -> {public name -> the module it comes from}
LAZY_PACKAGES = {
    package: {name: f"{package}.{where}"
              for name, where in importlib.import_module(package)._LAZY.items()}
    for package, path in MODULES.items()
    if path.name == "__init__.py" and "lazy_names(" in path.read_text(encoding="utf-8")}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[Import] = []

    def add(self, target: str, node: ast.AST) -> None:
        if target == self.module or not (target == "mariage" or
                                         target.startswith("mariage.")):
            return
        line = getattr(node, "lineno", 0)
        self.found.append(Import(self.module, target, line))
        # importing a.b.c runs the packages a.b first: an import of those too, unless
        # this module is inside them (they are loading, or loaded, already)
        parts = target.split(".")
        for i in range(2, len(parts)):
            package = ".".join(parts[:i])
            if package in MODULES and not (self.module + ".").startswith(package + "."):
                self.found.append(Import(self.module, package, line))

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for stmt in node.orelse:  # only the branch that runs
                self.visit(stmt)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.add(alias.name, node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")
            base = base[:len(base) - (node.level - 1)]
            where = ".".join(base + ([node.module] if node.module else []))
        else:
            where = node.module or ""
        for alias in node.names:
            sub = f"{where}.{alias.name}"
            if sub in MODULES:
                self.add(sub, node)
            elif alias.name in LAZY_PACKAGES.get(where, {}):
                # the package (the facade, notation, viewer) loads it from there on first use
                self.add(LAZY_PACKAGES[where][alias.name], node)
            else:
                self.add(where, node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("import_module", "__import__") and node.args and \
                self.module != "mariage":  # the facade's lazy names: resolved above
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                self.add(arg.value, node)
            elif isinstance(arg, ast.JoinedStr) and arg.values and \
                    isinstance(arg.values[0], ast.Constant):
                prefix = str(arg.values[0].value)  # f"mariage.commands.{name}": each of them
                for target in MODULES:
                    if target.startswith(prefix):
                        self.add(target, node)
        self.generic_visit(node)


@functools.cache
def _graph() -> list[Import]:
    """Every import of the package (read when a test first asks: not when the tests are
    collected, by every worker of every run)."""
    found: list[Import] = []
    for module, path in MODULES.items():
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        found.extend(visitor.found)
    return found



def _room_of(module: str) -> tuple[int, int]:
    """(layer index, room index) of ``module``."""
    best: tuple[int, int, int] | None = None
    for li, (_, rooms) in enumerate(LAYERS):
        for ri, prefixes in enumerate(rooms):
            for entry in prefixes:
                exact, prefix = entry.startswith("="), entry.lstrip("=")
                inside = module == prefix or (not exact and module.startswith(prefix + "."))
                if inside and (best is None or len(prefix) > best[0]):
                    best = (len(prefix), li, ri)
    if best is None:
        raise AssertionError(f"{module} is in no layer: add it to LAYERS and the page")
    return best[1], best[2]


def _cycles(edges: list[Import]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), or a
    module that imports itself."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for e in edges:
        if e.target in graph:
            graph[e.source].add(e.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_imports_of_every_kind() -> None:
    """The checks below can fail: each kind of import the package uses is seen."""
    pairs = {(e.source, e.target) for e in _graph()}
    assert ("mariage.engine.state", "mariage.engine.mechanisms") in pairs  # module level
    assert ("mariage.cli", "mariage.spec.specload") in pairs  # inside a function
    assert ("mariage.cli", "mariage.commands.completion") in pairs  # importlib, by prefix
    assert ("mariage.spec.diskcache", "mariage") in pairs  # the facade's __version__
    # a lazy name of a package: the module that defines it
    assert ("mariage.conformance.generate", "mariage.notation.recorder") in pairs
    assert ("mariage.conformance.engine", "mariage.arena") in pairs  # arena/__init__ runs
    assert ("mariage.notation.replay", "mariage.notation") not in pairs  # its own package
    # under TYPE_CHECKING: never run, not an import
    assert ("mariage.engine.mechanisms.base", "mariage.engine.state") not in pairs
    assert len(MODULES) > 100


def test_a_cycle_and_an_upward_import_are_found() -> None:
    """The checks on a made-up graph: a cycle through a function-level import back up."""
    made_up = [Import("mariage.spec.specload", "mariage.spec.compile", 1),
               Import("mariage.spec.compile", "mariage.spec.specload", 2)]
    assert _cycles(made_up) == [["mariage.spec.compile", "mariage.spec.specload"]]
    assert _upward(made_up) == [str(made_up[0])]


def test_no_import_cycle_at_run_time() -> None:
    assert _cycles(_graph()) == []


def _upward(edges: list[Import]) -> list[str]:
    bad: list[str] = []
    for e in edges:
        (sl, sr), (tl, tr) = _room_of(e.source), _room_of(e.target)
        back_on_road = e.source in SPEC_ROAD and e.target in SPEC_ROAD and \
            SPEC_ROAD.index(e.target) > SPEC_ROAD.index(e.source)
        if (tl > sl or (tl == sl and tr != sr) or back_on_road) and str(e) not in bad:
            bad.append(str(e))
    return bad


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        _room_of(module)


def test_imports_go_down_the_layers_and_the_road() -> None:
    assert _upward(_graph()) == []


@pytest.mark.parametrize("stage", SPEC_ROAD[1:])
def test_each_stage_of_the_road_is_a_module(stage: str) -> None:
    assert stage in MODULES


def test_the_facade_imports_nothing_when_loaded() -> None:
    """``mariage`` can be read by any module (``__version__``) because it imports nothing
    but its helper for lazy names, which imports nothing of the package."""
    assert {e.target for e in _graph() if e.source == "mariage"} == {"mariage.lazynames"}
    assert [e for e in _graph() if e.source == "mariage.lazynames"] == []
    assert set(LAZY_PACKAGES) == {"mariage", "mariage.arena", "mariage.notation",
                                  "mariage.viewer"}


@pytest.mark.parametrize("package", sorted(LAZY_PACKAGES))
def test_no_lazy_name_is_also_a_module_of_its_package(package: str) -> None:
    """A name loaded on first use must not be a submodule's name too: importing the
    submodule binds the name to the module, and the function is never loaded
    (``from mariage.viewer import timeline`` gave the module, after ``mariage replay``'s
    import of ``mariage.viewer.timeline``)."""
    modules = {m.rpartition(".")[2] for m in MODULES if m.startswith(package + ".")
               and m.count(".") == package.count(".") + 1}
    assert sorted(set(LAZY_PACKAGES[package]) & modules) == []


def test_the_viewers_timeline_is_the_function_whatever_was_imported_first() -> None:
    import subprocess
    import sys

    code = ("import mariage.viewer.timeline, mariage.viewer.draw\n"
            "from mariage.viewer import timeline, render_svg\n"
            "print(callable(timeline), callable(render_svg))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True"]


# ------------------------------------------------------------------ mechanisms meet by hooks
def _mechanism_modules() -> list[str]:
    skip = {"mariage.engine.mechanisms", "mariage.engine.mechanisms.base",
            "mariage.engine.mechanisms.hooks"}
    return [m for m in MODULES if m.startswith("mariage.engine.mechanisms.") and m not in skip]


def _cross_calls(tree: ast.AST) -> list[tuple[int, str, str | None]]:
    """(line, role, method or None) for each use of ``st.mech.ROLE`` or ``mech.ROLE``."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    out: list[tuple[int, str, str | None]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        base = node.value
        if (isinstance(base, ast.Attribute) and base.attr == "mech") or \
                (isinstance(base, ast.Name) and base.id == "mech"):
            parent = parents.get(node)
            method = parent.attr if isinstance(parent, ast.Attribute) else None
            out.append((node.lineno, node.attr, method))
    return out


def _undeclared_steps(source: str, name: str) -> list[str]:
    from mariage.engine.mechanisms import DEFAULT_MECHANISMS

    bad = []
    for line, role, method in sorted(_cross_calls(ast.parse(source)), key=lambda c: c[0]):
        mechanism = getattr(DEFAULT_MECHANISMS, role, None)
        if mechanism is None:
            bad.append(f"{name}:{line}: mech.{role} is no mechanism of the set")
        elif method not in type(mechanism).steps:
            bad.append(f"{name}:{line}: mech.{role}.{method} is not one of the steps "
                       f"{type(mechanism).__name__} declares {type(mechanism).steps}")
    return bad


@pytest.mark.parametrize("module", _mechanism_modules())
def test_a_mechanism_takes_only_the_declared_steps_of_another(module: str) -> None:
    path = MODULES[module]
    assert _undeclared_steps(path.read_text(encoding="utf-8"), path.name) == []


def test_a_call_to_an_undeclared_method_of_another_mechanism_is_found() -> None:
    source = ("def f(st, winner):\n"
              "    st.mech.claims.after_trick(st, winner)\n"
              "    mech = st.mech\n"
              "    scoring = mech.scoring\n"
              "    st.mech.scoring.end_hand(st, 'target')\n")
    assert _undeclared_steps(source, "x.py") == [
        "x.py:2: mech.claims.after_trick is not one of the steps Claims declares ()",
        "x.py:4: mech.scoring.None is not one of the steps Scoring declares "
        "('end_hand', 'target_reached')"]


def test_every_declared_step_is_a_method() -> None:
    from mariage.engine.mechanisms import DEFAULT_MECHANISMS

    for mechanism in DEFAULT_MECHANISMS.all():
        for step in type(mechanism).steps:
            assert callable(getattr(mechanism, step, None)), (type(mechanism).__name__, step)


def _rules_under_each_option_value() -> Iterator[mariage.Rules]:
    """Each ruleset with its defaults, then each with each value of each enum or bool option.

    A generator: a caller that has seen what it needs stops compiling (about 1,000
    rulesets in all, each compiled cold on a fresh checkout).
    """
    from mariage.spec.options import option_specs, playable
    from mariage.spec.specload import load_document

    names = mariage.list_rulesets()
    for name in names:
        yield mariage.load_rules(name)
    for name in names:
        doc = load_document(name)
        for option, spec in option_specs(doc).items():
            values = spec.get("values") or ([True, False] if spec["type"] == "bool" else [])
            yield from (mariage.load_rules(name, {option: v}) for v in values
                        if playable(doc, {option: v}))


@pytest.mark.slow  # compiles rulesets under option values until every hook is answered
def test_every_hook_is_raised_and_answered() -> None:
    from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    from mariage.engine.mechanisms.hooks import HOOK_NAMES, hooks_of

    sources = "".join(MODULES[m].read_text(encoding="utf-8") for m in _mechanism_modules())
    for hook in HOOK_NAMES:
        assert f"hooks.{hook}" in sources, f"hook {hook} is raised nowhere"
    answered: set[str] = set()
    for rules in _rules_under_each_option_value():
        table = hooks_of(DEFAULT_MECHANISMS.all(), rules)
        answered.update(hook for hook in HOOK_NAMES if getattr(table, hook))
        if answered == set(HOOK_NAMES):
            break
    assert answered == set(HOOK_NAMES), f"answered by no ruleset: {set(HOOK_NAMES) - answered}"


def test_a_hook_that_does_not_exist_is_refused() -> None:
    from mariage.engine.mechanisms import Claims
    from mariage.engine.mechanisms.hooks import hooks_of

    class Misnamed(Claims):
        __slots__ = ()

        def hooks(self, rules: mariage.Rules) -> tuple[tuple[str, str], ...]:
            return (("after_trik", "after_trick"),)

    with pytest.raises(ValueError, match="after_trik"):
        hooks_of([Misnamed()], mariage.load_rules("schnapsen"))


# ------------------------------------------------------------------ the page
PAGE = Path(__file__).resolve().parent.parent / "docs" / "architecture.rst"


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_the_page_names_every_module_of_the_package() -> None:
    page = _page()
    missing = [m for m in MODULES if f"``{m}``" not in page]
    assert missing == [], f"docs/architecture.rst does not name: {missing}"


def test_the_page_names_no_module_that_is_gone() -> None:
    import re

    named = set(re.findall(r"``(mariage(?:\.[a-z_0-9]+)*)``", _page()))
    assert named - set(MODULES) == set()


def test_the_page_lists_the_layers_in_the_order_the_test_checks() -> None:
    import re

    table = _page().split("The layers\n----------", 1)[1].split("\nThe map\n", 1)[0]
    rows = re.findall(r"^   \* - (\S+)$", table, re.M)
    assert rows[1:] == [name for name, _ in LAYERS]  # the first row is the heading
