/* The teacher's overview of every open table, refreshed while it is open: "Pause all" with what it did, and
   each table whose turn waits on an away student (or on a seat no device holds) flagged at the top with the
   one button that helps. */
import { api, clear, el, gettext, ngettext, poller, totals } from "./common.js";
import { awayText, awayTurnButton } from "./manage.js";

/* The tables "Pause all" pauses and resumes, and what the button does next: resume when every one of
   them is paused already. */
export function pauseAllState(tables) {
  const live = tables.filter(function (t) { return t.status === "lobby" || t.status === "playing"; });
  const paused = live.filter(function (t) { return t.paused; }).length;
  return { count: live.length, paused: paused, allPaused: live.length > 0 && paused === live.length };
}

function start(root) {
  const grid = document.getElementById("tables"), body = grid.querySelector("tbody");
  const empty = document.getElementById("empty"), errorLine = document.getElementById("error");
  const pauseAll = document.getElementById("pause-all"), pauseState = document.getElementById("pause-all-state");
  const waitingBox = document.getElementById("waiting"), waitingList = document.getElementById("waiting-tables");
  let shown = null;

  function showError(message) { errorLine.textContent = message || ""; errorLine.hidden = !message; }

  function tableApi(code) { return root.dataset.api + "/" + encodeURIComponent(code); }

  async function act(method, url, payload) {
    showError("");
    try {
      await api(method, url, payload);
    } catch (error) {
      showError(error.message);
    }
    poll.now();
  }

  function drawPauseAll(tables) {
    const now = pauseAllState(tables);
    pauseAll.hidden = now.count === 0;
    pauseAll.textContent = now.allPaused ? gettext("Resume all tables") : gettext("Pause all tables");
    pauseAll.setAttribute("aria-pressed", String(now.allPaused));
    pauseState.textContent = now.count === 0 ? "" : now.allPaused ?
      ngettext("%(num)d table is paused: no one can move.", "All %(num)d tables are paused: no one can move.", now.count) :
      now.paused ? gettext("%(paused)d of %(count)d tables paused.", { paused: now.paused, count: now.count }) :
        ngettext("Play goes on at %(num)d table.", "Play goes on at all %(num)d tables.", now.count);
  }

  function drawWaiting(tables) {
    const waiting = tables.filter(function (t) { return t.away_turn; });
    const focusedCode = document.activeElement && waitingList.contains(document.activeElement) ?
      document.activeElement.dataset.code : null;
    clear(waitingList);
    waiting.forEach(function (t) {
      const away = t.away_turn;
      waitingList.append(el("li", { "data-code": t.code },
        el("span", { class: "away-turn-text", text: away.empty ?
          gettext("Table %(code)s: no device holds %(name)s's seat, and it is %(name)s's turn.", { code: t.code, name: away.name }) :
          gettext("Table %(code)s is waiting for %(name)s (%(away)s): it is %(name)s's turn.",
            { code: t.code, name: away.name, away: awayText(away.away_seconds) }) }), " ",
        el("button", { type: "button", class: "primary stand-in", "data-code": t.code, onclick: function () {
          act("POST", tableApi(t.code) + "/seats/" + away.position + "/stand-in");
        } }, awayTurnButton(away))));
    });
    waitingBox.hidden = !waiting.length;
    const again = focusedCode && waitingList.querySelector("button[data-code='" + focusedCode + "']");
    if (again) again.focus();
  }

  function draw(data) {
    shown = data.tables;
    drawPauseAll(data.tables);
    drawWaiting(data.tables);
    clear(body);
    empty.hidden = data.tables.length > 0;
    grid.hidden = !empty.hidden;  // no empty grid of headings under "No table is open."
    data.tables.forEach(function (t) {
      const sums = totals(t);
      const players = el("ul", { class: "plain" }, t.seats.map(function (seat) {
        if (!seat.name) return el("li", { class: "free", text: gettext("free seat") });
        const hand = t.scores ? t.scores[seat.name] : null;
        const row = { name: seat.kind === "computer" ? gettext("%(name)s (computer)", { name: seat.name }) : seat.name,
          hand: hand, total: sums[seat.name] || 0 };
        if (t.scores_hidden) {  // hide_scores: the server sends no score of the hand being played
          return el("li", {}, gettext("%(name)s: this hand's score hidden until the end of the hand, %(total)s in the match", row));
        }
        return el("li", {}, hand !== null && hand !== undefined ?
          gettext("%(name)s: %(hand)s this hand, %(total)s in the match", row) : gettext("%(name)s: %(total)s in the match", row));
      }));
      const status = { lobby: gettext("waiting for players"), finished: gettext("finished"),
        closed: gettext("closed") }[t.status] || t.status;
      const where = t.status === "playing" ? gettext("hand %(number)d", { number: t.match.hand }) : status;
      const turn = !t.away_turn ? (t.turn || "") : t.away_turn.empty ? gettext("%(name)s (no device)", { name: t.turn }) :
        gettext("%(name)s (away)", { name: t.turn });
      body.append(el("tr", { "data-code": t.code, class: t.away_turn ? "waiting" : "" },
        el("td", { "data-label": gettext("Code") }, el("b", { class: "code", text: t.code })),
        el("td", { "data-label": gettext("Table"), text: (t.name ? t.name + " · " : "") + (t.rules_title || t.rules) + " · " + t.deck.title }),
        el("td", { "data-label": gettext("Status"),
          text: t.paused && (t.status === "lobby" || t.status === "playing") ? where + " · " + gettext("paused") : where }),
        el("td", { "data-label": gettext("Players and scores") }, players),
        el("td", { "data-label": gettext("Turn"), text: turn }),
        el("td", {}, el("a", { href: t.links.projector }, gettext("projector")),
          t.teacher ? [" · ", el("a", { href: t.links.manage }, gettext("manage"))] : null)));
    });
  }

  pauseAll.addEventListener("click", function () {
    if (!shown) return;
    act("POST", root.dataset.pauseAll, { paused: !pauseAllState(shown).allPaused });
  });
  let trouble = false;  // the error line says the poll's trouble (gone with the next answer), not an action's refusal
  const poll = poller(function () { return root.dataset.api; },
    function (data) { if (trouble) { trouble = false; showError(""); } draw(data); },
    function (message) { trouble = true; showError(message); });
  poll.start();
}

const root = document.getElementById("overview");
if (root) start(root);
