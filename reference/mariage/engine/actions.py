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
    make the suit trump (option of Marjapussi).
    """

    decl: int
    suit: int
    trump: bool = True

    def __repr__(self) -> str:
        return _named(self, f"decl={_n(self.decl)}, suit={_n(self.suit)}, trump={_n(self.trump)}")


@frozen_record
class AskPartner:
    """Ask the partner (ask number ``ask`` of the ruleset), about ``suit`` or any suit (-1)."""

    ask: int
    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"ask={_n(self.ask)}, suit={_n(self.suit)}")


@frozen_record
class Answer:
    """The partner's answer to an ask: yes (with the suit named) or no."""

    yes: bool
    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"yes={_n(self.yes)}, suit={_n(self.suit)}")


@frozen_record
class Pass:
    """Decline to declare when the declaration window comes round."""


@frozen_record
class Exchange:
    """Give ``card`` (the exchange rank of trump) for the turned-up card."""

    card: int

    def __repr__(self) -> str:
        return _named(self, f"card={_n(self.card)}")


@frozen_record
class CallOut:
    """Stop play and claim that one's side has reached the target."""


# ---- talon games: closing the talon, claiming the hand target, the moment after a trick


@frozen_record
class Close:
    """Close the stock (talon): no more drawing, strict play from the next card."""


@frozen_record
class Claim:
    """Claim to have reached the hand's target in counted points (going out)."""


@frozen_record
class Draw:
    """After winning a trick, neither claim nor close: draw, and play on."""


@frozen_record
class Decline:
    """Decline what is offered at this moment (an exchange on a close, a last claim)."""



# ---- bidding games: auction, passing, contract, trump calls

@frozen_record
class Bid:
    """Bid ``value`` in the auction (a pass is :class:`Pass`)."""

    value: int

    def __repr__(self) -> str:
        return _named(self, f"value={_n(self.value)}")


@frozen_record
class Give:
    """Pass the cards of bit mask ``cards`` to the partner (-1: cards unknown to the writer)."""

    cards: int

    def __repr__(self) -> str:
        return _named(self, f"cards={_n(self.cards)}")


@frozen_record
class Raise:
    """Fix the game value after the exchange: ``value`` (0 keeps the winning bid)."""

    value: int = 0

    def __repr__(self) -> str:
        return _named(self, f"value={_n(self.value)}")


@frozen_record
class Call:
    """Announce one's own pair in ``suit``: the suit becomes trump."""

    suit: int

    def __repr__(self) -> str:
        return _named(self, f"suit={_n(self.suit)}")


@frozen_record
class Question:
    """Ask the partner: ``kind`` 0 "a pair?", 1 "a half in ``suit``?"."""

    kind: int
    suit: int = -1

    def __repr__(self) -> str:
        return _named(self, f"kind={_n(self.kind)}, suit={_n(self.suit)}")


@frozen_record
class Kontra:
    """Double the contract: Kontra by a defender, Re (``re``) by the playing party."""

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
