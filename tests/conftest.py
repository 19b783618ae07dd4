"""Test configuration: Hypothesis settings profiles.

``ci`` (the default) keeps the property tests quick and deterministic, so a
CI run on two cores stays within its budget and gives the same result on
every machine. ``thorough`` is for local runs that hunt for bugs::

    HYPOTHESIS_PROFILE=thorough pytest tests/test_properties.py
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, settings

# The disk cache of compiled rules (mariage.spec.diskcache) goes to a folder of this
# test session, never the user's own; subprocesses inherit it.
_CACHE = tempfile.TemporaryDirectory(prefix="mariage-test-cache-")  # removed at exit
os.environ["XDG_CACHE_HOME"] = _CACHE.name

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=100, deadline=None)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
