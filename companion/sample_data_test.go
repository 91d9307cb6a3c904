package companion

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	rec "github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
)

// sampleTally is the tally game with an end, on sample data.
type sampleTally struct{ overTally }

func (sampleTally) SampleData() bool { return true }

// A game on sample data (docs/box.md) says so in its state and in its
// signed result (a v5 statement, sample_data: true); the same game on a
// club's box says neither.
func TestSampleDataInStateAndResult(t *testing.T) {
	for _, sample := range []bool{true, false} {
		t.Run(map[bool]string{true: "sample data", false: "a club's box"}[sample], func(t *testing.T) {
			dir := t.TempDir()
			priv, pub, err := rec.GenerateKey()
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, "table.key"), priv, 0o600)
			pubKey, _ := rec.ParsePublicKey(pub)
			os.WriteFile(filepath.Join(dir, "tags.yaml"), []byte("tags: []\n"), 0o644)
			cfg, err := ParseConfig(filepath.Join(dir, "t.yaml"), []byte("venue: v\ntable: t1\ngame: tally\ntags: tags.yaml\njournal: j.db\nresult_key: table.key\n"+
				"mqtt:\n  listen: 127.0.0.1:0\ndisplay:\n  referee: {user: sedzia, password: tajne}\n"))
			if err != nil {
				t.Fatal(err)
			}
			spec := tallySpec
			spec.New = func(c TableConfig) (Game, error) {
				g, err := newTally("tally")(c)
				if sample {
					return sampleTally{overTally{g.(*tallyGame)}}, err
				}
				return overTally{g.(*tallyGame)}, err
			}
			d, err := Open(context.Background(), cfg, Options{Games: Games{spec}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- d.Serve(ctx) }()
			defer func() { cancel(); <-done; d.Close() }()

			topics := wire.TopicsFor("v", "t1")
			watch := record(t, d.BrokerAddr(), "sztab/#")
			for _, k := range []string{"6", "3", "2"} {
				key(d, "kp", k)
			}
			var m wire.ResultMessage
			if err := json.Unmarshal([]byte(watch.wait(t, topics.Result, "statement")), &m); err != nil {
				t.Fatal(err)
			}
			st, err := rec.VerifyStatement([]byte(m.Statement), []byte(m.Signature), pubKey)
			if err != nil {
				t.Fatal(err)
			}
			if st.SampleData != sample || strings.HasPrefix(m.Statement, "sztab result statement v5\n") != sample || st.Result.EN != "total 11" {
				t.Errorf("sample data %v: the statement\n%s", sample, m.Statement)
			}
			state := watch.last(topics.State)
			if got := strings.Contains(state, `"sample_data":{"pl":"dane przykładowe","en":"sample data"}`); got != sample {
				t.Errorf("sample data %v: the state says sample data: %v\n%s", sample, got, state)
			}
		})
	}
}
