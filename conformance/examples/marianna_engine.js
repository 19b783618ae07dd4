#!/usr/bin/env node
// A Marianna-family engine in plain Node.js, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst, the rulebooks of `mariage rules RULESET` and
// spec/marianna.yaml, marianna-2.yaml, marianna-3.yaml, marianna-siciliana.yaml,
// cinquecento.yaml and cinquecento-siciliana.yaml as data): one file, no dependencies.
// It speaks the engine protocol (version 2, without hidden cards) and plays the six
// rulesets of the family with every option value their specs offer.
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/marianna_engine.js" \
//       --require-rule-ids --min-coverage 100
//   mariage conformance --engine "node conformance/examples/marianna_engine.js" \
//       --derived --ruleset marianna-siciliana -o split_spoiled_by=never --min-coverage 100
//
// The first runs the stored suite (the six rulesets and the protocol tests; the others
// are skipped as not supported), the second the suite derived for one set of house
// rules. "--house [RULESET:]NAME=VALUE,..." (repeatable; a value may be V1|V2, quoted
// inside the engine command, or MIN..MAX; RULESET defaults to marianna) declares that
// configuration in the hello, for
//
//   mariage conformance --engine "node conformance/examples/marianna_engine.js \
//       --house cinquecento:mariannino=true,target=300" --declared
//
// "--fault MODE" (or MARIANNA_FAULT=MODE) plants one mistake, so that you can see what
// the runner says about it; "--list-faults" lists them. It answers "choose" too, so
// "mariage match marianna --engine A=... --bot B=greedy" plays it.
'use strict';

// ---------------------------------------------------------------------------
// The family's data (spec/marianna.yaml and the five specs that extend it)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', '3', 'K', 'Q', 'J', '7', '6', '5', '4', '2'];   // high to low
const POINTS = { A: 11, 3: 10, K: 4, Q: 3, J: 2 };
const FULL_PACK = SUITS.flatMap((s) => RANKS.map((r) => r + s));
const MAX_LINE = 1 << 20;
const HAND_SIZE = 5;

// options: name -> [type, default, values or [min, max]]
const MARIANNA_OPTIONS = {
  target: ['int', 501, [1, 10000]],
  marianna_values: ['enum', '40-60-80-100', ['40-60-80-100', '20-40-60-80']],
  declare_when: ['enum', 'on_turn', ['on_turn', 'trick_start']],
  declare_who: ['enum', 'anyone', ['anyone', 'leader']],
  combination_window: ['enum', 'declarations', ['declarations', 'any_trick']],
  first_fixes_trump: ['bool', false],
  trick_six: ['bool', false],
  mariannino_value: ['enum', 'fixed', ['fixed', 'next_plus_200']],
  combination_once: ['bool', false],
  tie: ['enum', 'play_on', ['play_on', 'draw']],
};
const SPLIT_OPTIONS = {
  split_order: ['enum', 'first', ['first', 'outside']],
  split_spoiled_by: ['enum', 'opponent', ['opponent', 'any', 'never']],
  split_ask: ['enum', 'uses_turn', ['uses_turn', 'may_declare']],
  split_window: ['enum', 'stock', ['stock', 'no_trump']],
};
const CINQUECENTO_OPTIONS = {
  target: ['int', 500, [1, 10000]],
  declare_when: MARIANNA_OPTIONS.declare_when,
  declare_who: MARIANNA_OPTIONS.declare_who,
  trick_six: MARIANNA_OPTIONS.trick_six,
  tie: MARIANNA_OPTIONS.tie,
  mariannino: ['bool', false],
  mariannone: ['bool', false],
};

// What a ruleset sets before its options: the settings the options then change.
const MARIANNA_BASE = {
  seats: 4, teams: [[0, 2], [1, 3]], removed: [], windowRule: 'marianna.decl.window',
  trumpRule: 'marianna.decl.trump',
  schedule: [40, 60, 80, 100], mariannaTrump: 'set', ninoTrump: 'set',
  nino: true, none: true, ask: false,
};
const CINQUECENTO_BASE = {
  ...MARIANNA_BASE, schedule: [40, 20, 20, 20], mariannaTrump: 'first_fixes',
  ninoTrump: 'first_fixes', nino: false, none: false, trumpRule: 'cinquecento.decl.trump',
};
const RULESETS = {
  marianna: { base: MARIANNA_BASE, options: MARIANNA_OPTIONS },
  'marianna-2': {
    base: { ...MARIANNA_BASE, seats: 2, teams: [[0], [1]], windowRule: 'marianna-2.decl.window' },
    options: MARIANNA_OPTIONS,
  },
  'marianna-3': {
    base: {
      ...MARIANNA_BASE, seats: 3, teams: [[0], [1], [2]], removed: ['2S'],
      windowRule: 'marianna-3.decl.window',
    },
    options: MARIANNA_OPTIONS,
  },
  'marianna-siciliana': {
    base: { ...MARIANNA_BASE, ask: true }, options: { ...MARIANNA_OPTIONS, ...SPLIT_OPTIONS },
  },
  cinquecento: { base: CINQUECENTO_BASE, options: CINQUECENTO_OPTIONS },
  'cinquecento-siciliana': {
    base: { ...CINQUECENTO_BASE, ask: true },
    options: { ...CINQUECENTO_OPTIONS, ...SPLIT_OPTIONS },
  },
};

