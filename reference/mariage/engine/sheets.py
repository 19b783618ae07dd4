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
record, a bid's judgement and sheet written for the rules' bids.

It is written only where the takers' scoring, the announcements' points and
the pair of trumps are the reference methods; elsewhere the hand end calls
:meth:`TakersScore.sheet` and :meth:`TakersScore.facts`. In the same way,
:func:`~mariage.engine.contractsheet.contract_lines` writes the contract's sheet
(each side's rounded points in the Thousand family, the doubled contract of German
Marjapussi) and :func:`~mariage.engine.contractsheet.contract_facts` the record's
facts of a contract (in their own module),
:func:`~mariage.engine.runningsheet.settle_lines` the running totals (in
their own module), and
:func:`game_points_lines` the game points of a talon game's hand played out.
``tests/test_hand_end.py`` plays whole matches of every ruleset with sampled
options both ways and compares every slot after every action.

The usual hand runs a shorter path written by the same code (:class:`_Sheet`,
:func:`~mariage.engine.runningsheet.settle_lines`) behind one test, and where the rules
have announcements, a usual hand in which some count runs a second one (their terms
kept, the pair's and the capot's left out); ``usual=False`` writes neither
(``tests/test_handend_usual.py`` ends hundreds of hands both ways). A single
announcement's side and points are read from it, without ranking it against others.

>>> from mariage import load_rules
>>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
>>> ns = {}
>>> lines = takers_lines(DEFAULT_MECHANISMS, load_rules("belote"), ns)
>>> lines[0].strip().startswith("side = (_team_of[st.announced[0][0]] if len(st.announced)")
True
>>> lines[0].endswith("else _best_side(st)) if st.announced else -1"), "_best_side" in ns
(True, True)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .outcomes import record_lines

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Rules

#: the fields of a hand's record that every end of a hand gives, as the generated hand
#: end has them (the hand points ``pts``, the score ``added``, the hand's winner ``won``)
RECORD = {"number": "st.hand_no", "dealer": "st.dealer", "points": "pts",
          "score": "tuple(added)", "tricks": "tuple(st.tricks_won)", "ended": "how",
          "winner": "won"}


def record_values(r: Rules, won: str = "won", wins: str = "st.tricks_won",
                  spread: bool = False) -> dict[str, str]:
    """:data:`RECORD` for rules ``r``: the score and the tricks won as tuples, one item
    per side: the list ``added`` and ``wins`` (the tricks won) by one ``tuple()`` each
    (fewer bytecodes than an item read per side), or with ``spread`` the locals ``a0``,
    ``a1``... displayed; the hand's winner ``won``.

    >>> from mariage import load_rules
    >>> values = record_values(load_rules("belote"), "None", "wins", spread=True)
    >>> values["tricks"], values["score"]
    ('tuple(wins)', '(a0, a1, )')
    >>> record_values(load_rules("thousand"))["score"]
    'tuple(added)'
    """
    teams = range(len(r.teams))
    return {**RECORD, "winner": won,
            "score": "(" + "".join(f"a{t}, " for t in teams) + ")" if spread
            else "tuple(added)", "tricks": f"tuple({wins})"}


__all__ = ["added_lines", "game_points_lines", "game_points_spread", "in_hand_flags",
           "record_values", "sides_in_hand", "takers_facts", "takers_lines"]

#: the state's contract in written source (not a longer name that starts with it)
_CONTRACT = r"\bst\.contract\b"  # (compiled on first use, by ``re``'s cache)

#: the TakersScore methods whose work :func:`takers_lines` writes out
_TAKERS_STEPS = ("sheet", "totals", "compared", "outcome", "_judged", "bid_sheet",
                 "mark_pair_only", "facts")


def _own_steps(mech: Mechanisms) -> bool:
    """True where the takers' scoring, the announcements' points and the pair of
    trumps run the reference methods that the written sheet stands for."""
    from .mechanisms import Announcements, TakersScore, TrumpPair

    takers = type(mech.takers)
    return all(getattr(takers, n) is getattr(TakersScore, n) for n in _TAKERS_STEPS) and \
        type(mech.announcements).points is Announcements.points and \
        type(mech.trump_pair).pair_seats is TrumpPair.pair_seats


