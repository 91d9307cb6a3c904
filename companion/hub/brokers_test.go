package hub

import (
	"strings"
	"testing"
)

// --broker takes one URL or several, comma-separated; a bad entry is
// refused by New with the entry.
func TestBrokerList(t *testing.T) {
	h, err := New(Options{Venue: "v", Broker: "tcp://n1:1883, tcp://n2:1883,tcp://n3:1883"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.brokers, " ") != "tcp://n1:1883 tcp://n2:1883 tcp://n3:1883" {
		t.Errorf("brokers %q", h.brokers)
	}
	for in, want := range map[string]string{
		"tcp://n1:1883,n2:1883": `hub: --broker: wire: broker list: entry 2 of 2 "n2:1883": not a URL`,
		"broker.venue":          `hub: --broker: wire: broker list: "broker.venue": scheme ""`,
		"":                      "hub: --broker: wire: broker list: empty",
	} {
		if _, err := New(Options{Venue: "v", Broker: in}); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: got %v, want %s…", in, err, want)
		}
	}
}
