"""Random play through the AI environments against the library's own loop; baselines.

Speed (default): per ruleset, random hands are played four ways in the same process,
interleaved, each the median of ``--repeat`` runs of CPU time:

* ``library``: ``legal_actions()`` and ``apply`` (the playout loop of
  ``bench_playout.py``);
* ``library+view``: the same, plus the acting seat's observation vector each step
  (what any agent must look at before it acts);
* ``pettingzoo``: the AEC loop ``agent_iter`` / ``last`` / ``step`` with masks (a
  random agent reads the mask only: the observation vector is made when first read;
  it takes the legal ids as ``mask.nonzero()[0]``, numpy's own method, where
  ``np.flatnonzero(mask)`` costs about 0.6 µs more a step and PettingZoo's documented
  ``env.action_space(agent).sample(mask)`` about 10 µs more);
* ``pettingzoo+view``: the same, reading the observation vector each step (what a
  learning agent does);
* ``pettingzoo+info``: the same AEC loop with ``last(observe=False)`` and the mask
  from the info (an agent that reads only the mask, as PettingZoo allows, makes no
  observation at all);
* ``openspiel``: ``apply_action`` on chance nodes and decisions, legal actions as ids,
  games of up to 3 hands (the game parameter ``hands``, as the loops above play
  matches of up to 3 hands);
* ``openspiel-sampled``: the same with the game parameter ``chance="sampled"`` (no
  chance nodes: each state deals its hands from the seeded generator, as the library's
  loop does; a tree whose games lack the parameter times nothing there, ``nan``);
* ``openspiel-1``, ``openspiel-sampled-1``: the same with one hand a game (the loop of
  the rounds before the sixth: a new state, and a new match, for every hand);
* ``gymnasium``: the single-agent environment (:mod:`mariage.ai.gym_env`), seat 0
  learning at random from its mask (``mask.nonzero()[0]``, as ``pettingzoo``), the other
  seats the ``random`` policy, episodes of up to 3 hands (``max_hands=3``), each
  ``reset(seed=...)``; its decisions are every seat's (the engine's ``apply`` counted in
  a first run of the same seeded games, untimed);
* ``gymnasium-1``: the same with one hand an episode (a reset every hand);
* ``gymnasium+view``: ``gymnasium`` with the observation vector read at every step (an
  agent that looks at it before it acts; the vector is made when first read).

Ratios are CPU time per decision against ``library`` (lower is better; the target is
at most 2 for PettingZoo and OpenSpiel). A decision is one the engine takes: where the
environments pass a set of cards one pick per step (German Marjapussi, Thousand for
two), the picks of a set count as one decision, so their extra steps are in the ratio.

``--baselines``: each policy against ``random`` and ``greedy`` (and ``greedy`` against
``first``) over paired deals, hands won with 95% Wilson intervals, per ruleset;
``--pairs greedy-first,greedy-random`` chooses the pairs (the "Baselines" table of
``benchmarks/README.md``).

``--digest``: per ruleset, one hash of everything the environments answer in random
play (PettingZoo: 3 matches of up to 3 hands, every agent's observation vector and
mask after every step, rewards, ends, infos, the global state; OpenSpiel: 2 hands,
every node's player, chance outcomes, legal ids, observation and information-state
strings and tensors, returns). Run it with two trees' packages (``PYTHONPATH``) and
compare: a change that keeps every answer gives the same lines.

``--digest-gym``: the same for the Gymnasium environment (per ruleset, the first seat
against ``random`` with match rewards and the last against ``greedy`` with hand rewards,
episodes of up to 2 hands: seeded resets and resets from Gymnasium's generator, every
observation, mask, reward, end and info, ``np_random_seed``).

``--phases``: where the time goes, on the same actions: each step of random play is timed
alone (wall clock, a step over 5 times its kind's median dropped as preempted) and
put in its kind (the phase; in play a card within its trick, a trick's last card and a
hand's last card apart), for ``library``, ``openspiel-sampled`` and ``pettingzoo+info``;
per kind the engine decisions a hand (the picks of a set are one, with their set) and
µs a decision, and per environment the ratio to the library with the library's mix of
kinds (the random games of the environments are not the library's: where a concession
is offered with a set to pass, a picking agent takes it more often, and such hands are
shorter).

``--against TREE`` also times every way with the package of another tree (a worktree of
the code before a change), each run interleaved with this tree's, so that both see the
same load; its rows follow each ruleset's. Both trees are then timed in worker processes
of their own, the tree to go first changing run by run (a tree timed in the main process
came out lower than the same tree in a worker: benchmarks/history/ai.md, "Issue #29,
fifteenth session").

Usage::

    python benchmarks/bench_ai.py [--quick] [--ruleset NAME ...] [--way NAME ...] [--against TREE]
    python benchmarks/bench_ai.py --baselines [--deals 50] [--iterations 100] [--pairs A-B,...]
    python benchmarks/bench_ai.py --digest [--ruleset NAME ...]
    python benchmarks/bench_ai.py --digest-gym [--ruleset NAME ...]
    python benchmarks/bench_ai.py --phases [--ruleset NAME ...]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator

import mariage
import numpy as np
import pyspiel
from mariage import list_rulesets, load_rules, new_match
from mariage.ai import openspiel_game
from mariage.ai.encoding import Encoder
from mariage.ai.evaluate import evaluate
from mariage.ai.gym_env import MariageGymEnv
from mariage.ai.pettingzoo_env import MariageEnv
from mariage.engine.phase import Phase
from mariage.engine.state import GameState


def library(ruleset: str, hands: int, view: bool) -> int:
    rules = load_rules(ruleset)
    enc = Encoder(rules)
    rng = random.Random(1)
    steps = done = seed = 0
    while done < hands:
        state = new_match(rules, seed)
        seed += 1
        while not state.terminal and state.hand_no <= 3 and done < hands:
            before = len(state.history)
            if view:
                enc.vector(state, state.to_act)  # type: ignore[arg-type]
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
            steps += 1
            done += len(state.history) - before
    return steps


def pettingzoo(ruleset: str, hands: int, view: bool = False, info: bool = False) -> int:
    env = MariageEnv(ruleset, max_hands=3)
    rng = random.Random(1)
    steps = done = seed = 0
    while done < hands:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            if info:  # no observation: the mask from the info
                _, _, terminated, truncated, about = env.last(observe=False)
                mask = about["action_mask"]
            else:
                obs, _, terminated, truncated, _ = env.last()
                mask = obs["action_mask"]
            if terminated or truncated:
                env.step(None)
                continue
            if view:  # an agent that looks at its observation vector before it acts
                obs["observation"]
            legal = mask.nonzero()[0]  # (np.flatnonzero: 0.6 µs more)
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += not env.picked  # the picks of a set are one engine decision
            state = env.state_
            assert state is not None
            if len(state.history) + done >= hands:
                break
        assert env.state_ is not None
        done += len(env.state_.history)
    return steps


def gym(ruleset: str, hands: int, per_episode: int = 3, view: bool = False) -> int:
    """Random play through the Gymnasium environment (``gymnasium``; with ``view`` the
    observation vector read at every step); its decisions, as counted by
    :func:`gym_decisions` (the number of learner steps otherwise)."""
    env = MariageGymEnv(ruleset, opponents="random", max_hands=per_episode)
    rng = random.Random(1)
    steps = done = seed = 0
    while done < hands:
        obs, _ = env.reset(seed=seed)
        seed += 1
        state = env.state  # (the episode's match, the same until the next reset)
        assert state is not None
        while True:
            if view:  # an agent that looks at its observation vector before it acts
                obs["observation"]
            legal = obs["action_mask"].nonzero()[0]
            obs, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
            if terminated or truncated or len(state.history) + done >= hands:
                break
        done += len(state.history)
    return _GYM_DECISIONS.get((ruleset, hands, per_episode), steps)


#: (ruleset, hands, hands an episode) -> the engine decisions of :func:`gym`'s games
_GYM_DECISIONS: dict[tuple[str, int, int], int] = {}


def gym_decisions(ruleset: str, hands: int, per_episode: int = 3) -> None:
    """Count the engine decisions of :func:`gym`'s games (every seat's ``apply`` on the
    environment's state) in one run of them, untimed; :func:`gym` answers them after."""
    key = (ruleset, hands, per_episode)
    if key in _GYM_DECISIONS:
        return
    count = 0
    apply = GameState.apply

    def counted(state: GameState, *args: object, **kwargs: object) -> None:
        nonlocal count
        count += 1
        apply(state, *args, **kwargs)  # type: ignore[arg-type]

    GameState.apply = counted  # type: ignore[method-assign,assignment]
    try:
        gym(ruleset, hands, per_episode)
    finally:
        GameState.apply = apply  # type: ignore[method-assign]
    _GYM_DECISIONS[key] = count


