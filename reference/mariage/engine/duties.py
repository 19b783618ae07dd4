"""The play duties by generated code: the cards a seat may play now, as
:meth:`~mariage.engine.mechanisms.trickplay.TrickPlay.legal_plays` works them out,
written as straight-line code for the obligations each ruleset holds.

The card play and listing of :mod:`mariage.engine.fastpath`, the dispatch table and
:meth:`GameState.legal_plays` take the function :func:`duties` writes; a trick play
mechanism that overrides a step of the duties keeps its own method.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import codegen

if TYPE_CHECKING:
    from .mechanisms import Mechanisms
    from .rules import Obligation, Rules
    from .state import GameState

__all__ = ["duties"]

#: the methods of :class:`TrickPlay` that :func:`duties` writes out (or calls): a trick
#: play mechanism overriding one of them keeps its own :meth:`TrickPlay.legal_plays`
_DUTY_METHODS = ("legal_plays", "winner_index", "opponent_winning", "partner_winning_plays",
                 "last_seat_plays", "lead_limits")


def duties(mech: Mechanisms, rules: Rules) -> Callable[[GameState, int], int]:
    """The cards ``seat`` may play now, as :meth:`TrickPlay.legal_plays` works them out,
    by straight-line code written for the obligations of ``rules``; that method itself
    where the trick play mechanism overrides one of the steps it takes.

    The duties of each obligation the rules hold (with the stock, without it, and
    a contract's own, as all trumps) are written out with their values: a duty
    that cannot apply is left out, the trick's winner is worked out inline,
    unrolled for the seats of a trick. An obligation the rules do not hold goes
    to the method.

    >>> from mariage import load_rules, new_match
    >>> from mariage.engine.mechanisms import DEFAULT_MECHANISMS
    >>> state = new_match(load_rules("belote"), 3)
    >>> legal = duties(DEFAULT_MECHANISMS, state.rules)
    >>> [legal(state, s) == state.legal_plays(s) for s in range(4)]
    [True, True, True, True]
    """
    from .mechanisms.trickplay import TrickPlay
    from .rules import When

    cls = type(mech.tricks)
    if any(getattr(cls, m) is not getattr(TrickPlay, m) for m in _DUTY_METHODS):
        return mech.tricks.legal_plays
    obs: list[Obligation] = []
    for ob in (rules.obligation_stock, rules.obligation_no_stock, rules.all_trump_obligation):
        if ob is not None and all(ob is not o for o in obs):
            obs.append(ob)
    ns: dict[str, Any] = {
        "_generic": mech.tricks.legal_plays, "_lead_limits": mech.tricks.lead_limits,
        "_partner": mech.tricks.partner_winning_plays, "_last_seat": mech.tricks.last_seat_plays,
        "suit_of": rules.suit_of, "_suit_mask": rules.suit_mask, "_team_of": rules.team_of}
    lines = ["def legal_plays(st, seat):", "    hand = st.hands[seat]",
             "    if st._free_play:", "        return hand", "    f = st.forced[seat]",
             "    if f >= 0:", "        return 1 << f", "    trick = st.trick_cards",
             "    if not trick:", "        if st.lead_mask:",
             "            return hand & st.lead_mask"]
    if rules.first_card_prefs:
        lines += ["        if st.trick_no == 1:"]
        for pref in rules.first_card_prefs:
            lines += [f"            if hand & {pref}:", f"                return hand & {pref}"]
    if rules.foreign_trump_rule is not None or rules.decl_auto_rule is not None:
        lines.append("        return _lead_limits(st, seat, hand)")
    else:
        lines.append("        return hand")
    lines.append("    ob = st._ob_stock if st.trick_no <= st.draw_tricks else st._ob_no_stock")
    winner = ["w = 0", "c = trick[0]", "bs = suit_of[c]", "strength = st._strength",
              "bst = strength[c]", "trump = st.trump", "n = len(trick)"]
    for i in range(1, rules.hand_seats - 1):  # the cards after the lead, unrolled
        pad = "    " * (i - 1)
        winner += [f"{pad}if n > {i}:", f"{pad}    c = trick[{i}]", f"{pad}    s = suit_of[c]",
                   f"{pad}    if s == bs:", f"{pad}        if strength[c] > bst:",
                   f"{pad}            w, bst = {i}, strength[c]", f"{pad}    elif s == trump:",
                   f"{pad}        w, bs, bst = {i}, s, strength[c]"]
    opponent = "_team_of[st.trick_seats[w]] != _team_of[seat]"
    for i, ob in enumerate(obs):
        ns[f"_ob{i}"] = ob
        body: list[str] = []
        if not ob.follow:
            body.append("return hand")
        else:
            body += ["led = suit_of[trick[0]]", "in_suit = hand & _suit_mask[led]", "if in_suit:"]
            if rules.first_trick_rank >= 0:
                body += ["    if st.trick_no == 1:",
                         f"        top = in_suit & {rules.rank_mask[rules.first_trick_rank]}",
                         "        if top:", "            return top"]
            if ob.head is not When.NEVER:
                head = ["    " + w for w in winner]
                if ob.head is not When.ALWAYS:
                    head.append(f"    if {opponent}:")
                pad = "        " if ob.head is not When.ALWAYS else "    "
                head.append(f"{pad}wc = trick[w]")
                if ob.head_beat == "suit_best":
                    head += [f"{pad}if suit_of[wc] != led:",
                             f"{pad}    wc = max((c for c in trick if suit_of[c] == led), "
                             "key=strength.__getitem__)"]
                head += [f"{pad}if suit_of[wc] == led:",
                         f"{pad}    higher = in_suit & st._higher[wc]",
                         f"{pad}    if higher:", f"{pad}        return higher"]
                if ob.head_suits == "all":
                    body += head
                else:
                    body += ["    if led == st.trump:", *("    " + h for h in head)]
            body.append("    return in_suit")
            if ob.void_duty != "none":
                body += ["trump = st.trump", "if trump >= 0:",
                         "    trumps = hand & _suit_mask[trump]", "    if trumps:",
                         *("        " + w for w in winner)]
                always = ob.void_when is When.ALWAYS
                pad = "        " if always else "            "
                if not always:
                    body.append(f"        if {opponent}:")
                if ob.last_seat_free:
                    body += [f"{pad}last = _last_seat(st, seat, hand, trumps, w)",
                             f"{pad}if last:", f"{pad}    return last"]
                if ob.void_duty == "trump":
                    body.append(f"{pad}return trumps")
                else:
                    body += [f"{pad}wc = trick[w]",
                             f"{pad}beating = trumps & st._higher[wc] "
                             "if suit_of[wc] == trump else trumps",
                             f"{pad}if beating:",
                             f"{pad}    return trumps" if ob.void_any_trump
                             else f"{pad}    return beating"]
                    if ob.void_duty == "overtrump":
                        body.append(f"{pad}return trumps")
                    elif ob.void_duty == "beat_or_discard":
                        body += [f"{pad}if hand != trumps:", f"{pad}    return hand ^ trumps"]
                if not always and ob.void_partner != "free":
                    body += ["        else:",
                             "            return _partner(st, ob, hand, trumps, w)"]
            body.append("return hand")
        lines.append(f"    if ob is _ob{i}:")
        lines += ["        " + b for b in body]
    lines.append("    return _generic(st, seat)")
    codegen.run("\n".join(lines) + "\n", f"<duties of {rules.ruleset}>", ns)
    fn: Callable[[GameState, int], int] = ns["legal_plays"]
    return fn
