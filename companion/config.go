// Package companion is the daemon: it reads the table's configuration, binds
// sensor events to the actions of the game in play, journals every accepted
// action in SQLite before anything is published, and publishes the state and
// events over MQTT.
package companion

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/internal/yamlsafe"
	"github.com/sztab/sztab/vision"
)

// Config is a table's configuration file.
type Config struct {
	Venue    string `yaml:"venue"`
	Table    string `yaml:"table"`
	Game     string `yaml:"game"`
	Language string `yaml:"language"`
	// Journal is the SQLite file of the session; relative to the config file.
	Journal string `yaml:"journal"`
	// JournalDir, instead of Journal, keeps a journal per game in a
	// directory (game-0001.db, game-0002.db, …; relative to the config
	// file): the table plays the newest, and the referee's new_game
	// command starts the next (see NextGame).
	JournalDir string `yaml:"journal_dir"`
	// Tags is the tag registry file; relative to the config file.
	Tags string `yaml:"tags"`
	// ResultKey is the table's private key (PEM, from sztab keygen),
	// relative to the config file: the result statement published on
	// .../result once the game is over is signed with it. Empty: published
	// unsigned (a venue shows it and does not count it).
	ResultKey string `yaml:"result_key"`
	// Box is the box pack the game's engine loads its cards and boards
	// from (a directory, relative to the config file; docs/box.md).
	// Empty: the shipped sample (assumed) data.
	Box      string          `yaml:"box"`
	MQTT     MQTTConfig      `yaml:"mqtt"`
	Measure  MeasureConfig   `yaml:"measure"`
	Dice     DiceConfig      `yaml:"dice"`
	Hardware hardware.Config `yaml:"hardware"`
	Display  DisplayConfig   `yaml:"display"`
	// Camera is the camera pipeline (vision.Config); absent: no camera.
	Camera *vision.Config `yaml:"camera"`
	// Metrics serves /metrics, /healthz and /readyz (see MetricsConfig).
	Metrics MetricsConfig `yaml:"metrics"`
	// Evidence bounds the camera images kept beside the journal.
	Evidence EvidenceConfig `yaml:"evidence"`
	// Game sections (skirmish: …) are decoded by the game's own package
	// through DecodeSection.
	Sections map[string]yaml.Node `yaml:",inline"`
	// stray is the one game section when it is not the game's own, left
	// for CheckGame to name (a misspelled game id or another game's).
	stray string

	path string
	data []byte
	doc  *yaml.Node
}

// MQTTConfig says where to publish.
type MQTTConfig struct {
	// Broker is a URL (tcp://host:1883, ssl://host:8883), or several: a
	// YAML list or one string, comma-separated (every node of a venue's
	// NATS cluster). The table connects to the first that answers and,
	// when it goes away, to the next. Empty: run the embedded broker and
	// publish to it.
	Broker BrokerURLs `yaml:"broker"`
	// Listen is the embedded broker's address.
	Listen   string    `yaml:"listen"`
	Username string    `yaml:"username"`
	Password string    `yaml:"password"`
	ClientID string    `yaml:"client_id"`
	TLS      TLSConfig `yaml:"tls"`
	// MaxConnectionsPerAddress caps the embedded broker's connections from
	// one address (0: DefaultBrokerConnsPerAddr, 32).
	MaxConnectionsPerAddress int `yaml:"max_connections_per_address"`
	// Live, with several brokers listed (a venue's cluster), also sends the
	// public state's headline on .../live over its own connections to the
	// first two nodes, so that the venue wall stays current while the cluster elects
	// a new leader after losing a node (docs/venue-brokers.md). Default
	// true; false leaves the retained state alone.
	Live *bool `yaml:"live"`
}

// LiveCopies says whether the table sends its live headline over two nodes.
func (m MQTTConfig) LiveCopies() bool {
	return len(m.Broker.URLs()) > 1 && (m.Live == nil || *m.Live)
}

// BrokerURLs is mqtt.broker: one URL, several separated by commas, or a
// YAML list of them (kept comma-separated).
type BrokerURLs string

// UnmarshalYAML takes a string or a list of strings.
func (b *BrokerURLs) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*b = BrokerURLs(n.Value)
		return nil
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, e := range n.Content {
			if e.Kind != yaml.ScalarNode || e.Tag == "!!null" {
				return fmt.Errorf("line %d: mqtt.broker: entry %d is not a URL", e.Line, i+1)
			}
			parts[i] = e.Value
		}
		*b = BrokerURLs(strings.Join(parts, ","))
		return nil
	}
	return fmt.Errorf("line %d: mqtt.broker: want a URL or a list of URLs", n.Line)
}

