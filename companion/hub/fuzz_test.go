package hub

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Whatever a broker delivers, the wall keeps one entry per table of its
// venue, never panics, and stays valid JSON for its page.
func FuzzApply(f *testing.F) {
	for _, s := range [][2]string{
		{"sztab/v1/klub/stol-1/status", `{"status":"online","game":"skirmish","venue":"klub","table":"stol-1","screen":"http://x/"}`},
		{"sztab/v1/klub/stol-1/state", `{"seq":3,"game":"skirmish","headline":{"pl":"runda 1","en":"round 1"},"state":{}}`},
		{"sztab/v1/klub/stol-2/status", `{"status":""}`},
		{"sztab/v1/inny/stol-1/status", `{"status":"online"}`},
		{"sztab/v1/klub/stol-1/referee/state", `{"seq":9}`},
		{"sztab/v1/klub/stol-1/state", `not json`},
		{"sztab/v1/klub/stol-1/state", `{"seq":-1,"headline":null}`},
		{"sztab/v1/klub/stol-1/live", `{"seq":4,"instance":"a1","game":"skirmish","state":{}}`},
		{"sztab/v1/klub/stol-1/live", `{"seq":"x","instance":7}`},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "klub"})
		if err != nil {
			t.Fatal(err)
		}
		h.apply(topic, payload)
		h.apply(topic, payload)
		// and through the seq and run checks, as delivered and as retained
		h.onMessage(nil, message{topic, string(payload), false})
		h.onMessage(nil, message{topic, string(payload), true})
		w := h.Wall()
		if len(w.Tables) > 1 {
			t.Fatalf("one message made %d tables", len(w.Tables))
		}
		if _, err := json.Marshal(w); err != nil {
			t.Fatal(err)
		}
	})
}

// A hub that cannot listen says so, and Addr does not wait forever.
func TestRunThatCannotListen(t *testing.T) {
	h, err := New(Options{Broker: "tcp://127.0.0.1:1", Venue: "klub", Listen: "256.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Run(context.Background()); err == nil {
		t.Fatal("Run listened on 256.0.0.1")
	}
	if addr := h.Addr(); addr != "" {
		t.Errorf("Addr() = %q", addr)
	}
}

// FuzzReadHeads: any heads file is read or refused with an error, never a
// panic, and what is read names its venue and has its tables.
func FuzzReadHeads(f *testing.F) {
	f.Add([]byte(`{"venue":"klub","tables":{"t01":[{"journal":"ab12","seq":47,"mark":"` + strings.Repeat("cd", 32) + `"}]}}`))
	f.Add([]byte(`{"venue":""}`))
	f.Add([]byte(`{"venue":"klub","tables":null}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "heads.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		h, err := ReadHeads(path)
		if err != nil {
			return
		}
		if h.Venue == "" || h.Tables == nil {
			t.Fatalf("read without a venue or tables: %+v", h)
		}
	})
}
