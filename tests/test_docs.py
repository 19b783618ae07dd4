"""The documentation: PRNG vectors, worked examples, schema reference, ruleset pages.

The Sphinx build itself runs in CI (``sphinx-build -W``); these tests check,
without Sphinx, what the pages claim: every vector on the PRNG page against
the code, every embedded example through the interpreter, and that a bad
example is refused with a clear message.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from mariage import GameState, list_rulesets, load_rules
from mariage.engine.actiontext import parse_action
from mariage.engine.deals import SeededDeals
from mariage.engine.prng import SplitMix64
from mariage.resources import schema_path
from mariage.rulebook.docexamples import (
    Example,
    ExampleError,
    example_from,
    parse_hands,
    replay,
    replay_record,
)
from mariage.rulebook.schemadoc import schema_rows

DOCS = Path(__file__).resolve().parent.parent / "docs"


# ---------------------------------------------------------------- PRNG page
def _vector_lines() -> list[str]:
    text = (DOCS / "prng.rst").read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines()
            if re.match(r"\s+(next_u64|below|shuffle|marianna|mariazza|belote) seed=", line)]


def test_prng_page_vectors_match_the_code() -> None:
    checked = 0
    for line in _vector_lines():
        head, _, values = line.partition(": ")
        words = head.split()
        args = dict(w.split("=") for w in words[1:] if "=" in w)
        seed = int(args["seed"])
        got: list[str]
        if words[0] == "next_u64":
            rng = SplitMix64(seed)
            got = [f"0x{rng.next_u64():016x}" for _ in values.split()]
        elif words[0] == "below":
            rng = SplitMix64(seed)
            got = [str(rng.below(int(args["n"]))) for _ in values.split()]
        elif words[0] == "shuffle":
            items = list(range(int(args["c"])))
            SplitMix64(seed).shuffle(items)
            got = [str(i) for i in items]
        elif words[0] == "belote":  # a pack gathered after a void deal (deal.gather)
            rules = load_rules("belote", {"shuffle": args["shuffle"]})
            deals = SeededDeals(rules, seed)
            state = GameState(rules, first_dealer=deals.first_dealer)
            deck, _ = deals.next_deal(state)
            if args["hand"] == "2":
                state.deal(deck)
                for _ in range(8):  # all pass: the deal is void
                    state.apply(parse_action(rules, "pass"))
                assert args["after"] == "void" and state.history[-1].ended == "void"
                deck, _ = deals.next_deal(state)
            got = [rules.card_code[c] for c in deck]
        else:
            rules = load_rules(words[0])
            deals = SeededDeals(rules, seed)
            if words[-1] == "first_dealer":
                got = [str(deals.first_dealer)]
            else:
                for _ in range(int(args["hand"]) - 1):
                    deals.next_deal()
                deck, first = deals.next_deal()
                got = ([str(first)] if words[-1] == "first_player"
                       else [rules.card_code[c] for c in deck])
        assert got == values.split(), line
        checked += 1
    assert checked == 16


def test_prng_page_names_the_constants_of_the_code() -> None:
    text = (DOCS / "prng.rst").read_text(encoding="utf-8")
    for constant in ("0x9E3779B97F4A7C15", "0xBF58476D1CE4E5B9", "0x94D049BB133111EB"):
        assert constant in text
    for shift in ("z >> 30", "z >> 27", "z >> 31"):
        assert shift in text


# ---------------------------------------------------------------- examples in pages
def _blocks(path: Path) -> list[tuple[str, int, dict[str, str], list[str]]]:
    """Each ``mariage-example`` of an rst file: (ruleset of the page, line, options, content)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    page = re.search(r"mariage-ruleset:: (\S+)", "\n".join(lines))
    out = []
    i = 0
    while i < len(lines):
        m = re.match(r"(\s*)\.\. mariage-example::", lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group(1)) + 3
        start, i = i, i + 1
        options: dict[str, str] = {}
        key = None
        while i < len(lines) and lines[i].strip():
            text = lines[i][indent:]
            opt = re.match(r":([\w-]+):\s*(.*)", text)
            if opt:
                key = opt.group(1)
                options[key] = opt.group(2)
            elif key is not None:
                options[key] += " " + text.strip()
            i += 1
        content = []
        while i < len(lines) and (not lines[i].strip()
                                  or len(lines[i]) - len(lines[i].lstrip()) >= indent):
            content.append(lines[i][indent:])
            i += 1
        options.setdefault("ruleset", page.group(1) if page else "")
        out.append((str(path.name), start + 1, options, content))
    return out