def _rounded(name: str, mode: str) -> str:
    """Source of :func:`~mariage.engine.mechanisms.takerscore.round_line` of the local
    ``name``: a multiple of ten (nothing, often) as it is, without the division.

    >>> _rounded("x", "nearest10_5up")
    'x if not x % 10 else (x + 5) // 10 * 10'
    """
    up = _rounded_up(name, mode)
    return name if up is None else f"{name} if not {name} % 10 else {up}"


def _rounded_up(name: str, mode: str) -> str | None:
    """Source of the multiple of ten that ``round_mode`` rounds the local ``name`` to, for
    a line that is not one already (None: the mode leaves lines as they are)."""
    if mode == "nearest10_5up":
        return f"({name} + 5) // 10 * 10"
    if mode == "nearest10_6up":
        return f"({name} + 4) // 10 * 10"
    return None


def _residue_lines(side: int, mode: str) -> list[str]:
    """Source rounding the line ``o{side}`` into ``a{side}`` and keeping what the rounding
    took in the side's residue (``round_game_rule``): one test where the line is a
    multiple of ten already (a lost bid's nothing, a failed bid's line).

    >>> _residue_lines(1, "nearest10_5up")  # doctest: +NORMALIZE_WHITESPACE
    ['if o1 % 10:', '    a1 = (o1 + 5) // 10 * 10',
     '    st.round_residue[1] += o1 - a1', 'else:', '    a1 = o1']
    """
    up = _rounded_up(f"o{side}", mode)
    if up is None:
        return [f"a{side} = o{side}"]
    return [f"if o{side} % 10:", f"    a{side} = {up}",
            f"    st.round_residue[{side}] += o{side} - a{side}", "else:", f"    a{side} = o{side}"]


def _pair_lines(mech: Mechanisms, r: Rules, ns: dict[str, Any]) -> list[str]:
    """Source of :meth:`TrumpPair.pair_seats` adding to ``pair``: asked of the method
    where an automatic pair must have been played in order."""
    if r.pair_declare == "automatic" and r.pair_order == "first_rank_first":
        ns.update(_pair_seats=mech.trump_pair.pair_seats)
        return ["for s in _pair_seats(st):", f"    pair[_team_of[s]] += {r.pair_value}"]
    return ["if st.pair_by >= 0:  # TrumpPair.pair_seats",
            f"    pair[_team_of[st.pair_by]] += {r.pair_value}",
            "if st.pairs_said:",
            "    for s, _ in st.pairs_said:", f"        pair[_team_of[s]] += {r.pair_value}"]


def takers_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any],
                 usual: bool = True, spread: bool = False) -> list[str] | None:
    """Source lines (in a function of ``st`` and ``how``, after the hand end's head has
    read the card points into ``cap``) that do what :meth:`TakersScore.sheet` does,
    leaving the written lines in ``added`` (with ``spread``, in the locals ``a0``,
    ``a1``...: no list made where nothing after the sheet needs one), the side whose
    announcements count in ``side`` and the tricks won in ``wins``; the names they use
    are put in ``ns``. ``None`` where a mechanism changes a step (see the module's text).

    With ``usual`` (and a pair of trumps that the state's fields tell), the usual hand
    played out (no counting announcement, no pair of trumps, every side with a trick,
    so no capot) runs a shorter copy of the same steps, written by the same code
    (:class:`_Sheet`) with those terms known to be nothing, behind one test; where the
    rules have announcements, a hand of the same kind where some count runs a second
    copy with their terms kept; any other hand runs the whole sheet."""
    if not _own_steps(mech):
        return None
    r = rules
    teams = range(len(r.teams))
    ns.update(_best_side=mech.announcements.best_side, _value=mech.announcements.value,
              _team_of=r.team_of, _strain_kinds=r.strain_kinds, _run_value=_run_values(mech, r))
    # (one announcement: its side's, as Announcements.best_side finds it)
    lines = ["    side = (_team_of[st.announced[0][0]] if len(st.announced) == 1 else "
             "_best_side(st)) if st.announced else -1" if r.combos else "    side = -1",
             "    wins = st.tricks_won",
             "    if how != 'played_out':",
             "        " + ("".join(f"a{t} = " for t in teams) + "0" if spread
                           else f"added = {_zeros(r)}")]
    automatic = r.pair_declare == "automatic" and r.pair_order == "first_rank_first"
    if usual and not automatic:  # the pair of trumps is told by the state's fields
        usual_hand = "st.pair_by < 0 and not st.pairs_said and " + \
            " and ".join(f"wins[{t}]" for t in teams)
        lines.append(f"    elif {usual_hand}:  # the usual hand")
        plain = _Sheet(r, True, spread=spread).body(mech, ns)
        if r.combos:  # (no announcements: side is -1)
            lines += ["        if side < 0:", *("            " + line for line in plain),
                      "        else:  # announcements counted",
                      *("            " + line
                        for line in _Sheet(r, True, True, spread).body(mech, ns))]
        else:
            lines += ["        " + line for line in plain]
    whole = _Sheet(r, False, spread=spread).body(mech, ns)
    return [*lines, "    else:", *("        " + line for line in whole)]


