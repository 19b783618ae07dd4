#!/usr/bin/env node
// The two-player stock games of the Briscola family, Mariaggia and Mariazza (Breda), in
// plain Node.js: one file, no dependencies, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst, the rulebooks of `mariage rules mariaggia`
// and `mariage rules mariazza`, and spec/mariaggia.yaml, spec/mariazza.yaml read as
// data). It speaks the engine protocol (version 2, without hidden cards) and plays both
// rulesets at every value of their options (10 of Mariaggia, 6 of Mariazza).
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/mariaggia_engine.js" \
//       --ruleset mariaggia --require-rule-ids --min-coverage 100
//   mariage conformance --engine "node conformance/examples/mariaggia_engine.js" \
//       --derived --ruleset mariazza -o exchange=false --min-coverage 100
//
// "--house [RULESET:]NAME=V,..." (repeatable; V may be V1|V2, quoted inside the engine
// command, or MIN..MAX; the ruleset defaults to mariaggia) declares that configuration
// in the hello, for `mariage conformance --engine "..." --declared`:
//
//   mariage conformance --engine "node conformance/examples/mariaggia_engine.js \
//       --house mariazza:target=71,hands=2" --declared
//
// "--fault MODE" plants one mistake (the runner should catch it); "--list-faults" lists
// them. It answers "choose", so `mariage match mariazza --engine A=... --bot B=greedy`
// plays it.
//
// Files: this engine; its tests, tests/test_engine_node28_mariaggia.py (the stored and a
// declared suite, each planted fault against its scenario, random matches against the
// reference); the scenarios its faults showed missing, in conformance/sources/mariaggia.yaml
// and mariazza.yaml (generated into conformance/tests/mariaggia/ and mariazza/); its
// paragraph in docs/conformance.rst ("The example engine").
'use strict';

// ---------------------------------------------------------------------------
// The rulesets' data (spec/mariaggia.yaml, spec/mariazza.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const ORDER = ['A', '3', 'K', 'Q', 'J', '7', '6', '5', '4', '2'];   // high to low
const WORTH = { A: 11, 3: 10, K: 4, Q: 3, J: 2 };
const PACK = SUITS.flatMap((s) => ORDER.map((r) => r + s));
const HAND_SIZE = 5;
const TRICKS = PACK.length / 2;
const MAX_LINE = 1 << 20;

const bool = (dflt) => ({ type: 'bool', default: dflt });
const int = (dflt) => ({ type: 'int', default: dflt, min: 1, max: 10000 });
const choice = (...values) => ({ type: 'enum', default: values[0], values });

// Each ruleset: its options, and the rules as data; `rules(o)` reads the options into
// the mechanisms below, so that no behaviour depends on the ruleset's name.
const RULESETS = {
  mariaggia: {
    options: {
      target: int(250),
      last_five: choice('follow+beat+trump', 'follow+trump', 'follow', 'none'),
      accusa_trump_40: bool(false),
      accusa_when: choice('leader', 'on_turn'),
      call_out_penalty: choice('hand_zero', 'lose_match'),
      exchange: choice('none', 'two_at_start', 'seven_while_stock'),
      accusa_window: choice('stock', 'hand'),
      accusa_per_turn: choice('one', 'several'),
      accusa_once: choice('per_suit', 'per_hand'),
      tie: choice('play_on', 'draw'),
    },
    rules: (o) => ({
      id: 'mariaggia',
      dealer: true,                       // first dealer by lot; the deal alternates
      decl: 'accusa',
      declRule: 'mariaggia.decl.accusa',
      declWho: o.accusa_when,             // leader | on_turn
      declUntil: o.accusa_window,         // stock | hand
      perTurn: o.accusa_per_turn === 'several' ? 2 : 1,
      once: o.accusa_once === 'per_hand' ? 'hand' : 'suit',
      value: 20,
      trumpValue: o.accusa_trump_40 ? 40 : 20,
      credit: 'at_once',
      exchange: { none: null, two_at_start: '2', seven_while_stock: '7' }[o.exchange],
      exchangeUntil: o.exchange === 'two_at_start' ? 'first_trick' : 'stock',
      exchangeReopens: false,
      duties: {
        follow: o.last_five !== 'none',
        head: o.last_five === 'follow+beat+trump',
        trump: o.last_five === 'follow+beat+trump' || o.last_five === 'follow+trump',
      },
      callOut: o.call_out_penalty,        // hand_zero | lose_match
      handTarget: null,
      measure: 'points',
      matchTarget: o.target,
      tie: o.tie,
    }),
  },
  mariazza: {
    options: {
      target: int(41),
      hands: int(4),
      exchange: bool(true),
      exchange_chain: bool(false),
      unfinished_hand: choice('higher', 'nobody'),
      trump_mariazza_40: bool(true),
    },
    rules: (o) => ({
      id: 'mariazza',
      dealer: false,                      // no dealer: the deal names the first player
      decl: 'mariazza',
      declRule: 'mariazza.decl.mariazza',
      declWho: 'on_turn',
      declUntil: 'hand',
      perTurn: 1,
      once: 'suit_per_player',
      value: 20,
      trumpValue: o.trump_mariazza_40 ? 40 : 20,
      credit: 'when_leading',
      exchange: o.exchange ? '7' : null,
      exchangeUntil: 'stock',
      exchangeReopens: o.exchange_chain,
      duties: null,                       // never a duty
      callOut: null,
      handTarget: o.target,
      unfinished: o.unfinished_hand,
      voidTop: 60,
      measure: 'hands_won',
      matchTarget: o.hands,
      tie: 'play_on',
    }),
  },
};

