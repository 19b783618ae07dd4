"""A description with option values applied is checked against the schema by the values
the options wrote, each where it stands (``specload._written_valid``): it must never find
valid what the whole schema finds invalid, nor the other way round."""

from __future__ import annotations

import random
from typing import Any

from mariage.spec import specload
from mariage.spec.specload import deep_copy, list_rulesets, load_document

# values put in place of another: of other kinds, out of ranges, unknown words
ODD = [0, -1, 1, 10 ** 6, 2.5, True, None, "", "x", "no_such_value", [], [1], {}, {"z": 1}]


def _spots(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key and index path in a plain document."""
    found = [path] if path else []
    if isinstance(node, dict):
        for k, v in node.items():
            found += _spots(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            found += _spots(v, (*path, i))
    return found


def _shown(found: list[tuple[tuple[str, ...], Any]]) -> list[tuple[list[str], str]]:
    return [([*prefix, *map(str, err.absolute_path)], err.message) for prefix, err in found]


def _like(value: Any, pick: random.Random) -> Any:
    """Another value, mostly of ``value``'s own kind (so that some changes stay valid)."""
    same = [v for v in ODD if type(v) is type(value) and v != value]
    return pick.choice(same) if same and pick.random() < 0.6 else pick.choice(ODD)


def test_the_changed_values_checked_alone_agree_with_the_whole_schema() -> None:
    validator = specload._validator()
    verdicts = []
    for ruleset in list_rulesets():
        doc = load_document(ruleset)
        spots = _spots(doc.data)
        pick = random.Random(ruleset)
        for _ in range(5):
            data = deep_copy(doc.data)
            written = []
            for path in pick.sample(spots, pick.randint(1, 2)):
                try:
                    here = data
                    for part in path[:-1]:
                        here = here[part]
                    here[path[-1]] = _like(here[path[-1]], pick)
                except (KeyError, IndexError, TypeError):  # under a value replaced before
                    continue
                written.append(".".join(map(str, path)))
            whole = validator.is_valid(data)
            assert specload._written_valid(data, doc.data, written) is whole, (ruleset, written)
            found = specload._schema_errors(data, doc.data, written)
            assert (found == []) is whole
            if found:  # as the whole check reports them
                assert _shown(found) == _shown(specload._schema_errors(data))
            verdicts.append(whole)
    assert 0.1 < sum(verdicts) / len(verdicts) < 0.9  # both kinds of change tried, often
