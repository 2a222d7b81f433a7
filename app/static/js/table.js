/* The public part of a table, drawn the same on the play screen and the projector: players, counts, sets
   down, scores, turn, last ask and answer, the log of the hand; and the end of a hand and of the match. */
import { setStack } from "./cards.js";
import { clear, el, fillNodes, gettext, list, ngettext, totals } from "./common.js";
import { setName, setTitles, withCards } from "./deck.js";
import { describe } from "./events.js";

function seatLabel(state, name) {
  const seat = state.seats.find(function (s) { return s.name === name; });
  if (!seat) return name;
  let label = name;
  if (seat.stand_in) label = gettext("%(name)s (away: a computer plays for them)", { name: label });
  else if (seat.kind === "computer") label = gettext("%(name)s (computer)", { name: label });
  if (seat.vacant && state.status !== "lobby") label = gettext("%(name)s (away)", { name: label });
  return label;
}

/* A computer player's seat (not a student's with a computer standing in: that scores no bonus at all). */
export function isComputer(state, name) {
  const seat = state.seats.find(function (s) { return s.name === name; });
  return !!seat && seat.kind === "computer" && !seat.stand_in;
}

/* A bonus cell: a computer names no work from memory, so its bonus is not set beside the students' (the
   scoring is the engine's, unchanged: only the column shows "—", and a note under the table says why). */
function bonusCell(state, name, value) {
  return isComputer(state, name) ? el("td", { class: "bonus computer-bonus", text: "—" }) : el("td", { class: "bonus", text: String(value || 0) });
}
export function computerBonusNote(state, players) {
  if (!bonus(state) || !players.some(function (name) { return isComputer(state, name); })) return null;
  return el("p", { class: "computer-bonus-note muted", text: gettext("— Computers do not name works from memory: their bonus is not shown beside the students'.") });
}

/* Is the name-the-work bonus played at this table, and kept apart from the sets? */
function bonus(state) { return !!(state.options && (state.options.name_the_work || state.options.named_asks)); }
function bonusApart(state) { return bonus(state) && state.options.bonus_in_score === false; }

