/* Cards drawn as cards, in the look of the printed ones (app/printing/faces.py, app/decks/look.py): an
   Authors card has its set's colour band with the set's name, the work large and its note small; a playing
   card its rank and suit, red or black. Sets laid down are small stacks in the set's colour. Drawn from the
   deck the table sends (its colours included): no image request per card.

   cardFace(index, id, opts): an <li class="card ...">, opts.hidden for a card whose work this reader may
   not see yet (a naming to come), opts.mini for the compact face of a hand on a phone (a strip of the
   set's colour and the work, one line); setStack(index, setId, owner): a <span class="stack">;
   pile(index, setId, count): a set held in a hand, its name and how many of its cards. Colours go in
   through the CSSOM (style.setProperty), which the strict CSP allows, never as a style attribute. */
import { el, gettext, ngettext } from "./common.js";
import { cardTitle, setName, setTitles } from "./deck.js";

const RANK_SUIT = /^(\S{1,3}?)\s?([♠♥♦♣♤♡♢♧])$/u;
const RED_SUITS = "♥♦♡♢";

export function rankAndSuit(title) {
  const found = RANK_SUIT.exec(String(title || "").normalize("NFC").split(/\s+/).join(" ").trim());
  return found ? { rank: found[1], suit: found[2], red: RED_SUITS.indexOf(found[2]) >= 0 } : null;
}

/* The ink that reads best on a set's colour band: white or near-black, whichever has the higher WCAG
   contrast with it (relative luminance of sRGB). */
function inkOn(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return "#fff";
  const linear = [m[1], m[2], m[3]].map(function (h) {
    const c = parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  });
  const luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  const INK = 0.0103;  // #1a1a1a
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / (INK + 0.05) ? "#fff" : "#1a1a1a";
}

function paint(node, colour) {
  if (!colour) return node;
  node.style.setProperty("--set", colour);
  node.style.setProperty("--on-set", inkOn(colour));
  return node;
}

export function cardFace(index, id, opts) {
  opts = opts || {};
  const card = index.cards[id] || { set: null };
  const set = index.sets[card.set] || {};
  const known = !opts.hidden && card.title !== null && card.title !== undefined;
  const playing = known && index.deck.playing_cards ? rankAndSuit(card.title) : null;
  if (opts.mini) {
    // One line: the set's colour as a strip (its name is the pile's, beside), then the work.
    const mini = el("li", { class: "card face mini" + (playing ? " playing " + (playing.red ? "red" : "black") : "") +
      (known ? "" : " unknown"), "data-card": id },
      playing ? null : el("span", { class: "band", "aria-hidden": "true" }),
      card.mark ? el("span", { class: "mark", text: card.mark }) : null,
      el("span", { class: "title", text: known ? card.title : cardTitle(index, id, opts.hidden ? new Set([id]) : null) }));
    return paint(mini, playing ? null : set.color);
  }
  if (playing) {
    // The title is the card's name for every reader ("10♥"); the big rank and suit are its picture.
    return el("li", { class: "card face playing " + (playing.red ? "red" : "black"), "data-card": id },
      el("span", { class: "title", text: card.title }),
      el("span", { class: "pip", "aria-hidden": "true", text: playing.suit }));
  }
  // A studio deck's pictures (sent only where this reader may see them): the set's in its band, the card's
  // above its title; decorative (alt=""), the words say the same.
  const picture = function (name, cls) {
    return name && index.deck.images_url ? el("img", { class: cls, src: index.deck.images_url + name, alt: "", loading: "lazy" }) : null;
  };
  const face = el("li", { class: "card face" + (known ? "" : " unknown"), "data-card": id },
    el("span", { class: "band" }, picture(set.image, "portrait"), el("span", { class: "set-name", text: set.name || "" }),
      card.mark ? el("span", { class: "mark", text: card.mark }) : null),
    known ? picture(card.image, "picture") : null,
    el("span", { class: "title", text: known ? card.title : cardTitle(index, id, opts.hidden ? new Set([id]) : null) }),
    known && card.note ? el("span", { class: "note", text: card.note }) : null);
  return paint(face, set.color);
}

export function setStack(index, setId) {
  const set = index.sets[setId] || {};
  const titles = setTitles(index, setId);
  const stack = el("span", { class: "stack", title: titles.join(", ") },
    el("span", { class: "stack-name", text: setName(index, setId) }));
  if (titles.length) stack.append(el("span", { class: "visually-hidden", text: ": " + titles.join(", ") }));
  if (set.color) stack.style.setProperty("--set", set.color);  // (its name is ink on white: no band to read)
  return stack;
}

/* A set in a hand: a small stack in the set's colour, its name and how many of its cards are held (the
   number said in words for a screen reader). */
export function pile(index, setId, count) {
  const set = index.sets[setId] || {};
  const node = el("span", { class: "pile", "data-set": setId },
    el("span", { class: "pile-name", text: setName(index, setId) }),
    el("span", { class: "pile-count", "aria-hidden": "true", text: String(count) }),
    el("span", { class: "visually-hidden", text: " " + ngettext("(%(num)d card)", "(%(num)d cards)", count) }));
  if (set.color) node.style.setProperty("--set", set.color);
  return node;
}

/* The cards of a hand, grouped by set in the deck's order (a recall table: its sets, the state's cards). */
export function groupBySet(index, hand) {
  const order = index.deck.sets.map(function (s) { return s.id; });
  const groups = {};
  hand.forEach(function (id) {
    const card = index.cards[id];
    const set = card ? card.set : "?";
    (groups[set] = groups[set] || []).push(id);
  });
  return order.filter(function (s) { return groups[s]; }).map(function (s) { return { set: s, cards: groups[s] }; });
}

