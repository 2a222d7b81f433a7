/* The play screen. One seat per device, or several seats passed around one device: then a hand-off
   screen hides every hand until the next player taps "I'm <name>", and no seat's state is even fetched
   before that. */
import { announcer as makeAnnouncer, labelCells } from "./a11y.js";
import { api, clear, el, fillNodes, gettext, lang, list, ngettext, serverNow, watch } from "./common.js";
import { cardFace, groupBySet, pile, rankAndSuit } from "./cards.js";
import { cardTitle, deckIndex, recall, setName, withCards } from "./deck.js";
import { drawFeed, feedLines } from "./feed.js";
import { renderSummary, renderTable } from "./table.js";

function start(root) {
  const apiUrl = root.dataset.api, movesUrl = root.dataset.movesUrl, deckUrl = root.dataset.deckUrl;
  const hintUrl = root.dataset.hintUrl;
  const statusLine = document.getElementById("status"), errorLine = document.getElementById("error");
  const handoff = document.getElementById("handoff"), summary = document.getElementById("summary");
  const me = document.getElementById("me"), tableView = document.getElementById("table-view");
  const feed = document.getElementById("feed"), noteLine = document.getElementById("tap-note");

  let deck = null;           // the deck, by card and set (a recall table's: its sets only)
  let index = null;          // the deck with the cards of the state on screen
  let active = null;         // the seat whose hand this screen may show (pass-and-play: after "I'm ...")
  let state = null;
  let reveal = null;         // the verdict on this screen's last naming: {verdict, title, note, text, kind, at}
  let misses = 0;            // typed asks that named no work of the author, in a row (a hint after two)
  let hint = null;           // the hint shown for the current naming: {level, text, for}
  const KEEP_MS = 3000;      // a verdict stays at least this long (or until dismissed)
  let seenDeals = null;      // finished deals already summed up on this screen
  let sending = false;
  const announcer = makeAnnouncer(root);  // the live region: each move said for the seat on screen

  function heldSeats(s) { return s.seats.filter(function (seat) { return seat.here; }); }
  function multi(s) { return heldSeats(s).length > 1; }

  function url() { return active === null ? apiUrl : apiUrl + "?seat=" + active; }

  /* What the screen says went wrong. A refusal (a move or a hint the table would not take) stays until the
     student's next action or REFUSAL_MS, whichever is later: a state coming in does not wipe it. A lost
     connection is said until the next state comes. */
  const REFUSAL_MS = 5000;
  let connection = "";       // the poll's or stream's trouble, if any
  let refusal = null;        // {text, at}: the last refusal on screen, since when
  let note = null;           // {text, at}: a short note (a tap the table had moved past; a move made for you)
  let refusalTimer = null, noteTimer = null;

  function paintError() {
    const message = refusal ? refusal.text : connection;
    if (errorLine.textContent !== message) errorLine.textContent = message || "";
    errorLine.hidden = !message;
  }
  function showError(message) { connection = message || ""; paintError(); }
  function refuse(message) {
    clearTimeout(refusalTimer);
    refusal = message ? { text: message, at: Date.now() } : null;
    paintError();
  }
  /* A note that goes by itself: a tap the table had already moved past is no error of the student's. */
  function showNote(message) {
    clearTimeout(noteTimer);
    note = { text: message, at: Date.now() };
    noteLine.textContent = message;
    noteLine.hidden = false;
  }
  /* The student did something (a tap on a control of the move, a move sent): what was refused or noted
     before goes, at once when it has been on screen REFUSAL_MS, else when it has. */
  function acted() {
    if (refusal) {
      const shown = refusal;
      const left = REFUSAL_MS - (Date.now() - shown.at);
      clearTimeout(refusalTimer);
      if (left <= 0) refuse(null);
      else refusalTimer = setTimeout(function () { if (refusal === shown) refuse(null); }, left);
    }
    if (note) {
      const shown = note;
      const left = REFUSAL_MS - (Date.now() - shown.at);
      const gone = function () { if (note === shown) { note = null; noteLine.hidden = true; } };
      clearTimeout(noteTimer);
      if (left <= 0) gone(); else noteTimer = setTimeout(gone, left);
    }
  }

  const poll = watch(url, function (data) { showError(""); update(data); }, function (message) { showError(message); });
  window.addEventListener("resize", function () { if (window.innerWidth !== fittedWidth) fitPanel(); });

  /* A turn's time limit (the table's turn_seconds): the seconds left beside the status, said aloud at most
     once a minute and at 10 s left. */
  const timerLine = document.getElementById("turn-timer");
  let spoken = null;
  setInterval(function () {
    const deadline = state && state.game && state.game.to_act && state.turn_deadline;
    if (!deadline || state.status !== "playing" || state.paused) { timerLine.hidden = true; spoken = null; return; }
    const left = Math.max(0, Math.ceil(deadline - serverNow()));
    timerLine.hidden = false;
    timerLine.textContent = ngettext("%(num)d second left to make your move", "%(num)d seconds left to make your move", left);
    timerLine.classList.toggle("hurry", left <= 10);
    const mark = left <= 10 ? "10" : String(Math.ceil(left / 60));
    if (spoken !== null && mark !== spoken && (left <= 10 || left % 60 === 0)) announcer.tell(timerLine.textContent);
    spoken = mark;
  }, 1000);

  function seatOf(s) { return s && s.you ? s.you.position : null; }

  /* The teacher gave this device's seat to a computer player, or took its student off (issue #33): the
     state says so once (the cookie forgets the seat), so the sentence stays on this tab until a seat is
     held again. */
  const lostKey = "seat-lost:" + root.dataset.code;
  function tellSeatLost(data) {
    const holds = !!data.you || heldSeats(data).length > 0;
    let said = null;
    try {
      if (holds) window.sessionStorage.removeItem(lostKey);
      else if (data.seat_lost) window.sessionStorage.setItem(lostKey, data.seat_lost);
      said = holds ? null : window.sessionStorage.getItem(lostKey);
    } catch (e) {
      said = holds ? null : data.seat_lost || null;  // (no storage: told while the answer says it)
    }
    let line = document.getElementById("seat-lost");
    if (!said) { if (line) line.remove(); return; }
    if (!line) {
      line = el("p", { id: "seat-lost", class: "warning seat-lost", role: "alert" });
      statusLine.before(line);
    }
    if (line.textContent !== said) line.textContent = said;
  }

  function update(data) {
    tellSeatLost(data);
    // The same table from the same seat again (the poll right after a move): no redraw, which would take a
    // half-typed answer or a half-pressed key away.
    if (state && data.version === state.version && seatOf(data) === seatOf(state)) return;
    // An older table than the one on screen (a poll sent before a move, answered after the move's own answer):
    // kept off, or the screen would stay on it while the poll's newer ETag gets 304s.
    if (state && data.version < state.version && seatOf(data) === seatOf(state)) return;
    if (state && state.game && state.game.to_act && state.turn_deadline && !sending && seatOf(data) === seatOf(state)
        && data.version > state.version && serverNow() >= state.turn_deadline - 1) {
      showNote(gettext("Time was up: a computer made your move."));
    }
    if (state && seatOf(data) !== seatOf(state)) {  // another seat on this device: its own ask, from nothing
      Object.assign(askDraft, { pick: null, target: null, text: "", refusal: null, scroll: 0 });
      Object.assign(claimDraft, { set: null, holders: {} });
    }
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
        clear(me);
        clear(tableView);
        poll.now();
        return;
      }
      if (!data.you && actor && data.status === "playing") {
        showHandoff(actor);
      } else {
        handoff.hidden = true;
        clear(handoff);
      }
    } else {
      handoff.hidden = true;
    }
    draw();
  }

  function showHandoff(seat) {
    clear(me);
    clear(handoff);
    handoff.hidden = false;
    handoff.append(el("h2", { text: gettext("Pass the device to %(name)s", { name: seat.name }) }),
      el("p", { text: gettext("Every hand is hidden. Only %(name)s should look now.", { name: seat.name }) }),
      el("button", { type: "button", class: "primary big", id: "im-button", onclick: function () {
        active = seat.position;
        handoff.hidden = true;
        clear(handoff);
        poll.now();
      } }, gettext("I'm %(name)s", { name: seat.name })));
  }

  function draw() {
    const s = state;
    const game = s.game;
    const you = s.you ? s.you.name : null;
    if (s.status === "lobby") {
      statusLine.textContent = you ? gettext("Waiting for the teacher to start the game, %(name)s.", { name: you }) :
        gettext("Waiting for the teacher to start the game.");
    } else if (s.status === "finished") {
      statusLine.textContent = gettext("The match is over.");
    } else if (s.status === "closed") {
      statusLine.textContent = gettext("The teacher has closed this table.");
    } else if (s.paused) {
      statusLine.textContent = gettext("Paused by the teacher: wait, play goes on soon.");
    } else if (game && game.turn && s.match.tie_break_hand) {
      statusLine.textContent = gettext("Tie-break hand (it settles the tie): %(name)s to play.", { name: game.turn });
    } else if (game && game.turn) {
      statusLine.textContent = you && game.to_act ?
        gettext("Hand %(number)d: your turn, %(name)s.", { number: s.match.hand, name: you }) :
        gettext("Hand %(number)d: %(name)s to play.", { number: s.match.hand, name: game.turn });
    } else {
      statusLine.textContent = "";
    }
    const focus = focusNow();
    index = withCards(deck, s);
    drawFeed(feed, feedLines(s, deck, you, 3));
    drawSummary();
    drawMe();
    renderTable(tableView, s, index, { you: you });
    labelCells(tableView);
    labelCells(summary);
    refocus(focus);
    announcer.update(s, deck, you);
    const box = document.getElementById("reveal");
    if (box && reveal && !reveal.scrolled) {  // the verdict where the student looks, whatever the redraw
      reveal.scrolled = true;
      if (box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
    }
    fitPanel();
    // The turn comes to this seat while the student reads further down: the controls come into view
    // (once, as the turn comes; the page never moves under a student who is acting).
    const acting = !!(game && game.seat && s.status === "playing" && (game.asks || (game.prompts && game.prompts.length) ||
      (game.challenge && game.to_act)));
    const act = document.getElementById("ask") || document.getElementById("prompt") || document.getElementById("challenge") ||
      document.getElementById("defence");
    if (acting && !wasActing && act && act.scrollIntoView) {
      const rect = act.getBoundingClientRect();
      if (rect.top < feed.getBoundingClientRect().bottom || rect.top > window.innerHeight - 120) {
        act.scrollIntoView({ block: "start" });
      }
    }
    wasActing = acting;
  }
  let wasActing = false;

  /* The controls of a move in the first screen, whatever the hand: the list to choose from (sets, or
     cards) gets the height left on the screen by everything above and below it, and scrolls inside. In
     Literature the claim's half-suits, under the ask, are in that first screen too. */
  let fittedWidth = null;
  function fitPanel() {
    fittedWidth = window.innerWidth;
    const panel = document.getElementById("ask");
    const box = panel ? panel.querySelector(".picks") : null;
    if (!box) return;
    box.style.removeProperty("max-height");
    box.classList.remove("scrolls");
    const claimSets = document.querySelector("#claim .step-set");
    const bottom = Math.max(panel.getBoundingClientRect().bottom, claimSets ? claimSets.getBoundingClientRect().bottom : 0) + window.scrollY;
    const room = window.innerHeight - 8;
    if (bottom <= room) return;
    const height = box.getBoundingClientRect().height;
    box.style.setProperty("max-height", Math.max(7 * 16, Math.floor(height - (bottom - room))) + "px");
    box.classList.add("scrolls");
    box.scrollTop = askDraft.scroll;  // where the student had scrolled it (a redraw builds it again)
  }

  /* ---- the keyboard: a redraw keeps the focus on the same control (by id, with the choices made in the
     forms, and the log or sets left open); a focus lost with its control (a move sent, a form gone) goes to
     what the screen now asks for, else rests on a heading near where it was. -------------------------- */
  const OFFERED = ["#im-button", "#next-hand", "#answer", "#ask .pick[aria-pressed=true]:not([disabled])",
    "#ask .pick:not([disabled])", "#claim-set button:not([disabled])", "#pass button:not([disabled])"];
  const RESTING = ["#summary h2", "#hand h2"];

  function shown(node) { return !!node && node.isConnected && node.getClientRects().length > 0; }

  /* The focus the screen moves itself shows its ring to a keyboard's user; to a thumb (a tap since the last
     key, or a touch screen before anything) a ring on the first set would read as a choice made, so it
     shows none until a key is pressed. */
  let lastInput = window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "pointer" : null;
  document.addEventListener("keydown", function () {
    lastInput = "key";
    root.querySelectorAll(".quiet-focus").forEach(function (n) { n.classList.remove("quiet-focus"); });
  }, true);
  document.addEventListener("pointerdown", function () { lastInput = "pointer"; }, true);
  function moveFocus(node) {
    if (lastInput === "pointer" && node.tagName !== "INPUT" && node.id !== "im-button") node.classList.add("quiet-focus");
    node.focus({ preventScroll: true });
  }

  function focusNow() {
    const node = document.activeElement;
    const values = {};
    me.querySelectorAll("select[id]").forEach(function (select) { values[select.id] = select.value; });
    const open = Array.prototype.map.call(tableView.querySelectorAll("details[open]"), function (d) { return d.className; });
    if (!node || !root.contains(node)) return { values: values, open: open };
    return { values: values, open: open, inside: true, id: node.id || null, to: node.dataset.to || null,
      summary: node.tagName === "SUMMARY" ? node.parentNode.className : null };
  }

  // (preventScroll: a redraw must not scroll the page away from the hand; the user's own Tab still does)
  function refocus(before) {
    before = Object.assign({ values: {}, open: [] }, before);
    Object.keys(before.values).forEach(function (id) {
      const select = document.getElementById(id);
      if (select && Array.prototype.some.call(select.options, function (o) { return o.value === before.values[id]; })) {
        select.value = before.values[id];
      }
    });
    before.open.forEach(function (name) {
      tableView.querySelectorAll("details").forEach(function (d) { if (d.className === name) d.open = true; });
    });
    let again = null;
    // (a player's button just tapped made the ask: the focus goes on to the next ask's first step)
    if (before.id && !(before.id.indexOf("ask-to-") === 0 && !askDraft.pick)) again = document.getElementById(before.id);
    else if (before.to) again = Array.prototype.find.call(me.querySelectorAll("[data-to]"), function (b) { return b.dataset.to === before.to; });
    else if (before.summary) again = Array.prototype.find.call(tableView.querySelectorAll("details"), function (d) { return d.className === before.summary; });
    if (again && again.tagName === "DETAILS") again = again.querySelector("summary");
    const now = document.activeElement;
    if (shown(again) && again !== now) { moveFocus(again); return; }
    const lost = !now || now === document.body || !shown(now) || now.dataset.resting === "1";
    if (!lost) return;
    const offered = OFFERED.map(function (q) { return root.querySelector(q); }).find(shown);
    if (offered) { moveFocus(offered); return; }
    const resting = before.inside ? RESTING.map(function (q) { return root.querySelector(q); }).find(shown) : null;
    if (resting && resting !== now) {
      resting.setAttribute("tabindex", "-1");
      resting.dataset.resting = "1";
      moveFocus(resting);
    }
  }

  function drawSummary() {
    const s = state;
    const finished = s.hands || [];
    if (seenDeals === null) seenDeals = s.status === "finished" ? finished.length - 1 : finished.length;
    if (finished.length > seenDeals || (s.status === "finished" && finished.length)) {
      const hand = finished[finished.length - 1];
      renderSummary(summary, s, hand);
      if (s.status === "finished" && root.dataset.homework) {
        // A homework game: her page says what she named and when each work comes back.
        summary.append(el("p", {}, el("a", { class: "button primary big", id: "homework-back", href: root.dataset.homework },
          gettext("See what comes back, and when"))));
      }
      if (s.status !== "finished") {
        summary.append(el("p", { text: gettext("The next hand has been dealt, with the deal moved one seat to the left.") }),
          el("button", { type: "button", id: "next-hand", onclick: function () {
            seenDeals = finished.length;
            summary.hidden = true;
            refocus({ inside: true });
          } }, gettext("On to hand %(number)d", { number: hand.number + 1 })));
      }
      summary.hidden = false;
    } else {
      summary.hidden = true;
    }
  }

  /* ---- this seat's part: the move's controls first, then the hand ---------------------------------- */
  function keepReveal() { return !!reveal && (Date.now() - reveal.at < KEEP_MS); }

  /* `answer_names: set` (the table's options): a card received is named by any work of its author the
     receiver did not have, so the verdict says which card came as well. */
  function namesBySet() { return !!(state && state.options && state.options.answer_names === "set"); }

  function revealBox() {
    const r = reveal;
    const title = el("b", { text: r.title || "" });
    const year = r.note ? " (" + r.note + ")" : "";
    let sentence, kind;
    if (r.kind === "defence") {
      kind = r.held ? "right" : "wrong";
      const said = { set: r.set, num: r.size, count: r.count, target: r.target };
      sentence = r.held ? ngettext("You named its %(num)d work: %(set)s stays yours, +1 bonus.",
        "You named all %(num)d works: %(set)s stays yours, +1 bonus.", r.size, said) :
        ngettext("You named %(count)s of its %(num)d work: %(set)s goes to %(target)s.",
          "You named %(count)s of its %(num)d works: %(set)s goes to %(target)s.", r.size, said);
      const named = (r.titles || []).filter(function (t) { return t; });
      if (named.length) sentence = [sentence, " ", gettext("Named: %(titles)s.", { titles: list(named) })];
    } else if (r.kind === "ask-missed") {
      kind = "wrong";
      sentence = fillNodes(gettext("%(target)s has no such card. Your turn is over."), { target: r.target });
    } else if (r.bySet) {
      // What was named may be another work than the card that came: the verdict, then the card received.
      kind = r.hinted ? (r.verdict === "wrong" ? "wrong" : "hinted") : r.text === null ? "wrong" : r.verdict;
      const author = el("b", { text: r.author || "" });
      const said = r.text === null ? gettext("Passed.") :
        kind === "wrong" ? fillNodes(gettext("Not quite: that is not a work of %(author)s you did not have."), { author: author }) :
        kind === "hinted" ? gettext("Right, with a hint. A hinted answer scores no bonus.") :
        kind === "almost" ? gettext("Almost! Mind the spelling. +1 bonus.") : gettext("Right! +1 bonus.");
      sentence = [].concat(said, " ", fillNodes(gettext("The card you received: %(title)s%(year)s."), { title: title, year: year }));
    } else if (r.hinted) {
      kind = r.verdict === "wrong" ? "wrong" : "hinted";
      sentence = fillNodes(r.verdict === "wrong" ? gettext("Not quite. The work was %(title)s%(year)s.") :
        gettext("Right, with a hint: %(title)s%(year)s. A hinted answer scores no bonus."), { title: title, year: year });
    } else if (r.text === null) {
      kind = "wrong";
      sentence = fillNodes(gettext("Passed. The work was %(title)s%(year)s."), { title: title, year: year });
    } else if (r.verdict === "right") {
      kind = "right";
      sentence = fillNodes(gettext("Right! %(title)s%(year)s. +1 bonus."), { title: title, year: year });
    } else if (r.verdict === "almost") {
      kind = "almost";
      sentence = fillNodes(gettext("Almost! It is spelled %(title)s%(year)s. +1 bonus."), { title: title, year: year });
    } else {
      kind = "wrong";
      sentence = fillNodes(gettext("Not quite. The work was %(title)s%(year)s."), { title: title, year: year });
    }
    if (["right", "almost", "hinted", "wrong"].indexOf(kind) < 0) kind = "wrong";
    // It fades in once, when it first comes: every redraw (a poll, a computer's move) builds it again,
    // and an animation started each time would blink the verdict out while the student reads it.
    const fresh = !r.drawn;
    r.drawn = true;
    return el("div", { class: "reveal " + kind + (fresh ? " fresh" : ""), id: "reveal", "data-verdict": kind },
      el("p", { class: "verdict" }, sentence),
      el("button", { type: "button", id: "reveal-ok", onclick: function () {
        reveal = null;
        draw();
      } }, gettext("OK")));
  }

  function revealText(r) {
    const box = document.createElement("div");
    const drawn = r.drawn;
    box.append(revealBox());
    r.drawn = drawn;  // (only a drawing on screen counts as its first)
    return box.querySelector(".verdict").textContent;
  }

  /* The screen of the seat, top down under the feed: the verdict, the move to make (a naming, the ask,
     a claim, a pass) or whom the table waits for, then the hand. The move's controls are never below the
     hand: they are in the first screen whatever the hand holds. */
  function drawMe() {
    clear(me);
    const s = state, game = s.game;
    if (!s.you || !game || !game.seat) return;
    if (reveal) me.append(revealBox());
    const contest = s.status === "playing" ? game.challenge : null;
    if (contest && contest.stage === "offer" && contest.challenger === game.seat) {
      me.append(challengeOffer(contest));
      me.append(handView(game));
      return;
    }
    if (contest && contest.stage === "defend" && contest.player === game.seat) {
      me.append(defenceForm(contest));
      return;
    }
    if (contest) {  // someone else's challenge: what the table waits for
      me.append(el("p", { class: "waiting", id: "waiting", text: contestLine(contest) }));
      me.append(handView(game));
      return;
    }
    if (game.prompts && game.prompts.length) {
      me.append(promptForm(game));
      me.append(el("p", { class: "hint", text: gettext("Your hand is hidden while you name the work.") }));
      return;
    }
    if (s.status === "playing") {
      if (game.asks) me.append(askPanel(game));
      if (game.claimable && game.claimable.length) me.append(claimForm(game));
      if (game.pass_targets && game.pass_targets.length) me.append(passForm(game));
      if (!game.to_act && game.turn) me.append(el("p", { class: "waiting", id: "waiting", text: gettext("Waiting for %(name)s.", { name: game.turn }) }));
    }
    me.append(handView(game));
  }

  /* Challenge a set (challenge_sets): the player who gave up a set's last card may make its layer name
     every work of it from memory; the layer then types them, one field per work, in any order. */
  function contestLine(contest) {
    const p = { challenger: contest.challenger, player: contest.player, set: setName(index, contest.set) };
    return contest.stage === "offer" ? gettext("Waiting for %(challenger)s: will they challenge %(player)s to name the works of %(set)s?", p) :
      gettext("%(player)s is naming the works of %(set)s from memory.", p);
  }

  function challengeOffer(contest) {
    const paused = !!state.paused;
    const size = setSize(contest.set);
    const p = { player: contest.player, set: setName(index, contest.set), num: size };
    return el("section", { class: "pass challenge", id: "challenge", "aria-labelledby": "challenge-title" },
      el("h2", { id: "challenge-title", text: gettext("Challenge %(player)s?", p) }),
      pausedReason(),
      el("p", { text: ngettext("%(player)s laid down %(set)s with your card. Challenge them to name its %(num)d work from memory: if they cannot, the set is yours; if they can, they score 1.",
        "%(player)s laid down %(set)s with your card. Challenge them to name its %(num)d works from memory: if they cannot, the set is yours; if they can, they score 1.", size, p) }),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", id: "challenge-yes", disabled: paused, onclick: function () { send({ challenge: contest.set }); } },
          gettext("Challenge")),
        el("button", { type: "button", id: "challenge-no", disabled: paused, onclick: function () { send({ challenge: null }); } },
          gettext("Let it stand"))));
  }

  function setSize(setId) {
    const set = index.sets[setId];
    return set ? (set.size || set.cards.length) : 0;
  }

  function defenceForm(contest) {
    const paused = !!state.paused;
    const size = setSize(contest.set);
    if (defenceDraft.set !== contest.set) { defenceDraft.set = contest.set; defenceDraft.texts = []; }
    const p = { challenger: contest.challenger, set: setName(index, contest.set), num: size };
    const fields = [];
    for (let i = 0; i < size; i += 1) {
      const input = el("input", { name: "work", id: "defence-" + (i + 1), autocomplete: "off", autocapitalize: "off", spellcheck: "false",
        maxlength: "200", disabled: paused, value: defenceDraft.texts[i] || "" });
      input.addEventListener("input", function () { defenceDraft.texts[i] = input.value; });
      fields.push(el("label", {}, fillNodes(gettext("Work %(number)s %(field)s"), { number: String(i + 1), field: input })));
    }
    const form = el("form", { class: "prompt defence", id: "defence", novalidate: true },
      el("h2", {}, fillNodes(gettext("Name the works of %(set)s"), { set: el("b", { text: p.set }) })),
      el("p", { text: ngettext("%(challenger)s challenges your set. Name its %(num)d work from memory, in any order: all of them, and the set stays yours (+1); otherwise it goes to %(challenger)s.",
        "%(challenger)s challenges your set. Name its %(num)d works from memory, in any order: all of them, and the set stays yours (+1); otherwise it goes to %(challenger)s.", size, p) }),
      pausedReason(),
      el("div", { class: "works" }, fields),
      el("div", { class: "buttons" },
        el("button", { type: "submit", class: "primary", id: "defence-button", disabled: paused }, gettext("Done")),
        el("button", { type: "button", id: "defence-give-up", disabled: paused, onclick: function () { send({ defend: contest.set, names: [] }); } },
          gettext("Give up the set"))));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const names = Array.prototype.map.call(form.querySelectorAll("input[name=work]"), function (input) { return input.value.trim(); })
        .filter(function (text) { return text; });
      send({ defend: contest.set, names: names });
    });
    return form;
  }
  const defenceDraft = { set: null, texts: [] };  // the works typed so far, kept across redraws

  /* Paused by the teacher: the controls of a move stay where they are, switched off, with the reason
     beside them. */
  function pausedReason() {
    return state.paused ? el("p", { class: "act-reason", id: "act-reason", text: gettext("Paused by the teacher: wait, play goes on soon.") }) : null;
  }

  /* The hand, compact: one line per set held (its pile: name and count), then its cards as one-line
     faces, the sets side by side where they fit. A card that came since the last drawing of this seat's
     hand slides in; one that left stays a moment, fading (both at most 300 ms, none when the reader asked
     for reduced motion: cards.css). */
  let lastHand = null;       // {seat, hand, cards: Set} as last drawn
  function handView(game) {
    const box = el("div", { class: "hand", id: "hand" });
    box.append(el("h2", { text: ngettext("Your hand (%(num)d card)", "Your hand (%(num)d cards)", game.hand.length) }));
    const mine = new Set(game.hand);
    const before = lastHand && lastHand.seat === game.seat && lastHand.hand === state.match.hand ? lastHand.cards : null;
    lastHand = { seat: game.seat, hand: state.match.hand, cards: mine };
    const recalled = recall(index);
    const groups = el("ul", { class: "hand-sets" });
    const byTitle = function (a, b) { return String(cardTitle(index, a)).localeCompare(String(cardTitle(index, b))); };
    groupBySet(index, game.hand).forEach(function (group) {
      const set = index.sets[group.set] || { cards: [], name: group.set };
      const held = recalled ? group.cards.slice().sort(byTitle) :
        set.cards.filter(function (c) { return mine.has(c.id); }).map(function (c) { return c.id; });
      groups.append(el("li", { class: "hand-set", "data-set": set.id || group.set },
        pile(index, set.id || group.set, held.length),
        el("ul", { class: "cards" }, held.map(function (id) {
          const face = cardFace(index, id, { mini: true });
          if (before && !before.has(id)) face.classList.add("arrived");
          return face;
        }))));
    });
    box.append(groups);
    const gone = before ? Array.from(before).filter(function (id) { return !mine.has(id); }) : [];
    if (gone.length) {  // drawn once, then gone: the feed says in words who took them
      const leaving = el("ul", { class: "cards leaving", "aria-hidden": "true" }, gone.map(function (id) { return cardFace(index, id, { mini: true }); }));
      box.append(leaving);
      setTimeout(function () { leaving.remove(); }, 300);
    }
    if (!game.hand.length) box.append(el("p", { text: gettext("You have no cards.") }));
    return box;
  }

  /* A hint, only when the student asks for one: each time a little more of the work (first letters and
     the length of each word, then more letters). */
  function hintControls(what) {
    if (!state.options.hints) return [];
    const shown = hint && hint.for === what.key ? hint : null;
    const out = [];
    if (shown) out.push(el("p", { class: "hint-text", id: "hint-text", "aria-live": "polite" },
      fillNodes(gettext("Hint: %(cue)s"), { cue: el("code", { class: "cue", text: shown.text }) })));
    if (what.offer) {
      out.push(el("button", { type: "button", id: "hint-button", disabled: !!state.paused, onclick: function () { askHint(what); } },
        shown ? gettext("Another hint") : gettext("Get a hint")));
    }
    return out;
  }

  async function askHint(what) {
    acted();
    const level = hint && hint.for === what.key ? hint.level + 1 : 1;
    try {
      const body = Object.assign({ seat: state.you.position, level: level }, what.body);
      const data = await api("POST", hintUrl, body);
      hint = { level: data.level, text: data.hint, for: what.key };
      draw();
      const input = document.getElementById(what.input);
      if (input) input.focus();
    } catch (error) {
      refuse(error.message);
    }
  }

  function promptForm(game) {
    const token = game.prompts[0];
    const card = index.cards[token];
    const paused = !!state.paused;
    const input = el("input", { name: "answer", id: "answer", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      required: true, maxlength: "200", disabled: paused, value: answerDraft.token === token ? answerDraft.text : "" });
    input.addEventListener("input", function () { answerDraft.token = token; answerDraft.text = input.value; });
    const author = el("b", { text: setName(index, card.set) });
    const form = el("form", { class: "prompt", id: "prompt" },
      namesBySet() ?
        [el("h2", {}, fillNodes(gettext("Name a work of %(author)s you did not have"), { author: author })),
          el("p", { text: gettext("Any of their works you did not have counts. Answer from memory.") })] :
        [el("h2", { text: gettext("Name the work") }),
          el("p", {}, fillNodes(gettext("You received a card of %(set)s. Which work is it? Answer from memory."), { set: author }))],
      pausedReason(),
      el("label", {}, fillNodes(gettext("Title %(field)s"), { field: input })),
      hintControls({ key: "prompt:" + token, offer: true, body: {}, input: "answer" }),
      el("div", { class: "buttons" },
        el("button", { type: "submit", class: "primary", disabled: paused }, gettext("Answer")),
        el("button", { type: "button", id: "pass-answer", disabled: paused, onclick: function () { send({ answer: null }); } }, gettext("Pass"))));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const move = { answer: input.value };
      if (hint && hint.for === "prompt:" + token) move.hint = hint.level;
      send(move);
    });
    return form;
  }

  /* The ask, for a thumb: tap what to ask for (a set of the hand, or under card asks a card), then tap the
     player: two taps, and the ask is made. Under named asks (recall) the work is then typed from memory
     and sent with "Ask". Every choice is a button with aria-pressed, each step a fieldset with its
     legend; after a choice the focus goes on to the next step. */
  function askPanel(game) {
    const asks = game.asks;
    const paused = !!state.paused;
    const typed = asks.by !== "set" && recall(index);
    const byCard = asks.by !== "set" && !typed;
    const mine = new Set(game.hand);
    const heldIn = {};
    game.hand.forEach(function (id) { const c = index.cards[id]; if (c) heldIn[c.set] = (heldIn[c.set] || 0) + 1; });
    // The deck's own word for a set ("author") only when the deck is in the table's language and has one
    // ("Set" is the deck format's word for a deck that says nothing: the sentence's own word reads better).
    const own = index.deck.set_label && index.deck.set_label !== "Set" ? index.deck.set_label : null;
    const label = index.deck.language === lang && own ? own.toLowerCase() : null;

    // What may be chosen: the sets, or the cards of those sets the hand lacks (all of them with bluffs).
    const choices = [];
    asks.sets.forEach(function (setId) {
      if (!byCard) { choices.push({ id: setId, set: setId, name: setName(index, setId) }); return; }
      const set = index.sets[setId];
      (set ? set.cards : []).forEach(function (c) {
        if (asks.bluff || !mine.has(c.id)) choices.push({ id: c.id, set: setId, name: c.title, mark: c.mark });
      });
    });
    const chosen = function (id) { return choices.find(function (c) { return c.id === id; }) || null; };
    if (!chosen(askDraft.pick)) askDraft.pick = null;
    if (asks.targets.indexOf(askDraft.target) < 0) askDraft.target = null;

    const form = el("form", { class: "ask" + (typed ? " named-ask" : byCard ? " card-ask" : " set-ask"), id: "ask", novalidate: true });
    form.append(el("h2", { text: typed ? gettext("Your turn: ask for a work") : gettext("Your turn: ask") }));
    if (paused) form.append(pausedReason());

    // Step 1: what to ask for.
    const pickLegend = byCard ? gettext("1. Tap the card you want") :
      label ? gettext("1. Tap the %(label)s you want", { label: label }) : gettext("1. Tap the set you want");
    // (names of works or writers: two columns, each name wrapping in its button; ranks fit three a row)
    const long = choices.some(function (c) { return String(c.name).length > 14; });
    const picks = el("div", { class: "picks" + (long ? " long-names" : "") });
    picks.addEventListener("scroll", function () { askDraft.scroll = picks.scrollTop; });
    const pickButton = function (choice) {
      const button = el("button", { type: "button", class: "pick", id: "pick-" + choice.id, "data-pick": choice.id,
        "data-set": choice.set, "aria-pressed": String(askDraft.pick === choice.id), disabled: paused,
        onclick: function () { choose(choice.id); } });
      if (byCard) {
        if (choice.mark) button.append(el("span", { class: "mark", text: choice.mark }));  // the quartet index: "B2"
        button.append(el("span", { class: "pick-name", text: choice.name }));
      } else {
        button.append(pile(index, choice.set, heldIn[choice.set] || 0));
      }
      const colour = index.sets[choice.set] && index.sets[choice.set].color;
      if (colour) button.style.setProperty("--set", colour);
      return button;
    };
    if (byCard) {
      asks.sets.forEach(function (setId) {
        const own = choices.filter(function (c) { return c.set === setId; });
        if (!own.length) return;
        const group = el("div", { class: "pick-group", role: "group", "aria-labelledby": "pick-group-" + setId },
          el("span", { class: "pick-group-name", id: "pick-group-" + setId }, pile(index, setId, heldIn[setId] || 0)));
        own.forEach(function (c) { group.append(pickButton(c)); });
        picks.append(group);
      });
    } else {
      choices.forEach(function (c) { picks.append(pickButton(c)); });
    }
    form.append(el("fieldset", { class: "step step-pick" }, el("legend", { text: pickLegend }), picks));

    // Step 2: whom to ask.
    const whomLegend = el("legend", { id: "whom-legend" });
    const help = el("p", { class: "act-help", id: "act-help", role: "status" });
    const whom = el("div", { class: "whom" }, asks.targets.map(function (name) {
      const seat = state.seats.find(function (x) { return x.name === name; });
      const count = game.hand_counts[name];
      return el("button", { type: "button", class: "target", id: "ask-to-" + (seat ? seat.position : name.replace(/\W+/g, "-")),
        "data-target": name, "aria-pressed": typed ? String(askDraft.target === name) : null, disabled: paused,
        onclick: function () { tapTarget(name); } },
        el("span", { class: "target-name", text: name }),
        el("span", { class: "target-count", text: ngettext("%(num)d card", "%(num)d cards", count) }));
    }));
    form.append(el("fieldset", { class: "step step-whom" }, whomLegend, whom, help));

    // Step 3 (named asks): the work, typed from memory.
    let work = null;
    if (typed) {
      work = el("input", { name: "named", id: "ask-work", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
        required: true, maxlength: "200", disabled: paused, value: askDraft.text || "" });
      work.addEventListener("input", function () { askDraft.text = work.value; });
      const key = "ask:" + (askDraft.pick || "");
      form.append(el("div", { class: "step step-work" },
        el("label", { for: "ask-work", class: "step-label", text: gettext("3. Type the work, from memory") }),
        el("div", { class: "work-row" }, work, el("button", { type: "submit", class: "primary", id: "ask-button", disabled: paused }, gettext("Ask"))),
        askDraft.refusal ? el("p", { class: "refusal", id: "ask-refusal", role: "alert", text: askDraft.refusal }) : null,
        askDraft.pick ? hintControls({ key: key, offer: misses >= 2, body: { set: askDraft.pick }, input: "ask-work" }) : null));
    }

    function paint() {
      form.querySelectorAll(".pick").forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.pick === askDraft.pick)); });
      if (typed) form.querySelectorAll(".target").forEach(function (b) { b.setAttribute("aria-pressed", String(b.dataset.target === askDraft.target)); });
      const choice = chosen(askDraft.pick);
      whom.classList.toggle("waiting-pick", !choice);
      whomLegend.textContent = choice ? gettext("2. Tap the player to ask for %(choice)s", { choice: choice.name }) :
        gettext("2. Tap the player to ask");
      if (choice) help.textContent = "";
      if (form.isConnected) fitPanel();  // (the legend may take another line)
    }
    function choose(id) {
      acted();
      if (askDraft.pick !== id) misses = 0;
      askDraft.pick = id;
      paint();
      const next = typed && askDraft.target ? work : whom.querySelector(".target");
      if (next) moveFocus(next);
    }
    function tapTarget(name) {
      acted();
      const choice = chosen(askDraft.pick);
      if (!choice) {
        help.textContent = byCard ? gettext("First tap the card you ask for.") : gettext("First tap what you ask for.");
        const first = picks.querySelector(".pick");
        if (first) moveFocus(first);
        return;
      }
      if (typed) {
        askDraft.target = name;
        paint();
        moveFocus(work);
        return;
      }
      const move = { ask: name };
      move[asks.by] = choice.id;
      send(move);
    }
    paint();
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (!typed) return;
      acted();
      if (!askDraft.pick || !askDraft.target) {
        help.textContent = !askDraft.pick ? gettext("First tap what you ask for.") : gettext("Then tap the player to ask.");
        const next = !askDraft.pick ? picks.querySelector(".pick") : whom.querySelector(".target");
        if (next) moveFocus(next);
        return;
      }
      const move = { ask: askDraft.target, set: askDraft.pick, named: work.value };
      askDraft.text = work.value;
      if (hint && hint.for === "ask:" + askDraft.pick) move.hint = hint.level;
      send(move);
    });
    return form;
  }
  // The ask being made, kept across redraws (a poll, a computer's move) and a refusal: what was tapped,
  // whom (named asks), the work typed so far and the refusal of the last one.
  const askDraft = { pick: null, target: null, text: "", refusal: null, scroll: 0 };
  const answerDraft = { token: null, text: "" };  // the work typed so far, kept across redraws (a hint, a poll)

  /* The claim (Literature), for a thumb and with no drop-down: tap the half-suit, then for each of its
     cards the teammate who holds it; "Claim" is switched on once every card has a holder, and until then a
     sentence beside it says what is missing. The cards in the claimer's own hand are filled in as hers and
     not offered to anyone else (she sees her hand: another name there could only be a slip); for each of
     the others one button per teammate, with the cards each holds (public), and none for the claimer
     herself. A teammate with no cards left cannot hold one: his button is off. The form knows what this
     seat's view knows (its hand, the teams, the counts) and suggests nothing more. The move sent is as
     before: {claim: set, holders: {name: [cards]}}. */
  function claimForm(game) {
    const paused = !!state.paused;
    const team = game.teams[game.team] || [];
    const mates = team.filter(function (name) { return name !== game.seat; });
    const mine = new Set(game.hand);
    const heldIn = {};
    game.hand.forEach(function (id) { const c = index.cards[id]; if (c) heldIn[c.set] = (heldIn[c.set] || 0) + 1; });
    const cardsLeft = function (name) { return (game.hand_counts && game.hand_counts[name]) || 0; };
    if (game.claimable.indexOf(claimDraft.set) < 0) { claimDraft.set = null; claimDraft.holders = {}; }
    const set = claimDraft.set ? index.sets[claimDraft.set] : null;
    const cards = set ? set.cards : [];
    // (a choice the table has since made impossible goes: a card now in this hand, a teammate now out of cards)
    Object.keys(claimDraft.holders).forEach(function (id) {
      const name = claimDraft.holders[id];
      if (mine.has(id) || mates.indexOf(name) < 0 || !cardsLeft(name)) delete claimDraft.holders[id];
    });

    const form = el("form", { class: "claim", id: "claim", novalidate: true });
    form.append(el("h2", { text: gettext("Claim a half-suit") }));
    if (paused) form.append(pausedReason());

    // Step 1: the half-suit.
    const sets = el("div", { class: "claim-sets", id: "claim-set" }, game.claimable.map(function (id) {
      const button = el("button", { type: "button", class: "pick claim-pick", id: "claim-set-" + id, "data-set": id,
        "aria-pressed": String(claimDraft.set === id), disabled: paused, onclick: function () { chooseSet(id); } },
        pile(index, id, heldIn[id] || 0));
      const colour = index.sets[id] && index.sets[id].color;
      if (colour) button.style.setProperty("--set", colour);
      return button;
    }));
    form.append(el("fieldset", { class: "step step-set" }, el("legend", { text: gettext("1. Tap the half-suit to claim") }), sets));

    // Step 2: who holds each of its cards.
    if (set) {
      const rows = el("div", { class: "claim-cards" }, cards.map(function (c) {
        const playing = rankAndSuit(c.title);
        const label = el("span", { class: "claim-card-name" + (playing ? (playing.red ? " playing red" : " playing black") : ""),
          id: "claim-card-" + c.id, text: c.title });
        const row = el("div", { class: "claim-card", role: "group", "aria-labelledby": "claim-card-" + c.id, "data-card": c.id }, label);
        if (mine.has(c.id)) {
          row.classList.add("own");
          row.append(el("span", { class: "claim-own", "data-holder": game.seat, text: gettext("You have it") }));
          return row;
        }
        row.append(el("div", { class: "claim-mates" }, mates.map(function (name) {
          const seat = state.seats.find(function (x) { return x.name === name; });
          const count = cardsLeft(name);
          return el("button", { type: "button", class: "target holder", id: "claim-" + c.id + "-" + (seat ? seat.position : name.replace(/\W+/g, "-")),
            "data-card": c.id, "data-holder": name, "aria-pressed": String(claimDraft.holders[c.id] === name),
            disabled: paused || !count, onclick: function () { chooseHolder(c.id, name); } },
            el("span", { class: "target-name", text: name }),
            el("span", { class: "target-count", text: ngettext("%(num)d card", "%(num)d cards", count) }));
        })));
        return row;
      }));
      form.append(el("fieldset", { class: "step step-holders", id: "claim-holders" },
        el("legend", { text: gettext("2. For each card, tap who has it") }), rows));
    }

    // The claim itself, off until every card has a holder, with what is missing said beside it.
    const button = el("button", { type: "submit", class: "primary", id: "claim-button", "aria-describedby": "claim-missing" }, gettext("Claim"));
    const missing = el("p", { class: "act-help", id: "claim-missing", "aria-live": "polite" });
    form.append(el("div", { class: "claim-go" }, button, missing));

    // The cards still without a holder, and those no teammate can hold (the teammates have no cards left).
    function gaps() {
      const open = cards.filter(function (c) { return !mine.has(c.id) && !claimDraft.holders[c.id]; });
      return { open: open, stuck: mates.some(cardsLeft) ? [] : open };
    }
    function paint() {
      const left = gaps();
      form.querySelectorAll("button.holder").forEach(function (b) {
        b.setAttribute("aria-pressed", String(claimDraft.holders[b.dataset.card] === b.dataset.holder));
      });
      const titles = function (some) { return list(some.map(function (c) { return c.title; })); };
      missing.textContent = !set ? gettext("First tap the half-suit you claim.") :
        left.stuck.length ? gettext("Your teammates have no cards left: this half-suit is not all in your team.") :
        left.open.length ? gettext("Still to tap: who holds %(cards)s.", { cards: titles(left.open) }) :
        gettext("Every card has a holder: tap Claim.");
      button.disabled = paused || !set || left.open.length > 0;
    }
    function chooseSet(id) {
      acted();
      if (claimDraft.set !== id) { claimDraft.set = id; claimDraft.holders = {}; }
      const again = claimForm(state.game);
      form.replaceWith(again);
      fitPanel();
      // The cards of the half-suit come under it: in view (the page scrolls no further than the form's top).
      const box = again.getBoundingClientRect();
      const below = box.bottom - (window.innerHeight - 8);
      if (below > 0) window.scrollBy(0, Math.min(below, Math.max(0, box.top - 8)));
      const next = again.querySelector("button.holder:not([disabled])") || again.querySelector("#claim-button:not([disabled])") ||
        again.querySelector("#claim-set-" + id);
      if (next) moveFocus(next);
    }
    function chooseHolder(card, name) {
      acted();
      claimDraft.holders[card] = name;
      paint();
      // On to the next card without a holder, else to "Claim".
      const rest = gaps().open;
      const next = rest.length ? form.querySelector('button.holder[data-card="' + rest[0].id + '"]:not([disabled])') :
        button.disabled ? null : button;
      if (next) {
        moveFocus(next);
        const r = next.getBoundingClientRect();
        if (r.bottom > window.innerHeight - 8) window.scrollBy(0, r.bottom - window.innerHeight + 8);
      }
    }
    paint();
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      acted();
      const left = gaps();
      if (!set || left.open.length) { paint(); return; }
      const named = {};
      cards.forEach(function (c) {
        const name = mine.has(c.id) ? game.seat : claimDraft.holders[c.id];
        (named[name] = named[name] || []).push(c.id);
      });
      send({ claim: set.id, holders: named });
    });
    return form;
  }
  // The claim being made, kept across redraws (a poll, a computer's move, a refusal): the half-suit tapped
  // and the teammate tapped for each of its cards (the claimer's own cards are never stored: they are hers).
  const claimDraft = { set: null, holders: {} };

  function passForm(game) {
    return el("div", { class: "pass", id: "pass" }, el("h2", { text: gettext("Hand the turn on") }), pausedReason(),
      game.pass_targets.map(function (name) {
        return el("button", { type: "button", "data-to": name, disabled: !!state.paused, onclick: function () { send({ pass_to: name }); } },
          gettext("Pass the turn to %(name)s", { name: name }));
      }));
  }

  /* Has the table left the version a refused move named? Then the screen is redrawn from the table now. */
  async function movedOn(version) {
    let now = null;
    try { now = await api("GET", url()); } catch (e) { return false; }
    if (!now || now.version === version) return false;
    update(now);
    return true;
  }

  async function send(move) {
    if (sending || !state || !state.you) return;
    sending = true;
    acted();
    const sentVersion = state.version;
    const prompted = "answer" in move && state.game && state.game.prompts ? index.cards[state.game.prompts[0]] : null;
    try {
      const data = await api("POST", movesUrl, { seat: state.you.position, version: state.version, move: move });
      const events = data.result || [];
      const answered = events.find(function (e) { return e.type === "answer"; });
      const asked = events.find(function (e) { return e.type === "ask" && "named" in e; });
      const defended = events.find(function (e) { return e.type === "defence"; });
      if (defended) {
        reveal = { kind: "defence", held: defended.held, count: defended.count, size: defended.size, target: defended.target,
          set: setName(index, defended.set), titles: defended.titles, at: Date.now() };
        defenceDraft.set = null;
        defenceDraft.texts = [];
      } else if (answered) {
        reveal = { verdict: answered.verdict || (answered.correct ? "right" : "wrong"), title: answered.title, note: answered.note,
          text: "hinted" in answered ? answered.hinted : answered.text, hinted: "hinted" in answered, at: Date.now(),
          bySet: namesBySet(), author: prompted ? setName(index, prompted.set) : null };
      } else if (asked && "named" in move) {
        reveal = asked.given && asked.given.length ?
          { verdict: asked.verdict, title: asked.title, note: asked.note, text: move.named, hinted: "hinted" in asked, at: Date.now() } :
          { kind: "ask-missed", target: move.ask, at: Date.now() };
      } else if (!keepReveal()) {
        reveal = null;
      }
      if ("named" in move) { askDraft.text = ""; askDraft.refusal = null; misses = 0; }
      if ("ask" in move) {
        askDraft.pick = askDraft.target = null;  // the next ask starts afresh
        askDraft.scroll = 0;
      }
      if ("answer" in move) { answerDraft.token = null; answerDraft.text = ""; }
      if ("claim" in move) { claimDraft.set = null; claimDraft.holders = {}; }  // the next claim starts afresh
      hint = null;
      if (reveal && (answered || asked || defended)) announcer.tell(revealText(reveal));
      poll.take(data.state, data.state_etag);  // the next poll is a 304 while nothing changes
      update(data.state);
    } catch (error) {
      if (error.code === "not-a-work" && "named" in move) {
        // No move was played: the sentence beside the form, the text kept, a hint offered after two misses.
        misses += 1;
        askDraft.refusal = error.message;
        draw();
        announcer.tell(error.message);
        const input = document.getElementById("ask-work");
        if (input) { input.focus(); input.select(); }
      } else if (error.status === 409 && error.code !== "paused" && await movedOn(sentVersion)) {
        // The table had moved on (a computer's move, another device): no fault of the student's, and the
        // rule the move now breaks, if any, is the new screen's to show.
        showNote(gettext("Too late: the table moved on before your tap. Look again and choose."));
      } else {
        refuse(error.message);  // kept on screen: the states that come next do not wipe it
        poll.now();
      }
    } finally {
      sending = false;
    }
  }

  api("GET", deckUrl).then(function (data) {
    deck = index = deckIndex(data);
    poll.start();
  }, function (error) { showError(error.message); });
}

const root = document.getElementById("play");
if (root) start(root);
