"""Options: their declarations in a description, their values, and applying them.

Kept apart from the compiler so that reading what a ruleset is (``mariage
list``) does not import the compiled rules' classes.

>>> from mariage.spec.specload import load_document
>>> summary(load_document("marianna-2"))
Summary(title='Marianna for two', parent='marianna', nseats=2, ncards=40)
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral
from typing import Any, NamedTuple

from mariage.errors import OptionError, SpecError, did_you_mean, expect_str, shown, whole_number

from .specload import Document, deep_copy, expect_document

__all__ = ["Summary", "check_invalid_rules", "check_invalid_when", "default_in_force",
           "default_text", "default_value", "depends_on", "given_only", "invalid_case",
           "invalid_text", "option_specs", "options_at_fault", "options_of_rules", "own_data",
           "parse_option_value", "playable", "resolution_order", "resolve", "resolve_written",
           "settled_values", "summary", "typed_default", "value_key"]


#: An option value (or name) quoted back in a message is cut to this many characters.
MAX_SHOWN = 60


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else f"{text[:MAX_SHOWN]}... ({len(text)} characters)"


def _shown(raw: Any) -> str:
    """``raw`` as quoted back in a message: its repr, cut to :data:`MAX_SHOWN` characters.

    >>> _shown("x" * 100_000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (100000 characters)"
    """
    if isinstance(raw, str):
        return repr(raw) if len(raw) <= MAX_SHOWN else \
            f"{raw[:MAX_SHOWN]!r}... ({len(raw)} characters)"
    return _cut(shown(raw, 10 ** 6))  # (a whole number past 4,300 digits by its size)


def option_specs(doc: Document) -> dict[str, dict[str, Any]]:
    """The option declarations of a description, by name."""
    opts: dict[str, dict[str, Any]] = \
        expect_document(doc, "option_specs").data.get("options", {}) or {}
    return opts


def parse_option_value(name: str, spec: Mapping[str, Any], raw: Any) -> Any:
    """Convert ``raw`` (a string from a command line, or a typed value) to the option's type.

    ``spec`` is the option's declaration (:func:`option_specs`); one that is no mapping,
    or declares no type the schema has (``int``, ``bool``, ``enum`` with its list of
    ``values``), is a ``TypeError`` or ``ValueError`` naming the call, not a
    ``KeyError`` deep inside.
    """
    kind = _option_kind(expect_str(name, "parse_option_value: name"), spec)
    if kind == "int":
        if isinstance(raw, Integral) and not isinstance(raw, int):
            raw = int(raw)  # a numpy integer, as an agent's settings give it: its value
        # spaces and tabs around the digits are allowed (as around true/false)
        value = whole_number(raw.strip(" \t") if isinstance(raw, str) else raw)
        if value is None:
            raise OptionError(f"option '{_cut(name)}' takes a whole number, got {_shown(raw)}",
                              option=name)
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = (f"between {lo} and {hi}" if lo is not None and hi is not None
                      else f"at least {lo}" if lo is not None else f"at most {hi}")
            raise OptionError(f"option '{_cut(name)}' must be {bounds}, got {_shown(value)}",
                              option=name)
        return value
    if kind == "bool":
        if isinstance(raw, bool):
            return raw
        text = str(raw).strip().lower()
        if text in ("true", "yes", "on", "1"):
            return True
        if text in ("false", "no", "off", "0"):
            return False
        raise OptionError(f"option '{_cut(name)}' takes true or false, got {_shown(raw)}",
                          option=name)
    values = spec["values"]
    for v in values:
        if str(v) == str(raw):
            return v
    raise OptionError(f"option '{_cut(name)}' takes one of {', '.join(map(str, values))}; "
                      f"got {_shown(raw)}", option=name)


def _option_kind(name: str, spec: object) -> str:
    """The type ``spec`` declares for option ``name``, checked as :func:`parse_option_value`
    reads it."""
    call = f"parse_option_value: option '{_cut(name)}'"
    if not isinstance(spec, Mapping):
        raise TypeError(f"{call}: its declaration is a mapping, not {type(spec).__name__}")
    kind = spec.get("type")
    if kind not in ("int", "bool", "enum"):
        raise ValueError(f"{call}: its declaration's type is int, bool or enum, not "
                         f"{shown(kind)}")
    bounds = [spec.get(key) for key in ("min", "max") if kind == "int"]
    if any(b is not None and (isinstance(b, bool) or not isinstance(b, int)) for b in bounds):
        raise ValueError(f"{call}: its min and max are whole numbers, not "
                         f"{', '.join(map(shown, bounds))}")
    if kind == "enum" and not isinstance(spec.get("values"), list | tuple):
        raise ValueError(f"{call}: an enum declares its list of values, not "
                         f"{shown(spec.get('values'))}")
    return str(kind)


def value_key(value: Any) -> str:
    """How an option value is written as a key of its ``effects``."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _set_path(data: dict[str, Any], path: str, value: Any, doc: Document, where: str) -> None:
    parts = path.split(".")
    node: Any = data
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not isinstance(node, dict) or (part not in node and not last):
            raise SpecError(f"option effect names '{path}', which does not exist "
                            f"(no '{'.'.join(parts[:i + 1])}')", location=doc.where(where),
                            path=where, code="S010")
        if i == len(parts) - 1:
            node[part] = deep_copy({"v": value})["v"]
        else:
            node = node[part]


def _default_cases(spec: object, call: str, default: bool = True) -> list[Mapping[str, Any]]:
    """The ``default_when`` cases of an option's declaration ``spec``, checked as the calls
    below read them: a ``TypeError`` or ``ValueError`` naming ``call``, not a ``KeyError``
    or an ``AttributeError`` from inside (``default`` is required unless told not)."""
    if not isinstance(spec, Mapping):
        raise TypeError(f"{call}: the declaration is a mapping, not {type(spec).__name__}")
    if default and "default" not in spec:
        raise ValueError(f"{call}: the declaration has no default")
    cases = spec.get("default_when") or []
    if not isinstance(cases, list | tuple) or not all(
            isinstance(c, Mapping) and "value" in c and isinstance(c.get("when") or {}, Mapping)
            for c in cases):
        raise ValueError(f"{call}: default_when is a list of cases, each a mapping with a "
                         f"'when' mapping and a 'value', not {shown(cases)}")
    return list(cases)


def depends_on(spec: Mapping[str, Any]) -> list[str]:
    """The options that the conditional defaults (``default_when``) of ``spec`` name.

    >>> depends_on({"default": 60, "default_when": [{"when": {"players": 4}, "value": 40}]})
    ['players']
    """
    names: dict[str, None] = {}
    for case in _default_cases(spec, "depends_on", default=False):
        names.update(dict.fromkeys(str(k) for k in (case.get("when") or {})))
    return list(names)


def default_in_force(spec: Mapping[str, Any], values: Mapping[str, Any]) -> Any:
    """The default of an option when the other options have ``values``: the ``value`` of
    the first ``default_when`` case whose ``when`` all hold, else ``default``.

    >>> spec = {"default": 60, "default_when": [{"when": {"players": 4}, "value": 40}]}
    >>> default_in_force(spec, {"players": 4}), default_in_force(spec, {"players": 3})
    (40, 60)
    """
    _default_cases(spec, "default_in_force")
    if not isinstance(values, Mapping):
        raise TypeError(f"default_in_force: values must be a mapping, not "
                        f"{type(values).__name__}")
    case = _case_in_force(spec, values)
    return spec["default"] if case is None else spec["default_when"][case]["value"]


def default_text(spec: Mapping[str, Any]) -> str:
    """An option's default as rulebooks and ``mariage list`` print it, with its
    conditional defaults.

    >>> default_text({"default": 60, "default_when": [{"when": {"players": 4}, "value": 40}]})
    '60 (40 with players=4)'
    >>> default_text({"default": True})
    'true'
    """
    cases = [f"{value_key(c['value'])} with "
             + ", ".join(f"{k}={value_key(v)}" for k, v in (c.get("when") or {}).items())
             for c in _default_cases(spec, "default_text")]
    return value_key(spec["default"]) + (f" ({'; '.join(cases)})" if cases else "")


def _case_in_force(spec: Mapping[str, Any], values: Mapping[str, Any]) -> int | None:
    for i, case in enumerate(spec.get("default_when") or ()):
        when = case.get("when") or {}
        if all(k in values and value_key(values[k]) == value_key(v) for k, v in when.items()):
            return i
    return None


def resolution_order(doc: Document) -> list[str]:
    """The options of ``doc`` in the order their values are settled: the order they are
    declared in, except that an option with conditional defaults comes after the options
    they name. Conditional defaults that depend on each other in a ring are an S020 error
    at the ``default_when`` of the option that closes the ring."""
    specs = option_specs(doc)
    needs = {name: [n for n in depends_on(spec) if n in specs]
             for name, spec in specs.items() if spec and spec.get("default_when")}
    if not needs:
        return list(specs)
    order: list[str] = []
    done: set[str] = set()

    def visit(name: str, chain: tuple[str, ...]) -> None:
        if name in done:
            return
        if name in chain:
            ring = " -> ".join((*chain[chain.index(name):], name))
            where = f"options.{chain[-1]}.default_when"
            raise SpecError(f"conditional defaults depend on each other: {ring}",
                            location=doc.where(where), path=where, code="S020")
        for other in needs.get(name, ()):
            visit(other, (*chain, name))
        done.add(name)
        order.append(name)

    for name in specs:
        visit(name, ())
    return order


def default_value(doc: Document, name: str, spec: Mapping[str, Any],
                  values: Mapping[str, Any] | None = None) -> Any:
    """The default of option ``name`` (when the options settled before it have
    ``values``: see :func:`default_in_force`); a default of the wrong type is the
    description's fault, so a :class:`SpecError` at its line (not a usage error), and so
    is a min above the max (no value at all is allowed)."""
    _default_cases(spec, "default_value")
    lo, hi = spec.get("min"), spec.get("max")
    if spec.get("type") == "int" and lo is not None and hi is not None and lo > hi:
        # else the default was blamed: "must be between 5000 and 10, got 41"
        raise SpecError(f"option '{_cut(name)}': min {lo} is above max {hi}, so no value "
                        "is allowed", location=doc.where(f"options.{name}.min"),
                        path=f"options.{name}.min", code="S020")
    case = _case_in_force(spec, values) if values and "default_when" in spec else None
    raw = spec["default"] if case is None else spec["default_when"][case]["value"]
    where = f"options.{name}." + ("default" if case is None else f"default_when.{case}.value")
    try:
        return parse_option_value(name, spec, typed_default(name, spec, raw))
    except OptionError as exc:
        raise SpecError(f"the default: {exc}", location=doc.where(where), path=where,
                        code="S001") from None


def typed_default(name: str, spec: Mapping[str, Any], raw: Any) -> Any:
    """``raw``, a value a description writes for option ``name`` (a default), if it is of
    the declared type as YAML reads it: a bool ``true`` or ``false``, an int a whole number.
    Text that only a command line's reading turns into one (``"yes"``, ``"7"``) or a bool
    given to an int is an :class:`OptionError`: ``default: "yes"`` was played as true while
    ``list`` showed ``yes`` and ``check-spec`` blamed the effects of ``false``."""
    kind, quoted = spec.get("type"), " (without quotes)" if isinstance(raw, str) else ""
    if kind == "bool" and not isinstance(raw, bool):
        raise OptionError(f"option '{_cut(name)}' takes true or false, got {_shown(raw)}"
                          f"{quoted}", option=name)
    if kind == "int" and (isinstance(raw, bool) or not isinstance(raw, int)):
        raise OptionError(f"option '{_cut(name)}' takes a whole number, got {_shown(raw)}"
                          f"{quoted}", option=name)
    return raw


def settled_values(doc: Document, options: Mapping[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The value of every option of ``doc`` when ``options`` are given (each checked and
    converted to its type; the others at their defaults in force), in the order they are
    settled (:func:`resolution_order`); an unknown option is an OptionError.

    >>> from mariage.spec.specload import load_document
    >>> settled_values(load_document("thousand-pl"), {"players": "4"})["concede_award"]
    40
    """
    specs = option_specs(doc)
    given = dict(options or {})
    for name in given:
        if name not in specs:
            raise OptionError(f"{doc.data['ruleset']} has no option '{_cut(name)}' (options: "
                              f"{', '.join(specs) or 'none'})" + did_you_mean(name, specs),
                              option=name)
    settled: dict[str, Any] = {}
    for name in resolution_order(doc):
        spec = specs[name]
        if name in given:
            settled[name] = parse_option_value(name, spec, given[name])
        else:
            settled[name] = default_value(doc, name, spec, settled)
    return settled


def resolve(doc: Document, options: Mapping[str, Any] | None = None
            ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Apply option values to a description; return (data, option values in force).

    An option not given takes its default, which may depend on the values of options
    settled before it (:func:`resolution_order`); a given value always stands. The
    values are then applied in the order the options are declared.
    """
    data, values, _ = resolve_written(expect_document(doc, "resolve"), options)
    return data, values


def resolve_written(doc: Document, options: Mapping[str, Any] | None = None
                    ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """As :func:`resolve`, with the dotted paths the option values were written at (in
    the order written), where the data may differ from the description's own.

    >>> from mariage.spec.specload import load_document
    >>> data, values, written = resolve_written(load_document("marianna"), {"target": 31})
    >>> data["match"]["end"]["target"], "match.end.target" in written
    (31, True)
    """
    specs = option_specs(doc)
    settled = settled_values(doc, options)
    found = invalid_case(specs, settled)
    if found is not None:
        name, case = found
        raise OptionError(f"{doc.data['ruleset']}: {invalid_text(name, case)}", option=name,
                          rule_id=str(case.get("rule") or ""))
    return _applied(doc, specs, settled)


def _applied(doc: Document, specs: Mapping[str, Any], settled: Mapping[str, Any]
             ) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """The description with the option values ``settled`` applied in the order the options
    are declared, the values, and the paths written."""
    values: dict[str, Any] = {}
    written: list[str] = []
    data = deep_copy(doc.data)
    for name, spec in specs.items():
        value = values[name] = settled[name]
        for path in spec.get("binds", []) or []:
            _set_path(data, path, value, doc, f"options.{name}.binds")
            written.append(str(path))
        effects = (spec.get("effects") or {}).get(value_key(value), {}) or {}
        for path, v in effects.items():
            _set_path(data, path, v, doc, f"options.{name}.effects.{value_key(value)}.{path}")
            written.append(str(path))
    return data, values, written


def _holds(when: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    return all(k in values and value_key(values[k]) == value_key(v) for k, v in when.items())


def _invalid_case_ok(case: object, call: str) -> Mapping[str, Any]:
    """One ``invalid_when`` case, checked as :func:`invalid_case` and :func:`invalid_text`
    read it: a mapping with a ``value``, a ``when`` mapping and a ``because``."""
    if not isinstance(case, Mapping) or "value" not in case or "because" not in case \
            or not isinstance(case.get("when"), Mapping):
        raise ValueError(f"{call}: an invalid_when case is a mapping with a 'value', a "
                         f"'when' mapping and a 'because', not {shown(case)}")
    return case


def invalid_case(specs: Mapping[str, Any], values: Mapping[str, Any]
                 ) -> tuple[str, Mapping[str, Any]] | None:
    """The first option (in declaration order) whose value in ``values`` one of its
    ``invalid_when`` cases rules out together with the other values: (option name, case);
    None where the values can be played together.

    >>> specs = {"opening": {"invalid_when": [
    ...     {"value": "dealer", "when": {"sitter": "dealer"}, "because": "he sits out"}]}}
    >>> invalid_case(specs, {"opening": "dealer", "sitter": "dealer"})[0]
    'opening'
    >>> invalid_case(specs, {"opening": "dealer", "sitter": "opposite"}) is None
    True
    """
    for what, given in (("specs", specs), ("values", values)):
        if not isinstance(given, Mapping):
            raise TypeError(f"invalid_case: {what} must be a mapping, not "
                            f"{type(given).__name__}")
    for name, spec in specs.items():
        if spec is not None and not isinstance(spec, Mapping):
            raise TypeError(f"invalid_case: option '{_cut(str(name))}': its declaration is a "
                            f"mapping, not {type(spec).__name__}")
        for case in (spec or {}).get("invalid_when") or ():
            _invalid_case_ok(case, "invalid_case")
            if name in values and value_key(values[name]) == value_key(case["value"]) \
                    and _holds(case["when"], values):
                return name, case
    return None


def playable(doc: Document, options: Mapping[str, Any]) -> bool:
    """Whether ``options`` (values of some options of ``doc``, the others at their
    defaults in force) can be played together: no ``invalid_when`` case rules them out.
    Unknown options and values are an OptionError, as :func:`resolve` raises.

    >>> from mariage.spec.specload import load_document
    >>> doc = load_document("thousand-4")
    >>> playable(doc, {"opening_bid": "dealer_auto_100"})
    False
    >>> playable(doc, {"opening_bid": "dealer_auto_100", "sitter": "opposite"})
    True
    """
    return invalid_case(option_specs(doc), settled_values(doc, options)) is None


def invalid_text(name: str, case: Mapping[str, Any]) -> str:
    """Why a value of option ``name`` cannot be played with others (one ``invalid_when``
    case), as messages and rulebooks say it.

    >>> invalid_text("opening", {"value": "dealer", "when": {"sitter": "dealer"},
    ...                          "because": "he sits out.", "rule": "x.auction.opening"})
    'opening=dealer cannot be played with sitter=dealer: he sits out (rule x.auction.opening)'
    """
    others = ", ".join(f"{k}={value_key(v)}"
                       for k, v in _invalid_case_ok(case, "invalid_text")["when"].items())
    text = f"{name}={value_key(case['value'])} cannot be played with {others}: " \
           f"{' '.join(str(case['because']).split()).rstrip('.')}"
    return text + (f" (rule {case['rule']})" if case.get("rule") else "")


def check_invalid_when(doc: Document) -> None:
    """The ``invalid_when`` cases of every option name other options with values they can
    take and give a value of their own option (S020 at the entry), and leave the defaults
    playable (S020 at the case that rules them out)."""
    specs = option_specs(doc)
    for name, spec in specs.items():
        for i, case in enumerate((spec or {}).get("invalid_when") or ()):
            where = f"options.{name}.invalid_when.{i}"
            try:
                parse_option_value(name, spec, case["value"])
            except OptionError as exc:
                raise _spec_fail(doc, f"{where}.value", f"invalid_when: {exc}") from None
            for other, value in case["when"].items():
                at = f"{where}.when.{other}"
                if other == name or other not in specs:
                    raise _spec_fail(doc, at, f"invalid_when of '{name}' names option "
                                     f"'{other}', which is not another option of "
                                     f"{doc.data['ruleset']}" + did_you_mean(other, specs))
                try:
                    parse_option_value(other, specs[other], value)
                except OptionError as exc:
                    raise _spec_fail(doc, at, f"invalid_when of '{name}': {exc}") from None
    settled: dict[str, Any] = {}
    for name in resolution_order(doc):
        settled[name] = default_in_force(specs[name] or {}, settled)
    found = invalid_case(specs, settled)
    if found is not None:
        name, case = found
        index = list(specs[name]["invalid_when"]).index(case)
        raise _spec_fail(doc, f"options.{name}.invalid_when.{index}",
                         f"the defaults cannot be played: {invalid_text(name, case)}")


def check_invalid_rules(doc: Document, rule_ids: tuple[str, ...]) -> None:
    """The rule each ``invalid_when`` case cites exists in the ruleset (S020 at it)."""
    for name, spec in option_specs(doc).items():
        for i, case in enumerate((spec or {}).get("invalid_when") or ()):
            if case.get("rule") and case["rule"] not in rule_ids:
                raise _spec_fail(doc, f"options.{name}.invalid_when.{i}.rule",
                                 f"invalid_when of '{name}' cites rule '{case['rule']}', "
                                 f"which {doc.data['ruleset']} does not have"
                                 + did_you_mean(case["rule"], rule_ids))


def options_at_fault(doc: Document, options: Mapping[str, Any], exc: SpecError
                     ) -> OptionError:
    """The option values ``options`` of ``doc`` (a description that compiles at its
    defaults) as the cause of ``exc``, the problem compiling with them: an
    :class:`OptionError` naming those whose binds or effects reach the place of the
    problem (every one given, if none does), with the description's own message. A value
    within its option's range can still be one the rules cannot be played with (a
    générale worth less than capot): it is the option's fault, not the description's.

    >>> from mariage.spec.specload import load_document
    >>> doc = load_document("belote-coinche")
    >>> err = SpecError("too low", path="suit_auction.generale.value")
    >>> str(options_at_fault(doc, {"generale": 100, "target": 500}, err))
    "option generale=100 cannot be played with the rules of belote-coinche: at \
'suit_auction.generale.value': too low [S001]"
    """
    specs = option_specs(doc)
    settled = settled_values(doc, options)

    def reaches(name: str) -> bool:
        spec = specs.get(name) or {}
        effects = (spec.get("effects") or {}).get(value_key(settled.get(name)), {}) or {}
        return any(p == exc.path or p.startswith(exc.path + ".")
                   or exc.path.startswith(p + ".")
                   for p in [*(spec.get("binds") or ()), *effects] if exc.path)

    names = [n for n in options if reaches(n)] or list(options)
    shown_values = ", ".join(f"{_cut(n)}={_cut(value_key(settled.get(n, options[n])))}"
                             for n in names)
    s = "s" if len(names) > 1 else ""
    return OptionError(f"option{s} {shown_values} cannot be played with the rules of "
                       f"{doc.data.get('ruleset')}: {exc}", option=names[0])


def _spec_fail(doc: Document, path: str, message: str) -> SpecError:
    return SpecError(message, location=doc.where(path), path=path, code="S020")


def given_only(doc: Document, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` without the values that their options would take anyway, as defaults
    in force given the other values (a value of another type is kept: ``True`` is not
    ``1``).

    >>> from mariage.spec.specload import load_document
    >>> doc = load_document("thousand-pl")
    >>> given_only(doc, {"players": 4, "concede_award": 40, "bid_step": 5})
    {'players': 4, 'bid_step': 5}
    >>> given_only(doc, {"players": 4, "concede_award": 60})
    {'players': 4, 'concede_award': 60}
    """
    specs = option_specs(doc)
    settled: dict[str, Any] = {}
    for name in resolution_order(doc):
        settled[name] = options[name] if name in options else \
            default_in_force(specs[name] or {}, settled)
    out: dict[str, Any] = {}
    for name, value in options.items():
        default = default_in_force(specs.get(name) or {"default": _MISSING}, settled)
        if type(value) is not type(default) or value != default:
            out[name] = value
    return out


_MISSING = object()


def _at(node: Any, parts: list[str]) -> Any:
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    return node


def own_data(node: Any, top: bool = True) -> Any:
    """``node`` with every rule nested in it cut down to its ID: a rule's own data.

    >>> own_data({"id": "x.deal", "text": "Deal.", "size": 5,
    ...           "rotation": {"id": "x.deal.rotation", "text": "Left.", "next": "left"}})
    {'id': 'x.deal', 'text': 'Deal.', 'size': 5, 'rotation': ('rule', 'x.deal.rotation')}
    """
    if isinstance(node, dict):
        if not top and "id" in node and "text" in node:
            return ("rule", node["id"])
        return {k: own_data(v, False) for k, v in node.items()}
    if isinstance(node, list):
        return [own_data(v, False) for v in node]
    return node


def _choices(spec: Mapping[str, Any]) -> list[Any]:
    if spec["type"] == "enum":
        return list(spec["values"])
    return [True, False] if spec["type"] == "bool" else []


#: :func:`options_of_rules` by description (kept alive beside its answers, so that its
#: ``id`` stays its own) and rule paths: each option value compiled asks it again
_OPTIONS_OF: dict[tuple[int, tuple[str, ...]], tuple[Document, dict[str, tuple[str, ...]]]] = {}


def options_of_rules(doc: Document, rule_paths: list[str]) -> dict[str, tuple[str, ...]]:
    """For each rule (by its dotted path), the options that change its own data.

    An option changes a rule when it binds a value inside it, or when its values
    (through their ``effects``) leave different data in it; data inside a rule
    nested in it belongs to the nested rule. An option that another's conditional
    defaults name changes that one's rules too. A rule no option changes is left out. A
    path that an option declared later sets with its default value (effects are applied
    in the order of declaration, the last standing) is changed by that one only.

    >>> from mariage.spec.specload import load_document
    >>> doc = load_document("sixty-six-4")
    >>> found = options_of_rules(doc, ["deal", "deal.rotation", "match.end"])
    >>> found["deal"], found["match.end"]
    (('deal_packets',), ('match_target',))
    """
    key = (id(expect_document(doc, "options_of_rules")), tuple(rule_paths))
    known = _OPTIONS_OF.get(key)
    if known is not None and known[0] is doc:
        return dict(known[1])
    found = _options_of_rules(doc, rule_paths)
    if len(_OPTIONS_OF) >= 256:
        _OPTIONS_OF.clear()
    _OPTIONS_OF[key] = (doc, found)
    return dict(found)


def _options_of_rules(doc: Document, rule_paths: list[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}

    def claim(rule: str, name: str) -> None:
        names = out.setdefault(rule, [])
        if name not in names:
            names.append(name)

    rules = set(rule_paths)

    def owner(path: str) -> str | None:  # the innermost rule holding ``path``
        parts = path.split(".")
        for i in range(len(parts), 0, -1):
            if (prefix := ".".join(parts[:i])) in rules:
                return prefix
        return None

    specs = option_specs(doc)
    # for each option, the paths that the options declared after it set at their defaults
    # (what they bind, what their default's effects write), gathered once from the last
    set_after: dict[str, set[str]] = {}
    gathered: set[str] = set()
    for later in reversed(list(specs)):
        set_after[later] = set(gathered)
        spec = specs[later] or {}
        effects = spec.get("effects") or {}
        default = effects.get(value_key(spec["default"])) if "default" in spec else None
        gathered.update(str(p) for p in spec.get("binds") or [])
        gathered.update(str(p) for p in default or {})

    def overridden(name: str, path: str) -> bool:
        """Whether an option declared after ``name`` sets ``path`` (or a node holding it)
        at its default: its effects come later and stand, so ``name`` changes nothing
        there with the defaults."""
        later = set_after[name]
        if not later:
            return False
        parts = path.split(".")
        return any(".".join(parts[:i]) in later for i in range(1, len(parts) + 1))

    for name, spec in specs.items():
        for path in spec.get("binds") or []:
            rule = owner(str(path))
            if rule is not None:
                claim(rule, name)
        effects = spec.get("effects") or {}
        touched = dict.fromkeys(str(p) for eff in effects.values() for p in (eff or {})
                                if not overridden(name, str(p)))
        for path in touched:
            base = _at(doc.data, path.split("."))
            left = [(effects.get(value_key(v)) or {}).get(path, base) for v in _choices(spec)]
            if not left:  # a number: the values with effects, and any other leaves the base
                left = [(eff or {}).get(path, base) for eff in effects.values()] + [base]
            rule = owner(path)
            if rule is not None and any(own_data(v) != own_data(left[0]) for v in left):
                claim(rule, name)
            if not any(isinstance(v, (dict, list)) for v in left):
                continue  # no rule inside a plain value
            for inner in rule_paths:  # rules inside what the option replaces
                if inner.startswith(path + "."):
                    rel = inner[len(path) + 1:].split(".")
                    own = [own_data(_at(v, rel)) for v in left]
                    if any(o != own[0] for o in own):
                        claim(inner, name)
    # an option named in another's conditional defaults changes what that one changes
    grown = True
    while grown:
        grown = False
        for name, spec in option_specs(doc).items():
            for other in depends_on(spec or {}):
                for names in out.values():
                    if name in names and other not in names:
                        names.append(other)
                        grown = True
    return {rule: tuple(names) for rule, names in out.items()}


class Summary(NamedTuple):
    """What ``mariage list`` shows of a ruleset with its default options."""

    title: str
    parent: str | None
    nseats: int
    ncards: int


def summary(doc: Document) -> Summary:
    """The title, parent, seats and cards of ``doc`` with its default options, read
    from the description as the compiler reads them (without compiling it)."""
    data, _ = resolve(doc)
    pack = data["pack"]
    removed = {str(x) for x in pack.get("remove_ranks", [])}
    ranks = [str(x) for x in pack["ranks"] if str(x) not in removed]
    ncards = len(pack["suits"]) * len(ranks) - len(pack.get("remove_cards", []))
    return Summary(data["name"], data.get("parent"), data["players"]["count"], ncards)
