// Panels draw one game's view. Each takes the state message and a context
// (el, t for bilingual text, say for UI strings) and returns a DOM node.
// A game that lands adds its panel here under its config id.
window.SztabPanels = (function () {
  "use strict";
  function pct(p) { return (100 * p).toFixed(1) + "%"; }

  // dist accepts an array [p0, p1, ...] or a map {"0": p0, ...}.
  function distBars(dist, ctx, testid) {
    var rows = [], pairs = [];
    if (Array.isArray(dist)) dist.forEach(function (p, k) { pairs.push([k, p]); });
    else for (var k in dist || {}) pairs.push([+k, dist[k]]);
    pairs.sort(function (a, b) { return a[0] - b[0]; });
    pairs.forEach(function (kp) {
      if (kp[1] < 0.0005) return;
      rows.push(ctx.el("span", { text: String(kp[0]) }), ctx.el("div", { class: "bar", style: "width:" + (100 * kp[1]).toFixed(1) + "%" }), ctx.el("span", { text: pct(kp[1]) }));
    });
    return ctx.el("div", { class: "bars", "data-testid": testid }, rows);
  }

  function dice(rolls, threshold, ctx, need) {
    var out = (rolls || []).map(function (r) {
      var ok = !threshold || r.value >= threshold;
      return ctx.el("span", { class: "die" + (ok ? "" : " fail"), title: r.origin + (r.device ? " " + r.device : ""), text: String(r.value) });
    });
    for (var i = (rolls || []).length; i < (need || 0); i++) out.push(ctx.el("span", { class: "die pending" }));
    return ctx.el("div", { class: "dice" }, out);
  }

  var stageName = {
    target: ["kostka celu", "target die"], hit: ["trafienie", "to hit"], wound: ["rany", "to wound"], damage: ["rany (k6)", "wounds (d6)"], save: ["obrona", "saves"], ruling: ["rozstrzygnięcie", "ruling"]
  };
  var coverName = { none: ["brak", "none"], light: ["lekka", "light"], heavy: ["ciężka", "heavy"] };
  var phaseName = { setup: ["przygotowanie", "setup"], objectives: ["punkty zwycięstwa", "objectives"], deployment: ["rozmieszczenie", "deployment"], orders: ["rozkazy", "orders"], movement: ["ruch", "movement"], shooting: ["strzał", "shooting"], over: ["koniec gry", "game over"] };
  function two(pair, ctx) { return pair ? ctx.say(pair[0], pair[1]) : ""; }

  function unitCard(u, st, ctx) {
    var active = st.players && st.players[st.active] && st.players[st.active].seat === u.owner;
    var alive = (u.models || []).filter(function (m) { return !m.removed; }).length;
    var pips = (u.models || []).map(function (m) {
      var left = m.lives - m.wounds;
      var cls = m.removed ? "dead" : (m.wounds > 0 ? "hurt" : "full");
      return ctx.el("span", { class: "pip " + cls, title: m.id, "data-model": m.id, "data-lives": String(left), text: m.removed ? "✕" : String(left) });
    });
    return ctx.el("div", { class: "unit" + (active ? " active" : ""), "data-testid": "unit-" + u.id },
      ctx.el("div", { class: "name", text: u.name }),
      ctx.el("div", { class: "meta", text: [u.faction, weaponNames(u), ctx.say("obrona ", "save ") + u.defence + "+", alive + "/" + (u.models || []).length,
        u.deployed === false ? ctx.say("nierozstawiony", "not deployed") : ""].filter(Boolean).join(" · ") }),
      ctx.el("div", { class: "pips" }, pips));
  }

  function weaponNames(u) {
    var names = (u.weapons || (u.weapon ? [u.weapon] : [])).map(function (w) { return w.name; });
    return names.filter(function (n, i) { return names.indexOf(n) === i; }).join(", ");
  }

  function sides(st, ctx) {
    if (!st.sides || !st.sides.length) return null;
    var head = ["", ctx.say("modele", "models"), ctx.say("zabici", "kills"), ctx.say("punkty", "objective pts"), ctx.say("rozkazy", "order pts")];
    return ctx.el("table", { class: "grid", "data-testid": "score" },
      ctx.el("tr", {}, head.map(function (h) { return ctx.el("th", { text: h }); })),
      st.sides.map(function (sd) {
        return ctx.el("tr", {}, [sd.faction, sd.alive, sd.kills, sd.objective_points, sd.order_points].map(function (v) { return ctx.el("td", { text: String(v == null ? "" : v) }); }));
      }));
  }

  function hand(st, ctx) {
    var cards = [];
    (st.seats || []).forEach(function (seat) {
      (seat.hand || []).forEach(function (c) { cards.push(ctx.el("li", { text: (c.name ? ctx.t(c.name) : c.id) })); });
    });
    if (!cards.length) return null;
    return ctx.el("div", { "data-testid": "hand" }, ctx.el("h2", { text: ctx.say("Twoje karty rozkazów", "Your order cards") }), ctx.el("ul", {}, cards));
  }

  function unitName(st, id) {
    var u = (st.units || []).filter(function (x) { return x.id === id; })[0];
    return u ? u.name : id;
  }

  function shotPanel(sh, st, ctx) {
    var nodes = [ctx.el("h2", { text: ctx.say("Strzał", "Shot") + ": " + unitName(st, sh.shooter) + " → " + unitName(st, sh.target) })];
    nodes.push(ctx.el("div", { "data-testid": "shot-line", text: [sh.weapon,
      (sh.distance ? (+sh.distance.kroki).toFixed(1) + (sh.distance.uncertainty ? "±" + (+sh.distance.uncertainty).toFixed(1) : "") + " " + ctx.say("kroków", "kroki") : ""),
      ctx.say("osłona: ", "cover: ") + two(coverName[sh.cover], ctx),
      sh.attacks + " " + ctx.say("kości", "dice"),
      ctx.say("trafienie ", "hit ") + sh.hit_on + "+", sh.d6_wounds ? ctx.say("rany k6", "d6 wounds") : ctx.say("rany ", "wound ") + sh.wound_on + "+",
      ctx.say("obrona ", "save ") + sh.save_on + "+"].filter(Boolean).join(" · ") }));
    if (sh.stage === "ruling") {
      nodes.push(ctx.el("div", { class: "flag", "data-testid": "too-close" }, ctx.say("Za blisko, by rozstrzygnąć pomiarem — gracze lub sędzia rozstrzygają.", "Too close to call by measurement — the players or the referee rule.")));
    }
    var odds = sh.odds;
    if (odds && (odds.unsaved || odds.wounds)) {
      var mean = function (m) { return m == null ? "" : " (" + ctx.say("średnio ", "mean ") + (+m).toFixed(2) + ")"; };
      nodes.push(ctx.el("h2", { text: ctx.say("Szanse: niezablokowane rany", "Odds: unsaved wounds") + mean(odds.mean_wounds) }), distBars(odds.unsaved || odds.wounds, ctx, "odds-wounds"));
      if (odds.killed) nodes.push(ctx.el("h2", { text: ctx.say("Szanse: zabite modele", "Odds: models killed") + mean(odds.mean_killed) }), distBars(odds.killed, ctx, "odds-killed"));
    }
    var r = sh.rolls || {};
    if (r.hit && r.hit.length) nodes.push(ctx.el("div", {}, two(stageName.hit, ctx)), dice(r.hit, sh.hit_on, ctx));
    if (r.wound && r.wound.length) nodes.push(ctx.el("div", {}, two(stageName.wound, ctx)), dice(r.wound, sh.wound_on, ctx));
    if (r.damage && r.damage.length) nodes.push(ctx.el("div", {}, two(stageName.damage, ctx)), dice(r.damage, 0, ctx));
    if (sh.stage && sh.stage !== "ruling") {
      var th = { hit: sh.hit_on, wound: sh.wound_on, save: sh.save_on }[sh.stage];
      nodes.push(ctx.el("div", { "data-testid": "stage" }, ctx.say("Teraz: ", "Now: ") + two(stageName[sh.stage], ctx) + (th ? " " + th + "+" : "") + " (" + (sh.entered || []).length + "/" + sh.need + ")"),
        dice(sh.entered, th, ctx, sh.need));
    }
    return ctx.el("div", { class: "shot", "data-testid": "shot" }, nodes);
  }

  function lastShot(ls, st, ctx) {
    var nodes = [ctx.el("h2", { text: ctx.say("Ostatni strzał", "Last shot") + ": " + unitName(st, ls.shooter) + " → " + unitName(st, ls.target) })];
    nodes.push(dice(ls.rolls, 0, ctx));
    nodes.push(ctx.el("div", { class: "result", "data-testid": "last-shot" },
      ctx.say(ls.hits + " trafień, " + ls.wounds + " ran, " + ls.saved + " obronionych: " + (ls.wounded || []).length + " rannych, " + (ls.killed || []).length + " zabitych",
              ls.hits + " hits, " + ls.wounds + " wounds, " + ls.saved + " saved: " + (ls.wounded || []).length + " wounded, " + (ls.killed || []).length + " killed")));
    if ((ls.killed || []).length) nodes.push(ctx.el("div", { class: "flag" }, ctx.say("Zdejmij ze stołu: ", "Take off the table: ") + ls.killed.join(", ")));
    return ctx.el("div", { class: "shot" }, nodes);
  }

  function skirmish(msg, ctx) {
    var st = msg.state || {};
    var nodes = [];
    var active = st.players && st.players[st.active];
    nodes.push(ctx.el("div", { class: "turn", "data-testid": "turn" },
      ctx.say("Runda ", "Round ") , ctx.el("b", { text: String(st.round || 0) }), " · ",
      two(phaseName[st.phase], ctx) || st.phase || "", active ? " · " + active.name : ""));
    if (st.result) nodes.push(ctx.el("div", { class: "flag", "data-testid": "result" }, ctx.t(st.result.text) || JSON.stringify(st.result)));
    var score = sides(st, ctx);
    if (score) nodes.push(score);
    if (st.call) nodes.push(ctx.el("div", { class: "flag", "data-testid": "too-close" }, ctx.t(st.call.question) || ctx.say("Pomiar za blisko granicy — rozstrzygnijcie.", "A measurement too close to call — please rule.")));
    var h = hand(st, ctx);
    if (h) nodes.push(h);
    nodes.push(ctx.el("div", { class: "units", "data-testid": "units" }, (st.units || []).map(function (u) { return unitCard(u, st, ctx); })));
    if (st.shot) nodes.push(shotPanel(st.shot, st, ctx));
    if (st.last_shot) nodes.push(lastShot(st.last_shot, st, ctx));
    if (msg.image) nodes.push(ctx.el("img", { class: "table", alt: "", src: "/table.jpg?seq=" + msg.seq, onerror: "this.hidden=true" }));
    if (msg.hidden) nodes.push(ctx.el("div", { "data-testid": "hidden" }, ctx.el("h2", { text: ctx.say("Ukryte", "Hidden") }), ctx.el("pre", { class: "json", text: JSON.stringify(msg.hidden, null, 1) })));
    return ctx.el("div", {}, nodes);
  }

  function referee(msg, ctx) {
    var nodes = [ctx.el("h2", { text: ctx.say("Sędzia", "Referee") })];
    var st = msg.state || {};
    if ((st.shot && st.shot.stage === "ruling") || st.call) nodes.push(ctx.el("div", { class: "flag", "data-testid": "ruling-needed" },
      ctx.say("Pomiar czeka na rozstrzygnięcie", "A measurement waits for a ruling") + (st.call ? ": " + ctx.t(st.call.question) : ".")));
    (msg.desync || []).forEach(function (d) { nodes.push(ctx.el("div", { class: "flag", "data-testid": "desync" }, ctx.t(d.text) || JSON.stringify(d))); });
    var rows = (msg.fairness || []).map(function (f) {
      return ctx.el("tr", { class: f.loaded ? "loaded" : "", "data-testid": "fair-" + f.key },
        ctx.el("td", { text: f.key }), ctx.el("td", { text: String(f.rolls) }), ctx.el("td", { text: f.faces.join(" ") }),
        ctx.el("td", { text: f.p_value.toFixed(4) }), ctx.el("td", { text: f.rejected ? String(f.rejected) : "" }),
        ctx.el("td", { text: f.loaded ? ctx.say("PODEJRZANA", "SUSPECT") : "ok" }));
    });
    nodes.push(ctx.el("h2", { text: ctx.say("Uczciwość kości", "Dice fairness") }),
      ctx.el("table", { class: "grid", "data-testid": "fairness" },
        ctx.el("tr", {}, ["", ctx.say("rzuty", "rolls"), "1–6", "p", ctx.say("odrzucone", "rejected"), ""].map(function (h) { return ctx.el("th", { text: h }); })), rows));
    var b = function (name, pl, en) { return ctx.el("button", { "data-testid": "cmd-" + name, onclick: function () { ctx.command(name); } }, ctx.say(pl, en)); };
    nodes.push(ctx.el("div", { class: "controls" },
      b("confirm", "Uznaj (w zasięgu)", "Accept (in range)"), b("cancel", "Odrzuć / odwołaj", "Reject / call off"),
      b("undo", "Cofnij kość", "Undo die"), b("next", "Następna faza", "Next phase")));
    nodes.push(ctx.el("div", { class: "controls" }, ctx.say("Wpisz kość: ", "Enter a die: "),
      [1, 2, 3, 4, 5, 6].map(function (v) { return b(String(v), String(v), String(v)); })));
    return ctx.el("section", { "data-testid": "referee" }, nodes);
  }

  function hub(msg, ctx) {
    var cards = (msg.tables || []).map(function (tb) {
      var online = tb.status === "online";
      return ctx.el("div", { class: "tablecard" + (online ? "" : " offline"), "data-testid": "table-" + tb.table },
        ctx.el("h2", {}, ctx.el("span", { class: "dot " + (online ? "online" : "offline") }), tb.table),
        ctx.el("div", { "data-testid": "status-" + tb.table, text: (online ? ctx.say("gra trwa", "online") : ctx.say("offline", "offline")) + (tb.game ? " · " + tb.game : "") }),
        tb.headline ? ctx.el("div", { class: "result", "data-testid": "headline-" + tb.table, text: ctx.t(tb.headline) }) : null,
        tb.seq ? ctx.el("div", { class: "meta", text: "seq " + tb.seq }) : null,
        tb.screen ? ctx.el("a", { href: tb.screen, text: ctx.say("ekran stołu →", "table screen →") }) : null);
    });
    if (!cards.length) cards = [ctx.el("p", { text: ctx.say("Żaden stół jeszcze się nie zgłosił.", "No table has reported yet.") })];
    return ctx.el("div", { class: "tables", "data-testid": "tables" }, cards);
  }

  function generic(msg, ctx) {
    return ctx.el("pre", { class: "json", "data-testid": "generic" }, JSON.stringify(msg.state || msg, null, 1));
  }

  return { skirmish: skirmish, referee: referee, hub: hub, generic: generic };
})();
