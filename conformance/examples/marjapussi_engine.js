#!/usr/bin/env node
// A Marjapussi engine in plain Node.js, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst, `mariage rules marjapussi` and
// spec/marjapussi.yaml): one file, no dependencies. It speaks the engine protocol
// (version 2, without hidden cards) and plays the ruleset "marjapussi" (the Finnish
// four-player partnership game) with every option of spec/marjapussi.yaml.
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/marjapussi_engine.js" \
//       --ruleset marjapussi --ruleset '*'
//   mariage conformance --engine "node conformance/examples/marjapussi_engine.js" \
//       --ruleset marjapussi --derived --min-coverage 100
//
// The first runs the stored suite (every Marjapussi and protocol test), the second the
// suite derived for the default rules ("-o NAME=VALUE" for house rules). "--house
// NAME=VALUE,..." (repeatable; a value may be V1|V2 or MIN..MAX) makes the engine
// declare that configuration in its hello, for "--declared".
//
// "--fault MODE" (or MARJAPUSSI_FAULT=MODE) plants one mistake, so that you can see
// what the runner says about it; "--list-faults" lists them. It answers "choose"
// too (a plain player), so "mariage match marjapussi --engine A=..." plays it.
'use strict';

// ---------------------------------------------------------------------------
// The ruleset's data (spec/marjapussi.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J', '9', '8', '7', '6'];   // high to low
const FULL_PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
const POINT_SYSTEMS = {
  simplified: { A: 10, T: 10, K: 5, Q: 5, J: 5 },
  original: { A: 11, T: 10, K: 4, Q: 3, J: 2 },
};
const THRESHOLD = { simplified: 75, original: 61 };
const MAX_LINE = 1 << 20;
const SEATS = 4;

// options: name -> [type, default, values or [min, max]]
const OPTIONS = {
  target: ['int', 10, [1, 10000]],
  pack_size: ['enum', 36, [36, 32, 28]],
  point_system: ['enum', 'simplified', ['simplified', 'original']],
  majority_point: ['enum', 'separate', ['separate', 'merged']],
  trump_choice: ['bool', false],
  ace_of_clubs: ['bool', false],
  must_beat: ['bool', false],
  first_lead: ['bool', false],
  tie: ['enum', 'play_on', ['play_on', 'draw']],
  failed_ask: ['enum', 'uses_turn', ['uses_turn', 'may_declare']],
  answers: ['enum', 'truthful', ['truthful', 'may_refuse']],
};

const FAULTS = {
  'no-trump-duty': 'a player void in the suit led need not trump (marjapussi.play.trump)',
  'declare-first-trick': 'the first leader may declare before any trick is won (marjapussi.decl.who)',
  'ace-of-clubs-no-deal': 'under ace_of_clubs the second hand is dealt in turn, not by the '
    + 'holder of the ace of clubs (marjapussi.lead.ace-of-clubs)',
  'beat-until-trumped': 'under must_beat a follower need not beat once the trick is trumped '
    + '(marjapussi.play.beat)',
  'one-answer': 'a partner with two marriages may name only the first suit (marjapussi.ask.answer)',
  'notrump-worth-two': 'under trump_choice a marriage declined as trump is worth 2 '
    + '(marjapussi.decl.value)',
  'first-lead-aces-only': 'under first_lead a leader without an ace may lead anything, not a '
    + 'spade (marjapussi.lead.first-card)',
  'tie-first-wins': 'when both sides reach the target level, the first side wins '
    + '(marjapussi.match.tie)',
  'half-yes-when-declared': 'a half-ask is allowed in a suit already declared '
    + '(marjapussi.ask.half)',
  'half-yes-names-suit': 'a half-ask may be answered yes:S as well as yes '
    + '(marjapussi.ask.half.answer)',
  'ace-of-clubs-every-hand': 'under ace_of_clubs the holder of the ace of clubs leads every '
    + 'hand (marjapussi.lead.ace-of-clubs)',
  'first-lead-every-hand-lead': 'under first_lead every lead must be an ace, else a spade '
    + '(marjapussi.lead.first-card)',
  'notrump-with-trump': 'under trump_choice a marriage may be declined as trump once trump is '
    + 'set (marjapussi.decl.trump)',
  'threshold-over': 'the threshold point needs more than 75 card points (marjapussi.score.threshold)',
  'ask-refused-as-declaration': 'an ask out of its moment, or for a suit declared already, is '
    + 'refused under the declaration rules (marjapussi.decl.who, marjapussi.decl.once) instead '
    + 'of its own (marjapussi.ask.any, marjapussi.ask.half)',
};
let FAULT = process.env.MARJAPUSSI_FAULT || null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const higher = (a, b) => RANKS.indexOf(rank(a)) < RANKS.indexOf(rank(b)); // same suit
const remove = (list, x) => list.splice(list.indexOf(x), 1);
const team = (seat) => seat % 2;
const partnerOf = (seat) => (seat + 2) % SEATS;

