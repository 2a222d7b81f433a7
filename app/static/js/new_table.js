/* The new-table form: show what each option is under the chosen rules, and pick the rules' deck. */
import { gettext } from "./common.js";

function start(rules) {
  function show() {
    document.querySelectorAll("tr.option").forEach(function (row) {
      const defaults = JSON.parse(row.dataset.defaults || "{}");
      const labels = JSON.parse(row.dataset.labels || "{}");  // a choice's words in the reader's language
      const value = defaults[rules.value];
      const text = value === true ? labels.yes || gettext("yes") : value === false ? labels.no || gettext("no") :
        value === null ? "—" : labels[value] || String(value);
      row.querySelector(".default").textContent = gettext("(the rules: %(value)s)", { value: text });
    });
  }
  rules.addEventListener("change", show);
  show();
}

const rules = document.getElementById("rules");
if (rules) start(rules);
