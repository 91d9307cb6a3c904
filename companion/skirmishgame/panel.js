// The skirmish game's screen panel (Powstanie Warszawskie): units, the
// shot in progress with its odds and dice, the last shot, the score. It is
// served as /static/games/skirmish.js and registers itself with the shared
// panels (companion/display/static/panels.js).
(function () {
  "use strict";
  var P = window.SztabPanels;
  var distBars = P.util.distBars, dice = P.util.dice;

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
    return ctx.el("div", {}, nodes);
  }

  // ruling is the referee's part of the panel: a measurement waiting for a
  // ruling.
  function ruling(msg, ctx) {
    var st = msg.state || {};
    if (!((st.shot && st.shot.stage === "ruling") || st.call)) return null;
    return ctx.el("div", { class: "flag", "data-testid": "ruling-needed" },
      ctx.say("Pomiar czeka na rozstrzygnięcie", "A measurement waits for a ruling") + (st.call ? ": " + ctx.t(st.call.question) : "."));
  }

  P.register("skirmish", skirmish, { referee: ruling });
})();
