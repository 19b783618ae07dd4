"""Actions a seat can take. Each is a small immutable value.

An action does not carry its seat: the state knows whose turn it is, and
:meth:`mariage.engine.state.GameState.apply` takes a ``seat`` for actions made out of
turn (calling out). Cards are card numbers of the ruleset (``rules.card("KH")``). The
canonical text of an action (records, the engine protocol) is :mod:`.actiontext`'s.

>>> from mariage.engine.actions import Play, Declare
>>> Play(3) == Play(3), Declare(0, 1).suit
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING

from ..errors import shown
from ..lazyrecord import field, frozen_record

if TYPE_CHECKING:
    pass

__all__ = [
    "Action",
    "Announce",
    "Answer",
    "AskPartner",
    "Bid",
    "BlindBid",
    "Call",
    "CallOut",
    "ChooseTalon",
    "Claim",
    "Close",
    "Concede",
    "Declare",
    "Decline",
    "Double",
    "Draw",
    "Exchange",
    "Give",
    "Kontra",
    "Pass",
    "Play",
    "Question",
    "Raise",
    "Redeal",
    "SayPair",
    "SuitBid",
    "Take",
    "played_card",
]

#: how action reprs name actions: the text of the rules set by
#: :func:`~mariage.engine.actiontext.naming` (``None``: by their numbers)
_NAMING: ContextVar[Callable[[Action], str] | None] = ContextVar("mariage_naming", default=None)


def _n(value: object) -> str:
    """A field as its repr shows it: a whole number too long to write out by its size."""
    if type(value) is int and value.bit_length() > 4000:
        return shown(value)
    try:
        return str(value)
    except Exception:  # a huge number within a list, a str that raises: named by type
        return shown(value)


def _named(action: Action, numbers: str) -> str:
    namer = _NAMING.get()
    if namer is not None:
        try:
            return f"{type(action).__name__}({namer(action)})"
        except (IndexError, TypeError):
            pass
    return f"{type(action).__name__}({numbers})"


@frozen_record
class Play:
    """Play ``card`` to the current trick.

    The plays of a ruleset's legal actions carry the card's ``code``, which
    only their repr uses (it is not compared):

    >>> from mariage import load_rules
    >>> load_rules("marianna").play_actions[2], Play(2) == load_rules("marianna").play_actions[2]
    (Play(KH), True)
    """

    card: int
    code: str = field(default="", compare=False, repr=False)

    def __repr__(self) -> str:
        if self.code:
            return f"Play({self.code})"
        return _named(self, f"card={_n(self.card)}")


@frozen_record
class Declare:
    """Declare declaration number ``decl`` of the ruleset in ``suit``.

    ``trump`` is ``False`` only where the rules let the declarer decline to
    make the suit trump (option of Marjapussi). Its text is the declaration's
    name and the suit:

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("marianna-3")
    >>> state = new_match(rules, seed=5)
    >>> state.apply(parse_action(rules, "5S"))
    >>> decl = state.legal_actions()[0]
    >>> decl, rules.declarations[decl.decl].name, rules.suits[decl.suit]
    (Declare(decl=0, suit=2, trump=True), 'marianna', 'C')
    >>> parse_action(rules, "marianna:C") == decl
    True
    >>> parse_action(load_rules("marjapussi"), "marriage:H:notrump")
    Declare(decl=0, suit=0, trump=False)
    """

    decl: int
    suit: int
    trump: bool = True

    def __repr__(self) -> str:
        return _named(self, f"decl={_n(self.decl)}, suit={_n(self.suit)}, trump={_n(self.trump)}")


@frozen_record
class AskPartner:
    """Ask the partner (ask number ``ask`` of the ruleset), about ``suit`` or any suit (-1).

    The partner must answer (:class:`Answer`) before play goes on:

    >>> from mariage import load_rules, new_match
    >>> rules = load_rules("cinquecento-siciliana")
    >>> state = new_match(rules, seed=1)
    >>> ask = state.legal_actions()[0]
    >>> ask, rules.asks[ask.ask].name, rules.suits[ask.suit]
    (AskPartner(ask=0, suit=1), 'cover', 'D')
    """

    ask: int
    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"ask={_n(self.ask)}, suit={_n(self.suit)}")


@frozen_record
class Answer:
    """The partner's answer to an ask: yes (with the suit named) or no.

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("cinquecento-siciliana")
    >>> state = new_match(rules, seed=1)
    >>> state.apply(parse_action(rules, "ask:cover:D"))
    >>> state.phase.name, state.legal_actions()  # the partner can only say no
    ('ANSWER', [Answer(yes=False, suit=-1)])
    >>> parse_action(rules, "yes:D")
    Answer(yes=True, suit=1)
    """

    yes: bool
    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"yes={_n(self.yes)}, suit={_n(self.suit)}")


@frozen_record
class Pass:
    """Decline: to declare when the declaration window comes round, to bid in an
    auction, to take the turned card.

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("belote")
    >>> state = new_match(rules, seed=1)
    >>> state.phase.name, state.legal_actions()
    ('TAKING', [Pass(), Take(suit=-1)])
    >>> parse_action(rules, "pass")
    Pass()
    """


@frozen_record
class Exchange:
    """Give ``card`` (the exchange rank of trump) for the turned-up card.

    In Schnapsen the jack of trump takes the turned-up king of diamonds:

    >>> from mariage import load_rules, new_match
    >>> rules = load_rules("schnapsen")
    >>> state = new_match(rules, seed=2)
    >>> rules.card_code[state.turn_up], state.legal_actions()[0]
    ('KD', Exchange(card=9))
    >>> state.apply(Exchange(rules.card("JD")))
    >>> rules.card_code[state.turn_up], rules.format_cards(state.hands[1])
    ('JD', 'KD AC TC JC KS')
    """

    card: int

    def __repr__(self) -> str:
        return _named(self, f"card={_n(self.card)}")


@frozen_record
class CallOut:
    """Stop play and claim that one's side has reached the target.

    A seat may call out at any moment, its turn or not (``legal_actions(seat)``
    lists what a seat may do out of turn):

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("mariaggia")
    >>> state = new_match(rules, seed=2)
    >>> state.to_act, state.legal_actions(0)
    (1, [CallOut()])
    >>> parse_action(rules, "callout")
    CallOut()
    """


# ---- talon games: closing the talon, claiming the hand target, the moment after a trick


@frozen_record
class Close:
    """Close the stock (talon): no more drawing, strict play from the next card.

    >>> from mariage import load_rules, new_match
    >>> state = new_match(load_rules("schnapsen"), seed=1)
    >>> state.legal_actions()[:2]
    [Close(), Play(KH)]
    >>> len(state.stock)
    10
    >>> state.apply(Close())  # the stock is laid aside
    >>> Close() in state.legal_actions(), len(state.stock), len(state.aside)
    (False, 0, 10)
    """


@frozen_record
class Claim:
    """Claim to have reached the hand's target in counted points (going out).

    After each trick its winner may claim, close or draw (:class:`Draw`):

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("sixty-six")
    >>> state = new_match(rules, seed=1)
    >>> for card in ("AH", "TS"):
    ...     state.apply(parse_action(rules, card))
    >>> state.phase.name, state.to_act, state.legal_actions()
    ('AFTER_TRICK', 0, [Claim(), Close(), Draw()])
    """


@frozen_record
class Draw:
    """After winning a trick, neither claim nor close: draw, and play on.

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("sixty-six")
    >>> state = new_match(rules, seed=1)
    >>> for text in ("AH", "TS", "draw"):
    ...     state.apply(parse_action(rules, text))
    >>> state.phase.name, state.to_act, [h.bit_count() for h in state.hands]
    ('PLAY', 0, [6, 6])
    """


@frozen_record
class Decline:
    """Decline what is offered at this moment (an exchange on a close, a last claim).

    >>> from mariage import load_rules, new_match, naming
    >>> rules = load_rules("sixty-six")
    >>> state = new_match(rules, seed=2)
    >>> state.apply(Close())
    >>> with naming(rules):
    ...     print(state.phase.name, state.legal_actions())
    CLOSE_REPLY [Exchange(exchange:9H), Decline()]
    """



# ---- bidding games: auction, passing, contract, trump calls

@frozen_record
class Bid:
    """Bid ``value`` in the auction (a pass is :class:`Pass`).

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("marjapussi-de")
    >>> state = new_match(rules, seed=1)
    >>> state.phase.name, state.legal_actions()[:3]
    ('AUCTION', [Pass(), Bid(value=120), Bid(value=125)])
    >>> parse_action(rules, "bid:135")
    Bid(value=135)
    """

    value: int

    def __repr__(self) -> str:
        return _named(self, f"value={_n(self.value)}")


@frozen_record
class Give:
    """Pass the cards of bit mask ``cards`` to the partner, or to the seat the rules
    name (Thousand's declarer gives one card to each opponent); -1: cards unknown to
    the writer, or hidden from the seat that observes.

    >>> from mariage import load_rules, new_match, naming, parse_action
    >>> rules = load_rules("thousand-pl")
    >>> state = new_match(rules, seed=1)
    >>> for text in ("pass", "pass"):
    ...     state.apply(parse_action(rules, text))
    >>> with naming(rules):
    ...     print(state.phase.name, state.legal_actions()[1:3])
    PASSING [Give(give:KH), Give(give:JH)]
    >>> parse_action(rules, "give:KH") == Give(1 << rules.card("KH"))
    True
    """

    cards: int

    def __repr__(self) -> str:
        return _named(self, f"cards={_n(self.cards)}")


@frozen_record
class Raise:
    """Fix the game value after the exchange: ``value`` (0 keeps the winning bid).

    >>> from mariage import load_rules, new_match, parse_action
    >>> rules = load_rules("thousand-2")
    >>> state = new_match(rules, seed=2)
    >>> for text in ("bid:100", "pass", "talon:1", "give:KC+JC"):
    ...     state.apply(parse_action(rules, text))
    >>> state.phase.name, state.legal_actions()[:2]
    ('CONTRACT', [Raise(value=0), Raise(value=105)])
    >>> parse_action(rules, "keep"), parse_action(rules, "raise:120")
    (Raise(value=0), Raise(value=120))
    """

    value: int = 0

    def __repr__(self) -> str:
        return _named(self, f"value={_n(self.value)}")


@frozen_record
class Call:
    """Announce one's own pair in ``suit``: the suit becomes trump.

    In German Marjapussi, the winner of a trick may call a pair, or ask the
    partner (:class:`Question`), before leading:

    >>> from mariage import load_rules, new_match, naming, parse_action
    >>> rules = load_rules("marjapussi-de")
    >>> state = new_match(rules, seed=2)
    >>> for text in "pass pass pass pass JS AS QH TS".split():
    ...     state.apply(parse_action(rules, text))
    >>> with naming(rules):
    ...     print(state.legal_actions()[:3])
    [Call(call:S), Question(ask:pair), Question(ask:half:H)]
    >>> parse_action(rules, "call:S")
    Call(suit=3)
    """

    suit: int

    def __repr__(self) -> str:
        return _named(self, f"suit={_n(self.suit)}")


@frozen_record
class Question:
    """Ask the partner: ``kind`` 0 "a pair?", 1 "a half in ``suit``?".

    >>> from mariage import load_rules, parse_action
    >>> rules = load_rules("marjapussi-de")
    >>> parse_action(rules, "ask:pair"), parse_action(rules, "ask:half:H")
    (Question(kind=0, suit=-1), Question(kind=1, suit=0))
    """

    kind: int
    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"kind={_n(self.kind)}, suit={_n(self.suit)}")


@frozen_record
class Kontra:
    """Double the contract: Kontra by a defender, Re (``re``) by the playing party.

    Legal only where the rules have it (German Marjapussi with its ``kontra_re``
    option); its text is ``kontra`` or ``re``:

    >>> from mariage import load_rules, action_text, parse_action
    >>> rules = load_rules("marjapussi-de", {"kontra_re": True})
    >>> parse_action(rules, "kontra"), action_text(rules, Kontra(re=True))
    (Kontra(re=False), 're')
    """

    re: bool = False

    def __repr__(self) -> str:
        return _named(self, f"re={_n(self.re)}")


# ---- trump by a turned card taken in rounds; announcements compared between sides;
# the pair of trumps said as its first card is played


@frozen_record
class Take:
    """Take the turned card: its suit is trump (``suit`` -1), or name ``suit`` (a later round)."""

    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"suit={_n(self.suit)}")


@frozen_record
class Announce:
    """Announce combination kind ``combo`` of the ruleset, keyed by ``card``.

    For a run the key is its top card; for a set of one rank, any card of that rank
    (its text names the rank only).
    """

    combo: int
    card: int

    def __repr__(self) -> str:
        return _named(self, f"combo={_n(self.combo)}, card={_n(self.card)}")


@frozen_record
class SayPair:
    """Say the pair of trumps (belote) while playing ``card``, its first card."""

    card: int

    def __repr__(self) -> str:
        return _named(self, f"card={_n(self.card)}")


@frozen_record
class SuitBid:
    """Bid ``value`` with ``suit`` as trump (a value of the rules' capot bid: capot)."""

    value: int
    suit: int

    def __repr__(self) -> str:
        return _named(self, f"value={_n(self.value)}, suit={_n(self.suit)}")


@frozen_record
class Double:
    """Double the standing bid (``level`` 1, coinche) or redouble it (2, surcoinche)."""

    level: int = 1

    def __repr__(self) -> str:
        return _named(self, f"level={_n(self.level)}")


@frozen_record
class BlindBid:
    """Bid ``value`` blind, before looking at one's cards (Thousand's dark bid): written
    with the rules' word, ``dark:120``."""

    value: int

    def __repr__(self) -> str:
        return _named(self, f"value={_n(self.value)}")


@frozen_record
class Concede:
    """The declarer gives up the hand after taking the talon: it is scored unplayed."""


@frozen_record
class ChooseTalon:
    """Choose packet ``packet`` (0 first) of a talon lying in packets: take it, lay the
    others aside unseen."""

    packet: int

    def __repr__(self) -> str:
        return _named(self, f"packet={_n(self.packet)}")


@frozen_record
class Redeal:
    """Throw the hand in by a claim the rules allow (four nines...): it is dealt again."""


Action = (Play | Declare | AskPartner | Answer | Pass | Exchange | CallOut
          | Close | Claim | Draw | Decline
          | Bid | Give | Raise | Call | Question | Kontra
          | Take | Announce | SayPair | SuitBid | Double | Concede | Redeal | ChooseTalon
          | BlindBid)

def played_card(action: Action) -> int:
    """The card ``action`` puts on the trick, or -1: a play, or a play that says the
    pair of trumps (Belote's "belote", which plays its first card).

    >>> played_card(Play(5)), played_card(SayPair(7)), played_card(Pass())
    (5, 7, -1)
    """
    return action.card if isinstance(action, (Play, SayPair)) else -1
