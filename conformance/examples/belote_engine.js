#!/usr/bin/env node
// A Belote engine in plain Node.js, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst, `mariage rules belote`, `mariage rules
// belote-coinche`, `mariage rules belote-contree` and spec/belote*.yaml): one file, no
// dependencies. It speaks the engine protocol (version 2, without hidden cards) and plays
// the rulesets "belote" (the turn-up taken), "belote-coinche" and "belote-contree" (an
// auction of a value and a suit, coinche and surcoinche, capot, générale), each with every
// option at every value.
//
//   mariage conformance --engine "node conformance/examples/belote_engine.js" --ruleset belote
//   mariage conformance --engine "node conformance/examples/belote_engine.js" \
//       --derived --ruleset belote --min-coverage 100 -o undertrump=optional
//   mariage conformance --engine "node conformance/examples/belote_engine.js" \
//       --ruleset belote-coinche --require-rule-ids --min-coverage 100
//   mariage conformance --engine "node conformance/examples/belote_engine.js" \
//       --derived --ruleset belote-contree --min-coverage 100 -o coinche_timing=any_time
//
// "--fault MODE" (or BELOTE_FAULT=MODE) plants one mistake, so that you can see what the
// runner says about it; "--list-faults" lists them. "--house [RULESET:]NAME=V,NAME=V1/V2"
// (repeatable; the ruleset belote by default) declares a house configuration in hello,
// checked by `mariage conformance --declared`:
//
//   mariage conformance --engine "node conformance/examples/belote_engine.js \
//       --house belote-coinche:sa_ta=true,surcoinche_multiplier=3/4" \
//       --ruleset belote-coinche --declared --min-coverage 100
'use strict';

// ---------------------------------------------------------------------------
// The ruleset's data (spec/belote.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J', '9', '8', '7'];     // plain order, high to low
const TRUMP_RANKS = ['J', '9', 'A', 'T', 'K', 'Q', '8', '7'];
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };
const TRUMP_POINTS = { J: 20, 9: 14, A: 11, T: 10, K: 4, Q: 3, 8: 0, 7: 0 };
const SA_POINTS = { A: 19, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };   // sans-atout
const TA_POINTS = { J: 13, 9: 9, A: 6, T: 5, K: 3, Q: 2, 8: 0, 7: 0 };    // tout-atout
const RUN_ORDER = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7'];
const runOrder = () => (FAULT === 'run-plain-order' ? RANKS : RUN_ORDER);
const RUN_KINDS = [[5, 'cent', 100], [4, 'cinquante', 50], [3, 'tierce', 20]];
const CARRE_VALUES = { J: 200, 9: 150, A: 100, T: 100, K: 100, Q: 100 };
const CARRE_ORDER = ['J', '9', 'A', 'T', 'K', 'Q'];
const SA_CARRE_VALUES = { A: 200, T: 150, K: 100, Q: 100, J: 100, 9: 100 };
const SA_CARRE_ORDER = ['A', 'T', 'K', 'Q', 'J', '9'];
const PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
const MAX_LINE = 1 << 20;
const N = 4;

// options: name -> [type, default, values or [min, max]]
const OPTIONS = {
  target: ['int', 1000, [1, 10000]],
  shuffle: ['enum', 'every_deal', ['every_deal', 'first_deal_only']],
  first_dealer: ['enum', 'random', ['random', 'seat0', 'seat1', 'seat2', 'seat3']],
  deal_limit: ['int', 0, [0, 1000]],
  direction: ['enum', 'anticlockwise', ['anticlockwise', 'clockwise']],
  deal_packets: ['enum', '3-2', ['3-2', '2-3']],
  second_round_suits: ['enum', 'other_suits', ['other_suits', 'any_suit']],
  second_round_sa_ta: ['bool', false],
  all_pass: ['enum', 'next_dealer', ['next_dealer', 'same_dealer']],
  second_deal_start: ['enum', 'eldest', ['eldest', 'taker']],
  must_overtrump_partner: ['bool', true],
  partner_trump_undertrump: ['enum', 'no_undertrump',
    ['no_undertrump', 'allowed', 'overtrump_if_only_trumps']],
  undertrump: ['enum', 'required', ['required', 'optional', 'forbidden_unless_only_trumps']],
  trump_when_partner_master: ['enum', 'free', ['free', 'must_trump']],
  announcements: ['bool', true],
  long_sequence: ['enum', 'single_hundred', ['single_hundred', 'split']],
  card_in_two_combinations: ['bool', false],
  announce_tie: ['enum', 'none_score', ['none_score', 'first_in_rotation']],
  belote_order: ['enum', 'any', ['any', 'king_first']],
  belote_declare: ['enum', 'explicit', ['explicit', 'automatic']],
  belote_counts_for_contract: ['bool', true],
  belote_on_failure: ['enum', 'holder_keeps', ['holder_keeps', 'goes_to_winner']],
  belote_alone_cannot_win: ['bool', true],
  dedans_rule: ['enum', 'litige', ['litige', 'tie_fails', 'tie_makes']],
  dedans_points: ['int', 162, [0, 1000]],
  capot_value: ['enum', 252, [252, 250, 162]],
  rounding: ['enum', 'none', ['none', 'nearest10_5up', 'nearest10_6up']],
};

// belote-coinche (spec/belote-coinche.yaml): the auction's options replace the taking's
const COINCHE_OPTIONS = { ...OPTIONS };
for (const gone of ['deal_packets', 'second_round_suits', 'second_deal_start', 'second_round_sa_ta',
  'dedans_points', 'capot_value']) delete COINCHE_OPTIONS[gone];
Object.assign(COINCHE_OPTIONS, {
  target: ['int', 2000, [1, 10000]],
  undertrump: ['enum', 'optional', OPTIONS.undertrump[2]],
  rounding: ['enum', 'nearest10_5up', OPTIONS.rounding[2]],
  generale: ['int', 0, [0, 10000]],
  coinche_timing: ['enum', 'in_turn', ['in_turn', 'any_time']],
  rounding_decides_game: ['bool', true],
  coinche_deal_packets: ['enum', '3-2-3', ['3-2-3', '3-3-2', '2-3-3', '4-4']],
  bid_min: ['int', 80, [10, 160]],
  bid_step: ['int', 10, [10, 20]],
  bid_max: ['int', 160, [80, 240]],
  capot_coinchable: ['bool', true],
  must_beat_defence: ['bool', true],
  bid_80_needs_82: ['bool', true],
  belote_multiplied: ['bool', true],
  multiplier_base: ['enum', 'whole_score', ['whole_score', 'bid_only', 'fixed_320_640']],
  surcoinche_multiplier: ['enum', 4, [4, 3]],
  failed_base: ['enum', 160, [160, 162]],
  coinche_score_mode: ['enum', 'made_plus_bid', ['made_plus_bid', 'bid_only', 'made_only']],
  sa_ta: ['bool', false],
  ta_values: ['enum', 'ffb2015', ['ffb2015', 'pagat', 'convert_162_258']],
  ta_must_beat_partner: ['bool', true],
  capot_scoring: ['enum', 'ffb', ['ffb', 'pagat']],
  defence_capot_250: ['bool', true],
  coinche_freezes: ['bool', true],
});
// belote-contree (spec/belote-contree.yaml): coinche without announcements, other defaults
const CONTREE_OPTIONS = { ...COINCHE_OPTIONS };
for (const gone of ['announcements', 'long_sequence', 'card_in_two_combinations', 'announce_tie']) {
  delete CONTREE_OPTIONS[gone];
}
Object.assign(CONTREE_OPTIONS, {
  partner_trump_undertrump: ['enum', 'allowed', OPTIONS.partner_trump_undertrump[2]],
  must_beat_defence: ['bool', false],
  bid_80_needs_82: ['bool', false],
  belote_on_failure: ['enum', 'goes_to_winner', OPTIONS.belote_on_failure[2]],
  belote_multiplied: ['bool', false],
});
const RULESETS = { belote: OPTIONS, 'belote-coinche': COINCHE_OPTIONS, 'belote-contree': CONTREE_OPTIONS };
// what a ruleset without an option plays (contrée: no announcements)
const ABSENT = { announcements: false, second_round_sa_ta: false, sa_ta: false };
const TA_VALUES = {
  ffb2015: TA_POINTS,
  pagat: { J: 14, 9: 9, A: 6, T: 5, K: 3, Q: 1, 8: 0, 7: 0 },
  convert_162_258: TRUMP_POINTS,
};

