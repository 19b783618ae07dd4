"""Sub-commands of the ``mariage`` command line, one module each.

Each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Add a module name to :data:`COMMANDS` to register it.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["COMMANDS", "parse_options"]

COMMANDS = [
    "list_cmd",
    "rules_cmd",
    "play_cmd",
    "check_spec",
    "validate",
    "replay",
    "view",
    "engine",
    "conformance_cmd",
    "render",
    "completion",
    "match_cmd",
]


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """Turn ``["target=301", ...]`` into a dict; raise ``ValueError`` on a bad pair.

    >>> parse_options(["target=301", " marriage = free "])
    {'target': '301', 'marriage': 'free'}
    """
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes NAME=VALUE, got {pair!r}")
        out[key.strip()] = value.strip()
    return out
