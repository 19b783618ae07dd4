"""A ruleset as a rulebook: structured sections that the terminal and the web both render.

:func:`rulebook` turns compiled :class:`~mariage.engine.rules.Rules` into a :class:`Rulebook`:
an overview of facts, a table of the cards, then the rules section by section (each with its
ID, its sources, whether it was decided by this project and which option governs it, and how
each option value would word it), the options and the sources. :func:`render_text` prints it
for ``mariage rules``; :mod:`mariage.rulebook.sphinxext` turns the same sections into web
pages, so the two always say the same.

>>> from mariage import load_rules
>>> text = render_text(load_rules("marianna"))
>>> "[marianna.trick.winner]" in text
True
>>> [s.key for s in rulebook(load_rules("mariglia")).sections][:3]
['overview', 'cards', 'deal']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mariage.engine.arguments import check_rules
from mariage.engine.optionnote import option_note, show_value, with_values
from mariage.engine.rules import RuleInfo, Rules
from mariage.errors import MariageError
from mariage.spec.compile import option_specs
from mariage.spec.inforce import disabled_paths, in_force
from mariage.spec.options import default_text, invalid_case, invalid_text, settled_values
from mariage.spec.rulesload import load_rules
from mariage.spec.specload import load_document

from .instead import says_instead

__all__ = ["SECTIONS", "SUIT_NAMES", "SUIT_SYMBOLS", "RuleItem", "Rulebook", "Section", "Table",
           "comparison", "facts", "render_text", "rulebook", "sections", "show_value"]

#: Sections of a rulebook: key (the link anchor), title, and the top-level
#: spec keys whose rules it holds.
SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("overview", "Overview", ("players", "visibility")),
    ("cards", "The cards", ("pack",)),
    ("deal", "The deal", ("deal", "throw_in")),
    ("bidding", "Bidding, exchange and contract", ("auction", "talon", "passing", "contract",
                                                    "taking", "suit_auction")),
    ("play", "The play", ("lead", "play", "trick", "draw", "exchange", "closing")),
    ("declarations", "Declarations", ("declaring", "declarations", "asks", "calls",
                                      "announcements", "trump_pair")),
    ("hand-end", "Ending a hand early", ("call_out", "hand_end", "claim")),
    ("scoring", "Scoring", ("scoring",)),
    ("match", "End of the match", ("match",)),
    ("general", "General rules (every game)", ("core",)),
)

SUIT_SYMBOLS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}
SUIT_NAMES = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five"}
_RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "jack", "T": "ten", "2": "two",
               "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
               "9": "nine"}


@dataclass(frozen=True)
class Table:
    """A table: a header row and body rows of plain text cells."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RuleItem:
    """One rule as a rulebook shows it.

    ``in_force`` is false for a rule that is written down but not played with
    the options in force; ``variants`` holds, for each other option value that
    changes this rule, ``("name = value", how the rule then reads)``.
    """

    info: RuleInfo
    in_force: bool
    option_note: str
    variants: tuple[tuple[str, str], ...]

    @property
    def status(self) -> str:
        """A short note: decided by us, governed by an option, not in force."""
        parts = []
        if not self.in_force:
            parts.append("not in force")
        if self.info.decided:
            parts.append("decided by this project")
        if self.option_note:
            parts.append(self.option_note)
        return "; ".join(parts)


@dataclass(frozen=True)
class Section:
    """A titled part of a rulebook: explanatory paragraphs, tables and rules."""

    key: str
    title: str
    paragraphs: tuple[str, ...]
    tables: tuple[Table, ...]
    rules: tuple[RuleItem, ...]


@dataclass(frozen=True)
class Rulebook:
    """A whole ruleset, ready to be printed or turned into a page."""

    ruleset: str
    name: str
    version: int
    parent: str | None
    summary: str
    aim: str
    sections: tuple[Section, ...]
    options: Table
    options_in_force: tuple[tuple[str, str, bool], ...]  # name, value, is the default
    sources: tuple[tuple[str, str], ...]


def _words(text: Any) -> str:
    return " ".join(str(text or "").split())


