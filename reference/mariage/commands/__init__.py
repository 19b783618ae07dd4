"""Sub-commands of the ``mariage`` command line, one module each.

Each module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Add a module name to :data:`COMMANDS` to register it.
"""

from __future__ import annotations

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
    "stats",
]
