/* The new-table form: show what each option is under the chosen rules, and pick the rules' deck. */
"use strict";

(function () {
  const AC = window.AC;
  const rules = document.getElementById("rules");
  if (!rules) return;
  function show() {
    document.querySelectorAll("tr.option").forEach(function (row) {
      const defaults = JSON.parse(row.dataset.defaults || "{}");
      const labels = JSON.parse(row.dataset.labels || "{}");  // a choice's words in the reader's language
      const value = defaults[rules.value];
      const text = value === true ? labels.yes || AC.gettext("yes") : value === false ? labels.no || AC.gettext("no") :
        value === null ? "—" : labels[value] || String(value);
      row.querySelector(".default").textContent = AC.gettext("(the rules: %(value)s)", { value: text });
    });
  }
  rules.addEventListener("change", show);
  show();
})();