def _run_values(mech: Mechanisms, r: Rules) -> tuple[int, ...]:
    """Per combination of the rules, what :meth:`Announcements.value` gives a run of it
    (its value); 0 for a set (whose value depends on its rank) and for every
    combination where the mechanism values them otherwise, to be asked of it."""
    from .mechanisms import Announcements

    own = type(mech.announcements).value is Announcements.value
    return tuple(0 if combo.same_rank or not own else combo.value for combo in r.combos)


def _zeros(r: Rules) -> str:
    """Source of a list of a zero per side."""
    return f"[{', '.join('0' for _ in r.teams)}]"


def _every(name: str, r: Rules) -> str:
    """Source of the sum of the list ``name`` of a value per side, unrolled (no call)."""
    return " + ".join(f"{name}[{t}]" for t in range(len(r.teams)))


class _Sheet:
    """The steps of :meth:`TakersScore.sheet` for rules ``r``, as source: the whole sheet,
    or (``usual``) the sheet of a hand where the announcements (unless ``announced``)
    and the pair of trumps count nothing (``ann`` and ``pair`` zero) and every side took
    a trick (no capot): each term and branch they cancel left out, the rest written by
    the same lines."""

    def __init__(self, r: Rules, usual: bool, announced: bool = False,
                 spread: bool = False) -> None:
        self.r = r
        self.usual = usual
        self.spread = spread  # the lines left in locals (takers_lines)
        self.announced = announced or not usual  # the announcements' terms written
        self.keeps = r.takers_pair_on_failure == "holder_keeps"

    def ann(self, side: str) -> str:
        """The announcements' points of ``side`` ('' where they count nothing)."""
        return f"ann[{side}]" if self.announced else ""

    def pair(self, side: str) -> str:
        """The pair of trumps' points of ``side`` ('' where it counts nothing)."""
        return "" if self.usual else f"pair[{side}]"

    def every_ann(self) -> str:
        """Every side's announcements' points ('' where they count nothing)."""
        return _every("ann", self.r) if self.announced else ""

    def ann_lines(self) -> list[str]:
        """Source of :meth:`Announcements.points`: ``ann``, the points of the side
        ``side`` (one announcement: its value; else the sum of that side's)."""
        # (a run's value read from the table of the combinations, 0 for a set: asked)
        return [f"ann = {_zeros(self.r)}", "if side >= 0:  # Announcements.points",
                "    ann[side] = (_run_value[st.announced[0][1]] or _value(st, st.announced[0])) "
                "if len(st.announced) == 1 else "
                "sum([_value(st, m) for m in st.announced if _team_of[m[0]] == side])"]

    @staticmethod
    def plus(*terms: str) -> str:
        """Source of the sum of the terms that are there (0 where none is)."""
        return " + ".join(t for t in terms if t) or "0"

    def body(self, mech: Mechanisms, ns: dict[str, Any]) -> list[str]:
        """The sheet of a hand played out, leaving the lines in ``added``."""
        r, usual, plus = self.r, self.usual, self.plus
        teams = range(len(r.teams))
        zeros = _zeros(r)
        body = ["taker = _team_of[st.declarer]", "cards = cap"]  # (the head's card points)
        if not usual:
            body.append(f"tricks = {r.hand_size} + st.draw_tricks")
        to, of = r.all_trump_scale
        if to != of and "all_trump" in r.strain_kinds:  # TakersScore.totals: scaled, halves up
            body += [f"if st.strain >= 0 and _strain_kinds[st.strain - {len(r.suits)}] == "
                     "'all_trump':",
                     f"    cards = [(2 * c * {to} + {of}) // {2 * of} for c in cards]"]
        if not usual:
            capot = f"cards[t] = {r.capot_value}" if r.capot_mode == "flat" else \
                f"cards[t] += {r.capot_value - r.last_trick_points}"
            # (``cards`` is the state's own list until a capot changes it: copied then)
            body += ["if tricks in wins:  # capot", "    t = wins.index(tricks)",
                     "    cards = cards[:]", f"    {capot}", *self.ann_lines(),
                     f"pair = {zeros}", *_pair_lines(mech, r, ns),
                     "capot = wins[taker] == tricks",
                     "if capot and side >= 0 and side != taker:  # the defenders' announcements",
                     "    ann[taker], ann[side] = ann[side], 0  # change sides"]
        elif self.announced:  # (no capot: the announcements stay with their side)
            body += self.ann_lines()
        # (the usual hand without announcements totals the cards as they are: ``totals``
        # is ``cards`` itself, never written to: a line made from it copies it)
        alias = usual and not self.announced
        body.append("totals = cards" if alias else
                    "totals = [" + ", ".join(plus(f"cards[{t}]", self.ann(str(t)),
                                                  self.pair(str(t))) for t in teams) + "]")
        # (the usual hand counts the totals: no pair to leave out)
        counted = "totals" if usual else "counted"
        body += [] if usual else [
            "counted = " + ("totals" if r.takers_counts_pair else
                            "[" + ", ".join(f"cards[{t}] + ann[{t}]" for t in teams) + "]")]
        tie = {"litige": "tied", "tie_fails": "failed", "tie_makes": "made"}[r.takers_tie]
        # (two sides: the other's; more: every other side's together)
        theirs = f"theirs = {counted}[1 - taker]" if len(r.teams) == 2 else \
            f"theirs = {_every(counted, r)} - mine"
        outcome = {"made": self.made_lines(alias), "failed": self.failed_lines(),
                   "tied": self.tied_lines()}
        # a bid (TakersScore._judged, then its sheet, TakersScore.bid_sheet, unless tied),
        # its value read once; else the higher count makes (a capot always), level is
        # the rules' tie; each outcome's lines in its own branch
        bid = [*([theirs] if r.bid_must_beat else []), *self.bid_judged(tie),
               "st.deal_outcome = result"]
        if r.bid_must_beat and tie == "tied":
            bid += ["if result != 'tied':  # TakersScore.bid_sheet",
                    *("    " + line for line in self.bid_lines()),
                    "else:", *("    " + line for line in outcome["tied"])]
        else:
            bid += self.bid_lines()
        # (takers who take no trick fail whatever they announced: TakersScore._judged)
        plain = [theirs, "if mine > theirs:" if usual else
                 "if capot or (mine > theirs and wins[taker]):",
                 "    result = 'made'", *("    " + line for line in outcome["made"]),
                 "elif mine < theirs:" if usual else "elif mine < theirs or not wins[taker]:",
                 "    result = 'failed'",
                 *("    " + line for line in outcome["failed"]),
                 "else:", f"    result = {tie!r}", *("    " + line for line in outcome[tie]),
                 "st.deal_outcome = result"]
        body += [f"mine = {counted}[taker]",
                 *([] if usual else [f"out = {zeros}", "pair_only = -1"]),
                 "contract = st.contract", "if contract:  # a bid",
                 *("    " + re.sub(_CONTRACT, "contract", line) for line in bid),  # read once
                 "else:", *("    " + line for line in plain),
                 "if winner >= 0 and st.pot:", "    out[winner] += st.pot", "    st.pot = 0"]
        if r.pair_alone_cannot_win:  # TakersScore.mark_pair_only
            body += self.pair_only_lines()
        if r.round_mode == "none":
            body.append("".join(f"a{t}, " for t in teams) + "= out" if self.spread
                        else "added = out")
        else:
            body.append("".join(f"o{t}, " for t in teams) + "= out")
            for t in teams:  # with the totals before rounding kept beside the written
                body += _residue_lines(t, r.round_mode) if r.round_game_rule else \
                    [f"a{t} = {_rounded(f'o{t}', r.round_mode)}"]
            if not self.spread:
                body.append("added = [" + ", ".join(f"a{t}" for t in teams) + "]")
        return body

    def other(self, side: str) -> str:
        """Source of the side opposing ``side`` (a local name)."""
        return f"1 - {side}" if len(self.r.teams) == 2 else f"st.opponent({side})"

    def made_lines(self, alias: bool) -> list[str]:
        """Source of the sheet of a take made without a bid: each side writes its total
        (copied where ``totals`` is the state's own card points)."""
        return ["out = totals[:]" if alias else "out = totals", "winner = taker"]

    def failed_lines(self) -> list[str]:
        """Source of the sheet of a take failed without a bid: the defenders write the
        failed take's points (or their capot), every announcement and the pair."""
        r, usual = self.r, self.usual
        lines = ["winner = " + self.other("taker"), *([f"out = {_zeros(r)}"] if usual else [])]
        if self.keeps and not usual:
            lines += ["if pair[taker]:", "    out[taker] = pair[taker]", "    pair_only = taker"]
        base = str(r.takers_failed_points) if usual else "base"
        if not usual:
            lines.append("base = cards[winner] if wins[winner] == tricks else "
                         f"{r.takers_failed_points}")
        return [*lines, "out[winner] = " + self.plus(
            base, self.every_ann(), self.pair("winner"), "" if self.keeps else self.pair("taker"))]

    def tied_lines(self) -> list[str]:
        """Source of the sheet of a tie (a litige): the defenders write theirs, the
        takers' total waits for the next hand."""
        lines = ["winner = -1", *([f"out = {_zeros(self.r)}"] if self.usual else [])]
        for t in range(len(self.r.teams)):
            lines += [f"if taker != {t}:", f"    out[{t}] = totals[{t}]"]
        return [*lines, "st.pot += totals[taker]"]

    def pair_only_lines(self) -> list[str]:
        """Source of :meth:`TakersScore.mark_pair_only`: the sides that took no trick and
        score only their pair of trumps are held back from winning the match."""
        teams = range(len(self.r.teams))
        mask = ~sum(1 << t for t in teams)
        if self.usual:  # every side took a trick, none scored its pair alone
            return ["if st.no_win:", f"    st.no_win &= {mask}"]
        every = " and ".join(f"wins[{t}]" for t in teams)
        body = [f"if pair_only < 0 and {every}:  # every side took a trick: none held back",
                "    if st.no_win:", f"        st.no_win &= {mask}", "else:"]
        for t in teams:  # no trick: only its pair of trumps
            body += [f"    if not wins[{t}] and pair[{t}] and out[{t}] == pair[{t}]:",
                     f"        pair_only = {t}"]
        body += ["    no_win = st.no_win"]
        for t in teams:
            body += [f"    if wins[{t}]:", f"        no_win &= {~(1 << t)}"]
        return [*body, "    if pair_only >= 0:", "        no_win |= 1 << pair_only",
                "    st.no_win = no_win"]

    def bid_judged(self, tie: str) -> list[str]:
        """Source of :meth:`TakersScore._judged` for a bid (``st.contract`` set):
        ``result`` from ``mine``, ``theirs`` and ``capot``."""
        r = self.r
        capot = "False" if self.usual else "capot"
        lines = []
        if r.sa_capot_value:
            lines += [f"if st.contract == {r.sa_capot_value}:",
                      "    result = 'failed'" if self.usual else
                      f"    result = 'made' if {capot} else 'failed'"]
        if r.sa_generale_value:  # every trick by the bidder alone
            lines += [f"{'el' if lines else ''}if st.contract == {r.sa_generale_value}:",
                      "    result = 'failed'" if self.usual else
                      "    result = 'made' if capot and all([w == st.declarer "
                      "for _, _, w in st.tricks]) else 'failed'"]
        if r.bid_must_beat:
            lines += [f"{'el' if lines else ''}if mine == theirs and mine >= st.contract:",
                      f"    result = {tie!r}"]
        ok = ["mine >= st.contract"]
        if r.bid_must_beat:
            ok.append("mine > theirs")
        if r.bid_80_needs_82:
            ok.append("(st.contract >= 82 or mine >= 82)")  # a bid below 82 needs 82
        made = f"result = 'made' if {' and '.join(ok)} else 'failed'"
        return [*lines, "else:", f"    {made}"] if lines else [made]

    def bid_lines(self) -> list[str]:
        """Source of :meth:`TakersScore.bid_sheet`: ``out``, ``winner`` and ``pair_only``
        of a bid made or failed (``result``), before the held-over total and rounding."""
        r, usual, plus, keeps = self.r, self.usual, self.plus, self.keeps
        lines = [f"m = (1, 2, {r.bid_redouble_factor})[st.kontras]",
                 "winner = taker if result == 'made' else " + self.other("taker"),
                 *([] if usual else ["loser = " + self.other("winner")])]  # (usual: no pair)
        flat = r.bid_capot_cards == "flat"
        if flat and not usual:
            lines += ["if wins[taker] == tricks:", "    cards = cards[:]",
                      f"    cards[taker] = {r.bid_capot_base}"]
        mine = plus("cards[taker]", self.ann("taker"), self.pair("taker"))
        made = {"bid_only": plus("st.contract", self.pair("taker")), "made_only": mine}.get(
            r.bid_score_mode, f"st.contract + {mine}")
        lines += ["if result == 'made' and m == 1:", "    out = totals[:]",
                  f"    out[taker] = {made}", *([] if usual else ["    pair_only = -1"]),
                  "else:", f"    out = {_zeros(r)}"]
        # (in the usual hand no capot: only a bid of a capot or a générale counts as one)
        capot_bids = tuple(v for v in (r.sa_capot_value, r.sa_generale_value)) \
            if flat and (r.sa_capot_value or r.sa_generale_value) else ()
        if not usual:
            lines.append("    capot_won = wins[winner] == tricks" if r.bid_defence_capot
                         else "    capot_won = wins[winner] == tricks and winner == taker")
            if capot_bids:
                lines.append(f"    capot_won = capot_won or st.contract in {capot_bids}")
            base = f"({r.bid_capot_base} if capot_won else {r.bid_failed_base})"
        elif capot_bids:
            base = f"({r.bid_capot_base} if st.contract in {capot_bids} else " \
                f"{r.bid_failed_base})"
        else:
            base = str(r.bid_failed_base)
        every = self.every_ann()
        won_pair = plus(self.pair("winner"), "" if keeps else self.pair("loser"))
        won_pair = "" if won_pair == "0" else won_pair
        if r.bid_multiplier_base == "bid_only":
            score = plus(base, every, "m * st.contract", won_pair)
        elif r.bid_pair_multiplied:
            score = f"({plus(base, every, 'st.contract', won_pair)}) * m"
        else:
            score = plus(f"({plus(base, every, 'st.contract')}) * m", won_pair)
        if r.bid_multiplier_base == "fixed_320_640":
            lines += ["    if m > 1:", "        out[winner] = 320 if m == 2 else 640", "    else:",
                      f"        out[winner] = {score}"]
        else:
            lines.append(f"    out[winner] = {score}")
        if not usual:
            lines.append("    pair_only = -1")
            if keeps:
                lines += ["    if pair[loser]:", "        out[loser] = pair[loser]",
                          "        pair_only = loser"]
        return lines


