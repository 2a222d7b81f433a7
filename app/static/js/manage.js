/* The teacher's table page: who has joined, rename/remove/computer per seat, start, close, records. */
"use strict";

(function () {
  const AC = window.AC, el = AC.el;
  const root = document.getElementById("manage");
  if (!root) return;
  const api = root.dataset.api;
  const statusLine = document.getElementById("status"), errorLine = document.getElementById("error");
  const seatsBody = document.querySelector("#seats tbody");
  const startButton = document.getElementById("start"), closeButton = document.getElementById("close");
  const pauseButton = document.getElementById("pause"), lockButton = document.getElementById("lock");
  const playLink = document.getElementById("play-link");
  const handsBox = document.getElementById("hands-box"), handsList = document.getElementById("hands");
  let state = null;
  const bots = JSON.parse(root.dataset.bots || '[["random", "random"]]');  // [id, name in the reader's language]
  const botNames = {};
  bots.forEach(function (b) { botNames[b[0]] = b[1]; });

  function showError(message) { errorLine.textContent = message || ""; errorLine.hidden = !message; }

  async function act(method, url, body) {
    showError("");
    try {
      const data = await AC.api(method, url, body);
      draw(data);
    } catch (error) {
      showError(error.message);
    }
    poll.now();
  }

  function seatUrl(position) { return api + "/seats/" + position; }

  function draw(s) {
    state = s;
    const labels = { lobby: AC.gettext("Waiting for players. Start when every seat is filled."),
      playing: s.game && s.game.turn ? AC.gettext("Playing hand %(number)d — %(name)s to play.", { number: s.match.hand, name: s.game.turn }) :
        AC.gettext("Playing hand %(number)d.", { number: s.match.hand }),
      finished: AC.gettext("The match is over: %(names)s won.", { names: (s.match.winners || []).join(", ") }),
      closed: AC.gettext("This table is closed.") };
    const notes = [];
    if (s.paused) notes.push(AC.gettext("Paused: no one can move until you press Resume."));
    if (s.locked) notes.push(AC.gettext("Locked: no one new can join."));
    statusLine.textContent = [labels[s.status] || s.status].concat(notes).join(" ");
    startButton.hidden = s.status !== "lobby";
    pauseButton.hidden = s.status !== "playing";
    pauseButton.textContent = s.paused ? AC.gettext("Resume") : AC.gettext("Pause");
    pauseButton.setAttribute("aria-pressed", String(!!s.paused));
    lockButton.hidden = s.status === "finished" || s.status === "closed";
    lockButton.textContent = s.locked ? AC.gettext("Unlock: let students join") : AC.gettext("Lock: no new joins");
    lockButton.setAttribute("aria-pressed", String(!!s.locked));
    closeButton.hidden = s.status === "closed";
    playLink.hidden = !s.seats.some(function (seat) { return seat.here; });
    const totals = AC.totals(s);
    AC.clear(seatsBody);
    s.seats.forEach(function (seat) {
      const who = seat.name ? seat.name : AC.gettext("free seat");
      const kind = seat.kind === "computer" ? AC.gettext("computer (%(bot)s)", { bot: botNames[seat.bot] || seat.bot }) :
        seat.vacant ? (seat.name ? AC.gettext("away") : AC.gettext("waiting")) : (seat.here ? AC.gettext("on this device") : AC.gettext("student"));
      const controls = el("td", { class: "controls" });
      if (seat.name) {
        const input = el("input", { "aria-label": AC.gettext("New name for seat %(number)d", { number: seat.position + 1 }), maxlength: "24",
          value: seat.name });
        controls.append(el("form", { class: "inline rename", onsubmit: function (e) {
          e.preventDefault(); act("PATCH", seatUrl(seat.position), { name: input.value });
        } }, input, el("button", { type: "submit" }, AC.gettext("Rename"))));
      }
      if (seat.kind === "human" && !seat.vacant) {
        controls.append(el("button", { type: "button", onclick: function () { act("DELETE", seatUrl(seat.position)); } }, AC.gettext("Remove")));
      }
      if (s.status !== "finished" && s.status !== "closed") {
        const strength = el("select", { "aria-label": AC.gettext("Computer player for seat %(number)d", { number: seat.position + 1 }) },
          bots.map(function (b) { return el("option", { value: b[0], selected: b[0] === seat.bot }, b[1]); }));
        controls.append(el("form", { class: "inline to-computer", onsubmit: function (e) {
          e.preventDefault(); act("PATCH", seatUrl(seat.position), { kind: "computer", bot: strength.value });
        } }, strength, el("button", { type: "submit" }, seat.kind === "computer" ? AC.gettext("Change strength") : AC.gettext("Computer player"))));
      }
      if (seat.kind === "computer" && s.status === "lobby") {
        controls.append(el("button", { type: "button", onclick: function () {
          act("PATCH", seatUrl(seat.position), { kind: "human" }); } }, AC.gettext("Free for a student")));
      }
      seatsBody.append(el("tr", { "data-seat": seat.position }, el("td", { text: String(seat.position + 1) }),
        el("td", {}, el("b", { text: who }), " ", el("small", { text: kind })),
        el("td", { text: seat.name ? String(totals[seat.name] || 0) : "" }), controls));
    });
    AC.clear(handsList);
    (s.hands || []).forEach(function (hand) {
      handsList.append(el("li", {}, AC.gettext("Hand %(number)d: %(names)s won (%(scores)s)", { number: hand.number,
        names: hand.winners.join(", "), scores: hand.players.map(function (p) { return p + " " + hand.scores[p]; }).join(", ") }), " ",
        el("a", { href: api + "/hands/" + hand.number + "/record", download: "" }, AC.gettext("game record (YAML)"))));
    });
    handsBox.hidden = !(s.hands || []).length;
  }

  startButton.addEventListener("click", function () { act("POST", api + "/start"); });
  pauseButton.addEventListener("click", function () { act("POST", api + "/pause", { paused: !state.paused }); });
  lockButton.addEventListener("click", function () { act("POST", api + "/lock", { locked: !state.locked }); });
  closeButton.addEventListener("click", function () {
    if (window.confirm(AC.gettext("Close this table? Students will no longer be able to play at it."))) act("POST", api + "/close");
  });
  const poll = AC.poller(function () { return api; }, draw, showError);
  poll.start();
})();