class Refusal extends Error {      // an error answer: code and, for illegal_action, rule
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', rule, message);
const badRequest = (message) => new Refusal('bad_request', null, message);
const R = (id) => 'marjapussi.' + id;

// ---------------------------------------------------------------------------
// The match

class Match {
  constructor(options, dealer, deck) {
    this.o = options;
    this.points = POINT_SYSTEMS[options.point_system];
    this.dealer = dealer;
    this.handNo = 0;
    this.scores = [0, 0];
    this.lastHand = null;
    this.result = null;
    this.phase = 'deal';
    this.acHolder = null;
    this.deal(deck);
  }

  // one card at a time from the seat after the dealer; no stock, no turn-up
  deal(deck) {
    const hands = [[], [], [], []];
    deck.forEach((c, i) => hands[(this.dealer + 1 + i) % SEATS].push(c));
    this.handNo += 1;
    this.hands = hands;
    this.leader = (this.dealer + 1) % SEATS;
    if (this.o.ace_of_clubs && (this.handNo === 1 || FAULT === 'ace-of-clubs-every-hand')) {
      this.acHolder = hands.findIndex((h) => h.includes('AC'));
      this.leader = this.acHolder;
    }
    this.toAct = this.leader;
    this.phase = 'play';
    this.trick = 1;
    this.trump = null;
    this.table = [];
    this.declared = [];
    this.tricksWon = [0, 0];
    this.cardPoints = [0, 0];
    this.lastWinner = null;
    this.turn = { acted: false, failedAsk: false };  // the trick winner's declaration action
    this.ask = null;                                  // {asker, kind, suit}
  }

  cardValue(c) { return this.points[rank(c)] || 0; }
  declaredSuit(s) { return this.declared.some((d) => d[2] === s); }
  hasMarriage(seat, s) {
    return this.hands[seat].includes('K' + s) && this.hands[seat].includes('Q' + s);
  }

  // may this seat make a declaration action now? (the trick winner, before his lead)
  atDeclMoment(seat) {
    if (this.phase !== 'play' || this.table.length || seat !== this.toAct) return false;
    return this.trick > 1 || FAULT === 'declare-first-trick';
  }

  // [rule, why] or null, for marriage:S (notrump: declining to make trump)
  whyNotMarriage(seat, s, notrump) {
    if (!this.atDeclMoment(seat)) return [R('decl.who'), 'only the trick winner, before his lead'];
    if (this.turn.acted && !(this.turn.failedAsk && this.o.failed_ask === 'may_declare')) {
      return [R('decl.per-trick'), 'one declaration action a trick'];
    }
    if (!this.hasMarriage(seat, s)) return [R('decl.marriage'), 'king and queen must be held'];
    if (this.declaredSuit(s)) return [R('decl.once'), 'once a suit in a hand'];
    const trumpSet = this.trump !== null && FAULT !== 'notrump-with-trump';
    if (notrump && (!this.o.trump_choice || trumpSet)) {
      return [R('decl.trump'), 'no choice of trump now'];
    }
    return null;
  }

