"""An independent check of the game-record notation (``docs/notation.rst``).

The expectations come from :mod:`scribekit` (a reader and writer) and
:mod:`scribechanges` (the changes the docs forbid), written from the docs alone
(they import nothing of :mod:`mariage`). The reference is only the thing
checked: its reader and replay (the API behind ``mariage replay --format json`` and
``mariage validate``) must find in every shipped record what the docs say is
there (the tags, the deals, every action, the trick winners, the hands' ends and
the result); must read the independent writer's own layouts of each to the same
game; and must name the documented code, at the place of the change, for every
change the docs forbid, with the fast path (:func:`~mariage.notation.fast_valid`,
the parser without Lark) never disagreeing with the full validator.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from mariage.cli import main
from mariage.commands.replay import as_json
from mariage.notation.build import Builder
from mariage.notation.errors import NotationError
from mariage.notation.fast import fast_valid
from mariage.notation.quickparse import parse as quick_parse
from mariage.notation.reader import _builder, parse_record
from mariage.notation.replay import check_text
from mariage.notation.views import view
from mariage.notation.writer import write_record
from mariage.viewer.timeline import timeline
from scribechanges import CHANGES, SHIPPED, any_record_changes, base, swap
from scribekit import UNKNOWN, Layout, Record, read_record, ruleset_of, write


def _sample(every: int) -> list[tuple[str, int, str]]:
    """A fixed sample of the shipped records: the first of each ruleset in each folder,
    then about one in ``every`` by a hash of the file name (the same on every run)."""
    seen: set[str] = set()
    out = []
    for file, line, text in SHIPPED:
        group = (ruleset_of(text) or "") + file.split("/")[-2]
        digest = int(hashlib.sha256(file.encode()).hexdigest()[:8], 16)
        if group not in seen or digest % every == 0:
            seen.add(group)
            out.append((file, line, text))
    return out


SAMPLE = _sample(40)


def _id(case: tuple[str, int, str]) -> str:
    return f"{case[0]}:{case[1]}"


# ------------------------------------------------------------------ the comparison
_RESULT = re.compile(r"(\S+) wins \((\S+)\)|no winner \((\S+)\)|drawn \((\S+)\)")


def replayed(text: str) -> dict[str, Any]:
    """What the reference's replay reports of ``text`` (``mariage replay --format json``)."""
    return as_json(timeline(parse_record(text)))


def _plain(card: str) -> str:
    return card.rstrip("?") if card != UNKNOWN else card  # an inferred card: "KH?"


def compare(mine: Record, ref: dict[str, Any]) -> list[str]:
    """Where the reference's replay differs from what this reader found in the record."""
    out: list[str] = []
    hands = ref["hands"]
    if [h.number for h in mine.hands] != [h["number"] for h in hands]:
        return [f"hands {[h.number for h in mine.hands]} != {[h['number'] for h in hands]}"]
    for hand, got in zip(mine.hands, hands, strict=True):
        at = f"hand {hand.number}"
        dealer, first = hand.part("dealer"), hand.part("first")
        if dealer is not None and list(dealer) != [got["dealer"]]:
            out.append(f"{at}: dealer {dealer} != {got['dealer']}")
        if first is not None and list(first) != [got["first"]]:
            out.append(f"{at}: first {first} != {got['first']}")
        for seat, cards in got["deal"].items():
            written = hand.part(seat)
            if written is None:
                continue  # a deck: deal
            have = Counter(map(_plain, cards))
            want = Counter(c for c in written if c != UNKNOWN)
            if want - have or sum(have.values()) != len(written):
                out.append(f"{at}: {seat} dealt {sorted(have)} != {sorted(written)}")
        turnup = hand.part("turnup")
        if turnup and got["turn_up"] is not None and turnup[0] != UNKNOWN \
                and _plain(got["turn_up"]) != turnup[0]:
            out.append(f"{at}: turn-up {turnup} != {got['turn_up']}")
        acts = [(a["seat"], _plain(a["action"])) for a in got["actions"]]
        if hand.actions() != acts:
            out.append(f"{at}: actions differ: {hand.actions()[:40]} != {acts[:40]}")
            continue
        out += _against_notes(at, hand, got)
    out += _result(mine, ref)
    return out


