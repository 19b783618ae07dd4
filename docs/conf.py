"""Sphinx configuration of the mariage documentation.

Rulebook pages, the comparison, the spec-language reference and the worked
examples are generated from spec/ by the extension mariage.rulebook.sphinxext; every
example is replayed by the interpreter while the pages are built.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import mariage

ROOT = Path(__file__).resolve().parent.parent

project = "mariage"
author = "the mariage authors"
copyright = "the mariage authors"  # noqa: A001 - the name Sphinx expects
release = mariage.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "myst_parser",
    "mariage.rulebook.sphinxext",
    "mariage.ai.docs",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
root_doc = "index"
nitpicky = False
suppress_warnings = ["myst.header"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"


def _missing(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return True
    return False


# The AI extra's frameworks: where they are not installed (``pip install '.[docs]'``
# alone), autodoc imports mariage.ai against stand-ins, so that the API page still
# documents every AI module and -W builds pass.
autodoc_mock_imports = [m for m in ("numpy", "gymnasium", "pettingzoo", "pyspiel",
                                    "open_spiel") if _missing(m)]
autodoc_typehints = "description"
autodoc_default_options: dict[str, bool] = {}



def _counts() -> str:
    """Substitutions for the counts the pages quote, computed at each build (never typed):
    ``|suite-tests|`` (the conformance suite), ``|RULESET-tests|`` per ruleset,
    ``|protocol-tests|`` (kind ``protocol``, ruleset ``*``: run against every engine) and
    ``|RULESET-run|``, the tests a run of an engine of that ruleset alone runs (its own
    and the protocol tests: the ``N run`` of the runner's summary line)."""
    from collections import Counter

    from mariage.conformance.suite import load_suite

    tests = load_suite()
    per = Counter(t.ruleset for t in tests)
    protocol = per["*"]
    return "\n".join([f".. |suite-tests| replace:: {len(tests)}",
                      f".. |protocol-tests| replace:: {protocol}",
                      *(f".. |{name}-tests| replace:: {n}" for name, n in sorted(per.items())),
                      *(f".. |{name}-run| replace:: {n + protocol}"
                        for name, n in sorted(per.items()) if name != "*")])


rst_prolog = _counts()

html_theme = "furo"
html_title = f"mariage {release}"
html_static_path = ["_static"]
html_css_files = ["mariage.css"]
html_show_sourcelink = False
# Files copied as they are to the root of the site: the JSON Schema of a game
# description, at schema/game.schema.json, the address its $id names.
html_extra_path = ["_extra"]


def _copy_source_notes() -> None:
    """Bring ../seeds/*.md into the documentation tree (docs/seeds/, not committed).

    Sphinx reads only files under docs/; the notes live at the top of the
    repository beside the spec that cites them. A file is rewritten only when
    its content changed, so incremental builds stay incremental.
    """
    target = Path(__file__).resolve().parent / "seeds"
    target.mkdir(exist_ok=True)
    wanted = {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "seeds").glob("*.md"))}
    for old in target.glob("*.md"):
        if old.name not in wanted:
            old.unlink()
    for name, text in wanted.items():
        out = target / name
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            out.write_text(text, encoding="utf-8")


_copy_source_notes()


def _publish_schema() -> None:
    """Copy spec/schema/game.schema.json to docs/_extra/schema/ (generated, not committed).

    The site then serves it at ``schema/game.schema.json``: the address of its
    ``$id``, so editors that follow ``$schema`` links can validate YAML against it.
    """
    source = ROOT / "spec" / "schema" / "game.schema.json"
    target = Path(__file__).resolve().parent / "_extra" / "schema" / "game.schema.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    text = source.read_text(encoding="utf-8")
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


_publish_schema()


def _public_modules() -> list[str]:
    """Every module of the package whose dotted name has no part starting with ``_``."""
    import pkgutil

    names = ["mariage"] + [m.name for m in pkgutil.walk_packages(mariage.__path__, "mariage.")]
    return sorted(n for n in names if not any(p.startswith("_") for p in n.split(".")))


