"""The score sheets of the contract games, written out per ruleset for the hand end.

:func:`mariage.engine.handend.hand_end` writes one function per ruleset that
scores a finished hand. Where the takers' contract is judged against the
defence (:class:`~mariage.engine.mechanisms.takerscore.TakersScore`, Belote),
the sheet and the record's facts take a dozen calls of small methods, each
asking the rules again (the capot, the announcements, the pair of trumps, the
outcome, the lines rounded). Run once a hand, with cold caches, each call
costs several times what it does in a loop. :func:`takers_lines` writes the
same steps for one ruleset: the rules' answers as constants, the sides
unrolled, the announcements' best side worked out once for the sheet and the
record. What depends on more than the rules and the common case (a bid's own
sheet, a held-over tie judged against a bid, the hook that keeps a pair alone
from winning) is still asked of the mechanism.

It is written only where the takers' scoring, the announcements' points and
the pair of trumps are the reference methods; elsewhere the hand end calls
:meth:`TakersScore.sheet` and :meth:`TakersScore.facts`.
``tests/test_hand_end.py`` plays whole matches of every ruleset with sampled
options both ways and compares every slot after every action.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> ns = {}
>>> lines = takers_lines(DEFAULT_MECHANISMS, load_rules("belote"), ns)
>>> lines[0], "_judged" in ns
('    side = _best_side(st) if st.announced else -1', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Rules

__all__ = ["takers_facts", "takers_lines"]

#: the TakersScore methods whose work :func:`takers_lines` writes out
_TAKERS_STEPS = ("sheet", "totals", "compared", "outcome", "_judged", "facts")


def _own_steps(mech: Mechanisms) -> bool:
    """True where the takers' scoring, the announcements' points and the pair of
    trumps run the reference methods that the written sheet stands for."""
    from .mechanisms import Announcements, TakersScore, TrumpPair

    takers = type(mech.takers)
    return all(getattr(takers, n) is getattr(TakersScore, n) for n in _TAKERS_STEPS) and \
        type(mech.announcements).points is Announcements.points and \
        type(mech.trump_pair).pair_seats is TrumpPair.pair_seats


def _rounded(expr: str, mode: str) -> str:
    """Source of :func:`~mariage.engine.mechanisms.takerscore.round_line` of ``expr``."""
    if mode == "nearest10_5up":
        return f"({expr} + 5) // 10 * 10"
    if mode == "nearest10_6up":
        return f"({expr} + 4) // 10 * 10"
    return expr


def takers_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any]) -> list[str] | None:
    """Source lines (in a function of ``st`` and ``how``) that do what
    :meth:`TakersScore.sheet` does, leaving the written lines in ``added`` and the side
    whose announcements count in ``side``; the names they use are put in ``ns``.
    ``None`` where a mechanism changes a step (see the module's text)."""
    if not _own_steps(mech):
        return None
    r = rules
    teams = range(len(r.teams))
    ns.update(_best_side=mech.announcements.best_side, _value=mech.announcements.value,
              _judged=mech.takers._judged, _bid_sheet=mech.takers.bid_sheet,
              _mark_pair_only=mech.takers.mark_pair_only, _team_of=r.team_of,
              _strain_kinds=r.strain_kinds)
    zeros = f"[{', '.join('0' for _ in teams)}]"
    lines = ["    side = _best_side(st) if st.announced else -1" if r.combos
             else "    side = -1",
             "    if how != 'played_out':", f"        added = {zeros}", "    else:"]
    body = ["taker = _team_of[st.declarer]", "wins = st.tricks_won",
            f"tricks = {r.hand_size} + st.draw_tricks", "cards = st.captured[:]"]
    to, of = r.all_trump_scale
    if to != of and "all_trump" in r.strain_kinds:  # TakersScore.totals: scaled, halves up
        body += [f"if st.strain >= 0 and _strain_kinds[st.strain - {len(r.suits)}] == "
                 "'all_trump':",
                 f"    cards = [(2 * c * {to} + {of}) // {2 * of} for c in cards]"]
    capot = f"cards[t] = {r.capot_value}" if r.capot_mode == "flat" else \
        f"cards[t] += {r.capot_value - r.last_trick_points}"
    body += ["if tricks in wins:  # capot", "    t = wins.index(tricks)", f"    {capot}",
             f"ann = {zeros}", "if side >= 0:  # Announcements.points",
             "    ann[side] = sum([_value(st, m) for m in st.announced "
             "if _team_of[m[0]] == side])",
             f"pair = {zeros}", "if st.pair_by >= 0:  # TrumpPair.pair_seats",
             f"    pair[_team_of[st.pair_by]] += {r.pair_value}",
             "for s, _ in st.pairs_said:", f"    pair[_team_of[s]] += {r.pair_value}",
             "capot = wins[taker] == tricks",
             "if capot and side >= 0 and side != taker:  # the defenders' announcements",
             "    ann[taker], ann[side] = ann[side], 0  # change sides"]
    body.append("totals = [" + ", ".join(f"cards[{t}] + ann[{t}] + pair[{t}]" for t in teams)
                + "]")
    counted = "totals" if r.takers_counts_pair else \
        "[" + ", ".join(f"cards[{t}] + ann[{t}]" for t in teams) + "]"
    tie = {"litige": "tied", "tie_fails": "failed", "tie_makes": "made"}[r.takers_tie]
    body += [f"counted = {counted}", "mine = counted[taker]", "theirs = sum(counted) - mine",
             "if st.contract:  # a bid: TakersScore._judged",
             "    result = _judged(st, mine, theirs)",
             "elif capot or mine > theirs:", "    result = 'made'",
             "elif mine < theirs:", "    result = 'failed'",
             "else:", f"    result = {tie!r}",
             "st.deal_outcome = result", f"out = {zeros}", "pair_only = -1",
             "if st.contract and result != 'tied':",
             "    out, winner, pair_only = _bid_sheet(st, result, cards, ann, pair, totals)",
             "elif result == 'made':", "    out = totals", "    winner = taker",
             "elif result == 'failed':",
             "    winner = " + ("1 - taker" if len(r.teams) == 2 else "st.opponent(taker)")]
    keeps = r.takers_pair_on_failure == "holder_keeps"
    if keeps:
        body += ["    if pair[taker]:", "        out[taker] = pair[taker]",
                 "        pair_only = taker"]
    body += ["    base = cards[winner] if wins[winner] == tricks else "
             f"{r.takers_failed_points}",
             "    out[winner] = base + sum(ann) + pair[winner]" +
             ("" if keeps else " + pair[taker]"),
             "else:  # tied: the defenders write theirs, the takers' total waits",
             "    winner = -1"]
    for t in teams:
        body += [f"    if taker != {t}:", f"        out[{t}] = totals[{t}]"]
    body += ["    st.pot += totals[taker]",
             "if winner >= 0 and st.pot:", "    out[winner] += st.pot", "    st.pot = 0"]
    if r.pair_alone_cannot_win:
        for t in teams:  # no trick: only its pair of trumps
            body += [f"if not wins[{t}] and pair[{t}] and out[{t}] == pair[{t}]:",
                     f"    pair_only = {t}"]
        body.append("_mark_pair_only(st, pair_only)")
    if r.round_mode == "none":
        body.append("added = out")
    else:
        body.append("added = [" + ", ".join(_rounded(f"out[{t}]", r.round_mode)
                                            for t in teams) + "]")
        if not r.round_decides_game:  # the match is judged on the lines before rounding
            body += ["residue = st.round_residue"]
            body += [f"residue[{t}] += out[{t}] - added[{t}]" for t in teams]
    return lines + ["        " + line for line in body]


def takers_facts(ns: dict[str, Any], mech: Mechanisms, rules: Rules) -> list[str]:
    """Source lines that append the hand's record with the contract's facts, as
    :meth:`TakersScore.facts` gives them (``side`` worked out by :func:`takers_lines`),
    where the record's other fields are ``pts``, ``added`` and ``won``."""
    ns.update(_outcome=mech.takers.outcome, _MADE={"made": True, "failed": False})
    head = "_record(st.hand_no, st.dealer, pts, tuple(added), tuple(st.tricks_won), how, won"
    return ["    if st.declarer < 0:",
            f"        st.history.append({head}, held=st.pot))",
            "    else:",
            f"        played = len(st.tricks) == {rules.hand_size} + st.draw_tricks",
            "        outcome = (st.deal_outcome or _outcome(st)) if played else ''",
            f"        st.history.append({head}, declarer=st.declarer, contract=st.contract, "
            "kontras=st.kontras, trump=st.trump, made=_MADE.get(outcome) if played else None, "
            "outcome=outcome, announce_side=side, held=st.pot))"]
