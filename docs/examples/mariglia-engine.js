#!/usr/bin/env node
// A minimal engine for the mariage engine protocol (docs/protocol.rst), in plain
// Node.js with no dependencies: the Mariglia ruleset, all three of its options.
// It passes every Mariglia test and every protocol test of the conformance suite,
// and plays whole matches (it answers `choose`):
//
//   mariage conformance --engine "node docs/examples/mariglia-engine.js"
//   mariage match mariglia --engine "N=node docs/examples/mariglia-engine.js"
//
// Use it as a skeleton: the protocol loop, the errors and the state view are
// the same for every ruleset; the rules are in deal(), legal() and play().
"use strict";

const SUITS = ["H", "D", "C", "S"];
const RANKS = ["7", "A", "K", "J", "Q", "6", "5", "4", "3", "2"]; // high to low
const POINTS = { "7": 5, A: 4, K: 3, J: 2, Q: 1 };
const PACK = SUITS.flatMap((s) => RANKS.map((r) => r + s));
const NSEATS = 4;
const OPTIONS = {
  target: { type: "int", default: 35, min: 1, max: 1000000 },
  turn_up_bonus: { type: "bool", default: true },
  duty_reading: { type: "enum", default: "opponent_winning", values: ["opponent_winning", "always"] },
};
// Action words every ruleset knows (refused with core.phase where they do not apply).
const GENERIC = /^(pass|yes|yes:[HDCS]|no|callout|exchange:.+)$/;

const suit = (c) => c[c.length - 1];
const strength = (c) => RANKS.length - RANKS.indexOf(c.slice(0, -1));
const points = (c) => POINTS[c.slice(0, -1)] || 0;
const team = (seat) => seat % 2; // NS = 0, WE = 1

class Refusal extends Error {
  constructor(code, message, rule) {
    super(message);
    this.code = code;
    this.rule = rule;
  }
}
const illegal = (rule, why) => new Refusal("illegal_action", why, rule);
const badRequest = (why) => new Refusal("bad_request", why);

class Match {
  constructor(options, dealer) {
    this.opt = Object.fromEntries(Object.entries(OPTIONS).map(([k, v]) => [k, v.default]));
    Object.assign(this.opt, options);
    this.dealer = dealer;
    this.phase = "deal";
    this.handNo = 0;
    this.scores = [0, 0];
    this.last = null;
    this.result = null;
    this.clearHand();
  }

  clearHand() {
    this.hands = [[], [], [], []];
    this.table = []; // [[seat, card], ...]
    this.trickNo = 0;
    this.leader = null;
    this.toAct = null;
    this.trump = null;
    this.turnUp = null;
    this.captured = [0, 0];
    this.tricksWon = [0, 0];
  }

  deal(deck, firstPlayer) {
    if (this.phase === "over") throw illegal("core.over", "the match is over");
    if (this.phase !== "deal") throw illegal("core.phase", "a hand is in progress");
    if (!Array.isArray(deck) || deck.some((c) => typeof c !== "string")) {
      throw badRequest("'deck' must be a list of card codes");
    }
    if (firstPlayer !== null && firstPlayer !== undefined) {
      throw illegal("core.deal", "the first player follows from the dealer here");
    }
    if (deck.length !== PACK.length || new Set(deck).size !== PACK.length ||
        deck.some((c) => !PACK.includes(c))) {
      throw illegal("core.deal", "a deal must order the 40 cards of the pack");
    }
    this.clearHand();
    this.handNo += 1;
    let at = 0;
    for (let round = 0; round < 2; round++) { // two packets of five, dealer last
      for (let i = 1; i <= NSEATS; i++) {
        const seat = (this.dealer + i) % NSEATS;
        this.hands[seat].push(...deck.slice(at, at + 5));
        at += 5;
      }
    }
    this.turnUp = this.hands[this.dealer][9]; // the dealer's last card shows trump
    this.trump = suit(this.turnUp);
    this.phase = "play";
    this.trickNo = 1;
    this.leader = this.toAct = (this.dealer + 1) % NSEATS;
    const bonus = points(this.turnUp);
    if (this.opt.turn_up_bonus && bonus) {
      this.scores[team(this.dealer)] += bonus;
      this.checkEnd("turn_up_bonus", false);
    }
  }

  winnerIndex(cards) {
    let best = 0;
    for (let i = 1; i < cards.length; i++) {
      const a = cards[best], b = cards[i];
      if (suit(b) === suit(a) ? strength(b) > strength(a) : suit(b) === this.trump) best = i;
    }
    return best;
  }

