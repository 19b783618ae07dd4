#!/usr/bin/env node
// A Mariglia engine in plain Node.js, written from the user documentation alone: the
// engine protocol (docs/protocol.rst, docs/conformance.rst), the rulebook printed by
// `mariage rules mariglia`, the rules notes and spec/mariglia.yaml read as data. One
// file, no dependencies. It speaks the engine protocol (version 2, without hidden
// cards) and plays Mariglia at every value of its three options (target,
// turn_up_bonus, duty_reading).
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/mariglia_engine.js" \
//       --ruleset mariglia --require-rule-ids --min-coverage 100
//   mariage conformance --engine "node conformance/examples/mariglia_engine.js" \
//       --derived --ruleset mariglia -o duty_reading=always -o turn_up_bonus=false
//
// The first runs the stored suite of Mariglia, the second the suite derived for one set
// of house rules. "--house NAME=VALUE,..." (repeatable; a value may be V1|V2, quoted
// inside the engine command, or MIN..MAX) declares that configuration in the hello:
//
//   mariage conformance --engine "node conformance/examples/mariglia_engine.js \
//       --house duty_reading=always,target=21" --declared
//
// "--fault MODE" (or MARIGLIA_FAULT=MODE) plants one mistake, so that you can see what
// the runner says about it; "--list-faults" lists them. The engine answers "choose"
// too, so "mariage match mariglia --engine A=... --bot B=greedy" plays it.
'use strict';

// ---------------------------------------------------------------------------
// The game's data (spec/mariglia.yaml)

const RULESET = 'mariglia';
const SUITS = ['H', 'D', 'C', 'S'];
const ORDER = ['7', 'A', 'K', 'J', 'Q', '6', '5', '4', '3', '2'];      // high to low
const VALUE = { 7: 5, A: 4, K: 3, J: 2, Q: 1 };
const PACK = [];
for (const s of SUITS) for (const r of ORDER) PACK.push(r + s);
const IN_PACK = new Set(PACK);
const SEATS = 4;
const TEAM = [0, 1, 0, 1];              // N and S against W and E
const HAND = 10;
const PACKET = 5;
const TRICK_POINT = 1;
const HALF = 35;                        // of the hand's 70 (60 card points + 10 tricks)
const LINE_LIMIT = 1048576;

// name -> {type, default, values | min/max}: what the hello offers, as the spec does
const OPTIONS = {
  target: { type: 'int', default: 35, min: 1, max: 10000 },
  turn_up_bonus: { type: 'bool', default: true },
  duty_reading: { type: 'enum', default: 'opponent_winning', values: ['opponent_winning', 'always'] },
};

// The words every ruleset reads (refused here with core.phase); anything else that is
// no card of the pack is no action of Mariglia.
const FOREIGN = new Set(['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline']);

const FAULTS = {
  'lower-trump-will-do': 'a player void in the suit led may throw any trump on an '
    + 'opponent\'s winning trump, even when he holds a higher one (mariglia.play.overtrump)',
  'beat-the-suit-under-trump': 'a follower must still beat the best card of the suit led '
    + 'when a trump is winning the trick (mariglia.play.head)',
  'trump-for-partner': 'a void player must trump his partner\'s winning card too, as '
    + 'under duty_reading=always (mariglia.play.overtrump)',
  'no-trick-points': 'a hand is scored on its card points alone, without one point for '
    + 'each trick (mariglia.score.hand)',
  'deal-to-the-left': 'the deal passes to the seat before the dealer (mariglia.deal.rotation)',
  'bonus-for-everyone': 'the turned-up card\'s points go to the team of the seat that '
    + 'leads, not the dealer\'s (mariglia.score.turn-up)',
};
let FAULT = process.env.MARIGLIA_FAULT || null;

// ---------------------------------------------------------------------------
// Cards and refusals

const suitOf = (card) => card[1];
const rankOf = (card) => card[0];
const worth = (card) => VALUE[rankOf(card)] || 0;
const place = (card) => ORDER.indexOf(rankOf(card));

class Refused extends Error {
  constructor(code, message, rule) {
    super(message);
    this.code = code;
    this.rule = rule || null;
  }
}
const breaks = (rule, why) => new Refused('illegal_action', why, rule);
const malformed = (why) => new Refused('bad_request', why);
const unsupported = (why) => new Refused('unsupported', why);