/* The public part of a table: players, counts, sets down, scores, turn, last ask and answer, log. */
export function renderTable(container, state, index, options) {
  options = options || {};
  index = withCards(index, state);
  clear(container);
  const game = state.game;
  if (!game) {
    container.append(el("h2", { text: gettext("Players") }));
    const list = el("ul", { class: "lobby-seats", id: "lobby-seats" });
    state.seats.forEach(function (seat) {
      list.append(el("li", { class: seat.name ? "taken" : "free" },
        seat.name ? seatLabel(state, seat.name) : gettext("a free seat")));
    });
    container.append(list);
    return;
  }
  const sum = totals(state);
  const turnLine = el("p", { class: "turn", id: "turn" });
  if (game.turn) {
    turnLine.append.apply(turnLine, fillNodes(gettext("Turn: %(name)s"), { name: el("b", { text: game.turn }) }));
  } else {
    turnLine.append(game.finished ? gettext("The hand is over.") : gettext("Waiting."));
  }
  container.append(turnLine);

  const table = el("table", { class: "players", id: "players" });
  // hide_scores: no score or bonus while the hand is played (the server sends none); the sets stay.
  const hidden = !!state.scores_hidden;
  const bonusOn = bonus(state) && !hidden;
  const head = el("tr", {}, el("th", { scope: "col", text: gettext("Player") }), el("th", { scope: "col", text: gettext("Cards") }),
    el("th", { scope: "col", text: gettext("Sets down") }), bonusOn ? el("th", { scope: "col", text: gettext("Bonus") }) : null,
    hidden ? null : el("th", { scope: "col", text: bonusApart(state) ? gettext("Sets") : gettext("Score") }),
    el("th", { scope: "col", text: gettext("Match") }));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  game.players.forEach(function (name, i) {
    const books = (game.books[name] || []).map(function (setId) { return setStack(index, setId); });
    const team = game.teams ? (game.teams[0].indexOf(name) >= 0 ? "A" : "B") : null;
    const row = el("tr", { class: (name === game.turn ? "on-turn " : "") + (options.you === name ? "you" : ""), "data-player": name },
      el("th", { scope: "row" }, seatLabel(state, name), name === game.dealer ? el("span", { class: "tag", text: gettext("dealer") }) : null,
        team ? el("span", { class: "tag", text: gettext("team %(team)s", { team: team }) }) : null,
        name === game.turn ? el("span", { class: "tag turn-tag", text: gettext("to play") }) : null,
        options.you === name ? el("span", { class: "tag", text: gettext("you") }) : null),
      el("td", { class: "count", text: String(game.hand_counts[name]) }),
      el("td", { class: "books" }, books.length ? books : "—"),
      bonusOn ? bonusCell(state, name, game.bonus[name]) : null,
      hidden ? null : el("td", { class: "score", text: String(game.scores[name]) }),
      el("td", { class: "total", text: String(sum[name] || 0) }));
    body.append(row);
  });
  table.append(body);
  if (hidden) {  // said before the players, so the match totals in the rows are not read as this hand's
    container.append(el("p", { class: "scores-hidden", id: "scores-hidden",
      text: gettext("This hand's scores are hidden until the end of the hand.") }));
  }
  container.append(table);
  const note = bonusOn ? computerBonusNote(state, game.players) : null;
  if (note) container.append(note);

  if (game.teams) {
    const teams = el("p", { class: "teams" });
    game.teams.forEach(function (members, t) {
      const books = (game.team_books[t] || []).map(function (s) { return setName(index, s); });
      const sets = books.join(", ") || gettext("no sets yet");
      teams.append(el("span", { class: "team" }, hidden ?
        gettext("Team %(team)s (%(members)s): %(sets)s", { team: "AB"[t], members: members.join(", "), sets: sets }) :
        gettext("Team %(team)s (%(members)s): %(score)s — %(sets)s", {
          team: "AB"[t], members: members.join(", "), score: game.team_scores[t], sets: sets })));
    });
    if (game.cancelled.length) {
      teams.append(el("span", { class: "team" }, gettext("Cancelled: %(sets)s",
        { sets: game.cancelled.map(function (s) { return setName(index, s); }).join(", ") })));
    }
    container.append(teams);
  }
  const down = [];
  game.players.forEach(function (name) {
    (game.books[name] || []).forEach(function (setId) { down.push([setId, name]); });
  });
  if (game.team_books) {
    const named = new Set(down.map(function (d) { return d[0]; }));
    game.team_books.forEach(function (books, t) {
      books.forEach(function (setId) { if (!named.has(setId)) down.push([setId, gettext("team %(team)s", { team: "AB"[t] })]); });
    });
  }
  if (down.length) {
    container.append(el("details", { class: "sets-down", open: options.openSets || false },
      el("summary", { text: ngettext("Sets down (%(num)d)", "Sets down (%(num)d)", down.length) }),
      el("ul", { id: "sets-down" }, down.map(function (d) {
        const set = index.sets[d[0]];
        return el("li", {}, el("b", { text: setName(index, d[0]) }), " (" + d[1] + "): ", setTitles(index, d[0]).join(" · "));
      }))));
  }
  if (state.options.stock || game.stock > 0) {  // (two players of Quartett: a talon without the stock option)
    container.append(el("p", { class: "stock", text: ngettext("Stock: %(num)d card", "Stock: %(num)d cards", game.stock) }));
  }
  const last = el("div", { class: "last", id: "last" });
  const hide = new Set(game.prompts || []);
  if (game.last_ask) last.append(el("p", { class: "last-ask", text: gettext("Last ask: %(event)s", { event: describe(game.last_ask, index, hide) }) }));
  if (state.last_answer) last.append(el("p", { class: "last-answer", text: gettext("Last answer: %(event)s", { event: describe(state.last_answer, index) }) }));
  container.append(last);

  if (game.log) {
    const log = el("ol", { class: "log", id: "log", reversed: true, tabindex: "0" });
    game.log.slice().reverse().slice(0, options.logLength || 200).forEach(function (event) {
      log.append(el("li", { text: describe(event, index, hide) }));
    });
    container.append(el("details", { class: "log-box", open: options.openLog || false },
      el("summary", { text: gettext("Log of the hand") }), log));
  }
}

