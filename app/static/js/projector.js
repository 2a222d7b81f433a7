/* The projector: the public view only, in large type, for the whole class. */
import { announcer as makeAnnouncer, labelCells } from "./a11y.js";
import { api, el, gettext, poller } from "./common.js";
import { deckIndex } from "./deck.js";
import { renderSummary, renderTable } from "./table.js";

function start(root) {
  const statusLine = document.getElementById("status"), view = document.getElementById("table-view");
  const qr = document.getElementById("qr");
  let index = null;
  const announcer = makeAnnouncer(root);  // each move said for the whole table

  function draw(s) {
    const game = s.game;
    statusLine.textContent = s.status === "lobby" ? gettext("Waiting for players…") :
      s.status === "finished" ? gettext("The match is over.") : s.status === "closed" ? gettext("This table is closed.") :
        game && game.turn && s.match.tie_break_hand ? gettext("Tie-break hand · %(name)s to play", { name: game.turn }) :
        game && game.turn ? gettext("Hand %(number)d · %(name)s to play", { number: s.match.hand, name: game.turn }) :
          gettext("Hand %(number)d", { number: s.match.hand });
    if (s.paused && s.status === "playing") statusLine.textContent = gettext("Paused by the teacher.") + " " + statusLine.textContent;
    qr.hidden = s.status !== "lobby";
    renderTable(view, s, index, { openLog: false, openSets: true, logLength: 12 });
    const finished = s.hands || [];
    if (finished.length) {
      const box = el("section", { class: "summary", id: "summary" });
      renderSummary(box, s, finished[finished.length - 1]);
      view.prepend(box);
    }
    labelCells(view);
    announcer.update(s, index, null);
  }

  api("GET", root.dataset.deckUrl).then(function (deck) {
    index = deckIndex(deck);
    poller(function () { return root.dataset.api; }, draw, function (m) { statusLine.textContent = m; }).start();
  });
}

const root = document.getElementById("projector");
if (root) start(root);
