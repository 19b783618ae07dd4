"""Sphinx configuration of the mariage documentation.

Rulebook pages, the comparison, the spec-language reference and the worked
examples are generated from spec/ by the extension mariage.rulebook.sphinxext; every
example is replayed by the interpreter while the pages are built.
"""

from __future__ import annotations

from pathlib import Path

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
autodoc_typehints = "description"
autodoc_default_options: dict[str, bool] = {}

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
