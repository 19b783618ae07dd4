"""The pages walked by two outside readers (forty-fourth session): a researcher going
from ``pip install '.[ai]'`` to a trained agent in ``mariage match`` by ``docs/ai.rst``,
and a newcomer's first hour (README, ``docs/basics.rst``, a record validated with a
mistake in it). What they read must be what the code does."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from mariage import list_rulesets, load_rules
from mariage.notation.errors import NotationError
from mariage.notation.reader import parse_record

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _flat(path: Path) -> str:
    """A page's text with every run of blanks and line ends one space."""
    return " ".join(path.read_text(encoding="utf-8").split())


# ----------------------------------------------------------------- the newcomer

_RECORD = """[Mariage "1"]
[Ruleset "marianna"]
[Seat "N" "greedy"]
[Seat "W" "greedy"]
[Seat "S" "greedy"]
[Seat "E" "greedy"]
[Dealer "W"]
[Seed "3"]

hand 1
deal dealer: W
N: JH 3D 6D 4C QS
W: 7H 6H 4H QC 2C
S: AD KD 5D AS 7S
E: AH AC 7C JS 5S
stock: JD 2D 2H 6C 4S KS QD 7D QH 3C 2S 4D KH JC 6S 5H KC 3S 5C 3H
1. S:AD E:5S N:JH W:2C (won S)
2. S:AS E:2D N:2H W:4H (won S)
3. S:4S E:JS N:QS W:6H (won N)

result *
"""


def _syntax_error(text: str) -> str:
    with pytest.raises(NotationError) as caught:
        parse_record(text, file="m.txt")
    return str(caught.value.error)


@pytest.mark.parametrize(("mistake", "where", "says"), [
    # a move without its colon, in the middle of a hand's play
    (("W:6H", "W6H"), "m.txt:19:19: N110",
     "unexpected 'W6H' (expected a move like N:AH, an annotation like (won N), 'hand N' or "
     "'result TEAM REASON')"),
    (("(won N)", "won N"), "m.txt:19:24: N110", "(expected a move like N:AH, an annotation"),
    # a move before any hand
    (('[Seed "3"]', '[Seed "3"]\nN:AH'), "m.txt:9:1: N110",
     "(expected a tag [Name \"value\"], a comment {...}, 'hand N' or 'result TEAM REASON')"),
    # words after the result
    (("result *", "result * now"), "m.txt:21:10: N110",
     "unexpected 'now' (expected the end of the record)"),
    # a hand without its number: ``deal`` read as the number, the deal's lines as one token
    (("hand 1", "hand"), "m.txt:11:6: N110", "unexpected 'dealer: W' (expected 'deal')"),
])
def test_a_syntax_error_says_what_may_come_there_as_a_record_writes_it(
        mistake: tuple[str, str], where: str, says: str) -> None:
    """A newcomer who breaks a record by hand is told what may come at that place in
    the notation's own words (it was the grammar's: ``expected HAND, RESULT``), and a
    token that spans lines (a deal read where ``deal`` was due) by its first line (it
    was the whole deal, ``\\n`` and all)."""
    message = _syntax_error(_RECORD.replace(*mistake, 1))
    assert message.startswith(where), message
    assert says in message, message
    assert not re.search(r"\b(HAND|RESULT|PLAY|DEAL|TAG|COMMENT|WORD|STAR)\b|END-OF-FILE|\\n",
                         message), message


def test_the_record_without_the_mistake_is_sound() -> None:
    assert parse_record(_RECORD, file="m.txt").hands[0].number == 1


_ITALIAN = {"marianna", "marianna-2", "marianna-3", "marianna-siciliana", "cinquecento",
            "cinquecento-siciliana", "mariglia", "mariaggia", "mariazza"}
_BELOTE = {"belote", "belote-coinche", "belote-contree"}
_THOUSAND = {"thousand", "thousand-2", "thousand-4", "thousand-pl"}


