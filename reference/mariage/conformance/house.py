"""An engine that plays only its own house rules: one fixed configuration.

:class:`HouseEngine` is the reference engine (or a faulty one) that states in
``hello`` the single configuration it plays and refuses to ``start`` any
other, as a real engine written for one card room does. It shows what the
``configurations`` field of ``hello`` is for, and lets the test suite check
that tests outside the configuration are skipped, never failed.

Run one as a protocol engine::

    python -m mariage.conformance.house schnapsen close_allowed=false claim_mode=auto

>>> engine = HouseEngine(make_configuration("schnapsen", ["close_allowed=false"]))
>>> engine.hello()["configurations"]
[{'ruleset': 'schnapsen', 'options': {'close_allowed': False}}]
>>> engine.handle({"type": "start", "ruleset": "schnapsen", "dealer": 0, "deck": []})["code"]
'unsupported'
"""

from __future__ import annotations

import sys
from typing import Any

from .configuration import Configuration, make_configuration, show_value
from .engine import ReferenceEngine, serve

__all__ = ["HouseEngine", "house_of", "main"]


class _House:
    """The part shared by every house engine: the hello and the start check."""

    configuration: Configuration

    def house_hello(self, base: dict[str, Any]) -> dict[str, Any]:
        c = self.configuration
        sets = {c.ruleset: base["rulesets"].get(c.name, {"options": {}})}
        return {**base, "rulesets": sets,
                "configurations": [{"ruleset": c.ruleset, "options": dict(c.options)}]}

    def house_refusal(self, msg: dict[str, Any]) -> dict[str, Any] | None:
        c = self.configuration
        options = msg.get("options") or {}
        if msg.get("ruleset") != c.ruleset or options != c.options:
            shown = " ".join(f"{k}={show_value(v)}" for k, v in c.options.items())
            return {"type": "error", "code": "unsupported",
                    "message": f"this engine plays only {c.ruleset} {shown}".rstrip()}
        return None


class HouseEngine(_House, ReferenceEngine):
    """The reference engine playing one configuration only."""

    def __init__(self, configuration: Configuration) -> None:
        super().__init__(ruleset_files=True)
        self.configuration = configuration
        self.name = f"house:{configuration.label}"

    def hello(self) -> dict[str, Any]:
        return self.house_hello(super().hello())

    def _start(self, msg: dict[str, Any]) -> dict[str, Any]:
        return self.house_refusal(msg) or super()._start(msg)


def house_of(engine_class: type[ReferenceEngine]) -> type[ReferenceEngine]:
    """``engine_class`` (a :class:`ReferenceEngine` subclass, such as a faulty engine)
    made to play one configuration only: its constructor takes the configuration
    first, then ``engine_class``'s own arguments."""

    class Housed(_House, engine_class):  # type: ignore[valid-type,misc]
        def __init__(self, configuration: Configuration, *args: Any) -> None:
            super().__init__(*args)
            self.configuration = configuration
            self.ruleset_files = True

        def hello(self) -> dict[str, Any]:
            return self.house_hello(super().hello())

        def _start(self, msg: dict[str, Any]) -> dict[str, Any]:
            return self.house_refusal(msg) or super()._start(msg)

    Housed.__name__ = f"House{engine_class.__name__}"
    return Housed


def main(argv: list[str] | None = None) -> int:
    """``python -m mariage.conformance.house RULESET NAME=VALUE...``: serve that engine."""
    args = sys.argv[1:] if argv is None else argv
    if not args:
        sys.stderr.write("usage: python -m mariage.conformance.house RULESET [NAME=VALUE...]\n")
        return 2
    try:
        config = make_configuration(args[0], args[1:])
    except ValueError as exc:
        sys.stderr.write(f"mariage: error: {exc}\n")
        return 2
    return serve(HouseEngine(config), sys.stdin, sys.stdout)


if __name__ == "__main__":
    raise SystemExit(main())
