#!/usr/bin/env node
'use strict';
// A Thousand engine (three players) in plain Node.js, written from the user
// documentation alone (docs/protocol.rst, docs/conformance.rst, `mariage rules
// thousand` and spec/thousand.yaml): one file, no dependencies. It speaks the engine
// protocol (version 2, without hidden cards) and plays the ruleset "thousand" at its
// defaults, with the options listed in SUPPORTED at any value; every other option is
// declared in its hello at its default value only, so the runner skips tests that
// need another value ("option value not supported").
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/thousand_engine.js" \
//       --ruleset thousand
//   mariage conformance --engine "node conformance/examples/thousand_engine.js" \
//       --derived --ruleset thousand
//
// "--fault MODE" (or THOUSAND_FAULT=MODE) plants one mistake, so that you can see
// what the runner says about it; "--list-faults" lists them.

// ---------------------------------------------------------------------------
// The ruleset's data (spec/thousand.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J', '9'];        // high to low
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0 };
const PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
const SEATS = 3;
const HAND_SIZE = 7;
const TRICKS = 8;
const MAX_LINE = 1 << 20;

// options: name -> [type, default, values or [min, max]]
const OPTIONS = {
  target: ['int', 1000, [500, 1200]],
  bid_min: ['int', 100, [10, 400]],
  bid_step: ['int', 5, [5, 10]],
  bid_max: ['int', 400, [200, 1000]],
  round_to: ['int', 5, [1, 10]],
  barrel: ['bool', true],
  barrel_at: ['int', 880, [880, 1200]],
  bolt_condition: ['enum', 'no_tricks', ['no_tricks', 'zero_entry', 'off']],
  opening_bid: ['enum', 'fh_forced', ['fh_forced', 'fh_auto_100', 'dealer_auto_100', 'none']],
  dump_at_555: ['enum', 'off', ['off', 'positive', 'both']],
  win_rule: ['enum', 'at_least', ['at_least', 'more_than', 'exactly']],
  marriage_values: ['enum', 'standard', ['standard', 'spades_60']],
  redeal_dealer: ['enum', 'same', ['same', 'next']],
  jump_bids: ['bool', true],
  bid_cap: ['enum', 'marriage_required', ['marriage_required', 'marriage_sum', 'none']],
  silence_below: ['enum', 'off', ['off', -240, -120, 0]],
  musik_shown: ['enum', 'always', ['always', 'not_at_100', 'never']],
  exchange_face_up: ['bool', false],
  raise_allowed: ['bool', true],
  concede: ['enum', 'rospisat', ['rospisat', 'bomb', 'write_off', 'off']],
  concede_window: ['enum', 'before_exchange', ['before_exchange', 'before_first_lead']],
  concede_award: ['int', 60, [0, 400]],
  write_off_award: ['enum', 'sixty', ['sixty', 'half_bid']],
  concede_limit: ['int', 0, [0, 100]],
  must_trump: ['bool', true],
  must_beat: ['bool', false],
  no_lead_foreign_trump: ['bool', false],
  marriage_first_lead: ['bool', false],
  marriage_auto_declare: ['bool', false],
  trump_change: ['enum', 'immediate', ['immediate', 'next_trick']],
  trump_rule: ['enum', 'latest', ['latest', 'first']],
  round_mode: ['enum', 'nearest', ['nearest', 'down']],
  declarer_round_before_check: ['bool', false],
  barrel_clamp: ['bool', true],
  barrel_attempts: ['int', 3, [0, 100]],
  barrel_penalty: ['int', 120, [0, 1000]],
  barrel_collision: ['enum', 'knock_off', ['knock_off', 'coexist', 'all_fall']],
  barrel_fail_contract: ['enum', 'subtract_and_off', ['subtract_and_off', 'attempt_only']],
  barrel_three_falls_reset: ['bool', false],
  bolt_count: ['enum', 'total', ['total', 'consecutive']],
  bolt_limit: ['int', 3, [1, 10]],
  bolt_penalty: ['int', 120, [0, 1000]],
  declarer_bolts: ['bool', false],
  dump_value: ['int', 555, [1, 10000]],
  review_last_trick: ['bool', true],
  four_nines_redeal: ['enum', 'after_exchange',
    ['after_exchange', 'original_hand', 'before_bidding', 'off']],
  redeal_four_jacks: ['bool', false],
  redeal_low_hand: ['int', 0, [0, 60]],
  redeal_weak_prikup: ['int', 0, [0, 33]],
  redeal_two_nines_prikup: ['bool', false],
  prikup_redeal_only_at_100: ['bool', true],
  players: ['enum', 3, [2, 3, 4]],
  ace_marriage: ['int', 0, [0, 400]],
  ace_marriage_trump: ['enum', 'none', ['none', 'led_suit']],
  two_player_leftover: ['enum', 'last_trick', ['last_trick', 'nobody']],
  sitter_score: ['enum', 'none', ['none', 'aces_and_marriages', 'card_points']],
  sitter_ace_value: ['int', 50, [0, 200]],
  sitter_marriage: ['bool', false],
  sitter_half_marriage: ['bool', false],
  sitter: ['enum', 'dealer', ['dealer', 'dealer_right', 'opposite']],
  dark_bid: ['bool', false],
  dark_min_total: ['int', 240, [-1000, 1000]],
  golden_round: ['enum', 'off', ['off', 'fixed_120', 'min_bid_120']],
  golden_double: ['bool', true],
  golden_can_raise: ['bool', false],
  golden_reset_if_none: ['bool', false],
};

