/* "What just happened": the last few moves of the deal in play as plain sentences, newest first, for a
   screen that shows them at a glance (the projector, the play screen) rather than as the whole log. The
   sentences are events.js's `say`, from the point of view of the seat `me` (or the whole table when `me`
   is null), so the feed, the live region and the log never tell one move in two ways.

   feedLines(state, index, me, count): [{text, mine, key}], at most `count` (3); `mine` when the move is
   me's or about me, `key` the same for one event on every poll (the deal and its place in the log), so
   that a screen can tell the lines it has not shown yet.
   drawFeed(container, lines, options): fills an <ol class="feed">, each new line with the class `new`
   (the keys already shown are kept per container); "No moves yet." when there are none.
   Where the rules keep no log (Literature forbids notes), the feed has the last move only. */
import { clear, el, gettext } from "./common.js";
import { withCards } from "./deck.js";
import { say } from "./events.js";

export function feedLines(state, index, me, count) {
  me = me === undefined ? null : me;
  count = count === undefined ? 3 : count;
  const game = state && state.game;
  if (!game || !index || count <= 0) return [];
  index = withCards(index, state);
  const deal = state.match ? state.match.hand : 0;  // the API's "hand": the deal's number
  const hide = new Set(game.prompts || []);
  // Each event with its key: its place in the log, or, with no log, in the last move of this version.
  const events = game.log ? game.log.map(function (event, i) { return [event, deal + ":" + i]; }) :
    (state.recent || []).map(function (event, i) { return [event, deal + ":v" + game.version + ":" + i]; });
  const lines = [];
  for (let i = events.length - 1; i >= 0 && lines.length < count; i--) {
    const event = events[i][0];
    const text = say(event, index, me, hide);
    if (!text) continue;
    const mine = me !== null && (event.player === me || event.target === me || event.to === me);
    lines.push({ text: text, mine: mine, key: events[i][1] });
  }
  return lines;
}

const shown = new WeakMap();  // container -> the keys of the lines it showed last time

export function drawFeed(container, lines, options) {
  options = options || {};
  const before = shown.get(container);
  clear(container);
  if (!container.classList.contains("feed")) container.classList.add("feed");
  if (!lines || !lines.length) {
    container.append(el("li", { class: "muted", text: options.empty || gettext("No moves yet.") }));
    shown.set(container, new Set());
    return container;
  }
  lines.forEach(function (line) {
    // Nothing is "new" on the first drawing: the screen has only just opened.
    const fresh = before !== undefined && !before.has(line.key);
    const classes = [line.mine ? "mine" : "", fresh ? "new" : ""].filter(Boolean).join(" ");
    container.append(el("li", { class: classes || null, "data-key": line.key, text: line.text }));
  });
  shown.set(container, new Set(lines.map(function (line) { return line.key; })));
  return container;
}
