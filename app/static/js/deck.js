/* The deck as a screen knows it: its cards and sets by id, and the titles this reader may know. */
import { gettext, list, ngettext } from "./common.js";

/* The deck of a table (GET its deck_url), by card and set. */
export function deckIndex(deck) {
  const cards = {}, sets = {};
  deck.sets.forEach(function (s) {
    sets[s.id] = s;
    s.cards.forEach(function (c) { cards[c.id] = Object.assign({ set: s.id }, c); });
  });
  return { deck: deck, cards: cards, sets: sets };
}

/* A recall table (app/services/recall.py) sends no works with its deck: each state names its cards by
   tokens, with the set of each and the title only where this reader may know it. The index of a state:
   the deck's, with the state's cards. */
export function withCards(index, state) {
  if (!index || !state || !state.cards) return index;
  const cards = Object.assign({}, index.cards);
  Object.keys(state.cards).forEach(function (token) {
    cards[token] = Object.assign({ id: token }, state.cards[token]);
  });
  return Object.assign({}, index, { cards: cards, recall: true });
}
export function recall(index) { return !!(index && (index.recall || index.deck.recall)); }

/* A card's title; a card still waiting for this screen's player to name its work, or one this reader
   may not know, shows only its set. */
export function cardTitle(index, id, hide) {
  const card = index.cards[id];
  if (!card) return id;
  if ((hide && hide.has(id)) || card.title === null || card.title === undefined) {
    return gettext("a card of %(set)s", { set: setName(index, card.set) });
  }
  return card.title;
}
export function known(index, id) { const card = index.cards[id]; return !!card && card.title !== null && card.title !== undefined; }
export function setOf(index, id) { const card = index.cards[id]; return card ? setName(index, card.set) : ""; }
/* The cards given in one ask: the titles this reader may know, then "a card of Dickens" or "2 cards of
   Dickens" for the rest (never "1 card of"), as one list ("Hamlet and a card of Dickens"). */
export function givenCards(index, ids, hide) {
  const named = [], unknown = {};
  ids.forEach(function (id) {
    if (known(index, id) && !(hide && hide.has(id))) named.push(cardTitle(index, id));
    else { const set = setOf(index, id); unknown[set] = (unknown[set] || 0) + 1; }
  });
  Object.keys(unknown).forEach(function (set) {
    named.push(unknown[set] === 1 ? gettext("a card of %(set)s", { set: set }) :
      ngettext("%(num)d card of %(set)s", "%(num)d cards of %(set)s", unknown[set], { set: set }));
  });
  return list(named);
}
export function setName(index, id) { return index.sets[id] ? index.sets[id].name : id; }

/* The works of a set, as this reader may know them (a recall table: the state's cards of the set). */
export function setTitles(index, setId) {
  const set = index.sets[setId];
  if (set && set.cards.length) return set.cards.map(function (c) { return c.title; });
  return Object.keys(index.cards).map(function (id) { return index.cards[id]; })
    .filter(function (c) { return c.set === setId && c.title; }).map(function (c) { return c.title; }).sort();
}