EXAMPLES = [b for p in sorted(DOCS.rglob("*.rst")) for b in _blocks(p)]


def test_every_ruleset_page_has_examples() -> None:
    pages = {p.stem for p in (DOCS / "rulesets").glob("*.rst")}
    assert pages == set(list_rulesets())
    with_examples = {b[2]["ruleset"] for b in EXAMPLES}
    assert with_examples == set(list_rulesets())


@pytest.mark.parametrize("block", EXAMPLES, ids=[f"{b[0]}:{b[1]}" for b in EXAMPLES])
def test_embedded_example_replays(block: tuple[str, int, dict[str, str], list[str]]) -> None:
    _, _, options, content = block
    result = replay(example_from(options, content))
    assert result.tricks
    claims = [line for line in content if line.strip().startswith(("=", "!"))]
    checks = sum(len(t.checks) for t in result.tricks) + len(result.outcome)
    winners = sum(1 for line in claims if line.split()[1:2] == ["winner"])
    assert checks + winners == len(claims)


@pytest.mark.parametrize("block", EXAMPLES, ids=[f"{b[0]}:{b[1]}" for b in EXAMPLES])
def test_every_example_replays_as_a_record(
        block: tuple[str, int, dict[str, str], list[str]]) -> None:
    """The page shows each example as a record too: valid notation, every action and
    trick winner re-checked, with the hands, the actions and the tricks of the example."""
    from mariage.notation import check_record, parse_record

    _, _, options, content = block
    result = replay(example_from(options, content))
    record = parse_record(result.record, file="example")
    assert record.ruleset == options["ruleset"]
    assert check_record(record).errors == []
    assert result.record.count("(won ") == sum(1 for t in result.tricks if t.winner)
    played = [p for t in result.tricks for seat in t.order for p in t.plays[seat]]
    assert len(played) > 0
    assert ", " not in result.record.split("\n\n", 1)[1]  # not the directive's syntax


# ---------------------------------------------------------------- the checker
MARIANNA = {"N": "KH QH AS 2S 4C", "W": "2C 3C 4D 5D 6D", "S": "3H 7C 5C 6C 7D",
            "E": "AH 2D 4H 5H 6H"}


def _example(script: list[str], **kw: Any) -> Example:
    return Example("marianna", hands=kw.pop("hands", MARIANNA), dealer="E", script=script, **kw)


def test_a_legal_example_is_checked_claim_by_claim() -> None:
    result = replay(_example(["N marianna:H, N KH, W 2C, S 3H, E AH", "= winner E",
                              "= trump H", "= points NS 40 WE 25"]))
    trick = result.tricks[0]
    assert (trick.winner, trick.points, trick.trump) == ("E", 25, "♥")
    assert trick.plays["N"] == ["marianna ♥", "K♥"]
    assert trick.checks == ["trump: ♥", "hand points: NS 40, WE 25"]