  // an ask is refused under its own rule (marjapussi.ask.any, marjapussi.ask.half),
  // whether it is the moment, the seat or the cards that are wrong; only a trick
  // winner whose declaration action is spent is refused under marjapussi.decl.per-trick
  whyNotAsk(seat, kind, s) {
    const own = kind === 'half' ? R('ask.half') : R('ask.any');
    const asDecl = FAULT === 'ask-refused-as-declaration';
    if (!this.atDeclMoment(seat)) {
      return [asDecl ? R('decl.who') : own, 'only the trick winner, before his lead'];
    }
    if (this.turn.acted) return [R('decl.per-trick'), 'one declaration action a trick'];
    if (kind === 'half') {
      const h = this.hands[seat];
      if (h.includes('K' + s) === h.includes('Q' + s)) {
        return [own, 'hold the king or the queen, not both'];
      }
      if (this.declaredSuit(s) && FAULT !== 'half-yes-when-declared') {
        return [asDecl ? R('decl.once') : own, 'once a suit in a hand'];
      }
    }
    return null;
  }

  // the answers the asked partner may give
  answers() {
    const { asker, kind, suit: s } = this.ask;
    const p = partnerOf(asker);
    const truthful = this.o.answers === 'truthful';
    if (kind === 'partner') {
      const yes = SUITS.filter((x) => this.hasMarriage(p, x) && !this.declaredSuit(x))
        .map((x) => 'yes:' + x);
      if (FAULT === 'one-answer') yes.splice(1);
      return yes.length && truthful ? yes : yes.concat(['no']);
    }
    const other = (this.hands[asker].includes('K' + s) ? 'Q' : 'K') + s;
    const has = this.hands[p].includes(other);
    if (!has) return ['no'];
    return truthful ? ['yes'] : ['yes', 'no'];
  }

  whyNotCard(seat, card) {
    const hand = this.hands[seat];
    if (this.table.length === 0) {
      if (this.o.first_lead && (this.trick === 1 || FAULT === 'first-lead-every-hand-lead')) {
        const aces = hand.filter((c) => rank(c) === 'A');
        const spades = hand.filter((c) => suit(c) === 'S');
        const want = aces.length || FAULT === 'first-lead-aces-only' ? aces : spades;
        if (want.length && !want.includes(card)) {
          return [R('lead.first-card'), 'lead an ace, else a spade'];
        }
      }
      return null;
    }
    const led = suit(this.table[0][1]);
    const follow = hand.filter((c) => suit(c) === led);
    if (follow.length) {
      if (suit(card) !== led) return [R('play.follow'), 'follow suit'];
      const trumped = this.table.some((t) => suit(t[1]) === this.trump && this.trump !== led);
      if (this.o.must_beat && !(trumped && FAULT === 'beat-until-trumped')) {
        const best = this.table.map((t) => t[1]).filter((c) => suit(c) === led)
          .reduce((a, b) => (higher(b, a) ? b : a));
        if (follow.some((c) => higher(c, best)) && !higher(card, best)) {
          return [R('play.beat'), 'beat the best card of the suit'];
        }
      }
      return null;
    }
    const trumps = this.trump ? hand.filter((c) => suit(c) === this.trump) : [];
    if (trumps.length && suit(card) !== this.trump && FAULT !== 'no-trump-duty') {
      return [R('play.trump'), 'trump when void'];
    }
    return null;
  }

