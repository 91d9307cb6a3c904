package companion_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/wire"
)

// TestACLExampleNamesEveryPublicTopic: the Mosquitto ACL a venue copies
// (firmware-config/mosquitto/acl.example, the file TestMosquittoVenueACL
// runs) lets everyone read each public topic of a table and the table
// write it, for every topic the wire contract has: a topic added to the
// contract (the catalogue) and left out of the ACL would reach nobody on
// an outside broker. The pairing is the venue's to write, not the
// table's.
func TestACLExampleNamesEveryPublicTopic(t *testing.T) {
	b, err := os.ReadFile("../firmware-config/mosquitto/acl.example")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		lines[strings.TrimSpace(l)] = true
	}
	tp := wire.TopicsFor("klub", "stol-1")
	v := reflect.ValueOf(tp)
	checked := 0
	for i := range v.NumField() {
		name, topic := v.Type().Field(i).Name, v.Field(i).String()
		suffix, ok := strings.CutPrefix(topic, tp.Base)
		if name == "Base" || !ok || wire.HiddenFor(topic) != "" {
			continue
		}
		checked++
		if want := "pattern read sztab/v1/+/+/" + suffix; !lines[want] {
			t.Errorf("acl.example lacks %q: nobody reads the table's %s", want, name)
		}
		write := "pattern write sztab/v1/klub/%u/" + suffix
		if name == "Pairing" {
			if lines[write] {
				t.Errorf("acl.example has %q: a table writes its own pairing", write)
			}
		} else if !lines[write] {
			t.Errorf("acl.example lacks %q: the table cannot publish its %s", write, name)
		}
	}
	if checked < 7 {
		t.Errorf("checked %d public topics, want status, state, live, events, image, catalogue, result and pairing", checked)
	}
}