const FAULTS = {
  'per-trick-shared': 'the leader\'s accusa uses up the second player\'s too '
    + '(mariaggia.decl.per-trick)',
  'chain-two-after': 'under exchange_chain, two declarations after an exchange made first '
    + '(mariazza.decl.per-trick)',
  'held-overwrite': 'a second held mariazza replaces the first (mariazza.decl.held)',
  'resign-scores': 'a resignation\'s result shows the match scores, not the hands won',
  'first-player-default': 'a Mariazza deal without first_player is led by seat 0 (core.deal)',
  'held-last-trick': 'held points of the winner of the last trick are counted, though he '
    + 'never leads again (mariazza.decl.held)',
  'held-any-winner': 'a mariazza declared second counts when its trick is over, whoever '
    + 'won it (mariazza.decl.held)',
  'held-kept': 'held points still waiting when the hand ends are counted (mariazza.decl.held)',
  'exchange-not-last': 'no exchange once the stock is down to its last two cards (the '
    + 'exchange rule)',
  'failed-callout-no-end': 'after a wrong call-out the opponent\'s score never ends the match '
    + '(mariaggia.call-out.penalty)',
  'two-any-trick': 'the two of trump may be exchanged after the first trick '
    + '(mariaggia.exchange)',
  'callout-unlisted': 'the seat not to act is not offered the call-out (mariaggia.call-out)',
  'exchange-core-hand': 'an exchange of a card not held names core.hand (the exchange rule)',
  'per-hand-per-player': 'under accusa_once=per_hand each player may make one '
    + '(mariaggia.decl.once)',
  'several-one': 'under accusa_per_turn=several still one at a time (mariaggia.decl.per-trick)',
  'failed-callout-same-dealer': 'the deal does not pass after a wrong call-out '
    + '(mariaggia.deal.rotation)',
  'callout-between-hands': 'a call-out between hands ends nothing but is accepted (core.phase)',
};
let FAULT = null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const worth = (c) => WORTH[rank(c)] || 0;
const higher = (a, b) => ORDER.indexOf(rank(a)) < ORDER.indexOf(rank(b));

class Refusal extends Error {
  constructor(code, message, rule) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', message, rule);
const badRequest = (message) => new Refusal('bad_request', message);

// ---------------------------------------------------------------------------
// A match

class Match {
  constructor(rules, dealer) {
    this.r = rules;
    this.dealer = dealer;
    this.handNo = 0;
    this.scores = [0, 0];
    this.segni = [0, 0];
    this.lastHand = null;
    this.result = null;
    this.phase = 'deal';
  }

