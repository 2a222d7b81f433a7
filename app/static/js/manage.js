/* The teacher's table page: the table's rules in one line, a turn that waits on an away student (or on a
   seat no device holds) flagged at the top, each seat's state in one line with at most two actions in view
   (the rest under a menu, each with what it does; "Let back in" for a student taken off), pass-and-play
   seats of another browser taken to this one, the turn timer, start, pause, close, records. */
import { api, clear, el, gettext, lang, list, ngettext, serverNow, totals, watch } from "./common.js";

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
  return awayText(seat.away_seconds);
}

/* "away for 3 min" from the seconds away (null: not known). */
export function awayText(seconds) {
  if (seconds === null || seconds === undefined) return gettext("away");
  const minutes = Math.floor(seconds / 60);
  return minutes < 1 ? gettext("away for less than a minute") : gettext("away for %(minutes)d min", { minutes: minutes });
}

/* The one line that says what is going on at a seat, in plain words, for the teacher (issue #33). */
export function seatLine(seat, s, botNames) {
  const onTurn = s.status === "playing" && !!s.game && s.game.turn === seat.name && !!seat.name;
  if (seat.barred) return gettext("taken off for the match: a computer plays this seat");
  if (seat.stand_in && seat.device === false) {
    return gettext("no device holds this seat: a computer plays it until you let %(name)s back in from a device", { name: seat.name });
  }
  if (seat.stand_in) {
    const away = seat.presence === "away" ? awayText(seat.away_seconds) + " — " : "";
    return away + gettext("a computer plays for %(name)s until %(name)s is back", { name: seat.name });
  }
  if (seat.kind === "computer") return gettext("computer player (%(bot)s)", { bot: (botNames || {})[seat.bot] || seat.bot });
  if (!seat.name) return s.status === "lobby" ? gettext("empty seat: waiting for a student to join") : gettext("empty seat");
  if (seat.vacant) {
    return s.status === "lobby" ? gettext("empty seat") :
      gettext("no device holds this seat: %(name)s can ask for it back, or give it to a computer", { name: seat.name });
  }
  const where = seat.here ? gettext("plays on this device") : (presenceText(seat) || gettext("joined"));
  return onTurn ? where + " — " + gettext("it is %(name)s's turn", { name: seat.name }) : where;
}

/* A turn that waits on a seat no device holds (its device disconnected, nobody joined into it since). */
export function awayTurnEmpty(name) {
  return gettext("No device holds %(name)s's seat, and it is %(name)s's turn: the table is waiting.", { name: name });
}

/* The one button of a turn that waits (`away_turn`): a computer plays until she is back (from her screen, or
   for a seat no device holds, from a device the teacher lets in). */
export function awayTurnButton(away) {
  return gettext("Let a computer play until %(name)s is back", { name: away.name });
}

/* The table's rules and options in one line: "Authors 1861 · The 1861 deck · name the work (any work of
   the author not held) · from memory · hints · 60 s a move · 3 hands". */
export function rulesLine(s, rulesTitle) {
  const o = s.options || {};
  const parts = [rulesTitle || s.rules, s.deck && s.deck.title];
  if (o.named_asks) parts.push(gettext("the asker names the work in the ask"));
  else if (o.name_the_work) {
    parts.push(o.answer_names === "set" ? gettext("name the work (any work of the author not held)") :
      gettext("name the work (the card received)"));
  }
  if (o.named_asks || o.name_the_work) {
    parts.push(o.works_listed ? gettext("works listed") : gettext("from memory"));
    if (o.answers === "typos") parts.push(gettext("typos forgiven"));
    if (o.hints) parts.push(gettext("hints"));
  }
  if (o.hide_scores) parts.push(gettext("scores hidden until the hand ends"));
  if (o.stand_in_after) parts.push(gettext("a computer plays for a student away %(minutes)d min", { minutes: o.stand_in_after }));
  parts.push(o.turn_seconds ? gettext("%(seconds)d s a move", { seconds: o.turn_seconds }) : gettext("no time limit"));
  if (s.match && s.match.format === "target") parts.push(ngettext("first to %(num)d point", "first to %(num)d points", s.match.value));
  else if (s.match) parts.push(ngettext("a match of %(num)d hand", "a match of %(num)d hands", s.match.value));
  return parts.filter(Boolean).join(" · ");
}