// the options this engine plays at any value they offer (others: the default only);
// an option changing only what a seat may look at is played at any value (nothing to
// do for an engine dealt every card)
const SUPPORTED = new Set([
  'target', 'bid_min', 'bid_step', 'bid_max', 'round_to', 'round_mode', 'jump_bids',
  'bid_cap', 'raise_allowed', 'must_trump', 'marriage_values', 'trump_rule',
  'barrel', 'barrel_at', 'barrel_penalty', 'barrel_attempts', 'bolt_limit',
  'bolt_penalty', 'bolt_count', 'declarer_bolts', 'concede_award', 'concede_limit',
  'redeal_dealer', 'review_last_trick', 'exchange_face_up', 'declarer_round_before_check',
]);

const FAULTS = {
  'first-marriage-trump': 'the first marriage of the hand stays trump (thousand.marriage.trump)',
  'bolt-on-barrel': 'a player on the barrel still collects bolts (thousand.running.bolts)',
  'bolt-in-concession': 'opponents of a concession get bolts (thousand.contract.concede)',
  'bolt-free': 'a completed set of bolts costs nothing (thousand.running.bolts)',
  'concede-free': 'every concession is free (thousand.contract.concede)',
  'barrel-no-clamp': 'a player reaching the barrel keeps his total (thousand.running.barrel)',
  'barrel-opponent-scores': 'an opponent on the barrel still scores (thousand.running.barrel)',
  'barrel-coexist': 'mounting the barrel knocks nobody off (thousand.running.barrel)',
  'tie-higher-total': 'of several reaching the target the higher total wins (thousand.match.tie)',
  'four-nines-dealt': 'only four nines dealt count for a throw-in (thousand.throw-in.four-nines)',
  'round-down': 'opponents are rounded down (thousand.score.sheet)',
  'declarer-overscore': 'a made contract scores the declarer\'s points (thousand.score.sheet)',
  'raise-no-cap': 'the raise ignores the bid cap (thousand.contract.raise)',
  'no-trump-duty': 'a player void in the suit led may discard (thousand.play.trump)',
  'redeal-next-dealer': 'a hand thrown in passes the deal on (thousand.running.redeal)',
  'concede-late': 'the declarer may concede after giving a card (thousand.contract.concede)',
  'win-more-than': 'a total must pass the target (thousand.running.win)',
  'bolt-declarer': 'a declarer without a trick gets a bolt (thousand.running.bolts)',
  'barrel-made-no-clamp': 'a contract made on the barrel short of the target is kept above '
    + 'the barrel (thousand.running.barrel)',
  'resign-best-other': 'a resignation gives the match to the better of the others '
    + '(core.resign)',
  'fall-at-zero': 'a fall from the barrel sets the total to 0 (thousand.running.barrel)',
};
const fault = (name) => FAULT === name;
let FAULT = process.env.THOUSAND_FAULT || null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const higher = (a, b) => RANKS.indexOf(rank(a)) < RANKS.indexOf(rank(b)); // same suit
const remove = (list, x) => list.splice(list.indexOf(x), 1);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

