#!/usr/bin/env node
'use strict';
// A Thousand engine in plain Node.js, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst, the rulebooks `mariage rules thousand`,
// `thousand-2`, `thousand-4`, `thousand-pl`, and spec/thousand*.yaml): one file, no
// dependencies. It speaks the engine protocol (version 2, without hidden cards) and
// plays the four Thousand rulesets, for two, three and four players, at every value
// of all 66 options: the talon in packets, the seat sitting out, the dark bid, the
// golden hands, the ace marriage, the barrel's and the bolts' variants, the dumps.
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/thousand_engine.js" \
//       --ruleset thousand
//   mariage conformance --engine "node conformance/examples/thousand_engine.js" \
//       --derived --ruleset thousand-4 -o sitter=opposite
//
// "--fault MODE" (or THOUSAND_FAULT=MODE) plants one mistake, so that you can see
// what the runner says about it; "--list-faults" lists them. "--house
// [RULESET:]NAME=VALUE,..." (repeatable) declares a house configuration in the hello
// (a value may be V1|V2 or MIN..MAX), for `mariage conformance --declared`.

// ---------------------------------------------------------------------------
// The ruleset's data (spec/thousand.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J', '9'];        // high to low
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0 };
const PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
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
  'marriage-notrump': 'a marriage declared without trump (marriage:S:notrump) is taken as a '
    + 'plain marriage (thousand.marriage.trump)',
  'sitter-concede-nothing': 'the player sitting out scores nothing in a conceded hand '
    + '(thousand.talon.sitter)',
  'dump-in-score': 'the hand\'s score in last_hand counts a dump (thousand.running.dump)',
  'clamp-in-score': 'the hand\'s score in last_hand counts the barrel\'s clamp and falls '
    + '(thousand.running.barrel)',
  'golden-reset-in-score': 'the hand\'s score in last_hand counts the golden reset '
    + '(thousand.running.golden)',
  'auto-strict': 'a hand holding only the cards of a marriage it may declare must declare it '
    + '(thousand.marriage.auto)',
  'talon-core-phase': 'a packet chosen at the wrong moment is refused as core.phase '
    + '(thousand.talon.packets)',
  'concede-off-illegal': 'a concession where the rules have none is illegal_action, not '
    + 'bad_action (protocol.action.bad)',
  'leader-declarer': 'the declarer is reported as leader from the moment he takes the talon '
    + '(thousand.contract.lead)',
  'claim-forced-bid': 'the talon claims follow the forced bid itself: a golden 120 counts, '
    + 'another\'s unraised bid_min where forehand could not bid does not (thousand.throw-in)',
  'claim-unshown': 'a talon claim is open on a talon not shown (musik_shown, a dark contract) '
    + '(thousand.throw-in)',
  'auto-no-aces': 'under marriage_auto_declare an ace may be led without declaring the ace '
    + 'marriage (thousand.marriage.auto)',
  'sitter-attempt': 'a player on the barrel sitting the hand out uses an attempt '
    + '(thousand.running.barrel)',
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
    const o = this.o = options;
    this.n = o.players;                 // seats at the table
    const z = () => new Array(this.n).fill(0);
    this.dealer = dealer;
    this.totals = z();
    this.bolts = z();
    this.onBarrel = new Array(this.n).fill(false);
    this.attempts = z();
    this.falls = z();
    this.concessions = z();
    this.handNo = 0;
    this.goldenDone = 0;                 // golden hands scored so far
    this.goldenMade = false;             // a golden contract made
    this.lastHand = null;
    this.result = null;
    this.deal(deck);
  }

  get seats() { return [...Array(this.n).keys()]; }

  marriageValue(s) {
    const v = { H: 100, D: 80, C: 60, S: 40 };
    if (this.o.marriage_values === 'spades_60') v.S = 60;
    return v[s];
  }

  goldenCount() { return this.o.golden_round === 'off' ? 0 : (this.n === 2 ? 2 : 3); }

  sitterSeat() {                         // who sits this hand out (four at the table)
    if (this.n !== 4) return null;
    const off = { dealer: 0, dealer_right: 3, opposite: 2 }[this.o.sitter];
    return (this.dealer + off) % 4;
  }

  next(seat) {                           // the next seat clockwise that plays this hand
    let s = seat;
    do s = (s + 1) % this.n; while (s === this.sitter);
    return s;
  }

  deal(deck) {
    const o = this.o;
    this.handNo += 1;
    this.golden = this.goldenDone < this.goldenCount();
    this.sitter = this.sitterSeat();
    this.active = this.seats.filter((s) => s !== this.sitter);
    this.forehand = this.next(this.dealer);
    this.hands = this.seats.map(() => []);
    const handSize = this.n === 2 ? 10 : 7;
    const dealt = handSize * this.active.length;
    let s = this.forehand;
    for (let i = 0; i < dealt; i++) { this.hands[s].push(deck[i]); s = this.next(s); }
    this.talon = deck.slice(dealt);
    this.packets = this.n === 2 ? [deck.slice(20, 22), deck.slice(22, 24)] : null;
    this.packet = null;                  // the packet chosen (two players)
    this.laid = [];                      // cards laid away (two players)
    this.talonCards = this.n === 2 ? null : this.talon.slice();
    this.dealt = this.hands.map((h) => h.slice());
    this.tricks = this.n === 2 ? 10 : 8;
    this.phase = 'auction';
    this.toAct = this.forehand;
    this.leader = this.forehand;
    this.trick = 0;
    this.table = [];
    this.trump = null;
    this.trumpBy = null;                 // who declared the trump in force
    this.nextTrump = null;               // trump_change=next_trick: from the next trick
    this.declared = [];
    const z = () => new Array(this.n).fill(0);
    this.tricksWon = z();
    this.points = z();
    this.highBid = 0;
    this.highBidder = null;
    this.passed = this.seats.map((i) => i === this.sitter);
    this.spoken = new Array(this.n).fill(false);
    this.anyAction = false;              // any action of the auction yet
    this.dark = false;
    this.compulsory = false;             // the high bid is the compulsory opening
    this.declarer = null;
    this.contract = 0;
    this.gives = 0;
    this.pending = null;                 // the cards a declaration made at this lead allows
    this.acesDeclared = false;
    if (this.golden && o.golden_round === 'fixed_120') return;
    const holder = o.opening_bid === 'fh_auto_100' ? this.forehand
      : o.opening_bid === 'dealer_auto_100' ? this.dealer : null;
    if (holder !== null) {
      this.highBid = this.minBid();
      this.highBidder = holder;
      this.compulsory = true;
      if (holder === this.forehand) this.toAct = this.next(this.forehand);
    }
  }

  minBid() { return this.golden && this.o.golden_round === 'min_bid_120' ? 120 : this.o.bid_min; }

  // --- what the rules allow -------------------------------------------------

  held(seat) {
    return SUITS.filter((s) => this.hands[seat].includes('K' + s) && this.hands[seat].includes('Q' + s));
  }

  cap(seat) {                    // the highest bid (or contract) the hand allows
    const o = this.o;
    if (o.bid_cap === 'none') return o.bid_max;
    const held = this.held(seat);
    if (o.bid_cap === 'marriage_sum') {
      return Math.min(o.bid_max, 120 + sum(held.map((s) => this.marriageValue(s))));
    }
    return held.length ? o.bid_max : Math.min(o.bid_max, 120);
  }

  lowestBid() { return this.highBid ? this.highBid + this.o.bid_step : this.minBid(); }

  silent(seat) {
    const b = this.o.silence_below;
    return b !== 'off' && this.totals[seat] < b;
  }

  bidValues(seat) {
    const o = this.o;
    const out = [];
    const lo = this.lowestBid();
    let hi = o.jump_bids ? this.cap(seat) : Math.min(lo, this.cap(seat));
    if (this.silent(seat)) hi = this.forcedOpening(seat, true) ? Math.min(lo, hi) : 0;
    for (let v = lo; v <= hi; v += o.bid_step) out.push(v);
    return out;
  }

  forcedOpening(seat, bare) {   // (no duty where the hand allows no bid at all)
    const duty = this.o.opening_bid === 'fh_forced' && seat === this.forehand && !this.spoken[seat]
      && !this.goldenFixed();
    if (!duty || bare) return duty;
    return this.bidValues(seat).length > 0;
  }

  goldenFixed() { return this.golden && this.o.golden_round === 'fixed_120'; }

  mayDark(seat) {
    const o = this.o;
    return o.dark_bid && !this.goldenFixed() && !this.anyAction && seat === this.forehand
      && o.opening_bid !== 'fh_auto_100' && this.totals[seat] >= o.dark_min_total;
  }

  mayRaise() { return this.o.raise_allowed && (!this.golden || this.o.golden_can_raise); }

  raiseValues() {
    const out = [];
    if (!this.mayRaise()) return out;
    const hi = fault('raise-no-cap') ? this.o.bid_max : this.cap(this.declarer);
    for (let v = this.contract + this.o.bid_step; v <= hi; v += this.o.bid_step) out.push(v);
    return out;
  }

  beforeFirstLead() {
    return (this.phase === 'contract' || (this.phase === 'play' && this.trick === 1
      && this.table.length === 0 && this.pending === null));
  }

  beforeFirstBid() { return this.phase === 'auction' && !this.anyAction; }

  holdsAll(seat, r, dealt) {
    return SUITS.every((s) => this.hands[seat].includes(r + s)
      && (!dealt || this.dealt[seat].includes(r + s)));
  }

  mayThrowIn(seat) {
    const o = this.o;
    if (seat === this.sitter || this.phase === 'deal' || this.phase === 'over') return false;
    const when = o.four_nines_redeal;
    const ranks = ['9'].concat(o.redeal_four_jacks ? ['J'] : []);
    if (when === 'before_bidding' && this.beforeFirstBid()
      && ranks.some((r) => this.holdsAll(seat, r, true))) return true;
    if ((when === 'after_exchange' || when === 'original_hand') && this.beforeFirstLead()) {
      const dealtToo = when === 'original_hand' || fault('four-nines-dealt');
      if (ranks.some((r) => this.holdsAll(seat, r, dealtToo))) return true;
    }
    if (o.redeal_low_hand && this.beforeFirstBid()
      && sum(this.dealt[seat].map((c) => POINTS[rank(c)])) < o.redeal_low_hand) return true;
    if (seat === this.declarer && this.phase === 'passing' && this.gives === 0
      && this.talonCards && (this.talonShown() || fault('claim-unshown'))
      && (!o.prikup_redeal_only_at_100 || this.wonByCompulsory())) {
      const t = this.talonCards;
      if (o.redeal_weak_prikup && sum(t.map((c) => POINTS[rank(c)])) < o.redeal_weak_prikup) return true;
      if (o.redeal_two_nines_prikup && t.filter((c) => rank(c) === '9').length >= 2) return true;
    }
    return false;
  }

  talonShown() {        // turned face up for everybody (the claims on it need that)
    const m = this.o.musik_shown;
    return !this.dark && (m === 'always' || (m === 'not_at_100' && !this.wonByCompulsory()));
  }

  wonByCompulsory() {   // a contract at bid_min nobody raised, where some opening binds
    if (fault('claim-forced-bid')) return this.compulsory && this.contract === this.minBid();
    return this.o.opening_bid !== 'none' && this.contract === this.o.bid_min;
  }

  mayConcede() {
    const o = this.o;
    if (o.concede === 'off' || this.golden) return false;
    if (this.n === 2 && this.packet === null) return false;
    const early = this.phase === 'passing' && this.gives === 0;
    const late = o.concede_window === 'before_first_lead'
      && (this.phase === 'passing' || this.beforeFirstLead());
    if (!early && !late && !fault('concede-late')) return false;
    const limit = o.concede_limit;
    return !(limit && this.concessions[this.declarer] >= limit);
  }

  mayDeclare() {
    return this.table.length === 0 && this.pending === null
      && (this.trick > 1 || this.o.marriage_first_lead);
  }

  marriages(seat) {
    if (!this.mayDeclare()) return [];
    const done = new Set(this.declared.filter((d) => d[1] === 'marriage').map((d) => d[2]));
    return this.held(seat).filter((s) => !done.has(s));
  }

  mayAces(seat) {
    return this.o.ace_marriage > 0 && this.mayDeclare() && !this.acesDeclared
      && this.holdsAll(seat, 'A', false);
  }

  trickTrump() { return this.trump; }

  // the best card of the trick so far
  best() {
    if (!this.table.length) return null;
    return this.table[this.winnerIndex()][1];
  }

  cards(seat) {                  // the cards the seat may play now
    const o = this.o;
    const hand = this.hands[seat];
    if (this.pending) return hand.filter((c) => this.pending.includes(c));
    if (!this.table.length) {
      let out = hand.slice();
      if (o.marriage_auto_declare && this.mayDeclare()) {
        const mine = this.marriages(seat);
        out = out.filter((c) => !('KQ'.includes(rank(c)) && mine.includes(suit(c))));
        if (this.mayAces(seat) && !fault('auto-no-aces')) out = out.filter((c) => rank(c) !== 'A');
      }
      if (o.no_lead_foreign_trump && this.trump && this.trumpBy !== seat
        && out.some((c) => suit(c) !== this.trump)) {
        out = out.filter((c) => suit(c) !== this.trump);
      }
      return out.length || fault('auto-strict') ? out : hand.slice(); // limits leaving nothing: any card
    }
    const led = suit(this.table[0][1]);
    const trump = this.trickTrump();
    const top = this.best();
    const beats = (c) => (suit(c) === suit(top) ? higher(c, top)
      : suit(c) === trump);
    const headed = (cards) => {          // must_beat: those that beat the best, if any
      const over = o.must_beat ? cards.filter(beats) : [];
      return over.length ? over : cards;
    };
    const follow = hand.filter((c) => suit(c) === led);
    if (follow.length) return headed(follow);
    if (o.must_trump && trump && !fault('no-trump-duty')) {
      const trumps = hand.filter((c) => suit(c) === trump);
      if (trumps.length) return headed(trumps);
    }
    return hand.slice();
  }

  legal(seat) {
    if (this.phase === 'deal' || this.phase === 'over') return [];
    const redeal = this.mayThrowIn(seat) ? ['redeal'] : [];
    if (seat !== this.toAct) return redeal;
    if (this.phase === 'auction') {
      if (this.goldenFixed()) return [`bid:120`].concat(redeal);
      const acts = this.forcedOpening(seat) ? [] : ['pass'];
      return acts.concat(this.bidValues(seat).map((v) => `bid:${v}`),
        this.mayDark(seat) ? ['dark:120'] : [], redeal);
    }
    const concede = this.mayConcede() ? ['concede'] : [];
    if (this.phase === 'passing') {
      if (this.n === 2 && this.packet === null) return ['talon:1', 'talon:2'];
      if (this.n === 2) return concede.concat(pairs(this.hands[seat]).map((p) => `give:${p.join('+')}`), redeal);
      return concede.concat(this.hands[seat].map((c) => `give:${c}`), redeal);
    }
    if (this.phase === 'contract') {
      return concede.concat(['keep'], this.raiseValues().map((v) => `raise:${v}`), redeal);
    }
    const aces = this.mayAces(seat) ? SUITS.map((s) => `aces:${s}`) : [];
    return concede.concat(this.marriages(seat).map((s) => `marriage:${s}`), aces,
      this.cards(seat), redeal);
  }

  // --- actions ----------------------------------------------------------------

  apply(seat, text) {
    const a = parseAction(text, this.o);
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
      if (this.golden) throw illegal('thousand.running.golden', 'no concession in a golden hand');
      if (!this.mayConcede()) throw illegal('thousand.contract.concede', 'no concession now');
      return this.concede();
    }
    // so are a packet's choice, a dark bid and an ace marriage, where they are words
    if (a.word === 'talon' && this.phase !== 'passing' && !fault('talon-core-phase')) {
      throw illegal('thousand.talon.packets', 'no packet to choose now');
    }
    if (a.word === 'dark' && this.phase !== 'auction') throw illegal('thousand.auction.dark', 'no dark bid now');
    const wrongPhase = () => illegal('core.phase', `${text} is not an action of phase ${this.phase}`);
    switch (this.phase) {
      case 'auction':
        if (a.word === 'pass') return this.pass(seat);
        if (a.word === 'bid') return this.bid(seat, a.value);
        if (a.word === 'dark') return this.darkBid(seat, a.value);
        throw wrongPhase();
      case 'passing':
        if (a.word === 'talon') return this.chooseTalon(seat, a.value);
        if (a.word === 'give') return this.give(seat, a.cards);
        throw wrongPhase();
      case 'contract':
        if (a.word === 'keep') return this.fixContract(this.contract);
        if (a.word === 'raise') {
          const v = a.value;
          if (!this.mayRaise() || v <= this.contract || v > this.o.bid_max
            || v % this.o.bid_step) {
            throw illegal('thousand.contract.raise', `no raise to ${v}`);
          }
          if (v > this.cap(seat) && !fault('raise-no-cap')) {
            throw illegal('thousand.auction.cap', `the hand allows no ${v}`);
          }
          return this.fixContract(a.value);
        }
        throw wrongPhase();
      default:
        if (a.word === 'marriage') return this.declare(seat, a.suit, a.notrump);
        if (a.word === 'aces') return this.declareAces(seat, a.suit);
        if (a.word === 'card') return this.play(seat, text);
        if ((a.word === 'keep' || a.word === 'raise') && seat === this.declarer
          && this.o.raise_allowed) {
          if (this.golden && !this.o.golden_can_raise) {
            throw illegal('thousand.running.golden', 'no raise in a golden hand');
          }
          throw illegal('thousand.contract.raise', 'the contract is fixed');
        }
        throw wrongPhase();
    }
  }

  pass(seat) {
    if (this.goldenFixed()) throw illegal('thousand.running.golden', 'a golden hand: bid 120');
    if (this.forcedOpening(seat)) throw illegal('thousand.auction.opening', 'forehand must open');
    this.passed[seat] = true;
    this.spoken[seat] = true;
    this.anyAction = true;
    this.nextBidder(seat);
  }

  bid(seat, v) {
    const o = this.o;
    if (this.goldenFixed()) {
      if (v !== 120) throw illegal('thousand.running.golden', 'a golden hand is played at 120');
      this.highBid = 120;
      this.highBidder = seat;
      return this.takeTalon(seat);
    }
    const lo = this.lowestBid();
    if (this.golden && v < 120 && v >= this.o.bid_min && v % o.bid_step === 0) {
      throw illegal('thousand.running.golden', 'a golden hand is bid from 120');
    }
    if (v < lo || v > o.bid_max || v % o.bid_step) {
      throw illegal('thousand.auction.bids', `no bid of ${v} now`);
    }
    if (this.silent(seat) && !(this.forcedOpening(seat, true) && v === lo)) {
      throw illegal('thousand.auction.silence', 'a player below the line may not bid');
    }
    if (!o.jump_bids && v !== lo) throw illegal('thousand.auction.bids', `no bid of ${v} now`);
    if (v > this.cap(seat)) throw illegal('thousand.auction.cap', `the hand allows no bid of ${v}`);
    this.compulsory = this.forcedOpening(seat, true) && v === this.minBid();
    this.highBid = v;
    this.highBidder = seat;
    this.spoken[seat] = true;
    this.anyAction = true;
    this.dark = false;
    this.nextBidder(seat);
  }

  darkBid(seat, v) {
    if (!this.mayDark(seat) || v !== 120) throw illegal('thousand.auction.dark', 'no dark bid now');
    this.highBid = 120;
    this.highBidder = seat;
    this.spoken[seat] = true;
    this.anyAction = true;
    this.dark = true;
    this.compulsory = false;
    this.nextBidder(seat);
  }

  nextBidder(seat) {
    const live = this.active.filter((i) => !this.passed[i]);
    if (!live.length) {                    // nobody bid: thrown in, the deal passes on
      this.lastHand = this.unscored('redeal');
      this.phase = 'deal';
      this.dealer = (this.dealer + 1) % this.n;
      return;
    }
    if (live.length === 1 && this.highBidder !== null) return this.takeTalon(this.highBidder);
    let s = seat;
    do s = this.next(s); while (this.passed[s]);
    this.toAct = s;
  }

  takeTalon(d) {
    this.declarer = d;
    this.contract = this.highBid;
    this.phase = 'passing';
    this.toAct = d;
    if (fault('leader-declarer')) this.leader = d;
    if (this.n === 2) return;
    this.hands[d].push(...this.talon);
    this.talon = [];
  }

  chooseTalon(seat, k) {
    if (this.packet !== null || (k !== 1 && k !== 2)) throw illegal('thousand.talon.packets', `no packet ${k}`);
    this.packet = k;
    this.talonCards = this.packets[k - 1].slice();
    this.laid = this.packets[2 - k].slice();
    this.hands[seat].push(...this.talonCards);
    this.talon = [];
  }

  give(seat, cards) {
    if (this.n === 2 && this.packet === null) throw illegal('thousand.talon.packets', 'choose a packet first');
    const want = this.n === 2 ? 2 : 1;
    if (cards.length !== want) throw illegal('thousand.exchange', `${want} card(s) at a time`);
    // a card not in the hand breaks the exchange rule here, not core.hand
    for (const c of cards) {
      if (!this.hands[seat].includes(c)) throw illegal('thousand.exchange', `${c} is not in the hand`);
    }
    if (this.n === 2) {
      for (const c of cards) remove(this.hands[seat], c);
      this.laid.push(...cards);
      this.gives = 1;
    } else {
      const c = cards[0];
      remove(this.hands[seat], c);
      this.hands[this.gives ? this.next(this.next(seat)) : this.next(seat)].push(c);
      this.gives += 1;
      if (this.gives < 2) return;
    }
    if (this.mayRaise()) this.phase = 'contract';
    else this.fixContract(this.contract);        // no raise: play starts at once
  }

  fixContract(v) {
    this.contract = v;
    this.phase = 'play';
    this.trick = 1;
    this.leader = this.declarer;
    this.toAct = this.declarer;
  }

  declare(seat, s, notrump) {
    if (this.table.length || (this.trick === 1 && !this.o.marriage_first_lead)) {
      throw illegal('thousand.marriage.who', 'only a trick winner declares, as he leads');
    }
    if (this.pending) throw illegal('thousand.marriage.per-lead', 'one marriage at a lead');
    const hand = this.hands[seat];
    if (!hand.includes('K' + s) || !hand.includes('Q' + s)) {
      throw illegal('thousand.marriage', `no marriage in ${s}`);
    }
    if (this.declared.some((d) => d[1] === 'marriage' && d[2] === s)) {
      throw illegal('thousand.marriage.once', 'declared');
    }
    // no choice here: a declared marriage always makes trump
    if (notrump && !fault('marriage-notrump')) throw illegal('thousand.marriage.trump', 'a marriage makes its suit trump');
    const value = this.marriageValue(s);
    this.declared.push([seat, 'marriage', s, value]);
    this.points[seat] += value;
    this.makeTrump(seat, s);
    this.pending = ['K' + s, 'Q' + s];
  }

  makeTrump(seat, s) {
    const first = this.o.trump_rule === 'first' || fault('first-marriage-trump');
    if (first && (this.trump !== null || this.nextTrump !== null)) return;
    if (this.o.trump_change === 'next_trick') this.nextTrump = [seat, s];
    else { this.trump = s; this.trumpBy = seat; }
  }

  declareAces(seat, s) {            // declared like a marriage; the ace named is led next
    if (this.table.length || (this.trick === 1 && !this.o.marriage_first_lead)) {
      throw illegal('thousand.marriage.who', 'only a trick winner declares, as he leads');
    }
    if (this.pending) throw illegal('thousand.marriage.per-lead', 'one declaration at a lead');
    if (!this.holdsAll(seat, 'A', false)) throw illegal('thousand.ace-marriage', 'not all four aces');
    if (this.acesDeclared) throw illegal('thousand.ace-marriage.once', 'declared');
    this.acesDeclared = true;
    this.declared.push([seat, 'aces', s, this.o.ace_marriage]);
    this.points[seat] += this.o.ace_marriage;
    if (this.o.ace_marriage_trump === 'led_suit') this.makeTrump(seat, s);
    this.pending = ['A' + s];
  }

  play(seat, card) {
    const hand = this.hands[seat];
    if (!hand.includes(card)) throw illegal('core.hand', `${card} is not in the hand`);
    if (this.pending && !this.pending.includes(card)) {
      if (this.pending.length === 1) throw illegal('thousand.ace-marriage.lead', 'lead the ace named');
      throw illegal('thousand.marriage.lead', 'lead the king or queen of the marriage');
    }
    if (!this.cards(seat).includes(card)) {
      if (!this.table.length) {
        if (this.o.marriage_auto_declare && (('KQ'.includes(rank(card))
          && this.marriages(seat).includes(suit(card))) || (rank(card) === 'A' && this.mayAces(seat)))) {
          throw illegal('thousand.marriage.auto', 'such a lead declares the marriage');
        }
        throw illegal('thousand.lead.foreign-trump', 'no lead of another player\'s trump');
      }
      const led = suit(this.table[0][1]);
      if (suit(card) !== led && hand.some((c) => suit(c) === led)) {
        throw illegal('thousand.play.follow', 'follow suit');
      }
      if (suit(card) === led) throw illegal('thousand.play.beat', 'head the trick');
      throw illegal('thousand.play.trump', 'play a (higher) trump');
    }
    remove(hand, card);
    this.table.push([seat, card]);
    this.pending = null;
    if (this.table.length < this.active.length) {
      this.toAct = this.next(seat);
      return;
    }
    const w = this.table[this.winnerIndex()][0];
    this.tricksWon[w] += 1;
    this.points[w] += sum(this.table.map(([, c]) => POINTS[rank(c)]));
    this.table = [];
    if (this.nextTrump) {
      [this.trumpBy, this.trump] = this.nextTrump;
      this.nextTrump = null;
    }
    if (this.trick === this.tricks) {
      if (this.n === 2 && this.o.two_player_leftover === 'last_trick') {
        this.points[w] += sum(this.laid.map((c) => POINTS[rank(c)]));
      }
      return this.scorePlayed();
    }
    this.trick += 1;
    this.leader = w;
    this.toAct = w;
  }

  winnerIndex() {
    const led = suit(this.table[0][1]);
    const trump = this.trickTrump();
    const key = (c) => (suit(c) === trump ? 2 : suit(c) === led ? 1 : 0);
    let best = 0;
    for (let k = 1; k < this.table.length; k++) {
      const [c, b] = [this.table[k][1], this.table[best][1]];
      if (key(c) > key(b) || (key(c) === key(b) && suit(c) === suit(b) && higher(c, b))) best = k;
    }
    return best;
  }

  // --- scoring ----------------------------------------------------------------

  round(x) {
    const step = this.o.round_to;
    const r = ((x % step) + step) % step;
    if (this.o.round_mode === 'down' || fault('round-down')) return x - r;
    return r * 2 >= step ? x - r + step : x - r;
  }

  sitterScore(conceded) {
    if (conceded && fault('sitter-concede-nothing')) return 0;
    return this.o.sitter_score === 'none' ? 0 : this.sitterEntry();
  }

  sitterEntry() {
    const o = this.o;
    const t = this.talonCards || [];
    const aces = t.filter((c) => rank(c) === 'A').length;
    const pairs = SUITS.filter((s) => t.includes('K' + s) && t.includes('Q' + s));
    if (o.sitter_score === 'aces_and_marriages') {
      return aces * o.sitter_ace_value + sum(pairs.map((s) => this.marriageValue(s)));
    }
    let v = this.round(sum(t.map((c) => POINTS[rank(c)])));
    if (o.sitter_marriage) v += sum(pairs.map((s) => this.marriageValue(s)));
    if (o.sitter_half_marriage) {
      const lone = SUITS.filter((s) => (t.includes('K' + s) !== t.includes('Q' + s)));
      v += sum(lone.map((s) => this.marriageValue(s) / 2));
    }
    return v;
  }

  scorePlayed() {
    const d = this.declarer;
    const counted = this.o.declarer_round_before_check ? this.round(this.points[d]) : this.points[d];
    const made = counted >= this.contract;
    const gain = fault('declarer-overscore') ? this.points[d] : this.contract;
    const entries = this.points.map((p, i) => (i === d ? (made ? gain : -this.contract)
      : i === this.sitter ? this.sitterScore()
        : this.round(p)));
    if (this.dark) entries[d] *= 2;
    this.bookkeeping(entries, made, true, 'played_out');
  }

  concede() {
    const o = this.o;
    const d = this.declarer;
    this.concessions[d] += 1;
    const k = this.concessions[d];
    const award = o.concede === 'bomb' ? (k > 1 ? o.concede_award : 0)
      : o.concede === 'write_off' && o.write_off_award === 'half_bid' ? this.round5(this.contract / 2)
        : o.concede_award;
    const own = o.concede === 'write_off' ? -this.contract
      : o.concede === 'rospisat' && k % 3 === 0 && !fault('concede-free') ? -this.contract : 0;
    const entries = this.seats.map((i) => (i === d ? own : i === this.sitter ? this.sitterScore(true)
      : fault('concede-free') ? 0 : award));
    this.bookkeeping(entries, false, false, 'conceded');
  }

  round5(x) { const r = x % 5; return r * 2 >= 5 ? x - r + 5 : x - r; }

  // thousand.running: entries, multipliers, barrel filter, bolts, totals, win check,
  // barrel steps, dumps
  bookkeeping(entries, made, played, ended) {
    const o = this.o;
    const d = this.declarer;
    const before = this.totals.slice();
    const wasOn = this.onBarrel.slice();
    if (this.golden && o.golden_double) for (const i of this.seats) entries[i] *= 2;
    if (o.barrel) {
      for (const i of this.seats) {
        if (wasOn[i] && i !== d && !fault('barrel-opponent-scores')) entries[i] = 0;
        if (wasOn[i] && i === d && entries[i] < 0 && o.barrel_fail_contract === 'attempt_only') entries[i] = 0;
      }
    }
    if ((played || fault('bolt-in-concession')) && o.bolt_condition !== 'off') {
      for (const i of this.active) {
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
    for (const i of this.seats) {   // a hand that would pass an exact target adds nothing
      if (o.win_rule === 'exactly' && this.totals[i] + entries[i] > o.target) entries[i] = 0;
      this.totals[i] += entries[i];
    }
    const wins = (t) => (o.win_rule === 'more_than' || fault('win-more-than') ? t > o.target
      : o.win_rule === 'exactly' ? t === o.target : t >= o.target);
    const winners = this.seats.filter((i) => wins(this.totals[i]));
    if (o.barrel && !winners.length) this.barrelSteps(wasOn, made);
    // the hand's score: its entries as added, before the barrel's steps, a dump, a reset
    const change = () => this.totals.map((t, i) => t - before[i]);
    this.lastHand = {
      number: this.handNo, points: this.points.slice(),
      score: fault('clamp-in-score') ? change() : entries, ended, winner: null,
    };
    if (!winners.length) this.dumps();
    if (fault('dump-in-score')) this.lastHand.score = change();
    if (this.golden) {
      this.goldenDone += 1;
      if (made) this.goldenMade = true;
      if (this.goldenDone === this.goldenCount() && o.golden_reset_if_none && !this.goldenMade
        && !winners.length) {
        this.totals = this.totals.map(() => 0);
        if (fault('golden-reset-in-score')) this.lastHand.score = change();
      }
    }
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
      this.dealer = (this.dealer + 1) % this.n;
    }
  }

  dumps() {
    const o = this.o;
    if (o.dump_at_555 === 'off') return;
    for (const i of this.seats) {
      const t = this.totals[i];
      if (t === o.dump_value || (o.dump_at_555 === 'both' && t === -o.dump_value)) this.totals[i] = 0;
    }
  }

  barrelSteps(wasOn, made) {
    const o = this.o;
    const fall = (i) => {
      this.falls[i] += 1;
      this.totals[i] = fault('fall-at-zero') || (o.barrel_three_falls_reset && this.falls[i] === 3)
        ? 0 : o.barrel_at - o.barrel_penalty;
      this.onBarrel[i] = false;
      this.attempts[i] = 0;
    };
    for (const i of this.seats) {
      if (!wasOn[i]) continue;
      if (this.totals[i] < o.barrel_at) {   // a failed (or costly conceded) contract
        this.onBarrel[i] = false;
        this.attempts[i] = 0;
        continue;
      }
      if (i === this.sitter && !fault('sitter-attempt')) continue; // sat out: no attempt used
      this.attempts[i] += 1;               // a made contract short of the target too:
      if (o.barrel_clamp && !fault('barrel-made-no-clamp')) this.totals[i] = o.barrel_at;
      if (o.barrel_attempts && this.attempts[i] >= o.barrel_attempts) fall(i);
    }
    const mounting = this.seats.filter((i) => !this.onBarrel[i] && !wasOn[i]
      && this.totals[i] >= o.barrel_at);
    for (const i of mounting) {
      this.onBarrel[i] = true;
      this.attempts[i] = 0;
      if (o.barrel_clamp && !fault('barrel-no-clamp')) this.totals[i] = o.barrel_at;
    }
    const collision = fault('barrel-coexist') ? 'coexist' : o.barrel_collision;
    if (mounting.length && collision !== 'coexist') {
      const on = this.seats.filter((i) => wasOn[i] && this.onBarrel[i]);
      if (collision === 'knock_off') for (const i of on) fall(i);
      else if (on.length + mounting.length >= 2) for (const i of on.concat(mounting)) fall(i);
    }
  }

  unscored(ended) {
    const z = this.seats.map(() => 0);
    return { number: this.handNo, points: z, score: z.slice(), ended, winner: null };
  }

  throwIn() {
    this.lastHand = this.unscored('redeal');
    this.phase = 'deal';
    if (this.o.redeal_dealer === 'next' || fault('redeal-next-dealer')) this.dealer = (this.dealer + 1) % this.n;
  }

  resign(seat) {                 // with more than two sides nobody wins (core.resign)
    let winner = this.n === 2 ? 1 - seat : null;
    if (fault('resign-best-other') && this.n > 2) {
      const others = this.seats.filter((i) => i !== seat);
      const top = Math.max(...others.map((i) => this.totals[i]));
      const best = others.filter((i) => this.totals[i] === top);
      winner = best.length === 1 ? best[0] : null;
    }
    this.result = { winner, reason: 'resign', scores: this.totals.slice() };
    this.phase = 'over';
  }

  state() {
    const inHand = this.phase !== 'deal' && this.phase !== 'over';
    const z = this.seats.map(() => 0);
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
      hands: inHand ? this.hands.map((h) => h.slice()) : this.seats.map(() => []),
      declared: inHand ? this.declared.map((e) => e.slice()) : [],
      tricks_won: inHand ? this.tricksWon.slice() : z,
      hand_points: inHand ? this.points.slice() : z.slice(),
      match_scores: this.totals.slice(),
      segni: z.slice(),
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
      bidding: {
        high_bid: inHand ? this.highBid : 0,
        high_bidder: inHand ? this.highBidder : null,
        passed: inHand ? this.passed.slice() : this.seats.map(() => false),
        declarer: inHand ? this.declarer : null,
        contract: inHand ? this.contract : 0,
        kontras: 0,
        ask_levels: z.slice(),
        called: [],
      },
    };
  }
}

