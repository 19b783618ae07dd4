"""The overview of a rulebook: a ruleset's facts at a glance (:func:`facts`), one line per
aspect (players, pack, card points, trump, duties, declarations, scoring, the match's end),
worded from the compiled rules so that it says what the interpreter does under every
option; also the phrases the rest of the rulebook shares (card and suit names, the pack's
points, a declaration's pattern and value). :mod:`mariage.rulebook.render` puts it first.

>>> from mariage import load_rules
>>> dict(facts(load_rules("schnapsen")))["Tricks per hand"]
'10'
"""

from __future__ import annotations

from mariage.engine.arguments import check_rules
from mariage.engine.optionnote import counted
from mariage.engine.rules import Rules

__all__ = ["SUIT_NAMES", "SUIT_SYMBOLS", "card_name", "declaration_value", "facts", "pack_text",
           "pattern_text", "per_suit_text", "suits_text"]

SUIT_SYMBOLS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}
_RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "2": "two",
               "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
               "9": "nine"}


def card_name(rank: str) -> str:
    """A rank's name in words ("K" -> "king"); a rank with no name is itself.

    >>> card_name("T"), card_name("Z")
    ('ten', 'Z')
    """
    return _RANK_NAMES.get(rank, rank)


def suits_text(rules: Rules) -> str:
    """The suits in the pack's order, each as its symbol and its name.

    >>> from mariage import load_rules
    >>> suits_text(load_rules("thousand"))
    '♥ hearts, ♦ diamonds, ♣ clubs, ♠ spades'
    """
    return ", ".join(f"{SUIT_SYMBOLS.get(s, s)} {SUIT_NAMES.get(s, s)}" for s in rules.suits)


def pack_text(rules: Rules, what: str) -> str:
    """The pack's card points, then ``what``; with a trump suit where trumps score
    otherwise.

    >>> from mariage import load_rules
    >>> pack_text(load_rules("belote"), " in the pack")
    '152 in the pack with a trump suit (120 without)'
    """
    if not rules.role_points or sum(rules.role_points[0]) == rules.pack_points:
        return f"{rules.pack_points}{what}"
    return f"{sum(rules.role_points[0])}{what} with a trump suit ({rules.pack_points} without)"


def per_suit_text(rules: Rules) -> str:
    """How many cards each suit has: "10 in each suit", or the counts where a card was
    taken out of one suit.

    >>> from mariage import load_rules
    >>> per_suit_text(load_rules("marianna-3"))
    '10 in hearts, diamonds and clubs, 9 in spades'
    """
    counts = [sum(1 for c in range(rules.ncards) if rules.suit_of[c] == s)
              for s in range(len(rules.suits))]
    if len(set(counts)) == 1:
        return f"{counts[0]} in each suit"
    groups = [(n, [SUIT_NAMES.get(rules.suits[s], rules.suits[s])
                   for s, k in enumerate(counts) if k == n])
              for n in sorted(set(counts), reverse=True)]
    return ", ".join(f"{n} in " + (" and ".join(names) if len(names) < 3
                                   else ", ".join(names[:-1]) + " and " + names[-1])
                     for n, names in groups)


def _duty_text(rules: Rules, stock_phase: bool) -> str:
    ob = rules.obligation_stock if stock_phase else rules.obligation_no_stock
    if ob is None or not ob.follow:
        return "none: any card may be played"
    parts = ["follow suit"]
    if ob.head.value != "never":
        who = " an opponent's" if ob.head.value == "opponent_winning" else ""
        where = " a trump lead" if ob.head_suits == "trump" else ""
        parts.append("beat the best card of the suit led when following (even in a trumped "
                     "trick)" if ob.head_beat == "suit_best" else
                     f"beat{who or ' the'} winning card when following{where}")
    against = " and an opponent is winning" if ob.void_when.value == "opponent_winning" else ""
    if ob.void_duty == "trump" or (ob.void_any_trump and ob.void_duty == "overtrump"):
        parts.append("trump when void")
    elif ob.void_any_trump:
        parts.append(f"trump (any) when void{against} while a trump can win")
    elif ob.void_duty == "beat":
        parts.append(f"trump to win when void{against}")
    elif ob.void_duty == "overtrump":
        parts.append(f"trump when void{against}, over-trumping if able")
    return ", ".join(parts)


