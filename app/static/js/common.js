/* Shared by every screen: the scripts' messages in the page's language, building the DOM, the JSON API, and
   watching a table: its event stream, else polling with ETag/304. Every text goes in with textContent: nothing from the server is parsed as HTML.
   An ES module: the screens import what they use (deck.js, events.js, table.js and a11y.js build on it). */

/* Translations: the page carries the scripts' messages in its language (app/i18n.py, a JSON data block,
   <script type="application/json" id="script-catalog">, so no inline script; module scripts run after the
   page is parsed, so the block is there). gettext("Hello %(name)s", {name: "Anna"}); ngettext(one, many, n,
   {...}) picks the plural form the language needs with Intl.PluralRules, and fills %(num)d with n. */
const catalog = (function () {
  const block = document.getElementById("script-catalog");
  try { return block ? JSON.parse(block.textContent) : {}; } catch (e) { return {}; }
})();
export const lang = catalog.lang || document.documentElement.lang || "en";
const pluralRules = (window.Intl && Intl.PluralRules) ? new Intl.PluralRules(lang) : null;

export function format(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)([sd])/g, function (whole, name, kind) {
    if (!(name in params)) return whole;
    const value = params[name];
    return kind === "d" && typeof value === "number" ? value.toLocaleString(lang) : String(value);
  });
}

export function gettext(message, params) {
  const messages = catalog.messages || {};
  return format(messages[message] || message, params);
}

export function ngettext(singular, plural, n, params) {
  const forms = (catalog.plurals || {})[singular];
  let text = n === 1 ? singular : plural;
  if (forms) {
    const category = pluralRules ? pluralRules.select(n) : (n === 1 ? "one" : "other");
    text = forms[category] || forms.other || forms.many || text;
  }
  return format(text, Object.assign({ num: n }, params || {}));
}

/* "A, B and C" in the page's language. */
export function list(items) {
  if (window.Intl && Intl.ListFormat) return new Intl.ListFormat(lang, { type: "conjunction" }).format(items);
  return items.join(", ");
}

/* A translated sentence with elements in it: fillNodes(gettext("Turn: %(name)s"), {name: el("b", ...)})
   gives the text around the fields and the elements themselves, in the order the language puts them
   (gettext without fields gives the sentence as translated, its fields still in it). */
export function fillNodes(text, params) {
  const out = [];
  let last = 0;
  params = params || {};
  text.replace(/%\((\w+)\)([sd])/g, function (whole, name, kind, offset) {
    if (offset > last) out.push(text.slice(last, offset));
    out.push(params[name] instanceof Node ? params[name] : format(whole, params));
    last = offset + whole.length;
    return whole;
  });
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function el(tag, attrs) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, value);
  }
  for (let i = 2; i < arguments.length; i++) {
    append(node, arguments[i]);
  }
  return node;
}

function append(node, child) {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
  node.append(child instanceof Node ? child : document.createTextNode(String(child)));
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

/* The page's CSRF token (a <meta> tag of every page): sent with every call that changes something. */
export function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute("content") : "";
}

export async function api(method, url, body) {
  const options = { method: method, credentials: "same-origin", headers: { "Accept": "application/json" } };
  if (method !== "GET" && method !== "HEAD") options.headers["X-CSRFToken"] = csrfToken();
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error.message : response.statusText);
    error.code = data && data.error ? data.error.code : null;
    error.status = response.status;
    throw error;
  }
  return data;
}

/* The server's clock, from the Date header of the last poll or the `server_time` of the last streamed state
   (to the second): a turn's time limit is the server's, whatever the phone's clock says. serverNow() is in
   epoch seconds. */
let clockOffset = 0;
function noteServerDate(response) {
  const date = Date.parse(response.headers.get("Date") || "");
  if (!isNaN(date)) clockOffset = date / 1000 - Date.now() / 1000;
}
export function serverNow() { return Date.now() / 1000 + clockOffset; }