def takers_facts(ns: dict[str, Any], mech: Mechanisms, rules: Rules,
                 values: dict[str, str]) -> list[str]:
    """Source lines that append the hand's record with the contract's facts, as
    :meth:`TakersScore.facts` gives them (``side`` worked out by :func:`takers_lines`),
    where the record's other fields are ``values`` (:func:`record_values`)."""
    # (the outcome: '' where not played, else one of the reference judgement's)
    ns.update(_outcome=mech.takers.outcome,
              _made_of={"made": True, "failed": False, "tied": None, "": None})
    facts = {"declarer": "st.declarer", "contract": "st.contract", "kontras": "st.kontras",
             "trump": "(st.trump if st.strain < 0 else st.strain)",
             "made": "_made_of[outcome]",
             "outcome": "outcome", "announce_side": "side", "held": "st.pot"}
    # (a deal not played out: no outcome, nothing made, as constants)
    unplayed = {**values, **facts, "made": "None", "outcome": "''"}
    return ["    if st.declarer < 0:",
            *record_lines("st._history", {**values, "held": "st.pot"}, ns,
                          "        ", plain=True),
            f"    elif len(st.tricks) == {rules.hand_size} + st.draw_tricks:  # played",
            "        outcome = st.deal_outcome or _outcome(st)",
            *record_lines("st._history", {**values, **facts}, ns, "        ", plain=True),
            "    else:", *record_lines("st._history", unplayed, ns, "        ", plain=True)]


