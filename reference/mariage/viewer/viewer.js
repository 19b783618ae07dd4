/* The record viewer: steps through the match held in the page's JSON. No network. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("record-data").textContent);
  var steps = data.steps;
  var SUITS = { H: "\u2665", D: "\u2666", C: "\u2663", S: "\u2660" };
  var SUIT_NAMES = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
  var RANKS = { T: "10", A: "A", K: "K", Q: "Q", J: "J" };
  var RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" };
  var current = 0;
  var view = data.observer && data.seats.indexOf(data.observer) >= 0 ? data.observer
    : data.seats.length ? data.seats[0] : "";
  var showAll = true;

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } return e; }

  function cardName(code) {
    var r = code.slice(0, -1), s = code.slice(-1);
    return (RANK_NAMES[r] || r) + " of " + (SUIT_NAMES[s] || s);
  }
  function suitText(s) { return s ? (SUITS[s] || s) + " " + (SUIT_NAMES[s] || "") : "none"; }
  function card(code, hidden, trump) {
    var c = el("span", "card");
    if (hidden || code === "??") {
      c.classList.add("back");
      c.setAttribute("role", "img");
      c.setAttribute("aria-label", "a hidden card");
      return c;
    }
    var r = code.slice(0, -1), s = code.slice(-1);
    if (s === "H" || s === "D") { c.classList.add("red"); }
    if (trump && s === trump) { c.classList.add("trumpcard"); }
    c.setAttribute("role", "img");
    c.setAttribute("aria-label", cardName(code));
    c.title = cardName(code);
    c.appendChild(el("span", "r", RANKS[r] || r));
    c.appendChild(el("span", "i", SUITS[s] || s));
    c.appendChild(el("span", "s", SUITS[s] || s));
    return c;
  }
  function cardText(code) {
    if (code === "??") { return "??"; }
    var r = code.slice(0, -1), s = code.slice(-1);
    return (RANKS[r] || r) + (SUITS[s] || s);
  }

  /* Where each seat sits, seen from the seat being viewed (at the bottom). */
  function places() {
    var seats = data.seats, n = seats.length, start = Math.max(0, seats.indexOf(view));
    var ring;
    if (n === 2) { ring = ["bottom", "top"]; }
    else if (n === 3) { ring = ["bottom", "right", "left"]; }
    else { ring = ["bottom", "right", "top", "left"]; }
    if (data.direction === "clockwise" && n > 2) {
      ring = [ring[0]].concat(ring.slice(1).reverse());
    }
    var out = {};
    for (var i = 0; i < n; i++) { out[seats[(start + i) % n]] = ring[i] || "top"; }
    return out;
  }

  function describe(step) {
    if (step.kind === "start") { return step.errors.length ? "The record, before any deal" : "Before the first deal"; }
    if (step.kind === "deal") {
      return "Hand " + step.hand + ": the deal" + (step.dealer ? " (dealer " + step.dealer + ")" : "");
    }
    var who = step.seat + (data.players[step.seat] ? " (" + data.players[step.seat] + ")" : "");
    var a = step.action;
    if (step.kind === "play") { return who + " plays " + cardText(a); }
    var parts = a.split(":");
    if (step.kind === "declare") {
      if (parts[0] === "ask") { return who + " asks " + parts.slice(1).join(" "); }
      if (parts[0] === "yes" || parts[0] === "no") { return who + " answers " + a.replace(":", " "); }
      var suit = parts[1] ? " in " + suitText(parts[1]) : "";
      return who + " declares " + parts[0] + suit + (parts[2] ? " (" + parts.slice(2).join(", ") + ")" : "");
    }
    if (parts[0] === "exchange") { return who + " exchanges " + cardText(parts[1]) + " for the turned-up card"; }
    if (parts[0] === "callout") { return who + " calls out"; }
    if (parts[0] === "resign") { return who + " resigns"; }
    return who + ": " + a;
  }

  function seatLabel(seat, step) {
    var name = el("div", "seat-name", seat);
    if (data.players[seat]) { name.appendChild(document.createTextNode(" " + data.players[seat])); }
    if (step.dealer === seat) { name.appendChild(el("span", "badge", "dealer")); }
    if (step.held && step.held[seat]) { name.appendChild(el("span", "badge", "holds " + step.held[seat])); }
    return name;
  }

  function drawTable(step) {
    var table = clear($("table"));
    var where = places();
    data.seats.forEach(function (seat) {
      var slot = el("section", "slot slot-" + where[seat]);
      slot.setAttribute("aria-label", "seat " + seat);
      if (step.to_act === seat) { slot.classList.add("to-act"); }
      slot.appendChild(seatLabel(seat, step));
      var hand = el("div", "hand");
      var cards = (step.hands && step.hands[seat]) || [];
      var hide = !showAll && seat !== view;
      cards.forEach(function (c) { hand.appendChild(card(c, hide, step.trump)); });
      if (!cards.length) { hand.appendChild(el("span", "muted", step.kind === "start" ? "" : "no cards")); }
      slot.appendChild(hand);
      table.appendChild(slot);
    });
    var center = el("div", "center");
    center.setAttribute("aria-label", "the table");
    step.table.forEach(function (pair) {
      var p = el("div", "played p-" + where[pair[0]]);
      if (step.winner === pair[0]) { p.classList.add("winner"); }
      p.appendChild(card(pair[1], false, step.trump));
      p.appendChild(el("span", "", pair[0] + (step.winner === pair[0] ? " wins" : "")));
      center.appendChild(p);
    });
    var mid = el("div", "mid");
    if (step.kind !== "start") {
      mid.appendChild(el("div", "", "Trump: " + suitText(step.trump)));
      if (step.turn_up) {
        var t = el("div", "");
        t.appendChild(card(step.turn_up, false, step.trump));
        mid.appendChild(t);
      }
      mid.appendChild(el("div", "", "Stock: " + step.stock));
      if (step.trick) { mid.appendChild(el("div", "", "Trick " + step.trick)); }
    }
    center.appendChild(mid);
    table.appendChild(center);
  }

  function box(title, cls) {
    var b = el("section", "info-box" + (cls ? " " + cls : ""));
    if (title) { b.appendChild(el("h2", "", title)); }
    return b;
  }

  function problemBox(title, errors) {
    var eb = box(title, "errors");
    eb.setAttribute("role", "alert");
    var ul = el("ul", "plain");
    errors.forEach(function (e) {
      var li = el("li", "");
      li.appendChild(el("span", "code", e.code + " "));
      var where = e.line ? "line " + e.line + ": " : "";
      var tok = e.token ? " (at '" + e.token + "')" : "";
      li.appendChild(document.createTextNode(where + e.message + tok + (e.rule_id ? " [" + e.rule_id + "]" : "")));
      ul.appendChild(li);
    });
    eb.appendChild(ul);
    return eb;
  }

  function drawInfo(step) {
    var info = clear($("info"));
    var head = box("", "");
    head.appendChild(el("div", "", step.hand ? "Hand " + step.hand + (step.trick ? ", trick " + step.trick : "") : ""));
    head.appendChild(el("div", "", describe(step))).id = "what";
    info.appendChild(head);
    if (step.errors.length) { info.appendChild(problemBox("Problems found here", step.errors)); }
    if (step === steps[steps.length - 1] && data.after_stop) {
      info.appendChild(problemBox("Found after the replay stopped (no step reaches them)", data.after_stop));
    }
    if (step.hand_end) {
      var he = step.hand_end;
      var hb = box("Hand " + step.hand + " is over (" + he.ended.replace(/_/g, " ") + ")", "hand-end");
      if (he.segno !== null) {
        hb.appendChild(el("div", "", he.segno === "-" ? "Nobody takes the hand." : "Team " + he.segno + " takes the hand."));
      }
      info.appendChild(hb);
    }
    if (step.kind !== "start" && data.teams.length) {
      var sb = box("Score", "");
      var t = el("table", "scores");
      var tr = el("tr", "");
      ["team", "this hand", data.measure === "hands_won" ? "hands won" : "match"].forEach(function (h) { tr.appendChild(el("th", "", h)); });
      if (step.hand_end && step.hand_end.segno === null) { tr.appendChild(el("th", "", "scored")); }
      t.appendChild(tr);
      data.teams.forEach(function (team, i) {
        var row = el("tr", "");
        row.appendChild(el("td", "", team + " (" + data.team_seats[i].join(" ") + ")"));
        row.appendChild(el("td", "num", step.points[i]));
        row.appendChild(el("td", "num", step.match[i]));
        if (step.hand_end && step.hand_end.segno === null) { row.appendChild(el("td", "num", "+" + step.hand_end.scored[i])); }
        t.appendChild(row);
      });
      sb.appendChild(t);
      info.appendChild(sb);
    }
    if (step.declarations.length) {
      var db = box("Declarations this hand", "");
      var ol = el("ol", "");
      step.declarations.forEach(function (d) {
        ol.appendChild(el("li", "", d.seat + ": " + d.name + " in " + suitText(d.suit) + " (" + d.value + ")"));
      });
      db.appendChild(ol);
      info.appendChild(db);
    }
    if (step.notes.length || step.comments.length) {
      var nb = box("In the record", "");
      var ul2 = el("ul", "plain");
      step.notes.forEach(function (n) { ul2.appendChild(el("li", "note", n)); });
      step.comments.forEach(function (c) { ul2.appendChild(el("li", "comment", c)); });
      nb.appendChild(ul2);
      info.appendChild(nb);
    }
  }

  /* The moves, one line per trick (with the declarations and the like made in it). */
  function buildMoves() {
    var moves = clear($("moves"));
    var list = null, row = null, hand = -1, trick = -1;
    steps.forEach(function (step, i) {
      if (step.hand !== hand) {
        hand = step.hand;
        trick = -1;
        moves.appendChild(el("h3", "", hand ? "Hand " + hand : "Start"));
        list = el("ol", "");
        list.start = 0;
        moves.appendChild(list);
      }
      if (step.trick !== trick || row === null) {
        trick = step.trick;
        row = el("li", "");
        row.value = trick;
        list.appendChild(row);
      }
      var b = el("button", "", step.kind === "deal" ? "deal" : step.kind === "start" ? "start" :
        step.seat + ":" + step.action + (step.winner ? " \u2192 " + step.winner : ""));
      b.type = "button";
      b.dataset.step = String(i);
      if (step.errors.length) { b.classList.add("has-error"); b.title = step.errors[0].message; }
      b.addEventListener("click", function () { go(i); });
      row.appendChild(b);
      if (step.winner) { row = null; }
    });
  }

  function go(i) {
    current = Math.max(0, Math.min(steps.length - 1, i));
    var step = steps[current];
    drawTable(step);
    drawInfo(step);
    $("slider").value = String(current);
    $("counter").textContent = "step " + (current + 1) + " of " + steps.length;
    var buttons = $("moves").querySelectorAll("button");
    for (var k = 0; k < buttons.length; k++) {
      var on = Number(buttons[k].dataset.step) === current;
      buttons[k].classList.toggle("current", on);
      if (on) { buttons[k].setAttribute("aria-current", "step"); } else { buttons[k].removeAttribute("aria-current"); }
    }
    /* keep the current move in view inside the list, without scrolling the page */
    var box = $("moves"), cur = box.querySelector("button.current");
    if (cur) {
      var top = cur.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - cur.offsetHeight) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    }
    document.body.dataset.step = String(current);
    if (history.replaceState) { history.replaceState(null, "", "#step=" + (current + 1)); }
  }
  function nextHand(dir) {
    var i = current;
    if (dir > 0) {
      i++;
      while (i < steps.length && steps[i].kind !== "deal") { i++; }
      go(i < steps.length ? i : steps.length - 1);
      return;
    }
    while (i > 0 && steps[i].kind !== "deal") { i--; }
    if (i === current) {
      i--;
      while (i > 0 && steps[i].kind !== "deal") { i--; }
    }
    go(i);
  }

  /* The next (dir 1) or previous (dir -1) end of a trick, or deal. */
  function nextTrick(dir) {
    var i = current + dir;
    while (i > 0 && i < steps.length - 1 && !steps[i].winner && steps[i].kind !== "deal") { i += dir; }
    go(i);
  }

  /* The step named by the address: #step=N (1-based) or #hand=N (the deal of hand N). */
  function fromHash() {
    var m = /step=(\d+)/.exec(location.hash);
    if (m) { return Number(m[1]) - 1; }
    m = /hand=(\d+)/.exec(location.hash);
    if (!m) { return null; }
    for (var i = 0; i < steps.length; i++) {
      if (steps[i].kind === "deal" && steps[i].hand === Number(m[1])) { return i; }
    }
    return null;
  }

  function setup() {
    $("first").addEventListener("click", function () { go(0); });
    $("prev").addEventListener("click", function () { go(current - 1); });
    $("next").addEventListener("click", function () { go(current + 1); });
    $("last").addEventListener("click", function () { go(steps.length - 1); });
    $("prevhand").addEventListener("click", function () { nextHand(-1); });
    $("nexthand").addEventListener("click", function () { nextHand(1); });
    var slider = $("slider");
    slider.max = String(steps.length - 1);
    slider.addEventListener("input", function () { go(Number(slider.value)); });
    var sel = $("view");
    data.seats.forEach(function (s) {
      var o = el("option", "", s + (data.players[s] ? " (" + data.players[s] + ")" : ""));
      o.value = s;
      sel.appendChild(o);
    });
    sel.value = view;
    sel.addEventListener("change", function () { view = sel.value; go(current); });
    var all = $("showall");
    all.addEventListener("change", function () { showAll = all.checked; go(current); });
    document.addEventListener("keydown", function (e) {
      var tag = e.target && e.target.tagName;
      if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) { return; }
      var k = e.key;
      if (k === "ArrowRight" || k === "l" || k === " ") { go(current + 1); }
      else if (k === "ArrowLeft" || k === "h") { go(current - 1); }
      else if (k === "ArrowDown" || k === "j") { nextTrick(1); }
      else if (k === "ArrowUp" || k === "k") { nextTrick(-1); }
      else if (k === "Home") { go(0); }
      else if (k === "End") { go(steps.length - 1); }
      else if (k === "PageDown" || k === "n") { nextHand(1); }
      else if (k === "PageUp" || k === "p") { nextHand(-1); }
      else if (k === "e") {
        for (var j = current + 1; j < steps.length; j++) { if (steps[j].errors.length) { go(j); return; } }
        return;
      }
      else { return; }
      e.preventDefault();
    });
    buildMoves();
    var firstError = -1;
    for (var j = 0; j < steps.length; j++) { if (steps[j].errors.length) { firstError = j; break; } }
    var at = fromHash();
    go(at !== null ? at : firstError >= 0 ? firstError : 0);
    /* the links of the chart and of the hands' table: #hand=N goes to that hand's deal */
    window.addEventListener("hashchange", function () {
      var i = fromHash();
      if (i !== null && i !== current) { go(i); }
    });
    document.body.dataset.ready = "1";
  }
  setup();
})();
