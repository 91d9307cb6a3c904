// Package watch is the terminal view of one table: the same live state as
// the table screen, drawn as text for a referee with a laptop and no
// browser.
package watch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/rules/dice"
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
	// NoStatusAfter is how long the watch waits, once connected, for the
	// table's status before it says there is no such table (0: 10 s). A
	// running daemon's status is retained, so it comes at once.
	NoStatusAfter time.Duration
}

// DefaultNoStatusAfter is NoStatusAfter's default.
const DefaultNoStatusAfter = 10 * time.Second

// link is how far the watch got with the broker, said on the screen while
// the table is not heard: a watch that only waits never says why.
type link int

const (
	linkConnecting  link = iota
	linkUnreachable      // the broker's address does not answer
	linkRefused          // the broker answers and refuses the login
	linkConnected
)

// Screen is what the watch knows of the table.
type Screen struct {
	mu       sync.Mutex
	lang     string
	topic    string
	status   wire.StatusMessage
	headline string
	finished bool
	summary  []rules.Text
	seq      int64
	events   []string
	fairness []dice.FairnessReport
	// diceNames are the fairness sources in words, by key.
	diceNames map[string]rules.Text
	// commands says keys are read; note is the answer to the last one, and
	// pending the command sent and not yet answered by the table.
	commands bool
	note     string
	pending  string
	// pendingID is the id of the command sent and not yet answered.
	pendingID string
	// link, broker, user and why: the connection, said while the table is
	// not heard; noStatus, once set, is how long the table was awaited.
	link     link
	table    string
	broker   string
	user     string
	why      string
	noStatus time.Duration
}

// Connecting notes an attempt to reach the broker at addr as user.
func (s *Screen) Connecting(addr, user string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broker, s.user = addr, user
	if s.link == linkConnected {
		s.link = linkConnecting
	}
}

// Connected notes that the broker took the login.
func (s *Screen) Connected() {
	s.mu.Lock()
	s.link, s.why = linkConnected, ""
	s.mu.Unlock()
}

// Failed notes why the broker was not reached: a refused login, or an
// address that does not answer.
func (s *Screen) Failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.link, s.why = linkUnreachable, err.Error()
	if errors.Is(err, packets.ErrorRefusedBadUsernameOrPassword) || errors.Is(err, packets.ErrorRefusedNotAuthorised) {
		s.link = linkRefused
	}
}

// NoStatus notes that the table's status did not come within d of the
// connection; it reports whether the screen changed.
func (s *Screen) NoStatus(d time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status.Status != "" || s.link != linkConnected {
		return false
	}
	s.noStatus = d
	return true
}

// waiting says why the table is not shown: the broker's address, the login
// or the table id.
func (s *Screen) waiting() (status, detail string) {
	say := s.say
	switch s.link {
	case linkUnreachable:
		return say("BROKER NIEOSIĄGALNY", "BROKER UNREACHABLE"),
			fmt.Sprintf(say("broker nieosiągalny pod %s (%s); sprawdź --broker i czy broker działa",
				"broker unreachable at %s (%s); check --broker and that the broker runs"), s.broker, s.why)
	case linkRefused:
		return say("LOGOWANIE ODRZUCONE", "LOGIN REFUSED"),
			fmt.Sprintf(say("broker %s odrzucił logowanie użytkownika %q (%s); sprawdź --username i hasło",
				"login refused by the broker at %s for user %q (%s); check --username and the password"), s.broker, s.user, s.why)
	case linkConnected:
		if s.noStatus > 0 {
			return say("NIE MA TAKIEGO STOŁU", "NO SUCH TABLE"),
				fmt.Sprintf(say("nie ma takiego stołu: brak statusu stołu %q w ciągu %v od połączenia z %s; sprawdź --table i --venue",
					"no such table: no status of table %q within %v of connecting to %s; check --table and --venue"), s.table, s.noStatus, s.broker)
		}
		return say("CZEKAM NA STÓŁ", "WAITING FOR THE TABLE"), ""
	}
	return say("ŁĄCZĘ Z BROKEREM", "CONNECTING TO THE BROKER"), fmt.Sprintf(say("łączę z %s…", "connecting to %s…"), s.broker)
}

func (s *Screen) setNote(n string) {
	s.mu.Lock()
	s.note = n
	s.mu.Unlock()
}