const FAULTS = {
  'run-plain-order': 'runs follow the plain card order, A T K Q J 9 8 7 (belote.announce)',
  'announce-after-card': 'a player may still announce in the first trick after his card '
    + '(belote.announce)',
  'capot-keeps-own': 'takers who make a capot do not score the defenders\' counting '
    + 'announcements (belote.score.capot)',
  'dedans-own-announcements': 'the defenders of a failed contract score only their own '
    + 'announcements, not the takers\' best ones (belote.score.dedans)',
  'litige-dropped': 'the total held from a litige is never paid (belote.score.litige)',
  'belote-alone-wins': 'a team at the target by its belote alone wins at once '
    + '(belote.match.belote-alone)',
  'belote-second-card': 'belote may be said with the second card of the pair, the first '
    + 'played silently (belote.belote)',
  'trump-run-first': 'a run in trumps beats a plain run of the same length whatever the top '
    + 'cards (belote.announce.compare)',
  'shown-both-teams': 'both teams\' announced cards are shown after the first trick '
    + '(belote.announce.show)',
  'tie-at-target-ends': 'equal totals at or over the target end the match, seat 0\'s team '
    + 'winning (belote.match.tie)',
  'unblock-on-made-deal': 'a team stopped at the target by its belote alone is freed only by '
    + 'a trick in a deal it does not fail (belote.match.belote-alone)',
  'take-late-phase': 'a take after the bidding is refused with core.phase, not belote.take',
  'announce-early-phase': 'an announcement during the taking is refused with core.phase, '
    + 'not belote.announce',
  'belote-unplayable-duty': 'belote said with a card the duties forbid is refused with the duty '
    + 'rule, not belote.belote',
  'follow-named-trump-led': 'a card off the suit when trumps are led and a higher trump is held '
    + 'is refused with belote.play.trump-led, not belote.play.follow',
  'split-cent-whole': 'under long_sequence=split a run of six or seven is one cent of all its '
    + 'cards, all shown (belote.announce.cent)',
  'strain-take-bad-action': 'take:SA and take:TA are bad_action where the second round has '
    + 'no strains (belote.take.second-round)',
  'automatic-pair-late': 'under belote_declare=automatic pair_by is set only as the first card '
    + 'of the pair is played (belote.belote)',
  'no-pairs-field': 'the tout-atout pairs are not listed in takers.pairs (belote.belote)',
  'announce-off-after-turn': 'under announcements=false an announcement out of turn is '
    + 'refused with core.turn, not bad_action (protocol.action.bad)',
  'limit-tie-drawn': 'equal totals at or over the target after the last deal of a deal_limit '
    + 'are a draw, not played on (belote.match.tie)',
  'shown-twice': 'the other card of a belote already shown (the turn-up) is listed twice in '
    + '"shown"',
  'belote-alone-crossing': 'a side that writes only its belote is held back only '
    + 'where that deal takes it over the target, not when it stood there already '
    + '(belote.match.belote-alone)',
  'fixed-times-multiplier': 'under multiplier_base=fixed_320_640 a surcoinche scores 160 times '
    + 'surcoinche_multiplier, not 640 (belote-coinche.score.doubled)',
};
let FAULT = process.env.BELOTE_FAULT || null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const remove = (list, x) => list.splice(list.indexOf(x), 1);
const team = (seat) => seat % 2;
const next = (seat) => (seat + 1) % N;

class Refusal extends Error {      // an error answer: code and, for illegal_action, rule
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', rule, message);
const badRequest = (message) => new Refusal('bad_request', null, message);

// ---------------------------------------------------------------------------
// The match

class Match {
  constructor(ruleset, options, dealer, deck) {
    this.rs = ruleset;
    this.auction = ruleset !== 'belote';      // coinche, contrée: an auction, no turn-up
    this.o = options;
    this.exact = [0, 0];           // the lines summed before rounding (rounding_decides_game)
    this.dealer = dealer;
    this.handNo = 0;
    this.played = 0;               // deals played (void deals not counted)
    this.scores = [0, 0];
    this.lastHand = null;
    this.result = null;
    this.held = 0;                 // a litige's total, held for the next played deal
    this.beloteAlone = [false, false];   // at the target by its belote alone: no win yet
    this.phase = 'deal';
    this.resetHand();
    this.deal(deck);
  }

  resetHand() {
    this.hands = [[], [], [], []];
    this.table = [];
    this.trick = 0;
    this.leader = null;
    this.toAct = null;
    this.trump = null;             // a suit, or 'SA' / 'TA' for a strain without one trump
    this.turnUpCard = null;
    this.stock = [];
    this.taker = null;
    this.announced = [];           // [seat, kind, key, cards]
    this.spoke = [false, false, false, false];   // played a card to the first trick
    this.playedBy = [[], [], [], []];
    this.pairBy = null;
    this.pairList = [];            // [seat, suit] of each pair said (or, automatic, dealt)
    this.pairStarted = {};         // suit -> seat that played the first card of a pair
    this.shown = [[], [], [], []];
    this.tricksWon = [0, 0];
    this.tricksBy = [0, 0, 0, 0];  // per seat: a générale is its bidder's alone
    this.cardPoints = [0, 0];
    this.annPoints = [0, 0];
    this.counting = null;          // the team whose announcements count, or null
    this.bid = null;               // the standing bid: {seat, value, strain, word}
    this.doubled = 0;              // 1 coinche, 2 surcoinche
    this.passRun = 0;              // passes in a row in the auction
    this.window = null;            // coinche_timing=any_time: the opponents still to say
    this.frozen = null;            // after a coinche that freezes: the doubled side to speak
  }

