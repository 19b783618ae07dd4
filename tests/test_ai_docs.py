"""Every Python block of ``docs/ai.rst`` runs as written (a researcher follows them
literally), and the names the page gives exist."""

from __future__ import annotations

import contextlib
import io
import re
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel (the ai extra) is not installed")
pytest.importorskip("gymnasium", reason="Gymnasium (the ai extra) is not installed")

AI_RST = Path(__file__).resolve().parent.parent / "docs" / "ai.rst"


def python_blocks() -> list[tuple[int, str]]:
    """(line, code) of each ``.. code-block:: python`` of the page, dedented."""
    text = AI_RST.read_text(encoding="utf-8")
    blocks = []
    for m in re.finditer(r"^( *)\.\. code-block:: python\n\n((?:\1   .*\n|\n)+)", text,
                         re.MULTILINE):
        code = textwrap.dedent(m.group(2))
        blocks.append((text[:m.start()].count("\n") + 1, code))
    return blocks


def test_the_page_has_its_python_blocks() -> None:
    codes = [code for _, code in python_blocks()]
    assert len(codes) >= 4
    assert any("SyncVectorEnv" in c for c in codes)
    assert any("ISMCTSBot" in c for c in codes)
    assert any("agent_iter" in c for c in codes)  # PettingZoo's loop
    assert any("openspiel_game.register(" in c for c in codes)  # options of one's own
    assert any("if acted[p]" in c for c in codes)  # QLearner stepped only if it acted


@pytest.mark.parametrize(("line", "code"), python_blocks(),
                         ids=[f"line{line}" for line, _ in python_blocks()])
def test_a_python_block_of_the_page_runs(line: int, code: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, f"{AI_RST}:{line}", "exec"), {"__name__": "ai_rst"})


def test_the_game_names_the_page_gives_are_registered() -> None:
    import pyspiel
    from mariage.ai import openspiel_game

    names = set(re.findall(r"``(mariage_[a-z0-9_]+)``", AI_RST.read_text(encoding="utf-8")))
    names.discard("mariage_")
    assert {"mariage_sixty_six_4", "mariage_marjapussi_de"} <= names
    registered = set(pyspiel.registered_names())
    assert names <= registered
    assert openspiel_game.game_name("sixty-six-4") == "mariage_sixty_six_4"


def test_the_wrapped_environment_gives_its_masks_as_the_page_says() -> None:
    import gymnasium

    env = gymnasium.make("mariage.ai.gym_env:mariage/schnapsen-v0", opponents="random")
    obs, _ = env.reset(seed=1)
    assert (env.unwrapped.action_masks() == obs["action_mask"].astype(bool)).all()
    assert (env.get_wrapper_attr("action_masks")() == obs["action_mask"].astype(bool)).all()


