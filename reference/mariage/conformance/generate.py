"""Making the suite: hand-written scenarios, golden matches and perft counts.

Scenario *sources* (``conformance/sources/*.yaml``) are written by hand: an
exact situation (who holds which cards, the stock order, the turned-up card),
a script of canonical action texts, and what must happen (legal actions,
state fields, the rule ID that refuses an action). :func:`expand_scenario`
builds the deck order that deals exactly that situation, plays the script on
the reference interpreter, checks every hand-written expectation against it
(a wrong expectation stops generation with the scenario and step named), and
returns the self-contained test: full deck, explicit steps, expectations.

Golden matches and perft counts are produced from the reference alone.

>>> from mariage import load_rules
>>> rules = load_rules("marianna")
>>> deck = build_deck(rules, 0, {1: ["KH", "QH"]}, [], None)
>>> len(deck), deck[:2]
(40, ['KH', 'QH'])
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from mariage.engine.actions import Action, Answer, Bid, CallOut, Decline, Draw, Pass, Play, Raise
from mariage.engine.actiontext import action_text, parse_action
from mariage.engine.deals import cut_deck, fixed_first_dealer, gathered_deck
from mariage.engine.prng import SplitMix64
from mariage.engine.rules import Rules
from mariage.engine.state import GameState, Phase
from mariage.spec.rulesload import load_rules

from ..errors import IllegalActionError, MariageError
from .perft import perft
from .protocol import sorted_card_sets, state_json
from .ruleprobe import node_rules, offer_rules
from .suite import safe_yaml

__all__ = [
    "GenerationError",
    "build_deck",
    "expand_scenario",
    "golden_test",
    "perft_test",
    "render_test",
]

class _Body:
    """The record of the test's match in the project's notation (the informative body)."""

    def __init__(self, rules: Rules, first_dealer: int | None) -> None:
        from ..notation import Recorder

        self.rec = Recorder(rules, first_dealer)

    def deal(self, state: GameState) -> None:
        self.rec.on_deal(state)

    def act(self, state: GameState, seat: int, action: Action | None,
            before: tuple[int, int, int]) -> None:
        self.rec.on_action(state, seat, action, *before)

    def text(self, state: GameState) -> str:
        from ..notation import write_record

        text: str = write_record(self.rec.record(state))
        return text if text.endswith("\n") else text + "\n"


def _before(state: GameState) -> tuple[int, int, int]:
    return state.trick_no, len(state.tricks), state.trump


class GenerationError(MariageError):
    """A scenario source that does not hold against the reference interpreter."""

    code = "C002"


@dataclass
class _Ctx:
    where: str


def _codes(rules: Rules, value: Any, where: str) -> list[int]:
    items = value.split() if isinstance(value, str) else list(value or [])
    out = []
    for code in items:
        if code not in rules.card_index:
            raise GenerationError(f"{where}: '{code}' is not a card of {rules.ruleset}")
        out.append(rules.card_index[code])
    return out


def _seat(rules: Rules, key: Any, where: str) -> int:
    if isinstance(key, int) and 0 <= key < rules.nseats:
        return key
    if key in rules.seat_names:
        return rules.seat_names.index(key)
    raise GenerationError(f"{where}: '{key}' is not a seat of {rules.ruleset}")


def _first_dealer(rules: Rules, key: Any, where: str) -> int | None:
    """The first dealer a scenario names: a seat, or ``rules`` for the seat the rules
    themselves fix (``first_dealer: seat`` or ``last_seat``); ``None`` without a dealer."""
    if rules.first_dealer == "none":
        return None
    if key != "rules":
        return _seat(rules, key, where)
    fixed = fixed_first_dealer(rules)
    if fixed is not None:
        return fixed
    raise GenerationError(f"{where}: 'dealer: rules' but {rules.ruleset} draws the first "
                          "dealer by lot: name the seat")


def _seeded_dealer(rules: Rules, rng: SplitMix64) -> int | None:
    """The first dealer of a seeded test: drawn by lot (always drawn, so the deal that
    follows is the same whatever the rules), unless the rules fix it
    (``first_dealer: seat`` or ``last_seat``), which a record's ``[Dealer]`` must follow."""
    if rules.first_dealer == "none":
        return None
    drawn = rng.below(rules.nseats)
    fixed = fixed_first_dealer(rules)
    return drawn if fixed is None else fixed