  // -- the first distribution: 3 then 2 (or 2 then 3) from eldest, then the turn-up
  deal(deck) {
    this.resetHand();
    this.handNo += 1;
    if (this.auction) return this.dealAll(deck);
    let i = 0;
    for (const size of this.o.deal_packets === '2-3' ? [2, 3] : [3, 2]) {
      for (let k = 1; k <= N; k++) {
        const seat = (this.dealer + k) % N;
        for (let j = 0; j < size; j++) this.hands[seat].push(deck[i++]);
      }
    }
    this.turnUpCard = deck[i++];
    this.stock = deck.slice(i);
    this.phase = 'taking';
    this.round = 1;
    this.passes = 0;
    this.leader = next(this.dealer);
    this.toAct = next(this.dealer);
  }

  // coinche, contrée: the whole pack, eight each, in the packets of coinche_deal_packets
  dealAll(deck) {
    let i = 0;
    for (const size of this.o.coinche_deal_packets.split('-').map(Number)) {
      for (let k = 1; k <= N; k++) {
        const seat = (this.dealer + k) % N;
        for (let j = 0; j < size; j++) this.hands[seat].push(deck[i++]);
      }
    }
    this.phase = 'bidding';
    this.leader = next(this.dealer);
    this.toAct = this.leader;
  }

  // the calls of the second round
  secondRoundCalls() {
    const turned = suit(this.turnUpCard);
    const suits = this.o.second_round_suits === 'any_suit' ? SUITS : SUITS.filter((s) => s !== turned);
    return suits.concat(this.o.second_round_sa_ta ? ['SA', 'TA'] : []);
  }

  // -- the auction (coinche, contrée)
  strains() { return SUITS.concat(this.o.sa_ta ? ['SA', 'TA'] : []); }

  // what a bid is worth in the auction's order: values, then capot, then générale
  bidRank(word) {
    if (word === 'capot') return 1e6;
    if (word === 'generale') return 2e6;
    return Number(word);
  }

  bidValues() {            // the multiples of bid_step from bid_min to bid_max
    const o = this.o;
    const out = [];
    for (let v = Math.ceil(o.bid_min / o.bid_step) * o.bid_step; v <= o.bid_max; v += o.bid_step) out.push(v);
    return out;
  }

  mayDouble(seat) {        // coinche the standing bid now (in turn)
    const b = this.bid;
    if (!b || this.doubled || team(b.seat) === team(seat)) return false;
    return b.word === 'capot' || b.word === 'generale' ? this.o.capot_coinchable : true;
  }

  auctionLegal(seat) {
    if (this.window) return ['pass', 'coinche'];
    if (this.frozen) return ['pass', 'surcoinche'];
    const acts = ['pass'];
    const top = this.bid ? this.bidRank(this.bid.word) : 0;
    const words = this.bidValues().map(String).concat(['capot'],
      this.o.generale > 0 ? ['generale'] : []);
    for (const w of words) {
      if (this.bidRank(w) > top) for (const st of this.strains()) acts.push(`bid:${w}:${st}`);
    }
    if (this.o.coinche_timing === 'in_turn' && this.mayDouble(seat)) acts.push('coinche');
    if (this.doubled === 1 && team(this.bid.seat) === team(seat)) acts.push('surcoinche');
    return acts;
  }

  bidding(seat, act) {
    const o = this.o;
    const w = act.word;
    if (this.window) {
      if (w === 'bid') throw illegal('belote-coinche.auction.coinche-at-once', 'the opponents say coinche or pass');
      if (w === 'surcoinche') throw illegal('belote-coinche.auction.coinche', 'no coinche to redouble');
      this.window.shift();
      if (w === 'coinche') return this.coinche(seat);
      if (this.window.length) this.toAct = this.window[0];
      else { this.window = null; this.toAct = next(this.bid.seat); }
      return undefined;
    }
    if (this.frozen) {
      if (w === 'bid' || w === 'coinche') throw illegal('belote-coinche.auction.coinche', 'only the doubled side speaks now');
      if (w === 'surcoinche') { this.doubled = 2; return this.endAuction(); }
      this.frozen.shift();
      if (!this.frozen.length) return this.endAuction();
      this.toAct = this.frozen[0];
      return undefined;
    }
    if (w === 'pass') {
      this.passRun += 1;
      this.toAct = next(seat);
      if (!this.bid && this.passRun === N) return this.voidDeal();
      if (this.bid && this.passRun === N - 1) return this.endAuction();
      return undefined;
    }
    if (w === 'coinche') {
      if (o.coinche_timing !== 'in_turn' || !this.mayDouble(seat)) {
        const atOnce = o.coinche_timing !== 'in_turn' && !this.doubled;   // a doubled bid: the double's rule
        const rule = atOnce ? 'belote-coinche.auction.coinche-at-once' : 'belote-coinche.auction.coinche';
        throw illegal(rule, 'no bid of an opponent to double');
      }
      return this.coinche(seat);
    }
    if (w === 'surcoinche') {
      if (this.doubled !== 1 || team(this.bid.seat) !== team(seat)) throw illegal('belote-coinche.auction.coinche', 'no coinche of your side\'s bid to redouble');
      this.doubled = 2;
      return this.endAuction();
    }
    // a bid
    const top = this.bid ? this.bidRank(this.bid.word) : 0;
    if (this.bid && this.bid.word === 'generale') throw illegal('belote-coinche.auction.generale', 'nothing can be bid over it');
    if (this.bid && this.bid.word === 'capot' && act.value !== 'generale') {
      throw illegal('belote-coinche.auction.capot', 'nothing but a générale can be bid over it');
    }
    const numeric = act.value !== 'capot' && act.value !== 'generale';
    if (!this.strains().includes(act.strain) || (numeric && !this.bidValues().includes(Number(act.value)))
      || this.bidRank(act.value) <= top) {
      throw illegal('belote-coinche.auction.bids', 'not a bid higher than the standing one');
    }
    this.bid = { seat, word: act.value, strain: act.strain };
    this.doubled = 0;
    this.passRun = 0;
    if (o.coinche_timing === 'any_time' && this.mayDouble(next(seat))) {
      this.window = [next(seat), (seat + 3) % N];
      this.toAct = this.window[0];
    } else this.toAct = next(seat);
    return undefined;
  }

  coinche(seat) {
    this.doubled = 1;
    this.window = null;
    this.passRun = 0;
    if (this.o.coinche_freezes) {
      this.frozen = [1, 2, 3].map((k) => (seat + k) % N).filter((x) => team(x) === team(this.bid.seat));
      this.toAct = this.frozen[0];
    } else this.toAct = next(this.o.coinche_timing === 'any_time' ? this.bid.seat : seat);
  }

  endAuction() {
    const b = this.bid;
    this.frozen = null;
    this.window = null;
    this.taker = b.seat;
    this.trump = b.strain;
    this.contract = b.word === 'capot' ? 250 : b.word === 'generale' ? this.o.generale : Number(b.word);
    this.startPlay();
  }

