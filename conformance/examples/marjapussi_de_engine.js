#!/usr/bin/env node
// A Marjapussi engine for the German bidding game, in plain Node.js, written from the
// user documentation alone (docs/protocol.rst, docs/conformance.rst, `mariage rules
// marjapussi-de` and spec/marjapussi-de.yaml): one file, no dependencies. It speaks the
// engine protocol (version 2, without hidden cards) and plays the ruleset
// "marjapussi-de" with every option of spec/marjapussi-de.yaml. The Finnish game, which
// shares little with it (no auction, exchange or asking levels), is
// marjapussi_engine.js.
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/marjapussi_de_engine.js" \
//       --ruleset marjapussi-de --ruleset '*' --require-rule-ids --min-coverage 100
//   mariage conformance --engine "node conformance/examples/marjapussi_de_engine.js" \
//       --ruleset marjapussi-de --derived -o kontra_re=true --min-coverage 100
//
// "--house NAME=VALUE,..." (repeatable; a value may be V1|V2 or MIN..MAX) makes the
// engine declare that configuration in its hello, for "--declared". "--fault MODE" (or
// MARJAPUSSI_DE_FAULT=MODE) plants one mistake; "--list-faults" lists them. It answers
// "choose" too (a plain player), so "mariage match marjapussi-de --engine A=..." plays it.
'use strict';

// ---------------------------------------------------------------------------
// The ruleset's data (spec/marjapussi-de.yaml)

const RULESET = 'marjapussi-de';
const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J', '9', '8', '7', '6'];   // high to low
const FULL_PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
const CARD_VALUES = {
  standard: { A: 11, T: 10, K: 4, Q: 3, J: 2 },
  simplified: { A: 10, T: 10, K: 5, Q: 5, J: 5 },
};
const PAIR_VALUE = { H: 100, D: 80, C: 60, S: 40 };
const MAX_LINE = 1 << 20;
const SEATS = 4;
const HAND_SIZE = 9;
const GIVE = 4;

// options: name -> [type, default, values or [min, max]]
const OPTIONS = {
  hands: ['int', 4, [1, 1000]],
  session_end: ['enum', 'none', ['none', 'bonus_300_at_500']],
  hand_limit: ['int', 40, [1, 1000]],
  bid_min: ['int', 120, [5, 420]],
  bid_step: ['int', 5, [5, 10]],
  bid_max: ['enum', 420, [420, 'none']],
  sole_bidder_may_raise_before_exchange: ['bool', false],
  raise_after_exchange: ['bool', true],
  all_pass: ['enum', 'play_out', ['play_out', 'redeal']],
  first_lead: ['enum', 'ace_green', ['ace_green', 'any']],
  first_trick_ace_follow: ['bool', true],
  must_beat: ['bool', true],
  must_trump_when_void: ['bool', true],
  must_trump_even_if_losing: ['bool', true],
  calls_per_trick: ['int', 1, [1, 2]],
  asking_levels: ['enum', 'monotone', ['monotone', 'none']],
  half_question_needs_own_half: ['bool', false],
  recall_called_suit_by_half: ['enum', 'allowed', ['allowed', 'forbidden']],
  pair_credit_once_per_hand: ['bool', true],
  half_call_credit: ['enum', 'partner', ['partner', 'asker']],
  trump_rule: ['enum', 'latest', ['latest', 'first']],
  last_trick_bonus: ['enum', 20, [20, 0]],
  card_values: ['enum', 'standard', ['standard', 'simplified']],
  made_if: ['enum', 'at_least', ['at_least', 'more_than']],
  schwarz_factor: ['int', 2, [1, 10]],
  defender_rounding: ['enum', 'nearest_5', ['nearest_5', 'none']],
  scoring: ['enum', 'wurzel', ['wurzel', 'contract_only']],
  kontra_re: ['bool', false],
  deal_packet_size: ['enum', 1, [1, 3]],
  partnership_draw: ['enum', 'draw', ['draw', 'fixed']],
};

