/* The join page while a device waits for the teacher to let it back into its seat (issues #19, #33). It asks
   how the request stands every two seconds, and at once when the tab is shown again or the network comes
   back; it says each step in one sentence (asked, let in, refused, ended), rides out failed requests (asking
   less often, and saying so only when several fail in a row), and opens the play screen the moment the
   teacher lets it in. Under that sentence, how long it has waited (whole minutes, counted by the server: the
   phone's clock may be anything). The server rendered the first sentences: a request already over is not
   asked again. */
import { api, gettext } from "./common.js";

const EVERY_MS = 2000;
const SLOWEST_MS = 10000;  // after failures it asks less often, but never less than this
const TROUBLE_AFTER = 2;  // failures in a row before the page says the connection dropped

function start(root) {
  const statusLine = document.getElementById("ask-status"), hint = document.getElementById("ask-hint");
  const trouble = document.getElementById("ask-trouble"), notMe = document.getElementById("not-me");
  const heading = document.getElementById("ask-title"), waited = document.getElementById("ask-waited");
  let failures = 0, timer = null, busy = false, done = root.dataset.status !== "waiting";

  // (the line is a live region: the same sentence set again is not read out again)
  function say(message) { if (message && statusLine.textContent !== message) statusLine.textContent = message; }

  function showTrouble(on) {
    if (on && trouble.hidden) trouble.textContent = gettext("The connection dropped; trying again…");
    trouble.hidden = !on;
  }

  function ended(message) {
    done = true;
    say(message);
    const title = gettext("Your request has ended");
    if (heading.textContent !== title) {
      document.title = document.title.replace(heading.textContent, title);
      heading.textContent = title;
    }
    hint.hidden = true;
    if (waited) waited.hidden = true;
    if (notMe) notMe.hidden = true;
    showTrouble(false);
    root.classList.add("ended");
  }

  function later(ms) {
    window.clearTimeout(timer);
    timer = window.setTimeout(tick, ms);
  }

  async function tick() {
    if (done || busy) return;
    busy = true;
    let wait = EVERY_MS;
    try {
      const asking = (await api("GET", root.dataset.ask)).asking;
      failures = 0;
      showTrouble(false);
      if (asking.status === "let-in") {
        done = true;
        say(asking.message);
        window.location.assign(asking.play);
      } else if (asking.status !== "waiting") {
        ended(asking.message);
      } else {
        say(asking.message);
        // how long it has waited, as the server counts it (the phone's clock may be anything)
        if (waited && asking.waited && waited.textContent !== asking.waited) waited.textContent = asking.waited;
      }
    } catch (error) {
      if (error.status === 404) {
        ended(error.message);  // this browser's request is gone (its cookie, or the table): join again
      } else {
        failures += 1;  // no answer, or the server busy: try again, less often
        if (failures >= TROUBLE_AFTER) showTrouble(true);
        wait = Math.min(SLOWEST_MS, EVERY_MS * failures);
      }
    } finally {
      busy = false;
    }
    if (!done) later(wait);
  }

  function now() { if (!done && document.visibilityState !== "hidden") later(0); }
  document.addEventListener("visibilitychange", now);
  window.addEventListener("online", now);
  if (!done) later(0);
}

const root = document.getElementById("waiting");
if (root) start(root);
