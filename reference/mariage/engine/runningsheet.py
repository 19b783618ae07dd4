"""The running totals of the Thousand family, written out per ruleset for the hand end.

:func:`settle_lines` writes what :class:`~mariage.engine.mechanisms.runningtotals.RunningTotals`
does when a hand is scored (the barrel filter, bolts, the entries added, the win
check, dumps), asking the golden hands and the barrel's attempts and falls of the
mechanism (the barrel only where a side is on it or reaches it: elsewhere it
changes nothing). The usual hand (nobody on the barrel, no bolt to look at) runs
a shorter path behind one test each. It is one part of the hand end that
:func:`mariage.engine.handend.hand_end` writes; the other sheets are in
:mod:`mariage.engine.sheets`.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> lines = settle_lines(DEFAULT_MECHANISMS, load_rules("thousand"), {})
>>> lines is not None and any("bolt" in line for line in lines)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .contractsheet import TEAM
from .sheets import added_lines, in_hand_flags, sides_in_hand

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Rules

__all__ = ["settle_lines"]


#: the RunningTotals methods whose work :func:`settle_lines` writes out
_RUNNING_STEPS = ("settle", "wins", "bolts")


def _bolt_lines(r: Rules, sides: str, usual: bool = True) -> list[str]:
    """Source of :meth:`RunningTotals.bolts` (a hand played out), unrolled per side (a
    side counted only where its flag says it is in the hand, the expression ``sides``
    of :func:`~mariage.engine.sheets.in_hand_flags`, unless every side always is): a set of
    bolts completed costs its penalty from the entry. Where a hand with a bolt for none
    changes nothing (the bolts are not consecutive), the sides are looked at only behind
    one test that a side in the hand may have one (:func:`_bolt_gate`), with ``usual``."""
    tricks = r.bolt_condition == "no_tricks"
    lines = ["    wins = st.tricks_won"] if tricks else []
    gate = None if r.bolt_consecutive or not usual else _bolt_gate(r)
    pad = "    " if gate is None else "        "
    if gate is not None:
        lines.append(f"    if {gate}:  # a side without a trick (or an entry): the rare case")
    lines.append(f"{pad}bolts = st.bolts")
    if r.sits_out != "none":  # whether each side is in the hand, looked up once
        lines.append(f"{pad}in_hand = {sides}")
    for t in range(len(r.teams)):
        bolt = f"wins[{t}] == 0" if tricks else f"added[{t}] == 0"
        # the rare case first (a side without a trick, or without an entry)
        counted = [bolt, f"not on[{t}]"] + ([] if r.sits_out == "none" else
                                             [f"in_hand[{t}]"])
        if r.bolt_consecutive:  # a hand without a bolt starts the set again
            lines += [f"{pad}if {' and '.join(counted[1:])}:"]
            if not r.bolt_declarer:  # the declarer gets none
                lines += [f"{pad}    if {t} == decl:", f"{pad}        bolts[{t}] = 0",
                          f"{pad}    elif {bolt}:"]
            else:
                lines.append(f"{pad}    if {bolt}:")
            lines += [f"{pad}        bolts[{t}] += 1",
                      f"{pad}        if bolts[{t}] >= {r.bolt_limit}:",
                      f"{pad}            added[{t}] -= {r.bolt_penalty}",
                      f"{pad}            bolts[{t}] = 0", f"{pad}    else:",
                      f"{pad}        bolts[{t}] = 0"]
            continue
        counted += [] if r.bolt_declarer else [f"{t} != decl"]  # (the declarer gets none)
        lines += [f"{pad}if {' and '.join(counted)}:", f"{pad}    bolts[{t}] += 1",
                  f"{pad}    if bolts[{t}] >= {r.bolt_limit}:",
                  f"{pad}        added[{t}] -= {r.bolt_penalty}", f"{pad}        bolts[{t}] = 0"]
    return lines


def _bolt_gate(r: Rules) -> str:
    """A test (of ``wins``, the tricks won, or ``added``, the entries) that is false only
    where no side in the hand can have a bolt: no side without a trick (an entry), the
    side of the seat out not counted where it has none."""
    if r.bolt_condition != "no_tricks":
        return "0 in added"
    if r.sits_out != "none":
        return "wins.count(0) > (st.out >= 0 and wins[_team_of[st.out]] == 0)"
    return "0 in wins"


def settle_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any],
                 team_known: bool = False, usual: bool = True) -> list[str] | None:
    """Source lines that do what :meth:`RunningTotals.settle` does with the entries
    ``added``, leaving its answer in ``decided`` (with ``team_known``, the declarer's
    side is read from :data:`TEAM`); ``None`` where the running totals change a step.
    The golden hands and the barrel's attempts and falls are asked of the mechanism,
    the barrel only where a side is on it or reaches it. With ``usual``, the usual hand
    (nobody on the barrel, no bolt, every side below the target and the barrel) is
    told by one test for each of these; without, every side is looked at."""
    from .mechanisms import RunningTotals

    cls = type(mech.running)
    if any(getattr(cls, n) is not getattr(RunningTotals, n) for n in _RUNNING_STEPS):
        return None
    r = rules
    teams = range(len(r.teams))
    ns.update(_team_of=r.team_of, _golden=mech.running.golden,
              _barrel=mech.running.barrel)
    lines = ["    if how == 'redeal':  # thrown in: not scored, dealt again"]
    if r.redeal_same_dealer:
        lines.append("        st.next_dealer = st.dealer")
    lines += ["        decided = None", "    else:"]
    body = ["scores = st.match_scores",
            f"decl = {TEAM}" if team_known else
            "decl = _team_of[st.declarer] if st.declarer >= 0 else -1"]
    if r.blind_multiplier != 1:
        body += ["if st.blind and how == 'played_out':",
                 f"    added[decl] *= {r.blind_multiplier}"]
    golden = r.golden_rule is not None
    if golden:
        body += ["golden = _golden(st)", "if golden:", "    st.golden_done += 1",
                 "    if decl >= 0 and how == 'played_out' and added[decl] > 0:",
                 "        st.golden_made = 1"]
        body += [f"    added[{t}] *= {r.golden_multiplier}" for t in teams]
    # nobody on the barrel (the usual hand): ``on`` all false, no entry filtered
    ns.update(_all_off=[-1] * len(r.teams), _nobody_on=(False,) * len(r.teams))
    on = "on = [" + ", ".join(f"barrel[{t}] >= 0" for t in teams) + "]"
    pad = "    " if usual else ""
    body += ["barrel = st.barrel", "if barrel == _all_off:", "    on = _nobody_on", "else:",
             f"    {on}"] if usual else ["barrel = st.barrel", on]
    if r.barrel_rule is not None:  # the barrel filter: only the declarer's entry counts
        for t in teams:
            keep = f"{t} != decl" if r.barrel_fail_off else f"({t} != decl or added[{t}] < 0)"
            body += [f"{pad}if on[{t}] and {keep}:", f"{pad}    added[{t}] = 0"]
    sides = sides_in_hand(r, ns)  # (asked only where a bolt or the barrel needs them)
    if r.bolt_condition != "off":
        body += ["if how == 'played_out':  # RunningTotals.bolts",
                 *_bolt_lines(r, in_hand_flags(r, ns), usual)]
    target = r.match_target
    for t in teams:
        if r.win_rule == "exactly":  # a hand that would pass the target leaves the total
            body += [f"if scores[{t}] + added[{t}] > {target}:", f"    added[{t}] = 0"]
    body.append(added_lines(len(r.teams)))
    reach = {"at_least": ">=", "more_than": ">", "exactly": "=="}[r.win_rule]
    barrel = r.barrel_rule is not None
    some = f"{target} in scores" if reach == "==" else \
        " or ".join(f"scores[{t}] {reach} {target}" for t in teams)  # (no call of max())
    check = [f"reached = [t for t in range({len(r.teams)}) if scores[t] {reach} {target}] "
             f"if {some} else None",
             "if reached:",
             "    if decl in reached:", "        decided = (decl,)", "    else:",
             "        top = max([scores[t] for t in reached])",
             "        best = [t for t in reached if scores[t] == top]",
             "        decided = (best[0] if len(best) == 1 else None,)",
             "else:", "    decided = None"]
    if barrel:
        near = " or ".join(f"scores[{t}] >= {r.barrel_at}" for t in teams)
        check += [f"    if True in on or {near}:",
                  f"        _barrel(st, on, {sides})"]
    if not usual or r.dump_rule is not None or (golden and r.golden_reset):
        body += check
    else:  # the usual hand, every side below the target and the barrel: one test
        low = min(target, r.barrel_at) if barrel else target
        # (nobody on the barrel: ``on`` is the table's own tuple, told by identity)
        far = " or ".join([*(f"scores[{t}] >= {low}" for t in teams),
                           *(["on is not _nobody_on and True in on"] if barrel else [])])
        body += [f"if {far}:", *("    " + line for line in check), "else:",
                 "    decided = None"]
    if r.dump_rule is not None:
        for t in teams:
            dump = f"scores[{t}] == {r.dump_value}" + \
                (f" or scores[{t}] == {-r.dump_value}" if r.dump_negative else "")
            body += [f"    if {dump}:", f"        scores[{t}] = 0"]
    if golden and r.golden_reset:  # the golden hands over, no golden contract made
        body += [f"    if golden and st.golden_done == {r.hand_seats} and not st.golden_made:",
                 f"        scores[:] = [{', '.join('0' for _ in teams)}]"]
    return lines + ["        " + line for line in body]
