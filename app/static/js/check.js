/* The teacher's network check: every few seconds it asks who has reached the server, and shows the page
   again when someone new arrived (or a round trip changed), so a teacher trying her own phone sees it. */
import { api } from "./common.js";

const EVERY_MS = 4000;

function fingerprint(data) {
  return JSON.stringify(data.devices.map(function (d) { return [d.address, d.round_trip_ms, d.this_computer]; }));
}

function start(root) {
  let seen = null;
  async function tick() {
    try {
      const data = await api("GET", root.dataset.devices);
      const now = fingerprint(data);
      if (seen !== null && now !== seen) { window.location.reload(); return; }
      seen = now;
    } catch (error) { /* the next try tells */ }
    window.setTimeout(tick, EVERY_MS);
  }
  tick();
}

const root = document.getElementById("check");
if (root) start(root);
