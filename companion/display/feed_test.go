package display

import (
	"strings"
	"testing"
)

// TestFeedSendsTheCatalogueOnce: a page that connects gets the meta, the
// game's catalogue and then its state, in that order (a state names the
// catalogue's cards by id); a page connected when the catalogue changes
// gets it then, in the order it was set.
func TestFeedSendsTheCatalogueOnce(t *testing.T) {
	f := NewFeed()
	f.SetMeta([]byte(`{"game":"g"}`))
	f.SetCatalogue([]byte(`{"game":"g","catalogue":{"cards":{"c1":{}}}}`))
	f.SetState(Public, []byte(`{"seq":1,"state":{"hand":["c1"]}}`))
	first, live, cancel := f.Subscribe(Public)
	defer cancel()
	var kinds []string
	for _, m := range first {
		kinds = append(kinds, m.Kind)
	}
	if got, want := strings.Join(kinds, ","), "meta,catalogue,state"; got != want {
		t.Fatalf("a new page gets %s, want %s", got, want)
	}
	f.SetState(Public, []byte(`{"seq":2,"state":{"hand":[]}}`))
	f.SetCatalogue([]byte(`{"game":"g","catalogue":{"cards":{"c2":{}}}}`))
	for _, want := range []string{"state", "catalogue"} {
		m := <-live
		if m.Kind != want {
			t.Fatalf("a live page got %s (%s), want %s", m.Kind, m.Data, want)
		}
	}
}
