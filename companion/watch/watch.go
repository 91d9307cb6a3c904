// Package watch is the terminal view of one table: the same live state as
// the table screen, drawn as text for a referee with a laptop and no
// browser.
package watch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/rules"
)

// Options configure a watch.
type Options struct {
	Broker   string
	Username string
	Password string
	// Venue may be empty: the table is then found in any venue.
	Venue string
	Table string
	// Lang is pl or en.
	Lang string
	Out  io.Writer
	// Clear redraws in place (a terminal); false appends frames (a log).
	Clear bool
	// Commands, when set, is read line by line for the referee's rulings
	// (n, c, x, u, 1–6), sent to the table's referee/command topic. The
	// broker carries them only for the referee's credentials.
	Commands io.Reader
}

// commandKeys are what a referee types at the watch, and the command each sends.
var commandKeys = map[string]string{
	"n": "next", "next": "next", "c": "confirm", "confirm": "confirm", "x": "cancel", "cancel": "cancel",
	"u": "undo", "undo": "undo", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6",
}

// Screen is what the watch knows of the table.
type Screen struct {
	mu       sync.Mutex
	lang     string
	topic    string
	status   map[string]any
	state    map[string]any
	seq      int64
	events   []string
	fairness []map[string]any
	// commands says keys are read; note is the answer to the last one, and
	// pending the command sent and not yet answered by the table.
	commands bool
	note     string
	pending  string
}

func (s *Screen) setNote(n string) {
	s.mu.Lock()
	s.note = n
	s.mu.Unlock()
}

// sent records a command on its way to the table.
func (s *Screen) sent(name string) {
	s.mu.Lock()
	s.pending = name
	s.note = fmt.Sprintf(s.say("wysłano %s; czekam na stół…", "sent %s; waiting for the table…"), name)
	s.mu.Unlock()
}

// isReferee: the referee's view reaches this connection only with the
// referee's credentials, and only the referee may rule.
func (s *Screen) isReferee() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.topic == "referee/state"
}

func (s *Screen) say(pl, en string) string {
	if s.lang == "en" {
		return en
	}
	return pl
}

// NewScreen returns an empty screen in lang.
func NewScreen(lang string) *Screen { return &Screen{lang: lang} }

const keepEvents = 12

func (s *Screen) text(t rules.Text) string {
	if s.lang == "en" && t.EN != "" {
		return t.EN
	}
	if t.PL != "" {
		return t.PL
	}
	return t.EN
}

// Apply takes one message of the table (topic suffix after the table id:
// status, state, events, referee/...). It reports whether anything changed.
func (s *Screen) Apply(suffix string, payload []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch suffix {
	case "status":
		var m map[string]any
		if json.Unmarshal(payload, &m) != nil {
			return false
		}
		s.status = m
	case "state", "referee/state":
		var m struct {
			Seq      int64          `json:"seq"`
			State    map[string]any `json:"state"`
			Headline *rules.Text    `json:"headline"`
			Fairness []map[string]any
		}
		if json.Unmarshal(payload, &m) != nil {
			return false
		}
		if suffix == "state" && s.topic == "referee/state" {
			return false // the referee's view, when there is one, says more
		}
		if s.pending != "" && suffix == "referee/state" && m.Seq > s.seq {
			s.note = fmt.Sprintf(s.say("stół przyjął %s (seq %d)", "the table took %s (seq %d)"), s.pending, m.Seq)
			s.pending = ""
		}
		s.topic, s.seq, s.state = suffix, m.Seq, m.State
		if s.state == nil {
			s.state = map[string]any{}
		}
		if m.Headline != nil {
			s.state["__headline"] = s.text(*m.Headline)
		}
		if m.Fairness != nil {
			s.fairness = m.Fairness
		}
	case "events", "referee/events":
		var m struct {
			Seq   int64 `json:"seq"`
			Event struct {
				Type string     `json:"type"`
				Text rules.Text `json:"text"`
			} `json:"event"`
		}
		if json.Unmarshal(payload, &m) != nil {
			return false
		}
		line := fmt.Sprintf("#%d %s", m.Seq, s.text(m.Event.Text))
		if m.Event.Type == "command_rejected" && s.pending != "" {
			s.note = fmt.Sprintf(s.say("stół odrzucił %s: %s", "the table refused %s: %s"), s.pending, s.text(m.Event.Text))
			s.pending = ""
		}
		if m.Event.Type == "rejected" || m.Event.Type == "die_suspect" || m.Event.Type == "too_close_to_call" {
			line += "  ◀"
		}
		s.events = append(s.events, line)
		if len(s.events) > keepEvents {
			s.events = s.events[len(s.events)-keepEvents:]
		}
	default:
		return false
	}
	return true
}

