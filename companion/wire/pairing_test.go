package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/sztab/sztab/companion/record"
)

func TestPairingTopic(t *testing.T) {
	if got := TopicsFor("klub", "stol-1").Pairing; got != "sztab/v1/klub/stol-1/pairing" {
		t.Fatalf("pairing topic %q", got)
	}
	if HiddenFor("sztab/v1/klub/stol-1/pairing") != "" {
		t.Fatal("the pairing is public (the wall and the players may read it)")
	}
}

const (
	pairingID    = "0123456789abcdef0123456789abcdef"
	tournamentID = "fedcba9876543210fedcba9876543210"
)

func TestParsePairing(t *testing.T) {
	good := `{"venue":"klub","table":"t01","round":2,"players":["Ania","Bartek"],"result":"awaiting"}`
	bound := strings.Replace(good, `"result"`, `"tournament":"`+tournamentID+`","pairing":"`+pairingID+`","player_ids":["ania","bartek"],"result"`, 1)
	m, ok, err := ParsePairing([]byte(good), "klub", "t01")
	if err != nil || !ok || m.Round != 2 || len(m.Players) != 2 || m.Counted() {
		t.Fatalf("good message: %+v %v %v", m, ok, err)
	}
	if _, ok, err := ParsePairing(nil, "klub", "t01"); ok || err != nil {
		t.Fatalf("a cleared topic: %v %v", ok, err)
	}
	for _, tc := range []struct{ name, payload, want string }{
		{"not JSON", `{"venue":`, "not a pairing message"},
		{"an array", `[]`, "not a pairing message"},
		{"an unknown field", strings.Replace(good, `"round"`, `"rnd":1,"round"`, 1), "unknown field"},
		{"two messages", good + good, "more after"},
		{"another table", strings.Replace(good, "t01", "t02", 1), `table "t02"`},
		{"another venue", strings.Replace(good, "klub", "hala", 1), `venue "hala"`},
		{"round 0", strings.Replace(good, `"round":2`, `"round":0`, 1), "round 0"},
		{"a round as text", strings.Replace(good, `"round":2`, `"round":"2"`, 1), "not a pairing message"},
		{"a huge round", strings.Replace(good, `"round":2`, `"round":99999999`, 1), "round 99999999"},
		{"no players", strings.Replace(good, `["Ania","Bartek"]`, `[]`, 1), "0 players"},
		{"an unknown result", strings.Replace(good, "awaiting", "won", 1), `result "won"`},
		{"a missing round not earlier", strings.Replace(good, `"result"`, `"missing":[2],"result"`, 1), "missing rounds [2]"},
		{"a missing round 0", strings.Replace(good, `"result"`, `"missing":[0],"result"`, 1), "missing rounds [0]"},
		{"missing rounds twice", strings.Replace(strings.Replace(good, `"round":2`, `"round":5`, 1), `"result"`, `"missing":[1,1],"result"`, 1), "missing rounds [1 1]"},
		{"not UTF-8", "{\"venue\":\"\xff\"}", "UTF-8"},
		{"a pairing id too short", strings.Replace(bound, pairingID, "ab", 1), `pairing id "ab"`},
		{"a pairing id with a slash", strings.Replace(bound, pairingID, "ab/cd/ef/gh", 1), "pairing id"},
		{"a pairing without the tournament", strings.Replace(bound, `"tournament":"`+tournamentID+`",`, "", 1), "tournament id"},
		{"a tournament without a pairing", strings.Replace(bound, `"pairing":"`+pairingID+`",`, "", 1), "without the pairing's id"},
		{"player ids for other seats", strings.Replace(bound, `["ania","bartek"]`, `["ania"]`, 1), "1 player ids for 2 players"},
		{"an empty player id", strings.Replace(bound, `"bartek"]`, `""]`, 1), "seat 2"},
		{"too long", `{"venue":"` + strings.Repeat("x", MaxPairingBytes) + `"}`, "bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok, err := ParsePairing([]byte(tc.payload), "klub", "t01"); ok || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v %v, want an error with %q", ok, err, tc.want)
			}
		})
	}
	if m, ok, err := ParsePairing([]byte(bound), "klub", "t01"); err != nil || !ok || m.Pairing != pairingID || m.Tournament != tournamentID || len(m.PlayerIDs) != 2 {
		t.Fatalf("a pairing with its ids: %+v %v", m, err)
	}
	if m, ok, err := ParsePairing([]byte(strings.Replace(good, `"result"`, `"missing":[1],"result"`, 1)), "klub", "t01"); err != nil || !ok || len(m.Missing) != 1 {
		t.Fatalf("a missing round 1: %+v %v", m, err)
	}
	m.Result = PairingCorrected
	if !m.Counted() {
		t.Fatal("a corrected result is counted")
	}
}

// A pairing from the network: a message for this table, or an error; never
// a panic, never a round out of range.
func FuzzParsePairing(f *testing.F) {
	for _, s := range []string{`{"venue":"klub","table":"t01","round":2,"players":["Ania","Bartek"],"result":"awaiting"}`,
		`{"venue":"klub","table":"t01","round":1,"players":["a"]}`, `{"venue":"klub","table":"t01","round":-1,"players":["a"]}`,
		`{"venue":"klub","table":"t02","round":1,"players":["a"]}`, `null`, ``, `{}`, `{"round":1e9}`,
		`{"venue":"klub","table":"t01","round":3,"players":["a","b"],"missing":[1,2]}`,
		`{"venue":"klub","table":"t01","round":2,"players":["Ania","Bartek"],"tournament":"` + tournamentID + `","pairing":"` + pairingID + `","player_ids":["ania","bartek"]}`,
		`{"venue":"klub","table":"t01","round":2,"players":["Ania"],"tournament":"x","pairing":"` + pairingID + `","player_ids":[""]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, ok, err := ParsePairing(data, "klub", "t01")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "wire: pairing: ") {
				t.Fatalf("error without the prefix: %v", err)
			}
			return
		}
		if !ok {
			if len(data) != 0 {
				t.Fatalf("%q: neither a pairing nor an error", data)
			}
			return
		}
		if m.Venue != "klub" || m.Table != "t01" || m.Round < 1 || m.Round > MaxPairingRound || len(m.Players) == 0 || len(m.Missing) >= m.Round ||
			(m.Pairing != "" && (!record.ValidID(m.Pairing) || !record.ValidID(m.Tournament) || len(m.PlayerIDs) != len(m.Players))) {
			t.Fatalf("accepted %+v", m)
		}
		b, _ := json.Marshal(m)
		if again, ok, err := ParsePairing(b, "klub", "t01"); err != nil || !ok || again.Round != m.Round || again.Pairing != m.Pairing {
			t.Fatalf("written again: %v %v", ok, err)
		}
	})
}