  legal(seat) {
    if (this.phase === 'deal' || this.phase === 'over' || seat !== this.toAct) return [];
    if (this.phase === 'answer') return this.answers();
    const acts = [];
    if (this.atDeclMoment(seat)) {
      for (const s of SUITS) {
        if (!this.whyNotMarriage(seat, s, false)) acts.push('marriage:' + s);
        if (!this.whyNotMarriage(seat, s, true)) acts.push(`marriage:${s}:notrump`);
      }
      if (!this.whyNotAsk(seat, 'partner')) acts.push('ask:partner');
      for (const s of SUITS) if (!this.whyNotAsk(seat, 'half', s)) acts.push('ask:half:' + s);
    }
    return acts.concat(this.hands[seat].filter((c) => !this.whyNotCard(seat, c)));
  }

  apply(seat, action) {
    const kind = parseAction(action, this.pack());
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    if (kind.word === 'callout') throw illegal('core.phase', 'no calling out in Marjapussi');
    if (seat !== this.toAct) throw illegal('core.turn', `seat ${this.toAct} is to act`);
    const answering = this.phase === 'answer';
    switch (kind.word) {
      case 'card': {
        if (answering) throw illegal('core.phase', 'an ask waits for its answer');
        if (!this.hands[seat].includes(action)) throw illegal('core.hand', `no ${action} in the hand`);
        const why = this.whyNotCard(seat, action);
        if (why) throw illegal(why[0], why[1]);
        return this.play(seat, action);
      }
      case 'marriage': {
        if (answering) throw illegal('core.phase', 'an ask waits for its answer');
        const why = this.whyNotMarriage(seat, kind.suit, kind.notrump);
        if (why) throw illegal(why[0], why[1]);
        this.turn.acted = true;
        this.turn.failedAsk = false;     // the declaration given back by a failed ask is used
        return this.declare(seat, kind.suit, !kind.notrump);
      }
      case 'ask': {
        if (answering) throw illegal('core.phase', 'an ask waits for its answer');
        const why = this.whyNotAsk(seat, kind.kind, kind.suit);
        if (why) throw illegal(why[0], why[1]);
        this.turn.acted = true;
        this.ask = { asker: seat, kind: kind.kind, suit: kind.suit || null };
        this.phase = 'answer';
        this.toAct = partnerOf(seat);
        return null;
      }
      case 'yes': case 'no': {
        if (!answering) throw illegal('core.phase', 'no ask waits for an answer');
        const named = FAULT === 'half-yes-names-suit' && this.ask.kind === 'half'
          && action === 'yes:' + this.ask.suit && this.answers().includes('yes');
        if (!this.answers().includes(action) && !named) {
          throw illegal(this.ask.kind === 'partner' ? R('ask.answer') : R('ask.half.answer'),
            'not a true answer');
        }
        const { asker, kind: k, suit: s } = this.ask;
        this.ask = null;
        this.phase = 'play';
        this.toAct = asker;
        if (action === 'no') { this.turn.failedAsk = true; return null; }
        if (named) return this.declare(asker, s, true);
        // a marriage named in answer is the partner's; a completed half is the asker's
        return k === 'partner' ? this.declare(seat, kind.suit, true) : this.declare(asker, s, true);
      }
      default:                                  // pass, callout, exchange, close, claim, ...
        throw illegal('core.phase', `no ${action} in Marjapussi now`);
    }
  }

  pack() {
    const out = { 36: [], 32: ['6'], 28: ['6', '7'] }[this.o.pack_size];
    return FULL_PACK.filter((c) => !out.includes(rank(c)));
  }

  declare(seat, s, mayMakeTrump) {
    const makesTrump = mayMakeTrump && this.trump === null;
    if (makesTrump) this.trump = s;
    const two = makesTrump || (!mayMakeTrump && FAULT === 'notrump-worth-two');
    this.declared.push([seat, 'marriage', s, two ? 2 : 1]);
    return null;
  }