// every two cards of a hand, in pack order
function pairs(hand) {
  const h = hand.slice().sort((a, b) => PACK.indexOf(a) - PACK.indexOf(b));
  const out = [];
  for (let i = 0; i < h.length; i++) for (let j = i + 1; j < h.length; j++) out.push([h[i], h[j]]);
  return out;
}

// action text -> {word, ...}; throws bad_action for a text that is no action of Thousand
function parseAction(text, o) {
  if (PACK.includes(text)) return { word: 'card' };
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline',
    'keep', 'concede', 'redeal'];
  if (text === 'concede' && o.concede === 'off' && !fault('concede-off-illegal')) {
    throw new Refusal('bad_action', null, 'no concession in these rules');
  }
  if (words.includes(text)) return { word: text };
  // words of another bidding game (Marjapussi's Kontra and calls) are actions here too,
  // refused as core.phase; Belote's words and a dark bid (without dark_bid) are not
  if (/^(kontra|re)$/.test(text)) return { word: 'kontra' };
  if (/^(ask:pair|call:[HDCS]|ask:half:[HDCS])$/.test(text)) return { word: 'foreign' };
  let m = /^(bid|raise):(0|[1-9][0-9]{0,8})$/.exec(text);
  if (m) return { word: m[1], value: Number(m[2]) };
  // the words of options in force only: a dark bid, an ace marriage, a packet
  m = /^dark:(0|[1-9][0-9]{0,8})$/.exec(text);
  if (m && o.dark_bid) return { word: 'dark', value: Number(m[1]) };
  m = /^aces:([HDCS])$/.exec(text);
  if (m && o.ace_marriage > 0) return { word: 'aces', suit: m[1] };
  m = /^talon:([1-9][0-9]{0,8})$/.exec(text);
  if (m && o.players === 2) return { word: 'talon', value: Number(m[1]) };
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

