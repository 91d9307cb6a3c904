package record

import (
	"bytes"
	"strings"
	"testing"
)

// Every reader of outside input here: an exported record, a key file, a
// statement, a signature, a summary. None panics; what one accepts is what
// the writer would write.

func FuzzReadRecord(f *testing.F) {
	good := chainOf(f, 3)
	f.Add(good)
	f.Add(bytes.Replace(good, []byte(`"value":2`), []byte(`"value":3`), 1))
	f.Add([]byte(`{"format":"sztab-record/1","venue":"v","table":"t","game":"g","genesis":""}` + "\n"))
	f.Add([]byte("{}\n{}\n"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := ReadRecord(bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("error without the package's prefix: %v", err)
			}
			return
		}
		// Accepted: the writer writes it again, to the same chain's end.
		var b bytes.Buffer
		w, err := NewWriter(&b, rec.Header.Identity)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range rec.Entries {
			if err := w.Write(l); err != nil {
				t.Fatalf("accepted entry %d not written again: %v", l.Seq, err)
			}
		}
		w.Close()
		again, err := ReadRecord(&b)
		if err != nil || again.Last != rec.Last || again.LastSeq != rec.LastSeq {
			t.Fatalf("written again: %v, last %v/%d, want %v/%d", err, again.Last, again.LastSeq, rec.Last, rec.LastSeq)
		}
	})
}

func FuzzParseKey(f *testing.F) {
	priv, pub, _ := GenerateKey()
	f.Add(priv)
	f.Add(pub)
	f.Add([]byte("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"))
	f.Add([]byte("-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----\n"))
	f.Add([]byte("not a key"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if k, err := ParsePrivateKey(data); err == nil && len(k) != 64 {
			t.Fatalf("accepted a private key of %d bytes", len(k))
		} else if err != nil && !strings.HasPrefix(err.Error(), "record: ") {
			t.Fatalf("error without the package's prefix: %v", err)
		}
		if k, err := ParsePublicKey(data); err == nil && len(k) != 32 {
			t.Fatalf("accepted a public key of %d bytes", len(k))
		} else if err != nil && !strings.HasPrefix(err.Error(), "record: ") {
			t.Fatalf("error without the package's prefix: %v", err)
		}
	})
}

func FuzzParseStatement(f *testing.F) {
	s := Statement{Identity: testID, FinalSeq: 7, FinalHash: strings.Repeat("0f", 32), Finished: true, Result: Text{PL: "remis", EN: "a draw"}}
	f.Add(s.Marshal())
	f.Add(bytes.Replace(s.Marshal(), []byte("7"), []byte("-7"), 1))
	f.Add([]byte(statementTitle + "\n"))
	s.Seats = []Seat{{Seat: 1, Name: "Ania", Side: "AK", Outcome: Win, Score: 3}, {Seat: 2, Outcome: Loss}}
	f.Add(s.Marshal())
	s.Round = 3
	f.Add(s.Marshal())
	f.Add(bytes.Replace(s.Marshal(), []byte("round: 3"), []byte("round: 03"), 1))
	s.Tournament, s.Pairing, s.Players = strings.Repeat("ab", 16), strings.Repeat("cd", 16), []string{"ania", "bartek"}
	f.Add(s.Marshal())
	f.Add(bytes.Replace(s.Marshal(), []byte(`["ania","bartek"]`), []byte(`null`), 1))
	f.Add(bytes.Replace(s.Marshal(), []byte(`"bartek"`), []byte(`""`), 1))
	f.Add(bytes.Replace(s.Marshal(), []byte(`pairing: "cd`), []byte(`pairing: "c d`), 1))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := ParseStatement(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "record: ") {
				t.Fatalf("error without the package's prefix: %v", err)
			}
			return
		}
		if !bytes.Equal(st.Marshal(), data) {
			t.Fatalf("accepted a statement that is not canonical:\n%q\n%q", data, st.Marshal())
		}
	})
}

func FuzzParseSignature(f *testing.F) {
	priv, _, _ := GenerateKey()
	k, _ := ParsePrivateKey(priv)
	f.Add(Sign(Statement{Identity: testID, FinalHash: strings.Repeat("00", 32)}, k))
	f.Add([]byte("ed25519 \n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sig, err := ParseSignature(data)
		if err == nil && len(sig) != 64 {
			t.Fatalf("accepted a signature of %d bytes", len(sig))
		}
	})
}

func FuzzFinalHashIn(f *testing.F) {
	md, _ := testSummary().Markdown()
	html, _ := testSummary().HTML()
	f.Add(md, false)
	f.Add(html, true)
	f.Add([]byte("- Final hash: ``"), false)
	f.Fuzz(func(t *testing.T, data []byte, isHTML bool) {
		h, err := FinalHashIn(data, isHTML)
		if err == nil && !bytes.Contains(data, []byte(h.String())) {
			t.Fatalf("found %s, which the summary does not name", h)
		}
	})
}