/* Poll a URL: If-None-Match with the last ETag, so an unchanged table costs a 304 and nothing else. */
export function poller(urlFor, onData, onError) {
  let etag = null, lastUrl = null, timer = null, busy = false, again = false, delay = 1000, running = false;
  async function tick() {
    if (!running) return;
    if (busy) { again = true; return; }
    busy = true;
    if (timer) { clearTimeout(timer); timer = null; }
    const url = urlFor();
    if (url !== lastUrl) { etag = null; lastUrl = url; }
    try {
      const headers = { "Accept": "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      const response = await fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" });
      noteServerDate(response);
      if (response.status === 200) {
        etag = response.headers.get("ETag");
        const data = await response.json();
        if (data.poll_ms) delay = data.poll_ms;
        onData(data);
      } else if (response.status !== 304) {
        let data = null;
        try { data = await response.json(); } catch (e) { data = null; }
        if (onError) onError(data && data.error ? data.error.message : response.statusText, response.status);
      }
    } catch (e) {
      if (onError) onError(gettext("The connection dropped; trying again…"), 0);
    }
    busy = false;
    if (!running) { again = false; return; }
    if (again) { again = false; tick(); return; }
    timer = setTimeout(tick, delay);
  }
  return {
    start: function () { running = true; tick(); },
    stop: function () { running = false; again = false; if (timer) { clearTimeout(timer); timer = null; } },
    now: function () { etag = null; tick(); },
    take: function (data, tag) { if (data.poll_ms) delay = data.poll_ms; etag = tag || null; },
  };
}

/* Watch a table's state (the URL of its GET): pushed by the server's event stream for that URL (+ "/events",
   the same JSON as the GET, `server_time` added), else polled. The stream is tried first; when it gives no
   state within STREAM_FIRST_MS, is refused or fails, the poll takes over and the stream is tried again every
   STREAM_RETRY_MS. A dropped stream is opened again by the browser itself, naming the last version it had
   (Last-Event-ID). A hidden tab holds no stream and sends no poll; shown again, it asks at once.
   Returns what poller returns: start(), now() (a changed URL opens its own stream), take(). */
const STREAM_FIRST_MS = 5000, STREAM_RETRY_MS = 30000;
export function watch(urlFor, onData, onError) {
  const poll = poller(urlFor, onData, onError);
  const canStream = typeof window.EventSource === "function";
  let source = null, sourceUrl = null, live = false, failed = !canStream, polling = false, started = false;
  let firstTimer = null, retryTimer = null;

  function hidden() { return document.visibilityState === "hidden"; }
  function eventsUrl(url) {
    const target = new URL(url, window.location.href);
    target.pathname = target.pathname.replace(/\/$/, "") + "/events";
    return target.pathname + target.search;
  }
  function closeStream() {
    clearTimeout(firstTimer);
    firstTimer = null;
    if (source) { source.close(); source = null; }
    live = false;
  }
  function startPolling() {
    if (!polling) { polling = true; poll.start(); }
    clearTimeout(retryTimer);
    if (canStream) retryTimer = setTimeout(function () { if (!hidden()) openStream(); }, STREAM_RETRY_MS);
  }
  function stopPolling() {
    clearTimeout(retryTimer);
    if (polling) { polling = false; poll.stop(); }
  }
  function fallBack() {
    closeStream();
    failed = true;
    startPolling();
  }
  function openStream() {
    closeStream();
    sourceUrl = urlFor();
    const stream = new EventSource(eventsUrl(sourceUrl));
    source = stream;
    firstTimer = setTimeout(fallBack, STREAM_FIRST_MS);
    stream.addEventListener("state", function (event) {
      if (stream !== source) return;
      let data;
      try { data = JSON.parse(event.data); } catch (e) { return; }
      clearTimeout(firstTimer);
      firstTimer = null;
      if (typeof data.server_time === "number") clockOffset = data.server_time - Date.now() / 1000;
      delete data.server_time;
      live = true;
      failed = false;
      stopPolling();
      onData(data);
    });
    stream.addEventListener("open", function () {
      // Opened again after a drop: the server sends a state only once there is a newer one than the last.
      if (stream === source && live) { clearTimeout(firstTimer); firstTimer = null; }
    });
    stream.addEventListener("error", function () {
      if (stream !== source) return;
      if (stream.readyState === EventSource.CLOSED) { fallBack(); return; }  // refused: poll
      if (!firstTimer) firstTimer = setTimeout(fallBack, STREAM_FIRST_MS);  // the browser tries again meanwhile
    });
  }
  function resume() {
    if (failed) startPolling();
    else openStream();
  }
  document.addEventListener("visibilitychange", function () {
    if (!started) return;
    if (hidden()) { closeStream(); stopPolling(); } else resume();
  });
  return {
    start: function () { started = true; if (!hidden()) resume(); },
    now: function () {
      if (source && urlFor() !== sourceUrl) openStream();
      else if (polling) poll.now();
    },
    take: function (data, tag) { poll.take(data, tag); },
  };
}

/* Each player's match total, by name. */
export function totals(state) {
  const out = {};
  (state.standings || []).forEach(function (row) { out[row.name] = row.total; });
  return out;
}
