"""Render a compiled ruleset as readable text, section by section, with rule IDs.

The terminal (``mariage rules``) and the rulebook pages use the same
sections and texts, taken from the spec.

>>> from mariage import load_rules
>>> text = render_text(load_rules("marianna"))
>>> "[marianna.trick.winner]" in text
True
"""

from __future__ import annotations

from .rules import RuleInfo, Rules

__all__ = ["SECTIONS", "render_text", "sections"]

SECTIONS = [
    ("Players", ("players", "visibility")),
    ("The cards", ("pack",)),
    ("The deal", ("deal",)),
    ("The lead", ("lead",)),
    ("The play", ("play", "trick", "draw", "exchange")),
    ("Declarations", ("declaring", "declarations", "asks")),
    ("Calling out and ending a hand early", ("call_out", "hand_end")),
    ("Scoring", ("scoring",)),
    ("End of the match", ("match",)),
]


def sections(rules: Rules) -> list[tuple[str, list[RuleInfo]]]:
    """The rules in force grouped by section, in document order."""
    out = []
    for title, roots in SECTIONS:
        items = [i for i in rules.infos if i.path.split(".")[0] in roots and i.enabled]
        if items:
            out.append((title, items))
    return out


def render_text(rules: Rules) -> str:
    """The whole ruleset as plain text."""
    doc = rules.document
    lines = [f"{rules.name} ({rules.ruleset}, version {rules.version})", ""]
    lines.append(" ".join(str(doc.get("summary", "")).split()))
    lines.append("")
    for title, items in sections(rules):
        lines.append(title)
        lines.append("-" * len(title))
        for info in items:
            note = ""
            if info.decided:
                note = " (decided"
                note += f"; option {info.option})" if info.option else ")"
            elif info.option:
                note = f" (option {info.option})"
            lines.append(f"[{info.id}]{note}")
            lines.append(f"    {info.text}")
        lines.append("")
    lines.append("Options in force")
    lines.append("----------------")
    defaults = dict(rules.defaults)
    for name, value in rules.options:
        mark = "" if str(value) == str(defaults.get(name)) else "   (not the default)"
        lines.append(f"  {name} = {str(value).lower() if isinstance(value, bool) else value}"
                     f"{mark}")
    lines.append("")
    return "\n".join(lines)
