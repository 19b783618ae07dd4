"""``mariage stats``: totals of many records, checked against what each record's own replay
(the viewer's timeline) says, in text, JSON and an HTML page of charts; invalid records are
reported and left out; inputs read as ``validate`` reads them."""

from __future__ import annotations

import gzip
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from mariage import load_rules
from mariage.arena.bots import make_bot
from mariage.cli import main
from mariage.notation import record_match, write_record
from mariage.notation.reader import parse_record
from mariage.viewer import timeline
from mariage.viewer.chart import hand_scores

RULESETS = ("marianna", "marjapussi-de", "sixty-six-3")


def records(ruleset: str, seeds: range) -> list[str]:
    rules = load_rules(ruleset)
    return [write_record(record_match(rules, seed, [make_bot("random" if s % 2 else "greedy",
                                                             seed + s)
                                                    for s in range(rules.nseats)],
                                      players=[f"P{(seed + s) % 5}"
                                               for s in range(rules.nseats)]))
            for seed in seeds]


def expected(texts: list[str]) -> dict[str, object]:
    """What the totals of one ruleset must be, from each record's timeline."""
    tls = [timeline(parse_record(t)) for t in texts]
    rules = load_rules(tls[0].ruleset or "")
    points: Counter[str] = Counter()
    tricks: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    players: Counter[str] = Counter()
    for tl in tls:
        for step in tl.steps:
            if step.winner is not None:
                tricks[step.winner] += 1
                points[step.winner] += sum(rules.points[rules.card_index[c]]
                                           for _, c in step.table)
        for h in hand_scores(tl)[1]:
            kinds.update(d.name for d in h.declarations)
        wins[tl.result.split()[0]] += 1
        players.update(set(tl.players.values()))
    hands = sum(1 for tl in tls for s in tl.steps if s.kind == "deal")
    return {"matches": len(tls), "hands": hands, "tricks": sum(tricks.values()),
            "card_points": dict(points), "tricks_won": dict(tricks), "wins": dict(wins),
            "declarations": dict(kinds), "players": dict(players)}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, list[str]]]:
    d = tmp_path_factory.mktemp("stats")
    texts = {r: records(r, range(1, 4)) for r in RULESETS}
    (d / "a.mrg").write_text("\n".join(texts["marianna"] + texts["sixty-six-3"]))
    with gzip.open(d / "b.mrg.gz", "wt") as f:
        f.write("\n".join(texts["marjapussi-de"]))
    return d, texts


def test_totals_agree_with_every_records_replay(
        archive: tuple[Path, dict[str, list[str]]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, texts = archive
    assert main(["stats", str(folder), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["records"], out["invalid"]) == (9, 0)
    got = {r["ruleset"]: r for r in out["rulesets"]}
    assert set(got) == set(RULESETS)
    for name in RULESETS:
        want, have = expected(texts[name]), got[name]
        for key in ("matches", "hands", "tricks", "wins"):
            assert have[key] == want[key], (name, key)
        assert {s: n for s, n in have["card_points"].items() if n} == want["card_points"]
        assert {s: n for s, n in have["tricks_won"].items() if n} == want["tricks_won"]
        assert {k: v["count"] for k, v in have["declarations"].items()} == want["declarations"]
        assert {p: v["matches"] for p, v in have["players"].items()} == want["players"]
        assert sum(int(k) * n for k, n in have["match_lengths"].items()) == have["hands"]
        assert have["tricks_per_hand"] == round(have["tricks"] / have["hands"], 2)
    assert got["marjapussi-de"]["declarations"].get("pair", {}).get("count", 0) > 0


def test_text_and_stdin_and_an_invalid_record(
        archive: tuple[Path, dict[str, list[str]]], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, texts = archive
    good = texts["sixty-six-3"][0]
    bad = re.sub(r"^(\d+)\. (\w+):(\w\w)", r"\1. \2:XX", good, count=1, flags=re.M)
    assert bad != good  # the first card of the first trick is no card
    data = (good + "\n" + bad).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["stats", "-"]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "<stdin>" in err and "record 2" in err
    assert out.startswith("2 records, 1 valid, 1 invalid")
    assert "sixty-six-3: 1 matches (1 finished)" in out


def test_the_html_page_has_the_charts_and_loads_nothing(
        archive: tuple[Path, dict[str, list[str]]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = archive
    page_file = folder.parent / "stats.html"
    assert main(["stats", str(folder), "--format", "html", "--out", str(page_file)]) == 0
    assert capsys.readouterr().out.strip() == str(page_file)
    page = page_file.read_text()
    assert "http://" not in page and "https://" not in page and "<script" not in page
    assert not re.search(r"\b(src|href)=", page) and "default-src 'none'" in page
    sections = re.findall(r'<section id="([\w-]+)">(.*?)</section>', page, re.S)
    assert [s for s, _ in sections] == sorted(RULESETS)
    for _, body in sections:
        assert body.count('<svg class="chart bar-chart"') == 6
        assert "declarations by kind" in body and "card points a hand by seat" in body


def test_usage_errors_come_before_any_work(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(tmp_path / "none.mrg")]) == 2
    assert "none.mrg: No such file or directory" in capsys.readouterr().err
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "elsewhere.html")
    assert main(["stats", str(tmp_path / "none.mrg"), "--out", str(link)]) == 2
    err = capsys.readouterr().err
    assert "link.html" in err and "symbolic link" in err and err.count("\n") == 1
