"""The canonical text of actions: what records and the engine protocol write, and reading it.

>>> from mariage.engine.actions import Play, Declare
>>> from mariage import load_rules
>>> r = load_rules("marianna")
>>> action_text(r, Play(r.card("KH")))
'KH'
>>> action_text(r, Declare(0, r.suits.index("H")))
'marianna:H'
>>> parse_action(r, "marianna:H") == Declare(0, 0)
True
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import TYPE_CHECKING

from ..errors import ActionTextError, shown
from .actions import (
    _NAMING,
    Action,
    Announce,
    Answer,
    AskPartner,
    Bid,
    BlindBid,
    Call,
    CallOut,
    ChooseTalon,
    Claim,
    Close,
    Concede,
    Declare,
    Decline,
    Double,
    Draw,
    Exchange,
    Give,
    Kontra,
    Pass,
    Play,
    Question,
    Raise,
    Redeal,
    SayPair,
    SuitBid,
    Take,
)

if TYPE_CHECKING:
    from .rules import Rules

__all__ = ["MAX_AMOUNT_DIGITS", "QUESTION_KINDS", "action_text", "bid_value_text",
           "contract_name", "naming", "parse_action", "set_naming"]


def set_naming(rules: Rules | None) -> None:
    """Make the reprs of actions use the names of ``rules`` (``None``: numbers again).

    >>> from mariage import load_rules
    >>> set_naming(load_rules("marianna"))
    >>> Declare(0, 0), Answer(True, 2), Pass()
    (Declare(marianna:H), Answer(yes:C), Pass())
    >>> set_naming(None)
    >>> Declare(0, 0)
    Declare(decl=0, suit=0, trump=True)
    """
    if rules is not None:  # else any object was taken and every repr fell back to numbers
        _expect_rules(rules, "set_naming")
    _NAMING.set(None if rules is None else partial(action_text, rules))


@contextmanager
def naming(rules: Rules) -> Iterator[None]:
    """Within the block, action reprs use the names of ``rules``.

    >>> from mariage import load_rules
    >>> with naming(load_rules("mariazza")):
    ...     print([Declare(0, 1), Exchange(5)])
    [Declare(mariazza:D), Exchange(exchange:7H)]
    """
    _expect_rules(rules, "naming")
    token = _NAMING.set(partial(action_text, rules))
    try:
        yield
    finally:
        _NAMING.reset(token)

_TALON_TEXT: dict[type, str] = {Close: "close", Claim: "claim", Draw: "draw", Decline: "decline"}
_TALON_ACTIONS: dict[str, Action] = {"close": Close(), "claim": Claim(), "draw": Draw(),
                                     "decline": Decline()}

#: the texts of :class:`Question` kinds
QUESTION_KINDS = ("pair", "half")


def _bidding_text(rules: Rules, action: Action) -> str | None:
    """The text of an action of the bidding games, or ``None``."""
    t = type(action)
    if t is Bid:
        return f"bid:{action.value}"  # type: ignore[union-attr]
    if t is Give:
        assert isinstance(action, Give)
        if action.cards < 0:
            return "give:?"
        return "give:" + "+".join(rules.card_code[c] for c in rules.cards_of(action.cards))
    if t is Raise:
        assert isinstance(action, Raise)
        return "keep" if action.value == 0 else f"raise:{action.value}"
    if t is Call:
        assert isinstance(action, Call)
        return f"call:{rules.suits[action.suit]}"
    if t is Question:
        assert isinstance(action, Question)
        name = QUESTION_KINDS[action.kind]
        return f"ask:{name}" if action.suit < 0 else f"ask:{name}:{rules.suits[action.suit]}"
    if t is Kontra:
        assert isinstance(action, Kontra)
        return "re" if action.re else "kontra"
    if t is Concede:
        return "concede"
    if t is BlindBid:
        assert isinstance(action, BlindBid)
        return f"{rules.blind_word}:{action.value}"
    if t is Redeal:
        return "redeal"
    if t is ChooseTalon:
        assert isinstance(action, ChooseTalon)
        return f"talon:{action.packet + 1}"
    return None


#: The most digits of a number in an action's text (a bid, a packet): a longer one is
#: not an action at all, and is never converted (a shorter one out of the rules' range is
#: an action the rules refuse, with their rule ID).
MAX_AMOUNT_DIGITS = 100


def _amount(text: str) -> int | None:
    """The number an action's text ends in, written canonically (``bid:120``): ASCII
    digits, no leading zero, at most :data:`MAX_AMOUNT_DIGITS`; else ``None``.

    >>> [_amount(t) for t in ("120", "0", "0120", "\u00b2", "\uff11", "1" * 101, "")]
    [120, 0, None, None, None, None, None]
    """
    if not text.isascii() or not text.isdigit() or len(text) > MAX_AMOUNT_DIGITS:
        return None
    value = int(text)
    return value if str(value) == text else None


def _bidding_parse(rules: Rules, s: str) -> Action | None:
    """Parse the text of an action of the bidding games, or ``None``."""
    if rules.auction_rule is None and rules.calls_rule is None:
        return None
    if s == "keep":
        return Raise(0)
    if s in ("kontra", "re"):
        return Kontra(s == "re")
    if s == "concede" and rules.concede_rule is not None:
        return Concede()
    if s == "redeal" and rules.throw_in_rule is not None:
        return Redeal()
    parts = s.split(":")
    if len(parts) == 2 and parts[0] in ("bid", "raise"):
        v = _amount(parts[1])
        if v is not None and v > 0:
            return Bid(v) if parts[0] == "bid" else Raise(v)
    if len(parts) == 2 and parts[0] == rules.blind_word and rules.blind_rule is not None:
        v = _amount(parts[1])
        if v is not None:
            return BlindBid(v)
    if len(parts) == 2 and parts[0] == "give":
        if parts[1] == "?":
            return Give(-1)
        codes = parts[1].split("+")
        if all(c in rules.card_index for c in codes) and len(set(codes)) == len(codes):
            return Give(sum(1 << rules.card_index[c] for c in codes))
    if len(parts) == 2 and parts[0] == "talon" and rules.talon_packets > 1:
        v = _amount(parts[1])
        if v is not None and v >= 1:  # a packet the rules lack: the talon refuses it
            return ChooseTalon(v - 1)
    if len(parts) == 2 and parts[0] == "call" and parts[1] in rules.suits:
        return Call(rules.suits.index(parts[1]))
    if parts[0] == "ask" and len(parts) in (2, 3) and parts[1] in QUESTION_KINDS:
        kind = QUESTION_KINDS.index(parts[1])
        if len(parts) == 2 and kind == 0:
            return Question(0)
        if len(parts) == 3 and kind == 1 and parts[2] in rules.suits:
            return Question(1, rules.suits.index(parts[2]))
    return None


def _taking_text(rules: Rules, action: Action) -> str | None:
    """The text of a take, an announcement or the pair of trumps said, or ``None``."""
    t = type(action)
    if t is Take:
        assert isinstance(action, Take)
        return "take" if action.suit < 0 else f"take:{contract_name(rules, action.suit)}"
    if t is Announce:
        assert isinstance(action, Announce)
        combo = rules.combos[action.combo]
        if combo.same_rank:
            return f"{combo.name}:{rules.ranks[rules.rank_of[action.card]]}"
        return f"{combo.name}:{rules.card_code[action.card]}"
    if t is SayPair:
        assert isinstance(action, SayPair)
        return f"{rules.pair_word}:{rules.card_code[action.card]}"
    if t is SuitBid:
        assert isinstance(action, SuitBid)
        return f"bid:{bid_value_text(rules, action.value)}:{contract_name(rules, action.suit)}"
    if t is Double:
        assert isinstance(action, Double)
        return rules.sa_double_words[action.level - 1]
    return None


def bid_value_text(rules: Rules, value: int) -> str:
    """How a bid's value is written: its number, or ``capot`` / ``generale`` for those bids.

    >>> from mariage import load_rules
    >>> r = load_rules("belote-coinche", {"generale": 1000})
    >>> [bid_value_text(r, v) for v in (80, 250, 1000)]
    ['80', 'capot', 'generale']
    """
    _expect_rules(rules, "bid_value_text")
    if value == rules.sa_capot_value:
        return "capot"
    return "generale" if rules.sa_generale_value and value == rules.sa_generale_value \
        else str(value)


def contract_name(rules: Rules, suit: int) -> str:
    """The letter of trump ``suit``, or the name of a contract without one trump suit
    (``SA``, ``TA``) for an index past the suits.

    >>> from mariage import load_rules
    >>> r = load_rules("belote-coinche", {"sa_ta": True})
    >>> [contract_name(r, i) for i in range(6)]
    ['H', 'D', 'C', 'S', 'SA', 'TA']
    """
    _expect_rules(rules, "contract_name")
    ns = len(rules.suits)
    given = suit
    try:
        suit = operator.index(suit)
    except TypeError:
        suit = -1  # refused below, as a number out of range is
    if not 0 <= suit < ns + len(rules.strain_names):
        raise ValueError(f"contract_name: no suit or contract {shown(given)} in "
                         f"{rules.ruleset} (0 to {ns + len(rules.strain_names) - 1})")
    return rules.suits[suit] if suit < ns else rules.strain_names[suit - ns]


def _taking_parse(rules: Rules, s: str) -> Action | None:
    """Parse a take, an announcement or the pair of trumps said, or ``None``."""
    if rules.take_rule is None and not rules.combos and rules.pair_rule is None \
            and rules.sa_rule is None:
        return None
    if s == "take" and rules.take_rule is not None:
        return Take()
    if rules.sa_rule is not None and s in rules.sa_double_words:
        return Double(rules.sa_double_words.index(s) + 1)
    parts = s.split(":")
    names = (*rules.suits, *rules.strain_names)
    if rules.sa_rule is not None and len(parts) == 3 and parts[0] == "bid" \
            and parts[2] in names:
        suit = names.index(parts[2])
        if parts[1] == "capot" and rules.sa_capot_value:
            return SuitBid(rules.sa_capot_value, suit)
        if parts[1] == "generale" and rules.sa_generale_value:
            return SuitBid(rules.sa_generale_value, suit)
        v = _amount(parts[1])
        if v is not None and v not in (rules.sa_capot_value, rules.sa_generale_value or -1):
            return SuitBid(v, suit)
    if len(parts) != 2:
        return None
    head, tail = parts
    if head == "take" and rules.take_rule is not None and tail in names:
        return Take(names.index(tail))
    if head == rules.pair_word and rules.pair_rule is not None and tail in rules.card_index:
        return SayPair(rules.card_index[tail])
    for combo in rules.combos:
        if combo.name != head:
            continue
        if combo.same_rank and tail in rules.ranks:
            return Announce(combo.index, rules.card_index_of(0, rules.ranks.index(tail)))
        if not combo.same_rank and tail in rules.card_index:
            return Announce(combo.index, rules.card_index[tail])
    return None


def action_text(rules: Rules, action: Action) -> str:
    """The canonical text of ``action`` under ``rules``; an action that is none of theirs
    (a card out of the pack: ``Play(99)``, ``Play(-1)``) is shown as what it is.

    >>> from mariage import load_rules
    >>> rules = load_rules("marianna")
    >>> action_text(rules, Play(0)), action_text(rules, Play(-1))
    ('AH', '<Play Play(card=-1)>')
    """
    if type(action) is Play:  # the usual action: no call more than the lookup
        card = action.card
        try:
            if card >= 0:
                return rules.card_code[card]
        except (AttributeError, IndexError, TypeError):
            _expect_rules(rules, "action_text")
        return _odd_text(action)
    try:
        return _action_text(rules, action)
    except AttributeError:
        _expect_rules(rules, "action_text")
        raise
    except Exception:  # fields that name nothing of the rules (a number past 4,300
        return _odd_text(action)  # digits: a ValueError; a field whose str raises)


def _expect_rules(rules: object, call: str) -> None:
    """TypeError unless ``rules`` has what compiled rules have (a name has not)."""
    if not hasattr(rules, "card_code"):
        raise TypeError(f"{call}: rules must be a Rules (load_rules(name) makes one), "
                        f"not {type(rules).__name__}")


def _odd_text(action: object) -> str:
    """An object that is no action of the rules, shown as what it is."""
    return f"<{type(action).__name__} {shown(action, 43)}>"


def _action_text(rules: Rules, action: Action) -> str:
    t = type(action)
    if t is Exchange:
        card = action.card  # type: ignore[union-attr]
        if card.__class__ is int and 0 <= card < len(rules.card_code):
            return f"exchange:{rules.card_code[card]}"
    elif t is Declare:
        assert isinstance(action, Declare)
        if type(action.decl) is int and type(action.suit) is int \
                and action.decl >= 0 and action.suit >= 0:
            text = f"{rules.declarations[action.decl].name}:{rules.suits[action.suit]}"
            return text if action.trump else text + ":notrump"
        return _odd_text(action)
    if t is AskPartner:
        assert isinstance(action, AskPartner)
        name = rules.asks[action.ask].name
        return f"ask:{name}" if action.suit < 0 else f"ask:{name}:{rules.suits[action.suit]}"
    if t is Answer:
        assert isinstance(action, Answer)
        if not action.yes:
            return "no"
        return "yes" if action.suit < 0 else f"yes:{rules.suits[action.suit]}"
    if t is Pass:
        return "pass"
    talon = _TALON_TEXT.get(t)
    if talon is not None:
        return talon
    bidding = _bidding_text(rules, action)
    if bidding is not None:
        return bidding
    taking = _taking_text(rules, action)
    if taking is not None:
        return taking
    if t is CallOut:
        return "callout"
    return _odd_text(action)  # not an action: shown as what it is (it was named 'callout')


def parse_action(rules: Rules, text: str) -> Action:
    """Parse the canonical text of an action (as :func:`action_text` writes it); raise
    :class:`~mariage.errors.ActionTextError` (a ``ValueError``) if it is not one (a
    ``TypeError`` if ``text`` is no string or ``rules`` no compiled rules). Spaces
    around it are ignored. Whether the action is legal now is the state's to say
    (:meth:`~mariage.engine.state.GameState.apply`).

    >>> from mariage import load_rules
    >>> rules = load_rules("marianna")
    >>> parse_action(rules, "KH"), parse_action(rules, " exchange:7H ")
    (Play(KH), Exchange(card=5))
    >>> parse_action(rules, "marianna:S") == Declare(0, rules.suits.index("S"))
    True
    >>> parse_action(rules, "bid:120")
    Traceback (most recent call last):
    ...
    mariage.errors.ActionTextError: not an action of marianna: 'bid:120'
    """
    if text.__class__ is not str and not isinstance(text, str):  # bytes strip too
        raise TypeError(f"parse_action: the text of an action is a str, "
                        f"not {type(text).__name__}")
    s = text.strip()
    try:  # (no check in the way of the usual call: a record's replay makes many)
        card_index = rules.card_index
    except AttributeError:
        _expect_rules(rules, "parse_action")
        raise
    if s in card_index:
        return rules.play_actions[card_index[s]]
    if s == "pass":
        return Pass()
    if s == "no":
        return Answer(False)
    if s == "yes":
        return Answer(True)
    if s == "callout":
        return CallOut()
    if s in _TALON_ACTIONS:
        return _TALON_ACTIONS[s]
    parts = s.split(":")
    head = parts[0]
    if head == "yes" and len(parts) == 2 and parts[1] in rules.suits:
        return Answer(True, rules.suits.index(parts[1]))
    if head == "exchange" and len(parts) == 2 and parts[1] in rules.card_index:
        return Exchange(rules.card_index[parts[1]])
    if head == "ask" and len(parts) in (2, 3):
        for a in rules.asks:
            if a.name == parts[1]:
                if len(parts) == 2:
                    return AskPartner(a.index)
                if parts[2] in rules.suits:
                    return AskPartner(a.index, rules.suits.index(parts[2]))
    for d in rules.declarations:
        if d.name == head and len(parts) in (2, 3) and parts[1] in rules.suits:
            if len(parts) == 3 and parts[2] != "notrump":
                break
            return Declare(d.index, rules.suits.index(parts[1]), len(parts) == 2)
    found = _bidding_parse(rules, s)
    if found is not None:
        return found
    found = _taking_parse(rules, s)
    if found is not None:
        return found
    shown = repr(text) if len(text) <= 60 else f"{text[:60]!r}... ({len(text)} characters)"
    raise ActionTextError(f"not an action of {rules.ruleset}: {shown}")
