"""The end of a hand, by straight-line code generated per ruleset.

When a hand ends (its last card played, a claim, a target reached),
:meth:`Scoring.end_hand` scores the hand, keeps its record, asks whether the
match is over and passes the deal on. Read plainly it asks the rules a dozen
questions each time (which kind of score, a running total, a contract, hooks,
a match bonus...) whose answers never change under one ruleset.
:func:`hand_end` writes, once per set of mechanisms and ruleset, a function
that does the same for a hand that ends in the usual way (no side wins the
match at once, no side scores nothing), with only the steps these rules take.
The dispatch table holds it (``Dispatch.end_hand``), and the card play, the
claims and the hand target end their hands through it:

* the hand points of each side, unrolled for the sides (``points`` scores
  add them as they are; the ``excess``, ``table`` and ``segno`` scores are
  written out as :meth:`Scoring.hand_score` works them out; the takers' and
  the contract's sheets as :mod:`mariage.engine.sheets` writes them; another
  kind of score is asked of its mechanism);
* the hooks of a scored hand and of a match over, where a mechanism answers;
* the record (with the contract's facts where the rules have a contract);
* the match end asked of :meth:`MatchEnd.check` only where it can say
  something: where the match is won on reaching a target, only once a side
  has reached it (below it, the check ends nothing), and then written out
  where the scores or the hands won decide as they are (who is at the top
  alone, a tie, the match's result); where the rules keep
  running totals, :meth:`RunningTotals.settle` adds the hand and says whether
  the match is decided instead;
* the dealer's rotation, inline.

Where a mechanism changes one of these steps (a subclass of the scoring,
match end or dealing that overrides a method used here), there is no
generated code and :meth:`Scoring.end_hand` runs.

>>> from mariage import load_rules, GameState
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> rules = load_rules("marianna")
>>> end = hand_end(DEFAULT_MECHANISMS, rules)
>>> state = GameState(rules, first_dealer=0)
>>> state.captured, state.decl_points = [70, 50], [40, 0]
>>> end(state, "played_out")
>>> state.match_scores, state.history[-1].points, state.dealer, state.phase.name
([110, 50], (110, 50), 1, 'DEAL')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import codegen

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Rules
    from .state import GameState

__all__ = ["HandEnd", "hand_end"]

#: the end of a hand: (state, how it ended), as ``Scoring.end_hand(state, how)``
HandEnd = Callable[["GameState", str], None]

#: the methods whose work the generated code does, per mechanism of :class:`Mechanisms`
_STEPS = (("scoring", ("end_hand", "hand_score")),
          ("match_end", ("check", "measure", "judged", "finish")),
          ("dealing", ("rotate_dealer",)))


def _own_steps(mech: Mechanisms) -> bool:
    """True if the scoring, match end and dealing run the reference methods (which the
    generated code stands for)."""
    from .mechanisms import Dealing, MatchEnd, Scoring

    bases = {"scoring": Scoring, "match_end": MatchEnd, "dealing": Dealing}
    for field, names in _STEPS:
        cls = type(getattr(mech, field))
        if any(getattr(cls, n) is not getattr(bases[field], n) for n in names):
            return False
    return True


def _check_gate(r: Rules) -> str | None:
    """A condition without which :meth:`MatchEnd.check` after a hand ends nothing (None:
    it may always end the match, so it is always asked); it may read the match scores
    as ``scores``."""
    if r.match_measure == "hands_played":  # check_hands: the hands counted, at most hand_no
        return f"st.hand_no >= {r.match_target}"
    if r.match_max_hands or r.match_bonus or not r.round_decides_game:
        return None
    if r.match_measure == "points":  # each side's score (in ``scores``), no call of max()
        return " or ".join(f"scores[{t}] >= {r.match_target}" for t in range(len(r.teams)))
    if r.match_measure == "hands_won":
        return f"max(st.segni) >= {r.match_target}"
    return None


def hand_end(mech: Mechanisms, rules: Rules, usual: bool = True) -> HandEnd | None:
    """The end of a hand under ``mech`` and ``rules``: ``end(st, how)`` does what
    ``mech.scoring.end_hand(st, how)`` does; ``None`` where there is no generated
    code (see the module's text). Without ``usual``, the sheets have no shorter path
    for the usual hand (:func:`~mariage.engine.sheets.takers_lines`,
    :func:`~mariage.engine.runningsheet.settle_lines`): the same answers, every step run."""
    from .contractsheet import contract_facts, contract_lines
    from .mechanisms.hooks import hooks_of
    from .outcomes import hand_record, record_lines
    from .phase import DEAL, OVER
    from .runningsheet import settle_lines
    from .sheets import (
        added_lines,
        game_points_lines,
        game_points_spread,
        record_values,
        takers_facts,
        takers_lines,
    )

    if not _own_steps(mech):
        return None
    hooks = hooks_of(mech.all(), rules)
    teams = range(len(rules.teams))
    ns: dict[str, Any] = {"_record": hand_record, "_DEAL": DEAL, "_OVER": OVER,
                          "_check": mech.match_end.check, "_hand_score": mech.scoring.hand_score,
                          "_next": tuple((s + 1) % rules.nseats for s in range(rules.nseats))}
    kind = rules.score_kind  # Scoring.hand_score, for these rules
    running = rules.running_rule is not None
    # the takers' lines, the hand points as they are or each side's excess, in locals (``a0``,
    # ``a1``...) where nothing after the sheet asks for a list of them (no hook, no running
    # totals, no mechanism's facts): no list ``added`` made, nor read item by item
    spread = kind in ("takers", "points", "excess", "game_points") and not hooks.hand_scored \
        and not running and (kind != "game_points" or game_points_spread(rules))
    plain = spread and kind != "takers" and rules.takers_rule is None and not rules.auction_rule
    own = plain and kind == "points"  # (the hand points are the score)
    pts = ", ".join(f"a{t}" if own else f"cap[{t}] + dp[{t}]" for t in teams)
    lines = ["def end_hand(st, how):", "    cap = st.captured", "    dp = st.decl_points",
             *(f"    a{t} = cap[{t}] + dp[{t}]" for t in teams if own), f"    pts = ({pts},)"]
    written = takers_lines(mech, rules, ns, usual, spread) if kind == "takers" else \
        contract_lines(mech, rules, ns) if kind == "contract" else None
    points = game_points_lines(mech, rules, ns, plain) if kind == "game_points" else None
    # (the mechanism's own game points: a list)
    spread = (plain and (points is not None or kind != "game_points")) or \
        (spread and written is not None)
    if kind == "points":  # the hand points as they are (in the locals, where plain)
        lines += [] if own else [f"    added = [{', '.join(f'pts[{t}]' for t in teams)}]"]
    elif written is not None:  # the takers' or the contract's sheet written out (sheets)
        lines += written
    elif points is not None:  # the talon games' game points written out (sheets)
        lines += points
    elif kind in ("excess", "table", "segno"):  # Scoring.hand_score, written out
        ns["_team_of"] = rules.team_of
        lines += _score_lines(rules, plain)
    elif kind in ("contract", "takers", "game_points"):  # the mechanism's own sheet
        sheet = {"contract": mech.contract.sheet, "takers": mech.takers.sheet}.get(kind)
        ns["_sheet"] = sheet or mech.game_points.hand_score
        lines.append("    added, won = _sheet(st, how), None" if sheet
                     else "    added, won = _sheet(st, how)")
    else:
        lines.append("    added, won = _hand_score(st, how)")
    for i, scored in enumerate(hooks.hand_scored):
        ns[f"_scored{i}"] = scored
        lines.append(f"    _scored{i}(st, added)")
    team_known = kind == "contract" and written is not None  # (contractsheet.TEAM: its side)
    settle = settle_lines(mech, rules, ns, team_known, usual) if running else None
    if settle is not None:  # barrel, bolts, dumps, winning, written out (sheets)
        lines += settle
    elif running:  # barrel, bolts, dumps, winning (mechanisms.runningtotals)
        ns["_settle"] = mech.running.settle
        lines.append("    decided = _settle(st, how, added)")
    else:
        lines.append("    scores = st.match_scores")
        lines.append(f"    {added_lines(len(teams), spread)}")
    # the record's fields: no hand's winner where the hand points, an excess, a table or a
    # sheet score (the literal, no ``won``); the takers' sheet and the excess have the
    # tricks won in ``wins``
    winner = "None" if kind in _NO_WINNER or written is not None else "won"
    if kind not in _NO_WINNER and kind not in ("contract", "takers"):  # a hand's winner
        lines += ["    if won is not None:", "        st.segni[won] += 1"]  # (segno...) counts
    wins = kind == "excess" or (kind == "takers" and written is not None)
    values = record_values(rules, winner, "wins" if wins else "st.tricks_won", spread)
    if own:  # the score is the hand points: the same tuple, made once
        values["score"] = "pts"
    record = ("_record(st.hand_no, st.dealer, pts, tuple(added), tuple(st.tricks_won), "
              f"how, {winner}, **_facts(st))")
    facts = contract_facts(mech, rules, ns, values, team_known) if rules.takers_rule is None \
        and rules.auction_rule else None
    if rules.takers_rule is not None and written is not None:
        lines += takers_facts(ns, mech, rules, values)
    elif facts is not None:
        lines += facts
    elif rules.takers_rule is not None or rules.auction_rule:  # the mechanism's facts
        ns["_facts"] = mech.takers.facts if rules.takers_rule is not None else \
            mech.contract.facts
        lines.append(f"    st.history.append({record})")
    else:  # the record written in place (outcomes.record_lines)
        lines += record_lines("st._history", values, ns, plain=True)
    lines += ["    st.hand_over_reason = how", "    st.to_act = None",
              "    st.trick_seats = []", "    st.trick_cards = []"]
    if running:  # the totals decide the match, or the deal passes on
        ns["_finish"] = mech.match_end.finish
        lines += ["    if decided is not None:",
                  "        _finish(st, decided[0], 'target' if decided[0] is not None else 'tie')",
                  "        return", "    st.phase = _DEAL"]
        return _compiled(lines + _rotation_lines(rules), ns, rules)
    lines.append("    st.phase = _DEAL")
    gate = _check_gate(rules)
    # the check written out where the gate tells when it matters, as a function of its
    # own: it runs in few hands, and kept out of line it leaves the hand end's own code
    # as short as with the call (the code after it would sit further on)
    # (playing on for the places: MatchEnd.check_places asked, the gate passed)
    written_check = gate is not None and rules.match_measure in ("points", "hands_won") \
        and rules.places_rule is None
    # (the written check says whether the match is over: no second look at the phase)
    check = ["if _decide(st, scores):"] if written_check else \
        ["_check(st, True, 'target')", "if st.phase == _OVER:"]
    check += [f"    _over{i}(st)" for i in range(len(hooks.match_over))] + ["    return"]
    for i, over in enumerate(hooks.match_over):
        ns[f"_over{i}"] = over
    indent = "        " if gate else "    "
    if gate:
        lines.append(f"    if {gate}:")
    lines += [indent + line for line in check]
    decide = ["def _decide(st, scores):", *("    " + line for line in _check_lines(rules, ns))] \
        if written_check else []
    return _compiled(lines + _rotation_lines(rules) + decide, ns, rules)


def _check_lines(r: Rules, ns: dict[str, Any]) -> list[str]:
    """Source of :meth:`MatchEnd.check` after a hand where :func:`_check_gate` has a gate
    for it (the scores or the hands won as they are, no match bonus, no limit of
    hands, the gate passed: a side is at the target), in a function of ``st`` and the
    match scores ``scores`` that returns True where it ends the match: the sides at the
    target that may win on it, the one alone at the top wins; a tie at the top draws or
    plays on, as the rules say; :meth:`MatchEnd.finish` written in place (the names it
    reads put in ``ns``)."""
    sides = range(len(r.teams))
    lines = ["scores = st.segni"] if r.match_measure == "hands_won" else []
    # the result's scores displayed from their items (no call of tuple())
    shown = "(" + "".join(f"scores[{t}], " for t in sides) + ")"
    lines += ["no_win = st.no_win", *(_top_lines(r) if len(sides) == 2 else _best_lines(r))]
    over = ["st.phase = _OVER", "st.to_act = None"]
    # (the result's parts, GameState.result: no record made where nobody reads it)
    lines += ["if best >= 0:", *("    " + line for line in over),
              f"    st._result = (best, 'target', {shown})", "    return True"]
    if r.tie_mode == "draw":
        lines += ["if tie:", *("    " + line for line in over),
                  f"    st._result = (None, 'tie', {shown})", "    return True"]
    return [*lines, "return False"]


def _top_lines(r: Rules) -> list[str]:
    """Source leaving in ``best`` the one of two sides that wins on ``scores`` (-1: none)
    and in ``tie`` whether both are at the target, level: a side counts where it is at
    the target and not held back (``no_win``)."""
    target = r.match_target
    # (neither first: both at the target level, or neither at it; the tie only drawn)
    tie = ["tie = a"] if r.tie_mode == "draw" else []
    return [f"a = scores[0] >= {target} and not no_win & 1",
            f"b = scores[1] >= {target} and not no_win & 2",
            "if a and (not b or scores[0] > scores[1]):", "    best = 0",
            "elif b and (not a or scores[1] > scores[0]):", "    best = 1",
            "else:", "    best = -1", *("    " + line for line in tie)]


def _best_lines(r: Rules) -> list[str]:
    """:func:`_top_lines` for any number of sides, unrolled per side: ``best`` the first
    side at the top so far (-1: none at the target), ``top`` its score, ``tie`` whether
    another side has as much."""
    lines = ["best = -1", "top = tie = 0"]
    for t in range(len(r.teams)):
        lines += [f"if scores[{t}] >= {r.match_target} and not no_win >> {t} & 1:",
                  f"    score = scores[{t}]", "    if best < 0 or score > top:",
                  f"        best, top, tie = {t}, score, 0", "    elif score == top:",
                  "        tie = 1"]
    return [*lines, "if tie:", "    best = -1"]


def _score_lines(r: Rules, spread: bool = False) -> list[str]:
    """Source of :meth:`Scoring.hand_score` for the scores that need no mechanism of
    their own (``excess``, ``table``, ``segno``): ``added`` (with ``spread``, the excess
    in the locals ``a0``, ``a1``...) and, in a segno, the hand's winner ``won`` (the
    others have none: :data:`_NO_WINNER`), from ``cap`` (the card points) and ``pts``
    (the hand points); the tricks won in ``wins`` where the excess counts them."""
    teams = range(len(r.teams))
    if r.score_kind == "excess":  # what a side's card and trick points pass a threshold by
        lines = ["    wins = st.tricks_won"]
        trick = "" if r.trick_point == 1 and type(r.trick_point) is int else \
            f" * {r.trick_point}"
        lines += [f"    e{t} = cap[{t}] + wins[{t}]{trick} - {r.excess_threshold}"
                  for t in teams]
        if spread:
            return [*lines, *(f"    a{t} = e{t} if e{t} > 0 else 0" for t in teams)]
        return [*lines, "    added = [" + ", ".join(f"e{t} if e{t} > 0 else 0" for t in teams)
                + "]"]
    if r.score_kind == "table":  # the game points, and the table's on a played hand
        lines = ["    added = st.game_points[:]", "    if how == 'played_out':"]
        if r.table_threshold_points:
            for t in teams:
                lines += [f"        if cap[{t}] >= {r.table_threshold}:",
                          f"            added[{t}] += {r.table_threshold_points}"]
        if r.table_last_trick:
            lines += ["        if st.last_winner >= 0:",
                      f"            added[_team_of[st.last_winner]] += {r.table_last_trick}"]
        if r.table_majority_mode == "separate" and r.table_majority:
            lines += ["        top = max(cap)", "        if cap.count(top) == 1:",
                      f"            added[cap.index(top)] += {r.table_majority}"]
        return [*lines, "        pass"]
    # segno: the side with the most hand points takes the hand, if alone at the top
    cond = ["pts.count(top) == 1"]
    if r.segno_void_top is not None:
        cond.append(f"top != {r.segno_void_top}")
    if r.segno_unfinished == "nobody" and r.hand_target is not None:
        cond.append(f"(how != 'played_out' or top >= {r.hand_target})")
    return ["    top = max(pts)", f"    won = pts.index(top) if {' and '.join(cond)} else None",
            f"    added = [{', '.join('0' for _ in teams)}]"]


#: the scores whose hand has no winner (no ``won``, the record's the literal ``None``)
_NO_WINNER = ("points", "excess", "table")


def _rotation_lines(rules: Rules) -> list[str]:
    """Source of :meth:`Dealing.rotate_dealer`: the deal passes on for the next hand."""
    lines = ["    dealer = st.dealer", "    if dealer is not None:",
             "        if st.next_dealer is not None:",
             "            st.dealer = st.next_dealer", "            st.next_dealer = None"]
    if rules.rotation == "next_seat":
        lines += ["        else:", "            st.dealer = _next[dealer]"]
    if rules.places_rule is not None:  # the deal passes over the placed (a seat a side)
        lines += ["        while st.dealer in st.placed:",
                  "            st.dealer = _next[st.dealer]"]
    return lines


def _compiled(lines: list[str], ns: dict[str, Any], rules: Rules) -> HandEnd:
    codegen.run("\n".join(lines) + "\n", f"<hand end of {rules.ruleset}>", ns)
    fn: HandEnd = ns["end_hand"]
    return fn


#: the mechanisms whose methods the generated hand end runs or writes out
_WRITERS = ("scoring", "match_end", "dealing", "running", "takers", "contract", "game_points")


def hand_end_writes(mech: Mechanisms, rules: Rules) -> tuple[str, ...] | None:
    """The slots the end of a hand under ``mech`` and ``rules`` may write, besides those a
    trick's end writes (the trick's lists, the phase, the seat to act...): what each
    mechanism of :data:`_WRITERS` declares (``hand_end_slots``) and the hooks of a scored
    hand or a match over declare (:attr:`Mechanism.trail_hooks`); ``None`` where one of
    them (or a subclass of the class that declared it) does not say, or the generated
    code is not run. Undo keeps these slots with the hand's last card instead of a
    snapshot of the state (:func:`mariage.engine.fastpath.play_apply`).

    >>> from mariage import load_rules
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> hand_end_writes(DEFAULT_MECHANISMS, load_rules("marianna"))
    ('_history', 'hand_over_reason', 'match_scores', '_result', 'dealer', 'next_dealer')
    """
    from .mechanisms.hooks import hooks_of

    if not _own_steps(mech):
        return None
    slots: list[str] = []
    for field in _WRITERS:
        m = getattr(mech, field)
        declared = vars(type(m)).get("hand_end_slots")
        if declared is None:
            return None
        slots += declared(m, rules)
    hooks = hooks_of(mech.all(), rules)
    for handler in (*hooks.hand_scored, *hooks.match_over):
        owner, name = type(handler.__self__), handler.__func__.__name__  # type: ignore[attr-defined]
        written = vars(owner).get("trail_hooks", {}).get(name)
        if written is None:
            return None
        slots += written
    return tuple(dict.fromkeys(slots))
