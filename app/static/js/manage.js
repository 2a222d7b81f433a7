/* The teacher's table page: who has joined, rename/remove/computer per seat, start, close, records. */
import { api, clear, el, gettext, lang, serverNow, totals, watch } from "./common.js";

const NETWORK_EVERY_MS = 30000;  // how often the page asks whether its network's joins are limited
const NO_PHONE_AFTER_S = 120;  // no phone this long after opening: the page links the network check

/* What the teacher is shown of a device asking for a seat back: "iPhone · Safari · asked 09:14:05". */
export function askDetails(ask) {
  const time = new Date(ask.asked_at * 1000).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  return [ask.device || gettext("unknown device"), gettext("asked %(time)s", { time: time })].join(" · ");
}

/* A student's presence in words, for the teacher: "here", "away for 3 min" (issue #19). */
export function presenceText(seat) {
  if (seat.presence === "here") return gettext("here");
  if (seat.presence !== "away") return "";
  if (seat.away_seconds === null || seat.away_seconds === undefined) return gettext("away");
  const minutes = Math.floor(seat.away_seconds / 60);
  return minutes < 1 ? gettext("away for less than a minute") : gettext("away for %(minutes)d min", { minutes: minutes });
}

function start(root) {
  const base = root.dataset.api;  // the table's API
  const statusLine = document.getElementById("status"), errorLine = document.getElementById("error");
  const seatsBody = document.querySelector("#seats tbody");
  const startButton = document.getElementById("start"), closeButton = document.getElementById("close");
  const pauseButton = document.getElementById("pause"), lockButton = document.getElementById("lock");
  const playLink = document.getElementById("play-link");
  const dealsBox = document.getElementById("hands-box"), dealsList = document.getElementById("hands");
  const asksBox = document.getElementById("asks-box"), asksList = document.getElementById("asks");
  const barredBox = document.getElementById("barred-box"), barredList = document.getElementById("barred");
  const networkLine = document.getElementById("network-limited");
  const noPhoneLine = document.getElementById("no-phone");
  let state = null;
  const bots = JSON.parse(root.dataset.bots || '[["random", "random"]]');  // [id, name in the reader's language]
  const botNames = {};
  bots.forEach(function (b) { botNames[b[0]] = b[1]; });

  function showError(message) { errorLine.textContent = message || ""; errorLine.hidden = !message; }

  async function act(method, url, body) {
    showError("");
    try {
      const data = await api(method, url, body);
      draw(data);
    } catch (error) {
      showError(error.message);
    }
    poll.now();
  }

  function seatUrl(position) { return base + "/seats/" + position; }

  function draw(s) {
    state = s;
    const labels = { lobby: gettext("Waiting for players. Start when every seat is filled."),
      playing: s.game && s.game.turn ? gettext("Playing hand %(number)d — %(name)s to play.", { number: s.match.hand, name: s.game.turn }) :
        gettext("Playing hand %(number)d.", { number: s.match.hand }),
      finished: gettext("The match is over: %(names)s won.", { names: (s.match.winners || []).join(", ") }),
      closed: gettext("This table is closed.") };
    const notes = [];
    if (s.paused) notes.push(gettext("Paused: no one can move until you press Resume."));
    if (s.locked) notes.push(gettext("Locked: no one new can join."));
    statusLine.textContent = [labels[s.status] || s.status].concat(notes).join(" ");
    startButton.hidden = s.status !== "lobby";
    pauseButton.hidden = s.status !== "playing";
    pauseButton.textContent = s.paused ? gettext("Resume") : gettext("Pause");
    pauseButton.setAttribute("aria-pressed", String(!!s.paused));
    lockButton.hidden = s.status === "finished" || s.status === "closed";
    lockButton.textContent = s.locked ? gettext("Unlock: let students join") : gettext("Lock: no new joins");
    lockButton.setAttribute("aria-pressed", String(!!s.locked));
    closeButton.hidden = s.status === "closed";
    playLink.hidden = !s.seats.some(function (seat) { return seat.here; });
    const sums = totals(s);
    drawAsks(s);
    drawBarred(s);
    drawNoPhone();
    clear(seatsBody);
    s.seats.forEach(function (seat) {
      const who = seat.name ? seat.name : gettext("free seat");
      const presence = presenceText(seat);
      const kind = seat.barred ? gettext("taken off for the match: a computer plays for %(name)s", { name: seat.name }) :
        seat.stand_in ? gettext("computer plays for %(name)s (%(presence)s)", { name: seat.name, presence: presence || gettext("away") }) :
        seat.kind === "computer" ? gettext("computer (%(bot)s)", { bot: botNames[seat.bot] || seat.bot }) :
        seat.vacant ? (seat.name ? gettext("away") : gettext("waiting")) :
        (seat.here ? gettext("on this device") : gettext("student")) + (presence ? " · " + presence : "");
      const controls = el("td", { class: "controls" });
      if (seat.name) {
        const input = el("input", { "aria-label": gettext("New name for seat %(number)d", { number: seat.position + 1 }), maxlength: "24",
          value: seat.name });
        controls.append(el("form", { class: "inline rename", onsubmit: function (e) {
          e.preventDefault(); act("PATCH", seatUrl(seat.position), { name: input.value });
        } }, input, el("button", { type: "submit" }, gettext("Rename"))));
      }
      if (s.status === "playing" && seat.kind === "human" && !seat.vacant && seat.presence === "away") {
        controls.append(el("button", { type: "button", class: "stand-in", onclick: function () {
          act("POST", seatUrl(seat.position) + "/stand-in"); } },
        gettext("Computer plays for %(name)s until they are back", { name: seat.name })));
      }
      if (seat.kind === "human" && !seat.vacant) {
        controls.append(el("button", { type: "button", onclick: function () { act("DELETE", seatUrl(seat.position)); } }, gettext("Remove")));
      }
      if (s.status === "playing" && (seat.kind === "human" || seat.stand_in) && seat.name && !seat.barred) {
        // (the name stays on the seat for the game; nobody can take it, nor ask for it back)
        controls.append(el("button", { type: "button", class: "remove-for-good", onclick: function () {
          act("DELETE", seatUrl(seat.position) + "?for_good=1"); } },
        gettext("Take %(name)s off this table for the match", { name: seat.name })));
      }
      if (s.status !== "finished" && s.status !== "closed") {
        const strength = el("select", { "aria-label": gettext("Computer player for seat %(number)d", { number: seat.position + 1 }) },
          bots.map(function (b) { return el("option", { value: b[0], selected: b[0] === seat.bot }, b[1]); }));
        controls.append(el("form", { class: "inline to-computer", onsubmit: function (e) {
          e.preventDefault(); act("PATCH", seatUrl(seat.position), { kind: "computer", bot: strength.value });
        } }, strength, el("button", { type: "submit" }, seat.kind === "computer" ? gettext("Change strength") : gettext("Computer player"))));
      }
      if (seat.kind === "computer" && s.status === "lobby") {
        controls.append(el("button", { type: "button", onclick: function () {
          act("PATCH", seatUrl(seat.position), { kind: "human" }); } }, gettext("Free for a student")));
      }
      seatsBody.append(el("tr", { "data-seat": seat.position, class: seat.presence === "away" ? "away" : "" },
        el("td", { text: String(seat.position + 1) }),
        el("td", {}, el("b", { text: who }), " ", el("small", { class: "presence", text: kind })),
        el("td", { text: seat.name ? String(sums[seat.name] || 0) : "" }), controls));
    });
    clear(dealsList);
    (s.hands || []).forEach(function (deal) {
      dealsList.append(el("li", {}, gettext("Hand %(number)d: %(names)s won (%(scores)s)", { number: deal.number,
        names: deal.winners.join(", "), scores: deal.players.map(function (p) { return p + " " + deal.scores[p]; }).join(", ") }), " ",
        el("a", { href: base + "/hands/" + deal.number + "/record", download: "" }, gettext("game record (YAML)"))));
    });
    dealsBox.hidden = !(s.hands || []).length;
  }

  /* Devices asking for an away student's seat back, each with what it says of itself and when it asked:
     the teacher lets one in (the others of that seat are told no) or refuses it, in one click. */
  function drawAsks(s) {
    const asks = s.asks || [];
    const perSeat = {};
    asks.forEach(function (ask) { perSeat[ask.position] = (perSeat[ask.position] || 0) + 1; });
    clear(asksList);
    asks.forEach(function (ask) {
      const body = { ask: ask.id }, detailsId = "ask-details-" + ask.id;
      const others = perSeat[ask.position] - 1;
      asksList.append(el("li", { "data-seat": ask.position, "data-ask": ask.id },
        el("span", { class: "ask-text" },
          gettext("%(name)s (seat %(number)d) wants their seat back (from a new device)", { name: ask.name, number: ask.position + 1 }),
          el("br"), el("small", { class: "ask-device", id: detailsId, text: askDetails(ask) }),
          others ? [el("br"), el("small", { class: "ask-others",
            text: gettext("Several devices ask for this seat: let in the one in front of you; the others are told no.") })] : null),
        " ",
        el("span", { class: "ask-buttons" },
          el("button", { type: "button", class: "primary let-in", "aria-label": gettext("Let %(name)s in", { name: ask.name }),
            "aria-describedby": detailsId,
            onclick: function () { act("POST", seatUrl(ask.position) + "/let-in", body); } }, gettext("Let in")), " ",
          el("button", { type: "button", class: "refuse", "aria-label": gettext("Refuse %(name)s", { name: ask.name }),
            "aria-describedby": detailsId,
            onclick: function () { act("POST", seatUrl(ask.position) + "/refuse", body); } }, gettext("Refuse")))));
    });
    asksBox.hidden = !asks.length;
  }

  /* Students taken off for the match: the teacher lets them back in (then they may ask for their seat). */
  function drawBarred(s) {
    const barred = s.seats.filter(function (seat) { return seat.barred && seat.name; });
    clear(barredList);
    barred.forEach(function (seat) {
      barredList.append(el("li", { "data-seat": seat.position },
        el("span", { text: gettext("%(name)s (seat %(number)d)", { name: seat.name, number: seat.position + 1 }) }), " ",
        el("button", { type: "button", class: "let-back", "aria-label": gettext("Let %(name)s back in", { name: seat.name }),
          onclick: function () { act("POST", seatUrl(seat.position) + "/let-back"); } }, gettext("Let back in"))));
    });
    barredBox.hidden = !barred.length || s.status === "finished" || s.status === "closed";
  }

  /* Two minutes open, seats waiting for students, and not one has joined from another device: link the
     network check (a guest Wi-Fi that keeps devices apart is the usual cause). */
  function drawNoPhone() {
    if (!state) return;
    const open = state.status === "lobby" || state.status === "playing";
    const awaited = state.seats.some(function (seat) { return seat.kind === "human" && !seat.here; });
    const joined = state.seats.some(function (seat) { return seat.kind === "human" && !seat.here && !seat.vacant; });
    const waited = serverNow() - Number(noPhoneLine.dataset.opened) >= NO_PHONE_AFTER_S;
    noPhoneLine.hidden = !(open && awaited && !joined && waited);
  }

  /* Many wrong codes from this network: the guessing limit refuses new joins from it (never this page). */
  async function checkNetwork() {
    try {
      const network = await api("GET", root.dataset.network);
      networkLine.textContent = network.message || "";
      networkLine.hidden = !network.limited;
    } catch (error) {
      /* the notice stays as it was; the next look may answer */
    }
    window.setTimeout(checkNetwork, NETWORK_EVERY_MS);
  }

  startButton.addEventListener("click", function () { act("POST", base + "/start"); });
  pauseButton.addEventListener("click", function () { act("POST", base + "/pause", { paused: !state.paused }); });
  lockButton.addEventListener("click", function () { act("POST", base + "/lock", { locked: !state.locked }); });
  closeButton.addEventListener("click", function () {
    if (window.confirm(gettext("Close this table? Students will no longer be able to play at it."))) act("POST", base + "/close");
  });
  const poll = watch(function () { return base; }, draw, showError);
  poll.start();
  window.setTimeout(checkNetwork, NETWORK_EVERY_MS);
  window.setInterval(drawNoPhone, 10000);
}

const root = document.getElementById("manage");
if (root) start(root);
