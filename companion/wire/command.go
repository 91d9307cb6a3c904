package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sztab/sztab/rules"
)

// Sender is who sends a command.
type Sender uint8

const (
	// Keys are the table's keypads and buttons.
	Keys Sender = 1 << iota
	// Seat is a player, for their own seat (their page, their MQTT topic,
	// the keypad wired to their seat).
	Seat
	// Ref is the referee (their page, the watch, the referee's topic).
	Ref
	Anyone = Keys | Seat | Ref
)

var senderNames = []struct {
	bit  Sender
	name string
}{{Keys, "keys"}, {Seat, "player"}, {Ref, "referee"}}

// MarshalJSON lists the senders by name: ["keys","player","referee"].
func (s Sender) MarshalJSON() ([]byte, error) {
	names := []string{}
	for _, n := range senderNames {
		if s&n.bit != 0 {
			names = append(names, n.name)
		}
	}
	return json.Marshal(names)
}

// UnmarshalJSON reads what MarshalJSON wrote; an unknown name is an error.
func (s *Sender) UnmarshalJSON(b []byte) error {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return fmt.Errorf("wire: senders: %w", err)
	}
	*s = 0
next:
	for _, name := range names {
		for _, n := range senderNames {
			if n.name == name {
				*s |= n.bit
				continue next
			}
		}
		return fmt.Errorf("wire: senders: unknown sender %q", name)
	}
	return nil
}

// CommandSpec is one command of a game's vocabulary: what a key is called,
// what its button says and who may send it.
type CommandSpec struct {
	// Name is the command and the key name in keypad configs ("next", "3").
	Name  string     `json:"name"`
	Label rules.Text `json:"label"`
	From  Sender     `json:"from"`
	// Watch is what a referee types at the terminal watch for it ("n");
	// empty: the name itself.
	Watch string `json:"watch,omitempty"`
	// Args name the command's arguments, for the pages and the docs (a
	// move's courier and field). A command without Args takes none; the
	// game checks the values it is given.
	Args []string `json:"args,omitempty"`
	// Text says the command takes a text (a reason, a question, an
	// answer: Command.Text); Action that it takes a game action as JSON
	// (Command.Action: a correction's new action).
	Text   bool `json:"text,omitempty"`
	Action bool `json:"action,omitempty"`
}

// Vocabulary is a game's commands, in the order its buttons are shown.
type Vocabulary []CommandSpec

// Lookup finds a command by name.
func (v Vocabulary) Lookup(name string) (CommandSpec, bool) {
	for _, c := range v {
		if c.Name == name {
			return c, true
		}
	}
	return CommandSpec{}, false
}

