package companion

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refusedRecord is refusedMessage's JSON.
type refusedRecord struct {
	Topic         string  `json:"topic"`
	Payload       *string `json:"payload"`
	PayloadBase64 []byte  `json:"payload_base64"`
	Length        int     `json:"payload_length"`
	SHA256        string  `json:"payload_sha256"`
	Truncated     bool    `json:"truncated"`
}

// maxRefused bounds refusedMessage's size for a topic: JSON escapes a
// byte into at most 6 (\u00XX), for the topic and the kept prefix, plus
// the keys, the hash and the length.
func maxRefused(topic string) int { return 6*len(topic) + 6*refusedPrefix + 256 }

// checkRefused checks out, refusedMessage's record of payload: valid JSON
// of bounded size, the payload's length and hash, and a prefix of it.
func checkRefused(t *testing.T, topic string, payload, out []byte) refusedRecord {
	t.Helper()
	var r refusedRecord
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("got %s: %v, want JSON", short(out), err)
	}
	if len(out) > maxRefused(topic) {
		t.Errorf("got %d bytes for a %d-byte payload, want at most %d", len(out), len(payload), maxRefused(topic))
	}
	if sum := sha256.Sum256(payload); r.Length != len(payload) || r.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("got length %d, sha256 %s, want %d, %x", r.Length, r.SHA256, len(payload), sum)
	}
	kept := r.PayloadBase64
	if r.Payload != nil {
		kept = []byte(*r.Payload)
	}
	if (r.Payload == nil) == (r.PayloadBase64 == nil) {
		t.Errorf("got %s, want the payload as text or as base64", short(out))
	}
	if len(kept) > refusedPrefix || !bytes.HasPrefix(payload, kept) || r.Truncated != (len(kept) < len(payload)) {
		t.Errorf("kept %s (truncated %v) of a %d-byte payload, want a prefix of at most %d bytes", short(kept), r.Truncated, len(payload), refusedPrefix)
	}
	return r
}

// A refused command is kept whole when it is short, and as a bounded
// prefix (whole characters) with its length and hash when it is not.
func TestRefusedCommandIsKeptBounded(t *testing.T) {
	const topic = "sztab/v1/v/t1/referee/command"
	big := bytes.Repeat([]byte("not json "), 1<<20/9*8) // about 8 MiB
	for _, tc := range []struct {
		name     string
		payload  []byte
		wantText string // kept as text; "" means kept as base64
		wantB64  []byte
	}{
		{"short text", []byte(`{"name":"nxt"}`), `{"name":"nxt"}`, nil},
		{"short binary", []byte{0xff, 0xfe, 0}, "", []byte{0xff, 0xfe, 0}},
		{"megabytes of text", big, string(big[:refusedPrefix]), nil},
		{"a character across the cut", []byte("a" + strings.Repeat("ż", 200)), "a" + strings.Repeat("ż", 127), nil},
		{"megabytes of binary", bytes.Repeat([]byte{0xc3, 0x28}, 1<<20), "", bytes.Repeat([]byte{0xc3, 0x28}, refusedPrefix/2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := checkRefused(t, topic, tc.payload, refusedMessage(Message{Topic: topic, Payload: tc.payload}))
			if r.Topic != topic {
				t.Errorf("got topic %q, want %q", r.Topic, topic)
			}
			switch {
			case tc.wantText != "" && (r.Payload == nil || *r.Payload != tc.wantText):
				t.Errorf("got payload %s (base64 %s), want the text %q", short([]byte(deref(r.Payload))), short(r.PayloadBase64), tc.wantText)
			case tc.wantText == "" && !bytes.Equal(r.PayloadBase64, tc.wantB64):
				t.Errorf("got payload_base64 %s, want %s", short(r.PayloadBase64), short(tc.wantB64))
			}
		})
	}
}

// short is b for a failure message: at most its first 64 bytes.
func short(b []byte) string {
	if len(b) <= 64 {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q… (%d bytes)", b[:64], len(b))
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

// journalBytes is the size of a journal's files on disk.
func journalBytes(t *testing.T, path string) (n int64) {
	t.Helper()
	for _, name := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(name); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// One garbled 8 MiB referee command grew the journal by 22 MB. It is
// refused as before, and adds a few pages at most.
func TestGarbledCommandOfMegabytesAddsLittleToTheJournal(t *testing.T) {
	dir := t.TempDir()
	d, stop := tallyDaemon(t, dir)
	defer stop()
	rec := record(t, d.BrokerAddr(), "sztab/v1/v/t1/#")
	rec.wait(t, "sztab/v1/v/t1/state", `"seq":1`)
	path := filepath.Join(dir, "j.db")
	before := journalBytes(t, path)
	d.receiveCommand(Message{Topic: d.topics.RefereeCommand, Payload: bytes.Repeat([]byte("garbled "), 1<<20)})
	rec.wait(t, "sztab/v1/v/t1/events", `"code":"garbled"`)
	const bound = 64 << 10
	if grown := journalBytes(t, path) - before; grown > bound {
		t.Errorf("an 8 MiB garbled command grew the journal by %d bytes, want at most %d", grown, bound)
	}
}

// Whatever arrives on the command topic, the journal's record of it is
// valid JSON of bounded size holding the payload's length, hash and prefix.
func FuzzRefusedCommandMessage(f *testing.F) {
	f.Add("sztab/v1/v/t1/referee/command", []byte(`{"name":"next"}`))
	f.Add("sztab/v1/v/t1/referee/command", []byte(""))
	f.Add("t", []byte{0xff, 0xfe, 0xfd})
	f.Add("t", bytes.Repeat([]byte("ż"), 300))
	f.Add("t\xff", append(bytes.Repeat([]byte("<&>\u2028"), 100), 0xe2, 0x82))
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		checkRefused(t, topic, payload, refusedMessage(Message{Topic: topic, Payload: payload}))
	})
}
