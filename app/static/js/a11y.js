/* Accessibility of the table screens (play, projector): a live region that says each move once, from the
   point of view of the seat on screen ("Boris asked you for Jacks; you gave 2 cards: J♠, J♥."; the
   sentences are events.js's, the same as the log's), and the column names of the players' tables, which
   narrow screens show beside each figure. */
import { clear, el, gettext, list, ngettext } from "./common.js";
import { withCards } from "./deck.js";
import { say } from "./events.js";

const KEEP = 6;  // paragraphs kept in the live region

/* The live region: update(state, index, me) after each drawing of the screen says what happened since the
   last one. The moves come from the log of the hand (or, where the rules keep no log, the last move). */
export function announcer(parent) {
  const region = el("div", { id: "announcements", class: "visually-hidden", "aria-live": "polite" });
  parent.prepend(region);
  let seen = null;  // what the last update saw: {deal, log, recent, turn, status, deals}

  function speak(lines) {
    if (!lines.length) return;
    region.append(el("p", { text: lines.join(" ") }));
    while (region.childNodes.length > KEEP) region.removeChild(region.firstChild);
  }

  function update(s, index, me) {
    index = withCards(index, s);
    const game = s.game;
    const deal = s.match ? s.match.hand : 0;  // the API's "hand": the deal's number
    const log = game && game.log ? game.log : null;
    const now = { deal: deal, log: log ? log.length : 0, recent: JSON.stringify(s.recent || null), status: s.status,
      turn: !!(game && game.to_act && !(game.prompts && game.prompts.length)), deals: (s.hands || []).length };
    const before = seen;
    seen = now;
    if (!before || !index) return;  // the screen as first drawn: nothing has happened yet
    const lines = [];
    const hide = new Set(game && game.prompts ? game.prompts : []);
    function tell(events) {
      events.forEach(function (event) {
        const line = say(event, index, me, hide);
        if (line) lines.push(line);
      });
    }
    // The moves of this deal since the last update, then the end of a deal or match, then a new deal.
    if (game && deal === before.deal) {
      if (log) tell(log.slice(before.log));
      else if (now.recent !== before.recent && s.recent) tell(s.recent);
    }
    const finished = s.hands || [];
    if (now.deals > before.deals && finished.length) {
      const last = finished[finished.length - 1];
      lines.push(ngettext("Hand %(number)s is over: %(names)s won it.", "Hand %(number)s is over: %(names)s won it.",
        last.winners.length, { number: last.number, names: list(last.winners) }));
    }
    if (s.status === "finished" && before.status !== "finished") {
      lines.push(ngettext("The match is over: %(names)s won it.", "The match is over: %(names)s won it.",
        s.match.winners.length, { names: list(s.match.winners) }));
    } else if (s.status === "closed" && before.status !== "closed") {
      lines.push(gettext("The teacher has closed this table."));
    }
    if (game && s.status === "playing" && deal !== before.deal) {
      lines.push(gettext("Hand %(number)s has been dealt.", { number: deal }));
      if (log) tell(log);
    }
    if (now.turn && (!before.turn || lines.length)) lines.push(gettext("Your turn."));
    // A set of hers is (or may be) challenged: she names its works from memory, so what was said while its
    // cards were in her hand is taken out of the region first.
    if (game && game.challenge && me !== null && game.challenge.player === me) clear(region);
    speak(lines);
  }

  /* Say one sentence now (a verdict beside the control the student used). */
  function tell(text) { speak([text]); }

  return { update: update, region: region, tell: tell };
}

/* Each cell of the players' and scores' tables gets its column's name (data-label): a narrow screen
   shows the rows as blocks, "Score: 3", the header row out of sight. */
export function labelCells(container) {
  container.querySelectorAll("table.players, table.final-scores").forEach(function (table) {
    const names = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) { return th.textContent; });
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        if (cell.tagName === "TD" && names[i]) cell.setAttribute("data-label", names[i]);
      });
    });
  });
}