// the four rulesets: Thousand's options, other defaults and bounds (spec/thousand-*.yaml)
const RULESETS = {
  thousand: { defaults: {}, bounds: {} },
  'thousand-2': { defaults: { players: 2 }, bounds: {} },
  'thousand-4': { defaults: { players: 4 }, bounds: {} },
  'thousand-pl': {
    defaults: {
      opening_bid: 'fh_auto_100', bid_step: 10, bid_cap: 'marriage_sum', concede: 'bomb',
      must_beat: true, round_to: 10, barrel_at: 800, barrel_clamp: false, barrel_attempts: 0,
      barrel_penalty: 0, barrel_collision: 'coexist', bolt_condition: 'off',
      four_nines_redeal: 'before_bidding', sitter_score: 'aces_and_marriages',
    },
    bounds: { bid_min: 40, barrel_at: 800 },
  },
};

function optionSpecs(ruleset) {     // name -> [type, default, values or [min, max]]
  const { defaults, bounds } = RULESETS[ruleset];
  const out = {};
  for (const [name, [type, dflt, range]] of Object.entries(OPTIONS)) {
    const r = name in bounds ? [bounds[name], range[1]] : range;
    out[name] = [type, name in defaults ? defaults[name] : dflt, r];
  }
  return out;
}

function hello() {
  const rulesets = {};
  for (const ruleset of Object.keys(RULESETS)) {
    const options = {};
    for (const [name, [type, dflt, range]] of Object.entries(optionSpecs(ruleset))) {
      options[name] = { type, default: dflt };
      if (type === 'enum') options[name].values = range;
      else if (type === 'int') [options[name].min, options[name].max] = range;
    }
    rulesets[ruleset] = { options };
  }
  const reply = {
    type: 'hello', engine: 'thousand-engine.js', version: '2.0', protocol: 2,
    requests: ['choose'], rulesets,
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map(([ruleset, options]) => ({ ruleset, options }));
  }
  return reply;
}