// ---------------------------------------------------------------------------
// A match

class Mariglia {
  constructor(options, dealer, deck) {
    this.target = options.target;
    this.bonus = options.turn_up_bonus;
    this.dutyAlways = options.duty_reading === 'always';
    this.dealer = dealer;
    this.number = 0;
    this.scores = [0, 0];
    this.lastHand = null;
    this.result = null;
    this.empty();
    this.deal(deck);
  }

  empty() {
    this.phase = this.result ? 'over' : 'deal';
    this.hands = [[], [], [], []];
    this.trick = 0;
    this.leader = null;
    this.toAct = null;
    this.trump = null;
    this.turnUp = null;
    this.table = [];
    this.won = [0, 0];
    this.cardPoints = [0, 0];
  }

  deal(deck) {
    this.number += 1;
    this.hands = [[], [], [], []];
    let k = 0;
    for (let round = 0; round < HAND / PACKET; round++) {
      for (let i = 1; i <= SEATS; i++) {
        const seat = (this.dealer + i) % SEATS;
        this.hands[seat].push(...deck.slice(k, k + PACKET));
        k += PACKET;
      }
    }
    this.turnUp = deck[deck.length - 1];          // the dealer's last card, kept in hand
    this.trump = suitOf(this.turnUp);
    this.won = [0, 0];
    this.cardPoints = [0, 0];
    this.phase = 'play';
    this.trick = 0;
    this.nextTrick((this.dealer + 1) % SEATS);
    const shown = worth(this.turnUp);
    if (this.bonus && shown > 0) {
      const side = FAULT === 'bonus-for-everyone' ? TEAM[this.leader] : TEAM[this.dealer];
      this.scores[side] += shown;
      if (this.scores[side] >= this.target) {
        this.lastHand = { number: this.number, points: [0, 0], score: [0, 0],
          ended: 'turn_up_bonus', winner: null };
        this.result = { winner: side, reason: 'turn_up_bonus', scores: this.scores.slice() };
        this.empty();
      }
    }
  }

  nextTrick(leader) {
    this.trick += 1;
    this.leader = leader;
    this.toAct = leader;
    this.table = [];
  }

  // the entry [seat, card] winning the cards on the table so far
  best() {
    let top = this.table[0];
    for (const entry of this.table) {
      const card = entry[1];
      const held = top[1];
      const over = suitOf(card) === suitOf(held) ? place(card) < place(held)
        : suitOf(card) === this.trump;
      if (over) top = entry;
    }
    return top;
  }

  // does `card` take the trick from `winning`?
  takes(card, winning) {
    if (suitOf(card) === suitOf(winning)) return place(card) < place(winning);
    return suitOf(card) === this.trump;
  }

  // the cards of `seat`'s hand the duties let him play, and the rule each other breaks
  duties(seat) {
    const hand = this.hands[seat];
    if (this.table.length === 0) return { cards: hand.slice(), rule: () => null };
    const led = suitOf(this.table[0][1]);
    const [bySeat, winning] = this.best();
    const partnerWins = TEAM[bySeat] === TEAM[seat];
    const following = hand.filter((c) => suitOf(c) === led);
    if (following.length) {
      const bound = this.dutyAlways || !partnerWins;
      let beats = (c) => this.takes(c, winning);
      if (FAULT === 'beat-the-suit-under-trump' && suitOf(winning) !== led) {
        const topOfLed = this.table.map((e) => e[1]).filter((c) => suitOf(c) === led)
          .sort((a, b) => place(a) - place(b))[0];
        beats = (c) => place(c) < place(topOfLed);
      }
      const beaters = bound ? following.filter(beats) : [];
      const cards = beaters.length ? beaters : following;
      return {
        cards,
        rule: (c) => (suitOf(c) !== led ? 'mariglia.play.follow' : 'mariglia.play.head'),
      };
    }
    const bound = this.dutyAlways || !partnerWins || FAULT === 'trump-for-partner';
    let beaters = bound ? hand.filter((c) => this.takes(c, winning)) : [];
    if (FAULT === 'lower-trump-will-do' && beaters.length) {
      beaters = hand.filter((c) => suitOf(c) === this.trump);
    }
    return { cards: beaters.length ? beaters : hand.slice(), rule: () => 'mariglia.play.overtrump' };
  }