  deal(deck, firstPlayer) {
    this.handNo += 1;
    const first = this.r.dealer ? 1 - this.dealer : 0;       // who gets the first packet
    this.hands = [[], []];
    this.hands[first] = deck.slice(0, HAND_SIZE);
    this.hands[1 - first] = deck.slice(HAND_SIZE, 2 * HAND_SIZE);
    const turned = deck[2 * HAND_SIZE];
    this.stock = deck.slice(2 * HAND_SIZE + 1).concat([turned]);   // top first
    this.turnUp = turned;
    this.trump = suit(turned);
    this.trick = 1;
    this.leader = this.r.dealer ? 1 - this.dealer : firstPlayer;
    this.toAct = this.leader;
    this.table = [];
    this.declared = [];
    this.tricksWon = [0, 0];
    this.cards = [0, 0];          // card points captured
    this.decls = [0, 0];          // declarations credited
    this.held = [0, 0];           // declarations waiting for their player's lead
    this.turn = { count: 0, exchanged: false, afterExchange: 0 };
    this.phase = 'play';
  }

  points(seat) { return this.cards[seat] + this.decls[seat]; }
  strict() { return this.r.duties !== null && this.stock.length === 0; }

  // -- why an action may not be taken now: [rule, reason] or null
  whyNotDeclare(seat, s) {
    const r = this.r;
    const id = r.id;
    if (r.declWho === 'leader' && this.table.length) {
      return [`${id}.decl.who`, 'only the player about to lead may declare'];
    }
    if (r.declUntil === 'stock' && this.stock.length === 0) {
      return [`${id}.decl.window`, 'not once the stock is gone'];
    }
    const t = this.turn;
    const most = FAULT === 'several-one' ? 1 : r.perTurn;
    const fresh = FAULT === 'chain-two-after' && t.count === t.afterExchange ? 1 : 0;
    const spent = t.exchanged && r.exchangeReopens ? t.afterExchange >= most + fresh
      : t.count >= most;
    if (spent) return [`${id}.decl.per-trick`, 'no more declarations at this turn'];
    const hand = this.hands[seat];
    if (!hand.includes('K' + s) || !hand.includes('Q' + s)) {
      return [r.declRule, 'the king and horse must be in the hand'];
    }
    const perPlayer = FAULT === 'per-hand-per-player';
    const done = this.declared.some((d) => (r.once === 'hand' ? !perPlayer || d[0] === seat
      : d[2] === s && (r.once === 'suit' || d[0] === seat)));
    if (done) return [`${id}.decl.once`, 'declared already'];
    return null;
  }

  whyNotExchange(seat, card) {
    const r = this.r;
    if (r.exchangeUntil === 'first_trick' && this.trick !== 1 && FAULT !== 'two-any-trick') {
      return 'only in the first trick';
    }
    if (this.stock.length === 0) return 'the stock is gone';
    if (FAULT === 'exchange-not-last' && this.stock.length <= 2) return 'the stock is nearly gone';
    if (card !== r.exchange + this.trump) return `only the ${r.exchange} of trump`;
    if (!this.hands[seat].includes(card)) return 'not in the hand';
    return null;
  }

  whyNotCard(seat, card) {
    if (!this.table.length || !this.strict()) return null;
    const d = this.r.duties;
    const id = this.r.id;
    const led = this.table[0][1];
    const hand = this.hands[seat];
    const same = hand.filter((c) => suit(c) === suit(led));
    if (same.length) {
      if (d.follow && suit(card) !== suit(led)) {
        return [`${id}.play.last-five.follow`, 'follow suit'];
      }
      if (d.head && suit(card) === suit(led) && !higher(card, led)
        && same.some((c) => higher(c, led))) {
        return [`${id}.play.last-five.beat`, 'beat the card led'];
      }
      return null;
    }
    if (d.trump && suit(card) !== this.trump && hand.some((c) => suit(c) === this.trump)) {
      return [`${id}.play.last-five.trump`, 'trump when void'];
    }
    return null;
  }

  legal(seat) {
    if (this.phase !== 'play') return [];
    const acts = [];
    if (seat === this.toAct) {
      for (const s of SUITS) if (!this.whyNotDeclare(seat, s)) acts.push(`${this.r.decl}:${s}`);
      const x = this.r.exchange && this.r.exchange + this.trump;
      if (x && !this.whyNotExchange(seat, x)) acts.push('exchange:' + x);
      for (const c of this.hands[seat]) if (!this.whyNotCard(seat, c)) acts.push(c);
    }
    const offered = FAULT !== 'callout-unlisted' || seat === this.toAct;
    if (this.r.callOut && offered) acts.push('callout');
    return acts;
  }

