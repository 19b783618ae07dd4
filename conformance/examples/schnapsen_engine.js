#!/usr/bin/env node
// A Schnapsen engine in plain Node.js, written from the user documentation alone
// (docs/protocol.rst, docs/conformance.rst and spec/schnapsen.yaml): one file, no
// dependencies. It speaks the engine protocol (version 2, without hidden cards) and
// plays the ruleset "schnapsen" with every option of spec/schnapsen.yaml, the house
// rules that the runner gives in each "start".
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js"
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js" \
//       --ruleset schnapsen -o close_allowed=false --min-coverage 100
//
// The first runs the stored suite (every Schnapsen and protocol test; the other
// rulesets are skipped as not supported), the second the suite derived for one
// set of house rules. "--house NAME=VALUE,..." (repeatable; a value may be V1|V2,
// quoted inside the engine command, where the runner refuses a bare | as a shell
// operator, or MIN..MAX) makes the engine declare that configuration in its hello, for
//
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js \
//       --house close_allowed=false,claim_mode=auto" --declared
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js \
//       --house 'marriage_values=20/40|20/20'" --declared
//
// "--fault MODE" (or SCHNAPSEN_FAULT=MODE) plants one mistake, so that you can
// see what the runner says about it; "--list-faults" lists them. It answers
// "choose" too, so "mariage match schnapsen --engine A=... --bot B=greedy" plays it.
'use strict';

// ---------------------------------------------------------------------------
// The ruleset's data (spec/schnapsen.yaml)

const SUITS = ['H', 'D', 'C', 'S'];
const RANKS = ['A', 'T', 'K', 'Q', 'J'];            // high to low
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2 };
const PACK = [].concat(...SUITS.map((s) => RANKS.map((r) => r + s)));
const TARGET = 66;                                   // claim.target
const MAX_LINE = 1 << 20;

// options: name -> [type, default, values or [min, max]]
const OPTIONS = {
  match_target: ['int', 7, [1, 10000]],
  bummerl_schneider_double: ['bool', false],
  turnup_after: ['enum', 'first_round', ['first_round', 'all_cards']],
  exchange_requires_trick: ['bool', false],
  exchange_min_talon: ['int', 2, [2, 20]],
  exchange_on_close: ['bool', false],
  marriage_values: ['enum', '20/40', ['20/40', '20/20']],
  marriage_lead: ['enum', 'either', ['either', 'king', 'queen']],
  marriage_on_first_lead: ['bool', true],
  marriage_after_close: ['bool', true],
  marriage_counting: ['enum', 'any_trick',
    ['any_trick', 'immediate', 'next_trick_after_declaring']],
  claim_mode: ['enum', 'explicit', ['explicit', 'auto']],
  claim_on_declaration: ['bool', true],
  close_allowed: ['bool', true],
  close_before_draw: ['bool', false],
  close_on_first_lead: ['bool', true],
  close_min_talon: ['int', 2, [2, 20]],
  close_snapshot: ['enum', 'at_close', ['at_close', 'at_end']],
  beaten_closer_score: ['enum', 'like_failed_close', ['like_failed_close', 'flat2']],
  failed_close_score: ['enum', 'pagat', ['pagat', 'hoyle']],
  closer_false_claim: ['enum', 'false_claim_row', ['false_claim_row', 'failed_close_row']],
  false_claim_score: ['enum', 'pagat', ['pagat', 'flat2', 'as_claimed']],
  last_trick_flat: ['bool', false],
  last_trick_rule: ['enum', 'one_point', ['one_point', 'ten_points']],
  strict_duty: ['enum', 'follow_head_trump', ['follow_head_trump', 'follow_only']],
  next_dealer: ['enum', 'alternate', ['alternate', 'winner', 'loser']],
  review_own_tricks: ['bool', true],   // what a player may look at: nothing to play
};