  startPlay() {
    if (this.o.belote_declare === 'automatic') {     // the holder of a pair, known at once
      for (const s of this.pairSuits()) {
        for (let seat = 0; seat < N; seat++) {
          if (this.hasPair(seat, s) && FAULT !== 'automatic-pair-late') this.recordPair(seat, s);
        }
      }
    }
    this.phase = 'play';
    this.trick = 1;
    this.leader = next(this.dealer);
    this.toAct = this.leader;
  }

  // -- what the seat may do
  legal(seat) {
    if (this.phase === 'bidding') return seat === this.toAct ? this.auctionLegal(seat) : [];
    if (this.phase === 'taking') {
      if (seat !== this.toAct) return [];
      if (this.round === 1) return ['take', 'pass'];
      return this.secondRoundCalls().map((s) => `take:${s}`).concat(['pass']);
    }
    if (this.phase !== 'play' || seat !== this.toAct) return [];
    const acts = [];
    if (this.trick === 1) {
      for (const a of this.combinations(seat)) acts.push(a.text);
    }
    for (const c of this.playable(seat)) {
      acts.push(c);
      if (this.o.belote_declare === 'explicit' && this.canSayBelote(seat, c)) acts.push(`belote:${c}`);
    }
    return acts;
  }

  carreTable() {
    return this.trump === 'SA' ? [SA_CARRE_ORDER, SA_CARRE_VALUES] : [CARRE_ORDER, CARRE_VALUES];
  }

  // the combinations the seat may still announce: each maximal run of 3 or more (under
  // long_sequence=split, a run of eight is a cent and a tierce), each carré
  combinations(seat) {
    if (!this.o.announcements) return [];
    if (this.trick !== 1 || (this.spoke[seat] && FAULT !== 'announce-after-card')) return [];
    const shared = this.o.card_in_two_combinations;
    const usedRuns = new Set();
    const usedSets = new Set();
    for (const [s, kind, , cards] of this.announced) {
      if (s !== seat) continue;
      const into = kind === 'carre' || !shared ? usedSets : usedRuns;
      cards.forEach((c) => into.add(c));
      if (!shared) cards.forEach((c) => usedRuns.add(c));
      else if (kind !== 'carre') cards.forEach((c) => usedRuns.add(c));
    }
    const runHand = this.hands[seat].filter((c) => !usedRuns.has(c));
    const setHand = this.hands[seat].filter((c) => !usedSets.has(c));
    const out = [];
    const addRun = (run) => {
      const [, kind] = RUN_KINDS.find(([len]) => run.length >= len);
      out.push({ text: `${kind}:${run[0]}`, kind, key: run[0], cards: run.slice() });
    };
    for (const s of SUITS) {
      let run = [];
      const flush = () => {
        const cut = this.o.long_sequence === 'split' && run.length > 5
          && (FAULT !== 'split-cent-whole' || run.length === 8);
        if (cut) {                   // a cent from the top, then what is left
          addRun(run.slice(0, 5));
          if (run.length >= 8) addRun(run.slice(5));
        } else if (run.length >= 3) addRun(run);
        run = [];
      };
      for (const r of runOrder()) {
        if (runHand.includes(r + s)) run.push(r + s); else flush();
      }
      flush();
    }
    const [order] = this.carreTable();
    for (const r of order) {
      const cards = SUITS.map((s) => r + s);
      if (cards.every((c) => setHand.includes(c))) {
        out.push({ text: `carre:${r}`, kind: 'carre', key: r, cards });
      }
    }
    return out;
  }

  // the suits whose king and queen are a belote
  pairSuits() {
    if (this.trump === 'SA') return [];
    return this.trump === 'TA' ? SUITS : [this.trump];
  }

  hasPair(seat, s) {
    return this.hands[seat].includes(`K${s}`) && this.hands[seat].includes(`Q${s}`);
  }

  canSayBelote(seat, card) {
    if (!this.pairSuits().includes(suit(card)) || !['K', 'Q'].includes(rank(card))) return false;
    if (this.o.belote_order === 'king_first' && rank(card) !== 'K') return false;
    const h = this.hands[seat];
    const s = suit(card);
    if (FAULT === 'belote-second-card' && this.pairStarted[s] === undefined) {
      const other = rank(card) === 'K' ? `Q${s}` : `K${s}`;
      return h.includes(other) || this.playedBy[seat].includes(other);
    }
    return this.hasPair(seat, s);
  }

  isTrump(card) { return suit(card) === this.trump; }

  strength(card, led) {
    if (this.trump === 'TA') return suit(card) === led ? 8 - TRUMP_RANKS.indexOf(rank(card)) : 0;
    if (this.isTrump(card)) return 100 + 8 - TRUMP_RANKS.indexOf(rank(card));
    if (suit(card) === led) return 8 - RANKS.indexOf(rank(card));
    return 0;
  }

  points(card) {
    if (this.trump === 'SA') return SA_POINTS[rank(card)];
    if (this.trump === 'TA') return (this.auction ? TA_VALUES[this.o.ta_values] : TA_POINTS)[rank(card)];
    return this.isTrump(card) ? TRUMP_POINTS[rank(card)] : POINTS[rank(card)];
  }

  winning() {           // [seat, card] winning the table so far
    const led = suit(this.table[0][1]);
    let best = this.table[0];
    for (const e of this.table) if (this.strength(e[1], led) > this.strength(best[1], led)) best = e;
    return best;
  }

  // the cards the seat may play, and for a card it may not, the rule that forbids it
  duty(seat) {
    const o = this.o;
    const hand = this.hands[seat];
    const all = { cards: hand.slice(), rule: null };
    if (!this.table.length) return all;
    const led = suit(this.table[0][1]);
    const following = hand.filter((c) => suit(c) === led);
    const [wSeat, wCard] = this.winning();
    const partnerWins = team(wSeat) === team(seat) && wSeat !== seat;
    if (this.trump === 'SA' || this.trump === 'TA') {
      if (!following.length) return all;
      if (this.trump === 'SA') return { cards: following, rule: 'belote.play.follow' };
      if (this.o.ta_must_beat_partner === false && partnerWins) return { cards: following, rule: 'belote.play.follow' };
      const best = Math.max(...this.table.map(([, c]) => this.strength(c, led)));
      const higher = following.filter((c) => this.strength(c, led) > best);
      if (higher.length) return { cards: higher, rule: 'belote.play.tout-atout', follow: following };
      return { cards: following, rule: 'belote.play.follow' };
    }
    const trump = this.trump;
    const topTrump = Math.max(0, ...this.table.map(([, c]) => (suit(c) === trump ? this.strength(c, led) : 0)));
    const trumps = hand.filter((c) => suit(c) === trump);
    const higher = trumps.filter((c) => this.strength(c, led) > topTrump);
    if (following.length) {
      const beat = o.must_overtrump_partner || !partnerWins;
      if (led === trump && higher.length && beat) {
        return { cards: higher, rule: 'belote.play.trump-led', follow: following };
      }
      return { cards: following, rule: 'belote.play.follow' };
    }
    const plain = hand.filter((c) => suit(c) !== trump);
    const winners = trumps.filter((c) => this.strength(c, led) > this.strength(wCard, led));
    const mustTrump = o.trump_when_partner_master === 'must_trump';
    if (partnerWins && !mustTrump) {
      const mode = o.partner_trump_undertrump;
      if (mode === 'allowed') return all;
      if (mode === 'overtrump_if_only_trumps') {
        if (plain.length || !this.isTrump(wCard) || !winners.length) return all;
        return { cards: winners, rule: 'belote.play.partner-winning' };
      }
      if (!this.isTrump(wCard)) return all;
      const ok = plain.concat(winners);
      return ok.length ? { cards: ok, rule: 'belote.play.partner-winning' } : all;
    }
    if (!trumps.length) return all;
    if (mustTrump && partnerWins && this.table.length === 3 && this.isTrump(wCard)) {
      const ok = plain.concat(winners);       // the fourth: discard or overtrump
      return ok.length ? { cards: ok, rule: 'belote.play.void' } : all;
    }
    if (winners.length) {
      const cards = o.undertrump === 'required' ? (higher.length ? higher : trumps) : winners;
      return { cards, rule: 'belote.play.void' };
    }
    // no trump of his can win
    if (o.undertrump === 'required') return { cards: trumps, rule: 'belote.play.void' };
    if (o.undertrump === 'optional') return all;
    return plain.length ? { cards: plain, rule: 'belote.play.void' } : all;
  }