class Refusal extends Error {      // an error answer: code and, for illegal_action, rule
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', rule, message);
const badRequest = (message) => new Refusal('bad_request', null, message);

// ---------------------------------------------------------------------------
// The match

class Match {
  constructor(options, dealer, deck) {
    this.o = options;
    this.dealer = dealer;
    this.totals = [0, 0, 0];
    this.bolts = [0, 0, 0];
    this.onBarrel = [false, false, false];
    this.attempts = [0, 0, 0];
    this.concessions = [0, 0, 0];
    this.handNo = 0;
    this.lastHand = null;
    this.result = null;
    this.deal(deck);
  }

  marriageValue(s) {
    const v = { H: 100, D: 80, C: 60, S: 40 };
    if (this.o.marriage_values === 'spades_60') v.S = 60;
    return v[s];
  }

  deal(deck) {
    this.handNo += 1;
    this.hands = [[], [], []];
    for (let i = 0; i < SEATS * HAND_SIZE; i++) this.hands[(this.dealer + 1 + i) % SEATS].push(deck[i]);
    this.talon = deck.slice(SEATS * HAND_SIZE);
    this.dealt = this.hands.map((h) => h.slice());
    this.phase = 'auction';
    this.forehand = (this.dealer + 1) % SEATS;
    this.toAct = this.forehand;
    this.leader = this.forehand;
    this.trick = 0;
    this.table = [];
    this.trump = null;
    this.declared = [];
    this.tricksWon = [0, 0, 0];
    this.points = [0, 0, 0];
    this.highBid = 0;
    this.highBidder = null;
    this.passed = [false, false, false];
    this.spoken = [false, false, false];
    this.declarer = null;
    this.contract = 0;
    this.gives = 0;
    this.pending = null;          // the suit of a marriage declared at this lead
  }

  // --- what the rules allow -------------------------------------------------

  hasMarriage(seat) {
    return SUITS.some((s) => this.hands[seat].includes('K' + s) && this.hands[seat].includes('Q' + s));
  }

  cap(seat) {                    // the highest bid (or contract) the hand allows
    const o = this.o;
    if (o.bid_cap === 'none') return o.bid_max;
    if (o.bid_cap === 'marriage_sum') {
      const held = SUITS.filter((s) => this.hands[seat].includes('K' + s)
        && this.hands[seat].includes('Q' + s));
      return Math.min(o.bid_max, 120 + sum(held.map((s) => this.marriageValue(s))));
    }
    return this.hasMarriage(seat) ? o.bid_max : Math.min(o.bid_max, 120);
  }

  lowestBid() { return this.highBid ? this.highBid + this.o.bid_step : this.o.bid_min; }

  bidValues(seat) {
    const o = this.o;
    const out = [];
    const lo = this.lowestBid();
    const hi = o.jump_bids ? this.cap(seat) : Math.min(lo, this.cap(seat));
    for (let v = lo; v <= hi; v += o.bid_step) out.push(v);
    return out;
  }

  forcedOpening(seat) {         // (no duty where the hand allows no bid at all)
    return this.o.opening_bid === 'fh_forced' && seat === this.forehand && !this.spoken[seat]
      && this.bidValues(seat).length > 0;
  }

  raiseValues() {
    const out = [];
    if (!this.o.raise_allowed) return out;
    const hi = fault('raise-no-cap') ? this.o.bid_max : this.cap(this.declarer);
    for (let v = this.contract + this.o.bid_step; v <= hi; v += this.o.bid_step) out.push(v);
    return out;
  }

  beforeFirstLead() {
    return (this.phase === 'contract' || (this.phase === 'play' && this.trick === 1
      && this.table.length === 0));
  }

  mayThrowIn(seat) {
    if (this.o.four_nines_redeal !== 'after_exchange') return false;
    if (!this.beforeFirstLead()) return false;
    if (fault('four-nines-dealt')) return SUITS.every((s) => this.dealt[seat].includes('9' + s));
    return SUITS.every((s) => this.hands[seat].includes('9' + s));
  }

  mayConcede() {
    if (this.o.concede === 'off' || (this.gives > 0 && !fault('concede-late'))) return false;
    const limit = this.o.concede_limit;
    return !(limit && this.concessions[this.declarer] >= limit);
  }

  mayDeclare() {
    return this.table.length === 0 && this.pending === null
      && (this.trick > 1 || this.o.marriage_first_lead);
  }

  marriages(seat) {
    if (!this.mayDeclare()) return [];
    const done = new Set(this.declared.map((d) => d[2]));
    return SUITS.filter((s) => !done.has(s) && this.hands[seat].includes('K' + s)
      && this.hands[seat].includes('Q' + s));
  }