  // the refusal of an action by a seat, or null where it is legal
  refusal(seat, text) {
    const isCard = IN_PACK.has(text);
    if (!isCard && !FOREIGN.has(text) && !/^yes:[HDCS]$/.test(text)
        && !(/^exchange:..$/.test(text) && IN_PACK.has(text.slice(9)))) {
      throw new Refused('bad_action', `${JSON.stringify(text)} is no action of Mariglia`);
    }
    if (this.phase === 'over') return breaks('core.over', 'the match is over');
    if (this.phase === 'deal') return breaks('core.phase', 'no hand is being played');
    if (text === 'callout') return breaks('core.phase', 'nobody calls out in Mariglia');
    if (seat !== this.toAct) return breaks('core.turn', `seat ${this.toAct} is to play`);
    if (!isCard) return breaks('core.phase', 'only cards are played in Mariglia');
    if (!this.hands[seat].includes(text)) return breaks('core.hand', `${text} is not held`);
    const duty = this.duties(seat);
    if (!duty.cards.includes(text)) return breaks(duty.rule(text), `${text} may not be played now`);
    return null;
  }

  legal(seat) {
    if (this.phase !== 'play' || seat !== this.toAct) return [];
    return this.duties(seat).cards;
  }

  apply(seat, text) {
    const why = this.refusal(seat, text);
    if (why) throw why;
    const hand = this.hands[seat];
    hand.splice(hand.indexOf(text), 1);
    this.table.push([seat, text]);
    if (this.table.length < SEATS) {
      this.toAct = (seat + 1) % SEATS;
      return;
    }
    const taker = this.best()[0];
    this.won[TEAM[taker]] += 1;
    for (const [, c] of this.table) this.cardPoints[TEAM[taker]] += worth(c);
    if (this.trick === HAND) this.score();
    else this.nextTrick(taker);
  }

  score() {
    const perTrick = FAULT === 'no-trick-points' ? 0 : TRICK_POINT;
    const totals = [0, 1].map((t) => this.cardPoints[t] + perTrick * this.won[t]);
    const game = totals.map((p) => Math.max(0, p - HALF));
    game.forEach((g, t) => { this.scores[t] += g; });
    this.lastHand = { number: this.number, points: this.cardPoints.slice(), score: game,
      ended: 'played_out', winner: null };
    const top = Math.max(...this.scores);
    const leaders = [0, 1].filter((t) => this.scores[t] === top);
    if (top >= this.target && leaders.length === 1) {
      this.result = { winner: leaders[0], reason: 'target', scores: this.scores.slice() };
    } else {
      const step = FAULT === 'deal-to-the-left' ? SEATS - 1 : 1;
      this.dealer = (this.dealer + step) % SEATS;
    }
    this.empty();
  }

  resign(seat) {
    this.result = { winner: 1 - TEAM[seat], reason: 'resign', scores: this.scores.slice() };
    this.empty();
  }

  state() {
    return {
      type: 'state',
      phase: this.phase,
      hand: this.number,
      trick: this.trick,
      dealer: this.dealer,
      leader: this.leader,
      to_act: this.toAct,
      trump: this.trump,
      turn_up: this.turnUp,
      table: this.table.map(([s, c]) => [s, c]),
      stock: 0,
      hands: this.hands.map((h) => h.slice()),
      declared: [],
      tricks_won: this.won.slice(),
      hand_points: this.cardPoints.slice(),
      match_scores: this.scores.slice(),
      segni: [0, 0],
      last_hand: this.lastHand && { ...this.lastHand, points: this.lastHand.points.slice(),
        score: this.lastHand.score.slice() },
      terminal: this.result !== null,
      result: this.result && { ...this.result, scores: this.result.scores.slice() },
    };
  }
}

// ---------------------------------------------------------------------------
// Requests

let game = null;
const HOUSE = [];

const own = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < SEATS;

function hello() {
  const options = {};
  for (const [name, spec] of Object.entries(OPTIONS)) options[name] = { ...spec };
  const answer = {
    type: 'hello', engine: 'mariglia-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets: { [RULESET]: { options } },
  };
  if (HOUSE.length) answer.configurations = HOUSE.map((o) => ({ ruleset: RULESET, options: o }));
  return answer;
}

