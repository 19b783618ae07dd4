"""The fast path for canonical records reads deals and closing notes as the full validator.

:func:`mariage.notation.fast.fast_valid` lays out canonical deals itself (for rules
without packets of several sizes or a turned-up card in the dealer's hand) and
compares the notes that close a hand with what the writer writes. Both must agree
with the full validator: the same deck and first player as
:func:`~mariage.notation.layout.layout`, and every record it accepts valid.
"""

from __future__ import annotations

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.notation.fast import _canonical_deal, fast_valid
from mariage.notation.layout import layout
from mariage.notation.reader import parse_record
from mariage.notation.replay import check_text
from mariage.notation.writer import write_record
from notationkit import recorded_match


def _unsure(*_: object) -> None:
    raise AssertionError("a recorded deal has a problem")


def _canonical(name: str) -> bool:
    """Deals the fast path lays out itself (the others go through the layout)."""
    rules = load_rules(name)
    return not rules.deal_packets and rules.turn_up in ("none", "under_stock")


@pytest.mark.parametrize("name", list_rulesets())
def test_the_fast_path_accepts_the_records_of_every_ruleset(name: str) -> None:
    for seed in range(2):
        text = write_record(recorded_match(name, {}, seed, seed + 3))
        assert fast_valid(text), (name, seed)


def test_some_rulesets_are_laid_out_by_the_layout() -> None:
    # packets or a dealer's turned-up card: the layout, not the fast reader, lays them out
    assert {"mariglia", "schnapsen", "sixty-six"} <= {
        name for name in list_rulesets() if not _canonical(name)}


@pytest.mark.parametrize("name", [n for n in list_rulesets() if _canonical(n)])
def test_canonical_deals_are_laid_out_as_the_layout_does(name: str) -> None:
    rules = load_rules(name)
    for seed in range(2):
        text = write_record(recorded_match(name, {}, seed, seed + 3))
        rec = parse_record(text)
        lines = text.split("\n")
        for hand in rec.hands:
            written = {p.label: p.cards for p in hand.deal.parts}.get("dealer")
            dealer = None if written is None else rules.seat_names.index(written[0])
            st = GameState(rules, first_dealer=dealer)  # the dealer is all the layout needs
            lay = layout(rules, hand.deal, st.dealer, _unsure)
            assert lay is not None
            start = lines.index(f"hand {hand.number}") + 1
            deck, first, after = _canonical_deal(rules, st, lines, start)
            assert (deck, first) == (lay.deck, lay.first), (name, seed, hand.number)
            assert after == start + len(hand.deal.parts)


def _mutations(text: str) -> list[str]:
    lines = text.split("\n")
    i = lines.index("hand 2") if "hand 2" in lines else lines.index("hand 1")
    deal = lines[i + 1]
    seat_row = lines[i + 2]
    label, _, cards = seat_row.partition(": ")
    first, *rest = cards.split(" ")
    out = [
        text.replace(deal, deal + " N", 1),  # a second dealer
        text.replace(deal, "deal dealer: " + ("X" if not deal.endswith("X") else "Y"), 1),
        text.replace(seat_row, f"{label}: {' '.join(rest)}", 1),  # a card short
        text.replace(seat_row, f"{label}: {' '.join([first, first, *rest[1:]])}", 1),
        text.replace(seat_row, f"{label}: {' '.join([*rest, first])}", 1),  # reordered: valid
        text.replace(seat_row, f"{label}:  {cards}", 1),
        text.replace(seat_row, f"{label}: ?? {' '.join(rest)}", 1),
        text.replace(seat_row, seat_row + "\nstock: " + first, 1),  # one part too many
    ]
    for key in ("points", "scored", "match", "ended"):
        k = text.find(f"({key} ")
        if k >= 0:
            j = text.index(")", k)
            out.append(text[:k] + f"({key} 1 2)" + text[j + 1:])
            out.append(text[:k] + f"({key}  " + text[k + len(key) + 2:])
    k = text.find("(ended ")
    if k >= 0:
        out.append(text[:k] + "(won Z) " + text[k:])
    return out


@pytest.mark.parametrize("name", list_rulesets())
def test_whatever_the_fast_path_accepts_is_valid(name: str) -> None:
    text = write_record(recorded_match(name, {}, 5, 9))
    for changed in _mutations(text):
        if changed == text:
            continue
        errors = check_text(changed, strict=True).errors
        if fast_valid(changed):
            assert errors == [], (name, changed[:300])
        if errors:
            assert not fast_valid(changed)
