"""Worked examples for the rulebooks: a deal and a script, replayed and checked.

An example names a ruleset, the deal (each seat's hand, the turned-up card,
the stock in drawing order, the dealer) and a script, one line at a time:

* ``N KH`` or ``N marianna:H, W 2C, S 3H`` - actions in canonical text, each
  by the seat named, which must be the seat to act;
* ``= winner N``, ``= trump H`` (or ``none``), ``= points NS 51 WE 0``
  (the hand so far: card points plus counted declarations), ``= score NS 0
  WE 0`` (the match), ``= result NS`` (the match winner, or ``none``): claims
  that the replay checks;
* ``! S marianna:H -> marianna.decl.window``: an action that must be refused,
  with that rule ID;
* ``# ...``: a note, shown with the next trick.

:func:`replay` plays the script through :class:`~mariage.engine.state.GameState`
and returns the tricks for drawing; any illegal action or wrong claim raises
:class:`ExampleError` naming the script line.

>>> ex = Example("marianna", hands={"N": "KH QH AS 2S 4C", "W": "2C 3C 4D 5D 6D",
...              "S": "3H 7C 5C 6C 7D", "E": "AH 2D 4H 5H 6H"}, dealer="E",
...              script=["N marianna:H, N KH, W 2C, S 3H, E AH", "= winner E",
...                      "= points NS 40 WE 25"])
>>> [(t.number, t.winner, t.points) for t in replay(ex).tricks]
[(1, 'E', 25)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from mariage.engine.actions import Action, CallOut
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.deals import deal_owners
from mariage.engine.rules import Rules
from mariage.engine.state import GameState
from mariage.errors import IllegalActionError, MariageError
from mariage.spec.rulesload import load_rules

from ..notation.recorder import Recorder
from ..notation.writer import write_record
from .render import SUIT_SYMBOLS

__all__ = [
    "Example",
    "ExampleError",
    "Replay",
    "TrickRow",
    "build_deck",
    "example_from",
    "parse_hands",
    "parse_options",
    "pretty",
    "replay",
]


class ExampleError(ValueError):
    """An example that the interpreter does not accept, with the script line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line + 1}: {message}" if line is not None else message)


@dataclass
class Example:
    """A documentation example: ruleset, options, deal and script lines."""

    ruleset: str
    hands: Mapping[str, str | Sequence[str]]
    script: Sequence[str]
    options: Mapping[str, str] = field(default_factory=dict)
    dealer: str | None = None
    first_player: str | None = None
    turn_up: str | None = None
    stock: str | Sequence[str] = ()


@dataclass
class TrickRow:
    """One trick as drawn: what each seat did, who won, the trump at its end."""

    number: int
    leader: str
    plays: dict[str, list[str]] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    winner: str | None = None
    points: int = 0
    trump: str = ""
    notes: list[str] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)


@dataclass
class Replay:
    """The checked result of an example."""

    rules: Rules
    hands: list[tuple[str, str]]
    turn_up: str | None
    stock: int
    dealer: str | None
    tricks: list[TrickRow]
    outcome: list[str]
    notes: list[str]
    #: the example as a record in the notation (``result *`` while the match goes on)
    record: str = ""


def _codes(cards: str | Sequence[str]) -> list[str]:
    return cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)


def _seat(rules: Rules, name: str, line: int | None = None) -> int:
    if name not in rules.seat_names:
        raise ExampleError(f"no seat '{name}' (seats: {', '.join(rules.seat_names)})", line)
    return rules.seat_names.index(name)


