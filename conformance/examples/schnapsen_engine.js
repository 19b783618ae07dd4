#!/usr/bin/env node
// A Schnapsen and Sixty-six engine in plain Node.js, written from the user documentation
// alone (docs/protocol.rst, docs/conformance.rst, the rulebooks of "mariage rules" and,
// as data, spec/schnapsen.yaml, spec/sixty-six.yaml, spec/sixty-six-3.yaml and
// spec/sixty-six-4.yaml): one file, no dependencies. It speaks the engine protocol
// (version 2, without hidden cards) and plays the rulesets "schnapsen", "sixty-six",
// "sixty-six-3" (three players, the dealer sitting out) and "sixty-six-4" (two
// partnerships, no talon) with every option of their specs, the house rules that the
// runner gives in each "start". The ruleset named in "start" selects its data (seats,
// teams, pack, packets, duties, scale...); the play reads the data and the options.
//
// Run the conformance suite against it (from a clone of the project):
//
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js"
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js" \
//       --ruleset schnapsen -o close_allowed=false --min-coverage 100
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js" \
//       --ruleset sixty-six-4 --require-rule-ids --min-coverage 100
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js" \
//       --derived --ruleset sixty-six-3 -o draw_bonus_next_hand=true --min-coverage 100
//
// The first runs the stored suite (every test of the four rulesets and the protocol;
// the other rulesets are skipped as not supported), the second and fourth the suite
// derived for one set of house rules. "--house [RULESET:]NAME=VALUE,..." (repeatable;
// RULESET defaults to schnapsen; a value may be V1|V2, quoted inside the engine
// command, where the runner refuses a bare | as a shell operator, or MIN..MAX) makes
// the engine declare that configuration in its hello, for
//
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js \
//       --house close_allowed=false,claim_mode=auto" --declared
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js \
//       --house 'marriage_values=20/40|20/20'" --declared
//   mariage conformance --engine "node conformance/examples/schnapsen_engine.js \
//       --house sixty-six-4:undertrump_required=false" --declared
//
// "--fault MODE" (or SCHNAPSEN_FAULT=MODE) plants one mistake, so that you can
// see what the runner says about it; "--list-faults" lists them. It answers
// "choose" too, so "mariage match sixty-six-3 --engine A=... --bot B=greedy" plays it.
// Its tests: tests/test_engine_node25.py (Schnapsen), tests/test_engine_node28_sixtysix.py
// (the Sixty-six family).
'use strict';

// ---------------------------------------------------------------------------
// The rulesets' data (spec/schnapsen.yaml, spec/sixty-six.yaml, spec/sixty-six-3.yaml,
// spec/sixty-six-4.yaml): the play below reads these fields and the options, never the
// ruleset's name.

const SUITS = ['H', 'D', 'C', 'S'];
const POINTS = { A: 11, T: 10, K: 4, Q: 3, J: 2, 9: 0, 8: 0, 7: 0 };
const TARGET = 66;                                   // claim.target
const MAX_LINE = 1 << 20;

// options: name -> [type, default, values or [min, max]]
const SCHNAPSEN_OPTIONS = {
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
  last_trick_bonus_when_closed: ['bool', false],   // not an option of Schnapsen: fixed
  draw_bonus_next_hand: ['bool', false],           // not an option of Schnapsen: fixed
  strict_duty: ['enum', 'follow_head_trump', ['follow_head_trump', 'follow_only']],
  next_dealer: ['enum', 'alternate', ['alternate', 'winner', 'loser']],
  review_own_tricks: ['bool', true],   // what a player may look at: nothing to play
};

// a ruleset's options: those of its parent, less `drop`, with new defaults and new options
function optionsFrom(parent, drop, defaults, added) {
  const out = {};
  for (const [name, spec] of Object.entries(parent)) {
    if (drop.includes(name)) continue;
    out[name] = name in defaults ? [spec[0], defaults[name], spec[2]] : spec;
  }
  return { ...out, ...added };
}

const SIXTY_SIX_OPTIONS = optionsFrom(SCHNAPSEN_OPTIONS, ['bummerl_schneider_double', 'last_trick_flat'], {
  turnup_after: 'all_cards', exchange_requires_trick: true, exchange_on_close: true,
  marriage_after_close: false, close_before_draw: true, close_snapshot: 'at_end',
  beaten_closer_score: 'flat2', false_claim_score: 'flat2', last_trick_rule: 'ten_points',
  next_dealer: 'winner',
}, {});

const TALON_RULES = {
  who: 'schnapsen.decl.who', window: 'schnapsen.decl.window', exchange: 'schnapsen.exchange',
  close: 'schnapsen.close', follow: 'schnapsen.play.follow', head: 'schnapsen.play.head',
  trump: 'schnapsen.play.trump',
};

