"""Serve a policy or a trained agent as an engine: ``python -m mariage.arena.agent_engine``.

The engine speaks the engine protocol (``docs/protocol.rst``) like ``mariage engine``
and answers ``choose`` with the policy named by ``--policy`` (:mod:`mariage.ai.policies`:
``random``, ``first``, ``greedy``, ``mc``, ``ismcts``) or with an agent of your own,
``--agent FILE.py:FACTORY``: ``FACTORY(rules)`` returns an object whose ``choose(state)``
returns an action of the seat to act (the engine is named after the file or module,
``agent-train_schnapsen``). The state it is given is a determinization of
that seat's view, so an agent cannot see what its seat could not. So a trained agent
plays in ``mariage match`` against other engines and bots::

    mariage match schnapsen \\
        --engine "A=python -m mariage.arena.agent_engine --agent agent.py:load" --bot B=greedy

>>> engine = AgentEngine(make_policy("ismcts", seed=1, iterations=30))
>>> deck = [f"{r}{s}" for s in "HDCS" for r in "ATKQJ"]
>>> engine.handle({"type": "start", "ruleset": "schnapsen", "dealer": 0, "deck": deck})
{'type': 'ok'}
>>> reply = engine.handle({"type": "choose", "budget_ms": 500})
>>> reply["type"], reply["seat"]
('choose', 1)
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from mariage.ai.policies import POLICIES, Policy, make_policy
from mariage.conformance.engine import serve
from mariage.engine.rules import Rules

from ..errors import expect_str
from .refengine import ChoosingEngine

__all__ = ["AgentEngine", "load_factory", "main"]


class AgentEngine(ChoosingEngine):
    """The reference engine, answering ``choose`` with ``policy`` (made per match by
    ``factory`` where given)."""

    def __init__(self, policy: Policy | None = None,
                 factory: Callable[[Rules], Policy] | None = None, seed: int = 0,
                 name: str | None = None) -> None:
        super().__init__("random", seed)
        if policy is None and factory is None:
            raise ValueError("give a policy or a factory")
        self.factory = factory
        if policy is not None:
            self.bot = policy
        #: the name the engine gives (the records' player): ``name``, else the policy's
        self.name = name or f"agent-{getattr(policy, 'name', 'custom')}"

    def handle(self, msg: dict[str, Any]) -> dict[str, Any]:
        reply = super().handle(msg)
        if msg.get("type") == "start" and reply.get("type") == "ok" and self.factory:
            assert self.rules is not None
            self.bot = self.factory(self.rules)
        return reply


def load_factory(spec: str) -> Callable[[Rules], Policy]:
    """``FILE.py:NAME`` or ``package.module:NAME`` to the callable it names.

    A ``ValueError`` if ``spec`` names none: no file or no module (``ImportError``),
    text that is no Python (``SyntaxError``), or code that raised as it was loaded,
    named with the line it raised at.
    """
    where, sep, name = expect_str(spec, "load_factory: spec").rpartition(":")
    if not sep or not where or not name or where.startswith("."):  # "." is relative
        raise ValueError(f"--agent {spec!r}: expected FILE.py:NAME or module:NAME")
    try:
        module = _load(spec, where)
    except (ValueError, ImportError, OSError, SyntaxError):
        raise
    except Exception as exc:  # the agent's own code raised: one line, where and why
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        raise ValueError(f"--agent {spec!r}: loading {where} raised {type(exc).__name__}: "
                         f"{exc} ({frame.filename}:{frame.lineno})") from None
    factory = getattr(module, name, None)
    if not callable(factory):
        raise ValueError(f"--agent {spec!r}: {where} has no callable {name}")
    return factory  # type: ignore[no-any-return]


def _load(spec: str, where: str) -> Any:
    """The module of ``FILE.py`` or ``package.module``, loaded."""
    if not where.endswith(".py"):
        return importlib.import_module(where)
    path = Path(where)
    module_spec = importlib.util.spec_from_file_location(path.stem, path)
    if module_spec is None or module_spec.loader is None or not path.is_file():
        raise ValueError(f"--agent {spec!r}: no such file {where}")
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    return module


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mariage.arena.agent_engine",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--policy", choices=sorted(POLICIES))
    who.add_argument("--agent", metavar="FILE.py:FACTORY")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200, help="ismcts iterations")
    args = parser.parse_args(argv)
    if args.agent:
        try:
            factory = load_factory(args.agent)
        except (ValueError, ImportError, OSError, SyntaxError) as exc:
            print(f"agent_engine: error: {exc}", file=sys.stderr)
            return 2
        # named after the file or module (the records tell two agents apart)
        where = args.agent.rpartition(":")[0]
        stem = Path(where).stem if where.endswith(".py") else where.rpartition(".")[2]
        engine = AgentEngine(factory=factory, seed=args.seed, name=f"agent-{stem}")
    else:
        try:
            policy = make_policy(args.policy, args.seed, iterations=args.iterations)
        except ValueError as exc:  # --iterations 0 or fewer
            print(f"agent_engine: error: {exc}", file=sys.stderr)
            return 2
        engine = AgentEngine(policy, seed=args.seed)
    return serve(engine, sys.stdin, sys.stdout)


if __name__ == "__main__":
    sys.exit(main())