def _against_notes(at: str, hand: Any, got: dict[str, Any]) -> list[str]:
    """Each trick winner and hand end written in the record against the replay's."""
    out = []
    ends: dict[int, str] = {}  # actions played -> winner of the trick they end
    for done, action in enumerate(got["actions"], 1):
        for trick in got["tricks"]:
            if trick["number"] == action["trick"] and action["seat"] == trick["cards"][-1][0] \
                    and _plain(action["action"]).endswith(trick["cards"][-1][1]):
                ends[done] = trick["winner"]
    count = 0
    end = got["end"] or {}
    for item in hand.items:
        if item.kind == "act":
            count += 1
        elif item.kind == "note" and item.values:
            key, values = item.values[0], list(item.values[1:])
            if key == "won" and ends.get(count) != values[0]:
                out.append(f"{at}, action {count}: (won {values[0]}) but {ends.get(count)}")
            elif key == "ended" and end.get("ended") != values[0]:
                out.append(f"{at}: (ended {values[0]}) but {end.get('ended')}")
            elif key in ("scored", "match") and key in end \
                    and [str(v) for v in end[key]] != values:
                out.append(f"{at}: ({key} {' '.join(values)}) but {end[key]}")
            elif key == "segno" and "segno" in end and end["segno"] != values[0]:
                out.append(f"{at}: (segno {values[0]}) but {end['segno']}")
    return out


def _result(mine: Record, ref: dict[str, Any]) -> list[str]:
    said = ref["result"]
    if mine.result is None or mine.result[0] == "*":  # a record that stops early
        return [] if said in (None, "unfinished") else [
            f"result {mine.result} but the replay: {said}"]
    m = _RESULT.match(said or "")
    if m is None:
        return [f"result {mine.result} but the replay: {said}"]
    winner = m.group(1) or "-"
    reason = m.group(2) or m.group(3) or m.group(4)
    if (winner, reason) != (mine.result[0], mine.result[1] or reason):
        return [f"result {mine.result} but the replay: {said}"]
    return []


def _lark(text: str) -> Any:
    builder, parser = _builder()
    builder.reset("<string>", 1, 1, None)
    try:
        return parser.parse(text)
    finally:
        builder.reset("<string>", 1, 1, None)


def paths_agree(text: str, errors: list[Any]) -> list[str]:
    """The fast path never says valid where the validator finds a problem, and the parser
    without Lark reads a record as Lark does (or leaves it to Lark)."""
    out = []
    if errors and fast_valid(text):
        out.append(f"the fast path accepts what the validator refuses: {errors[0]}")
    builder = Builder()
    builder.reset("<string>", 1, 1, None)
    quick_error = slow_error = None
    try:
        quick = quick_parse(text, builder)
    except NotationError as exc:  # a number too long: the builder refuses it
        quick, quick_error = None, exc.error
    try:
        slow = _lark(text)
    except Exception as exc:  # Lark refuses: the plain parser must leave it to Lark
        slow_error = getattr(exc, "orig_exc", exc)
        if quick is not None:
            out.append(f"the plain parser reads what Lark refuses ({type(exc).__name__})")
        if quick_error is not None and (not isinstance(slow_error, NotationError) or (
                quick_error.code, quick_error.line, quick_error.column) != (
                slow_error.error.code, slow_error.error.line, slow_error.error.column)):
            out.append(f"the plain parser refuses with {quick_error}, Lark with {slow_error}")
        return out
    if quick_error is not None:
        out.append(f"the plain parser refuses what Lark reads: {quick_error}")
    if quick is not None and (quick.tags, quick.comments, quick.hands, quick.result) != (
            slow.tags, slow.comments, slow.hands, slow.result):
        out.append("the plain parser and Lark read the record differently")
    return out