// The options' effects on the settings (the `effects` of each spec's options).
function settings(ruleset, opt) {
  const s = { ...RULESETS[ruleset].base };
  const has = (name) => Object.prototype.hasOwnProperty.call(opt, name);
  s.pack = FULL_PACK.filter((c) => !s.removed.includes(c));
  s.target = opt.target;
  if (opt.marianna_values === '20-40-60-80') s.schedule = [20, 40, 60, 80];
  s.trickStart = opt.declare_when === 'trick_start';
  s.leaderOnly = opt.declare_who === 'leader';
  s.comboAnyTrick = opt.combination_window === 'any_trick';
  if (opt.first_fixes_trump) { s.mariannaTrump = 'first_fixes'; s.ninoTrump = 'first_fixes'; }
  s.trickSix = !!opt.trick_six;
  s.ninoPlus = opt.mariannino_value === 'next_plus_200' ? 200 : null;
  s.comboOncePerHand = !!opt.combination_once;
  s.tieDraws = opt.tie === 'draw';
  if (has('mariannino')) s.nino = opt.mariannino;
  if (has('mariannone')) s.none = opt.mariannone;
  if (s.ask) {
    s.splitOrdered = opt.split_order === 'first';
    s.spoiledBy = opt.split_spoiled_by;
    s.askUsesTurn = opt.split_ask === 'uses_turn';
    s.askWhileStock = opt.split_window === 'stock';
  }
  return s;
}

// The declarations: pattern of ranks, whether one suit, whose suit names it, rule IDs.
const DECLS = {
  marianna: { rule: 'marianna.decl.marianna', once: 'marianna.decl.once' },
  mariannino: {
    rule: 'marianna.decl.mariannino', once: 'marianna.decl.mariannino.once',
    trump: 'marianna.decl.mariannino.trump',
    whole: { Q: 4, K: 1 }, named: 'K',
  },
  mariannone: {
    rule: 'marianna.decl.mariannone', once: 'marianna.decl.mariannone.once',
    trump: 'marianna.decl.mariannone.trump',
    whole: { K: 4, Q: 1 }, named: 'Q',
  },
};
const SPLIT = 'ask:cover';
const SPLIT_VALUE = 20;

let FAULT = process.env.MARIANNA_FAULT || null;
const FAULTS = {
  'notrump-bad-action': 'a declaration declining the trump (marianna:H:notrump) is read as '
    + 'no action of the ruleset (marianna.decl.trump, cinquecento.decl.trump)',
  'notrump-before-once': 'a marianna declining the trump is refused under the trump rule '
    + 'before the once rule is judged (marianna.decl.once)',
  'mariannino-never-spoils': 'a mariannino that sets trump in the trick of a split never '
    + 'spoils it, as a marianna does (siciliana.split.spoiled)',
  'split-trump-overrides': 'a split that scores always makes its suit trump, even where the '
    + 'first trump of the hand stays (cinquecento.decl.trump)',
  'ask-in-window': 'under declare_when=trick_start the leader may ask for a split in the '
    + 'window, before every seat has spoken (core.phase)',
  'ask-trump-first': 'an ask after the asker\'s declaration in the trick is refused for the '
    + 'trump it set (siciliana.ask.cover) before the one declaration a trick '
    + '(marianna.decl.per-trick)',
  'close-before-turn': 'a word of another game (close) is refused with core.phase before '
    + 'the turn is judged, as a callout is (core.turn)',
};

// ---------------------------------------------------------------------------
// Cards and errors

const suit = (c) => c[1];
const rank = (c) => c[0];
const points = (c) => POINTS[rank(c)] || 0;
const higher = (a, b) => RANKS.indexOf(rank(a)) < RANKS.indexOf(rank(b));   // same suit
const other = { K: 'Q', Q: 'K' };

class Refusal extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', rule, message);
const badRequest = (message) => new Refusal('bad_request', null, message);

// ---------------------------------------------------------------------------
// A match

