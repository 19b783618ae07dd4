"""The benchmark's minimal Marianna engine plays exactly the reference's default Marianna.

Both engines get the same decks and the same random choices (an index into
the legal actions); at every step their legal actions must be the same list,
and every trick winner, hand score, match score and match winner must agree.
"""

from __future__ import annotations

import copy
import random

import mariage
import pytest
from benchload import load
from mariage import Declare, GameState, Phase, Play

minimal = load("minimal_marianna")
bench = load("bench_playout")
RULES = mariage.load_rules("marianna", {})


def as_minimal(action: mariage.Action) -> int:
    """The minimal engine's number for a reference action."""
    if isinstance(action, Play):
        return action.card
    assert isinstance(action, Declare) and action.trump
    return int(minimal.DECLARE + 4 * action.decl + action.suit)


def play_both(decks: list[list[int]], seed: int,
              first_choices: tuple[int, ...] = ()) -> tuple[GameState, object, int]:
    """Play the decks hand after hand in both engines, checking them in lockstep.

    ``first_choices`` are forced choice indexes for the first decisions.
    A match that ends starts a new one, as in the benchmark loop. Returns both
    final states and the number of decisions compared.
    """
    rng = random.Random(seed)
    ref = GameState(RULES, first_dealer=0)
    low = minimal.MinimalMarianna(0)
    steps = 0
    for hand_no, deck in enumerate(decks):
        if ref.terminal:  # a new match, as in the benchmark loop
            assert low.terminal and ref.result is not None and low.winner == ref.result.winner
            ref = GameState(RULES, first_dealer=hand_no % 4)
            low = minimal.MinimalMarianna(hand_no % 4)
        assert ref.phase == Phase.DEAL and ref.dealer == low.dealer
        ref.deal(deck)
        low.deal(deck)
        while ref.to_act is not None:
            where = f"hand {hand_no + 1}, trick {ref.trick_no}, step {steps}"
            assert low.to_act == ref.to_act, where
            ref_actions = [as_minimal(a) for a in ref.legal_actions()]
            assert low.legal_actions() == ref_actions, where
            pick = first_choices[steps] if steps < len(first_choices) \
                else rng.randrange(len(ref_actions))
            ref.apply(ref.legal_actions()[pick])
            low.apply(ref_actions[pick])
            steps += 1
            assert low.trump == ref.trump, where
            assert [low.hand_points(t) for t in (0, 1)] == \
                [ref.hand_points(t) for t in (0, 1)], where
        assert low.to_act is None
        assert low.trick_winners == [w for _, _, w in ref.tricks], f"hand {hand_no + 1}"
        assert low.match_scores == ref.match_scores, f"hand {hand_no + 1}"
        assert low.terminal == ref.terminal
    if ref.terminal:
        assert ref.result is not None and low.winner == ref.result.winner
    return ref, low, steps


def shuffled(rng: random.Random) -> list[int]:
    deck = list(range(RULES.ncards))
    rng.shuffle(deck)
    return deck


def test_same_numbering_as_the_reference() -> None:
    assert tuple(minimal.CARD_CODES) == RULES.card_code
    assert tuple(minimal.POINTS) == RULES.points
    assert [minimal.SUIT_OF[c] for c in range(40)] == list(RULES.suit_of)


@pytest.mark.parametrize("seed", range(12))
def test_random_matches_agree(seed: int) -> None:
    rng = random.Random(1000 + seed)
    decks = [shuffled(rng) for _ in range(12)]
    ref, _, steps = play_both(decks, seed)
    assert steps > 300
    assert ref.history  # at least one hand scored


def rigged(first_five: list[str], seed: int) -> list[int]:
    """A shuffled deck whose first packet (the seat after dealer 0, seat 1) is given."""
    top = [RULES.card(code) for code in first_five]
    rest = [c for c in range(RULES.ncards) if c not in top]
    random.Random(seed).shuffle(rest)
    return top + rest


def test_mariannino_agrees() -> None:
    deck = rigged(["QH", "QD", "QC", "QS", "KC"], 5)
    ref = GameState(RULES, first_dealer=0)
    ref.deal(deck)
    texts = [mariage.action_text(RULES, a) for a in ref.legal_actions()]
    pick = texts.index("mariannino:C")
    ref, low, _ = play_both([deck], 5, first_choices=(pick,))
    assert ref.history[0].points[1] >= 250 and low.match_scores == ref.match_scores


