package skirmishgame

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/tabletest"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/skirmish"
	"github.com/sztab/sztab/vision"
)

const krok = 25.4

// newGame builds the adapter from a config whose skirmish section is
// section, and applies its StartGame as the daemon would.
func newGame(t *testing.T, section string) *Game {
	t.Helper()
	dir := t.TempDir()
	text := "venue: test\ntable: t1\ngame: skirmish\ntags: tags.yaml\nmeasure:\n  krok_mm: 25.4\ndice:\n  seed: 7\n" + section
	path := filepath.Join(dir, "table.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := companion.ParseConfig(path, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	cg, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := cg.(*Game)
	start, _ := g.Start()
	apply(t, g, start)
	return g
}

func apply(t *testing.T, g *Game, actions ...companion.Action) {
	t.Helper()
	for _, a := range actions {
		b, err := g.EncodeAction(a)
		if err != nil {
			t.Fatal(err)
		}
		back, err := g.DecodeAction(b)
		if err != nil {
			t.Fatal(err)
		}
		_, commit, err := g.Apply(back)
		if err != nil {
			t.Fatalf("%s: %v", a.Type(), err)
		}
		commit()
	}
}

// bind feeds an input and applies what it binds to, refusals allowed; it
// returns the action types, the refusal codes and the notice types.
func bind(t *testing.T, g *Game, in companion.Input) (actions, refused, notices []string) {
	t.Helper()
	as, ns := g.Bind(in)
	for _, n := range ns {
		notices = append(notices, string(n.Type))
	}
	for _, a := range as {
		actions = append(actions, a.Type())
		_, commit, err := g.Apply(a)
		if err != nil {
			rej, ok := rules.AsRejection(err)
			if !ok {
				t.Fatal(err)
			}
			refused = append(refused, rej.Code)
			continue
		}
		commit()
	}
	return actions, refused, notices
}

func tag(kind, id string) companion.Input {
	return companion.Input{Tag: &hardware.TagEvent{Reader: "stol", UID: "04A1B2C3", Present: true}, TagInfo: &companion.Tag{Kind: kind, ID: id}}
}

func key(k string) companion.Input {
	return companion.Input{Key: &hardware.KeyEvent{Keypad: "k1", Key: k}, From: companion.Sender{Kind: wire.Keys, Audience: wire.Public}}
}

func snapshot(models ...vision.ModelPosition) companion.Input {
	return companion.Input{Snapshot: &vision.Snapshot{Models: models}}
}

// row is a unit's models in a row, 1.5 kroki apart, at y kroki.
func row(unit string, n int, x0, y float64) []vision.ModelPosition {
	var out []vision.ModelPosition
	for i := range n {
		out = append(out, vision.ModelPosition{ID: unit + "-" + string(rune('1'+i)), Unit: unit,
			X: (x0 + 1.5*float64(i)) * krok, Y: y * krok, BaseMM: krok, SigmaMM: 0.5})
	}
	return out
}

const scenario1 = `skirmish:
  players:
    - {seat: 1, name: Ania, faction: Armia Krajowa}
    - {seat: 2, name: Bartek, faction: Wehrmacht}
  units:
    - {id: ak, card: ak_soldier, owner: 1, models: 4, swaps: [{weapon: ZDOBYCZNY STIELHAND GRANATE, models: 1}]}
    - {id: gren, card: grenadier, owner: 2, models: 4}
  scenario: {number: 1}
  roll_off: [{seat: 1, value: 6}, {seat: 2, value: 1}]
`

func TestConfigErrors(t *testing.T) {
	// The file is the four lines below, then scenario1 from line 5
	// ("skirmish:") to line 13 (roll_off); appended keys are on line 14.
	tests := []struct {
		name    string
		section string
		line    int
		msg     string
	}{
		// The list is checked as a whole, so the error points at the
		// skirmish section: Config.Line gives its mapping's first line.
		{"illegal list", strings.Replace(scenario1, "models: 4}\n  scenario", "models: 2}\n  scenario", 1),
			6, "skirmish: Bartek's army list: gren: 2 models, the minimum for Grenadier is 4"},
		{"unknown key", scenario1 + "  colour: red\n", 14, `unknown key "colour"`},
		{"missing data", scenario1 + "  data: {units: nowhere.yaml}\n", 14, "nowhere.yaml: no such file or directory"},
		{"unknown field", strings.Replace(scenario1, "roll_off", "rollof", 1), 13, `unknown key "rollof"`},
		{"bad template rule", scenario1 + "  template: round\n", 14, `template "round", want "touch" or "centre"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := "venue: test\ntable: t1\ngame: skirmish\ntags: tags.yaml\n" + tt.section
			path := filepath.Join(t.TempDir(), "table.yaml")
			cfg, err := companion.ParseConfig(path, []byte(text))
			if err == nil {
				_, err = New(cfg)
			}
			ce, ok := err.(*companion.ConfigError)
			if !ok {
				t.Fatalf("got %v, want a *companion.ConfigError", err)
			}
			if ce.File != path || ce.Line != tt.line {
				t.Errorf("got %s:%d, want %s:%d (%v)", ce.File, ce.Line, path, tt.line, err)
			}
			if !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got message %q, want it to contain %q", ce.Msg, tt.msg)
			}
		})
	}
}

func TestDeployMoveShoot(t *testing.T) {
	g := newGame(t, scenario1)
	ak, gren := row("ak", 4, 2, 4), row("gren", 4, 2, 25)
	bind(t, g, snapshot(append(ak, gren...)...))
	// Bartek's card in Ania's deployment turn is refused by the engine.
	if _, refused, _ := bind(t, g, tag("unit", "gren")); strings.Join(refused, ",") != "not_your_turn" {
		t.Errorf("Bartek deploying first: refused %v", refused)
	}
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	if s := g.State(); s.Phase != skirmish.PhaseMovement || s.Round != 1 {
		t.Fatalf("after both deployments: %s round %d", s.Phase, s.Round)
	}
	// Ania moves ak-1 7 kroki: the move is refused and the phase stays.
	moved := append([]vision.ModelPosition(nil), ak...)
	moved[0].Y += 7 * krok
	bind(t, g, snapshot(append(moved, gren...)...))
	actions, refused, _ := bind(t, g, key("next"))
	if strings.Join(actions, ",") != "move" || strings.Join(refused, ",") != "move_too_long" || g.State().Phase != skirmish.PhaseMovement {
		t.Errorf("too long a move: actions %v refused %v phase %s", actions, refused, g.State().Phase)
	}
	moved[0].Y -= 2 * krok
	bind(t, g, snapshot(append(moved, gren...)...))
	actions, refused, _ = bind(t, g, key("next"))
	if strings.Join(actions, ",") != "move" || refused != nil || g.State().Phase != skirmish.PhaseShooting {
		t.Errorf("a 5-krok move: actions %v refused %v phase %s", actions, refused, g.State().Phase)
	}
	if at := g.State().Units[0].Models[0].At; at.Y != 9 {
		t.Errorf("ak-1 at %+v, want y 9", at)
	}
	// The unit carries rifles and a grenade: a second scan picks the grenade.
	_, _, notices := bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	s := g.State()
	if s.Shot == nil || s.Shot.Weapon != "KARABINER 98K" || s.Shot.Attacks != 3 {
		t.Fatalf("notices %v, shot %+v", notices, s.Shot)
	}
	if d := s.Shot.Distance; d.Kroki < 15 || d.Kroki > 20 {
		t.Errorf("distance %+v", d)
	}
}

// table is a snapshot with terrain and markers.
func table(terrain []vision.Terrain, markers []vision.TableMarker, models ...vision.ModelPosition) companion.Input {
	return companion.Input{Snapshot: &vision.Snapshot{Models: models, Terrain: terrain, Markers: markers}}
}

// wall is a piece of terrain from (x0, y0) to (x1, y1), in kroki.
func wall(kind string, x0, y0, x1, y1 float64) vision.Terrain {
	return vision.Terrain{ID: kind, Kind: kind, SigmaMM: 1, Outline: [][2]float64{
		{x0 * krok, y0 * krok}, {x1 * krok, y0 * krok}, {x1 * krok, y1 * krok}, {x0 * krok, y1 * krok}}}
}

// The camera's terrain and markers drive the jumps, the cover and the
// template: a model crossing a wall jumps, one grazing another wall's end is
// asked about, the grenadiers behind a heavy wall get heavy cover, the
// grenade's marker hits the models under it and asks about the one at its
// edge.
func TestCameraReadings(t *testing.T) {
	g := newGame(t, strings.Replace(scenario1, "  scenario:", "  options: {table: {width: 36, depth: 24}}\n  scenario:", 1))
	ak, gren := row("ak", 4, 2, 8), row("gren", 4, 2, 16)
	terrain := []vision.Terrain{
		wall(vision.CoverLight, 3, 9, 4, 9.4),            // across ak-2's path (x 3.5)
		wall(vision.CoverLight, 6.5+0.6/krok, 9, 8, 9.4), // 0.6 mm beside ak-4's path (x 6.5)
		wall(vision.CoverHeavy, 0, 14.6, 12, 14.9),       // in front of the grenadiers
	}
	bind(t, g, table(terrain, nil, append(ak, gren...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	moved := append([]vision.ModelPosition(nil), ak...)
	moved[1].Y += 2 * krok
	moved[3].Y += 2 * krok
	actions, _, _ := bind(t, g, table(terrain, nil, append(moved, gren...)...))
	s := g.State()
	if strings.Join(actions, ",") != "note_jumps" || s.Call == nil || s.Call.Key != "jump:ak-4" {
		t.Fatalf("after the move: actions %v, call %+v", actions, s.Call)
	}
	// The referee rules ak-4 did not jump; ak-2 did, surely.
	bind(t, g, key("cancel"))
	if sel := g.State().Selection; sel == nil || strings.Join(sel.Jumps, ",") != "ak-2" || strings.Join(sel.NotJumped, ",") != "ak-4" {
		t.Fatalf("selection %+v", sel)
	}
	// Asked once: the next snapshot does not ask again.
	if actions, _, _ := bind(t, g, table(terrain, nil, append(moved, gren...)...)); actions != nil {
		t.Errorf("the same snapshot again: %v", actions)
	}
	actions, _, _ = bind(t, g, key("next"))
	if strings.Join(actions, ",") != "move" || !g.State().Units[0].Models[1].Jumped || g.State().Units[0].Models[3].Jumped {
		t.Fatalf("actions %v; models %+v", actions, g.State().Units[0].Models)
	}
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	// ak-1 carries the grenade; ak-2 jumped with a rifle (strata ruchu).
	sh := g.State().Shot
	if sh == nil || strings.Join(sh.Firing, ",") != "ak-3,ak-4" || sh.Cover != skirmish.CoverHeavy {
		t.Fatalf("shot %+v, want ak-3 and ak-4 firing at heavy cover", sh)
	}
	bind(t, g, key("cancel"))
	// The grenade's marker: 88.9 mm across, centred between gren-1 and
	// gren-2; gren-3's base just touches its edge.
	marker := vision.TableMarker{Kind: vision.MarkerTemplate, X: 2.75 * krok, Y: 16 * krok, DiameterMM: 88.9, SigmaMM: 1}
	bind(t, g, table(terrain, []vision.TableMarker{marker, {Kind: vision.MarkerObjective, X: 100, Y: 100}}, append(moved, gren...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "ak"))
	_, refused, _ := bind(t, g, tag("unit", "gren"))
	if s := g.State(); refused != nil || s.Call == nil || s.Call.Key != "marker:1:gren-3" {
		t.Fatalf("grenade: refused %v, call %+v", refused, s.Call)
	}
	bind(t, g, key("cancel"))
	sh = g.State().Shot
	if sh == nil || sh.Weapon != "ZDOBYCZNY STIELHAND GRANATE" || len(sh.Markers) != 1 || strings.Join(sh.Markers[0].Models, ",") != "gren-1,gren-2" {
		t.Fatalf("grenade: shot %+v", sh)
	}
	if d := sh.Markers[0].Distance; d == nil || d.Kroki < 6 || d.Kroki > 8 {
		t.Errorf("marker distance %+v; ak-1 stands at y 8, the marker at 16", d)
	}
}

// No template marker on the table: the template weapon is refused with
// the engine's reason.
func TestTemplateWithoutMarker(t *testing.T) {
	g := newGame(t, scenario1)
	ak, gren := row("ak", 4, 2, 4), row("gren", 4, 2, 25)
	bind(t, g, snapshot(append(ak, gren...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	bind(t, g, key("next"))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "ak"))
	if _, refused, _ := bind(t, g, tag("unit", "gren")); strings.Join(refused, ",") != "no_marker" {
		t.Errorf("refused %v, want no_marker", refused)
	}
}

// A unit whose cover hangs on one model grazing a wall's end: the shot
// waits for a ruling; "confirm" gives the cover.
func TestCoverTooCloseToCall(t *testing.T) {
	g := newGame(t, strings.Replace(scenario1, "  scenario:", "  options: {table: {width: 36, depth: 24}}\n  scenario:", 1))
	ak, gren := row("ak", 4, 2, 4), row("gren", 4, 2, 16)
	// The wall hides gren-1 and gren-2 (x 2, 3.5) from every rifle and
	// ends at gren-3's band edge: two surely behind, the third too close.
	var terrain []vision.Terrain
	probe := func(x1 float64) vision.Terrain { return wall(vision.CoverLight, -10, 14, x1, 14.5) }
	for _, x1 := range []float64{5.5, 5.6, 5.7, 5.8, 5.9, 6, 6.1, 6.2, 6.3, 6.4, 6.5, 6.6, 6.7, 6.8, 6.9, 7} {
		var shooters []vision.ModelPosition
		for _, m := range ak[1:] {
			shooters = append(shooters, m)
		}
		if in := coverOf([]vision.Terrain{probe(x1)}, shooters, gren); in.AtMost != nil && in.Light == 2 {
			terrain = []vision.Terrain{probe(x1)}
			break
		}
	}
	if terrain == nil {
		t.Fatal("no wall end makes the call close")
	}
	bind(t, g, table(terrain, nil, append(ak, gren...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	bind(t, g, key("next"))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	s := g.State()
	if s.Call == nil || s.Call.Key != "cover:ak:gren:light" {
		t.Fatalf("call %+v, want the cover asked", s.Call)
	}
	bind(t, g, key("confirm"))
	if sh := g.State().Shot; sh == nil || sh.Cover != skirmish.CoverLight {
		t.Fatalf("after confirm: shot %+v", sh)
	}
}

const scenario3 = `skirmish:
  players:
    - {seat: 1, name: Ania, faction: Armia Krajowa}
    - {seat: 2, name: Bartek, faction: Wehrmacht}
  units:
    - {id: ak, card: ak_soldier, owner: 1, models: 4}
    - {id: gren, card: grenadier, owner: 2, models: 4}
  scenario: {number: 3}
  roll_off: [{seat: 1, value: 6}, {seat: 2, value: 1}]
`

func TestOrderCardsAndViews(t *testing.T) {
	g := newGame(t, scenario3)
	pub, _ := json.Marshal(g.View(companion.Public))
	if strings.Contains(string(pub), `"ak"`) || strings.Contains(string(pub), `"gren"`) {
		t.Error("the public view shows undeployed units")
	}
	mine, _ := json.Marshal(g.View(companion.Viewer{Role: companion.RolePlayer, Seat: 1}))
	if !strings.Contains(string(mine), `"ak"`) || strings.Contains(string(mine), `"gren"`) {
		t.Error("Ania's view should show her unit and not Bartek's")
	}
	bind(t, g, snapshot(append(row("ak", 4, 2, 4), row("gren", 4, 2, 25)...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	if _, refused, _ := bind(t, g, tag("card", "w_granaty")); refused != nil {
		t.Fatalf("Bartek's card in the first draw: refused %v", refused)
	}
	bind(t, g, key("draw"))
	s := g.State()
	if s.Round != 1 || len(s.Seats[0].Hand) != 5 || len(s.Seats[1].Hand) != 5 || s.Seats[1].Hand[0].ID != "w_granaty" {
		t.Fatalf("round %d, hands %+v", s.Round, s.Seats)
	}
	var pv skirmish.State
	b, _ := json.Marshal(g.View(companion.Public))
	json.Unmarshal(b, &pv)
	if pv.Seats[0].Hand != nil || pv.Seats[0].HandSize != 5 {
		t.Errorf("public view of a hand: %+v", pv.Seats[0])
	}
	var ref skirmish.State
	b, _ = json.Marshal(g.View(companion.Viewer{Role: companion.RoleReferee}))
	json.Unmarshal(b, &ref)
	if len(ref.Seats[1].Hand) != 5 {
		t.Error("the referee does not see the hands")
	}
	card := s.Seats[0].Hand[0].ID
	bind(t, g, key("discard"))
	if actions, refused, _ := bind(t, g, tag("card", card)); strings.Join(actions, ",") != "discard_order" || refused != nil {
		t.Errorf("discard: %v %v", actions, refused)
	}
	bind(t, g, key("draw"))
	if h := g.State().Seats[0].Hand; len(h) != 5 {
		t.Errorf("after discard and draw: %d cards", len(h))
	}
}

func TestObjectivesFromTheCamera(t *testing.T) {
	g := newGame(t, strings.Replace(scenario1, "{number: 1}", "{number: 2, objectives: 2}", 1))
	objective := func(x, y float64) vision.TableMarker {
		return vision.TableMarker{Kind: vision.MarkerObjective, X: x * krok, Y: y * krok, DiameterMM: 30, SigmaMM: 1}
	}
	template := vision.TableMarker{Kind: vision.MarkerTemplate, X: 5 * krok, Y: 5 * krok, DiameterMM: 76}
	bind(t, g, table(nil, []vision.TableMarker{objective(10, 18), template}))
	bind(t, g, key("next"))
	if _, refused, notices := bind(t, g, key("next")); refused != nil || strings.Join(notices, ",") != "rejected" {
		t.Errorf("no new marker: refused %v, notices %v", refused, notices)
	}
	bind(t, g, table(nil, []vision.TableMarker{objective(10, 18), template, objective(20, 18)}))
	bind(t, g, key("next"))
	s := g.State()
	if len(s.Objectives) != 2 || s.Objectives[1].At.X != 20 || s.Objectives[1].PlacedBy != 2 || s.Phase != skirmish.PhaseDeployment {
		t.Errorf("objectives %+v, phase %s", s.Objectives, s.Phase)
	}
	if sig := s.Objectives[0].At.Sigma; sig != g.kroki(1) {
		t.Errorf("objective sigma %v kroki, want the marker's 1 mm", sig)
	}
}

// A player's command acts for their seat, on their turn only.
func TestPlayersCommandOnlyOnTheirTurn(t *testing.T) {
	g := newGame(t, scenario1)
	ak, gren := row("ak", 4, 2, 4), row("gren", 4, 2, 25)
	bind(t, g, snapshot(append(ak, gren...)...))
	bind(t, g, tag("unit", "ak"))
	bind(t, g, tag("unit", "gren"))
	from := func(seat int) companion.Input {
		in := key("next")
		in.From = companion.Sender{Kind: wire.Seat, Audience: wire.Player(seat)}
		return in
	}
	if _, _, notices := bind(t, g, from(2)); strings.Join(notices, ",") != "rejected" || g.State().Phase != skirmish.PhaseMovement {
		t.Errorf("Bartek ended Ania's phase: notices %v, phase %s", notices, g.State().Phase)
	}
	if actions, _, _ := bind(t, g, from(1)); strings.Join(actions, ",") != "end_phase" || g.State().Phase != skirmish.PhaseShooting {
		t.Errorf("Ania's own next: actions %v, phase %s", actions, g.State().Phase)
	}
}

// The referee's end_game: the winner named by faction or player (none: no
// winner), the reason from the command's text; a player's end_game, an
// unknown winner or two are refused, the game left as it was.
func TestRefereeEndsTheGame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     companion.Input
		winner string
		code   string
	}{
		{"by player", withText(tabletest.Page(0, "end_game", "bartek"), "czas minął"), "Wehrmacht", ""},
		{"by faction", tabletest.Page(0, "end_game", "Armia Krajowa"), "Armia Krajowa", ""},
		{"no winner", tabletest.Page(0, "end_game"), "", ""},
		{"a player", tabletest.Page(1, "end_game", "Ania"), "", "referee_only"},
		{"unknown winner", tabletest.Page(0, "end_game", "Celina"), "", "unknown_winner"},
		{"two winners", tabletest.Page(0, "end_game", "Ania", "Bartek"), "", "bad_args"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newGame(t, scenario1)
			_, rej := tabletest.Feed(t, g, tc.in)
			s := g.State()
			if tc.code != "" {
				if rej == nil || rej.Code != tc.code || s.Result != nil {
					t.Fatalf("refusal %+v, result %+v; want %s and no result", rej, s.Result, tc.code)
				}
				return
			}
			if rej != nil || s.Result == nil || s.Result.Winner != tc.winner {
				t.Fatalf("refusal %+v, result %+v; want the game over, winner %q", rej, s.Result, tc.winner)
			}
			if reason := tc.in.Text; reason != "" && !strings.Contains(g.Headline().PL, reason) {
				t.Errorf("headline %q does not give the reason %q", g.Headline().PL, reason)
			}
		})
	}
}

func withText(in companion.Input, text string) companion.Input {
	in.Text = text
	return in
}
