package review

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/rules"
)

// WriteText prints a moment for the terminal (`sztab review --at`): the
// entry, the state after it, its evidence, and the rulings up to it, in
// lang ("pl" or "en").
func WriteText(w io.Writer, id companion.JournalIdentity, m *Moment, lang string) error {
	say := func(t rules.Text) string {
		if lang == "pl" {
			return t.PL
		}
		return t.EN
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: entry %d of %d\n", id, m.Seq, m.Last)
	fmt.Fprintf(&b, "entry %d  %s  %s  hash %s\n", m.Seq, m.At.UTC().Format(time.RFC3339Nano), m.Kind, m.Hash)
	fmt.Fprintf(&b, "  body: %s\n", compact(m.Body))
	for _, ev := range m.Events {
		var e struct {
			Type string     `json:"type"`
			Text rules.Text `json:"text"`
		}
		if json.Unmarshal(ev, &e) == nil && (e.Text.PL != "" || e.Text.EN != "") {
			fmt.Fprintf(&b, "  event %s: %s\n", e.Type, say(e.Text))
		} else {
			fmt.Fprintf(&b, "  event: %s\n", compact(ev))
		}
	}

	fmt.Fprintf(&b, "\nstate after entry %d:\n", m.Seq)
	if t := say(m.Headline); t != "" && (len(m.Summary) == 0 || say(m.Summary[0]) != t) {
		fmt.Fprintf(&b, "  %s\n", t)
	}
	for _, t := range m.Summary {
		fmt.Fprintf(&b, "  %s\n", say(t))
	}
	if m.Finished {
		b.WriteString("  the game is over\n")
	}

	b.WriteString("\nevidence:\n")
	writeEvidence(&b, m)

	fmt.Fprintf(&b, "\nrulings and corrections through entry %d:\n", m.Seq)
	if len(m.Rulings) == 0 {
		b.WriteString("  none recorded\n")
	}
	for _, r := range m.Rulings {
		fmt.Fprintf(&b, "  entry %d  %s  %s: %s\n", r.Seq, r.At.UTC().Format(time.RFC3339), r.Kind, compact(r.Body))
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writeEvidence(b *bytes.Buffer, m *Moment) {
	if m.EvidenceError != "" {
		fmt.Fprintf(b, "  unreadable (%s); the events as stored: %s\n", m.EvidenceError, compact(m.Raw))
		return
	}
	ev := m.Evidence
	if ev == nil {
		b.WriteString("  none recorded (no input made this entry, or it was made before evidence was kept)\n")
		return
	}
	switch {
	case ev.Tag != nil:
		t := ev.Tag
		what := "not in the tag registry"
		if t.ID != "" {
			what = t.Kind + " " + t.ID
		}
		state := "laid on"
		if !t.Present {
			state = "taken off"
		}
		fmt.Fprintf(b, "  input: tag %s %s reader %s (%s)", t.UID, state, t.Reader, what)
		if t.Data != "" {
			fmt.Fprintf(b, ", data %s", t.Data)
		}
		b.WriteString("\n")
	case ev.Key != nil:
		k := ev.Key
		fmt.Fprintf(b, "  input: key %q on %s", k.Key, k.Keypad)
		if k.Long {
			b.WriteString(" (long press)")
		}
		if len(k.Args) > 0 {
			fmt.Fprintf(b, ", arguments %s", strings.Join(k.Args, " "))
		}
		if k.From != "" {
			fmt.Fprintf(b, ", from %s", k.From)
		}
		if k.ID != "" {
			fmt.Fprintf(b, ", command id %s", k.ID)
		}
		b.WriteString("\n")
	default:
		fmt.Fprintf(b, "  input: %s\n", ev.Input)
	}
	for _, d := range ev.Dice {
		fmt.Fprintf(b, "  die: %d (%s", d.Value, d.Origin)
		if d.Device != "" {
			fmt.Fprintf(b, " %s", d.Device)
		}
		if d.Confidence > 0 {
			fmt.Fprintf(b, ", confidence %.2f", d.Confidence)
		}
		b.WriteString(")\n")
	}
	if s := ev.Snapshot; s != nil {
		which := "the last camera snapshot before it"
		if s.Current {
			which = "this entry's input"
		}
		fmt.Fprintf(b, "  snapshot %d (%s)", s.Seq, which)
		if !s.Time.IsZero() {
			fmt.Fprintf(b, " at %s", s.Time.UTC().Format(time.RFC3339Nano))
		}
		fmt.Fprintf(b, ": %d of %d models", len(s.Models), s.Total)
		switch s.Only {
		case "involved":
			b.WriteString(" (only those the entry involves: the snapshot was over the size bound)")
		case "bound":
			b.WriteString(" (cut to the size bound)")
		}
		if s.CalibrationMM > 0 {
			fmt.Fprintf(b, ", calibration ±%.1f mm", s.CalibrationMM)
		}
		b.WriteString("\n")
		for _, p := range s.Models {
			fmt.Fprintf(b, "    %s (%s) at %.1f, %.1f mm ±%.1f", p.ID, p.Unit, p.X, p.Y, p.SigmaMM)
			if p.Cover != "" {
				fmt.Fprintf(b, ", %s cover", p.Cover)
			}
			if p.Occluded {
				b.WriteString(", not seen (last known position)")
			}
			b.WriteString("\n")
		}
		for _, d := range s.Distances {
			fmt.Fprintf(b, "    %s–%s: %.1f ± %.1f kroki\n", d.A, d.B, d.Kroki, d.BoundKroki)
		}
		for _, p := range s.Pieces {
			fmt.Fprintf(b, "    %s: %d %s", p.Node, p.Count, p.Colour)
			if p.Confidence > 0 {
				fmt.Fprintf(b, " (confidence %.2f)", p.Confidence)
			}
			b.WriteString("\n")
		}
		for _, w := range s.Warnings {
			fmt.Fprintf(b, "    camera warning: %s\n", w)
		}
	}
	if ev.Image != nil {
		fmt.Fprintf(b, "  image: sha256 %s, %d bytes: %s\n", ev.Image.SHA256, ev.Image.Bytes, imageWord(m.Image))
	}
}

func imageWord(state string) string {
	switch state {
	case "present":
		return "beside the journal, unchanged"
	case "pruned":
		return "pruned by the storage policy"
	case "missing":
		return "MISSING (not pruned by the policy)"
	}
	return "CHANGED: " + state
}

func compact(b []byte) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}
