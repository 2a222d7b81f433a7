/* The projector: the public view only, in large type, for the whole class. */
"use strict";

(function () {
  const AC = window.AC, el = AC.el;
  const root = document.getElementById("projector");
  if (!root) return;
  const statusLine = document.getElementById("status"), view = document.getElementById("table-view");
  const qr = document.getElementById("qr");
  let index = null;

  function draw(s) {
    const game = s.game;
    statusLine.textContent = s.status === "lobby" ? "Waiting for players…" : s.status === "finished" ? "The match is over." :
      s.status === "closed" ? "This table is closed." : "Hand " + s.match.hand + (game && game.turn ? " · " + game.turn + " to play" : "");
    qr.hidden = s.status !== "lobby";
    AC.renderTable(view, s, index, { openLog: false, openSets: true, logLength: 12 });
    const finished = s.hands || [];
    if (finished.length) {
      const box = el("section", { class: "summary", id: "summary" });
      AC.renderSummary(box, s, finished[finished.length - 1]);
      view.prepend(box);
    }
  }

  AC.api("GET", root.dataset.deckUrl).then(function (deck) {
    index = AC.deckIndex(deck);
    AC.poller(function () { return root.dataset.api; }, draw, function (m) { statusLine.textContent = m; }).start();
  });
})();