  play(seat, card) {
    remove(this.hands[seat], card);
    this.table.push([seat, card]);
    if (this.table.length < SEATS) { this.toAct = (seat + 1) % SEATS; return null; }
    const led = suit(this.table[0][1]);
    let best = this.table[0];
    for (const t of this.table.slice(1)) {
      const c = t[1];
      const b = best[1];
      const wins = suit(c) === suit(b) ? higher(c, b) : suit(c) === this.trump;
      if (wins) best = t;
    }
    void led;
    const winner = best[0];
    this.tricksWon[team(winner)] += 1;
    this.cardPoints[team(winner)] += this.table.reduce((a, t) => a + this.cardValue(t[1]), 0);
    this.lastWinner = winner;
    if (this.hands.every((h) => h.length === 0)) return this.endHand();
    this.table = [];
    this.trick += 1;
    this.leader = winner;
    this.toAct = winner;
    this.turn = { acted: false, failedAsk: false };
    return null;
  }

  endHand() {
    const cp = this.cardPoints;
    const score = [0, 0];
    const threshold = THRESHOLD[this.o.point_system];
    const over = FAULT === 'threshold-over' ? 1 : 0;
    for (const t of [0, 1]) if (cp[t] >= threshold + over) score[t] += 1;
    for (const d of this.declared) score[team(d[0])] += d[3];
    score[team(this.lastWinner)] += 1;
    if (this.o.majority_point === 'separate' && cp[0] !== cp[1]) score[cp[0] > cp[1] ? 0 : 1] += 1;
    this.scores[0] += score[0];
    this.scores[1] += score[1];
    this.lastHand = { number: this.handNo, points: cp.slice(), score, ended: 'played_out', winner: null };
    const [a, b] = this.scores;
    const target = this.o.target;
    if (a >= target || b >= target) {
      if (a !== b) {
        this.result = { winner: a > b ? 0 : 1, reason: 'target', scores: this.scores.slice() };
        this.phase = 'over';
        return null;
      }
      if (FAULT === 'tie-first-wins') {
        this.result = { winner: 0, reason: 'target', scores: this.scores.slice() };
        this.phase = 'over';
        return null;
      }
      if (this.o.tie === 'draw') {
        this.result = { winner: null, reason: 'tie', scores: this.scores.slice() };
        this.phase = 'over';
        return null;
      }
    }
    const acDeals = this.o.ace_of_clubs && FAULT !== 'ace-of-clubs-no-deal';
    this.dealer = acDeals && this.handNo === 1 ? this.acHolder : (this.dealer + 1) % SEATS;
    this.phase = 'deal';
    return null;
  }

  resign(seat) {
    this.result = { winner: 1 - team(seat), reason: 'resign', scores: this.scores.slice() };
    this.phase = 'over';
  }

