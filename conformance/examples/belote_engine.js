#!/usr/bin/env node
// A Belote engine in plain Node.js, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst, `mariage rules belote` and spec/belote.yaml):
// one file, no dependencies. It speaks the engine protocol (version 2, without hidden
// cards) and plays the ruleset "belote" at its defaults: every option is declared in
// hello with its default as its only value, so the runner skips the tests of the others.
//
//   mariage conformance --engine "node conformance/examples/belote_engine.js" --ruleset belote
//   mariage conformance --engine "node conformance/examples/belote_engine.js" \
//       --derived --ruleset belote --min-coverage 100
//
// "--fault MODE" (or BELOTE_FAULT=MODE) plants one mistake, so that you can see what the
// runner says about it; "--list-faults" lists them.
'use strict';

// ---------------------------------------------------------------------------
// The ruleset's data (spec/belote.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J', '9', '8', '7'];     // plain order, high to low
const TRUMP_RANKS = ['J', '9', 'A', 'T', 'K', 'Q', '8', '7'];
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };
const TRUMP_POINTS = { J: 20, 9: 14, A: 11, T: 10, K: 4, Q: 3, 8: 0, 7: 0 };
const RUN_ORDER = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7'];
const runOrder = () => (FAULT === 'run-plain-order' ? RANKS : RUN_ORDER);
const RUN_KINDS = [[5, 'cent', 100], [4, 'cinquante', 50], [3, 'tierce', 20]];
const CARRE_VALUES = { J: 200, 9: 150, A: 100, T: 100, K: 100, Q: 100 };
const CARRE_ORDER = ['J', '9', 'A', 'T', 'K', 'Q'];
const PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
const MAX_LINE = 1 << 20;
const N = 4;