// seats, teams, pack, deal, play and scoring of each ruleset; `fixed`: the values of
// the parent's options that the ruleset does not offer; `effects`: data an option
// value changes
const RULESETS = {
  schnapsen: {
    seats: 2, teams: [[0], [1]], ranks: ['A', 'T', 'K', 'Q', 'J'], packets: [3, 2],
    sitsOut: false, talon: true, claims: true, marriages: true, lowTrump: 'J', turnUp: 'under_stock',
    voidDuty: 'trump', scaleMin: 33, dealerShare: false, rules: TALON_RULES,
    options: SCHNAPSEN_OPTIONS,
    fixed: { last_trick_bonus_when_closed: false, draw_bonus_next_hand: false },
    hidden: ['last_trick_bonus_when_closed', 'draw_bonus_next_hand'],
    effects: {},
  },
};
RULESETS['sixty-six'] = {
  ...RULESETS.schnapsen, ranks: ['A', 'T', 'K', 'Q', 'J', '9'], packets: [3, 3], lowTrump: '9',
  rules: { ...TALON_RULES, window: 'sixty-six.decl.window', exchange: 'sixty-six.exchange',
    close: 'sixty-six.close' },
  options: SIXTY_SIX_OPTIONS, hidden: [],
  fixed: { bummerl_schneider_double: false, last_trick_flat: false },
};
RULESETS['sixty-six-3'] = {
  ...RULESETS['sixty-six'], seats: 3, teams: [[0], [1], [2]], sitsOut: true, dealerShare: true,
  rules: { ...RULESETS['sixty-six'].rules, who: 'sixty-six-3.decl.who' },
  options: optionsFrom(SIXTY_SIX_OPTIONS, ['next_dealer'], {},
    { three_hand_play_for_loser: ['bool', false] }),
  fixed: { ...RULESETS['sixty-six'].fixed, next_dealer: 'alternate' },
};
RULESETS['sixty-six-4'] = {
  ...RULESETS['sixty-six'], seats: 4, teams: [[0, 2], [1, 3]],
  ranks: ['A', 'T', 'K', 'Q', 'J', '9', '8', '7'], packets: [3, 2, 3], talon: false,
  claims: false, marriages: false, lowTrump: null, turnUp: 'dealer_last', voidDuty: 'overtrump', scaleMin: 31,
  rules: { follow: 'sixty-six-4.play.follow', head: 'sixty-six-4.play.head',
    trump: 'sixty-six-4.play.trump' },
  options: {
    match_target: ['int', 7, [1, 10000]],
    next_dealer: ['enum', 'alternate', ['alternate', 'winner', 'loser']],
    review_own_tricks: ['bool', true],
    draw_bonus_next_hand: ['bool', true],
    deal_packets: ['enum', '3-2-3', ['3-2-3', '2-2-2-2']],
    undertrump_required: ['bool', true],
    hundred_counts_two: ['bool', true],
    ten_of_trumps_point: ['bool', false],
  },
  fixed: {
    ...RULESETS['sixty-six'].fixed, close_allowed: false, last_trick_rule: 'ten_points',
    last_trick_bonus_when_closed: false, strict_duty: 'follow_head_trump',
  },
  effects: {
    deal_packets: { '2-2-2-2': { packets: [2, 2, 2, 2] } },
    undertrump_required: { false: { voidDuty: 'beat' } },
    hundred_counts_two: { false: { scaleMin: 30 } },
  },
};
for (const r of Object.values(RULESETS)) {
  r.pack = [].concat(...SUITS.map((s) => r.ranks.map((k) => k + s)));
}