  playable(seat) { return this.duty(seat).cards; }

  // -- an action
  apply(seat, text) {
    const act = parseAction(text, this);
    const off = act.word === 'announce' && !this.o.announcements;   // no such action here
    if (off && FAULT !== 'announce-off-after-turn') {
      throw new Refusal('bad_action', null, `no announcements are played: ${text}`);
    }
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    if (seat !== this.toAct) throw illegal('core.turn', 'not your turn');
    if (off) throw new Refusal('bad_action', null, `no announcements are played: ${text}`);
    const bidWord = ['bid', 'coinche', 'surcoinche'].includes(act.word);
    if (this.phase === 'taking' || this.phase === 'bidding') {
      if (act.word === 'belote') {
        throw illegal(this.o.belote_declare === 'automatic' ? 'core.phase' : 'belote.belote', 'belote is said in the play');
      }
      if (act.word === 'announce') throw illegal(FAULT === 'announce-early-phase' ? 'core.phase' : 'belote.announce', 'announcements come in the first trick');
      if (this.phase === 'bidding') {
        if (!bidWord && act.word !== 'pass') throw illegal('core.phase', 'the auction is on');
        return this.bidding(seat, act);
      }
      if (act.word !== 'take' && act.word !== 'pass') throw illegal('core.phase', 'the turn-up is being taken');
      return this.take(seat, act);
    }
    if (act.word === 'take') throw illegal(FAULT === 'take-late-phase' ? 'core.phase' : 'belote.take', 'the bidding is over');
    if (act.word === 'bid') throw illegal('belote-coinche.auction', 'the auction is over');
    if (bidWord) throw illegal('belote-coinche.auction.coinche', 'the auction is over');
    if (!['card', 'announce', 'belote'].includes(act.word)) throw illegal('core.phase', 'cards are played now');
    if (act.word === 'announce') return this.announce(seat, act);
    const card = act.card;
    if (act.word === 'belote' && this.o.belote_declare === 'automatic') {
      throw illegal('core.phase', 'the belote is scored without a word');
    }
    const mayPlay = FAULT === 'belote-unplayable-duty' || this.playable(seat).includes(card);
    if (act.word === 'belote' && !(this.canSayBelote(seat, card) && mayPlay)) {
      throw illegal('belote.belote', 'belote is said with the king or queen of trumps, holding both');
    }
    if (!this.hands[seat].includes(card)) throw illegal('core.hand', `${card} is not in the hand`);
    const d = this.duty(seat);
    if (!d.cards.includes(card)) {
      const misnamed = FAULT === 'follow-named-trump-led';
      const rule = d.follow && !d.follow.includes(card) && !misnamed ? 'belote.play.follow' : d.rule;
      throw illegal(rule, `${card} may not be played now`);
    }
    if (act.word === 'belote') this.sayBelote(seat, card);
    else if (FAULT === 'automatic-pair-late' && this.o.belote_declare === 'automatic'
      && this.canSayBelote(seat, card)) this.recordPair(seat, suit(card));
    this.play(seat, card);
  }

  // the pair of trumps is pair_by; in tout-atout the pairs of the other suits are "pairs"
  recordPair(seat, s) {
    this.pairList.push([seat, s]);
    if (s === this.trump) this.pairBy = seat;
  }

  sayBelote(seat, card) {
    const s = suit(card);
    this.recordPair(seat, s);
    this.pairStarted[s] = seat;
    const other = rank(card) === 'K' ? `Q${s}` : `K${s}`;
    if (!this.shown[seat].includes(other) || FAULT === 'shown-twice') this.shown[seat].push(other);
  }

  take(seat, act) {
    if (act.word === 'take') {
      const turned = suit(this.turnUpCard);
      if (this.round === 1 && act.suit) throw illegal('belote.take', 'the first round takes the turn-up');
      if (this.round === 2 && !this.secondRoundCalls().includes(act.suit)) {
        throw illegal('belote.take.second-round', 'that call is not open in the second round');
      }
      this.trump = act.suit || turned;
      this.taker = seat;
      this.secondDeal();
      return;
    }
    this.passes += 1;
    this.toAct = next(seat);
    if (this.passes === N) { this.round = 2; }
    if (this.passes === 2 * N) this.voidDeal();
  }

  secondDeal() {
    this.hands[this.taker].push(this.turnUpCard);
    this.shown[this.taker].push(this.turnUpCard);      // everyone saw it go to the taker
    let i = 0;
    const from = this.o.second_deal_start === 'taker' ? this.taker : next(this.dealer);
    for (let k = 0; k < N; k++) {
      const seat = (from + k) % N;
      const n = seat === this.taker ? 2 : 3;
      for (let j = 0; j < n; j++) this.hands[seat].push(this.stock[i++]);
    }
    this.stock = [];
    this.startPlay();
  }

  announce(seat, act) {
    if (this.trick !== 1 || (this.spoke[seat] && FAULT !== 'announce-after-card')) {
      throw illegal('belote.announce', 'announcements are made in the first trick, before one\'s card');
    }
    const found = this.combinations(seat).find((a) => a.text === act.text);
    if (!found) throw illegal(`belote.announce.${act.kind}`, `${act.text} is not held`);
    this.announced.push([seat, found.kind, found.key, found.cards]);
  }

  play(seat, card) {
    remove(this.hands[seat], card);
    this.playedBy[seat].push(card);
    for (const s of this.shown) if (s.includes(card)) remove(s, card);
    this.table.push([seat, card]);
    if (this.trick === 1) this.spoke[seat] = true;
    if (this.table.length < N) { this.toAct = next(seat); return; }
    const [winner] = this.winning();
    const t = team(winner);
    this.tricksWon[t] += 1;
    this.tricksBy[winner] += 1;
    for (const [, c] of this.table) this.cardPoints[t] += this.points(c);
    this.table = [];
    if (this.trick === 1) this.compareAnnouncements();
    if (this.trick === 8) {
      this.cardPoints[t] += 10;
      this.endHand();
      return;
    }
    this.trick += 1;
    this.leader = winner;
    this.toAct = winner;
  }