// sent records a command on its way to the table.
func (s *Screen) sent(name, id string) {
	s.mu.Lock()
	s.pending, s.pendingID = name, id
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
func NewScreen(lang string) *Screen { return &Screen{lang: lang, link: linkConnected} }

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
// The watch knows no game: it shows the summary lines the table sends.
func (s *Screen) Apply(suffix string, payload []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.link = linkConnected // a message came through the broker
	switch suffix {
	case "status":
		var m wire.StatusMessage
		if json.Unmarshal(payload, &m) != nil {
			return false
		}
		s.status = m
	case "state", "referee/state":
		var m wire.StateMessage
		if json.Unmarshal(payload, &m) != nil {
			return false
		}
		if suffix == "state" && s.topic == "referee/state" {
			return false // the referee's view, when there is one, says more
		}
		s.topic, s.seq, s.summary, s.headline, s.finished = suffix, m.Seq, m.Summary, "", m.Finished
		if m.Headline != nil {
			s.headline = s.text(*m.Headline)
		}
		if m.Fairness != nil {
			s.fairness, s.diceNames = m.Fairness, m.DiceNames
		}
	case "events", "referee/events":
		var m struct {
			Seq   int64 `json:"seq"`
			Event struct {
				Type string     `json:"type"`
				Text rules.Text `json:"text"`
				ID   string     `json:"id"`
				OK   bool       `json:"ok"`
				Seq  int64      `json:"seq"`
			} `json:"event"`
		}
		if json.Unmarshal(payload, &m) != nil {
			return false
		}
		ev := m.Event
		if ev.Type == wire.ResultType {
			if s.pendingID == "" || ev.ID != s.pendingID {
				return false // another sender's answer
			}
			if ev.OK {
				s.note = fmt.Sprintf(s.say("stół przyjął %s (seq %d)", "the table took %s (seq %d)"), s.pending, ev.Seq)
			} else {
				s.note = fmt.Sprintf(s.say("stół odrzucił %s: %s", "the table refused %s: %s"), s.pending, s.text(ev.Text))
			}
			s.pending, s.pendingID = "", ""
			return true
		}
		line := fmt.Sprintf("#%d %s", m.Seq, s.text(ev.Text))
		// Marked by the contract (its notices that ask for attention) and
		// by what the game declared in the table's status: the watch
		// knows no game's types.
		if wire.NoticeType(ev.Type).Attention() || slices.Contains(s.status.Attention, ev.Type) {
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

// Render draws the screen.
func (s *Screen) Render() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	say := s.say
	status, detail := strings.ToUpper(s.status.Status), ""
	inStatus := false // the result is said in the status line
	if status == "" || s.link != linkConnected {
		status, detail = s.waiting()
	} else if s.finished {
		inStatus = s.headline != ""
		// A finished game's table is still online; what a referee needs
		// is that the game is over and who won (the headline is the
		// result, the text every other place shows).
		status = say("KONIEC GRY", "FINISHED")
		if s.headline != "" {
			status += " · " + s.headline
		}
	}
	fmt.Fprintf(&b, "Sztab · %s / %s · %s · %s · seq %d\n", s.status.Venue, s.status.Table, s.status.Game, status, s.seq)
	if detail != "" {
		fmt.Fprintln(&b, "  "+detail)
	}
	if s.headline != "" && !inStatus {
		fmt.Fprintln(&b, s.headline)
	}
	b.WriteString(strings.Repeat("─", 60) + "\n")
	for _, l := range s.summary {
		if line := s.text(l); line != s.headline {
			fmt.Fprintln(&b, "  "+line)
		}
	}
	if len(s.fairness) > 0 {
		fmt.Fprintln(&b, say("  Uczciwość kości:", "  Dice fairness:"))
		sort.Slice(s.fairness, func(i, j int) bool { return s.fairness[i].Key < s.fairness[j].Key })
		for _, f := range s.fairness {
			flag := "ok"
			if f.Loaded {
				flag = say("PODEJRZANA", "SUSPECT")
			}
			name := f.Key
			if n, ok := s.diceNames[f.Key]; ok {
				name = s.text(n)
			}
			fmt.Fprintf(&b, "    %-24s %4d %s p=%.4f %s\n", name, f.Rolls, say("rzutów", "rolls"), f.PValue, flag)
		}
	}
	b.WriteString(strings.Repeat("─", 60) + "\n")
	for i := len(s.events) - 1; i >= 0; i-- {
		fmt.Fprintln(&b, "  "+s.events[i])
	}
	if s.commands && s.link == linkConnected {
		// No keys before the broker took the login: a refused
		// login is no referee.
		b.WriteString(strings.Repeat("─", 60) + "\n")
		var keys []string
		for _, c := range s.status.Commands.For(wire.Ref) {
			k := c.Name
			if c.Watch != "" {
				k = c.Watch
			}
			keys = append(keys, k+" "+s.text(c.Label))
		}
		fmt.Fprintln(&b, say("Sędzia (klawisz, potem Enter): ", "Referee (a key, then Enter): ")+strings.Join(keys, " · "))
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
	screen.link, screen.table, screen.broker, screen.user = linkConnecting, o.Table, o.Broker, o.Username
	noStatusAfter := o.NoStatusAfter
	if noStatusAfter <= 0 {
		noStatusAfter = DefaultNoStatusAfter
	}
	var timeOnce sync.Once
	var noStatus *time.Timer
	defer func() {
		timeOnce.Do(func() {}) // no timer after the return
		if noStatus != nil {
			noStatus.Stop()
		}
	}()
	redraw := make(chan struct{}, 1)
	poke := func() {
		select {
		case redraw <- struct{}{}:
		default:
		}
	}
	var baseMu sync.Mutex
	var base wire.Topics // the table's, once a message of it is seen
	opts := paho.NewClientOptions().AddBroker(o.Broker).
		SetClientID(fmt.Sprintf("sztab-watch-%s-%d", o.Table, time.Now().UnixNano()%1e6)).
		SetAutoReconnect(true).SetConnectRetry(true).SetConnectRetryInterval(time.Second).SetCleanSession(true).
		// MQTT 3.1.1 only: a refused login is then said as refused, not
		// as paho's retry in 3.1.
		SetProtocolVersion(4).
		SetConnectionNotificationHandler(func(_ paho.Client, n paho.ConnectionNotification) {
			switch n := n.(type) {
			case paho.ConnectionNotificationConnecting:
				screen.Connecting(o.Broker, o.Username)
			case paho.ConnectionNotificationFailed:
				screen.Failed(n.Reason)
			case paho.ConnectionNotificationLost:
				reason := errors.New("connection lost")
				if n.Reason != nil {
					reason = fmt.Errorf("connection lost: %w", n.Reason)
				}
				screen.Failed(reason)
			default:
				return
			}
			poke()
		})
	if o.Username != "" {
		opts.SetUsername(o.Username).SetPassword(o.Password)
	}
	opts.SetOnConnectHandler(func(c paho.Client) {
		screen.Connected()
		poke()
		timeOnce.Do(func() {
			noStatus = time.AfterFunc(noStatusAfter, func() {
				if screen.NoStatus(noStatusAfter) {
					poke()
				}
			})
		})
		c.Subscribe(wire.TableFilter(venue, o.Table), 1, func(_ paho.Client, m paho.Message) {
			t, ok := wire.ParseTopic(m.Topic())
			if !ok {
				return
			}
			baseMu.Lock()
			base = wire.TopicsFor(t.Venue, t.Table)
			baseMu.Unlock()
			if screen.Apply(t.Suffix, m.Payload()) {
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
func (s *Screen) send(c paho.Client, base wire.Topics, typed string, n int) {
	// A command that takes a text (the referee's answer to a call, a
	// reason) is typed with it: "answer it is legal, play on".
	key, text, _ := strings.Cut(typed, " ")
	s.mu.Lock()
	name, ok := s.status.Commands.For(wire.Ref).WatchKey(typed)
	if spec, found := s.status.Commands.For(wire.Ref).Lookup(strings.ToLower(key)); !ok && found && spec.Text {
		name, ok = spec.Name, true
	} else {
		text = ""
	}
	s.mu.Unlock()
	switch {
	case !ok:
		s.setNote(fmt.Sprintf(s.say("nieznany klawisz %q", "unknown key %q"), typed))
		return
	case base.Base == "":
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
	cmd := wire.Command{Name: name, ID: fmt.Sprintf("%s-%d", opts.ClientID(), n), Text: strings.TrimSpace(text)}
	payload, _ := json.Marshal(cmd)
	s.sent(name, cmd.ID) // before the publish: the table may answer before the broker's ack
	tok := c.Publish(base.RefereeCommand, 1, false, payload)
	failed := ""
	switch {
	case !tok.WaitTimeout(5 * time.Second):
		failed = fmt.Sprintf(s.say("nie wysłano %s: broker nie potwierdził w ciągu 5 s", "%s not sent: the broker did not acknowledge within 5 s"), name)
	case tok.Error() != nil:
		failed = fmt.Sprintf(s.say("nie wysłano %s: %v", "%s not sent: %v"), name, tok.Error())
	}
	if failed != "" {
		s.mu.Lock()
		s.pending, s.pendingID, s.note = "", "", failed
		s.mu.Unlock()
	}
}