const FAULTS = {
  'called-in-call-order': 'the suits called are listed in the order of the calls, not in suit '
    + 'order (state bidding.called; marjapussi-de.calls.once)',
  'keep-in-play': 'a keep from the declarer once the play has begun is refused with '
    + 'core.phase, not under the raise rule (marjapussi-de.contract.raise)',
  'fixed-value-any-seat': 'a keep or raise during the play is refused under the raise rule '
    + 'from any seat, not with core.phase from a seat other than the declarer\'s (core.phase)',
  'once-before-pair': 'a call of a suit already called whose pair the caller does not hold '
    + 'is refused under the once rule, not the pair rule (marjapussi-de.calls.pair)',
  'fixed-without-raise': 'under raise_after_exchange=false a keep or raise from the '
    + 'declarer in the play breaks the raise rule, not in force there (core.phase)',
  'schwarz-contract-only': 'under scoring=contract_only a schwarz playing party books minus '
    + 'the schwarz factor times the value (marjapussi-de.score.sheet)',
  'answer-called-suit': 'a partner naming a pair he holds whose suit was called already '
    + 'breaks the answer rule, not the once rule (marjapussi-de.calls.once)',
};

let FAULT = process.env.MARJAPUSSI_DE_FAULT || null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const order = (c) => FULL_PACK.indexOf(c);
const higher = (a, b) => RANKS.indexOf(rank(a)) < RANKS.indexOf(rank(b)); // same suit
const remove = (list, x) => list.splice(list.indexOf(x), 1);
const team = (seat) => seat % 2;
const partnerOf = (seat) => (seat + 2) % SEATS;
const sorted = (cards) => cards.slice().sort((a, b) => order(a) - order(b));

class Refusal extends Error {
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', rule, message);
const badRequest = (message) => new Refusal('bad_request', null, message);
const R = (id) => RULESET + '.' + id;

// every choice of k cards of a sorted list, in canonical order
function choices(cards, k) {
  const out = [];
  const pick = (from, chosen) => {
    if (chosen.length === k) { out.push(chosen.join('+')); return; }
    for (let i = from; i <= cards.length - (k - chosen.length); i++) pick(i + 1, chosen.concat([cards[i]]));
  };
  pick(0, []);
  return out;
}

// ---------------------------------------------------------------------------
// A match

const EMPTY_BIDDING = () => ({
  high_bid: 0, high_bidder: null, passed: [false, false, false, false], declarer: null,
  contract: 0, kontras: 0, ask_levels: [0, 0, 0, 0], called: [],
});

class Match {
  constructor(options, dealer, deck) {
    this.o = options;
    this.points = CARD_VALUES[options.card_values];
    this.scores = [0, 0];
    this.handNo = 0;
    this.dealer = dealer;
    this.lastHand = null;
    this.result = null;
    this.phase = 'deal';
    this.deal(deck);
  }

  deal(deck) {
    this.handNo += 1;
    const hands = [[], [], [], []];
    const p = this.o.deal_packet_size;
    deck.forEach((c, i) => hands[(this.dealer + 1 + Math.floor(i / p)) % SEATS].push(c));
    this.hands = hands.map(sorted);
    this.forehand = (this.dealer + 1) % SEATS;
    this.b = EMPTY_BIDDING();
    this.phase = 'auction';
    this.leader = this.forehand;
    this.toAct = this.forehand;
    this.extraTurn = false;       // holder_may_raise: the holder's one more turn is given
    this.trick = 0;
    this.trump = null;
    this.table = [];
    this.declared = [];
    this.tricksWon = [0, 0];
    this.handPoints = [0, 0];
    this.tricksDone = 0;
    this.callsThisTrick = 0;
    this.credited = {};           // suit -> seats credited with it
    this.question = null;         // {asker, kind, suit}
    this.step = 0;                // passing step
  }

  cardValue(c) { return this.points[rank(c)] || 0; }
  bidMax() {
    if (this.o.bid_max !== 'none') return this.o.bid_max;
    const cards = FULL_PACK.reduce((n, c) => n + this.cardValue(c), 0);
    return cards + this.o.last_trick_bonus + 280;
  }
  nextBid() { return this.b.high_bidder === null ? this.o.bid_min : this.b.high_bid + this.o.bid_step; }
  bids() {
    const out = [];
    for (let v = this.nextBid(); v <= this.bidMax(); v++) if (v % this.o.bid_step === 0) out.push(v);
    return out;
  }
  playingTeam() { return this.b.declarer === null ? null : team(this.b.declarer); }