@pytest.mark.parametrize(("script", "message"), [
    (["N AS, W 2C, S 3H, E marianna:H"], "line 1: E marianna:H is illegal "
                                         "[marianna.decl.marianna]"),
    (["N KH, W 2C, S 3H, E AH", "= winner N"], "line 2: the example says N wins the trick; "
                                               "E does"),
    (["N KH, W 2C, S 3H, E AH", "= points NS 0 WE 24"], "line 2: the example says points WE "
                                                        "24; the interpreter has 25"),
    (["N KH, W 2C", "= trump H"], "line 2: the example says trump is H; it is none"),
    (["N KH, S 3H"], "line 1: S 3H: it is W's turn"),
    (["N K?"], "line 1: not an action of marianna: 'K?'"),
    (["N KH, W 2C, S 3H, E AH", "! E 4H -> marianna.play.free"],
     "line 2: E 4H is legal, but the example says [marianna.play.free] forbids it"),
    (["N KH, W 2C, S 3H, E AH", "! E marianna:H -> marianna.decl.window"],
     "line 2: E marianna:H is refused by [marianna.decl.marianna], not "
     "[marianna.decl.window]"),
    (["= score NS 0 XY 1"], "line 1: no team 'XY'"),
    (["= colour red"], "line 1: unknown claim 'colour'"),
])
def test_a_bad_example_fails_with_line_and_reason(script: list[str], message: str) -> None:
    with pytest.raises(ExampleError) as info:
        replay(_example(script))
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(("hands", "message"), [
    ({**MARIANNA, "N": "KH QH AS 2S"}, "seat N needs 5 cards, got 4"),
    ({**MARIANNA, "N": "KH QH AS 2S 2C"}, "cards named twice: 2C"),
    ({**MARIANNA, "N": "KH QH AS 2S 9C"}, "'9C' is not a card of marianna"),
])
def test_a_bad_deal_fails_clearly(hands: dict[str, str], message: str) -> None:
    with pytest.raises(ExampleError, match=re.escape(message)):
        replay(_example([], hands=hands))


def test_directive_options_are_parsed() -> None:
    seats = ("N", "W", "S", "E")
    assert parse_hands("N: KH QH W: 2C\n S: 3H", seats) == {"N": "KH QH", "W": "2C", "S": "3H"}
    with pytest.raises(ExampleError, match="start with a seat name"):
        parse_hands("KH N: QH", seats)
    ex = example_from({"ruleset": "marianna", "options": "target=301", "dealer": "E",
                       "hands": "N: " + MARIANNA["N"]}, ["N KH"])
    assert ex.options == {"target": "301"} and ex.dealer == "E"
    with pytest.raises(ExampleError, match="no option 'colour'"):
        example_from({"ruleset": "marianna", "options": "colour=red"}, [])


def test_the_stock_and_turn_up_are_dealt_where_the_example_says() -> None:
    hands = {"A": "AH 3H KH QH JH", "B": "AS 3S KS QS JS"}
    result = replay(Example("mariaggia", hands=hands, dealer="A", turn_up="2C",
                            stock="7D 6D", script=["B 3S, A AH", "= winner B"]))
    assert result.turn_up == "2♣"
    state_hand = dict(result.hands)
    assert state_hand["A"] == "A♥ 3♥ K♥ Q♥ J♥"
    replayed = replay(Example("mariaggia", hands=hands, dealer="A", turn_up="2C",
                              stock="7D 6D", script=["B 3S, A AH", "B 7D, A 6D"]))
    assert replayed.tricks[1].plays == {"B": ["7♦"], "A": ["6♦"]}


# ---------------------------------------------------------------- schema reference
def _schema_paths(s: dict[str, Any], path: str, out: set[str]) -> None:
    for key, sub in s.get("properties", {}).items():
        p = f"{path}.{key}" if path else key
        out.add(p)
        _schema_paths(sub, p, out)
    extra = s.get("additionalProperties")
    if isinstance(extra, dict):
        _schema_paths(extra, f"{path}.<name>", out)
    items = s.get("items")
    if isinstance(items, dict):
        _schema_paths(items, f"{path}[]", out)