class Match {
  constructor(ruleset, options, dealer, deck) {
    this.ruleset = ruleset;
    this.s = settings(ruleset, options);
    this.n = this.s.seats;
    this.teamOf = [];
    this.s.teams.forEach((members, t) => members.forEach((seat) => { this.teamOf[seat] = t; }));
    this.nTeams = this.s.teams.length;
    this.dealer = dealer;
    this.handNo = 0;
    this.scores = new Array(this.nTeams).fill(0);
    this.lastHand = null;
    this.result = null;
    this.clearHand();
    this.deal(deck);
  }

  clearHand() {
    this.phase = this.result ? 'over' : 'deal';
    this.hands = Array.from({ length: this.n }, () => []);
    this.stock = [];
    this.trickNo = 0;
    this.leader = null;
    this.toAct = null;
    this.trump = null;
    this.table = [];
    this.declared = [];
    this.tricksWon = new Array(this.nTeams).fill(0);
    this.handPoints = new Array(this.nTeams).fill(0);
  }

  next(seat) { return (seat + 1) % this.n; }

  deal(deck) {
    this.handNo += 1;
    this.hands = Array.from({ length: this.n }, () => []);
    let k = 0;
    for (let i = 1; i <= this.n; i++) {       // one packet each, from the dealer's right
      const seat = (this.dealer + i) % this.n;
      this.hands[seat] = deck.slice(k, k + HAND_SIZE);
      k += HAND_SIZE;
    }
    this.stock = deck.slice(k);
    // the last trick with a draw after it: the stock over the seats
    this.drawTricks = this.stock.length / this.n;
    this.trump = null;
    this.trumpSet = false;
    this.declared = [];
    this.used = new Set();                    // declarations made: "name:suit" and "name"
    this.tricksWon = new Array(this.nTeams).fill(0);
    this.handPoints = new Array(this.nTeams).fill(0);
    this.phase = 'play';
    this.trickNo = 0;
    this.startTrick(this.next(this.dealer));
  }

  startTrick(leader) {
    this.trickNo += 1;
    this.leader = leader;
    this.toAct = leader;
    this.table = [];
    this.spoke = new Set();                   // seats that declared (or asked) in the trick
    this.setters = [];                        // seats whose marianna set trump in the trick
    this.asked = null;                        // {asker, partner, suit, yes}
    this.phase = 'play';
    if (this.s.trickStart && this.windowHeld()) { this.phase = 'window'; this.heard = 0; }
  }

  declOpen() { return this.trickNo <= this.drawTricks + (this.s.trickSix ? 1 : 0); }
  comboOpen() { return this.s.comboAnyTrick || this.declOpen(); }
  windowHeld() {
    return this.declOpen() || (this.s.comboAnyTrick && (this.s.nino || this.s.none));
  }
  enabled(name) { return name === 'marianna' || (name === 'mariannino' ? this.s.nino : this.s.none); }

  // ---- why an action is refused (null: it is legal)

  whyNotDeclare(seat, name, st, notrump) {
    const d = DECLS[name];
    if (this.s.trickStart && this.phase !== 'window') {
      return illegal('marianna.decl.who', 'declarations are made before the lead');
    }
    if (this.s.leaderOnly && (seat !== this.leader || this.table.length)) {
      return illegal('marianna.decl.leader-only', 'only the leader declares, before he leads');
    }
    const open = name === 'marianna' ? this.declOpen() : this.comboOpen();
    if (!open) return illegal(this.s.windowRule, 'the declarations are over for this hand');
    if (this.spoke.has(seat)) {
      return illegal('marianna.decl.per-trick', 'one declaration a trick');
    }
    const hand = this.hands[seat];
    if (d.whole) {
      const counts = {};
      for (const c of hand) counts[rank(c)] = (counts[rank(c)] || 0) + 1;
      const fits = hand.length === HAND_SIZE && Object.entries(d.whole).every(([r, k]) => counts[r] === k)
        && hand.includes(d.named + st);
      if (!fits) return illegal(d.rule, `no ${name} with that suit in hand`);
      const key = this.s.comboOncePerHand ? name : `${name}:${st}`;
      if (this.used.has(key)) return illegal(d.once, `${name} declared already`);
      if (notrump) return illegal(d.trump, 'the trump is not declined');
    } else {
      if (!hand.includes('K' + st) || !hand.includes('Q' + st)) {
        return illegal(d.rule, 'no king and queen of that suit in hand');
      }
      const early = FAULT === 'notrump-before-once';
      if (notrump && early) return illegal(this.s.trumpRule, 'the trump is not declined');
      if (this.used.has(`${name}:${st}`)) return illegal(d.once, 'that marianna was declared');
      if (notrump) return illegal(this.s.trumpRule, 'the trump is not declined');
    }
    return null;
  }