  // -- applying an action (refusals in the order of docs/protocol.rst)
  apply(seat, action) {
    const a = parseAction(action, this.r);
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (FAULT === 'callout-between-hands' && a.word === 'callout' && this.r.callOut
      && this.phase === 'deal') return null;
    if (this.phase !== 'play') throw illegal('core.phase', 'no hand in progress');
    if (a.word === 'callout') {
      if (!this.r.callOut) throw illegal('core.phase', 'no calling out here');
      return this.callOut(seat);
    }
    if (seat !== this.toAct) throw illegal('core.turn', `seat ${this.toAct} is to act`);
    if (a.word === 'card') {
      if (!this.hands[seat].includes(action)) {
        throw illegal('core.hand', `no ${action} in the hand`);
      }
      const why = this.whyNotCard(seat, action);
      if (why) throw illegal(why[0], why[1]);
      return this.play(seat, action);
    }
    if (a.word === 'declare') {
      const why = this.whyNotDeclare(seat, a.suit);
      if (why) throw illegal(why[0], why[1]);
      return this.declare(seat, a.suit);
    }
    if (a.word === 'exchange' && this.r.exchange) {
      if (FAULT === 'exchange-core-hand' && !this.hands[seat].includes(a.card)) {
        throw illegal('core.hand', `no ${a.card} in the hand`);
      }
      const why = this.whyNotExchange(seat, a.card);
      if (why) throw illegal(`${this.r.id}.exchange`, why);
      return this.exchange(seat, a.card);
    }
    throw illegal('core.phase', `no ${action} now`);
  }

  declare(seat, s) {
    const r = this.r;
    const value = s === this.trump ? r.trumpValue : r.value;
    this.declared.push([seat, r.decl, s, value]);
    this.turn.count += 1;
    if (this.turn.exchanged) this.turn.afterExchange += 1;
    if (r.credit === 'when_leading' && this.table.length) {
      this.held[seat] = FAULT === 'held-overwrite' ? value : this.held[seat] + value;
      return;
    }
    this.decls[seat] += value;
    this.checkTarget();
  }

  exchange(seat, card) {
    const hand = this.hands[seat];
    hand.splice(hand.indexOf(card), 1, this.turnUp);
    this.stock[this.stock.length - 1] = card;
    this.turnUp = card;
    this.turn.exchanged = true;
  }

  play(seat, card) {
    const hand = this.hands[seat];
    hand.splice(hand.indexOf(card), 1);
    this.table.push([seat, card]);
    if (!(FAULT === 'per-trick-shared' && this.table.length === 1)) {
      this.turn = { count: 0, exchanged: false, afterExchange: 0 };
    }
    if (this.table.length < 2) { this.toAct = 1 - seat; return; }
    const [[s0, c0], [s1, c1]] = this.table;
    const takes = suit(c1) === suit(c0) ? higher(c1, c0) : suit(c1) === this.trump;
    const winner = takes ? s1 : s0;
    this.tricksWon[winner] += 1;
    this.cards[winner] += worth(c0) + worth(c1);
    this.table = [];
    if (FAULT === 'held-any-winner') {
      this.decls[s1] += this.held[s1];
      this.held[s1] = 0;
    }
    if (this.checkTarget()) return;
    if (this.stock.length) {
      this.hands[winner].push(this.stock.shift());
      this.hands[1 - winner].push(this.stock.shift());
      if (!this.stock.length) this.turnUp = null;
    }
    if (this.trick === TRICKS) {
      if (FAULT === 'held-last-trick') this.decls[winner] += this.held[winner];
      this.playedOut();
      return;
    }
    this.trick += 1;
    this.leader = winner;
    this.toAct = winner;
    if (this.held[winner]) {
      this.decls[winner] += this.held[winner];
      this.held[winner] = 0;
      this.checkTarget();
    }
  }

  // -- ends of a hand
  checkTarget() {
    const t = this.r.handTarget;
    if (t === null || (this.points(0) < t && this.points(1) < t)) return false;
    this.endHand(this.handWinner(), 'target');
    return true;
  }

  handWinner() {
    const [p0, p1] = [this.points(0), this.points(1)];
    if (p0 === p1 || Math.max(p0, p1) === this.r.voidTop) return null;
    return p0 > p1 ? 0 : 1;
  }

