package skirmish

import (
	"slices"
	"testing"
)

// Every row of SPIS BRONI, as printed in the rulebook.
func TestWeaponsTable(t *testing.T) {
	type row struct {
		name            string
		typ             string
		rng, shots      int
		hit, wound      int
		d6              bool
		jump            Jump
		mgPer, mgMax    int
		template        string
		targetDie, capt bool
	}
	want := []row{
		{"LUGER 08", "Pistolet", 14, 2, 4, 4, false, JumpNoLoss, 0, 0, "", false, false},
		{"PISTOLET COLT M1911", "Pistolet", 14, 2, 4, 4, false, JumpNoLoss, 0, 0, "", false, false},
		{"ZDOBYCZNY MP 40", "Pistolet maszynowy", 18, 4, 4, 4, false, JumpNoLoss, 0, 0, "", false, true},
		{"MP 40", "Pistolet maszynowy", 20, 3, 4, 3, false, JumpNoLoss, 0, 0, "", false, false},
		{"STEN", "Pistolet maszynowy", 22, 4, 3, 4, false, JumpNoLoss, 0, 0, "", false, false},
		{"ZDOBYCZNY KARABINER 98K", "Karabin", 28, 1, 3, 3, false, JumpMoveLoss, 0, 0, "", false, true},
		{"KARABINER 98K", "Karabin", 30, 1, 2, 3, false, JumpMoveLoss, 0, 0, "", false, false},
		{"LEE ENFIELD", "Karabin", 30, 1, 2, 3, false, JumpMoveLoss, 0, 0, "", false, false},
		{"STG44", "Karabin szturmowy", 25, 4, 3, 3, false, JumpNoLoss, 0, 0, "", false, false},
		{"ZDOBYCZNY MG42", "Broń maszynowa ciężka", 28, 7, 4, 3, false, JumpImpossible, 2, 11, "", false, true},
		{"MG42", "Broń maszynowa ciężka", 30, 8, 4, 3, false, JumpImpossible, 2, 12, "", false, false},
		{"BROWNING 1918", "Broń maszynowa ciężka", 25, 6, 3, 4, false, JumpImpossible, 0, 0, "", false, false},
		{"PANZERSCHRECK", "Przeciwpancerna ciężka", 25, 1, 2, 0, true, JumpMoveLoss, 0, 0, "", false, false},
		// Template weapons: the orange marker decides the hit; wound values
		// are assumptions, listed in the data file.
		{"MOŹDZIERZ 50MM", "Ciężka", 40, 1, 0, 3, false, JumpImpossible, 0, 0, "orange_marker", true, false},
		{"ZDOBYCZNY FLAMMENWERFER 35", "Ciężka", 0, 1, 0, 2, false, JumpImpossible, 0, 0, "orange_marker", false, true},
		{"FLAMMENWERFER 35", "Ciężka", 0, 1, 0, 2, false, JumpImpossible, 0, 0, "orange_marker", false, false},
		{"ZDOBYCZNY STIELHAND GRANATE", "Granat", 10, 1, 0, 0, true, JumpNoLoss, 0, 0, "orange_area", false, true},
		{"STIELHAND GRANATE", "Granat", 12, 1, 0, 0, true, JumpNoLoss, 0, 0, "orange_area", false, false},
		{"PANZERFAUST", "Granat", 20, 1, 2, 0, true, JumpMoveLoss, 0, 0, "", false, false},
	}
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range want {
		names = append(names, r.name)
	}
	if !slices.Equal(cat.WeaponOrder, names) {
		t.Fatalf("weapons in data file:\n got %q\nwant %q", cat.WeaponOrder, names)
	}
	for _, r := range want {
		t.Run(r.name, func(t *testing.T) {
			w := cat.Weapons[r.name]
			got := row{w.Name, w.Type, w.Range, w.Shots, w.Hit, w.Wound, w.D6Wounds, w.Jump, 0, 0, w.Template, w.TargetDie, w.Captured}
			if w.MGBonus != nil {
				got.mgPer, got.mgMax = w.MGBonus.PerRound, w.MGBonus.Max
			}
			if got != r {
				t.Errorf("got  %+v\nwant %+v", got, r)
			}
		})
	}
}

func TestShotsPerModelMGBonus(t *testing.T) {
	cat, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		weapon string
		rounds int
		want   int
	}{
		{"MG42", 0, 8}, {"MG42", 1, 10}, {"MG42", 2, 12}, {"MG42", 5, 12},
		{"ZDOBYCZNY MG42", 0, 7}, {"ZDOBYCZNY MG42", 1, 9}, {"ZDOBYCZNY MG42", 2, 11}, {"ZDOBYCZNY MG42", 3, 11},
		{"BROWNING 1918", 3, 6}, {"KARABINER 98K", 4, 1},
	}
	for _, tt := range tests {
		if got := cat.Weapons[tt.weapon].ShotsPerModel(tt.rounds); got != tt.want {
			t.Errorf("%s after %d still rounds: got %d shots, want %d", tt.weapon, tt.rounds, got, tt.want)
		}
	}
}

func TestParseCatalogueRejectsBadRows(t *testing.T) {
	units := []byte("units: []\n")
	tests := map[string]string{
		"unknown key":  "weapons:\n  - name: X\n    colour: red\n",
		"bad hit":      "weapons:\n  - {name: X, type: t, class: rifle, range: 10, shots: 1, hit: 8, wound: 3, jump: no_loss}\n",
		"bad jump":     "weapons:\n  - {name: X, type: t, class: rifle, range: 10, shots: 1, hit: 3, wound: 3, jump: hop}\n",
		"wound and d6": "weapons:\n  - {name: X, type: t, class: rifle, range: 10, shots: 1, hit: 3, wound: 3, d6_wounds: true, jump: no_loss}\n",
		"no shots":     "weapons:\n  - {name: X, type: t, class: rifle, range: 10, shots: 0, hit: 3, wound: 3, jump: no_loss}\n",
	}
	for name, data := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseCatalogue([]byte(data), units, nil); err == nil {
				t.Fatalf("ParseCatalogue accepted %q", data)
			}
		})
	}
}
