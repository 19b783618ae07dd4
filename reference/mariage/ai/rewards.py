"""Rewards for learning agents: per match, per hand, or per hand in game points.

``match`` (the default)
    +1 to each seat of the side that wins the match, -1 to the others, 0 each on a
    draw or a match cut short; given when the match ends. Where the others play on
    for the places after the first side wins (``match.places``, Sixty-six for three's
    ``three_hand_play_for_loser``), by place instead, evenly from +1 for the first to
    -1 for the last: with three players, +1 for the winner, 0 for the second, -1 for
    the loser, all given when the match ends (the winner, who acts no more once he has
    won, gets his too then).
``hand``
    at the end of every hand, what the hand added to the side's match score minus the
    mean of what it added to the other sides', divided by :func:`hand_scale` and
    clipped to [-1, 1]: where the match is played to a number of points, the scale is
    that target, so 1 is a whole match's worth won in one hand; where it is counted in
    hands won (segni), 1; where it lasts a number of hands (contract games), the
    highest contract (or twice the pack's points).
``game_points``
    where the rules score game points (Schnapsen, Sixty-six): at the end of every
    hand, the side's game points minus the others' mean, divided by the most one hand
    can score (3) and clipped to [-1, 1]. Other rulesets refuse it.

Every reward lies in [-1, 1]. The per-hand rewards of one match add up to at most the
number of hands in absolute value.

>>> from mariage import load_rules
>>> hand_scale(load_rules("marianna")) > 0, REWARDS
(True, ('match', 'hand', 'game_points'))
"""

from __future__ import annotations

from mariage.engine.rules import Rules
from mariage.engine.state import GameState

__all__ = ["REWARDS", "check_reward", "hand_rewards", "hand_scale", "hand_score",
           "match_rewards", "standing_rewards"]

REWARDS = ("match", "hand", "game_points")


def check_reward(rules: Rules, reward: str) -> None:
    """Refuse a reward the rules cannot give (``ValueError``, one line)."""
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}: one of {', '.join(REWARDS)}")
    if reward == "game_points" and rules.score_kind != "game_points":
        raise ValueError(f"reward 'game_points' needs rules that score game points: "
                         f"{rules.ruleset} scores by {rules.score_kind!r} "
                         f"(use 'hand' or 'match')")


def hand_scale(rules: Rules) -> float:
    """What the ``hand`` reward divides a hand's score difference by (see above)."""
    if rules.match_measure == "points":
        return float(max(1, rules.match_target))
    if rules.match_measure == "hands_won":
        return 1.0
    return float(max(1, rules.bid_max, 2 * rules.pack_points))


def hand_score(rules: Rules, score: tuple[int, ...], winner: int | None) -> tuple[int, ...]:
    """Per side, what a hand added to its match standing: the hand's score, or where
    the match counts hands won (segni), 1 to the side that won the hand (``winner``),
    whose score records nothing.

    >>> from mariage import load_rules
    >>> hand_score(load_rules("mariazza"), (0, 0), 1)
    (0, 1)
    >>> hand_score(load_rules("marianna"), (73, 47), 0)
    (73, 47)
    """
    if rules.match_measure != "hands_won":
        return score
    return tuple(int(t == winner) for t in range(len(score)))


def _clip(x: float) -> float:
    return -1.0 if x < -1.0 else 1.0 if x > 1.0 else x


def hand_rewards(state: GameState, hand_index: int, reward: str) -> list[float]:
    """Per seat, the reward for the hand ``state.history[hand_index]``."""
    r = state.rules
    record = state.history[hand_index]
    score = hand_score(r, record.score, record.winner)
    teams = len(score)
    scale = hand_scale(r) if reward == "hand" else 3.0
    per_team = []
    for t in range(teams):
        others = [score[u] for u in range(teams) if u != t]
        mean = sum(others) / len(others) if others else 0.0
        per_team.append(_clip((score[t] - mean) / scale))
    return [per_team[r.team_of[s]] for s in range(r.nseats)]


def match_rewards(state: GameState) -> list[float]:
    """Per seat, +1 for the side that won the match, -1 for the others, else 0; by place
    where the others played on for the places (see the module's text).

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("sixty-six-3", {"three_hand_play_for_loser": True}), 3)
    >>> while not state.terminal:
    ...     state.apply(state.legal_actions()[0])
    >>> state.placed, match_rewards(state)
    ((2, 0, 1), [0.0, -1.0, 1.0])
    """
    if state.loser is not None:
        return _by_place(state)
    return _won_by(state, None if state.result is None else state.result.winner)


def _by_place(state: GameState) -> list[float]:
    """Per seat, by his side's place (``state.placed``, the first first): evenly from +1
    for the first to -1 for the last."""
    r = state.rules
    placed = state.placed
    last = len(placed) - 1
    value = {t: 1.0 - 2.0 * k / last for k, t in enumerate(placed)}
    return [value[r.team_of[s]] for s in range(r.nseats)]


def standing_rewards(state: GameState) -> list[float]:
    """Per seat, +1 for the side that won the match or, in a match not over (cut short),
    the side alone in the lead by the standing, -1 for the others; else 0 each.

    >>> from mariage import load_rules, new_match
    >>> standing_rewards(new_match(load_rules("schnapsen"), 1))  # nobody leads yet
    [0.0, 0.0]
    """
    if state.result is not None:
        return match_rewards(state)
    standing = state.standing()
    top = max(standing)
    leaders = [t for t, v in enumerate(standing) if v == top]
    return _won_by(state, leaders[0] if len(leaders) == 1 else None)


def _won_by(state: GameState, side: int | None) -> list[float]:
    """Per seat, +1 for ``side``'s seats and -1 for the others; 0 each if ``side`` is
    ``None``."""
    r = state.rules
    if side is None:
        return [0.0] * r.nseats
    return [1.0 if r.team_of[s] == side else -1.0 for s in range(r.nseats)]
