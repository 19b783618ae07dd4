"""Configurations: a ruleset plus option values, and which of them an engine plays.

A *configuration* is what an engine is checked under: a ruleset (a bundled
name, or a house description that ``extends:`` one) and the values of any of
its options; an option not named stands at its default. ``mariage conformance
--ruleset R -o NAME=VALUE ... [--spec house.yaml]`` builds one with
:func:`make_configuration`.

An engine states in ``hello`` the configurations it plays (protocol 2, an
optional field; ``docs/protocol.rst``)::

    "configurations": [{"ruleset": "schnapsen",
                        "options": {"close_allowed": false, "claim_mode": "auto",
                                    "marriage_lead": {"values": ["king", "either"]}}}]

Each option is fixed to one value, or given ``{"values": [...]}`` or
``{"min": a, "max": b}`` (whole numbers); an option not named is played at its
default only. :func:`unsupported` says why a test's options are outside every
configuration the engine states for that ruleset (a ruleset the list does not
name is judged by ``rulesets`` alone, as before).

>>> c = make_configuration("schnapsen", ["close_allowed=false", "claim_mode=auto"])
>>> c.options
{'close_allowed': False, 'claim_mode': 'auto'}
>>> c.label
'schnapsen close_allowed=false claim_mode=auto'
>>> hello = {"configurations": [{"ruleset": "schnapsen", "options": {"close_allowed": False}}]}
>>> unsupported(hello, "schnapsen", {})
'the engine plays close_allowed=false only, the test has true'
>>> unsupported(hello, "schnapsen", {"close_allowed": False})
''
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from mariage.engine.rules import Rules
from mariage.spec.options import default_in_force, given_only, resolution_order
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import list_rulesets, load_document

from ..errors import MariageError, whole_number

__all__ = ["CONFIGURATION_FILE", "Configuration", "check_configurations", "check_hello",
           "declared_configurations", "effective_options", "make_configuration",
           "option_specs", "parse_option", "show_value", "suite_configuration", "unsupported",
           "why_skipped"]

#: the file of a suite written by ``--write-suite DIR`` that names its configuration
CONFIGURATION_FILE = "configuration.json"


def show_value(value: Any) -> str:
    """An option value as written on the command line: ``true``, ``36``, ``auto``.

    >>> show_value(False), show_value(36), show_value("20/40")
    ('false', '36', '20/40')
    """
    return value if isinstance(value, str) else json.dumps(value)


@lru_cache(maxsize=64)
def _specs(ruleset: str) -> tuple[tuple[str, dict[str, Any]], ...]:
    specs = load_document(ruleset).data.get("options") or {}
    return tuple((k, dict(v)) for k, v in specs.items() if v)


@lru_cache(maxsize=64)
def _order(ruleset: str) -> tuple[str, ...]:
    """The options of ``ruleset`` in the order their values are settled (read with the
    description :func:`_specs` reads, once per ruleset: a run asks it of every test)."""
    return tuple(resolution_order(load_document(ruleset)))


def option_specs(ruleset: str) -> dict[str, dict[str, Any]]:
    """The options of ``ruleset`` (name or description file): name -> spec (``type``,
    ``default``, ``values``, ``min``, ``max``...).

    >>> option_specs("mariglia")["duty_reading"]["default"]
    'opponent_winning'
    """
    return dict(_specs(ruleset))


def effective_options(ruleset: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every option of ``ruleset`` with its value: ``options``, else the default (which
    may depend on the values of other options: ``default_when``).

    >>> effective_options("mariglia", {"duty_reading": "always"})["turn_up_bonus"]
    True
    >>> effective_options("thousand-pl", {"players": 4})["concede_award"]
    40
    """
    specs = dict(_specs(ruleset))
    settled: dict[str, Any] = {}
    for name in _order(ruleset):
        if name in specs:
            settled[name] = options[name] if name in options else \
                default_in_force(specs[name], settled)
    return {name: settled[name] for name in specs}