const FAULTS = {
  'no-head': 'strict play does not make the follower beat the card led (schnapsen.play.head)',
  'close-after-marriage': 'the leader may close after declaring a marriage (schnapsen.close)',
  'marriage-at-once': 'a marriage counts at once, trick or no trick (schnapsen.decl.credit)',
  'failed-close-flat': 'a failed close always scores 2 (schnapsen.score.failed-close)',
  'exchange-after-marriage': 'the leader may exchange after declaring a marriage '
    + '(schnapsen.exchange)',
  'claim-after-marriage': 'under claim_on_declaration=false, the trick winner may still claim '
    + 'between a marriage and its lead (schnapsen.claim.timing)',
  'marriage-word': 'marriage:S is a word of Sixty-six for four, refused as out of its moment '
    + '(core.phase) rather than as no action of the ruleset (bad_action)',
  'head-card-led': 'a follower must beat the card led, not the card winning the trick '
    + '(sixty-six-4.play.head)',
  'no-overtrump': 'a player void in the suit led may play any trump (sixty-six-4.play.trump)',
  'share-uncapped': 'the dealer sitting out may reach the target with his share '
    + '(sixty-six-3.score.dealer)',
  'ten-when-closed': 'the last trick adds 10 after a close too (sixty-six.score.last-trick)',
  'draw-bonus-one': 'the draw bonus is 1 whatever the number of drawn hands '
    + '(sixty-six.score.draw-bonus)',
  'ten-of-trumps-won-hand': 'the ten of trumps scores only in a hand with a winner '
    + '(sixty-six-4.score.ten-of-trumps)',
  'tie-first-side': 'both sides at the target: the first side wins, not the higher score '
    + '(sixty-six-4.match.tie)',
  'share-no-bonus': 'the dealer sitting out shares the winner\'s game points without the draw '
    + 'bonus (sixty-six-3.score.dealer)',
  'resign-next-seat': 'a resignation gives the match to the next seat, not the other side '
    + '(core.resign)',
  'dealer-first-of-team': 'next_dealer=winner/loser: the side\'s first seat deals, not its '
    + 'player next after the dealer (sixty-six-4.deal.rotation)',
  'drawn-same-dealer': 'after a drawn hand the same dealer deals again, also under '
    + 'next_dealer=alternate (sixty-six.deal.rotation)',
  'share-segno': 'the dealer sitting out counts a hand won when he shares the score '
    + '(sixty-six-3.score.dealer)',
  'draw-bonus-kept': 'the drawn hands are not forgotten once the bonus is paid '
    + '(sixty-six.score.draw-bonus)',
  'reply-needs-trick': 'the exchange right after a close needs a trick won, like the one on '
    + 'lead (sixty-six.close.reply)',
  'turn-up-until-played': 'the dealer\'s turned card is no longer shown once he has played it '
    + '(sixty-six-4.deal)',
  'partner-spared': 'a player void in the suit led need not over-trump his partner\'s trump '
    + '(sixty-six-4.play.trump)',
};
let FAULT = process.env.SCHNAPSEN_FAULT || null;

const suit = (c) => c[1];
const rank = (c) => c[0];
const remove = (list, x) => list.splice(list.indexOf(x), 1);

class Refusal extends Error {      // an error answer: code and, for illegal_action, rule
  constructor(code, rule, message) { super(message); this.code = code; this.rule = rule; }
}
const illegal = (rule, message) => new Refusal('illegal_action', rule, message);
const badRequest = (message) => new Refusal('bad_request', null, message);

// ---------------------------------------------------------------------------
// The match

class Match {
  constructor(R, options, dealer, deck) {
    this.R = R;
    this.o = options;
    this.n = R.seats;
    this.dealer = dealer;
    this.handNo = 0;
    this.scores = R.teams.map(() => 0);   // game points (match_scores), per team
    this.segni = R.teams.map(() => 0);    // hands won
    this.drawn = 0;                       // drawn hands since the last hand won
    this.placed = [];                     // three_hand_play_for_loser: the teams placed
    this.lastHand = null;
    this.result = null;
    this.phase = 'deal';
    this.deal(deck);
  }

  team(seat) { return this.R.teams.findIndex((t) => t.includes(seat)); }
  zeros() { return this.R.teams.map(() => 0); }
  higher(a, b) { return this.R.ranks.indexOf(rank(a)) < this.R.ranks.indexOf(rank(b)); }
  // the seats that play this hand, in playing order from the dealer's left (once a
  // player is placed, he sits out instead of the dealer: three_hand_play_for_loser)
  seatsInHand() {
    const out = [];
    for (let k = 1; k <= this.n; k++) {
      const s = (this.dealer + k) % this.n;
      const sits = this.placed.length ? this.placed.includes(this.team(s))
        : this.R.sitsOut && s === this.dealer;
      if (!sits) out.push(s);
    }
    return out;
  }
  next(seat) { const a = this.active; return a[(a.indexOf(seat) + 1) % a.length]; }
  opp(seat) { return this.active.find((s) => s !== seat); }   // two in the hand

  // -- the deal: packets from the seat after the dealer; the turn-up after the first
  //    round (or after all cards) lies under the stock, or is the dealer's last card
  deal(deck) {
    const o = this.o;
    const R = this.R;
    this.active = this.seatsInHand();
    const hands = Array.from({ length: this.n }, () => []);
    let i = 0;
    let turnUp = null;
    R.packets.forEach((size, round) => {
      for (const seat of this.active) {
        for (let k = 0; k < size; k++) {
          if (seat === this.dealer && R.turnUp === 'dealer_last') turnUp = deck[i];
          hands[seat].push(deck[i++]);
        }
      }
      if (round === 0 && R.talon && o.turnup_after === 'first_round') turnUp = deck[i++];
    });
    if (turnUp === null) turnUp = deck[i++];
    this.handNo += 1;
    this.hands = hands;
    this.stock = R.talon ? deck.slice(i).concat([turnUp]) : [];   // top first, turn-up last
    this.dealerCard = turnUp;
    this.trump = suit(turnUp);
    this.phase = 'play';
    this.trick = 1;
    this.leader = this.active[0];
    this.toAct = this.leader;
    this.table = [];
    this.declared = [];
    this.tricksWon = this.zeros();
    this.cardPoints = this.zeros();
    this.credited = this.zeros();  // marriage points that count
    this.bonus = this.zeros();     // game points won in the play (the ten of trumps)
    this.held = [];                // marriages waiting for a trick: [seat, value]
    this.closedBy = null;
    this.closed = false;           // the talon is out of play
    this.snapshot = null;          // the closer's opponent at the close
    this.lastWinner = null;
    this.turn = { marriage: null };  // what the leader did before leading
  }

