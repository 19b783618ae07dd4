"""Which rulesets a long per-ruleset property runs on in the default test run.

Every ruleset that extends no other is in :data:`DEFAULT_RUN`, and so is each preset
that brings a mechanism of its own (an auction of a value and a trump, the split
marriage, partnerships of four, a talon in packets for two, a seat sitting out). The
other presets differ from one of those only in counts and values: their cases carry the
``slow`` mark, so ``pytest -m slow`` (CI's second pass) runs them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from mariage import list_rulesets

DEFAULT_RUN = frozenset({
    # no parent
    "belote", "mariaggia", "marianna", "mariazza", "mariglia", "marjapussi",
    "marjapussi-de", "schnapsen", "thousand",
    # a mechanism of their own
    "belote-coinche", "marianna-siciliana", "sixty-six-4", "thousand-2", "thousand-4",
})


def by_family(names: Iterable[str] | None = None) -> list[Any]:
    """``names`` (default: every ruleset) as parameters, the slow mark on those not in
    :data:`DEFAULT_RUN`."""
    return [n if n in DEFAULT_RUN else pytest.param(n, marks=pytest.mark.slow)
            for n in (list_rulesets() if names is None else names)]
