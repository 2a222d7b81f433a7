/* Accessibility of the table screens (play, projector): a live region that says each move once, from the
   point of view of the seat on screen ("Boris asked you for Jacks; you gave 2 cards: J♠, J♥."), and the
   column names of the players' tables, which narrow screens show beside each figure. */
import { el, gettext, list, ngettext } from "./common.js";
import { cardTitle, givenCards, recall, setName, setOf, withCards } from "./deck.js";

const KEEP = 6;  // paragraphs kept in the live region

/* One event as a sentence for the seat `me` (null: for the whole table, in the third person). */
export function say(d, index, me, hide) {
  const p = { player: d.player, target: d.target, to: d.to, set: d.set ? setName(index, d.set) : "" };
  const mine = me !== null && d.player === me;
  switch (d.type) {
    case "ask": {
      p.wanted = d.card ? cardTitle(index, d.card, hide) : setName(index, d.set);
      const given = d.given || [];
      p.cards = recall(index) ? givenCards(index, given, hide) : list(given.map(function (c) { return cardTitle(index, c, hide); }));
      if (mine) {
        return given.length ? ngettext("You asked %(target)s for %(wanted)s and got %(num)d card: %(cards)s.",
          "You asked %(target)s for %(wanted)s and got %(num)d cards: %(cards)s.", given.length, p) :
          gettext("You asked %(target)s for %(wanted)s: no.", p);
      }
      if (me !== null && d.target === me) {
        return given.length ? ngettext("%(player)s asked you for %(wanted)s; you gave %(num)d card: %(cards)s.",
          "%(player)s asked you for %(wanted)s; you gave %(num)d cards: %(cards)s.", given.length, p) :
          gettext("%(player)s asked you for %(wanted)s; you had none.", p);
      }
      return given.length ? ngettext("%(player)s asked %(target)s for %(wanted)s and got %(num)d card: %(cards)s.",
        "%(player)s asked %(target)s for %(wanted)s and got %(num)d cards: %(cards)s.", given.length, p) :
        gettext("%(player)s asked %(target)s for %(wanted)s: no.", p);
    }
    case "draw":
      p.card = d.card ? cardTitle(index, d.card, hide) : null;
      if (mine) {
        if (!p.card) return gettext("You drew a card from the stock.", p);
        return d.lucky ? gettext("You drew %(card)s from the stock, the card you asked for.", p) :
          gettext("You drew %(card)s from the stock.", p);
      }
      return d.lucky && p.card ? gettext("%(player)s drew %(card)s from the stock, the one asked for.", p) :
        gettext("%(player)s drew a card from the stock.", p);
    case "laid-down":
      if (mine) return d.dealt ? gettext("You laid down %(set)s from the deal.", p) : gettext("You laid down %(set)s.", p);
      return d.dealt ? gettext("%(player)s laid down %(set)s from the deal.", p) : gettext("%(player)s laid down %(set)s.", p);
    case "answer":
      p.text = d.text;
      p.title = d.title;
      p.set = setOf(index, d.card);
      if (d.title === null || d.text === "") {  // a recall table: not this reader's work to know
        if (d.text === null) return gettext("%(player)s passed on naming a card of %(set)s.", p);
        if (d.verdict === "almost") return gettext("%(player)s named a card of %(set)s: almost right, +1.", p);
        return d.correct ? gettext("%(player)s named a card of %(set)s: right, +1.", p) :
          gettext("%(player)s named a card of %(set)s: not right.", p);
      }
      if (mine && d.verdict === "almost") return gettext("You named the work “%(text)s”: almost right, +1. It is spelled “%(title)s”.", p);
      if (mine) {
        if (d.text === null) return gettext("You passed on naming the work: it was “%(title)s”.", p);
        return d.correct ? gettext("You named the work “%(text)s”: right, +1.", p) :
          gettext("You named the work “%(text)s”: it was “%(title)s”.", p);
      }
      if (d.text === null) return gettext("%(player)s passed on naming the work: it was “%(title)s”.", p);
      if (d.verdict === "almost") return gettext("%(player)s named the work “%(text)s”: almost right, +1. It is spelled “%(title)s”.", p);
      return d.correct ? gettext("%(player)s named the work “%(text)s”: right, +1.", p) :
        gettext("%(player)s named the work “%(text)s”: it was “%(title)s”.", p);
    case "claim":
      if (mine) {
        if (d.outcome === "correct") return gettext("You claimed %(set)s: correct, your team wins the set.", p);
        if (d.outcome === "opponents") return gettext("You claimed %(set)s: an opponent held a card, the set goes to the other team.", p);
        return gettext("You claimed %(set)s: wrong holders, the set is cancelled.", p);
      }
      if (d.outcome === "correct") return gettext("%(player)s claimed %(set)s: correct, the set is won.", p);
      if (d.outcome === "opponents") return gettext("%(player)s claimed %(set)s: an opponent held a card, the set goes to the other team.", p);
      return gettext("%(player)s claimed %(set)s: wrong holders, the set is cancelled.", p);
    case "pass":
      if (mine) return gettext("You handed the turn to %(to)s.", p);
      return me !== null && d.to === me ? gettext("%(player)s handed the turn to you.", p) : gettext("%(player)s handed the turn to %(to)s.", p);
    case "last-card":
      return mine ? gettext("You have one card left.", p) : gettext("%(player)s has one card left.", p);
    default:
      return null;
  }
}

/* The live region: update(state, index, me) after each drawing of the screen says what happened since the
   last one. The moves come from the log of the hand (or, where the rules keep no log, the last move). */
export function announcer(parent) {
  const region = el("div", { id: "announcements", class: "visually-hidden", "aria-live": "polite" });
  parent.prepend(region);
  let seen = null;  // what the last update saw: {hand, log, recent, turn, status, hands}

  function speak(lines) {
    if (!lines.length) return;
    region.append(el("p", { text: lines.join(" ") }));
    while (region.childNodes.length > KEEP) region.removeChild(region.firstChild);
  }

  function update(s, index, me) {
    index = withCards(index, s);
    const game = s.game;
    const hand = s.match ? s.match.hand : 0;
    const log = game && game.log ? game.log : null;
    const now = { hand: hand, log: log ? log.length : 0, recent: JSON.stringify(s.recent || null), status: s.status,
      turn: !!(game && game.to_act && !(game.prompts && game.prompts.length)), hands: (s.hands || []).length };
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
    // The moves of this hand since the last update, then the end of a hand or match, then a new deal.
    if (game && hand === before.hand) {
      if (log) tell(log.slice(before.log));
      else if (now.recent !== before.recent && s.recent) tell(s.recent);
    }
    const finished = s.hands || [];
    if (now.hands > before.hands && finished.length) {
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
    if (game && s.status === "playing" && hand !== before.hand) {
      lines.push(gettext("Hand %(number)s has been dealt.", { number: hand }));
      if (log) tell(log);
    }
    if (now.turn && (!before.turn || lines.length)) lines.push(gettext("Your turn."));
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
