// The referee's box enrolment page (docs/box.md): one page for every game,
// drawn from the game's declared collections and fields (GET state), each
// entry saved through POST save, which checks the whole pack first. A card
// laid on a reader arrives on the table's stream as an unknown tag: its
// UID is bound to the card being enrolled.
(function () {
  "use strict";
  var lang = new URLSearchParams(location.search).get("lang") === "en" ? "en" : "pl";
  document.documentElement.lang = lang;
  function t(x) { return x ? (x[lang] || x.pl || "") : ""; }
  function say(pl, en) { return lang === "en" ? en : pl; }
  function el(tag, attrs) {
    var n = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "text") n.textContent = attrs[k];
      else if (k.slice(0, 2) === "on") n.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== undefined && attrs[k] !== null) n.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) if (arguments[i]) n.appendChild(arguments[i]);
    return n;
  }
  var root = document.getElementById("box");
  var st = null, ci = 0, ei = -1, draft = {}, uid = "", result = null, saved = 0;

  function col() { return st && st.collections ? st.collections[ci] : null; }
  function entry() { var c = col(); return c && ei >= 0 ? c.entries[ei] : null; }
  function assumed(e) { return e.assumed || (e.assumed_fields && e.assumed_fields.length > 0); }

  // The next entry still assumed: in this collection first, then the next.
  function pickNext() {
    var cs = st.collections || [];
    for (var k = 0; k < cs.length; k++) {
      var c = (ci + k) % cs.length;
      for (var i = 0; i < cs[c].entries.length; i++) {
        if (assumed(cs[c].entries[i])) { choose(c, i); return; }
      }
    }
    if (ei < 0 && cs.length) choose(ci, 0);
  }
  function choose(c, i) {
    ci = c; ei = i;
    var e = entry();
    draft = {};
    if (e) for (var k in e.values) draft[k] = e.values[k];
  }

  function load() {
    return fetch("/referee/box/state", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (s) {
      var first = st === null;
      st = s;
      if (first || !entry()) pickNext();
      else choose(ci, ei);
      render();
    });
  }

  function choiceWords(f, v) {
    for (var i = 0; i < (f.choices || []).length; i++) if (f.choices[i].value === v) return t(f.choices[i].text);
    return v;
  }
  function kindWords(c, e) {
    var parts = [];
    (c.kind || []).forEach(function (k) {
      var f = c.fields.filter(function (x) { return x.name === k; })[0];
      parts.push(f ? choiceWords(f, e.values[k] || "") : e.values[k]);
    });
    return parts.join(", ");
  }
  function applies(f) {
    if (!f.when || !f.when.length) return true;
    return f.when.slice(1).indexOf(draft[f.when[0]] || "") >= 0;
  }

  function fieldInput(f) {
    var v = draft[f.name] || "", input;
    if (f.type === "choice") {
      input = el("select", { "data-field": f.name, id: "f-" + f.name });
      input.appendChild(el("option", { value: "", text: "—" }));
      var known = false;
      (f.choices || []).forEach(function (c) {
        var o = el("option", { value: c.value, text: t(c.text) });
        if (c.value === v) { o.selected = true; known = true; }
        input.appendChild(o);
      });
      if (v && !known) { var o = el("option", { value: v, text: v }); o.selected = true; input.appendChild(o); }
      input.addEventListener("change", function () { draft[f.name] = input.value; render(); });
    } else {
      input = el("input", { "data-field": f.name, id: "f-" + f.name, value: v, autocomplete: "off" });
      input.addEventListener("input", function () { draft[f.name] = input.value; });
    }
    var e = entry(), mark = null;
    if (e && e.assumed_fields && e.assumed_fields.indexOf(f.name) >= 0) mark = el("span", { class: "assumed-mark", text: say("założone", "assumed") });
    var hint = t(f.hint) ? el("span", { class: "hint", text: "(" + t(f.hint) + ")" }) : null;
    return el("div", { class: "field" }, el("label", { for: "f-" + f.name, text: t(f.label) }, hint, mark), input);
  }

  function render() {
    root.replaceChildren();
    document.body.dataset.left = st && st.left !== undefined ? st.left : "";
    document.body.dataset.saved = saved;
    var head = el("section", { class: "head" },
      el("h1", { text: say("Zapis pudełka: ", "Enrolling the box: ") + t(st.title) }),
      st.edition ? el("div", { class: "edition", text: say("Wydanie: ", "Edition: ") + t(st.edition) + (st.version ? " · " + say("wersja ", "version ") + st.version : "") }) : null,
      el("p", {}, el("a", { href: "?lang=" + (lang === "en" ? "pl" : "en"), text: lang === "en" ? "Polski" : "English" }), document.createTextNode(" · "), el("a", { href: "/referee", text: say("Strona sędziego", "The referee's page") })));
    var main = el("div", {}, head);
    var side = el("aside", {});
    root.appendChild(main); root.appendChild(side);
    if (st.no_pack) { main.appendChild(el("p", { class: "result", "data-ok": "0", "data-testid": "no-pack", text: t(st.no_pack) })); return; }
    if (st.problem && !st.collections) { main.appendChild(problem(st.problem)); return; }
    main.appendChild(el("p", { class: "left", "data-testid": "left" },
      document.createTextNode(say("Zostało do zapisania: ", "Left to enrol: ")), el("b", { text: String(st.left) }),
      document.createTextNode(say(" z ", " of ") + st.total)));
    if (st.problem) main.appendChild(problem(st.problem, say("Paczka nie przechodzi sprawdzenia: ", "The pack does not check: ")));

    var cSel = el("select", { id: "collection", "aria-label": say("Co zapisujesz", "What you enrol") });
    st.collections.forEach(function (c, k) {
      var o = el("option", { value: String(k), text: t(c.title) + " — " + say("zostało ", "left ") + c.left + "/" + c.entries.length });
      if (k === ci) o.selected = true;
      cSel.appendChild(o);
    });
    cSel.addEventListener("change", function () { ci = +cSel.value; ei = -1; choose(ci, 0); var c = col(); for (var i = 0; i < c.entries.length; i++) if (assumed(c.entries[i])) { choose(ci, i); break; } render(); });
    var c = col();
    var eSel = el("select", { id: "slot", "aria-label": say("Miejsce karty", "The card's slot") });
    c.entries.forEach(function (e, i) {
      var k = kindWords(c, e);
      var o = el("option", { value: String(i), text: (i + 1) + ". " + e.label + (k ? " (" + k + ")" : "") + (assumed(e) ? " — " + say("założona", "assumed") : " — " + say("zapisana", "enrolled")) });
      if (i === ei) o.selected = true;
      eSel.appendChild(o);
    });
    eSel.addEventListener("change", function () { choose(ci, +eSel.value); result = null; render(); });
    main.appendChild(el("label", { for: "collection", text: say("Co zapisujesz", "What you enrol") }));
    main.appendChild(cSel);
    main.appendChild(el("label", { for: "slot", text: say("Miejsce (albo połóż kartę na czytniku)", "Slot (or lay the card on a reader)") }));
    main.appendChild(eSel);

    var e = entry();
    if (e) {
      var form = el("form", { id: "entry", onsubmit: function (ev) { ev.preventDefault(); save(); } });
      form.appendChild(el("h2", { text: e.label + (assumed(e) ? "" : " ✓") }));
      c.fields.forEach(function (f) { if (applies(f)) form.appendChild(fieldInput(f)); });
      (e.extra || []).forEach(function (name) { form.appendChild(fieldInput({ name: name, label: { pl: name, en: name }, type: "yaml" })); });
      var scanned = uid ? el("div", { "data-testid": "scanned" }, document.createTextNode(say("Na czytniku: ", "On the reader: ")), el("b", { text: uid })) : null;
      if (e.card) {
        var bound = (e.tags || []).length ? say("Znaczniki tej karty: ", "This card's tags: ") + e.tags.join(", ") : say("Karta nie ma jeszcze znacznika.", "The card has no tag yet.");
        var uidIn = el("input", { id: "uid", value: uid, autocomplete: "off", placeholder: say("UID znacznika", "tag UID") });
        uidIn.addEventListener("input", function () { uid = uidIn.value; });
        form.appendChild(el("div", { class: "reader", "data-testid": "reader" },
          el("div", { text: say("Połóż kartę na czytniku stołu: jej znacznik zostanie przypisany tej karcie.", "Lay the card on a reader of the table: its tag is bound to this card.") }),
          scanned, el("div", { class: "dim", text: bound }),
          el("label", { for: "uid", text: say("Znacznik", "Tag") }), uidIn));
      } else if (scanned) {
        form.appendChild(el("div", { class: "reader", "data-testid": "reader" }, scanned,
          el("div", { class: "dim", text: say("To nie jest karta: znacznik zostanie przypisany następnej zapisanej karcie.", "This is no card: the tag is bound to the next card saved.") })));
      }
      form.appendChild(el("button", { id: "save", type: "submit", text: say("Sprawdź i zapisz", "Check and save") }));
      if (result) form.appendChild(result);
      main.appendChild(form);
    }

    side.appendChild(el("h2", { text: say("Co drukuje instrukcja", "What the rulebook fixes") }));
    var ul = el("ul", { "data-testid": "facts" });
    (st.facts || []).forEach(function (f) { ul.appendChild(el("li", { text: t(f) })); });
    side.appendChild(ul);
    if (c.kind && c.kind.length) {
      side.appendChild(el("h2", { text: say("W paczce teraz", "In the pack now") }));
      var counts = el("ul", { "data-testid": "counts" }), seen = {};
      c.entries.forEach(function (x) {
        var k = kindWords(c, x);
        if (seen[k]) return;
        seen[k] = true;
        counts.appendChild(el("li", { text: k + ": " + c.counts[x.kind] }));
      });
      side.appendChild(counts);
    }
    side.appendChild(el("h2", { text: say("Wciąż założone", "Still assumed") }));
    var still = el("ul", { class: "still", "data-testid": "assumed" });
    (st.assumed || []).forEach(function (a) { still.appendChild(el("li", { text: t(a) })); });
    if (!(st.assumed || []).length) still.appendChild(el("li", { text: say("nic nie jest założone", "nothing is assumed") }));
    side.appendChild(still);
  }

  function problem(p, prefix) {
    var where = p.file ? p.file + (p.line ? ":" + p.line : "") + ": " : "";
    return el("div", { class: "result", "data-ok": "0", "data-testid": "problem", text: (prefix || "") + where + t(p.reason) });
  }

  function save() {
    var c = col(), e = entry();
    var values = {};
    c.fields.forEach(function (f) { values[f.name] = applies(f) ? (draft[f.name] || "") : ""; });
    (e.extra || []).forEach(function (n) { values[n] = draft[n] || ""; });
    var body = { file: c.file, list: c.list, index: ei, values: values };
    if (uid && e.card) body.uid = uid; // a scan waits for a card to be bound to
    fetch("/referee/box/save", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (r) { return r.json(); })
      .then(function (a) {
        if (a.saved) {
          if (e.card) uid = "";
          result = el("div", { class: "result", "data-ok": "1", "data-testid": "result", text: say("Zapisane: ", "Saved: ") + e.label });
          return load().then(function () { pickNext(); saved++; render(); });
        }
        result = problem(a.problem || { reason: { pl: "?", en: "?" } }, say("Odrzucone, karta nie zapisana: ", "Refused, the card is not saved: "));
        result.setAttribute("data-testid", "result");
        saved++;
        render();
      });
  }

  // A card laid on a reader: the table says "unknown tag" with its UID
  // (a tag already bound plays as in a game, and is not news here).
  function listen() {
    var es = new EventSource("/stream?view=referee");
    es.addEventListener("event", function (ev) {
      var m = JSON.parse(ev.data), n = m.event || {};
      if (n.type !== "unknown_tag" || !n.uid) return;
      uid = n.uid;
      if (st) render();
    });
  }

  load();
  listen();
})();
