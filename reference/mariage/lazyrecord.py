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

import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, dataclass_transform, overload

from . import codegen

if TYPE_CHECKING:
    pass

__all__ = ["FACTORY", "complete", "field", "field_defaults", "field_names", "frozen_record",
           "hashable_record", "is_frozen", "is_record", "made_method", "record", "replace"]

_T = TypeVar("_T")

#: the methods made on first use, as ``dataclass(frozen=True)`` makes them
_LAZY = ("__init__", "__repr__", "__eq__", "__hash__")


class _Missing:
    """No default (as ``dataclasses.MISSING``)."""

    def __repr__(self) -> str:
        return "MISSING"


_MISSING: Any = _Missing()


class _FactoryMade:
    """What :func:`field_defaults` gives for a field whose default a factory makes."""

    def __repr__(self) -> str:
        return "FACTORY"


#: the default :func:`field_defaults` gives a field whose default a factory makes
FACTORY: Any = _FactoryMade()


class FieldSpec:
    """What :func:`field` was told of a field: made into a :class:`dataclasses.Field` when
    :mod:`dataclasses` is asked about the record (it is not imported before)."""

    __slots__ = ("options",)

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options

    @property
    def default(self) -> Any:
        return self.options.get("default", _MISSING)

    @property
    def default_factory(self) -> Any:
        return self.options.get("default_factory", _MISSING)

    @property
    def init(self) -> bool:
        return bool(self.options.get("init", True))

    @property
    def kw_only(self) -> Any:
        return self.options.get("kw_only", _MISSING)

    def made(self) -> Any:
        """The :func:`dataclasses.field` of these options."""
        import dataclasses

        return dataclasses.field(**self.options)


@overload
def field(*, default: _T, init: bool = ..., repr: bool = ..., hash: bool | None = ...,
          compare: bool = ..., metadata: Mapping[Any, Any] | None = ...,
          kw_only: bool = ...) -> _T: ...
@overload
def field(*, default_factory: Callable[[], _T], init: bool = ..., repr: bool = ...,
          hash: bool | None = ..., compare: bool = ...,
          metadata: Mapping[Any, Any] | None = ..., kw_only: bool = ...) -> _T: ...
@overload
def field(*, init: bool = ..., repr: bool = ..., hash: bool | None = ...,
          compare: bool = ..., metadata: Mapping[Any, Any] | None = ...,
          kw_only: bool = ...) -> Any: ...
def field(**options: Any) -> Any:
    """:func:`dataclasses.field` for the records of this module, without importing
    :mod:`dataclasses` (which imports :mod:`inspect`, and with it a good part of the
    standard library) until something asks for the fields' descriptions.

    >>> @frozen_record
    ... class Hand:
    ...     cards: list[int] = field(default_factory=list)
    >>> Hand().cards
    []
    """
    return FieldSpec(options)


def _plain(value: object) -> Any:
    """``dataclasses.MISSING`` as this module's own marker; anything else as it is."""
    module = sys.modules.get("dataclasses")
    return _MISSING if module is not None and value is module.MISSING else value


def _is_field(value: object) -> bool:
    """Is ``value`` a field's description (ours, or a :class:`dataclasses.Field`)?"""
    if type(value) is FieldSpec:
        return True
    module = sys.modules.get("dataclasses")  # none can be one unless it was imported
    return module is not None and isinstance(value, module.Field)


def _frozen_error(message: str) -> Exception:
    import dataclasses

    return dataclasses.FrozenInstanceError(message)


class _FrozenParams:
    """``__dataclass_params__`` of a frozen record, those of a frozen slotted dataclass,
    made when first read."""

    frozen = True  # (read by is_frozen on the class, without making the parameters)

    def __get__(self, instance: object, owner: type) -> Any:
        import dataclasses

        @dataclasses.dataclass(frozen=True, slots=True)
        class _Frozen:
            """A frozen, slotted dataclass without fields: its parameters are every
            record's."""

        params = vars(_Frozen)["__dataclass_params__"]
        for record in _RECORDS:
            if "__dataclass_params__" in vars(record) and \
                    type(vars(record)["__dataclass_params__"]) is _FrozenParams:
                record.__dataclass_params__ = params
        return params


_FROZEN_PARAMS = _FrozenParams()