def declaration_value(rules: Rules, i: int) -> str:
    """What declaration ``i`` of the rules scores, in words (a value, values by suit or by
    order in the hand, a schedule).

    >>> from mariage import load_rules
    >>> declaration_value(load_rules("thousand"), 0)
    'hearts 100, diamonds 80, clubs 60, spades 40'
    """
    d = rules.declarations[i]
    unit = " game point" if d.units == "game_points" else ""
    if d.schedule and d.ordered:
        text = ", ".join(str(v) for v in d.schedule) + " by order in the hand"
    elif d.next_in_order_plus is not None:  # Marianna's option: the next marianna's value + 200
        text = f"the next value in the order + {d.next_in_order_plus}"
    elif d.suit_values:  # by suit (Thousand: hearts 100, diamonds 80, clubs 60, spades 40)
        text = ", ".join(f"{SUIT_NAMES.get(s, s)} {v}"
                         for s, v in zip(rules.suits, d.suit_values, strict=True))
    else:
        text = f"{d.fixed}{unit}" + ("s" if unit and d.fixed != 1 else "")
    if d.if_trump_suit is not None and d.if_trump_suit != d.fixed:
        text += f" ({d.if_trump_suit} in trump)"
    if d.if_makes_trump is not None:
        text += f" ({d.if_makes_trump} if it makes trump)"
    if d.wins_match:
        text += "; wins the match"
    return text


def pattern_text(rules: Rules, i: int) -> str:
    """The cards declaration ``i`` of the rules is made of, in words.

    >>> from mariage import load_rules
    >>> pattern_text(load_rules("thousand"), 0)
    'a king and a queen of one suit'
    """
    d = rules.declarations[i]
    parts = []
    for rank_mask, count in d.rank_counts:
        rank = rules.ranks[rules.rank_of[(rank_mask & -rank_mask).bit_length() - 1]]
        name = card_name(rank)
        if count == 1:
            parts.append(("an " if name[0] in "aeiou" else "a ") + name)
        else:
            parts.append(f"{_NUMBERS.get(count, str(count))} {name}s")
    text = " and ".join(parts)
    if d.same_suit:
        text += " of one suit"
    if d.whole_hand:
        text += " (the whole hand)"
    return text


def _trump_text(rules: Rules) -> str:
    if rules.turn_up == "dealer_last":
        return "the suit of the dealer's last card, dealt face up"
    if rules.turn_up == "under_stock":
        return "the suit of a card turned face up under the stock"
    if rules.take_rule is not None:
        return "the suit of the turned card, or one named in a second round, by its taker"
    if rules.sa_rule is not None:
        return "the suit of the winning bid"
    setters = [d for d in rules.declarations if d.trump_effect != "none"]
    if rules.calls_rule is not None:
        which = "the latest" if rules.call_trump_latest else "the first"
        return f"none at first; a called pair (king and ober) makes its suit trump, {which} rules"
    if not setters:
        return "none"
    first = all(d.trump_effect == "first_fixes" for d in setters)
    how = "the first trump staying for the hand" if first else "a later one changing it"
    return f"none at first; a {setters[0].name} makes its suit trump, {how}"


