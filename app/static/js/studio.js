/* The deck studio: forms that delete something ask first (data-confirm); each card's preview box shows
   the card in words in its set's colour (set through the CSSOM, which the strict CSP allows, never as a
   style attribute) until its picture covers it, and keeps the words when the picture cannot come. */
document.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});

document.querySelectorAll("ul.previews[data-set-color]").forEach(function (list) {
  list.style.setProperty("--set", list.dataset.setColor);
  list.style.setProperty("--on-set", list.dataset.onSet || "#fff");
});
document.querySelectorAll("ul.previews .preview img").forEach(function (img) {
  // a broken picture would cover the words with its icon and its alt text: hidden, the words stay
  function failed() { img.classList.add("failed"); }
  if (img.complete && img.naturalWidth === 0) failed();  // failed before this script ran
  img.addEventListener("error", failed);
  img.addEventListener("load", function () { img.classList.remove("failed"); });
});