def build_deck(rules: Rules, example: Example) -> tuple[list[int], int | None, int | None]:
    """The deck (top card first), dealer and first player that deal the example.

    Every seat's hand must be given in full. Cards that no hand, stock or
    turn-up names complete the stock in canonical order, after the listed ones.
    """
    n = rules.nseats
    dealer = _seat(rules, example.dealer) if example.dealer else None
    first = _seat(rules, example.first_player) if example.first_player else None
    if rules.first_dealer != "none" and dealer is None:
        raise ExampleError("give the dealer (:dealer:)")
    if rules.first_lead == "lot" and first is None:
        raise ExampleError("this ruleset has no dealer: give the first player (:first:)")
    hands: list[list[str]] = []
    out = rules.sitter(dealer)  # dealt nothing
    for s, name in enumerate(rules.seat_names):
        cards = _codes(example.hands.get(name, ""))
        size = 0 if s == out else rules.hand_size
        if len(cards) != size:
            raise ExampleError(f"seat {name} needs {size} cards, got {len(cards)}")
        hands.append(cards)
        if example.turn_up and rules.turn_up == "dealer_last" and s == dealer:
            if example.turn_up not in cards:
                raise ExampleError("the turned-up card must be in the dealer's hand")
            cards.remove(example.turn_up)
            cards.append(example.turn_up)
    stock = _codes(example.stock)
    turned = rules.turn_up in ("under_stock", "to_taker")  # a card of its own in the deck
    under = [example.turn_up] if example.turn_up and turned else []
    named = [c for h in hands for c in h] + stock + under
    for c in named:
        if c not in rules.card_index:
            raise ExampleError(f"'{c}' is not a card of {rules.ruleset}")
    dup = sorted({c for c in named if named.count(c) > 1})
    if dup:
        raise ExampleError(f"cards named twice: {' '.join(dup)}")
    stock += [c for c in rules.card_code if c not in named]
    if turned and not under:
        raise ExampleError("give the turned-up card (:turn-up:)")
    # rounds of packets from the dealer's left, the card under the stock where the
    # rules turn one: the deck order of deal_owners
    got = [0] * n
    rest = iter(stock)
    deck: list[str] = []
    for owner in deal_owners(rules, dealer):
        if owner >= 0:
            deck.append(hands[owner][got[owner]])
            got[owner] += 1
        else:
            deck.append(under[0] if owner == -2 else next(rest))
    return [rules.card_index[c] for c in deck], dealer, first


def pretty(rules: Rules, text: str) -> str:
    """An action text with suit symbols: ``KH`` -> ``K♥``, ``marianna:H`` -> ``marianna ♥``."""
    def card(code: str) -> str:
        return code[:-1] + SUIT_SYMBOLS.get(code[-1], code[-1])
    if text in rules.card_index:
        return card(text)
    parts = text.split(":")
    words = []
    for p in parts:
        if p in rules.suits:
            words.append(SUIT_SYMBOLS.get(p, p))
        elif p in rules.card_index:
            words.append(card(p))
        else:
            words.append(p)
    return " ".join(words)


def parse_hands(text: str, seats: tuple[str, ...]) -> dict[str, str]:
    """``"N: KH QH ... W: 2C ..."`` -> ``{"N": "KH QH ...", "W": "2C ..."}``."""
    out: dict[str, list[str]] = {}
    seat: str | None = None
    for word in text.split():
        if word.endswith(":") and word[:-1] in seats:
            seat = word[:-1]
            out[seat] = []
        elif seat is None:
            raise ExampleError(f"hands must start with a seat name and a colon, got {word!r}")
        else:
            out[seat].append(word)
    return {k: " ".join(v) for k, v in out.items()}


def parse_options(text: str) -> dict[str, str]:
    """``"target=301 trick_six=true"`` -> a dict of option values."""
    out = {}
    for pair in text.split():
        key, sep, value = pair.partition("=")
        if not sep:
            raise ExampleError(f"options are NAME=VALUE, got {pair!r}")
        out[key] = value
    return out


def example_from(options: dict[str, str], content: list[str]) -> Example:
    """Build an :class:`Example` from the directive's options and content."""
    ruleset = options.get("ruleset", "")
    if not ruleset:
        raise ExampleError("give the ruleset (:ruleset:)")
    opts = parse_options(options.get("options", ""))
    try:
        seats = load_rules(ruleset, opts).seat_names
    except Exception as exc:
        raise ExampleError(str(exc)) from None
    return Example(ruleset, parse_hands(options.get("hands", ""), seats), list(content), opts,
                   options.get("dealer"), options.get("first"), options.get("turn-up"),
                   options.get("stock", ""))



