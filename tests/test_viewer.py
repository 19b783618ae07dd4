"""The record viewer: ``mariage render`` (HTML page and SVG), its timeline, and the page
itself in a real headless browser at a phone's and a desktop's width."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from browserkit import Browser
from mariage.cli import main
from mariage.notation.reader import parse_record
from mariage.viewer import timeline
from mariage.viewer.draw import render_html, render_svg

DATA = Path(__file__).parent / "data" / "records"
GOOD = DATA / "good"
BAD = DATA / "bad"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def page_data(page: str) -> dict[str, object]:
    m = re.search(r'<script type="application/json" id="record-data">(.*?)</script>', page,
                  re.S)
    assert m is not None
    data: dict[str, object] = json.loads(m.group(1))
    return data


# ------------------------------------------------------------------ timeline
@pytest.mark.parametrize("name", ["marianna", "mariazza", "marjapussi", "cinquecento"])
def test_timeline_has_a_step_per_deal_and_action_and_cards_are_conserved(name: str) -> None:
    rec = parse_record((GOOD / f"{name}.mrg").read_text(), file=f"{name}.mrg")
    tl = timeline(rec)
    assert tl.ok and tl.result.split()[1] == "wins"
    acts = sum(1 for h in rec.hands for i in h.items if type(i).__name__ == "Act")
    assert len(tl.steps) == 1 + len(rec.hands) + acts
    assert [s.kind for s in tl.steps].count("deal") == len(rec.hands)
    for s in tl.steps[1:]:
        held = [c for cards in s.hands.values() for c in cards]
        assert len(held) == len(set(held))
        if s.kind == "play" and s.winner is None:  # the card just played is on the table
            assert s.table[-1] == (s.seat, s.action)
            assert s.action not in s.hands[s.seat or ""]
    ends = [s for s in tl.steps if s.hand_end is not None]
    assert len(ends) == len(rec.hands)


def test_timeline_keeps_declarations_in_order_and_notes_with_their_action() -> None:
    rec = parse_record((GOOD / "marianna.mrg").read_text())
    tl = timeline(rec)
    decl = next(s for s in tl.steps if s.action == "marianna:S")
    assert decl.seat == "E" and decl.kind == "declare" and decl.trump == "S"
    assert [(d.seat, d.name, d.suit) for d in decl.declarations] == [("E", "marianna", "S")]
    assert decl.notes == ["(trump S)"]
    assert [c for _, c in decl.table] == ["3C", "6H", "5H"]  # made after three cards


def test_a_seat_view_draws_only_what_that_seat_knew() -> None:
    rec = parse_record((GOOD / "marianna-view-S.mrg").read_text())
    tl = timeline(rec)
    assert tl.ok and tl.observer == "S"
    deal = tl.steps[1]
    assert deal.hands["S"] == ["KD", "4D", "JC", "AS", "7S"]
    assert all(deal.hands[s] == ["??"] * 5 for s in "NWE")
    for step in tl.steps[2:]:  # a card shows once it is played, never before
        for seat, cards in step.hands.items():
            if seat != "S":
                assert set(cards) == {"??"} or not cards
        if step.kind == "play":
            assert step.table[-1] == (step.seat, step.action) or step.winner


@pytest.mark.parametrize("bad", ["card-not-in-hand", "wrong-trick-winner", "must-follow",
                                 "wrong-points", "unknown-option"])
def test_every_problem_shows_at_the_step_where_it_occurs(bad: str) -> None:
    text = (BAD / f"{bad}.mrg").read_text()
    tl = timeline(parse_record(text))
    placed = [e for s in tl.steps for e in s.errors]
    assert placed == tl.errors and tl.errors
    for i, s in enumerate(tl.steps):
        for e in s.errors:
            assert s.line <= e.line or e.line == 0
            later = tl.steps[i + 1:]
            assert not later or later[0].line >= e.line or e.line == 0


# --------------------------------------------------------------- the command
def test_render_html_is_one_self_contained_page(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.html"
    code, stdout, err = run(capsys, "render", str(GOOD / "marianna.mrg"), "--html", str(out))
    assert (code, err) == (0, "") and stdout.strip() == str(out)
    page = out.read_text()
    assert not re.search(r'\b(src|href)="(?!#)', page)  # nothing is fetched (links in-page)
    assert re.search(r'\bhref="#hand=1"', page)
    assert "https://" not in page and "http://" not in page
    assert "default-src 'none'" in page
    data = page_data(page)
    assert data["ok"] is True and data["seats"] == ["N", "W", "S", "E"]
    assert not list(tmp_path.glob(".mariage-*"))


def test_render_escapes_what_the_record_says(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    text = (GOOD / "mariazza.mrg").read_text().replace(
        '[Seat "A" "greedy"]', '[Seat "A" "</script><b>x</b>"]')
    src = tmp_path / "r.mrg"
    src.write_text(text)
    out = tmp_path / "r.html"
    code, _, _ = run(capsys, "render", str(src), "--html", str(out))
    assert code == 0
    page = out.read_text()
    assert page.count("</script>") == 2 and "<b>x</b>" not in page
    assert page_data(page)["players"] == {"A": "</script><b>x</b>", "B": "greedy"}


def test_render_a_file_of_records_writes_one_page_each(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    src = tmp_path / "two.mrg"
    src.write_text((GOOD / "mariazza.mrg").read_text() + "\n"
                   + (GOOD / "mariglia.mrg").read_text())
    code, stdout, _ = run(capsys, "render", str(src), "--html", str(tmp_path / "p.html"))
    assert code == 0
    assert stdout.split() == [str(tmp_path / "p-1.html"), str(tmp_path / "p-2.html")]
    assert page_data((tmp_path / "p-2.html").read_text())["ruleset"] == "mariglia"
    code, stdout, _ = run(capsys, "render", str(src), "--html", str(tmp_path / "q.html"),
                          "--record", "2")
    assert code == 0 and stdout.split() == [str(tmp_path / "q.html")]


def test_a_bad_record_is_drawn_with_its_problems_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.html"
    code, _, _ = run(capsys, "render", str(BAD / "must-follow.mrg"), "--html", str(out))
    assert code == 1
    data = page_data(out.read_text())
    codes = [e["code"] for s in data["steps"] for e in s["errors"]]  # type: ignore[attr-defined]
    # the refused card is applied anyway (lenient), so mismatches it causes later follow it
    assert codes[0] == "N141"


@pytest.mark.parametrize("argv, message", [
    (["--html", "{d}/no/such/dir/x.html"], "No such file or directory"),
    (["--svg", "{d}/x.svg"], "--svg needs --hand"),
    (["--svg", "{d}/x.svg", "--hand", "9"], "mariazza.mrg, record 1: the record has no hand 9"),
    (["--svg", "{d}/x.svg", "--hand", "1", "--trick", "40"],
     "mariazza.mrg, record 1: hand 1 has no trick 40"),
    (["--html", "{d}/x.html", "--record", "5"], "has no record 5"),
])
def test_usage_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   argv: list[str], message: str) -> None:
    args = [a.format(d=tmp_path) for a in argv]
    code, _, err = run(capsys, "render", str(GOOD / "mariazza.mrg"), *args)
    assert code == 2 and message in err and err.count("\n") == 1
    assert not list(tmp_path.rglob("x.*")) and not list(tmp_path.glob(".mariage-*"))


def test_a_syntax_error_is_one_line_without_traceback(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "mariage", "render",
                           str(BAD / "syntax-error.mrg"), "--html", str(tmp_path / "s.html")],
                          capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "N110" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "s.html").exists()


def test_svg_of_a_trick_and_of_a_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    out = tmp_path / "t.svg"
    code, _, _ = run(capsys, "render", str(GOOD / "marianna.mrg"), "--svg", str(out),
                     "--hand", "1", "--trick", "5")
    assert code == 0
    svg = out.read_text()
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    titles = [t.text for t in root.iter(f"{ns}title")]
    assert titles[1:] == ["3C", "6H", "5H", "QS"]  # the trick, in order of play
    assert ">E wins<" in svg
    out2 = tmp_path / "d.svg"
    code, _, _ = run(capsys, "render", str(GOOD / "marianna.mrg"), "--svg", str(out2),
                     "--hand", "2")
    root = ET.fromstring(out2.read_text())
    assert code == 0 and len(root.findall(f"{ns}g")) == 20  # 4 hands of 5


def test_render_svg_and_html_functions_agree_with_the_timeline() -> None:
    tl = timeline(parse_record((GOOD / "mariazza.mrg").read_text()))
    svg = render_svg(tl, 1, 8)
    assert ">B wins<" in svg and "AH" in svg and "4S" in svg
    assert page_data(render_html(tl))["result"] == tl.result


# ------------------------------------------------------------- the browser
@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("pages")
    out = {}
    for name, src in (("good", GOOD / "marianna.mrg"), ("bad", BAD / "must-follow.mrg"),
                      ("two", GOOD / "mariazza.mrg"), ("header", BAD / "unknown-ruleset.mrg")):
        tl = timeline(parse_record(src.read_text(), file=str(src)))
        path = d / f"{name}.html"
        path.write_text(render_html(tl, src.read_text()))
        out[name] = path
    return out


STATE = "[Number(document.body.dataset.step), document.querySelector('#what').textContent]"


@pytest.mark.parametrize("width", [412, 1280])
def test_the_page_steps_through_the_match_in_a_browser(browser: Browser, pages: dict[str, Path],
                                                       width: int) -> None:
    page = browser.page(width)
    page.open(pages["good"])
    assert page.eval("document.body.dataset.ready") == "1"
    steps = page.eval("JSON.parse(document.getElementById('record-data').textContent)"
                      ".steps.length")
    assert page.eval(STATE) == [0, "Before the first deal"]
    page.key("ArrowRight")
    assert page.eval(STATE) == [1, "Hand 1: the deal (dealer W)"]
    assert page.eval("document.querySelectorAll('#table .hand .card').length") == 20
    page.key("ArrowRight")
    assert page.eval(STATE) == [2, "S (greedy) plays A\u2660"]
    assert page.eval("document.querySelectorAll('#table .center .card').length") == 1
    page.key("ArrowDown")  # to the end of the trick
    assert page.eval(STATE) == [5, "W (greedy) plays 6\u2663"]
    assert page.eval("[document.querySelector('#table .center .winner > span:last-child')"
                     ".textContent, document.querySelector('#table .center .winner .card')"
                     ".getAttribute('aria-label')]") == ["S wins", "ace of spades"]
    page.key("ArrowDown")
    assert page.eval(STATE)[0] == 9
    page.key("ArrowUp")
    assert page.eval(STATE)[0] == 5
    page.key("PageDown")
    assert page.eval(STATE)[1].startswith("Hand 2: the deal")
    page.key("PageUp")
    assert page.eval(STATE)[0] == 1
    page.key("End")
    assert page.eval(STATE)[0] == steps - 1
    assert page.eval("scrollY") == 0  # stepping never scrolls the page itself
    assert page.eval("(function(){var b = document.getElementById('moves'),"
                     " c = b.querySelector('button.current').getBoundingClientRect(),"
                     " r = b.getBoundingClientRect(); return c.top >= r.top &&"
                     " c.bottom <= r.bottom})()")  # but the current move is in view
    assert "is over" in page.eval("document.querySelector('.hand-end h2').textContent")
    page.key("ArrowLeft")
    assert page.eval(STATE)[0] == steps - 2
    page.key("Home")
    assert page.eval(STATE)[0] == 0
    page.eval("document.querySelector('#moves button[data-step=\"7\"]').click()")
    assert page.eval(STATE)[0] == 7
    # the table from another seat: W at the bottom; others' cards face down
    page.eval("var s = document.getElementById('view'); s.value = 'W';"
              "s.dispatchEvent(new Event('change'))")
    assert page.eval("document.querySelector('.slot-bottom .seat-name').textContent"
                     ).startswith("W")
    page.eval("var c = document.getElementById('showall'); c.checked = false;"
              "c.dispatchEvent(new Event('change'))")
    assert page.eval("document.querySelectorAll('.slot-bottom .card.back').length") == 0
    assert page.eval("document.querySelectorAll('.slot-top .card.back').length") > 0
    # nothing wider than the screen, nothing fetched, no console errors
    assert page.eval("document.documentElement.scrollWidth <= "
                     "document.documentElement.clientWidth")
    assert page.problems == []


@pytest.mark.parametrize("width", [412, 1280])
def test_the_page_opens_at_the_first_problem(browser: Browser, pages: dict[str, Path],
                                             width: int) -> None:
    page = browser.page(width)
    page.open(pages["bad"])
    text = page.eval("document.querySelector('.errors').textContent")
    assert "N141" in text and "must follow suit" in text
    assert page.eval("document.querySelector('#moves button.current').classList"
                     ".contains('has-error')")
    assert page.eval("document.documentElement.scrollWidth <= "
                     "document.documentElement.clientWidth")
    assert page.problems == []


def test_two_player_table_has_the_viewer_at_the_bottom(browser: Browser,
                                                       pages: dict[str, Path]) -> None:
    page = browser.page(412)
    page.open(pages["two"])
    page.key("ArrowRight")
    assert page.eval("[document.querySelector('.slot-bottom .seat-name').textContent[0],"
                     "document.querySelector('.slot-top .seat-name').textContent[0]]"
                     ) == ["A", "B"]
    assert page.eval("document.querySelector('#table .mid .card') !== null")  # turned up
    assert page.problems == []


@pytest.mark.parametrize("width", [412, 1280])
def test_a_record_that_never_deals_still_shows_its_problem(browser: Browser,
                                                           pages: dict[str, Path],
                                                           width: int) -> None:
    page = browser.page(width)
    page.open(pages["header"])
    assert "N122" in page.eval("document.querySelector('.errors').textContent")
    for key in ("End", "Home", "PageDown", "PageUp", "ArrowDown", "ArrowUp", "ArrowRight"):
        page.key(key)
    assert page.eval("document.body.dataset.step") == "0"
    assert page.eval("document.querySelector('h1').textContent").endswith(
        "of unknown-ruleset.mrg")
    assert page.eval("document.documentElement.scrollWidth <= "
                     "document.documentElement.clientWidth")
    assert page.problems == []


def test_record_text_that_looks_like_the_template_stays_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page is filled in one pass over the template: a record that says ``@DATA@``,
    ``@JS@`` or ``</script><!--`` is shown as written and the page's data stays whole."""
    said = "{ look: @DATA@ @JS@ @CSS@ @RECORD@ @TITLE@ </script><!-- }"
    text = (GOOD / "mariazza.mrg").read_text().replace("hand 1\n", f"{said}\nhand 1\n", 1)
    src = tmp_path / "r.mrg"
    src.write_text(text)
    out = tmp_path / "r.html"
    code, _, err = run(capsys, "render", str(src), "--html", str(out))
    assert (code, err) == (0, "")
    page = out.read_text()
    data = page_data(page)
    assert data["ok"] is True
    assert any("@DATA@ @JS@" in c for s in data["steps"] for c in s["comments"])  # type: ignore[attr-defined]
    assert page.count("</script>") == 2 and page.count("<!--") == 0
    assert "@DATA@ @JS@ @CSS@ @RECORD@ @TITLE@ &lt;/script&gt;&lt;!--" in page
    script = page.rsplit("<script>", 1)[1]
    assert "function" in script and "@" not in script.split("</script>")[0].replace(
        "@media", "")


