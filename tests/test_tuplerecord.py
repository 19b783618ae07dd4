"""Records kept in a tuple (``mariage.tuplerecord``) behave as the frozen dataclass of
the same fields: checked against a dataclass made by :mod:`dataclasses` itself."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mariage.engine.outcomes import HandRecord, MatchResult, record_lines
from mariage.tuplerecord import new_source, tuple_record


def twin(cls: type) -> Any:
    """The frozen dataclass of ``cls``'s fields and defaults, made by ``dataclasses``."""
    fields = dataclasses.fields(cls)
    made = dataclasses.make_dataclass(
        cls.__name__, [(f.name, f.type) if f.default is dataclasses.MISSING else
                       (f.name, f.type, dataclasses.field(default=f.default))
                       for f in fields], frozen=True)
    made.__qualname__ = cls.__qualname__
    return made


small = st.one_of(st.none(), st.integers(-5, 200), st.text(max_size=3),
                  st.tuples(st.integers(0, 9), st.integers(0, 9)))

hand_args = st.tuples(st.integers(0, 50), st.none() | st.integers(0, 3),
                      *[small] * 4, st.none() | st.integers(0, 2), st.integers(0, 250),
                      st.integers(-1, 3), st.sampled_from([None, True, False]))


@given(hand_args, hand_args)
def test_hand_record_behaves_as_its_dataclass(a: tuple[Any, ...],
                                              b: tuple[Any, ...]) -> None:
    plain = twin(HandRecord)
    ra, rb, pa, pb = HandRecord(*a), HandRecord(*b), plain(*a), plain(*b)
    assert repr(ra) == repr(pa) and hash(ra) == hash(pa)
    assert (ra == rb) == (pa == pb) and (ra != rb) == (pa != pb)
    assert dataclasses.asdict(ra) == dataclasses.asdict(pa)
    assert dataclasses.astuple(ra) == dataclasses.astuple(pa)
    for made in (pickle.loads(pickle.dumps(ra)), copy.copy(ra), copy.deepcopy(ra)):
        assert type(made) is HandRecord and made == ra
    make: Any = HandRecord  # (the arguments before kontras, by position)
    assert dataclasses.replace(ra, kontras=2) == make(*a, kontras=2)
    assert repr(dataclasses.replace(ra, kontras=2)) == repr(dataclasses.replace(pa, kontras=2))
    items: Any = tuple(cast(Any, ra))  # (statically a dataclass: not iterable)
    assert items == dataclasses.astuple(pa)
    assert ra != items and items != ra and ra != pa and (ra == cast(Any, list(items))) is False


def test_the_fields_are_the_dataclass_fields() -> None:
    for cls in (HandRecord, MatchResult):
        names = [f.name for f in dataclasses.fields(cls)]
        assert HandRecord.__match_args__ == tuple(f.name for f in dataclasses.fields(
            HandRecord))
        assert names == list(cls.__match_args__) and dataclasses.is_dataclass(cls)
    assert [f.default for f in dataclasses.fields(HandRecord)][6:] == \
        [None, 0, -1, None, (), 0, "", -1, 0, -1]


def test_frozen_unordered_and_keyword_made() -> None:
    record = HandRecord(number=3, dealer=1, points=(1, 2), score=(0, 9), tricks=(4, 4),
                        ended="target", trump=2)
    assert (record.number, record.trump, record.made) == (3, 2, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.number = 4  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del record.number
    with pytest.raises(TypeError):
        assert record < record  # type: ignore[operator]
    with pytest.raises(TypeError):
        HandRecord(1, 0)  # type: ignore[call-arg]
    match record:
        case HandRecord(number, dealer):
            assert (number, dealer) == (3, 1)


def test_generated_code_makes_the_same_record() -> None:
    values = {"number": "7", "dealer": "None", "points": "(1, 2)", "score": "(3, 4)",
              "tricks": "(5, 6)", "ended": "'played_out'", "declarer": "2"}
    ns: dict[str, Any] = {}
    exec("\n".join(["def f(out):", *record_lines("out", values, ns)]), ns)
    out: list[Any] = []
    ns["f"](out)
    assert out == [HandRecord(7, None, (1, 2), (3, 4), (5, 6), "played_out", declarer=2)]
    assert type(out[0]) is HandRecord
    ns = {}
    exec("def g():\n    return " + new_source(MatchResult, {
        "winner": "1", "reason": "'tie'", "scores": "(9, 9)"}, ns), ns)
    assert ns["g"]() == MatchResult(1, "tie", (9, 9))


def test_a_default_that_is_not_a_literal_is_read_by_name() -> None:
    marker = object()

    @tuple_record
    class Box:
        label: str
        thing: object = marker

    ns: dict[str, Any] = {}
    exec("def h():\n    return " + new_source(Box, {"label": "'x'"}, ns), ns)
    assert ns["h"]().thing is marker and ns["h"]() == Box("x")
    with pytest.raises(TypeError, match="no value for the field label"):
        new_source(Box, {}, ns)


def test_what_a_tuple_record_does_not_take_is_refused_with_its_reason() -> None:
    from mariage.lazyrecord import field

    with pytest.raises(TypeError, match="plain defaults only"):
        @tuple_record
        class Made:
            count: int = field(default=1)

    with pytest.raises(TypeError, match="no field named cls"):
        @tuple_record
        class Named:
            cls: int

    with pytest.raises(TypeError, match="non-default field 'b' follows"):
        @tuple_record
        class Ordered:
            a: int = 0
            b: int  # type: ignore[misc]