  // ---- kontra and re
  kontraWord() { return this.b.kontras % 2 === 0 ? 'kontra' : 're'; }
  whyNotKontra(seat, word) {
    const why = (m) => illegal(R('contract.kontra'), m);
    if (this.b.declarer === null || !['play', 'question', 'passing', 'contract'].includes(this.phase)) {
      return why('no Kontra or Re now');
    }
    if (this.phase !== 'play') return why('Kontra and Re are said in the play');
    if (this.b.kontras >= 9) return why('nine doublings at most');
    if (word !== this.kontraWord()) return why(`the next doubling is ${this.kontraWord()}`);
    const defender = team(seat) !== this.playingTeam();
    if (defender !== (word === 'kontra')) return why(`${word} is not for this party`);
    if (this.hands[seat].length < HAND_SIZE - this.b.kontras) return why('too few cards held');
    return null;
  }

  // ---- calls
  holdsHalf(seat, s) { return this.hands[seat].some((c) => suit(c) === s && 'KQ'.includes(rank(c))); }
  holdsPair(seat, s) { return this.hands[seat].includes('K' + s) && this.hands[seat].includes('Q' + s); }
  level(seat) { return this.o.asking_levels === 'monotone' ? this.b.ask_levels[seat] : 0; }
  whyNotCall(seat, a) {
    if (this.table.length || this.tricksDone === 0 || this.tricksDone >= HAND_SIZE) {
      return illegal(R('calls.who'), 'only the winner of a trick calls, before his lead');
    }
    if (this.callsThisTrick >= this.o.calls_per_trick) {
      return illegal(R('calls.per-trick'), 'no more calls after this trick');
    }
    const lv = this.level(seat);
    if (a.word === 'call') {
      if (lv > 0) return illegal(R('calls.levels'), 'no announcing after a question');
      const held = this.holdsPair(seat, a.suit);
      if (!held && FAULT !== 'once-before-pair') return illegal(R('calls.pair'), 'no such pair held');
      if (this.b.called.includes(a.suit)) return illegal(R('calls.once'), 'that suit was called');
      return held ? null : illegal(R('calls.pair'), 'no such pair held');
    }
    if (a.kind === 'pair') {
      if (lv > 1) return illegal(R('calls.levels'), 'only halves may be asked for now');
      return null;
    }
    if (this.o.recall_called_suit_by_half === 'forbidden' && this.b.called.includes(a.suit)) {
      return illegal(R('calls.recall'), 'that suit was called');
    }
    if (this.o.half_question_needs_own_half && !this.holdsHalf(seat, a.suit)) {
      return illegal(R('calls.ask-half'), 'ask for a half of a suit you hold a half of');
    }
    return null;
  }
  calls(seat) {
    const out = [];
    const each = (a, text) => { if (!this.whyNotCall(seat, a)) out.push(text); };
    for (const s of SUITS) each({ word: 'call', suit: s }, 'call:' + s);
    each({ word: 'ask', kind: 'pair' }, 'ask:pair');
    for (const s of SUITS) each({ word: 'ask', kind: 'half', suit: s }, 'ask:half:' + s);
    return out;
  }
  answers() {
    const q = this.question;
    const p = partnerOf(q.asker);
    if (q.kind === 'pair') {
      const yes = SUITS.filter((s) => this.holdsPair(p, s) && !this.b.called.includes(s));
      return yes.length ? yes.map((s) => 'yes:' + s) : ['no'];
    }
    return [this.holdsHalf(p, q.suit) ? 'yes' : 'no'];
  }
  succeed(s, seat) {
    if (this.o.trump_rule === 'latest' || this.trump === null) this.trump = s;
    const value = PAIR_VALUE[s];
    const before = this.credited[s] || [];
    const fresh = !this.b.called.includes(s);
    if (fresh) {
      this.b.called.push(s);
      if (FAULT !== 'called-in-call-order') this.b.called.sort((x, y) => SUITS.indexOf(x) - SUITS.indexOf(y));
    }
    // a recall is listed too, with what it scores: nothing, or (once per player) the value
    // for a player not yet credited with the suit
    const award = fresh || (!this.o.pair_credit_once_per_hand && !before.includes(seat)) ? value : 0;
    if (award) this.credited[s] = before.concat([seat]);
    this.declared.push([seat, 'pair', s, award]);
    this.handPoints[team(seat)] += award;
  }

