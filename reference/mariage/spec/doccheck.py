"""The static checks of a description's options: what each declares, before anything is built.

Each option must be used (``binds`` or ``effects``), have a default of its type, list
each enum value once, key its effects by its own values, and change something at every
value other than the default; a conditional default (``default_when``) names other
options with values they take. :func:`check_declarations` raises :class:`SpecError` at
the first problem, located in the file. The checks that build the rules under each
option value are :func:`mariage.spec.compile.check_document`'s.

>>> from mariage.spec.options import option_specs
>>> from mariage.spec.specload import load_document
>>> doc = load_document("marianna")
>>> check_declarations(doc, option_specs(doc)) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mariage.errors import OptionError, SpecError, did_you_mean

from .options import default_value as _default
from .options import parse_option_value, typed_default
from .options import value_key as _key
from .specload import Document

__all__ = ["check_declarations"]


def _fail(doc: Document, path: str, message: str, code: str = "S020") -> SpecError:
    return SpecError(message, location=doc.where(path), path=path, code=code)


def check_declarations(doc: Document, specs: Mapping[str, Any]) -> None:
    """Check what each option of ``doc`` (``specs``: name -> spec) declares."""
    for name, spec in specs.items():
        where = f"options.{name}"
        if not spec.get("binds") and not spec.get("effects"):
            raise _fail(doc, where, f"option '{name}' is used by nothing (no binds, no effects)")
        _default(doc, name, spec)
        _check_default_when(doc, name, spec, specs)
        if spec["type"] == "enum":
            if len(set(map(str, spec["values"]))) != len(spec["values"]):
                raise _fail(doc, f"{where}.values", "an option value is listed twice")
            effects = spec.get("effects") or {}
            for k in effects:
                if k not in {str(v) for v in spec["values"]}:
                    raise _fail(doc, f"{where}.effects.{k}",
                                f"effects for '{k}', which is not a value of '{name}'")
            if not spec.get("binds"):
                for v in spec["values"]:
                    if _key(v) != _key(spec["default"]) and \
                            _same_effects(effects, v, spec["default"]):
                        raise _fail(doc, f"{where}.values",
                                    f"value '{v}' of option '{name}' changes nothing")
        if spec["type"] == "bool" and not spec.get("binds"):
            effects = spec.get("effects") or {}
            other = _key(not spec["default"])
            if _same_effects(effects, not spec["default"], spec["default"]):
                raise _fail(doc, f"{where}.effects", f"option '{name}'={other} changes nothing")
            for k in effects:
                if k not in ("true", "false"):
                    raise _fail(doc, f"{where}.effects.{k}", "bool effects are keyed true/false")


def _same_effects(effects: Mapping[str, Any], value: Any, default: Any) -> bool:
    """Whether ``value`` has the same effects as the ``default`` (none, or equal ones):
    then it changes nothing. A description that extends another and moves an option's
    default to the value with the effects (``close_allowed: {default: false}``) leaves
    the old default changing something, though no effects are keyed by it.

    >>> _same_effects({"false": {"x": 1}}, True, False), _same_effects({}, True, False)
    (False, True)
    """
    return (effects.get(_key(value)) or {}) == (effects.get(_key(default)) or {})


def _check_default_when(doc: Document, name: str, spec: Mapping[str, Any],
                        specs: Mapping[str, Any]) -> None:
    """Each conditional default names other options, with values they can take, and
    gives a value of this option (S020 at the ``when`` entry, S001 at the ``value``)."""
    for i, case in enumerate(spec.get("default_when") or ()):
        where = f"options.{name}.default_when.{i}"
        try:
            parse_option_value(name, spec, typed_default(name, spec, case["value"]))
        except OptionError as exc:
            raise SpecError(f"the conditional default: {exc}", location=doc.where(
                f"{where}.value"), path=f"{where}.value", code="S001") from None
        for other, value in case["when"].items():
            at = f"{where}.when.{other}"
            if other == name:
                raise _fail(doc, at, f"the default of '{name}' cannot depend on itself")
            if other not in specs:
                raise _fail(doc, at, f"conditional default of '{name}' names option "
                                     f"'{other}', which does not exist (options: "
                                     f"{', '.join(specs)})" + did_you_mean(other, specs))
            try:
                parse_option_value(other, specs[other], value)
            except OptionError as exc:
                raise _fail(doc, at, f"conditional default of '{name}': {exc}") from None
            if specs[other]["type"] == "bool" and not isinstance(value, bool):
                raise _fail(doc, at, f"conditional default of '{name}': option '{other}' "
                                     f"takes true or false, got {value!r}")
