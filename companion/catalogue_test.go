package companion_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/games"
	"github.com/sztab/sztab/internal/tabletest"
)

// TestCatalogueIsPublishedOnceNotInEveryState plays every registered
// game's demo through the daemon and reads, as an anonymous spectator on
// the table's broker, the retained public state and catalogue. A game with
// a catalogue publishes it retained and public, and its state carries none
// of the catalogue's keys: the state names cards by id. Where the
// catalogue is most of what a view was (Bitwa Warszawska's card table,
// World of Tanks: Rush's cards), the state is now smaller than the
// catalogue it no longer carries. The sizes are logged (-v): the state,
// the catalogue, and the two together (what every state carried before).
func TestCatalogueIsPublishedOnceNotInEveryState(t *testing.T) {
	catalogued := 0
	for _, spec := range games.All {
		if spec.Demo == "" {
			continue
		}
		t.Run(spec.ID, func(t *testing.T) {
			r := tabletest.PlayDemo(t, t.TempDir(), spec.Demo, spec, 1)
			defer r.Stop(t)
			_, has := r.D.Game().(companion.Cataloguer)
			tp := r.Topics()
			state, cat := retained(t, r.D.BrokerAddr(), tp.State, tp.Catalogue, has)
			var sm struct {
				State map[string]json.RawMessage `json:"state"`
			}
			if err := json.Unmarshal(state, &sm); err != nil {
				t.Fatal(err)
			}
			if !has {
				if cat != nil {
					t.Errorf("a game without a catalogue published one: %.80s", cat)
				}
				t.Logf("%s: public state %d bytes, no catalogue", spec.ID, len(state))
				return
			}
			catalogued++
			var cm wire.CatalogueMessage
			var keys map[string]json.RawMessage
			if err := json.Unmarshal(cat, &cm); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(cm.Catalogue)
			if err := json.Unmarshal(b, &keys); err != nil || len(keys) == 0 || cm.Game != spec.ID {
				t.Fatalf("catalogue of %q with keys %v (%v): want the game's, a JSON object", cm.Game, keys, err)
			}
			together := len(state)
			for k, v := range keys {
				if len(v) < 3 {
					t.Errorf("catalogue key %q is empty: %s", k, v)
				}
				if _, ok := sm.State[k]; ok {
					t.Errorf("the state carries the catalogue's %q again (%d bytes of it)", k, len(sm.State[k]))
				}
				together += len(k) + len(v) + 4
			}
			t.Logf("%s: public state %d bytes, catalogue %d bytes once (state and catalogue together, as every state carried them before: %d)", spec.ID, len(state), len(cat), together)
			if len(cat) > 20_000 && len(state) >= len(cat) {
				t.Errorf("state %d bytes, not smaller than the %d-byte catalogue it no longer carries", len(state), len(cat))
			}
		})
	}
	if catalogued < 2 {
		t.Errorf("%d games publish a catalogue, want Bitwa Warszawska's and World of Tanks: Rush's at least", catalogued)
	}
}

// retained reads the retained messages of two topics as an anonymous
// client; the second only when want2 (else it waits for the first only,
// and reports the second if it came with it).
func retained(t *testing.T, addr, topic1, topic2 string, want2 bool) (m1, m2 []byte) {
	t.Helper()
	got := make(chan paho.Message, 4)
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("cat-%d", time.Now().UnixNano())))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect %s: %v", addr, tok.Error())
	}
	defer c.Disconnect(50)
	tok := c.SubscribeMultiple(map[string]byte{topic1: 1, topic2: 1}, func(_ paho.Client, m paho.Message) { got <- m })
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	timeout := time.After(30 * time.Second)
	for m1 == nil || (want2 && m2 == nil) {
		select {
		case m := <-got:
			if m.Topic() == topic1 {
				m1 = m.Payload()
			} else {
				m2 = m.Payload()
			}
		case <-timeout:
			t.Fatalf("no retained %s (and %s, %v) within 30 s", topic1, topic2, want2)
		}
	}
	return m1, m2
}