  whyNotAsk(seat, st) {
    const window = this.phase === 'window' && FAULT !== 'ask-in-window';
    if (this.phase === 'answer' || window) return illegal('core.phase', 'no ask now');
    const a = this.s;
    const stockOpen = this.trickNo <= this.drawTricks;
    const holds = ['K', 'Q'].filter((r) => this.hands[seat].includes(r + st)).length === 1;
    const no = () => illegal('siciliana.ask.cover', 'no split marriage may be asked for now');
    if (seat !== this.leader || this.table.length) return no();
    const spent = this.asked || (a.askUsesTurn && this.spoke.has(seat));
    if (spent && FAULT !== 'ask-trump-first') {
      return illegal('marianna.decl.per-trick', 'one ask, and one declaration, a trick');
    }
    if (this.trump !== null || (a.askWhileStock && !stockOpen)) return no();
    if (spent) return illegal('marianna.decl.per-trick', 'one ask, and one declaration, a trick');
    if (!holds) return no();
    return null;
  }

  whyNotCard(seat, card) {
    if (!this.hands[seat].includes(card)) return illegal('core.hand', 'not in the hand');
    const a = this.asked;
    if (a && a.yes) {
      const owed = seat === a.asker ? a.askerCard : seat === a.partner ? a.partnerCard : null;
      if (owed && card !== owed) return illegal('siciliana.ask.cover-play', `${owed} is owed`);
    }
    return null;
  }

  // the first broken rule of an action by a seat, or null
  whyNot(seat, text) {
    const act = this.parse(text);
    if (this.phase === 'over') return illegal('core.over', 'the match is over');
    if (this.phase === 'deal') return illegal('core.phase', 'no hand in progress');
    if (act.word === 'callout') return illegal('core.phase', 'no calling out in this game');
    if (seat !== this.toAct) return illegal('core.turn', 'not this seat\'s turn');
    if (act.word === 'generic') return illegal('core.phase', 'not in this game');
    if (this.phase === 'answer') {
      if (act.word !== 'yes' && act.word !== 'no') return illegal('core.phase', 'an answer is due');
      if (act.word === 'yes') {
        if (act.suit) return illegal('siciliana.ask.answer', 'yes, without a suit');
        const a = this.asked;
        if (!this.hands[seat].includes(a.partnerCard)) {
          return illegal('siciliana.ask.answer', 'yes only with the other card');
        }
      }
      return null;
    }
    if (act.word === 'yes' || act.word === 'no') return illegal('core.phase', 'no ask waiting');
    if (this.phase === 'window') {
      if (act.word === 'ask' && FAULT === 'ask-in-window') return this.whyNotAsk(seat, act.suit);
      if (act.word === 'card' || act.word === 'ask') return illegal('core.phase', 'declare or pass');
      if (act.word === 'pass') return null;
      return this.whyNotDeclare(seat, act.name, act.suit, act.notrump);
    }
    if (act.word === 'pass') return illegal('core.phase', 'no declaration window');
    if (act.word === 'card') return this.whyNotCard(seat, text);
    if (act.word === 'ask') return this.whyNotAsk(seat, act.suit);
    return this.whyNotDeclare(seat, act.name, act.suit, act.notrump);
  }

  // action text -> {word, ...}; throws bad_action for a text that is no action here
  parse(text) {
    if (this.s.pack.includes(text)) return { word: 'card' };
    if (['pass', 'yes', 'no'].includes(text)) return { word: text };
    if (text === 'callout') return { word: 'callout' };
    if (['close', 'claim', 'draw', 'decline'].includes(text)) {
      return { word: FAULT === 'close-before-turn' ? 'callout' : 'generic' };
    }
    let m = /^yes:([HDCS])$/.exec(text);
    if (m) return { word: 'yes', suit: m[1] };
    m = /^exchange:(..)$/.exec(text);
    if (m && this.s.pack.includes(m[1])) return { word: 'generic' };
    // NAME:S:notrump declines the trump: a declaration, refused by its trump rule here
    m = /^(marianna|mariannino|mariannone):([HDCS])(:notrump)?$/.exec(text);
    if (m && this.enabled(m[1]) && !(m[3] && FAULT === 'notrump-bad-action')) {
      return { word: 'declare', name: m[1], suit: m[2], notrump: !!m[3] };
    }
    m = /^ask:cover:([HDCS])$/.exec(text);
    if (m && this.s.ask) return { word: 'ask', suit: m[1] };
    throw new Refusal('bad_action', null, `not an action of ${this.ruleset}: ${JSON.stringify(text)}`);
  }

