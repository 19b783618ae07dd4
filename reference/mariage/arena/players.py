"""The players of a match: built-in bots, and outside engines over the engine protocol.

A :class:`Player` is told every event of a game (the start, each deal, each
action, a resignation) and, at its seat's turn, asked for an action as text.
Anything that goes wrong on the player's side raises :class:`Forfeit`, which
the match turns into a lost game with its reason.

**The ``choose`` request.** An engine is asked for its move with the
optional ``choose`` request of the engine protocol (``docs/protocol.rst``)::

    {"type": "choose", "budget_ms": N, "legal": ["<action text>", ...]}

and answers, for the seat to act and from that seat's view only::

    {"type": "choose", "seat": S, "action": "<action text>"}

An ``{"type": "error", ...}`` answer forfeits. ``budget_ms`` is the time the
engine has for this answer (1 to 60,000 ms); ``legal`` lists the actions the
referee accepts from that seat now, in the reference's order, so that an
engine needs no rules to play a legal move (engines may ignore it). Before the
first game, :meth:`Match.ready <mariage.arena.match.Match.ready>` says
``hello`` to every engine: one that does not answer it, or does not list
``choose`` among its ``requests``, stops the match before any game is played.
``mariage engine`` answers it with a built-in bot;
``python -m mariage.arena.refengine`` is the same engine with a choice of bots
(the Monte Carlo ``mc`` among them) and deliberate faults for testing the
referee.

Engines keep their state through the protocol's ``start``, ``deal``,
``apply`` and ``resign`` requests. An engine whose ``hello`` lists the
feature ``hidden_cards`` (protocol version 2) sees only its own seat's
information: its ``start``/``deal`` carry its ``seat`` and a deck with
``??`` for the cards that seat cannot see, and each ``apply`` the action as
that seat sees it and a ``reveal`` of what it comes to see
(:class:`~mariage.arena.hiding.SeatView`). An engine without the feature
(protocol version 1) is dealt every hand in full, as before, and
:attr:`EnginePlayer.hides` is ``False``. The built-in players choose from
:func:`~mariage.arena.search.determinize` of their seat, so they see only
their own seat's view.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from mariage.engine.actions import Action
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.errors import did_you_mean, printable, shown

from ..conformance.client import EngineClient, EngineFailure, quoted_command
from ..conformance.protocol import HIDDEN_CARDS, seat_state_json
from . import BOT_NAMES
from .bots import make_bot
from .hiding import SeatView
from .search import MonteCarloBot, determinize

__all__ = ["BOT_NAMES", "BotPlayer", "EnginePlayer", "Forfeit", "Player", "make_chooser"]


#: The longest name an engine may give itself in its ``hello`` (it is cut beyond).
MAX_NAME = 80


class Forfeit(Exception):
    """A player lost the game by its own fault: ``kind`` and a one-line ``reason``.

    ``kind`` is ``illegal`` (an action that is not legal, or not an action),
    ``timeout``, ``crash`` (the engine exited or wrote garbage), ``error``
    (the engine answered with an error) or ``desync`` (the engine refused an
    event the referee accepted).
    """

    def __init__(self, kind: str, reason: str) -> None:
        self.kind = kind
        # it quotes what the engine wrote: shown on a terminal and kept in the record, where
        # no control character may act (an escape sequence) or break the line
        self.reason = printable(reason)
        super().__init__(f"{kind}: {self.reason}")


class Player(Protocol):
    """One seat's player in a match."""

    name: str

    def start(self, state: GameState, seat: int, deck: list[int],
              first_player: int | None) -> None:
        """A new game has started; its first hand was dealt from ``deck``."""

    def dealt(self, state: GameState, deck: list[int], first_player: int | None) -> None:
        """The next hand was dealt from ``deck``."""

    def applied(self, state: GameState, seat: int, text: str) -> None:
        """``seat`` took the action ``text`` (already applied to ``state``)."""

    def resigned(self, state: GameState, seat: int) -> None:
        """``seat`` resigned (or forfeited)."""

    def choose(self, state: GameState, seat: int, time_ms: int) -> str:
        """The action text of ``seat`` (to act) in ``state``."""

    def close(self) -> None:
        """Release what the player holds (an engine process)."""

    def ready(self) -> None:
        """Check, before the first game, that the player can play; ``ValueError`` (one
        line) if not."""