  playedOut() {
    if (this.r.measure === 'hands_won') {
      this.endHand(this.r.unfinished === 'higher' ? this.handWinner() : null, 'played_out');
    } else {
      this.endHand(null, 'played_out', [this.points(0), this.points(1)]);
    }
  }

  callOut(seat) {
    const claim = this.scores[seat] + this.points(seat);
    const score = [this.points(0), this.points(1)];
    if (claim >= this.r.matchTarget) {
      this.endHand(null, 'call_out', score, { winner: seat, reason: 'call_out' });
      return;
    }
    score[seat] = 0;
    const lost = this.r.callOut === 'lose_match' ? { winner: 1 - seat, reason: 'call_out' } : null;
    this.endHand(null, 'call_out_failed', score, lost);
  }

  // score: what the hand adds to match_scores (points measure); over: a forced result
  endHand(winner, ended, score = [0, 0], over = null) {
    const r = this.r;
    if (r.measure === 'hands_won' && winner !== null) this.segni[winner] += 1;
    this.scores = [this.scores[0] + score[0], this.scores[1] + score[1]];
    this.lastHand = {
      number: this.handNo, points: [this.points(0), this.points(1)], score, ended, winner,
    };
    const total = r.measure === 'hands_won' ? this.segni : this.scores;
    if (FAULT === 'held-kept') {
      this.decls = [this.decls[0] + this.held[0], this.decls[1] + this.held[1]];
      this.lastHand.points = [this.points(0), this.points(1)];
    }
    let result = over;
    if (!result && !(FAULT === 'failed-callout-no-end' && ended === 'call_out_failed')) {
      const reached = [0, 1].filter((s) => total[s] >= r.matchTarget);
      if (reached.length === 1) result = { winner: reached[0], reason: 'target' };
      else if (reached.length === 2) {
        if (total[0] !== total[1]) {
          result = { winner: total[0] > total[1] ? 0 : 1, reason: 'target' };
        }
        else if (r.tie === 'draw') result = { winner: null, reason: 'tie' };
      }
    }
    if (result) {
      this.result = { ...result, scores: total.slice() };
      this.phase = 'over';
    } else {
      if (r.dealer && !(FAULT === 'failed-callout-same-dealer' && ended === 'call_out_failed')) {
        this.dealer = 1 - this.dealer;
      }
      this.phase = 'deal';
    }
  }

  resign(seat) {
    const hands = this.r.measure === 'hands_won' && FAULT !== 'resign-scores';
    const total = hands ? this.segni : this.scores;
    this.result = { winner: 1 - seat, reason: 'resign', scores: total.slice() };
    this.phase = 'over';
  }