function readOptions(given) {
  if (given === undefined || given === null) given = {};
  if (typeof given !== 'object' || Array.isArray(given)) throw malformed('options must be an object');
  const out = {};
  for (const [name, spec] of Object.entries(OPTIONS)) out[name] = spec.default;
  for (const name of Object.keys(given)) {
    if (!own(OPTIONS, name)) throw unsupported(`Mariglia has no option ${name}`);
    const spec = OPTIONS[name];
    const v = given[name];
    if (spec.type === 'int') {
      if (!Number.isInteger(v)) throw malformed(`${name} must be a whole number`);
      if (v < spec.min || v > spec.max) throw unsupported(`${name}=${v} is out of range`);
    } else if (spec.type === 'bool') {
      if (typeof v !== 'boolean') throw malformed(`${name} must be true or false`);
    } else if (!spec.values.includes(v)) {
      throw unsupported(`${name} cannot be ${JSON.stringify(v)}`);
    }
    out[name] = v;
  }
  return out;
}

// a deck's and a first player's JSON types (bad_request), before the moment is judged
function dealForm(req) {
  const deck = req.deck;
  if (!Array.isArray(deck) || deck.some((c) => typeof c !== 'string')) {
    throw malformed('deck must be a list of cards');
  }
  const fp = req.first_player;
  if (fp !== undefined && fp !== null && typeof fp !== 'number' && !(fp instanceof Raw)) {
    throw malformed('first_player must be a number or null');
  }
}

// the deck of a deal, each card of the pack once (core.deal), with no first player
function readDeal(req) {
  const deck = req.deck;
  const seen = new Set(deck);
  if (deck.length !== PACK.length || seen.size !== PACK.length || deck.some((c) => !IN_PACK.has(c))) {
    throw breaks('core.deal', 'a deal orders each of the 40 cards once');
  }
  const fp = req.first_player;
  if (fp !== undefined && fp !== null) throw breaks('core.deal', 'Mariglia has a dealer: no first_player');
  return deck.slice();
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw malformed('ruleset must be a string');
  if (req.ruleset !== RULESET) throw unsupported(`this engine plays ${RULESET} only`);
  const options = readOptions(req.options);
  if (!isSeat(req.dealer)) throw malformed('dealer must be a seat from 0 to 3');
  dealForm(req);
  const deck = readDeal(req);
  game = new Mariglia(options, req.dealer, deck);
  return null;
}

function current() {
  if (game === null) throw new Refused('no_match', 'no match has been started');
  return game;
}

// the seat a request names, else the seat to act (null between hands)
function seatNamed(req, g) {
  if (req.seat === undefined || req.seat === null) return g.phase === 'play' ? g.toAct : null;
  if (!isSeat(req.seat)) throw malformed('seat must be a seat from 0 to 3');
  return req.seat;
}

// choose: the cheapest card that takes the trick, else the cheapest card; a trump costs
// more than any plain card
function choose(g, req) {
  const inRange = (x, lo, hi) => x === undefined || (Number.isInteger(x) && x >= lo && x <= hi);
  const big = (x) => x instanceof Raw && x.whole !== null && x.whole >= 0n && x.whole < 2n ** 64n;
  if (!inRange(req.budget_ms, 1, 60000)) throw malformed('budget_ms runs from 1 to 60000');
  if (!inRange(req.seed, 0, Number.MAX_SAFE_INTEGER) && !big(req.seed)) {
    throw malformed('seed runs from 0 to 2^64 - 1');
  }
  if (req.bot !== undefined && typeof req.bot !== 'string') throw malformed('bot must be a text');
  if (g.phase === 'over') throw breaks('core.over', 'the match is over');
  if (g.phase !== 'play') throw breaks('core.phase', 'no hand is being played');
  if (seatNamed(req, g) !== g.toAct) throw breaks('core.turn', `seat ${g.toAct} is to play`);
  const cost = (c) => worth(c) + (suitOf(c) === g.trump ? 10 : 0) + (9 - place(c)) / 10;
  const cards = g.legal(g.toAct).sort((a, b) => cost(a) - cost(b));
  let pick = cards[0];
  if (g.table.length) {
    const [bySeat, winning] = g.best();
    if (TEAM[bySeat] !== TEAM[g.toAct]) pick = cards.find((c) => g.takes(c, winning)) || pick;
  }
  return { type: 'choose', seat: g.toAct, action: pick };
}