def replace(obj: _T, /, **changes: Any) -> _T:
    """:func:`dataclasses.replace` (the module imported when first used).

    >>> @frozen_record
    ... class Bid:
    ...     seat: int
    ...     value: int = 60
    >>> replace(Bid(1), value=80)
    Bid(seat=1, value=80)
    """
    import dataclasses

    made: _T = dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    return made


def _freeze(record: Any, names: tuple[str, ...]) -> None:
    """Make ``record``'s instances frozen and picklable, as ``dataclass(frozen=True,
    slots=True)`` does: assigning or deleting a field raises ``FrozenInstanceError``."""
    fields = frozenset(names)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is record or name in fields:
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(record, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is record or name in fields:
            raise _frozen_error(f"cannot delete field {name!r}")
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


class _Factory:
    """The default of an argument whose field has a default factory (shown as dataclass
    shows it)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


def _init_of(record: Any, names: tuple[str, ...], defaults: dict[str, Any],
             annotations: dict[str, Any], frozen: bool) -> Any | None:
    """``__init__`` as ``dataclass`` writes it, for fields with plain defaults, defaults
    made by a factory, and fields left out of it; ``None`` for anything else (keyword-only
    fields, a default after which a field has none), which :mod:`dataclasses` then makes
    with its own message. Writing it here takes a tenth of the time."""
    MISSING = _MISSING
    params, body = [], []
    ns: dict[str, Any] = {"_set": object.__setattr__, "_HAS_FACTORY": _HAS_FACTORY}
    later = False  # a parameter with a default came
    for name in names:
        value = defaults.get(name, MISSING)
        init: bool = True
        default: Any = value
        factory: Any = MISSING
        if _is_field(value):
            if value.kw_only is True:
                return None
            init, default, factory = value.init, _plain(value.default), \
                _plain(value.default_factory)
        if factory is not MISSING:
            ns[f"_factory_{name}"] = factory
            if init:
                params.append(f"{name}=_HAS_FACTORY")
                made = f"_factory_{name}() if {name} is _HAS_FACTORY else {name}"
            else:
                made = f"_factory_{name}()"
        elif default is not MISSING:
            ns[f"_default_{name}"] = default
            if init:
                params.append(f"{name}=_default_{name}")
                made = name
            else:
                made = f"_default_{name}"
        elif init:
            if later:
                return None
            params.append(name)
            made = name
        else:
            continue  # left unset, as dataclass leaves it
        later |= init and (factory is not MISSING or default is not MISSING)
        body.append(f"    _set(self, {name!r}, {made})" if frozen else
                    f"    self.{name} = {made}")
    if "__post_init__" in vars(record):
        body.append("    self.__post_init__()")
    source = (f"def __init__(self{''.join(', ' + p for p in params)}) -> None:\n"
              + "\n".join(body or ["    pass"]) + "\n")
    codegen.run(source, f"<__init__ of {record.__qualname__}>", ns)
    init_fn = ns["__init__"]
    init_fn.__qualname__ = f"{record.__qualname__}.__init__"
    init_fn.__annotations__ = {**{name: annotations[name] for name in names
                                  if not _is_field(defaults.get(name))
                                  or defaults[name].init}, "return": None}
    return init_fn


def _option(value: object, key: str, default: Any) -> Any:
    """A field's option (``compare``, ``hash``...) from its description, if it has one."""
    if type(value) is FieldSpec:
        return value.options.get(key, default)
    return getattr(value, key) if _is_field(value) else default


def _eq_hash_of(record: Any, names: tuple[str, ...], defaults: dict[str, Any],
                hashed: bool) -> dict[str, Any]:
    """``__eq__`` (and where ``hashed``, ``__hash__``) as ``dataclass`` writes them: the
    compared fields as tuples, another class never equal."""
    compared = [name for name in names if _option(defaults.get(name), "compare", True)]
    hashing = [name for name in names
               if (_option(defaults.get(name), "hash", None) is None and name in compared)
               or _option(defaults.get(name), "hash", None)]

    def fields_of(who: str, which: list[str]) -> str:
        return "(" + "".join(f"{who}.{name}," for name in which) + ")"

    lines = ["def __eq__(self, other):",
             "    if other.__class__ is self.__class__:",
             f"        return {fields_of('self', compared)} == {fields_of('other', compared)}",
             "    return NotImplemented"]
    if hashed:
        lines += ["def __hash__(self):", f"    return hash({fields_of('self', hashing)})"]
    ns: dict[str, Any] = {}
    codegen.run("\n".join(lines) + "\n", f"<__eq__ of {record.__qualname__}>", ns)
    made: dict[str, Any] = {name: ns[name] for name in ("__eq__", "__hash__") if name in ns}
    for name, fn in made.items():
        fn.__qualname__ = f"{record.__qualname__}.{name}"
    return made


def _lazy_record(cls: Any, frozen: bool, hashed: bool) -> Any:
    """The slotted class ``dataclass(slots=True, frozen=frozen, unsafe_hash=hashed)`` makes
    of ``cls`` (``hashed`` is implied by ``frozen``), with ``__init__`` written at once
    and the other methods and the fields' descriptions made on first use."""
    namespace = dict(vars(cls))
    annotations = dict(namespace.get("__annotations__", {}))
    if any(str(a).startswith(("InitVar", "dataclasses.InitVar")) for a in annotations.values()):
        raise TypeError(f"{cls.__qualname__}: init-only fields are not supported")
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
        if not (_is_field(defaults.get(name)) and not defaults[name].init))
    maker: Any = type(cls)
    record: Any = maker(cls.__name__, cls.__bases__, namespace)
    record.__qualname__ = cls.__qualname__
    if frozen:
        _freeze(record, names)

    def twin(**options: Any) -> Any:
        """A class of the same name, module, fields and defaults, given only the
        methods asked for."""
        import dataclasses

        made_defaults = {name: value.made() if type(value) is FieldSpec else value
                         for name, value in defaults.items()}
        plain = type(record.__name__, (), {"__annotations__": fields_only, **made_defaults,
                                           **own,
                                           "__module__": record.__module__,
                                           "__qualname__": record.__qualname__})
        return dataclasses.dataclass(**options)(plain)

    def fields() -> Any:
        made = vars(twin(init=False, repr=False, eq=False))["__dataclass_fields__"]
        record.__dataclass_fields__ = made
        return made

    def make(name: str) -> None:
        """Give ``record`` the method ``name`` (and its partner: ``__eq__`` and
        ``__hash__`` go together) as ``dataclass`` writes it."""
        group: tuple[str, ...]
        if name == "__init__":
            written = _init_of(record, names, defaults, fields_only, frozen)
            if written is not None:
                record.__init__ = written
                return
            # else as dataclass writes it (with its message for a field without a default
            # after one with): set through object.__setattr__ where frozen; slotted, so
            # that a field left out of the arguments is given its default
            options = {"frozen": frozen, "repr": False, "eq": False, "slots": True}
            group = ("__init__",)
        elif name == "__repr__":
            options, group = {"init": False, "eq": False}, ("__repr__",)
        else:  # the __hash__ of a frozen (or unsafe_hash) dataclass, unless the class has one
            written_eq = _eq_hash_of(record, names, defaults, frozen or hashed)
            for method, fn in written_eq.items():
                if method not in own:
                    setattr(record, method, fn)
            if written_eq:
                return
            options = {"init": False, "repr": False,
                       "unsafe_hash": (frozen or hashed) and "__hash__" not in own}
            group = ("__eq__", "__hash__") if frozen or hashed else ("__eq__",)
        made = twin(**options)
        for method in group:
            if method not in own:
                setattr(record, method, made.__dict__[method])

    def lazy(name: str) -> Any:
        def first_call(self: Any, *args: Any, **kwargs: Any) -> Any:
            make(name)
            return getattr(record, name)(self, *args, **kwargs)
        first_call.__name__ = first_call.__qualname__ = name
        first_call.__lazy_make__ = make  # type: ignore[attr-defined]  # for complete()
        first_call.__lazy_record__ = record  # type: ignore[attr-defined]
        return first_call

    for name in _LAZY:
        if name in own or (name == "__init__" and not names):  # no fields: object's
            continue
        if name == "__hash__" and not (frozen or hashed):
            record.__hash__ = None  # eq without frozen: unhashable, as dataclass makes it
            continue
        setattr(record, name, lazy(name))
    record.__dataclass_fields__ = _LazyFields(fields)
    _RECORDS.append(record)
    _DEFAULTS[record] = {name: value if not _is_field(value) else FACTORY
                         if _plain(value.default_factory) is not _MISSING else value.default
                         for name, value in defaults.items()
                         if not _is_field(value) or _plain(value.default_factory) is not _MISSING
                         or _plain(value.default) is not _MISSING}
    return record


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def frozen_record(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True)``, with ``__repr__``, ``__eq__``,
    ``__hash__`` and the fields' descriptions made the first time one of them is used."""
    made: type[_T] = _lazy_record(cls, frozen=True, hashed=True)
    return made


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[_T]) -> type[_T]:
    """``@dataclass(slots=True)``: a mutable record, its methods made as by
    :func:`frozen_record`.

    >>> @record
    ... class Tally:
    ...     seat: int
    ...     points: int = 0
    >>> t = Tally(2); t.points += 20; t
    Tally(seat=2, points=20)
    """
    made: type[_T] = _lazy_record(cls, frozen=False, hashed=False)
    return made