class Reading:
    """A shipped record as this reader reads it (``mine``), as the reference reads it
    (``ref``) and replays it (``replay``, :func:`replayed` of it): made once, for all the
    checks of the record (as written, in the layouts, its views)."""

    def __init__(self, text: str) -> None:
        self.mine = read_record(text)
        self.ref = parse_record(text)
        self.replay = as_json(timeline(self.ref))  # replayed(text), the record read once
        self.game = _game(self.replay)


@cache
def sampled(text: str) -> Reading:
    """The :class:`Reading` of a record of :data:`SAMPLE`, kept for the default run's
    checks of it (the slow run's of every record make theirs and let it go)."""
    return Reading(text)


def check_shipped(case: tuple[str, int, str], reading: Reading | None = None) -> list[str]:
    file, line, text = case
    reading = reading or Reading(text)
    mine, ref = reading.mine, reading.ref
    out = []
    if [(t.name, t.values) for t in ref.tags] != mine.tags:
        out.append(f"tags {[(t.name, t.values) for t in ref.tags]} != {mine.tags}")
    errors = check_text(text).errors
    if errors:
        out.append(f"refused: {errors[0]}")
    out += compare(mine, reading.replay)
    out += paths_agree(text, errors)
    return [f"{file}:{line}: {o}" for o in out]


@pytest.mark.parametrize("case", SAMPLE, ids=_id)
def test_a_shipped_record_reads_as_the_docs_say(case: tuple[str, int, str]) -> None:
    assert check_shipped(case, sampled(case[2])) == []