const WITH_MATCH = {
  state: (g) => g.state(),
  legal: (g, req) => {
    const seat = seatNamed(req, g);
    return { type: 'legal', seat, actions: seat === null ? [] : g.legal(seat) };
  },
  apply: (g, req) => {
    if (typeof req.action !== 'string') throw malformed('apply needs a string action');
    const seat = seatNamed(req, g);
    g.apply(seat === null ? -1 : seat, req.action);
    return null;
  },
  deal: (g, req) => {
    dealForm(req);
    if (g.phase === 'over') throw breaks('core.over', 'the match is over');
    if (g.phase !== 'deal') throw breaks('core.phase', 'a hand is being played');
    g.deal(readDeal(req));
    return null;
  },
  resign: (g, req) => {
    if (!isSeat(req.seat)) throw malformed('seat must be a seat from 0 to 3');
    if (g.phase === 'over') throw breaks('core.over', 'the match is over');
    g.resign(req.seat);
    return null;
  },
  choose,
};

function answer(req) {
  switch (req.type) {
    case 'hello': return hello();
    case 'start': return start(req) || { type: 'ok' };
    case 'quit': return { type: 'bye' };
    default:
      if (!own(WITH_MATCH, req.type)) {
        throw new Refused('unknown_type', `no request of type ${JSON.stringify(req.type)}`);
      }
      return WITH_MATCH[req.type](current(), req) || { type: 'ok' };
  }
}

// ---------------------------------------------------------------------------
// JSON as RFC 8259 has it. JSON.parse is too lenient for the protocol (1e999 becomes
// Infinity, a name given twice keeps its last value, a lone surrogate half passes), so
// values are read here. A number written with a fraction or an exponent, or a whole
// number past 2^53, is kept as a Raw (its text, and its BigInt where whole): no
// whole-number field but a seed accepts it, and an id is echoed as it was written.

class Raw {
  constructor(text, whole) {
    this.text = text;
    this.whole = whole;
  }
  toJSON() { return `\u0000raw:${this.text}`; }
}

function parseStrict(text) {
  let i = 0;
  const fail = (what) => { throw new Error(`${what} at character ${i + 1}`); };
  const ws = () => { while (i < text.length && /[ \t\r\n]/.test(text[i])) i += 1; };
  const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
  const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
  const string = () => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) fail('a malformed string');
    i = STRING.lastIndex;
    const s = JSON.parse(m[0]);
    for (let k = 0; k < s.length; k++) {
      const u = s.charCodeAt(k);
      if (u >= 0xd800 && u <= 0xdbff) {
        const low = s.charCodeAt(k + 1);
        if (!(low >= 0xdc00 && low <= 0xdfff)) fail('half a surrogate pair');
        k += 1;
      } else if (u >= 0xdc00 && u <= 0xdfff) fail('half a surrogate pair');
    }
    return s;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '"') return string();
    if (c === '{') {
      i += 1;
      const obj = {};
      ws();
      if (text[i] === '}') { i += 1; return obj; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a name expected');
        const name = string();
        if (own(obj, name)) fail(`the name ${JSON.stringify(name)} given twice`);
        ws();
        if (text[i] !== ':') fail('a colon expected');
        i += 1;
        Object.defineProperty(obj, name, { value: value(), enumerable: true, writable: true,
          configurable: true });
        ws();
        if (text[i] === ',') { i += 1; continue; }
        if (text[i] === '}') { i += 1; return obj; }
        fail('a comma or a closing brace expected');
      }
    }
    if (c === '[') {
      i += 1;
      const list = [];
      ws();
      if (text[i] === ']') { i += 1; return list; }
      for (;;) {
        list.push(value());
        ws();
        if (text[i] === ',') { i += 1; continue; }
        if (text[i] === ']') { i += 1; return list; }
        fail('a comma or a closing bracket expected');
      }
    }
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) fail('no JSON value');
    i = NUMBER.lastIndex;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) fail('a number too large for a double');
    if (m[1] !== undefined || m[2] !== undefined) return new Raw(m[0], null);
    return Number.isSafeInteger(n) ? n : new Raw(m[0], BigInt(m[0]));
  };
  const v = value();
  ws();
  if (i < text.length) fail('text after the value');
  return v;
}

