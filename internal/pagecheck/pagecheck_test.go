package pagecheck_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/pagecheck"
)

func TestIDLike(t *testing.T) {
	for _, c := range []struct {
		text, lang string
		ids        []string
		want       []string
	}{
		{"⛔ blockade-wp", "pl", nil, []string{"blockade-wp"}},
		{"WoT: only_vehicles, national_goods", "en", nil, []string{"only_vehicles", "national_goods"}},
		{"Decyzja: pl-1dpleg", "pl", nil, []string{"pl-1dpleg"}},
		{"Zdejmij ze stołu: ak-1, ak-3", "pl", nil, []string{"ak-1", "ak-3"}},
		{"Runda 5, battle", "pl", nil, []string{"battle"}},
		{"Round 5, runda", "en", nil, []string{"runda"}},
		{"unit · NC", "pl", []string{"NC"}, []string{"unit", "NC"}},
		{"Wojna polsko-bolszewicka, 12,5 kroku", "pl", nil, nil},
		{"Zgrupowanie Radosław — 3/5 modeli", "pl", nil, nil},
		{"The Polish player wins 2 : 1", "en", nil, nil},
		{"Gracz 1 wygrywa", "pl", nil, nil},
	} {
		if got := pagecheck.IDLike(c.text, c.lang, c.ids); !slices.Equal(got, c.want) {
			t.Errorf("IDLike(%q, %s) = %q, want %q", c.text, c.lang, got, c.want)
		}
	}
}

func TestBadGlyphs(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Łódź, żółć — «ok» 12,5 ± 0,3 → ●", ""},
		{"⛔ blokada", "⛔ (U+26D4)"},
		{"⛨ obrona ✓", "⛨ (U+26E8), ✓ (U+2713)"},
		{"wyloguj ⎋", "⎋ (U+238B)"},
		{"czołg 🛡", "🛡 (U+1F6E1)"},
	} {
		if got := pagecheck.BadGlyphs(c.text); got != c.want {
			t.Errorf("BadGlyphs(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestMinPx(t *testing.T) {
	tv := pagecheck.Page{Name: "table", Size: pagecheck.TV1080}
	for _, c := range []struct {
		p    pagecheck.Page
		role string
		want float64
	}{
		{tv, pagecheck.RoleHeadline, 48},
		{tv, "", 24},
		{tv, pagecheck.RoleSecondary, 20},
		{pagecheck.Page{Name: "table", Size: pagecheck.TV720}, pagecheck.RoleHeadline, 32},
		{pagecheck.Page{Name: "table", Size: pagecheck.TV720}, "", 16},
		{pagecheck.Page{Name: "table", Size: pagecheck.Phone}, pagecheck.RoleHeadline, 16},
		{pagecheck.Page{Name: "referee", Size: pagecheck.TV1080}, "", 16},
		{pagecheck.Page{Name: "player", Size: pagecheck.Phone}, pagecheck.RoleSecondary, 13},
	} {
		if got := pagecheck.MinPx(c.p, c.role); got != c.want {
			t.Errorf("MinPx(%s %s, %q) = %v, want %v", c.p.Name, c.p.Size.Name, c.role, got, c.want)
		}
	}
}

// The checks in a real Chromium: a page built to break every rule fails
// each check, and a page that keeps them passes.
func TestCheckInChromium(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	defer srv.Close()
	ctx := pagecheck.Browser(t)
	good := pagecheck.Page{Game: "selftest", Name: "table", URL: srv.URL, Path: "/good.html", Size: pagecheck.TV1080, Lang: "pl", Ready: "true"}
	problems, err := pagecheck.Check(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("the good page: %s", p)
	}

	bad := good
	bad.Path = "/bad.html"
	bad.IDs = []string{"7LF"}
	problems, err = pagecheck.Check(ctx, bad)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.String())
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"overflow: the page is 2500 px wide",
		"overflow: the page is", // tall
		"clipped: html > body > div hides",
		`size: "drobny druk"`,
		`size: "za mały napis"`,
		`id: "⛔ blockade-wp" in html > body > p shows "blockade-wp"`,
		`shows "only_vehicles"`,
		`shows "battle"`,
		`shows "7LF"`,
		"glyph: \"⛔ blockade-wp\" in html > body > p has ⛔ (U+26D4)",
		"contrast: ",
		"headline: no headline text",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the bad page: no problem %q among\n%s", want, all)
		}
	}
	if n := strings.Count(all, "overflow: "); n != 2 {
		t.Errorf("the bad page overflows both ways, %d overflow problems:\n%s", n, all)
	}

	// On a phone the same wide page scrolls sideways; a tall one may scroll.
	phone := bad
	phone.Name, phone.Size = "player", pagecheck.Phone
	problems, err = pagecheck.Check(ctx, phone)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, p := range problems {
		if p.Check == "overflow" || p.Check == "clipped" || p.Check == "headline" {
			got = append(got, p.String())
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], "wide") {
		t.Errorf("on a phone: %q, want only the sideways overflow", got)
	}
}
