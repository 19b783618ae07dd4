"""The typed library: py.typed, the view API, readable reprs and the notebook HTML."""

from __future__ import annotations

import dataclasses
import re
from html.parser import HTMLParser
from pathlib import Path

import mariage
import pytest
from mariage import GameState, list_rulesets, load_rules, naming, new_match, observe


def test_the_package_is_marked_typed() -> None:
    assert (Path(mariage.__file__).parent / "py.typed").is_file()


def test_the_view_api_is_exported() -> None:
    state = new_match(load_rules("marianna"), 1)
    view = mariage.observe(state, 2)
    assert isinstance(view, mariage.Observation)
    assert view.hand == state.hands[2]
    assert {"observe", "Observation", "naming", "set_naming"} <= set(mariage.__all__)


@pytest.mark.parametrize("name", list_rulesets())
def test_reprs_name_things_as_the_rules_do(name: str) -> None:
    rules = load_rules(name)
    state = new_match(rules, 5)
    for _ in range(30):
        if state.terminal:
            break
        text = repr(state)
        assert text.startswith(f"<GameState {name}: ")
        if state.to_act is not None:
            assert f"{rules.seat_names[state.to_act]} to act" in text
        for action in state.legal_actions():
            if isinstance(action, mariage.Play):
                assert repr(action) == f"Play({rules.card_code[action.card]})"
            with naming(rules):
                shown = repr(action)
            assert "=" not in shown and not re.search(r"\(-?\d+\)", shown), shown
            # actions with no fields (pass, callout, close, claim...) show as Name()
            assert shown == f"{type(action).__name__}({mariage.action_text(rules, action)})" \
                or (not dataclasses.fields(action) and shown == f"{type(action).__name__}()")
        state.apply(state.legal_actions()[0])


def test_a_play_compares_by_card_only() -> None:
    rules = load_rules("marianna")
    assert mariage.Play(3) == rules.play_actions[3]
    assert hash(mariage.Play(3)) == hash(rules.play_actions[3])
    assert repr(mariage.Play(3)) == "Play(card=3)"
    assert mariage.parse_action(rules, "QH") is rules.play_actions[3]


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_notebook_html_is_balanced_and_shows_hands_table_and_legal_actions() -> None:
    rules = load_rules("marianna")
    state = new_match(rules, 8)
    state.apply(state.legal_actions()[-1])
    page = _Collect()
    page.feed(state._repr_html_())
    assert page.open == []
    text = " ".join(page.text)
    for seat in rules.seat_names:
        assert seat in text
    for c in rules.cards_of(state.hands[0]):
        assert rules.card_code[c] in text
    for a in state.legal_actions():
        assert mariage.action_text(rules, a) in text
    over = GameState(rules, first_dealer=0)
    over.deal(list(range(rules.ncards)))
    over.resign(0)
    assert "over after hand 1, WE won (resign)" in repr(over)
    assert "WE" in over._repr_html_()
    assert observe(over, 0).legal == ()


@pytest.mark.parametrize("dealer", [3, -1, True, "1", 1.5])
def test_a_first_dealer_that_is_no_seat_is_refused_by_name(dealer: object) -> None:
    # a dealer past the seats was taken, and the deal passed on by a table of seats
    # failed with an IndexError at the end of the first hand
    with pytest.raises(ValueError, match=r"first_dealer must be a seat number from 0 to 2"):
        GameState(load_rules("thousand"), first_dealer=dealer)  # type: ignore[arg-type]
    assert GameState(load_rules("thousand"), first_dealer=2).dealer == 2