  // ---- cards
  beats(card, best) {
    if (suit(card) === suit(best)) return higher(card, best);
    return suit(card) === this.trump;
  }
  best() {
    let b = this.table[0][1];
    for (const [, c] of this.table.slice(1)) if (this.beats(c, b)) b = c;
    return b;
  }
  // why the seat may not play that card of his hand now (the rule), or null
  whyNotCard(seat, card) {
    const hand = this.hands[seat];
    if (!this.table.length) {
      if (this.tricksDone > 0 || this.o.first_lead !== 'ace_green') return null;
      const first = ['A', 'S'].map((x) => hand.filter((c) => rank(c) === x || suit(c) === x))
        .find((cards) => cards.length);
      return first && !first.includes(card) ? R('lead.first-card') : null;
    }
    const led = suit(this.table[0][1]);
    const best = this.best();
    const wins = (c) => this.beats(c, best);
    const follow = hand.filter((c) => suit(c) === led);
    if (follow.length) {
      if (suit(card) !== led) return R('play.follow');
      const ace = 'A' + led;
      if (this.tricksDone === 0 && this.o.first_trick_ace_follow && hand.includes(ace) && card !== ace) {
        return R('play.first-trick-ace');
      }
      if (this.o.must_beat && follow.some(wins) && !wins(card)) return R('play.beat');
      return null;
    }
    const trumps = this.trump ? hand.filter((c) => suit(c) === this.trump) : [];
    if (!trumps.length || !this.o.must_trump_when_void) return null;
    const winning = trumps.filter(wins);
    if (!this.o.must_trump_even_if_losing && !winning.length) return null;
    if (suit(card) !== this.trump) return R('play.trump');
    if (this.o.must_beat && winning.length && !wins(card)) return R('play.trump');
    return null;
  }
  allowed(seat) { return this.hands[seat].filter((c) => !this.whyNotCard(seat, c)); }

  legal(seat) {
    const kontra = this.o.kontra_re && !this.whyNotKontra(seat, this.kontraWord())
      ? [this.kontraWord()] : [];
    if (seat !== this.toAct || this.phase === 'deal' || this.phase === 'over') return kontra;
    switch (this.phase) {
      case 'auction': return ['pass'].concat(this.bids().map((v) => 'bid:' + v));
      case 'passing': return choices(this.hands[seat], GIVE).map((x) => 'give:' + x).concat(kontra);
      case 'contract': {
        const raises = [];
        if (this.o.raise_after_exchange) {
          for (let v = this.b.contract + 1; v <= this.bidMax(); v++) {
            if (v % this.o.bid_step === 0) raises.push('raise:' + v);
          }
        }
        return ['keep'].concat(raises, kontra);
      }
      case 'question': return this.answers().concat(kontra);
      default: return this.calls(seat).concat(this.allowed(seat), kontra);
    }
  }

  apply(seat, text) {
    const a = parseAction(text);
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    if (a.word === 'kontra' || a.word === 're') {
      if (!this.o.kontra_re) throw illegal('core.phase', 'no Kontra in these rules');
      const why = this.whyNotKontra(seat, a.word);
      if (why) throw why;
      this.b.kontras += 1;
      return;
    }
    if (text === 'callout') throw illegal('core.phase', 'no calling out in this game');
    if (seat !== this.toAct) throw illegal('core.turn', 'not this seat\'s turn');
    const phaseOf = {
      card: 'play', call: 'play', ask: 'play', bid: 'auction', pass: 'auction',
      give: 'passing', keep: 'contract', raise: 'contract', yes: 'question', no: 'question',
    };
    const fixed = this.phase === 'play' && a.word === (FAULT === 'keep-in-play' ? 'raise' : a.word)
      && (this.o.raise_after_exchange || FAULT === 'fixed-without-raise');
    const who = FAULT === 'fixed-value-any-seat' || seat === this.b.declarer;
    if ((a.word === 'raise' || a.word === 'keep') && who && fixed) {
      throw illegal(R('contract.raise'), 'the game value was fixed already');
    }
    if (phaseOf[a.word] !== this.phase) throw illegal('core.phase', `no ${a.word} now`);
    this[a.word === 'yes' || a.word === 'no' ? 'answer' : a.word](seat, a, text);
  }