  annRank(a) {            // a comparable strength: [class, ...]
    const [, kind, key, cards] = a;
    const [order] = this.carreTable();
    if (kind === 'carre') return [2, 6 - order.indexOf(key), 0, 0];
    const tr = suit(key) === this.trump ? 1 : 0;
    const top = 8 - runOrder().indexOf(rank(key));
    if (FAULT === 'trump-run-first') return [1, cards.length, tr, top];
    return [1, cards.length, top, tr];
  }

  annValue(a) {
    const [, kind, key, cards] = a;
    if (kind === 'carre') return this.carreTable()[1][key];
    return RUN_KINDS.find(([len]) => cards.length >= len)[2];
  }

  compareAnnouncements() {
    const cmp = (x, y) => { for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i] - y[i]; return 0; };
    const best = [null, null];
    const first = [null, null];      // the place in the order of announcing of each best
    this.announced.forEach((a, i) => {
      const t = team(a[0]);
      if (!best[t] || cmp(this.annRank(a), best[t]) > 0) { best[t] = this.annRank(a); first[t] = i; }
    });
    let w = null;
    if (best[0] && !best[1]) w = 0;
    else if (best[1] && !best[0]) w = 1;
    else if (best[0] && best[1]) {
      const c = cmp(best[0], best[1]);
      w = c > 0 ? 0 : c < 0 ? 1 : null;
      if (w === null && this.o.announce_tie === 'first_in_rotation') w = first[0] < first[1] ? 0 : 1;
    }
    this.counting = w;
    if (w === null) return;
    for (const a of this.announced) {
      if (FAULT === 'shown-both-teams' && team(a[0]) !== w) {
        for (const c of a[3]) if (this.hands[a[0]].includes(c) && !this.shown[a[0]].includes(c)) this.shown[a[0]].push(c);
      }
      if (team(a[0]) !== w) continue;
      this.annPoints[w] += this.annValue(a);
      for (const c of a[3]) if (this.hands[a[0]].includes(c) && !this.shown[a[0]].includes(c)) this.shown[a[0]].push(c);
    }
  }

  // the belotes of the team: under belote_declare=automatic with belote_order=king_first,
  // only a pair whose king was played before its queen
  belotePoints(t) {
    let n = 0;
    for (const [seat, s] of this.pairList) {
      const order = this.playedBy[seat];
      const auto = this.o.belote_declare === 'automatic' && this.o.belote_order === 'king_first';
      if (team(seat) === t && !(auto && order.indexOf(`K${s}`) > order.indexOf(`Q${s}`))) n += 1;
    }
    return 20 * n;
  }

  round10(x) {
    const mode = this.o.rounding;
    if (mode === 'none') return x;
    const r = x % 10;
    const up = mode === 'nearest10_5up' ? r >= 5 : r >= 6;
    return x - r + (up ? 10 : 0);
  }

  endHand() {
    if (this.auction) return this.scoreAuction();
    const o = this.o;
    const T = team(this.taker);
    const D = 1 - T;
    const capot = this.tricksWon[T] === 8 ? T : this.tricksWon[D] === 8 ? D : null;
    const points = this.cardPoints.slice();
    const cards = this.cardPoints.slice();
    if (capot !== null) cards[capot] = o.capot_value;      // 252 (100 for the last trick), 250, 162
    const bel = [this.belotePoints(0), this.belotePoints(1)];
    const total = [0, 1].map((t) => cards[t] + this.annPoints[t] + bel[t]);
    const compared = [0, 1].map((t) => total[t] - (o.belote_counts_for_contract ? 0 : bel[t]));
    const anns = this.annPoints[0] + this.annPoints[1];
    const score = [0, 0];
    let winner = null;
    let outcome = compared[T] > compared[D] ? 'made' : compared[T] < compared[D] ? 'failed' : 'tie';
    if (outcome === 'tie' && o.dedans_rule !== 'litige') outcome = o.dedans_rule === 'tie_fails' ? 'failed' : 'made';
    if (capot === T) outcome = 'made';
    if (capot === D) outcome = 'failed';
    if (outcome === 'made' && capot === T) {
      score[T] = total[T] + (FAULT === 'capot-keeps-own' ? 0 : this.annPoints[D]);
      score[D] = bel[D];
      winner = T;
    } else if (outcome === 'failed') {
      const toWinner = o.belote_on_failure === 'goes_to_winner';
      score[T] = toWinner ? 0 : bel[T];
      const counted = FAULT === 'dedans-own-announcements' ? this.annPoints[D] : anns;
      score[D] = (capot === D ? o.capot_value : o.dedans_points) + counted + bel[D]
        + (toWinner ? bel[T] : 0);
      winner = D;
    } else if (outcome === 'made') {
      score[T] = total[T];
      score[D] = total[D];
      winner = T;
    } else {
      score[D] = total[D];
    }
    if (winner !== null) {
      if (FAULT !== 'litige-dropped') score[winner] += this.held;
      this.held = 0;
    } else this.held += total[T];
    const written = score.map((x) => this.round10(x));
    const before = this.scores.slice();
    this.scores[0] += written[0];
    this.scores[1] += written[1];
    this.played += 1;
    // a team that writes only its belote (failing, or without a trick) may not win on this
    // deal, wherever it stood; a trick in a later deal frees it
    for (const t of [0, 1]) {
      const failed = t === T && winner === D;
      if (this.tricksWon[t] > 0 && !(FAULT === 'unblock-on-made-deal' && failed)) this.beloteAlone[t] = false;
      const onlyBelote = score[t] === bel[t]
        && (this.tricksWon[t] === 0 || (t === T && winner === D));
      const crossing = before[t] < o.target && this.scores[t] >= o.target;
      if (o.belote_alone_cannot_win && onlyBelote && score[t] > 0
        && (crossing || FAULT !== 'belote-alone-crossing')) this.beloteAlone[t] = true;
    }
    this.lastHand = { number: this.handNo, points, score: written, ended: 'played_out', winner: null };
    this.finishHand();
  }