class Chooser(Protocol):
    """Anything with the ``choose(state)`` of :class:`mariage.arena.bots.Bot`."""

    def choose(self, state: GameState) -> Action: ...


def make_chooser(name: str, seed: int, playouts: int = 96) -> Chooser:
    """A built-in player by name: ``random``, ``greedy``, ``mc`` (``playouts`` per move)
    or ``ismcts`` (``playouts`` iterations per move)."""
    if name == "mc":
        return MonteCarloBot(seed, playouts)
    if name == "ismcts":
        from .ismcts import ISMCTS

        return ISMCTS(seed, iterations=playouts)
    if name not in BOT_NAMES:
        raise ValueError(f"unknown bot '{name}' (bots: {', '.join(BOT_NAMES)})"
                         + did_you_mean(name, BOT_NAMES))
    chooser: Chooser = make_bot(name, seed)
    return chooser


class BotPlayer:
    """A built-in player; it chooses from a determinization of its seat's view."""

    def __init__(self, bot: str, seed: int = 0, playouts: int = 96) -> None:
        self.name = bot
        self.bot = make_chooser(bot, seed, playouts)
        self.rng = random.Random(seed ^ 0x5EED)

    def start(self, state: GameState, seat: int, deck: list[int],
              first_player: int | None) -> None:
        pass

    def dealt(self, state: GameState, deck: list[int], first_player: int | None) -> None:
        pass

    def applied(self, state: GameState, seat: int, text: str) -> None:
        pass

    def resigned(self, state: GameState, seat: int) -> None:
        pass

    def choose(self, state: GameState, seat: int, time_ms: int) -> str:
        view = determinize(state, seat, self.rng)
        return action_text(state.rules, self.bot.choose(view))

    def close(self) -> None:
        pass

    def ready(self) -> None:
        pass


