"""Test configuration: Hypothesis settings profiles, the browser, the ``slow`` marker.

``ci`` (the default) keeps the property tests quick and deterministic, so a
CI run on two cores stays within its budget and gives the same result on
every machine. ``thorough`` is for local runs that hunt for bugs::

    HYPOTHESIS_PROFILE=thorough pytest tests/test_properties.py

Tests that drive a real headless browser take the ``browser`` fixture: without a
Chromium (see ``browserkit.find_chromium``) they skip with a one-line reason
naming what is missing, unless ``MARIAGE_REQUIRE_BROWSER=1`` (CI sets it), where
a missing browser fails them. Long fuzz and regeneration runs are marked
``slow``: ``pytest -m "not slow"`` leaves them out.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import tempfile
import time
import warnings
from collections.abc import Iterable, Iterator

import pytest
from browserkit import CANDIDATES, Browser, find_chromium
from hypothesis import HealthCheck, settings

# The disk cache of compiled rules and derived suites (mariage.spec.diskcache) goes to a
# folder of this test session, never the user's own. The session's process makes it
# before it starts pytest-xdist's workers, which inherit it through the environment (as
# do subprocesses), so that a suite derived by one worker is read by the other: entries
# are written whole and renamed into place, so two workers never see half of one.
if os.environ.get("MARIAGE_TEST_CACHE_HOME"):
    os.environ["XDG_CACHE_HOME"] = os.environ["MARIAGE_TEST_CACHE_HOME"]
else:
    _CACHE = tempfile.TemporaryDirectory(prefix="mariage-test-cache-")  # removed at exit
    os.environ["XDG_CACHE_HOME"] = os.environ["MARIAGE_TEST_CACHE_HOME"] = _CACHE.name
# ... and keeps every entry of the session: the cache's bound (256) is below the rules
# that collecting the tests alone compiles (each worker, each run), and the shipped
# records alone name 901 rulesets with their options, so every collection and every
# command a test starts compiled them again (validating one record of each: 16.5 CPU-s
# a process, 5.9 once another process stored them). An entry is some 75 kB.
os.environ.setdefault("MARIAGE_CACHE_ENTRIES", "20000")


def _keep_derived_suites() -> None:
    """Keep the derived suites this session stores (seconds to minutes of search each)
    in the disk cache for the whole session, fast run and slow run. The cache holds its
    newest entries (by modification time: 256 before the bound above), and the session
    stores thousands of compiled rules, so a suite was pushed out long before the next
    test that wanted it (Belote, Marjapussi and Thousand at their defaults are derived
    by several tests, in the default run and in the slow one). Dated in the future, a
    suite is the last entry any process of the session (subprocesses too) pushes out."""
    from mariage.spec import diskcache

    store = diskcache.store

    def store_and_keep(key: str, value: object, files: Iterable[str | os.PathLike[str]]
                       ) -> None:
        store(key, value, files)
        folder = diskcache.cache_dir()
        if type(value).__name__ == "DerivedSuite" and folder is not None:
            later = time.time() + 10 * 365 * 86400
            with contextlib.suppress(OSError):  # its file name: the cache's own scheme
                os.utime(folder / f"{key}.pickle", (later, later))

    diskcache.store = store_and_keep  # type: ignore[assignment]


_keep_derived_suites()

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


def chromium_or_skip() -> str:
    """The browser to run, or skip the test (fail it where ``MARIAGE_REQUIRE_BROWSER=1``)."""
    env = os.environ.get("MARIAGE_CHROMIUM")
    exe = find_chromium()
    if env and not (os.path.isfile(env) and os.access(env, os.X_OK)):
        reason = f"MARIAGE_CHROMIUM={env} is not an executable file"
    elif exe is None:
        reason = (f"no Chromium found: none of {', '.join(CANDIDATES)} is on PATH "
                  "(install one, or set MARIAGE_CHROMIUM)")
    else:
        return exe
    if os.environ.get("MARIAGE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}; MARIAGE_REQUIRE_BROWSER=1 needs one", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a test module (skips or fails without one)."""
    with Browser(chromium_or_skip()) as b:
        yield b


_BEFORE = [""]  # the test that ran last in this process


@pytest.fixture(autouse=True)
def _stops_reach_the_commands_tests_start(request: pytest.FixtureRequest) -> Iterator[None]:
    """A command a test starts inherits the main thread's signal mask and an ignored
    SIGINT. A run started in the background by a shell without job control (``cmd &``,
    ``nohup``) begins with SIGINT ignored, and so did every command its tests started:
    the five tests that stop ``match`` or ``conformance`` with Ctrl-C waited their whole
    timeout (a command honours an ignored SIGINT, as a background job should). Put back
    as a terminal gives them before each test, with a warning naming the test before
    (or the start of the process) that left them otherwise."""
    stops = {signal.SIGINT, signal.SIGTERM} & signal.pthread_sigmask(signal.SIG_BLOCK, [])
    ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    if stops or ignored:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stops)
        if ignored:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        warnings.warn(f"{_BEFORE[0] or 'the start of this process'} left "
                      f"{', '.join(sorted(s.name for s in stops)) or 'SIGINT'} "
                      f"{'blocked' if stops else 'ignored'}", stacklevel=1)
    yield
    _BEFORE[0] = request.node.nodeid


#: The longest tests of a run, started first: pytest-xdist's ``worksteal`` gives each
#: worker a contiguous share of the collection and a worker that runs dry takes the end of
#: another's queue, so a long test near the end of a share can run alone while the other
#: core idles. The Sphinx build (about 60 CPU-s, a subprocess that shares nothing with the
#: tests around it) is the longest of ``pytest -m slow``; first, it runs beside the rest.
FIRST = ("tests/test_docs_build.py::test_the_docs_build_with_warnings_as_errors",)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[object]:
    """Collect with the cyclic garbage collector paused, then collect once and freeze what
    is left (``gc.freeze``): the test modules, the rules compiled and the suite parsed
    while collecting (about a million objects) live for the whole session, and each
    full collection walked them all again, seven while collecting and two more at the
    session's end (pytest's own ``gc.collect``). ``pytest --collect-only -n 0``: 10.4
    CPU-s, 5.4 with them frozen; the tests after it take the same CPU, within noise."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if paused:
            gc.collect()
            gc.freeze()
            gc.enable()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests :data:`FIRST` names to the front (the same order in every worker)."""
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))
