package tournament

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sztab/sztab/companion/record"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/games"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixture is a tournament on disk with real table keys.
type fixture struct {
	t    testing.TB
	dir  string
	cfg  Config
	priv map[string]ed25519.PrivateKey
	tr   *Tournament
	now  time.Time
	// games makes every statement's final hash its own.
	games int
	// rand is the ids' random source: a SHA-256 stream from a fixed seed
	// (the golden files stay the same), one across reopenings.
	rand *hashStream
}

// hashStream is a deterministic random source for the tests.
type hashStream struct {
	n   int
	buf []byte
}

func (h *hashStream) Read(p []byte) (int, error) {
	for len(h.buf) < len(p) {
		h.n++
		s := sha256.Sum256([]byte(fmt.Sprint("sztab test ids ", h.n)))
		h.buf = append(h.buf, s[:]...)
	}
	n := copy(p, h.buf)
	h.buf = h.buf[n:]
	return n, nil
}

func newFixture(t testing.TB, game string, players, tables int) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: t.TempDir(), priv: map[string]ed25519.PrivateKey{}, rand: &hashStream{},
		now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	f.cfg = Config{Name: "Puchar", Venue: "hala", Game: game}
	for i := 1; i <= players; i++ {
		f.cfg.Players = append(f.cfg.Players, Player{ID: fmt.Sprintf("p%02d", i), Name: fmt.Sprintf("Gracz %d", i)})
	}
	for i := 1; i <= tables; i++ {
		id := fmt.Sprintf("t%02d", i)
		// Keys from a seed per table: the golden files stay the same.
		seed := sha256.Sum256([]byte("sztab test table " + id))
		k := ed25519.NewKeyFromSeed(seed[:])
		der, err := x509.MarshalPKIXPublicKey(k.Public())
		if err != nil {
			t.Fatal(err)
		}
		pub := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		f.priv[id] = k
		path := filepath.Join(f.dir, id+".pub.pem")
		if err := os.WriteFile(path, pub, 0o644); err != nil {
			t.Fatal(err)
		}
		f.cfg.Tables = append(f.cfg.Tables, Table{ID: id, Key: path})
	}
	if err := f.cfg.Check(games.All); err != nil {
		t.Fatal(err)
	}
	f.open()
	return f
}

func (f *fixture) open() {
	f.t.Helper()
	tr, err := OpenRand(context.Background(), filepath.Join(f.dir, "t.db"), f.cfg, f.rand)
	if err != nil {
		f.t.Fatal(err)
	}
	tr.SetLogger(slog.New(slog.DiscardHandler))
	tr.SetClock(func() time.Time { f.now = f.now.Add(time.Minute); return f.now })
	f.tr = tr
	f.t.Cleanup(func() { tr.Close() })
}

func (f *fixture) reopen() {
	f.t.Helper()
	f.tr.Close()
	f.open()
}

// statement is a finished game of the fixture's venue and table's game at table,
// bound to the table's pairing in the current round as the table signs it
// (v4), or to none (v2) when the table is not paired in it.
func (f *fixture) statement(table string, seats ...record.Seat) record.Statement {
	f.games++
	h := fmt.Sprintf("%064x", sha256.Sum256([]byte(fmt.Sprint(table, f.games, seats))))[:64]
	s := record.Statement{
		Identity: record.Identity{Venue: f.cfg.Venue, Table: table, Game: f.cfg.TableGame(table)},
		FinalSeq: 42, FinalHash: h, Finished: true,
		Result: record.Text{PL: "koniec", EN: "over"}, Seats: seats,
	}
	if v := f.tr.View(); v.Current > 0 {
		for _, p := range v.Paired[v.Current-1].Tables {
			if p.Table == table {
				s.Round, s.Tournament, s.Pairing, s.Players = v.Current, f.tr.ID(), p.ID, p.Players
			}
		}
	}
	return s
}

// message signs s with the key of table signer.
func (f *fixture) message(s record.Statement, signer string) wire.ResultMessage {
	return wire.ResultMessage{Statement: string(s.Marshal()), Signature: string(record.Sign(s, f.priv[signer])),
		Key: record.Fingerprint(f.priv[signer].Public().(ed25519.PublicKey))}
}

// submit sends table's signed result with outcomes per seat ("win", …)
// and scores.
func (f *fixture) submit(table string, seats ...record.Seat) (Result, error) {
	return f.tr.SubmitResult(context.Background(), table, f.message(f.statement(table, seats...), table))
}

func seat(n int, outcome string, score int) record.Seat {
	return record.Seat{Seat: n, Outcome: outcome, Score: score}
}

// playRound reports every table of the current round: seat 1 wins (or
// the outcomes out gives per table index).
func (f *fixture) playRound(r Round) {
	f.t.Helper()
	for _, p := range r.Tables {
		var seats []record.Seat
		for i := range p.Players {
			o := record.Loss
			if i == 0 {
				o = record.Win
			}
			seats = append(seats, seat(i+1, o, 10-i))
		}
		if _, err := f.submit(p.Table, seats...); err != nil {
			f.t.Fatalf("table %s: %v", p.Table, err)
		}
	}
}
