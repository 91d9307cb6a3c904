package wotrush

import (
	"strings"
	"testing"
)

func TestDefaultDataFitsTheRulebook(t *testing.T) {
	cat := defaultCat(t)
	d := cat.Data
	if len(d.Vehicles) != 100 {
		t.Fatalf("%d vehicles", len(d.Vehicles))
	}
	for _, v := range d.Vehicles {
		if !v.Assumed {
			t.Errorf("%s: not marked assumed; the shipped cards are all guessed", v.ID)
		}
	}
	for cls, st := range d.Classes {
		if !st.Assumed {
			t.Errorf("class %s: not marked assumed", cls)
		}
	}
	perNation := map[string]int{}
	cost0, res0, recruitDefender := false, false, false
	for _, v := range cat.Vehicles {
		perNation[v.Nation]++
		cost0 = cost0 || v.Cost == 0
		res0 = res0 || v.Resources == 0
		if *v.Armour >= 1 && hasAbility(v.Abilities, AbRecruitment) {
			recruitDefender = true
		}
		if v.Class == ClassSPG && *v.Armour < 1 {
			t.Errorf("%s: a self-propelled gun that cannot defend", v.ID)
		}
		if v.Nation == "ussr" && v.Class != ClassSupport && *v.Firepower < 1 {
			t.Errorf("%s: a Soviet tank with firepower 0", v.ID)
		}
	}
	for n, c := range perNation {
		if c != 25 {
			t.Errorf("%s: %d cards, want 25", n, c)
		}
	}
	if !cost0 || !res0 || !recruitDefender {
		t.Errorf("cost-0 %v, resource-0 %v, armoured Recruitment %v", cost0, res0, recruitDefender)
	}
	comp := d.Components
	eng, medals := 0, 0
	for _, b := range comp.Barracks {
		eng += b.PerSet * comp.Sets
	}
	for _, n := range comp.Nations {
		medals += n.Singles + n.Doubles
	}
	if eng != 30 || medals != 48 || comp.Bases.PerSet*comp.Sets != 15 || len(comp.Achievements) != 12 || comp.AchievementPoints != 5 {
		t.Errorf("barracks %d, medals %d, achievements %d", eng, medals, len(comp.Achievements))
	}
}

func TestDataErrorsNameFileAndLine(t *testing.T) {
	files := DefaultFiles()
	v, c := string(files[VehiclesFile]), string(files[ComponentsFile])
	for _, tc := range []struct {
		name, vehicles, components, want string
	}{
		{"cost", strings.Replace(v, "id: SU-02, name: \"BT-2\", nation: ussr, class: light, cost: 2", "id: SU-02, name: \"BT-2\", nation: ussr, class: light, cost: -2", 1), c, `veh.yaml:29: vehicles[1] "SU-02": cost -2`},
		{"shared stats", strings.Replace(v, "class: heavy, cost: 6, resources: 0, assumed: true}", "class: heavy, cost: 6, resources: 0, armour: 1, assumed: true}", 1), c, `every heavy shares`},
		{"ability", strings.Replace(v, "{id: scout}", "{id: scouting}", 1), c, `veh.yaml:28: vehicles[0] "SU-01": ability "scouting"`},
		{"duplicate", strings.Replace(v, "id: SU-02", "id: SU-01", 1), c, `listed twice`},
		{"unknown field", strings.Replace(v, "cost: 1,", "kost: 1,", 1), c, `veh.yaml: yaml: unmarshal errors:`},
		{"nation", v, strings.Replace(c, "singles: 9, doubles: 3}\n  - {id: germany", "singles: 0, doubles: 3}\n  - {id: germany", 1), `comp.yaml:10: nations[0] "ussr"`},
		{"achievement", v, strings.Replace(c, "most: squad", "most: biggest", 1), `comp.yaml:35: achievements[11] "ACH-12"`},
		{"empty", "", c, "veh.yaml: empty file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseCatalogue("veh.yaml", []byte(tc.vehicles), "comp.yaml", []byte(tc.components))
			if err == nil || !strings.HasPrefix(err.Error(), "wotrush: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
