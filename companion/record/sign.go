package record

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The table's key is Ed25519, in the usual PEM files: the private key as
// PKCS #8 ("PRIVATE KEY"), the public key as PKIX ("PUBLIC KEY"), so that
// openssl reads them too.

// GenerateKey makes a table key and returns its two PEM files.
func GenerateKey() (private, public []byte, err error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("record: key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, nil, fmt.Errorf("record: key: %w", err)
	}
	pder, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, nil, fmt.Errorf("record: key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pder}), nil
}

// ParsePrivateKey reads a table's private key file.
func ParsePrivateKey(data []byte) (ed25519.PrivateKey, error) {
	der, err := onePEM(data, "PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, fmt.Errorf("record: private key: %w", err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("record: private key: a %T, want an Ed25519 key (sztab keygen makes one)", k)
	}
	return priv, nil
}

// ParsePublicKey reads a table's public key file.
func ParsePublicKey(data []byte) (ed25519.PublicKey, error) {
	der, err := onePEM(data, "PUBLIC KEY")
	if err != nil {
		return nil, err
	}
	k, err := x509.ParsePKIXPublicKey(der)
	if err != nil {
		return nil, fmt.Errorf("record: public key: %w", err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("record: public key: a %T, want an Ed25519 key", k)
	}
	return pub, nil
}

// onePEM is the one PEM block of type typ that data must be.
func onePEM(data []byte, typ string) ([]byte, error) {
	what := strings.ToLower(typ)
	b, rest := pem.Decode(data)
	if b == nil {
		return nil, fmt.Errorf("record: %s: not a PEM file (want -----BEGIN %s-----)", what, typ)
	}
	if b.Type != typ {
		hint := ""
		if strings.Contains(b.Type, "PUBLIC") != strings.Contains(typ, "PUBLIC") {
			hint = " (the other file of the pair?)"
		}
		return nil, fmt.Errorf("record: %s: the file holds a %q block, want %q%s", what, b.Type, typ, hint)
	}
	if len(b.Headers) > 0 {
		return nil, fmt.Errorf("record: %s: encrypted or with headers; want a plain key", what)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, fmt.Errorf("record: %s: more after the key", what)
	}
	return b.Bytes, nil
}

// Fingerprint names a public key: the first 16 hex digits of the SHA-256
// of its bytes.
func Fingerprint(pub ed25519.PublicKey) string {
	h := sha256.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// Statement is a table's result statement: which table and game, the
// record's last entry (so the statement names the whole record), and the
// result. Its canonical bytes (Marshal) are what the table signs.
type Statement struct {
	Identity
	FinalSeq  int64
	FinalHash string
	Finished  bool
	Result    Text
	// Seats is the result seat by seat, for a venue's standings: set, even
	// empty, it makes the statement a v2 one (one more line, "seats");
	// nil is a v1 statement, as tables before it signed them.
	Seats []Seat
	// Round is the tournament round the table's game was paired in, as
	// the venue told the table (wire.PairingMessage): set (> 0), it makes
	// the statement a v3 one, with the seats and one more line, "round";
	// 0 is a table that heard no pairing while its game was on (v2, or v1
	// without seats). A venue counts only a v4 statement (below), for its
	// pairing's round, so a table's late result never counts in the wrong
	// round.
	Round int
	// Tournament, Pairing and Players bind the result to the pairing the
	// venue issued (wire.PairingMessage): the tournament's id, the
	// pairing's id (random, issued once by the venue) and the players the
	// table played into, seat 1 first (seat i is Players[i-1]). Pairing
	// set (with Round > 0) makes the statement a v4 one: the v3 lines and
	// then "tournament", "pairing" and "players". A venue counts a result
	// only for the pairing it issued to that table, with those players.
	Tournament string
	Pairing    string
	Players    []string
	// SampleData says the game ran on data its rulebook does not print
	// (the shipped assumed data, docs/box.md). Set, it makes the statement
	// a v5 one: the v4 lines (tournament and pairing "" and players [] when
	// the table was not paired, round 0 when it heard no round) and then
	// "sample_data: true". No other field changes its meaning.
	SampleData bool
}

// Seat is one seat's result in a statement.
type Seat struct {
	Seat int    `json:"seat"`
	Name string `json:"name,omitempty"`
	// Side is the seat's army, faction or colour, when the game has sides.
	Side string `json:"side,omitempty"`
	// Outcome is Win, Draw or Loss; Score is the game's own points for the
	// seat (victory points, money), 0 where the game keeps none.
	Outcome string `json:"outcome"`
	Score   int    `json:"score"`
}

// The outcomes of a seat.
const (
	Win  = "win"
	Draw = "draw"
	Loss = "loss"
)

const (
	statementTitle   = "sztab result statement v1"
	statementTitleV2 = "sztab result statement v2"
	statementTitleV3 = "sztab result statement v3"
	statementTitleV4 = "sztab result statement v4"
	statementTitleV5 = "sztab result statement v5"
)

// StatementVersion is the newest result statement this build reads and
// signs.
const StatementVersion = 5

// newerStatement reads the version of a statement title newer than this
// build's ("sztab result statement v6").
func newerStatement(title string) (int, bool) {
	n, ok := strings.CutPrefix(title, "sztab result statement v")
	if !ok || n == "" || len(n) > 6 || n[0] == '0' {
		return 0, false
	}
	v, err := strconv.Atoi(n)
	return v, err == nil && v > StatementVersion
}

// ErrNewerStatement is a statement of a version newer than this build
// reads (signed by a table of a later release): it says which is needed.
type ErrNewerStatement struct{ Version int }

func (e *ErrNewerStatement) Error() string {
	return fmt.Sprintf("record: statement: version %d: this sztab reads result statements v1 to v%d; a sztab release that reads v%d is needed (CHANGELOG.md says which)", e.Version, StatementVersion, e.Version)
}

// Polish is the error in Polish, for the venue's page and log.
func (e *ErrNewerStatement) Polish() string {
	return fmt.Sprintf("oświadczenie o wyniku w wersji %d: ten sztab czyta wersje od 1 do %d; potrzebne wydanie sztab, które czyta wersję %d (mówi o tym CHANGELOG.md)", e.Version, StatementVersion, e.Version)
}

// Marshal is the statement's canonical text: a title line, then one
// "key: value" line a field in this order, strings as JSON strings
// (without HTML escaping), numbers in decimal, a final newline:
//
//	sztab result statement v1
//	venue: "…"
//	table: "…"
//	game: "…"
//	final_seq: 42
//	final_hash: 64 hex digits
//	finished: true
//	result_pl: "…"
//	result_en: "…"
//
// A v2 statement (Seats set) is titled "sztab result statement v2" and has
// one more line, the seats as a compact JSON array of Seat in seat order:
//
//	seats: [{"seat":1,"name":"Ania","side":"red","outcome":"win","score":12},…]
//
// A v3 statement (Round > 0) is titled "sztab result statement v3" and
// has the seats line (an empty array when Seats is nil) and then the round
// in decimal:
//
//	round: 2
//
// A v4 statement (Pairing set) is titled "sztab result statement v4" and
// has the v3 lines, then the tournament's and the pairing's ids as JSON
// strings and the players, seat 1 first, as a compact JSON array of
// strings:
//
//	tournament: "9f0c…"
//	pairing: "41d2…"
//	players: ["ania","bartek"]
func (s Statement) Marshal() []byte {
	var b strings.Builder
	switch {
	case s.SampleData:
		b.WriteString(statementTitleV5 + "\n")
	case s.Pairing != "":
		b.WriteString(statementTitleV4 + "\n")
	case s.Round > 0:
		b.WriteString(statementTitleV3 + "\n")
	case s.Seats != nil:
		b.WriteString(statementTitleV2 + "\n")
	default:
		b.WriteString(statementTitle + "\n")
	}
	for _, f := range s.fields() {
		b.WriteString(f.key + ": " + f.value + "\n")
	}
	return []byte(b.String())
}

type field struct{ key, value string }

func (s Statement) fields() []field {
	fs := []field{
		{"venue", quote(s.Venue)}, {"table", quote(s.Table)}, {"game", quote(s.Game)},
		{"final_seq", strconv.FormatInt(s.FinalSeq, 10)}, {"final_hash", s.FinalHash},
		{"finished", strconv.FormatBool(s.Finished)},
		{"result_pl", quote(s.Result.PL)}, {"result_en", quote(s.Result.EN)},
	}
	v4 := s.Pairing != "" || s.SampleData
	if s.Seats != nil || s.Round > 0 || v4 {
		seats := s.Seats
		if seats == nil {
			seats = []Seat{}
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(seats)
		fs = append(fs, field{"seats", strings.TrimSuffix(b.String(), "\n")})
	}
	if s.Round > 0 || v4 {
		fs = append(fs, field{"round", strconv.Itoa(s.Round)})
	}
	if v4 {
		players := s.Players
		if players == nil {
			players = []string{}
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(players)
		fs = append(fs, field{"tournament", quote(s.Tournament)}, field{"pairing", quote(s.Pairing)},
			field{"players", strings.TrimSuffix(b.String(), "\n")})
	}
	if s.SampleData {
		fs = append(fs, field{"sample_data", "true"})
	}
	return fs
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// MaxRound is the highest round a statement names.
const MaxRound = 10000

// MaxStatement is the longest statement ParseStatement reads.
const MaxStatement = 64 << 10

// ParseStatement reads a statement that must be in its canonical form
// (Marshal): anything else — another order, a field missing or twice,
// other spacing — is refused with the line at fault.
func ParseStatement(data []byte) (Statement, error) {
	var s Statement
	if len(data) > MaxStatement {
		return s, fmt.Errorf("record: statement: %d bytes, longer than %d", len(data), MaxStatement)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		return s, errors.New("record: statement: does not end with a newline")
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	keys := Statement{}.fields()
	switch lines[0] {
	case statementTitle:
	case statementTitleV2:
		keys = Statement{Seats: []Seat{}}.fields()
	case statementTitleV3:
		keys = Statement{Seats: []Seat{}, Round: 1}.fields()
	case statementTitleV4:
		keys = Statement{Seats: []Seat{}, Round: 1, Pairing: "-"}.fields()
	case statementTitleV5:
		keys = Statement{Seats: []Seat{}, Round: 1, Pairing: "-", SampleData: true}.fields()
	default:
		if v, ok := newerStatement(lines[0]); ok {
			return s, &ErrNewerStatement{Version: v}
		}
		return s, fmt.Errorf("record: statement: line 1: %q, want %q, %q, %q, %q or %q", clip(lines[0]), statementTitleV5, statementTitleV4, statementTitleV3, statementTitleV2, statementTitle)
	}
	if len(lines) != len(keys)+1 {
		return s, fmt.Errorf("record: statement: %d lines, want %d", len(lines), len(keys)+1)
	}
	vals := map[string]string{}
	for i, f := range keys {
		k, v, ok := strings.Cut(lines[i+1], ": ")
		if !ok || k != f.key {
			return s, fmt.Errorf("record: statement: line %d: %q, want %q", i+2, clip(lines[i+1]), f.key+": …")
		}
		vals[k] = v
	}
	str := func(k string) (string, error) {
		var out string
		if err := json.Unmarshal([]byte(vals[k]), &out); err != nil {
			return "", fmt.Errorf("record: statement: %s: want a JSON string: %w", k, err)
		}
		return out, nil
	}
	var err error
	for k, to := range map[string]*string{"venue": &s.Venue, "table": &s.Table, "game": &s.Game, "result_pl": &s.Result.PL, "result_en": &s.Result.EN} {
		if *to, err = str(k); err != nil {
			return Statement{}, err
		}
	}
	if s.FinalSeq, err = strconv.ParseInt(vals["final_seq"], 10, 64); err != nil || s.FinalSeq < 0 {
		return Statement{}, fmt.Errorf("record: statement: final_seq %q: want a count", clip(vals["final_seq"]))
	}
	if _, err := ParseHash(vals["final_hash"]); err != nil {
		return Statement{}, fmt.Errorf("record: statement: final_hash: %w", err)
	}
	s.FinalHash = vals["final_hash"]
	if s.Finished, err = strconv.ParseBool(vals["finished"]); err != nil {
		return Statement{}, fmt.Errorf("record: statement: finished %q: want true or false", clip(vals["finished"]))
	}
	if v, ok := vals["seats"]; ok {
		if s.Seats, err = parseSeats(v); err != nil {
			return Statement{}, err
		}
	}
	if v, ok := vals["round"]; ok {
		// A round from 1, in decimal; Marshal's output is compared below,
		// so "01" or "+1" is refused as not canonical.
		// A v5 statement (sample data) of a table that heard no round
		// says round 0.
		low := 1
		if lines[0] == statementTitleV5 {
			low = 0
		}
		if s.Round, err = strconv.Atoi(v); err != nil || s.Round < low || s.Round > MaxRound {
			return Statement{}, fmt.Errorf("record: statement: round %q: want a round from 1 to %d", clip(v), MaxRound)
		}
	}
	if _, ok := vals["pairing"]; ok {
		if s.Tournament, err = str("tournament"); err != nil {
			return Statement{}, err
		}
		if s.Pairing, err = str("pairing"); err != nil {
			return Statement{}, err
		}
		unpaired := lines[0] == statementTitleV5 && s.Tournament == "" && s.Pairing == ""
		if !unpaired && !ValidID(s.Tournament) {
			return Statement{}, fmt.Errorf("record: statement: tournament %q: want an id of %d to %d letters, digits, '-' or '_'", clip(s.Tournament), minID, maxID)
		}
		if !unpaired && !ValidID(s.Pairing) {
			return Statement{}, fmt.Errorf("record: statement: pairing %q: want an id of %d to %d letters, digits, '-' or '_'", clip(s.Pairing), minID, maxID)
		}
		if unpaired && vals["players"] == "[]" {
			s.Players = nil
		} else if s.Players, err = parsePlayers(vals["players"]); err != nil {
			return Statement{}, err
		}
	}
	if v, ok := vals["sample_data"]; ok {
		if v != "true" {
			return Statement{}, fmt.Errorf("record: statement: sample_data %q: want true (a statement without sample data is v4 or older)", clip(v))
		}
		s.SampleData = true
	}
	if !bytes.Equal(s.Marshal(), data) {
		return Statement{}, errors.New("record: statement: not in canonical form (see record.Statement.Marshal)")
	}
	return s, nil
}

// parseSeats reads a v2 statement's seats: each seat once, numbered from
// 1, with an outcome a standings table knows.
func parseSeats(v string) ([]Seat, error) {
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	seats := []Seat{}
	if err := dec.Decode(&seats); err != nil {
		return nil, fmt.Errorf("record: statement: seats: want a JSON array of seats: %w", err)
	}
	seen := map[int]bool{}
	for i, st := range seats {
		switch {
		case st.Seat < 1 || seen[st.Seat]:
			return nil, fmt.Errorf("record: statement: seats: entry %d: seat %d: want each seat once, from 1", i+1, st.Seat)
		case st.Outcome != Win && st.Outcome != Draw && st.Outcome != Loss:
			return nil, fmt.Errorf("record: statement: seats: seat %d: outcome %q, want %s, %s or %s", st.Seat, clip(st.Outcome), Win, Draw, Loss)
		}
		seen[st.Seat] = true
	}
	return seats, nil
}

// The ids of a v4 statement (the tournament's and the pairing's) are
// minID to maxID letters, digits, '-' or '_': the venue's are 32 hex
// digits (128 random bits).
const (
	minID = 8
	maxID = 64
)

// ValidID says whether id may be a tournament's or a pairing's id.
func ValidID(id string) bool {
	if len(id) < minID || len(id) > maxID {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// MaxPlayers bounds a v4 statement's players (and a player id's length,
// MaxPlayerID bytes).
const (
	MaxPlayers  = 16
	MaxPlayerID = 200
)

// parsePlayers reads a v4 statement's players: 1 to MaxPlayers ids, none
// empty or longer than MaxPlayerID bytes.
func parsePlayers(v string) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(v))
	var players []string
	if err := dec.Decode(&players); err != nil {
		return nil, fmt.Errorf("record: statement: players: want a JSON array of player ids: %w", err)
	}
	if len(players) < 1 || len(players) > MaxPlayers {
		return nil, fmt.Errorf("record: statement: players: %d, want 1 to %d", len(players), MaxPlayers)
	}
	for i, p := range players {
		if p == "" || len(p) > MaxPlayerID {
			return nil, fmt.Errorf("record: statement: players: seat %d: want an id of 1 to %d bytes", i+1, MaxPlayerID)
		}
	}
	return players, nil
}

// signaturePrefix starts a signature file's one line.
const signaturePrefix = "ed25519 "

// Sign signs the statement's canonical bytes and returns the signature
// file: "ed25519 <base64 signature>\n".
func Sign(s Statement, key ed25519.PrivateKey) []byte {
	sig := ed25519.Sign(key, s.Marshal())
	return []byte(signaturePrefix + base64.StdEncoding.EncodeToString(sig) + "\n")
}

// ParseSignature reads a signature file.
func ParseSignature(data []byte) ([]byte, error) {
	line, ok := strings.CutSuffix(string(data), "\n")
	b64, ok2 := strings.CutPrefix(line, signaturePrefix)
	if !ok || !ok2 || strings.Contains(b64, "\n") {
		return nil, fmt.Errorf("record: signature: want one line \"%s<base64>\"", signaturePrefix)
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("record: signature: %w", err)
	}
	if len(sig) != ed25519.SignatureSize {
		return nil, fmt.Errorf("record: signature: %d bytes, an Ed25519 signature has %d", len(sig), ed25519.SignatureSize)
	}
	return sig, nil
}

// ErrBadSignature: the signature is not the key's over the statement.
var ErrBadSignature = errors.New("the signature does not match: the statement was changed after it was signed, or another key signed it")

// VerifyStatement checks a statement file's signature file with a public
// key, and returns the statement.
func VerifyStatement(statement, signature []byte, pub ed25519.PublicKey) (Statement, error) {
	s, err := ParseStatement(statement)
	if err != nil {
		return Statement{}, err
	}
	sig, err := ParseSignature(signature)
	if err != nil {
		return Statement{}, err
	}
	if !ed25519.Verify(pub, statement, sig) {
		return Statement{}, fmt.Errorf("record: key %s: %w", Fingerprint(pub), ErrBadSignature)
	}
	return s, nil
}