  // The cards the seat to act may play, and the rule each other card breaks.
  legal() {
    const hand = this.hands[this.toAct];
    if (this.table.length === 0) return { cards: hand, rule: null };
    const led = suit(this.table[0][1]);
    const cards = this.table.map((t) => t[1]);
    const w = this.winnerIndex(cards);
    const winning = cards[w];
    const dutyApplies = this.opt.duty_reading === "always" ||
      team(this.table[w][0]) !== team(this.toAct);
    const beats = (c) => this.winnerIndex([winning, c]) === 1;
    const follow = hand.filter((c) => suit(c) === led);
    if (follow.length) {
      if (follow.length < hand.length && !dutyApplies) {
        return { cards: follow, rule: "mariglia.play.follow" };
      }
      const higher = dutyApplies ? follow.filter(beats) : [];
      return higher.length ? { cards: higher, rule: "mariglia.play.head", follow }
        : { cards: follow, rule: "mariglia.play.follow" };
    }
    const trumps = dutyApplies ? hand.filter((c) => suit(c) === this.trump && beats(c)) : [];
    return trumps.length ? { cards: trumps, rule: "mariglia.play.overtrump" }
      : { cards: hand, rule: null };
  }

  apply(text, seat) {
    const isCard = PACK.includes(text);
    if (!isCard && !GENERIC.test(text)) {
      throw new Refusal("bad_action", `not an action of mariglia: '${text}'`);
    }
    if (this.phase === "over") throw illegal("core.over", "the match is over");
    if (this.phase === "deal") throw illegal("core.phase", "the next hand has not been dealt");
    if (text === "callout") throw illegal("core.phase", "this ruleset has no calling out");
    const who = seat === undefined || seat === null ? this.toAct : seat;
    if (who !== this.toAct) throw illegal("core.turn", `it is seat ${this.toAct}'s turn`);
    if (!isCard) throw illegal("core.phase", `'${text}' has no place in mariglia`);
    if (!this.hands[who].includes(text)) throw illegal("core.hand", "not in the hand");
    const { cards, rule, follow } = this.legal();
    if (!cards.includes(text)) {
      const r = follow && !follow.includes(text) ? "mariglia.play.follow" : rule;
      throw illegal(r, "that card breaks a duty of play");
    }
    this.play(who, text);
  }

  play(seat, card) {
    this.hands[seat] = this.hands[seat].filter((c) => c !== card);
    this.table.push([seat, card]);
    if (this.table.length < NSEATS) {
      this.toAct = (seat + 1) % NSEATS;
      return;
    }
    const winner = this.table[this.winnerIndex(this.table.map((t) => t[1]))][0];
    this.captured[team(winner)] += this.table.reduce((n, t) => n + points(t[1]), 0);
    this.tricksWon[team(winner)] += 1;
    this.table = [];
    this.leader = this.toAct = winner;
    if (this.hands.every((h) => h.length === 0)) this.endHand();
    else this.trickNo += 1;
  }

  endHand() {
    const added = [0, 1].map((t) => Math.max(0, this.captured[t] + this.tricksWon[t] - 35));
    this.scores = this.scores.map((s, t) => s + added[t]);
    this.last = { number: this.handNo, points: [...this.captured], score: added,
      ended: "played_out", winner: null };
    this.phase = "deal";
    this.clearHand();
    this.checkEnd("target", true);
    if (this.phase === "deal") this.dealer = (this.dealer + 1) % NSEATS;
  }

  checkEnd(reason, afterHand) {
    const reached = [0, 1].filter((t) => this.scores[t] >= this.opt.target);
    if (!reached.length) return;
    const top = Math.max(...reached.map((t) => this.scores[t]));
    const best = reached.filter((t) => this.scores[t] === top);
    if (best.length > 1) {
      return; // never happens in Mariglia (one team scores a hand); the rules play on
    }
    this.over({ winner: best[0], reason, scores: [...this.scores] });
    if (!afterHand) {
      this.last = { number: this.handNo, points: [0, 0], score: [0, 0], ended: reason, winner: null };
    }
  }

  over(result) {
    this.result = result;
    this.phase = "over";
    this.clearHand();
  }

  view() {
    const inHand = this.phase === "play";
    return {
      phase: this.phase, hand: this.handNo, trick: inHand ? this.trickNo : 0,
      dealer: this.dealer, leader: inHand ? this.leader : null, to_act: inHand ? this.toAct : null,
      trump: inHand ? this.trump : null, turn_up: inHand ? this.turnUp : null,
      table: this.table, stock: 0, hands: this.hands, declared: [],
      tricks_won: this.tricksWon, hand_points: this.captured, match_scores: this.scores,
      segni: [0, 0], last_hand: this.last, terminal: this.phase === "over", result: this.result,
    };
  }
}

function checkOptions(options) {
  for (const [name, value] of Object.entries(options)) {
    const spec = OPTIONS[name];
    if (!spec) throw new Refusal("unsupported", `mariglia has no option '${name}'`);
    const ok = spec.type === "int" ? Number.isInteger(value)
      : spec.type === "bool" ? typeof value === "boolean" : typeof value === "string";
    if (!ok) throw badRequest(`option '${name}' has the wrong type`);
    if ((spec.values && !spec.values.includes(value)) ||
        (spec.type === "int" && (value < spec.min || value > spec.max))) {
      throw new Refusal("unsupported", `value ${JSON.stringify(value)} of '${name}' is not offered`);
    }
  }
}

const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < NSEATS;
let match = null;