/* What the teacher can do at a seat: `shown` (at most two, in view) and `menu` (each with a sentence saying
   what it does). An action: {key, label, help, run, confirm, bot, rename}: `confirm` asks first on the page,
   `bot` offers the computer player's strength, `rename` a new name. */
export function seatActions(seat, s) {
  const shown = [], menu = [];
  const open = s.status === "lobby" || s.status === "playing", playing = s.status === "playing";
  if (!open) return { shown: shown, menu: menu };
  const name = seat.name, student = seat.kind === "human" && !!name;
  const toComputer = { key: "computer", bot: true, label: gettext("Give the seat to a computer player"),
    help: playing ? gettext("A computer plays this seat under %(name)s's name for the rest of the match; %(name)s's phone is told.", { name: name }) :
      gettext("A computer takes this seat; %(name)s's phone is told, and %(name)s can join again before the start.", { name: name }),
    confirm: playing ? gettext("Give %(name)s's seat to a computer player for the rest of the match? %(name)s's phone stops playing and says so, and %(name)s cannot ask for the seat back.", { name: name }) :
      gettext("Give %(name)s's seat to a computer player? %(name)s's phone stops playing and says so.", { name: name }),
    yes: gettext("Yes, give it to a computer") };
  const rename = { key: "rename", rename: true, label: gettext("Rename"),
    help: gettext("Changes the name on every screen and in the reports.") };
  const takeOff = { key: "take-off", label: gettext("Take %(name)s off for the match", { name: name }),
    help: gettext("A computer plays the seat, and %(name)s cannot join this table again until you press “Let back in”.", { name: name }),
    confirm: gettext("Take %(name)s off this table for the rest of the match? A computer plays the seat; %(name)s cannot join again until you let %(name)s back in.", { name: name }),
    yes: gettext("Yes, take %(name)s off", { name: name }) };
  const standIn = { key: "stand-in", label: gettext("Let a computer play until %(name)s is back", { name: name }),
    help: gettext("A computer makes %(name)s's moves while %(name)s's screen is away; %(name)s's screen takes the seat back by itself.", { name: name }) };
  if (seat.barred) {
    shown.push({ key: "let-back", label: gettext("Let back in"),
      help: gettext("%(name)s may join this table again and ask for the seat back, as an away student does; a computer plays it until you let %(name)s in.", { name: name }) });
    menu.push(rename);
  } else if (seat.stand_in) {
    menu.push(toComputer, takeOff, rename);
  } else if (seat.kind === "computer") {
    if (!playing) {
      shown.push({ key: "free", label: gettext("Free for a student"),
        help: gettext("The computer leaves; the next student to join takes this seat.") });
    }
    menu.push({ key: "strength", bot: true, label: gettext("Change strength"),
      help: gettext("The computer player plays on at the strength chosen.") }, rename);
  } else if (!name) {
    shown.push({ key: "computer", bot: true, label: gettext("Put in a computer player"),
      help: gettext("A computer plays this seat; before the start a student who joins takes it instead.") });
  } else if (seat.vacant) {
    if (playing) {
      shown.push({ key: "stand-in", label: standIn.label,
        help: gettext("A computer makes this seat's moves until %(name)s asks for it back from a device and you let %(name)s in.", { name: name }) });
      shown.push(toComputer);
    }
    menu.push(rename);
    if (playing) menu.push(takeOff);
  } else if (student) {
    if (playing && seat.presence === "away") shown.push(standIn);
    if (!playing) {
      menu.push({ key: "remove", label: gettext("Remove"), help: gettext("Frees the seat: %(name)s's device leaves the table, and another student can join.", { name: name }) });
    }
    menu.push(rename, toComputer);
    if (playing) {
      menu.push(takeOff, { key: "remove", label: gettext("Disconnect %(name)s's device", { name: name }),
        help: gettext("The device stops playing this seat; %(name)s can ask for it back from any device, and you decide.", { name: name }) });
    }
  }
  return { shown: shown.slice(0, 2), menu: menu };
}