  // ---- the auction
  bid(seat, a) {
    const v = a.value;
    if (v % this.o.bid_step !== 0 || v < this.nextBid() || v > this.bidMax()) {
      throw illegal(R('auction.bids'), `no bid of ${v} now`);
    }
    this.b.high_bid = v;
    this.b.high_bidder = seat;
    if (this.b.passed.filter((x) => x).length === 3) { this.declare(seat); return; }
    this.nextBidder(seat);
  }
  pass(seat) {
    if (this.extraTurn) { this.declare(this.b.high_bidder); return; }
    this.b.passed[seat] = true;
    const passed = this.b.passed.filter((x) => x).length;
    if (this.b.high_bidder !== null && passed === 3) {
      if (this.o.sole_bidder_may_raise_before_exchange) {
        this.extraTurn = true;
        this.toAct = this.b.high_bidder;
        return;
      }
      this.declare(this.b.high_bidder);
      return;
    }
    if (passed === 4) { this.nobody(); return; }
    this.nextBidder(seat);
  }
  nextBidder(seat) {
    let s = (seat + 1) % SEATS;
    while (this.b.passed[s]) s = (s + 1) % SEATS;
    this.toAct = s;
  }
  declare(seat) {
    this.b.declarer = seat;
    this.b.contract = this.b.high_bid;
    this.phase = 'passing';
    this.step = 0;
    this.toAct = partnerOf(seat);
  }
  nobody() {
    if (this.o.all_pass === 'redeal') { this.endHand('redeal'); return; }
    this.startPlay(this.forehand);
  }
  startPlay(leader) {
    this.phase = 'play';
    this.trick = 1;
    this.leader = leader;
    this.toAct = leader;
  }

  // ---- the exchange and the contract
  give(seat, a, text) {
    const cards = a.cards;
    const distinct = new Set(cards).size === cards.length;
    if (cards.length !== GIVE || !distinct || !cards.every((c) => this.hands[seat].includes(c))) {
      throw illegal(R('passing'), `${text}: four cards of the hand`);
    }
    const to = partnerOf(seat);
    for (const c of cards) remove(this.hands[seat], c);
    this.hands[to] = sorted(this.hands[to].concat(cards));
    this.step += 1;
    if (this.step === 1) { this.toAct = to; return; }
    if (this.o.raise_after_exchange) { this.phase = 'contract'; this.toAct = this.b.declarer; return; }
    this.startPlay(this.b.declarer);
  }
  keep() { this.startPlay(this.b.declarer); }
  raise(seat, a) {
    const v = a.value;
    if (!this.o.raise_after_exchange || v % this.o.bid_step !== 0 || v <= this.b.contract
        || v > this.bidMax()) {
      throw illegal(R('contract.raise'), `no raise to ${v}`);
    }
    this.b.contract = v;
    this.startPlay(this.b.declarer);
  }

  // ---- calls and answers
  call(seat, a) {
    const why = this.whyNotCall(seat, a);
    if (why) throw why;
    this.callsThisTrick += 1;
    this.succeed(a.suit, seat);
  }
  ask(seat, a) {
    const why = this.whyNotCall(seat, a);
    if (why) throw why;
    this.callsThisTrick += 1;
    if (this.o.asking_levels === 'monotone') {
      this.b.ask_levels[seat] = Math.max(this.b.ask_levels[seat], a.kind === 'pair' ? 1 : 2);
    }
    this.question = { asker: seat, kind: a.kind, suit: a.suit };
    this.phase = 'question';
    this.toAct = partnerOf(seat);
  }
  answer(seat, a, text) {
    const q = this.question;
    const called = q.kind === 'pair' && a.suit && this.b.called.includes(a.suit)
      && this.holdsPair(seat, a.suit) && FAULT !== 'answer-called-suit';
    if (called) throw illegal(R('calls.once'), `${text}: that suit was called`);
    if (!this.answers().includes(text)) throw illegal(R('calls.answers'), `${text}: not the true answer`);
    this.question = null;
    this.phase = 'play';
    this.toAct = q.asker;
    if (a.word === 'no') return;
    if (q.kind === 'pair') { this.succeed(a.suit, seat); return; }
    if (!this.holdsHalf(q.asker, q.suit)) return;
    this.succeed(q.suit, this.o.half_call_credit === 'asker' ? q.asker : seat);
  }

