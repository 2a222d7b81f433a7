/* The play screen. One seat per device, or several seats passed around one device: then a hand-off
   screen hides every hand until the next player taps "I'm <name>", and no seat's state is even fetched
   before that. */
"use strict";

(function () {
  const AC = window.AC, el = AC.el;
  const root = document.getElementById("play");
  if (!root) return;
  const apiUrl = root.dataset.api, movesUrl = root.dataset.movesUrl, deckUrl = root.dataset.deckUrl;
  const statusLine = document.getElementById("status"), errorLine = document.getElementById("error");
  const handoff = document.getElementById("handoff"), summary = document.getElementById("summary");
  const me = document.getElementById("me"), tableView = document.getElementById("table-view");

  let index = null;          // the deck, by card and set
  let active = null;         // the seat whose hand this screen may show (pass-and-play: after "I'm ...")
  let state = null;
  let reveal = null;         // the last name-the-work answer of this screen: {title, correct, text}
  let seenHands = null;      // finished hands already summed up on this screen
  let sending = false;

  function heldSeats(s) { return s.seats.filter(function (seat) { return seat.here; }); }
  function multi(s) { return heldSeats(s).length > 1; }

  function url() { return active === null ? apiUrl : apiUrl + "?seat=" + active; }

  function showError(message) {
    errorLine.textContent = message || "";
    errorLine.hidden = !message;
  }

  const poll = AC.poller(url, function (data) { showError(""); update(data); }, function (message) { showError(message); });

  function update(data) {
    state = data;
    root.dataset.version = data.version;
    const game = data.game;
    if (multi(data)) {
      const held = heldSeats(data);
      const actor = game && game.turn ? held.find(function (s) { return s.name === game.turn; }) : null;
      if (data.you && (!actor || actor.position !== data.you.position)) {
        // The turn has left the seat on screen: hide its hand at once and look at the table publicly.
        active = null;
        reveal = null;
        AC.clear(me);
        AC.clear(tableView);
        poll.now();
        return;
      }
      if (!data.you && actor && data.status === "playing") {
        showHandoff(actor);
      } else {
        handoff.hidden = true;
        AC.clear(handoff);
      }
    } else {
      handoff.hidden = true;
    }
    draw();
  }

  function showHandoff(seat) {
    AC.clear(me);
    AC.clear(handoff);
    handoff.hidden = false;
    handoff.append(el("h2", { text: "Pass the device to " + seat.name }),
      el("p", { text: "Every hand is hidden. Only " + seat.name + " should look now." }),
      el("button", { type: "button", class: "primary big", id: "im-button", onclick: function () {
        active = seat.position;
        handoff.hidden = true;
        AC.clear(handoff);
        poll.now();
      } }, "I'm " + seat.name));
  }

  function draw() {
    const s = state;
    const game = s.game;
    const you = s.you ? s.you.name : null;
    if (s.status === "lobby") {
      statusLine.textContent = "Waiting for the teacher to start the game" + (you ? ", " + you : "") + ".";
    } else if (s.status === "finished") {
      statusLine.textContent = "The match is over.";
    } else if (s.status === "closed") {
      statusLine.textContent = "The teacher has closed this table.";
    } else if (game && game.turn) {
      statusLine.textContent = "Hand " + s.match.hand + (you && game.to_act ? ": your turn, " + you + "." :
        ": " + game.turn + " to play.");
    } else {
      statusLine.textContent = "";
    }
    drawSummary();
    drawMe();
    AC.renderTable(tableView, s, index, { you: you });
  }

  function drawSummary() {
    const s = state;
    const finished = s.hands || [];
    if (seenHands === null) seenHands = s.status === "finished" ? finished.length - 1 : finished.length;
    if (finished.length > seenHands || (s.status === "finished" && finished.length)) {
      const hand = finished[finished.length - 1];
      AC.renderSummary(summary, s, hand);
      if (s.status !== "finished") {
        summary.append(el("p", { text: "The next hand has been dealt, with the deal moved one seat to the left." }),
          el("button", { type: "button", id: "next-hand", onclick: function () {
            seenHands = finished.length;
            summary.hidden = true;
          } }, "On to hand " + (hand.number + 1)));
      }
      summary.hidden = false;
    } else {
      summary.hidden = true;
    }
  }

  /* ---- this seat's part: the hand, the prompts, the moves ---------------------------------------- */
  function drawMe() {
    AC.clear(me);
    const s = state, game = s.game;
    if (!s.you || !game || !game.seat) return;
    if (reveal) {
      me.append(el("p", { class: "reveal " + (reveal.correct ? "right" : "wrong"), id: "reveal", role: "status" },
        reveal.correct ? "Right! " : (reveal.text === null ? "Passed. " : "Not quite. "),
        "The work was \u201c", el("b", { text: reveal.title }), "\u201d."));
    }
    if (game.prompts && game.prompts.length) {
      me.append(promptForm(game));
      me.append(el("p", { class: "hint", text: "Your hand is hidden while you name the work." }));
      return;
    }
    me.append(handView(game));
    if (s.status !== "playing") return;
    if (game.asks) me.append(askForm(game));
    if (game.claimable && game.claimable.length) me.append(claimForm(game));
    if (game.pass_targets && game.pass_targets.length) me.append(passForm(game));
    if (!game.to_act && game.turn) me.append(el("p", { class: "waiting", text: "Waiting for " + game.turn + "." }));
  }

  function handView(game) {
    const box = el("div", { class: "hand", id: "hand" });
    box.append(el("h2", { text: "Your hand (" + game.hand.length + " cards)" }));
    const mine = new Set(game.hand);
    index.deck.sets.forEach(function (set) {
      const held = set.cards.filter(function (c) { return mine.has(c.id); });
      if (!held.length) return;
      const missing = set.cards.filter(function (c) { return !mine.has(c.id); });
      box.append(el("div", { class: "hand-set", "data-set": set.id },
        el("h3", { text: set.name }),
        el("ul", { class: "cards" }, held.map(function (c) { return el("li", { class: "card", "data-card": c.id, text: c.title }); })),
        missing.length ? el("p", { class: "missing" }, "You lack: ", missing.map(function (c) { return c.title; }).join(", ")) : null));
    });
    if (!game.hand.length) box.append(el("p", { text: "You have no cards." }));
    return box;
  }

  function promptForm(game) {
    const card = index.cards[game.prompts[0]];
    const input = el("input", { name: "answer", id: "answer", autocomplete: "off", required: true, maxlength: "200" });
    const form = el("form", { class: "prompt", id: "prompt" },
      el("h2", { text: "Name the work" }),
      el("p", {}, "You received a card of ", el("b", { text: AC.setName(index, card.set) }),
        ". Which work is it? Answer from memory."),
      el("label", {}, "Title ", input),
      el("button", { type: "submit", class: "primary" }, "Answer"),
      el("button", { type: "button", id: "pass-answer", onclick: function () { send({ answer: null }); } }, "Pass"));
    form.addEventListener("submit", function (e) { e.preventDefault(); send({ answer: input.value }); });
    setTimeout(function () { input.focus(); }, 0);
    return form;
  }

  function askForm(game) {
    const asks = game.asks;
    const target = el("select", { name: "target", id: "ask-target" }, asks.targets.map(function (t) {
      return el("option", { value: t }, t + " (" + game.hand_counts[t] + " cards)");
    }));
    let what;
    if (asks.by === "set") {
      what = el("select", { name: "set", id: "ask-set" }, asks.sets.map(function (id) {
        return el("option", { value: id }, AC.setName(index, id));
      }));
    } else {
      const mine = new Set(game.hand);
      what = el("select", { name: "card", id: "ask-card" }, asks.sets.map(function (id) {
        const set = index.sets[id];
        return el("optgroup", { label: set.name }, set.cards.filter(function (c) { return asks.bluff || !mine.has(c.id); })
          .map(function (c) { return el("option", { value: c.id }, c.title); }));
      }));
    }
    const form = el("form", { class: "ask", id: "ask" }, el("h2", { text: "Your turn: ask" }),
      el("label", {}, "Ask ", target), " ",
      el("label", {}, asks.by === "set" ? "for " + index.deck.set_label.toLowerCase() + " " : "for the card ", what), " ",
      el("button", { type: "submit", class: "primary", id: "ask-button" }, "Ask"));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const move = { ask: target.value };
      move[asks.by] = what.value;
      send(move);
    });
    return form;
  }

  function claimForm(game) {
    const team = game.teams[game.team];
    const mine = new Set(game.hand);
    const setSelect = el("select", { name: "set", id: "claim-set", "aria-label": "Half-suit to claim" }, el("option", { value: "" }, "choose a half-suit"),
      game.claimable.map(function (id) { return el("option", { value: id }, AC.setName(index, id)); }));
    const holders = el("div", { class: "holders", id: "claim-holders" });
    setSelect.addEventListener("change", function () {
      AC.clear(holders);
      const set = index.sets[setSelect.value];
      if (!set) return;
      set.cards.forEach(function (c) {
        holders.append(el("label", {}, c.title + " is held by ",
          el("select", { name: "holder-" + c.id, "data-card": c.id }, team.map(function (name) {
            return el("option", { value: name, selected: mine.has(c.id) ? name === game.seat : false }, name);
          }))));
      });
    });
    const form = el("form", { class: "claim", id: "claim" },
      el("h2", { text: "Claim a half-suit" }),
      el("p", { class: "hint", text: "Pick a half-suit, then who in your team holds each of its cards." }),
      setSelect, holders, el("button", { type: "submit", id: "claim-button" }, "Claim"));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (!setSelect.value) { showError("Choose a half-suit to claim."); return; }
      const named = {};
      holders.querySelectorAll("select").forEach(function (sel) {
        (named[sel.value] = named[sel.value] || []).push(sel.dataset.card);
      });
      send({ claim: setSelect.value, holders: named });
    });
    return form;
  }

  function passForm(game) {
    return el("div", { class: "pass", id: "pass" }, el("h2", { text: "Hand the turn on" }),
      game.pass_targets.map(function (name) {
        return el("button", { type: "button", "data-to": name, onclick: function () { send({ pass_to: name }); } },
          "Pass the turn to " + name);
      }));
  }

  async function send(move) {
    if (sending || !state || !state.you) return;
    sending = true;
    showError("");
    try {
      const data = await AC.api("POST", movesUrl, { seat: state.you.position, version: state.version, move: move });
      const answered = (data.result || []).find(function (e) { return e.type === "answer"; });
      reveal = answered ? { title: answered.title, correct: answered.correct, text: answered.text } :
        ("answer" in move ? reveal : null);
      poll.take(data.state, null);
      update(data.state);
    } catch (error) {
      showError(error.message);
      poll.now();
    } finally {
      sending = false;
    }
  }

  AC.api("GET", deckUrl).then(function (deck) {
    index = AC.deckIndex(deck);
    poll.start();
  }, function (error) { showError(error.message); });
})();