  state() {
    const inHand = this.phase !== 'deal' && this.phase !== 'over';
    return {
      type: 'state',
      phase: this.phase,
      hand: this.handNo,
      trick: inHand ? this.trick : 0,
      dealer: this.dealer,
      leader: inHand ? this.leader : null,
      to_act: inHand ? this.toAct : null,
      trump: inHand ? this.trump : null,
      turn_up: null,
      table: inHand ? this.table : [],
      stock: 0,
      hands: inHand ? this.hands : [[], [], [], []],
      declared: inHand ? this.declared : [],
      tricks_won: inHand ? this.tricksWon : [0, 0],
      hand_points: inHand ? this.cardPoints : [0, 0],
      match_scores: this.scores,
      segni: [0, 0],
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
    };
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of Marjapussi
function parseAction(text, pack) {
  if (pack.includes(text)) return { word: 'card' };
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline'];
  if (words.includes(text)) return { word: text };
  let m = /^marriage:([HDCS])(:notrump)?$/.exec(text);
  if (m) return { word: 'marriage', suit: m[1], notrump: !!m[2] };
  if (text === 'ask:partner') return { word: 'ask', kind: 'partner' };
  m = /^ask:half:([HDCS])$/.exec(text);
  if (m) return { word: 'ask', kind: 'half', suit: m[1] };
  m = /^yes:([HDCS])$/.exec(text);
  if (m) return { word: 'yes', suit: m[1] };
  m = /^exchange:(..)$/.exec(text);
  if (m && pack.includes(m[1])) return { word: 'exchange', card: m[1] };
  throw new Refusal('bad_action', null, `not an action of marjapussi: ${JSON.stringify(text)}`);
}

// ---------------------------------------------------------------------------
// Requests

let match = null;
const HOUSE = [];   // --house (repeatable): the configurations declared in hello

function hello() {
  const options = {};
  for (const [name, [type, dflt, range]] of Object.entries(OPTIONS)) {
    options[name] = { type, default: dflt };
    if (type === 'enum') options[name].values = range;
    if (type === 'int') [options[name].min, options[name].max] = range;
  }
  const reply = {
    type: 'hello', engine: 'marjapussi-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets: { marjapussi: { options } },
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map((options) => ({ ruleset: 'marjapussi', options }));
  }
  return reply;
}

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < SEATS;

function checkDeck(deck, options) {
  if (!Array.isArray(deck) || !deck.every((c) => typeof c === 'string')) {
    throw badRequest('deck must be a list of cards');
  }
  const out = { 36: [], 32: ['6'], 28: ['6', '7'] }[options.pack_size];
  const pack = FULL_PACK.filter((c) => !out.includes(rank(c)));
  const whole = deck.length === pack.length && new Set(deck).size === pack.length;
  if (!whole || !deck.every((c) => pack.includes(c))) {
    throw illegal('core.deal', 'the deck must hold every card of the pack once');
  }
}

function checkFirstPlayer(req) {
  const fp = req.first_player;
  if (fp === undefined || fp === null) return;
  if (typeof fp !== 'number') throw badRequest('first_player must be a number or null');
  throw illegal('core.deal', 'Marjapussi has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  if (req.ruleset !== 'marjapussi') throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const options = {};
  for (const [name, [, dflt]] of Object.entries(OPTIONS)) options[name] = dflt;
  for (const [name, value] of Object.entries(given)) {
    const spec = OPTIONS[name];
    if (!spec) throw new Refusal('unsupported', null, `unknown option ${name}`);
    const [type, , range] = spec;
    if (type === 'bool' && typeof value !== 'boolean') throw badRequest(`${name} is true or false`);
    if (type === 'int' && !Number.isInteger(value)) throw badRequest(`${name} is a whole number`);
    const outside = type === 'int' ? value < range[0] || value > range[1]
      : type === 'enum' && !range.includes(value);
    if (outside) throw new Refusal('unsupported', null, `${name}=${value} not supported`);
    options[name] = value;
  }
  if (!isSeat(req.dealer)) throw badRequest('dealer must be a seat');
  checkDeck(req.deck, options);
  checkFirstPlayer(req);
  match = new Match(options, req.dealer, req.deck);
  return { type: 'ok' };
}

function needMatch() {
  if (!match) throw new Refusal('no_match', null, 'no match has been started');
  return match;
}

function seatOf(req, m) {
  if (req.seat === undefined || req.seat === null) {           // the seat to act
    return m.phase === 'deal' || m.phase === 'over' ? null : m.toAct;
  }
  if (!isSeat(req.seat)) throw badRequest('seat must be 0 .. 3');
  return req.seat;
}

// choose: a plain player: a true answer, a marriage, else the cheapest legal card
function choose(req) {
  const m = needMatch();
  const within = (x, lo, hi) => x === undefined || (Number.isInteger(x) && x >= lo && x <= hi);
  if (!within(req.budget_ms, 1, 60000)) throw badRequest('budget_ms: 1 .. 60000');
  if (!within(req.seed, 0, 2 ** 64 - 1)) throw badRequest('seed: 0 .. 2^64 - 1');
  if (m.phase === 'over') throw illegal('core.over', 'the match is over');
  if (m.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
  if (seatOf(req, m) !== m.toAct) throw illegal('core.turn', 'not to act');
  const seat = m.toAct;
  const acts = m.legal(seat);
  const decl = acts.find((a) => a.startsWith('yes') || /^marriage:.$/.test(a));
  const cards = acts.filter((a) => FULL_PACK.includes(a));
  cards.sort((x, y) => m.cardValue(x) - m.cardValue(y));
  return { type: 'choose', seat, action: decl || cards[0] || acts[0] };
}

function handle(req) {
  switch (req.type) {
    case 'hello': return hello();
    case 'start': return start(req);
    case 'quit': return { type: 'bye' };
    case 'state': return needMatch().state();
    case 'legal': {
      const m = needMatch();
      const seat = seatOf(req, m);
      return { type: 'legal', seat, actions: seat === null ? [] : m.legal(seat) };
    }
    case 'apply': {
      const m = needMatch();
      if (typeof req.action !== 'string') throw badRequest('apply needs a string action');
      const seat = seatOf(req, m);
      m.apply(seat === null ? -1 : seat, req.action);
      return { type: 'ok' };
    }
    case 'deal': {
      const m = needMatch();
      if (m.phase === 'over') throw illegal('core.over', 'the match is over');
      if (m.phase !== 'deal') throw illegal('core.phase', 'a hand is in progress');
      checkDeck(req.deck, m.o);
      checkFirstPlayer(req);
      m.deal(req.deck);
      return { type: 'ok' };
    }
    case 'resign': {
      const m = needMatch();
      if (!isSeat(req.seat)) throw badRequest('seat must be 0 .. 3');
      if (m.phase === 'over') throw illegal('core.over', 'the match is over');
      m.resign(req.seat);
      return { type: 'ok' };
    }
    case 'choose': return choose(req);
    default: throw new Refusal('unknown_type', null, `no request ${JSON.stringify(req.type)}`);
  }
}

// ---------------------------------------------------------------------------
// Strict JSON (RFC 8259): JSON.parse takes 1e999 as Infinity and keeps the last of two
// equal names, so the lines are read by this small parser instead.

class JFloat { constructor(v) { this.v = v; } toJSON() { return this.v; } }

// (read by char codes, with one sticky expression each for numbers and strings made once,
// and a plain string without escapes taken as it is: a fifth of the engine's time a
// request went to this parser, thirty-third session)
const NUMBER = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const STRING = /"((?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*)"/y;

function parseJSON(text) {
  let i = 0;
  const fail = (why) => { throw new Error(`${why} at ${i}`); };
  const ws = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return;
      i++;
    }
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const obj = {}; ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws(); if (text[i] !== '"') fail('name expected');
        const k = string();
        if (Object.prototype.hasOwnProperty.call(obj, k)) fail(`name ${k} given twice`);
        ws();
        if (text[i++] !== ':') fail(': expected');
        const v = value();
        // defineProperty: a name such as __proto__ is kept as a plain field
        if (k === '__proto__') {
          Object.defineProperty(obj, k,
            { value: v, enumerable: true, writable: true, configurable: true });
        } else obj[k] = v;
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] === '}') return obj;
        fail(', or } expected');
      }
    }
    if (c === '[') {
      i++; const arr = []; ws();
      if (text[i] === ']') { i++; return arr; }
      for (;;) {
        arr.push(value()); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i++] === ']') return arr;
        fail(', or ] expected');
      }
    }
    if (c === '"') return string();
    if (c === 't' && text.startsWith('true', i)) { i += 4; return true; }
    if (c === 'f' && text.startsWith('false', i)) { i += 5; return false; }
    if (c === 'n' && text.startsWith('null', i)) { i += 4; return null; }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m || !m[0]) fail('value expected');
    i += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) fail('number too large');
    return m[2] || m[3] ? new JFloat(n) : n;
  };
  const string = () => {
    STRING.lastIndex = i;
    const m = STRING.exec(text);
    if (!m) fail('bad string');
    i = STRING.lastIndex;
    return m[1].includes('\\') ? JSON.parse(m[0]) : m[1];
  };
  const v = value(); ws();
  if (i !== text.length) fail('extra text');
  return v;
}