def test_the_trained_agent_plays_in_a_match_under_its_own_name(tmp_path: Path) -> None:
    """The page's last step: the example's agent served by the agent engine in
    ``mariage match``; the records name it after its file, not ``agent-custom``."""
    import json
    import os
    import subprocess
    import sys

    import numpy as np

    root = AI_RST.parent.parent
    example = root / "docs" / "examples" / "train_schnapsen.py"
    weights = tmp_path / "agent.npz"
    from mariage import load_rules
    from mariage.ai.encoding import ActionSpace, Encoder

    rules = load_rules("schnapsen")
    shape = (ActionSpace(rules).size, Encoder(rules).size + 1)  # the example's W
    np.savez(weights, w=np.random.default_rng(0).normal(size=shape))
    env = {**os.environ, "MARIAGE_AGENT": str(weights)}
    engine = f"{sys.executable} -m mariage.arena.agent_engine --agent {example}:load"
    hello = subprocess.run(engine.split(), input='{"type": "hello"}\n', env=env,
                           capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(hello.stdout.splitlines()[0])["engine"] == "agent-train_schnapsen"
    out = tmp_path / "games.txt"
    match = subprocess.run(
        [sys.executable, "-m", "mariage", "match", "schnapsen", "--engine", f"A={engine}",
         "--bot", "B=greedy", "--games", "2", "--out", str(out)],
        env=env, capture_output=True, text=True, timeout=300, check=True)
    assert "A:agent-train_schnapsen" in match.stdout
    assert '[Seat "A" "agent-train_schnapsen"]' in out.read_text(encoding="utf-8")
    valid = subprocess.run([sys.executable, "-m", "mariage", "validate", str(out)],
                           capture_output=True, text=True, timeout=120)
    assert valid.returncode == 0, valid.stdout + valid.stderr


def test_make_vec_passes_the_arguments_on_as_the_page_says() -> None:
    import gymnasium
    import numpy as np

    envs = gymnasium.make_vec("mariage.ai.gym_env:mariage/sixty-six-3-v0", num_envs=2,
                              vectorization_mode="sync", opponents="first", seat=1)
    obs, _ = envs.reset(seed=3)
    assert obs["observation"].shape[0] == 2
    assert [e.unwrapped.seat for e in envs.envs] == [1, 1]
    assert [e.unwrapped.opponent_names for e in envs.envs] == [["first", "first"]] * 2
    envs.step(np.array([int(m.nonzero()[0][0]) if m.any() else 0
                        for m in obs["action_mask"]]))
    envs.close()


def literal_includes() -> list[tuple[int, str, dict[str, str]]]:
    """(line, file, options) of each ``.. literalinclude::`` of the page."""
    text = AI_RST.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r"^\.\. literalinclude:: (\S+)\n((?:   :[\w-]+:.*\n)*)", text,
                         re.MULTILINE):
        options = dict(re.findall(r"^   :([\w-]+): ?(.*)$", m.group(2), re.MULTILINE))
        found.append((text[:m.start()].count("\n") + 1, m.group(1), options))
    return found