  candidates(seat) {
    const acts = [];
    for (const name of Object.keys(DECLS)) {
      if (this.enabled(name)) for (const st of SUITS) acts.push(`${name}:${st}`);
    }
    if (this.s.ask) for (const st of SUITS) acts.push(`ask:cover:${st}`);
    return acts.concat(this.hands[seat], ['pass', 'yes', 'no']);
  }

  legal(seat) {
    if (seat !== this.toAct || this.phase === 'deal' || this.phase === 'over') return [];
    return this.candidates(seat).filter((a) => this.whyNot(seat, a) === null);
  }

  // ---- doing an action

  apply(seat, text) {
    const why = this.whyNot(seat, text);
    if (why) throw why;
    const act = this.parse(text);
    if (act.word === 'card') this.play(seat, text);
    else if (act.word === 'declare') this.declare(seat, act.name, act.suit);
    else if (act.word === 'ask') this.ask(seat, act.suit);
    else if (act.word === 'yes' || act.word === 'no') this.answer(act.word === 'yes');
    else this.pass();
  }

  afterWindowTurn() {
    this.heard += 1;
    const everyone = this.s.leaderOnly ? 1 : this.n;
    if (this.heard >= everyone) { this.phase = 'play'; this.toAct = this.leader; }
    else this.toAct = this.next(this.toAct);
  }

  pass() { this.afterWindowTurn(); }

  orderIndex() {
    return this.declared.filter(([, name]) => name === 'marianna'
      || (name === SPLIT && this.s.splitOrdered)).length;
  }

  scheduleValue(k) {
    const sch = this.s.schedule;
    return sch[Math.min(k, sch.length - 1)];
  }

  setTrump(st, effect) {
    if (effect === 'none') return false;
    if (effect === 'first_fixes' && this.trumpSet) return false;
    this.trump = st;
    this.trumpSet = true;
    return true;
  }

  declare(seat, name, st) {
    const team = this.teamOf[seat];
    let value;
    if (name === 'marianna') value = this.scheduleValue(this.orderIndex());
    else if (name === 'mariannino') {
      value = this.s.ninoPlus === null ? 250 : this.scheduleValue(this.orderIndex()) + this.s.ninoPlus;
    } else value = 500;
    this.declared.push([seat, name, st, value]);
    this.handPoints[team] += value;
    this.used.add(`${name}:${st}`);
    this.used.add(name);
    this.spoke.add(seat);
    const effect = name === 'marianna' ? this.s.mariannaTrump
      : name === 'mariannino' ? this.s.ninoTrump : 'none';
    // a declaration that sets trump in the trick may spoil a split: a mariannino too
    const spoils = name === 'marianna' || FAULT !== 'mariannino-never-spoils';
    if (this.setTrump(st, effect) && spoils) this.setters.push(seat);
    if (name === 'mariannone') { this.endHand('match_won', team); return; }
    if (this.phase === 'window') this.afterWindowTurn();
  }

  ask(seat, st) {
    const r = ['K', 'Q'].find((x) => this.hands[seat].includes(x + st));
    const partner = this.s.teams[this.teamOf[seat]].find((p) => p !== seat);
    this.asked = {
      asker: seat, partner, suit: st, yes: false, askerCard: r + st, partnerCard: other[r] + st,
    };
    if (this.s.askUsesTurn) this.spoke.add(seat);
    this.phase = 'answer';
    this.toAct = partner;
  }

  answer(yes) {
    this.asked.yes = yes;
    this.phase = 'play';
    this.toAct = this.asked.asker;
  }

  // the trump in force now (at the trick's end), else the suit led: a card beats the best
  // so far if it is higher in that card's suit, or a trump over a card that is not
  winner() {
    let best = this.table[0];
    for (const entry of this.table.slice(1)) {
      const [, c] = entry;
      const b = best[1];
      if (suit(c) === suit(b) ? higher(c, b) : suit(c) === this.trump) best = entry;
    }
    return best[0];
  }

  play(seat, card) {
    this.hands[seat].splice(this.hands[seat].indexOf(card), 1);
    this.table.push([seat, card]);
    if (this.table.length < this.n) { this.toAct = this.next(seat); return; }
    const win = this.winner();
    const team = this.teamOf[win];
    this.tricksWon[team] += 1;
    this.handPoints[team] += this.table.reduce((sum, [, c]) => sum + points(c), 0);
    this.settleSplit(win);
    if (this.stock.length) {                  // the winner draws first, then in playing order
      for (let i = 0; i < this.n; i++) this.hands[(win + i) % this.n].push(this.stock.shift());
    }
    if (this.hands.every((h) => h.length === 0)) { this.endHand('played_out', null); return; }
    this.startTrick(win);
  }