def _teams(rules: Rules, words: list[str], line: int) -> dict[int, int]:
    if len(words) % 2:
        raise ExampleError("write team names and numbers in pairs, e.g. 'NS 40 WE 0'", line)
    out = {}
    for name, value in zip(words[::2], words[1::2], strict=True):
        if name not in rules.team_names:
            raise ExampleError(f"no team '{name}' (teams: {', '.join(rules.team_names)})",
                               line)
        try:
            out[rules.team_names.index(name)] = int(value)
        except ValueError:
            raise ExampleError(f"'{value}' is not a number", line) from None
    return out


class _Player:
    def __init__(self, rules: Rules, state: GameState, recorder: Recorder) -> None:
        self.rules = rules
        self.state = state
        self.recorder = recorder
        self.tricks: list[TrickRow] = []
        self.notes: list[str] = []
        self.outcome: list[str] = []

    def row(self) -> TrickRow:
        """The row of the next action: its trick's, and before the play (an auction,
        passing, a talon) a row of its own, number 0."""
        st, r = self.state, self.rules
        before_play = st.trick_no == 0  # (a declaration window opens trick 1: not before)
        last = self.tricks[-1] if self.tricks else None
        if last is None or last.winner is not None or (last.number == 0 and not before_play):
            seat = st.to_act if before_play and st.to_act is not None else st.leader
            self.tricks.append(TrickRow(0 if before_play else st.trick_no, r.seat_names[seat]))
        return self.tricks[-1]

    def attach(self) -> TrickRow | None:
        """The trick a claim or refusal belongs to: the latest one, while the hand goes on."""
        if not self.tricks or self.state.to_act is None:
            return None
        row = self.tricks[-1]
        row.notes += self.notes
        self.notes = []
        return row

    def act(self, seat_name: str, text: str, line: int) -> None:
        st, r = self.state, self.rules
        seat = _seat(r, seat_name, line)
        try:
            action: Action = parse_action(r, text)
        except ValueError as exc:
            raise ExampleError(str(exc), line) from None
        if not isinstance(action, CallOut) and st.to_act != seat:
            who = r.seat_names[st.to_act] if st.to_act is not None else "nobody"
            raise ExampleError(f"{seat_name} {text}: it is {who}'s turn", line)
        row = self.row()
        row.notes += self.notes
        self.notes = []
        done = len(st.tricks)
        before = (st.trick_no, done, st.trump)
        try:
            st.apply(action, seat=seat)
        except IllegalActionError as exc:
            raise ExampleError(f"{seat_name} {action_text(r, action)} is illegal "
                               f"[{exc.rule_id}]: {exc.reason}", line) from None
        self.recorder.on_action(st, seat, action, *before)
        if seat_name not in row.plays:
            row.plays[seat_name] = []
            row.order.append(seat_name)
        row.plays[seat_name].append(pretty(r, text))
        if len(st.tricks) > done:
            _, cards, winner = st.tricks[-1]
            row.winner = r.seat_names[winner]
            row.points = sum(st.card_points[c] for c in cards)
            row.trump = SUIT_SYMBOLS.get(r.suits[st.trump], "") if st.trump >= 0 else "none"

    def refuse(self, seat_name: str, text: str, rule_id: str, line: int) -> None:
        st, r = self.state, self.rules
        seat = _seat(r, seat_name, line)
        try:
            action = parse_action(r, text)
        except ValueError as exc:
            raise ExampleError(str(exc), line) from None
        try:
            st.clone().apply(action, seat=seat)
        except IllegalActionError as exc:
            if exc.rule_id != rule_id:
                raise ExampleError(f"{seat_name} {text} is refused by [{exc.rule_id}], "
                                   f"not [{rule_id}]", line) from None
            claim = f"{seat_name} may not {pretty(r, text)} [{rule_id}]: {exc.reason}"
            row = self.attach()
            (row.checks if row is not None else self.outcome).append(claim)
            return
        raise ExampleError(f"{seat_name} {text} is legal, but the example says "
                           f"[{rule_id}] forbids it", line)

    def points(self) -> list[int]:
        st = self.state
        teams = range(len(self.rules.teams))
        if st.trick_cards or st.to_act is not None or not st.history:
            return [st.hand_points(t) for t in teams]
        return list(st.history[-1].points)

    def check(self, words: list[str], line: int) -> None:
        st, r = self.state, self.rules
        if not words:
            raise ExampleError("an empty claim", line)
        key, rest = words[0], words[1:]
        if key == "winner":
            last = r.seat_names[st.tricks[-1][2]] if st.tricks else "nobody"
            if rest != [last]:
                raise ExampleError(f"the example says {' '.join(rest)} wins the trick; "
                                   f"{last} does", line)
            return
        if key == "trump":
            now = r.suits[st.trump] if st.trump >= 0 else "none"
            if rest != [now]:
                raise ExampleError(f"the example says trump is {' '.join(rest)}; it is {now}",
                                   line)
            claim = f"trump: {pretty(r, now) if now != 'none' else 'none'}"
        elif key in ("points", "score"):
            if key == "points":
                got = self.points()
            else:
                got = list(st.segni if r.match_measure == "hands_won" else st.match_scores)
            for t, value in _teams(r, rest, line).items():
                if got[t] != value:
                    raise ExampleError(f"the example says {key} {r.team_names[t]} {value}; "
                                       f"the interpreter has {got[t]}", line)
            label = "hand points" if key == "points" else (
                "hands won" if r.match_measure == "hands_won" else "match score")
            claim = f"{label}: " + ", ".join(f"{r.team_names[t]} {got[t]}"
                                            for t in range(len(got)))
        elif key == "result":
            res = st.result
            now = r.team_names[res.winner] if res and res.winner is not None else "none"
            if rest != [now]:
                raise ExampleError(f"the example says the match winner is {' '.join(rest)}; "
                                   f"it is {now}", line)
            claim = "match won by " + now if now != "none" else "the match goes on"
        else:
            raise ExampleError(f"unknown claim '{key}' (winner, trump, points, score, result)",
                               line)
        row = self.attach()
        (row.checks if row is not None else self.outcome).append(claim)


