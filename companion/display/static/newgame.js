// The referee's "next game" form (the table's new_game command): the
// players typed, seat 1 first, or none (the venue's pairing's, else the
// config's), and the reason when the game is not over. Its own file and
// section of the referee's page; shown only on a table that offers the
// command (journal_dir).
(function (panels) {
  "use strict";
  panels.newGame = function (msg, ctx) {
    var offered = (ctx.meta.commands || []).some(function (c) { return c.name === "new_game"; });
    if (!offered) return null;
    var players = ctx.el("input", { "data-testid": "new-game-players", size: "30",
      placeholder: ctx.say("gracze po przecinku, od miejsca 1 (puste: z parowania)", "players, comma-separated, seat 1 first (empty: the pairing's)") });
    var why = ctx.el("input", { "data-testid": "new-game-text", placeholder: ctx.say("powód (gdy gra trwa)", "reason (when the game is not over)") });
    var send = function () {
      var names = players.value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
      ctx.command("new_game", names, why.value ? { text: why.value } : {});
    };
    return ctx.el("section", { class: "new-game", "data-testid": "new-game" },
      ctx.el("h2", { text: ctx.say("Następna gra", "Next game") }),
      ctx.el("div", { class: "controls" }, players, why,
        ctx.el("button", { "data-testid": "cmd-new_game", onclick: send }, ctx.say("Zacznij następną grę", "Start the next game"))));
  };
})(window.SztabPanels);