def openspiel(ruleset: str, hands: int, chance: str = "explicit", per_game: int = 3) -> int:
    params: dict[str, str | int] = {"hands": per_game}
    if chance != "explicit":
        params.update(chance=chance, seed=0)
    game = pyspiel.load_game(openspiel_game.game_name(ruleset), params)
    rng = random.Random(1)
    steps = done = 0
    while done < hands:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += not state.picked
        done += state.gs.hand_no
    return steps


def digest(ruleset: str) -> str:
    """The hash of what the environments of ``ruleset`` answer in random play (see the
    module's ``--digest``)."""
    h = hashlib.sha256()

    def put(*values: object) -> None:
        for v in values:
            h.update(v.tobytes() + str(v.dtype).encode() if isinstance(v, np.ndarray)
                     else repr(v).encode())

    env = MariageEnv(ruleset, max_hands=3)
    rng = random.Random(5)
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter(400):
            for other in env.agents:  # every agent's view, read now
                obs = env.observe(other)
                put(other, obs["observation"], obs["action_mask"])
            obs, reward, terminated, truncated, info = env.last()
            put(agent, reward, terminated, truncated, sorted(info), info["action_mask"],
                env.state(), dict(env.rewards))
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            put(legal)
            env.step(int(legal[rng.randrange(len(legal))]))
    game = pyspiel.load_game(openspiel_game.game_name(ruleset))
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            put(player)
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                put(outcomes)
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            put(legal, [state.legal_actions(p) for p in range(game.num_players())],
                state.observation_string(player), state.information_state_string(player),
                np.asarray(state.observation_tensor(player)),
                np.asarray(state.information_state_tensor(player)))
            state.apply_action(legal[rng.randrange(len(legal))])
        put(state.returns(), str(state))
    return h.hexdigest()[:16]


