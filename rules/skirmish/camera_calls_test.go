package skirmish

import (
	"strings"
	"testing"
)

// The camera's calls that are too close to make (cover, a model at a
// template's edge, a jump) wait for a ruling like a distance does.

func TestCoverTooCloseToCall(t *testing.T) {
	tests := []struct {
		name      string
		in        InCover
		rulings   []bool // answers, in the order asked
		asked     []string
		cover     string
		saveOn    int
		hitOn     int
		rejection string
	}{
		{"sure: no call", InCover{Light: 3}, nil, nil, CoverLight, 3, 2, ""},
		{"light or none, ruled yes", InCover{Light: 2, AtMost: &CoverCount{Light: 3}}, []bool{true}, []string{"cover:ak:gren:light"}, CoverLight, 3, 2, ""},
		{"light or none, ruled no", InCover{Light: 2, AtMost: &CoverCount{Light: 3}}, []bool{false}, []string{"cover:ak:gren:light"}, CoverNone, 4, 2, ""},
		{"none to heavy: yes, then no", InCover{Light: 2, AtMost: &CoverCount{Heavy: 3}}, []bool{true, false}, []string{"cover:ak:gren:light", "cover:ak:gren:heavy"}, CoverLight, 3, 2, ""},
		{"none to heavy: yes, yes", InCover{Light: 2, AtMost: &CoverCount{Heavy: 3}}, []bool{true, true}, []string{"cover:ak:gren:light", "cover:ak:gren:heavy"}, CoverHeavy, 3, 3, ""},
		{"at most below the sure counts", InCover{Light: 3, AtMost: &CoverCount{Light: 1}}, nil, nil, "", 0, 0, "bad_measurement"},
		{"at most more than the unit", InCover{AtMost: &CoverCount{Light: 6}}, nil, nil, "", 0, 0, "bad_measurement"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newGame(t, 5, "", 5, Options{})
			shot := DeclareShot{Shooter: "ak", Target: "gren", Distance: kroki(20, 0.1), InCover: tt.in}
			if tt.rejection != "" {
				wantRejection(t, s, shot, tt.rejection)
				return
			}
			s = mustApply(t, s, shot)
			for i, yes := range tt.rulings {
				if s.Call == nil || s.Call.Key != tt.asked[i] {
					t.Fatalf("ruling %d: call %+v, want %q asked", i, s.Call, tt.asked[i])
				}
				if !strings.Contains(s.Call.Question.EN, "cover") || !strings.Contains(s.Call.Question.PL, "osłoną") {
					t.Errorf("question %+v", s.Call.Question)
				}
				s = mustApply(t, s, Ruling{InRange: yes, By: "referee"})
			}
			if s.Call != nil || s.Shot == nil {
				t.Fatalf("after the rulings: call %+v, shot %+v", s.Call, s.Shot)
			}
			if s.Shot.Cover != tt.cover || s.Shot.SaveOn != tt.saveOn || s.Shot.HitOn != tt.hitOn {
				t.Errorf("cover %s save %d+ hit %d+, want %s %d+ %d+", s.Shot.Cover, s.Shot.SaveOn, s.Shot.HitOn, tt.cover, tt.saveOn, tt.hitOn)
			}
		})
	}
}

func TestMarkerEdgeTooCloseToCall(t *testing.T) {
	cat := looseCat(t)
	units := []UnitSpec{
		{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 5},
		{ID: "flam", Card: "grenadier", Owner: 2, Models: 1, Weapon: "FLAMMENWERFER 35"},
	}
	bartek := mustApply(t, deployed(t, cat, units, Options{}, ChooseScenario{Number: 1}), EndPhase{}, EndPhase{}, EndPhase{})
	shot := DeclareShot{Shooter: "flam", Target: "ak", Markers: []Marker{{Models: []string{"ak-1"}, Unsure: []string{"ak-2", "ak-3"}}}}
	s := mustApply(t, bartek, shot)
	if s.Call == nil || s.Call.Key != "marker:1:ak-2" {
		t.Fatalf("call %+v, want ak-2 asked", s.Call)
	}
	s = mustApply(t, s, Ruling{InRange: true, By: "referee"})
	if s.Call == nil || s.Call.Key != "marker:1:ak-3" {
		t.Fatalf("call %+v, want ak-3 asked", s.Call)
	}
	s = mustApply(t, s, Ruling{InRange: false, By: "referee"})
	if s.Call != nil || s.Shot == nil || len(s.Shot.Markers) != 1 || strings.Join(s.Shot.Markers[0].Models, ",") != "ak-1,ak-2" || s.Shot.Markers[0].Unsure != nil {
		t.Fatalf("shot %+v", s.Shot)
	}
	wantRejection(t, bartek, DeclareShot{Shooter: "flam", Target: "ak", Markers: []Marker{{Models: []string{"ak-1"}, Unsure: []string{"ak-1"}}}}, "bad_marker")
	wantRejection(t, bartek, DeclareShot{Shooter: "flam", Target: "ak", Markers: []Marker{{Unsure: []string{"gren-9"}}}}, "bad_marker")
}

func TestJumpTooCloseToCall(t *testing.T) {
	s := deployed(t, looseCat(t), []UnitSpec{{ID: "ak", Card: "ak_soldier", Owner: 1, Models: 5}, {ID: "gren", Card: "grenadier", Owner: 2, Models: 5}},
		Options{}, ChooseScenario{Number: 1})
	if s.Phase != PhaseMovement || s.ActiveSeat() != 1 {
		t.Fatalf("phase %s seat %d", s.Phase, s.ActiveSeat())
	}
	s = mustApply(t, s, NoteJumps{Models: []string{"ak-1"}, Unsure: []string{"ak-2", "ak-3"}})
	if s.Call == nil || s.Call.Key != "jump:ak-2" {
		t.Fatalf("call %+v, want ak-2 asked", s.Call)
	}
	s = mustApply(t, s, Ruling{InRange: false, By: "referee"})
	s = mustApply(t, s, Ruling{InRange: true, By: "referee"})
	if s.Call != nil || s.Selection == nil || strings.Join(s.Selection.Jumps, ",") != "ak-1,ak-3" || strings.Join(s.Selection.NotJumped, ",") != "ak-2" {
		t.Fatalf("call %+v, selection %+v", s.Call, s.Selection)
	}
	// Asked once: the same unsure call again changes nothing.
	again, evs, err := Apply(s, NoteJumps{Unsure: []string{"ak-2", "ak-3"}})
	if err != nil || again.Call != nil || len(evs) != 0 {
		t.Fatalf("again: call %+v events %v err %v", again.Call, evs, err)
	}
	// The move carries the jumps and clears them.
	moved := mustApply(t, s, Move{Models: []Placement{{Model: "ak-1", X: 2, Y: 6}, {Model: "ak-3", X: 5, Y: 6}}, Jumped: s.Selection.Jumps})
	if moved.Selection != nil {
		t.Errorf("selection after the move: %+v", moved.Selection)
	}
	if !unitOf(moved, "ak").Models[0].Jumped || unitOf(moved, "ak").Models[1].Jumped {
		t.Errorf("jumped flags: %+v", unitOf(moved, "ak").Models)
	}
}