def _outside(cases: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
    """The shipped records but ``cases`` (a sample the default run checks the same way:
    with it, ``pytest`` and ``pytest -m slow`` check every shipped record once)."""
    sample = {(file, line) for file, line, _ in cases}
    return [case for case in SHIPPED if case[:2] not in sample]


def test_the_shipped_records_are_found() -> None:
    """Several thousand records: every ruleset's conformance tests, the good examples."""
    assert len(SHIPPED) > 2000
    named = [read_record(t).tag("Ruleset") for _, _, t in SHIPPED]
    assert [ruleset_of(t) for _, _, t in SHIPPED] == named  # (what picks the sample)
    rulesets = set(named)
    assert {"marianna", "thousand", "belote", "schnapsen", "marjapussi-de"} <= rulesets
    assert any(f.startswith("docs/") for f, _, _ in SHIPPED)


# ------------------------------------------------------------------ the writer's layouts
LAYOUTS = {
    "crlf-tabs": Layout(eol="\r\n", gap="\t"),
    "wide-shuffled-tags-and-deal": Layout(gap="  ", tag_order="shuffled", blank_lines=3,
                                          parts="shuffled", seed=1),
    "a-move-a-line-comments": Layout(moves_per_line=1, notes_alone=True, comments=True),
    "bare-italian": Layout(marks=False, notes=False, cards="italian"),
    "three-a-line-german-comments": Layout(moves_per_line=3, cards="german", comments=True,
                                           seed=2),
    "comments-beside-moves": Layout(comments=True, inline=True, seed=3),
}


def _game(ref: dict[str, Any]) -> list[Any]:
    """What makes the game: the deals, every action, the tricks, the ends, the result."""
    return [[(h["number"], h["dealer"], h["first"], h["deal"], h["turn_up"],
              [(a["seat"], a["action"]) for a in h["actions"]],
              [(t["cards"], t["winner"]) for t in h["tricks"]], h["end"])
             for h in ref["hands"]], ref["result"]]


def check_layout(case: tuple[str, int, str], name: str, reading: Reading) -> list[str]:
    """``case`` (read as ``reading``) rewritten in layout ``name`` reads as the same game."""
    file, line, text = case
    rec = reading.mine
    lay = LAYOUTS[name]
    if not lay.notes and UNKNOWN in text:
        return []  # a partial record's annotations narrow its deals: they stay
    rewritten = write(rec, lay)
    out = []
    if read_record(rewritten).tags != rec.tags and lay.tag_order == "as_read":
        out.append("the independent reader reads its own writing differently")
    errors = check_text(rewritten).errors
    if errors:
        out.append(f"refused in layout {name}: {errors[0]}")
    elif _game(replayed(rewritten)) != reading.game:
        out.append(f"layout {name} reads as another game")
    out += paths_agree(rewritten, errors)
    return [f"{file}:{line}: {o}" for o in out]


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_the_reference_reads_the_independent_layouts_as_the_same_game(name: str) -> None:
    found = [p for case in SAMPLE[::4] for p in check_layout(case, name, sampled(case[2]))]
    assert found == [], "\n".join(found[:10])


#: The slow run's share of the shipped records: :func:`test_every_shipped_record` checks
#: those ``k`` with ``k // 2 % SHARDS == shard`` (even and odd ones alike).
SHARDS = 6


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_shipped_record(shard: int) -> None:
    """Every shipped record, read and replayed once for all its checks: as the docs say
    (outside :data:`SAMPLE`, which ``test_a_shipped_record_reads_as_the_docs_say``
    checks); in three of the six layouts, every other record taking the layouts of even
    rank, the others those of odd rank (all six for every record before the twentieth
    session: trimmed for the CI's time); every other record's views (two seats'); cut at
    hand 2 where the docs say how."""
    sample = {(file, line) for file, line, _ in SAMPLE}
    layouts = sorted(LAYOUTS)
    found = []
    for k, case in enumerate(SHIPPED):
        if k // 2 % SHARDS != shard:
            continue
        reading = Reading(case[2])
        if case[:2] not in sample:
            found += check_shipped(case, reading)
        for name in layouts[k % 2::2]:
            found += check_layout(case, name, reading)
        if k % 2 == 0:
            found += check_views(case, reading=reading)
        found += check_later(case, reading)
    assert found == [], "\n".join(found[:20])


# ------------------------------------------------------------------ forbidden changes
def check_change(name: str) -> list[str]:
    """The reference names the expected code first, at its place, in both modes; the fast
    path does not accept it; the readers agree."""
    text, code, line, column = CHANGES[name]
    limit = 1 if code == "N136" else 5000
    out = []
    found = {}
    for strict in (False, True):
        errors = found[strict] = check_text(text, strict=strict, search_limit=limit).errors
        got = [(e.code, e.line, e.column) for e in errors[:1]]
        if got != [(code, line, column)]:
            out.append(f"{name} ({'strict' if strict else 'lenient'}): expected "
                       f"{code} at {line}:{column}, got {[str(e) for e in errors[:3]]}")
    out += paths_agree(text, found[False])
    return out


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_forbidden_change_is_named_with_its_code_and_place(name: str) -> None:
    assert check_change(name) == []


def test_the_command_line_names_every_change(tmp_path: Path) -> None:
    """``mariage validate`` on a file of every change: each record's problem at its place
    in the file, exit 1, no traceback (a process of its own, as a user runs it)."""
    names = [n for n in sorted(CHANGES) if CHANGES[n][1] != "N136"]
    parts, expected, offset = [], [], 0
    for name in names:
        text, code, line, column = CHANGES[name]
        text = text if text.endswith("\n") else text + "\n"
        parts.append(text)
        expected.append(f"{offset + line}:{column}: {code}")
        offset += text.count("\n")
    path = tmp_path / "changes.mrg"
    path.write_text("".join(parts), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mariage", "validate", str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    out = run.stdout + run.stderr
    assert run.returncode == 1 and "Traceback" not in out
    missing = [f"{n}: {e}" for n, e in zip(names, expected, strict=True)
               if f"{path}:{e}" not in out]
    assert missing == [], out[:3000]
    assert f"{len(names)} records, 0 valid, {len(names)} invalid" in out


# ------------------------------------------------------------------ changes to any record
def check_any(case: tuple[str, int, str], layout: str = "") -> list[str]:
    """The changes that fit any record, made to it as written (or in an independent
    layout: the places are then those of that layout, tabs and all)."""
    file, line, text = case
    if layout:
        text = write(read_record(text), LAYOUTS[layout])
        file = f"{file} ({layout})"
    out = []
    for name, (changed, code, at, column) in any_record_changes(text):
        errors = check_text(changed).errors
        got = [(e.code, e.line, e.column) for e in errors[:1]]
        if got != [(code, at, column)]:
            out.append(f"{file}:{line}: {name}: expected {code} at {at}:{column}, got "
                       f"{[str(e) for e in errors[:2]]}")
        out += [f"{file}:{line}: {name}: {p}" for p in paths_agree(changed, errors)]
    return out


def test_changes_to_a_sample_of_records() -> None:
    found = [p for case in SAMPLE[::6] for p in check_any(case)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.slow
def test_changes_to_every_shipped_record() -> None:
    """Every record outside ``SAMPLE[::6]`` (``test_changes_to_a_sample_of_records``)."""
    found = [p for case in _outside(SAMPLE[::6]) for p in check_any(case)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_changes_to_records_in_the_independent_layouts(name: str) -> None:
    found = [p for case in SAMPLE[::8] for p in check_any(case, name)]
    assert found == [], "\n".join(found[:10])


@pytest.mark.slow
def test_the_command_line_validates_every_shipped_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``mariage validate --format json`` on one file of every shipped record: the command
    run in this process (its rules compiled once for the worker's other tests; a process
    of its own compiled the 901 rulesets the records name again, 20 ms each; the tests of
    every change and of a file split at each record start the command as a user does)."""
    path = tmp_path / "shipped.mrg"
    path.write_text("".join(t if t.endswith("\n") else t + "\n" for _, _, t in SHIPPED),
                    encoding="utf-8")
    code = main(["validate", str(path), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, out[:2000] + err[:2000]
    summary = json.loads(out)["files"][0]
    assert (summary["records"], summary["valid"], summary["errors"]) == (
        len(SHIPPED), len(SHIPPED), [])


def test_a_file_of_records_is_split_at_each_mariage_line(tmp_path: Path) -> None:
    """Text before the first record is N103; a bad record never hides the next one."""
    text = base("marianna")
    rec = read_record(text)
    act = [i for i in rec.hands[0].items if i.kind == "act"][1]
    bad = swap(text, act.line, act.column, "", "] ")
    path = tmp_path / "three.mrg"
    path.write_text("notes before the records\n" + bad + text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mariage", "validate", str(path),
                          "--format", "json"], capture_output=True, text=True, timeout=120,
                         check=False)
    summary = json.loads(run.stdout)["files"][0]
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert [(e["code"], e["line"], e["column"], e["record"]) for e in summary["errors"]] == [
        ("N103", 1, 1, 0), ("N110", act.line + 1, act.column, 1)]
    assert (summary["records"], summary["valid"]) == (2, 1)


def test_tag_values_with_quotes_and_backslashes() -> None:
    """``\\"`` and ``\\\\`` in a tag value stand for a quote and a backslash."""
    text = base("marianna")
    odd = 'Anna \\"the Ace\\" \\\\ Bruno'
    changed = re.sub(r'\[Seat "N" "[^"]*"\]', lambda _: f'[Seat "N" "{odd}"]', text, count=1)
    assert odd in changed
    mine = read_record(changed)
    assert ("Seat", ("N", 'Anna "the Ace" \\ Bruno')) in mine.tags
    assert [(t.name, t.values) for t in parse_record(changed).tags] == mine.tags
    assert check_text(changed).errors == []
    assert _game(replayed(changed)) == _game(replayed(text))


# ------------------------------------------------------------------ seats' views
def check_views(case: tuple[str, int, str], seats: int = 2, reading: Reading | None = None
                ) -> list[str]:
    """``mariage view`` of a full record, read by the independent reader: the seat's own
    hand as dealt, every other card as dealt or ``??``, the same actions (cards passed
    between others may become ``give:?``), annotations and result; the view is valid
    (never "no deal fits", N135: the record's own deal fits; where the search gives up,
    N136, a longer search finds a deal)."""
    file, line, text = case
    full = reading.mine if reading else read_record(text)
    if UNKNOWN in text or not full.hands:
        return []
    ref = reading.ref if reading else parse_record(text)
    names = [lab for lab, _ in full.hands[0].parts
             if lab not in ("dealer", "first", "stock", "turnup", "deck")]
    out = []
    for seat in names[:seats]:
        seen = write_record(view(ref, seat))
        mine = read_record(seen)
        where = f"{file}:{line}: view of {seat}"
        if mine.tag("Observer") != seat or mine.result != full.result:
            out.append(f"{where}: observer {mine.tag('Observer')}, result {mine.result}")
        for have, dealt in zip(mine.hands, full.hands, strict=True):
            for (label, cards), (label2, cards2) in zip(
                    sorted(have.parts), sorted(dealt.parts), strict=True):
                if label in ("stock", "turnup"):  # in drawing order: card by card
                    wrong = any(c not in (UNKNOWN, d) for c, d in zip(cards, cards2,
                                                                      strict=True))
                elif label == seat:  # a hand is a set of cards
                    wrong = sorted(cards) != sorted(cards2)
                else:
                    wrong = len(cards) != len(cards2) or bool(
                        Counter(c for c in cards if c != UNKNOWN) - Counter(cards2))
                if label != label2 or wrong:
                    out.append(f"{where}, hand {have.number}: {label}: {cards} for {cards2}")
            for (s1, a1), (s2, a2) in zip(have.actions(), dealt.actions(), strict=True):
                if s1 != s2 or (a1 != a2 and not a1.startswith("give:?")):
                    out.append(f"{where}, hand {have.number}: {s1}:{a1} for {s2}:{a2}")
            if [i.values for i in have.items if i.kind == "note"] != \
                    [i.values for i in dealt.items if i.kind == "note"]:
                out.append(f"{where}, hand {have.number}: the annotations differ")
        errors = check_text(seen).errors
        if [e.code for e in errors] == ["N136"]:  # the search gave up: longer, it finds it
            errors = check_text(seen, search_limit=200_000).errors
        if errors:
            out.append(f"{where}: refused: {errors[0]}")
        out += [f"{where}: {p}" for p in paths_agree(seen, errors)]
    return out


def test_the_views_of_a_sample_of_records() -> None:
    found = [p for case in SAMPLE[::3] for p in check_views(case, reading=sampled(case[2]))]
    assert found == [], "\n".join(found[:10])




# ------------------------------------------------------------------ options at their defaults
def _defaults() -> dict[str, dict[str, str]]:
    """Each ruleset's options and their default values, from the rulesets' own files
    (``spec/*.yaml``, data; a variant that extends another gives only its own)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted((Path(__file__).resolve().parent.parent / "spec").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        options = data.get("options") or {}
        out[data.get("ruleset") or path.stem] = {
            name: str(o["default"]).lower() if isinstance(o["default"], bool) else
            str(o["default"]) for name, o in options.items()
            if isinstance(o, dict) and "default" in o}
    return out


def check_defaults(case: tuple[str, int, str], defaults: dict[str, dict[str, str]]
                   ) -> list[str]:
    """"A reader accepts defaults too": the record with ``[Option]`` tags at their
    default values, all at once, is the same game."""
    file, line, text = case
    reading = sampled(text)
    rec = reading.mine
    given = {v[0] for v in rec.all_tags("Option") if v}
    extra = [f'[Option "{n}" "{v}"]' for n, v in
             defaults.get(rec.tag("Ruleset") or "", {}).items() if n not in given]
    if not extra:
        return []
    rows = text.split("\n")
    at = next(i for i, row in enumerate(rows) if row.startswith("[Ruleset"))
    changed = "\n".join([*rows[:at + 1], *extra, *rows[at + 1:]])
    errors = check_text(changed).errors
    if errors or paths_agree(changed, errors):
        return [f"{file}:{line}: with every default option: {errors[:1]}"
                f"{paths_agree(changed, errors)}"]
    if _game(replayed(changed)) != reading.game:
        return [f"{file}:{line}: with every default option, another game"]
    return []


def test_options_at_their_defaults_change_nothing() -> None:
    defaults = _defaults()
    assert sum(map(len, defaults.values())) > 100
    found = [p for case in SAMPLE[::2] for p in check_defaults(case, defaults)]
    assert found == [], "\n".join(found[:10])


# ------------------------------------------------------------------ records of later hands
#: Rulesets that carry nothing from hand to hand but the score (none of the docs'
#: ``[StartState]`` fields: no barrel, bolts, concessions, litige, draw bonus, golden hands).
SCORE_ONLY = ("marianna", "marianna-2", "marianna-3", "marianna-siciliana", "mariglia",
              "mariazza", "mariaggia", "marjapussi", "schnapsen", "cinquecento",
              "cinquecento-siciliana")


def _cut_score(rec: Record, text: str) -> tuple[str, ...] | None:
    """The match score after hand 1 where the record can be cut at hand 2, else None."""
    if rec.tag("Ruleset") not in SCORE_ONLY or len(rec.hands) < 2 or UNKNOWN in text \
            or rec.tag("StartHand"):
        return None
    match = [i.values[1:] for i in rec.hands[0].items if i.kind == "note"
             and i.values[:1] == ("match",)]
    return match[-1] if match else None


def check_later(case: tuple[str, int, str], reading: Reading | None = None) -> list[str]:
    """A record cut at hand 2 as the docs say (``[StartHand "2"]``, ``[StartScore]`` from
    hand 1's ``(match ...)``, ``[Dealer]`` naming hand 2's dealer): valid, and its hands
    are the whole match's hands 2, 3... with the same result."""
    file, line, text = case
    rec = reading.mine if reading else read_record(text)
    match = _cut_score(rec, text)
    if match is None:
        return []
    rows = text.split("\n")
    two = rec.hands[1]
    dealer = two.part("dealer")
    cut = "\n".join([
        *(r for r in rows[:rec.hands[0].line - 1] if r.startswith("[")
          and not r.startswith("[Dealer")),
        *([f'[Dealer "{dealer[0]}"]'] if dealer else []), '[StartHand "2"]',
        "[StartScore " + " ".join(f'"{v}"' for v in match) + "]", "",
        *rows[two.line - 1:]])
    errors = check_text(cut).errors
    if errors or paths_agree(cut, errors):
        return [f"{file}:{line}: cut at hand 2: {errors[:1]}{paths_agree(cut, errors)}"]
    whole = reading.game if reading else _game(replayed(text))
    late = _game(replayed(cut))
    if late != [whole[0][1:], whole[1]]:
        return [f"{file}:{line}: cut at hand 2: another game"]
    return []


def test_records_of_later_hands() -> None:
    found = [p for case in SAMPLE for p in check_later(case, sampled(case[2]))]
    assert found == [], "\n".join(found[:10])
    assert sum(_cut_score(read_record(t), t) is not None for _, _, t in SAMPLE) >= 10




def test_the_replay_command_reports_what_the_comparison_reads(tmp_path: Path) -> None:
    """``mariage replay --format json`` (a process of its own) says what :func:`replayed`
    says, which the comparison reads: a whole match, and a hand ended at its deal."""
    for case in [("marianna", base("marianna")), ("bonus", next(
            t for f, _, t in SHIPPED if f.endswith("score/turn-up-bonus-wins.test")))]:
        path = tmp_path / f"{case[0]}.mrg"
        path.write_text(case[1], encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "mariage", "replay", str(path),
                              "--format", "json"], capture_output=True, text=True,
                             timeout=120, check=False)
        assert run.returncode == 0, run.stderr
        said = json.loads(run.stdout)
        assert _game(said) == _game(replayed(case[1]))
        assert compare(read_record(case[1]), said) == []