func str(m map[string]any, k string) string {
	if v, ok := m[k]; ok && v != nil {
		return fmt.Sprint(v)
	}
	return ""
}

func num(m map[string]any, k string) int {
	if v, ok := m[k].(float64); ok {
		return int(v)
	}
	return 0
}

// Render draws the screen.
func (s *Screen) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	say := s.say
	status := strings.ToUpper(str(s.status, "status"))
	if status == "" {
		status = say("CZEKAM NA STÓŁ", "WAITING FOR THE TABLE")
	}
	fmt.Fprintf(&b, "Sztab · %s / %s · %s · %s · seq %d\n", str(s.status, "venue"), str(s.status, "table"), str(s.status, "game"), status, s.seq)
	if h := str(s.state, "__headline"); h != "" {
		fmt.Fprintln(&b, h)
	}
	b.WriteString(strings.Repeat("─", 60) + "\n")
	if units, ok := s.state["units"].([]any); ok {
		for _, u := range units {
			um, _ := u.(map[string]any)
			models, _ := um["models"].([]any)
			var pips strings.Builder
			alive, hurt := 0, 0
			for _, m := range models {
				mm, _ := m.(map[string]any)
				switch {
				case mm["removed"] == true:
					pips.WriteString("✕")
				case num(mm, "wounds") > 0:
					pips.WriteString("◐")
					alive++
					hurt++
				default:
					pips.WriteString("●")
					alive++
				}
			}
			line := fmt.Sprintf("  %-28s %s %d/%d", str(um, "name"), pips.String(), alive, len(models))
			if hurt > 0 {
				line += fmt.Sprintf(say(" (%d rannych)", " (%d wounded)"), hurt)
			}
			fmt.Fprintln(&b, line)
		}
	}
	if call, ok := s.state["call"].(map[string]any); ok {
		var q rules.Text
		if qm, ok := call["question"].(map[string]any); ok {
			q = rules.Text{PL: str(qm, "pl"), EN: str(qm, "en")}
		}
		fmt.Fprintf(&b, "  ⚠ %s %s\n", say("ROZSTRZYGNIJ:", "RULE:"), s.text(q))
	}
	if sh, ok := s.state["shot"].(map[string]any); ok {
		entered, _ := sh["entered"].([]any)
		fmt.Fprintf(&b, "  %s: %s → %s · %s · %s (%d/%d)\n", say("Strzał", "Shot"), str(sh, "shooter"), str(sh, "target"), str(sh, "weapon"), str(sh, "stage"), len(entered), num(sh, "need"))
		if sh["stage"] == "ruling" {
			fmt.Fprintf(&b, "  ⚠ %s\n", say("za blisko, by rozstrzygnąć pomiarem", "too close to call by measurement"))
		}
	}
	if ls, ok := s.state["last_shot"].(map[string]any); ok {
		wounded, _ := ls["wounded"].([]any)
		killed, _ := ls["killed"].([]any)
		fmt.Fprintf(&b, "  %s: %s → %s: %d/%d/%d · %s %d · %s %d\n", say("Ostatni strzał", "Last shot"), str(ls, "shooter"), str(ls, "target"),
			num(ls, "hits"), num(ls, "wounds"), num(ls, "saved"), say("ranni", "wounded"), len(wounded), say("zabici", "killed"), len(killed))
	}
	if len(s.fairness) > 0 {
		fmt.Fprintln(&b, say("  Uczciwość kości:", "  Dice fairness:"))
		sort.Slice(s.fairness, func(i, j int) bool { return str(s.fairness[i], "key") < str(s.fairness[j], "key") })
		for _, f := range s.fairness {
			flag := "ok"
			if f["loaded"] == true {
				flag = say("PODEJRZANA", "SUSPECT")
			}
			p, _ := f["p_value"].(float64)
			fmt.Fprintf(&b, "    %-24s %4d %s p=%.4f %s\n", str(f, "key"), num(f, "rolls"), say("rzutów", "rolls"), p, flag)
		}
	}
	b.WriteString(strings.Repeat("─", 60) + "\n")
	for i := len(s.events) - 1; i >= 0; i-- {
		fmt.Fprintln(&b, "  "+s.events[i])
	}
	if s.commands {
		b.WriteString(strings.Repeat("─", 60) + "\n")
		fmt.Fprintln(&b, say("Sędzia: n następna faza · c zatwierdź · x anuluj · u cofnij · 1–6 kość, potem Enter",
			"Referee: n next phase · c confirm · x cancel · u undo · 1–6 a die, then Enter"))
		if s.note != "" {
			fmt.Fprintln(&b, "  "+s.note)
		}
	}
	return b.String()
}