def test_mariannone_agrees() -> None:
    deck = rigged(["KH", "KD", "KC", "KS", "QS"], 9)
    ref = GameState(RULES, first_dealer=0)
    ref.deal(deck)
    texts = [mariage.action_text(RULES, a) for a in ref.legal_actions()]
    assert texts[:2] == ["marianna:S", "mariannone:S"]
    ref, low, steps = play_both([deck], 9, first_choices=(1,))
    assert steps == 1 and ref.terminal and low.winner == 1


def test_four_mariannas_in_one_trick_agree() -> None:
    """Every seat declares in trick 1: values 40/60/80/100, trump set by the latest."""
    packets = [["KH", "QH"], ["KD", "QD"], ["KC", "QC"], ["KS", "QS"]]  # seats 1, 2, 3, 0
    top = [RULES.card(code) for p in packets for code in p]
    rest = [c for c in range(RULES.ncards) if c not in top]
    random.Random(3).shuffle(rest)
    deck = []
    for p in packets:
        deck += [RULES.card(code) for code in p] + [rest.pop() for _ in range(3)]
    deck += rest
    ref, low, _ = play_both([deck], 3, first_choices=(0,) * 8)
    declared = [value for _, _, _, value in ref.declared]
    assert declared[:4] == [40, 60, 80, 100]
    assert low.match_scores == ref.match_scores


def test_benchmark_loop_counts_the_same_decisions() -> None:
    """The benchmark's own loop gives both engines the same number of decisions."""
    work = bench.make_workload(RULES, 30, 4)
    ref = bench.play_hands(bench.reference_factory(RULES), work, 4)
    low = bench.play_hands(bench.minimal_factory, work, 4)
    assert ref == low and ref[1] > 30 * 30


@pytest.mark.parametrize("seed", range(4))
def test_minimal_engine_refuses_what_the_reference_refuses(seed: int) -> None:
    """Both engines check their input: every card play and declaration outside the
    legal actions is refused by the baseline too, and every legal one accepted."""
    rng = random.Random(seed)
    deck = shuffled(rng)
    ref = GameState(RULES, first_dealer=seed % 4)
    low = minimal.MinimalMarianna(seed % 4)
    ref.deal(deck)
    low.deal(deck)
    candidates = list(range(minimal.DECLARE + 12))
    while ref.to_act is not None:
        legal = {as_minimal(a) for a in ref.legal_actions()}
        for action in candidates:
            probe = copy.deepcopy(low)
            if action in legal:
                probe.apply(action)
            else:
                with pytest.raises(ValueError):
                    probe.apply(action)
        pick = rng.choice(sorted(legal))
        ref.apply(ref.legal_actions()[[as_minimal(a) for a in ref.legal_actions()].index(pick)])
        low.apply(pick)


def _fields(game: object) -> dict[str, object]:
    return {name: copy.deepcopy(getattr(game, name)) for name in minimal.MinimalMarianna.__slots__}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_minimal_engines_copies_are_whole_and_independent(seed: int) -> None:
    """bench_search.py's baseline: the hand-written clone, snapshot and restore."""
    rng = random.Random(seed)
    deck = list(range(minimal.NCARDS))
    rng.shuffle(deck)
    game = minimal.MinimalMarianna(seed % 4)
    game.deal(deck)
    while game.to_act is not None:
        before = _fields(game)
        twin = game.clone()
        assert _fields(twin) == before
        snap = game.snapshot()
        acts = game.legal_actions()
        action = acts[rng.randrange(len(acts))]
        game.apply(action)
        assert _fields(twin) == before, "a clone shares data with its original"
        after = _fields(game)
        twin.apply(action)
        assert _fields(twin) == after
        game.restore(snap)
        assert _fields(game) == before
        game.apply(action)


def test_the_search_benchmark_runs() -> None:
    search = load("bench_search")
    best = search.run_all(positions=4, repeat=1, seed=2, chunk=2)
    assert set(best) >= {"clone (reference)", "clone (previous)", "undo (reference)",
                         "clone+playout (minimal)"}
    assert all(v > 0 for v in best.values())
    assert "clone speedup" in search.render(best, 4, 1)


def test_the_search_benchmark_plays_each_root_k_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--per-root K``: K playouts from each position, each from a mark of its own."""

    search = load("bench_search")
    pairs = search.ruleset_positions("marianna", 3, 2)
    marks = []
    real_mark = mariage.GameState.mark

    def counted(self: mariage.GameState) -> object:
        marks.append(self)
        return real_mark(self)

    monkeypatch.setattr(mariage.GameState, "mark", counted)
    search.bench_ruleset(pairs, 2, per_root=4)["marks only"]()
    assert len(marks) == 4 * len(pairs) == 12
    with pytest.raises(SystemExit):
        search.main(["--per-root", "4"])  # only with --rulesets