// URLs are the broker URLs in order (nil when none are set or the list is
// not valid; ParseConfig has refused a config with a bad list).
func (b BrokerURLs) URLs() []string {
	if b == "" {
		return nil
	}
	urls, err := wire.ParseBrokers(string(b))
	if err != nil {
		return nil
	}
	return urls
}

// TLSConfig is used for ssl:// brokers.
type TLSConfig struct {
	CAFile             string `yaml:"ca_file"`
	CertFile           string `yaml:"cert_file"`
	KeyFile            string `yaml:"key_file"`
	InsecureSkipVerify bool   `yaml:"insecure_skip_verify"`
}

// MeasureConfig holds the table's units.
type MeasureConfig struct {
	// KrokMM is one krok in millimetres (the rulebooks' "krok"; 25.4 = one inch).
	KrokMM float64 `yaml:"krok_mm"`
}

// DiceConfig configures virtual dice and the fairness watch on physical ones.
type DiceConfig struct {
	// Seed fixes the virtual dice and shuffles (a demo, a test). Left out,
	// the daemon draws a seed from the system's secure source at every
	// start and keeps it in the journal for the referee: nobody can predict
	// a roll or a hidden card, and a restart does not repeat the rolls.
	Seed     uint64         `yaml:"seed"`
	Fairness FairnessConfig `yaml:"fairness"`
}

// FairnessConfig: a physical die is flagged to the referee when the
// chi-square test over its faces gives p < Significance after at least
// MinRolls rolls. Zero values take the defaults (0.01 and 60).
type FairnessConfig struct {
	Significance float64 `yaml:"significance"`
	MinRolls     int     `yaml:"min_rolls"`
}

// DisplayConfig is the HTTP server for the table's screens. The same
// credentials are the embedded broker's referee and player roles.
type DisplayConfig struct {
	// Listen is the address of the screens (":8080"); empty: no screens.
	Listen string `yaml:"listen"`
	// PublicURL is the table screen's address as the venue sees it,
	// published in the status for the venue wall's links.
	PublicURL string                     `yaml:"public_url"`
	Referee   display.Credential         `yaml:"referee"`
	Players   []display.PlayerCredential `yaml:"players"`
	// Displays are the read-only screens (walls, TVs) that sign in with a
	// token URL as viewers of the public view (docs/screens.md#kiosk).
	Displays []display.DisplayToken `yaml:"displays"`
	// TLS serves the screens over HTTPS: cert_file and key_file (PEM).
	TLS display.TLSFiles `yaml:"tls"`
	// MaxConnections caps the screens' connections (0: 256).
	MaxConnections int `yaml:"max_connections"`
}

// MetricsConfig says where /metrics, /healthz and /readyz are served and
// who may scrape the metrics.
type MetricsConfig struct {
	// Listen is an address of their own (":9464"), "screens" to share the
	// screens' listener (the default when display.listen is set) or "off".
	// With neither a listener of their own nor screens, there are none.
	Listen string `yaml:"listen"`
	// Allow are the client addresses (CIDR prefixes or single addresses)
	// that may read /metrics; default: loopback only, so the metrics are
	// off on public addresses until the config says who may read them.
	// /healthz and /readyz answer everyone.
	Allow []string `yaml:"allow"`

	allow ops.Allow
}

// OwnListener says whether the metrics have an address of their own.
func (m MetricsConfig) OwnListener() bool {
	return m.Listen != "" && m.Listen != MetricsOnScreens && m.Listen != "off"
}

// MetricsOnScreens is metrics.listen's value that shares the screens'
// listener.
const MetricsOnScreens = "screens"

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)
	yamlLineErr = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// LoadConfig reads and checks a configuration file. Unknown keys and bad
// values are errors naming the file, the line and the key.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("companion: config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig reads a configuration from data; path names it in errors and
// anchors relative paths.
func ParseConfig(path string, data []byte) (*Config, error) {
	cfg := &Config{path: path, data: data}
	var doc yaml.Node
	if err := yamlsafe.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(path, err)
	}
	if len(doc.Content) == 0 {
		return nil, &ConfigError{File: path, Msg: "the file is empty"}
	}
	cfg.doc = &doc
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, cfg); err != nil {
		return nil, yamlErrorIn(path, &doc, err)
	}
	cfg.defaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return cfg, nil
}