function handle(msg) {
  switch (msg.type) {
    case "hello":
      return { type: "hello", engine: "mariglia-skeleton.js", version: "1", protocol: 1,
        requests: ["choose"], rulesets: { mariglia: { options: OPTIONS } } };
    case "quit":
      return { type: "bye" };
    case "start": {
      if (typeof msg.ruleset !== "string") throw badRequest("'ruleset' must be a string");
      if (msg.ruleset !== "mariglia") throw new Refusal("unsupported", "only mariglia is supported");
      const options = msg.options === undefined || msg.options === null ? {} : msg.options;
      if (typeof options !== "object" || Array.isArray(options)) throw badRequest("'options' must be an object");
      checkOptions(options);
      if (!isSeat(msg.dealer)) throw badRequest("'dealer' must be a seat 0..3");
      const next = new Match(options, msg.dealer);
      next.deal(msg.deck, msg.first_player); // a refused start keeps the previous match
      match = next;
      return { type: "ok" };
    }
  }
  if (["deal", "legal", "apply", "resign", "state", "choose"].includes(msg.type) && !match) {
    throw new Refusal("no_match", "start a match first");
  }
  switch (msg.type) {
    case "deal":
      match.deal(msg.deck, msg.first_player);
      return { type: "ok" };
    case "legal": {
      if (msg.seat !== undefined && msg.seat !== null && !isSeat(msg.seat)) throw badRequest("no such seat");
      const seat = msg.seat === undefined || msg.seat === null ? (match.phase === "play" ? match.toAct : null) : msg.seat;
      const actions = match.phase === "play" && seat === match.toAct ? match.legal().cards : [];
      return { type: "legal", seat, actions };
    }
    case "apply":
      if (typeof msg.action !== "string") throw badRequest("'apply' needs a string 'action'");
      if (msg.seat !== undefined && msg.seat !== null && !isSeat(msg.seat)) throw badRequest("no such seat");
      match.apply(msg.action, msg.seat);
      return { type: "ok" };
    case "resign":
      if (!isSeat(msg.seat)) throw badRequest("'resign' needs a seat 0..3");
      if (match.phase === "over") throw illegal("core.over", "the match is over");
      match.over({ winner: 1 - team(msg.seat), reason: "resign", scores: [...match.scores] });
      return { type: "ok" };
    case "state":
      return { type: "state", ...match.view() };
    case "choose": { // a move for the seat to act: here simply the first legal card
      if (match.phase !== "play") throw illegal("core.phase", "no seat is to act");
      // `msg.legal`, when the referee sends it, lists the same actions: an engine
      // without rules of its own could play from it.
      return { type: "choose", seat: match.toAct, action: match.legal().cards[0] };
    }
    default:
      return { type: "error", code: "unknown_type", message: `unknown request type '${msg.type}'` };
  }
}

// Strict JSON (RFC 8259): JSON.parse reads 1e999 as Infinity, which is not JSON.
const finite = (key, value) => {
  if (typeof value === "number" && !Number.isFinite(value)) throw new SyntaxError("not finite");
  return value;
};

function answer(line) {
  let msg;
  try {
    msg = JSON.parse(line, finite);
  } catch (e) {
    return { type: "error", code: "bad_json", message: "not JSON" };
  }
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
    return { type: "error", code: "bad_json", message: "a message must be a JSON object" };
  }
  if (typeof msg.type !== "string") {
    return { type: "error", code: "bad_request", message: "a message needs a string 'type'" };
  }
  let reply;
  try {
    reply = handle(msg);
  } catch (e) {
    reply = e instanceof Refusal ? { type: "error", code: e.code, message: e.message }
      : { type: "error", code: "internal_error", message: String(e) }; // never die
    if (e.rule) reply.rule = e.rule;
  }
  if ("id" in msg) reply.id = msg.id;
  return reply;
}

// Lines of bytes: each is checked as UTF-8, and one longer than 1 MiB is answered
// once with bad_json and skipped to its line feed, never held whole.
const MAX_LINE = 1 << 20;
const utf8 = new TextDecoder("utf-8", { fatal: true });
let pending = [];
let size = 0;
let tooLong = false;

function onLine(bytes) {
  let reply;
  if (tooLong) {
    reply = { type: "error", code: "bad_json", message: "the line is longer than 1 MiB" };
  } else {
    let text;
    try {
      text = utf8.decode(bytes);
    } catch (e) {
      text = null;
    }
    if (text === null) {
      reply = { type: "error", code: "bad_json", message: "the line is not UTF-8" };
    } else {
      const line = text.replace(/^[ \t\r]+|[ \t\r]+$/g, "");
      if (!line) return; // blank lines are never answered
      reply = answer(line);
    }
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
  if (reply.type === "bye") process.exit(0);
}

process.stdin.on("data", (chunk) => {
  let at = 0;
  for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, at)) {
    const part = chunk.subarray(at, nl);
    tooLong = tooLong || size + part.length > MAX_LINE;
    onLine(tooLong ? null : Buffer.concat([...pending, part]));
    pending = [];
    size = 0;
    tooLong = false;
    at = nl + 1;
  }
  const rest = chunk.subarray(at);
  size += rest.length;
  if (size > MAX_LINE) {
    tooLong = true;
    pending = [];
  } else if (rest.length) {
    pending.push(Buffer.from(rest));
  }
});
