/* The join page while a device waits for the teacher to let it back into its seat (issue #19): it asks
   every two seconds how the request stands, and opens the play screen once the teacher lets it in. */
import { api, gettext } from "./common.js";

const EVERY_MS = 2000;

function start(root) {
  const statusLine = document.getElementById("ask-status"), hint = document.getElementById("ask-hint");
  const again = document.getElementById("ask-again");
  let failures = 0;

  function ended(message) {
    statusLine.textContent = message;
    hint.hidden = true;
    again.hidden = false;
    root.classList.add("ended");
  }

  async function tick() {
    try {
      const asking = (await api("GET", root.dataset.ask)).asking;
      failures = 0;
      if (asking.status === "let-in") {
        statusLine.textContent = asking.message;
        window.location.assign(asking.play);
        return;
      }
      if (asking.status !== "waiting") { ended(asking.message); return; }
      statusLine.textContent = asking.message;
    } catch (error) {
      if (error.status === 404) { ended(error.message); return; }
      failures += 1;
      if (failures > 2) statusLine.textContent = gettext("The connection dropped; trying again…");
    }
    window.setTimeout(tick, EVERY_MS);
  }
  tick();
}

const root = document.getElementById("waiting");
if (root) start(root);
