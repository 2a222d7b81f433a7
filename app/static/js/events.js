/* The sentences of a hand's events (an ask, a draw, a set laid down, a naming, a claim, a pass, a last
   card), written once for both places that say them: the log of the hand on screen (table.js) and the live
   region that reads each move out (a11y.js).

   describe(event, index, hide): the log's line, in the third person ("Boris asked Anna for Jacks and got
   J♠, J♥.").
   say(event, index, me, hide): the live region's, from the point of view of the seat `me` ("Boris asked you
   for Jacks; you gave 2 cards: J♠ and J♥."), or for the whole table when `me` is null; null for an event
   it does not say.
   `index` is the deck with the state's cards (deck.js), `hide` the cards still waiting for this screen's
   player to name their work (a Set, or nothing). */
import { gettext, list, ngettext } from "./common.js";
import { cardTitle, givenCards, known, setName, setOf } from "./deck.js";

export function describe(event, index, hide) {
  return sentence(event, index, { me: null, hide: hide, spoken: false });
}

export function say(event, index, me, hide) {
  return sentence(event, index, { me: me === undefined ? null : me, hide: hide, spoken: true });
}

function sentence(d, index, view) {
  const me = view.me, hide = view.hide;
  const mine = me !== null && d.player === me;  // "You ..." (the log has no `me`: always the third person)
  const p = { player: d.player, target: d.target, to: d.to, set: d.set ? setName(index, d.set) : "" };
  switch (d.type) {
    case "ask": {
      p.wanted = d.card ? cardTitle(index, d.card, hide) : setName(index, d.set);
      const given = d.given || [];
      const asked = me !== null && d.target === me;  // "... asked you ..."
      if (!given.length) {
        if (mine) return gettext("You asked %(target)s for %(wanted)s: no.", p);
        if (asked) return gettext("%(player)s asked you for %(wanted)s; you had none.", p);
        return gettext("%(player)s asked %(target)s for %(wanted)s: no.", p);
      }
      if (view.spoken) {  // aloud: how many cards came, then which
        if (given.some(function (c) { return !known(index, c) || (hide && hide.has(c)); })) {
          // Cards this reader may not name: "got a card of Irving", "got 2 cards of Irving" (the count once).
          p.cards = givenCards(index, given, hide);
          if (mine) return gettext("You asked %(target)s for %(wanted)s and got %(cards)s.", p);
          if (asked) return gettext("%(player)s asked you for %(wanted)s; you gave %(cards)s.", p);
          return gettext("%(player)s asked %(target)s for %(wanted)s and got %(cards)s.", p);
        }
        p.cards = list(given.map(function (c) { return cardTitle(index, c, hide); }));
        if (mine) {
          return ngettext("You asked %(target)s for %(wanted)s and got %(num)d card: %(cards)s.",
            "You asked %(target)s for %(wanted)s and got %(num)d cards: %(cards)s.", given.length, p);
        }
        if (asked) {
          return ngettext("%(player)s asked you for %(wanted)s; you gave %(num)d card: %(cards)s.",
            "%(player)s asked you for %(wanted)s; you gave %(num)d cards: %(cards)s.", given.length, p);
        }
        return ngettext("%(player)s asked %(target)s for %(wanted)s and got %(num)d card: %(cards)s.",
          "%(player)s asked %(target)s for %(wanted)s and got %(num)d cards: %(cards)s.", given.length, p);
      }
      // The log: the cards, and the bonus of a named ask (the work typed from memory, one slip forgiven).
      p.cards = givenCards(index, given, hide);
      if (d.bonus && d.verdict === "almost") {
        return gettext("%(player)s asked %(target)s for %(wanted)s and got %(cards)s: named almost right, +1.", p);
      }
      if (d.bonus) return gettext("%(player)s asked %(target)s for %(wanted)s and got %(cards)s: named right, +1.", p);
      return gettext("%(player)s asked %(target)s for %(wanted)s and got %(cards)s.", p);
    }
    case "draw":
      // The card drawn is in the event only for its drawer, or when it was the one asked for (shown to all).
      p.card = d.card ? cardTitle(index, d.card, hide) : null;
      if (mine) {
        if (!p.card) return gettext("You drew a card from the stock.", p);
        return d.lucky ? gettext("You drew %(card)s from the stock, the card you asked for.", p) :
          gettext("You drew %(card)s from the stock.", p);
      }
      if (!p.card) {
        return d.lucky ? gettext("%(player)s drew a card from the stock, the one asked for.", p) :
          gettext("%(player)s drew a card from the stock.", p);
      }
      return d.lucky ? gettext("%(player)s drew %(card)s from the stock, the one asked for.", p) :
        gettext("%(player)s drew %(card)s from the stock.", p);
    case "laid-down":
      if (mine) return d.dealt ? gettext("You laid down %(set)s from the deal.", p) : gettext("You laid down %(set)s.", p);
      return d.dealt ? gettext("%(player)s laid down %(set)s from the deal.", p) : gettext("%(player)s laid down %(set)s.", p);
    case "answer":
      p.text = d.text;
      p.title = d.title;
      p.set = setOf(index, d.card);
      if (d.title === null || d.text === "") {  // a recall table: the work is not this reader's to know
        if (mine) {  // the namer reads of herself as "you" (her wrong answer is not sent back: the title may be)
          if (d.text === null) return gettext("You passed on naming a card of %(set)s.", p);
          if (d.verdict === "almost") return gettext("You named a card of %(set)s: almost right, +1.", p);
          if (d.correct) return gettext("You named a card of %(set)s: right, +1.", p);
          return d.title ? gettext("You named a card of %(set)s: not right; it was “%(title)s”.", p) :
            gettext("You named a card of %(set)s: not right.", p);
        }
        if (d.text === null) return gettext("%(player)s passed on naming a card of %(set)s.", p);
        if (d.verdict === "almost") return gettext("%(player)s named a card of %(set)s: almost right, +1.", p);
        return d.correct ? gettext("%(player)s named a card of %(set)s: right, +1.", p) :
          gettext("%(player)s named a card of %(set)s: not right.", p);
      }
      if (mine) {
        if (d.verdict === "almost") return gettext("You named the work “%(text)s”: almost right, +1. It is spelled “%(title)s”.", p);
        if (d.text === null) return gettext("You passed on naming the work: it was “%(title)s”.", p);
        return d.correct ? gettext("You named the work “%(text)s”: right, +1.", p) :
          gettext("You named the work “%(text)s”: it was “%(title)s”.", p);
      }
      if (d.text === null) return gettext("%(player)s passed on naming the work: it was “%(title)s”.", p);
      if (d.verdict === "almost") {  // it scores, and the spelling is shown
        return gettext("%(player)s named the work “%(text)s”: almost right, +1. It is spelled “%(title)s”.", p);
      }
      return d.correct ? gettext("%(player)s named the work “%(text)s”: right, +1.", p) :
        gettext("%(player)s named the work “%(text)s”: it was “%(title)s”.", p);
    case "claim":
      p.outcome = d.outcome;
      if (d.outcome === "correct") {
        return mine ? gettext("You claimed %(set)s: correct, your team wins the set.", p) :
          gettext("%(player)s claimed %(set)s: correct, the set is won.", p);
      }
      if (d.outcome === "opponents") {
        return mine ? gettext("You claimed %(set)s: an opponent held a card, the set goes to the other team.", p) :
          gettext("%(player)s claimed %(set)s: an opponent held a card, the set goes to the other team.", p);
      }
      if (d.outcome === "cancelled") {
        return mine ? gettext("You claimed %(set)s: wrong holders, the set is cancelled.", p) :
          gettext("%(player)s claimed %(set)s: wrong holders, the set is cancelled.", p);
      }
      return gettext("%(player)s claimed %(set)s: %(outcome)s.", p);
    case "pass":
      if (mine) return gettext("You handed the turn to %(to)s.", p);
      return me !== null && d.to === me ? gettext("%(player)s handed the turn to you.", p) :
        gettext("%(player)s handed the turn to %(to)s.", p);
    case "challenge":
      if (d.challenged) {
        if (mine) return gettext("You challenged %(target)s to name the works of %(set)s.", p);
        if (me !== null && d.target === me) return gettext("%(player)s challenged you to name the works of %(set)s.", p);
        return gettext("%(player)s challenged %(target)s to name the works of %(set)s.", p);
      }
      if (mine) return gettext("You let %(target)s keep %(set)s.", p);
      if (me !== null && d.target === me) return gettext("%(player)s let you keep %(set)s.", p);
      return gettext("%(player)s let %(target)s keep %(set)s.", p);
    case "defence":
      p.count = d.count;
      if (d.held) {
        return mine ? ngettext("You named the %(num)d work of %(set)s and keep the set, +1.",
          "You named all %(num)d works of %(set)s and keep the set, +1.", d.size, p) :
          ngettext("%(player)s named the %(num)d work of %(set)s and keeps the set, +1.",
            "%(player)s named all %(num)d works of %(set)s and keeps the set, +1.", d.size, p);
      }
      if (mine) {
        return ngettext("You named %(count)s of the %(num)d work of %(set)s: the set goes to %(target)s.",
          "You named %(count)s of the %(num)d works of %(set)s: the set goes to %(target)s.", d.size, p);
      }
      if (me !== null && d.target === me) {
        return ngettext("%(player)s named %(count)s of the %(num)d work of %(set)s: the set is yours.",
          "%(player)s named %(count)s of the %(num)d works of %(set)s: the set is yours.", d.size, p);
      }
      return ngettext("%(player)s named %(count)s of the %(num)d work of %(set)s: the set goes to %(target)s.",
        "%(player)s named %(count)s of the %(num)d works of %(set)s: the set goes to %(target)s.", d.size, p);
    case "last-card":
      return mine ? gettext("You have one card left.", p) : gettext("%(player)s has one card left.", p);
    default:
      return view.spoken ? null : d.type;  // the log shows an unknown event by its name; the live region keeps quiet
  }
}
