package tournament

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/internal/fuzzseed"
)

// FuzzParseConfig: any file is a Config that passes its own checks or a
// *ConfigError naming the file; never a panic.
func FuzzParseConfig(f *testing.F) {
	for _, d := range fuzzseed.Files(f, "../../firmware-config/venue/tournament.example.yaml") {
		f.Add(d)
	}
	for _, d := range fuzzseed.YAML("players") {
		f.Add(d)
	}
	f.Add([]byte(fuzzseed.MergeKeyPanic("tables")))
	f.Add([]byte("name: N\nvenue: v\ngame: wot-rush\npoints: {mode: vp}\ntie_breaks: [head-to-head]\ntables: [{id: t1, key: k}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig("f.yaml", data, games.All)
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.File != "f.yaml" {
				t.Fatalf("error %v (%T), want a *ConfigError of f.yaml", err, err)
			}
			return
		}
		if cfg.Seats < 2 || cfg.Seats > 5 || len(cfg.Tables) == 0 || cfg.Bye.Outcome == "" || cfg.Points.Mode == "" {
			t.Fatalf("accepted a config that fails its checks: %+v", cfg)
		}
		again := cfg
		if err := again.Check(games.All); err != nil {
			t.Fatalf("a checked config fails Check: %v", err)
		}
	})
}

// FuzzParsePairings: any file is a round whose every player and table is
// the tournament's, each player once, seats full; or an error that says
// where; never a panic.
func FuzzParsePairings(f *testing.F) {
	for _, d := range fuzzseed.Files(f, "testdata/pairings.csv") {
		f.Add(d)
	}
	f.Add([]byte("table,seat,player\nt01,1,p01\nt01,2,p02\nbye,,p03\n"))
	f.Add([]byte("table,seat,player\n\"t01\n\",1,p01\n"))
	f.Add([]byte("\ufefftable;seat;player\n"))
	f.Add([]byte("table,seat,player,round\nt01,1,p01,1\nt01,2,p02,1,extra\n"))
	cfg := Config{Name: "F", Venue: "v", Game: "wot-rush", Tables: []Table{{ID: "t01", Key: "k"}, {ID: "t02", Key: "k2"}}}
	for _, id := range []string{"p01", "p02", "p03", "p04", "p05"} {
		cfg.Players = append(cfg.Players, Player{ID: id})
	}
	if err := cfg.Check(games.All); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParsePairings(bytes.NewReader(data), 1, &cfg)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "tournament: pairings: ") {
				t.Fatalf("error %q without the package and file", err)
			}
			if !strings.Contains(err.Error(), "line ") && !strings.Contains(err.Error(), "longer than") {
				t.Fatalf("error %q without a line", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range r.Tables {
			if len(p.Players) < 2 || len(p.Players) > cfg.Seats {
				t.Fatalf("table %v", p)
			}
			for _, id := range p.Players {
				if seen[id] {
					t.Fatalf("%s twice", id)
				}
				seen[id] = true
			}
		}
		for _, id := range r.Byes {
			if seen[id] {
				t.Fatalf("%s twice", id)
			}
			seen[id] = true
		}
		if len(seen) == 0 {
			t.Fatal("an empty round accepted")
		}
	})
}