  cards(seat) {                  // the cards the seat may play now
    const hand = this.hands[seat];
    if (this.pending) return hand.filter((c) => suit(c) === this.pending && 'KQ'.includes(rank(c)));
    if (!this.table.length) return hand.slice();
    const led = suit(this.table[0][1]);
    const follow = hand.filter((c) => suit(c) === led);
    if (follow.length) return follow;
    if (this.o.must_trump && this.trump && !fault('no-trump-duty')) {
      const trumps = hand.filter((c) => suit(c) === this.trump);
      if (trumps.length) return trumps;
    }
    return hand.slice();
  }

  legal(seat) {
    if (this.phase === 'deal' || this.phase === 'over') return [];
    const redeal = this.mayThrowIn(seat) ? ['redeal'] : [];
    if (seat !== this.toAct) return redeal;
    if (this.phase === 'auction') {
      const acts = this.forcedOpening(seat) ? [] : ['pass'];
      return acts.concat(this.bidValues(seat).map((v) => `bid:${v}`));
    }
    if (this.phase === 'passing') {
      return (this.mayConcede() ? ['concede'] : [])
        .concat(this.hands[seat].map((c) => `give:${c}`));
    }
    if (this.phase === 'contract') {
      return ['keep'].concat(this.raiseValues().map((v) => `raise:${v}`), redeal);
    }
    return this.marriages(seat).map((s) => `marriage:${s}`).concat(this.cards(seat), redeal);
  }

  // --- actions ----------------------------------------------------------------

  apply(seat, text) {
    const a = parseAction(text);
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    if (a.word === 'redeal') {
      if (!this.mayThrowIn(seat)) throw illegal('thousand.throw-in', 'no claim to throw the hand in');
      return this.throwIn();
    }
    if (a.word === 'callout' || a.word === 'kontra') {    // any seat, any moment: none here
      throw illegal('core.phase', `no ${text} in thousand`);
    }
    if (seat !== this.toAct) throw illegal('core.turn', `seat ${this.toAct} is to act`);
    if (a.word === 'concede') {            // judged by its own rule in every phase
      if (this.phase !== 'passing' || !this.mayConcede()) {
        throw illegal('thousand.contract.concede', 'no concession now');
      }
      return this.concede();
    }
    const wrongPhase = () => illegal('core.phase', `${text} is not an action of phase ${this.phase}`);
    switch (this.phase) {
      case 'auction':
        if (a.word === 'pass') return this.pass(seat);
        if (a.word === 'bid') return this.bid(seat, a.value);
        throw wrongPhase();
      case 'passing':
        if (a.word === 'give') return this.give(seat, a.cards);
        if (a.word === 'concede') {
          if (!this.mayConcede()) throw illegal('thousand.contract.concede', 'no concession now');
          return this.concede();
        }
        throw wrongPhase();
      case 'contract':
        if (a.word === 'keep') return this.fixContract(this.contract);
        if (a.word === 'raise') {
          const v = a.value;
          if (!this.o.raise_allowed || v <= this.contract || v > this.o.bid_max
            || v % this.o.bid_step) {
            throw illegal('thousand.contract.raise', `no raise to ${v}`);
          }
          if (v > this.cap(seat) && !fault('raise-no-cap')) {
            throw illegal('thousand.auction.cap', `the hand allows no ${v}`);
          }
          return this.fixContract(a.value);
        }
        if (a.word === 'concede') throw illegal('thousand.contract.concede', 'too late to concede');
        throw wrongPhase();
      default:
        if (a.word === 'marriage') return this.declare(seat, a.suit);
        if (a.word === 'card') return this.play(seat, text);
        if ((a.word === 'keep' || a.word === 'raise') && seat === this.declarer
          && this.o.raise_allowed) {
          throw illegal('thousand.contract.raise', 'the contract is fixed');
        }
        if (a.word === 'concede') throw illegal('thousand.contract.concede', 'too late to concede');
        throw wrongPhase();
    }
  }

  pass(seat) {
    if (this.forcedOpening(seat)) throw illegal('thousand.auction.opening', 'forehand must open');
    this.passed[seat] = true;
    this.spoken[seat] = true;
    this.nextBidder(seat);
  }

  bid(seat, v) {
    const o = this.o;
    const lo = this.lowestBid();
    if (v < lo || v > o.bid_max || v % o.bid_step || (!o.jump_bids && v !== lo)) {
      throw illegal('thousand.auction.bids', `no bid of ${v} now`);
    }
    if (v > this.cap(seat)) throw illegal('thousand.auction.cap', `the hand allows no bid of ${v}`);
    this.highBid = v;
    this.highBidder = seat;
    this.spoken[seat] = true;
    this.nextBidder(seat);
  }

