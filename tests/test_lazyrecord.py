"""frozen_record: the same class as ``@dataclass(frozen=True, slots=True)``, methods made late."""

from __future__ import annotations

import copy
import dataclasses
import pickle

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
    assert vars(Bid)["__dataclass_params__"].frozen
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