  state() {
    const on = this.phase === 'play';
    return {
      type: 'state',
      phase: this.phase,
      hand: this.handNo,
      trick: on ? this.trick : 0,
      dealer: this.r.dealer ? this.dealer : null,
      leader: on ? this.leader : null,
      to_act: on ? this.toAct : null,
      trump: on ? this.trump : null,
      turn_up: on ? this.turnUp : null,
      table: on ? this.table : [],
      stock: on ? this.stock.length : 0,
      hands: on ? this.hands : [[], []],
      declared: on ? this.declared : [],
      tricks_won: on ? this.tricksWon : [0, 0],
      hand_points: on ? [this.points(0), this.points(1)] : [0, 0],
      match_scores: this.scores,
      segni: this.segni,
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
    };
  }
}

// an action text -> {word, ...}; bad_action for a text that is no action of the ruleset
function parseAction(text, r) {
  if (PACK.includes(text)) return { word: 'card' };
  if (['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline'].includes(text)) {
    return { word: text };
  }
  let m = /^yes:[HDCS]$/.exec(text);
  if (m) return { word: 'yes' };
  m = /^exchange:(.+)$/.exec(text);
  if (m && PACK.includes(m[1])) return { word: 'exchange', card: m[1] };
  m = /^([a-z]+):([HDCS])$/.exec(text);
  if (m && m[1] === r.decl) return { word: 'declare', suit: m[2] };
  throw new Refusal('bad_action', `not an action of ${r.id}: ${JSON.stringify(text)}`);
}

// ---------------------------------------------------------------------------
// Requests

let match = null;
const HOUSE = [];     // [ruleset, options] declared in the hello

function hello() {
  const rulesets = {};
  for (const [name, rs] of Object.entries(RULESETS)) rulesets[name] = { options: rs.options };
  const reply = {
    type: 'hello', engine: 'mariaggia-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets,
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map(([ruleset, options]) => ({ ruleset, options }));
  }
  return reply;
}

const isSeat = (x) => x === 0 || x === 1;

function readDeal(req, rules) {
  const deck = req.deck;
  if (!Array.isArray(deck) || deck.some((c) => typeof c !== 'string')) {
    throw badRequest('deck: a list of cards');
  }
  const fp = req.first_player;
  const noFirst = fp === undefined || fp === null;
  if (!noFirst && typeof fp !== 'number') throw badRequest('first_player: a number or null');
  if (deck.length !== PACK.length || new Set(deck).size !== PACK.length
    || deck.some((c) => !PACK.includes(c))) {
    throw illegal('core.deal', 'the deck must hold every card of the pack once');
  }
  if (rules.dealer && !noFirst) {
    throw illegal('core.deal', 'the dealer\'s opponent leads: no first_player');
  }
  if (!rules.dealer && noFirst && FAULT === 'first-player-default') return [deck, 0];
  if (!rules.dealer && !isSeat(fp)) throw illegal('core.deal', 'first_player must be a seat');
  return [deck, rules.dealer ? null : fp];
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset: a string');
  const rs = Object.prototype.hasOwnProperty.call(RULESETS, req.ruleset) && RULESETS[req.ruleset];
  if (!rs) throw new Refusal('unsupported', `no ruleset ${req.ruleset}`);
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const o = {};
  for (const [name, spec] of Object.entries(rs.options)) o[name] = spec.default;
  for (const [name, v] of Object.entries(given)) {
    const spec = Object.prototype.hasOwnProperty.call(rs.options, name) && rs.options[name];
    if (!spec) throw new Refusal('unsupported', `no option ${name}`);
    if (spec.type === 'bool' && typeof v !== 'boolean') throw badRequest(`${name}: true or false`);
    if (spec.type === 'int' && !Number.isInteger(v)) throw badRequest(`${name}: a whole number`);
    const off = spec.type === 'int' ? v < spec.min || v > spec.max
      : spec.type === 'enum' && !spec.values.includes(v);
    if (off) throw new Refusal('unsupported', `${name}=${JSON.stringify(v)} not offered`);
    o[name] = v;
  }
  const rules = rs.rules(o);
  if (rules.dealer ? !isSeat(req.dealer) : req.dealer !== null && req.dealer !== undefined) {
    throw badRequest(rules.dealer ? 'dealer: a seat' : 'dealer: null (no dealer)');
  }
  const [deck, fp] = readDeal(req, rules);
  match = new Match(rules, rules.dealer ? req.dealer : null);
  match.deal(deck, fp);
  return { type: 'ok' };
}

function needMatch() {
  if (!match) throw new Refusal('no_match', 'no match has been started');
  return match;
}

function seatOf(req, m) {
  if (req.seat === undefined || req.seat === null) return m.phase === 'play' ? m.toAct : null;
  if (!isSeat(req.seat)) throw badRequest('seat: 0 or 1');
  return req.seat;
}

const CHOOSE_BOUNDS = { budget_ms: [1, 60000], seed: [0, 2 ** 64 - 1] };

// choose: a plain player for `mariage match`; it never changes the match
function choose(req) {
  const m = needMatch();
  for (const [field, [lo, hi]] of Object.entries(CHOOSE_BOUNDS)) {
    const v = req[field];
    if (v !== undefined && !(Number.isInteger(v) && v >= lo && v <= hi)) {
      throw badRequest(`${field}: ${lo} .. ${hi}`);
    }
  }
  if (m.phase !== 'play') {
    throw m.phase === 'over' ? illegal('core.over', 'the match is over')
      : illegal('core.phase', 'no hand in progress');
  }
  if (seatOf(req, m) !== m.toAct) throw illegal('core.turn', 'not to act');
  return { type: 'choose', seat: m.toAct, action: plainPick(m, m.toAct) };
}

// a call-out when sure of it; a declaration or exchange; when second, the cheapest card
// that takes the trick (a trump only for a card worth 10 or more); else the cheapest card
function plainPick(m, seat) {
  const acts = m.legal(seat);
  const sure = m.scores[seat] + m.points(seat) >= m.r.matchTarget;
  if (sure && acts.includes('callout')) return 'callout';
  const word = acts.find((a) => a.includes(':'));
  if (word) return word;
  const price = (c) => worth(c) + (suit(c) === m.trump ? 12 : 0);
  const cards = acts.filter((a) => PACK.includes(a)).sort((x, y) => price(x) - price(y));
  const led = m.table.length ? m.table[0][1] : null;
  const takes = (c) => (suit(c) === suit(led) ? higher(c, led)
    : suit(c) === m.trump && worth(led) >= 10);
  return (led && cards.find(takes)) || cards[0];
}

// the requests, by type: each returns its answer or throws a Refusal
const REQUESTS = {
  hello,
  start,
  choose,
  quit: () => ({ type: 'bye' }),
  state: () => needMatch().state(),
  legal(req) {
    const m = needMatch();
    const seat = seatOf(req, m);
    return { type: 'legal', seat, actions: seat === null ? [] : m.legal(seat) };
  },
  apply(req) {
    const m = needMatch();
    if (typeof req.action !== 'string') throw badRequest('apply: a string action');
    const seat = seatOf(req, m);
    m.apply(seat === null ? -1 : seat, req.action);
    return { type: 'ok' };
  },
  deal(req) {
    const m = needMatch();
    if (m.phase !== 'deal') {
      throw m.phase === 'over' ? illegal('core.over', 'the match is over')
        : illegal('core.phase', 'a hand is in progress');
    }
    m.deal(...readDeal(req, m.r));
    return { type: 'ok' };
  },
  resign(req) {
    const m = needMatch();
    if (!isSeat(req.seat)) throw badRequest('seat: 0 or 1');
    if (m.phase === 'over') throw illegal('core.over', 'the match is over');
    m.resign(req.seat);
    return { type: 'ok' };
  },
};

function handle(req) {
  if (!Object.prototype.hasOwnProperty.call(REQUESTS, req.type)) {
    throw new Refusal('unknown_type', `no request ${JSON.stringify(req.type)}`);
  }
  return REQUESTS[req.type](req);
}

// ---------------------------------------------------------------------------
// Strict JSON: JSON.parse reads 1e999 as Infinity and keeps the second of two equal
// names; this reader refuses both.

class Float { constructor(v) { this.v = v; } toJSON() { return this.v; } }

function strictJSON(text) {
  let at = 0;
  const stop = (why) => { throw new Error(`${why} at ${at}`); };
  const space = () => { while (at < text.length && ' \t\n\r'.includes(text[at])) at += 1; };
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  const str = () => {
    STRING.lastIndex = at;
    const m = STRING.exec(text);
    if (!m) stop('bad string');
    at = STRING.lastIndex;
    return JSON.parse(m[0]);
  };
  const value = () => {
    space();
    const c = text[at];
    if (c === '{') {
      at += 1;
      const obj = {};
      space();
      if (text[at] === '}') { at += 1; return obj; }
      for (;;) {
        space();
        if (text[at] !== '"') stop('name expected');
        const k = str();
        if (Object.prototype.hasOwnProperty.call(obj, k)) stop(`name ${k} twice`);
        space();
        if (text[at] !== ':') stop(': expected');
        at += 1;
        Object.defineProperty(obj, k, { value: value(), enumerable: true, writable: true });
        space();
        const sep = text[at];
        at += 1;
        if (sep === '}') return obj;
        if (sep !== ',') stop(', or } expected');
      }
    }
    if (c === '[') {
      at += 1;
      const list = [];
      space();
      if (text[at] === ']') { at += 1; return list; }
      for (;;) {
        list.push(value());
        space();
        const sep = text[at];
        at += 1;
        if (sep === ']') return list;
        if (sep !== ',') stop(', or ] expected');
      }
    }
    if (c === '"') return str();
    for (const [w, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(w, at)) { at += w.length; return v; }
    }
    NUMBER.lastIndex = at;
    const m = NUMBER.exec(text);
    if (!m) stop('value expected');
    at = NUMBER.lastIndex;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) stop('number too large');
    return m[1] || m[2] ? new Float(n) : n;
  };
  const v = value();
  space();
  if (at !== text.length) stop('text after the value');
  return v;
}