def _entry(side: int, spread: bool) -> str:
    """Source of the line written for ``side``: the item of ``added``, or with
    ``spread`` the local of its own (:func:`takers_lines`)."""
    return f"a{side}" if spread else f"added[{side}]"


def added_lines(sides: int, spread: bool = False) -> str:
    """Source of ``scores[t] += added[t]`` for every side, as one assignment (fewer
    bytecodes than one augmented assignment per side); with ``spread``, of the locals
    ``a0``, ``a1``... (:func:`takers_lines`).

    >>> added_lines(2)
    'scores[0], scores[1] = scores[0] + added[0], scores[1] + added[1]'
    >>> added_lines(2, spread=True)
    'scores[0], scores[1] = scores[0] + a0, scores[1] + a1'
    """
    return ", ".join(f"scores[{t}]" for t in range(sides)) + " = " + \
        ", ".join(f"scores[{t}] + {_entry(t, spread)}" for t in range(sides))


def game_points_spread(r: Rules) -> bool:
    """Whether :func:`game_points_lines` can leave the game points in locals: two sides,
    no seat out scoring with the hand's winner."""
    return len(r.teams) == 2 and r.sitter_score != "hand_winner"


def game_points_lines(mech: Mechanisms, rules: Rules, ns: dict[str, Any],
                      spread: bool = False) -> list[str] | None:
    """Source lines that do what :meth:`GamePoints.hand_score` does (the talon games),
    leaving the game points in ``added`` (with ``spread``, two sides and no seat out
    scoring, in the locals ``a0`` and ``a1``) and the hand's winner in ``won``: a hand
    played out written for the rules (the last trick's points, or the loser's points and
    tricks on the scale); a claim or a close asked of the mechanism. ``None`` where the
    game points' scoring or scale is not the reference one."""
    from .mechanisms import GamePoints

    cls = type(mech.game_points)
    if any(getattr(cls, step) is not getattr(GamePoints, step)
           for step in ("hand_score", "scale", "failed_close", "pass_deal", "sitter")):
        return None
    r = rules
    teams = range(len(r.teams))
    gp = mech.game_points
    ns.update(_team_of=r.team_of, _gp_score=gp.hand_score, _pass_deal=gp.pass_deal)
    spread = spread and game_points_spread(r)
    lines = ["    if how == 'claim' or how == 'false_claim':",
             "        added, won = _gp_score(st, how)", *(["        a0, a1 = added"] if spread
                                                         else []), "    else:"]
    # a failed close: the closer's opponent scores (GamePoints.failed_close)
    closer = "_team_of[st.closed_by]"
    body = ["if st.closed_by >= 0:"]
    if len(r.teams) == 2:
        body.append(f"    won = 1 - {closer}")
    else:  # GameState.opponent: [side][the side sitting out + 1] (None: no opponent)
        ns["_opponent"] = tuple(
            tuple(next((t for t in teams if t != team and t != out), None)
                  for out in (-1, *teams)) for team in teams)
        body += [f"    won = _opponent[{closer}][{_OUT_SIDE}]",
                 "    if won is None:", f"        won = st.opponent({closer})"]
    body += ["    if st.close_opp_tricks == 0:", f"        value = {r.gp_failed_trickless}"]
    if r.gp_failed_mode == "closer_scale":  # the first row the closer's points reach
        body += ["    else:", f"        closer = pts[{closer}]",
                 f"        value = {r.gp_failed_points}"]
        for i, (least, _, value) in enumerate(r.gp_scale):
            body += [f"        {'if' if i == 0 else 'elif'} closer >= {least}:",
                     f"            value = {value}"]
    else:
        body += ["    else:", f"        value = {r.gp_failed_points}"]
    if r.gp_played_mode == "last_trick":
        played = ["won = _team_of[st.last_winner]", f"value = {r.gp_played_points}"]
    else:  # the higher total wins, on the scale of the loser's points and tricks
        sides = "0, 1" if len(r.teams) == 2 and r.sits_out == "none" else \
            sides_in_hand(r, ns)
        played = [f"one, other = {sides}", "points, others = pts[one], pts[other]",
                  "if points == others:", "    won = None", "    value = 0", "else:",
                  "    if points > others:", "        won, loser, low = one, other, others",
                  "    else:", "        won, loser, low = other, one, points",
                  "    tricks = st.tricks_won[loser]"]
        scale = r.gp_scale
        for i, (least, min_tricks, value) in enumerate(scale):
            played += [f"    {'if' if i == 0 else 'elif'} low >= {least} "
                       f"and tricks >= {min_tricks}:", f"        value = {value}"]
        played += ["    else:", f"        value = {scale[-1][2]}"] if scale else []
    body += ["else:", *("    " + line for line in played)]
    if spread:  # (two sides: the winner's the game points, the other's none)
        won = ["value += st.carry_bonus", "st.carry_bonus = 0", "if won == 0:",
               "    a0 = value", "    a1 = 0", "else:", "    a0 = 0", "    a1 = value"]
        # (a hand played out of the last trick's points, a failed close: always a winner)
        body += won if r.gp_played_mode == "last_trick" else [
            "if won is None:", "    a0 = a1 = 0",
            *([f"    st.carry_bonus += {r.draw_bonus}"] if r.draw_bonus else []), "else:",
            *("    " + line for line in won)]
        return lines + ["        " + line for line in body + _next_dealer_lines(r, ns)]
    body += [f"added = [{', '.join('0' for _ in teams)}]", "if won is None:"]
    body.append(f"    st.carry_bonus += {r.draw_bonus}" if r.draw_bonus else "    pass")
    body += ["else:", "    added[won] = value + st.carry_bonus", "    st.carry_bonus = 0"]
    if r.sitter_score == "hand_winner":  # GamePoints.sitter: the seat out scores too
        # (a placed player sitting out scores nothing: match.places)
        body += ["    if st.out >= 0 and not st.placed:" if r.places_rule is not None
                 else "    if st.out >= 0:", "        out = _team_of[st.out]"]
        if r.sitter_below_target:  # one short of the target at most
            body += ["        value = added[won]",
                     f"        least = {r.match_target - 1} - st.match_scores[out]",
                     "        added[out] = max(0, value if value < least else least)"]
        else:
            body.append("        added[out] = added[won]")
    body += _next_dealer_lines(r, ns)
    return lines + ["        " + line for line in body]