function start(root) {
  const base = root.dataset.api;  // the table's API
  const statusLine = document.getElementById("status"), errorLine = document.getElementById("error");
  const rulesLineBox = document.getElementById("rules-line");
  const awayBox = document.getElementById("away-turn"), awayText_ = document.getElementById("away-turn-text");
  const awayButton = document.getElementById("away-turn-button");
  const timerBox = document.getElementById("timer-box"), timerNow = document.getElementById("timer-now");
  const timerForm = document.getElementById("timer-form"), timerInput = document.getElementById("turn-seconds");
  const timerOff = document.getElementById("timer-off");
  const seatsBody = document.querySelector("#seats tbody");
  const startButton = document.getElementById("start"), closeButton = document.getElementById("close");
  const pauseButton = document.getElementById("pause"), lockButton = document.getElementById("lock");
  const playLink = document.getElementById("play-link");
  const dealsBox = document.getElementById("hands-box"), dealsList = document.getElementById("hands");
  const asksBox = document.getElementById("asks-box"), asksList = document.getElementById("asks");
  const takeBox = document.getElementById("take-here-box"), takeText = document.getElementById("take-here-text");
  const takeButton = document.getElementById("take-here"), takeForm = document.getElementById("take-here-form");
  const takeQuestion = document.getElementById("take-here-question");
  const networkLine = document.getElementById("network-limited");
  const noPhoneLine = document.getElementById("no-phone");
  let state = null;
  const bots = JSON.parse(root.dataset.bots || '[["random", "random"]]');  // [id, name in the reader's language]
  const botNames = {};
  bots.forEach(function (b) { botNames[b[0]] = b[1]; });
  // What the teacher has open on the seats, kept across redraws (a move redraws the rows every few seconds):
  const openMenus = new Set();  // positions whose menu is open
  let confirming = null;        // {position, key}: a change that asks first, waiting for Yes or Cancel
  let shownTimer;               // the timer the input last showed (undefined: none yet), so typing is kept

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

  function run(seat, action, bot, newName) {
    const url = seatUrl(seat.position);
    if (action.key === "computer" || action.key === "strength") act("PATCH", url, { kind: "computer", bot: bot });
    else if (action.key === "free") act("PATCH", url, { kind: "human" });
    else if (action.key === "stand-in") act("POST", url + "/stand-in");
    else if (action.key === "take-off") act("DELETE", url + "?for_good=1");
    else if (action.key === "let-back") act("POST", url + "/let-back");
    else if (action.key === "remove") act("DELETE", url);
    else if (action.key === "rename") act("PATCH", url, { name: newName });
  }

  function draw(s) {
    state = s;
    const lobby = s.status === "lobby";
    const filled = s.seats.every(function (seat) { return !!seat.name && !seat.vacant; });
    const labels = { lobby: filled ? gettext("Everyone is here: start when you are ready.") :
        gettext("Waiting for players: start when every seat is filled, or put computer players in the empty seats."),
      playing: s.game && s.game.turn ? gettext("Playing hand %(number)d — %(name)s to play.", { number: s.match.hand, name: s.game.turn }) :
        gettext("Playing hand %(number)d.", { number: s.match.hand }),
      finished: gettext("The match is over: %(names)s won.", { names: (s.match.winners || []).join(", ") }),
      closed: gettext("This table is closed.") };
    const notes = [];
    if (s.paused) notes.push(gettext("Paused: no one can move until you press Resume."));
    if (s.locked) notes.push(gettext("Locked: no one new can join."));
    statusLine.textContent = [labels[s.status] || s.status].concat(notes).join(" ");
    rulesLineBox.textContent = rulesLine(s, root.dataset.rulesTitle);
    startButton.hidden = !lobby;
    startButton.classList.toggle("ready", lobby && filled);
    pauseButton.hidden = s.status !== "playing";
    pauseButton.textContent = s.paused ? gettext("Resume") : gettext("Pause");
    pauseButton.setAttribute("aria-pressed", String(!!s.paused));
    lockButton.hidden = s.status === "finished" || s.status === "closed";
    lockButton.textContent = s.locked ? gettext("Unlock: let students join") : gettext("Lock: no new joins");
    lockButton.setAttribute("aria-pressed", String(!!s.locked));
    closeButton.hidden = s.status === "closed";
    playLink.hidden = !s.seats.some(function (seat) { return seat.here; });
    drawAwayTurn(s);
    drawTimer(s);
    drawAsks(s);
    drawTakeHere(s);
    drawNoPhone();
    drawSeats(s);
    clear(dealsList);
    (s.hands || []).forEach(function (deal) {
      dealsList.append(el("li", {}, gettext("Hand %(number)d: %(names)s won (%(scores)s)", { number: deal.number,
        names: deal.winners.join(", "), scores: deal.players.map(function (p) { return p + " " + deal.scores[p]; }).join(", ") }), " ",
        el("a", { href: base + "/hands/" + deal.number + "/record", download: "" }, gettext("game record (YAML)"))));
    });
    dealsBox.hidden = !(s.hands || []).length;
  }

  /* The turn waits on a student whose screen is away, or on a seat no device holds: said at the top, with
     the one button that helps. */
  function drawAwayTurn(s) {
    const away = s.away_turn;
    awayBox.hidden = !away;
    if (!away) return;
    awayText_.textContent = away.empty ? awayTurnEmpty(away.name) :
      gettext("The table is waiting for %(name)s (%(away)s): it is %(name)s's turn.", { name: away.name, away: awayText(away.away_seconds) });
    awayButton.textContent = awayTurnButton(away);
    awayButton.dataset.position = away.position;
  }

  /* The turn timer as it is, and the form that changes it (kept as typed while the table redraws). */
  function drawTimer(s) {
    const seconds = (s.options || {}).turn_seconds || null;
    timerBox.hidden = !(s.status === "lobby" || s.status === "playing");
    timerNow.textContent = seconds ? gettext("Each move: %(seconds)d seconds, then a computer makes it.", { seconds: seconds }) :
      gettext("No time limit for a move.");
    timerOff.hidden = !seconds;
    if (seconds !== shownTimer) {
      shownTimer = seconds;
      timerInput.value = seconds ? String(seconds) : "";
    }
  }

  /* The seats, one row each: the name, its state in one line, the total, and what the teacher can do. A
     menu left open, a question being asked and a name being typed stay as they were. */
  function drawSeats(s) {
    const focused = document.activeElement && seatsBody.contains(document.activeElement) ? document.activeElement.id : null;
    const typed = {};
    seatsBody.querySelectorAll("input[id], select[id]").forEach(function (input) { typed[input.id] = input.value; });
    const sums = totals(s);
    clear(seatsBody);
    s.seats.forEach(function (seat) {
      const who = seat.name ? seat.name : gettext("free seat");
      const onTurn = s.status === "playing" && s.game && s.game.turn === seat.name && !!seat.name;
      const rowClass = [seat.presence === "away" ? "away" : "", onTurn ? "on-turn" : ""].join(" ").trim();
      seatsBody.append(el("tr", { "data-seat": seat.position, class: rowClass },
        el("td", { text: String(seat.position + 1) }),
        el("td", {}, el("b", { text: who }), el("br"), el("small", { class: "presence", text: seatLine(seat, s, botNames) })),
        el("td", { class: "total", "data-label": gettext("Total"), text: seat.name && s.status !== "lobby" ? String(sums[seat.name] || 0) : "" }),
        el("td", { class: "controls" }, seatControls(seat, s))));
    });
    Object.keys(typed).forEach(function (id) {
      const input = document.getElementById(id);
      if (!input) return;
      if (input.tagName !== "SELECT" || Array.from(input.options).some(function (o) { return o.value === typed[id]; })) {
        input.value = typed[id];
      }
    });
    refocus(focused);
  }

  /* Focus goes back where it was; when that control went with the change it made (a stand-in begun, a
     question answered), to what is left of its seat: its menu, else its row's first control. */
  function refocus(id) {
    if (!id) return;
    const same = document.getElementById(id);
    if (same) { same.focus(); return; }
    const position = /^seat-(\d+)-/.exec(id);
    if (!position) return;
    const row = seatsBody.querySelector("tr[data-seat='" + position[1] + "']");
    const next = document.getElementById("seat-" + position[1] + "-more") || (row && row.querySelector("button, summary, input, select"));
    if (next) next.focus();
  }

  function seatControls(seat, s) {
    const actions = seatActions(seat, s);
    const all = actions.shown.concat(actions.menu);
    const asking = confirming && confirming.position === seat.position &&
      all.find(function (a) { return a.key === confirming.key; });
    if (asking) return confirmBox(seat, asking);
    if (confirming && confirming.position === seat.position) confirming = null;  // the action went (the table moved on)
    const p = seat.position, out = [];
    actions.shown.forEach(function (action) { out.push(actionControl(seat, action, "seat-" + p + "-" + action.key, false)); });
    if (actions.menu.length) {
      const menu = el("details", { class: "seat-menu", id: "seat-" + p + "-menu", open: openMenus.has(p),
        ontoggle: function () { if (menu.open) openMenus.add(p); else openMenus.delete(p); } },
        el("summary", { id: "seat-" + p + "-more",
          "aria-label": seat.name ? gettext("More for %(name)s", { name: seat.name }) : gettext("More for seat %(number)d", { number: p + 1 }) },
        gettext("More…")),
        el("ul", { class: "seat-menu-items" }, actions.menu.map(function (action) {
          return el("li", {}, actionControl(seat, action, "seat-" + p + "-menu-" + action.key, true));
        })));
      out.push(menu);
    }
    return out;
  }

  /* One action: a button (with a strength to pick, or a name to type, where it needs one) and, in the menu,
     the sentence that says what it does. */
  function actionControl(seat, action, id, described) {
    const helpId = id + "-help";
    const attrs = { type: "submit", id: id + "-go", class: "seat-action " + action.key, "aria-describedby": helpId };
    let strength = null, newName = null;
    const parts = [];
    if (action.bot) {
      strength = el("select", { id: id + "-bot", "aria-label": gettext("Computer player's strength for seat %(number)d", { number: seat.position + 1 }) },
        bots.map(function (b) { return el("option", { value: b[0], selected: b[0] === (seat.bot || bots[0][0]) }, b[1]); }));
      parts.push(strength, " ");
    }
    if (action.rename) {
      newName = el("input", { id: id + "-name", "aria-label": gettext("New name for seat %(number)d", { number: seat.position + 1 }),
        maxlength: "24", value: seat.name || "", autocomplete: "off" });
      parts.push(newName, " ");
    }
    parts.push(el("button", attrs, action.label));
    const form = el("form", { class: "seat-action-form", onsubmit: function (e) {
      e.preventDefault();
      if (action.confirm) {
        confirming = { position: seat.position, key: action.key, bot: strength ? strength.value : null };
        drawSeats(state);
        const cancel = document.getElementById("seat-" + seat.position + "-cancel");
        if (cancel) cancel.focus();
        return;
      }
      run(seat, action, strength ? strength.value : null, newName ? newName.value : null);
    } }, parts);
    // (in the menu the sentence is shown; beside a button in view a screen reader says it)
    return el("div", { class: "seat-action-item" }, form,
      el(described ? "p" : "span", { class: described ? "seat-help" : "visually-hidden", id: helpId, text: action.help }));
  }

  /* The question a change that cannot be undone asks on the page, with Yes and Cancel. */
  function confirmBox(seat, action) {
    const p = seat.position, bot = confirming.bot;
    const questionId = "seat-" + p + "-question";
    function done(back) {
      confirming = null;
      drawSeats(state);
      const target = document.getElementById(back);
      if (target) target.focus();
    }
    return el("div", { class: "seat-confirm", role: "group", "aria-labelledby": questionId },
      el("p", { id: questionId, class: "seat-question", text: action.confirm }),
      el("p", { class: "seat-confirm-buttons" },
        el("button", { type: "button", class: "danger", id: "seat-" + p + "-yes", onclick: function () {
          confirming = null;
          run(seat, action, bot, null);
        } }, action.yes), " ",
        el("button", { type: "button", id: "seat-" + p + "-cancel", onclick: function () { done("seat-" + p + "-more"); } },
          gettext("Cancel"))));
  }

  /* Where the seat's own screen is, beside a device that asks for the seat: a screen still open makes a
     prank easy to tell from a lost phone. */
  function askScreenText(ask) {
    if (ask.screen === "here") return gettext("%(name)s's other screen is still open: refuse if it is not %(name)s asking.", { name: ask.name });
    if (ask.screen !== "away") return gettext("No other screen holds %(name)s's seat now.", { name: ask.name });
    if (ask.screen_away_seconds === null || ask.screen_away_seconds === undefined) return gettext("%(name)s's other screen is away.", { name: ask.name });
    const minutes = Math.floor(ask.screen_away_seconds / 60);
    return minutes < 1 ? gettext("%(name)s's other screen has been away for less than a minute.", { name: ask.name }) :
      gettext("%(name)s's other screen has been away for %(minutes)d min.", { name: ask.name, minutes: minutes });
  }

  /* Devices asking for a student's seat back, each with what it says of itself, when it asked and where the
     seat's own screen is: the teacher lets one in (the others of that seat are told no) or refuses it, in one click. */
  function drawAsks(s) {
    const asks = s.asks || [];
    const perSeat = {};
    asks.forEach(function (ask) { perSeat[ask.position] = (perSeat[ask.position] || 0) + 1; });
    clear(asksList);
    asks.forEach(function (ask) {
      const body = { ask: ask.id }, detailsId = "ask-details-" + ask.id, screenId = "ask-screen-" + ask.id;
      const others = perSeat[ask.position] - 1;
      asksList.append(el("li", { "data-seat": ask.position, "data-ask": ask.id },
        el("span", { class: "ask-text" },
          gettext("%(name)s (seat %(number)d) wants their seat back (from a new device)", { name: ask.name, number: ask.position + 1 }),
          el("br"), el("small", { class: "ask-device", id: detailsId, text: askDetails(ask) }),
          el("br"), el("small", { class: "ask-screen" + (ask.screen === "here" ? " open" : ""), id: screenId, text: askScreenText(ask) }),
          others ? [el("br"), el("small", { class: "ask-others",
            text: gettext("Several devices ask for this seat: let in the one in front of you; the others are told no.") })] : null),
        " ",
        el("span", { class: "ask-buttons" },
          el("button", { type: "button", class: "primary let-in", "aria-label": gettext("Let %(name)s in", { name: ask.name }),
            "aria-describedby": detailsId + " " + screenId,
            onclick: function () { act("POST", seatUrl(ask.position) + "/let-in", body); } }, gettext("Let in")), " ",
          el("button", { type: "button", class: "refuse", "aria-label": gettext("Refuse %(name)s", { name: ask.name }),
            "aria-describedby": detailsId + " " + screenId,
            onclick: function () { act("POST", seatUrl(ask.position) + "/refuse", body); } }, gettext("Refuse")))));
    });
    asksBox.hidden = !asks.length;
  }

  /* Pass-and-play seats that another browser holds (the teacher's laptop, when this is the classroom tablet):
     one press, asked first, moves them here; the other browser stops showing their hands. */
  function drawTakeHere(s) {
    const open = s.status === "lobby" || s.status === "playing";
    const names = s.seats.filter(function (seat) { return seat.passed_around && !seat.here; })
      .map(function (seat) { return seat.name; });
    takeBox.hidden = !open || !names.length;
    if (takeBox.hidden) { takeForm.hidden = true; takeButton.hidden = false; return; }
    const together = list(names);
    takeText.textContent = ngettext("%(names)s plays on another device, passed from player to player.",
      "%(names)s play on another device, passed from player to player.", names.length, { names: together });
    takeQuestion.textContent = ngettext("Play as %(names)s on this device? The other device stops showing this seat's hand, and says so.",
      "Play as %(names)s on this device? The other device stops showing these seats' hands, and says so.",
      names.length, { names: together });
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

  takeButton.addEventListener("click", function () {
    takeButton.hidden = true;
    takeForm.hidden = false;
    document.getElementById("take-here-cancel").focus();
  });
  document.getElementById("take-here-cancel").addEventListener("click", function () {
    takeForm.hidden = true;
    takeButton.hidden = false;
    takeButton.focus();
  });
  awayButton.addEventListener("click", function () { act("POST", seatUrl(awayButton.dataset.position) + "/stand-in"); });
  timerForm.addEventListener("submit", function (e) {
    e.preventDefault();
    const typed = timerInput.value.trim();  // ("" too for what a number field cannot read)
    if (!typed) { showError(gettext("Type a number of seconds from 10 to 600, or press “No time limit”.")); return; }
    act("POST", base + "/timer", { seconds: /^\d+$/.test(typed) ? Number(typed) : typed });  // (the server says what is wrong)
  });
  timerOff.addEventListener("click", function () { act("POST", base + "/timer", { seconds: null }); });
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
