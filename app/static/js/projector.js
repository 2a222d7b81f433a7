/* The projector: the public view only, in large type, for the whole class. */
"use strict";

(function () {
  const AC = window.AC, el = AC.el;
  const root = document.getElementById("projector");
  if (!root) return;
  const statusLine = document.getElementById("status"), view = document.getElementById("table-view");
  const qr = document.getElementById("qr");
  let index = null;
  const announcer = AC.announcer(root);  // each move said for the whole table

  function draw(s) {
    const game = s.game;
    statusLine.textContent = s.status === "lobby" ? AC.gettext("Waiting for players…") :
      s.status === "finished" ? AC.gettext("The match is over.") : s.status === "closed" ? AC.gettext("This table is closed.") :
        game && game.turn ? AC.gettext("Hand %(number)d · %(name)s to play", { number: s.match.hand, name: game.turn }) :
          AC.gettext("Hand %(number)d", { number: s.match.hand });
    if (s.paused && s.status === "playing") statusLine.textContent = AC.gettext("Paused by the teacher.") + " " + statusLine.textContent;
    qr.hidden = s.status !== "lobby";
    AC.renderTable(view, s, index, { openLog: false, openSets: true, logLength: 12 });
    const finished = s.hands || [];
    if (finished.length) {
      const box = el("section", { class: "summary", id: "summary" });
      AC.renderSummary(box, s, finished[finished.length - 1]);
      view.prepend(box);
    }
    AC.labelCells(view);
    announcer.update(s, index, null);
  }

  AC.api("GET", root.dataset.deckUrl).then(function (deck) {
    index = AC.deckIndex(deck);
    AC.poller(function () { return root.dataset.api; }, draw, function (m) { statusLine.textContent = m; }).start();
  });
})();