  counted(seat) { const t = this.team(seat); return this.cardPoints[t] + this.credited[t]; }
  tricksOf(seat) { return this.tricksWon[this.team(seat)]; }
  stockCount() { return this.closed ? 0 : this.stock.length; }
  turnUp() {
    if (this.R.turnUp === 'dealer_last') {
      const played = FAULT === 'turn-up-until-played' && !this.hands[this.dealer].includes(this.dealerCard);
      return played ? null : this.dealerCard;
    }
    return this.strict() ? null : this.stock[this.stock.length - 1];
  }
  strict() { return !this.R.talon || this.closed || this.stock.length === 0; }
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

  lowTrump() { return this.R.lowTrump + this.trump; }

  whyNotExchange(seat, card) {
    const o = this.o;
    if (!this.onLead(seat)) return 'only the player about to lead may exchange';
    if (this.turn.marriage && FAULT !== 'exchange-after-marriage') return 'not after a marriage';
    if (this.closed || this.stock.length === 0) return 'the talon is closed or exhausted';
    if (this.stock.length < o.exchange_min_talon) return `fewer than ${o.exchange_min_talon} cards left`;
    if (card !== this.lowTrump() || !this.hands[seat].includes(card)) return 'only the low trump, held';
    if (o.exchange_requires_trick && this.tricksOf(seat) === 0) return 'only after winning a trick';
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
    const rules = this.R.rules;
    if (!this.onLead(seat) || (!o.marriage_on_first_lead && this.trick === 1)) {
      return [rules.who, 'only the player about to lead may declare'];
    }
    if (!o.marriage_after_close && this.strict()) {
      return [rules.window, 'not once the talon is closed or exhausted'];
    }
    if (this.turn.marriage) return ['schnapsen.decl.per-trick', 'one marriage at each lead'];
    if (!this.hands[seat].includes('K' + s) || !this.hands[seat].includes('Q' + s)) {
      return ['schnapsen.decl.marriage', 'the king and queen must be in the hand'];
    }
    if (this.declared.some((d) => d[2] === s)) return ['schnapsen.decl.once', 'once a suit in a hand'];
    return null;
  }

  // the card now winning the trick on the table
  winning(table) {
    let best = table[0][1];
    for (const [, c] of table.slice(1)) {
      if (suit(c) === suit(best) ? this.higher(c, best) : suit(c) === this.trump) best = c;
    }
    return best;
  }

  // [rule, why] for a card: the marriage's lead, then the duties of strict play
  whyNotCard(seat, card) {
    const hand = this.hands[seat];
    const rules = this.R.rules;
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
    const best = this.winning(this.table);
    const follow = hand.filter((c) => suit(c) === suit(led));
    if (follow.length && suit(card) !== suit(led)) return [rules.follow, 'follow suit'];
    if (this.o.strict_duty === 'follow_only') return null;
    if (follow.length) {           // beat the winning card, unless a trump took the lead suit
      const mark = FAULT === 'head-card-led' ? led : best;
      const canBeat = suit(mark) === suit(led) && follow.some((c) => this.higher(c, mark));
      if (canBeat && FAULT !== 'no-head' && !this.higher(card, mark)) {
        return [rules.head, 'beat the winning card'];
      }
      return null;
    }
    const trumps = hand.filter((c) => suit(c) === this.trump);
    if (!trumps.length) return null;
    const partnerWins = this.team(this.table.find(([, c]) => c === best)[0]) === this.team(seat);
    if (FAULT === 'partner-spared' && partnerWins && suit(best) === this.trump) return null;
    const wins = (c) => suit(best) !== this.trump || this.higher(c, best);
    const duty = this.R.voidDuty;
    const isTrump = suit(card) === this.trump;
    if (duty === 'trump' || duty === 'overtrump') {
      if (!isTrump) return [rules.trump, 'trump when void'];
      if (duty === 'overtrump' && FAULT !== 'no-overtrump' && !wins(card) && trumps.some(wins)) {
        return [rules.trump, 'over-trump when able'];
      }
      return null;
    }
    // 'beat': a trump that wins the trick, if one does; else any card
    if (trumps.some(wins) && !(isTrump && wins(card))) return [rules.trump, 'trump to win'];
    return null;
  }