def gym_digest(ruleset: str) -> str:
    """The hash of what the Gymnasium environment of ``ruleset`` answers in random play
    (see the module's ``--digest-gym``)."""
    h = hashlib.sha256()

    def put(*values: object) -> None:
        for v in values:
            h.update(v.tobytes() + str(v.dtype).encode() if isinstance(v, np.ndarray)
                     else repr(v).encode())

    rng = random.Random(5)
    nseats = load_rules(ruleset).nseats
    for seat, opponents, reward in ((0, "random", "match"), (nseats - 1, "greedy", "hand")):
        env = MariageGymEnv(ruleset, seat=seat, opponents=opponents, reward=reward,
                            max_hands=2)
        for seed in (3, None, None, 11, 3):  # seeded, then from Gymnasium's generator
            obs, info = env.reset(seed=seed)
            put(seed, env.np_random_seed, obs["observation"], obs["action_mask"], info)
            for _ in range(300):
                legal = obs["action_mask"].nonzero()[0]
                obs, reward_now, terminated, truncated, info = env.step(
                    int(legal[rng.randrange(len(legal))]))
                put(obs["observation"], obs["action_mask"], reward_now, terminated,
                    truncated, info, env.action_masks())
                if terminated or truncated:
                    break
        put(env.np_random.integers(2**63))
    return h.hexdigest()[:16]