  settleSplit(win) {
    const a = this.asked;
    if (!a || !a.yes) return;
    const team = this.teamOf[a.asker];
    if (this.teamOf[win] !== team) return;
    const spoilers = this.s.spoiledBy === 'never' ? []
      : this.setters.filter((p) => this.s.spoiledBy === 'any' || this.teamOf[p] !== team);
    if (spoilers.length) return;
    this.declared.push([win, SPLIT, a.suit, SPLIT_VALUE]);
    this.handPoints[team] += SPLIT_VALUE;
    this.setTrump(a.suit, FAULT === 'split-trump-overrides' ? 'set' : this.s.mariannaTrump);
  }

  endHand(ended, wonBy) {
    const score = this.handPoints.slice();
    score.forEach((p, t) => { this.scores[t] += p; });
    this.lastHand = { number: this.handNo, points: score.slice(), score, ended, winner: null };
    if (wonBy !== null) {
      this.result = { winner: wonBy, reason: 'match_won', scores: this.scores.slice() };
    } else {
      const top = Math.max(...this.scores);
      const leaders = this.scores.map((p, t) => (p === top ? t : -1)).filter((t) => t >= 0);
      if (top >= this.s.target) {
        if (leaders.length === 1) {
          this.result = { winner: leaders[0], reason: 'target', scores: this.scores.slice() };
        } else if (this.s.tieDraws) {
          this.result = { winner: null, reason: 'tie', scores: this.scores.slice() };
        }
      }
      if (!this.result) this.dealer = this.next(this.dealer);
    }
    this.clearHand();
  }

  resign(seat) {
    const winner = this.nTeams === 2 ? 1 - this.teamOf[seat] : null;
    this.result = { winner, reason: 'resign', scores: this.scores.slice() };
    this.clearHand();
  }

  state() {
    const inHand = this.phase !== 'deal' && this.phase !== 'over';
    return {
      type: 'state',
      phase: this.phase,
      hand: this.handNo,
      trick: inHand ? this.trickNo : 0,
      dealer: this.dealer,
      leader: inHand ? this.leader : null,
      to_act: inHand ? this.toAct : null,
      trump: inHand ? this.trump : null,
      turn_up: null,
      table: this.table.map((e) => e.slice()),
      stock: this.stock.length,
      hands: this.hands.map((h) => h.slice()),
      declared: this.declared.map((d) => d.slice()),
      tricks_won: this.tricksWon.slice(),
      hand_points: this.handPoints.slice(),
      match_scores: this.scores.slice(),
      segni: new Array(this.nTeams).fill(0),
      last_hand: this.lastHand,
      terminal: this.result !== null,
      result: this.result,
    };
  }
}

// ---------------------------------------------------------------------------
// Requests

let match = null;
const HOUSE = [];   // --house (repeatable): [ruleset, options] declared in hello

function optionTable(options) {
  const out = {};
  for (const [name, [type, dflt, range]] of Object.entries(options)) {
    out[name] = { type, default: dflt };
    if (type === 'enum') out[name].values = range;
    if (type === 'int') [out[name].min, out[name].max] = range;
  }
  return out;
}

function hello() {
  const rulesets = {};
  for (const [name, r] of Object.entries(RULESETS)) rulesets[name] = { options: optionTable(r.options) };
  const reply = {
    type: 'hello', engine: 'marianna-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets,
  };
  if (HOUSE.length) reply.configurations = HOUSE.map(([ruleset, options]) => ({ ruleset, options }));
  return reply;
}

function seatsOf(ruleset) { return RULESETS[ruleset].base.seats; }
const isSeatOf = (n) => (x) => Number.isInteger(x) && x >= 0 && x < n;

function checkDeck(deck, pack) {
  if (!Array.isArray(deck) || !deck.every((c) => typeof c === 'string')) {
    throw badRequest('deck must be a list of cards');
  }
  const whole = deck.length === pack.length && new Set(deck).size === pack.length;
  if (!whole || !deck.every((c) => pack.includes(c))) {
    throw illegal('core.deal', 'the deck must hold every card of the pack once');
  }
}

