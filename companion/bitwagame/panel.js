// The Bitwa Warszawska panel: the three fronts (north to south), each with
// both armies' 1st and 2nd lines (units, the 2nd-line limit), commanders
// (their limit and chosen effect), orders, blockades, the army strength
// and the advantage and bonus-front markers; the VP and round tracks, the
// initiative, the resource cards fought for and won, whose action it is
// and what the game waits for. A player's page adds their own hand (the
// engine's view hides the others) with the buttons to play, fight or
// block, and the answers to a decision they may take. Served as
// /static/games/bitwa-warszawska.js.
(function () {
  "use strict";
  var P = window.SztabPanels;
  // On a TV the three fronts stand side by side, north to south.
  var css = document.createElement("style");
  css.textContent = "body.tv .bitwa-fronts { grid-template-columns: repeat(3, minmax(0, 1fr)); gap: .5rem; }";
  document.head.appendChild(css);
  var FRONTS = ["N", "C", "S"];
  var ARMIES = ["wp", "acz"];
  function place(st, p, ctx) { return ctx.t((st.places || {})[p]) || p; }
  var kinds = { unit: ["Oddziały", "units"], commander: ["Dowódca", "commander"], order: ["Rozkaz", "order"] };
  // Icons are inline SVG (24×24 paths): a Raspberry Pi's fonts lack most
  // symbol glyphs.
  var ICONS = {
    star: "M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z",
    order: "M3 5h18v14H3zM3 5l9 7 9-7",
    block: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM6 10h12v4H6z",
    bonus: "M10 3h4v7h7v4h-7v7h-4v-7H3v-4h7z",
    fight: "M4 3l9 9-2 2-9-9V3zM20 3v2l-9 9-2-2 9-9zM5 17l3-3 2 2-3 3 1 2-2 0-2-2 0-2z"
  };
  function icon(name, label) {
    var NS = "http://www.w3.org/2000/svg";
    var s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", "0 0 24 24"); s.setAttribute("class", "icon"); s.setAttribute("width", "1em"); s.setAttribute("height", "1em");
    s.setAttribute("style", "vertical-align:-0.125em;margin-right:.25em");
    s.setAttribute("role", "img"); s.setAttribute("aria-label", label || name);
    var p = document.createElementNS(NS, "path");
    p.setAttribute("d", ICONS[name]); p.setAttribute("fill", name === "order" ? "none" : "currentColor"); p.setAttribute("stroke", "currentColor"); p.setAttribute("stroke-width", name === "order" ? "2" : "0");
    s.appendChild(p);
    return s;
  }

  function two(pair, ctx) { return pair ? ctx.say(pair[0], pair[1]) : ""; }
  // The names of fronts, armies and resources are the game data's.
  function named(st, list, id, ctx) { var x = ((st.components || {})[list] || []).filter(function (c) { return c.id === id; })[0]; return x ? ctx.t(x.name) : id; }
  function frontName(st, f, ctx) { return named(st, "fronts", f, ctx); }
  function armyName(st, a, ctx) { return named(st, "armies", a, ctx); }
  function resourceName(st, r, ctx) { return named(st, "resources", r, ctx); }
  // frontsText is a card's fronts in words.
  function frontsText(st, c, ctx) {
    var f = c.front || "any";
    if (f === "any") return ctx.say("dowolny Front", "any front");
    return fronts(c).map(function (x) { return frontName(st, x, ctx); }).join(ctx.say(" lub ", " or "));
  }
  // markerName is a blockade marker in words: an army's, the special one or
  // a card's.
  function markerName(st, m, ctx) {
    var ar = ((st.components || {}).armies || []).filter(function (a) { return a.blockade === m; })[0];
    if (ar) return ctx.say("Blokada ", "Blockade by ") + a2(ar.id, ctx);
    if (m === (st.components || {}).special_blockade) return ctx.say("Blokada specjalna", "Special blockade");
    return cname(st, m, ctx);
  }
  function mySeat(ctx) { var m = /^player\/(\d+)$/.exec(ctx.audience || ""); return m ? +m[1] : 0; }
  function player(st, seat) { return (st.players || []).filter(function (p) { return p.seat === seat; })[0]; }
  function card(st, id) { return (st.cards || {})[id] || {}; }
  // A card's name and text in the page's language: the English is the
  // Polish as printed when the game data has none (a club's own box).
  function cname(st, id, ctx) { var c = card(st, id); return ctx.say(c.name, c.name_en || c.name) || id; }
  function ctext(c, ctx) { return ctx.say(c.text, c.text_en || c.text) || ""; }
  function options(c) { return c.choose && c.choose.length ? c.choose.length : 1; }
  function fronts(c) { var f = c.front || "any"; return { any: FRONTS, NC: ["N", "C"], CS: ["C", "S"], NS: ["N", "S"] }[f] || [f]; }

  function blockadesAt(st, army, f) {
    return (st.blockades || []).filter(function (b) { return b.army === army && (b.front === f || b.place === "line2"); });
  }

  // side is one army on one front: commander, order, lines, strength, blockades.
  function side(st, ai, fi, ctx) {
    var army = ARMIES[ai], f = FRONTS[fi];
    var ar = (st.armies || [])[ai] || { fronts: [], commanders: [], orders: [] };
    var line = ar.fronts[fi] || { first: 0, second: 0 };
    var cm = (ar.commanders || [])[fi];
    var limit = ((st.limit || [])[ai] || [])[fi];
    var nodes = [];
    if (cm) {
      var used = cm.round === st.round;
      nodes.push(ctx.el("div", { class: "meta", "data-testid": "commander-" + army + "-" + f },
        icon("star", ctx.say("Dowódca", "commander")), cname(st, cm.card, ctx) + " · " + ctx.say("limit ", "limit ") + card(st, cm.card).limit +
        (cm.choice >= 0 ? " · " + ctx.say("efekt ", "effect ") + (cm.choice + 1) : " · " + ctx.say("zablokowany", "blocked")) +
        (used ? ctx.say(" · użyty w tej rundzie", " · used this round") : "")));
    }
    if ((ar.orders || [])[fi]) nodes.push(ctx.el("div", { class: "meta", "data-testid": "order-" + army + "-" + f }, icon("order", ctx.say("Rozkaz", "order")), cname(st, ar.orders[fi], ctx)));
    var lines = [
      ctx.el("span", { "data-testid": "line-" + army + "-" + f + "1", "data-count": String(line.first) }, ctx.say("1. linia: ", "1st line: ") + line.first),
      ctx.el("span", { "data-testid": "line-" + army + "-" + f + "2", "data-count": String(line.second) }, ctx.say("2. linia: ", "2nd line: ") + line.second + "/" + limit)];
    if (army === "acz") lines.reverse();
    nodes.push(ctx.el("div", { class: "name" }, lines[0], " · ", lines[1]));
    nodes.push(ctx.el("div", { class: "meta", "data-testid": "strength-" + army + "-" + f }, ctx.say("Siła Armii: ", "Army strength: ") + (((st.strength || [])[ai] || [])[fi] || 0)));
    blockadesAt(st, army, f).forEach(function (b) {
      nodes.push(ctx.el("div", { class: "flag", "data-testid": "blockade-" + army + "-" + f }, icon("block"), markerName(st, b.marker, ctx) + " · " + place(st, b.place, ctx)));
    });
    if (army === "acz") nodes.reverse();
    return ctx.el("div", { class: "unit", style: "border-color:" + (army === "wp" ? "#c0c8d8" : "#c04040") }, ctx.el("div", { class: "meta", text: armyName(st, army, ctx) }), nodes);
  }

  function board(st, ctx) {
    return ctx.el("div", { class: "units bitwa-fronts", "data-testid": "fronts" }, FRONTS.map(function (f, fi) {
      var adv = (st.advantage || [])[fi];
      var head = [frontName(st, f, ctx), st.bonus === f ? ctx.el("span", { class: "bonus" }, " · ", icon("bonus"), ctx.say("Dodatkowa Punktacja", "bonus front")) : null];
      return ctx.el("div", { class: "unit", "data-testid": "front-" + f },
        ctx.el("div", { class: "name" }, head),
        side(st, 1, fi, ctx),
        ctx.el("div", { class: "meta", "data-testid": "advantage-" + f, "data-army": adv || "" },
          ctx.say("Przewaga: ", "Advantage: ") + (adv ? armyName(st, adv, ctx) : ctx.say("środek", "middle")) + (st.fought && st.fought[fi] ? ctx.say(" · bitwa stoczona", " · battle fought") : "")),
        side(st, 0, fi, ctx));
    }));
  }

  function tracks(st, ctx) {
    var comp = st.components || {};
    var win = comp.vp_to_win || 7, rounds = comp.rounds || 13;
    var ar = st.armies || [{}, {}];
    var vp = ARMIES.map(function (a, i) {
      return ctx.el("div", { class: "meta", "data-testid": "vp-" + a, "data-vp": String(ar[i].vp || 0) },
        armyName(st, a, ctx) + ": " + ctx.say("PZ ", "VP ") + (ar[i].vp || 0) + "/" + win + " · " + ctx.say("Rezerwa ", "reserve ") + (ar[i].reserve || 0) +
        " · " + ctx.say("talia ", "deck ") + (ar[i].deck_count || 0) + " · " + ctx.say("odrzucone ", "discards ") + (ar[i].discard || []).length);
    });
    // The headline, read from across the room: the round and the score.
    return ctx.el("div", {}, ctx.el("div", { class: "turn", "data-role": "headline", "data-testid": "round", "data-round": String(st.round || 0) },
      ctx.say("Runda ", "Round "), ctx.el("b", { text: String(st.round || 0) }), "/" + rounds,
      " · " + ctx.say("PZ ", "VP ") + "WP ", ctx.el("b", { text: String(ar[0].vp || 0) }), " : ACz ", ctx.el("b", { text: String(ar[1].vp || 0) })), vp);
  }

  function resourceRow(st, ctx) {
    var ar = st.armies || [{}, {}];
    return ctx.el("div", { class: "meta", "data-testid": "resources" }, ["funds", "supply", "support"].map(function (r) {
      var won = (st.won || {})[r];
      var fights = ARMIES.map(function (a, i) { return ((ar[i].fights || {})[r] || []).length; });
      return resourceName(st, r, ctx) + ": " + ctx.say("walka ", "fought ") + fights.join(":") + (won ? ctx.say(" · zdobyte: ", " · won: ") + a2(won, ctx) : "");
    }).join(" · "));
  }
  function a2(a, ctx) { return a === "wp" ? "WP" : a === "acz" ? "ACz" : a; }

  function players(st, ctx) {
    return ctx.el("div", { class: "units", "data-testid": "players" }, (st.players || []).map(function (p) {
      var active = p.seat === st.active && !st.pending;
      return ctx.el("div", { class: "unit" + (active ? " active" : ""), "data-testid": "player-" + p.seat },
        ctx.el("div", { class: "name", text: p.name + " (" + a2(p.army, ctx) + ")" + (st.initiative === p.seat ? " · " + ctx.say("inicjatywa", "initiative") : "") + (p.token ? " · #" + p.token : "") }),
        ctx.el("div", { class: "meta", text: ctx.say("karty na ręku ", "cards in hand ") + p.hand_count + " · " + ctx.say("limit ", "limit ") + p.limit + (p.passed ? " · " + ctx.say("pas", "passed") : "") }));
    }));
  }

  function button(ctx, label, cmd, args) {
    return ctx.el("button", { "data-testid": "do-" + cmd + "-" + args.join("-"), onclick: function () { ctx.command(cmd, args); } }, label);
  }

  // waiting is what the game waits for, and the answers as buttons on the
  // page of whoever may give them.
  function waiting(st, ctx) {
    var nodes = [];
    if (st.pending) {
      nodes.push(ctx.el("div", { "data-testid": "pending-text", text: ctx.say("Czeka: ", "Waiting: ") + ctx.t(st.pending.text) + " (" + ((player(st, st.pending.seat) || {}).name || "") + ")" }));
      if ((st.pending.dice || []).length) nodes.push(ctx.el("div", { class: "meta", text: ctx.say("kości: ", "dice: ") + st.pending.dice.join(", ") }));
    } else if (st.active && st.phase !== "over") {
      nodes.push(ctx.el("div", { "data-testid": "pending-text", text: ctx.say("Akcja: ", "Action: ") + ((player(st, st.active) || {}).name || "") }));
    }
    if (st.selected) nodes.push(ctx.el("div", { "data-testid": "selected", text: ctx.say("Wybrana karta: ", "Picked card: ") + cname(st, st.selected.card, ctx) +
      (st.selected.front ? " · " + frontName(st, st.selected.front, ctx) : "") + (options(card(st, st.selected.card)) > 1 ? ctx.say(" · efekt ", " · effect ") + (st.selected.choice + 1) : "") }));
    if ((st.answers || []).length && ctx.page !== "table") {
      nodes.push(ctx.el("div", { class: "controls", "data-testid": "answers" }, st.answers.slice(0, 40).map(function (a) {
        return button(ctx, ctx.t(a.label), a.command, a.args);
      })));
    }
    return nodes.length ? ctx.el("div", { class: "flag", "data-testid": "pending" }, nodes) : null;
  }

  // hand is the player's own hand with the actions of a card.
  function hand(st, p, ctx) {
    var acting = st.active === p.seat && !st.pending && st.stage === "military";
    var cards = (p.hand || []).map(function (id) {
      var c = card(st, id);
      var btns = [];
      if (acting) {
        fronts(c).forEach(function (f) {
          for (var e = 1; e <= options(c); e++) {
            btns.push(button(ctx, ctx.say("Zagraj: ", "Play: ") + frontName(st, f, ctx) + (options(c) > 1 ? ctx.say(", efekt ", ", effect ") + e : ""), "play", options(c) > 1 ? [id, f, String(e)] : [id, f]));
          }
        });
        ["funds", "supply", "support"].forEach(function (r) { btns.push(button(ctx, ctx.say("Walcz o: ", "Fight for: ") + resourceName(st, r, ctx), "fight", [id, r])); });
      }
      return ctx.el("div", { class: "unit", "data-card": id, style: "min-width:14em" },
        ctx.el("div", { class: "name", text: cname(st, id, ctx) }),
        ctx.el("div", { class: "meta", text: two(kinds[c.kind], ctx) + (c.limit ? ctx.say(" · limit 2. linii ", " · limit on the 2nd line ") + c.limit : "") + " · " + frontsText(st, c, ctx) }),
        ctx.el("div", { class: "meta", text: ctext(c, ctx) }),
        btns.length ? ctx.el("div", { class: "controls" }, btns) : null);
    });
    return ctx.el("div", { class: "units", "data-testid": "my-hand" }, cards.length ? cards : [ctx.el("div", { class: "meta", text: "—" })]);
  }

  function bitwa(msg, ctx) {
    var st = msg.state || {};
    var me = mySeat(ctx);
    var nodes = [tracks(st, ctx)];
    if (P.result(msg, ctx)) nodes.push(P.result(msg, ctx));
    var w = waiting(st, ctx);
    if (w) nodes.push(w);
    nodes.push(board(st, ctx), resourceRow(st, ctx));
    nodes.push(ctx.el("h2", { text: ctx.say("Gracze", "Players") }), players(st, ctx));
    var mine = me && player(st, me);
    if (mine) nodes.push(ctx.el("h2", { text: ctx.say("Twoja ręka", "Your hand") }), hand(st, mine, ctx));
    return ctx.el("div", {}, nodes);
  }

  // The fields of the actions the referee may correct from the form
  // panels.js builds (the actions' names are the catalogue's
  // action_names): a seat, a card, a front, a place or a resource is
  // picked by its name, never typed. (A move's and a supply's list of
  // moves, and the initiative's order, are corrected by taking the entry
  // back and playing it again.)
  function comps(msg, list) { return ((msg.state || {}).components || {})[list] || []; }
  function seatOptions(msg) { return ((msg.state || {}).players || []).map(function (p) { return [p.seat, p.name + " (" + a2(p.army) + ")"]; }); }
  function cardOptions(msg) {
    var cards = (msg.state || {}).cards || {};
    return Object.keys(cards).map(function (id) { return [id, cards[id].name + (cards[id].army ? " (" + a2(cards[id].army) + ")" : "")]; })
      .sort(function (a, b) { return a[1].localeCompare(b[1], "pl"); });
  }
  function frontOptions(msg) { return comps(msg, "fronts").map(function (f) { return [f.id, f.name]; }); }
  function resourceOptions(msg) { return comps(msg, "resources").map(function (r) { return [r.id, r.name]; }); }
  function placeOptions(msg) { var p = (msg.state || {}).places || {}; return Object.keys(p).map(function (k) { return [k, p[k]]; }); }
  function markerOptions(msg) {
    var out = comps(msg, "armies").map(function (a) { return [a.blockade, ["Blokada " + a2(a.id), "Blockade by " + a2(a.id)]]; });
    var sp = ((msg.state || {}).components || {}).special_blockade;
    return sp ? out.concat([[sp, ["Blokada specjalna", "Special blockade"]]]) : out;
  }
  function effectOptions() { return [[0, ["efekt 1", "effect 1"]], [1, ["efekt 2", "effect 2"]]]; }
  function noCard(msg) { return [["", ["bez karty", "no card"]]].concat(cardOptions(msg)); }
  var seat = { key: "seat", label: ["gracz", "player"], kind: "choice", number: true, options: seatOptions };
  var cardF = { key: "card", label: ["karta", "card"], kind: "choice", options: cardOptions };
  var frontF = { key: "front", label: ["Front", "front"], kind: "choice", options: frontOptions };
  var effectF = { key: "choice", label: ["efekt", "effect"], kind: "choice", number: true, options: effectOptions };
  var actions = {
    roll: { fields: [seat, { key: "dice", label: ["kości (po przecinku)", "dice (comma-separated)"], kind: "numbers" }] },
    play_card: { fields: [seat, cardF, frontF, effectF] },
    blockade: { fields: [seat, { key: "card", label: ["odrzucona karta", "the discarded card"], kind: "choice", optional: true, options: noCard },
      { key: "marker", label: ["znacznik", "marker"], kind: "choice", options: markerOptions }, { key: "place", label: ["pole", "field"], kind: "choice", options: placeOptions }, frontF,
      { key: "skip", label: ["bez Blokady", "no blockade"], kind: "bool" }] },
    fight: { fields: [seat, cardF, { key: "resource", label: ["Zasób", "resource"], kind: "choice", options: resourceOptions }] },
    activate: { fields: [seat, cardF, frontF, effectF] },
    pass: { fields: [seat] },
    select: { fields: [seat, cardF, frontF, effectF] },
    remove: { fields: [seat, frontF,
      { key: "line", label: ["linia", "line"], kind: "choice", number: true, options: function () { return [[1, ["1. linia", "1st line"]], [2, ["2. linia", "2nd line"]]]; } }] },
    confirm: { fields: [seat, { key: "yes", label: ["tak", "yes"], kind: "bool" }] },
    turn_card: { fields: [seat,
      { key: "face", label: ["strona karty", "the card's face"], kind: "choice", number: true, options: function () { return [[0, ["pierwsza", "the first"]], [1, ["druga", "the second"]]]; } }] }
  };

  P.register("bitwa-warszawska", bitwa, { actions: actions });
})();
