/* The teacher's overview of every open table, refreshed while it is open. */
import { clear, el, gettext, poller, totals } from "./common.js";

function start(root) {
  const grid = document.getElementById("tables"), body = grid.querySelector("tbody");
  const empty = document.getElementById("empty");

  function draw(data) {
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
      body.append(el("tr", { "data-code": t.code },
        el("td", {}, el("b", { class: "code", text: t.code })),
        el("td", { text: (t.name ? t.name + " · " : "") + (t.rules_title || t.rules) + " · " + t.deck.title }),
        el("td", { text: t.status === "playing" ? gettext("hand %(number)d", { number: t.match.hand }) : status }),
        el("td", {}, players),
        el("td", { text: t.turn || "" }),
        el("td", {}, el("a", { href: t.links.projector }, gettext("projector")),
          t.teacher ? [" · ", el("a", { href: t.links.manage }, gettext("manage"))] : null)));
    });
  }
  poller(function () { return root.dataset.api; }, function (data) { draw(data); }).start();
}

const root = document.getElementById("overview");
if (root) start(root);