  // ---- the play
  card(seat, a, text) {
    if (!this.hands[seat].includes(text)) throw illegal('core.hand', `${text} is not in the hand`);
    const rule = this.whyNotCard(seat, text);
    if (rule) throw illegal(rule, `${text} may not be played now`);
    remove(this.hands[seat], text);
    this.table.push([seat, text]);
    if (this.table.length < SEATS) { this.toAct = (seat + 1) % SEATS; return; }
    const best = this.best();
    const winner = this.table.find(([, c]) => c === best)[0];
    const pts = this.table.reduce((n, [, c]) => n + this.cardValue(c), 0);
    this.tricksWon[team(winner)] += 1;
    this.handPoints[team(winner)] += pts;
    this.tricksDone += 1;
    this.table = [];
    if (this.tricksDone === HAND_SIZE) {
      this.handPoints[team(winner)] += this.o.last_trick_bonus;
      this.endHand('played_out');
      return;
    }
    this.trick += 1;
    this.callsThisTrick = 0;
    this.leader = winner;
    this.toAct = winner;
  }

  // ---- scoring
  round(x) { return this.o.defender_rounding === 'nearest_5' ? Math.floor((x + 2) / 5) * 5 : x; }
  handScore() {
    const pts = this.handPoints;
    const wurzel = this.o.scoring === 'wurzel';
    if (this.b.declarer === null) return wurzel ? pts.map((x) => this.round(x)) : [0, 0];
    const P = this.playingTeam();
    const D = 1 - P;
    const value = this.b.contract;
    const made = this.o.made_if === 'at_least' ? pts[P] >= value : pts[P] > value;
    // the schwarz cases are the Wurzel sheet's: contract_only books plus or minus the value
    const sheet = wurzel || FAULT === 'schwarz-contract-only';
    const schwarzP = sheet && this.tricksWon[P] === 0;
    const schwarzD = sheet && this.tricksWon[D] === 0;
    const f = this.o.schwarz_factor;
    let doubling = 2 ** this.b.kontras;
    if ((schwarzP || (made && schwarzD)) && this.b.kontras > 0) doubling /= 2;
    const score = [0, 0];
    score[P] = (schwarzP ? -f * value : made ? value : -value) * doubling;
    if (wurzel) score[D] = made && schwarzD ? -f * value : this.round(pts[D]);
    return score;
  }
  endHand(ended) {
    const score = ended === 'redeal' ? [0, 0] : this.handScore();
    for (const t of [0, 1]) this.scores[t] += score[t];
    const points = ended === 'redeal' ? [0, 0] : this.handPoints.slice();
    this.lastHand = { number: this.handNo, points, score, ended, winner: null };
    this.phase = 'deal';
    if (this.o.session_end === 'bonus_300_at_500') {
      const reached = [0, 1].filter((t) => this.scores[t] >= 500);
      if (reached.length) {
        const t = reached.length === 1 ? reached[0] : this.scores[0] >= this.scores[1] ? 0 : 1;
        this.scores[t] += 300;
        this.finish('target');
        return;
      }
      if (this.handNo >= this.o.hand_limit) this.finish('hands');
      if (this.phase === 'deal') this.dealer = (this.dealer + 1) % SEATS;
      return;
    }
    if (this.handNo >= this.o.hands) this.finish('hands');
    if (this.phase === 'deal') this.dealer = (this.dealer + 1) % SEATS;
  }
  finish(reason) {
    const [a, b] = this.scores;
    const why = a === b ? 'tie' : reason;
    this.result = { winner: a === b ? null : a > b ? 0 : 1, reason: why, scores: this.scores.slice() };
    this.phase = 'over';
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
      hand_points: inHand ? this.handPoints : [0, 0],
      match_scores: this.scores,
      segni: [0, 0],
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
      bidding: inHand ? this.b : EMPTY_BIDDING(),
    };
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of the game
function parseAction(text) {
  if (FULL_PACK.includes(text)) return { word: 'card' };
  const words = ['pass', 'yes', 'no', 'keep', 'kontra', 're'];
  if (words.includes(text)) return { word: text };
  if (['callout', 'close', 'claim', 'draw', 'decline'].includes(text)) return { word: 'other' };
  let m = /^(bid|raise):(0|[1-9][0-9]{0,8})$/.exec(text);
  if (m) return { word: m[1], value: Number(m[2]) };
  m = /^(call|yes):([HDCS])$/.exec(text);
  if (m) return { word: m[1], suit: m[2] };
  if (text === 'ask:pair') return { word: 'ask', kind: 'pair' };
  m = /^ask:half:([HDCS])$/.exec(text);
  if (m) return { word: 'ask', kind: 'half', suit: m[1] };
  m = /^exchange:(..)$/.exec(text);
  if (m && FULL_PACK.includes(m[1])) return { word: 'other' };
  m = /^give:(..(\+..)*)$/.exec(text);
  if (m && m[1].split('+').every((c) => FULL_PACK.includes(c))) {
    return { word: 'give', cards: m[1].split('+') };
  }
  throw new Refusal('bad_action', null, `not an action of ${RULESET}: ${JSON.stringify(text)}`);
}
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
    type: 'hello', engine: 'marjapussi-de-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets: { [RULESET]: { options } },
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map((options) => ({ ruleset: RULESET, options }));
  }
  return reply;
}

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < SEATS;