var unknownField = regexp.MustCompile(`^field (\S+) not found in type .*$`)

// keyAtLine finds the dotted key whose value sits on line, for messages
// that name the line but not the key.
func keyAtLine(n *yaml.Node, line int) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		return keyAtLine(n.Content[0], line)
	}
	if n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Line == line && v.Kind == yaml.ScalarNode {
			return k.Value
		}
		if sub := keyAtLine(v, line); sub != "" {
			return k.Value + "." + sub
		}
	}
	return ""
}

func yamlError(path string, err error) error { return yamlErrorIn(path, nil, err) }

func yamlErrorIn(path string, doc *yaml.Node, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		// "line 3: field colour not found in type companion.Config"
		first := te.Errors[0]
		if m := yamlLineErr.FindStringSubmatch(first); m != nil {
			n, _ := strconv.Atoi(m[1])
			msg := m[2]
			if f := unknownField.FindStringSubmatch(msg); f != nil {
				msg = fmt.Sprintf("unknown key %q", f[1])
			} else if key := keyAtLine(doc, n); key != "" {
				msg = key + ": " + msg
			}
			return &ConfigError{File: path, Line: n, Msg: msg}
		}
		return &ConfigError{File: path, Msg: first}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineErr.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &ConfigError{File: path, Line: n, Msg: m[2]}
	}
	return &ConfigError{File: path, Msg: msg}
}

func (c *Config) defaults() {
	if c.Language == "" {
		c.Language = "pl"
	}
	if c.Measure.KrokMM == 0 {
		c.Measure.KrokMM = 25.4
	}
	if c.MQTT.Broker == "" && c.MQTT.Listen == "" {
		c.MQTT.Listen = ":1883"
	}
	if c.Journal == "" && c.JournalDir == "" {
		c.Journal = c.Table + ".journal.db"
	}
	if c.Metrics.Listen == "" && c.Display.Listen != "" {
		c.Metrics.Listen = MetricsOnScreens
	}
}

// errAt builds an error pointing at the line of a dotted key ("mqtt.listen").
func (c *Config) errAt(key, format string, args ...any) error {
	return &ConfigError{File: c.path, Line: c.Line(key), Msg: fmt.Sprintf("%s: ", key) + fmt.Sprintf(format, args...)}
}

// Line returns the line of a dotted key in the file, or 0 when it is not
// written there.
func (c *Config) Line(key string) int {
	if c.doc == nil || len(c.doc.Content) == 0 {
		return 0
	}
	n := c.doc.Content[0]
	for _, part := range strings.Split(key, ".") {
		if n.Kind != yaml.MappingNode {
			return 0
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == part {
				next = n.Content[i+1]
				if next.Line == 0 {
					next = n.Content[i]
				}
				break
			}
		}
		if next == nil {
			return 0
		}
		n = next
	}
	return n.Line
}

