package mali

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func defaultCat(t testing.TB) *Catalogue {
	t.Helper()
	c, err := DefaultCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestDefaultData(t *testing.T) {
	c := defaultCat(t)
	if n := len(c.Data.Map.Objects); n != 18 {
		t.Errorf("%d objects, want 18", n)
	}
	if n := len(c.Data.Orders); n != 42 {
		t.Errorf("%d orders, want 42", n)
	}
	if n := len(c.Data.Goals); n != 24 {
		t.Errorf("%d goals, want 24", n)
	}
	if n := len(c.Data.Map.Districts); n < 6 {
		t.Errorf("%d districts, want at least 6", n)
	}
	if got := c.StartObjects(); !slices.Equal(got, []string{"plac-wilsona", "past", "stary-mokotow"}) {
		t.Errorf("start objects %v", got)
	}
	if got := c.SoldierStart(); got != "plac-narutowicza" {
		t.Errorf("soldier start %q", got)
	}
	// The rulebook's examples fix parts of the map.
	got := c.NeighbourObjects("plac-trzech-krzyzy")
	slices.Sort(got)
	want := []string{"al-szucha", "dworzec-pocztowy", "elektrownia-powisle", "past", "przyczolek-czerniakowski"}
	if !slices.Equal(got, want) {
		t.Errorf("plac Trzech Krzyży's neighbours %v, want %v (example 3)", got, want)
	}
	for _, tc := range []struct {
		a, b Node
		d    int
		why  string
	}{
		{"past", "dworzec-pocztowy", 2, "example 2"},
		{"pwpw", "cytadela", 1, "example 7: a road of no fields"},
		{"plac-trzech-krzyzy", "bank-polski", 3, "example 8"},
		{"stary-mokotow", "port", 4, "example 9"},
		{"browary-warszawskie", "bank-polski", 2, "example 4"},
		{"browary-warszawskie", "browary-michla/2", 2, "example 4"},
		{"browary-michla/2", "palacyk-michla", 1, "example 4"},
	} {
		if d, ok := c.Distance(tc.a, tc.b); !ok || d != tc.d {
			t.Errorf("%s → %s: %d steps, want %d (%s)", tc.a, tc.b, d, tc.d, tc.why)
		}
	}
	if r, ok := c.RoadBetween("pwpw", "cytadela"); !ok || len(r.Fields) != 0 {
		t.Errorf("PWPW – Cytadela: %+v, want a road of no fields", r)
	}
	for _, n := range []Node{"sggw", "stary-mokotow", "sggw-mokotow/1", "sggw-mokotow/2"} {
		if c.DistrictOf[n] != "mokotow" {
			t.Errorf("%s in %q, want Mokotów (example 10)", n, c.DistrictOf[n])
		}
	}
	if c.DistrictOf["starowka-pawiak/1"] != c.DistrictOf["palacyk-michla"] {
		t.Errorf("example 6: the field from Starówka towards Pawiak is not in Pałacyk Michla's district")
	}
	var wp, ps bool
	for _, o := range c.Data.Orders {
		wp = wp || (o.From == "plac-wilsona" && o.To == "port" && o.Points == 15)
		ps = ps || (o.From == "pwpw" && o.To == "al-szucha")
	}
	if !wp || !ps {
		t.Errorf("the printed orders are missing: Wilsona→Port 15 %v, PWPW→Szucha %v", wp, ps)
	}
}

func TestLoadErrors(t *testing.T) {
	mapYAML := string(DefaultFiles()[0].Data)
	for _, tc := range []struct {
		name, file, data string
		want             string // in the English error
		line             int
	}{
		{"road to nowhere", "club/map.yaml", strings.Replace(mapYAML, "b: palacyk-michla, fields: [ochota, wola]", "b: palac-kultury, fields: [ochota, wola]", 1),
			`road "narutowicza-michla" leads to "palac-kultury", which is not an object`, lineOf(mapYAML, "id: narutowicza-michla")},
		{"duplicate object", "map.yaml", strings.Replace(mapYAML, "{id: sggw, name: SGGW", "{id: port, name: SGGW", 1),
			`object "port" listed twice`, lineOf(mapYAML, "{id: sggw, name: SGGW")},
		{"unknown district of a field", "map.yaml", strings.Replace(mapYAML, "fields: [mokotow, mokotow]}", "fields: [mokotow, praga]}", 1),
			`unknown district "praga"`, lineOf(mapYAML, "fields: [mokotow, mokotow]}")},
		{"not connected", "map.yaml", mapYAML + "  - {id: x, a: sggw, b: stary-mokotow, fields: []}\n",
			`a second road between "sggw" and "stary-mokotow"`, strings.Count(mapYAML, "\n") + 1},
		{"unknown object in an order", "orders.yaml", "orders:\n  - {id: a, from: past, to: port, points: 3}\n  - {id: b, from: past, to: kremlin, points: 3}\n",
			`unknown object "past" or "kremlin"`, 3},
		{"unknown field", "die.yaml", "faces:\n  - {colour: black, value: 1, size: 3}\n", "field size not found", 2},
		{"bad face", "die.yaml", "faces:\n  - {colour: black, value: 1}\n  - {colour: green, value: 2}\n", "want colour black or red", 3},
		{"bad goal kind", "goals.yaml", "goals:\n  - {id: a, kind: win, colour: x, points: 1}\n", `unknown kind "win"`, 2},
		{"unknown file", "rules.yaml", "x: 1\n", "unknown data file", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(File{Name: tc.file, Data: []byte(tc.data)})
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want a *DataError", err)
			}
			if !strings.Contains(de.Reason.EN, tc.want) || de.Reason.PL == "" || de.Line != tc.line || de.File != tc.file {
				t.Errorf("got %v (line %d, file %q), want %q at line %d of %s", err, de.Line, de.File, tc.want, tc.line, tc.file)
			}
			if !strings.HasPrefix(err.Error(), "mali: "+tc.file) {
				t.Errorf("error %q does not start with mali: and the file", err)
			}
		})
	}
	// Disconnected: an island object.
	island := strings.Replace(mapYAML, "  - {id: sggw, name: SGGW, district: mokotow, x: 240, y: 710}", "  - {id: sggw, name: SGGW, district: mokotow, x: 240, y: 710}\n  - {id: wyspa, name: Wyspa, district: powisle}", 1)
	if island == mapYAML {
		t.Fatal("the island was not added: the map's sggw line changed")
	}
	if _, err := Load(File{Name: "map.yaml", Data: []byte(island)}); err == nil || !strings.Contains(err.Error(), "not connected") {
		t.Errorf("island: %v", err)
	}
	// A road of no fields is fine.
	if _, err := Load(File{Name: "map.yaml", Data: []byte(mapYAML + "  - {id: y, a: sggw, b: port, fields: []}\n")}); err != nil {
		t.Errorf("0-field road refused: %v", err)
	}
}

func lineOf(text, sub string) int {
	i := strings.Index(text, sub)
	if i < 0 {
		return -1
	}
	return strings.Count(text[:i], "\n") + 1
}
