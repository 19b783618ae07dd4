"""Frozen records kept in a tuple: made by one call, read by name.

A :func:`~mariage.lazyrecord.frozen_record` is a slotted object: making one
stores each field on its own (a frozen class even through each slot's
descriptor). The end of a hand makes one record of seventeen fields per hand
(:class:`~mariage.engine.outcomes.HandRecord`), and there the stores were the
largest step left. :func:`tuple_record` makes a class that behaves as the
frozen dataclass of the same fields does (the same constructor, defaults,
attributes, ``repr``, equality only with a record of the same class, hash,
pickling and copying, ``FrozenInstanceError`` on assignment, the fields'
descriptions for :func:`dataclasses.fields`, ``replace`` and ``asdict``), but
whose values are the items of a tuple: generated code makes one with a single
call, ``tuple.__new__(cls, (value, ...))``, the fields in their order
(:func:`new_source`). Being a tuple, it can also be iterated, indexed and
measured; it is never equal to a plain tuple, nor ordered.

>>> @tuple_record
... class Bid:
...     seat: int
...     value: int = 60
>>> Bid(1), Bid(1) == Bid(1, 60), hash(Bid(2)) == hash(Bid(2, 60))
(Bid(seat=1, value=60), True, True)
>>> Bid(1) == (1, 60), (1, 60) == Bid(1), Bid(1) != (1, 60), Bid(1) == [1, 60]
(False, False, True, False)
>>> Bid(value=80, seat=2).value, Bid(3) != Bid(3, 61)
(80, True)
>>> Bid(1).seat = 2
Traceback (most recent call last):
  ...
dataclasses.FrozenInstanceError: cannot assign to field 'seat'
>>> ns = {}
>>> exec("def f():\\n    return " + new_source(Bid, {"seat": "4"}, ns), ns)
>>> ns["f"]() == Bid(4)
True
"""

from __future__ import annotations

import collections
import operator
from typing import Any, TypeVar, dataclass_transform

from . import codegen
from .lazyrecord import _frozen_error, _is_class_variable, _is_field


def _item_property(index: int, doc: str) -> Any:
    """A read-only attribute that is item ``index`` (where the interpreter has no
    ``collections._tuplegetter``, as PyPy may not)."""
    return property(operator.itemgetter(index), doc=doc)


#: the attribute getter of :func:`collections.namedtuple` (in C where there is one)
_tuplegetter: Any = getattr(collections, "_tuplegetter", _item_property)

__all__ = ["items_source", "new_source", "padded", "tuple_record"]

_T = TypeVar("_T")

#: the literals :func:`new_source` writes as they are (their ``repr`` gives them back)
_LITERALS = (int, str, bool, type(None))


def _not_ordered(self: Any, other: Any) -> Any:
    """A record has no order (as a dataclass without ``order``)."""
    return NotImplemented


class _LazyFields:
    """``__dataclass_fields__`` (or ``__dataclass_params__``): made by :mod:`dataclasses`
    from a twin class the first time something asks (``fields``, ``replace``,
    ``asdict``...), then kept, both."""

    frozen = True  # (a tuple record is: lazyrecord.is_frozen reads it on the class)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type) -> Any:
        import dataclasses

        annotations = vars(owner)["__record_annotations__"]
        defaults = vars(owner)["__record_defaults__"]
        twin = type(owner.__name__, (), {"__annotations__": annotations, **defaults,
                                         "__module__": owner.__module__,
                                         "__qualname__": owner.__qualname__})
        made: Any = dataclasses.dataclass(frozen=True, init=False, repr=False, eq=False)(twin)
        for key in (self.name, "__dataclass_params__"):
            setattr(owner, key, vars(made)[key])
        return vars(made)[self.name]


def _methods(cls: type, names: tuple[str, ...], defaults: dict[str, Any]) -> dict[str, Any]:
    """``__new__``, ``__repr__`` and ``__eq__``, written for the fields (as dataclass
    writes ``__init__``, ``__repr__`` and ``__eq__``)."""
    ns: dict[str, Any] = {"_new": tuple.__new__, "_eq": tuple.__eq__}
    params = []
    for name in names:
        if name in defaults:
            ns[f"_default_{name}"] = defaults[name]
            params.append(f"{name}=_default_{name}")
        elif params and "=" in params[-1]:
            raise TypeError(f"{cls.__qualname__}: non-default field {name!r} follows a "
                            "default field")
        else:
            params.append(name)
    shown = ", ".join(f"{name}={{self[{i}]!r}}" for i, name in enumerate(names))
    lines = [f"def __new__(cls, {', '.join(params)}):",
             f"    return _new(cls, ({''.join(name + ', ' for name in names)}))",
             "def __repr__(self):", f"    return f'{{self.__class__.__qualname__}}({shown})'",
             "def __eq__(self, other):", "    if other.__class__ is self.__class__:",
             "        return _eq(self, other)",
             # (a plain tuple would answer for its items: not equal, as to a dataclass)
             "    return False if isinstance(other, tuple) else NotImplemented"]
    codegen.run("\n".join(lines) + "\n", f"<methods of {cls.__qualname__}>", ns)
    made = {name: ns[name] for name in ("__new__", "__repr__", "__eq__")}
    for name, fn in made.items():
        fn.__qualname__ = f"{cls.__qualname__}.{name}"
    return made