const isSeat = (x, n) => Number.isInteger(x) && x >= 0 && x < n;

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

// combinations the rules cannot play (answered as unsupported)
function unplayable(o) {
  const step = o.bid_step;
  if (o.bid_min % step || o.bid_max % step || o.bid_max < o.bid_min) {
    return 'bids must be multiples of the step, the highest at least the lowest';
  }
  if (o.dark_bid && (120 < o.bid_min || 120 > o.bid_max || 120 % step)) {
    return 'a dark bid of 120 is no bid of the auction';
  }
  if (o.barrel && o.barrel_clamp && o.barrel_at < o.target && o.target - o.barrel_at > o.bid_max) {
    return 'from the barrel no contract reaches the target: nobody could win';
  }
  if (o.opening_bid === 'dealer_auto_100' && o.players === 4 && o.sitter === 'dealer') {
    return 'the dealer sits out and cannot hold the opening bid (rule thousand.auction.opening)';
  }
  return null;
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  if (!Object.prototype.hasOwnProperty.call(RULESETS, req.ruleset)) {
    throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
  }
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const specs = optionSpecs(req.ruleset);
  const options = {};
  for (const [name, [, dflt]] of Object.entries(specs)) options[name] = dflt;
  for (const [name, value] of Object.entries(given)) {
    const spec = specs[name];
    if (!spec) throw new Refusal('unsupported', null, `unknown option ${name}`);
    const [type, , range] = spec;
    if (type === 'bool' && typeof value !== 'boolean') throw badRequest(`${name} is true or false`);
    if (type === 'int' && !Number.isInteger(value)) throw badRequest(`${name} is a whole number`);
    // an enum's values may be of any JSON type: another value is one not offered
    const outside = type === 'int' ? value < range[0] || value > range[1]
      : type === 'enum' && !range.includes(value);
    if (outside) {
      throw new Refusal('unsupported', null, `${name}=${value} not supported`);
    }
    options[name] = value;
  }
  // a conditional default: the concession award with four at the table
  if (!('concede_award' in given) && options.players === 4
    && (req.ruleset === 'thousand-pl' || options.concede === 'bomb')) options.concede_award = 40;
  const why = unplayable(options);
  if (why) throw new Refusal('unsupported', null, why);
  if (!isSeat(req.dealer, options.players)) throw badRequest('dealer must be a seat');
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
  if (!isSeat(req.seat, m.n)) throw badRequest('seat must be a seat of the table');
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
      if (!isSeat(req.seat, m.n)) throw badRequest('seat must be a seat of the table');
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
    if (args[k] === '--house') {        // [RULESET:]NAME=V, NAME=V1|V2 or NAME=MIN..MAX,...
      let text = args[++k];
      let ruleset = 'thousand';
      const named = /^([a-z0-9-]+):(.*)$/.exec(text);
      if (named && RULESETS[named[1]]) [, ruleset, text] = named;
      const house = {};
      for (const pair of text.split(',')) {
        const [name, v] = pair.split('=');
        const [type, , range] = OPTIONS[name] || [];
        const typed = (x) => (type === 'int' ? Number(x) : type === 'bool' ? x === 'true'
          : range.includes(Number(x)) ? Number(x) : x);
        const span = /^(\d+)\.\.(\d+)$/.exec(v);
        if (span) house[name] = { min: Number(span[1]), max: Number(span[2]) };
        else if (v.includes('|')) house[name] = { values: v.split('|').map(typed) };
        else house[name] = typed(v);
      }
      HOUSE.push([ruleset, house]);
      continue;
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