@dataclass_transform(field_specifiers=(field,))
def hashable_record(cls: type[_T]) -> type[_T]:
    """``@dataclass(slots=True, unsafe_hash=True)``: a mutable record that hashes by its
    compared fields (treat it as a value), its methods made as by :func:`frozen_record`."""
    made: type[_T] = _lazy_record(cls, frozen=False, hashed=True)
    return made


#: every class :func:`frozen_record` made (the tests compare each with its dataclass)
_RECORDS: list[Any] = []
#: each record's plain defaults by field (a field whose default a factory makes: its Field)
_DEFAULTS: dict[type, dict[str, Any]] = {}


def complete(cls: type) -> None:
    """Make every method of a record that is still made on first use (for tools that
    read signatures, such as the documentation's ``autodoc``).

    >>> import inspect
    >>> @frozen_record
    ... class Bid:
    ...     seat: int
    ...     value: int = 60
    >>> complete(Bid)
    >>> str(inspect.signature(Bid))
    "(seat: 'int', value: 'int' = 60) -> None"
    """
    for name in _LAZY:
        method = vars(cls).get(name)
        make = getattr(method, "__lazy_make__", None)
        if make is not None:
            make(name)


def made_method(method: Any) -> Any:
    """The method a record's first-use stand-in ``method`` becomes (made now), or
    ``method`` itself if it is no such stand-in."""
    make = getattr(method, "__lazy_make__", None)
    if make is None:
        return method
    make(method.__name__)
    return vars(method.__lazy_record__)[method.__name__]