const FAULTS = {
  'no-head': 'strict play does not make the follower beat the card led (schnapsen.play.head)',
  'close-after-marriage': 'the leader may close after declaring a marriage (schnapsen.close)',
  'marriage-at-once': 'a marriage counts at once, trick or no trick (schnapsen.decl.credit)',
  'failed-close-flat': 'a failed close always scores 2 (schnapsen.score.failed-close)',
  'exchange-after-marriage': 'the leader may exchange after declaring a marriage '
    + '(schnapsen.exchange)',
  'claim-after-marriage': 'under claim_on_declaration=false, the trick winner may still claim '
    + 'between a marriage and its lead (schnapsen.claim.timing)',
};
let FAULT = process.env.SCHNAPSEN_FAULT || null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const beats = (a, b) => RANKS.indexOf(rank(a)) < RANKS.indexOf(rank(b)); // same suit
const remove = (list, x) => list.splice(list.indexOf(x), 1);

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
    this.scores = [0, 0];          // game points (match_scores)
    this.segni = [0, 0];           // hands won
    this.lastHand = null;
    this.result = null;
    this.phase = 'deal';
    this.deal(deck);
  }

  // -- the deal: packets of 3 and 2 from the seat after the dealer; the turn-up
  //    after the first round (or after all cards) lies under the stock
  deal(deck) {
    const o = this.o;
    const order = [1 - this.dealer, this.dealer];
    const hands = [[], []];
    let i = 0;
    let turnUp = null;
    [3, 2].forEach((size, round) => {
      for (const seat of order) for (let k = 0; k < size; k++) hands[seat].push(deck[i++]);
      if (round === 0 && o.turnup_after === 'first_round') turnUp = deck[i++];
    });
    if (turnUp === null) turnUp = deck[i++];
    this.handNo += 1;
    this.hands = hands;
    this.stock = deck.slice(i).concat([turnUp]);   // top first, the turn-up drawn last
    this.trump = suit(turnUp);
    this.phase = 'play';
    this.trick = 1;
    this.leader = 1 - this.dealer;
    this.toAct = this.leader;
    this.table = [];
    this.declared = [];
    this.tricksWon = [0, 0];
    this.cardPoints = [0, 0];
    this.credited = [0, 0];        // marriage points that count
    this.held = [];                // marriages waiting for a trick: [seat, value]
    this.closedBy = null;
    this.closed = false;           // the talon is out of play
    this.snapshot = null;          // the closer's opponent at the close
    this.lastWinner = null;
    this.turn = { marriage: null };  // what the leader did before leading
  }

  counted(seat) { return this.cardPoints[seat] + this.credited[seat]; }
  stockCount() { return this.closed ? 0 : this.stock.length; }
  turnUp() { return this.strict() ? null : this.stock[this.stock.length - 1]; }
  strict() { return this.closed || this.stock.length === 0; }
  onLead(seat) { return this.phase === 'play' && this.table.length === 0 && seat === this.toAct; }

  // -- what may be done, each with the rule that forbids it otherwise
  whyNotClose(seat) {
    const o = this.o;
    if (this.closed) return 'the talon is closed';
    if (this.stock.length < o.close_min_talon) return `fewer than ${o.close_min_talon} cards left`;
    if (this.phase === 'after_trick') return o.close_before_draw ? null : 'not before the draw';
    if (!this.onLead(seat)) return 'only the player about to lead may close';
    if (this.trick === 1 && !o.close_on_first_lead) return 'not on the first lead';
    if (this.turn.marriage && FAULT !== 'close-after-marriage') return 'not after a marriage';
    return null;
  }

  whyNotExchange(seat, card) {
    const o = this.o;
    if (!this.onLead(seat)) return 'only the player about to lead may exchange';
    if (this.turn.marriage && FAULT !== 'exchange-after-marriage') return 'not after a marriage';
    if (this.closed || this.stock.length === 0) return 'the talon is closed or exhausted';
    if (this.stock.length < o.exchange_min_talon) return `fewer than ${o.exchange_min_talon} cards left`;
    if (card !== 'J' + this.trump || !this.hands[seat].includes(card)) return 'only the trump jack, held';
    if (o.exchange_requires_trick && this.tricksWon[seat] === 0) return 'only after winning a trick';
    return null;
  }

  whyNotClaim(seat) {
    if (this.phase === 'after_trick' && seat === this.toAct) return null;
    if (this.turn.marriage) {      // just declared: a claim moment only if the option says so
      if (this.o.claim_on_declaration) return null;
      if (FAULT !== 'claim-after-marriage') return 'not between a marriage and its lead';
    }
    const wonLast = this.lastWinner === seat && this.table.length === 0 && this.phase === 'play';
    return wonLast ? null : 'only the winner of the last trick, or just after a marriage';
  }

  // [rule, why] for a marriage in suit s, in the order the rules are judged
  whyNotMarriage(seat, s) {
    const o = this.o;
    if (!this.onLead(seat) || (!o.marriage_on_first_lead && this.trick === 1)) {
      return ['schnapsen.decl.who', 'only the player about to lead may declare'];
    }
    if (!o.marriage_after_close && this.strict()) {
      return ['schnapsen.decl.window', 'not once the talon is closed or exhausted'];
    }
    if (this.turn.marriage) return ['schnapsen.decl.per-trick', 'one marriage at each lead'];
    if (!this.hands[seat].includes('K' + s) || !this.hands[seat].includes('Q' + s)) {
      return ['schnapsen.decl.marriage', 'the king and queen must be in the hand'];
    }
    if (this.declared.some((d) => d[2] === s)) return ['schnapsen.decl.once', 'once a suit in a hand'];
    return null;
  }

  // [rule, why] for a card: the marriage's lead, then the duties of strict play
  whyNotCard(seat, card) {
    const hand = this.hands[seat];
    if (this.table.length === 0) {
      const m = this.turn.marriage;
      const ranks = { either: ['K', 'Q'], king: ['K'], queen: ['Q'] }[this.o.marriage_lead];
      if (m && !(suit(card) === m && ranks.includes(rank(card)))) {
        return ['schnapsen.decl.lead', 'lead a card of the marriage'];
      }
      return null;
    }
    if (!this.strict()) return null;
    const led = this.table[0][1];
    const follow = hand.filter((c) => suit(c) === suit(led));
    if (follow.length && suit(card) !== suit(led)) return ['schnapsen.play.follow', 'follow suit'];
    if (this.o.strict_duty === 'follow_only') return null;
    const canBeat = follow.some((c) => beats(c, led));
    if (follow.length && FAULT !== 'no-head' && !beats(card, led) && canBeat) {
      return ['schnapsen.play.head', 'beat the card led'];
    }
    if (!follow.length && suit(card) !== this.trump && hand.some((c) => suit(c) === this.trump)) {
      return ['schnapsen.play.trump', 'trump when void'];
    }
    return null;
  }

  legal(seat) {
    if (this.phase === 'deal' || this.phase === 'over' || seat !== this.toAct) return [];
    const acts = [];
    const explicit = this.o.claim_mode === 'explicit';
    if (this.phase === 'after_trick') {
      if (explicit) acts.push('claim');
      if (this.hands[seat].length === 0) return acts.concat(['decline']);
      if (this.o.close_allowed && !this.whyNotClose(seat)) acts.push('close');
      return acts.concat(['draw']);
    }
    if (this.phase === 'close_reply') return ['exchange:J' + this.trump, 'decline'];
    if (this.onLead(seat)) {
      for (const s of SUITS) if (!this.whyNotMarriage(seat, s)) acts.push('marriage:' + s);
      if (!this.whyNotExchange(seat, 'J' + this.trump)) acts.push('exchange:J' + this.trump);
      if (this.o.close_allowed && !this.whyNotClose(seat)) acts.push('close');
      if (explicit && !this.whyNotClaim(seat)) acts.push('claim');
    }
    return acts.concat(this.hands[seat].filter((c) => !this.whyNotCard(seat, c)));
  }

  // -- applying an action: refusals first (docs/protocol.rst, "When an action
  //    breaks several rules"), then the change
  apply(seat, action) {
    const kind = parseAction(action);
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    // a call-out may be made at any moment where the rules have one, so it is judged
    // before the turn: Schnapsen has none
    if (kind.word === 'callout') throw illegal('core.phase', 'no calling out in Schnapsen');
    if (seat !== this.toAct) throw illegal('core.turn', `seat ${this.toAct} is to act`);
    const p = this.phase;
    const o = this.o;
    switch (kind.word) {
      case 'card': {
        if (p !== 'play') throw illegal('core.phase', 'no card now');
        if (!this.hands[seat].includes(action)) throw illegal('core.hand', `no ${action} in the hand`);
        const why = this.whyNotCard(seat, action);
        if (why) throw illegal(why[0], why[1]);
        return this.play(seat, action);
      }
      case 'marriage': {
        if (p !== 'play') throw illegal('core.phase', 'no declaration now');
        const why = this.whyNotMarriage(seat, kind.suit);
        if (why) throw illegal(why[0], why[1]);
        return this.declare(seat, kind.suit);
      }
      case 'exchange': {
        if (p === 'close_reply') {
          if (kind.card !== 'J' + this.trump || !this.hands[seat].includes(kind.card)) {
            throw illegal('schnapsen.exchange', 'only the jack of trumps');
          }
          this.swapTurnUp(seat, kind.card);
          return this.endClose();
        }
        const why = p === 'play' ? this.whyNotExchange(seat, kind.card) : 'not before the draw';
        if (why) throw illegal('schnapsen.exchange', why);
        return this.swapTurnUp(seat, kind.card);
      }
      case 'close': {
        if (!o.close_allowed || (p !== 'play' && p !== 'after_trick')) {
          throw illegal('core.phase', 'no closing now');
        }
        const why = this.whyNotClose(seat);
        if (why) throw illegal('schnapsen.close', why);
        return this.close(seat);
      }
      case 'claim': {
        if (o.claim_mode !== 'explicit') throw illegal('schnapsen.claim', 'the hand ends by itself at 66');
        const why = this.whyNotClaim(seat);
        if (why) throw illegal('schnapsen.claim.timing', why);
        return this.claim(seat);
      }
      case 'draw':
        if (p !== 'after_trick' || !this.hands[seat].length) throw illegal('core.phase', 'no draw now');
        return this.draw();
      case 'decline':
        if (p === 'close_reply') return this.endClose();
        if (p === 'after_trick' && this.hands[seat].length === 0) return this.playedOut();
        throw illegal('core.phase', 'nothing to decline');
      default:                                  // pass, yes, no
        throw illegal('core.phase', `no ${action} in Schnapsen`);
    }
  }

  declare(seat, s) {
    const value = s === this.trump && this.o.marriage_values === '20/40' ? 40 : 20;
    this.declared.push([seat, 'marriage', s, value]);
    this.turn.marriage = s;
    const mode = FAULT === 'marriage-at-once' ? 'immediate' : this.o.marriage_counting;
    const now = mode === 'immediate' || (mode === 'any_trick' && this.tricksWon[seat] > 0);
    if (now) this.credited[seat] += value;
    else this.held.push([seat, value]);
    if (this.o.claim_on_declaration) this.autoClaim(seat);
  }

  swapTurnUp(seat, jack) {
    const last = this.stock.length - 1;
    this.hands[seat].push(this.stock[last]);
    remove(this.hands[seat], jack);
    this.stock[last] = jack;
  }

  close(seat) {
    const other = 1 - seat;
    this.closedBy = seat;
    this.snapshot = { points: this.counted(other), tricks: this.tricksWon[other] };
    this.beforeDraw = this.phase === 'after_trick';    // then nobody draws
    if (this.o.exchange_on_close && this.hands[other].includes('J' + this.trump)) {
      this.phase = 'close_reply';
      this.toAct = other;
      return;
    }
    this.endClose();
  }

  endClose() {
    this.closed = true;
    if (this.beforeDraw) this.nextTrick();
    this.phase = 'play';
    this.toAct = this.closedBy;
  }

  play(seat, card) {
    remove(this.hands[seat], card);
    this.table.push([seat, card]);
    this.turn = { marriage: null };
    if (this.table.length < 2) { this.toAct = 1 - seat; return; }
    const [[a, ca], [b, cb]] = this.table;
    const bWins = suit(cb) === suit(ca) ? beats(cb, ca) : suit(cb) === this.trump;
    const w = bWins ? b : a;
    this.table = [];
    this.tricksWon[w] += 1;
    this.cardPoints[w] += POINTS[rank(ca)] + POINTS[rank(cb)];
    this.held = this.held.filter(([s, v]) => (s === w ? (this.credited[s] += v, false) : true));
    this.lastWinner = w;
    this.toAct = w;                // the trick's leader stays until the next trick
    const last = this.hands[w].length === 0;
    if (last && !this.closed && this.o.last_trick_rule === 'ten_points') this.cardPoints[w] += 10;
    if (this.autoClaim(w)) return;
    if (last) {
      const claimAfterLast = this.closed || !this.o.last_trick_flat;
      if (claimAfterLast && this.o.claim_mode === 'explicit') this.phase = 'after_trick';
      else this.playedOut();
      return;
    }
    if (!this.closed && this.stock.length > 0 && this.o.close_before_draw && this.o.close_allowed &&
        this.stock.length >= this.o.close_min_talon) {
      this.phase = 'after_trick';
      return;
    }
    this.draw();
  }

  nextTrick() {
    this.phase = 'play';
    this.trick += 1;
    this.leader = this.lastWinner;
  }

  draw() {
    this.nextTrick();
    if (this.closed || this.stock.length === 0) return;
    this.hands[this.leader].push(this.stock.shift());
    this.hands[1 - this.leader].push(this.stock.shift());
  }

  // claim_mode=auto: the hand ends by itself at a claim moment with 66
  autoClaim(seat) {
    if (this.o.claim_mode !== 'auto' || this.counted(seat) < TARGET) return false;
    if (this.hands[seat].length === 0 && !this.closed && this.o.last_trick_flat) return false;
    this.claim(seat);
    return true;
  }

  // -- the end of a hand (scoring.game_points)
  scale(points, tricks) { return points >= 33 ? 1 : tricks >= 1 ? 2 : 3; }

  failedClose(opp) {            // the closer's opponent wins
    const trickless = this.snapshot.tricks === 0;
    if (FAULT === 'failed-close-flat') return 2;
    if (this.o.failed_close_score === 'hoyle') {
      return trickless ? 3 : this.counted(this.closedBy) >= 33 ? 1 : 2;
    }
    return trickless ? 3 : 2;
  }

  trueClaimScore(seat) {
    const other = 1 - seat;
    if (this.closedBy === null) return this.scale(this.counted(other), this.tricksWon[other]);
    if (this.closedBy === seat) {
      const { points, tricks } = this.snapshot;
      if (this.o.close_snapshot === 'at_close') return this.scale(points, tricks);
      return this.scale(this.counted(other), this.tricksWon[other]);
    }
    return this.o.beaten_closer_score === 'flat2' ? 2 : this.failedClose(seat);
  }

  claim(seat) {
    const other = 1 - seat;
    if (this.counted(seat) >= TARGET) return this.endHand(seat, this.trueClaimScore(seat), 'claim');
    const o = this.o;
    let gp;
    const closerRow = seat === this.closedBy && o.closer_false_claim === 'failed_close_row';
    if (closerRow) gp = this.failedClose(other);
    else if (o.false_claim_score === 'flat2') gp = 2;
    else if (o.false_claim_score === 'as_claimed') gp = this.trueClaimScore(seat);
    else gp = this.tricksWon[other] === 0 ? 3 : 2;
    this.endHand(other, gp, 'false_claim');
  }

  playedOut() {
    const opp = 1 - this.closedBy;
    if (this.closedBy !== null) return this.endHand(opp, this.failedClose(opp), 'played_out');
    if (this.o.last_trick_rule === 'one_point') return this.endHand(this.lastWinner, 1, 'played_out');
    const [a, b] = [this.counted(0), this.counted(1)];
    if (a === b) return this.endHand(null, 0, 'played_out');
    const w = a > b ? 0 : 1;
    this.endHand(w, this.scale(this.counted(1 - w), this.tricksWon[1 - w]), 'played_out');
  }

  endHand(winner, gamePoints, ended) {
    const score = [0, 0];
    if (winner !== null) { score[winner] = gamePoints; this.segni[winner] += 1; }
    this.scores[0] += score[0];
    this.scores[1] += score[1];
    this.lastHand = {
      number: this.handNo, points: [this.counted(0), this.counted(1)], score, ended, winner,
    };
    const won = this.scores.findIndex((s) => s >= this.o.match_target);
    if (won >= 0) {
      const schneider = this.o.bummerl_schneider_double && this.scores[1 - won] === 0;
      const reason = schneider ? 'schneider_bummerl' : 'target';
      this.result = { winner: won, reason, scores: this.scores.slice() };
      this.phase = 'over';
    } else {
      const next = this.o.next_dealer;
      if (next === 'alternate') this.dealer = 1 - this.dealer;
      else if (winner !== null) this.dealer = next === 'winner' ? winner : 1 - winner;
      this.phase = 'deal';
    }
  }

  resign(seat) {
    this.result = { winner: 1 - seat, reason: 'resign', scores: this.scores.slice() };
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
      turn_up: inHand && this.phase !== 'close_reply' ? this.turnUp()
        : this.phase === 'close_reply' ? this.stock[this.stock.length - 1] : null,
      table: inHand ? this.table : [],
      stock: !inHand ? 0 : this.phase === 'close_reply' ? this.stock.length : this.stockCount(),
      hands: inHand ? this.hands : [[], []],
      declared: inHand ? this.declared : [],
      tricks_won: inHand ? this.tricksWon : [0, 0],
      hand_points: inHand ? [this.counted(0), this.counted(1)] : [0, 0],
      match_scores: this.scores,
      segni: this.segni,
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
      closed_by: inHand ? this.closedBy : null,
    };
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of Schnapsen
function parseAction(text) {
  if (PACK.includes(text)) return { word: 'card' };
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline'];
  if (words.includes(text)) return { word: text };
  let m = /^marriage:([HDCS])$/.exec(text);
  if (m) return { word: 'marriage', suit: m[1] };
  m = /^yes:([HDCS])$/.exec(text);
  if (m) return { word: 'yes' };
  m = /^exchange:(..)$/.exec(text);
  if (m && PACK.includes(m[1])) return { word: 'exchange', card: m[1] };
  throw new Refusal('bad_action', null, `not an action of schnapsen: ${JSON.stringify(text)}`);
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
    type: 'hello', engine: 'schnapsen-engine.js', version: '1.0', protocol: 2,
    requests: ['choose'], rulesets: { schnapsen: { options } },
  };
  if (HOUSE.length) {
    reply.configurations = HOUSE.map((options) => ({ ruleset: 'schnapsen', options }));
  }
  return reply;
}