  legal(seat) {
    if (this.phase === 'deal' || this.phase === 'over' || seat !== this.toAct) return [];
    const acts = [];
    const explicit = this.R.claims && this.o.claim_mode === 'explicit';
    if (this.phase === 'after_trick') {
      if (explicit) acts.push('claim');
      if (this.hands[seat].length === 0) return acts.concat(['decline']);
      if (this.o.close_allowed && !this.whyNotClose(seat)) acts.push('close');
      return acts.concat(['draw']);
    }
    if (this.phase === 'close_reply') return ['exchange:' + this.lowTrump(), 'decline'];
    if (this.onLead(seat) && this.R.talon) {
      for (const s of SUITS) if (!this.whyNotMarriage(seat, s)) acts.push('marriage:' + s);
      if (!this.whyNotExchange(seat, this.lowTrump())) acts.push('exchange:' + this.lowTrump());
      if (this.o.close_allowed && !this.whyNotClose(seat)) acts.push('close');
      if (explicit && !this.whyNotClaim(seat)) acts.push('claim');
    }
    return acts.concat(this.hands[seat].filter((c) => !this.whyNotCard(seat, c)));
  }

  // -- applying an action: refusals first (docs/protocol.rst, "When an action
  //    breaks several rules"), then the change
  apply(seat, action) {
    const kind = parseAction(action, this.R);
    if (this.phase === 'over') throw illegal('core.over', 'the match is over');
    if (this.phase === 'deal') throw illegal('core.phase', 'no hand in progress');
    // a call-out may be made at any moment where the rules have one, so it is judged
    // before the turn: these rulesets have none
    if (kind.word === 'callout') throw illegal('core.phase', 'no calling out here');
    if (seat !== this.toAct) throw illegal('core.turn', `seat ${this.toAct} is to act`);
    const p = this.phase;
    const o = this.o;
    const talon = this.R.talon;
    switch (kind.word) {
      case 'card': {
        if (p !== 'play') throw illegal('core.phase', 'no card now');
        if (!this.hands[seat].includes(action)) throw illegal('core.hand', `no ${action} in the hand`);
        const why = this.whyNotCard(seat, action);
        if (why) throw illegal(why[0], why[1]);
        return this.play(seat, action);
      }
      case 'marriage': {
        if (p !== 'play' || !talon) throw illegal('core.phase', 'no declaration now');
        const why = this.whyNotMarriage(seat, kind.suit);
        if (why) throw illegal(why[0], why[1]);
        return this.declare(seat, kind.suit);
      }
      case 'exchange': {
        if (!talon) throw illegal('core.phase', 'no exchange here');
        if (p === 'close_reply') {
          if (kind.card !== this.lowTrump() || !this.hands[seat].includes(kind.card)) {
            throw illegal(this.R.rules.exchange, 'only the low trump');
          }
          this.swapTurnUp(seat, kind.card);
          return this.endClose();
        }
        const why = p === 'play' ? this.whyNotExchange(seat, kind.card) : 'not before the draw';
        if (why) throw illegal(this.R.rules.exchange, why);
        return this.swapTurnUp(seat, kind.card);
      }
      case 'close': {
        if (!o.close_allowed || (p !== 'play' && p !== 'after_trick')) {
          throw illegal('core.phase', 'no closing now');
        }
        const why = this.whyNotClose(seat);
        if (why) throw illegal(this.R.rules.close, why);
        return this.close(seat);
      }
      case 'claim': {
        if (!this.R.claims) throw illegal('core.phase', 'no claims here');
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
        throw illegal('core.phase', `no ${action} here`);
    }
  }

  declare(seat, s) {
    const value = s === this.trump && this.o.marriage_values === '20/40' ? 40 : 20;
    this.declared.push([seat, 'marriage', s, value]);
    this.turn.marriage = s;
    const mode = FAULT === 'marriage-at-once' ? 'immediate' : this.o.marriage_counting;
    const now = mode === 'immediate' || (mode === 'any_trick' && this.tricksOf(seat) > 0);
    if (now) this.credited[this.team(seat)] += value;
    else this.held.push([seat, value]);
    if (this.o.claim_on_declaration) this.autoClaim(seat);
  }

  swapTurnUp(seat, low) {
    const last = this.stock.length - 1;
    this.hands[seat].push(this.stock[last]);
    remove(this.hands[seat], low);
    this.stock[last] = low;
  }

  close(seat) {
    const other = this.opp(seat);
    this.closedBy = seat;
    this.snapshot = { points: this.counted(other), tricks: this.tricksOf(other) };
    this.beforeDraw = this.phase === 'after_trick';    // then nobody draws
    const trickless = FAULT === 'reply-needs-trick' && this.tricksOf(other) === 0;
    if (this.o.exchange_on_close && this.hands[other].includes(this.lowTrump()) && !trickless) {
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
    if (this.table.length < this.active.length) { this.toAct = this.next(seat); return; }
    const best = this.winning(this.table);
    const w = this.table.find(([, c]) => c === best)[0];
    const t = this.team(w);
    this.tricksWon[t] += 1;
    for (const [, c] of this.table) {
      this.cardPoints[t] += POINTS[rank(c)];
      if (this.o.ten_of_trumps_point && c === 'T' + this.trump) this.bonus[t] += 1;
    }
    this.table = [];
    this.held = this.held.filter(([s, v]) => (s === w ? (this.credited[t] += v, false) : true));
    this.lastWinner = w;
    this.toAct = w;                // the trick's leader stays until the next trick
    const last = this.hands[w].length === 0;
    const tenNow = !this.closed || this.o.last_trick_bonus_when_closed || FAULT === 'ten-when-closed';
    if (last && tenNow && this.o.last_trick_rule === 'ten_points') this.cardPoints[t] += 10;
    if (!this.R.claims) {
      if (last) return this.playedOut();
      return this.nextTrick();
    }
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
    this.hands[this.opp(this.leader)].push(this.stock.shift());
  }

  // claim_mode=auto: the hand ends by itself at a claim moment with 66
  autoClaim(seat) {
    if (this.o.claim_mode !== 'auto' || this.counted(seat) < TARGET) return false;
    if (this.hands[seat].length === 0 && !this.closed && this.o.last_trick_flat) return false;
    this.claim(seat);
    return true;
  }

  // -- the end of a hand (scoring.game_points)
  scale(points, tricks) { return points >= this.R.scaleMin ? 1 : tricks >= 1 ? 2 : 3; }

  failedClose() {               // the closer's opponent wins
    const trickless = this.snapshot.tricks === 0;
    if (FAULT === 'failed-close-flat') return 2;
    if (this.o.failed_close_score === 'hoyle') {
      return trickless ? 3 : this.counted(this.closedBy) >= 33 ? 1 : 2;
    }
    return trickless ? 3 : 2;
  }

  trueClaimScore(seat) {
    const other = this.opp(seat);
    if (this.closedBy === null) return this.scale(this.counted(other), this.tricksOf(other));
    if (this.closedBy === seat) {
      const { points, tricks } = this.snapshot;
      if (this.o.close_snapshot === 'at_close') return this.scale(points, tricks);
      return this.scale(this.counted(other), this.tricksOf(other));
    }
    return this.o.beaten_closer_score === 'flat2' ? 2 : this.failedClose();
  }

  claim(seat) {
    const other = this.opp(seat);
    if (this.counted(seat) >= TARGET) return this.endHand(seat, this.trueClaimScore(seat), 'claim');
    const o = this.o;
    let gp;
    const closerRow = seat === this.closedBy && o.closer_false_claim === 'failed_close_row';
    if (closerRow) gp = this.failedClose();
    else if (o.false_claim_score === 'flat2') gp = 2;
    else if (o.false_claim_score === 'as_claimed') gp = this.trueClaimScore(seat);
    else gp = this.tricksOf(other) === 0 ? 3 : 2;
    this.endHand(other, gp, 'false_claim');
  }

  playedOut() {
    if (this.closedBy !== null) {
      const opp = this.opp(this.closedBy);
      return this.endHand(opp, this.failedClose(), 'played_out');
    }
    if (this.o.last_trick_rule === 'one_point') return this.endHand(this.lastWinner, 1, 'played_out');
    const teams = this.R.teams.map((t) => t[0]);
    const pts = teams.map((s) => this.counted(s));
    const top = Math.max(...pts);
    const leaders = teams.filter((s, k) => pts[k] === top);
    if (leaders.length > 1) return this.endHand(null, 0, 'played_out');
    const w = leaders[0];
    const loser = this.R.teams.length === 2 ? teams.find((s) => s !== w) : this.opp(w);
    this.endHand(w, this.scale(this.counted(loser), this.tricksOf(loser)), 'played_out');
  }

  // winner: a seat of the winning team, or null for a drawn hand
  endHand(winner, gamePoints, ended) {
    const score = this.bonus.slice();
    if (FAULT === 'ten-of-trumps-won-hand' && winner === null) score.fill(0);
    const wt = winner === null ? null : this.team(winner);
    if (winner !== null) {
      const drawn = FAULT === 'draw-bonus-one' ? Math.min(1, this.drawn) : this.drawn;
      const extra = this.o.draw_bonus_next_hand ? drawn : 0;
      score[wt] += gamePoints + extra;
      this.segni[wt] += 1;
      if (FAULT !== 'draw-bonus-kept') this.drawn = 0;
      if (this.R.dealerShare && !this.placed.length) {  // the dealer sitting out: the winner's points, below target
        const d = this.team(this.dealer);
        const share = gamePoints + (FAULT === 'share-no-bonus' ? 0 : extra);
        const room = FAULT === 'share-uncapped' ? share : this.o.match_target - 1 - this.scores[d];
        score[d] += Math.max(0, Math.min(share, room));
        if (FAULT === 'share-segno') this.segni[d] += 1;
      }
    } else this.drawn += 1;
    score.forEach((v, k) => { this.scores[k] += v; });
    this.lastHand = {
      number: this.handNo, points: this.R.teams.map((t) => this.counted(t[0])), score,
      ended, winner: wt,
    };
    if (this.o.three_hand_play_for_loser) return this.placeOrGoOn(wt);
    const top = Math.max(...this.scores);
    const over = this.scores.filter((s) => s >= this.o.match_target && s === top);
    const first = this.scores.findIndex((s) => s >= this.o.match_target);
    if (over.length === 1 || (FAULT === 'tie-first-side' && first >= 0)) {
      const won = FAULT === 'tie-first-side' ? first : this.scores.indexOf(top);
      const others = this.scores.filter((s, k) => k !== won);
      const schneider = this.o.bummerl_schneider_double && others.every((s) => s === 0);
      const reason = schneider ? 'schneider_bummerl' : 'target';
      this.result = { winner: won, reason, scores: this.scores.slice() };
      this.phase = 'over';
    } else {
      this.dealer = this.nextDealer(wt);
      this.phase = 'deal';
    }
  }

  // three_hand_play_for_loser: a player who reaches the target is placed and leaves the
  // play; the two others play on, the deal passing over him, until one more is placed
  placeOrGoOn(wt) {
    const reached = this.scores.map((s, k) => k).filter(
      (k) => this.scores[k] >= this.o.match_target && !this.placed.includes(k));
    const top = Math.max(-1, ...reached.map((k) => this.scores[k]));
    const best = reached.filter((k) => this.scores[k] === top);
    if (best.length === 1) this.placed.push(best[0]);
    if (this.placed.length === this.R.teams.length - 1) {  // the one left is last
      this.placed.push(this.R.teams.findIndex((t, k) => !this.placed.includes(k)));
      this.result = { winner: this.placed[0], reason: 'target', scores: this.scores.slice() };
      this.phase = 'over';
      return;
    }
    let d = this.nextDealer(wt);
    while (this.placed.includes(this.team(d))) d = (d + 1) % this.n;
    this.dealer = d;
    this.phase = 'deal';
  }

  // the deal passes to the left, or to the first seat after the dealer of the winning
  // (losing) team; after a drawn hand then the same dealer deals again
  nextDealer(wt) {
    const next = this.o.next_dealer;
    if (wt === null && (next !== 'alternate' || FAULT === 'drawn-same-dealer')) return this.dealer;
    if (next === 'alternate') return (this.dealer + 1) % this.n;
    const team = next === 'winner' ? wt : this.R.teams.findIndex((t, k) => k !== wt);
    if (FAULT === 'dealer-first-of-team') return this.R.teams[team][0];
    for (let k = 1; k <= this.n; k++) {
      const s = (this.dealer + k) % this.n;
      if (this.team(s) === team) return s;
    }
    return this.dealer;
  }

  resign(seat) {
    if (this.placed.length) {  // three_hand_play_for_loser: the winner stays first
      const t = this.team(seat);
      if (!this.placed.includes(t)) {  // one of the two playing on: he is last
        this.placed.push(...this.R.teams.map((x, k) => k).filter((k) => k !== t && !this.placed.includes(k)), t);
      }
      this.result = { winner: this.placed[0], reason: 'resign', scores: this.scores.slice() };
      this.phase = 'over';
      return;
    }
    const two = this.R.teams.length === 2;
    const winner = FAULT === 'resign-next-seat' ? (seat + 1) % this.n : two ? 1 - this.team(seat) : null;
    this.result = { winner, reason: 'resign', scores: this.scores.slice() };
    this.phase = 'over';
  }

  state() {
    const inHand = this.phase !== 'deal' && this.phase !== 'over';
    const zeros = this.zeros();
    const s = {
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
      hands: inHand ? this.hands : this.hands.map(() => []),
      declared: inHand ? this.declared : [],
      tricks_won: inHand ? this.tricksWon : zeros,
      hand_points: inHand ? this.R.teams.map((t) => this.counted(t[0])) : zeros,
      match_scores: this.scores,
      segni: this.segni,
      last_hand: this.lastHand,
      terminal: this.phase === 'over',
      result: this.result,
    };
    if (this.R.talon) s.closed_by = inHand ? this.closedBy : null;
    if (this.o.three_hand_play_for_loser) s.placed = this.placed.slice();  // first first
    return s;
  }
}

// action text -> {word, ...}; throws bad_action for a text that is no action of the ruleset
function parseAction(text, R) {
  if (R.pack.includes(text)) return { word: 'card' };
  const words = ['pass', 'yes', 'no', 'callout', 'close', 'claim', 'draw', 'decline'];
  if (words.includes(text)) return { word: text };
  let m = /^marriage:([HDCS])$/.exec(text);
  if (m && (R.marriages || FAULT === 'marriage-word')) return { word: 'marriage', suit: m[1] };
  m = /^yes:([HDCS])$/.exec(text);
  if (m) return { word: 'yes' };
  m = /^exchange:(..)$/.exec(text);
  if (m && R.pack.includes(m[1])) return { word: 'exchange', card: m[1] };
  throw new Refusal('bad_action', null, `not an action of this ruleset: ${JSON.stringify(text)}`);
}

// ---------------------------------------------------------------------------
// Requests

let match = null;
const HOUSE = [];   // --house (repeatable): the configurations declared in hello

function hello() {
  const rulesets = {};
  for (const [name, R] of Object.entries(RULESETS)) {
    const options = {};
    for (const [opt, [type, dflt, range]] of Object.entries(R.options)) {
      if (R.hidden.includes(opt)) continue;
      options[opt] = { type, default: dflt };
      if (type === 'enum') options[opt].values = range;
      if (type === 'int') [options[opt].min, options[opt].max] = range;
    }
    rulesets[name] = { options };
  }
  const reply = {
    type: 'hello', engine: 'schnapsen-engine.js', version: '1.1', protocol: 2,
    requests: ['choose'], rulesets,
  };
  if (HOUSE.length) reply.configurations = HOUSE;
  return reply;
}

const isSeat = (x, n) => Number.isInteger(x) && x >= 0 && x < n;

function checkDeck(deck, R) {
  if (!Array.isArray(deck) || !deck.every((c) => typeof c === 'string')) {
    throw badRequest('deck must be a list of cards');
  }
  const whole = deck.length === R.pack.length && new Set(deck).size === R.pack.length;
  if (!whole || !deck.every((c) => R.pack.includes(c))) {
    throw illegal('core.deal', 'the deck must hold every card of the pack once');
  }
}

function checkFirstPlayer(req) {
  const fp = req.first_player;
  if (fp === undefined || fp === null) return;
  if (typeof fp !== 'number') throw badRequest('first_player must be a number or null');
  throw illegal('core.deal', 'the ruleset has a dealer: no first_player');
}

function start(req) {
  if (typeof req.ruleset !== 'string') throw badRequest('ruleset must be a string');
  const R0 = Object.prototype.hasOwnProperty.call(RULESETS, req.ruleset) ? RULESETS[req.ruleset] : null;
  if (!R0) throw new Refusal('unsupported', null, `no ruleset ${req.ruleset}`);
  const given = req.options === undefined || req.options === null ? {} : req.options;
  if (typeof given !== 'object' || Array.isArray(given)) throw badRequest('options: an object');
  const options = {};
  for (const [name, [, dflt]] of Object.entries(R0.options)) options[name] = dflt;
  Object.assign(options, R0.fixed);
  for (const [name, value] of Object.entries(given)) {
    const spec = R0.hidden.includes(name) ? null : R0.options[name];
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
  let R = R0;                    // the data the options' values change
  for (const [name, byValue] of Object.entries(R0.effects)) {
    const change = byValue[String(options[name])];
    if (change) R = { ...R, ...change };
  }
  if (!isSeat(req.dealer, R.seats)) throw badRequest('dealer must be a seat');
  checkDeck(req.deck, R);
  checkFirstPlayer(req);
  match = new Match(R, options, req.dealer, req.deck);
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
  if (!isSeat(req.seat, m.n)) throw badRequest('seat must be a seat of the ruleset');
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
    const cards = acts.filter((a) => m.R.pack.includes(a));
    if (!cards.length) return ['draw', 'decline'].find((a) => acts.includes(a)) || acts[0];
    const value = (c) => POINTS[rank(c)] + (suit(c) === m.trump ? 20 : 0);
    cards.sort((x, y) => value(x) - value(y));
    if (m.table.length) {        // take the trick cheaply: in suit, or trumping 10 or more
      const best = m.winning(m.table);
      const win = cards.find((c) => m.winning([...m.table, [seat, c]]) === c);
      if (win && (suit(win) === suit(best) || POINTS[rank(best)] >= 10)) return win;
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
      checkDeck(req.deck, m.R);
      checkFirstPlayer(req);
      m.deal(req.deck);
      return { type: 'ok' };
    }
    case 'resign': {
      const m = needMatch();
      if (!isSeat(req.seat, m.n)) throw badRequest('seat must be a seat of the ruleset');
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
    if (args[k] === '--house') {    // [RULESET:]NAME=V,...
      let text = args[++k];
      let ruleset = 'schnapsen';
      const named = /^([a-z0-9-]+):(.*)$/.exec(text);
      if (named && RULESETS[named[1]]) [, ruleset, text] = named;
      const house = {};
      for (const pair of text.split(',')) {    // NAME=V, NAME=V1|V2 or NAME=MIN..MAX
        const [name, v] = pair.split('=');
        const type = (RULESETS[ruleset].options[name] || [])[0];
        const typed = (x) => (type === 'int' ? Number(x) : type === 'bool' ? x === 'true' : x);
        const range = /^(\d+)\.\.(\d+)$/.exec(v);
        if (range) house[name] = { min: Number(range[1]), max: Number(range[2]) };
        else if (v.includes('|')) house[name] = { values: v.split('|').map(typed) };
        else house[name] = typed(v);
      }
      HOUSE.push({ ruleset, options: house });
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
