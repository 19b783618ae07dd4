"""The conformance runner's fixed numbers: the protocol's version and its time limits.

Kept apart from the runner and the client so that what reads them without running a
test (``mariage conformance --help``, the package itself) imports nothing more.

>>> check_timeout(2.5), PROTOCOL_VERSION
(2.5, 2)
>>> check_timeout(float("inf"))
Traceback (most recent call last):
ValueError: --timeout must be a number of seconds above 0 and at most 86400, got inf
"""

from __future__ import annotations

import math

__all__ = ["MAX_HANGS", "MAX_TIMEOUT", "PROTOCOL_VERSION", "START_TIMEOUT", "TEST_TIMEOUT",
           "check_timeout"]

#: The version of the engine protocol (``docs/protocol.rst``).
PROTOCOL_VERSION = 2
#: The longest time limit accepted, in seconds (a day).
MAX_TIMEOUT = 86400.0
#: The least time an engine gets for its answer to ``hello``, in seconds: a process just
#: started loads its code first (a Python engine under load may take a second), so a
#: short ``--timeout`` for moves does not make every start or restart a failed handshake.
START_TIMEOUT = 10.0
#: Default limit for a whole test, in seconds (no stream of ``log`` lines extends it).
TEST_TIMEOUT = 300.0
#: Default number of tests in a row an engine may time out on before the run stops
#: (``--max-hangs``; 0: never stop).
MAX_HANGS = 3


def check_timeout(value: float, what: str = "--timeout") -> float:
    """``value`` if it is a usable time limit in seconds, else ``ValueError`` saying why."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) \
            or not 0 < value <= MAX_TIMEOUT:
        raise ValueError(f"{what} must be a number of seconds above 0 and at most "
                         f"{MAX_TIMEOUT:g}, got {value!r}")
    return float(value)
