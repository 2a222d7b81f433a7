/* The projector: the public view only, for a whole class to read from the back row of the room. Before
   play, the join address, the code and the QR code, large, with the players who have joined; during play,
   one status line, one tile per seat (cards in hand, sets laid down, scores; the player to play marked in
   words and by a thick border), the last moves in large type (feed.js), and the scores of a hand that has
   just ended. Each thing is said once: the status line is the only place that says whose turn it is or
   that the match is over, in words (the tiles mark the turn). */
import { announcer as makeAnnouncer, labelCells } from "./a11y.js";
import { setStack } from "./cards.js";
import { api, clear, el, fillNodes, gettext, lang, ngettext, totals, watch } from "./common.js";
import { deckIndex, setName, withCards } from "./deck.js";
import { drawFeed, feedLines } from "./feed.js";
import { computerBonusNote, isComputer, matchWinnerText, renderSummary } from "./table.js";

const SUMMARY_MS = 30000;  // how long the scores of a hand stay up once the next hand is dealt

/* The one status line: where the match is, and whose turn it is. */
function statusText(s, idx) {
  const game = s.game;
  // The lobby waits for players only while a seat is free; the match's end names its winners, large.
  let text = s.status === "lobby" ? (s.seats.some(function (seat) { return !seat.name; }) ? gettext("Waiting for players…") :
    gettext("Every seat is taken: the teacher starts the game soon.")) :
    s.status === "finished" ? matchWinnerText(s) : s.status === "closed" ? gettext("This table is closed.") :
      game && game.turn && s.match.tie_break_hand ? gettext("Tie-break hand · %(name)s to play", { name: game.turn }) :
        game && game.challenge && game.challenge.stage === "offer" ?
          gettext("Hand %(number)d · %(challenger)s may challenge %(player)s to name the works of %(set)s",
            { number: s.match.hand, challenger: game.challenge.challenger, player: game.challenge.player, set: setName(idx, game.challenge.set) }) :
        game && game.challenge ?
          gettext("Hand %(number)d · %(player)s names the works of %(set)s from memory",
            { number: s.match.hand, player: game.challenge.player, set: setName(idx, game.challenge.set) }) :
        game && game.turn ? gettext("Hand %(number)d · %(name)s to play", { number: s.match.hand, name: game.turn }) :
          gettext("Hand %(number)d", { number: s.match.hand });
  if (s.paused && s.status === "playing") text = gettext("Paused by the teacher.") + " " + text;
  return text;
}

function seatOf(s, name) { return s.seats.find(function (seat) { return seat.name === name; }) || {}; }

function tag(text, extra) { return el("span", { class: "tag" + (extra ? " " + extra : ""), text: text }); }

/* Sets laid down, each a small stack in its set's colour (the name in words beside the colour). */
function stacks(index, ids) {
  if (!ids.length) return el("p", { class: "no-sets", text: gettext("no sets yet") });
  return el("ul", { class: "set-stacks" }, ids.map(function (id) {
    return el("li", { class: "set-stack", "data-set": id }, setStack(index, id));
  }));
}

/* A sentence with its number in bold, large: the plural form chosen for n, its %(num)d filled with an element. */
function withNumber(form, n) { return fillNodes(form, { num: el("b", { text: n.toLocaleString(lang) }) }); }

function figure(value, label, extra) {
  return el("p", { class: "figure" + (extra ? " " + extra : "") }, el("b", { text: String(value) }), " ", el("span", { text: label }));
}

function seatTile(s, index, name, sum) {
  // (In Literature the sets and scores are the team's: the tile has the player's cards only.)
  const game = s.game, seat = seatOf(s, name);
  const options = s.options || {};
  const bonusOn = !!(options.name_the_work || options.named_asks);
  const onTurn = name === game.turn;
  const count = game.hand_counts[name] || 0;
  const tile = el("li", { class: "seat-tile" + (onTurn ? " on-turn" : "") + (seat.vacant ? " away" : ""), "data-player": name },
    el("div", { class: "seat-head" },
      el("h3", { class: "seat-name", text: name }),
      onTurn ? tag(gettext("to play"), "turn-tag") : null,
      seat.stand_in ? tag(gettext("away: a computer plays")) : seat.kind === "computer" ? tag(gettext("computer")) : null,
      name === game.dealer ? tag(gettext("dealer")) : null,
      seat.vacant ? tag(gettext("away")) : null),
    el("p", { class: "count" }, withNumber(ngettext("%(num)d card", "%(num)d cards", count, { num: "%(num)d" }), count)),
    game.teams ? null : stacks(index, game.books[name] || []),
    game.teams ? null : el("div", { class: "figures" },
      // hide_scores: the server sends no score or bonus while the hand is played; the match total stays.
      s.scores_hidden ? null : figure(game.scores[name] || 0,
        bonusOn && options.bonus_in_score === false ? gettext("Sets") : gettext("Score")),
      bonusOn && !s.scores_hidden ? figure(isComputer(s, name) ? "—" : (game.bonus || {})[name] || 0, gettext("Bonus")) : null,
      figure(sum[name] || 0, gettext("Match"), "total")));
  return tile;
}

