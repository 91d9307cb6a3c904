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

  // The table from above, in table millimetres (y grows north, so it is
  // flipped for the screen): terrain coloured by kind (light cover yellow,
  // heavy green, as the rulebook marks them), the weapon's reach around the
  // shooting models, template (orange) and objective markers, the models by
  // unit with a ring of two standard uncertainties, and the declared shot's
  // lines of fire (dashed when its cover is too close to call).
  var NS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, kids) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { if (attrs[k] != null) e.setAttribute(k, String(attrs[k])); });
    (kids || []).forEach(function (k) { if (k) e.appendChild(typeof k === "string" ? document.createTextNode(k) : k); });
    return e;
  }
  var unitColours = ["#1f5fbf", "#b22222", "#6a3d9a", "#0f7f6f", "#8c564b", "#d62790", "#555555", "#17becf"];
  var terrainFill = { light: "#f2d22e", heavy: "#3f9b3f" };

  function tablePicture(pic, st, ctx) {
    var W = pic.width_mm || 1000, D = pic.depth_mm || 1000;
    var models = pic.models || [];
    models.forEach(function (m) { W = Math.max(W, m.x_mm + 20); D = Math.max(D, m.y_mm + 20); });
    function y(v) { return D - v; }
    var units = [], byId = {};
    models.forEach(function (m) { if (units.indexOf(m.unit) < 0) units.push(m.unit); byId[m.id] = m; });
    var g = [svg("rect", { x: 0, y: 0, width: W, height: D, fill: "#f4efe4", stroke: "#999", "stroke-width": 2 })];
    (pic.terrain || []).forEach(function (t) {
      var pts = (t.outline || []).map(function (p) { return p[0] + "," + y(p[1]); }).join(" ");
      g.push(svg("polygon", { points: pts, fill: terrainFill[t.kind] || "#aaa", "fill-opacity": 0.75, stroke: "#333", "stroke-width": 1,
        "data-testid": "terrain", "data-kind": t.kind, "data-id": t.id },
        [svg("title", {}, [(t.id || "") + ": " + two(coverName[t.kind], ctx)])]));
    });
    (pic.ranged || []).forEach(function (id) {
      var m = byId[id];
      if (m && pic.range_mm) g.push(svg("circle", { cx: m.x_mm, cy: y(m.y_mm), r: pic.range_mm + (m.base_mm || 0) / 2, fill: "none",
        stroke: "#1f5fbf", "stroke-opacity": 0.35, "stroke-dasharray": "8 6", "stroke-width": 2, "data-testid": "range", "data-model": id }));
    });
    (pic.markers || []).forEach(function (mk) {
      if (mk.kind === "template") {
        g.push(svg("circle", { cx: mk.x_mm, cy: y(mk.y_mm), r: (mk.diameter_mm || 0) / 2, fill: "#ff8c00", "fill-opacity": 0.55, stroke: "#c05a00",
          "data-testid": "template" }));
      } else {
        var r = Math.max((mk.diameter_mm || 30) / 2, 10);
        g.push(svg("circle", { cx: mk.x_mm, cy: y(mk.y_mm), r: r, fill: "#fff", stroke: "#000", "stroke-width": 3, "data-testid": "objective" }),
          svg("circle", { cx: mk.x_mm, cy: y(mk.y_mm), r: r / 3, fill: "#000" }));
      }
    });
    // Each model's state from the engine: wounded (an orange ring) or
    // killed (greyed and crossed out).
    var health = {};
    (st.units || []).forEach(function (u) { (u.models || []).forEach(function (m) { health[m.id] = m; }); });
    models.forEach(function (m) {
      var colour = unitColours[units.indexOf(m.unit) % unitColours.length];
      var r = Math.max((m.base_mm || 25) / 2, 4);
      var h = health[m.id] || {};
      var state = h.removed ? "killed" : (h.wounds > 0 ? "wounded" : "");
      g.push(svg("circle", { cx: m.x_mm, cy: y(m.y_mm), r: r + 2 * (m.sigma_mm || 0), fill: "none", stroke: colour, "stroke-opacity": 0.5, "stroke-dasharray": "3 2",
        "data-testid": "uncertainty", "data-model": m.id }));
      g.push(svg("circle", { cx: m.x_mm, cy: y(m.y_mm), r: r, fill: h.removed ? "#8a8a8a" : colour, "fill-opacity": m.occluded ? 0.3 : 0.9,
        stroke: state === "wounded" ? "#ff8c00" : "#000", "stroke-width": state === "wounded" ? 6 : 1,
        "data-testid": "model", "data-model": m.id, "data-unit": m.unit, "data-state": state }, [svg("title", {}, [unitName(st, m.unit)])]));
      if (h.removed) {
        var k = r * 0.9;
        g.push(svg("path", { d: "M" + (m.x_mm - k) + "," + (y(m.y_mm) - k) + "L" + (m.x_mm + k) + "," + (y(m.y_mm) + k) + "M" + (m.x_mm - k) + "," + (y(m.y_mm) + k) + "L" + (m.x_mm + k) + "," + (y(m.y_mm) - k),
          stroke: "#000", "stroke-width": 4, "data-testid": "killed", "data-model": m.id }));
      }
    });
    (pic.lines || []).forEach(function (l) {
      var a = byId[l.from], b = byId[l.to];
      if (!a || !b) return;
      g.push(svg("line", { x1: a.x_mm, y1: y(a.y_mm), x2: b.x_mm, y2: y(b.y_mm), stroke: l.last ? "#7a0000" : "#d00000", "stroke-width": l.last ? 4 : 3,
        "stroke-dasharray": l.close ? "10 6" : null, "data-testid": l.last ? "last-line" : "line-of-fire", "data-from": l.from, "data-to": l.to, "data-cover": l.cover || "none",
        "data-close": l.close ? "true" : "false" },
        [svg("title", {}, [ctx.say("osłona ", "cover ") + two(coverName[l.cover || "none"], ctx) +
          (l.close ? ctx.say(" (za blisko, by rozstrzygnąć)", " (too close to call)") : "")])]));
    });
    var legend = ctx.el("div", { class: "legend", "data-role": "secondary", "data-testid": "table-legend" }, units.map(function (u, i) {
      return swatch(ctx, svg("circle", { cx: 5, cy: 5, r: 4.5, fill: unitColours[i % unitColours.length], stroke: "#fff" }), unitName(st, u));
    }).concat([swatch(ctx, svg("rect", { x: 0, y: 1, width: 10, height: 8, fill: terrainFill.light }), ctx.say("osłona lekka", "light cover")),
      swatch(ctx, svg("rect", { x: 0, y: 1, width: 10, height: 8, fill: terrainFill.heavy }), ctx.say("osłona ciężka", "heavy cover")),
      swatch(ctx, svg("circle", { cx: 5, cy: 5, r: 3.5, fill: "#888", stroke: "#ff8c00", "stroke-width": 2 }), ctx.say("ranny", "wounded")),
      swatch(ctx, svg("path", { d: "M1,1L9,9M1,9L9,1", stroke: "#fff", "stroke-width": 2 }), ctx.say("zabity", "killed")),
      swatch(ctx, svg("line", { x1: 0, y1: 5, x2: 10, y2: 5, stroke: "#ff5050", "stroke-width": 2 }), ctx.say("linia ognia", "line of fire"))]));
    var pic2 = svg("svg", { viewBox: "0 0 " + W + " " + D, width: "100%", "data-testid": "table-svg", role: "img",
      "aria-label": ctx.say("Stół z góry", "The table from above") }, g);
    return ctx.el("div", { class: "table-picture", "data-testid": "table-picture" }, pic2, legend);
  }

  // swatch is a legend's entry: a small inline SVG and its words.
  function swatch(ctx, shape, words) {
    return ctx.el("span", { class: "swatch" }, svg("svg", { viewBox: "0 0 10 10", "aria-hidden": "true" }, [shape]), words);
  }

  function unitCard(u, st, ctx) {
    var active = st.players && st.players[st.active] && st.players[st.active].seat === u.owner;
    var alive = (u.models || []).filter(function (m) { return !m.removed; }).length;
    var pips = (u.models || []).map(function (m) {
      var left = m.lives - m.wounds;
      var cls = m.removed ? "dead" : (m.wounds > 0 ? "hurt" : "full");
      return ctx.el("span", { class: "pip " + cls, "data-model": m.id, "data-lives": String(left), text: m.removed ? "×" : String(left) });
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

  // sides is the score: each side's models left, kills, objective and
  // order points; on the TV the numbers are headline-sized.
  function sides(st, ctx) {
    if (!st.sides || !st.sides.length) return null;
    var head = ["", ctx.say("modele", "models"), ctx.say("zabici", "kills"), ctx.say("punkty", "points"), ctx.say("rozkazy", "orders")];
    return ctx.el("table", { class: "grid score", "data-testid": "score" },
      ctx.el("tr", {}, head.map(function (h) { return ctx.el("th", { text: h }); })),
      st.sides.map(function (sd) {
        return ctx.el("tr", {}, ctx.el("td", { text: sd.faction }), [sd.alive, sd.kills, sd.objective_points, sd.order_points].map(function (v) {
          return ctx.el("td", { class: "score-num", "data-role": "headline", text: String(v == null ? "" : v) });
        }));
      }));
  }

  function hand(st, ctx) {
    var cards = [];
    (st.seats || []).forEach(function (seat) {
      (seat.hand || []).forEach(function (c) { cards.push(ctx.el("li", { text: c.name ? ctx.t(c.name) : ctx.say("karta rozkazu", "order card") })); });
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
    nodes.push(ctx.el("div", { class: "shot-result", "data-testid": "last-shot" },
      ctx.say(ls.hits + " trafień, " + ls.wounds + " ran, " + ls.saved + " obronionych: " + (ls.wounded || []).length + " rannych, " + (ls.killed || []).length + " zabitych",
              ls.hits + " hits, " + ls.wounds + " wounds, " + ls.saved + " saved: " + (ls.wounded || []).length + " wounded, " + (ls.killed || []).length + " killed")));
    var pic = st.table || {};
    nodes.push(ctx.el("div", { "data-testid": "last-shot-line" }, [ls.weapon,
      pic.last_kroki ? (+pic.last_kroki).toFixed(1) + " " + ctx.say("kroku", "kroki") : "",
      ctx.say("osłona: ", "cover: ") + two(coverName[ls.cover || "none"], ctx)].filter(Boolean).join(" · ")));
    if ((ls.killed || []).length) nodes.push(ctx.el("div", { class: "flag" }, ctx.say("Zdejmij ze stołu: ", "Take off the table: ") + modelNames(st, ls.killed, ctx)));
    return ctx.el("div", { class: "shot" }, nodes);
  }

  // modelNames names models by their unit and number in it ("Grenadierzy 2").
  function modelNames(st, ids, ctx) {
    return (ids || []).map(function (id) {
      var name = id;
      (st.units || []).forEach(function (u) { (u.models || []).forEach(function (m, i) { if (m.id === id) name = u.name + " " + (i + 1); }); });
      return name;
    }).join(", ");
  }

  // skirmish draws the state: on a TV (ctx.tv) the table from above on the
  // left, scaled to fit, the headline, score, units and shot beside it; on
  // a phone or a desk one column.
  function skirmish(msg, ctx) {
    var st = msg.state || {};
    var active = st.players && st.players[st.active];
    var turn = ctx.el("div", { class: "turn", "data-role": "headline", "data-testid": "turn" },
      ctx.say("Runda ", "Round "), ctx.el("b", { text: String(st.round || 0) }), " · ",
      two(phaseName[st.phase], ctx), active && !st.result ? " · " + active.name : "");
    var info = [turn, P.result(msg, ctx, "result"), sides(st, ctx)];
    if (st.call) info.push(ctx.el("div", { class: "flag", "data-testid": "too-close" }, ctx.t(st.call.question) || ctx.say("Pomiar za blisko granicy — rozstrzygnijcie.", "A measurement too close to call — please rule.")));
    info.push(hand(st, ctx));
    var units = ctx.el("div", { class: "units", "data-testid": "units" }, (st.units || []).map(function (u) { return unitCard(u, st, ctx); }));
    if (st.shot) info.push(shotPanel(st.shot, st, ctx));
    if (st.last_shot) info.push(lastShot(st.last_shot, st, ctx));
    var picture = st.table ? tablePicture(st.table, st, ctx) : null;
    // The camera's annotated image, one click away (not on the TV).
    var image = msg.image && !ctx.tv ? ctx.el("details", { "data-testid": "camera-image" }, ctx.el("summary", { text: ctx.say("Obraz z kamery", "Camera image") }),
      ctx.el("img", { class: "table", alt: "", src: "/table.jpg?seq=" + msg.seq, onerror: "this.hidden=true" })) : null;
    if (ctx.tv) {
      return ctx.el("div", { class: "sk-tv fill" }, ctx.el("div", { class: "sk-map" }, picture, units), ctx.el("div", { class: "sk-info" }, info));
    }
    return ctx.el("div", {}, info, units, picture, image);
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