def replay(example: Example) -> Replay:
    """Deal and play ``example``, checking every claim; raise :class:`ExampleError`."""
    try:
        rules = load_rules(example.ruleset, dict(example.options))
    except (ValueError, KeyError) as exc:
        raise ExampleError(str(exc)) from None
    deck, dealer, first = build_deck(rules, example)
    state = GameState(rules, first_dealer=dealer)
    try:
        state.deal(deck, first)
    except IllegalActionError as exc:
        raise ExampleError(f"the deal is refused [{exc.rule_id}]: {exc.reason}") from None
    hands = [(name, " ".join(pretty(rules, rules.card_code[c])
                             for c in rules.cards_of(state.hands[s])))
             for s, name in enumerate(rules.seat_names)]
    turn_up = pretty(rules, rules.card_code[state.turn_up]) if state.turn_up is not None \
        else None
    recorder = Recorder(rules, dealer)
    recorder.on_deal(state)
    player = _Player(rules, state, recorder)
    stock = len(state.stock)
    for n, raw in enumerate(example.script):
        text = raw.strip()
        if not text:
            continue
        if text.startswith("#"):
            player.notes.append(text[1:].strip())
        elif text.startswith("="):
            player.check(text[1:].split(), n)
        elif text.startswith("!"):
            body, arrow, rule_id = text[1:].partition("->")
            words = body.split()
            if not arrow or len(words) != 2 or not rule_id.strip():
                raise ExampleError("write a refusal as '! SEAT ACTION -> rule.id'", n)
            player.refuse(words[0], words[1], rule_id.strip(), n)
        else:
            for part in text.split(","):
                words = part.split()
                if len(words) != 2:
                    raise ExampleError(f"write an action as 'SEAT ACTION', got {part.strip()!r}",
                                       n)
                player.act(words[0], words[1], n)
    if player.tricks:
        player.tricks[-1].notes += player.notes
        player.notes = []
    return Replay(rules, hands, turn_up, stock,
                  rules.seat_names[dealer] if dealer is not None else None,
                  player.tricks, player.outcome, player.notes,
                  write_record(recorder.record(state)))


