package venue

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// The organiser's pages need the organiser's sign-in; the actions also
// need to come from the venue's own pages.
func TestOrganiserPagesNeedTheSignIn(t *testing.T) {
	tv := startVenue(t, "127.0.0.1:1") // no broker: the pages work without one
	anon := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, path := range []string{"/organiser", "/organiser/print"} {
		resp, err := anon.Get(tv.base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login?next=") {
			t.Errorf("GET %s signed out: %s to %q, want the sign-in", path, resp.Status, resp.Header.Get("Location"))
		}
	}
	for _, path := range []string{"/organiser/view.json", "/organiser/csv/standings.csv"} {
		if code, _ := get(t, anon, tv.base+path); code != http.StatusForbidden {
			t.Errorf("GET %s signed out: %d, want 403", path, code)
		}
	}
	for _, path := range []string{"/organiser/pair", "/organiser/start", "/organiser/import", "/organiser/correct"} {
		if code, _ := post(t, anon, tv.base+path, url.Values{"round": {"1"}}); code != http.StatusForbidden {
			t.Errorf("POST %s signed out: %d, want 403", path, code)
		}
	}
	// A wrong password does not sign in.
	code, _ := post(t, anon, tv.base+"/login", url.Values{"user": {organiser}, "password": {"zle"}})
	if code != http.StatusSeeOther {
		t.Errorf("wrong password: %d", code)
	}
	if len(tv.tour.View().Pairings) != 0 {
		t.Fatal("a signed-out POST paired a round")
	}

	// Signed in, but the request comes from another site's page.
	c := tv.client(t)
	req, _ := http.NewRequest(http.MethodPost, tv.base+"/organiser/pair", nil)
	req.Header.Set("Origin", "http://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || len(tv.tour.View().Pairings) != 0 {
		t.Errorf("a cross-site POST: %s, %d rounds paired", resp.Status, len(tv.tour.View().Pairings))
	}
	// From the page itself it works.
	req, _ = http.NewRequest(http.MethodPost, tv.base+"/organiser/pair", nil)
	req.Header.Set("Origin", tv.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if resp, err = c.Do(req); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(tv.tour.View().Pairings) != 1 {
		t.Errorf("a same-origin POST: %s, %d rounds paired", resp.Status, len(tv.tour.View().Pairings))
	}
}

// The organiser's actions: import a round, correct a result with the
// reason (in the audit trail), start the clock; the exports and the
// printable page follow.
func TestOrganiserActions(t *testing.T) {
	tv := startVenue(t, "127.0.0.1:1")
	c := tv.client(t)

	// An import as a file upload.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("round", "1")
	fw, _ := mw.CreateFormFile("file", "runda1.csv")
	fw.Write([]byte("table,seat1,seat2\nstol-1,Darek,Ania\nstol-2,Bartek,Celina\n"))
	mw.Close()
	resp, err := c.Post(tv.base+"/organiser/import", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/organiser?done=import" {
		t.Fatalf("import: %s to %q", resp.Status, resp.Header.Get("Location"))
	}
	_, page := get(t, c, tv.base+"/organiser?done=import")
	for _, want := range []string{"pairings imported", "Darek – Ania", `data-testid="result-1-stol-2"`, "awaiting"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page after the import lacks %q", want)
		}
	}

	// A correction: seat 2 (Ania) won; the reason is in the audit trail.
	code, _ := post(t, c, tv.base+"/organiser/correct", url.Values{"round": {"1"}, "table": {"stol-1"},
		"outcome1": {"loss"}, "score1": {"3"}, "outcome2": {"win"}, "score2": {"9"}, "reason": {"karta wyniku podpisana przez obu graczy"}})
	if code != http.StatusSeeOther {
		t.Fatalf("correct: %d", code)
	}
	if got := points(tv.tour.View()); got != "Ania=1 Bartek=0 Celina=0 Darek=0" {
		t.Errorf("standings after the correction: %s", got)
	}
	_, page = get(t, c, tv.base+"/organiser")
	for _, want := range []string{"karta wyniku podpisana przez obu graczy", "round 1 table stol-1 corrected", `class="state-corrected"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page after the correction lacks %q", want)
		}
	}
	// A correction the form refuses: the reason shown, 400, nothing changed.
	code, page = post(t, c, tv.base+"/organiser/correct", url.Values{"round": {"1"}, "table": {"stol-2"}, "outcome1": {"win"}, "outcome2": {"win"}})
	if code != http.StatusBadRequest || !strings.Contains(page, "reason: missing") {
		t.Errorf("a correction without a reason: %d", code)
	}
	if got := points(tv.tour.View()); got != "Ania=1 Bartek=0 Celina=0 Darek=0" {
		t.Errorf("a refused correction moved the standings: %s", got)
	}

	// The clock, then the wall has it.
	if code, _ := post(t, c, tv.base+"/organiser/start", url.Values{"round": {"1"}}); code != http.StatusSeeOther {
		t.Fatalf("start: %d", code)
	}
	if b := tv.v.Hub().Wall().Board; b == nil || b.Clock == nil || b.Clock.Round != 1 || b.Clock.Minutes != 90 {
		t.Errorf("the wall's clock: %+v", b)
	}

	// Exports and the printable page.
	resp, err = c.Get(tv.base + "/organiser/csv/standings.csv")
	if err != nil {
		t.Fatal(err)
	}
	var csvBody bytes.Buffer
	csvBody.ReadFrom(resp.Body)
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || !strings.HasPrefix(csvBody.String(), "rank,player,points,played\n1,Ania,1,1\n") {
		t.Errorf("standings.csv: %s\n%s", ct, csvBody.String())
	}
	if code, _ := get(t, c, tv.base+"/organiser/csv/secrets.csv"); code != http.StatusNotFound {
		t.Errorf("an unknown export: %d", code)
	}
	_, page = get(t, c, tv.base+"/organiser/print")
	for _, want := range []string{"@media print", `data-testid="print-standings"`, "Pairings of round 1", "Bartek – Celina"} {
		if !strings.Contains(strings.ToLower(page), strings.ToLower(want)) {
			t.Errorf("the printable page lacks %q", want)
		}
	}
	_, js := get(t, c, tv.base+"/organiser/view.json")
	var vw View
	if err := json.Unmarshal([]byte(js), &vw); err != nil || vw.Round != 1 || len(vw.Audit) != 3 {
		t.Errorf("view.json: %v %+v", err, vw)
	}

	// Round 2 while stol-2 has no result: refused; forced with a reason,
	// which the audit trail keeps.
	code, page = post(t, c, tv.base+"/organiser/pair", nil)
	if code != http.StatusConflict || !strings.Contains(page, "table stol-2 has no result yet") {
		t.Errorf("pairing with a result missing: %d", code)
	}
	if code, _ = post(t, c, tv.base+"/organiser/force", nil); code != http.StatusBadRequest {
		t.Errorf("forcing without a reason: %d", code)
	}
	if code, _ = post(t, c, tv.base+"/organiser/force", url.Values{"reason": {"stół 2 nie oddał karty"}}); code != http.StatusSeeOther {
		t.Errorf("forcing with a reason: %d", code)
	}
	if vw := tv.tour.View(); vw.Round != 2 || vw.Audit[len(vw.Audit)-1].Why != "stół 2 nie oddał karty" || vw.Audit[len(vw.Audit)-1].Who != organiser {
		t.Errorf("after forcing: round %d, audit %+v", vw.Round, vw.Audit)
	}
}

// A pairing import larger than the limit is refused before the tournament
// sees it.
func TestImportSizeLimit(t *testing.T) {
	tv := startVenue(t, "127.0.0.1:1")
	c := tv.client(t)
	big := "table,seat1,seat2\n" + strings.Repeat("stol-1,Ania,Bartek\n", (1<<20)/19+10)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("round", "1")
	fw, _ := mw.CreateFormFile("file", "big.csv")
	fw.Write([]byte(big))
	mw.Close()
	resp, err := c.Post(tv.base+"/organiser/import", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	page.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode == http.StatusSeeOther || !strings.Contains(page.String(), "larger than 1048576 bytes") {
		t.Errorf("a 1 MiB+ import: %s\n%.300s", resp.Status, page.String())
	}
	if len(tv.tour.View().Pairings) != 0 {
		t.Error("an oversized import was taken")
	}
	// Pasted text over the limit too.
	code, text := post(t, c, tv.base+"/organiser/import", url.Values{"round": {"1"}, "csv": {big}})
	if code == http.StatusSeeOther || !strings.Contains(text, "larger than") {
		t.Errorf("a pasted 1 MiB+ import: %d", code)
	}
}
