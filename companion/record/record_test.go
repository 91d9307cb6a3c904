package record

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sztab/sztab/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden summaries in testdata")

var testID = Identity{Venue: "v", Table: "t1", Game: "skirmish"}

// chainOf is a record of n entries as the journal would write them.
func chainOf(t testing.TB, n int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := NewWriter(&b, testID)
	if err != nil {
		t.Fatal(err)
	}
	prev := testID.Genesis()
	for i := 1; i <= n; i++ {
		e := Entry{Seq: int64(i), At: fmt.Sprintf("2026-08-01T17:00:%02dZ", i), Kind: "action", Game: "skirmish",
			Body: []byte(fmt.Sprintf(`{"type":"roll","rolls":[{"value":%d}]}`, i%6+1)), Events: []byte(`[]`)}
		h, err := EntryHash(e, prev)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(Line{Seq: e.Seq, At: e.At, Kind: e.Kind, Game: e.Game, Body: e.Body, Events: e.Events, Prev: prev.String(), Hash: h.String()}); err != nil {
			t.Fatal(err)
		}
		prev = h
	}
	w.Close()
	return b.Bytes()
}

// The canonical encoding is fixed: a known entry has a known hash (an
// implementation elsewhere can check itself against these; they were
// checked with Python's hashlib from the README's description), and white
// space in the JSON does not change it.
func TestEntryHashIsStable(t *testing.T) {
	e := Entry{Seq: 1, At: "2026-08-01T17:00:00Z", Kind: "action", Game: "skirmish", Body: []byte(`{"a": [1, 2]}`), Events: []byte(" [] ")}
	h1, err := EntryHash(e, testID.Genesis())
	if err != nil {
		t.Fatal(err)
	}
	e.Body, e.Events = []byte(`{"a":[1,2]}`), []byte(`[]`)
	h2, _ := EntryHash(e, testID.Genesis())
	if h1 != h2 {
		t.Errorf("white space changed the hash: %s, %s", h1, h2)
	}
	for name, change := range map[string]func(*Entry){
		"seq":    func(e *Entry) { e.Seq = 2 },
		"at":     func(e *Entry) { e.At = "2026-08-01T17:00:01Z" },
		"kind":   func(e *Entry) { e.Kind = "notice" },
		"game":   func(e *Entry) { e.Game = "tally" },
		"body":   func(e *Entry) { e.Body = []byte(`{"a":[1,3]}`) },
		"events": func(e *Entry) { e.Events = []byte(`[{}]`) },
		// Moving bytes between fields changes the hash too (lengths are hashed).
		"kind and game": func(e *Entry) { e.Kind, e.Game = "actionsk", "irmish" },
	} {
		c := e
		change(&c)
		if h, _ := EntryHash(c, testID.Genesis()); h == h2 {
			t.Errorf("changing the %s kept the hash", name)
		}
	}
	if h, _ := EntryHash(e, Hash{}); h == h2 {
		t.Error("another previous hash kept the hash")
	}
	golden.Check(t, "testdata/hashes.golden", []byte(fmt.Sprintf("genesis %s\nentry %s\n", testID.Genesis(), h2)), *update)
}