function checkFirstPlayer(req) {
  const fp = req.first_player;
  if (fp === undefined || fp === null) return;
  if (typeof fp !== 'number') throw badRequest('first_player must be a number or null');
  throw illegal('core.deal', 'the family has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  if (!Object.prototype.hasOwnProperty.call(RULESETS, req.ruleset)) {
    throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
  }
  const table = RULESETS[req.ruleset].options;
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const options = {};
  for (const [name, [, dflt]] of Object.entries(table)) options[name] = dflt;
  for (const [name, value] of Object.entries(given)) {
    const spec = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : null;
    if (!spec) throw new Refusal('unsupported', null, `unknown option ${name}`);
    const [type, , range] = spec;
    if (type === 'bool' && typeof value !== 'boolean') throw badRequest(`${name} is true or false`);
    if (type === 'int' && !Number.isInteger(value)) throw badRequest(`${name} is a whole number`);
    const outside = type === 'int' ? value < range[0] || value > range[1]
      : type === 'enum' && !range.includes(value);
    if (outside) throw new Refusal('unsupported', null, `${name}=${value} not supported`);
    options[name] = value;
  }
  if (!isSeatOf(seatsOf(req.ruleset))(req.dealer)) throw badRequest('dealer must be a seat');
  const pack = FULL_PACK.filter((c) => !RULESETS[req.ruleset].base.removed.includes(c));
  checkDeck(req.deck, pack);
  checkFirstPlayer(req);
  match = new Match(req.ruleset, options, req.dealer, req.deck);
  return { type: 'ok' };
}

function needMatch() {
  if (!match) throw new Refusal('no_match', null, 'no match has been started');
  return match;
}

function seatOf(req, m) {
  if (req.seat === undefined || req.seat === null) {
    return m.phase === 'deal' || m.phase === 'over' ? null : m.toAct;
  }
  if (!isSeatOf(m.n)(req.seat)) throw badRequest('seat must be a seat');
  return req.seat;
}

// choose: a plain player for `mariage match`: a declaration or a yes first, else the
// cheapest card that takes the trick when following, else the cheapest card
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
  const pick = () => {
    const word = acts.find((a) => a.includes(':') || a === 'yes');
    if (word) return word;
    const cards = acts.filter((a) => m.s.pack.includes(a));
    if (!cards.length) return acts[0];
    const value = (c) => points(c) + (suit(c) === m.trump ? 20 : 0);
    cards.sort((x, y) => value(x) - value(y));
    if (m.table.length) {
      const led = m.table[0][1];
      const win = cards.find((c) => (suit(c) === suit(led) ? higher(c, led) : suit(c) === m.trump));
      if (win) return win;
    }
    return cards[0];
  };
  return { type: 'choose', seat, action: pick() };
}

// A match's requests: each takes the match and the request; an answer or a refusal.
const ON_MATCH = {
  state: (m) => m.state(),
  legal: (m, req) => {
    const seat = seatOf(req, m);
    return { type: 'legal', seat, actions: seat === null ? [] : m.legal(seat) };
  },
  apply: (m, req) => {
    if (typeof req.action !== 'string') throw badRequest('apply needs a string action');
    const seat = seatOf(req, m);
    m.apply(seat === null ? -1 : seat, req.action);
  },
  deal: (m, req) => {
    if (m.phase !== 'deal') {
      throw illegal(m.phase === 'over' ? 'core.over' : 'core.phase', 'no deal is due');
    }
    checkDeck(req.deck, m.s.pack);
    checkFirstPlayer(req);
    m.deal(req.deck);
  },
  resign: (m, req) => {
    if (!isSeatOf(m.n)(req.seat)) throw badRequest('seat must be a seat');
    if (m.phase === 'over') throw illegal('core.over', 'the match is over');
    m.resign(req.seat);
  },
  choose: (m, req) => choose(req),
};

function handle(req) {
  if (req.type === 'hello') return hello();
  if (req.type === 'start') return start(req);
  if (req.type === 'quit') return { type: 'bye' };
  if (!Object.prototype.hasOwnProperty.call(ON_MATCH, req.type)) {
    throw new Refusal('unknown_type', null, `no request ${JSON.stringify(req.type)}`);
  }
  return ON_MATCH[req.type](needMatch(), req) || { type: 'ok' };
}

// ---------------------------------------------------------------------------
// Strict JSON (RFC 8259), read by hand: JSON.parse takes 1e999 for Infinity, keeps the
// last of two equal names and lets half a surrogate pair through.

