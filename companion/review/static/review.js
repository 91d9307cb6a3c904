// The review page: steps through a journal, one entry at a time, showing
// the state after it, what the sensors saw and the table's picture. It
// reads /api/moment?seq=N and /image/SHA256, and changes nothing.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let lang = "en", cur = null, last = 0, loading = 0;
  const say = (t) => (t ? (lang === "pl" ? t.pl : t.en) || t.en || t.pl || "" : "");
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const fill = (node, items) => { node.replaceChildren(...items); };

  async function load(seq) {
    const n = ++loading;
    const res = await fetch("api/moment?seq=" + encodeURIComponent(seq), { cache: "no-store" });
    if (n !== loading) return;
    if (!res.ok) {
      $("error").textContent = (await res.text()).trim();
      $("error").hidden = false;
      return;
    }
    $("error").hidden = true;
    cur = await res.json();
    last = cur.Last;
    if (location.hash !== "#seq=" + cur.Seq) history.replaceState(null, "", "#seq=" + cur.Seq);
    render(cur);
  }

  function render(m) {
    $("table").textContent = m.Venue + " / " + m.Table + " — " + m.Game;
    $("seq").textContent = m.Seq;
    $("last").textContent = m.Last;
    $("to").max = m.Last;
    $("first").disabled = $("prev").disabled = m.Seq <= 1;
    $("next").disabled = $("lastbtn").disabled = m.Seq >= m.Last;
    document.body.dataset.seq = m.Seq;

    fill($("entry"), [
      el("div", m.Kind + " · " + new Date(m.At).toISOString(), "kind-" + m.Kind),
      el("div", "hash " + m.Hash, "meta raw"),
      el("div", JSON.stringify(m.Body), "raw"),
    ]);
    fill($("events"), (m.Events || []).map((e) => el("li", say(e.text) || JSON.stringify(e))));

    fill($("summary"), (m.Summary || []).map((t) => el("li", say(t))));
    const head = say(m.Headline), first = m.Summary && m.Summary.length ? say(m.Summary[0]) : "";
    $("headline").textContent = (head !== first ? head : "") + (m.Finished ? " (the game is over)" : "");
    const rulings = (m.Rulings || []).map((r) => {
      const li = el("li");
      li.append(el("b", "#" + r.Seq + " " + r.Kind + " "), el("span", JSON.stringify(r.Body), "raw"));
      return li;
    });
    fill($("rulings"), rulings.length ? rulings : [el("li", "none recorded", "dim")]);

    renderEvidence(m);
  }

  function renderEvidence(m) {
    const box = $("evidence"), out = [];
    const ev = m.Evidence;
    if (m.EvidenceError) {
      out.push(el("p", "unreadable: " + m.EvidenceError, "bad"), el("div", JSON.stringify(m.Raw), "raw"));
    } else if (!ev) {
      out.push(el("p", "none recorded (no input made this entry, or it was made before evidence was kept)", "dim"));
    } else {
      if (ev.tag) {
        const t = ev.tag;
        out.push(el("p", "tag " + t.uid + (t.present ? " on " : " off ") + "reader " + t.reader +
          (t.id ? " — " + t.kind + " " + t.id : " — not in the registry") + (t.data ? ", data " + t.data : "")));
      } else if (ev.key) {
        const k = ev.key;
        out.push(el("p", "key “" + k.key + "” on " + k.keypad + (k.long ? " (long)" : "") +
          (k.args && k.args.length ? ", arguments " + k.args.join(" ") : "") + (k.from ? ", from " + k.from : "") +
          (k.id ? ", command " + k.id : "")));
      } else {
        out.push(el("p", "input: " + ev.input));
      }
      if (ev.dice && ev.dice.length) {
        const p = el("p", "dice: ");
        for (const d of ev.dice) {
          p.append(el("span", String(d.value), "die"),
            el("span", d.origin + (d.device ? " " + d.device : "") + (d.confidence ? " (" + d.confidence.toFixed(2) + ")" : "") + " ", "meta"));
        }
        out.push(p);
      }
      const s = ev.snapshot;
      if (s) {
        out.push(el("p", "snapshot " + s.seq + (s.current ? " (this entry's input)" : " (the last before it)") +
          ": " + s.models.length + " of " + s.models_total + " models" +
          (s.only === "involved" ? ", only those involved (size bound)" : s.only === "bound" ? ", cut to the size bound" : "") +
          (s.calibration_mm ? ", calibration ±" + s.calibration_mm.toFixed(1) + " mm" : "")));
        const tbl = el("table", undefined, "grid");
        const head = el("tr");
        for (const h of ["model", "unit", "x mm", "y mm", "± mm", ""]) head.append(el("th", h));
        tbl.append(head);
        for (const p of s.models) {
          const tr = el("tr");
          for (const v of [p.id, p.unit, p.x_mm.toFixed(1), p.y_mm.toFixed(1), p.sigma_mm.toFixed(1),
            (p.cover ? p.cover + " cover " : "") + (p.occluded ? "not seen" : "")]) tr.append(el("td", v));
          tbl.append(tr);
        }
        out.push(tbl);
        for (const w of s.warnings || []) out.push(el("p", "camera: " + w, "bad"));
      }
      if (ev.image) {
        out.push(el("p", "image sha256 " + ev.image.sha256 + " (" + ev.image.bytes + " bytes): " + m.Image,
          m.Image === "present" ? "meta raw" : "bad raw"));
      }
    }
    fill(box, out);

    const img = $("picture"), none = $("no-picture");
    if (ev && ev.image && m.Image === "present") {
      img.src = "image/" + ev.image.sha256;
      img.hidden = false;
      none.textContent = "";
    } else {
      img.removeAttribute("src");
      img.hidden = true;
      none.textContent = ev && ev.image ? "the picture is " + m.Image : "no picture of this moment";
    }
  }

  const go = (seq) => load(seq);
  $("first").onclick = () => go("first");
  $("lastbtn").onclick = () => go("last");
  $("prev").onclick = () => cur && cur.Seq > 1 && go(cur.Seq - 1);
  $("next").onclick = () => cur && cur.Seq < last && go(cur.Seq + 1);
  $("jump").onsubmit = (e) => { e.preventDefault(); if ($("to").value) go($("to").value); };
  $("lang").onclick = () => {
    lang = lang === "en" ? "pl" : "en";
    $("lang").textContent = lang === "en" ? "PL" : "EN";
    document.documentElement.lang = lang;
    if (cur) render(cur);
  };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") $("prev").click();
    if (e.key === "ArrowRight") $("next").click();
    if (e.key === "Home") $("first").click();
    if (e.key === "End") $("lastbtn").click();
  });
  const m = /seq=(\w+)/.exec(location.hash);
  load(m ? m[1] : "first");
})();