def _described(docs: Path) -> set[str]:
    """The modules some page names in an ``automodule`` directive."""
    import re

    found: set[str] = set()
    for page in docs.glob("*.rst"):
        found.update(re.findall(r"^\.\. automodule:: (\S+)", page.read_text(encoding="utf-8"),
                                re.M))
    return found


def _titles_only(tocs: dict[str, Any]) -> dict[str, Any]:
    """Each page's table of contents cut as a ``titles_only`` toctree cuts it: its
    title and the toctrees under it, not its sections (nor, on the API pages, every
    object). A page holding an ``only`` directive is kept whole (the cut depends on
    the tags there)."""
    from docutils import nodes
    from sphinx import addnodes

    out = {}
    for docname, toc in tocs.items():
        if any(toc.findall(addnodes.only)):
            out[docname] = toc
            continue
        toc = toc.deepcopy()
        for top in toc.children:
            if isinstance(top, nodes.list_item) and len(top) > 1:
                if subtrees := list(top.findall(addnodes.toctree)):
                    top[1][:] = subtrees
                else:
                    top.pop(1)
        out[docname] = toc
    return out


def _lighter_navigation(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                        doctree: Any) -> None:
    """Furo's navigation, the whole site's toctree ``titles_only`` on every page, from
    the tables of contents cut to the titles first, once a build: Sphinx copies each
    page's whole table of contents (thousands of entries: every section, every API
    object) for each page written, then throws all but the titles away (a fifth of the
    build). The pages come out the same, byte for byte."""
    toctree = context.get("toctree")
    if toctree is None:
        return
    env = app.builder.env

    def titles_only_toctree(**kwargs: Any) -> Any:
        if not kwargs.get("titles_only"):
            return toctree(**kwargs)
        cut = getattr(app.builder, "_mariage_titles_only", None)
        if cut is None:
            cut = app.builder._mariage_titles_only = _titles_only(env.tocs)
        whole, env.tocs = env.tocs, cut
        try:
            return toctree(**kwargs)
        finally:
            env.tocs = whole

    context["toctree"] = titles_only_toctree


def setup(app: Any) -> dict[str, Any]:
    """The ``mariage-modules`` directive: every public module, linked or documented."""
    from docutils import nodes
    from docutils.statemachine import StringList
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class ModulesDirective(SphinxDirective):
        def run(self) -> list[Any]:
            described = _described(Path(__file__).resolve().parent)
            lines: list[str] = []
            for name in _public_modules():
                if name in described:
                    lines += [f"* :mod:`{name}`", ""]
            for name in _public_modules():
                if name not in described:  # a package: its docstring (members are its modules')
                    package = hasattr(importlib.import_module(name), "__path__")
                    # not indexed: a name that a package re-exports (documented on the
                    # pages above) keeps one target, so references to it stay unambiguous
                    lines += [name, "-" * len(name), "", f".. automodule:: {name}",
                              "   :no-index:", *([] if package else ["   :members:"]), ""]
            node = nodes.section()
            node.document = self.state.document
            nested_parse_with_titles(self.state, StringList(lines, "<mariage-modules>"), node)
            return node.children

    app.add_directive("mariage-modules", ModulesDirective)

    def signature_of_record(app: Any, obj: Any, bound_method: bool) -> None:
        # records make __init__ on first use: make it, so the signature is the fields'
        import inspect

        from mariage.lazyrecord import complete, is_record, made_method

        if isinstance(obj, type) and is_record(obj):
            complete(obj)
        elif getattr(obj, "__lazy_make__", None) is not None:
            obj.__signature__ = inspect.signature(made_method(obj))

    app.connect("autodoc-before-process-signature", signature_of_record)
    app.connect("html-page-context", _lighter_navigation, priority=400)  # before Furo's

    def read_again(app: Any, env: Any) -> None:  # (a build that reads pages cuts them anew)
        app.builder._mariage_titles_only = None

    app.connect("env-updated", read_again)
    return {"parallel_read_safe": True}