/* Did these winners tie, or win together as one team? */
function tied(winners, teams) {
  if (winners.length < 2) return false;
  return !(teams && teams.some(function (members) { return winners.every(function (w) { return members.indexOf(w) >= 0; }); }));
}

/* The one sentence of the match's end: who won it, with their points ("Anna won the match with 12 points!"). */
export function matchWinnerText(state) {
  const winners = state.match.winners || [];
  if (!winners.length) return gettext("The match is over.");
  const hands = state.hands || [];
  const teams = hands.length ? hands[hands.length - 1].teams : null;
  const points = totals(state)[winners[0]] || 0;
  const names = list(winners);
  return tied(winners, teams) ?
    ngettext("%(names)s tied for the match with %(num)d point each!", "%(names)s tied for the match with %(num)d points each!", points, { names: names }) :
    ngettext("%(names)s won the match with %(num)d point!", "%(names)s won the match with %(num)d points!", points, { names: names });
}

/* Who won one hand ("Anna won hand 2."). */
export function handWinnerText(deal) {
  const winners = deal.winners || [];
  return tied(winners, deal.teams) ? gettext("%(names)s tied for hand %(number)d.", { names: list(winners), number: deal.number }) :
    gettext("%(names)s won hand %(number)d.", { names: list(winners), number: deal.number });
}

/* End of a hand, and of the match: one heading that says who won (the match's winners with their points,
   or the hand's with a line that the next hand is coming), then the scores. */
export function renderSummary(container, state, deal) {
  clear(container);
  const matchOver = state.match.finished;
  if (matchOver) {
    container.append(el("h2", { class: "winners", id: "match-winners", text: matchWinnerText(state) }));
  } else {
    container.append(el("h2", { class: "winners", id: "hand-winners", text: handWinnerText(deal) }));
    // The next hand is dealt at once; its first move waits a moment (HAND_PAUSE_SECONDS).
    const next = state.match.hand > deal.number ? state.match.hand : deal.number + 1;
    const begun = state.match.hand > deal.number && state.game && state.game.log && state.game.log.length > 0;
    container.append(el("p", { class: "next-hand", text: begun ? gettext("Hand %(number)d has begun.", { number: next }) :
      gettext("Hand %(number)d starts in a moment.", { number: next }) }));
  }
  const table = el("table", { class: "final-scores", id: "final-scores" });
  const bonusOn = bonus(state);
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: gettext("Player") }), el("th", { scope: "col", text: gettext("Sets") }),
    bonusOn ? el("th", { scope: "col", text: gettext("Bonus") }) : null, el("th", { scope: "col", text: gettext("Hand") }),
    el("th", { scope: "col", text: gettext("Match total") }))));
  const sum = totals(state);
  const body = el("tbody");
  deal.players.forEach(function (name) {
    body.append(el("tr", { "data-player": name }, el("th", { scope: "row", text: name }),
      el("td", { text: String((deal.books[name] || []).length) }), bonusOn ? bonusCell(state, name, deal.bonus[name]) : null,
      el("td", { class: "score", text: String(deal.scores[name]) }), el("td", { class: "total", text: String(sum[name] || 0) })));
  });
  table.append(body);
  container.append(table);
  const note = computerBonusNote(state, deal.players);
  if (note) container.append(note);
  if (deal.teams) {
    container.append(el("p", { text: deal.teams.map(function (m, t) {
      return gettext("Team %(team)s: %(score)s", { team: "AB"[t], score: deal.team_scores[t] });
    }).join(" · ") }));
  }
  if (matchOver && state.hands.length > 1) {
    const standings = el("ol", { class: "standings" });
    state.standings.forEach(function (row) { standings.append(el("li", { text: row.name + ": " + row.total })); });
    container.append(el("h3", { text: gettext("Standings") }), standings);
  }
}