def test_the_training_code_the_page_shows_runs_on_its_own(tmp_path: Path) -> None:
    """The Train section shows the example's agent and ``train`` as Sphinx includes
    them; a researcher who copies that much into a file of their own (another folder,
    a fresh interpreter) can run it. (It once showed ``train`` alone: without its
    imports, ``LinearAgent`` and the import that registers ``mariage/schnapsen-v0``.)"""
    import subprocess
    import sys

    pytest.importorskip("sphinx", reason="Sphinx (the docs extra) is not installed")
    from sphinx.config import Config
    from sphinx.directives.code import LiteralIncludeReader

    (shown,) = [(line, name, options) for line, name, options in literal_includes()
                if name.endswith("train_schnapsen.py") and "pyobject" not in options]
    _, name, options = shown
    text, _ = LiteralIncludeReader(str(AI_RST.parent / name), options, Config()).read()
    assert "def train(" in text
    script = tmp_path / "mine.py"
    script.write_text(text + "\nprint(train(3).w.shape)\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    from mariage import load_rules
    from mariage.ai.encoding import ActionSpace, Encoder

    rules = load_rules("schnapsen")
    assert done.stdout.strip() == str((ActionSpace(rules).size, Encoder(rules).size + 1))


@pytest.mark.parametrize("name", __import__("mariage").list_rulesets())
def test_the_values_beyond_0_and_1_are_those_the_page_names(name: str) -> None:
    """The page says which parts of the observation can leave [0, 1] (the space is
    unbounded): over a few random hands of every ruleset, no other part does, and only
    ``standing`` and ``passes`` go below 0."""
    import numpy as np
    from mariage import load_rules
    from mariage.ai.encoding import Encoder
    from mariage.ai.pettingzoo_env import MariageEnv

    text = " ".join(AI_RST.read_text(encoding="utf-8").split())
    for part in ("hand_points", "standing", "doubled", "passes"):
        assert f"``{part}``" in text
    part_of = [f.name for f in Encoder(load_rules(name)).features for _ in range(f.size)]
    above: set[str] = set()
    below: set[str] = set()
    env = MariageEnv(name, max_hands=4)
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        values = obs["observation"]
        above.update(part_of[i] for i in np.flatnonzero(values > 1))
        below.update(part_of[i] for i in np.flatnonzero(values < 0))
        env.step(None if terminated or truncated
                 else int(rng.choice(obs["action_mask"].nonzero()[0])))
    assert above <= {"hand_points", "standing", "doubled"}
    assert below <= {"standing", "passes"}


def _printed_after(lead: str) -> list[str]:
    """The lines of the literal block that follows the page's sentence ending ``lead``."""
    text = AI_RST.read_text(encoding="utf-8")
    after = text.split(lead + "::\n\n", 1)[1]
    block = re.match(r"((?:    .*\n|\n)+)", after)
    assert block is not None
    return [line[4:] for line in block.group(1).strip("\n").splitlines()]


@pytest.mark.slow
def test_the_walk_prints_what_the_page_shows(tmp_path: Path) -> None:
    """Train with the page's budget, evaluate, play in ``mariage match``: what each step
    prints is what the page shows (a change to the observation, the environment or a
    baseline changes the numbers, and the page must follow)."""
    import os
    import subprocess
    import sys

    examples = AI_RST.parent / "examples"
    weights = tmp_path / "agent.npz"

    def run(*argv: str, **env: str) -> list[str]:
        done = subprocess.run([sys.executable, *argv], cwd=tmp_path, capture_output=True,
                              text=True, timeout=600, check=False,
                              env={**os.environ, **env})
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.splitlines()

    trained = run(str(examples / "train_schnapsen.py"), "--hands", "4000",
                  "--out", "agent.npz")
    _like_the_page(trained, _printed_after("and 800 hands measured. It prints"))
    shown = _printed_after("which prints, for the weights above")
    measured = run(str(examples / "evaluate_agent.py"), "agent.npz",
                   "--against", "random,greedy")
    _like_the_page(measured, [line for line in shown if not line.startswith("trained v ismcts")])
    engine = (f"{sys.executable} -m mariage.arena.agent_engine "
              f"--agent {examples / 'train_schnapsen.py'}:load")
    played = run("-m", "mariage", "match", "schnapsen", "--engine", f"A={engine}",
                 "--bot", "B=greedy", "--games", "20", "--out", "games.txt",
                 MARIAGE_AGENT=str(weights))
    played += run("-m", "mariage", "validate", "games.txt")
    page = _printed_after("finds every\nrecord sound")
    games, table = page[:page.index("...")], page[page.index("...") + 1:]
    # which side wins a game turns on the weights (see _like_the_page); the lines' form,
    # the seats and the validation do not
    shape = re.compile(r"side [AB] \([AB]:[\w-]+\) wins")
    assert [shape.sub("side", line) for line in played[:len(games)]] == \
        [shape.sub("side", line) for line in games]
    assert _masked(played[-len(table):]) == _masked(table)
    assert played[-1] == table[-1]  # every record valid


def _masked(lines: list[str]) -> list[str]:
    """The lines with every number a ``#`` and runs of spaces one space."""
    return [" ".join(re.sub(r"\d+(?:\.\d+)?", "#", line).split()) for line in lines]


def _like_the_page(printed: list[str], page: list[str], within: float = 0.08) -> None:
    """``printed`` is the page's block, line by line, but that each rate may differ by
    ``within``: the training runs NumPy's floating point (its matrix products and
    ``exp`` take paths that depend on the processor), so another machine may draw other
    actions late in the training and measure other hands. On this project's machines
    the lines are the page's exactly."""
    assert _masked(printed) == _masked(page)
    rate = re.compile(r"rate (\d\.\d+)")
    for mine, theirs in zip(printed, page, strict=True):
        got, shown = rate.findall(mine), rate.findall(theirs)
        assert len(got) == len(shown)
        assert all(abs(float(a) - float(b)) <= within for a, b in zip(got, shown, strict=True)), \
            (mine, theirs)