def test_without_a_browser_its_tests_skip_with_the_reason_or_fail_where_required(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from conftest import chromium_or_skip

    monkeypatch.delenv("MARIAGE_REQUIRE_BROWSER", raising=False)
    monkeypatch.delenv("MARIAGE_CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no browser on it
    with pytest.raises(pytest.skip.Exception, match=r"^no Chromium found: none of chromium, "):
        chromium_or_skip()
    monkeypatch.setenv("MARIAGE_CHROMIUM", str(tmp_path / "chromium"))
    with pytest.raises(pytest.skip.Exception, match="chromium is not an executable file"):
        chromium_or_skip()
    monkeypatch.setenv("MARIAGE_REQUIRE_BROWSER", "1")
    with pytest.raises(pytest.fail.Exception, match="MARIAGE_REQUIRE_BROWSER=1 needs one"):
        chromium_or_skip()
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.delenv("MARIAGE_CHROMIUM")
    assert chromium_or_skip() == str(fake)  # found on PATH


def test_the_match_chart_links_every_hand_and_lists_its_declarations() -> None:
    from mariage.viewer.chart import hand_scores

    tl = timeline(parse_record((GOOD / "marianna.mrg").read_text()))
    page = render_html(tl)
    start, hands = hand_scores(tl)
    ends = [s for s in tl.steps if s.hand_end is not None]
    assert [h.hand for h in hands] == [s.hand for s in ends] and start == [0, 0]
    assert [h.match for h in hands] == [s.match for s in ends]
    for h in hands:  # one link in the chart, one in the table
        assert page.count(f'href="#hand={h.hand}"') == 2
    made = [h for h in hands if h.declarations]
    assert made and any("marianna" in d.name for h in made for d in h.declarations)
    decl = made[0].declarations[0]
    assert f"{decl.seat} {decl.name} \u2660" in page or f"{decl.seat} {decl.name}" in page
    chart = page.split('<svg class="chart score-chart"', 1)[1].split("</svg>", 1)[0]
    assert chart.count("<polyline") == len(tl.teams)
    assert chart.count("<circle") == len(tl.teams) * len(hands)
    deals = [s for s in tl.steps if s.kind == "deal"]
    assert [h.dealer for h in hands] == [s.dealer for s in deals][:len(hands)]
    firsts = [next(s for s in tl.steps if s.hand == h.hand and s.kind == "play")
              for h in hands]
    assert [h.led for h in hands] == [s.seat for s in firsts]


@pytest.mark.parametrize("width", [412, 1280])
def test_a_hand_link_steps_to_that_hands_deal(browser: Browser, pages: dict[str, Path],
                                              width: int) -> None:
    page = browser.page(width)
    page.open(pages["good"])
    page.eval("new Promise(function (r) { location.hash = '#hand=2'; setTimeout(r, 100); })")
    assert page.eval(STATE)[1].startswith("Hand 2: the deal")
    page.eval("document.querySelector('table.hands a[data-hand=\"1\"]').click()")
    page.eval("new Promise(function (r) { setTimeout(r, 100); })")
    assert page.eval(STATE) == [1, "Hand 1: the deal (dealer W)"]
    assert page.eval("document.querySelectorAll('.score-chart a.hand-link').length") >= 2
    assert page.eval("document.documentElement.scrollWidth <= "
                     "document.documentElement.clientWidth")
    assert page.problems == []