def test_schema_reference_lists_every_field() -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    rows = {r[0] for r in schema_rows(schema)}
    wanted: set[str] = set()
    _schema_paths(schema, "", wanted)
    rule_fields = {"id", "source", "text", "decided", "option", "enabled"}
    missing = {p for p in wanted if p not in rows and p.rsplit(".", 1)[-1] not in rule_fields}
    assert not missing
    assert {f"<rule>.{f}" for f in rule_fields} <= rows
    for name in ("obligation", "option"):
        inner: set[str] = set()
        _schema_paths(schema["$defs"][name], f"<{name}>", inner)
        assert {p for p in inner if p.rsplit(".", 1)[-1] not in rule_fields} <= rows


# ---------------------------------------------------------------- records in the notation
def _records(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)\.\. mariage-record::", line)
        if not m:
            continue
        indent = len(m.group(1)) + 3
        body = []
        for text in lines[i + 1:]:
            if text.strip() and len(text) - len(text.lstrip()) < indent:
                break
            body.append(text[indent:])
        out.append("\n".join(body).strip() + "\n")
    return out


RECORDS = [r for p in sorted(DOCS.rglob("*.rst")) for r in _records(p)]


def test_embedded_records_validate_and_are_drawn() -> None:
    assert RECORDS
    for text in RECORDS:
        hands = replay_record(text)
        assert hands and all(h.tricks for h in hands)


def test_a_record_with_a_wrong_annotation_fails_with_its_line() -> None:
    text = RECORDS[0]
    bad = text.replace("(won E)", "(won S)")
    assert bad != text
    line = next(n for n, t in enumerate(bad.splitlines()) if "(won S)" in t)
    with pytest.raises(ExampleError) as info:
        replay_record(bad)
    assert info.value.line == line
    assert "won the trick" in str(info.value)



def test_drawn_tricks_count_the_contracts_points_and_number_from_one() -> None:
    """A trick's drawn points are what its cards count under the contract (Belote's
    trumps count their own ranks), and the tricks number from one after the auction's own
    row (number 0, 'before play')."""
    from mariage import load_rules

    auctions = [b for b in EXAMPLES if b[2]["ruleset"].startswith(("thousand", "belote"))]
    for _, _, options, content in auctions:
        result = replay(example_from(options, content))
        numbers = [t.number for t in result.tricks if t.winner is not None]
        assert numbers == list(range(1, len(numbers) + 1)), (options["ruleset"], numbers)
    whole = 0
    for _, _, options, content in (b for b in EXAMPLES if b[2]["ruleset"] == "belote"):
        tricks = [t for t in replay(example_from(options, content)).tricks if t.winner]
        if len(tricks) == 8:  # a whole deal: the tricks hold the pack's 152 under trumps
            pack = sum(load_rules("belote").role_points[0])
            assert pack == 152 and sum(t.points for t in tricks) == pack
            whole += 1
    assert whole >= 1


def test_the_actions_before_play_get_a_row_of_their_own() -> None:
    """An auction (Thousand) is drawn in a row of its own, number 0, before trick 1, in
    an example and in the record drawn from it."""
    auctions = [b for b in EXAMPLES if b[2]["ruleset"].startswith("thousand")]
    assert auctions
    for _, _, options, content in auctions:
        result = replay(example_from(options, content))
        drawn = replay_record(result.record)[0].tricks
        for rows in (result.tricks, drawn):
            first = rows[0]
            assert first.number == 0 and first.winner is None, options
            assert all(t.number > 0 for t in rows[1:])


def test_a_declaration_window_belongs_to_its_trick_the_first_too() -> None:
    """Where declarations are made in a window before the lead (declare_when
    trick_start), the first trick's window is drawn in trick 1's row, as any later
    trick's is, not in a row 'before play'."""
    options = {"declare_when": "trick_start"}
    script = ["N marianna:H, W pass, S pass, E pass, N KH, W 2C, S 3H, E AH"]
    result = replay(_example(script, options=options))
    for rows in (result.tricks, replay_record(result.record)[0].tricks):
        assert [t.number for t in rows] == [1]
        assert rows[0].plays["N"] == ["marianna ♥", "K♥"] and rows[0].winner == "E"