def is_record(cls: type) -> bool:
    """Was ``cls`` made by :func:`frozen_record`, :func:`record` or :func:`hashable_record`?"""
    return cls in _DEFAULTS


def is_frozen(cls: type) -> bool:
    """``dataclasses.fields(cls).__dataclass_params__.frozen`` where ``cls`` is a dataclass
    or a record (else False), told without making a record's parameters (which imports
    :mod:`dataclasses`, and with it :mod:`inspect`).

    >>> @frozen_record
    ... class Bid:
    ...     seat: int
    >>> is_frozen(Bid), is_frozen(int)
    (True, False)
    """
    for klass in cls.__mro__:
        params = vars(klass).get("__dataclass_params__")
        if params is not None:
            return bool(getattr(params, "frozen", False))
    return False


def field_names(record: type) -> tuple[str, ...]:
    """The names of a :func:`frozen_record`'s fields, in order, without making the
    fields' descriptions (as ``tuple(f.name for f in dataclasses.fields(record))``).

    >>> @frozen_record
    ... class Bid:
    ...     seat: int
    ...     value: int = 60
    >>> field_names(Bid)
    ('seat', 'value')
    """
    names: tuple[str, ...] = vars(record)["__slots__"]
    return names


def field_defaults(record: type) -> dict[str, Any]:
    """The default of each field of a record that has one (:data:`FACTORY` for a field
    whose default a factory makes), without making the fields' descriptions.

    >>> @frozen_record
    ... class Bid:
    ...     seat: int
    ...     value: int = 60
    ...     cards: list[int] = field(default_factory=list)
    >>> field_defaults(Bid)
    {'value': 60, 'cards': FACTORY}
    """
    return dict(_DEFAULTS[record])