def _card_name(rank: str) -> str:
    return _RANK_NAMES.get(rank, rank)


def _effective(rules: Rules) -> dict[str, tuple[str, bool]]:
    disabled = disabled_paths(rules.document)
    return {i.id: (i.text, in_force(i, disabled)) for i in rules.infos}


def _option_choices(spec: dict[str, Any]) -> list[Any]:
    if spec["type"] == "enum":
        return list(spec["values"])
    if spec["type"] == "bool":
        return [False, True]
    return []


def _variants(rules: Rules, source: str) -> dict[str, list[tuple[str, str, str]]]:
    """For each rule ID: (option, "name = value", how the rule then reads) per other value."""
    base = _effective(rules)
    current = {k: show_value(v) for k, v in rules.options}
    doc = load_document(source)
    specs = option_specs(doc)
    out: dict[str, list[tuple[str, str, str]]] = {}
    for name, spec in specs.items():
        for value in _option_choices(spec):
            if show_value(value) == current.get(name):
                continue
            given = {**current, name: show_value(value)}
            refused = invalid_case(specs, settled_values(doc, given))
            if refused is not None:  # cannot be played with the values in force
                rule = refused[1].get("rule")
                if rule:
                    out.setdefault(rule, []).append(
                        (name, f"{name} = {show_value(value)}",
                         "refused: " + _words(refused[1]["because"])))
                continue
            try:
                other = _effective(load_rules(source, given))
            except MariageError:  # refused only when compiled (bid_min=200: no dark 120)
                continue
            for rid, (text, on) in other.items():
                old = base.get(rid)
                if old is None or old == (text, on) or not (on or old[1]):
                    continue  # the same, or out of force either way (its text aside)
                if not on:  # what happens instead, where the value's effects say so
                    said = says_instead(spec, show_value(value), rid, doc.data, show_value)
                    reads = "not in force" + (f": {text}" if said and text != old[0] else "")
                elif text == old[0]:
                    reads = "in force"
                else:
                    reads = text if old[1] else "in force: " + text
                out.setdefault(rid, []).append((name, f"{name} = {show_value(value)}", reads))
    return out


def sections(rules: Rules) -> list[tuple[str, list[RuleInfo]]]:
    """The rules in force grouped by section title, in document order."""
    check_rules(rules, "sections")
    disabled = disabled_paths(rules.document)
    out = []
    for _key, title, roots in SECTIONS:
        items = [i for i in rules.infos if i.path.split(".")[0] in roots
                 and in_force(i, disabled)]
        if items:
            out.append((title, items))
    return out


# ---------------------------------------------------------------- facts
def _suits_text(rules: Rules) -> str:
    return ", ".join(f"{SUIT_SYMBOLS.get(s, s)} {SUIT_NAMES.get(s, s)}" for s in rules.suits)


def _pack_text(rules: Rules, what: str) -> str:
    """The pack's card points, then ``what``; with a trump suit where trumps score
    otherwise (Belote: "152 in the pack with a trump suit (120 without)")."""
    if not rules.role_points or sum(rules.role_points[0]) == rules.pack_points:
        return f"{rules.pack_points}{what}"
    return f"{sum(rules.role_points[0])}{what} with a trump suit ({rules.pack_points} without)"


def _per_suit_text(rules: Rules) -> str:
    """How many cards each suit has: "10 in each suit", or the counts where a card was
    taken out of one suit (Marianna for three: "10 in hearts, diamonds and clubs, 9 in
    spades")."""
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


def _declaration_value(rules: Rules, i: int) -> str:
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