def test_the_basics_page_tells_the_seats_packs_and_directions_the_rules_have() -> None:
    """``docs/basics.rst`` is the first page a newcomer reads; what it says of every
    game's seats, pack, direction of play, free play and who sits out is what the
    rulesets are."""
    page = _flat(DOCS / "basics.rst")
    rules = {name: load_rules(name) for name in list_rulesets()}
    assert set(rules) == _ITALIAN | _BELOTE | _THOUSAND | {
        "marjapussi", "marjapussi-de", "schnapsen", "sixty-six", "sixty-six-3", "sixty-six-4"}

    for said in ("(``N``, ``W``, ``S``, ``E`` for four players, ``A`` and ``B`` for two; "
                 "Marianna for three uses ``N W S``, Sixty-six for three and the Thousand "
                 "family ``A B C``, Thousand for four ``A B C D``)",
                 "In the Italian games and Belote play passes to the right (anticlockwise: "
                 "N, W, S, E); in Marjapussi and Sixty-six for four it passes to the left "
                 "(clockwise: N, E, S, W).",
                 "The Italian games use a 40-card pack (39 in Marianna for three, which "
                 "takes out the two of spades), Marjapussi 36 (or 32 or 28 by option), "
                 "Belote and Sixty-six for four 32, Sixty-six and the Thousand family 24, "
                 "Schnapsen 20",
                 "any card, always (the Marianna games, Cinquecento and Mariazza), or while "
                 "the stock lasts (Mariaggia, Schnapsen, Sixty-six and Sixty-six for three)",
                 "Thousand for four is the exception: the dealer sits each hand out",
                 "(in Sixty-six for three the dealer sits out too)"):
        assert said in page, said

    special = {"marianna-3": ("N", "W", "S"), "sixty-six-3": ("A", "B", "C"),
               "thousand": ("A", "B", "C"), "thousand-pl": ("A", "B", "C"),
               "thousand-4": ("A", "B", "C", "D")}
    for name, r in rules.items():
        want = special.get(name) or {2: ("A", "B"), 4: ("N", "W", "S", "E")}[r.nseats]
        assert tuple(sorted(r.seat_names)) == tuple(sorted(want)), name
    for name in _ITALIAN | _BELOTE:
        if rules[name].nseats == 4:
            assert rules[name].direction == "anticlockwise", name
            assert rules[name].seat_names == ("N", "W", "S", "E"), name
    for name in ("marjapussi", "marjapussi-de", "sixty-six-4"):
        assert rules[name].direction == "clockwise", name
        assert rules[name].seat_names == ("N", "E", "S", "W"), name

    packs = {name: 40 for name in _ITALIAN} | {name: 24 for name in _THOUSAND} | {
        name: 32 for name in _BELOTE} | {"marianna-3": 39, "marjapussi": 36,
                                         "marjapussi-de": 36, "sixty-six-4": 32,
                                         "sixty-six": 24, "sixty-six-3": 24, "schnapsen": 20}
    assert {name: r.ncards for name, r in rules.items()} == packs
    assert "2S" not in rules["marianna-3"].card_code and "2S" in rules["marianna"].card_code
    assert {load_rules("marjapussi", {"pack_size": size}).ncards for size in (32, 28)} == \
        {32, 28}

    always = {name for name, r in rules.items()
              if r.obligation_stock.free_rule and r.obligation_no_stock.free_rule}
    while_stock = {name for name, r in rules.items()
                   if r.obligation_stock.free_rule and not r.obligation_no_stock.free_rule}
    assert always == {"marianna", "marianna-2", "marianna-3", "marianna-siciliana",
                      "cinquecento", "cinquecento-siciliana", "mariazza"}
    assert while_stock == {"mariaggia", "schnapsen", "sixty-six", "sixty-six-3"}
    assert {name for name, r in rules.items() if r.sits_out == "dealer"} == \
        {"thousand-4", "sixty-six-3"}


# --------------------------------------------------------------- the researcher

AI_RST = DOCS / "ai.rst"