# ---------------------------------------------------------------- notation records
class _RecordDrawer:
    """A replay listener that draws each hand of a record as tricks."""

    def __init__(self) -> None:
        self.hands: list[Replay] = []
        self.before_play = False  # the next action comes before the first trick opens

    def on_deal(self, state: GameState, hand: object) -> None:
        r = state.rules
        hands = [(name, " ".join(pretty(r, r.card_code[c]) for c in r.cards_of(state.hands[s])))
                 for s, name in enumerate(r.seat_names)]
        turn_up = pretty(r, r.card_code[state.turn_up]) if state.turn_up is not None else None
        dealer = r.seat_names[state.dealer] if state.dealer is not None else None
        self.hands.append(Replay(r, hands, turn_up, len(state.stock), dealer, [], [], []))
        self.before_play = state.trick_no == 0

    def on_act(self, state: GameState, act: object, trick_done: bool, hand_over: bool) -> None:
        r = state.rules
        seat, text = str(getattr(act, "seat", "")), str(getattr(act, "text", ""))
        tricks = self.hands[-1].tricks
        # an action before the play (an auction, passing, a talon): a row of its own
        before_play, self.before_play = self.before_play, state.trick_no == 0
        open_row = tricks[-1] if tricks else None
        if open_row is None or open_row.winner is not None \
                or (open_row.number == 0 and not before_play):
            number = 0 if before_play else len([t for t in tricks if t.number]) + 1
            tricks.append(TrickRow(number, seat))
        row = tricks[-1]
        if seat not in row.plays:
            row.plays[seat] = []
            row.order.append(seat)
        row.plays[seat].append(pretty(r, text))
        if trick_done and state.tricks:
            _, cards, winner = state.tricks[-1]
            row.winner = r.seat_names[winner]
            row.points = sum(state.card_points[c] for c in cards)
            row.trump = SUIT_SYMBOLS.get(r.suits[state.trump], "") if state.trump >= 0 else "none"
        if hand_over and state.history:
            last = state.history[-1]
            self.hands[-1].outcome.append(
                "hand over (" + last.ended.replace("_", " ") + "): points "
                + ", ".join(f"{r.team_names[t]} {p}" for t, p in enumerate(last.points))
                + "; match " + ", ".join(f"{r.team_names[t]} {p}"
                                         for t, p in enumerate(state.match_scores)))


def replay_record(text: str, file: str = "<example>") -> list[Replay]:
    """Check a record in the notation (strictly) and draw each of its hands.

    Annotations in the record (trick winners, trump, scores) are re-checked
    by :func:`mariage.notation.replay.check_record`; the first problem raises
    :class:`ExampleError` with its line.
    """
    from mariage.notation.reader import parse_record
    from mariage.notation.replay import check_record

    try:
        record = parse_record(text, file=file)
    except MariageError as exc:
        raise ExampleError(str(exc), _line_of(exc)) from None
    drawer = _RecordDrawer()
    checked = check_record(record, strict=True, listener=drawer)
    if checked.errors:
        err = checked.errors[0]
        raise ExampleError(str(err), _line_of(err))
    return drawer.hands


def _line_of(err: object) -> int | None:
    line = getattr(err, "line", None)
    if line is None:
        line = getattr(getattr(err, "error", None), "line", None)
    return int(line) - 1 if isinstance(line, int) and line > 0 else None