def build_deck(rules: Rules, dealer: int | None, hands: dict[int, list[str]],
               stock: list[str], turn_up: str | None, fill_seed: int = 0) -> list[str]:
    """The deck order (top first) that deals ``hands``, ``stock`` (top first) and ``turn_up``.

    Cards not named fill the remaining places in a fixed scrambled order
    (``fill_seed``), so that they rarely form declarations by accident.
    """
    if rules.deal_packets or rules.sits_out != "none":  # packets of several sizes, or a
        # seat sitting out: the places from the engine's own deal order
        return _packet_deck(rules, dealer, hands, stock, turn_up, fill_seed)
    n = rules.nseats
    start = 0 if dealer is None else (dealer + 1) % n
    slots: dict[int, list[int]] = {s: [] for s in range(n)}
    pos = 0
    for _ in range(rules.hand_size // rules.packet):
        for i in range(n):
            s = (start + i) % n
            slots[s].extend(range(pos, pos + rules.packet))
            pos += rules.packet
    dealt = pos
    deck: list[int | None] = [None] * rules.ncards
    used: set[int] = set()

    def put(place: int, code: str) -> None:
        c = rules.card_index[code]
        if c in used:
            raise GenerationError(f"card {code} is placed twice")
        if deck[place] is not None:
            raise GenerationError(f"two cards for one place ({code})")
        deck[place] = c
        used.add(c)

    if turn_up is not None and rules.turn_up == "dealer_last":
        assert dealer is not None
        put(dealer_last := slots[dealer][-1], turn_up)
        slots[dealer].remove(dealer_last)
    for s, cards in hands.items():
        if len(cards) > len(slots[s]):
            raise GenerationError(f"seat {s} is given more than {rules.hand_size} cards")
        for place, code in zip(slots[s], cards, strict=False):
            put(place, code)
    rest = dealt
    if turn_up is not None and rules.turn_up == "under_stock":
        put(rest, turn_up)
        rest += 1
    for code in stock:
        put(rest, code)
        rest += 1
    pool = [c for c in range(rules.ncards) if c not in used]
    SplitMix64(fill_seed).shuffle(pool)
    it = iter(pool)
    return [rules.card_code[c if c is not None else next(it)] for c in deck]


def _packet_deck(rules: Rules, dealer: int | None, hands: dict[int, list[str]],
                 stock: list[str], turn_up: str | None, fill_seed: int) -> list[str]:
    """:func:`build_deck` for deals in packets of several sizes (``deal_owners`` order)."""
    from mariage.engine.deals import deal_owners

    owner = deal_owners(rules, dealer)
    deck: list[int | None] = [None] * rules.ncards
    named = [c for h in hands.values() for c in h] + stock + ([turn_up] if turn_up else [])
    if len(set(named)) != len(named):
        raise GenerationError("a card is placed twice")
    turned = -1  # the turn-up's place: under the stock, or the dealer's last card
    if turn_up is not None:
        turned = owner.index(-2) if rules.turn_up in ("under_stock", "to_taker") else \
            max(i for i, o in enumerate(owner) if o == dealer)
        deck[turned] = rules.card_index[turn_up]
    for s, cards in hands.items():
        places = [i for i, o in enumerate(owner) if o == s and i != turned]
        if len(cards) > len(places):
            raise GenerationError(f"seat {s} is given more than {rules.hand_size} cards")
        for place, code in zip(places, cards, strict=False):
            deck[place] = rules.card_index[code]
    for place, code in zip([i for i, o in enumerate(owner) if o == -1], stock, strict=False):
        deck[place] = rules.card_index[code]
    used = {c for c in deck if c is not None}
    pool = [c for c in range(rules.ncards) if c not in used]
    SplitMix64(fill_seed).shuffle(pool)
    it = iter(pool)
    return [rules.card_code[c if c is not None else next(it)] for c in deck]


def _plain_choice(acts: Sequence[Action]) -> Action:
    """The scripted filler's choice: play the last card listed (the lowest in canonical
    order), else pass, else the first answer, else draw or decline (talon games); never
    declare, ask, call out, claim or close."""
    for kind in (Play, Pass, Answer, Draw, Decline):
        mine = [a for a in acts if type(a) is kind]
        if mine:
            return mine[-1] if kind is Play else mine[0]
    return acts[0]


def _norm_step(raw: Any) -> dict[str, Any]:
    return {"act": raw} if isinstance(raw, str) else dict(raw)


def _legal_texts(state: GameState, seat: int | None) -> list[str]:
    return [action_text(state.rules, a) for a in state.legal_actions(seat)]


def _check_expectations(state: GameState, step: dict[str, Any], where: str) -> None:
    """Check a step's hand-written legal-action expectations against the reference."""
    if not any(k in step for k in ("legal", "legal_has", "legal_not")):
        return
    have = set(_legal_texts(state, step.get("seat")))
    if "legal" in step and set(step["legal"]) != have:
        raise GenerationError(f"{where}: legal actions are {sorted(have)}, the source says "
                              f"{sorted(step['legal'])}")
    if set(step.get("legal_has", ())) - have:
        raise GenerationError(f"{where}: {sorted(set(step['legal_has']) - have)} not legal "
                              f"(legal: {sorted(have)})")
    if set(step.get("legal_not", ())) & have:
        raise GenerationError(f"{where}: {sorted(set(step['legal_not']) & have)} are legal")


def _check_state(state: GameState, want: dict[str, Any], where: str) -> None:
    have = state_json(state)
    same, wanted = sorted_card_sets(have), sorted_card_sets(want)
    for k, v in wanted.items():
        if k not in have:
            raise GenerationError(f"{where}: no state field '{k}'")
        if same[k] != v:
            raise GenerationError(f"{where}: state '{k}' is {have[k]!r}, the source says {v!r}")


def _deal_of(rules: Rules, spec: dict[str, Any], dealer: int | None, where: str,
             state: GameState | None = None) -> dict[str, Any]:
    """A deal (deck and first player) from a source's hands/stock/turn_up or seed, or
    (``gathered: SEED``) the last hand's cards gathered and cut by that seed's generator
    (``deal.gather``)."""
    first = spec.get("first_player")
    if "deck" in spec:
        deck = list(spec["deck"])
    elif "gathered" in spec:
        if state is None or not state.history or rules.deal_gather_rule is None:
            raise GenerationError(f"{where}: a gathered deal follows a hand, where the rules "
                                  "gather the pack")
        cards = gathered_deck(state)
        cut_deck(cards, SplitMix64(int(spec["gathered"])), rules.deal_cut_min)
        deck = [rules.card_code[c] for c in cards]
    elif "seed" in spec:
        rng = SplitMix64(int(spec["seed"]))
        if rules.first_lead == "lot" and first is None:
            first = rng.below(rules.nseats)
        cards = list(range(rules.ncards))
        rng.shuffle(cards)
        deck = [rules.card_code[c] for c in cards]
    else:
        hands = {_seat(rules, k, where): [rules.card_code[c] for c in _codes(rules, v, where)]
                 for k, v in (spec.get("hands") or {}).items()}
        stock = [rules.card_code[c] for c in _codes(rules, spec.get("stock"), where)]
        try:
            deck = build_deck(rules, dealer, hands, stock, spec.get("turn_up"),
                              int(spec.get("fill_seed", 0)))
        except GenerationError as exc:
            raise GenerationError(f"{where}: {exc}") from None
    if rules.first_lead != "lot":
        first = None
    elif first is not None:
        first = _seat(rules, first, where)
    return {"deck": deck, "first_player": first}


def _auto(state: GameState, how: Any, body: _Body | None = None
          ) -> Iterator[dict[str, Any]]:
    """Steps chosen by the plain filler: until the trick or hand ends, N steps, or
    until trick ``{trick: T, seat: S}`` with that seat to act."""
    hand, tricks = state.hand_no, len(state.tricks)
    count = 0
    while state.phase not in (Phase.DEAL, Phase.OVER):
        if isinstance(how, dict) and state.trick_no >= int(how.get("trick", 0)) and (
                "seat" not in how or state.to_act == _seat(state.rules, how["seat"], "auto")):
            return
        if how == "trick" and (len(state.tricks) > tricks or state.hand_no != hand):
            return
        if isinstance(how, int) and count >= how:
            return
        if how == "hand" and state.hand_no != hand:
            return
        a = _plain_choice(state.legal_actions())
        text = action_text(state.rules, a)
        before, seat = _before(state), state.to_act
        state.apply(a)
        if body is not None:
            body.act(state, seat or 0, a, before)
        count += 1
        yield {"act": text}


def _map_rule(rules: Rules, rule_id: str) -> str:
    """``rule_id``, or the rule of ``rules`` that replaces it (same place in the spec)."""
    if rule_id in rules.rule_ids or rules.parent is None:
        return rule_id
    parent = load_rules(rules.parent)
    try:  # the ancestors' replacement first, then its place in the parent
        path = parent.info(_map_rule(parent, rule_id)).path
    except KeyError:
        return rule_id
    return next((i.id for i in rules.infos if i.path == path), rule_id)


def expand_scenario(src: dict[str, Any], ruleset: str, where: str) -> dict[str, Any]:
    """The test (front matter as a dict) for one scenario source under ``ruleset``."""
    options = dict(src.get("options") or {})
    where = f"{where} [{ruleset}]"
    try:
        rules = load_rules(ruleset, options)
    except MariageError as exc:
        raise GenerationError(f"{where}: {exc}") from None
    dealer = _first_dealer(rules, src.get("dealer", 0), where)
    state = GameState(rules, first_dealer=dealer)
    deal = _deal_of(rules, src, dealer, where)
    state.deal(deal["deck"], deal["first_player"])
    body = _Body(rules, dealer)
    body.deal(state)
    start: dict[str, Any] = {"dealer": dealer, **deal}
    if "initial" in src:
        _check_state(state, src["initial"], f"{where}: initial state")
    steps: list[dict[str, Any]] = []
    negative: dict[str, Any] | None = None
    for i, raw in enumerate(src.get("steps") or []):
        step = _norm_step(raw)
        at = f"{where}: step {i + 1}"
        if "auto" in step:
            steps.extend(_auto(state, step["auto"], body))
            if "state" in step:
                _check_state(state, step["state"], at)
                steps[-1]["state"] = step["state"]
            continue
        if step.get("seat") == "@other" and state.to_act is not None:
            step["seat"] = (state.to_act + 1) % rules.nseats
        if "seat" in step:
            step["seat"] = _seat(rules, step["seat"], at)
        if step.get("act") == "@plain":
            who: int = step.get("seat", state.to_act) or 0
            step["act"] = rules.card_code[rules.cards_of(state.hands[who])[-1]]
        elif step.get("act") == "@not-in-hand":
            assert state.to_act is not None
            held = state.hands[state.to_act]
            step["act"] = next(rules.card_code[c] for c in range(rules.ncards)
                               if not held >> c & 1)
        _check_expectations(state, step, at)
        out: dict[str, Any] = {k: step[k] for k in ("legal", "legal_has", "legal_not")
                               if k in step}
        err = step.get("error")
        try:
            if "act" in step:
                out = {"act": step["act"], **({"seat": step["seat"]} if "seat" in step else {}),
                       **out}
                try:
                    action = parse_action(rules, step["act"])
                except ValueError:
                    if err != "bad_action":
                        raise GenerationError(f"{at}: '{step['act']}' is not an action") from None
                    out["error"] = {"code": "bad_action"}
                    negative = {"step": len(steps) + 1, **out["error"]}
                    steps.append(out)
                    continue
                before = _before(state)
                actor = step.get("seat", state.to_act)
                state.apply(action, step.get("seat"))
                body.act(state, actor or 0, action, before)
            elif "deal" in step:
                d = _deal_of(rules, step["deal"], state.dealer, at, state)
                out = {"deal": d, **out}
                state.deal(d["deck"], d["first_player"])
                body.deal(state)
            elif "resign" in step:
                seat = _seat(rules, step["resign"], at)
                out = {"resign": seat, **out}
                before = _before(state)
                state.resign(seat)
                body.act(state, seat, None, before)
            else:
                raise GenerationError(f"{at}: a step needs act, deal, resign or auto")
        except IllegalActionError as exc:
            if err is None:
                raise GenerationError(f"{at}: the reference refuses it: {exc}") from None
            if err != exc.rule_id:
                raise GenerationError(f"{at}: refused with [{exc.rule_id}], the source says "
                                      f"[{err}]") from None
            out["error"] = {"code": "illegal_action", "rule": exc.rule_id}
            negative = {"step": len(steps) + 1, **out["error"]}
        else:
            if err is not None:
                raise GenerationError(f"{at}: the reference accepts it, the source says "
                                      f"[{err}]")
        if "state" in step:
            _check_state(state, step["state"], at)
            out["state"] = step["state"]
        if step.get("rules"):  # the rule IDs this step checks (failures are charged to them)
            out["rules"] = [_map_rule(rules, r) for r in step["rules"]]
            bad = [r for r in out["rules"] if r not in rules.rule_ids]
            if bad:
                raise GenerationError(f"{at}: {bad} are not rule IDs of {ruleset}")
        steps.append(out)
    kind = src.get("kind") or ("option" if options else "scenario")
    test: dict[str, Any] = {
        "id": f"{ruleset}/{src['id']}",
        "description": " ".join(str(src["description"]).split()),
        "kind": kind,
        "ruleset": ruleset,
        "rules": [_map_rule(rules, r) for r in src["rules"]],
        "options": options,
        "features": list(src.get("features") or []),
    }
    if negative:
        test["negative"] = negative
    test["start"] = start
    if "initial" in src:
        test["initial"] = src["initial"]
    test["steps"] = steps
    test["_body"] = body.text(state)
    unknown = [r for r in test["rules"] if r not in rules.rule_ids]
    if unknown:
        raise GenerationError(f"{where}: {unknown} are not rule IDs of {ruleset}")
    return test


def _golden_choice(state: GameState, rng: SplitMix64) -> Action:
    acts = [a for a in state.legal_actions() if not isinstance(a, CallOut)]
    seat = state.to_act
    assert seat is not None
    if state.rules.running_rule is not None:  # to a far target: the least bid, kept
        lowest = next((a for a in acts if isinstance(a, Bid)), None)
        acts = [a for a in acts if not isinstance(a, Bid | Raise) or a in (lowest, Raise(0))]
    team = state.rules.team_of[seat]
    if state.rules.call_out_rule and \
            state.match_scores[team] + state.hand_points(team) >= state.rules.match_target:
        return CallOut()
    return acts[rng.below(len(acts))]


def _dealt_rules(rules: Rules) -> set[str]:
    """The rules a deal compared in full exercises: the pack, the deal and a bonus
    scored at the deal."""
    return {r for r in (rules.pack_rule, rules.deal_rule, rules.turn_up_bonus_rule) if r}


def _outcome_rules(state: GameState, before: tuple[int, int, int]) -> set[str]:
    """The rules the state after an action exercises: the trick's winner and the draw
    when a trick ended, the hand's score when it ended, the match's end."""
    r = state.rules
    out: set[str] = set()
    if len(state.tricks) != before[1] or state.phase in (Phase.DEAL, Phase.OVER):
        out.update(x for x in (r.trick_rule, r.draw_rule if before[0] <= state.draw_tricks
                               else None) if x)
    if state.phase in (Phase.DEAL, Phase.OVER):
        out.update(x for x in (r.score_rule, r.rotation_rule) if x)
    if state.phase == Phase.OVER:
        out.update(x for x in (r.match_rule,) if x)
    return out


def long_match(rules: Rules) -> bool:
    """True where a match of random play runs to hundreds of hands (running totals to a
    far target, as in Thousand): golden tests of such a ruleset stop after one hand,
    since a whole match with every legal action set and state is too large to store.

    >>> from mariage import load_rules
    >>> long_match(load_rules("thousand")), long_match(load_rules("marianna"))
    (True, False)
    """
    return rules.running_rule is not None


def golden_test(ruleset: str, options: dict[str, Any], seed: int, name: str,
                one_hand: bool = False) -> dict[str, Any]:
    """A golden match: every legal action set and full state, at every step."""
    rules = load_rules(ruleset, options)
    rng = SplitMix64(seed)
    dealer = _seeded_dealer(rules, rng)
    state = GameState(rules, first_dealer=dealer)
    body = _Body(rules, dealer)

    def deal() -> dict[str, Any]:
        first = rng.below(rules.nseats) if rules.first_lead == "lot" else None
        if rules.deal_gather_rule is not None and state.history:  # gathered, then cut
            cards = gathered_deck(state)
            cut_deck(cards, rng, rules.deal_cut_min)
        else:
            cards = list(range(rules.ncards))
            rng.shuffle(cards)
        deck = [rules.card_code[c] for c in cards]
        state.deal(deck, first)
        body.deal(state)
        return {"deck": deck, "first_player": first}

    start = {"dealer": dealer, **deal()}
    steps: list[dict[str, Any]] = []
    first_state = state_json(state)
    exercised = _dealt_rules(rules)
    while not state.terminal:
        if state.phase == Phase.DEAL:
            if one_hand:
                break
            steps.append({"deal": deal(), "state": state_json(state)})
            exercised.update(_dealt_rules(rules), [rules.deal_gather_rule or rules.deal_rule])
            continue
        legal = _legal_texts(state, None)
        a = _golden_choice(state, rng)
        text = action_text(rules, a)
        before, seat = _before(state), state.to_act
        exercised.update(node_rules(state, a))
        state.apply(a)
        exercised.update(_outcome_rules(state, before))
        body.act(state, seat or 0, a, before)
        steps.append({"act": text, "legal": legal, "state": state_json(state)})
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    return {
        "id": f"{ruleset}/golden/{name}",
        "description": f"A {'first hand' if one_hand else 'whole match'} of {ruleset} "
                       f"({label}) from seed {seed}, with the legal actions and the full "
                       "state at every step, generated by the reference interpreter.",
        "kind": "golden",
        "ruleset": ruleset,
        "rules": [r for r in rules.rule_ids if r in exercised],
        "options": options,
        "features": ["golden", *(["option"] if options else [])],
        "start": start,
        "initial": first_state,
        "steps": steps,
        "_body": body.text(state),
    }


def _tree_rules(state: GameState, depth: int) -> set[str]:
    """The rules a perft walk to ``depth`` exercises: at each node it counts, the refusal
    of each card of the hand that may not be played and the offer of each legal action."""
    out: set[str] = set()

    def visit(st: GameState, acts: Sequence[Action]) -> None:
        out.update(node_rules(st, None))
        for a in acts:
            out.update(offer_rules(st, a))

    perft(state, depth, visit)
    return out


def perft_test(ruleset: str, options: dict[str, Any], seed: int, name: str,
               budget: int = 4000, rules_checked: list[str] | None = None) -> dict[str, Any]:
    """A perft test from the seeded deal: the deepest depth within ``budget`` nodes."""
    rules = load_rules(ruleset, options)
    rng = SplitMix64(seed)
    dealer = _seeded_dealer(rules, rng)
    first = rng.below(rules.nseats) if rules.first_lead == "lot" else None
    cards = list(range(rules.ncards))
    rng.shuffle(cards)
    state = GameState(rules, first_dealer=dealer)
    deck = [rules.card_code[c] for c in cards]
    state.deal(deck, first)
    body = _Body(rules, dealer)
    body.deal(state)
    depth = 2
    counts = perft(state, depth)
    while True:
        nxt = perft(state, depth + 1)
        if sum(nxt) * (depth + 1) > budget:
            break
        depth, counts = depth + 1, nxt
    label = ", ".join(f"{k}={v}" for k, v in options.items()) or "default options"
    exercised = _tree_rules(state, depth)
    named = [r for r in (rules_checked or rules.rule_ids) if r in exercised]
    return {
        "id": f"{ruleset}/perft/{name}",
        "description": f"Perft of {ruleset} ({label}) to depth {depth} from the deal of seed "
                       f"{seed}: the number of legal action sequences of each length.",
        "kind": "perft",
        "ruleset": ruleset,
        "rules": named,
        "options": options,
        "features": ["perft"],
        "start": {"dealer": dealer, "deck": deck, "first_player": first},
        "depth": depth,
        "counts": counts,
        "_body": body.text(state),
    }


def _strip_end(text: str) -> str:
    text = text.rstrip()
    return text[:-3].rstrip() if text.endswith("\n...") else text


def _flow(value: Any) -> str:
    return _strip_end(yaml.safe_dump(value, default_flow_style=True, width=1 << 30,
                                     sort_keys=False, allow_unicode=False))


def render_test(test: dict[str, Any], body: str = "") -> str:
    """The text of a test file: front matter (one line per step) and the body.

    Steps and the initial state are written as JSON, which is also YAML: readers
    may parse those lines quickly with a JSON parser.
    """
    lines = ["---"]
    body = body or test.get("_body", "")
    for key, value in test.items():
        if key == "_body":
            continue
        if key == "steps":
            lines.append("steps:" if value else "steps: []")
            lines.extend(f"- {json.dumps(s)}" for s in value)
        elif key == "initial":
            lines.append(f"initial: {json.dumps(value)}")
        elif key == "description":
            lines.append(_strip_end(yaml.safe_dump({key: value}, width=88, sort_keys=False)))
        else:
            lines.append(f"{key}: {_flow(value)}")
    lines.append("---")
    return "\n".join(lines) + "\n" + body


def load_sources(folder: Path) -> Iterator[tuple[str, dict[str, Any], list[str]]]:
    """Each scenario source: (where, source, rulesets) from ``folder``/*.yaml."""
    for path in sorted(folder.glob("*.yaml")):
        try:
            data = safe_yaml(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
            problem = getattr(exc, "problem", None) or "not valid YAML"
            raise GenerationError(f"{path.name}{at}: {problem}") from None
        defaults = data.get("defaults") or {}
        for i, src in enumerate(data.get("scenarios") or []):
            merged = {**defaults, **src}
            sets = merged.get("rulesets") or [merged["ruleset"]]
            yield f"{path.name}: scenario {i + 1} ({merged.get('id')})", merged, list(sets)