def _score_text(rules: Rules) -> str:
    kind = rules.score_kind
    if kind == "points":
        extra = " plus declarations" if rules.declarations else ""
        return f"card points{extra}, added to the running score"
    if kind == "excess":
        total = rules.pack_points + rules.trick_point * (rules.ncards // rules.nseats)
        return (f"game points: the excess over {rules.excess_threshold} of the hand's {total}"
                f" ({rules.pack_points} card points + {rules.trick_point} per trick)")
    if kind == "table":
        return ("game points from a table (threshold, declarations, last trick"
                + (", majority)" if rules.table_majority_mode == "separate" else ")"))
    if kind == "game_points":
        scale = ", ".join(str(v) for _, _, v in rules.gp_scale)
        text = (f"the winner of the hand scores {scale} game points by how badly the loser did"
                " (points, tricks)")
        rows = [w for w, on in (("claims", rules.claim_rule), ("closing", rules.close_rule)) if on]
        text += f"; {' and '.join(rows)} have their own rows" if rows else ""
        if rules.capture_bonus_rule is not None:
            card = card_name(rules.ranks[rules.capture_bonus_rank])
            suit = "trumps" if rules.capture_bonus_suit < 0 else \
                SUIT_NAMES.get(rules.suits[rules.capture_bonus_suit], "")
            text += (f"; the side that wins the {card} of {suit} in a trick scores "
                     f"{rules.capture_bonus_value} more")
        return text
    if kind == "contract":
        if rules.sheet_mode == "wurzel":
            own = f"points rounded to {rules.rounding}" if rules.rounding > 1 else "own points"
            return ("the game value for the playing party (minus if failed), the defenders' "
                    f"{own}; schwarz costs {rules.schwarz_factor} times the value")
        if rules.sheet_mode == "each_rounded":
            return ("the contract for the declarer (minus if failed); each opponent his own "
                    f"points rounded {'down ' if rules.round_down else ''}to "
                    f"{rules.rounding}")
        return "the game value for the playing party, plus if made, minus if failed"
    if kind == "takers":  # classic: more than the defenders; an auction: the bid (and more)
        ann, bid = rules.combos, rules.sa_rule
        need = ("their bid" + (" and more than the defenders" if rules.bid_must_beat else "")
                if bid else "more than the defenders")
        won = [str(rules.bid_failed_base if bid else rules.takers_failed_points),
               *(["the bid"] if bid else []), *(["every counting announcement"] if ann else [])]
        return (f"each side's card points{', announcements' if ann else ''} and pair of "
                f"trumps; the takers need {need}, or the defenders score "
                + ", ".join(won[:-1]) + " and " + won[-1])
    return "the higher score takes the hand (a segno)"


def _match_text(rules: Rules) -> str:
    if rules.match_measure == "hands_won":
        return f"first to win {rules.match_target} hands"
    if rules.match_measure == "hands_played":
        return f"{rules.match_target} hands; the higher total wins"
    unit = "game points" if rules.score_kind in ("excess", "table", "game_points") \
        else "points"
    return f"first to {rules.match_target} {unit}"


def facts(rules: Rules) -> list[tuple[str, str]]:
    """The ruleset at a glance, as (label, value) pairs (also the comparison rows)."""
    check_rules(rules, "facts")
    n = rules.nseats
    teams = " against ".join(
        f"{rules.team_names[t]} ({' and '.join(rules.seat_names[s] for s in seats)})"
        for t, seats in enumerate(rules.teams))
    if all(len(t) == 1 for t in rules.teams):
        players = f"{n}, each playing alone"
    else:
        players = f"{n}, in partnerships: {teams}"
    if rules.sits_out != "none":
        who = {"dealer": "the dealer", "before_dealer": "the player before the dealer",
               "opposite_dealer": "the player opposite the dealer"}[rules.sits_out]
        players += f"; {who} sits each hand out, the other {rules.hand_seats} play it"
    side = "right" if rules.direction == "anticlockwise" else "left"
    m = rules.hand_seats  # the seats dealt and playing a hand
    tricks = (m * rules.hand_size + rules.stock_size - rules.talon_out) // m
    stock = "none: every card is dealt"
    if rules.stock_size:
        stock = (f"{rules.stock_size} cards; after each of the first {rules.stock_size // m} "
                 f"tricks every player{' in the hand' if m < n else ''} draws one")
        if rules.turn_up == "under_stock":
            stock += " (the last card drawn is the turned-up card)"
    hand = f"{rules.hand_size} cards each"
    if rules.take_rule is not None:  # the rest is dealt once the turned card is taken
        hand += f", {rules.ncards // m} once the turned card is taken (the second deal)"
        stock, tricks = "none: what the first deal leaves is dealt in the second", \
            rules.ncards // m
    if rules.talon_rule is not None:  # a talon for the auction's winner, not a stock
        shown = {"always": "shown to all", "never": "not shown"}.get(
            rules.talon_shown, "shown unless won at the lowest bid")
        stock = f"a talon of {rules.stock_size} cards, {shown}, taken by the declarer"
        if rules.talon_packets > 1:  # packets (musiks): one chosen and shown, the rest unseen
            stock = (f"a talon in {_NUMBERS.get(rules.talon_packets)} packets of "
                     f"{rules.stock_size // rules.talon_packets}: the declarer takes one, "
                     f"{shown}; the other{'s are' if rules.talon_packets > 2 else ' is'} "
                     "not shown, out of play")
    drawn = rules.stock_size and rules.talon_rule is None and rules.take_rule is None
    last = rules.last_trick_points or rules.last_trick_bonus  # a talon game's, maybe not closed
    decls = ", ".join([*(d.name for d in rules.declarations), *(c.name for c in rules.combos),
                       *([f"{rules.pair_word} (king and queen of trumps, {rules.pair_value})"]
                         if rules.pair_rule is not None else [])])
    if rules.asks:
        decls += "; asking the partner: " + ", ".join(a.name for a in rules.asks)
    out = [
        ("Players", players),
        ("Seats in playing order", f"{', '.join(rules.seat_names)} (play passes to the "
                                   f"{side}, {rules.direction})"),
        ("Pack", f"{rules.ncards} cards in {_NUMBERS.get(len(rules.suits), str(len(rules.suits)))}"
                 f" suit{'s' if len(rules.suits) != 1 else ''}: {suits_text(rules)}"),
        ("Card order, high to low", " ".join(rules.ranks)),
        ("Card points", f"{pack_text(rules, ' in the pack')}"
         + (f", plus {rules.trick_point} per trick won" if rules.trick_point else "")
         + (f", plus {last} for the last trick" if last else "") + (" (not after a close)"
            if rules.last_trick_bonus and rules.close_rule and not rules.last_trick_when_closed
            else "")),
        ("Hand", hand), ("Stock", stock), ("Tricks per hand", str(tricks)),
        ("Trump", _trump_text(rules)),
        ("Duty while the stock lasts" if drawn else "Duty to follow", _duty_text(rules, True)),
    ]
    if drawn:
        out.append(("Duty once the stock is gone", _duty_text(rules, False)))
    if rules.hand_target is not None:
        out.append(("Hand ends early", f"the moment a side reaches {rules.hand_target} points"))
    if rules.call_out_rule is not None:
        out.append(("Calling out", "a player may stop play at any moment, claiming the target"))
    if rules.close_rule is not None:  # talon games
        when = "on lead, or before the draw after winning a trick" if rules.close_before_draw \
            else "on lead, before leading"
        out.append(("Closing the stock", f"{when}: no more drawing, strict play at once"))
    if rules.claim_rule is not None:
        how = "the hand stops by itself" if rules.claim_auto else "a player claims"
        out.append(("Hand ends early", f"{how} at {rules.claim_target} counted points"
                    + ("" if rules.claim_auto else "; a false claim loses")))
    if rules.auction_rule is not None:
        top = rules.bid_max or "the most a side can score"
        out.append(("Bidding", f"from {rules.bid_min} in steps of {rules.bid_step} up to {top};"
                    " a pass is final"))
        roles = ("declarer", "partner", "first opponent", "second opponent", "laid away")
        steps = ", then ".join(f"{c} card{'s' if c > 1 else ''} {roles[g]} to {roles[t]}"
                               if roles[t] != "laid away" else f"the {roles[g]} lays {c} "
                               f"card{'s' if c > 1 else ''} away"
                               for g, t, c in rules.passing_steps)
        out.append(("Card exchange", steps or "none"))
        party = "the declarer" if all(len(t) == 1 for t in rules.teams) else "the playing party"
        need = "score more than" if rules.made_if == "more_than" else "reach"
        out.append(("Contract", f"{party} must {need} the game value"
                    + ("; the declarer may raise it once" if rules.raise_rule else "")
                    + ("; he may concede after seeing the talon" if rules.concede_rule
                       else "")))
    if rules.running_rule is not None:
        parts = [f"first to {rules.match_target}"]
        if rules.barrel_rule is not None:
            parts.append(f"a barrel from {rules.barrel_at}")
        if rules.bolt_rule is not None:
            parts.append(f"every {rules.bolt_limit}rd bolt costs {rules.bolt_penalty}"
                         if rules.bolt_limit == 3 else
                         f"a set of {rules.bolt_limit} bolts costs {rules.bolt_penalty}")
        if rules.dump_rule is not None:
            parts.append(f"a total of {rules.dump_value} is dumped to 0")
        out.append(("Running totals", "; ".join(parts)))
    if rules.calls_rule is not None:
        vals = ", ".join(f"{s} {v}" for s, v in zip(rules.suits, rules.call_values,
                                                    strict=True))
        decls = (f"pairs called by the trick winner ({vals}); asking the partner: "
                 "a pair?, a half in a suit?")
    out += [
        ("Declarations", decls or "none"),
        ("Hand scoring", _score_text(rules)),
        ("Match", _match_text(rules)),
    ]
    return [(label, counted(value)) for label, value in out]