#: the side of the seat sitting the hand out, plus one (0: nobody sits out)
_OUT_SIDE = "_team_of[st.out] + 1 if st.out >= 0 else 0"


def in_hand_flags(r: Rules, ns: dict[str, Any]) -> str:
    """Source of a flag per side, whether it plays the hand (the sides of
    :meth:`GameState.sides_in_hand`), looked up by the side sitting out in a table made
    here (put in ``ns``): a side's flag is one look, no search of the sides.

    >>> from mariage import load_rules
    >>> ns = {}
    >>> in_hand_flags(load_rules("thousand-4"), ns), ns["_in_hand"][1]
    ('_in_hand[_team_of[st.out] + 1 if st.out >= 0 else 0]', (False, True, True, True))
    """
    teams = range(len(r.teams))
    ns["_in_hand"] = tuple(tuple(t != out for t in teams) for out in (-1, *teams))
    return f"_in_hand[{_OUT_SIDE}]"


def sides_in_hand(r: Rules, ns: dict[str, Any]) -> str:
    """Source of :meth:`GameState.sides_in_hand` for ``r``: where a seat may sit the hand
    out, looked up by the side sitting out in a table made here (put in ``ns``)."""
    teams = range(len(r.teams))
    if r.sits_out == "none":
        return repr(tuple(teams))
    ns["_sides_in_hand"] = tuple(tuple(t for t in teams if t != out) for out in (-1, *teams))
    return f"_sides_in_hand[{_OUT_SIDE}]"


def _next_dealer_lines(r: Rules, ns: dict[str, Any]) -> list[str]:
    """Source of :meth:`GamePoints.pass_deal` (the next dealer by the hand's winner
    ``won``): the seat of each side next after each dealer looked up in a table made
    here; where the losing side deals among more than two sides (whose opponent
    depends on the seat sitting out), the mechanism is asked."""
    if r.rotation not in ("hand_winner", "hand_loser"):
        return []
    if r.rotation == "hand_loser" and len(r.teams) != 2:
        return ["_pass_deal(st, won)"]
    n = r.nseats
    # [dealer][side]: that side's player next after the dealer (as pass_deal finds him)
    ns["_dealer_after"] = tuple(
        tuple(next(s % n for s in range(dealer + 1, dealer + n + 1) if r.team_of[s % n] == t)
              for t in range(len(r.teams)))
        for dealer in range(n))
    side = "won" if r.rotation == "hand_winner" else "1 - won"
    return ["dealer = st.dealer", "if dealer is None:", "    pass", "elif won is None:",
            "    st.next_dealer = dealer", "else:",
            f"    st.next_dealer = _dealer_after[dealer][{side}]"]