function drawSeats(view, s, index) {
  const game = s.game, sum = totals(s);
  clear(view);
  if (s.scores_hidden) {
    view.append(el("p", { class: "scores-hidden", id: "scores-hidden",
      text: gettext("This hand's scores are hidden until the end of the hand.") }));
  }
  if (!game.teams) {
    view.append(el("h2", { class: "visually-hidden", text: gettext("Players") }),
      el("ul", { class: "seat-tiles", id: "players" }, game.players.map(function (name) { return seatTile(s, index, name, sum); })));
    const note = s.scores_hidden ? null : computerBonusNote(s, game.players);
    if (note) view.append(note);
  } else {
    // Literature: two teams, each with its score and the sets it has won.
    const groups = el("div", { class: "team-groups", id: "players" });
    game.teams.forEach(function (members, t) {
      const id = "team-" + "AB"[t];
      groups.append(el("section", { class: "team-group", "aria-labelledby": id },
        el("div", { class: "team-head" },
          el("h2", { id: id, text: s.scores_hidden ? gettext("Team %(team)s", { team: "AB"[t] }) :
            gettext("Team %(team)s: %(score)s", { team: "AB"[t], score: game.team_scores[t] }) }),
          figure(sum[members[0]] || 0, gettext("Match"), "total")),
        stacks(index, (game.team_books || [])[t] || []),
        el("ul", { class: "seat-tiles" }, members.map(function (name) { return seatTile(s, index, name, sum); }))));
    });
    view.append(groups);
    if (game.cancelled && game.cancelled.length) {
      view.append(el("p", { class: "cancelled", text: gettext("Cancelled: %(sets)s",
        { sets: game.cancelled.map(function (id) { return setName(index, id); }).join(", ") }) }));
    }
  }
  if ((s.options && s.options.stock) || game.stock > 0) {  // (two players of Quartett: a talon)
    view.append(el("p", { class: "stock", text: ngettext("Stock: %(num)d card", "Stock: %(num)d cards", game.stock) }));
  }
}

function drawLobby(list, s) {
  clear(list);
  s.seats.forEach(function (seat) {
    if (!seat.name) { list.append(el("li", { class: "free", text: gettext("a free seat") })); return; }
    list.append(el("li", { class: "taken" }, el("span", { text: seat.name }), seat.kind === "computer" ? tag(gettext("computer")) : null));
  });
}

function start(root) {
  const statusLine = document.getElementById("status"), view = document.getElementById("table-view");
  const lobby = document.getElementById("lobby"), lobbySeats = document.getElementById("lobby-seats");
  const summary = document.getElementById("summary"), feedBox = document.getElementById("feed-box");
  const feed = document.getElementById("feed");
  let index = null, last = null;
  let seenDeals = null, summaryUntil = 0, timer = null;
  const announcer = makeAnnouncer(root);  // each move said for the whole table

  function drawSummary(s) {
    const finished = s.hands || [];
    // A hand that ends while the screen is open: its scores stay up a while into the next hand.
    if (seenDeals === null) seenDeals = finished.length;
    if (finished.length > seenDeals) { seenDeals = finished.length; summaryUntil = Date.now() + SUMMARY_MS; }
    const show = finished.length && (s.status === "finished" || Date.now() < summaryUntil);
    summary.hidden = !show;
    root.classList.toggle("has-summary", !!show);
    if (!show) { clear(summary); return; }
    const deal = finished[finished.length - 1];
    renderSummary(summary, s, deal);
    // The summary says why a computer's bonus is "—": once is enough.
    const tilesNote = view.querySelector(".computer-bonus-note");
    if (tilesNote) tilesNote.remove();
    // The status line names the match's winners; the summary under it is the final scores.
    const heading = summary.querySelector("#match-winners");
    if (heading) heading.replaceWith(el("h2", { text: gettext("Final scores") }));
    labelCells(summary);
    if (timer) clearTimeout(timer);
    if (s.status !== "finished") timer = setTimeout(function () { timer = null; if (last) draw(last); }, summaryUntil - Date.now() + 50);
  }

  function draw(s) {
    if (last && s.version < last.version) return;  // a poll answered late: the table on the wall is newer
    last = s;
    root.dataset.version = s.version;
    const game = s.game, playing = s.status !== "lobby";
    root.classList.toggle("is-lobby", !playing);
    root.classList.toggle("is-playing", playing);
    root.classList.toggle("is-over", s.status === "finished" || s.status === "closed");
    const idx = withCards(index, s);
    statusLine.textContent = statusText(s, idx);
    lobby.hidden = playing;
    if (!playing) drawLobby(lobbySeats, s);
    view.hidden = !game;
    feedBox.hidden = !game;
    if (game) {
      drawSeats(view, s, idx);
      drawFeed(feed, feedLines(s, idx, null, 3));
    } else {
      clear(view);
    }
    drawSummary(s);
    announcer.update(s, index, null);
  }

  api("GET", root.dataset.deckUrl).then(function (deck) {
    index = deckIndex(deck);
    watch(function () { return root.dataset.api; }, draw, function (m) { statusLine.textContent = m; }).start();
  });
}

const root = document.getElementById("projector");
if (root) start(root);
