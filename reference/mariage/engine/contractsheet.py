"""The contract's score sheet, written out per ruleset for the hand end.

Where a declarer plays a contract (:class:`~mariage.engine.mechanisms.contract.Contract`:
the Thousand family, German Marjapussi), :func:`contract_lines` writes what
:meth:`Contract.sheet <mariage.engine.mechanisms.contract.Contract.sheet>` does for one
ruleset: each side's rounded points and the contract made or lost, a contract alone, or
the contract doubled with schwarz multiplied; a conceded hand as
:meth:`Talon.concession_sheet <mariage.engine.mechanisms.talon.Talon.concession_sheet>`
writes it; and :func:`contract_facts` the record's facts of the contract. The takers'
sheet judged against the defence (Belote) is :mod:`mariage.engine.sheets`'s, the running
totals :mod:`mariage.engine.runningsheet`'s; ``tests/test_sheets.py`` compares each
written sheet with the plain methods.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> ns = {}
>>> lines = contract_lines(DEFAULT_MECHANISMS, load_rules("thousand"), ns)
>>> lines[0].strip()
'team = _team_of[st.declarer] if st.declarer >= 0 else -1'
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .outcomes import record_lines
from .sheets import _zeros, in_hand_flags

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Rules

__all__ = ["TEAM", "contract_facts", "contract_lines"]


#: the local name in which :func:`contract_lines` leaves the declarer's side (-1: none)
TEAM = "team"

#: the Contract methods whose work :func:`contract_lines` and :func:`contract_facts` write
_CONTRACT_STEPS = ("sheet", "made", "playing_team", "schwarz", "facts")


def _own_contract(mech: Mechanisms) -> bool:
    """True where the contract runs the reference methods that the written sheet and
    facts stand for."""
    from .mechanisms import Contract

    cls = type(mech.contract)
    return all(getattr(cls, n) is getattr(Contract, n) for n in _CONTRACT_STEPS)


def _round_to(expr: str, step: int, down: bool) -> str:
    """Source of :func:`~mariage.engine.mechanisms.contract.round_to` of ``expr``."""
    if down:
        return f"{expr} // {step} * {step}"
    return f"({expr} + {step // 2}) // {step} * {step}"


#: the hand points :func:`rounding_table` covers: from 0 up to ``TABLE_REACH - 1``
TABLE_REACH = 1024


@lru_cache(maxsize=16)
def rounding_table(step: int, down: bool) -> tuple[int, ...]:
    """:func:`~mariage.engine.mechanisms.contract.round_to` of every number from 0 to
    ``TABLE_REACH - 1``, read by indexing with the number itself: one lookup instead of
    a floor division (which Python 3.11 does not specialise).

    >>> table = rounding_table(5, False)
    >>> table[0], table[2], table[3], table[62], table[63], len(table)
    (0, 0, 5, 60, 65, 1024)
    """
    from .mechanisms.contract import round_to

    return tuple(round_to(p, step, down) for p in range(TABLE_REACH))


def _rounded_lines(r: Rules, ns: dict[str, Any]) -> list[str]:
    """Source leaving each side's hand points rounded in ``added``: read from
    :func:`rounding_table` where every side's points are in it (not negative, which
    would read the table from its end; beyond its end, :class:`IndexError`), else
    worked out."""
    teams = range(len(r.teams))
    ns["_rounded"] = rounding_table(r.rounding, r.round_down)
    worked = "added = [" + ", ".join(_round_to(f"pts[{t}]", r.rounding, r.round_down)
                                     for t in teams) + "]"
    return [" and ".join(f"pts[{t}] >= 0" for t in teams).join(("if ", ":")),
            "    try:", "        added = [" + ", ".join(f"_rounded[pts[{t}]]" for t in teams) + "]",
            "    except IndexError:", "        " + worked, "else:", "    " + worked]


def _made(rules: Rules) -> str:
    """Source of :meth:`Contract.made` where the playing party is side ``team`` (>= 0) and
    ``pts`` holds the sides' hand points."""
    pts = _round_to("pts[team]", rules.rounding, rules.round_down) if rules.round_first \
        else "pts[team]"
    return f"{pts} {'>' if rules.made_if == 'more_than' else '>='} st.contract"


