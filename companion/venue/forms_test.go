package venue

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/record"
)

func TestParseCorrection(t *testing.T) {
	tests := []struct {
		query   string
		want    Correction
		wantErr string
	}{
		{"round=2&table=stol-1&outcome1=win&score1=30&outcome2=loss&score2=12&reason=zly+odczyt",
			Correction{Round: 2, Table: "stol-1", Why: "zly odczyt", Seats: []record.Seat{win(1, 30), loss(2, 12)}}, ""},
		{"round=1&table=t&outcome1=draw&outcome2=draw&score2=&reason=x",
			Correction{Round: 1, Table: "t", Why: "x", Seats: []record.Seat{draw(1, 0), draw(2, 0)}}, ""},
		{"table=t&outcome1=win&reason=x", Correction{}, "round: missing"},
		{"round=0&table=t&outcome1=win&reason=x", Correction{}, "want a round number 1–999"},
		{"round=1000&table=t&outcome1=win&reason=x", Correction{}, "want a round number"},
		{"round=1&outcome1=win&reason=x", Correction{}, "table: missing"},
		{"round=1&table=a/b&outcome1=win&reason=x", Correction{}, "not a table id"},
		{"round=1&table=%23&outcome1=win&reason=x", Correction{}, "not a table id"},
		{"round=1&table=t&outcome1=win", Correction{}, "reason: missing"},
		{"round=1&table=t&outcome1=win&reason=" + strings.Repeat("x", 501), Correction{}, "at most 500"},
		{"round=1&table=t&outcome1=win&reason=a%00b", Correction{}, "control characters"},
		{"round=1&table=t&reason=x", Correction{}, "no seat's outcome"},
		{"round=1&table=t&outcome1=won&reason=x", Correction{}, `seat 1: outcome "won"`},
		{"round=1&table=t&outcome1=win&score1=1e3&reason=x", Correction{}, "seat 1: score"},
		{"round=1&table=t&outcome1=win&score1=2000000&reason=x", Correction{}, "within ±1000000"},
		{"round=1&table=t&outcome1=win&outcome3=loss&reason=x", Correction{}, "seat 2 has no outcome but seat 3 has"},
		{"round=1&table=t&outcome1=win&score2=3&reason=x", Correction{}, "seat 2: a score without an outcome"},
	}
	for _, tt := range tests {
		t.Run(tt.query[:min(len(tt.query), 50)], func(t *testing.T) {
			form, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseCorrection(form)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "venue: form: ") {
					t.Fatalf("got %+v, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// Whatever a form holds, ParseCorrection either refuses it or returns a
// correction within the limits: a round 1–999, a table id fit for a topic,
// seats 1…n each with an outcome, a reason of at most 500 characters.
func FuzzParseCorrection(f *testing.F) {
	f.Add("round=2&table=stol-1&outcome1=win&score1=30&outcome2=loss&score2=12&reason=zly+odczyt")
	f.Add("round=1&table=t&outcome1=draw&outcome2=draw&outcome3=draw&reason=x")
	f.Add("round=1&table=t&outcome1=win&outcome3=loss&reason=x")
	f.Add("round=-1&table=%2B&reason=%00")
	f.Fuzz(func(t *testing.T, query string) {
		form, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		c, err := ParseCorrection(form)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "venue: form: ") {
				t.Fatalf("error without the prefix: %v", err)
			}
			return
		}
		if c.Round < 1 || c.Round > MaxRounds || c.Table == "" || len(c.Table) > maxTableID || strings.ContainsAny(c.Table, "+#/") {
			t.Fatalf("accepted %+v", c)
		}
		if c.Why == "" || utf8.RuneCountInString(c.Why) > MaxReason || len(c.Seats) == 0 || len(c.Seats) > MaxSeats {
			t.Fatalf("accepted %+v", c)
		}
		for i, s := range c.Seats {
			if s.Seat != i+1 || (s.Outcome != record.Win && s.Outcome != record.Draw && s.Outcome != record.Loss) {
				t.Fatalf("accepted seat %+v", s)
			}
		}
	})
}

// Whatever arrives on a result topic, ParseResult refuses it with the
// package's prefix or returns a message with a statement, and never more
// than MaxResultBytes is read.
func FuzzParseResult(f *testing.F) {
	k := newKey(f)
	f.Add(resultMessage(k, "demo", "stol-1", win(1, 3), loss(2, 0)))
	f.Add([]byte(`{"statement":""}`))
	f.Add([]byte(`{"statement":`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, payload []byte) {
		m, err := ParseResult(payload)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "venue: result: ") {
				t.Fatalf("error without the prefix: %v", err)
			}
			return
		}
		if m.Statement == "" || len(payload) > MaxResultBytes {
			t.Fatalf("accepted %q", payload)
		}
	})
}

// recordingImport is a tournament that only records the imports it gets.
type recordingImport struct {
	fakeTournament
	got [][]byte
}

func (r *recordingImport) ImportPairings(_ context.Context, round int, in io.Reader) error {
	data, err := io.ReadAll(in)
	r.got = append(r.got, data)
	return err
}

// Whatever body an import request has (multipart or a form, any size),
// the import either reaches the tournament with at most MaxUpload bytes
// and a round number, or is refused with a 4xx and the tournament never
// sees it.
func FuzzImportRequest(f *testing.F) {
	multipartBody := func(round, csv string) (string, []byte) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("round", round)
		fw, _ := mw.CreateFormFile("file", "p.csv")
		fw.Write([]byte(csv))
		mw.Close()
		return mw.FormDataContentType(), b.Bytes()
	}
	ct, body := multipartBody("1", "table,seat1,seat2\nt1,a,b\n")
	f.Add(ct, body)
	ct, body = multipartBody("2", strings.Repeat("x", 300))
	f.Add(ct, body)
	f.Add("application/x-www-form-urlencoded", []byte("round=1&csv=table%2Cseat1%2Cseat2%0At1%2Ca%2Cb"))
	f.Add("application/x-www-form-urlencoded", []byte("round=1&csv="+strings.Repeat("y", 400)))
	f.Add("multipart/form-data; boundary=x", []byte("--x\r\nContent-Disposition: form-data; name=\"round\"\r\n\r\n1\r\n--x--"))
	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		tour := &recordingImport{}
		v, err := New(Options{Hub: hub.Options{Broker: "tcp://127.0.0.1:1", Venue: "v", Log: slog.New(slog.NewTextHandler(io.Discard, nil))},
			Tournament: tour, Organiser: display.Credential{User: "o", Password: "p"}, MaxUpload: 256})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPost, "/organiser/import", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		done, err := v.importPairings(limited(v, w, req))
		if err != nil {
			if len(tour.got) != 0 || !strings.HasPrefix(err.Error(), "venue: ") && !strings.HasPrefix(err.Error(), "the form: venue: ") {
				t.Fatalf("refused (%v) after the tournament saw %d imports, or without the prefix", err, len(tour.got))
			}
			return
		}
		if done != "imported" {
			t.Fatalf("done %q", done)
		}
		if len(tour.got) != 1 || len(tour.got[0]) == 0 || len(tour.got[0]) > 256 {
			t.Fatalf("imported %d times, %v bytes", len(tour.got), len(tour.got))
		}
	})
}

// limited applies the venue's body limit to r, as the handler does.
func limited(v *Venue, w http.ResponseWriter, r *http.Request) *http.Request {
	v.limit(w, r)
	return r
}
