"""frozen_record: the same class as ``@dataclass(frozen=True, slots=True)``, methods made late."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any, ClassVar

import pytest
from mariage.lazyrecord import frozen_record


@frozen_record
class Bid:
    """Made lazily."""

    seat: int
    value: int = 60
    cards: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    note: str = dataclasses.field(default="", compare=False, repr=False)


@dataclasses.dataclass(frozen=True, slots=True)
class PlainBid:
    """The same record as a plain frozen, slotted dataclass."""

    seat: int
    value: int = 60
    cards: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    note: str = dataclasses.field(default="", compare=False, repr=False)


@pytest.mark.parametrize("args", [(1,), (2, 80), (3, 100, (4, 5), "x")])
def test_a_lazy_record_behaves_as_the_dataclass(args: tuple[object, ...]) -> None:
    a, b = Bid(*args), PlainBid(*args)  # type: ignore[arg-type]
    assert repr(a) == repr(b).replace("PlainBid", "Bid")
    assert hash(a) == hash(b)
    assert a == Bid(*args) and a != Bid(9)  # type: ignore[arg-type]
    assert a != b  # type: ignore[comparison-overlap]  # another class is never equal
    assert dataclasses.replace(a, note="other") == a  # a field left out of comparisons
    assert vars(Bid)["__slots__"] == vars(PlainBid)["__slots__"]
    assert [f.name for f in dataclasses.fields(a)] == [f.name for f in dataclasses.fields(b)]
    assert Bid.__dataclass_params__.frozen  # type: ignore[attr-defined]
    again = pickle.loads(pickle.dumps(a))
    assert again == a and again.note == a.note and copy.deepcopy(a) == a
    assert dataclasses.replace(a, seat=7) == Bid(7, *args[1:])  # type: ignore[arg-type]
    assert dataclasses.asdict(a) == dataclasses.asdict(b)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.seat = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del a.seat
    with pytest.raises((AttributeError, TypeError)):
        a.other = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        Bid()  # type: ignore[call-arg]  # the field without a default is required


def test_a_list_in_a_field_makes_the_record_unhashable_as_the_dataclass_does() -> None:
    for cls in (Bid, PlainBid):
        with pytest.raises(TypeError, match="unhashable"):
            hash(cls(1, 60, [2]))  # type: ignore[arg-type]


def test_methods_the_class_writes_itself_stay() -> None:
    @frozen_record
    class Card:
        number: int

        def __repr__(self) -> str:
            return f"card {self.number}"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Card) and other.number % 10 == self.number % 10

    assert repr(Card(3)) == "card 3"
    assert Card(3) == Card(13)
    assert hash(Card(3)) == hash((3,))  # the dataclass's hash, as for a plain frozen one


def test_class_variables_and_fields_left_out_of_init_as_the_dataclass_has_them() -> None:
    @frozen_record
    class Lazy:
        kind: ClassVar[str] = "bid"
        seat: int
        later: int = dataclasses.field(default=0, init=False)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Plain:
        kind: ClassVar[str] = "bid"
        seat: int
        later: int = dataclasses.field(default=0, init=False)

    assert vars(Lazy)["__match_args__"] == vars(Plain)["__match_args__"] == ("seat",)
    assert vars(Lazy)["__slots__"] == vars(Plain)["__slots__"]
    assert [f.name for f in dataclasses.fields(Lazy)] == ["seat", "later"]
    assert Lazy.kind == "bid" and repr(Lazy(3)) == "test_class_variables_and_fields_left_" \
        "out_of_init_as_the_dataclass_has_them.<locals>.Lazy(seat=3, later=0)"
    assert dataclasses.is_dataclass(Lazy(1)) and dataclasses.asdict(Lazy(1)) == {
        "seat": 1, "later": 0}


def test_every_record_of_the_package_has_its_fields_as_slots() -> None:
    import importlib
    import pkgutil

    import mariage
    from mariage import lazyrecord

    for info in pkgutil.walk_packages(mariage.__path__, "mariage."):
        if not info.name.endswith("__main__") and not info.name.startswith(
                ("mariage.ai", "mariage.viewer", "mariage.rulebook.sphinx")):
            importlib.import_module(info.name)
    assert len(lazyrecord._RECORDS) >= 40
    for record in lazyrecord._RECORDS:
        names = tuple(f.name for f in dataclasses.fields(record))
        assert vars(record)["__slots__"] == names, record
        assert record.__match_args__ == tuple(
            f.name for f in dataclasses.fields(record) if f.init), record


def test_is_frozen_tells_what_the_dataclass_parameters_say() -> None:
    """``is_frozen`` (the engine's copies share frozen values) reads a class without
    making a record's parameters, and answers as ``__dataclass_params__.frozen`` does, for
    frozen and mutable records, tuple records and plain dataclasses, before and after
    their parameters are made."""
    from mariage.lazyrecord import hashable_record, is_frozen, record
    from mariage.tuplerecord import tuple_record

    @frozen_record
    class Frozen:
        seat: int

    @record
    class Mutable:
        seat: int

    @hashable_record
    class Hashable:
        seat: int

    @tuple_record
    class Kept:
        seat: int

    @dataclasses.dataclass(frozen=True)
    class PlainFrozen:
        seat: int

    @dataclasses.dataclass
    class Plain:
        seat: int

    class Sub(Frozen):  # type: ignore[misc]
        __slots__ = ()

    expected = [(Frozen, True), (Mutable, False), (Hashable, False), (Kept, True),
                (PlainFrozen, True), (Plain, False), (Sub, True), (int, False)]
    assert [(cls, is_frozen(cls)) for cls in (c for c, _ in expected)] == expected
    for cls, frozen in expected[:6]:
        assert getattr(cls, "__dataclass_params__", None) is None or \
            cls.__dataclass_params__.frozen is frozen  # made now
        assert is_frozen(cls) is frozen, cls


def test_the_written_init_is_the_dataclass_init() -> None:
    import inspect

    from mariage.lazyrecord import hashable_record, record

    class Source:
        """Fields of every kind an ``__init__`` sets."""

        seat: int
        value: int = 60
        cards: list[int] = dataclasses.field(default_factory=list)
        note: str = dataclasses.field(default="", compare=False, repr=False)
        later: int = dataclasses.field(default=7, init=False)
        made: list[int] = dataclasses.field(default_factory=lambda: [1], init=False)

    for maker, options in ((frozen_record, {"frozen": True}), (record, {}),
                           (hashable_record, {"unsafe_hash": True})):
        lazy: Any = maker(type("Lazy", (), dict(vars(Source))))
        plain: Any = dataclasses.dataclass(slots=True, **options)(
            type("Lazy", (), dict(vars(Source))))
        lazy(1)  # the first call writes __init__
        assert str(inspect.signature(lazy)) == str(inspect.signature(plain))
        for args in ((1,), (2, 80, [3]), (3, 100, [4, 5], "x")):
            a, b = lazy(*args), plain(*args)
            assert repr(a) == repr(b) and a == lazy(*args)
            assert [getattr(a, n) for n in vars(lazy)["__slots__"]] == \
                [getattr(b, n) for n in vars(plain)["__slots__"]]
        assert lazy(1).cards is not lazy(1).cards  # a new list from the factory each time
        for a, b in ((lazy(1), plain(1)), (lazy(1, 2, (3,)), plain(1, 2, (3,)))):
            try:
                wanted: object = hash(b)
            except TypeError as exc:
                wanted = str(exc)
            try:
                got: object = hash(a)
            except TypeError as exc:
                got = str(exc)
            assert got == wanted
        with pytest.raises(TypeError):
            lazy()
        if not options.get("frozen"):
            m = lazy(1)
            m.value = 5
            assert m.value == 5


def test_a_field_without_a_default_after_one_with_is_the_dataclass_error() -> None:
    @frozen_record
    class Odd:
        value: int = 1
        seat: int  # type: ignore[misc]

    with pytest.raises(TypeError, match="non-default argument 'seat' follows default"):
        Odd(1, 2)


def test_a_stand_in_gives_the_method_it_becomes() -> None:
    import inspect

    from mariage.lazyrecord import made_method

    @frozen_record
    class Late:
        seat: int
        value: int = 60

    stand_in = vars(Late)["__init__"]
    assert "*args" in str(inspect.signature(stand_in))  # made on first use
    made = made_method(stand_in)
    assert made is vars(Late)["__init__"] and made is not stand_in
    assert str(inspect.signature(made)) == "(self, seat: 'int', value: 'int' = 60) -> None"
    assert made_method(made) is made  # a made method is itself