def changed_options(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` whose values differ from the defaults (for ``start``)."""
    defaults = dict(rules.defaults)
    return {k: v for k, v in rules.options if k in defaults and defaults[k] != v}


class EnginePlayer:
    """An outside engine, run as a command and spoken to over the engine protocol.

    Requests other than ``choose`` get ``timeout`` seconds; ``choose`` gets
    its ``time_ms`` plus ``grace`` seconds. After a failure the engine is
    stopped and started afresh for the next game.
    """

    def __init__(self, command: str, timeout: float = 10.0, grace: float = 0.5,
                 client: EngineClient | None = None) -> None:
        self.command = command
        self.client = client or EngineClient.for_command(command, timeout)
        self.timeout = timeout
        self.grace = grace
        self.name = command
        self._greeted = False
        #: the ``requests`` of the engine's ``hello`` (``None`` before it)
        self.requests: Any = None
        #: does the engine get only its seat's view (``hidden_cards`` in its ``hello``)?
        self.hides = False
        self.view = SeatView(0)

    def _fail(self, exc: EngineFailure) -> Forfeit:
        self._greeted = False
        self.client.restart()
        return Forfeit("timeout" if exc.kind == "timeout" else "crash", exc.message)

    def _greet(self) -> None:
        """Say hello once per engine process; learn whether it accepts hidden cards."""
        if self._greeted:
            return
        self.client.timeout = self.timeout
        try:
            hello = self.client.hello()
        except EngineFailure as exc:
            raise self._fail(exc) from None
        # the engine names itself: one printable line of at most MAX_NAME characters, for
        # the table on a terminal and the record's [Seat] tag (which holds no line break)
        name = printable(" ".join(str(hello.get("engine", self.command)).split()))
        self.name = name if len(name) <= MAX_NAME else name[:MAX_NAME - 3] + "..."
        self.requests = hello.get("requests")
        features = hello.get("features")
        self.hides = hello.get("protocol") == 2 and isinstance(features, list) \
            and HIDDEN_CARDS in features
        self._greeted = True

    def _send(self, message: dict[str, Any], fail_kind: str = "desync",
              timeout: float | None = None) -> dict[str, Any]:
        self._greet()
        self.client.timeout = self.timeout if timeout is None else timeout
        try:
            reply = self.client.request(message)
        except EngineFailure as exc:
            raise self._fail(exc) from None
        kind = reply.get("type")
        if kind == "error":
            raise Forfeit(fail_kind, f"the engine answered {message['type']} with "
                          f"{reply.get('code')}: {str(reply.get('message', ''))[:160]}")
        if kind != "ok" and message["type"] != "choose":  # ({"type": ""} was taken as ok)
            self._greeted = False
            self.client.restart()  # (out of step: a fresh engine for the next game)
            raise Forfeit("crash", f"the engine answered {message['type']} with "
                          f"{shown(kind)}, not 'ok': {str(reply)[:120]}")
        return reply

    def _deck(self, state: GameState, deck: list[int]) -> dict[str, Any]:
        """The ``deck`` (and ``seat``) fields of a ``start`` or ``deal`` for this engine."""
        self._greet()
        if not self.hides:
            return {"deck": [state.rules.card_code[c] for c in deck]}
        return {"deck": self.view.deal(state, deck), "seat": self.view.seat}

    def start(self, state: GameState, seat: int, deck: list[int],
              first_player: int | None) -> None:
        r = state.rules
        self.view = SeatView(seat)
        self._greet()
        self.client.begin_test()  # a failure names the request counted from the game's start
        self._send({"type": "start", "ruleset": r.ruleset, "options": changed_options(r),
                    "dealer": state.dealer, **self._deck(state, deck),
                    "first_player": first_player})

    def dealt(self, state: GameState, deck: list[int], first_player: int | None) -> None:
        self._send({"type": "deal", **self._deck(state, deck), "first_player": first_player})

    def applied(self, state: GameState, seat: int, text: str) -> None:
        if not self.hides:
            self._send({"type": "apply", "action": text, "seat": seat})
            return
        seen = self.view.action(state, seat, parse_action(state.rules, text))
        message: dict[str, Any] = {"type": "apply", "action": seen, "seat": seat,
                                   "state": seat_state_json(state, self.view.seat)}
        reveal = self.view.after(state)
        if reveal:
            message["reveal"] = reveal
        self._send(message)

    def resigned(self, state: GameState, seat: int) -> None:
        self._send({"type": "resign", "seat": seat})

    def ready(self) -> None:
        """Say ``hello`` now: ``ValueError`` (one line, with the end of the engine's
        standard error where it died) unless it answers and lists ``choose``."""
        try:
            self._greet()
        except Forfeit as exc:
            raise ValueError(f"the engine {quoted_command(self.command)} failed its "
                             f"handshake: {exc.reason}") from None
        if not isinstance(self.requests, list) or "choose" not in self.requests:
            raise ValueError(f"the engine {quoted_command(self.command)} cannot play "
                             "a match: its hello does not list the choose request "
                             "(\"requests\": [\"choose\"])")

    def choose(self, state: GameState, seat: int, time_ms: int) -> str:
        budget = max(1, min(time_ms, 60_000))
        legal = [action_text(state.rules, a) for a in state.legal_actions(seat)]
        reply = self._send({"type": "choose", "budget_ms": budget, "legal": legal},
                           fail_kind="error", timeout=budget / 1000 + self.grace)
        action = reply.get("action")
        if reply.get("type") != "choose" or not isinstance(action, str):
            raise Forfeit("error", f"the answer to choose has no action: {str(reply)[:160]}")
        return action

    def close(self) -> None:
        self.client.close()