// Run follows the table and redraws on every message until ctx ends.
func Run(ctx context.Context, o Options) error {
	if o.Table == "" || strings.ContainsAny(o.Table, "+#/") {
		return fmt.Errorf("watch: --table %q is not a table id", o.Table)
	}
	if !strings.Contains(o.Broker, "://") {
		return fmt.Errorf("watch: --broker %q is not a URL like tcp://host:1883", o.Broker)
	}
	venue := o.Venue
	if venue == "" {
		venue = "+"
	}
	screen := NewScreen(o.Lang)
	screen.commands = o.Commands != nil
	redraw := make(chan struct{}, 1)
	poke := func() {
		select {
		case redraw <- struct{}{}:
		default:
		}
	}
	var baseMu sync.Mutex
	base := "" // sztab/v1/{venue}/{table}/, once a message of the table is seen
	prefix := len(strings.Split("sztab/v1/v/t/", "/")) - 1
	opts := paho.NewClientOptions().AddBroker(o.Broker).
		SetClientID(fmt.Sprintf("sztab-watch-%s-%d", o.Table, time.Now().UnixNano()%1e6)).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).SetCleanSession(true)
	if o.Username != "" {
		opts.SetUsername(o.Username).SetPassword(o.Password)
	}
	opts.SetOnConnectHandler(func(c paho.Client) {
		c.Subscribe("sztab/v1/"+venue+"/"+o.Table+"/#", 1, func(_ paho.Client, m paho.Message) {
			parts := strings.SplitN(m.Topic(), "/", prefix+1)
			if len(parts) != prefix+1 {
				return
			}
			baseMu.Lock()
			base = strings.Join(parts[:prefix], "/") + "/"
			baseMu.Unlock()
			if screen.Apply(parts[prefix], m.Payload()) {
				poke()
			}
		})
	})
	c := paho.NewClient(opts)
	c.Connect()
	defer c.Disconnect(200)
	if o.Commands != nil {
		go func() {
			lines := bufio.NewScanner(o.Commands)
			for n := 1; lines.Scan(); n++ {
				baseMu.Lock()
				topic := base
				baseMu.Unlock()
				screen.send(c, topic, strings.TrimSpace(lines.Text()), n)
				poke()
			}
		}()
	}
	draw := func() {
		frame := screen.Render()
		if o.Clear {
			frame = "\x1b[H\x1b[2J" + frame
		} else {
			frame += "\n"
		}
		io.WriteString(o.Out, frame)
	}
	draw()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-redraw:
			draw()
		}
	}
}

// send sends the referee's typed key to the table at base and notes what
// became of it.
func (s *Screen) send(c paho.Client, base, typed string, n int) {
	name, ok := commandKeys[strings.ToLower(typed)]
	switch {
	case !ok:
		s.setNote(fmt.Sprintf(s.say("nieznany klawisz %q", "unknown key %q"), typed))
		return
	case base == "":
		s.setNote(s.say("stół jeszcze się nie odezwał; spróbuj za chwilę", "the table has not been heard yet; try again in a moment"))
		return
	case !s.isReferee():
		// A publish the broker may not take would get this client
		// disconnected, and resent at every reconnect.
		s.setNote(s.say("rozstrzyga tylko sędzia: to połączenie nie widzi widoku sędziego (--username/--password sędziego)",
			"only the referee rules: this connection does not see the referee's view (use the referee's --username/--password)"))
		return
	}
	opts := c.OptionsReader()
	payload, _ := json.Marshal(map[string]string{"name": name, "id": fmt.Sprintf("%s-%d", opts.ClientID(), n)})
	s.sent(name) // before the publish: the table may answer before the broker's ack
	tok := c.Publish(base+"referee/command", 1, false, payload)
	failed := ""
	switch {
	case !tok.WaitTimeout(5 * time.Second):
		failed = fmt.Sprintf(s.say("nie wysłano %s: broker nie potwierdził w ciągu 5 s", "%s not sent: the broker did not acknowledge within 5 s"), name)
	case tok.Error() != nil:
		failed = fmt.Sprintf(s.say("nie wysłano %s: %v", "%s not sent: %v"), name, tok.Error())
	}
	if failed != "" {
		s.mu.Lock()
		s.pending, s.note = "", failed
		s.mu.Unlock()
	}
}