// ---------------------------------------------------------------------------
// The protocol loop: lines of bytes, at most 1 MiB each, checked as UTF-8

const utf8 = new TextDecoder('utf-8', { fatal: true });

function answer(line) {
  let text;
  try { text = utf8.decode(line); } catch (e) { return error('bad_json', 'not UTF-8'); }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (/^[ \t]*$/.test(text)) return null;              // blank: never answered
  let req;
  try { req = parseJSON(text); } catch (e) { return error('bad_json', e.message); }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    return error('bad_json', 'not a JSON object');
  }
  const id = Object.prototype.hasOwnProperty.call(req, 'id') ? { id: req.id } : {};
  if (typeof req.type !== 'string') return { ...error('bad_request', 'no string type'), ...id };
  try {
    return { ...handle(req), ...id };
  } catch (e) {
    if (e instanceof Refusal) {
      return { ...error(e.code, e.message), ...(e.rule ? { rule: e.rule } : {}), ...id };
    }
    return { ...error('internal_error', String(e && e.stack)), ...id };
  }
}

function error(code, message) { return { type: 'error', code, message }; }

function send(obj) { if (obj) process.stdout.write(JSON.stringify(obj) + '\n'); }

function main() {
  const args = process.argv.slice(2);
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '--list-faults') {
      for (const [name, what] of Object.entries(FAULTS)) console.log(`${name}: ${what}`);
      return;
    }
    if (args[k] === '--fault') FAULT = args[++k];
    if (args[k] === '--house') {
      const house = {};
      for (const pair of args[++k].split(',')) {    // NAME=V, NAME=V1|V2 or NAME=MIN..MAX
        const [name, v] = pair.split('=');
        const type = (OPTIONS[name] || [])[0];
        const numeric = type === 'int' || (type === 'enum' && typeof OPTIONS[name][2][0] === 'number');
        const typed = (x) => (numeric ? Number(x) : type === 'bool' ? x === 'true' : x);
        const range = /^(\d+)\.\.(\d+)$/.exec(v);
        if (range) house[name] = { min: Number(range[1]), max: Number(range[2]) };
        else if (v.includes('|')) house[name] = { values: v.split('|').map(typed) };
        else house[name] = typed(v);
      }
      HOUSE.push(house);
    }
  }
  if (FAULT && !FAULTS[FAULT]) { console.error(`unknown fault ${FAULT}`); process.exit(2); }
  let parts = [];       // the pieces of the current line
  let size = 0;
  let tooLong = false;
  process.stdin.on('data', (chunk) => {
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(10, from);
      const piece = chunk.subarray(from, nl < 0 ? chunk.length : nl);
      if (!tooLong) {
        size += piece.length;
        if (size > MAX_LINE + 1) { tooLong = true; parts = []; } else parts.push(piece);
      }
      if (nl < 0) break;
      if (tooLong) send(error('bad_json', 'line longer than 1 MiB'));
      else {
        const line = Buffer.concat(parts);
        const body = line.length > MAX_LINE && line[line.length - 1] !== 13 ? null : line;
        const reply = body ? answer(body) : error('bad_json', 'line longer than 1 MiB');
        send(reply);
        if (reply && reply.type === 'bye') process.exit(0);
      }
      parts = []; size = 0; tooLong = false; from = nl + 1;
    }
  });
  process.stdin.on('end', () => {
    if (tooLong) send(error('bad_json', 'line longer than 1 MiB'));
    else if (size) send(answer(Buffer.concat(parts)));
    process.exit(0);
  });
}

main();
