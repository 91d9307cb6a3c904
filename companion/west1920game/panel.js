// The How the West was Saved (1920) screen panel: the stage (1–14) and
// phase tracker and whose decision it is; the hex map (terrain, rivers and
// bridges, cities and victory cities, neutral countries) with every stack
// (side, strength, facing, supply), HQs and their command range, depots
// (dashed: not linked to the base) and each side's supply reach (a ring
// where only Russian cavalry is supplied), and the
// activation fail chance of each stack from its nearest HQ; the odds
// before every roll (the resource roll's RP, the activation roll, the
// combat's 9.5 a/b/c for each side with the losses each implies). A page
// moves a stack by clicking it and then a hex, or by dragging it onto a
// hex; the other decisions are the buttons of the selected stack and of
// the pending decision. Served as /static/games/west-1920.js.
(function () {
  "use strict";
  var P = window.SztabPanels;
  // On a TV (body.tv) the map takes the screen's height on the left, whole,
  // and the stage, the decision (headline), the players and what the game
  // waits for stand beside it; the event log is narrower than other games'
  // (West's map is wider than tall). The map's type is chosen for the map
  // drawn at the screen's height (TV below). Elsewhere (a phone, the
  // referee's and players' pages) the map is drawn at a readable scale in
  // a box that pans (scrolls; the arrow buttons) and zooms (+ and −).
  var css = document.createElement("style");
  css.textContent = "body.tv main.layout { grid-template-columns: minmax(0, 1fr) 12rem; }" +
    "body.tv .west-tv { display: grid; grid-template-columns: auto minmax(0, 1fr); grid-template-rows: minmax(0, 1fr); gap: .6rem; }" +
    "body.tv .west-tv .result { font-size: 1.25rem; line-height: 1.2; }" +
    "body.tv .west-tv .west-map { height: 100%; width: auto; }" +
    "body.tv .west-tv .west-info { min-width: 0; }" +
    "body.tv .west-tv .west-info .flag { margin: .4rem 0; }" +
    // width 0 and min-width 100%: the box takes its column's width and never
    // widens it to the map's (a phone, the 720p pages' grid).
    ".west-mapbox { overflow: auto; max-height: 75vh; width: 0; min-width: 100%; border: 1px solid var(--line); border-radius: 6px; }" +
    ".west-mapbox svg { display: block; }" +
    ".west-zoom { display: flex; flex-wrap: wrap; gap: .3em; align-items: center; margin: .4em 0; }" +
    ".west-zoom button { min-width: 2.4em; }";
  document.head.appendChild(css);
  // Type on the map in the map's units (a hex is 40 wide). On a TV the map
  // is drawn about 1.45 px a unit at 1080p and 0.97 at 720p (the screen's
  // height less the top bar and margins, over the map's 677): 17 units are
  // 24.7 and 16.4 px, 14.5 units 21 and 14 px (docs/screens.md: 24 px a
  // line of the state, 20 px secondary at 1080p, scaled to the height).
  // Elsewhere the map is drawn 1.5 px a unit at zoom 1: 11 units are
  // 16.5 px, 9 units 13.5 px (16 and 13 px in the hand).
  var TV = { stack: 17, city: 14.5, w: 31, h: 22, dot: 18 };
  // fitTV keeps the TV map's type readable at the scale the map is drawn
  // at, whatever the screen's top bar, banners and fonts leave it: once laid
  // out (and whenever its size changes) a stack's numbers are at least the
  // state's type (1rem) and a city's name the secondary type (.84rem, the
  // event log's), with 3% to spare; the sizes in TV are the least, in map
  // units. Without it the 720p map's 16.4 px stacks stood 0.4 px over the
  // 16 px line, and a taller top bar put them under it.
  function fitTV(el) {
    if (!window.ResizeObserver) return el;
    var watch = new ResizeObserver(function () {
      if (!el.isConnected) { watch.disconnect(); return; } // a redraw replaced the map
      var vb = el.viewBox.baseVal, r = el.getBoundingClientRect();
      if (!vb || !vb.width || !vb.height || !r.width || !r.height) return;
      var scale = Math.min(r.width / vb.width, r.height / vb.height);
      var rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
      var stack = Math.max(TV.stack, 1.03 * rem / scale), city = Math.max(TV.city, 1.03 * 0.84 * rem / scale);
      el.querySelectorAll("[data-label=stack]").forEach(function (t) { t.setAttribute("font-size", stack.toFixed(2)); });
      el.querySelectorAll("[data-label=city]").forEach(function (t) { t.setAttribute("font-size", city.toFixed(2)); t.setAttribute("stroke-width", (city / 5).toFixed(2)); });
    });
    watch.observe(el);
    return el;
  }
  var HAND = { stack: 11, city: 9.5, odds: 9, w: 24, h: 17, dot: 14 };
  var handScale = 1.5, zooms = [0.5, 0.75, 1, 1.5, 2, 3];
  // view is the hand map's zoom and the point of the map (fractions of its
  // width and height) at the middle of its box: kept across redraws.
  var view = { z: 2, fx: 0.5, fy: 0.5 };
  var NS = "http://www.w3.org/2000/svg";
  var R = 20, H3 = Math.sqrt(3) * R;
  var terrainFill = { ".": "#e9e4cf", f: "#8fb877", s: "#9fc2b8", h: "#c9a878", L: "#7fb2e0", M: "#8a7d72", W: "#5d95c9", P: "#6f8f7a" };
  var terrainName = { ".": ["teren otwarty", "clear"], f: ["las", "forest"], s: ["bagno", "swamp"], h: ["wzgórza", "hill"], L: ["jezioro", "lake"], M: ["góry", "mountains"], W: ["morze", "sea"], P: ["Polesie", "Pripet Marshes"] };
  var sideColour = { polish: "#c8313e", russian: "#3a5a9a" };
  var sideName = { polish: ["Polacy", "Poles"], russian: ["Rosjanie", "Russians"] };
  var phases = ["events", "resources", "depots", "chits", "orders", "hq", "withdrawal", "combat", "replacement", "strategic", "reinforcements"];
  var phaseName = { events: ["zdarzenia", "events"], resources: ["zasoby", "resources"], depots: ["magazyny", "depots"], chits: ["żetony", "chits"],
    orders: ["rozkazy", "orders"], hq: ["dowództwa", "HQs"], withdrawal: ["wycofanie", "withdrawal"], combat: ["walka", "combat"],
    replacement: ["uzupełnienia", "replacement"], strategic: ["strategiczny", "strategic"], reinforcements: ["posiłki", "reinforcements"], over: ["koniec", "over"] };
  var dirs = ["N", "NE", "SE", "S", "SW", "NW"];
  var countryName = { czechoslovakia: ["Czechosłowacja", "Czechoslovakia"], latvia: ["Łotwa", "Latvia"], lithuania: ["Litwa", "Lithuania"], east_prussia: ["Prusy Wschodnie", "East Prussia"] };
  var typeName = { infantry: ["piechota", "infantry"], cavalry: ["kawaleria", "cavalry"], artillery: ["artyleria", "artillery"] };
  // unitState is a unit's weakened and out-of-supply marks in words.
  function unitState(u, supply, ctx) { return (u.weak ? ctx.say(", osłabiona", ", weakened") : "") + (supply[u.id] === "unsupplied" ? ctx.say(", bez zaopatrzenia", ", out of supply") : ""); }
  // optionName is a decision's option in words: a unit or HQ by name, a
  // card bonus (card@hex) by the card's title and the hex, a hex by number.
  function optionName(st, o, ctx) {
    var g = st.game || {};
    var u = (g.units || []).filter(function (x) { return x.id === o; })[0] || (g.hqs || []).filter(function (x) { return x.id === o; })[0];
    if (u) return u.name;
    var m = /^(\d+)@(\d+)$/.exec(o);
    if (m) return ctx.say("karta ", "card ") + m[1] + ". " + cardTitle(st, m[1], ctx) + ctx.say(" na heksie ", " on hex ") + m[2];
    return o;
  }
  // cardTitle is an event card's title in the page's language.
  function cardTitle(st, n, ctx) { return ctx.t((st.card_titles || {})[n]); }
  var selected = null;   // the hex of the selected stack
  var selUnit = null;    // a unit picked for a strategic move
  var facing = "";       // the facing a move ends with ("" keeps it)
  var drag = null;       // the hex a drag started on
  var picks = [];        // units or targets ticked for losses / a choice
  var layers = { reach: true, hq: true, odds: true };

  function svg(tag, attrs, kids) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs || {}) {
      if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
      else if (attrs[k] !== null && attrs[k] !== undefined) e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function two(pair, ctx) { return pair ? ctx.say(pair[0], pair[1]) : ""; }
  function pct(p) { return (100 * p).toFixed(1) + "%"; }
  function mySide(st, ctx) {
    var m = /^player\/(\d+)$/.exec(ctx.audience || "");
    if (!m) return "";
    var seats = st.seats || {};
    return Object.keys(seats).filter(function (s) { return seats[s] === +m[1]; })[0] || "";
  }
  function acts(ctx) { return ctx.page !== "table" && ctx.audience !== "public"; }

  // centre of hex CCRR: flat-topped, even columns half a hex lower.
  function centre(hex) {
    var c = +hex.slice(0, 2), r = +hex.slice(2, 4);
    return { x: R + (c - 1) * 1.5 * R, y: H3 / 2 + (r - 1) * H3 + (c % 2 === 0 ? H3 / 2 : 0) };
  }
  function corners(p, k) {
    var out = [];
    for (var i = 0; i < 6; i++) { var a = Math.PI / 3 * i; out.push((p.x + k * R * Math.cos(a)).toFixed(1) + "," + (p.y + k * R * Math.sin(a)).toFixed(1)); }
    return out.join(" ");
  }
  function hexID(c, r) { return (c < 10 ? "0" : "") + c + (r < 10 ? "0" : "") + r; }
  // a facing's direction from the centre: N up, then clockwise.
  function dirVec(d) { var a = [-90, -30, 30, 90, 150, 210][dirs.indexOf(d)] * Math.PI / 180; return { x: Math.cos(a), y: Math.sin(a) }; }

  function unitsByHex(g) {
    var at = {};
    (g.units || []).forEach(function (u) { if (!u.status && u.hex) (at[u.hex] = at[u.hex] || []).push(u); });
    return at;
  }
  function cf(u) { var v = u.weak ? u.weak_cf : u.full; return v ? v[0] + "-" + v[1] : ""; }

  function sendMove(from, to, ctx) {
    var args = [selUnit || from, to];
    var g = ctx._st.game || {};
    if (g.phase === "strategic" && selUnit) { ctx.command("strategic", facing ? args.concat([facing]) : args); }
    else ctx.command("move", facing ? args.concat([facing]) : args);
    selected = null; selUnit = null;
  }

  function mapSVG(st, ctx) {
    var g = st.game || {}, map = st.map || {}, ov = st.overlay || {};
    var F = ctx.tv ? TV : HAND;
    var cols = map.columns || 0, rows = map.rows || 0;
    var W = R + (cols - 1) * 1.5 * R + R + 2, Hh = rows * H3 + H3 / 2 + 2;
    var kids = [];
    var country = {};
    Object.keys(map.countries || {}).forEach(function (n) { (map.countries[n] || []).forEach(function (h) { country[h] = n; }); });
    var hexAt = function (hex) {
      return function (ev) {
        if (!acts(ctx)) return;
        if (drag && drag !== hex) { var f = drag; drag = null; sendMove(f, hex, ctx); return; }
        drag = null;
        if (selected && selected !== hex) { sendMove(selected, hex, ctx); return; }
        // A retreat, a pursuit or a placement: the decision names the
        // stack, a click on the hex is the answer.
        var p = g.pending;
        if (!selected && p && (p.action === "retreat" || p.action === "pursue" || p.action === "place")) ctx.command("move", [p.unit || "-", hex].concat(facing ? [facing] : []));
      };
    };
    for (var c = 1; c <= cols; c++) {
      for (var r = 1; r <= rows; r++) {
        var id = hexID(c, r), letter = ((map.terrain || [])[r - 1] || "")[c - 1] || ".";
        var p = centre(id);
        kids.push(svg("polygon", { points: corners(p, 1), fill: terrainFill[letter] || "#ddd", stroke: country[id] ? "#777" : "#b9b29a", "stroke-width": 0.6,
          "fill-opacity": country[id] ? 0.45 : 1, class: "hex", "data-hex": id, "data-terrain": letter, "data-country": country[id] || null,
          onpointerup: hexAt(id) }, [svg("title", {}, [id + " · " + two(terrainName[letter], ctx) + (country[id] ? " · " + two(countryName[country[id]], ctx) : "")])]));
      }
    }
    // supply reach: a dot per hex in a side's reach.
    if (layers.reach) {
      ["polish", "russian"].forEach(function (side, k) {
        ((ov.reach || {})[side] || []).forEach(function (h) {
          var p = centre(h);
          kids.push(svg("circle", { cx: p.x + (k ? 6 : -6), cy: p.y + 11, r: 2, fill: sideColour[side], "pointer-events": "none", class: "reach-" + side }));
        });
      });
      // the hexes only Russian cavalry reaches (six between, 6.0): a ring
      ((ov.reach || {}).russian_cavalry || []).forEach(function (h) {
        var p = centre(h);
        kids.push(svg("circle", { cx: p.x + 6, cy: p.y + 11, r: 2.5, fill: "none", stroke: sideColour.russian, "stroke-width": 1, "pointer-events": "none", class: "reach-russian_cavalry" }));
      });
    }
    (map.rivers || []).forEach(function (rv) {
      (rv.sides || []).forEach(function (sd) {
        var ab = sd.split("/"), a = centre(ab[0]), b = centre(ab[1]);
        var mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2, dx = b.x - a.x, dy = b.y - a.y, n = Math.sqrt(dx * dx + dy * dy) || 1;
        var px = -dy / n * R / 2, py = dx / n * R / 2, bridged = (rv.bridges || []).indexOf(sd) >= 0;
        kids.push(svg("line", { x1: mx + px, y1: my + py, x2: mx - px, y2: my - py, stroke: "#2f6fb7", "stroke-width": 3, "pointer-events": "none", "data-river": sd }));
        if (bridged) kids.push(svg("line", { x1: mx - dx / n * 4, y1: my - dy / n * 4, x2: mx + dx / n * 4, y2: my + dy / n * 4, stroke: "#222", "stroke-width": 3, "pointer-events": "none", "data-bridge": sd }));
      });
    });
    // The Russian N/S command line (13.1): the top edge of each column's
    // first southern hex.
    (map.ns_line || []).forEach(function (row, k) {
      if (row < 2 || row > rows) return;
      var p = centre(hexID(k + 1, row));
      kids.push(svg("line", { x1: p.x - R, y1: p.y - H3 / 2, x2: p.x + R, y2: p.y - H3 / 2, stroke: "#7a2a9a", "stroke-width": 2, "stroke-dasharray": "5 3",
        "pointer-events": "none", class: "ns-line" }));
    });
    (map.cities || []).forEach(function (ct) {
      var p = centre(ct.hex);
      kids.push(svg(ct.fortified ? "rect" : "circle", ct.fortified ? { x: p.x - 4, y: p.y - 13, width: 8, height: 8, fill: "#fff", stroke: "#000", "pointer-events": "none" } :
        { cx: p.x, cy: p.y - 9, r: 4, fill: "#fff", stroke: "#000", "pointer-events": "none" }));
      // On a TV only the victory cities are named (2.2), large enough for
      // 3 m; the other cities are their marks.
      if (!ctx.tv || ct.victory) kids.push(svg("text", { x: p.x, y: p.y - 14, "text-anchor": "middle", "font-size": F.city, fill: ct.victory ? "#0a5a20" : "#222", "font-weight": ct.victory ? "bold" : "normal",
        stroke: "#fff", "stroke-width": F.city / 5, "paint-order": "stroke", "pointer-events": "none", "data-city": ct.id, "data-role": "secondary", "data-label": "city" }, [ct.name]));
    });
    (ov.depots || []).forEach(function (d) {
      var p = centre(d.hex);
      kids.push(svg("polygon", { points: [p.x - 14, p.y + 4, p.x - 8, p.y - 6, p.x - 2, p.y + 4].join(","), fill: sideColour[d.side], stroke: "#000",
        "stroke-dasharray": d.connected ? null : "2 2", "pointer-events": "none", "data-testid": "depot-" + d.hex, "data-connected": d.connected ? "1" : "0" }));
    });
    if (layers.hq) {
      (ov.hqs || []).forEach(function (q) {
        (q.range || []).forEach(function (h) {
          kids.push(svg("polygon", { points: corners(centre(h), 0.85), fill: "none", stroke: sideColour[q.side], "stroke-dasharray": "3 3", "stroke-width": 1, "pointer-events": "none", class: "hq-range" }));
        });
      });
    }
    (ov.hqs || []).forEach(function (q) {
      var p = centre(q.hex);
      kids.push(svg("polygon", { points: [p.x + 6, p.y - 16, p.x + 16, p.y - 12, p.x + 6, p.y - 8].join(","), fill: sideColour[q.side], stroke: "#000", "data-testid": "hq-" + q.id, "data-hex": q.hex,
        onpointerdown: function (ev) { if (acts(ctx)) { drag = q.hex; ev.preventDefault(); } }, onpointerup: hexAt(q.hex) }, [svg("title", {}, [q.name])]));
    });
    var at = unitsByHex(g), supply = ov.supply || {};
    var fails = {};
    (ov.stacks || []).forEach(function (s) { fails[s.side + s.hex] = s; });
    Object.keys(at).forEach(function (hex) {
      var us = at[hex], p = centre(hex), side = us[0].side, out = us.some(function (u) { return supply[u.id] === "unsupplied"; });
      var weak = us.some(function (u) { return u.weak; });
      var strength = us.reduce(function (n, u) { return n + (u.weak ? u.weak_cf : u.full)[0]; }, 0);
      var g2 = [];
      g2.push(svg("rect", { x: p.x - F.w / 2, y: p.y - F.h / 2, width: F.w, height: F.h, rx: 2, fill: sideColour[side], stroke: out ? "#f08c00" : "#111", "stroke-width": out ? 3 : 1,
        "stroke-dasharray": selected === hex ? "3 1" : null }));
      if (weak) g2.push(svg("line", { x1: p.x - F.w / 2, y1: p.y + F.h / 2, x2: p.x + F.w / 2, y2: p.y - F.h / 2, stroke: "#fff", "stroke-width": 1.5 }));
      g2.push(svg("text", { x: p.x, y: p.y, "dominant-baseline": "central", "text-anchor": "middle", "font-size": F.stack, fill: "#fff", "data-label": "stack" }, [us.length + "·" + strength]));
      var f = (us.filter(function (u) { return u.facing; })[0] || {}).facing;
      if (f) { var v = dirVec(f); g2.push(svg("circle", { cx: p.x + v.x * F.dot, cy: p.y + v.y * F.dot, r: 2.5, fill: "#000", "data-facing": f })); }
      var sv = fails[side + hex];
      // The activation chances are the players' and the referee's: not
      // on the TV, where they could not be read from 3 m.
      if (!ctx.tv && layers.odds && sv && sv.gap !== 0) g2.push(svg("text", { x: p.x, y: p.y + F.h / 2 + F.odds * 0.9, "text-anchor": "middle", "font-size": F.odds, fill: "#000",
        stroke: "#fff", "stroke-width": 2, "paint-order": "stroke", "data-testid": "fail-" + hex, "data-role": "secondary" }, [sv.gap < 0 ? "—" : Math.round(100 * sv.fail) + "%"]));
      kids.push(svg("g", { class: "stack", "data-testid": "stack-" + hex, "data-hex": hex, "data-side": side, "data-supply": out ? "unsupplied" : "supplied", "data-weak": weak ? "1" : "0",
        style: acts(ctx) ? "cursor:pointer" : "",
        onpointerdown: function (ev) { if (acts(ctx)) { drag = hex; ev.preventDefault(); } },
        onpointerup: function (ev) {
          if (!acts(ctx)) return;
          ev.stopPropagation();
          if (drag && drag !== hex) { var fr = drag; drag = null; sendMove(fr, hex, ctx); return; }
          drag = null;
          if (selected && selected !== hex) { sendMove(selected, hex, ctx); return; }
          selected = selected === hex ? null : hex; selUnit = null; picks = []; ctx.redraw();
        } }, [svg("title", {}, [us.map(function (u) { return u.name + " " + cf(u) + unitState(u, supply, ctx); }).join("\n")])].concat(g2)));
    });
    if (ctx.tv) return fitTV(svg("svg", { viewBox: "0 0 " + W.toFixed(0) + " " + Hh.toFixed(0), class: "west-map", "data-testid": "map" }, kids));
    var k = handScale * zooms[view.z];
    return svg("svg", { viewBox: "0 0 " + W.toFixed(0) + " " + Hh.toFixed(0), class: "west-map", "data-testid": "map", "data-zoom": String(zooms[view.z]),
      width: (W * k).toFixed(0), height: (Hh * k).toFixed(0), style: "touch-action:pan-x pan-y" }, kids);
  }

  // handMap is the map in a box that pans (scrolls, or the arrows: a third
  // of the box a press) and zooms (the buttons keep the point at the
  // middle of the box where it is).
  function handMap(st, ctx) {
    var map = mapSVG(st, ctx);
    var box = ctx.el("div", { class: "west-mapbox", "data-testid": "mapbox" }, map);
    var keep = function () {
      var w = box.scrollWidth, h = box.scrollHeight;
      if (w && h) { view.fx = (box.scrollLeft + box.clientWidth / 2) / w; view.fy = (box.scrollTop + box.clientHeight / 2) / h; }
    };
    var restore = function () {
      box.scrollLeft = view.fx * box.scrollWidth - box.clientWidth / 2;
      box.scrollTop = view.fy * box.scrollHeight - box.clientHeight / 2;
    };
    box.addEventListener("scroll", keep);
    // The box is on the page once this draw is: put the same point of the
    // map back in its middle.
    Promise.resolve().then(restore);
    var zoom = function (d) { return function () { keep(); view.z = Math.max(0, Math.min(zooms.length - 1, view.z + d)); ctx.redraw(); }; };
    var pan = function (dx, dy) { return function () { box.scrollBy(dx * box.clientWidth / 3, dy * box.clientHeight / 3); keep(); }; };
    var b = function (id, label, aria, on) { return ctx.el("button", { "data-testid": id, "aria-label": aria, onclick: on }, label); };
    var tools = ctx.el("div", { class: "west-zoom", "data-testid": "map-tools" },
      b("zoom-out", "−", ctx.say("pomniejsz mapę", "zoom out"), zoom(-1)),
      ctx.el("span", { "data-testid": "zoom", text: Math.round(100 * zooms[view.z]) + "%" }),
      b("zoom-in", "+", ctx.say("powiększ mapę", "zoom in"), zoom(1)),
      b("pan-left", "←", ctx.say("mapa w lewo", "pan left"), pan(-1, 0)), b("pan-up", "↑", ctx.say("mapa w górę", "pan up"), pan(0, -1)),
      b("pan-down", "↓", ctx.say("mapa w dół", "pan down"), pan(0, 1)), b("pan-right", "→", ctx.say("mapa w prawo", "pan right"), pan(1, 0)));
    return ctx.el("div", {}, tools, box);
  }

  function tracker(st, ctx) {
    var g = st.game || {};
    var stages = [];
    for (var i = 1; i <= 14; i++) stages.push(ctx.el("span", { class: "pip" + (i === g.stage ? " on" : ""), "data-stage": String(i),
      style: "display:inline-block;min-width:1.6em;text-align:center;border:1px solid #666;margin:1px;" + (i === g.stage ? "background:#ffd54a;color:#000" : "") }, String(i)));
    var ph = phases.map(function (p) { return ctx.el("span", { "data-phase": p, style: "margin:0 .3em;" + (p === g.phase ? "font-weight:bold;text-decoration:underline" : "opacity:.6") }, two(phaseName[p], ctx)); });
    var who = g.pending ? g.pending.side : g.turn;
    // At the end the headline says so; the result (the shared line, under
    // it) says who won, the score and why.
    var whose = ctx.el("div", { "data-testid": "whose", "data-role": "headline", text: (g.result ? ctx.say("Koniec gry", "Game over") : who ? ctx.say("Decyduje: ", "Decides: ") + two(sideName[who], ctx) :
      g.pending ? ctx.say("Rzucają obaj gracze", "Both players roll") : "") });
    // On a TV: the stage of 14 and the phase in words, then the headline.
    if (ctx.tv) return ctx.el("div", { "data-testid": "tracker" },
      ctx.el("div", { "data-testid": "stages" }, ctx.say("Etap ", "Stage "), ctx.el("b", { class: "on", "data-stage": String(g.stage || ""), text: String(g.stage || "") }), " / 14"),
      ctx.el("div", { "data-testid": "phases" }, ctx.say("faza: ", "phase: "), ctx.el("b", { "data-phase": g.phase || "", text: two(phaseName[g.phase], ctx) })),
      ctx.el("div", { class: "turn" }, whose));
    return ctx.el("div", { class: "turn", "data-testid": "tracker" },
      ctx.el("div", { "data-testid": "stages", style: "display:flex;flex-wrap:wrap;align-items:center" }, ctx.say("Etap ", "Stage "), stages),
      ctx.el("div", { "data-testid": "phases", style: "display:flex;flex-wrap:wrap" }, ph), whose);
  }

  function players(st, ctx) {
    var g = st.game || {};
    // On a TV: each side's resource points left of its total and its cards.
    if (ctx.tv) return ctx.el("table", { class: "grid", "data-testid": "players" },
      ctx.el("tr", {}, ["", ctx.say("PZ", "RP"), ctx.say("ręka", "hand")].map(function (h) { return ctx.el("th", { text: h }); })),
      (g.players || []).map(function (p) {
        return ctx.el("tr", { "data-side": p.side }, [two(sideName[p.side], ctx), (p.total_rp - p.spent) + "/" + p.total_rp, String((p.hand || []).length || p.hand_size || 0)].map(function (v) { return ctx.el("td", { text: v }); }));
      }));
    return ctx.el("table", { class: "grid", "data-testid": "players" },
      ctx.el("tr", {}, ["", ctx.say("PZ", "RP"), ctx.say("baza", "base"), ctx.say("kości", "dice"), ctx.say("karty", "cards"), ctx.say("ręka", "hand"), ctx.say("zagrana", "played")].map(function (h) { return ctx.el("th", { text: h }); })),
      (g.players || []).map(function (p) {
        var hand = (p.hand || []).length ? p.hand.map(function (n) { return "#" + n; }).join(", ") : "(" + (p.hand_size || 0) + ")";
        return ctx.el("tr", { "data-side": p.side }, [two(sideName[p.side], ctx), (p.total_rp - p.spent) + "/" + p.total_rp, String(p.base_rp), String(p.dice), String(p.card_rp), hand, p.played ? String(p.played) : ""].map(function (v) { return ctx.el("td", { text: v }); }));
      }));
  }

  function bars(list, ctx, testid) {
    return ctx.el("div", { class: "bars", "data-testid": testid }, list.map(function (c) {
      return ctx.el("div", {}, ctx.el("span", { text: String(c.n) + " " }), ctx.el("span", { class: "bar", style: "display:inline-block;background:#4c8;height:.8em;width:" + (ctx.tv ? (8 * c.p).toFixed(2) + "rem" : (300 * c.p).toFixed(0) + "px") }), ctx.el("span", { text: " " + pct(c.p) }));
    }));
  }

  function odds(st, ctx) {
    var ov = st.overlay || {}, nodes = [];
    if ((ov.rp || []).length) nodes.push(ctx.el("h3", { text: ctx.say("Przed rzutem: rozkład PZ (4.0)", "Before the roll: RP distribution (4.0)") }), bars(ov.rp, ctx, "odds-rp"));
    if (ov.fail != null) nodes.push(ctx.el("div", { "data-testid": "odds-fail", text: ctx.say("Przed rzutem aktywacji: porażka ", "Before the activation roll: fails ") + pct(ov.fail) + " (7.2)" }));
    if (ov.attrition != null) nodes.push(ctx.el("div", { "data-testid": "odds-attrition", text: ctx.say("Wyczerpanie kawalerii: osłabienie ", "Cavalry attrition: weakened ") + pct(ov.attrition) + ctx.say(" na jednostkę (7.4)", " per unit (7.4)") }));
    if ((ov.outcomes || []).length) nodes.push(ctx.el("div", { class: "bars", "data-testid": "odds-outcomes" }, ov.outcomes.map(function (o) {
      return ctx.el("div", {}, ctx.el("span", { text: ctx.say(o.text.pl, o.text.en) + " " }), ctx.el("span", { class: "bar", style: "display:inline-block;background:#4c8;height:.8em;width:" + (ctx.tv ? (8 * o.p).toFixed(2) + "rem" : (300 * o.p).toFixed(0) + "px") }), ctx.el("span", { text: " " + pct(o.p) }));
    })));
    (ov.combat || []).forEach(function (c) {
      var head = c.branch === "alone" ? ctx.say("bez wsparcia ", "alone ") + pct(c.p) : c.branch === "supported" ? ctx.say("ze wsparciem ", "supported ") + pct(c.p) : "";
      nodes.push(ctx.el("h3", { text: ctx.say("Przed rzutem walki: ", "Before the combat roll: ") + c.attack + " : " + c.defence + (head ? " · " + head : "") +
        " · " + ctx.say("atakujący wygrywa ", "attacker wins ") + pct(c.attacker_wins) + ", " + ctx.say("obrońca ", "defender ") + pct(c.defender_wins) + ", " + ctx.say("remis ", "tie ") + pct(c.tie) }));
      // The table of every result and its losses is for the players' and
      // the referee's pages; the TV says who wins how often.
      if (ctx.tv) return;
      nodes.push(ctx.el("table", { class: "grid", "data-testid": "odds-combat" + (c.branch ? "-" + c.branch : "") },
        ctx.el("tr", {}, [ctx.say("wynik", "result"), ctx.say("zwycięzca", "winner"), "p", ctx.say("straty atak.", "attacker losses"), ctx.say("straty obr.", "defender losses")].map(function (h) { return ctx.el("th", { text: h }); })),
        c.rows.map(function (r) {
          return ctx.el("tr", { "data-rule": r.rule }, [r.rule, r.winner ? (r.winner === "attacker" ? ctx.say("atakujący", "attacker") : ctx.say("obrońca", "defender")) : "—", pct(r.p), String(r.attacker_losses), String(r.defender_losses)].map(function (v) { return ctx.el("td", { text: v }); }));
        })));
    });
    return nodes.length ? ctx.el("div", { class: "flag", "data-testid": "odds" }, nodes) : null;
  }

  function pendingBox(st, ctx) {
    var g = st.game || {}, p = g.pending;
    if (!p || g.result) return null;
    var me = mySide(st, ctx), mine = acts(ctx) && (!me || !p.side || p.side === me);
    var nodes = [ctx.el("div", { "data-testid": "pending", text: ctx.say("Czeka: ", "Waiting: ") + ctx.t(p.text) + (p.side ? " · " + two(sideName[p.side], ctx) : "") })];
    if (!mine) return ctx.el("div", { class: "flag" }, nodes);
    var btn = function (label, cmd, args, id) { return ctx.el("button", { "data-testid": id || ("do-" + cmd), onclick: function () { ctx.command(cmd, args || []); picks = []; } }, label); };
    if (p.action === "roll") {
      var sel = [];
      for (var i = 0; i < p.dice; i++) {
        var s = ctx.el("select", { "data-testid": "die-" + i }, [1, 2, 3, 4, 5, 6].map(function (v) { return ctx.el("option", { value: String(v), text: String(v) }); }));
        sel.push(s);
      }
      nodes.push(ctx.el("div", { class: "controls" }, sel, ctx.el("button", { "data-testid": "do-roll", onclick: function () { ctx.command("roll", sel.map(function (x) { return x.value; })); } }, ctx.say("wpisz rzut", "enter the roll")),
        btn(ctx.say("rzut wirtualny", "virtual roll"), "roll", [], "do-virtual-roll")));
    } else if (p.action === "losses" || p.action === "choose" || p.action === "card_bonus") {
      nodes.push(ctx.el("div", { class: "controls" }, (p.options || []).map(function (o) {
        return ctx.el("button", { "data-testid": "pick-" + o, onclick: function () { picks.push(o); ctx.redraw(); } }, optionName(st, o, ctx) + (picks.filter(function (x) { return x === o; }).length ? " ×" + picks.filter(function (x) { return x === o; }).length : ""));
      }), btn(ctx.say("wyślij ", "send ") + picks.length + "/" + (p.n || 0), p.action, picks.slice(), "do-" + p.action)));
    } else if (p.action === "place" || p.action === "remove_depot") {
      nodes.push(ctx.el("div", { class: "controls" }, (p.options || []).map(function (o) { return btn(optionName(st, o, ctx), p.action === "place" ? "place" : "remove_depot", [o], "opt-" + o); })));
    } else if (p.action === "pursue") {
      nodes.push(ctx.el("div", { class: "meta", text: ctx.say("Przeciągnij stos na opuszczony heks (kawaleria: o jeden dalej) albo: ", "Drag the stack onto the vacated hex (cavalry: one further) or: ") }),
        btn(ctx.say("bez pościgu", "no pursuit"), "pursue", []));
    } else if (p.action === "retreat") {
      nodes.push(ctx.el("div", { class: "meta", text: ctx.say("Kliknij heks odwrotu (dwa heksy dalej).", "Click the hex the retreat ends on (two hexes away).") }));
    }
    return ctx.el("div", { class: "flag" }, nodes);
  }

  // stackTools are the selected stack's buttons, for its phase.
  function stackTools(st, ctx) {
    if (!selected || !acts(ctx)) return null;
    var g = st.game || {}, us = unitsByHex(g)[selected] || [];
    var b = function (label, cmd, args, id) { return ctx.el("button", { "data-testid": id || ("tool-" + cmd), onclick: function () { ctx.command(cmd, args); if (cmd !== "turn") selected = null; } }, label); };
    var tools = [ctx.el("b", { text: selected + " " })];
    us.forEach(function (u) {
      var row = [u.name + " (" + (two(typeName[u.type], ctx) || u.type) + ") " + cf(u) + unitState(u, (st.overlay || {}).supply || {}, ctx)];
      if (g.phase === "strategic") row.push(ctx.el("button", { "data-testid": "pick-unit-" + u.id, class: selUnit === u.id ? "on" : "", onclick: function () { selUnit = u.id; ctx.redraw(); } }, ctx.say("ta jednostka", "this unit")));
      if (g.phase === "replacement" && u.weak) row.push(b(ctx.say("uzupełnij", "replace"), "replace", [u.id], "tool-replace-" + u.id));
      tools.push(ctx.el("div", { class: "meta", "data-unit": u.id }, row));
    });
    var ctl = [];
    if (g.phase === "chits") ctl.push(b(ctx.say("żeton aktywacji", "activation chit"), "chit", [selected]));
    if (g.phase === "orders") {
      ctl.push(b(ctx.say("odrzuć żeton", "discard the chit"), "discard", [selected]));
      dirs.forEach(function (d) { ctl.push(b(ctx.say("zwrot ", "turn ") + d, "turn", [selected, d], "tool-turn-" + d)); });
    }
    if (g.phase === "depots") {
      ctl.push(b(ctx.say("magazyn tutaj", "depot here"), "depot", [selected]), b(ctx.say("usuń magazyn", "remove the depot"), "remove_depot", [selected]));
    }
    if (g.phase === "combat") {
      // An attack with a supporting stack and card bonuses (9.2, 9.3);
      // a plain attack is the stack dropped on the enemy.
      var tgt = ctx.el("input", { "data-testid": "attack-target", size: 4, placeholder: ctx.say("cel", "target") });
      var sup = ctx.el("input", { "data-testid": "attack-support", size: 4, placeholder: ctx.say("wsparcie", "support") });
      var bon = ctx.el("input", { "data-testid": "attack-bonuses", size: 12, placeholder: ctx.say("KARTA@HEKS …", "CARD@HEX …") });
      ctl.push(tgt, sup, bon, ctx.el("button", { "data-testid": "tool-attack", onclick: function () {
        var args = [selected, tgt.value.trim(), sup.value.trim() || "-"].concat(bon.value.trim() ? bon.value.trim().split(/\s+/) : []);
        ctx.command("attack", args); selected = null;
      } }, ctx.say("atak", "attack")));
    }
    if (ctx.page === "referee") {
      // The referee's correction of one counter: key=value … (hex, weak,
      // status, facing, note).
      var who = ctx.el("select", { "data-testid": "adjust-unit" }, us.map(function (u) { return ctx.el("option", { value: u.id, text: u.name }); }));
      var kv = ctx.el("input", { "data-testid": "adjust-changes", size: 24, placeholder: "weak=true hex=1805 note=…" });
      ctl.push(who, kv, ctx.el("button", { "data-testid": "tool-adjust", onclick: function () {
        ctx.command("adjust", [who.value].concat(kv.value.trim().split(/\s+/).filter(Boolean)));
      } }, ctx.say("popraw", "adjust")));
    }
    ctl.push(ctx.el("label", {}, ctx.say(" kierunek po ruchu: ", " facing after the move: "),
      ctx.el("select", { "data-testid": "facing", onchange: function (e) { facing = e.target.value; } }, [""].concat(dirs).map(function (d) {
        var o = ctx.el("option", { value: d, text: d || ctx.say("bez zmiany", "keep") }); if (d === facing) o.selected = true; return o;
      }))));
    tools.push(ctx.el("div", { class: "controls" }, ctl));
    return ctx.el("div", { class: "flag", "data-testid": "stack-tools" }, tools);
  }

  function hand(st, ctx) {
    var g = st.game || {}, me = mySide(st, ctx);
    if (!acts(ctx)) return null;
    var nodes = [];
    (g.players || []).forEach(function (p) {
      if ((me && p.side !== me) || !(p.hand || []).length) return;
      nodes.push(ctx.el("div", { "data-testid": "hand-" + p.side }, two(sideName[p.side], ctx) + ": ", p.hand.map(function (n) {
        return ctx.el("button", { "data-testid": "play-" + n, title: cardTitle(st, n, ctx), onclick: function () { ctx.command("play", [String(n)]); } }, n + ". " + cardTitle(st, n, ctx));
      })));
    });
    if (g.phase === "events" && !g.pending) nodes.push(ctx.el("button", { "data-testid": "draw", onclick: function () { ctx.command("draw", []); } }, ctx.say("dobierz (talia wirtualna)", "draw (virtual deck)")));
    if (g.phase !== "events" && g.phase !== "resources" && g.phase !== "over") nodes.push(ctx.el("button", { "data-testid": "pass", onclick: function () { ctx.command("pass", []); } }, ctx.say("pas", "pass")));
    return nodes.length ? ctx.el("div", { class: "controls", "data-testid": "hand" }, nodes) : null;
  }

  function effects(st, ctx) {
    var g = st.game || {};
    if (!(g.effects || []).length) return null;
    return ctx.el("div", { class: "meta", "data-testid": "effects" }, ctx.say("Karty w mocy: ", "Cards in force: ") + g.effects.map(function (e) {
      return e.card + ". " + cardTitle(st, e.card, ctx) + " (" + two(sideName[e.player], ctx) + ")";
    }).join("; "));
  }

  function layerToggles(ctx) {
    var t = function (k, pl, en) {
      var box = ctx.el("input", { type: "checkbox", "data-testid": "layer-" + k, onchange: function (e) { layers[k] = e.target.checked; ctx.redraw(); } });
      box.checked = layers[k];
      return ctx.el("label", {}, box, ctx.say(pl, en), " ");
    };
    return ctx.el("div", { class: "meta" }, t("reach", "zasięg zaopatrzenia", "supply reach"), t("hq", "zasięg dowództw", "HQ ranges"), t("odds", "szanse aktywacji", "activation chances"));
  }

  function west(msg, ctx) {
    var st = msg.state || {};
    ctx._st = st;
    // At the end: the result as every screen says it (the winner, each
    // side's score), under the engine's own line.
    var nodes = [tracker(st, ctx), P.result(msg, ctx), players(st, ctx)].filter(Boolean);
    [pendingBox(st, ctx), odds(st, ctx), hand(st, ctx), stackTools(st, ctx), effects(st, ctx)].forEach(function (n) { if (n) nodes.push(n); });
    if (ctx.answer) nodes.push(ctx.el("div", { class: "answer", "data-testid": "west-answer", text: ctx.answer }));
    if (ctx.tv) return ctx.el("div", { class: "west-tv fill" }, mapSVG(st, ctx), ctx.el("div", { class: "west-info" }, nodes));
    nodes.push(layerToggles(ctx), handMap(st, ctx));
    return ctx.el("div", {}, nodes);
  }

  // The fields of the actions the referee may correct from the form
  // panels.js builds (the actions' names are the catalogue's
  // action_names; a hex is its number as printed on the map).
  var sideOptions = function () { return [["polish", sideName.polish], ["russian", sideName.russian]]; };
  var side = { key: "side", label: ["strona", "side"], kind: "choice", options: sideOptions };
  var hexField = function (key, pl, en, optional) { return { key: key, label: [pl, en], kind: "text", optional: !!optional }; };
  var actions = {
    roll: { fields: [{ key: "dice", label: ["kości (biała, czerwona)", "dice (white, red)"], kind: "numbers" }] },
    pass: { fields: [side] },
    build_depot: { fields: [side, hexField("hex", "heks", "hex")] },
    assign_chit: { fields: [side, hexField("hex", "heks", "hex")] },
    order: { fields: [side, hexField("hex", "heks stosu", "the stack's hex"),
      { key: "path", label: ["droga (heksy po przecinku)", "path (hexes, comma-separated)"], kind: "list" },
      { key: "facing", label: ["zwrot", "facing"], kind: "choice", optional: true, options: function () { return [["", ["bez zmiany", "keep"]]].concat(dirs.map(function (d) { return [d, d]; })); } }] },
    attack: { fields: [side, hexField("from", "z heksu", "from hex"), hexField("target", "na heks", "on hex"), hexField("support", "wsparcie z heksu", "support from hex", true)] }
  };

  P.register("west-1920", west, { actions: actions });
})();
