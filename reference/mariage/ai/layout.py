"""The layouts of the vectors and tensors agents see: names, offsets, sizes, meanings.

Pure Python (no numpy), so that the documentation can print the tables
(``.. mariage-ai-layout:: RULESET``) and any program can read them.
:class:`~mariage.ai.encoding.Encoder` and
:class:`~mariage.ai.encoding.InfoStateEncoder` fill the vectors laid out here.

>>> from mariage import load_rules
>>> rules = load_rules("schnapsen")
>>> feats = observation_features(rules)
>>> feats[0]
Feature(name='hand', offset=0, size=20, meaning="the seat's own cards")
>>> all(a.offset + a.size == b.offset for a, b in zip(feats, feats[1:]))
True
>>> len(action_list(rules)), decision_bound(rules)
(53, 44)

Where sets of several cards are passed (German Marjapussi passes four, Thousand for two
lays two away), the action list does not hold a set per id: passing a set of N cards is
N decisions of one card each (:class:`Pick`), and the observation tells the seat the
cards it picked so far (``picked``).

>>> rules = load_rules("marjapussi-de")
>>> pick_size(rules), len(action_list(rules)), action_text_of(rules, Pick(0))
(4, 210, 'pick:AH')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from mariage.engine.actions import Action, Give
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.mechanisms import DEFAULT_MECHANISMS
from mariage.engine.phase import Phase
from mariage.engine.rules import Rules

from .rewards import hand_scale
from .sayings import said_labels

if TYPE_CHECKING:
    from mariage.engine.state import GameState

__all__ = ["AIAction", "Bidding", "Feature", "Pick", "action_list", "action_text_of",
           "bid_scale", "bidding_of", "decision_bound", "feature_names", "has_bidding",
           "info_state_features", "observation_features", "pick_size", "slot_drew",
           "standing_scale", "with_pick"]

_PHASES = tuple(Phase)


class Feature(NamedTuple):
    """One named part of an encoded vector: where it starts, how long it is, what it means."""

    name: str
    offset: int
    size: int
    meaning: str


@dataclass(frozen=True)
class Pick:
    """One card of a set being passed, chosen on its own (the AI layer's factored
    passing; the engine never sees it: the set is applied as one ``Give`` when its last
    card is picked)."""

    card: int


#: an id's action: the engine's, or one card of a set being passed
AIAction = Action | Pick


def with_pick(state: GameState, card: int, picked: int) -> tuple[int, Give | None]:
    """The cards ``picked`` with ``card``, and the set they make (the engine's ``Give``)
    where they complete the set the seat to act passes, else None (nothing else changes
    before a set's last pick). The caller checks that the pick is legal.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("thousand-2"), 1)  # (its sets: 2 cards)
    >>> with_pick(state, 3, 0b1)
    (9, Give(cards=9))
    """
    picked |= 1 << card
    if picked.bit_count() < state.mech.passing.count(state):
        return picked, None
    return picked, Give(picked)


def pick_size(rules: Rules) -> int:
    """The largest set of cards ``rules`` pass at once where passing is factored into
    one decision per card (more than one card), else 0."""
    largest = max((count for _, _, count in rules.passing_steps), default=0)
    return largest if largest > 1 else 0


def action_text_of(rules: Rules, action: AIAction) -> str:
    """The canonical text of an id's action; a pick reads ``pick:AH``."""
    if isinstance(action, Pick):
        return "pick:" + rules.card_code[action.card]
    return action_text(rules, action)


def action_list(rules: Rules) -> tuple[AIAction, ...]:
    """Every action ``rules`` could ever offer, in the order of the fixed action ids.

    The mechanisms list what they could offer (:meth:`Mechanism.all_actions
    <mariage.engine.mechanisms.Mechanism.all_actions>`), in their order; an action is
    kept once, and only if its text reads back as itself. Where passing is factored
    (:func:`pick_size`), the sets of cards to pass give way to one :class:`Pick` per
    card, in card order, where the sets began.
    """
    factored = bool(pick_size(rules))
    out: list[AIAction] = []
    seen: set[Action] = set()
    for m in DEFAULT_MECHANISMS.all():
        if factored and m.applies and all(kind is Give for kind, _ in m.applies):
            # the sets a mechanism passes (tens of thousands): one pick per card instead
            if not any(type(b) is Pick for b in out):
                out.extend(Pick(c) for c in range(rules.ncards))
            continue
        for a in m.all_actions(rules):
            if a not in seen and (not factored or type(a) is not Give):
                seen.add(a)
                if parse_action(rules, action_text(rules, a)) == a:
                    out.append(a)
    return tuple(out)


def _laid_out(parts: list[tuple[str, int, str]], start: int = 0) -> tuple[Feature, ...]:
    out = []
    at = start
    for name, size, meaning in parts:
        out.append(Feature(name, at, size, meaning))
        at += size
    return tuple(out)


def observation_features(rules: Rules) -> tuple[Feature, ...]:
    """The parts of an observation vector; seats are counted from the observer."""
    n, c, s = rules.nseats, rules.ncards, len(rules.suits)
    t = len(rules.teams)
    parts: list[tuple[str, int, str]] = [("hand", c, "the seat's own cards")]
    parts += [(f"known_hand_{k}", c, f"cards known to be in the hand of the seat {k} "
               "places after the observer (shown and not yet played)") for k in range(1, n)]
    parts += [(f"trick_card_{k}", c, f"the card played {k + 1}. to the current trick")
              for k in range(n)]
    parts += [("played", c, "every card played in this hand (finished tricks and the "
               "current one)"),
              ("turn_up", c + 1, "the turned-up card while it lies on the table; last: none"),
              ("trump", s + 1, "the trump suit; last: none"),
              ("phase", len(_PHASES), "the phase: " + ", ".join(p.name.lower()
                                                               for p in _PHASES)),
              ("to_act", n + 1, "the seat to act, counted from the observer; last: none"),
              ("leader", n, "the seat that led the current trick, from the observer"),
              ("hand_sizes", n, "each seat's number of cards / cards in the pack"),
              ("stock_size", 1, "cards in the stock / cards in the pack"),
              ("hand_points", t, "each side's points this hand, own side first / the "
               "pack's points"),
              ("standing", t, "each side's match standing, own side first / the target "
               "(where the match is a number of hands: / the hands times the hand "
               "reward's scale)"),
              ("declared", len(rules.declarations) * s, "declarations made this hand, "
               "one per (declaration, suit)")]
    if has_bidding(rules):  # the auction as it stands: its numbers, then its one-hots
        parts[-1:-1] = [
            ("bid", 1, "the highest bid / the largest bid an action can make"),
            ("contract", 1, "the contract's value / the largest bid an action can make"),
            ("doubled", 1, "how often the contract was doubled (coinche 1, surcoinche 2)"),
            ("passes", 1, "the passes so far of the rounds of taking a turned card, or "
             "the sets of cards passed so far, / the seats")]
        parts += [
            ("bid_holder", n + 1, "the seat holding the highest bid, from the observer; "
             "last: none"),
            ("declarer", n + 1, "the seat that took the contract, from the observer; "
             "last: none"),
            ("bid_suit", s + len(rules.strain_names) + 1 if rules.sa_rule else 0,
             "the trump suit (or contract without one) of the highest bid; last: none"),
            ("strain", len(rules.strain_names) + 1 if rules.strain_names else 0,
             "the contract without one trump suit played (no trump, all trump); "
             "last: none"),
            ("passed", n, "each seat that has passed in the auction, from the observer")]
    said = len(said_labels(rules))
    if said:  # what was said this hand (mariage.ai.sayings): a block per seat
        parts.append(("said", n * said, "what each seat said this hand, from the "
                      "observer: announcements, pairs said or called, questions to the "
                      "partner with the answer after = (?: not answered yet)"))
    if pick_size(rules):
        parts.append(("picked", c, "the cards the seat picked so far for the set it is "
                      "passing (factored passing: one card per decision)"))
    return _laid_out(parts)


def has_bidding(rules: Rules) -> bool:
    """Whether ``rules`` make a contract before the play (an auction, a suit auction
    with doubling, or rounds of taking a turned card): the observation then holds the
    auction's present (the highest bid and its holder, the contract, the declarer, the
    doublings, the passes).

    >>> from mariage import load_rules
    >>> has_bidding(load_rules("thousand")), has_bidding(load_rules("schnapsen"))
    (True, False)
    """
    return rules.auction_rule is not None or rules.sa_rule is not None \
        or rules.take_rule is not None


#: the auction's present: the highest bid, its holder, the declarer, the contract, the
#: doublings, the highest bid's suit, the strain, who passed, the passes so far
Bidding = tuple[int, int, int, int, int, int, int, tuple[bool, ...], int]


def bidding_of(state: GameState) -> Bidding:
    """The auction's present in ``state`` (what the observation's bidding parts show,
    :func:`~mariage.ai.layout.has_bidding`).

    >>> from mariage import load_rules, new_match
    >>> bidding_of(new_match(load_rules("thousand"), 1))
    (0, -1, -1, 0, 0, -1, -1, (False, False, False), 0)
    """
    return (state.high_bid, state.high_bidder, state.declarer, state.contract,
            state.kontras, state.bid_suit, state.strain, (*state.auction_passed,),
            state.pass_step)


def bid_scale(rules: Rules) -> int:
    """The largest value a bid, a raise or a contract an action names can have (1 where
    none names one): what the observation's ``bid`` and ``contract`` are divided by."""
    return max((getattr(a, "value", 0) for a in action_list(rules)
                if type(getattr(a, "value", None)) is int), default=0) or 1


def standing_scale(rules: Rules) -> float:
    """What the observation's ``standing`` is divided by: the match target where the
    match is played to a score (points or hands won); where it is a number of hands
    (German Marjapussi's session), whose standing is in points, that number times what
    a hand's score can be (:func:`~mariage.ai.rewards.hand_scale`: the highest contract
    or twice the pack), so that the standing stays of the order of 1 there too.

    >>> from mariage import load_rules
    >>> standing_scale(load_rules("marianna")), standing_scale(load_rules("marjapussi-de"))
    (501.0, 1680.0)
    """
    target = max(1, rules.match_target)
    if rules.match_measure == "hands_played":
        return float(target * hand_scale(rules))
    return float(target)


def feature_names(rules: Rules, features: tuple[Feature, ...]) -> list[str]:
    """One name per value of a vector laid out as ``features`` (``hand[AH]``...)."""
    names: list[str] = []
    cards = list(rules.card_code[:rules.ncards])
    card_parts = {"hand", "played", "learned", "picked"}
    for f in features:
        base = f.name.removeprefix("dealt_")
        if base.startswith("slot_"):
            base = base.rsplit("_", 1)[-1]
        if not f.size:  # (a part these rules leave empty)
            continue
        if base in card_parts or base.startswith(("known_hand_", "trick_card_")):
            labels = cards
        elif base == "turn_up":
            labels = [*cards, "none"]
        elif base == "trump":
            labels = [*rules.suits, "none"]
        elif base == "phase":
            labels = [p.name.lower() for p in _PHASES]
        elif base in ("bid_holder", "declarer", "to_act", "actor"):
            labels = [*(str(k) for k in range(rules.nseats)), "none"]
        elif base == "bid_suit":
            labels = [*rules.suits, *rules.strain_names, "none"]
        elif base == "strain":
            labels = [*rules.strain_names, "none"]
        elif base == "declared":
            labels = [f"{d.name}:{s}" for d in rules.declarations for s in rules.suits]
        elif base == "said":
            labels = [f"{k}:{label}" for k in range(rules.nseats)
                      for label in said_labels(rules)]
        elif base == "action":
            labels = [action_text_of(rules, a) for a in action_list(rules)]
        else:
            labels = [str(k) for k in range(f.size)]
        assert len(labels) == f.size, f.name
        names += [f"{f.name}[{label}]" for label in labels]
    return names


def decision_bound(rules: Rules) -> int:
    """A bound on the decisions of one hand: every card played, half a pack of other
    actions per seat, every bid an auction can hold, and one decision per card passed
    where passing is factored."""
    n, c = rules.nseats, rules.ncards
    bids = 0
    if rules.auction_rule is not None:
        ceiling = rules.bid_max or 2 * max(rules.pack_points, rules.bid_min)
        bids = (ceiling - rules.bid_min) // max(1, rules.bid_step) + 2 * n
    picks = sum(count for _, _, count in rules.passing_steps) if pick_size(rules) else 0
    return c + n * c // 2 + 2 * n + bids + picks


def slot_drew(rules: Rules) -> bool:
    """Whether an information-state slot says which cards the observer drew, beside
    those it learned: where the hands lie open, a seat sees every card another seat
    draws, in the same decision as its own draw, so the cards learned do not say which
    are its own. (With hands closed a seat learns by a decision only the cards it drew
    and cards shown, the turned-up card taken by the seat the rules name: its own
    cards follow from the history.)

    >>> from mariage import load_rules
    >>> slot_drew(load_rules("mariaggia")), slot_drew(load_rules("schnapsen"))
    (True, False)
    """
    return rules.open_hands


def info_state_features(rules: Rules, actions: int | None = None) -> tuple[Feature, ...]:
    """The parts of an information-state tensor (``actions``: the size of the action
    space, computed when not given)."""
    n, c = rules.nseats, rules.ncards
    size = len(action_list(rules)) if actions is None else actions
    feats = [Feature("dealt_" + f.name, f.offset, f.size, "at the deal: " + f.meaning)
             for f in observation_features(rules)]
    parts: list[tuple[str, int, str]] = []
    for k in range(decision_bound(rules)):
        parts += [(f"slot_{k}_actor", n + 1, f"who took decision {k + 1} of the hand, "
                   "from the observer; last: no decision"),
                  (f"slot_{k}_action", size, "its action id (none: an action the observer "
                   "saw made but not what it was)"),
                  (f"slot_{k}_learned", c, "cards that became known to the observer by it")]
        if slot_drew(rules):
            parts.append((f"slot_{k}_drew", c, "those of them the observer drew (into its "
                          "own hand)"))
    start = feats[-1].offset + feats[-1].size
    return (*feats, *_laid_out(parts, start))