  nextBidder(seat) {
    if (this.passed.every(Boolean)) {          // nobody bid: thrown in, the deal passes on
      this.lastHand = { number: this.handNo, points: [0, 0, 0], score: [0, 0, 0], ended: 'redeal', winner: null };
      this.phase = 'deal';
      this.dealer = (this.dealer + 1) % SEATS;
      return;
    }
    if (sum(this.passed.map(Number)) >= SEATS - 1 && this.highBidder !== null) {
      const d = this.highBidder;
      this.declarer = d;
      this.contract = this.highBid;
      this.hands[d].push(...this.talon);
      this.talon = [];
      this.phase = 'passing';
      this.toAct = d;
      return;
    }
    let s = seat;
    do s = (s + 1) % SEATS; while (this.passed[s]);
    this.toAct = s;
  }

  give(seat, cards) {
    if (cards.length !== 1) throw illegal('thousand.exchange', 'one card to each opponent');
    const c = cards[0];
    // a card not in the hand breaks the exchange rule here, not core.hand
    if (!this.hands[seat].includes(c)) throw illegal('thousand.exchange', `${c} is not in the hand`);
    remove(this.hands[seat], c);
    this.hands[(seat + 1 + this.gives) % SEATS].push(c);
    this.gives += 1;
    if (this.gives < SEATS - 1) return;
    if (this.o.raise_allowed) this.phase = 'contract';
    else this.fixContract(this.contract);        // no raise: play starts at once
  }

  fixContract(v) {
    this.contract = v;
    this.phase = 'play';
    this.trick = 1;
    this.leader = this.declarer;
    this.toAct = this.declarer;
  }

  declare(seat, s) {
    if (this.table.length || (this.trick === 1 && !this.o.marriage_first_lead)) {
      throw illegal('thousand.marriage.who', 'only a trick winner declares, as he leads');
    }
    if (this.pending) throw illegal('thousand.marriage.per-lead', 'one marriage at a lead');
    const hand = this.hands[seat];
    if (!hand.includes('K' + s) || !hand.includes('Q' + s)) {
      throw illegal('thousand.marriage', `no marriage in ${s}`);
    }
    if (this.declared.some((d) => d[2] === s)) throw illegal('thousand.marriage.once', 'declared');
    const value = this.marriageValue(s);
    this.declared.push([seat, 'marriage', s, value]);
    this.points[seat] += value;
    if ((this.o.trump_rule === 'latest' && !fault('first-marriage-trump')) || this.trump === null) {
      this.trump = s;
    }
    this.pending = s;
  }

  play(seat, card) {
    const hand = this.hands[seat];
    if (!hand.includes(card)) throw illegal('core.hand', `${card} is not in the hand`);
    if (this.pending && !(suit(card) === this.pending && 'KQ'.includes(rank(card)))) {
      throw illegal('thousand.marriage.lead', 'lead the king or queen of the marriage');
    }
    if (this.table.length) {
      const led = suit(this.table[0][1]);
      if (suit(card) !== led) {
        if (hand.some((c) => suit(c) === led)) throw illegal('thousand.play.follow', 'follow suit');
        if (this.o.must_trump && this.trump && suit(card) !== this.trump && !fault('no-trump-duty')
          && hand.some((c) => suit(c) === this.trump)) {
          throw illegal('thousand.play.trump', 'play a trump');
        }
      }
    }
    remove(hand, card);
    this.table.push([seat, card]);
    this.pending = null;
    if (this.table.length < SEATS) {
      this.toAct = (seat + 1) % SEATS;
      return;
    }
    const w = this.trickWinner();
    this.tricksWon[w] += 1;
    this.points[w] += sum(this.table.map(([, c]) => POINTS[rank(c)]));
    this.table = [];
    if (this.trick === TRICKS) return this.scorePlayed();
    this.trick += 1;
    this.leader = w;
    this.toAct = w;
  }

  trickWinner() {
    const led = suit(this.table[0][1]);
    const key = (c) => (suit(c) === this.trump ? 2 : suit(c) === led ? 1 : 0);
    let best = this.table[0];
    for (const entry of this.table.slice(1)) {
      const [c, b] = [entry[1], best[1]];
      if (key(c) > key(b) || (key(c) === key(b) && suit(c) === suit(b) && higher(c, b))) best = entry;
    }
    return best[0];
  }

