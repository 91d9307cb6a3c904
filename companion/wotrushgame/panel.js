// The World of Tanks: Rush panel: the Reserve row, each player's bases
// (defended, damaged), medals by nation, squad and captured bases, the
// achievements and who leads each, the active player's face-up hand and
// what the game waits for. A player's page adds their own hand, their
// Garage count and the buttons of their choices. The Garage order is never
// in any view. Served as /static/games/wot-rush.js.
(function () {
  "use strict";
  var P = window.SztabPanels;
  var nations = { ussr: ["ZSRR", "USSR"], germany: ["Niemcy", "Germany"], usa: ["USA", "USA"], france: ["Francja", "France"] };
  var kinds = { defend: ["obrona", "defence"], fire: ["ogień", "fire"], siege: ["Oblężenie", "Siege"], research: ["Badania", "Research"], dismantle: ["Demontaż", "Dismantle"], discard: ["Sabotaż", "Sabotage"], take_medals: ["Medale", "Medals"] };
  // pay is the page's own pick of paying cards before "buy" is pressed; the
  // table's scans keep theirs in the state (selection).
  var pay = [];
  // Icons are inline SVG (24×24 paths): a Raspberry Pi's fonts lack most
  // symbol glyphs.
  var ICONS = {
    resources: "M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM11 1h2v4h-2zM11 19h2v4h-2zM1 11h4v2H1zM19 11h4v2h-4zM4 5.5L5.5 4l3 3L7 8.5zM16 17.5l1.5-1.5 3 3-1.5 1.5zM4 18.5l3-3 1.5 1.5-3 3zM16 7l3-3 1.5 1.5-3 3z",
    firepower: "M12 1l2.5 7.5H22l-6 4.5 2.5 8L12 16l-6.5 5 2.5-8-6-4.5h7.5z",
    armour: "M12 1l9 4v6c0 6-4 10-9 12-5-2-9-6-9-12V5z",
    damaged: "M12 2L1 21h22zM11 9h2v6h-2zM11 17h2v2h-2z",
    star: "M12 2l3 7h7l-5.5 4.5 2 7.5-6.5-4.5-6.5 4.5 2-7.5L2 9h7z"
  };
  function icon(name, label) {
    var NS = "http://www.w3.org/2000/svg";
    var s = document.createElementNS(NS, "svg");
    s.setAttribute("viewBox", "0 0 24 24"); s.setAttribute("class", "icon"); s.setAttribute("width", "1em"); s.setAttribute("height", "1em");
    s.setAttribute("style", "vertical-align:-0.125em;margin-right:.2em");
    s.setAttribute("role", "img"); s.setAttribute("aria-label", label || name);
    var p = document.createElementNS(NS, "path");
    p.setAttribute("d", ICONS[name]); p.setAttribute("fill", "currentColor");
    s.appendChild(p);
    return s;
  }
  // stat is an icon, its number and its name for screen readers.
  function stat(name, label, n) { return [icon(name, label), String(n || 0)]; }
  function baseName(id, ctx) { return ctx.say("Baza ", "Base ") + id.slice(id.lastIndexOf("-") + 1); }

  function two(pair, ctx) { return pair ? ctx.say(pair[0], pair[1]) : ""; }
  function mySeat(ctx) { var m = /^player\/(\d+)$/.exec(ctx.audience || ""); return m ? +m[1] : 0; }
  function player(st, seat) { return (st.players || []).filter(function (p) { return p.seat === seat; })[0]; }
  function name(st, id, ctx) { var c = (st.cards || {})[id]; return c ? ctx.t(c.name) : id; }

  function card(st, id, ctx, extra) {
    var c = (st.cards || {})[id] || {};
    var bits = [];
    if (c.nation) bits.push(two(nations[c.nation], ctx));
    if (c.class) bits.push(ctx.t((st.classes || {})[c.class]) || c.class);
    if (c.kind === "vehicle") bits.push(ctx.say("koszt ", "cost ") + c.cost, stat("resources", ctx.say("surowce", "resources"), c.resources),
      stat("firepower", ctx.say("siła ognia", "firepower"), c.firepower), stat("armour", ctx.say("pancerz", "armour"), c.armour));
    else if (c.pays) bits.push(stat("resources", ctx.say("surowce", "resources"), c.resources));
    (c.abilities || []).forEach(function (a) { bits.push((ctx.t((st.abilities || {})[a.id]) || a.id) + (a.n ? " " + a.n : "") + (a.nation ? " (" + two(nations[a.nation], ctx) + ")" : "")); });
    var meta = [];
    bits.forEach(function (b, i) { if (i) meta.push(" · "); meta = meta.concat(b); });
    return ctx.el("div", { class: "unit", "data-card": id, style: "min-width:12em" },
      ctx.el("div", { class: "name", text: ctx.t(c.name) || id }),
      ctx.el("div", { class: "meta" }, meta), extra || null);
  }

  function bases(st, p, ctx, buttons) {
    return ctx.el("div", { class: "pips", "data-testid": "bases-" + p.seat }, (p.bases || []).map(function (b) {
      var cls = ["base", b.defender ? "defended" : "open", b.damaged ? "damaged" : ""].join(" ");
      var dmg = function (pl) { return [" ", icon("damaged"), ctx.say(pl, "damaged")]; };
      var label = [baseName(b.card, ctx)];
      if (b.damaged) label = label.concat(dmg("uszkodzona"));
      if (b.defender) label = label.concat([" · ", icon("armour", ctx.say("broni", "defended by")), name(st, b.defender, ctx)]);
      if (b.defender && b.defender_damaged) label = label.concat(dmg("uszkodzony"));
      return ctx.el("span", { class: cls, "data-testid": "base-" + b.card, "data-defended": b.defender ? "1" : "0", "data-damaged": b.damaged ? "1" : "0",
        style: "border:1px solid " + (b.damaged ? "#e0a030" : b.defender ? "#4caf7a" : "#313846") + ";border-radius:6px;padding:.2em .5em" },
        label, buttons ? buttons(b) : null);
    }));
  }

  function statsOf(st, seat) { return (st.stats || []).filter(function (s) { return s.seat === seat; })[0] || { medals: {} }; }

  function players(st, ctx) {
    return ctx.el("div", { class: "units", "data-testid": "players" }, (st.players || []).map(function (p) {
      var s = statsOf(st, p.seat);
      var medals = Object.keys(s.medals || {}).sort().map(function (n) { return two(nations[n], ctx) + " " + s.medals[n]; }).join(", ");
      var active = p.seat === st.active && st.phase === "play";
      return ctx.el("div", { class: "unit" + (active ? " active" : ""), "data-testid": "player-" + p.seat },
        ctx.el("div", { class: "name" }, p.name, st.first === p.seat ? [" ", icon("star", ctx.say("pierwszy gracz", "first player")), ctx.say("pierwszy gracz", "first player")] : null),
        bases(st, p, ctx),
        ctx.el("div", { class: "meta", "data-testid": "medals-" + p.seat, text: ctx.say("Medale: ", "Medals: ") + (medals || "—") }),
        ctx.el("div", { class: "meta", "data-testid": "squad-" + p.seat, text: [
          ctx.say("oddział ", "squad ") + (s.squad || 0),
          ctx.say("zdobyte Bazy ", "captured bases ") + (s.captured || 0),
          ctx.say("ręka ", "hand ") + p.hand_size, ctx.say("Garaż ", "Garage ") + p.garage_size,
          ctx.say("Magazyn ", "Magazine ") + (p.magazine || []).length,
          ctx.say("zniszczone: pojazdy ", "destroyed: vehicles ") + p.vehicles_destroyed + ctx.say(", Bazy ", ", bases ") + p.bases_destroyed].join(" · ") }));
    }));
  }

  function achievements(st, ctx) {
    if (!(st.leaders || []).length) return null;
    return ctx.el("table", { class: "grid", "data-testid": "achievements" },
      ctx.el("tr", {}, [ctx.say("Osiągnięcie", "Achievement"), ctx.say("prowadzi", "leads"), ""].map(function (h) { return ctx.el("th", { text: h }); })),
      st.leaders.map(function (l) {
        var who = l.seats.length === 1 ? (player(st, l.seats[0]) || {}).name : ctx.say("remis — nikt", "a tie — nobody");
        return ctx.el("tr", { "data-testid": "ach-" + l.card }, ctx.el("td", { text: ctx.t(l.name) }), ctx.el("td", { text: who }), ctx.el("td", { text: String(l.n) }));
      }));
  }

  function waitingSeat(st) { return st.pending ? st.pending.seat : st.active; }

  // choices are the buttons for a pending decision, on the page of the
  // player it waits for (and the referee's).
  function choices(st, ctx) {
    var pd = st.pending;
    if (!pd) return null;
    var mine = mySeat(ctx) === pd.seat || ctx.page === "referee";
    var nodes = [ctx.el("div", { "data-testid": "pending-text" }, two(kinds[pd.kind], ctx) + ": " + ctx.t(pd.text))];
    if (mine && ctx.page !== "table") {
      var b = function (label, cmd, args) { return ctx.el("button", { "data-testid": "choice-" + cmd + "-" + args.join("-"), onclick: function () { ctx.command(cmd, args); } }, label); };
      var opts = pd.options || [];
      var btns = [];
      if (pd.kind === "fire") {
        ((st.attack || {}).attackers || []).forEach(function (a) {
          opts.forEach(function (o) { btns.push(b(name(st, a, ctx) + ctx.say(" strzela w: ", " fires at: ") + name(st, o, ctx), "fire", [a, o])); });
        });
      } else if (pd.kind === "take_medals") {
        for (var d = pd.min; d <= pd.max; d++) btns.push(b(ctx.say("podwójnych: ", "doubles: ") + d, "medals", [String(d)]));
      } else {
        var cmd = { defend: "defend", siege: "siege", research: "research", dismantle: "dismantle", discard: "discard" }[pd.kind];
        opts.forEach(function (o) { btns.push(b(name(st, o, ctx), cmd, [o])); });
        // sabotage_chooser active: the saboteur picks blind (the view
        // lists the victim's hand to the victim only).
        if (pd.kind === "discard" && !opts.length) btns.push(ctx.el("span", { "data-testid": "blind-pick" }, ctx.say("wyciągnij kartę z zakrytej ręki i zeskanuj ją", "draw a card from the face-down hand and scan it")));
        if (pd.kind === "research") btns.push(b(ctx.say("nic nie biorę", "take nothing"), "research", []));
      }
      nodes.push(ctx.el("div", { class: "controls", "data-testid": "choices" }, btns));
    }
    return ctx.el("div", { class: "flag", "data-testid": "pending" }, nodes);
  }

  function hand(st, p, ctx, own) {
    var used = st.used || [];
    var playing = own && st.phase === "play" && st.active === p.seat && !st.pending;
    var cards = (p.hand || []).map(function (id) {
      var extra = null;
      if (playing) {
        var c = (st.cards || {})[id] || {};
        var btns = [ctx.el("button", { "data-testid": "play-" + id, onclick: function () { ctx.command("play", [id]); } }, ctx.say("zagraj", "play"))];
        if (c.kind === "vehicle" && c.armour > 0) btns.push(ctx.el("button", { onclick: function () { ctx.command("defend_only", [id]); } }, ctx.say("tylko obrona", "defend only")));
        if (c.pays) btns.push(ctx.el("button", { class: pay.indexOf(id) >= 0 ? "on" : "", "data-testid": "pay-" + id,
          onclick: function () { var i = pay.indexOf(id); if (i >= 0) pay.splice(i, 1); else pay.push(id); ctx.redraw(); } }, ctx.say("płacę", "pay")));
        extra = ctx.el("div", { class: "controls" }, btns);
      }
      var node = card(st, id, ctx, extra);
      if ((p.shown || []).indexOf(id) < 0 && !own) node.setAttribute("data-unscanned", "1");
      if (used.indexOf(id) >= 0) node.style.opacity = ".5";
      return node;
    });
    return ctx.el("div", { class: "units", "data-testid": own ? "my-hand" : "active-hand" }, cards.length ? cards : [ctx.el("div", { class: "meta", text: "—" })]);
  }

  function reserve(st, ctx, canBuy) {
    return ctx.el("div", { class: "units", "data-testid": "reserve" }, (st.reserve || []).map(function (id) {
      var extra = canBuy ? ctx.el("div", { class: "controls" }, ctx.el("button", { "data-testid": "buy-" + id,
        onclick: function () { var args = [id].concat(pay); pay = []; ctx.command("buy", args); } }, ctx.say("kup za zaznaczone", "buy with the marked cards"))) : null;
      return card(st, id, ctx, extra);
    }));
  }

  function wotRush(msg, ctx) {
    var st = msg.state || {};
    var me = mySeat(ctx);
    var active = player(st, st.active);
    var nodes = [];
    // The headline, read from across the room: the round, whose turn and
    // each player's medals.
    var score = (st.players || []).map(function (p, i) {
      var m = statsOf(st, p.seat).medals || {}, n = 0;
      Object.keys(m).forEach(function (k) { n += m[k]; });
      return [(i ? " · " : ": ") + p.name + " ", ctx.el("b", { text: String(n) })];
    });
    nodes.push(ctx.el("div", { class: "turn", "data-role": "headline", "data-testid": "turn" },
      ctx.say("Runda ", "Round "), ctx.el("b", { text: String(st.round || 0) }),
      active && st.phase === "play" ? " · " + ctx.say("tura: ", "turn: ") + active.name : "",
      st.end_triggered && st.phase === "play" ? " · " + ctx.say("ostatnia runda", "last round") : ""));
    nodes.push(ctx.el("div", { class: "turn", "data-role": "headline", "data-testid": "medals" }, ctx.say("Medale", "Medals"), [].concat.apply([], score)));
    if (P.result(msg, ctx)) nodes.push(P.result(msg, ctx));
    var ch = choices(st, ctx);
    if (ch) nodes.push(ch);
    if (st.selection) nodes.push(ctx.el("div", { class: "flag", "data-testid": "selection" },
      (st.selection.mode === "attack" ? ctx.say("Atak: ", "Attack: ") : ctx.say("Zakup: ", "Purchase: ")) +
      (st.selection.cards || []).map(function (id) { return name(st, id, ctx); }).join(", ") +
      ((st.selection.pay || []).length ? ctx.say(" — płaci ", " — paying ") + st.selection.pay.map(function (id) { return name(st, id, ctx); }).join(", ") : "")));
    var myTurn = me && st.phase === "play" && st.active === me && !st.pending;
    nodes.push(ctx.el("h2", { text: ctx.say("Rezerwa", "Reserve") + " · " + ctx.say("stos Pojazdów: ", "vehicle deck: ") + (st.deck_size || 0) }), reserve(st, ctx, myTurn));
    if (active && st.phase === "play" && active.seat !== me) {
      nodes.push(ctx.el("h2", { text: ctx.say("Ręka (odkryta): ", "Hand (face up): ") + active.name }), hand(st, active, ctx, false));
    }
    if (me) {
      var mine = player(st, me);
      if (mine) {
        nodes.push(ctx.el("h2", { "data-testid": "my-garage", text: ctx.say("Twoja ręka · Garaż: ", "Your hand · Garage: ") + mine.garage_size + ctx.say(" kart", " cards") }), hand(st, mine, ctx, true));
        if (myTurn && !st.attacked) {
          var attackers = (mine.hand || []).filter(function (id) { var c = (st.cards || {})[id] || {}; return c.kind === "vehicle" && c.firepower > 0 && (st.used || []).indexOf(id) < 0; });
          if (attackers.length) nodes.push(ctx.el("div", { class: "controls" }, ctx.el("button", { "data-testid": "attack",
            onclick: function () { ctx.command("attack", attackers.filter(function (id) { return st.cards[id].nation === st.cards[attackers[0]].nation; })); } },
            ctx.say("atakuj: ", "attack: ") + attackers.map(function (id) { return name(st, id, ctx); }).join(", "))));
        }
      }
    }
    nodes.push(ctx.el("h2", { text: ctx.say("Gracze", "Players") }), players(st, ctx));
    var ach = achievements(st, ctx);
    if (ach) nodes.push(ctx.el("h2", { text: ctx.say("Osiągnięcia", "Achievements") }), ach);
    return ctx.el("div", {}, nodes);
  }

  function referee(msg, ctx) {
    var st = msg.state || {};
    var p = player(st, st.active);
    if (!p) return null;
    var unseen = (p.hand || []).filter(function (id) { return (p.shown || []).indexOf(id) < 0; });
    return ctx.el("div", { class: "meta", "data-testid": "unscanned" },
      ctx.say("Nie zeskanowane karty ręki (zgadywane przez silnik): ", "Hand cards not scanned (the engine's guess): ") + (unseen.map(function (id) { return name(st, id, ctx); }).join(", ") || "—"));
  }

  // The fields of the actions the referee may correct from the form
  // panels.js builds (the actions' names are the catalogue's
  // action_names): a seat, a card or a base is picked by its name, never
  // typed (copies of a barracks card by their set and number).
  function cardOptions(kinds) {
    return function (msg) {
      var cards = (msg.state || {}).cards || {};
      var ids = Object.keys(cards).filter(function (id) { return kinds.indexOf(cards[id].kind) >= 0; }).sort();
      var count = {};
      ids.forEach(function (id) { var n = cards[id].name.pl; count[n] = (count[n] || 0) + 1; });
      return ids.map(function (id) {
        var c = cards[id], m = /-(\d+)-(\d+)$/.exec(id);
        var copy = count[c.name.pl] > 1 && m ? [" (zestaw " + m[1] + ", nr " + m[2] + ")", " (set " + m[1] + ", no. " + m[2] + ")"] : ["", ""];
        return [id, [c.name.pl + copy[0], c.name.en + copy[1]]];
      }).sort(function (a, b) { return a[1][0].localeCompare(b[1][0], "pl", { numeric: true }); });
    };
  }
  var handCards = cardOptions(["vehicle", "barracks"]), vehicles = cardOptions(["vehicle"]), targets = cardOptions(["base", "vehicle"]);
  function seatOptions(msg) { return ((msg.state || {}).players || []).map(function (p) { return [p.seat, p.name]; }); }
  var seat = { key: "seat", label: ["gracz", "player"], kind: "choice", number: true, options: seatOptions };
  var actions = {
    buy: { fields: [seat, { key: "cards", label: ["kupione karty", "the cards bought"], kind: "choices", options: vehicles },
      { key: "pay", label: ["karty płacące", "the cards paying"], kind: "choices", options: handCards }] },
    play_card: { fields: [seat, { key: "card", label: ["karta", "card"], kind: "choice", options: handCards },
      { key: "skip", label: ["bez zdolności (tylko obrona)", "no abilities (only defending)"], kind: "bool" }] },
    defend: { fields: [seat, { key: "base", label: ["Baza", "base"], kind: "choice", options: cardOptions(["base"]) }] },
    research: { fields: [seat, { key: "take", label: ["wzięty pojazd", "the vehicle taken"], kind: "choice", optional: true,
      options: function (msg) { return [["", ["nic", "nothing"]]].concat(vehicles(msg)); } }] },
    dismantle: { fields: [seat, { key: "cards", label: ["karty na Złomowisko", "the cards scrapped"], kind: "choices", options: handCards }] },
    siege: { fields: [seat, { key: "target", label: ["cel", "target"], kind: "choice", options: targets }] },
    discard: { fields: [seat, { key: "card", label: ["odłożona karta", "the card put away"], kind: "choice", options: handCards }] },
    attack: { fields: [seat, { key: "cards", label: ["atakujące pojazdy", "the attacking vehicles"], kind: "choices", options: vehicles }] },
    fire: { fields: [seat, { key: "attacker", label: ["strzela", "firing"], kind: "choice", options: vehicles }, { key: "target", label: ["cel", "target"], kind: "choice", options: targets }] },
    take_medals: { fields: [seat, { key: "doubles", label: ["podwójne medale", "double medals"], kind: "number" }] },
    end_turn: { fields: [seat] },
    reveal_hand: { fields: [seat, { key: "cards", label: ["karty na ręku", "the cards in hand"], kind: "choices", options: handCards }] },
    reveal_reserve: { fields: [seat, { key: "cards", label: ["karty Rezerwy", "the Reserve's cards"], kind: "choices", options: vehicles }] },
    declare_end: { fields: [{ key: "reason", label: ["powód", "reason"], kind: "text", optional: true }] }
  };

  P.register("wot-rush", wotRush, { referee: referee, actions: actions });
})();