// Names lists the commands from may send.
func (v Vocabulary) Names(from Sender) []string {
	var out []string
	for _, c := range v {
		if c.From&from != 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

// For is the part of the vocabulary from may send.
func (v Vocabulary) For(from Sender) Vocabulary {
	var out Vocabulary
	for _, c := range v {
		if c.From&from != 0 {
			out = append(out, c)
		}
	}
	return out
}

// WatchKey maps what was typed at the watch to a command name.
func (v Vocabulary) WatchKey(typed string) (string, bool) {
	typed = strings.ToLower(strings.TrimSpace(typed))
	for _, c := range v {
		if typed == c.Name || (c.Watch != "" && typed == c.Watch) {
			return c.Name, true
		}
	}
	return "", false
}

// DiceKeys are the commands "1"–"6" that enter a die read off the table.
func DiceKeys(from Sender) Vocabulary {
	var out Vocabulary
	for v := 1; v <= 6; v++ {
		n := fmt.Sprint(v)
		out = append(out, CommandSpec{Name: n, Label: rules.Text{PL: "kość " + n, EN: "die " + n}, From: from})
	}
	return out
}

// Command is one command sent to a table: from a page's button, an MQTT
// command topic or the watch. A table's own keys become commands too.
type Command struct {
	Name string `json:"name"`
	// ID, when given, makes a command sent twice (an MQTT redelivery) count
	// once, and names the command in its answer.
	ID string `json:"id,omitempty"`
	// Args are the command's arguments, when its spec names some.
	Args []string `json:"args,omitempty"`
	// Text is the command's text (at most MaxTextBytes), when its spec
	// takes one; Action its game action (JSON), when its spec takes one.
	Text   string          `json:"text,omitempty"`
	Action json.RawMessage `json:"action,omitempty"`
}

// MaxCommandBytes bounds a command's JSON; MaxCommandArgs and MaxArgBytes
// bound its arguments.
const (
	MaxCommandBytes = 4096
	MaxCommandArgs  = 8
	MaxArgBytes     = 64
	MaxTextBytes    = 500
)

// ParseCommand reads one command (JSON, at most MaxCommandBytes) and checks
// that its name is in the vocabulary and that from may send it.
func ParseCommand(data []byte, v Vocabulary, from Sender) (Command, error) {
	if len(data) > MaxCommandBytes {
		return Command{}, fmt.Errorf("wire: command: %d bytes, at most %d", len(data), MaxCommandBytes)
	}
	var c Command
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Command{}, fmt.Errorf("wire: command: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Command{}, errors.New("wire: command: more than one JSON value")
	}
	if len(c.ID) > 128 || !utf8.ValidString(c.ID) {
		return Command{}, errors.New("wire: command: id longer than 128 bytes or not UTF-8")
	}
	spec, ok := v.Lookup(c.Name)
	if !ok || spec.From&from == 0 {
		return Command{}, fmt.Errorf("wire: unknown command %q (want %s)", c.Name, strings.Join(v.Names(from), ", "))
	}
	if err := checkArgs(c.Args, spec); err != nil {
		return Command{}, err
	}
	if len(c.Args) == 0 {
		c.Args = nil
	}
	switch {
	case c.Text != "" && !spec.Text:
		return Command{}, fmt.Errorf("wire: command %q takes no text", spec.Name)
	case len(c.Text) > MaxTextBytes || !utf8.ValidString(c.Text) || strings.ContainsFunc(c.Text, isControl):
		return Command{}, fmt.Errorf("wire: command %q: text longer than %d bytes, not UTF-8 or holds control characters", spec.Name, MaxTextBytes)
	case len(c.Action) > 0 && !spec.Action:
		return Command{}, fmt.Errorf("wire: command %q takes no action", spec.Name)
	case len(c.Action) > 0 && (string(c.Action) == "null" || c.Action[0] != '{'):
		return Command{}, fmt.Errorf("wire: command %q: the action is a JSON object", spec.Name)
	}
	return c, nil
}

func checkArgs(args []string, spec CommandSpec) error {
	switch {
	case len(args) > 0 && len(spec.Args) == 0:
		return fmt.Errorf("wire: command %q takes no arguments", spec.Name)
	case len(args) > MaxCommandArgs:
		return fmt.Errorf("wire: command %q: %d arguments, at most %d", spec.Name, len(args), MaxCommandArgs)
	}
	for i, a := range args {
		if len(a) > MaxArgBytes || !utf8.ValidString(a) || strings.ContainsFunc(a, unicode.IsControl) {
			return fmt.Errorf("wire: command %q: argument %d is longer than %d bytes, not UTF-8 or holds control characters", spec.Name, i+1, MaxArgBytes)
		}
	}
	return nil
}

// isControl is a control character other than a line break or a tab (a
// text may have lines).
func isControl(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }

// CommandResult answers one command, on the events topic of the sender's
// audience: taken (with the seq of the last entry it produced) or refused
// (with a code and a reason).
type CommandResult struct {
	Type string `json:"type"` // "command_result"
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// From is the device or page the command came from.
	From string `json:"from,omitempty"`
	OK   bool   `json:"ok"`
	Seq  int64  `json:"seq,omitempty"`
	Code string `json:"code,omitempty"`
	// Text says what happened, for the sender.
	Text rules.Text `json:"text"`
}

// ResultType is the event type of a CommandResult.
const ResultType = "command_result"
