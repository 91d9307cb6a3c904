// Sztab pages: one EventSource per page, the view re-drawn on every state.
(function () {
  "use strict";
  var body = document.body;
  var page = body.dataset.page, audience = body.dataset.audience;
  var app = document.getElementById("app");
  var meta = {}, msg = null, catalogue = null, events = [], lastHeard = 0, heartbeatMs = 2000;
  // ?lang=pl or ?lang=en picks the page's language (a TV's kiosk URL, the
  // page checks) and keeps it, as the language button does.
  var lang = (location.search.match(/[?&]lang=(pl|en)\b/) || [])[1] || localStorage.getItem("sztab-lang");
  if (lang) localStorage.setItem("sztab-lang", lang);
  var big = localStorage.getItem("sztab-big") === "1" || /[?&]big=1/.test(location.search);
  var panels = window.SztabPanels;

  function el(tag, attrs) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "class") e.className = attrs[k];
      else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c == null || c === false) continue;
      if (Array.isArray(c)) c.forEach(function (x) { if (x) e.appendChild(typeof x === "string" ? document.createTextNode(x) : x); });
      else e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    }
    return e;
  }
  function t(text) { if (!text) return ""; if (typeof text === "string") return text; return (lang === "en" ? text.en : text.pl) || text.pl || text.en || ""; }
  function say(pl, en) { return lang === "en" ? en : pl; }
  var sent = {};
  // What a person types survives a redraw (a state arrives while the
  // referee writes a reason) until a command is sent from the page: the
  // panel's text inputs are matched by data-testid or id, and the one
  // being typed in keeps the focus and the caret.
  var typedSent = false;
  function keyOf(n) { return n.dataset.testid || n.id; }
  function typedIn(root) {
    var kept = { values: {} };
    if (typedSent) { typedSent = false; return kept; }
    root.querySelectorAll("input:not([type=checkbox]):not([type=radio]), textarea").forEach(function (n) {
      if (keyOf(n) && n.value !== n.defaultValue) kept.values[keyOf(n)] = n.value;
    });
    var a = document.activeElement;
    if (a && root.contains(a) && keyOf(a) && (a.tagName === "INPUT" || a.tagName === "TEXTAREA")) {
      kept.focus = keyOf(a);
      try { kept.caret = [a.selectionStart, a.selectionEnd]; } catch (e) { kept.caret = null; }
    }
    return kept;
  }
  function keepTyped(root, kept) {
    root.querySelectorAll("input:not([type=checkbox]):not([type=radio]), textarea").forEach(function (n) {
      var v = kept.values[keyOf(n)];
      if (keyOf(n) && v !== undefined && n.value === n.defaultValue) n.value = v;
      if (kept.focus && keyOf(n) === kept.focus) {
        n.focus();
        if (kept.caret && kept.caret[0] !== null) { try { n.setSelectionRange(kept.caret[0], kept.caret[1]); } catch (e) {} }
      }
    });
  }
  // redraw lets a panel show a choice made on the page (a piece picked up
  // before the field it goes to is clicked).
  var ctx = { el: el, t: t, say: say, audience: audience, page: page, meta: meta, answer: "", redraw: function () { render(); },
              command: function (name, args, extra) {
                var id = "page-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 8);
                sent[id] = name;
                typedSent = true;
                ctx.answer = say("wysłano…", "sent…"); ctx.answerOk = true;
                render();
                return fetch("/command", { method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(Object.assign(args && args.length ? { name: name, id: id, args: args } : { name: name, id: id }, extra || {})) })
                  .then(function (r) { if (!r.ok) return r.text().then(function (x) { ctx.answer = x; render(); }); });
              } };

  var conn = el("span", { class: "conn stale", "data-testid": "connection", text: "…" });
  var staleBanner = el("div", { class: "stale-banner", "data-testid": "stale", hidden: "" });
  var warnBanner = el("div", { class: "warn-banner", "data-testid": "render-warning", hidden: "" });
  var title = el("h1", { "data-testid": "title" }, "Sztab");
  var panel = el("section", { class: "card", "data-testid": "panel" });
  var log = el("ol", { class: "log", "data-testid": "log" });
  var langBtn = el("button", { "data-testid": "lang", onclick: function () { setLang(lang === "en" ? "pl" : "en"); } });
  var bigBtn = el("button", { "data-testid": "big", onclick: function () { big = !big; localStorage.setItem("sztab-big", big ? "1" : "0"); applyBig(); } }, "A+");
  var logoutBtn = el("button", { type: "submit", "data-testid": "logout" });
  var bar = el("header", { class: "topbar" }, title, langBtn, bigBtn, conn,
    audience !== "public" ? el("form", { method: "post", action: "/logout" }, logoutBtn) : null);
  // The event log is secondary: on a TV it keeps its newest lines.
  var mainEl = page === "hub" ? el("main", {}, panel) : el("main", { class: "layout" }, panel, el("aside", { class: "card", "data-role": "secondary" }, el("h2", { "data-testid": "log-title" }), log));
  app.replaceChildren(bar, staleBanner, warnBanner, mainEl);

  function applyBig() { body.classList.toggle("big", big); bigBtn.classList.toggle("on", big); }
  // TV mode: the table screen on a landscape screen 1000 px wide or more
  // (sztab.css): the whole state on one screen, type for 3 m.
  function applyTV() {
    var tv = page === "table" && innerWidth >= 1000 && innerWidth > innerHeight;
    body.classList.toggle("tv", tv);
    document.documentElement.classList.toggle("tv", tv);
    ctx.tv = tv;
  }
  addEventListener("resize", function () { var was = ctx.tv; applyTV(); if (was !== ctx.tv) render(); });
  function setLang(l) { lang = l; localStorage.setItem("sztab-lang", l); render(); renderLog(); }
  function setStale(s) {
    conn.className = "conn " + (s ? "stale" : "live");
    conn.textContent = s ? say("nieaktualne", "stale") : say("na żywo", "live");
    staleBanner.hidden = !s;
    staleBanner.textContent = say("Brak połączenia ze stołem — dane mogą być nieaktualne. Łączę ponownie…",
                                  "Lost the connection to the table — this may be out of date. Reconnecting…");
    body.dataset.stale = s ? "1" : "0";
  }

  function render() {
    langBtn.textContent = lang === "en" ? "PL" : "EN";
    langBtn.setAttribute("aria-label", say("English", "polski"));
    bigBtn.setAttribute("aria-label", say("duże litery", "large type"));
    logoutBtn.textContent = say("Wyloguj", "Sign out");
    document.documentElement.lang = lang;
    var head = meta.venue ? meta.venue + (meta.table ? " · " + meta.table : "") : "Sztab";
    var pageName = { table: "", referee: say("sędzia", "referee"), player: say("gracz", "player"), hub: say("sala", "venue") }[page];
    title.replaceChildren(document.createTextNode(head), el("span", { class: "sub" }, [t(meta.title) || meta.game || "", pageName].filter(Boolean).join(" · ")));
    // The game runs on data its rulebook does not print (docs/box.md).
    if (msg && msg.sample_data) title.appendChild(el("span", { class: "sub sample-data", "data-testid": "sample-data" }, t(msg.sample_data)));
    var logTitle = app.querySelector("[data-testid=log-title]");
    if (logTitle) logTitle.textContent = say("Zdarzenia", "Events");
    setStale(body.dataset.stale !== "0");
    if (!msg) return;
    try {
      ctx.meta = meta;
      var game = panels.games[meta.game];
      var draw = page === "hub" ? panels.hub : (game ? game.draw : panels.generic);
      var node = draw(msg, ctx);
      // The referee's record (corrections, flagged breaches, open calls)
      // shows on every page of the table.
      // On a TV the panel's body is a column the screen's height; a game's
      // node with class "fill" takes what is left of it (sztab.css).
      node = el("div", { class: "panel-body" }, page !== "hub" && msg.record ? panels.record(msg, ctx) : null, node,
        page === "referee" ? panels.referee(msg, ctx) : null,
        page === "referee" && panels.newGame ? panels.newGame(msg, ctx) : null,
        // The table's config names a box pack (box:): its enrolment page.
        page === "referee" && body.dataset.box ? el("p", { class: "box-link" }, el("a", { href: body.dataset.box + "?lang=" + lang, "data-testid": "box-link",
          text: say("Zapis pudełka klubu: karty i plansze →", "Enrol the club's box: cards and boards →") })) : null,
        page === "player" ? panels.player(msg, ctx) : null);
      var kept = typedIn(panel);
      panel.replaceChildren(node);
      keepTyped(panel, kept);
      body.dataset.seq = String(msg.seq || 0);
      warnBanner.hidden = true;
    } catch (err) {
      warnBanner.hidden = false;
      warnBanner.textContent = say("Nie udało się narysować nowego stanu; pokazuję ostatni dobry. ", "Could not draw the new state; showing the last good one. ") + err;
      fetch("/client-error", { method: "POST", headers: {"Content-Type": "application/json"},
                               body: JSON.stringify({ page: location.pathname, error: String(err && err.stack || err).slice(0, 2000) }) }).catch(function () {});
    }
  }

  function withCatalogue() {
    var st = msg && msg.state;
    if (!catalogue || !st || typeof st !== "object") return;
    for (var k in catalogue) if (!(k in st)) st[k] = catalogue[k];
  }

  function renderLog() {
    var items = events.slice(-40).reverse().map(function (m) {
      var ev = m.event || {};
      // The event's type as data-type, not a class: a type such as "die"
      // or "turn" must not take a panel's style.
      // Marked for attention by the list the table's meta sends (the
      // contract's notices that ask for it and the game's own): the page
      // knows no game's types.
      var attrs = { class: "ev", "data-type": ev.type || "" };
      if (meta && (meta.attention || []).indexOf(ev.type) >= 0) attrs["data-attention"] = "1";
      return el("li", attrs, el("span", { class: "seq", text: "#" + m.seq }), t(ev.text));
    });
    log.replaceChildren.apply(log, items);
  }

  function connect() {
    var es = new EventSource("/stream?view=" + encodeURIComponent(audience));
    es.addEventListener("meta", function (e) {
      meta = JSON.parse(e.data);
      heartbeatMs = meta.heartbeat_ms || heartbeatMs;
      if (!lang) lang = meta.language || "pl";
      events = []; // a new connection replays the recent events
      heard(); render(); renderLog();
    });
    // The game's catalogue (its cards, map and texts, which never change
    // during a game) comes once; each state names them by id, and its
    // keys are put back into the state before a panel draws it.
    es.addEventListener("catalogue", function (e) { catalogue = JSON.parse(e.data).catalogue || null; withCatalogue(); heard(); render(); });
    es.addEventListener("state", function (e) { msg = JSON.parse(e.data); withCatalogue(); heard(); render(); });
    es.addEventListener("event", function (e) {
      var m = JSON.parse(e.data);
      heard();
      var ev = m.event || {};
      if (ev.type === "command_result") {
        // The answer to a command: shown beside the buttons of the page
        // that sent it.
        if (ev.id && sent[ev.id]) {
          ctx.answer = t(ev.text) || (ev.ok ? say("przyjęto", "taken") : say("odrzucono", "refused"));
          ctx.answerOk = !!ev.ok;
          delete sent[ev.id];
          render();
        }
        // Not in the log: a refusal is there already, as its notice.
        return;
      }
      events.push(m); if (events.length > 80) events.shift(); renderLog();
    });
    // The server's time comes with each ping: the venue wall's round clock
    // counts from it, not from a TV's own clock.
    es.addEventListener("ping", function (e) { var ms = Number(e.data); if (ms > 0) ctx.serverOffset = ms - Date.now(); heard(); });
    es.onerror = function () {
      setStale(true);
      if (es.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
    };
  }
  function heard() { lastHeard = Date.now(); if (body.dataset.stale !== "0") { body.dataset.stale = "0"; setStale(false); } }
  setInterval(function () { if (Date.now() - lastHeard > 3 * heartbeatMs) { body.dataset.stale = "1"; setStale(true); } }, 250);

  if (!lang) lang = "pl";
  applyBig(); applyTV(); render(); connect();
})();
