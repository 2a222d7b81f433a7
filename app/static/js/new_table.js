/* The new-table form: show only the options that apply to the chosen rules and deck, and what each is at
   this table when left blank. The page comes with the options of its rules shown and the others hidden and
   disabled (app/web/tables.py, _form_words says the same words as here): a disabled control is not
   submitted, so an option set under other rules and then hidden plays no part. When a choice changes the
   server is asked for the words again (the value each option takes once the bonus is on, the sentence on
   how naming works, whether the deck is of playing cards, which has no works to name). */

function start(form, rules) {
  const rows = form.querySelectorAll("#options .option");
  const deck = form.querySelector("#deck");
  const note = document.getElementById("playing-deck-note");
  const naming = document.getElementById("naming-how");
  let playing = form.dataset.playing === "yes";
  let asked = 0;

  function show() {
    rows.forEach(function (row) {
      const applies = (row.dataset.rules || "").split(" ").indexOf(rules.value) !== -1 &&
        !(playing && row.hasAttribute("data-naming"));
      row.hidden = !applies;
      row.querySelectorAll("select, input").forEach(function (control) { control.disabled = !applies; });
    });
    if (note) note.hidden = !playing;
  }

  async function refresh() {
    show();
    const params = new URLSearchParams({ rules: rules.value, deck: deck ? deck.value : "" });
    form.querySelectorAll("#options select, #options input").forEach(function (control) {
      if (!control.disabled && control.value) params.set(control.name, control.value);
    });
    const mine = ++asked;
    let words;
    try {
      const response = await fetch(form.dataset.words + "?" + params.toString(),
        { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) return;
      words = await response.json();
    } catch (err) {
      return;  // offline: the words of the page stay; the server decides when the table opens
    }
    if (mine !== asked) return;  // a later change is on its way
    rows.forEach(function (row) {
      const control = row.querySelector("select, input");
      const name = control ? control.name.replace(/^opt_/, "") : "";
      row.querySelector(".default").textContent = words.defaults[name] || "";
    });
    if (naming) naming.textContent = words.naming || naming.dataset.off || "";  // one sentence: on, how; off, that
    playing = Boolean(words.playing);
    show();
  }

  rules.addEventListener("change", refresh);
  if (deck) deck.addEventListener("change", refresh);
  form.querySelectorAll("#options select, #options input").forEach(function (control) {
    control.addEventListener("change", refresh);
  });
  show();
}

const form = document.getElementById("new-table");
const rules = document.getElementById("rules");
if (form && rules) start(form, rules);
