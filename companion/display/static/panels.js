// Panels draw a view. The shared ones (the referee's tools, the command
// buttons, the venue wall, the generic view) live here; each game's panel is
// its own script, /static/games/<id>.js, which calls
// SztabPanels.register(id, draw, {referee: …}). A panel takes the state
// message and a context (el, t for bilingual text, say for UI strings,
// command to send one) and returns a DOM node.
window.SztabPanels = (function () {
  "use strict";
  var games = {};
  // extra: referee, the game's part of the referee's page; actions, its
  // action types by name ({type: {name: [pl, en], fields: [...]}}) for the
  // referee's page: what the engine takes now, in words, and the
  // correction form (a type with fields can be corrected; see form()). A
  // type's name may come from the game's catalogue instead (the state's
  // action_names, the words the daemon's record uses too).
  function register(id, draw, extra) { extra = extra || {}; games[id] = { draw: draw, referee: extra.referee, actions: extra.actions || {} }; }

  function pct(p) { return (100 * p).toFixed(1) + "%"; }

  // distBars draws a distribution: an array [p0, p1, ...] or a map {"0": p0, ...}.
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

  // dice draws rolled dice; those under threshold are failures, and empty
  // places stand for the dice still to come.
  function dice(rolls, threshold, ctx, need) {
    var out = (rolls || []).map(function (r) {
      var ok = !threshold || r.value >= threshold;
      return ctx.el("span", { class: "die" + (ok ? "" : " fail"), title: r.origin + (r.device ? " " + r.device : ""), text: String(r.value) });
    });
    for (var i = (rolls || []).length; i < (need || 0); i++) out.push(ctx.el("span", { class: "die pending" }));
    return ctx.el("div", { class: "dice" }, out);
  }

  // controls are the buttons of the commands this page's sender may send.
  function controls(ctx, sender) {
    // A command with arguments (a move's piece and field) is sent from the
    // game's own panel, which knows what to offer.
    var cmds = (ctx.meta.commands || []).filter(function (c) { return (c.from || []).indexOf(sender) >= 0 && !(c.args && c.args.length); });
    if (!cmds.length) return null;
    var named = cmds.filter(function (c) { return !/^[1-6]$/.test(c.name); });
    var dieKeys = cmds.filter(function (c) { return /^[1-6]$/.test(c.name); });
    var b = function (c, label) { return ctx.el("button", { "data-testid": "cmd-" + c.name, onclick: function () { ctx.command(c.name); } }, label); };
    return ctx.el("div", { "data-testid": "controls" },
      ctx.el("div", { class: "controls" }, named.map(function (c) { return b(c, ctx.t(c.label) || c.name); })),
      dieKeys.length ? ctx.el("div", { class: "controls" }, ctx.say("Wpisz kość: ", "Enter a die: "), dieKeys.map(function (c) { return b(c, c.name); })) : null,
      ctx.el("div", { class: "answer " + (ctx.answerOk ? "ok" : "bad"), "data-testid": "command-result", text: ctx.answer || "" }));
  }

  function referee(msg, ctx) {
    var nodes = [ctx.el("h2", { text: ctx.say("Sędzia", "Referee") })];
    var game = games[ctx.meta.game];
    if (game && game.referee) { var extra = game.referee(msg, ctx); if (extra) nodes.push(extra); }
    (msg.desync || []).forEach(function (d) { nodes.push(ctx.el("div", { class: "flag", "data-testid": "desync" }, ctx.t(d.text) || JSON.stringify(d))); });
    var rows = (msg.fairness || []).map(function (f) {
      return ctx.el("tr", { class: f.loaded ? "loaded" : "", "data-testid": "fair-" + f.key },
        ctx.el("td", { text: ctx.t((msg.dice_names || {})[f.key]) || ctx.say("kość", "a die") }), ctx.el("td", { text: String(f.rolls) }), ctx.el("td", { text: f.faces.join(" ") }),
        ctx.el("td", { text: f.p_value.toFixed(4) }), ctx.el("td", { text: f.rejected ? String(f.rejected) : "" }),
        ctx.el("td", { text: f.loaded ? ctx.say("PODEJRZANA", "SUSPECT") : "ok" }));
    });
    nodes.push(ctx.el("h2", { text: ctx.say("Uczciwość kości", "Dice fairness") }),
      ctx.el("table", { class: "grid", "data-testid": "fairness" },
        ctx.el("tr", {}, ["", ctx.say("rzuty", "rolls"), "1–6", "p", ctx.say("odrzucone", "rejected"), ""].map(function (h) { return ctx.el("th", { text: h }); })), rows));
    // What the engine takes now, in the game's words (a type the game's
    // panel does not name is left out, never shown as its id).
    var acts = (game && game.actions) || {};
    var legal = (msg.legal || []).filter(function (a) { return actionName(acts, a, msg); }).map(function (a) { return ctx.t(actionName(acts, a, msg)); });
    if (legal.length) nodes.push(ctx.el("div", { class: "meta", "data-testid": "legal" }, ctx.say("Silnik przyjmie teraz: ", "The engine takes now: ") + legal.join(", ")));
    nodes.push(controls(ctx, "referee"));
    nodes.push(rulings(msg, ctx));
    return ctx.el("section", { "data-testid": "referee" }, nodes);
  }

  function player(msg, ctx) {
    var c = controls(ctx, "player");
    var call = ctx.el("input", { "data-testid": "call-text", placeholder: ctx.say("pytanie do sędziego", "question for the referee") });
    var callBox = ctx.el("div", { class: "controls", "data-testid": "call" }, call,
      ctx.el("button", { "data-testid": "cmd-call", onclick: function () { ctx.command("call", [], call.value ? { text: call.value } : {}); } }, ctx.say("Wezwij sędziego", "Call the referee")));
    return ctx.el("section", { "data-testid": "player-controls" }, c, callBox);
  }

  // record shows the referee's part of the game on every page: that
  // actions were taken back or corrected, the flags of actions let stand
  // despite the rules, the seats waiting for the referee, the last rulings.
  function record(msg, ctx) {
    var r = msg.record || {};
    var head = [];
    if (r.corrections) head.push(ctx.say("poprawki sędziego: ", "referee's corrections: ") + r.corrections);
    if (r.flags) head.push(ctx.say("dopuszczone mimo przepisów: ", "allowed despite the rules: ") + r.flags);
    var calls = (r.calls || []).map(function (c) {
      return ctx.el("div", { class: "flag", "data-testid": "call-" + c.seat },
        ctx.say("Miejsce " + c.seat + " czeka na sędziego", "Seat " + c.seat + " waits for the referee") + (c.text ? ": " + c.text : "") + " (#" + c.seq + ")");
    });
    var notes = (r.last || []).map(function (n) {
      return ctx.el("li", { class: n.kind, "data-testid": "ruling-" + n.seq }, ctx.el("span", { class: "seq", text: "#" + n.seq }), ctx.t(n.text));
    });
    return ctx.el("section", { class: "record", "data-testid": "record" },
      head.length ? ctx.el("div", { class: "record-head", "data-testid": "record-head", text: head.join(" · ") }) : null,
      calls, notes.length ? ctx.el("ol", { class: "log" }, notes) : null);
  }

  // rulings are the referee's own commands: take back or correct an entry
  // (by its number), let the refused action stand, answer a call.
  function rulings(msg, ctx) {
    var seq = ctx.el("input", { "data-testid": "ruling-seq", size: "6", inputmode: "numeric", "aria-label": ctx.say("numer wpisu", "entry number"), placeholder: ctx.say("wpis #", "entry #") });
    var why = ctx.el("input", { "data-testid": "ruling-text", "aria-label": ctx.say("powód lub odpowiedź", "reason or answer"), placeholder: ctx.say("powód / odpowiedź", "reason / answer") });
    var game = games[ctx.meta.game] || {};
    var fix = form(game.actions || {}, msg, ctx);
    var send = function (name, withAction) {
      return function () {
        var extra = { text: why.value };
        if (withAction) {
          var a = fix.action();
          if (a.error) { ctx.answer = a.error; ctx.answerOk = false; ctx.redraw(); return; }
          extra.action = a.action;
        }
        ctx.command(name, seq.value ? [seq.value] : [], extra);
      };
    };
    var b = function (name, label, withAction) { return ctx.el("button", { "data-testid": "cmd-" + name, onclick: send(name, withAction) }, label); };
    return ctx.el("div", { class: "rulings", "data-testid": "rulings" },
      ctx.el("h2", { text: ctx.say("Orzeczenia", "Rulings") }),
      ctx.el("div", { class: "controls" }, seq, why),
      ctx.el("div", { class: "controls" }, b("undo_entry", ctx.say("Cofnij", "Take back")), b("allow", ctx.say("Dopuść (flaga)", "Let stand (flag)")),
        b("answer", ctx.say("Odpowiedz na wezwanie", "Answer the call"))),
      fix.node ? ctx.el("div", { class: "controls", "data-testid": "correction" }, fix.node, b("correct", ctx.say("Popraw wpis", "Correct the entry"), true)) : null);
  }

  function pair(x) { return Array.isArray(x) ? { pl: x[0], en: x[1] } : x; }
  // actionName is an action type's name: the panel's, or the catalogue's.
  function actionName(acts, type, msg) { return acts[type] && acts[type].name ? pair(acts[type].name) : ((msg.state || {}).action_names || {})[type]; }

  // form is the correction's form, built from the game's action types:
  // a choice of the action (by name), then one input per field of the
  // chosen type. A field is {key, label: [pl, en], kind}: "number",
  // "text", "bool", "list" (comma-separated words), "numbers" (comma-
  // separated numbers), "dice" (die values as rolls, entered by the
  // referee), "choice" with options(msg) → [[value,
  // [pl, en] or text]], or "choices" (several of such options, a list of
  // their values); a key "a.b" fills a nested object. The form's choice
  // survives a redraw of the page.
  var formType = "", formValues = {};
  function form(actions, msg, ctx) {
    var types = Object.keys(actions).filter(function (k) { return actions[k].fields && actionName(actions, k, msg); });
    if (!types.length) return { node: null };
    if (types.indexOf(formType) < 0) formType = types[0];
    var pick = ctx.el("select", { "data-testid": "correction-type", "aria-label": ctx.say("poprawiona akcja", "the corrected action"),
      onchange: function () { formType = pick.value; formValues = {}; ctx.redraw(); } },
      types.map(function (k) { var o = ctx.el("option", { value: k, text: ctx.t(actionName(actions, k, msg)) }); if (k === formType) o.selected = true; return o; }));
    var fields = actions[formType].fields.map(function (f) {
      var label = ctx.t(pair(f.label)), id = "fix-" + f.key.replace(/\W/g, "-"), input;
      var keep = function () {
        formValues[f.key] = f.kind === "bool" ? input.checked : f.kind === "choices" ? [].map.call(input.selectedOptions, function (o) { return o.value; }) : input.value;
      };
      if (f.kind === "choice" || f.kind === "choices") {
        var kept = [].concat(formValues[f.key] === undefined ? [] : formValues[f.key]);
        input = ctx.el("select", { id: id, "data-field": f.key, onchange: keep }, (f.options(msg) || []).map(function (o) {
          var opt = ctx.el("option", { value: String(o[0]), text: typeof o[1] === "string" ? o[1] : ctx.t(pair(o[1])) });
          if (kept.indexOf(String(o[0])) >= 0) opt.selected = true;
          return opt;
        }));
        if (f.kind === "choices") { input.multiple = true; input.size = Math.min(8, input.options.length); }
      } else if (f.kind === "bool") {
        input = ctx.el("input", { id: id, type: "checkbox", "data-field": f.key, onchange: keep });
        input.checked = !!formValues[f.key];
      } else {
        input = ctx.el("input", { id: id, "data-field": f.key, oninput: keep, inputmode: f.kind === "number" || f.kind === "dice" || f.kind === "numbers" ? "numeric" : "text",
          placeholder: f.kind === "dice" || f.kind === "numbers" ? "3, 5, 6" : (f.kind === "list" ? ctx.say("po przecinku", "comma-separated") : "") });
        input.value = formValues[f.key] || "";
      }
      return ctx.el("label", { class: "field", for: id }, label, input);
    });
    function value(f, node) {
      if (f.kind === "choices") return [].map.call(node.selectedOptions, function (o) { return o.value; });
      var v = f.kind === "bool" ? node.checked : node.value.trim();
      if (f.kind === "number" || (f.kind === "choice" && f.number)) { if (v === "" || isNaN(+v)) throw new Error(ctx.say("liczba w polu: ", "a number in: ") + ctx.t(pair(f.label))); return +v; }
      if (f.kind === "list") return v ? v.split(/\s*,\s*/) : [];
      if (f.kind === "numbers") {
        return (v ? v.split(/[\s,]+/) : []).map(function (x) {
          if (!/^\d+$/.test(x)) throw new Error(ctx.say("liczby w polu: ", "numbers in: ") + ctx.t(pair(f.label)));
          return +x;
        });
      }
      if (f.kind === "dice") {
        return (v ? v.split(/[\s,]+/) : []).map(function (x) {
          if (!/^[1-6]$/.test(x)) throw new Error(ctx.say("kości to liczby od 1 do 6", "dice are numbers from 1 to 6"));
          return { value: +x, origin: "referee" };
        });
      }
      return v;
    }
    var box = ctx.el("div", { class: "controls" }, pick, fields);
    return { node: box, action: function () {
      var a = { type: formType };
      try {
        box.querySelectorAll("[data-field]").forEach(function (node) {
          var f = actions[formType].fields.filter(function (x) { return x.key === node.dataset.field; })[0];
          var v = value(f, node), keys = f.key.split("."), o = a;
          if (v === "" && f.optional) return;
          keys.slice(0, -1).forEach(function (k) { o = o[k] = o[k] || {}; });
          o[keys[keys.length - 1]] = v;
        });
      } catch (e) { return { error: e.message }; }
      return { action: a };
    } };
  }

  // hub is the venue wall: every table's card and, with a tournament, the
  // round clock and the standings. Built for a TV across the hall: what does
  // not fit is paged (every hubPageMs, "1/4" shown), never scrolled.
  var hubPageMs = 12000, hubTablesPerPage = 24, hubStandingsPerPage = 18, hubTimer = null;
  function hubPage(n, per) {
    var pages = Math.max(1, Math.ceil(n / per));
    var i = Math.floor(Date.now() / hubPageMs) % pages;
    return { from: i * per, to: Math.min(n, (i + 1) * per), index: i, pages: pages };
  }
  function clockText(c, ctx) {
    var left = Math.round((Date.parse(c.start) + c.minutes * 60000 - (Date.now() + (ctx.serverOffset || 0))) / 1000);
    if (left <= 0) return ctx.say("koniec czasu", "time is up");
    var m = Math.floor(left / 60), sec = left % 60;
    return m + ":" + (sec < 10 ? "0" : "") + sec;
  }
  function hub(msg, ctx) {
    var tables = msg.tables || [];
    var tp = hubPage(tables.length, hubTablesPerPage);
    var cards = tables.slice(tp.from, tp.to).map(function (tb) {
      var online = tb.status === "online";
      return ctx.el("div", { class: "tablecard" + (online ? "" : " offline") + (tb.conflict ? " conflict" : ""), "data-testid": "table-" + tb.table },
        ctx.el("h2", {}, ctx.el("span", { class: "dot " + (online ? "online" : "offline") }), tb.table),
        ctx.el("div", { "data-testid": "status-" + tb.table, text: (tb.finished ? ctx.say("koniec gry", "game over") : online ? ctx.say("gra trwa", "online") : ctx.say("offline", "offline")) + (tb.game ? " · " + tb.game : "") }),
        tb.conflict ? ctx.el("div", { class: "warn", "data-testid": "conflict-" + tb.table, text: ctx.say("Uwaga: dwa stoły podają ten sam identyfikator", "Warning: two tables claim this id") }) : null,
        tb.headline ? ctx.el("div", { class: "result", "data-testid": "headline-" + tb.table, text: ctx.t(tb.headline) }) : null,
        tb.sample_data ? ctx.el("div", { class: "warn", "data-testid": "sample-data-" + tb.table, text: ctx.t(tb.sample_data) }) : null,
        tb.seq ? ctx.el("div", { class: "meta", text: "seq " + tb.seq }) : null,
        tb.screen ? ctx.el("a", { href: tb.screen, text: ctx.say("ekran stołu →", "table screen →") }) : null);
    });
    if (!cards.length) cards = [ctx.el("p", { text: ctx.say("Żaden stół jeszcze się nie zgłosił.", "No table has reported yet.") })];
    var grid = ctx.el("div", { class: "tables", "data-testid": "tables" }, cards);
    var pager = tp.pages > 1 ? ctx.el("div", { class: "pager", "data-testid": "tables-page", text: ctx.say("stoły ", "tables ") + (tp.index + 1) + "/" + tp.pages }) : null;
    // Tables of a contract this wall cannot read (a newer release's): why.
    var unreadable = (msg.unreadable || []).map(function (u) {
      return ctx.el("div", { class: "warn", "data-testid": "unreadable-" + u.table, text: u.table + ": " + ctx.t(u.text) });
    });
    if (unreadable.length) grid = ctx.el("div", {}, unreadable, grid);
    var b = msg.board;
    if (!b) return ctx.el("div", {}, grid, pager);
    if (!hubTimer) hubTimer = setInterval(ctx.redraw, 1000); // the clock ticks, the pages turn
    var st = b.standings || [];
    var sp = hubPage(st.length, hubStandingsPerPage);
    var rows = st.slice(sp.from, sp.to).map(function (s) {
      return ctx.el("tr", { "data-testid": "standing" },
        ctx.el("td", { class: "rank", text: (s.tie ? "=" : "") + s.rank }),
        ctx.el("td", { class: "name" }, s.name, s.club ? ctx.el("span", { class: "club", text: " " + s.club }) : null,
          s.sample_data ? ctx.el("span", { class: "warn", "data-testid": "standing-sample-data", text: " · " + ctx.t(s.sample_data) }) : null),
        ctx.el("td", { class: "num", text: String(s.points) }),
        ctx.el("td", { class: "num dim", text: String(s.played) }));
    });
    var clock = b.clock
      ? ctx.el("div", { class: "clock", "data-testid": "clock" },
          ctx.el("span", { class: "round", text: ctx.say("runda ", "round ") + b.clock.round + (b.rounds ? "/" + b.rounds : "") }),
          ctx.el("span", { class: "time", "data-testid": "clock-time", text: clockText(b.clock, ctx) }))
      : ctx.el("div", { class: "clock idle", "data-testid": "clock", text: b.round ? ctx.say("runda ", "round ") + b.round + ctx.say(" — zegar nie ruszył", " — clock not started") : ctx.say("przed pierwszą rundą", "before the first round") });
    var side = ctx.el("aside", { class: "board" },
      b.title ? ctx.el("h2", { text: b.title }) : null, clock,
      ctx.el("table", { class: "standings", "data-testid": "standings" },
        ctx.el("thead", {}, ctx.el("tr", {}, ctx.el("th", { text: "#" }), ctx.el("th", { text: ctx.say("gracz", "player") }),
          ctx.el("th", { class: "num", text: ctx.say("pkt", "pts") }), ctx.el("th", { class: "num", text: ctx.say("gry", "games") }))),
        ctx.el("tbody", {}, rows)),
      sp.pages > 1 ? ctx.el("div", { class: "pager", "data-testid": "standings-page", text: (sp.index + 1) + "/" + sp.pages }) : null);
    return ctx.el("div", { class: "wall" }, side, ctx.el("div", {}, grid, pager));
  }

  // generic shows a game without a panel of its own: its summary lines, or
  // its state as JSON.
  // result is the finished game's result, the state message's headline
  // (the same text as the wall, the watch, the export and the signed
  // statement: companion.ResultText), for a game's panel to show at the end;
  // null while the game is not over.
  function result(msg, ctx, cls) {
    if (!msg.finished || !msg.headline) return null;
    return ctx.el("div", { class: cls || "result", "data-testid": "result", text: ctx.t(msg.headline) });
  }

  function generic(msg, ctx) {
    if (msg.summary && msg.summary.length) {
      return ctx.el("div", { "data-testid": "generic" }, msg.summary.map(function (l) { return ctx.el("div", { class: "line", text: ctx.t(l) }); }));
    }
    return ctx.el("pre", { class: "json", "data-testid": "generic" }, JSON.stringify(msg.state || msg, null, 1));
  }

  return { register: register, games: games, referee: referee, player: player, hub: hub, generic: generic, record: record, result: result,
           util: { pct: pct, distBars: distBars, dice: dice } };
})();