const isSeat = (x) => x === 0 || x === 1;

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
  throw illegal('core.deal', 'Schnapsen has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  if (req.ruleset !== 'schnapsen') throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
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
    const outside = type === 'int' ? value < range[0] || value > range[1]
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
  if (!isSeat(req.seat)) throw badRequest('seat must be 0 or 1');
  return req.seat;
}

// choose: a plain player for `mariage match`: a true claim, a marriage or an exchange,
// else a card that takes the trick cheaply when following, else the lowest card
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
    if (acts.includes('claim') && m.counted(seat) >= TARGET) return 'claim';
    const marriage = acts.find((a) => a.startsWith('marriage:') || a.startsWith('exchange:'));
    if (marriage) return marriage;
    const cards = acts.filter((a) => PACK.includes(a));
    if (!cards.length) return ['draw', 'decline'].find((a) => acts.includes(a)) || acts[0];
    const value = (c) => POINTS[rank(c)] + (suit(c) === m.trump ? 20 : 0);
    cards.sort((x, y) => value(x) - value(y));
    if (m.table.length) {        // take the trick cheaply: in suit, or trumping 10 or more
      const led = m.table[0][1];
      const win = cards.find((c) => (suit(c) === suit(led) ? beats(c, led) : suit(c) === m.trump));
      if (win && (suit(win) === suit(led) || POINTS[rank(led)] >= 10)) return win;
    }
    return cards[0];
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
      if (!isSeat(req.seat)) throw badRequest('seat must be 0 or 1');
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
