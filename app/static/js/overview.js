/* The teacher's overview of every open table, refreshed while it is open. */
"use strict";

(function () {
  const AC = window.AC, el = AC.el;
  const root = document.getElementById("overview");
  if (!root) return;
  const grid = document.getElementById("tables"), body = grid.querySelector("tbody");
  const empty = document.getElementById("empty");

  function draw(data) {
    AC.clear(body);
    empty.hidden = data.tables.length > 0;
    grid.hidden = !empty.hidden;  // no empty grid of headings under "No table is open."
    data.tables.forEach(function (t) {
      const totals = AC.totals(t);
      const players = el("ul", { class: "plain" }, t.seats.map(function (seat) {
        if (!seat.name) return el("li", { class: "free", text: AC.gettext("free seat") });
        const hand = t.scores ? t.scores[seat.name] : null;
        const row = { name: seat.kind === "computer" ? AC.gettext("%(name)s (computer)", { name: seat.name }) : seat.name,
          hand: hand, total: totals[seat.name] || 0 };
        return el("li", {}, hand !== null && hand !== undefined ?
          AC.gettext("%(name)s: %(hand)s this hand, %(total)s in the match", row) : AC.gettext("%(name)s: %(total)s in the match", row));
      }));
      const status = { lobby: AC.gettext("waiting for players"), finished: AC.gettext("finished"),
        closed: AC.gettext("closed") }[t.status] || t.status;
      body.append(el("tr", { "data-code": t.code },
        el("td", {}, el("b", { class: "code", text: t.code })),
        el("td", { text: (t.name ? t.name + " · " : "") + (t.rules_title || t.rules) + " · " + t.deck.title }),
        el("td", { text: t.status === "playing" ? AC.gettext("hand %(number)d", { number: t.match.hand }) : status }),
        el("td", {}, players),
        el("td", { text: t.turn || "" }),
        el("td", {}, el("a", { href: t.links.projector }, AC.gettext("projector")),
          t.teacher ? [" · ", el("a", { href: t.links.manage }, AC.gettext("manage"))] : null)));
    });
  }
  AC.poller(function () { return root.dataset.api; }, function (data) { draw(data); }).start();
})();