def test_the_gymnasium_spaces_are_those_the_page_gives() -> None:
    """A researcher from Gymnasium looks first for the spaces: the page gives them, for
    Schnapsen, and the ids without their module once the module is imported."""
    import gymnasium  # (the test extra brings the ai extra: never skipped)
    import numpy as np

    page = _flat(AI_RST)
    said = re.search(r"``env.observation_space`` is a ``Dict`` of ``observation``, a ``Box`` "
                     r"of float32 as long as the ruleset's layout \((\d+) values in "
                     r"Schnapsen: below\), and ``action_mask``, a ``Box\(0, 1\)`` of int8 "
                     r"with a value per action id; ``env.action_space`` is ``Discrete`` over "
                     r"the same ids \((\d+) in Schnapsen\)", page)
    assert said is not None
    values, ids = int(said.group(1)), int(said.group(2))
    import mariage.ai.gym_env  # noqa: F401  (registers mariage/<ruleset>-v0)

    env = gymnasium.make("mariage/schnapsen-v0")
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert set(space.spaces) == {"observation", "action_mask"}
    observation, mask = space["observation"], space["action_mask"]
    assert isinstance(observation, gymnasium.spaces.Box)
    assert isinstance(mask, gymnasium.spaces.Box)
    assert observation.shape == (values,) and observation.dtype == np.float32
    assert mask.shape == (ids,) and mask.dtype == np.int8
    assert (mask.low == 0).all() and (mask.high == 1).all()
    assert env.action_space == gymnasium.spaces.Discrete(ids)
    env.close()
    listed = [i for i in gymnasium.registry if i.startswith("mariage/")]
    assert sorted(listed) == sorted(f"mariage/{name}-v0" for name in list_rulesets())
    assert '``[i for i in gymnasium.registry if i.startswith("mariage/")]`` lists them' in page


def test_pettingzoo_api_test_passes_with_the_warnings_the_page_names() -> None:
    """A researcher from PettingZoo runs its ``api_test`` first: it passes, and warns
    only of what the page says (the dict observation, the seats' names); the factory
    ``env`` and the absence of a parallel API are on the page."""
    from mariage.ai import pettingzoo_env
    from pettingzoo.test import api_test

    page = _flat(AI_RST)
    assert '``pettingzoo_env.env("marianna", ...)`` makes the same environment' in page
    assert "PettingZoo's ``pettingzoo.test.api_test`` passes it" in page
    assert "the observation and its space are a dict holding the action mask" in page
    assert "the agents are the seats' names, not ``player_0``" in page
    assert '(``env.metadata["is_parallelizable"]`` is false)' in page
    assert "print(returns)                            # one entry per seat: N, W, S, E" in \
        AI_RST.read_text(encoding="utf-8")
    assert pettingzoo_env.MariageEnv("marianna").possible_agents == ["N", "W", "S", "E"]

    env = pettingzoo_env.env("schnapsen")
    assert isinstance(env, pettingzoo_env.MariageEnv)
    assert env.metadata["is_parallelizable"] is False
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=200)
    said = {str(w.message) for w in caught}
    expected = re.compile(r"Observation space for each agent probably should be|"
                          r"We recommend agents to be named|Observation is not a NumPy array")
    assert said and all(expected.match(message) for message in said), said


def _script_commands() -> list[tuple[str, int, str, str]]:
    """(page, line, script, the rest of its line) of every ``python SCRIPT.py ...`` the
    pages show of a script of the repository (shell continuations joined)."""
    found = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.rst"))]:
        text = re.sub(r"\\\n\s*", " ", page.read_text(encoding="utf-8"))
        for m in re.finditer(r"python3? ((?:benchmarks|docs/examples)/[\w./-]+\.py)"
                             r"([^\n`]*)", text):
            found.append((page.name, text[:m.start()].count("\n") + 1, m.group(1),
                          m.group(2)))
    return found


def test_the_scripts_the_pages_run_take_the_options_they_give_them() -> None:
    """Every ``python benchmarks/X.py ...`` or ``python docs/examples/X.py ...`` a page
    shows names a script that exists and options its ``--help`` lists (the checks of
    ``mariage`` commands in ``test_docs42`` leave these out)."""
    shown = _script_commands()
    assert {script for _, _, script, _ in shown} >= {
        "benchmarks/bench_ai.py", "docs/examples/train_schnapsen.py",
        "docs/examples/evaluate_agent.py"}
    helps: dict[str, str] = {}
    wrong = []
    for page, line, script, rest in shown:
        if not (ROOT / script).is_file():
            wrong.append(f"{page}:{line}: no {script}")
            continue
        if script not in helps:
            done = subprocess.run([sys.executable, str(ROOT / script), "--help"], cwd=ROOT,
                                  capture_output=True, text=True, timeout=120, check=False)
            assert done.returncode == 0, (script, done.stderr[-2000:])
            helps[script] = done.stdout
        wrong += [f"{page}:{line}: {script} has no {flag}"
                  for flag in re.findall(r"(?<![\w-])(--[A-Za-z][\w-]*)", rest)
                  if not re.search(rf"(?<![\w-]){re.escape(flag)}(?![\w-])", helps[script])]
    assert wrong == []