  // --- scoring ----------------------------------------------------------------

  round(x) {
    const step = this.o.round_to;
    const r = ((x % step) + step) % step;
    if (this.o.round_mode === 'down' || fault('round-down')) return x - r;
    return r * 2 >= step ? x - r + step : x - r;
  }

  scorePlayed() {
    const d = this.declarer;
    const counted = this.o.declarer_round_before_check ? this.round(this.points[d]) : this.points[d];
    const made = counted >= this.contract;
    const gain = fault('declarer-overscore') ? this.points[d] : this.contract;
    const entries = this.points.map((p, i) => (i === d ? (made ? gain : -this.contract)
      : this.round(p)));
    this.bookkeeping(entries, made, true, 'played_out');
  }

  concede() {
    const d = this.declarer;
    this.concessions[d] += 1;
    const entries = [0, 1, 2].map((i) => (i === d
      ? (this.concessions[d] % 3 === 0 && !fault('concede-free') ? -this.contract : 0)
      : this.o.concede_award));
    this.bookkeeping(entries, false, false, 'conceded');
  }

  // thousand.running: entries, barrel filter, bolts, totals, win check, barrel steps
  bookkeeping(entries, made, played, ended) {
    const o = this.o;
    const d = this.declarer;
    const before = this.totals.slice();
    const wasOn = this.onBarrel.slice();
    if (o.barrel) {
      for (let i = 0; i < SEATS; i++) {
        if (wasOn[i] && i !== d && !fault('barrel-opponent-scores')) entries[i] = 0;
      }
    }
    if ((played || fault('bolt-in-concession')) && o.bolt_condition !== 'off') {
      for (let i = 0; i < SEATS; i++) {
        if (o.barrel && wasOn[i] && !fault('bolt-on-barrel')) continue;
        if (i === d && !o.declarer_bolts && !fault('bolt-declarer')) {
          if (o.bolt_count === 'consecutive') this.bolts[i] = 0;    // a hand without one
          continue;
        }
        const bolt = o.bolt_condition === 'no_tricks' ? this.tricksWon[i] === 0 : entries[i] === 0;
        if (bolt) {
          this.bolts[i] += 1;
          if (this.bolts[i] >= o.bolt_limit) {
            if (!fault('bolt-free')) entries[i] -= o.bolt_penalty;
            this.bolts[i] = 0;
          }
        } else if (o.bolt_count === 'consecutive') this.bolts[i] = 0;
      }
    }
    for (let i = 0; i < SEATS; i++) this.totals[i] += entries[i];
    const winners = [0, 1, 2].filter((i) => this.totals[i] >= o.target
      && !(fault('win-more-than') && this.totals[i] === o.target));
    if (o.barrel && !winners.length) this.barrelSteps(wasOn);
    this.lastHand = {
      number: this.handNo, points: this.points.slice(),
      score: this.totals.map((t, i) => t - before[i]), ended, winner: null,
    };
    if (winners.length) {
      let winner;
      if (winners.includes(d) && !fault('tie-higher-total')) winner = d;
      else {
        const top = Math.max(...winners.map((i) => this.totals[i]));
        const best = winners.filter((i) => this.totals[i] === top);
        winner = best.length === 1 ? best[0] : null;
      }
      this.result = { winner, reason: winner === null ? 'tie' : 'target', scores: this.totals.slice() };
      this.phase = 'over';
    } else {
      this.phase = 'deal';
      this.dealer = (this.dealer + 1) % SEATS;
    }
  }

  barrelSteps(wasOn) {
    const o = this.o;
    const fall = (i) => {
      this.totals[i] = fault('fall-at-zero') ? 0 : o.barrel_at - o.barrel_penalty;
      this.onBarrel[i] = false;
      this.attempts[i] = 0;
    };
    for (let i = 0; i < SEATS; i++) {
      if (!wasOn[i]) continue;
      if (this.totals[i] < o.barrel_at) {   // a failed (or costly conceded) contract
        this.onBarrel[i] = false;
        this.attempts[i] = 0;
        continue;
      }
      this.attempts[i] += 1;               // a made contract short of the target too:
      if (o.barrel_clamp && !fault('barrel-made-no-clamp')) this.totals[i] = o.barrel_at;
      if (o.barrel_attempts && this.attempts[i] >= o.barrel_attempts) fall(i);
    }
    const mounting = [0, 1, 2].filter((i) => !this.onBarrel[i] && !wasOn[i]
      && this.totals[i] >= o.barrel_at);
    for (const i of mounting) {
      this.onBarrel[i] = true;
      this.attempts[i] = 0;
      if (o.barrel_clamp && !fault('barrel-no-clamp')) this.totals[i] = o.barrel_at;
    }
    if (mounting.length && !fault('barrel-coexist')) {
      for (let i = 0; i < SEATS; i++) if (wasOn[i] && this.onBarrel[i]) fall(i);
    }
  }

