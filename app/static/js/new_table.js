/* The new-table form: show only the options that apply to the chosen rules, and what each is under them.
   The page comes with the options of its rules shown and the others hidden and disabled (app/web/tables.py,
   _rules_default says the same words as here): a disabled control is not submitted, so an option set
   under other rules and then hidden plays no part. */
import { gettext } from "./common.js";

function start(rules) {
  const rows = document.querySelectorAll("#options .option");

  function show() {
    rows.forEach(function (row) {
      const applies = (row.dataset.rules || "").split(" ").indexOf(rules.value) !== -1;
      row.hidden = !applies;
      row.querySelectorAll("select, input").forEach(function (control) { control.disabled = !applies; });
      const defaults = JSON.parse(row.dataset.defaults || "{}");
      const labels = JSON.parse(row.dataset.labels || "{}");  // a choice's words in the reader's language
      const value = defaults[rules.value];
      const text = value === true ? labels.yes || gettext("yes") : value === false ? labels.no || gettext("no") :
        labels[value] || String(value);
      row.querySelector(".default").textContent =  // unset (null): the help line says what blank does
        value === null || value === undefined ? "" : gettext("(the rules: %(value)s)", { value: text });
    });
  }
  rules.addEventListener("change", show);
  show();
}

const rules = document.getElementById("rules");
if (rules) start(rules);
