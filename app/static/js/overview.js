/* The teacher's overview of every open table, refreshed while it is open. */
"use strict";

(function () {
  const AC = window.AC, el = AC.el;
  const root = document.getElementById("overview");
  if (!root) return;
  const body = document.querySelector("#tables tbody"), empty = document.getElementById("empty");

  function draw(data) {
    AC.clear(body);
    empty.hidden = data.tables.length > 0;
    data.tables.forEach(function (t) {
      const totals = AC.totals(t);
      const players = el("ul", { class: "plain" }, t.seats.map(function (seat) {
        if (!seat.name) return el("li", { class: "free", text: "free seat" });
        const hand = t.scores ? t.scores[seat.name] : null;
        return el("li", {}, seat.name + (seat.kind === "computer" ? " (computer)" : "") + ": " +
          (hand !== null && hand !== undefined ? hand + " this hand, " : "") + (totals[seat.name] || 0) + " in the match");
      }));
      body.append(el("tr", { "data-code": t.code },
        el("td", {}, el("b", { class: "code", text: t.code })),
        el("td", { text: (t.name ? t.name + " · " : "") + t.rules + " · " + t.deck.title }),
        el("td", { text: t.status === "playing" ? "hand " + t.match.hand : t.status }),
        el("td", {}, players),
        el("td", { text: t.turn || "" }),
        el("td", {}, el("a", { href: t.links.projector }, "projector"), t.teacher ? [" · ", el("a", { href: t.links.manage }, "manage")] : null)));
    });
  }
  AC.poller(function () { return root.dataset.api; }, function (data) { draw(data); }).start();
})();
