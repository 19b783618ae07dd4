"""Helpers for the notation tests: record matches played by the property-test player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mariage import Action, GameState, Rules
from mariage.notation.model import Record
from mariage.notation.recorder import Recorder
from propkit import Hooks, play_match, rules_for


class RecordingHooks(Hooks):
    """Feeds every deal and action (resignations and out-of-turn call-outs too) to a Recorder."""

    def __init__(self, rules: Rules, first_dealer: int | None) -> None:
        self.rec = Recorder(rules, first_dealer, ["p" + s for s in rules.seat_names])
        self.before_state = (0, 0, -1)

    def dealt(self, state: GameState) -> None:
        self.rec.on_deal(state)

    def before(self, state: GameState, seat: int, action: Action) -> None:
        self.before_state = (state.trick_no, len(state.tricks), state.trump)

    def after(self, state: GameState, seat: int, action: Action) -> None:
        self.rec.on_action(state, seat, action, *self.before_state)

    def resigned(self, state: GameState, seat: int) -> None:
        self.rec.on_action(state, seat, None, state.trick_no, len(state.tricks), state.trump)


def recorded_match(name: str, options: dict[str, Any], seed: int, choice_seed: int
                   ) -> Record:
    """The record of a random match of ``name`` with ``options``."""
    from mariage.engine.deals import SeededDeals

    rules = rules_for(name, options)
    hooks = RecordingHooks(rules, SeededDeals(rules, seed).first_dealer)
    state = play_match(rules, seed, choice_seed, hooks)
    return hooks.rec.record(state)


#: the test records (good and bad) of ``tests/data/records``
RECORDS = Path(__file__).parent / "data" / "records"


def record_texts() -> list[str]:
    """The text of every test record that is UTF-8, good and bad."""
    out = []
    for path in sorted(RECORDS.glob("*/*.mrg")):
        try:
            out.append(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            continue
    return out
