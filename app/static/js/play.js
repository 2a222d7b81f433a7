/* The play screen. One seat per device, or several seats passed around one device: then a hand-off
   screen hides every hand until the next player taps "I'm <name>", and no seat's state is even fetched
   before that. */
import { announcer as makeAnnouncer, labelCells } from "./a11y.js";
import { api, clear, el, fillNodes, gettext, lang, ngettext, serverNow, watch } from "./common.js";
import { cardFace, groupBySet } from "./cards.js";
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

  function showError(message) {
    errorLine.textContent = message || "";
    errorLine.hidden = !message;
  }

  /* A short note that goes by itself: a tap the table had already moved past is no error of the student's. */
  let noteTimer = null;
  function showNote(message) {
    noteLine.textContent = message;
    noteLine.hidden = false;
    clearTimeout(noteTimer);
    noteTimer = setTimeout(function () { noteLine.hidden = true; }, 5000);
  }

  const poll = watch(url, function (data) { showError(""); update(data); }, function (message) { showError(message); });

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

  function update(data) {
    // The same table from the same seat again (the poll right after a move): no redraw, which would take a
    // half-typed answer or a half-pressed key away.
    if (state && data.version === state.version && seatOf(data) === seatOf(state)) return;
    if (state && state.game && state.game.to_act && state.turn_deadline && !sending && seatOf(data) === seatOf(state)
        && data.version > state.version && serverNow() >= state.turn_deadline - 1) {
      showNote(gettext("Time was up: a computer made your move."));
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
  }

  /* ---- the keyboard: a redraw keeps the focus on the same control (by id, with the choices made in the
     forms, and the log or sets left open); a focus lost with its control (a move sent, a form gone) goes to
     what the screen now asks for, else rests on a heading near where it was. -------------------------- */
  const OFFERED = ["#im-button", "#next-hand", "#answer", "#ask-work", "#ask-target", "#claim-set", "#pass button"];
  const RESTING = ["#summary h2", "#hand h2"];

  function shown(node) { return !!node && node.isConnected && node.getClientRects().length > 0; }

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
    if (before.id) again = document.getElementById(before.id);
    else if (before.to) again = Array.prototype.find.call(me.querySelectorAll("[data-to]"), function (b) { return b.dataset.to === before.to; });
    else if (before.summary) again = Array.prototype.find.call(tableView.querySelectorAll("details"), function (d) { return d.className === before.summary; });
    if (again && again.tagName === "DETAILS") again = again.querySelector("summary");
    const now = document.activeElement;
    if (shown(again) && again !== now) { again.focus({ preventScroll: true }); return; }
    const lost = !now || now === document.body || !shown(now) || now.dataset.resting === "1";
    if (!lost) return;
    const offered = OFFERED.map(function (q) { return root.querySelector(q); }).find(shown);
    if (offered) { offered.focus({ preventScroll: true }); return; }
    const resting = before.inside ? RESTING.map(function (q) { return root.querySelector(q); }).find(shown) : null;
    if (resting && resting !== now) {
      resting.setAttribute("tabindex", "-1");
      resting.dataset.resting = "1";
      resting.focus({ preventScroll: true });
    }
  }

  function drawSummary() {
    const s = state;
    const finished = s.hands || [];
    if (seenDeals === null) seenDeals = s.status === "finished" ? finished.length - 1 : finished.length;
    if (finished.length > seenDeals || (s.status === "finished" && finished.length)) {
      const hand = finished[finished.length - 1];
      renderSummary(summary, s, hand);
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

  /* ---- this seat's part: the hand, the prompts, the moves ---------------------------------------- */
  function keepReveal() { return !!reveal && (Date.now() - reveal.at < KEEP_MS); }

  function revealBox() {
    const r = reveal;
    const title = el("b", { text: r.title || "" });
    const year = r.note ? " (" + r.note + ")" : "";
    let sentence, kind;
    if (r.kind === "ask-missed") {
      kind = "wrong";
      sentence = fillNodes(gettext("%(target)s has no such card. Your turn is over."), { target: r.target });
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

  function drawMe() {
    clear(me);
    const s = state, game = s.game;
    if (!s.you || !game || !game.seat) return;
    if (reveal) me.append(revealBox());
    if (game.prompts && game.prompts.length) {
      me.append(promptForm(game));
      me.append(el("p", { class: "hint", text: gettext("Your hand is hidden while you name the work.") }));
      return;
    }
    me.append(handView(game));
    if (s.status !== "playing") return;
    if (game.asks) me.append(askForm(game));
    if (game.claimable && game.claimable.length) me.append(claimForm(game));
    if (game.pass_targets && game.pass_targets.length) me.append(passForm(game));
    if (!game.to_act && game.turn) me.append(el("p", { class: "waiting", text: gettext("Waiting for %(name)s.", { name: game.turn }) }));
  }

  /* The hand, grouped by set, each card drawn as a card. A card that came since the last drawing of this
     seat's hand slides in; one that left stays a moment, fading (both at most 300 ms, none when the
     reader asked for reduced motion: play.css). */
  let lastHand = null;       // {seat, hand, cards: Set} as last drawn
  function handView(game) {
    const box = el("div", { class: "hand", id: "hand" });
    box.append(el("h2", { text: ngettext("Your hand (%(num)d card)", "Your hand (%(num)d cards)", game.hand.length) }));
    const mine = new Set(game.hand);
    const before = lastHand && lastHand.seat === game.seat && lastHand.hand === state.match.hand ? lastHand.cards : null;
    lastHand = { seat: game.seat, hand: state.match.hand, cards: mine };
    const recalled = recall(index);
    const groups = el("div", { class: "hand-sets" });
    const byTitle = function (a, b) { return String(cardTitle(index, a)).localeCompare(String(cardTitle(index, b))); };
    groupBySet(index, game.hand).forEach(function (group) {
      const set = index.sets[group.set] || { cards: [], name: group.set };
      const held = recalled ? group.cards.slice().sort(byTitle) :
        set.cards.filter(function (c) { return mine.has(c.id); }).map(function (c) { return c.id; });
      // (The works still to collect are the ask form's choices: the hand shows what is held.)
      groups.append(el("div", { class: "hand-set", "data-set": set.id || group.set },
        el("h3", { class: "visually-hidden", text: set.name }),
        el("ul", { class: "cards" }, held.map(function (id) {
          const face = cardFace(index, id);
          if (before && !before.has(id)) face.classList.add("arrived");
          return face;
        }))));
    });
    box.append(groups);
    const gone = before ? Array.from(before).filter(function (id) { return !mine.has(id); }) : [];
    if (gone.length) {  // drawn once, then gone: the feed says in words who took them
      const leaving = el("ul", { class: "cards leaving", "aria-hidden": "true" }, gone.map(function (id) { return cardFace(index, id); }));
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
      out.push(el("button", { type: "button", id: "hint-button", onclick: function () { askHint(what); } },
        shown ? gettext("Another hint") : gettext("Get a hint")));
    }
    return out;
  }

  async function askHint(what) {
    const level = hint && hint.for === what.key ? hint.level + 1 : 1;
    try {
      const body = Object.assign({ seat: state.you.position, level: level }, what.body);
      const data = await api("POST", hintUrl, body);
      hint = { level: data.level, text: data.hint, for: what.key };
      draw();
      const input = document.getElementById(what.input);
      if (input) input.focus();
    } catch (error) {
      showError(error.message);
    }
  }

  function promptForm(game) {
    const token = game.prompts[0];
    const card = index.cards[token];
    const input = el("input", { name: "answer", id: "answer", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
      required: true, maxlength: "200", value: answerDraft.token === token ? answerDraft.text : "" });
    input.addEventListener("input", function () { answerDraft.token = token; answerDraft.text = input.value; });
    const form = el("form", { class: "prompt", id: "prompt" },
      el("h2", { text: gettext("Name the work") }),
      el("p", {}, fillNodes(gettext("You received a card of %(set)s. Which work is it? Answer from memory."),
        { set: el("b", { text: setName(index, card.set) }) })),
      el("label", {}, fillNodes(gettext("Title %(field)s"), { field: input })),
      hintControls({ key: "prompt:" + token, offer: true, body: {}, input: "answer" }),
      el("div", { class: "buttons" },
        el("button", { type: "submit", class: "primary" }, gettext("Answer")),
        el("button", { type: "button", id: "pass-answer", onclick: function () { send({ answer: null }); } }, gettext("Pass"))));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const move = { answer: input.value };
      if (hint && hint.for === "prompt:" + token) move.hint = hint.level;
      send(move);
    });
    return form;
  }

  function askForm(game) {
    const asks = game.asks;
    const target = el("select", { name: "target", id: "ask-target" }, asks.targets.map(function (t) {
      return el("option", { value: t }, ngettext("%(name)s (%(num)d card)", "%(name)s (%(num)d cards)", game.hand_counts[t], { name: t }));
    }));
    const typed = asks.by !== "set" && recall(index);
    let what, work = null;
    if (asks.by === "set" || typed) {
      what = el("select", { name: "set", id: "ask-set" }, asks.sets.map(function (id) {
        return el("option", { value: id }, setName(index, id));
      }));
    } else {
      const mine = new Set(game.hand);
      what = el("select", { name: "card", id: "ask-card" }, asks.sets.map(function (id) {
        const set = index.sets[id];
        return el("optgroup", { label: set.name }, set.cards.filter(function (c) { return asks.bluff || !mine.has(c.id); })
          .map(function (c) { return el("option", { value: c.id }, c.title); }));
      }));
    }
    // The deck's own word for a set ("author") only when the deck is in the table's language and has one
    // ("Set" is the deck format's word for a deck that says nothing: the sentence's own word reads better).
    const own = index.deck.set_label && index.deck.set_label !== "Set" ? index.deck.set_label : null;
    const label = index.deck.language === lang && own ? own.toLowerCase() : null;
    let form;
    if (typed) {
      // Under named asks the naming is the ask: an author from the hand, and the work typed from memory.
      work = el("input", { name: "named", id: "ask-work", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
        required: true, maxlength: "200", value: askDraft.text || "" });
      if (askDraft.set && asks.sets.indexOf(askDraft.set) >= 0) what.value = askDraft.set;
      const key = "ask:" + what.value;
      what.addEventListener("change", function () { misses = 0; askDraft.set = what.value; });
      work.addEventListener("input", function () { askDraft.text = work.value; });
      form = el("form", { class: "ask named-ask", id: "ask" }, el("h2", { text: gettext("Your turn: ask for a work") }),
        el("p", { class: "hint", text: gettext("Choose an author you hold, then type one of their works you do not have, from memory.") }),
        el("label", {}, fillNodes(gettext("Ask %(player)s"), { player: target })), " ",
        el("label", {}, fillNodes(label ? gettext("for %(label)s %(choice)s") : gettext("for the set %(choice)s"),
          { label: label, choice: what })), " ",
        el("label", { class: "work" }, fillNodes(gettext("the work %(field)s"), { field: work })),
        askDraft.refusal ? el("p", { class: "refusal", id: "ask-refusal", role: "alert", text: askDraft.refusal }) : null,
        hintControls({ key: key, offer: misses >= 2, body: { set: what.value }, input: "ask-work" }),
        el("button", { type: "submit", class: "primary", id: "ask-button" }, gettext("Ask")));
    } else {
      const wanted = fillNodes(asks.by !== "set" ? gettext("for the card %(choice)s") :
        label ? gettext("for %(label)s %(choice)s") : gettext("for the set %(choice)s"), { label: label, choice: what });
      form = el("form", { class: "ask", id: "ask" }, el("h2", { text: gettext("Your turn: ask") }),
        el("label", {}, fillNodes(gettext("Ask %(player)s"), { player: target })), " ",
        el("label", {}, wanted), " ",
        el("button", { type: "submit", class: "primary", id: "ask-button" }, gettext("Ask")));
    }
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      const move = { ask: target.value };
      if (typed) {
        move.set = what.value;
        move.named = work.value;
        askDraft.set = what.value;
        askDraft.text = work.value;
        if (hint && hint.for === "ask:" + what.value) move.hint = hint.level;
      } else {
        move[asks.by] = what.value;
      }
      send(move);
    });
    return form;
  }
  const askDraft = { set: null, text: "", refusal: null };  // a typed ask, kept across redraws and refusals
  const answerDraft = { token: null, text: "" };  // the work typed so far, kept across redraws (a hint, a poll)

  function claimForm(game) {
    const team = game.teams[game.team];
    const mine = new Set(game.hand);
    const setSelect = el("select", { name: "set", id: "claim-set", "aria-label": gettext("Half-suit to claim") },
      el("option", { value: "" }, gettext("choose a half-suit")),
      game.claimable.map(function (id) { return el("option", { value: id }, setName(index, id)); }));
    const holders = el("div", { class: "holders", id: "claim-holders" });
    setSelect.addEventListener("change", function () {
      clear(holders);
      const set = index.sets[setSelect.value];
      if (!set) return;
      set.cards.forEach(function (c) {
        holders.append(el("label", {}, fillNodes(gettext("%(card)s is held by %(holder)s"), { card: c.title,
          holder: el("select", { name: "holder-" + c.id, "data-card": c.id }, team.map(function (name) {
            return el("option", { value: name, selected: mine.has(c.id) ? name === game.seat : false }, name);
          })) })));
      });
    });
    const form = el("form", { class: "claim", id: "claim" },
      el("h2", { text: gettext("Claim a half-suit") }),
      el("p", { class: "hint", text: gettext("Pick a half-suit, then who in your team holds each of its cards.") }),
      setSelect, holders, el("button", { type: "submit", id: "claim-button" }, gettext("Claim")));
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      if (!setSelect.value) { showError(gettext("Choose a half-suit to claim.")); return; }
      const named = {};
      holders.querySelectorAll("select").forEach(function (sel) {
        (named[sel.value] = named[sel.value] || []).push(sel.dataset.card);
      });
      send({ claim: setSelect.value, holders: named });
    });
    return form;
  }

  function passForm(game) {
    return el("div", { class: "pass", id: "pass" }, el("h2", { text: gettext("Hand the turn on") }),
      game.pass_targets.map(function (name) {
        return el("button", { type: "button", "data-to": name, onclick: function () { send({ pass_to: name }); } },
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
    showError("");
    const sentVersion = state.version;
    try {
      const data = await api("POST", movesUrl, { seat: state.you.position, version: state.version, move: move });
      const events = data.result || [];
      const answered = events.find(function (e) { return e.type === "answer"; });
      const asked = events.find(function (e) { return e.type === "ask" && "named" in e; });
      if (answered) {
        reveal = { verdict: answered.verdict || (answered.correct ? "right" : "wrong"), title: answered.title, note: answered.note,
          text: "hinted" in answered ? answered.hinted : answered.text, hinted: "hinted" in answered, at: Date.now() };
      } else if (asked && "named" in move) {
        reveal = asked.given && asked.given.length ?
          { verdict: asked.verdict, title: asked.title, note: asked.note, text: move.named, hinted: "hinted" in asked, at: Date.now() } :
          { kind: "ask-missed", target: move.ask, at: Date.now() };
      } else if (!keepReveal()) {
        reveal = null;
      }
      if ("named" in move) { askDraft.text = ""; askDraft.refusal = null; misses = 0; }
      if ("answer" in move) { answerDraft.token = null; answerDraft.text = ""; }
      hint = null;
      if (reveal && (answered || asked)) announcer.tell(revealText(reveal));
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
      } else if (error.status === 409 && await movedOn(sentVersion)) {
        // The table had moved on (a computer's move, another device): no fault of the student's, and the
        // rule the move now breaks, if any, is the new screen's to show.
        showNote(gettext("Too late: the table moved on before your tap. Look again and choose."));
      } else {
        showError(error.message);
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
