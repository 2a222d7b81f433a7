/* The teacher's time zone: the browser's (Intl), sent once to the account (POST /account/time-zone) when it
   differs from the one the page was drawn in; the page is then drawn again, its times in that zone (a browser
   on UTC needs no new drawing: only the sentence about the zone changes). A zone the server refuses leaves
   the page in UTC, as it says. */
const box = document.getElementById("time-zone");
const zone = (function () {
  try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
})();
if (box && zone && zone !== box.dataset.zone) {
  const token = document.querySelector("meta[name=csrf-token]");
  fetch(box.dataset.url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": token ? token.content : "" },
    body: JSON.stringify({ time_zone: zone }),
  }).then(function (response) {
    if (!response.ok) return;
    // A browser on UTC: the times on the page are already right, only the sentence about them changes.
    if (new Date().getTimezoneOffset() === 0 && /^(Etc\/)?(UTC|UCT|GMT|Zulu|Universal)$/.test(zone)) {
      box.dataset.zone = zone;
      box.textContent = box.dataset.utc;
      return;
    }
    window.location.reload();
  }).catch(function () { /* offline: the page stays in the zone it says */ });
}