def test_a_person_with_one_choice_is_asked_for_1_not_1_to_1(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The newcomer's first game, ``mariage play schnapsen --human A``: where the rules
    leave one card to play (following suit once the stock is gone), the prompt says
    ``choose 1``; it said ``choose 1-1``."""
    import io

    from mariage.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "schnapsen", "--seed", "1", "--human", "A"]) == 0
    out = capsys.readouterr().out
    one = re.findall(r"\n   1\) \S+\nchoose (\S+) or type an action", out)
    assert one and set(one) == {"1"}, out[-3000:]
    assert "choose 1-1 " not in out and "choose 1-2 or type an action" in out


def _block_with(marker: str) -> str:
    """The Python block of ``docs/ai.rst`` that holds ``marker``, dedented."""
    import textwrap

    text = AI_RST.read_text(encoding="utf-8")
    for m in re.finditer(r"^( *)\.\. code-block:: python\n\n((?:\1   .*\n|\n)+)", text,
                         re.MULTILINE):
        if marker in m.group(2):
            return textwrap.dedent(m.group(2))
    raise AssertionError(f"no Python block of ai.rst holds {marker!r}")


def test_the_evaluation_block_prints_what_its_comments_say() -> None:
    """The Baselines section shows how ``evaluate`` is called (the page named it and
    left its arguments to be guessed: a researcher passed the rules, which it refuses),
    and what the call gives."""
    import contextlib
    import io

    code = _block_with("evaluate(")
    printed = io.StringIO()
    scope: dict[str, object] = {}
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(AI_RST), "exec"), scope)
    said = re.search(r"print\(.*\)\s+# (.*)\n", code)
    assert said is not None
    assert printed.getvalue().split() == said.group(1).split()
    bounds = re.search(r"= result\.interval\(\)\s+# ([\d.]+), ([\d.]+)\n", code)
    assert bounds is not None
    low, high = scope["low"], scope["high"]
    assert isinstance(low, float) and isinstance(high, float)
    assert (f"{low:.2f}", f"{high:.2f}") == bounds.groups()


def test_the_layout_block_prints_the_first_row_its_comment_shows() -> None:
    """The layout tables are made only when the pages are built: a researcher reading
    the page as text is shown how to print them, and the first row the comment gives is
    the one printed."""
    import contextlib
    import io

    page = _flat(AI_RST)
    assert "The tables of this page are made when it is built (``sphinx-build``, with " \
        "the ``docs`` extra); read as text, the page shows none." in page
    code = _block_with("observation_features(rules)")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(AI_RST), "exec"), {})
    said = re.search(r"print\(row\.offset.*\)\s+# (.*)\n", code)
    assert said is not None
    lines = printed.getvalue().splitlines()
    assert lines[0] == said.group(1)
    rules = load_rules("schnapsen")
    from mariage.ai.encoding import Encoder

    last = lines[-1].split()
    assert int(last[0]) + int(last[1]) == Encoder(rules).size


def test_the_gymnasium_opponents_are_names_as_the_page_says() -> None:
    """A researcher who wants self-play through Gymnasium finds on the page that its
    opponents are policies by name, and where to go instead (PettingZoo)."""
    from mariage.ai.gym_env import MariageGymEnv

    assert "``opponents`` (one policy name, or one per other seat; default ``greedy``; " \
        "names only: to train against an agent of your own, a frozen copy of the learner " \
        "or itself, step every seat in the PettingZoo environment below)" in _flat(AI_RST)

    class Mine:
        def choose(self, state: object) -> object:
            raise AssertionError("never asked")

    with pytest.raises(ValueError, match="unknown policy"):
        MariageGymEnv("schnapsen", opponents=[Mine()])  # type: ignore[list-item]


def test_the_quickstart_says_where_to_run_it_and_which_python() -> None:
    """A newcomer on Debian or Ubuntu whose first ``pip install .`` is refused
    (``externally-managed-environment``) finds the virtual environment the Quickstart
    runs in; the Python it names is the one the package requires, as the install page
    says too."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    least = re.fullmatch(r">=(\d+\.\d+)", project["requires-python"])
    assert least is not None
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quickstart = " ".join(readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0].split())
    assert f"with Python {least.group(1)} or later, in a virtual environment " \
        "(`python3 -m venv .venv && . .venv/bin/activate` first" in quickstart
    assert "`externally-managed-environment`" in quickstart
    assert f"``mariage`` needs Python {least.group(1)} or later." in _flat(DOCS / "install.rst")