// ---------------------------------------------------------------------------
// The protocol loop: lines of at most 1 MiB, checked as UTF-8

const decoder = new TextDecoder('utf-8', { fatal: true });
const error = (code, message) => ({ type: 'error', code, message });

// a request line -> its answer (null for a blank line, never answered)
function answer(bytes) {
  const request = readRequest(bytes);
  if (request === null || request instanceof Refusal) {
    return request && error(request.code, request.message);
  }
  const id = 'id' in request && Object.prototype.hasOwnProperty.call(request, 'id')
    ? { id: request.id } : {};
  let reply;
  try {
    if (typeof request.type !== 'string') throw badRequest('no string type');
    reply = handle(request);
  } catch (e) {
    const known = e instanceof Refusal;
    reply = error(known ? e.code : 'internal_error', known ? e.message : String(e && e.stack));
    if (known && e.rule) reply.rule = e.rule;
  }
  return Object.assign(reply, id);
}

// the bytes of a line -> a JSON object, null for a blank line, or a bad_json Refusal
function readRequest(bytes) {
  let text;
  try {
    text = decoder.decode(bytes).replace(/\r$/, '');
  } catch (e) {
    return new Refusal('bad_json', 'not UTF-8');
  }
  if (/^[ \t]*$/.test(text)) return null;
  let value;
  try {
    value = strictJSON(text);
  } catch (e) {
    return new Refusal('bad_json', e.message);
  }
  const object = value !== null && typeof value === 'object' && !Array.isArray(value);
  return object ? value : new Refusal('bad_json', 'not a JSON object');
}

