"""Frozen records whose dataclass methods are made when first called.

``@dataclass(frozen=True, slots=True)`` writes the source of ``__init__``,
``__repr__``, ``__eq__`` and ``__hash__`` for every field and compiles it when
the class is defined, that is on every start of the program: for the compiled
rules (:class:`~mariage.engine.rules.Rules`, about 200 fields) that alone costs
more than starting Python. :func:`frozen_record` makes the same class (the same
fields, slots, frozen ``__setattr__``, pickling and ``__match_args__``), but
each of those four methods is made by :mod:`dataclasses` itself the first time
it is called on the class, so a command that never builds, compares, hashes or
shows such a record does not pay for it. Type checkers see a frozen dataclass
(:func:`typing.dataclass_transform`).

>>> @frozen_record
... class Bid:
...     seat: int
...     value: int = 60
>>> Bid(1), Bid(1) == Bid(1, 60), hash(Bid(2)) == hash(Bid(2, 60))
(Bid(seat=1, value=60), True, True)
>>> Bid(1).seat = 2
Traceback (most recent call last):
  ...
dataclasses.FrozenInstanceError: cannot assign to field 'seat'
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

__all__ = ["frozen_record"]

_T = TypeVar("_T")

#: the methods made on first use, as ``dataclass(frozen=True)`` makes them
_LAZY = ("__init__", "__repr__", "__eq__", "__hash__")


@dataclasses.dataclass(frozen=True, slots=True)
class _Frozen:
    """A frozen, slotted dataclass without fields: its parameters are every record's."""


#: what dataclasses records of a frozen, slotted dataclass
_FROZEN_PARAMS = vars(_Frozen)["__dataclass_params__"]


def _freeze(record: Any, names: tuple[str, ...]) -> None:
    """Make ``record``'s instances frozen and picklable, as ``dataclass(frozen=True,
    slots=True)`` does: assigning or deleting a field raises ``FrozenInstanceError``."""
    fields = frozenset(names)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is record or name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(record, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is record or name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(record, self).__delattr__(name)

    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)

    for method in (__setattr__, __delattr__, __getstate__, __setstate__):
        method.__qualname__ = f"{record.__qualname__}.{method.__name__}"
        setattr(record, method.__name__, method)
    record.__dataclass_params__ = _FROZEN_PARAMS


class _LazyFields:
    """``__dataclass_fields__`` of a record, made by :mod:`dataclasses` when first read
    (by ``fields``, ``replace``, ``asdict``, ``is_dataclass``...), then kept on the class."""

    def __init__(self, make: Any) -> None:
        self.make = make

    def __get__(self, instance: object, owner: type) -> Any:
        return self.make()


def _is_class_variable(annotation: object) -> bool:
    """Whether an annotation (a string under ``from __future__ import annotations``)
    names a class variable, which dataclasses leaves out of the fields."""
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "InitVar", "dataclasses.InitVar"))


@dataclass_transform(frozen_default=True)
def frozen_record(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True)``, with ``__init__``, ``__repr__``,
    ``__eq__``, ``__hash__`` and the fields' descriptions made the first time one of
    them is used."""
    namespace = dict(vars(cls))
    annotations = dict(namespace.get("__annotations__", {}))
    names = tuple(name for name, annotation in annotations.items()
                  if not _is_class_variable(annotation))
    defaults = {name: namespace.pop(name) for name in names if name in namespace}
    fields_only = {name: annotations[name] for name in names}
    # methods the class writes itself (a __repr__...) stay, as dataclass leaves them
    own = {name: namespace[name] for name in _LAZY if namespace.get(name) is not None}
    # the slotted class, made from the class's own namespace as dataclass(slots=True)
    # makes it (without the defaults, which would clash with the slots); the frozen
    # parts are closures, as dataclass(frozen=True) makes them
    namespace.pop("__dict__", None)
    namespace.pop("__weakref__", None)
    namespace["__slots__"] = names
    namespace["__match_args__"] = tuple(
        name for name in names
        if not (isinstance(defaults.get(name), dataclasses.Field) and not defaults[name].init))
    maker: Any = type(cls)
    record: Any = maker(cls.__name__, cls.__bases__, namespace)
    record.__qualname__ = cls.__qualname__
    _freeze(record, names)

    def twin(**options: Any) -> Any:
        """A class of the same name, module, fields and defaults, given only the
        methods asked for."""
        plain = type(record.__name__, (), {"__annotations__": fields_only, **defaults, **own,
                                           "__module__": record.__module__,
                                           "__qualname__": record.__qualname__})
        return dataclasses.dataclass(**options)(plain)

    def fields() -> Any:
        made = vars(twin(init=False, repr=False, eq=False))["__dataclass_fields__"]
        record.__dataclass_fields__ = made
        return made

    def make(name: str) -> None:
        """Give ``record`` the method ``name`` (and its partner: ``__eq__`` and
        ``__hash__`` go together) as ``dataclass(frozen=True)`` writes it."""
        group: tuple[str, ...]
        if name == "__init__":  # frozen: the fields are set through object.__setattr__;
            # slotted, so that a field left out of the arguments is given its default
            options = {"frozen": True, "repr": False, "eq": False, "slots": True}
            group = ("__init__",)
        elif name == "__repr__":
            options, group = {"init": False, "eq": False}, ("__repr__",)
        else:  # unsafe_hash: the __hash__ a frozen dataclass gets, unless the class has one
            options = {"init": False, "repr": False, "unsafe_hash": "__hash__" not in own}
            group = ("__eq__", "__hash__")
        made = twin(**options)
        for method in group:
            if method not in own:
                setattr(record, method, made.__dict__[method])

    def lazy(name: str) -> Any:
        def first_call(self: Any, *args: Any, **kwargs: Any) -> Any:
            make(name)
            return getattr(record, name)(self, *args, **kwargs)
        first_call.__name__ = first_call.__qualname__ = name
        return first_call

    for name in _LAZY:
        if name not in own:
            setattr(record, name, lazy(name))
    record.__dataclass_fields__ = _LazyFields(fields)
    _RECORDS.append(record)
    return record  # type: ignore[no-any-return]


#: every class :func:`frozen_record` made (the tests compare each with its dataclass)
_RECORDS: list[type] = []