class Num { constructor(v) { this.v = v; } toJSON() { return this.v; } }
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function readJSON(text) {
  let at = 0;
  const bad = (why) => { throw new Error(`${why} (column ${at + 1})`); };
  const skip = () => { while (at < text.length && ' \t\n\r'.includes(text[at])) at++; };
  const str = () => {
    const re = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) bad('bad string');
    at = re.lastIndex;
    const s = JSON.parse(m[0]);
    if (LONE.test(s)) bad('half a surrogate pair');
    return s;
  };
  const val = () => {
    skip();
    const c = text[at];
    if (c === '{') {
      at++;
      const obj = {};
      const names = new Set();
      skip();
      if (text[at] === '}') { at++; return obj; }
      for (;;) {
        skip();
        if (text[at] !== '"') bad('a name');
        const k = str();
        if (names.has(k)) bad(`the name ${k} twice`);
        names.add(k);
        skip();
        if (text[at++] !== ':') bad('a colon');
        Object.defineProperty(obj, k, { value: val(), enumerable: true, writable: true, configurable: true });
        skip();
        const sep = text[at++];
        if (sep === '}') return obj;
        if (sep !== ',') bad('a comma');
      }
    }
    if (c === '[') {
      at++;
      const arr = [];
      skip();
      if (text[at] === ']') { at++; return arr; }
      for (;;) {
        arr.push(val());
        skip();
        const sep = text[at++];
        if (sep === ']') return arr;
        if (sep !== ',') bad('a comma');
      }
    }
    if (c === '"') return str();
    for (const [w, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(w, at)) { at += w.length; return v; }
    }
    const m = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    m.lastIndex = at;
    const num = m.exec(text);
    if (!num) bad('a value');
    at = m.lastIndex;
    const v = Number(num[0]);
    if (!Number.isFinite(v)) bad('a number too large');
    return num[1] || num[2] ? new Num(v) : v;
  };
  const v = val();
  skip();
  if (at !== text.length) bad('text after the value');
  return v;
}

// ---------------------------------------------------------------------------
// The loop: lines of bytes, at most 1 MiB each, checked as UTF-8

const utf8 = new TextDecoder('utf-8', { fatal: true });
const error = (code, message) => ({ type: 'error', code, message });

function reply(bytes) {
  let text;
  try { text = utf8.decode(bytes); } catch (e) { return error('bad_json', 'not UTF-8'); }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (/^[ \t]*$/.test(text)) return null;
  let req;
  try { req = readJSON(text); } catch (e) { return error('bad_json', e.message); }
  if (req === null || typeof req !== 'object' || Array.isArray(req)) return error('bad_json', 'not an object');
  const id = Object.prototype.hasOwnProperty.call(req, 'id') ? { id: req.id } : {};
  if (typeof req.type !== 'string') return { ...error('bad_request', 'no string type'), ...id };
  try {
    return { ...handle(req), ...id };
  } catch (e) {
    if (e instanceof Refusal) return { ...error(e.code, e.message), ...(e.rule ? { rule: e.rule } : {}), ...id };
    return { ...error('internal_error', String(e && e.stack)), ...id };
  }
}

const send = (obj) => { if (obj) process.stdout.write(JSON.stringify(obj) + '\n'); };

function parseHouse(arg) {                  // [RULESET:]NAME=V,NAME=V1|V2,NAME=MIN..MAX
  let ruleset = 'marianna';
  let body = arg;
  const m = /^([a-z0-9-]+):(.*)$/.exec(arg);
  if (m && RULESETS[m[1]]) [, ruleset, body] = m;
  const table = RULESETS[ruleset].options;
  const house = {};
  for (const pair of body.split(',')) {
    const [name, v] = pair.split('=');
    const type = (table[name] || [])[0];
    const typed = (x) => (type === 'int' ? Number(x) : type === 'bool' ? x === 'true' : x);
    const span = /^(\d+)\.\.(\d+)$/.exec(v);
    if (span) house[name] = { min: Number(span[1]), max: Number(span[2]) };
    else if (v.includes('|')) house[name] = { values: v.split('|').map(typed) };
    else house[name] = typed(v);
  }
  return [ruleset, house];
}

function main() {
  const args = process.argv.slice(2);
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '--list-faults') {
      for (const [name, what] of Object.entries(FAULTS)) console.log(`${name}: ${what}`);
      return;
    }
    if (args[k] === '--fault') FAULT = args[++k];
    if (args[k] === '--house') HOUSE.push(parseHouse(args[++k]));
  }
  if (FAULT && !FAULTS[FAULT]) { console.error(`unknown fault ${FAULT}`); process.exit(2); }
  let parts = [];
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
        const ok = line.length <= MAX_LINE || line[line.length - 1] === 13;
        const r = ok ? reply(line) : error('bad_json', 'line longer than 1 MiB');
        send(r);
        if (r && r.type === 'bye') process.exit(0);
      }
      parts = []; size = 0; tooLong = false; from = nl + 1;
    }
  });
  process.stdin.on('end', () => {
    if (tooLong) send(error('bad_json', 'line longer than 1 MiB'));
    else if (size) send(reply(Buffer.concat(parts)));
    process.exit(0);
  });
}

main();