WAYS: dict[str, Callable[[str, int], int]] = {
    "library": lambda r, h: library(r, h, False),
    "library+view": lambda r, h: library(r, h, True),
    "pettingzoo": pettingzoo,
    "pettingzoo+view": lambda r, h: pettingzoo(r, h, True),
    "pettingzoo+info": lambda r, h: pettingzoo(r, h, info=True),
    "openspiel": openspiel,
    "openspiel-sampled": lambda r, h: openspiel(r, h, "sampled"),
    "openspiel-1": lambda r, h: openspiel(r, h, per_game=1),
    "openspiel-sampled-1": lambda r, h: openspiel(r, h, "sampled", 1),
    "gymnasium": gym,
    "gymnasium-1": lambda r, h: gym(r, h, 1),
    "gymnasium+view": lambda r, h: gym(r, h, view=True),
}

#: what runs, untimed, before a way is timed
PREPARE: dict[str, Callable[[str, int], None]] = {
    "gymnasium": gym_decisions,
    "gymnasium-1": lambda r, h: gym_decisions(r, h, 1),
    "gymnasium+view": gym_decisions,
}


def timed(way: str, ruleset: str, hands: int) -> float:
    """CPU time per decision of one run of ``way``."""
    if way in PREPARE:
        PREPARE[way](ruleset, hands)
    t = time.process_time()
    try:
        steps = WAYS[way](ruleset, hands)
    except pyspiel.SpielError:  # a tree before the game parameter chance
        return float("nan")
    return (time.process_time() - t) / steps


def step_kind(state: GameState) -> str:
    """The kind of the step about to be taken in ``state`` (``--phases``)."""
    if state.phase != Phase.PLAY:
        return state.phase.name.lower()
    if len(state.trick_cards) + 1 < state.rules.hand_seats:
        return "card"
    return "last card" if state.hands[state.to_act].bit_count() == 1 else "trick end"


#: per kind of step: the step times (ns), the engine decisions
Steps = dict[str, tuple[list[int], list[int]]]


def _library_steps(ruleset: str, hands: int) -> Iterator[tuple[str, int, int]]:
    """(kind, ns, decisions) of each step of the library's loop (as :func:`library`)."""
    rules = load_rules(ruleset)
    rng, clock = random.Random(1), time.perf_counter_ns
    done = seed = 0
    while done < hands:
        state = new_match(rules, seed)
        seed += 1
        while not state.terminal and state.hand_no <= 3 and done < hands:
            before, kind = len(state.history), step_kind(state)
            t = clock()
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
            yield kind, clock() - t, 1
            done += len(state.history) - before


def _openspiel_steps(ruleset: str, hands: int) -> Iterator[tuple[str, int, int]]:
    """The same for OpenSpiel with sampled chance (as :func:`openspiel`)."""
    game = pyspiel.load_game(openspiel_game.game_name(ruleset),
                             {"hands": 3, "chance": "sampled", "seed": 0})
    rng, clock = random.Random(1), time.perf_counter_ns
    done = 0
    while done < hands:
        state = game.new_initial_state()
        while not state.is_terminal():
            kind = step_kind(state.gs)
            t = clock()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            yield kind, clock() - t, not state.picked
        done += state.gs.hand_no