func (c *Config) check() error {
	if c.JournalDir != "" && c.Journal != "" {
		return c.errAt("journal_dir", "give journal (one file) or journal_dir (a journal per game), not both")
	}
	if !idPattern.MatchString(c.Venue) {
		return c.errAt("venue", "%q is not an id (lower-case letters, digits, - and _)", c.Venue)
	}
	if !idPattern.MatchString(c.Table) {
		return c.errAt("table", "%q is not an id (lower-case letters, digits, - and _)", c.Table)
	}
	// Which games exist is the registry's to say (CheckGame); here the
	// game is named, and the only section beyond the common ones is its own.
	if !idPattern.MatchString(c.Game) {
		return c.errAt("game", "%q is not a game id (lower-case letters, digits, - and _)", c.Game)
	}
	if c.Evidence.MaxMB < 0 {
		return c.errAt("evidence.max_mb", "%d: the images' bound is 0 (the default, %d MiB) or more", c.Evidence.MaxMB, DefaultEvidenceMB)
	}
	if c.Evidence.MaxDays < 0 {
		return c.errAt("evidence.max_days", "%d: 0 (no age limit) or more days", c.Evidence.MaxDays)
	}
	for key := range c.Sections {
		if key == c.Game {
			continue
		}
		if _, own := c.Sections[c.Game]; own || len(c.Sections) > 1 {
			return c.errAt(key, "unknown key %q (the only game section is the game's own, %s)", key, c.Game)
		}
		// One game section, not the game's: a misspelled game id (game:
		// skirmsh beside skirmish:) or another game's section. Which games
		// exist is the registry's to say, so CheckGame says which.
		c.stray = key
	}
	if c.Language != "pl" && c.Language != "en" {
		return c.errAt("language", "%q, want pl or en", c.Language)
	}
	if f := c.Dice.Fairness.Significance; !(f >= 0 && f < 0.5) {
		return c.errAt("dice.fairness.significance", "%v, want a p-value threshold such as 0.01 (0 for the default)", f)
	}
	if c.Dice.Fairness.MinRolls < 0 {
		return c.errAt("dice.fairness.min_rolls", "%d, want a positive count (0 for the default)", c.Dice.Fairness.MinRolls)
	}
	if !(c.Measure.KrokMM > 0 && c.Measure.KrokMM <= 100) {
		return c.errAt("measure.krok_mm", "%v mm is not a plausible krok", c.Measure.KrokMM)
	}
	if c.MQTT.Broker == "" && c.Line("mqtt.broker") > 0 {
		return c.errAt("mqtt.broker", "empty: give a broker URL like tcp://host:1883 (or several), or leave mqtt.broker out for the embedded broker")
	}
	if c.MQTT.Broker != "" {
		if c.MQTT.Listen != "" {
			return c.errAt("mqtt.listen", "set either mqtt.broker (an outside broker) or mqtt.listen (the embedded one), not both")
		}
		if _, err := wire.ParseBrokers(string(c.MQTT.Broker)); err != nil {
			return c.errAt("mqtt.broker", "%s", strings.TrimPrefix(err.Error(), "wire: broker list: "))
		}
	} else if _, port, err := net.SplitHostPort(c.MQTT.Listen); err != nil {
		return c.errAt("mqtt.listen", "%q is not an address like :1883 or 127.0.0.1:1883", c.MQTT.Listen)
	} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return c.errAt("mqtt.listen", "port %q is not 0–65535", port)
	}
	for key, f := range map[string]string{"mqtt.tls.ca_file": c.MQTT.TLS.CAFile, "mqtt.tls.cert_file": c.MQTT.TLS.CertFile, "mqtt.tls.key_file": c.MQTT.TLS.KeyFile} {
		if f != "" {
			if _, err := os.Stat(c.Resolve(f)); err != nil {
				return c.errAt(key, "%v", err)
			}
		}
	}
	if (c.MQTT.TLS.CertFile == "") != (c.MQTT.TLS.KeyFile == "") {
		return c.errAt("mqtt.tls", "cert_file and key_file go together")
	}
	if c.Display.Listen != "" {
		if _, _, err := net.SplitHostPort(c.Display.Listen); err != nil {
			return c.errAt("display.listen", "%q is not an address like :8080", c.Display.Listen)
		}
	}
	if err := c.checkDisplayTLS(); err != nil {
		return err
	}
	if c.MQTT.MaxConnectionsPerAddress < 0 {
		return c.errAt("mqtt.max_connections_per_address", "%d, want a positive count (0 for the default %d)", c.MQTT.MaxConnectionsPerAddress, DefaultBrokerConnsPerAddr)
	}
	if c.Display.MaxConnections < 0 {
		return c.errAt("display.max_connections", "%d, want a positive count (0 for the default %d)", c.Display.MaxConnections, display.DefaultMaxConns)
	}
	if (c.Display.Referee.User == "") != (c.Display.Referee.Password == "") {
		return c.errAt("display.referee", "user and password go together")
	}
	if why := display.CheckDisplayTokens(c.Display.Displays); why != "" {
		return c.errAt("display.displays", "display.%s", why)
	}
	seen := map[int]bool{}
	for i, p := range c.Display.Players {
		key := fmt.Sprintf("display.players[%d]", i)
		switch {
		case p.Seat < 1:
			return c.errAt("display.players", "%s: seat %d, want 1 or more", key, p.Seat)
		case seen[p.Seat]:
			return c.errAt("display.players", "%s: seat %d listed twice", key, p.Seat)
		case p.User == "" || p.Password == "":
			return c.errAt("display.players", "%s: seat %d needs a user and a password", key, p.Seat)
		case p.User == c.Display.Referee.User:
			return c.errAt("display.players", "%s: user %q is also the referee", key, p.User)
		}
		seen[p.Seat] = true
	}
	if err := c.checkMetrics(); err != nil {
		return err
	}
	if c.Tags == "" {
		return c.errAt("tags", "no tag registry file named")
	}
	if c.Camera != nil {
		if c.Camera.KrokMM == 0 {
			c.Camera.KrokMM = c.Measure.KrokMM
		}
		if err := c.Camera.Prepare(filepath.Dir(c.path)); err != nil {
			return &ConfigError{File: c.path, Line: c.Line("camera"), Msg: err.Error()}
		}
	}
	c.Hardware.BaseDir = filepath.Dir(c.path)
	if c.Hardware.Real() {
		if err := c.Hardware.Validate(); err != nil {
			return &ConfigError{File: c.path, Line: c.Line("hardware"), Msg: err.Error()}
		}
	}
	if c.Hardware.Simulated != "" {
		if _, err := os.Stat(c.Resolve(c.Hardware.Simulated)); err != nil {
			return c.errAt("hardware.simulated", "%v", err)
		}
	}
	return nil
}