// ---------------------------------------------------------------------------
// Lines in, lines out

const decoder = new TextDecoder('utf-8', { fatal: true });
const errorOf = (code, message) => ({ type: 'error', code, message });

function respond(bytes) {
  let text;
  try {
    text = decoder.decode(bytes);
  } catch (e) {
    return errorOf('bad_json', 'the line is not UTF-8');
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (/^[ \t]*$/.test(text)) return null;            // blank: never answered
  let req;
  try {
    req = parseStrict(text);
  } catch (e) {
    return errorOf('bad_json', e.message);
  }
  if (typeof req !== 'object' || req === null || Array.isArray(req) || req instanceof Raw) {
    return errorOf('bad_json', 'a request is a JSON object');
  }
  const tag = own(req, 'id') ? { id: req.id } : {};
  if (typeof req.type !== 'string') return { ...errorOf('bad_request', 'no string type'), ...tag };
  try {
    return { ...answer(req), ...tag };
  } catch (e) {
    if (e instanceof Refused) {
      const out = errorOf(e.code, e.message);
      if (e.rule) out.rule = e.rule;
      return { ...out, ...tag };
    }
    return { ...errorOf('internal_error', String(e && e.stack)), ...tag };
  }
}

function write(obj) {
  if (obj === null) return;
  const text = JSON.stringify(obj).replace(/"\\u0000raw:([-+.0-9eE]+)"/g, '$1');
  process.stdout.write(`${text}\n`);
}

function parseHouse(arg) {        // NAME=V,NAME=V1|V2,NAME=MIN..MAX
  const house = {};
  for (const pair of arg.split(',')) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    const type = own(OPTIONS, name) ? OPTIONS[name].type : 'enum';
    const typed = (x) => (type === 'int' ? Number(x) : type === 'bool' ? x === 'true' : x);
    const range = /^(\d+)\.\.(\d+)$/.exec(raw);
    if (range) house[name] = { min: Number(range[1]), max: Number(range[2]) };
    else if (raw.includes('|')) house[name] = { values: raw.split('|').map(typed) };
    else house[name] = typed(raw);
  }
  return house;
}

function main() {
  const args = process.argv.slice(2);
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '--list-faults') {
      for (const [name, what] of Object.entries(FAULTS)) process.stdout.write(`${name}: ${what}\n`);
      return;
    }
    if (args[k] === '--fault') FAULT = args[++k];
    else if (args[k] === '--house') HOUSE.push(parseHouse(args[++k]));
  }
  if (FAULT && !own(FAULTS, FAULT)) {
    process.stderr.write(`unknown fault ${FAULT} (--list-faults lists them)\n`);
    process.exit(2);
  }
  let pieces = [];
  let length = 0;
  let overlong = false;
  const finish = () => {
    let out;
    if (overlong) out = errorOf('bad_json', 'the line is longer than 1 MiB');
    else {
      const line = Buffer.concat(pieces);
      // a carriage return before the line feed is not counted in the limit
      const body = line.length && line[line.length - 1] === 13 ? line.length - 1 : line.length;
      out = body > LINE_LIMIT ? errorOf('bad_json', 'the line is longer than 1 MiB') : respond(line);
    }
    pieces = [];
    length = 0;
    overlong = false;
    write(out);
    if (out && out.type === 'bye') process.exit(0);
  };
  process.stdin.on('data', (chunk) => {
    let from = 0;
    while (from <= chunk.length) {
      const nl = chunk.indexOf(10, from);
      const end = nl < 0 ? chunk.length : nl;
      if (!overlong) {
        length += end - from;
        if (length > LINE_LIMIT + 1) { overlong = true; pieces = []; } else pieces.push(chunk.subarray(from, end));
      }
      if (nl < 0) break;
      finish();
      from = nl + 1;
    }
  });
  process.stdin.on('end', () => {
    if (length || overlong) finish();
    process.exit(0);
  });
}

main();