// options: name -> [type, default, values or [min, max]]; this engine plays the
// defaults only, so each option is declared with its default as its one value
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
  dedans_points: ['int', 162, [0, 1000000]],
  capot_value: ['enum', 252, [252, 250, 162]],
  rounding: ['enum', 'none', ['none', 'nearest10_5up', 'nearest10_6up']],
};
// options this engine plays at other values than the default: name -> values
const PLAYED = {
  target: null,           // any value in range
  deal_limit: null,
  dedans_points: null,
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
  'shown-twice': 'the other card of a belote already shown (the turn-up) is listed twice in '
    + '"shown"',
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
  constructor(options, dealer, deck) {
    this.o = options;
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
    this.trump = null;
    this.turnUpCard = null;
    this.stock = [];
    this.taker = null;
    this.announced = [];           // [seat, kind, key, cards]
    this.spoke = [false, false, false, false];   // played a card to the first trick
    this.playedBy = [[], [], [], []];
    this.pairBy = null;
    this.shown = [[], [], [], []];
    this.tricksWon = [0, 0];
    this.cardPoints = [0, 0];
    this.annPoints = [0, 0];
    this.counting = null;          // the team whose announcements count, or null
  }

  // -- the first distribution: 3 then 2 from eldest, then the turn-up
  deal(deck) {
    this.resetHand();
    this.handNo += 1;
    let i = 0;
    for (const size of [3, 2]) {
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

  // -- what the seat may do
  legal(seat) {
    if (this.phase === 'taking') {
      if (seat !== this.toAct) return [];
      if (this.round === 1) return ['take', 'pass'];
      return SUITS.filter((s) => s !== suit(this.turnUpCard)).map((s) => `take:${s}`)
        .concat(['pass']);
    }
    if (this.phase !== 'play' || seat !== this.toAct) return [];
    const acts = [];
    if (this.trick === 1) {
      for (const a of this.combinations(seat)) acts.push(a.text);
    }
    for (const c of this.playable(seat)) {
      acts.push(c);
      if (this.canSayBelote(seat, c)) acts.push(`belote:${c}`);
    }
    return acts;
  }

  // the combinations the seat may still announce: each maximal run of 3 or more, each carré
  combinations(seat) {
    if (this.trick !== 1 || (this.spoke[seat] && FAULT !== 'announce-after-card')) return [];
    const used = new Set();
    for (const [s, , , cards] of this.announced) if (s === seat) cards.forEach((c) => used.add(c));
    const hand = this.hands[seat].filter((c) => !used.has(c));
    const out = [];
    for (const s of SUITS) {
      let run = [];
      const flush = () => {
        if (run.length >= 3) {
          const [, kind] = RUN_KINDS.find(([len]) => run.length >= len);
          out.push({ text: `${kind}:${run[0]}`, kind, key: run[0], cards: run.slice() });
        }
        run = [];
      };
      for (const r of runOrder()) {
        if (hand.includes(r + s)) run.push(r + s); else flush();
      }
      flush();
    }
    for (const r of CARRE_ORDER) {
      const cards = SUITS.map((s) => r + s);
      if (cards.every((c) => hand.includes(c))) {
        out.push({ text: `carre:${r}`, kind: 'carre', key: r, cards });
      }
    }
    return out;
  }

  canSayBelote(seat, card) {
    if (suit(card) !== this.trump || !['K', 'Q'].includes(rank(card))) return false;
    const h = this.hands[seat];
    if (FAULT === 'belote-second-card' && this.pairBy === null) {
      const other = rank(card) === 'K' ? `Q${this.trump}` : `K${this.trump}`;
      return h.includes(other) || this.playedBy[seat].includes(other);
    }
    return h.includes(`K${this.trump}`) && h.includes(`Q${this.trump}`);
  }

  strength(card, led) {
    if (suit(card) === this.trump) return 100 + 8 - TRUMP_RANKS.indexOf(rank(card));
    if (suit(card) === led) return 8 - RANKS.indexOf(rank(card));
    return 0;
  }

  winning() {           // [seat, card] winning the table so far
    const led = suit(this.table[0][1]);
    let best = this.table[0];
    for (const e of this.table) if (this.strength(e[1], led) > this.strength(best[1], led)) best = e;
    return best;
  }

  // the cards the seat may play, and for a card it may not, the rule that forbids it
  duty(seat) {
    const hand = this.hands[seat];
    const all = { cards: hand.slice(), rule: null };
    if (!this.table.length) return all;
    const led = suit(this.table[0][1]);
    const trump = this.trump;
    const topTrump = Math.max(0, ...this.table.map(([, c]) => (suit(c) === trump ? this.strength(c, led) : 0)));
    const higher = hand.filter((c) => suit(c) === trump && this.strength(c, led) > topTrump);
    const following = hand.filter((c) => suit(c) === led);
    if (following.length) {
      if (led === trump && higher.length) return { cards: higher, rule: 'belote.play.trump-led', follow: following };
      return { cards: following, rule: 'belote.play.follow' };
    }
    const trumps = hand.filter((c) => suit(c) === trump);
    const [wSeat, wCard] = this.winning();
    if (team(wSeat) === team(seat) && wSeat !== seat) {
      if (suit(wCard) !== trump) return all;
      const ok = hand.filter((c) => suit(c) !== trump || this.strength(c, led) > this.strength(wCard, led));
      return ok.length ? { cards: ok, rule: 'belote.play.partner-winning' } : all;
    }
    if (!trumps.length) return all;
    return { cards: higher.length ? higher : trumps, rule: 'belote.play.void' };
  }

  playable(seat) { return this.duty(seat).cards; }

  // -- an action
  apply(seat, text) {
    const act = parseAction(text);
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    if (seat !== this.toAct) throw illegal('core.turn', 'not your turn');
    if (this.phase === 'taking') {
      if (act.word === 'belote') throw illegal('belote.belote', 'belote is said in the play');
      if (act.word === 'announce') throw illegal(FAULT === 'announce-early-phase' ? 'core.phase' : 'belote.announce', 'announcements come in the first trick');
      if (act.word !== 'take' && act.word !== 'pass') throw illegal('core.phase', 'the turn-up is being taken');
      return this.take(seat, act);
    }
    if (act.word === 'take') throw illegal(FAULT === 'take-late-phase' ? 'core.phase' : 'belote.take', 'the bidding is over');
    if (!['card', 'announce', 'belote'].includes(act.word)) throw illegal('core.phase', 'cards are played now');
    if (act.word === 'announce') return this.announce(seat, act);
    const card = act.card;
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
    if (act.word === 'belote') {
      this.pairBy = seat;
      const other = rank(card) === 'K' ? `Q${this.trump}` : `K${this.trump}`;
      if (!this.shown[seat].includes(other) || FAULT === 'shown-twice') this.shown[seat].push(other);
    }
    this.play(seat, card);
  }

  take(seat, act) {
    if (act.word === 'take') {
      const turned = suit(this.turnUpCard);
      if (this.round === 1 && act.suit) throw illegal('belote.take', 'the first round takes the turn-up');
      if (this.round === 2 && (!act.suit || act.suit === turned)) {
        throw illegal('belote.take.second-round', 'name a suit other than the turn-up\'s');
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
    for (let k = 1; k <= N; k++) {
      const seat = (this.dealer + k) % N;
      const n = seat === this.taker ? 2 : 3;
      for (let j = 0; j < n; j++) this.hands[seat].push(this.stock[i++]);
    }
    this.stock = [];
    this.phase = 'play';
    this.trick = 1;
    this.leader = next(this.dealer);
    this.toAct = this.leader;
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
    for (const [, c] of this.table) {
      this.cardPoints[t] += suit(c) === this.trump ? TRUMP_POINTS[rank(c)] : POINTS[rank(c)];
    }
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
    if (kind === 'carre') return [2, 6 - CARRE_ORDER.indexOf(key), 0, 0];
    const tr = suit(key) === this.trump ? 1 : 0;
    const top = 8 - runOrder().indexOf(rank(key));
    if (FAULT === 'trump-run-first') return [1, cards.length, tr, top];
    return [1, cards.length, top, tr];
  }

  annValue(a) {
    const [, kind, key, cards] = a;
    if (kind === 'carre') return CARRE_VALUES[key];
    return RUN_KINDS.find(([len]) => cards.length >= len)[2];
  }

  compareAnnouncements() {
    const cmp = (x, y) => { for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i] - y[i]; return 0; };
    const best = [null, null];
    for (const a of this.announced) {
      const t = team(a[0]);
      if (!best[t] || cmp(this.annRank(a), best[t]) > 0) best[t] = this.annRank(a);
    }
    let w = null;
    if (best[0] && !best[1]) w = 0;
    else if (best[1] && !best[0]) w = 1;
    else if (best[0] && best[1]) {
      const c = cmp(best[0], best[1]);
      w = c > 0 ? 0 : c < 0 ? 1 : null;
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

  belotePoints(t) { return this.pairBy !== null && team(this.pairBy) === t ? 20 : 0; }

  totalPoints(t) { return this.cardPoints[t] + this.annPoints[t] + this.belotePoints(t); }

  endHand() {
    const T = team(this.taker);
    const D = 1 - T;
    const capot = this.tricksWon[T] === 8 ? T : this.tricksWon[D] === 8 ? D : null;
    const points = this.cardPoints.slice();
    if (capot !== null) this.cardPoints[capot] += 90;       // 100 for the last trick, not 10
    const total = [this.totalPoints(0), this.totalPoints(1)];
    const score = [0, 0];
    let winner = null;
    if (capot === T) {
      score[T] = total[T] + (FAULT === 'capot-keeps-own' ? 0 : this.annPoints[D]);
      score[D] = this.belotePoints(D);
      winner = T;
    } else if (capot === D || total[T] < total[D]) {
      score[T] = this.belotePoints(T);
      const anns = FAULT === 'dedans-own-announcements' ? this.annPoints[D] : this.annPoints[0] + this.annPoints[1];
      score[D] = (capot === D ? 252 : this.o.dedans_points) + anns
        + this.belotePoints(D);
      winner = D;
    } else if (total[T] > total[D]) {
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
    const before = this.scores.slice();
    this.scores[0] += score[0];
    this.scores[1] += score[1];
    this.played += 1;
    for (const t of [0, 1]) {
      const failed = t === T && winner === D;
      if (this.tricksWon[t] > 0 && !(FAULT === 'unblock-on-made-deal' && failed)) this.beloteAlone[t] = false;
      const onlyBelote = score[t] === this.belotePoints(t)
        && (this.tricksWon[t] === 0 || (t === T && winner === D));
      if (this.o.belote_alone_cannot_win && onlyBelote && score[t] > 0
        && before[t] < this.o.target && this.scores[t] >= this.o.target) this.beloteAlone[t] = true;
    }
    this.lastHand = { number: this.handNo, points, score, ended: 'played_out', winner: null };
    this.finishHand();
  }

  voidDeal() {
    this.lastHand = { number: this.handNo, points: [0, 0], score: [0, 0], ended: 'void', winner: null };
    this.finishHand(true);
  }

  finishHand(isVoid) {
    this.phase = 'deal';
    const [a, b] = this.scores;
    const t = this.o.target;
    if (!isVoid && (a >= t || b >= t) && (a !== b || FAULT === 'tie-at-target-ends')) {
      const w = a > b ? 0 : 1;
      if (!this.beloteAlone[w] || FAULT === 'belote-alone-wins') {
        this.result = { winner: w, reason: 'target', scores: this.scores.slice() };
        this.phase = 'over';
      }
    }
    if (this.phase !== 'over' && !isVoid && this.o.deal_limit > 0 && this.played >= this.o.deal_limit) {
      const w = a > b ? 0 : a < b ? 1 : null;
      this.result = { winner: w, reason: w === null ? 'tie' : 'hands', scores: this.scores.slice() };
      this.phase = 'over';
    }
    const keep = ['hand', 'dealer'];
    void keep;
    if (this.phase === 'deal') this.dealer = next(this.dealer);
    this.resetHand();
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
        contract: 0,
        doubled: 0,
        announced: inHand ? this.announced.map(([s, k, key]) => [s, k, key]) : [],
        pair_by: inHand ? this.pairBy : null,
        held: this.held,
        shown: inHand ? this.shown : [[], [], [], []],
      },
    };
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of Belote
function parseAction(text) {
  if (PACK.includes(text)) return { word: 'card', card: text };
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline', 'take'];
  if (words.includes(text)) return { word: text };
  let m = /^take:([HDCS])$/.exec(text);
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
  const options = {};
  for (const [name, [type, dflt, range]] of Object.entries(OPTIONS)) {
    options[name] = { type, default: dflt };
    if (type === 'int') [options[name].min, options[name].max] = range;
    if (!(name in PLAYED)) options[name].values = [dflt];
  }
  const reply = {
    type: 'hello', engine: 'belote-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets: { belote: { options } },
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map((options) => ({ ruleset: 'belote', options }));
  }
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
  if (req.ruleset !== 'belote') throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
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
    // an enum's values may be of any JSON type: another value is one not offered
    const outside = (type === 'int' ? value < range[0] || value > range[1]
      : type === 'enum' && !range.includes(value)) || (!(name in PLAYED) && value !== spec[1]);
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