func (c *Config) checkMetrics() error {
	m := &c.Metrics
	switch {
	case m.Listen == MetricsOnScreens:
		if c.Display.Listen == "" {
			return c.errAt("metrics.listen", "%q shares the screens' listener, but display.listen is not set; give metrics an address of their own like 127.0.0.1:9464", m.Listen)
		}
	case m.OwnListener():
		_, port, err := net.SplitHostPort(m.Listen)
		if err != nil {
			return c.errAt("metrics.listen", "%q is not an address like :9464 or 127.0.0.1:9464, nor screens or off", m.Listen)
		}
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 || p > 65535 {
			return c.errAt("metrics.listen", "port %q is not 0–65535", port)
		}
		if p != 0 && (m.Listen == c.Display.Listen || m.Listen == c.MQTT.Listen) {
			return c.errAt("metrics.listen", "%q is already the screens' or the broker's address; use %q to share the screens' listener", m.Listen, MetricsOnScreens)
		}
	}
	allow, err := ops.ParseAllow(m.Allow)
	if err != nil {
		return &ConfigError{File: c.path, Line: c.Line("metrics.allow"), Msg: "metrics.allow" + err.Error()}
	}
	m.allow = allow
	if m.allow == nil {
		m.allow = ops.Loopback
	}
	return nil
}

// Raw is the file's text as read.
func (c *Config) Raw() []byte { return c.data }

// DiceSeed is dice.seed: what fixes the virtual dice and shuffles.
func (c *Config) DiceSeed() uint64 { return c.Dice.Seed }

// KrokMM is measure.krok_mm.
func (c *Config) KrokMM() float64 { return c.Measure.KrokMM }

// GameID is game:.
func (c *Config) GameID() string { return c.Game }

// BoxPack is box:.
func (c *Config) BoxPack() string { return c.Box }

// Path is the file the configuration was read from.
func (c *Config) Path() string { return c.path }

// Resolve makes a path from the config file relative to its directory.
func (c *Config) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(c.path), p)
}

// DecodeSection decodes the game's section (key) of the file strictly into
// v, a pointer; errors name the file and the line.
func (c *Config) DecodeSection(key string, v any) error {
	if c.Line(key) == 0 {
		return c.errAt(key, "missing: the %s game needs its %s section", c.Game, key)
	}
	holderType := reflect.StructOf([]reflect.StructField{
		{Name: "Section", Type: reflect.TypeOf(v).Elem(), Tag: reflect.StructTag(`yaml:"` + key + `"`)},
		{Name: "Rest", Type: reflect.TypeOf(map[string]yaml.Node{}), Tag: `yaml:",inline"`},
	})
	holder := reflect.New(holderType)
	dec := yaml.NewDecoder(bytes.NewReader(c.data))
	dec.KnownFields(true)
	if err := yamlsafe.Decode(dec, holder.Interface()); err != nil {
		return yamlErrorIn(c.path, c.doc, err)
	}
	reflect.ValueOf(v).Elem().Set(holder.Elem().Field(0))
	return nil
}

// GameConfig is what a journal keeps of its table's config (meta
// 'game_config', written by the daemon at every start) so that review and
// export build the game from the journal alone: the game's own section and
// measure.krok_mm, as YAML. It holds no logins, passwords or addresses;
// paths in the section (a data file) stay relative to the config.
func (c *Config) GameConfig() ([]byte, error) {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		doc.Content = append(doc.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	add("measure", &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "krok_mm"},
		{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(c.Measure.KrokMM, 'g', -1, 64)},
	}})
	if section, ok := c.Sections[c.Game]; ok {
		add(c.Game, &section)
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("companion: the %s section of %s for the journal: %w", c.Game, c.path, err)
	}
	return out, nil
}