def _pettingzoo_steps(ruleset: str, hands: int) -> Iterator[tuple[str, int, int]]:
    """The same for PettingZoo with the mask from the info (as :func:`pettingzoo`)."""
    env = MariageEnv(ruleset, max_hands=3)
    rng, clock = random.Random(1), time.perf_counter_ns
    done = seed = 0
    while done < hands:
        env.reset(seed=seed)
        seed += 1
        for _agent in env.agent_iter():
            assert env.state_ is not None
            kind = step_kind(env.state_)
            t = clock()
            _, _, terminated, truncated, about = env.last(observe=False)
            if terminated or truncated:
                env.step(None)
                continue
            legal = about["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            yield kind, clock() - t, not env.picked
        assert env.state_ is not None
        done += len(env.state_.history)


def _per_kind(steps: Iterator[tuple[str, int, int]]) -> dict[str, tuple[float, int]]:
    """Per kind: µs of all its steps (each kind's steps over 5 times its median dropped
    and the others' mean counted for them) and its decisions."""
    times: dict[str, list[int]] = defaultdict(list)
    decisions: dict[str, int] = defaultdict(int)
    for kind, ns, decided in steps:
        times[kind].append(ns)
        decisions[kind] += decided
    out = {}
    for kind, ns_list in times.items():
        top = 5 * statistics.median(ns_list)
        kept = [t for t in ns_list if t <= top]
        out[kind] = (sum(kept) / len(kept) * len(ns_list) / 1e3, decisions[kind])
    return out


def phases(rulesets: list[str], hands: int) -> None:
    """``--phases``: per ruleset and kind of step, decisions a hand and µs a decision."""
    print(f"load average {os.getloadavg()[0]:.1f}; {hands} hands; per kind: library "
          f"decisions a hand, then µs a decision: library / openspiel-sampled / "
          f"pettingzoo+info")
    ways = {"library": _library_steps, "openspiel-sampled": _openspiel_steps,
            "pettingzoo+info": _pettingzoo_steps}
    for ruleset in rulesets:
        kinds = {way: _per_kind(steps(ruleset, hands)) for way, steps in ways.items()}
        base = kinds["library"]
        cells, mixed = [], {way: 0.0 for way in ways}
        for kind, (_, made) in sorted(base.items(), key=lambda kv: -kv[1][1]):
            per = {way: kinds[way][kind][0] / max(1, kinds[way][kind][1])
                   if kind in kinds[way] else float("nan") for way in ways}
            for way in ways:
                mixed[way] += made * per[way]
            cells.append(f"{kind} {made / hands:.2f}: " + " / ".join(
                f"{per[way]:.2f}" for way in ways))
        ratios = " ".join(f"{way} {mixed[way] / mixed['library']:.2f}" for way in ways
                          if way != "library")
        print(f"{ruleset}: same mix {ratios}\n  " + "\n  ".join(cells), flush=True)


def serve() -> None:
    """``--serve``: answer lines ``ruleset way hands`` from stdin with :func:`timed`
    (the worker of ``--against``, run with another tree's package)."""
    for line in sys.stdin:
        ruleset, way, hands = line.split()
        print(timed(way, ruleset, int(hands)), flush=True)


def _worker(reference: str) -> subprocess.Popen[str]:
    """A worker process timing ways with the package under ``reference`` (``--serve``)."""
    env = dict(os.environ, PYTHONPATH=reference)
    return subprocess.Popen([sys.executable, __file__, "--serve"], env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def _asked(worker: subprocess.Popen[str], ruleset: str, way: str, hands: int) -> float:
    """The worker's :func:`timed` of one run."""
    assert worker.stdin and worker.stdout
    worker.stdin.write(f"{ruleset} {way} {hands}\n")
    worker.stdin.flush()
    return float(worker.stdout.readline())


def speed(rulesets: list[str], hands: int, repeat: int, against: str | None = None,
          ways: list[str] | None = None) -> None:
    print(f"load average {os.getloadavg()[0]:.1f}; {hands} hands per run, median of "
          f"{repeat} runs of CPU time; ratio = per-decision time / library's")
    timed_ways = ["library", *(w for w in WAYS if w != "library" and (not ways or w in ways))]
    print(f"{'ruleset':24} {'library µs':>10} " + " ".join(f"{w:>15}" for w in timed_ways
                                                          if w != "library"))
    # with another tree: both trees timed alike, each in a worker process of its own
    # (the tree in the main process came out lower than the one in a worker), the tree
    # to go first changing run by run
    # (the trees by position: a tree named "this" is no clash)
    workers: list[subprocess.Popen[str]] = []
    if against:
        here = os.path.dirname(os.path.dirname(os.path.abspath(mariage.__file__)))
        workers = [_worker(here), _worker(os.path.join(against, "reference"))]
    trees = [0, 1] if against else [0]
    for r_index, ruleset in enumerate(rulesets):
        times: dict[tuple[int, str], list[float]] = {(t, w): [] for t in trees
                                                     for w in timed_ways}
        for k in range(repeat):
            for w_index, way in enumerate(timed_ways):
                # interleaved (and the trees), so load drifts hit each alike; the tree to
                # go first alternates by run, way and ruleset, so that an odd number of
                # runs does not favour one tree over the whole table
                first = (k + w_index + r_index) % 2
                for tree in trees if first == 0 else trees[::-1]:
                    times[tree, way].append(_asked(workers[tree], ruleset, way, hands)
                                            if workers else timed(way, ruleset, hands))
        for tree in trees:
            base = statistics.median(times[tree, "library"])
            cells = [f"{statistics.median(times[tree, w]) / base:15.2f}" for w in timed_ways
                     if w != "library"]
            name = ruleset if tree == 0 else "  " + os.path.basename(str(against).rstrip("/"))
            print(f"{name:24} {base * 1e6:10.2f} " + " ".join(cells), flush=True)
    for worker in workers:
        assert worker.stdin
        worker.stdin.close()
        worker.wait()


PAIRS = [("greedy", "first"), ("greedy", "random"), ("mc", "random"), ("mc", "greedy"),
         ("ismcts", "random"), ("ismcts", "greedy")]


def baselines(rulesets: list[str], deals: int, iterations: int,
              pairs: list[tuple[str, str]] = PAIRS) -> None:
    print(f"load average {os.getloadavg()[0]:.1f}; {deals} paired deals "
          f"({2 * deals} hands) each; ismcts {iterations} iterations per decision")
    print(f"{'ruleset':24} " + " ".join(f"{a + ' v ' + b:>20}" for a, b in pairs))
    for ruleset in rulesets:
        cells = []
        for a, b in pairs:
            n = deals if a not in ("mc", "ismcts") else max(4, deals // 4)
            e = evaluate(ruleset, a, b, deals=n, seed=1, iterations=iterations)
            lo, hi = e.interval()
            cells.append(f"{e.rate:.2f} [{lo:.2f}-{hi:.2f}]")
        print(f"{ruleset:24} " + " ".join(f"{c:>20}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baselines", action="store_true")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--pairs", help="policy pairs A-B, comma-separated (with --baselines)")
    parser.add_argument("--against", metavar="TREE",
                        help="also time the ways with TREE's package (a worktree of the "
                             "code before a change), interleaved with this one's")
    parser.add_argument("--way", action="append", choices=[w for w in WAYS if w != "library"],
                        help="time only this way (and library; repeat for several)")
    parser.add_argument("--digest", action="store_true",
                        help="print a hash of every answer of the environments per ruleset")
    parser.add_argument("--digest-gym", action="store_true",
                        help="print a hash of every answer of the Gymnasium environment per "
                             "ruleset")
    parser.add_argument("--phases", action="store_true",
                        help="per kind of step, µs a decision on the same actions")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve()
        return
    rulesets = args.ruleset or list_rulesets()
    if args.phases:
        phases(rulesets, 100 if args.quick else 600)
    elif args.digest_gym:
        for ruleset in rulesets:
            print(f"{ruleset:24} {gym_digest(ruleset)}", flush=True)
    elif args.digest:
        for ruleset in rulesets:
            print(f"{ruleset:24} {digest(ruleset)}", flush=True)
    elif args.baselines:
        pairs = PAIRS
        if args.pairs:
            pairs = [(a, b) for a, _, b in (p.partition("-") for p in args.pairs.split(","))]
        baselines(rulesets, 8 if args.quick else args.deals, args.iterations, pairs)
    else:
        speed(rulesets, 20 if args.quick else 100, 3 if args.quick else args.repeat,
              args.against, args.way)


if __name__ == "__main__":
    main()