function checkDeck(deck) {
  if (!Array.isArray(deck) || !deck.every((c) => typeof c === 'string')) {
    throw badRequest('deck must be a list of cards');
  }
  const whole = deck.length === FULL_PACK.length && new Set(deck).size === FULL_PACK.length;
  if (!whole || !deck.every((c) => FULL_PACK.includes(c))) {
    throw illegal('core.deal', 'the deck must hold every card of the pack once');
  }
}

function checkFirstPlayer(req) {
  const fp = req.first_player;
  if (fp === undefined || fp === null) return;
  if (typeof fp !== 'number') throw badRequest('first_player must be a number or null');
  throw illegal('core.deal', 'the game has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  if (req.ruleset !== RULESET) throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
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

// choose: a plain player: a true answer, the lowest bid or a pass, the first exchange,
// keep the game value, else the cheapest legal card
function choose(req) {
  const m = needMatch();
  const within = (x, lo, hi) => x === undefined || (Number.isInteger(x) && x >= lo && x <= hi);
  if (!within(req.budget_ms, 1, 60000)) throw badRequest('budget_ms: 1 .. 60000');
  if (!within(req.seed, 0, 2 ** 64 - 1)) throw badRequest('seed: 0 .. 2^64 - 1');
  if (m.phase === 'over') throw illegal('core.over', 'the match is over');
  if (m.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
  if (seatOf(req, m) !== m.toAct) throw illegal('core.turn', 'not to act');
  const seat = m.toAct;
  const acts = m.legal(seat).filter((a) => a !== 'kontra' && a !== 're');
  const cards = acts.filter((a) => FULL_PACK.includes(a));
  cards.sort((x, y) => m.cardValue(x) - m.cardValue(y));
  const pick = acts.find((a) => a.startsWith('yes') || a === 'keep' || a.startsWith('call:'));
  return { type: 'choose', seat, action: pick || cards[0] || acts[0] };
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
      for (const pair of args[++k].split(',')) {    // NAME=V, NAME=V1|V2 or NAME=MIN..MAX
        const [name, v] = pair.split('=');
        const type = (OPTIONS[name] || [])[0];
        const numeric = type === 'int' || (type === 'enum' && typeof OPTIONS[name][2][0] === 'number');
        const typed = (x) => (numeric && /^[0-9]+$/.test(x) ? Number(x) : type === 'bool' ? x === 'true' : x);
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
