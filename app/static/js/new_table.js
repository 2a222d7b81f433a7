/* The new-table form: show what each option is under the chosen rules, and pick the rules' deck. */
"use strict";

(function () {
  const rules = document.getElementById("rules");
  if (!rules) return;
  function show() {
    document.querySelectorAll("tr.option").forEach(function (row) {
      const defaults = JSON.parse(row.dataset.defaults || "{}");
      const value = defaults[rules.value];
      const text = value === true ? "yes" : value === false ? "no" : value === null ? "—" : String(value);
      row.querySelector(".default").textContent = "(the rules: " + text + ")";
    });
  }
  rules.addEventListener("change", show);
  show();
})();