def _pattern_text(rules: Rules, i: int) -> str:
    d = rules.declarations[i]
    parts = []
    for rank_mask, count in d.rank_counts:
        rank = rules.ranks[rules.rank_of[(rank_mask & -rank_mask).bit_length() - 1]]
        name = _card_name(rank)
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
        if rules.claim_rule is not None or rules.close_rule is not None:
            text += "; claims and closing have their own rows"
        if rules.capture_bonus_rule is not None:
            card = _card_name(rules.ranks[rules.capture_bonus_rank])
            suit = "trumps" if rules.capture_bonus_suit < 0 else \
                SUIT_NAMES.get(rules.suits[rules.capture_bonus_suit], "")
            text += (f"; the side that wins the {card} of {suit} in a trick scores "
                     f"{rules.capture_bonus_value} more")
        return text
    if kind == "contract":
        if rules.sheet_mode == "wurzel":
            return ("the game value for the playing party (minus if failed), the defenders' "
                    f"points rounded to {rules.rounding}; schwarz costs {rules.schwarz_factor} "
                    "times the value")
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
                 f" suit{'s' if len(rules.suits) != 1 else ''}: {_suits_text(rules)}"),
        ("Card order, high to low", " ".join(rules.ranks)),
        ("Card points", f"{_pack_text(rules, ' in the pack')}"
         + (f", plus {rules.trick_point} per trick won" if rules.trick_point else "")
         + (f", plus {rules.last_trick_points} for the last trick"
            if rules.last_trick_points else "")),
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
        out.append(("Hand ends early", f"{how} at {rules.claim_target} counted points; "
                    "a false claim loses"))
    if rules.auction_rule is not None:
        top = str(rules.bid_max) if rules.bid_max else "no ceiling"
        out.append(("Bidding", f"from {rules.bid_min} in steps of {rules.bid_step} up to {top};"
                    " a pass is final"))
        roles = ("declarer", "partner", "first opponent", "second opponent", "laid away")
        steps = ", then ".join(f"{c} card{'s' if c > 1 else ''} {roles[g]} to {roles[t]}"
                               if roles[t] != "laid away" else f"the {roles[g]} lays {c} "
                               f"card{'s' if c > 1 else ''} away"
                               for g, t, c in rules.passing_steps)
        out.append(("Card exchange", steps or "none"))
        party = "the declarer" if all(len(t) == 1 for t in rules.teams) else "the playing party"
        out.append(("Contract", f"{party} must reach the game value"
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
    return out


def comparison(rulesets: Sequence[Rules]) -> Table:
    """A matrix of facts: one row per aspect, one column per ruleset."""
    columns = [dict(facts(r)) for r in rulesets]
    labels: list[str] = []
    for r in rulesets:
        for label, _ in facts(r):
            key = "Duty to follow" if label == "Duty while the stock lasts" else label
            if key not in labels:
                labels.append(key)
    rows = []
    for label in labels:
        row = [label]
        for col in columns:
            value = col.get(label)
            if value is None and label == "Duty to follow":
                value = col.get("Duty while the stock lasts")
            if value is None and label == "Duty once the stock is gone":
                value = col.get("Duty to follow", "as above")
            row.append(value or "")
        rows.append(tuple(row))
    rows.append(("Options", *(", ".join(k for k, _ in r.options) or "none" for r in rulesets)))
    return Table(("", *(r.name for r in rulesets)), tuple(rows))


# ---------------------------------------------------------------- the book
def _cards_table(rules: Rules) -> Table:
    rows = []
    horse = "horse" in str(rules.document.get("pack", {}).get("text", ""))
    for ri, rank in enumerate(rules.ranks):
        points = rules.points[ri]
        name = "queen (horse)" if horse and rank == "Q" else _card_name(rank)
        rows.append((str(ri + 1), rank, name, str(points)))
    if rules.role_strength:  # the trump suit ranks and scores its cards otherwise
        nr = len(rules.ranks)
        strength, trump_points = rules.role_strength[0], rules.role_points[0]
        wide = tuple((*row, str(nr + 1 - strength[ri]), str(trump_points[ri]))
                     for ri, row in enumerate(rows))
        return Table(("order", "rank", "card", "points", "order in trumps",
                      "points in trumps"), wide)
    return Table(("order", "rank", "card", "points"), tuple(rows))


def _declarations_table(rules: Rules) -> Table | None:
    if not rules.declarations:
        return None
    rows = []
    for i, d in enumerate(rules.declarations):
        trump = {"set": "makes its suit trump", "first_fixes": "the first one makes trump",
                 "none": "no effect on trump",
                 "choose": "the declarer may make it trump"}.get(d.trump_effect, d.trump_effect)
        rows.append((d.name, _pattern_text(rules, i), _declaration_value(rules, i), trump))
    return Table(("declaration", "cards", "value", "trump"), tuple(rows))


def _options_table(rules: Rules, source: str) -> Table:
    specs = option_specs(load_document(source))
    values = dict(rules.options)
    rows = []
    for name, spec in specs.items():
        kind = spec["type"]
        if kind == "enum":
            kind = "one of " + ", ".join(show_value(v) for v in spec["values"])
        elif kind == "int":
            kind = "whole number" + (f" ≥ {spec['min']}" if "min" in spec else "")
        else:
            kind = "true or false"
        src = spec.get("source", "")
        src_text = ", ".join(src) if isinstance(src, list) else str(src)
        effect = " ".join([_words(spec.get("description")),
                           *(f"Refused: {invalid_text(name, case)}."
                             for case in spec.get("invalid_when") or ())])
        rows.append((name, kind, default_text(spec), show_value(values.get(name)), effect,
                     src_text))
    return Table(("option", "type", "default", "in force", "effect", "source"), tuple(rows))


def _section_paragraphs(key: str, rules: Rules) -> tuple[str, ...]:
    n = rules.hand_seats  # the seats dealt and playing a hand
    if key == "cards":
        top, low = rules.card_code[0], rules.card_code[rules.ncards - 1]
        ten = " (T stands for ten)" if "T" in rules.ranks else ""
        return (f"{rules.ncards} cards, {_per_suit_text(rules)} ({_suits_text(rules)}). "
                f"The table lists the ranks of a suit from highest to lowest and what each "
                f"card is worth to the side that wins it in a trick; the pack holds "
                f"{_pack_text(rules, ' card points')}. A card is written as its rank and its "
                f"suit{ten}: {top} is the {_card_name(top[:-1])} of "
                f"{SUIT_NAMES.get(top[-1], top[-1])} and {low} the {_card_name(low[:-1])} of "
                f"{SUIT_NAMES.get(low[-1], low[-1])}; pages show them as "
                f"{top[:-1]}{SUIT_SYMBOLS.get(top[-1], '')} and "
                f"{low[:-1]}{SUIT_SYMBOLS.get(low[-1], '')}.",)
    if key == "deal" and rules.stock_size:
        sits = rules.sits_out != "none"
        if rules.talon_rule is not None:  # a talon for the auction's winner: nobody draws
            return (f"Each player{' but the one sitting out' if sits else ''} gets "
                    f"{rules.hand_size} cards; the other {rules.stock_size} form the talon"
                    + (f", in {rules.talon_packets} packets, one of which the winner of the "
                       "auction takes." if rules.talon_packets > 1
                       else ", which the winner of the auction takes."),)
        if rules.take_rule is not None:  # the rest is dealt once the turned card is taken
            return (f"Each player gets {rules.hand_size} cards, the next is turned up; once it is "
                    f"taken the other {rules.stock_size - 1} are dealt, {rules.second_deal_taker}"
                    f" to its taker, {rules.second_deal_others} to each other player.",)
        return (f"Each player{' but the one sitting out' if sits else ''} gets {rules.hand_size} "
                f"cards; the other {rules.stock_size} form the stock, from which every player"
                f"{' in the hand' if sits else ''} draws one card after each of the first "
                f"{rules.stock_size // n} tricks.",)
    if key == "play":
        tricks = (n * rules.hand_size + rules.stock_size) // n
        each = "every player in the hand" if n < rules.nseats else "every player"
        return (f"A hand is {tricks} tricks. In each trick {each} in turn plays one "
                f"card face up; the leader plays first, and the winner of the trick leads "
                f"the next one.",)
    return ()


def rulebook(rules: Rules, source: str | None = None) -> Rulebook:
    """The rulebook of ``rules``; ``source`` is the bundled name or file it was loaded from."""
    check_rules(rules, "rulebook")
    src = source or rules.ruleset
    doc = rules.document
    variants = _variants(rules, src)
    effective = _effective(rules)
    out = []
    for key, title, roots in SECTIONS:
        items = []
        for info in rules.infos:
            if info.path.split(".")[0] not in roots:
                continue
            found = variants.get(info.id, [])
            names = [*info.options, *(name for name, _, _ in found)]
            items.append(RuleItem(info, effective[info.id][1],
                                  option_note(list(dict.fromkeys(names)), rules),
                                  tuple((label, reads) for _, label, reads in found)))
        tables: list[Table] = []
        if key == "overview":
            tables.append(Table(("", ""), tuple(facts(rules))))
        elif key == "cards":
            tables.append(_cards_table(rules))
        elif key == "declarations":
            t = _declarations_table(rules)
            if t is not None:
                tables.append(t)
        if items or tables:
            out.append(Section(key, title, _section_paragraphs(key, rules), tuple(tables),
                               tuple(items)))
    defaults = dict(rules.defaults)
    in_force = tuple((k, show_value(v), show_value(v) == show_value(defaults.get(k)))
                     for k, v in rules.options)
    sources = tuple((k, _words(v.get("title", k)) if isinstance(v, dict) else _words(v))
                    for k, v in (doc.get("sources") or {}).items())
    return Rulebook(rules.ruleset, rules.name, rules.version, rules.parent,
                    with_values(_words(doc.get("summary")), rules),
                    with_values(_words(doc.get("aim")), rules),
                    tuple(out), _options_table(rules, src), in_force, sources)


# ---------------------------------------------------------------- text
def _wrap(text: str, indent: str, width: int = 88) -> list[str]:
    lines: list[str] = []
    line = indent
    for word in text.split():
        if len(line) + len(word) + 1 > width and line.strip():
            lines.append(line)
            line = indent
        line += ("" if line == indent else " ") + word
    if line.strip():
        lines.append(line)
    return lines


def _text_table(table: Table, indent: str = "  ") -> list[str]:
    rows = [table.header, *table.rows] if any(table.header) else list(table.rows)
    widths = [max(len(r[i]) for r in rows) for i in range(len(table.header))]
    widths[-1] = 0  # the last column is not padded
    out = []
    for n, row in enumerate(rows):
        out.append(indent + "  ".join(c.ljust(w) for c, w in zip(row, widths,
                                                                  strict=True)).rstrip())
        if n == 0 and any(table.header):
            out.append(indent + "  ".join("-" * max(w, len(c)) for c, w in
                                          zip(row, widths, strict=True)))
    return out


def _heading(title: str) -> list[str]:
    return [title, "-" * len(title)]


def render_text(rules: Rules, source: str | None = None) -> str:
    """The whole rulebook as plain text, for the terminal."""
    book = rulebook(rules, source)
    lines = [f"{book.name} ({book.ruleset}, version {book.version})", ""]
    lines += [*_wrap(book.summary, ""), ""]
    if book.aim:
        lines += [*_wrap("Aim: " + book.aim, ""), ""]
    for section in book.sections:
        lines += _heading(section.title)
        for para in section.paragraphs:
            lines += [*_wrap(para, ""), ""]
        for table in section.tables:
            lines += [*_text_table(table), ""]
        for item in section.rules:
            status = f" ({item.status})" if item.status else ""
            lines.append(f"[{item.info.id}]{status}")
            lines += _wrap(item.info.text, "    ")
            if item.info.source:
                lines.append(f"    source: {', '.join(item.info.source)}")
            for label, text in item.variants:
                lines += _wrap(f"with {label}: {text}", "    ")
        lines.append("")
    lines += _heading("Options")
    is_default = {name: same for name, _, same in book.options_in_force}
    for name, kind, default, now, effect, src in book.options.rows:
        mark = "" if is_default.get(name, now == default) else "   (not the default)"
        lines.append(f"  {name} = {now}{mark}")
        lines += _wrap(f"{kind}; default {default}. {effect} (source: {src})", "      ")
    lines.append("")
    lines += _heading("Sources")
    for key, title in book.sources:
        lines.append(f"  {key}: {title}")
    lines.append("")
    return "\n".join(lines)
