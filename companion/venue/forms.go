package venue

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sztab/sztab/companion/record"
)

// Limits of the organiser's forms.
const (
	// MaxSeats is the most seats a correction names (the games have 2–6).
	MaxSeats = 8
	// MaxRounds bounds a round number.
	MaxRounds = 999
	// MaxReason bounds a correction's reason, in characters.
	MaxReason = 500
	// maxTableID bounds a table id (an MQTT topic level).
	maxTableID = 64
	maxScore   = 1_000_000
)

// Correction is an organiser's correction of one table's result.
type Correction struct {
	Round int
	Table string
	Seats []record.Seat
	Why   string
}

// ParseRound reads a form's round number (field).
func ParseRound(form url.Values, field string) (int, error) {
	v := strings.TrimSpace(form.Get(field))
	if v == "" {
		return 0, fmt.Errorf("venue: form: %s: missing", field)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxRounds {
		return 0, fmt.Errorf("venue: form: %s %q: want a round number 1–%d", field, clip(v), MaxRounds)
	}
	return n, nil
}

// ParseTable reads a form's table id (field): what a table may be called
// in a topic level, at most 64 bytes.
func ParseTable(form url.Values, field string) (string, error) {
	v := strings.TrimSpace(form.Get(field))
	switch {
	case v == "":
		return "", fmt.Errorf("venue: form: %s: missing", field)
	case len(v) > maxTableID || strings.ContainsAny(v, "+#/") || strings.IndexFunc(v, unicode.IsControl) >= 0 || !utf8.ValidString(v):
		return "", fmt.Errorf("venue: form: %s %q: not a table id", field, clip(v))
	}
	return v, nil
}

// ParseReason reads an organiser's reason (field): required, at most
// MaxReason characters of text (line breaks and tabs allowed).
func ParseReason(form url.Values, field string) (string, error) {
	why := strings.TrimSpace(form.Get(field))
	switch {
	case why == "":
		return "", fmt.Errorf("venue: form: %s: missing (the audit trail says why)", field)
	case !utf8.ValidString(why) || utf8.RuneCountInString(why) > MaxReason:
		return "", fmt.Errorf("venue: form: %s: want UTF-8 text of at most %d characters", field, MaxReason)
	case strings.IndexFunc(why, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }) >= 0:
		return "", fmt.Errorf("venue: form: %s: control characters", field)
	}
	return why, nil
}

// ParseCorrection reads the correction form: round, table, reason, and
// for each seat n (1–8) given, outcome<n> (win, draw, loss) and score<n>
// (an integer, empty is 0). Seats must run 1, 2, … without a gap.
func ParseCorrection(form url.Values) (Correction, error) {
	var c Correction
	var err error
	if c.Round, err = ParseRound(form, "round"); err != nil {
		return Correction{}, err
	}
	if c.Table, err = ParseTable(form, "table"); err != nil {
		return Correction{}, err
	}
	if c.Why, err = ParseReason(form, "reason"); err != nil {
		return Correction{}, err
	}
	for n := 1; n <= MaxSeats; n++ {
		k := strconv.Itoa(n)
		outcome := strings.TrimSpace(form.Get("outcome" + k))
		score := strings.TrimSpace(form.Get("score" + k))
		if outcome == "" {
			if score != "" {
				return Correction{}, fmt.Errorf("venue: form: seat %d: a score without an outcome", n)
			}
			for m := n + 1; m <= MaxSeats; m++ {
				if form.Get("outcome"+strconv.Itoa(m)) != "" {
					return Correction{}, fmt.Errorf("venue: form: seat %d has no outcome but seat %d has: seats run 1, 2, … without a gap", n, m)
				}
			}
			break
		}
		if outcome != record.Win && outcome != record.Draw && outcome != record.Loss {
			return Correction{}, fmt.Errorf("venue: form: seat %d: outcome %q, want %s, %s or %s", n, clip(outcome), record.Win, record.Draw, record.Loss)
		}
		s := 0
		if score != "" {
			if s, err = strconv.Atoi(score); err != nil || s < -maxScore || s > maxScore {
				return Correction{}, fmt.Errorf("venue: form: seat %d: score %q, want a whole number within ±%d", n, clip(score), maxScore)
			}
		}
		c.Seats = append(c.Seats, record.Seat{Seat: n, Outcome: outcome, Score: s})
	}
	if len(c.Seats) == 0 {
		return Correction{}, fmt.Errorf("venue: form: no seat's outcome given")
	}
	return c, nil
}

// clip shortens a value quoted in an error.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	for i := 40; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return ""
}