def contract_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any]) -> list[str] | None:
    """Source lines that do what :meth:`Contract.sheet` does, leaving the sheet in
    ``added``: where each side books its own rounded points and the playing party its
    contract (``scoring.sheet`` mode ``each_rounded``, the Thousand family), the
    contract alone (``contract_only``), or the contract doubled and the defenders'
    rounded points, schwarz multiplied (``wurzel``, German Marjapussi); ``None`` where
    a mechanism changes a step. The declarer's side (-1: none) is left in ``team``
    (:data:`TEAM`), for the lines after it."""
    if not _own_contract(mech):
        return None
    r = rules
    teams = range(len(r.teams))
    zeros = f"[{', '.join('0' for _ in teams)}]"
    ns.update(_team_of=r.team_of, _concession_sheet=mech.talon.concession_sheet,
              _sitter=mech.talon.sitter)
    lines = [f"    {TEAM} = _team_of[st.declarer] if st.declarer >= 0 else -1",
             "    if how == 'conceded':",
             *("        " + line for line in _concession_lines(mech, r, ns)),
             "    elif how != 'played_out':", f"        added = {zeros}", "    else:"]
    if r.sheet_mode == "each_rounded":  # each side's points rounded
        lines += ["        " + line for line in _rounded_lines(r, ns)]
        if r.sits_out != "none":  # (else nobody ever sits out: ``st.out`` stays -1)
            lines += ["        if st.out >= 0:  # a side sitting out books nothing of its own",
                      "            added[_team_of[st.out]] = 0"]
        lines.append(f"        added[team] = st.contract if team >= 0 and {_made(r)} else "
                     "-st.contract")
        if r.sitter_talon_rule is not None:
            lines += ["        if st.out >= 0:", "            _sitter(st, added)"]
        return lines
    wurzel = r.sheet_mode == "wurzel"
    rounded = "[" + ", ".join(_round_to(f"pts[{t}]", r.rounding, False) for t in teams) + "]"
    lines += ["        if team < 0:  # nobody bid",
              f"            added = {rounded if wurzel else zeros}",
              "        else:", f"            made = {_made(r)}", f"            added = {zeros}",
              "            added[team] = st.contract if made else -st.contract"]
    if not wurzel:  # each Kontra and Re doubles the line (no schwarz)
        return [*lines, "            added[team] *= 2 ** st.kontras"]
    body = ["wins = st.tricks_won", "void = [" + ", ".join(f"wins[{t}] == 0" for t in teams) + "]",
            "doublings = st.kontras", "if void[team]:  # schwarz",
            f"    added[team] = {-r.schwarz_factor} * st.contract",
            "if True in void and doublings:", "    doublings -= 1",
            "added[team] *= 2 ** doublings"]
    for t in teams:
        body += [f"if team != {t}:",
                 f"    added[{t}] = {-r.schwarz_factor} * st.contract if void[{t}] and made "
                 f"else {_round_to(f'pts[{t}]', r.rounding, False)}"]
    return lines + ["            " + line for line in body]


def _concession_lines(mech: Mechanisms, r: Rules, ns: dict[str, Any]) -> list[str]:
    """Source of :meth:`Talon.concession_sheet` leaving the sheet of a conceded hand in
    ``added``: the conceding side's loss of its bid (each time, or every so many
    concessions), the others' award (nothing for a first concession where the first is
    free), the seat sitting out's talon (asked of :meth:`Talon.sitter`); the
    mechanism asked where it changes the sheet."""
    from .mechanisms import Talon

    if type(mech.talon).concession_sheet is not Talon.concession_sheet:
        return ["added = _concession_sheet(st)"]
    lines = [f"added = {_zeros(r)}", "conceder = _team_of[st.declarer]",
             "count = st.concessions[conceder]", f"award = {r.concede_award}"]
    if r.concede == "lose_bid":
        lines.append("added[conceder] = -st.contract")
        if r.concede_half_bid:
            # half the bid to a multiple of 5, a half up (52.5 -> 55): the bid to 10, halved
            lines.append(f"award = {_round_to('st.contract', 10, False)} // 2")
    elif r.concede == "award_each":
        lines += [f"if count % {r.concede_costly_every} == 0:",
                  "    added[conceder] = -st.contract"]
    else:  # the first concession free
        lines += ["if count <= 1:", "    award = 0"]
    apart = r.sits_out != "none"  # (a flag per side in the hand, looked up once)
    lines += [f"in_hand = {in_hand_flags(r, ns)}"] if apart else []
    for t in range(len(r.teams)):
        lines += [f"if conceder != {t}{f' and in_hand[{t}]' if apart else ''}:",
                  f"    added[{t}] = award"]
    if r.sitter_talon_rule is not None:  # (Talon.sitter books nothing where nobody sits out)
        lines += ["if st.out >= 0:", "    _sitter(st, added)"]
    return lines


def contract_facts(mech: Mechanisms, rules: Rules, ns: dict[str, Any], values: dict[str, str],
                   team_known: bool = False) -> list[str] | None:
    """Source lines that append the hand's record with the facts of
    :meth:`Contract.facts`, where the record's other fields are ``values``
    (:func:`~mariage.engine.sheets.record_values`; with ``team_known``, the declarer's
    side is in :data:`TEAM`); ``None`` where the contract changes a step."""
    if not _own_contract(mech):
        return None
    ns.update(_team_of=rules.team_of)
    schwarz = "tuple([t for t, n in enumerate(st.tricks_won) if n == 0])" \
        if rules.schwarz_rule is not None else "()"
    facts = {"contract": "st.contract", "declarer": "st.declarer", "made": "made",
             "schwarz": schwarz, "kontras": "st.kontras"}
    team = [] if team_known else [f"    {TEAM} = _team_of[st.declarer] if st.declarer >= 0 "
                                  "else -1"]
    return [*team, "    made = None if st.hand_over_reason == 'conceded' or team < 0 else "
            f"{_made(rules)}",
            *record_lines("st._history", {**values, **facts}, ns, plain=True)]