  throwIn() {
    this.lastHand = { number: this.handNo, points: [0, 0, 0], score: [0, 0, 0], ended: 'redeal', winner: null };
    this.phase = 'deal';
    if (this.o.redeal_dealer === 'next' || fault('redeal-next-dealer')) this.dealer = (this.dealer + 1) % SEATS;
  }

  resign(seat) {                 // with more than two sides nobody wins (core.resign)
    let winner = null;
    if (fault('resign-best-other')) {
      const others = [0, 1, 2].filter((i) => i !== seat);
      const top = Math.max(...others.map((i) => this.totals[i]));
      const best = others.filter((i) => this.totals[i] === top);
      winner = best.length === 1 ? best[0] : null;
    }
    this.result = { winner, reason: 'resign', scores: this.totals.slice() };
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
      table: inHand ? this.table.map((e) => e.slice()) : [],
      stock: inHand ? this.talon.length : 0,
      hands: inHand ? this.hands.map((h) => h.slice()) : [[], [], []],
      declared: inHand ? this.declared.map((e) => e.slice()) : [],
      tricks_won: inHand ? this.tricksWon.slice() : [0, 0, 0],
      hand_points: inHand ? this.points.slice() : [0, 0, 0],
      match_scores: this.totals.slice(),
      segni: [0, 0, 0],
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
      bidding: {
        high_bid: inHand ? this.highBid : 0,
        high_bidder: inHand ? this.highBidder : null,
        passed: inHand ? this.passed.slice() : [false, false, false],
        declarer: inHand ? this.declarer : null,
        contract: inHand ? this.contract : 0,
        kontras: 0,
        ask_levels: [0, 0, 0],
        called: [],
      },
    };
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of Thousand
function parseAction(text) {
  if (PACK.includes(text)) return { word: 'card' };
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline',
    'keep', 'concede', 'redeal'];
  if (words.includes(text)) return { word: text };
  // words of another bidding game (Marjapussi's Kontra and calls) are actions here too,
  // refused as core.phase; Belote's words and a dark bid (without dark_bid) are not
  if (/^(kontra|re)$/.test(text)) return { word: 'kontra' };
  if (/^(ask:pair|call:[HDCS]|ask:half:[HDCS])$/.test(text)) return { word: 'foreign' };
  let m = /^(bid|raise):(0|[1-9][0-9]{0,8})$/.exec(text);
  if (m) return { word: m[1], value: Number(m[2]) };
  m = /^marriage:([HDCS])(:notrump)?$/.exec(text);
  if (m) return { word: 'marriage', suit: m[1], notrump: !!m[2] };
  m = /^yes:([HDCS])$/.exec(text);
  if (m) return { word: 'yes' };
  m = /^exchange:(..)$/.exec(text);
  if (m && PACK.includes(m[1])) return { word: 'exchange', card: m[1] };
  m = /^give:(.+)$/.exec(text);
  if (m && m[1].split('+').every((c) => PACK.includes(c))) return { word: 'give', cards: m[1].split('+') };
  throw new Refusal('bad_action', null, `not an action of thousand: ${JSON.stringify(text)}`);
}
// ---------------------------------------------------------------------------
// Requests

let match = null;
const HOUSE = [];   // --house (repeatable): the configurations declared in hello

function hello() {
  const options = {};
  for (const [name, [type, dflt, range]] of Object.entries(OPTIONS)) {
    options[name] = { type, default: dflt };
    if (!SUPPORTED.has(name)) options[name].values = [dflt];
    else if (type === 'enum') options[name].values = range;
    else if (type === 'int') [options[name].min, options[name].max] = range;
  }
  const reply = {
    type: 'hello', engine: 'thousand-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets: { thousand: { options } },
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map((options) => ({ ruleset: 'thousand', options }));
  }
  return reply;
}

const isSeat = (x) => x === 0 || x === 1 || x === 2;

function checkDeck(deck) {
  if (!Array.isArray(deck) || !deck.every((c) => typeof c === 'string')) {
    throw badRequest('deck must be a list of cards');
  }
  const whole = deck.length === PACK.length && new Set(deck).size === PACK.length;
  if (!whole || !deck.every((c) => PACK.includes(c))) {
    throw illegal('core.deal', 'the deck must hold every card of the pack once');
  }
}

function checkFirstPlayer(req) {
  const fp = req.first_player;
  if (fp === undefined || fp === null) return;
  if (typeof fp !== 'number') throw badRequest('first_player must be a number or null');
  throw illegal('core.deal', 'Thousand has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  if (req.ruleset !== 'thousand') throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const options = {};
  for (const [name, [, dflt]] of Object.entries(OPTIONS)) options[name] = dflt;
  for (const [name, value] of Object.entries(given)) {
    const spec = OPTIONS[name];
    if (!spec) throw new Refusal('unsupported', null, `unknown option ${name}`);
    const [type, dflt, range] = spec;
    if (type === 'bool' && typeof value !== 'boolean') throw badRequest(`${name} is true or false`);
    if (type === 'int' && !Number.isInteger(value)) throw badRequest(`${name} is a whole number`);
    // an enum's values may be of any JSON type: another value is one not offered
    const outside = !SUPPORTED.has(name) ? value !== dflt
      : type === 'int' ? value < range[0] || value > range[1]
      : type === 'enum' && !range.includes(value);
    if (outside) {
      throw new Refusal('unsupported', null, `${name}=${value} not supported`);
    }
    options[name] = value;
  }
  if (!isSeat(req.dealer)) throw badRequest('dealer must be a seat');
  checkDeck(req.deck);
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
  if (!isSeat(req.seat)) throw badRequest('seat must be 0, 1 or 2');
  return req.seat;
}

// choose: a plain player for `mariage match`: the lowest bid or keep, a marriage when
// offered, else the first legal action
function choose(req) {
  const m = needMatch();
  const within = (x, lo, hi) => x === undefined || (Number.isInteger(x) && x >= lo && x <= hi);
  if (!within(req.budget_ms, 1, 60000)) throw badRequest('budget_ms: 1 .. 60000');
  if (!within(req.seed, 0, 2 ** 64 - 1)) throw badRequest('seed: 0 .. 2^64 - 1');
  if (m.phase === 'over') throw illegal('core.over', 'the match is over');
  if (m.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
  if (seatOf(req, m) !== m.toAct) throw illegal('core.turn', 'not to act');
  const seat = m.toAct;
  const acts = m.legal(seat).filter((a) => a !== 'redeal' && a !== 'concede');
  const action = acts.find((a) => a.startsWith('marriage:')) || acts[0];
  return { type: 'choose', seat, action };
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
      checkDeck(req.deck);
      checkFirstPlayer(req);
      m.deal(req.deck);
      return { type: 'ok' };
    }
    case 'resign': {
      const m = needMatch();
      if (!isSeat(req.seat)) throw badRequest('seat must be 0, 1 or 2');
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

function parseJSON(text) {
  let i = 0;
  const fail = (why) => { throw new Error(`${why} at ${i}`); };
  const ws = () => { while (' \t\n\r'.includes(text[i]) && i < text.length) i++; };
  const value = () => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const obj = {}; const seen = new Set(); ws();
      if (text[i] === '}') { i++; return obj; }
      for (;;) {
        ws(); if (text[i] !== '"') fail('name expected');
        const k = string();
        if (seen.has(k)) fail(`name ${k} given twice`);
        seen.add(k); ws();
        if (text[i++] !== ':') fail(': expected');
        // defineProperty: a name such as __proto__ is kept as a plain field
        Object.defineProperty(obj, k,
          { value: value(), enumerable: true, writable: true, configurable: true });
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
    for (const [word, v] of [['true', true], ['false', false], ['null', null]]) {
      if (text.startsWith(word, i)) { i += word.length; return v; }
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || !m[0]) fail('value expected');
    i += m[0].length;
    const n = Number(m[0]);
    if (!Number.isFinite(n)) fail('number too large');
    return m[2] || m[3] ? new JFloat(n) : n;
  };
  const string = () => {
    const re = /"((?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*)"/y;
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) fail('bad string');
    i = re.lastIndex;
    return JSON.parse(m[0]);
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
        const typed = (x) => (type === 'int' ? Number(x) : type === 'bool' ? x === 'true' : x);
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
