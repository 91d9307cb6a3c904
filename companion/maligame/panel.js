// The Mali Powstańcy screen panel: the city map as a graph (objects, road
// fields, districts, blocked roads, fallen districts), the couriers by
// colour, the German soldier and his computed path, the order track, the
// prison, the scores, the odds before the soldier's die, and — in a
// player's own view — the secret goals and the movement cards in hand.
// A player (or the referee) moves by clicking: a courier, then a field.
// Served as /static/games/mali-powstancy.js; registers with panels.js.
(function () {
  "use strict";
  var P = window.SztabPanels;
  var NS = "http://www.w3.org/2000/svg";
  var colourCSS = { red: "#d33", green: "#2a2", orange: "#f90", purple: "#93c" };
  var colourName = { red: ["czerwony", "red"], green: ["zielony", "green"], orange: ["pomarańczowy", "orange"], purple: ["fioletowy", "purple"] };
  var phaseName = { goals: ["sekretne cele", "secret goals"], orders: ["faza rozkazów", "order phase"], cards: ["wybór kart ruchu", "movement cards"],
    move: ["ruch harcerzy", "couriers move"], soldier: ["ruch żołnierza", "the soldier moves"], time: ["upływ czasu", "time passes"], over: ["koniec gry", "game over"] };
  var selected = null; // the courier a click chose, for the next click on a field
  // mode says what the next click does: "" a step (or a pick-up on the
  // track), "jump" a jump to an object, and the extended variant's card
  // actions "swap" (card 1: click a second courier), "unit" (card 2: click
  // an object), "swap_orders" (card 3: click two orders).
  var mode = "", orderSel = null;
  var keep = []; // the secret goals ticked to keep, sent when three are

  function svg(tag, attrs, kids) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs || {}) {
      if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    (kids || []).forEach(function (c) { if (c) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return e;
  }
  function two(pair, ctx) { return pair ? ctx.say(pair[0], pair[1]) : ""; }
  var waitName = { deal_goals: ["rozdanie sekretnych celów", "dealing the secret goals"], keep_goals: ["wybór sekretnych celów", "choosing the secret goals"],
    draw_orders: ["dobranie rozkazów", "drawing orders"], play_card: ["wybór kart ruchu", "choosing movement cards"], place_escaped: ["powrót zbiegów na planszę", "placing the escaped couriers"],
    turn: ["ruch gracza", "a player's move"], roll_die: ["rzut kostką żołnierza", "the soldier's die"], soldier_target: ["wybór harcerza ściganego", "choosing the hunted courier"],
    bonus_courier: ["wybór harcerza do czerwonego ruchu", "choosing the courier for the red move"], bonus_move: ["czerwony ruch", "the red move"],
    block_road: ["blokada drogi", "blocking a road"], displace: ["przesunięcie harcerza", "moving a courier aside"], soldier_step: ["wybór drogi żołnierza", "choosing the soldier's way"] };
  // The engine's action types by name, for the referee's page, and the
  // fields of those the referee may correct (panels.js builds the form).
  var courierOptions = function (msg) { return ((msg.state || {}).couriers || []).map(function (c) { return [c.id, courierPair(c)]; }); };
  var nodeOptions = function (msg) { var st = msg.state || {}, lay = positions(st.map || {}); return Object.keys(lay.pos).map(function (id) { return [id, nodeName(st, id, lay.pos)]; }); };
  var seatOptions = function (msg) { return ((msg.state || {}).players || []).map(function (p) { return [p.seat, p.name]; }); };
  var actions = {
    start_game: { name: ["początek gry", "start of the game"] }, deal_goals: { name: ["rozdanie celów", "dealing goals"] }, keep_goals: { name: ["wybór celów", "keeping goals"] },
    draw_orders: { name: ["dobranie rozkazów", "drawing orders"] },
    play_card: { name: ["karta ruchu", "a movement card"], fields: [{ key: "seat", label: ["gracz", "player"], kind: "choice", number: true, options: seatOptions }, { key: "card", label: ["karta", "card"], kind: "number" }] },
    place: { name: ["powrót na planszę", "back on the map"], fields: [{ key: "courier", label: ["harcerz", "courier"], kind: "choice", options: courierOptions }, { key: "at", label: ["pole", "field"], kind: "choice", options: nodeOptions }] },
    step: { name: ["krok harcerza", "a courier's step"], fields: [{ key: "courier", label: ["harcerz", "courier"], kind: "choice", options: courierOptions }, { key: "to", label: ["dokąd", "to"], kind: "choice", options: nodeOptions }] },
    jump: { name: ["skok do obiektu", "a jump to an object"], fields: [{ key: "courier", label: ["harcerz", "courier"], kind: "choice", options: courierOptions }, { key: "to", label: ["dokąd", "to"], kind: "choice", options: nodeOptions }] },
    pick_up: { name: ["odebranie rozkazu", "picking up an order"] }, drop: { name: ["porzucenie rozkazu", "dropping an order"], fields: [{ key: "courier", label: ["harcerz", "courier"], kind: "choice", options: courierOptions }] },
    end_turn: { name: ["koniec ruchu", "end of the move"], fields: [] },
    swap_couriers: { name: ["Kumple z podwórka", "Backyard mates"] }, unit_jump: { name: ["Oddział powstańczy", "Insurgent unit"] },
    swap_orders: { name: ["Zamiana rozkazów", "Swap orders"] }, rumours: { name: ["Plotki z ulicy", "Street rumours"] },
    roll_die: { name: ["kostka żołnierza", "the soldier's die"], fields: [{ key: "colour", label: ["kolor", "colour"], kind: "choice", options: function () { return [["black", ["czarna", "black"]], ["red", ["czerwona", "red"]]]; } },
      { key: "value", label: ["wynik", "value"], kind: "number" }] },
    choose_courier: { name: ["wybór harcerza", "choosing a courier"], fields: [{ key: "seat", label: ["gracz", "player"], kind: "choice", number: true, options: seatOptions }, { key: "courier", label: ["harcerz", "courier"], kind: "choice", options: courierOptions }] },
    choose_soldier_step: { name: ["droga żołnierza", "the soldier's way"], fields: [{ key: "to", label: ["dokąd", "to"], kind: "choice", options: nodeOptions }] },
    block_road: { name: ["blokada drogi", "blocking a road"] },
    displace: { name: ["przesunięcie harcerza", "moving a courier aside"], fields: [{ key: "courier", label: ["harcerz", "courier"], kind: "choice", options: courierOptions }, { key: "to", label: ["dokąd", "to"], kind: "choice", options: nodeOptions }] }
  };

  // courierPair names a courier by colour and number ("czerwony 2"), never
  // by its id.
  function courierPair(c) {
    var n = String(c.id || "").replace(/^.*-/, "");
    var col = colourName[c.colour] || ["", ""];
    return [col[0] + " " + n, col[1] + " " + n];
  }
  function courierName(st, id, ctx) {
    var c = (st.couriers || []).filter(function (x) { return x.id === id; })[0];
    return c ? two(courierPair(c), ctx) : "";
  }
  function objectName(st, id) {
    var o = ((st.map || {}).objects || []).filter(function (x) { return x.id === id; })[0];
    return o ? o.name : "";
  }
  // nodeName is an object's name, or a road field's: "A – B (k)".
  function nodeName(st, id, pos) {
    var p = pos[id];
    if (!p) return "";
    if (p.object) return p.object.name;
    var r = ((st.map || {}).roads || []).filter(function (x) { return x.id === p.road; })[0];
    return r ? objectName(st, r.a) + " – " + objectName(st, r.b) + " (" + id.replace(/^.*\//, "") + ")" : "";
  }

  // positions: each object where the map file puts it (x, y in mm on the
  // printed board), or on a circle when the file gives none; road fields
  // evenly between their objects.
  function positions(map) {
    var pos = {}, objs = map.objects || [];
    var W = 0, H = 0;
    objs.forEach(function (o, i) {
      var has = o.x || o.y;
      var x = has ? +o.x : 300 + 260 * Math.cos(2 * Math.PI * i / objs.length);
      var y = has ? +o.y : 300 + 260 * Math.sin(2 * Math.PI * i / objs.length);
      pos[o.id] = { x: x, y: y, object: o };
      W = Math.max(W, x); H = Math.max(H, y);
    });
    (map.roads || []).forEach(function (r) {
      var a = pos[r.a], b = pos[r.b], n = (r.fields || []).length;
      if (!a || !b) return;
      for (var k = 1; k <= n; k++) {
        pos[r.id + "/" + k] = { x: a.x + (b.x - a.x) * k / (n + 1), y: a.y + (b.y - a.y) * k / (n + 1), road: r.id, district: r.fields[k - 1] };
      }
    });
    return { pos: pos, w: W + 60, h: H + 60 };
  }

  function districtOf(map, node, pos) {
    var p = pos[node];
    if (!p) return "";
    return p.object ? p.object.district : p.district;
  }

  function mapSVG(msg, ctx) {
    var st = msg.state || {}, map = st.map || {};
    var lay = positions(map), pos = lay.pos;
    var fallen = {};
    (st.districts || []).forEach(function (d) { if (d.fallen) fallen[d.id] = true; });
    var blocked = {};
    (st.blocks || []).forEach(function (b) { if (b.road) blocked[b.road] = true; });
    var g = [svg("rect", { x: 0, y: 0, width: lay.w, height: lay.h, rx: 12, fill: "#efe9dc" })];
    (map.roads || []).forEach(function (r) {
      var a = pos[r.a], b = pos[r.b];
      if (!a || !b) return;
      g.push(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "road" + (blocked[r.id] ? " blocked" : ""), "data-road": r.id,
        stroke: blocked[r.id] ? "#b00" : "#999", "stroke-width": blocked[r.id] ? 5 : 2, "stroke-dasharray": blocked[r.id] ? "6 4" : "" }));
    });
    var click = function (node) {
      return function () {
        var p = st.pending || {};
        if (p.kind === "displace" || p.kind === "soldier_step") { ctx.command("choose", [node]); return; }
        if (!selected) return;
        var cmd = "step";
        if (p.kind === "place_escaped") cmd = "place";
        else if ((mode === "jump" || mode === "unit") && pos[node] && pos[node].object) cmd = mode;
        ctx.command(cmd, [selected, node]);
        selected = null;
        mode = "";
      };
    };
    Object.keys(pos).forEach(function (id) {
      var p = pos[id], d = districtOf(map, id, pos), isObj = !!p.object;
      g.push(svg("circle", { cx: p.x, cy: p.y, r: isObj ? 14 : 6, "data-node": id,
        class: "node" + (fallen[d] ? " fallen" : ""), fill: fallen[d] ? "#555" : (isObj ? "#eee" : "#fff"),
        stroke: p.object && p.object.start ? "#06c" : "#333", "stroke-width": p.object && p.object.start ? 3 : 1, onclick: click(id) }));
      if (isObj) g.push(svg("text", { x: p.x, y: p.y - 18, "text-anchor": "middle", class: "map-label", fill: "#111" }, [p.object.name]));
    });
    var route = ((st.soldier_routes || [])[0] || {}).path || [];
    if (route.length && pos[st.soldier]) {
      var pts = [st.soldier].concat(route).filter(function (n) { return pos[n]; }).map(function (n) { return pos[n].x + "," + pos[n].y; });
      g.push(svg("polyline", { points: pts.join(" "), fill: "none", stroke: "#000", "stroke-width": 3, "stroke-dasharray": "4 3", "data-testid": "soldier-path" }));
    }
    if (st.soldier && pos[st.soldier]) {
      var s = pos[st.soldier];
      g.push(svg("rect", { x: s.x - 9, y: s.y - 9, width: 18, height: 18, fill: "#000", "data-testid": "soldier", "data-node": st.soldier }));
    }
    var at = {};
    (st.couriers || []).forEach(function (c) {
      if (c.off || !pos[c.at]) return;
      var k = at[c.at] = (at[c.at] || 0) + 1;
      var p = pos[c.at];
      g.push(svg("circle", { cx: p.x - 12 + 8 * k, cy: p.y + 12, r: 6, fill: colourCSS[c.colour] || "#888",
        stroke: selected === c.id ? "#000" : (c.carrying ? "#fff" : "#333"), "stroke-width": selected === c.id ? 3 : 2,
        "data-courier": c.id, "data-at": c.at, "data-testid": "courier-" + c.id, onclick: function () {
          if (mode === "swap" && selected && selected !== c.id) { ctx.command("swap", [selected, c.id]); selected = null; mode = ""; return; }
          selected = selected === c.id ? null : c.id; ctx.redraw();
        } },
        [svg("title", {}, [two(courierPair(c), ctx) + (c.carrying ? " → " + orderLabel(st, c.carrying, ctx) : "")])]));
    });
    var out = svg("svg", { viewBox: "0 0 " + lay.w + " " + lay.h, class: "mali-map", "data-testid": "map", width: "100%", role: "img",
      "aria-label": ctx.say("Mapa Warszawy", "The map of Warsaw") }, g);
    // The objects' names as large as the page's text, whatever the map's
    // scale on this screen.
    requestAnimationFrame(function () {
      var m = out.getScreenCTM();
      if (!m || !m.a) return;
      var px = parseFloat(getComputedStyle(document.body).fontSize);
      out.querySelectorAll(".map-label").forEach(function (tx) { tx.setAttribute("font-size", String(Math.ceil(100 * px / m.a) / 100)); });
    });
    return out;
  }

  // orderLabel is an order card as printed: where from, where to, points.
  function orderLabel(st, id, ctx) {
    if (id === "zwyciestwo") return ctx.say("ZWYCIĘSTWO", "VICTORY");
    var o = (st.order_cards || {})[id];
    return o ? objectName(st, o.from) + " → " + objectName(st, o.to) + " (" + o.points + ctx.say(" pkt)", " pts)") : ctx.say("rozkaz", "an order");
  }

  function track(st, ctx) {
    var fields = st.track || [];
    var carriers = {};
    (st.couriers || []).forEach(function (c) { if (c.carrying) (carriers[c.carrying] = carriers[c.carrying] || []).push(c.id); });
    return ctx.el("table", { class: "grid", "data-testid": "track" },
      ctx.el("tr", {}, fields.map(function (_, i) { return ctx.el("th", { text: String(i + 1) }); })),
      ctx.el("tr", {}, fields.map(function (cards) {
        return ctx.el("td", {}, (cards || []).map(function (id) {
          return ctx.el("div", { "data-order": id, onclick: function () {
            if (mode === "swap_orders") {
              if (orderSel && orderSel !== id) { ctx.command("swap_orders", [orderSel, id]); orderSel = null; mode = ""; } else { orderSel = id; ctx.redraw(); }
              return;
            }
            if (selected) { ctx.command("pick", [selected, id]); selected = null; }
          }, class: orderSel === id ? "on" : "", text: orderLabel(st, id, ctx) + (carriers[id] ? " ← " + carriers[id].map(function (c) { return courierName(st, c, ctx); }).join(", ") : "") });
        }));
      })));
  }

  function players(st, ctx) {
    return ctx.el("table", { class: "grid", "data-testid": "score" },
      ctx.el("tr", {}, [ctx.say("gracz", "player"), ctx.say("kolor", "colour"), ctx.say("rozkazy", "orders"), ctx.say("karty ruchu", "movement cards")].map(function (h) { return ctx.el("th", { text: h }); })),
      (st.players || []).map(function (p) {
        var swatch = svg("svg", { viewBox: "0 0 10 10", class: "icon", "aria-hidden": "true" }, [svg("circle", { cx: 5, cy: 5, r: 4.5, fill: colourCSS[p.colour] || "#888" })]);
        return ctx.el("tr", { "data-seat": String(p.seat) }, ctx.el("td", { text: p.name }), ctx.el("td", {}, swatch, " ", two(colourName[p.colour], ctx)),
          ctx.el("td", { class: "score-num", "data-role": "headline", text: String((p.delivered || []).length) }),
          ctx.el("td", { text: (p.cards || []).join(" ") + (p.played ? " (" + ctx.say("zagrana ", "played ") + p.played + ")" : "") }));
      }));
  }

  function prison(st, ctx) {
    var inside = (st.couriers || []).filter(function (c) { return c.off; });
    if (!inside.length) return null;
    return ctx.el("div", { "data-testid": "prison" }, ctx.say("Więzienie / zbiegli: ", "Prison / escaped: ") +
      inside.map(function (c) { return two(courierPair(c), ctx) + " (" + (c.off === "prison" ? ctx.say("więzienie", "prison") : ctx.say("zbiegł", "escaped")) + ")"; }).join(", "));
  }

  // odds are each courier's chance of arrest before the soldier's die
  // (and, for the referee, of the red move), as a range when the owner's
  // choice decides.
  function odds(st, ctx) {
    var o = st.odds || [];
    if (!o.length) return null;
    var pct = function (a, b) { return a === b ? (100 * a).toFixed(0) + "%" : (100 * a).toFixed(0) + "–" + (100 * b).toFixed(0) + "%"; };
    var red = o.some(function (x) { return x.red_max > 0; });
    var rows = o.map(function (x) {
      return ctx.el("tr", {}, ctx.el("td", { text: courierName(st, x.courier, ctx) }), ctx.el("td", { text: pct(x.arrest_min, x.arrest_max) }),
        red ? ctx.el("td", { text: pct(x.red_min, x.red_max) }) : null);
    });
    return ctx.el("div", { "data-testid": "odds" }, ctx.el("h2", { text: ctx.say("Przed rzutem: szansa aresztowania", "Before the roll: chance of arrest") }),
      ctx.el("table", { class: "grid" }, ctx.el("tr", {}, [ctx.say("harcerz", "courier"), ctx.say("areszt", "arrest"), red ? ctx.say("ruch czerwony", "red move") : null].map(function (h) { return h == null ? null : ctx.el("th", { text: h }); })), rows));
  }

  // lastRoll is the soldier's die as last rolled: its colour and value.
  function lastRoll(st, ctx) {
    var r = st.last_roll;
    if (!r) return null;
    var col = { black: ["czarna", "black"], red: ["czerwona", "red"] }[r.colour] || ["", ""];
    return ctx.el("div", { class: "mali-die", "data-testid": "last-roll" }, ctx.say("Kostka żołnierza: ", "The soldier's die: "),
      ctx.el("span", { class: "die " + (r.colour === "red" ? "red" : "black"), text: String(r.value) }), " " + two(col, ctx));
  }

  function mine(st, ctx) {
    // A player's own view carries their hand and goals; others' are hidden.
    var me = (st.players || []).filter(function (p) { return p.goals || p.dealt; })[0];
    if (!me || ctx.audience === "public") return null;
    var nodes = [ctx.el("h2", { text: ctx.say("Twoje sekretne cele", "Your secret goals") })];
    var goalText = function (id) {
      var g = (st.goal_cards || {})[id];
      if (!g) return id;
      var what = { most_from_district: ["najwięcej rozkazów z dzielnicy ", "most orders from district "], most_orders: ["najwięcej rozkazów", "most orders"],
        districts: ["rozkazy do dzielnic: ", "orders to districts: "], most_important: ["najważniejszy rozkaz", "the most important order"] }[g.kind] || [g.kind, g.kind];
      return ctx.say(what[0], what[1]) + (g.param || "") + " · " + g.colour + " · " + g.points + ctx.say(" pkt", " pts");
    };
    var held = me.goals && me.goals.length ? me.goals : me.dealt || [];
    nodes.push(ctx.el("ul", { "data-testid": "goals" }, held.map(function (g) {
      var kept = me.goals && me.goals.length;
      return ctx.el("li", { "data-goal": g, "data-colour": ((st.goal_cards || {})[g] || {}).colour || "" }, goalText(g), st.pending && st.pending.kind === "keep_goals" && !kept ?
        ctx.el("button", { "data-testid": "keep-" + g, class: keep.indexOf(g) >= 0 ? "on" : "", onclick: function () {
          var i = keep.indexOf(g);
          if (i >= 0) keep.splice(i, 1); else keep.push(g);
          if (keep.length === 3) { ctx.command("keep", keep.slice()); keep = []; } else ctx.redraw();
        } }, ctx.say("zatrzymaj", "keep")) : null);
    })));
    return ctx.el("div", {}, nodes);
  }

  function pending(st, ctx) {
    var p = st.pending;
    if (!p || st.result) return null;
    var who = (st.players || []).filter(function (pl) { return pl.seat === p.seat; })[0];
    var nodes = [ctx.el("div", { "data-testid": "pending", text: ctx.say("Czekam na: ", "Waiting for: ") + two(waitName[p.kind], ctx) + (who ? " (" + who.name + ")" : "") })];
    if (p.choices && p.choices.length && ctx.audience !== "public") {
      var pos = positions(st.map || {}).pos;
      var choiceName = function (c) {
        var cour = (st.couriers || []).filter(function (x) { return x.id === c; })[0];
        if (cour) return two(courierPair(cour), ctx);
        if (pos[c]) return nodeName(st, c, pos);
        var r = ((st.map || {}).roads || []).filter(function (x) { return x.id === c; })[0];
        return r ? objectName(st, r.a) + " – " + objectName(st, r.b) : ctx.say("wybór", "choice");
      };
      nodes.push(ctx.el("div", { class: "controls" }, p.choices.map(function (c) {
        return ctx.el("button", { "data-testid": "choose-" + c, onclick: function () { ctx.command("choose", [c]); } }, choiceName(c));
      })));
    }
    if (p.kind === "play_card" && ctx.audience !== "public") {
      var me = (st.players || []).filter(function (pl) { return pl.cards && pl.cards.length; })[0];
      if (me && ctx.audience !== "referee") nodes.push(ctx.el("div", { class: "controls" }, me.cards.map(function (n) {
        return ctx.el("button", { "data-testid": "card-" + n, onclick: function () { ctx.command("card", [String(n)]); } }, String(n));
      })));
    }
    return ctx.el("div", { class: "flag" }, nodes);
  }

  // moveTools are the mover's buttons: what the next click does, the card
  // actions of the extended variant, dropping an order, ending the move.
  function moveTools(st, ctx) {
    var t = st.turn || {};
    var setMode = function (m) { return function () { mode = mode === m ? "" : m; orderSel = null; ctx.redraw(); }; };
    var btn = function (m, pl, en) { return ctx.el("button", { "data-testid": "mode-" + m, class: mode === m ? "on" : "", onclick: setMode(m) }, ctx.say(pl, en)); };
    var c = (st.couriers || []).filter(function (x) { return x.id === selected; })[0];
    var tools = [ctx.say("Wybrany harcerz: ", "Selected courier: ") + (selected ? courierName(st, selected, ctx) : "—") + " · ", btn("jump", "skok do obiektu", "jump to an object")];
    if (st.variant === "extended" && !t.action_done) {
      if (t.card === 1) tools.push(btn("swap", "Kumple z podwórka", "Yard mates"));
      if (t.card === 2) tools.push(btn("unit", "Oddział powstańczy", "Insurgent unit"));
      if (t.card === 3) tools.push(btn("swap_orders", "Zamiana rozkazów", "Swap orders"));
      if (t.card === 4) tools.push(ctx.el("button", { "data-testid": "rumours", onclick: function () { ctx.command("rumours"); } }, ctx.say("Plotki z ulicy", "Street rumours")));
    }
    if (c && c.carrying) tools.push(ctx.el("button", { "data-testid": "drop", onclick: function () { ctx.command("drop", [selected]); selected = null; } }, ctx.say("porzuć rozkaz", "drop the order")));
    return ctx.el("div", { class: "controls", "data-testid": "move-tools" }, tools);
  }

  // mali draws the state: on a TV (ctx.tv) the whole map on the left,
  // scaled to fit, the headline, score, track and the soldier's die beside
  // it; on a phone or a desk one column.
  function mali(msg, ctx) {
    var st = msg.state || {};
    var turn = ctx.el("div", { class: "turn", "data-role": "headline", "data-testid": "turn" }, ctx.say("Runda ", "Round "), ctx.el("b", { text: String(st.round || 0) }), " · ",
      two(phaseName[st.phase], ctx));
    var info = [turn, P.result(msg, ctx, "result"),
      ctx.el("div", { "data-testid": "tokens" }, ctx.say("Żetony niemieckie: ", "German tokens: ") + (st.tokens || 0)),
      players(st, ctx), lastRoll(st, ctx), pending(st, ctx), ctx.el("h2", { text: ctx.say("Tor rozkazów", "The order track") }), track(st, ctx),
      prison(st, ctx), odds(st, ctx), mine(st, ctx),
      ctx.audience !== "public" && st.pending && st.pending.kind === "turn" ? moveTools(st, ctx) : null];
    var map = mapSVG(msg, ctx);
    if (ctx.tv) return ctx.el("div", { class: "mali-tv fill" }, ctx.el("div", { class: "mali-mapbox" }, map), ctx.el("div", { class: "mali-info" }, info));
    return ctx.el("div", {}, info.slice(0, 6), map, info.slice(6));
  }

  P.register("mali-powstancy", mali, { actions: actions });
})();
