// The index page's filter: the app's word matcher (core/src/search.cpp) over each variant's search text,
// which lanemap wrote into data-search. Words are folded exactly as the core folds them: synonyms
// (LANEMAP_SYNONYMS, from the core table), sm90/sm_90a -> sm_90, and "f16 acc" -> acc:f16.
"use strict";
(function () {
  function canonical(word) {
    if (Object.prototype.hasOwnProperty.call(LANEMAP_SYNONYMS, word)) return LANEMAP_SYNONYMS[word];
    const sm = /^sm_?(\d+)a?$/.exec(word);
    return sm ? "sm_" + sm[1] : word;
  }
  function isAccumulator(w) {
    return w === "acc" || w === "accumulator" || w === "accum";
  }
  function searchWords(text) {
    text = text.trim();
    // A PTX instruction with operands ("mma.sync... {%f0,...}, ...;"): only the opcode is a search word.
    if (/^w?g?mma/i.test(text) && /[{%;]|,\s/.test(text)) {
      const opcode = text.split(/\s/)[0];
      if (opcode.indexOf(".") >= 0) text = opcode.replace(/;/g, "");
    }
    const raw = text.split(/[\s,]+/).filter(function (w) { return w.length > 0; })
      .map(function (w) { return canonical(w.toLowerCase()); });
    const words = [];
    for (let i = 0; i < raw.length; ++i) {
      if (isAccumulator(raw[i])) {
        if (words.length > 0 && words[words.length - 1].indexOf("acc:") !== 0)
          words[words.length - 1] = "acc:" + words[words.length - 1];
        else if (i + 1 < raw.length)
          words.push("acc:" + raw[++i]);
        continue;
      }
      words.push(raw[i]);
    }
    return words;
  }
  function matches(haystack, words) {
    return words.every(function (w) { return haystack.indexOf(w) >= 0; });
  }

  const input = document.getElementById("filter");
  const count = document.getElementById("count");
  const none = document.getElementById("none");
  const items = Array.prototype.slice.call(document.querySelectorAll("#catalog li"));
  const total = items.length;

  function apply() {
    const words = searchWords(input.value);
    let shown = 0;
    for (const li of items) {
      const ok = matches(li.dataset.search, words);
      li.hidden = !ok;
      if (ok) ++shown;
    }
    for (const section of document.querySelectorAll("#catalog section.shape, #catalog section.family"))
      section.hidden = section.querySelector("li:not([hidden])") === null;
    count.textContent = words.length ? shown + " of " + total + " variants" : total + " variants";
    count.dataset.shown = String(shown);
    none.hidden = shown > 0;
    const url = new URL(window.location.href);
    if (input.value.trim()) url.hash = "q=" + encodeURIComponent(input.value.trim());
    else url.hash = "";
    history.replaceState(null, "", url.href);
  }
  // index.html#q=m16n8k16%20bf16 opens filtered: a search can be linked too.
  if (window.location.hash.indexOf("#q=") === 0)
    input.value = decodeURIComponent(window.location.hash.slice(3));
  input.addEventListener("input", apply);
  window.lanemapIndex = { searchWords: searchWords, apply: apply };
  apply();
  document.body.dataset.ready = "1";
})();