  // coinche, contrée: the contract judged and the deal scored
  scoreAuction() {
    const o = this.o;
    const T = team(this.taker);
    const D = 1 - T;
    const word = this.bid.word;
    const capot = this.tricksWon[T] === 8 ? T : this.tricksWon[D] === 8 ? D : null;
    const points = this.cardPoints.slice();
    let cards = this.cardPoints.slice();
    if (this.trump === 'TA' && o.ta_values === 'convert_162_258') {
      cards = cards.map((x) => Math.floor((x * 162) / 258 + 0.5));
    }
    if (capot !== null) cards[capot] = capot === T && o.capot_scoring === 'pagat' ? 250 : 252;
    const bel = [this.belotePoints(0), this.belotePoints(1)];
    const total = [0, 1].map((t) => cards[t] + this.annPoints[t] + bel[t]);
    const compared = [0, 1].map((t) => total[t] - (o.belote_counts_for_contract ? 0 : bel[t]));
    const anns = this.annPoints[0] + this.annPoints[1];
    let outcome;
    if (word === 'generale') outcome = this.tricksBy[this.taker] === 8 ? 'made' : 'failed';
    else if (word === 'capot') outcome = capot === T ? 'made' : 'failed';
    else {
      // bid_80_needs_82 "matters only where the takers need not beat the defence"
      const need = o.bid_80_needs_82 && !o.must_beat_defence && this.contract <= 80 ? 82 : this.contract;
      if (compared[T] < need) outcome = 'failed';
      else if (!o.must_beat_defence || compared[T] > compared[D]) outcome = 'made';
      else if (compared[T] < compared[D]) outcome = 'failed';
      else outcome = { litige: 'tie', tie_fails: 'failed', tie_makes: 'made' }[o.dedans_rule];
    }
    const score = [0, 0];
    let winner = null;
    let pairOnly = null;      // the losers of a failed or doubled contract left with their belote
    if (outcome === 'tie') {
      score[D] = total[D];
    } else if (outcome === 'made' && !this.doubled) {
      winner = T;
      const own = total[T] + (capot === T ? this.annPoints[D] : 0);
      score[T] = { made_plus_bid: own + this.contract, made_only: own,
        bid_only: this.contract + bel[T] }[o.coinche_score_mode];
      score[D] = capot === T ? bel[D] : total[D];
    } else {                  // failed, or made after a double
      winner = outcome === 'made' ? T : D;
      const L = 1 - winner;
      const mult = [1, 2, o.surcoinche_multiplier][this.doubled];
      let base = o.failed_base;
      if (capot === winner && (winner === T || o.defence_capot_250)) base = 250;
      if (winner === D && (word === 'capot' || word === 'generale') && o.capot_scoring === 'pagat') base = 250;
      const toWinner = o.belote_on_failure === 'goes_to_winner';
      const belW = bel[winner] + (toWinner ? bel[L] : 0);
      score[L] = toWinner ? 0 : bel[L];
      if (score[L]) pairOnly = L;
      if (o.multiplier_base === 'fixed_320_640' && this.doubled) {
        score[winner] = this.doubled === 1 ? 320             // whatever surcoinche_multiplier says
          : FAULT === 'fixed-times-multiplier' ? 160 * o.surcoinche_multiplier : 640;
      } else if (o.multiplier_base === 'bid_only') {
        score[winner] = base + anns + belW + this.contract * mult;
      } else if (o.belote_multiplied) {
        score[winner] = (base + anns + this.contract + belW) * mult;
      } else score[winner] = (base + anns + this.contract) * mult + belW;
    }
    if (winner !== null) {
      score[winner] += this.held;
      this.held = 0;
    } else this.held += total[T];
    for (const t of [0, 1]) {     // a side without a trick that writes only its belote
      if (!this.tricksWon[t] && bel[t] && score[t] === bel[t]) pairOnly = t;
    }
    const written = score.map((x) => this.round10(x));
    const before = this.judged().slice();
    for (const t of [0, 1]) { this.scores[t] += written[t]; this.exact[t] += score[t]; }
    this.played += 1;
    const now = this.judged();
    // a side that writes only its belote may not win on this deal, whatever its tricks and
    // wherever it stood (the losers of a doubled contract too); a trick frees it later
    for (const t of [0, 1]) {
      if (this.tricksWon[t] > 0) this.beloteAlone[t] = false;
      if (FAULT === 'belote-alone-crossing') {     // the classic reading: only a team crossing the target
        const onlyBelote = score[t] === bel[t] && (this.tricksWon[t] === 0 || (t === T && winner === D));
        if (o.belote_alone_cannot_win && onlyBelote && score[t] > 0
          && before[t] < o.target && now[t] >= o.target) this.beloteAlone[t] = true;
      }
    }
    if (o.belote_alone_cannot_win && pairOnly !== null && FAULT !== 'belote-alone-crossing') {
      this.beloteAlone[pairOnly] = true;
    }
    this.lastHand = { number: this.handNo, points, score: written, ended: 'played_out', winner: null };
    this.finishHand();
  }

  // the totals that decide the game: written, or (rounding_decides_game=false) exact
  judged() { return this.o.rounding_decides_game === false ? this.exact : this.scores; }

  voidDeal() {
    this.lastHand = { number: this.handNo, points: [0, 0], score: [0, 0], ended: 'void', winner: null };
    this.finishHand(true);
  }

  finishHand(isVoid) {
    this.phase = 'deal';
    const totals = this.judged();
    const [a, b] = totals;
    const t = this.o.target;
    // the teams at the target that may win (not stopped there by their belote alone)
    const reached = isVoid ? [] : [0, 1].filter((k) => totals[k] >= t
      && (!this.beloteAlone[k] || FAULT === 'belote-alone-wins'));
    const top = Math.max(...reached.map((k) => totals[k]));
    const best = reached.filter((k) => totals[k] === top);
    if (best.length === 1 || (best.length === 2 && FAULT === 'tie-at-target-ends')) {
      this.result = { winner: best.length === 1 ? best[0] : 0, reason: 'target', scores: this.scores.slice() };
      this.phase = 'over';
    }
    // the last deal of a limit ends the game unless a tie at the target plays on
    const limitEnds = !reached.length || FAULT === 'limit-tie-drawn';
    if (this.phase !== 'over' && !isVoid && limitEnds && this.o.deal_limit > 0
      && this.played >= this.o.deal_limit) {
      const w = a > b ? 0 : a < b ? 1 : null;
      this.result = { winner: w, reason: w === null ? 'tie' : 'hands', scores: this.scores.slice() };
      this.phase = 'over';
    }
    const sameDealer = isVoid && this.o.all_pass === 'same_dealer';
    if (this.phase === 'deal' && !sameDealer) this.dealer = next(this.dealer);
    this.resetHand();
  }

  resign(seat) {
    this.result = { winner: 1 - team(seat), reason: 'resign', scores: this.scores.slice() };
    this.phase = 'over';
  }

