"""The derived suites of one or more configurations, made ready to run together.

``mariage conformance -o ...`` runs the suite derived for one configuration;
``--declared`` runs those of every configuration an engine declares in its
``hello`` (:func:`~mariage.conformance.configuration.declared_configurations`).
:func:`derived_runs` derives each (:func:`~mariage.conformance.derive.derive_suite`,
from the disk cache when it holds it), keeps the tests that the ``--rule`` and
``--kind`` filters select (:func:`select`), and, when there are several
configurations, ends each test ID with ``[K]`` (K the configuration's place,
from 1), so that IDs stay unique across them in reports and ``--expect`` files.

>>> from mariage.conformance.configuration import make_configuration
>>> one = make_configuration("schnapsen", ["close_allowed=false"])
>>> two = make_configuration("sixty-six", ["marriage_values=20/20"])
>>> runs = derived_runs([one, two], kinds=("golden",))
>>> for r in runs:
...     print(r.configuration.label, "->", r.tests[0].id)
schnapsen close_allowed=false -> schnapsen/golden/derived-1[1]
sixty-six marriage_values=20/20 -> sixty-six/golden/derived-1[2]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .configuration import Configuration
from .derive import derive_suite

if TYPE_CHECKING:
    from .suite import Test

__all__ = ["DerivedRun", "derived_runs", "select"]


@dataclass
class DerivedRun:
    """One configuration's part of a run: its tests, and the stored tests its
    derivation left out (ID -> why), both with the run's IDs."""

    configuration: Configuration
    tests: list[Test]
    skipped: dict[str, str]

    @property
    def ids(self) -> set[str]:
        """Every test ID of this configuration, run or left out."""
        return {t.id for t in self.tests} | set(self.skipped)


def select(tests: Iterable[Test], rules: Sequence[str] = (), kinds: Sequence[str] = ()
           ) -> list[Test]:
    """The tests of one of ``kinds`` that check one of ``rules`` (a rule ID, or a prefix
    ending in ``.``); an empty filter keeps everything.

    >>> from mariage.conformance.suite import load_suite
    >>> tests = load_suite(rulesets=["schnapsen"])
    >>> picked = select(tests, ["schnapsen.close."])
    >>> picked != [] and all(any(r.startswith("schnapsen.close.") for r in t.rules)
    ...                      for t in picked)
    True
    >>> {t.kind for t in select(tests, kinds=["perft"])}
    {'perft'}
    """
    want = tuple(rules)
    return [t for t in tests if (not kinds or t.kind in kinds) and (
        not want or any(r == w or (w.endswith(".") and r.startswith(w))
                        for r in t.rules for w in want))]


def derived_runs(configs: Sequence[Configuration], rules: Sequence[str] = (),
                 kinds: Sequence[str] = ()) -> list[DerivedRun]:
    """The derived suite of each configuration, filtered, with IDs unique across them."""
    out = []
    for k, config in enumerate(configs, 1):
        derived = derive_suite(config)
        tag = f"[{k}]" if len(configs) > 1 else ""
        tests = [replace(t, id=t.id + tag) for t in select(derived.as_tests(), rules, kinds)]
        out.append(DerivedRun(config, tests,
                              {tid + tag: why for tid, why in derived.skipped.items()}))
    return out