def parse_option(specs: dict[str, dict[str, Any]], text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` read with the option's type; ``ValueError`` saying why not.

    >>> parse_option(option_specs("marjapussi"), "pack_size=32")
    ('pack_size', 32)
    >>> parse_option(option_specs("marjapussi"), "pack_size=30")
    Traceback (most recent call last):
    ValueError: -o pack_size=30: the value must be one of 36, 32, 28
    """
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    given = f"-o {_cut(text)}"
    if not sep or not name:
        raise ValueError(f"{given}: write NAME=VALUE")
    spec = specs.get(name)
    if spec is None:
        raise ValueError(f"{given}: no option '{_cut(name)}' (options: {', '.join(specs)})")
    kind = spec.get("type")
    if kind == "bool":
        if raw not in ("true", "false"):
            raise ValueError(f"{given}: the value must be true or false")
        return name, raw == "true"
    if kind == "int":
        value = whole_number(raw)  # ASCII digits: int() took '１１', '٣', '1_1'
        if value is None:
            raise ValueError(f"{given}: the value must be a whole number (ASCII digits)")
        lo, hi = spec.get("min"), spec.get("max")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ValueError(f"{given}: the value must be in {lo}..{hi}")
        return name, value
    for v in spec.get("values") or ():
        if show_value(v) == raw:
            return name, v
    raise ValueError(f"{given}: the value must be one of "
                     f"{', '.join(show_value(v) for v in spec.get('values') or ())}")


def _cut(text: str, width: int = 60) -> str:
    """``text`` to quote back in a message, cut to ``width`` characters with its length."""
    return text if len(text) <= width else f"{text[:width]}... ({len(text)} characters)"


@dataclass(frozen=True)
class Configuration:
    """A ruleset (bundled name or description file) and its non-default option values."""

    ruleset: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def rules(self) -> Rules:
        """The compiled rules of this configuration."""
        return load_rules(self.ruleset, self.options)

    @property
    def name(self) -> str:
        """The ruleset's own name (a description file's ``ruleset``)."""
        return str(self.rules.ruleset)

    @property
    def bases(self) -> tuple[str, ...]:
        """This ruleset's name and its ancestors' (whose stored tests apply to it)."""
        out = [self.name]
        parent = self.rules.parent
        while parent is not None:
            out.append(str(parent))
            parent = load_rules(parent).parent
        return tuple(out)

    @property
    def label(self) -> str:
        """``ruleset name=value ...``, or ``ruleset (defaults)``."""
        opts = " ".join(f"{k}={show_value(v)}" for k, v in self.options.items())
        return f"{self.name} {opts}" if opts else f"{self.name} (defaults)"

    @property
    def key(self) -> str:
        """A stable text for this configuration (cache keys)."""
        return json.dumps([self.ruleset, sorted(self.options.items())])


def suite_configuration(folder: Path) -> Configuration | None:
    """The configuration a suite written by ``--write-suite`` was derived for (its
    :data:`CONFIGURATION_FILE`), or None where the folder has none (the stored suite);
    ``ValueError`` (a usage error) for a file that does not name one.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / CONFIGURATION_FILE).write_text(
    ...         '{"ruleset": "schnapsen", "options": {"close_allowed": false}}')
    ...     suite_configuration(Path(d)).label
    'schnapsen close_allowed=false'
    """
    path = folder / CONFIGURATION_FILE
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ValueError(f"{path}: not a configuration ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("ruleset"), str) \
            or not isinstance(data.get("options"), dict):
        raise ValueError(f"{path}: not a configuration (an object with a string "
                         "'ruleset' and an object 'options')")
    return Configuration(data["ruleset"], dict(data["options"]))


def make_configuration(ruleset: str | None, option_texts: list[str] = (),  # type: ignore[assignment]
                       spec: str | None = None) -> Configuration:
    """The configuration of a command line; ``ValueError`` (a usage error) saying why not.

    ``spec`` is a house description (a ``.yaml`` file that ``extends:`` a
    ruleset); then ``ruleset`` may be omitted. Values equal to the default are
    dropped: the configuration lists only what differs.

    >>> make_configuration("mariglia", ["turn_up_bonus=true"]).options
    {}
    >>> make_configuration("nosuch", [])
    Traceback (most recent call last):
    ValueError: --ruleset: unknown ruleset 'nosuch'
    """
    if spec is not None:
        path = Path(spec)
        if path.suffix not in (".yaml", ".yml") or not path.is_file():
            raise ValueError(f"--spec: no such description file: {spec}")
        try:
            own = str(load_document(path).data["ruleset"])
        except MariageError as exc:
            raise ValueError(f"--spec: {exc}") from None
        if ruleset is not None and ruleset != own:
            raise ValueError(f"--spec describes ruleset '{own}', --ruleset names '{ruleset}'")
        source = str(path)
    elif ruleset is None:
        raise ValueError("-o needs --ruleset R (or --spec FILE)")
    elif ruleset not in list_rulesets():
        raise ValueError(f"--ruleset: unknown ruleset '{ruleset}'")
    else:
        source = ruleset
    specs = option_specs(source)
    options: dict[str, Any] = {}
    for text in option_texts:
        name, value = parse_option(specs, text)
        if name in options and options[name] != value:
            raise ValueError(f"-o {name} is given twice with different values")
        options[name] = value
    options = given_only(load_document(source), options)
    try:
        load_rules(source, options)
    except MariageError as exc:  # the description's own fault when no value was given
        raise ValueError(f"these option values do not go together: {exc}" if options
                         else str(exc)) from None
    return Configuration(source, options)


def _same(a: Any, b: Any) -> bool:
    """Equal JSON values of the same type (``True`` is not ``1``, ``36`` is not ``"36"``)."""
    return type(a) is type(b) and a == b


def _allows(spec: Any, value: Any) -> bool:
    """Whether a configuration's entry for one option (a value, ``{"values"}`` or
    ``{"min", "max"}``) allows ``value``."""
    if isinstance(spec, dict):
        if "values" in spec:
            return isinstance(spec["values"], list) and any(_same(value, v)
                                                             for v in spec["values"])
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        lo, hi = spec.get("min"), spec.get("max")
        return (lo is None or value >= lo) and (hi is None or value <= hi)
    return _same(value, spec)


def _show_entry(spec: Any) -> str:
    if isinstance(spec, dict):
        if "values" in spec:
            return " or ".join(show_value(v) for v in spec["values"])
        return f"{spec.get('min', '')}..{spec.get('max', '')}"
    return show_value(spec)


def check_configurations(value: Any) -> str:
    """``""`` if ``value`` is a valid ``configurations`` list of a ``hello``, else why not.

    >>> check_configurations([{"ruleset": "marianna", "options": {"target": 301}}])
    ''
    >>> check_configurations([{"options": {}}])
    "configuration 1 has no string 'ruleset'"
    >>> print(check_configurations([{"ruleset": "schnapsen",
    ...                              "options": {"match_target": {"min": "5"}}}]))
    configuration 1: option 'match_target': 'min' must be a whole number, not "5"
    """
    if not isinstance(value, list):
        return "'configurations' must be a list"
    for i, entry in enumerate(value, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("ruleset"), str):
            return f"configuration {i} has no string 'ruleset'"
        opts = entry.get("options", {})
        if not isinstance(opts, dict):
            return f"configuration {i}: 'options' must be an object"
        for name, spec in opts.items():
            if isinstance(spec, dict) and not ("values" in spec and isinstance(
                    spec["values"], list)) and not ({"min", "max"} & set(spec)):
                return (f"configuration {i}: option '{name}' must be a value, "
                        "{\"values\": [...]} or {\"min\": a, \"max\": b}")
            if isinstance(spec, dict) and "values" not in spec:
                for bound in ("min", "max"):
                    value = spec.get(bound)
                    if value is not None and (isinstance(value, bool)
                                              or not isinstance(value, int)):
                        return (f"configuration {i}: option '{name}': '{bound}' must be a "
                                f"whole number, not {json.dumps(value)[:40]}")
    return ""


#: the option types a ``hello`` may declare (docs/protocol.rst)
_OPTION_TYPES = ("int", "bool", "enum")


def check_hello(reply: dict[str, Any]) -> str:
    """``""`` if what a ``hello`` declares beside its ``configurations`` has the shape
    docs/protocol.rst gives it, else why not: each ruleset's ``options`` an object of
    objects, an option's ``type`` one of int, bool and enum, its ``values`` a list, its
    ``min`` and ``max`` numbers; ``requests`` and ``features`` lists of texts. (A
    malformed declaration was passed over: ``"values": 5`` ran every test of the option,
    ``"features": "hidden_cards"`` was read as naming it, letter by letter.)

    >>> check_hello({"rulesets": {"schnapsen": {"options": {"target": {"min": 5}}}}})
    ''
    >>> print(check_hello({"rulesets": {"schnapsen": {"options": {"target": {"values": 5}}}}}))
    ruleset 'schnapsen': option 'target': 'values' must be a list, not 5
    >>> print(check_hello({"rulesets": {}, "features": "hidden_cards"}))
    'features' must be a list of texts, not "hidden_cards"
    """
    for key in ("requests", "features"):
        listed = reply.get(key)
        if listed is not None and (not isinstance(listed, list)
                                   or not all(isinstance(x, str) for x in listed)):
            return f"'{key}' must be a list of texts, not {json.dumps(listed)[:40]}"
    for ruleset, entry in reply.get("rulesets", {}).items():
        opts = entry.get("options")
        where = f"ruleset {json.dumps(ruleset)[1:-1][:64]!r}"
        if opts is None:
            continue
        if not isinstance(opts, dict):
            return (f"{where}: 'options' must be an object (option name -> object), not "
                    f"{json.dumps(opts)[:40]}")
        for name, spec in opts.items():
            at = f"{where}: option {json.dumps(name)[1:-1][:64]!r}"
            if not isinstance(spec, dict):
                return (f"{at} must be an object ({{\"type\": ..., \"default\": ...}}), "
                        f"not {json.dumps(spec)[:40]}")
            kind = spec.get("type")
            if kind is not None and kind not in _OPTION_TYPES:
                return (f"{at}: 'type' must be one of {', '.join(_OPTION_TYPES)}, not "
                        f"{json.dumps(kind)[:40]}")
            if "values" in spec and not isinstance(spec["values"], list):
                return f"{at}: 'values' must be a list, not {json.dumps(spec['values'])[:40]}"
            for bound in ("min", "max"):
                value = spec.get(bound)
                if value is not None and (isinstance(value, bool)
                                          or not isinstance(value, int | float)):
                    return f"{at}: '{bound}' must be a number, not {json.dumps(value)[:40]}"
    return ""


def _representative(spec: dict[str, Any] | None, entry: Any) -> Any:
    """One value a configuration's entry allows: the option's default if it allows it,
    else the first of its ``values``, else its ``min`` (else its ``max``)."""
    if not isinstance(entry, dict):
        return entry
    default = (spec or {}).get("default")
    if default is not None and _allows(entry, default):
        return default
    if "values" in entry:
        return entry["values"][0] if entry["values"] else None
    return entry["min"] if entry.get("min") is not None else entry.get("max")


def _check_entry(specs: dict[str, dict[str, Any]], name: str, entry: Any, where: str) -> None:
    """``ValueError`` (naming the configuration) unless every value a configuration's entry
    for option ``name`` lists is one the option can take, and the entry allows a value.

    >>> _check_entry(option_specs("schnapsen"), "marriage_lead", {"values": ["king", "ace"]},
    ...              "configuration 1")
    Traceback (most recent call last):
    ValueError: configuration 1: -o marriage_lead=ace: the value must be one of either, king, queen
    """
    if isinstance(entry, dict) and "values" in entry:
        listed = list(entry["values"])
        if not listed:
            raise ValueError(f"{where}: option '{name}' lists no value")
    elif isinstance(entry, dict):
        lo, hi = entry.get("min"), entry.get("max")
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"{where}: option '{name}' allows no value ({lo}..{hi})")
        listed = []  # the value played (a bound, or the default) is checked with the rest
    else:
        listed = [entry]
    for value in listed:
        try:
            parse_option(specs, f"{name}={show_value(value)}")
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None


def declared_configurations(info: dict[str, Any], rulesets: tuple[str, ...] = (),
                            at_most: int = 0) -> list[Configuration]:
    """The configurations an engine's ``hello`` declares (of ``rulesets`` only, if
    given), each made one point: an option given ``{"values": [...]}`` or ``{"min",
    "max"}`` takes its default if allowed, else the first value (the minimum).
    ``ValueError`` (one line, naming the configuration) for a ruleset or value this
    package does not know, any of ``values`` too, and for an entry that allows no value
    (``{"values": []}``, a ``min`` above the ``max``); and, where ``at_most`` is above 0,
    as soon as more than ``at_most`` distinct configurations are found (each is a suite
    derived and run: a hello may list thousands).

    >>> hello = {"configurations": [{"ruleset": "schnapsen", "options": {
    ...     "close_allowed": False, "marriage_lead": {"values": ["king", "queen"]}}}]}
    >>> [c.label for c in declared_configurations(hello)]
    ['schnapsen close_allowed=false marriage_lead=king']
    >>> declared_configurations({"configurations": [{"ruleset": "skat", "options": {}}]})
    Traceback (most recent call last):
    ValueError: configuration 1 of the engine's hello: unknown ruleset 'skat'
    >>> many = {"configurations": [{"ruleset": "schnapsen", "options": {"match_target": t}}
    ...                            for t in range(3, 13)]}
    >>> declared_configurations(many, at_most=4)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the engine's hello declares more than 4 configurations (10 entries); ...
    """
    out: list[Configuration] = []
    keys: set[str] = set()
    entries = list(info.get("configurations") or ())
    for i, entry in enumerate(entries, 1):
        ruleset = entry.get("ruleset")
        if rulesets and ruleset not in rulesets:
            continue
        where = f"configuration {i} of the engine's hello"
        if ruleset not in list_rulesets():
            raise ValueError(f"{where}: unknown ruleset '{ruleset}'")
        specs = option_specs(ruleset)
        for name, value in (entry.get("options") or {}).items():
            _check_entry(specs, name, value, where)
        texts = [f"{name}={show_value(_representative(specs.get(name), value))}"
                 for name, value in (entry.get("options") or {}).items()]
        try:
            config = make_configuration(ruleset, texts)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        if config.key not in keys:  # two entries may make the same point
            keys.add(config.key)
            out.append(config)
            if 0 < at_most < len(out):
                of = f" of {', '.join(rulesets)}" if rulesets else ""
                raise ValueError(f"the engine's hello declares more than {at_most} "
                                 f"configurations{of} ({len(entries)} entries); each is a "
                                 f"suite derived and run: choose some with --ruleset, or "
                                 f"raise --max-configurations")
    return out


def unsupported(info: dict[str, Any] | None, ruleset: str, options: dict[str, Any]) -> str:
    """Why no configuration the engine states covers ``ruleset`` with ``options``
    (the test's non-default values); ``""`` if one does, or if the engine states
    none for this ruleset."""
    entries = [e for e in (info or {}).get("configurations") or ()
               if isinstance(e, dict) and e.get("ruleset") == ruleset]
    if not entries:
        return ""
    try:
        values = effective_options(ruleset, options)
    except MariageError:
        values = dict(options)
    values.update(options)
    best = ""
    for entry in entries:
        opts = entry.get("options") or {}
        why = ""
        for name, value in values.items():
            if name in opts:
                if not _allows(opts[name], value):
                    why = (f"the engine plays {name}={_show_entry(opts[name])} only, the test "
                           f"has {show_value(value)}")
                    break
            elif name in options:
                why = (f"the engine plays option '{name}' at its default only, the test has "
                       f"{show_value(value)}")
                break
        if not why:
            return ""
        best = best or why
    if len(entries) > 1:
        best += f" (and no other of its {len(entries)} configurations of {ruleset} fits)"
    return best


def why_skipped(info: dict[str, Any], ruleset: str, options: dict[str, Any]) -> tuple[str, str]:
    """Why a test of ``ruleset`` with ``options`` is skipped against an engine whose
    ``hello`` is ``info``: (reason key of the runner's ``SKIP_REASONS``, message), or
    ``("", "")`` if the engine plays it.

    >>> hello = {"rulesets": {"schnapsen": {"options": {"target": {"min": 5, "max": 9}}}}}
    >>> why_skipped(hello, "schnapsen", {"target": 7})
    ('', '')
    >>> why_skipped(hello, "schnapsen", {"target": 11})
    ('value', "value 11 of option 'target' is outside the engine's range 5..9")
    >>> why_skipped(hello, "marianna", {})
    ('ruleset', "the engine does not list ruleset 'marianna'")
    """
    sets = info.get("rulesets")
    if isinstance(sets, dict) and ruleset not in sets and ruleset.endswith(
            (".yaml", ".yml")) and "ruleset_files" in (info.get("features") or ()):
        # a house description, given by path to an engine that reads descriptions
        why = unsupported(info, ruleset, options)
        return ("configuration", why) if why else ("", "")
    if not isinstance(sets, dict) or ruleset not in sets:
        return "ruleset", f"the engine does not list ruleset '{ruleset}'"
    entry = sets[ruleset]
    opts = entry.get("options") if isinstance(entry, dict) else None
    if not isinstance(opts, dict):
        opts = {}
    for name, value in options.items():
        spec = opts.get(name)
        if not isinstance(spec, dict):
            return "option", f"the engine does not list option '{name}' of {ruleset}"
        why = _unlisted(name, spec, value)
        if why:
            return "value", why
    why = _default_unlisted(opts, ruleset, options)
    if why:
        return "value", why
    why = unsupported(info, ruleset, options)
    if why:
        return "configuration", why
    return "", ""


def _unlisted(name: str, spec: dict[str, Any], value: Any) -> str:
    """Why ``value`` of option ``name`` is outside what an engine lists of it in
    ``rulesets`` (its ``values``, or ``min`` .. ``max`` for a whole number), else ``""``."""
    values = spec.get("values")
    if isinstance(values, list) and not any(_same(value, v) for v in values):
        return f"the engine does not list value {value!r} of option '{name}'"
    lo, hi = spec.get("min"), spec.get("max")
    if isinstance(value, int) and not isinstance(value, bool) and (
            (isinstance(lo, int | float) and value < lo)
            or (isinstance(hi, int | float) and value > hi)):
        span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        return f"value {value} of option '{name}' is outside the engine's range {span}"
    return ""


def _default_unlisted(opts: dict[str, Any], ruleset: str, options: dict[str, Any]) -> str:
    """Why an option the test leaves at its default is at a value the engine does not
    list (its ``values`` or ``min`` .. ``max`` leave the default out), else ``""``."""
    try:
        defaults = effective_options(ruleset, {})
    except MariageError:  # a ruleset this package does not know: nothing to compare
        return ""
    for name, spec in opts.items():
        if name in options or name not in defaults or not isinstance(spec, dict):
            continue
        if _unlisted(name, spec, defaults[name]):
            return (f"the engine does not play the default {show_value(defaults[name])} of "
                    f"option '{name}'")
    return ""