function send(reply) {
  if (!reply) return;
  process.stdout.write(JSON.stringify(reply) + '\n');
  if (reply.type === 'bye') process.exit(0);
}

function readHouse(arg) {
  let ruleset = 'mariaggia';
  let text = arg;
  const m = /^([a-z-]+):(.*)$/.exec(arg);
  if (m && RULESETS[m[1]]) [, ruleset, text] = m;
  const specs = RULESETS[ruleset].options;
  const options = {};
  for (const pair of text.split(',')) {
    const [name, v] = pair.split('=');
    const type = (specs[name] || {}).type;
    const typed = (x) => (type === 'int' ? Number(x) : type === 'bool' ? x === 'true' : x);
    const range = /^(\d+)\.\.(\d+)$/.exec(v);
    if (range) options[name] = { min: Number(range[1]), max: Number(range[2]) };
    else if (v.includes('|')) options[name] = { values: v.split('|').map(typed) };
    else options[name] = typed(v);
  }
  HOUSE.push([ruleset, options]);
}

function main() {
  const args = process.argv.slice(2);
  for (let k = 0; k < args.length; k += 1) {
    if (args[k] === '--list-faults') {
      for (const [name, what] of Object.entries(FAULTS)) console.log(`${name}: ${what}`);
      return;
    }
    if (args[k] === '--fault') FAULT = args[++k];
    else if (args[k] === '--house') readHouse(args[++k]);
  }
  if (FAULT && !FAULTS[FAULT]) { console.error(`unknown fault ${FAULT}`); process.exit(2); }
  readLines((line) => send(line === null ? error('bad_json', 'line longer than 1 MiB')
    : answer(line)));
}

// calls onLine with each line of the input as bytes, its line feed dropped, or with null
// for a line past MAX_LINE (a carriage return before the line feed not counted)
function readLines(onLine) {
  let held = [];
  let heldBytes = 0;
  let skipping = false;          // past the limit: dropped up to its line feed
  const take = (piece) => {
    if (skipping) return;
    heldBytes += piece.length;
    if (heldBytes > MAX_LINE + 1) { skipping = true; held = []; } else held.push(piece);
  };
  const finish = () => {
    const line = skipping ? null : Buffer.concat(held);
    held = [];
    heldBytes = 0;
    skipping = false;
    const long = line === null || (line.length > MAX_LINE && line[line.length - 1] !== 13);
    onLine(long ? null : line);
  };
  process.stdin.on('data', (chunk) => {
    let at = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, at)) {
      take(chunk.subarray(at, nl));
      finish();
      at = nl + 1;
    }
    if (at < chunk.length) take(chunk.subarray(at));
  });
  process.stdin.on('end', () => {
    if (skipping || heldBytes) finish();
    process.exit(0);
  });
}

main();