func TestReadRecord(t *testing.T) {
	good := chainOf(t, 5)
	rec, err := ReadRecord(bytes.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Entries) != 5 || rec.LastSeq != 5 || rec.Header.Identity != testID {
		t.Errorf("got %d entries through %d of %s", len(rec.Entries), rec.LastSeq, rec.Header.Identity)
	}
	lines := strings.SplitAfter(string(good), "\n")
	for _, tc := range []struct {
		name, data, want string
	}{
		{"empty", "", "no header line"},
		{"another format", strings.Replace(lines[0], Format, "sztab-record/9", 1), `line 1: format "sztab-record/9"`},
		{"another table's genesis", strings.Replace(lines[0], `"t1"`, `"t2"`, 1), "line 1: genesis hash"},
		{"an unknown field", strings.Replace(string(good), `"kind":"action"`, `"kind":"action","extra":1`, 1), `line 2: json: unknown field "extra"`},
		{"a die changed", strings.Replace(string(good), `"value":4`, `"value":5`, 1), "line 4: entry 3: hash mismatch"},
		{"a line dropped", lines[0] + lines[1] + lines[3] + lines[4] + lines[5], "line 3: entry 3: missing seq"},
		{"lines swapped", lines[0] + lines[2] + lines[1], "line 2: entry 2: missing seq"},
		{"an empty line", lines[0] + "\n" + lines[1], "line 2: empty line"},
		{"two values on a line", lines[0] + strings.TrimSuffix(lines[1], "\n") + " {}\n", "line 2: more than one JSON value"},
		{"no body", lines[0] + strings.Replace(lines[1], `"body":{"type":"roll","rolls":[{"value":2}]},`, ``, 1), "line 2: entry 1: no body"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRecord(strings.NewReader(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
	_, err = ReadRecord(strings.NewReader(lines[0] + strings.Replace(lines[1], `"value":2`, `"value":3`, 1)))
	var be *BreakError
	if !errors.As(err, &be) || be.Seq != 1 || be.Reason != ReasonHash || !errors.Is(err, ErrBroken) {
		t.Errorf("got %v, want a BreakError for entry 1", err)
	}
}

// The writer refuses an entry that does not chain: an export never writes
// a record that does not verify.
func TestWriterRefusesABrokenChain(t *testing.T) {
	w, _ := NewWriter(&bytes.Buffer{}, testID)
	err := w.Write(Line{Seq: 1, At: "x", Kind: "action", Game: "skirmish", Body: []byte(`{}`), Events: []byte(`[]`), Prev: testID.Genesis().String(), Hash: strings.Repeat("0", 64)})
	if !errors.Is(err, ErrBroken) {
		t.Errorf("got %v, want the chain broken", err)
	}
}

func testSummary() Summary {
	return Summary{
		Identity: testID, GameTitle: Text{PL: "Powstanie", EN: "Uprising"},
		Start: "2026-08-01T17:00:00Z", End: "2026-08-01T19:12:40Z", Exported: "2026-08-02T09:00:00Z", Chained: "since it was made",
		Entries: 120, Actions: 100, Notices: 20, Refusals: 7, FinalSeq: 120, FinalHash: strings.Repeat("ab", 32),
		Players:  []Player{{1, "Ania <script>alert(1)</script>", "Armia Krajowa"}, {2, "Bartek & co", "Wehrmacht"}},
		Finished: true, Result: Text{PL: "wygrywa Armia Krajowa", EN: "Armia Krajowa wins"},
		Standing: []Text{{PL: "runda 5", EN: "round 5"}},
		Dice: []Die{
			{Source: "t1/keypad/kp1", Rolls: 90, Faces: [6]int{15, 14, 16, 15, 15, 15}, ChiSquare: 0.13, PValue: 0.9997},
			{Source: "t1/camera/d3", Rolls: 72, Faces: [6]int{2, 3, 4, 3, 10, 50}, ChiSquare: 160.5, PValue: 0.00001, Loaded: true},
		},
		Rulings: []string{"entry 35 (2026-08-01T18:00:00Z): call for seat 1 by player/1: is that <legal>?",
			"entry 37 (2026-08-01T18:01:00Z): referee answered the call of entry 35 (seat 1): it is, play on"},
		Corrections: []string{"entry 30 (2026-08-01T17:40:00Z): referee corrected entry 14: roll_die replaced by roll_die {\"value\":3}; reason: die read wrong",
			"entry 31 (2026-08-01T17:41:00Z): referee took back entry 24 (end_turn); reason: taken back & replayed"},
		Breaches: []string{"entry 34 (2026-08-01T17:50:00Z): step allowed by referee despite not_adjacent (A is not next to B): broke [\"not_adjacent\"]; reason: the table agreed"},
		Signed:   "0123456789abcdef",
	}
}

// The summaries, golden: every section, a loaded die, names that HTML
// must escape; and FinalHashIn finds the hash each names.
func TestSummaryGolden(t *testing.T) {
	s := testSummary()
	md, err := s.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	html, err := s.HTML()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/summary.md.golden", md, *update)
	golden.Check(t, "testdata/summary.html.golden", html, *update)
	if bytes.Contains(html, []byte("<script>")) {
		t.Error("a player's name reached the HTML unescaped")
	}
	for i, b := range [][]byte{md, html} {
		h, err := FinalHashIn(b, i == 1)
		if err != nil || h.String() != s.FinalHash {
			t.Errorf("FinalHashIn: %s, %v", h, err)
		}
	}
	if _, err := FinalHashIn(append(md, md...), false); err == nil || !strings.Contains(err.Error(), "2 final hashes") {
		t.Errorf("two hashes: got %v", err)
	}
	if _, err := FinalHashIn([]byte("# nothing"), true); err == nil {
		t.Error("no hash: no error")
	}
}

// A v2 statement carries each seat's outcome and score, for a venue's
// standings; its seats are checked as strictly as its other lines.
func TestStatementSeats(t *testing.T) {
	s := Statement{Identity: testID, FinalSeq: 88, FinalHash: strings.Repeat("cd", 32), Finished: true,
		Result: Text{PL: "wygrywa Ania", EN: "Ania wins"},
		Seats:  []Seat{{Seat: 1, Name: "Ania <&>", Side: "AK", Outcome: Win, Score: 12}, {Seat: 2, Name: "Bartek", Outcome: Loss, Score: 7}}}
	text := s.Marshal()
	golden.Check(t, "testdata/statement-v2.golden", text, *update)
	back, err := ParseStatement(text)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	none := Statement{Identity: testID, FinalHash: strings.Repeat("cd", 32), Seats: []Seat{}}
	if back, err := ParseStatement(none.Marshal()); err != nil || back.Seats == nil || len(back.Seats) != 0 {
		t.Fatalf("a v2 statement with no seats: %+v, %v", back.Seats, err)
	}
	seats := `[{"seat":1,"name":"Ania <&>","side":"AK","outcome":"win","score":12},{"seat":2,"name":"Bartek","outcome":"loss","score":7}]`
	if !strings.Contains(string(text), "\nseats: "+seats+"\n") {
		t.Fatalf("the seats line is not canonical JSON:\n%s", text)
	}
	for _, tc := range []struct{ name, seats, want string }{
		{"not JSON", `[{`, "seats: want a JSON array"},
		{"an object", `{"seat":1}`, "seats: want a JSON array"},
		{"an unknown field", `[{"seat":1,"outcome":"win","score":1,"vp":3}]`, "unknown field"},
		{"seat 0", `[{"seat":0,"outcome":"win","score":0}]`, "seat 0"},
		{"a seat twice", `[{"seat":1,"outcome":"win","score":0},{"seat":1,"outcome":"loss","score":0}]`, "seat 1"},
		{"an unknown outcome", `[{"seat":1,"outcome":"victory","score":0}]`, `outcome "victory"`},
		{"not canonical", `[{"score":12,"seat":1,"outcome":"win"}]`, "canonical"},
	} {
		bad := strings.Replace(string(text), seats, tc.seats, 1)
		if _, err := ParseStatement([]byte(bad)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// A v3 statement names the round the table's game was paired in, after
// the seats; v2 and v1 statements stay as they were.
func TestStatementRound(t *testing.T) {
	s := Statement{Identity: testID, FinalSeq: 88, FinalHash: strings.Repeat("cd", 32), Finished: true,
		Result: Text{PL: "wygrywa Ania", EN: "Ania wins"},
		Seats:  []Seat{{Seat: 1, Name: "Ania", Outcome: Win, Score: 12}, {Seat: 2, Name: "Bartek", Outcome: Loss, Score: 7}}, Round: 2}
	text := s.Marshal()
	golden.Check(t, "testdata/statement-v3.golden", text, *update)
	if !strings.HasPrefix(string(text), "sztab result statement v3\n") || !strings.HasSuffix(string(text), "\"score\":7}]\nround: 2\n") {
		t.Fatalf("not a v3 statement with the round after the seats:\n%s", text)
	}
	back, err := ParseStatement(text)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	priv, pubPEM, _ := GenerateKey()
	key, _ := ParsePrivateKey(priv)
	pub, _ := ParsePublicKey(pubPEM)
	if got, err := VerifyStatement(text, Sign(s, key), pub); err != nil || got.Round != 2 {
		t.Fatalf("verify: round %d, %v", got.Round, err)
	}
	// The round is signed: another round is another statement.
	other := strings.Replace(string(text), "round: 2", "round: 1", 1)
	if _, err := VerifyStatement([]byte(other), Sign(s, key), pub); !errors.Is(err, ErrBadSignature) {
		t.Errorf("the round changed after signing: got %v", err)
	}
	// A round without seats still has the seats line, empty.
	noSeats := Statement{Identity: testID, FinalHash: strings.Repeat("cd", 32), Round: 1}
	if back, err := ParseStatement(noSeats.Marshal()); err != nil || back.Round != 1 || back.Seats == nil {
		t.Fatalf("v3 without seats: %+v, %v", back, err)
	}
	// Round 0 is a v2 statement, as before.
	s.Round = 0
	if v2 := string(s.Marshal()); !strings.HasPrefix(v2, statementTitleV2+"\n") || strings.Contains(v2, "round") {
		t.Fatalf("round 0 is not a v2 statement:\n%s", v2)
	}
	for _, tc := range []struct{ name, round, want string }{
		{"zero", "0", "round \"0\""},
		{"negative", "-1", "round"},
		{"a leading zero", "02", "canonical"},
		{"a plus", "+2", "canonical"},
		{"too high", "10001", "round"},
		{"not a number", `"2"`, "round"},
	} {
		bad := strings.Replace(string(text), "round: 2", "round: "+tc.round, 1)
		if _, err := ParseStatement([]byte(bad)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
	if _, err := ParseStatement([]byte(strings.Replace(string(text), "\nround: 2", "", 1))); err == nil {
		t.Error("a v3 statement without its round line was read")
	}
}

func TestStatementAndSignature(t *testing.T) {
	privPEM, pubPEM, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	priv, err := ParsePrivateKey(privPEM)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ParsePublicKey(pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Equal(priv.Public()) {
		t.Fatal("the pair's keys differ")
	}
	s := Statement{Identity: testID, FinalSeq: 120, FinalHash: strings.Repeat("ab", 32), Finished: true,
		Result: Text{PL: "wygrywa \"AK\"\nnowa linia", EN: "AK wins <b>"}}
	text := s.Marshal()
	golden.Check(t, "testdata/statement.golden", text, *update)
	back, err := ParseStatement(text)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	sig := Sign(s, priv)
	if _, err := VerifyStatement(text, sig, pub); err != nil {
		t.Fatal(err)
	}
	_, otherPEM, _ := GenerateKey()
	other, _ := ParsePublicKey(otherPEM)
	if _, err := VerifyStatement(text, sig, other); !errors.Is(err, ErrBadSignature) {
		t.Errorf("another key: got %v", err)
	}
	altered := bytes.Replace(text, []byte("final_seq: 120"), []byte("final_seq: 121"), 1)
	if _, err := VerifyStatement(altered, sig, pub); !errors.Is(err, ErrBadSignature) {
		t.Errorf("altered statement: got %v", err)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"no final newline", strings.TrimSuffix(string(text), "\n"), "newline"},
		{"another title", strings.Replace(string(text), "result statement", "result", 1), "line 1"},
		{"a newer version", strings.Replace(string(text), "v1", "v9", 1), "a sztab release that reads v9 is needed"},
		{"a v5 title without the sample data", strings.Replace(string(text), "v1", "v5", 1), "lines"},
		{"a v4 title without the pairing", strings.Replace(string(text), "v1", "v4", 1), "lines"},
		{"a v3 title without seats and round", strings.Replace(string(text), "v1", "v3", 1), "lines"},
		{"a v2 title without seats", strings.Replace(string(text), "v1", "v2", 1), "lines"},
		{"fields reordered", strings.Replace(strings.Replace(string(text), "venue:", "tmp:", 1), "table:", "venue:", 1), "line 2"},
		{"a number as a string", strings.Replace(string(text), "final_seq: 120", `final_seq: "120"`, 1), "final_seq"},
		{"a bad hash", strings.Replace(string(text), strings.Repeat("ab", 32), strings.Repeat("AB", 32), 1), "final_hash"},
		{"extra spacing", strings.Replace(string(text), "finished: true", "finished:  true", 1), "finished"},
		{"a string not quoted", strings.Replace(string(text), `venue: "v"`, `venue: v`, 1), "venue: want a JSON string"},
		{"a non-canonical escape", strings.Replace(string(text), `venue: "v"`, `venue: "\u0076"`, 1), "not in canonical form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := ParseStatement([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want it to say %q", err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ data, want string }{
		{"", "want one line"},
		{"ed25519 abc\n", "illegal base64"},
		{"ed25519 " + strings.Repeat("A", 84) + "\n", "63 bytes"},
		{"rsa " + strings.Repeat("A", 88) + "\n", "want one line"},
	} {
		if _, err := ParseSignature([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("signature %q: got %v, want %q", tc.data, err, tc.want)
		}
	}
}

func TestKeyFilesRefused(t *testing.T) {
	privPEM, pubPEM, _ := GenerateKey()
	rsaLike := "-----BEGIN PRIVATE KEY-----\nMIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEA\n-----END PRIVATE KEY-----\n"
	for _, tc := range []struct {
		name, data string
		public     bool
		want       string
	}{
		{"empty", "", false, "not a PEM file"},
		{"text", "hello", true, "not a PEM file"},
		{"the public key as the private", string(pubPEM), false, "the other file of the pair"},
		{"the private key as the public", string(privPEM), true, "the other file of the pair"},
		{"two keys", string(privPEM) + string(privPEM), false, "more after the key"},
		{"not PKCS #8", rsaLike, false, "record: private key:"},
		{"encrypted", "-----BEGIN PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\nAAAA\n-----END PRIVATE KEY-----\n", false, "encrypted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.public {
				_, err = ParsePublicKey([]byte(tc.data))
			} else {
				_, err = ParsePrivateKey([]byte(tc.data))
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want it to say %q", err, tc.want)
			}
		})
	}
}

// VerifyPath on a directory: the chain, the summaries' hash, the statement
// and its signature.
func TestVerifyPath(t *testing.T) {
	dir := t.TempDir()
	data := chainOf(t, 4)
	rec, _ := ReadRecord(bytes.NewReader(data))
	s := testSummary()
	s.FinalSeq, s.FinalHash = rec.LastSeq, rec.Last.String()
	md, _ := s.Markdown()
	html, _ := s.HTML()
	privPEM, pubPEM, _ := GenerateKey()
	priv, _ := ParsePrivateKey(privPEM)
	pub, _ := ParsePublicKey(pubPEM)
	st := Statement{Identity: testID, FinalSeq: rec.LastSeq, FinalHash: rec.Last.String(), Finished: s.Finished, Result: s.Result}
	for name, b := range map[string][]byte{RecordFile: data, MarkdownFile: md, HTMLFile: html, StatementFile: st.Marshal(), SignatureFile: Sign(st, priv),
		SummariesSignatureFile: SignSummaries(md, html, rec.Last, priv)} {
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	r, err := VerifyPath(dir, pub)
	if err != nil || !r.Signed || len(r.Summaries) != 2 || r.Entries != 4 {
		t.Fatalf("got %+v, %v", r, err)
	}
	// The summaries' signature is over both files' bytes and the final
	// hash: one of another record does not do.
	os.WriteFile(filepath.Join(dir, SummariesSignatureFile), SignSummaries(md, html, Hash{}, priv), 0o644)
	if _, err := VerifyPath(dir, pub); err == nil || !strings.Contains(err.Error(), "summary.sig: key") {
		t.Errorf("the summaries signed for another final hash: got %v", err)
	}
	os.WriteFile(filepath.Join(dir, SummariesSignatureFile), []byte("ed25519 !!\n"), 0o644)
	if _, err := VerifyPath(dir, pub); err == nil || !strings.Contains(err.Error(), "summary.sig: record: signature") {
		t.Errorf("a garbled summaries' signature: got %v", err)
	}
	if r, err := VerifyPath(filepath.Join(dir, RecordFile), nil); err != nil || r.LastSeq != 4 {
		t.Errorf("the file alone: %+v, %v", r, err)
	}
	// A statement of another result than the summaries'.
	st3 := st
	st3.Result.EN = "a draw"
	os.WriteFile(filepath.Join(dir, StatementFile), st3.Marshal(), 0o644)
	os.Remove(filepath.Join(dir, SignatureFile))
	if _, err := VerifyPath(dir, nil); err == nil || !strings.Contains(err.Error(), "summary.md: does not state the result of") {
		t.Errorf("a statement of another result: got %v", err)
	}
	// A statement of another point of the record.
	st2 := st
	st2.FinalSeq = 3
	os.WriteFile(filepath.Join(dir, StatementFile), st2.Marshal(), 0o644)
	if _, err := VerifyPath(dir, nil); err == nil || !strings.Contains(err.Error(), "the statement is not this record's") {
		t.Errorf("statement of seq 3: got %v", err)
	}
	os.Remove(filepath.Join(dir, MarkdownFile))
	if _, err := VerifyPath(dir, nil); err == nil || !strings.Contains(err.Error(), "summary.md") {
		t.Errorf("no summary.md: got %v", err)
	}
}

// BenchmarkChain10k is the chain's own share of a check: 10,000 entries
// of a typical size hashed and linked, without reading them from SQLite.
func BenchmarkChain10k(b *testing.B) {
	body := []byte(`{"type":"shot","shooter":"u1","target":"u7","rolls":[{"value":4,"origin":"keypad"},{"value":2,"origin":"keypad"},{"value":6,"origin":"camera","confidence":0.93}]}`)
	events := []byte(`[{"type":"hit","text":{"pl":"trafienie","en":"hit"}},{"type":"wound","text":{"pl":"rana","en":"wound"}}]`)
	entries := make([]Entry, 10000)
	hashes := make([][2]string, len(entries))
	prev := testID.Genesis()
	for i := range entries {
		entries[i] = Entry{Seq: int64(i + 1), At: "2026-08-01T17:00:00.123456789Z", Kind: "action", Game: "skirmish", Body: body, Events: events}
		h, _ := EntryHash(entries[i], prev)
		hashes[i] = [2]string{prev.String(), h.String()}
		prev = h
	}
	b.ResetTimer()
	for b.Loop() {
		c := NewChain(testID)
		for i, e := range entries {
			if _, err := c.Next(e, hashes[i][0], hashes[i][1]); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// A v4 statement binds the result to the pairing the venue issued: the
// tournament's id, the pairing's id and the players seat by seat, signed
// with the rest; v3 and older statements read as before.
func TestStatementPairing(t *testing.T) {
	s := Statement{Identity: testID, FinalSeq: 88, FinalHash: strings.Repeat("cd", 32), Finished: true,
		Result: Text{PL: "wygrywa Ania", EN: "Ania wins"},
		Seats:  []Seat{{Seat: 1, Name: "Ania", Outcome: Win, Score: 12}, {Seat: 2, Name: "Bartek", Outcome: Loss, Score: 7}}, Round: 2,
		Tournament: strings.Repeat("1f", 16), Pairing: strings.Repeat("a0", 16), Players: []string{"ania", "bartek"}}
	text := s.Marshal()
	golden.Check(t, "testdata/statement-v4.golden", text, *update)
	if !strings.HasPrefix(string(text), "sztab result statement v4\n") ||
		!strings.HasSuffix(string(text), "round: 2\ntournament: \""+s.Tournament+"\"\npairing: \""+s.Pairing+"\"\nplayers: [\"ania\",\"bartek\"]\n") {
		t.Fatalf("not a v4 statement:\n%s", text)
	}
	back, err := ParseStatement(text)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	priv, pubPEM, _ := GenerateKey()
	key, _ := ParsePrivateKey(priv)
	pub, _ := ParsePublicKey(pubPEM)
	sig := Sign(s, key)
	if _, err := VerifyStatement(text, sig, pub); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to string }{
		{"another pairing", s.Pairing, strings.Repeat("b1", 16)},
		{"another tournament", s.Tournament, strings.Repeat("2e", 16)},
		{"other players", `["ania","bartek"]`, `["celina","darek"]`},
	} {
		changed := strings.Replace(string(text), tc.from, tc.to, 1)
		if _, err := VerifyStatement([]byte(changed), sig, pub); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s after signing: got %v, want %v", tc.name, err, ErrBadSignature)
		}
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"a short pairing id", s.Pairing, "ab", "pairing \"ab\""},
		{"a pairing id with a space", s.Pairing, "ab cd ef gh", "pairing"},
		{"no players", `["ania","bartek"]`, `[]`, "players: 0"},
		{"players null", `["ania","bartek"]`, `null`, "players: 0"},
		{"an empty player", `"bartek"`, `""`, "seat 2"},
		{"players not strings", `["ania","bartek"]`, `[1,2]`, "players"},
		{"no players line", "\nplayers: [\"ania\",\"bartek\"]", "", "lines"},
	} {
		bad := strings.Replace(string(text), tc.from, tc.to, 1)
		if _, err := ParseStatement([]byte(bad)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// A statement of a game on sample data (docs/box.md) is v5: the v4 lines,
// empty when the table was not paired, and "sample_data: true"; it reads
// back, signs and verifies; the other fields keep their meaning.
func TestStatementSampleData(t *testing.T) {
	privPEM, pubPEM, _ := GenerateKey()
	priv, _ := ParsePrivateKey(privPEM)
	pub, _ := ParsePublicKey(pubPEM)
	base := Statement{Identity: testID, FinalSeq: 7, FinalHash: strings.Repeat("cd", 32), Finished: true,
		Result: Text{PL: "wygrywa Bartek", EN: "Bartek wins"}, Seats: []Seat{{Seat: 1, Outcome: Loss}, {Seat: 2, Outcome: Win, Score: 9}}, SampleData: true}
	paired := base
	paired.Round, paired.Tournament, paired.Pairing, paired.Players = 2, "turniej-2026", "para-0001", []string{"ania", "bartek"}
	for _, tc := range []struct {
		name string
		s    Statement
		tail string
	}{
		{"not paired", base, "round: 0\ntournament: \"\"\npairing: \"\"\nplayers: []\nsample_data: true\n"},
		{"paired", paired, "round: 2\ntournament: \"turniej-2026\"\npairing: \"para-0001\"\nplayers: [\"ania\",\"bartek\"]\nsample_data: true\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.s.Marshal()
			if !strings.HasPrefix(string(text), "sztab result statement v5\n") || !strings.HasSuffix(string(text), tc.tail) {
				t.Fatalf("statement:\n%s", text)
			}
			back, err := ParseStatement(text)
			if err != nil || !reflect.DeepEqual(back, tc.s) {
				t.Fatalf("round trip: %+v, %v", back, err)
			}
			if _, err := VerifyStatement(text, Sign(tc.s, priv), pub); err != nil {
				t.Fatal(err)
			}
			// Without its sample_data line the statement does not read.
			cut := strings.TrimSuffix(string(text), "sample_data: true\n")
			if _, err := ParseStatement([]byte(cut)); err == nil {
				t.Error("a v5 statement without sample_data read")
			}
			if _, err := ParseStatement([]byte(cut + "sample_data: false\n")); err == nil || !strings.Contains(err.Error(), "sample_data") {
				t.Errorf("sample_data: false: %v", err)
			}
		})
	}
	// A statement without sample data is what it was.
	plain := base
	plain.SampleData = false
	if strings.Contains(string(plain.Marshal()), "sample_data") || !strings.HasPrefix(string(plain.Marshal()), "sztab result statement v2\n") {
		t.Errorf("a statement without sample data:\n%s", plain.Marshal())
	}
}

// A statement of a version newer than this build's (signed by a table of a
// later release) is refused with the version it is and the one needed,
// not read as a malformed v1; a title that is no version at all is still
// "line 1".
func TestStatementNewerVersion(t *testing.T) {
	privPEM, pubPEM, _ := GenerateKey()
	priv, _ := ParsePrivateKey(privPEM)
	pub, _ := ParsePublicKey(pubPEM)
	s := Statement{Identity: testID, FinalSeq: 7, FinalHash: strings.Repeat("cd", 32), Finished: true,
		Result: Text{PL: "wygrywa Bartek", EN: "Bartek wins"}, Seats: []Seat{{Seat: 1, Outcome: Loss}, {Seat: 2, Outcome: Win}},
		Round: 2, Tournament: "turniej-2026", Pairing: "para-0001", Players: []string{"ania", "bartek"}, SampleData: true}
	text := s.Marshal()
	if !strings.HasPrefix(string(text), fmt.Sprintf("sztab result statement v%d\n", StatementVersion)) {
		t.Fatalf("this build signs v%d, the statement is:\n%s", StatementVersion, text)
	}
	next := StatementVersion + 1
	newer := []byte(strings.Replace(string(text), fmt.Sprintf("v%d\n", StatementVersion), fmt.Sprintf("v%d\n", next), 1) + "new_field: 1\n")
	sig := ed25519.Sign(priv, newer)
	sigFile := []byte("ed25519 " + base64.StdEncoding.EncodeToString(sig) + "\n")
	for name, read := range map[string]func() error{
		"parse":  func() error { _, err := ParseStatement(newer); return err },
		"verify": func() error { _, err := VerifyStatement(newer, sigFile, pub); return err },
	} {
		err := read()
		want := fmt.Sprintf("version %d: this sztab reads result statements v1 to v%d; a sztab release that reads v%d is needed", next, StatementVersion, next)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: a v%d statement: %v, want %q", name, next, err, want)
		}
		var newerErr *ErrNewerStatement
		if wantPL := fmt.Sprintf("potrzebne wydanie sztab, które czyta wersję %d", next); !errors.As(err, &newerErr) || !strings.Contains(newerErr.Polish(), wantPL) {
			t.Errorf("%s: a v%d statement: %v, want an *ErrNewerStatement saying %q in Polish", name, next, err, wantPL)
		}
	}
	for _, title := range []string{"sztab result statement v0", "sztab result statement v05", "sztab result statement vx", "sztab result statement v1 "} {
		_, err := ParseStatement([]byte(title + "\n"))
		if err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("title %q: %v, want line 1 refused", title, err)
		}
	}
}