  state() {
    const inHand = this.phase !== 'deal' && this.phase !== 'over';
    const st = {
      type: 'state',
      phase: this.phase,
      hand: this.handNo,
      trick: inHand && this.phase === 'play' ? this.trick : 0,
      dealer: this.dealer,
      leader: inHand ? this.leader : null,
      to_act: inHand ? this.toAct : null,
      trump: inHand ? this.trump : null,
      turn_up: inHand && this.phase === 'taking' ? this.turnUpCard : null,
      table: inHand ? this.table : [],
      stock: inHand ? this.stock.length : 0,
      hands: inHand ? this.hands : [[], [], [], []],
      declared: [],
      tricks_won: inHand ? this.tricksWon : [0, 0],
      hand_points: inHand ? this.cardPoints : [0, 0],
      match_scores: this.scores,
      segni: [0, 0],
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
      takers: {
        taker: inHand ? this.taker : null,
        contract: inHand && this.phase === 'play' && this.auction ? this.contract : 0,
        doubled: inHand ? this.doubled : 0,
        announced: inHand ? this.announced.map(([s, k, key]) => [s, k, key]) : [],
        pair_by: inHand ? this.pairBy : null,
        held: this.held,
        shown: inHand ? this.shown : [[], [], [], []],
      },
    };
    if ((this.o.second_round_sa_ta || this.o.sa_ta) && FAULT !== 'no-pairs-field') {     // contracts without one trump suit: the pairs said
      st.takers.pairs = inHand ? this.pairList.filter(([, s]) => s !== this.trump) : [];
    }
    return st;
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of Belote
function parseAction(text, m0) {
  if (PACK.includes(text)) return { word: 'card', card: text };
  const auction = m0 && m0.auction;
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline'].concat(
    auction ? ['coinche', 'surcoinche'] : ['take']);
  if (words.includes(text)) return { word: text };
  // a value is written in digits, without a leading zero; capot (250) and the générale
  // only by their names, the générale where it has a value
  let m = /^bid:(0|[1-9][0-9]*|capot|generale):(H|D|C|S|SA|TA)$/.exec(text);
  const named = m && (m[1] === '250' || (m[1] === 'generale' ? !(m0.o.generale > 0)
    : Number(m[1]) === m0.o.generale));
  if (m && auction && !named) return { word: 'bid', value: m[1], strain: m[2] };
  if (auction && /^take(:|$)/.test(text)) throw new Refusal('bad_action', null, `no take in ${m0.rs}`);
  m = new RegExp(`^take:([HDCS]${FAULT === 'strain-take-bad-action' && !(match && match.o.second_round_sa_ta) ? '' : '|SA|TA'})$`).exec(text);
  if (m) return { word: 'take', suit: m[1] };
  m = /^yes:([HDCS])$/.exec(text);
  if (m) return { word: 'yes' };
  m = /^exchange:(..)$/.exec(text);
  if (m && PACK.includes(m[1])) return { word: 'exchange', card: m[1] };
  m = /^belote:(..)$/.exec(text);
  if (m && PACK.includes(m[1])) return { word: 'belote', card: m[1] };
  m = /^(tierce|cinquante|cent):(..)$/.exec(text);
  if (m && PACK.includes(m[2])) return { word: 'announce', kind: m[1], key: m[2], text };
  m = /^carre:([AKQJT987])$/.exec(text);
  if (m) return { word: 'announce', kind: 'carre', key: m[1], text };
  throw new Refusal('bad_action', null, `not an action of belote: ${JSON.stringify(text)}`);
}
// ---------------------------------------------------------------------------
// Requests

let match = null;
const HOUSE = [];   // --house (repeatable): the configurations declared in hello

function hello() {
  const rulesets = {};
  for (const [rs, table] of Object.entries(RULESETS)) {
    const options = {};
    for (const [name, [type, dflt, range]] of Object.entries(table)) {
      options[name] = { type, default: dflt };
      if (type === 'int') [options[name].min, options[name].max] = range;
      if (type === 'enum') options[name].values = range;
    }
    rulesets[rs] = { options };
  }
  const reply = {
    type: 'hello', engine: 'belote-engine.js', version: '1.1', protocol: 2,
    requests: ['choose'], rulesets,
  };
  if (HOUSE.length) reply.configurations = HOUSE;
  return reply;
}

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < N;

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
  throw illegal('core.deal', 'Belote has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  const table = Object.prototype.hasOwnProperty.call(RULESETS, req.ruleset) ? RULESETS[req.ruleset] : null;
  if (!table) throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const options = { ...ABSENT, ta_must_beat_partner: true };
  for (const [name, [, dflt]] of Object.entries(table)) options[name] = dflt;
  for (const [name, value] of Object.entries(given)) {
    const spec = Object.prototype.hasOwnProperty.call(table, name) ? table[name] : null;
    if (!spec) throw new Refusal('unsupported', null, `unknown option ${name}`);
    const [type, , range] = spec;
    if (type === 'bool' && typeof value !== 'boolean') throw badRequest(`${name} is true or false`);
    if (type === 'int' && !Number.isInteger(value)) throw badRequest(`${name} is a whole number`);
    // an enum's values may be of any JSON type: another value is one not offered
    const outside = (type === 'int' ? value < range[0] || value > range[1]
      : type === 'enum' && !range.includes(value));
    if (outside) {
      throw new Refusal('unsupported', null, `${name}=${value} not supported`);
    }
    options[name] = value;
  }
  if (!isSeat(req.dealer)) throw badRequest('dealer must be a seat');
  const o = options;
  if (table.bid_step && (o.bid_min % o.bid_step || o.bid_max % o.bid_step || o.bid_min > o.bid_max
    || (o.generale > 0 && o.generale <= 250))) {
    throw new Refusal('unsupported', null, 'bids: multiples of bid_step, bid_min to bid_max; a générale over capot');
  }
  checkDeck(req.deck);
  checkFirstPlayer(req);
  match = new Match(req.ruleset, options, req.dealer, req.deck);
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

// choose: a plain player for `mariage match`: every announcement and belote it can say,
// takes on a hand with the jack or the nine of the suit, else the cheapest legal card
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
    const said = acts.find((a) => /^(tierce|cinquante|cent|carre|belote):/.test(a));
    if (said) return said;
    const hand = m.hands[seat];
    if (m.phase === 'bidding') {     // the lowest bid in a suit of the jack, else pass
      const bid = acts.find((a) => a.startsWith('bid:') && !m.bid && hand.includes(`J${a.split(':')[2]}`));
      return bid || 'pass';
    }
    const takes = acts.filter((a) => a.startsWith('take'));
    for (const t of takes) {
      const s = t === 'take' ? suit(m.turnUpCard) : t.slice(5);
      if (hand.includes(`J${s}`) || hand.includes(`9${s}`)) return t;
    }
    if (takes.length || !acts.length) return 'pass';
    const value = (c) => (suit(c) === m.trump ? 30 + TRUMP_POINTS[rank(c)] : POINTS[rank(c)]);
    return acts.slice().sort((x, y) => value(x) - value(y))[0];
  };
  return { type: 'choose', seat, action: pick() };
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
      // [RULESET:]NAME=V, NAME=V1/V2 (or V1|V2, where no shell reads it) or NAME=MIN..MAX
      const [, rs, spec] = /^(?:([a-z-]+):)?(.*)$/.exec(args[++k]);
      const table = RULESETS[rs || 'belote'] || {};
      for (const pair of spec.split(',')) {
        const [name, v] = pair.split('=');
        const type = (table[name] || [])[0];
        const values = (table[name] || [])[2] || [];     // an enum of numbers: capot_value
        const typed = (x) => (type === 'int' || values.includes(Number(x)) ? Number(x)
          : type === 'bool' ? x === 'true' : x);
        const range = /^(\d+)\.\.(\d+)$/.exec(v);
        if (range) house[name] = { min: Number(range[1]), max: Number(range[2]) };
        else if (/[|/]/.test(v)) house[name] = { values: v.split(/[|/]/).map(typed) };
        else house[name] = typed(v);
      }
      HOUSE.push({ ruleset: rs || 'belote', options: house });
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