@dataclass_transform(frozen_default=True)
def tuple_record(cls: type[_T]) -> type[_T]:
    """The frozen record of ``cls``'s annotated fields (plain defaults only), kept in a
    tuple (see the module's text)."""
    own = dict(vars(cls))
    annotations = {name: a for name, a in own.get("__annotations__", {}).items()
                   if not _is_class_variable(a)}
    names = tuple(annotations)
    defaults = {name: own.pop(name) for name in names if name in own}
    if any(map(_is_field, defaults.values())):
        raise TypeError(f"{cls.__qualname__}: a tuple record takes plain defaults only "
                        "(no field())")
    taken = sorted({"cls", "self", "other", "_new", "_eq"} & set(names))
    if taken:  # (the names its generated methods use)
        raise TypeError(f"{cls.__qualname__}: a tuple record has no field named {taken[0]}")
    for key in ("__dict__", "__weakref__", "__annotations__"):
        own.pop(key, None)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise _frozen_error(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise _frozen_error(f"cannot delete field {name!r}")

    def __reduce__(self: Any) -> tuple[Any, ...]:  # pickled and copied as cls(*fields)
        return self.__class__, tuple(self)

    namespace: dict[str, Any] = {
        **own, "__slots__": (), "__match_args__": names,
        "__record_annotations__": annotations, "__record_defaults__": defaults,
        "__annotations__": annotations,
        **{key: _LazyFields(key) for key in ("__dataclass_fields__", "__dataclass_params__")},
        "__setattr__": __setattr__, "__delattr__": __delattr__, "__reduce__": __reduce__,
        "__hash__": tuple.__hash__, "__ne__": object.__ne__,
        **{op: _not_ordered for op in ("__lt__", "__le__", "__gt__", "__ge__")},
        **{name: _tuplegetter(i, f"the field {name}") for i, name in enumerate(names)}}
    record: Any = type(cls.__name__, (tuple,), namespace)
    record.__qualname__ = cls.__qualname__
    for name, fn in _methods(record, names, defaults).items():
        setattr(record, name, fn)
    for fn in (__setattr__, __delattr__, __reduce__):
        fn.__qualname__ = f"{cls.__qualname__}.{fn.__name__}"
    made: type[_T] = record
    return made


def new_source(cls: type, values: dict[str, str], namespace: dict[str, Any]) -> str:
    """Source of an expression that makes the :func:`tuple_record` ``cls`` whose fields are
    the expressions ``values`` (the others their defaults) by one call, without its
    ``__new__``; the names it reads are put in ``namespace``."""
    tag = cls.__name__
    namespace[f"_new_{tag}"] = tuple.__new__
    namespace[f"_{tag}"] = cls
    return f"_new_{tag}(_{tag}, {items_source(cls, values, namespace)})"


def items_source(cls: type, values: dict[str, str], namespace: dict[str, Any],
                 trim: bool = False) -> str:
    """Source of the plain tuple of the fields of the :func:`tuple_record` ``cls`` whose
    fields are the expressions ``values`` (the others their defaults), in their order:
    ``tuple.__new__(cls, items)`` makes the record of them (a plain tuple costs a
    fraction of a record of a subclass of ``tuple``); the names it reads are put in
    ``namespace``. With ``trim``, the fields after the last one ``values`` gives are
    left out (their defaults: :func:`padded` puts them back).

    >>> @tuple_record
    ... class Point:
    ...     x: int
    ...     y: int = 0
    ...     z: int = 0
    >>> items_source(Point, {"x": "a"}, {}), items_source(Point, {"x": "a"}, {}, trim=True)
    ('(a, 0, 0, )', '(a, )')
    >>> padded(Point, (1,)), padded(Point, (1, 2, 3))
    ((1, 0, 0), (1, 2, 3))
    """
    tag = cls.__name__
    defaults = vars(cls)["__record_defaults__"]
    names = vars(cls)["__match_args__"]
    if trim:
        names = names[:max((i + 1 for i, name in enumerate(names) if name in values),
                           default=0)]
    items = []
    for name in names:
        expr = values.get(name)
        if expr is None:
            if name not in defaults:
                raise TypeError(f"no value for the field {name} of {tag}")
            value = defaults[name]
            if type(value) in _LITERALS or (type(value) is tuple and not value):
                expr = repr(value)
            else:
                expr = f"_default_{tag}_{name}"
                namespace[expr] = value
        items.append(expr)
    return f"({''.join(item + ', ' for item in items)})"


def padded(cls: type, items: tuple[Any, ...]) -> tuple[Any, ...]:
    """``items``, the first fields of the :func:`tuple_record` ``cls`` (as
    :func:`items_source` with ``trim`` writes them), with the defaults of the others."""
    names = vars(cls)["__match_args__"]
    if len(items) == len(names):
        return items
    defaults = vars(cls)["__record_defaults__"]
    return (*items, *(defaults[name] for name in names[len(items):]))
