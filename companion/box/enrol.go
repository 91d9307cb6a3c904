package box

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/sztab/sztab/internal/yamlsafe"
)

// cardFiles are the files whose entries are enrolled card by card, and
// what a club is told of their fields (the allowed values; the comments at
// the top of each file say the rest).
var cardFiles = map[string]struct {
	file  string
	hints map[string]string
}{
	"bitwa-warszawska": {"cards.yaml", map[string]string{
		"army": "wp | acz", "kind": "unit | commander | order", "front": "N | C | S | NC | CS | NS | any",
		"limit": "1–21 (dowódcy / commanders)", "effects": "YAML, zob. / see cards.yaml", "choose": "YAML, zob. / see cards.yaml",
		"name_en": englishHint, "text_en": englishHint}},
	"mali-powstancy": {"orders.yaml", map[string]string{
		"from": "id obiektu z map.yaml / an object id of map.yaml", "to": "id obiektu z map.yaml / an object id of map.yaml", "points": "≥ 1"}},
}

// englishHint is the hint of a printed text's English: optional, and dropped
// when the Polish changes and the English does not.
const englishHint = "po angielsku, opcjonalnie; zmiana polskiego bez zmiany angielskiego usuwa angielski / " +
	"in English, optional; a changed Polish with the English left as it was drops the English"

// rulebookLine is what the rulebook fixes of a game's cards, for the
// enrolment's header.
func rulebookLine(game string) string {
	switch game {
	case "bitwa-warszawska":
		return fmt.Sprintf("instrukcja / rulebook: wp %v, acz %v", bitwaDeck["wp"], bitwaDeck["acz"])
	case "mali-powstancy":
		return fmt.Sprintf("instrukcja / rulebook: %d kart rozkazów / order cards", maliOrders)
	}
	return ""
}

// Enrol is the terminal enrolment of the pack in dir: for each card still
// assumed it shows the fields with their values and allowed values, reads
// typed values (an empty line keeps the value; YAML for lists), and
// optionally a tag UID to bind; checks the pack at once and saves it, or
// says why it is refused and asks again. It stops at the end of in and can
// be run again to go on: it shows what is left.
func Enrol(dir string, in io.Reader, out io.Writer) error {
	p, err := Open(dir)
	if err != nil {
		return err
	}
	cf, ok := cardFiles[p.Meta.Game]
	if !ok {
		return refuse(p.Name(MetaFile), 0, "gra %[1]s nie ma jeszcze zapisu karta po karcie; jej pliki poprawia się ręcznie i sprawdza sztab box check",
			"game %[1]s has no card-by-card enrolment yet; its files are edited by hand and checked with sztab box check", p.Meta.Game)
	}
	if _, err := Check(p); err != nil {
		return err
	}
	literal := map[string]bool{}
	for _, c := range collections[p.Meta.Game] {
		if c.File == cf.file {
			for _, f := range c.Fields {
				literal[f.Name] = f.Type == "text"
			}
		}
	}
	lines := bufio.NewScanner(in)
	ask := func(prompt string) (string, bool) {
		fmt.Fprint(out, prompt)
		if !lines.Scan() {
			fmt.Fprintln(out)
			return "", false
		}
		return strings.TrimSpace(lines.Text()), true
	}
	fmt.Fprintln(out, rulebookLine(p.Meta.Game))
	for {
		var root yaml.Node
		if err := yamlsafe.Unmarshal(p.Files[cf.file], &root); err != nil {
			return refuse(p.Name(cf.file), yamlLine(err), "błędny YAML: %[1]v", "bad YAML: %[1]v", err)
		}
		var slots []*yaml.Node
		walk(&root, func(m *yaml.Node) {
			if value(m, "id") == nil {
				return
			}
			if v := value(m, "assumed"); (v != nil && v.Value == "true") || value(m, "assumed_fields") != nil {
				slots = append(slots, m)
			}
		})
		if len(slots) == 0 {
			fmt.Fprintf(out, "%s: nic nie zostało do zapisania / nothing left to enrol\n", cf.file)
			return nil
		}
		card := slots[0]
		assumedField := map[string]bool{}
		if v := value(card, "assumed_fields"); v != nil {
			for _, f := range v.Content {
				assumedField[f.Value] = true
			}
		}
		fmt.Fprintf(out, "zostało / left: %d; karta / card %s (%s:%d)\n", len(slots), value(card, "id").Value, cf.file, card.Line)
		old := map[string]string{}
		for i := 0; i+1 < len(card.Content); i += 2 {
			old[card.Content[i].Value] = card.Content[i+1].Value
		}
		for i := 0; i+1 < len(card.Content); i += 2 {
			k, v := card.Content[i], card.Content[i+1]
			if k.Value == "id" || k.Value == "assumed" || k.Value == "assumed_fields" {
				continue
			}
			hint := ""
			if h := cf.hints[k.Value]; h != "" {
				hint = " (" + h + ")"
			}
			if assumedField[k.Value] {
				hint += " *założone / assumed*"
			}
			text, ok := ask(fmt.Sprintf("  %s%s [%s]: ", k.Value, hint, flow(v)))
			if !ok {
				return nil
			}
			if text == "" {
				continue
			}
			if literal[k.Value] {
				// What is printed, taken literally ("W etapie Bitwy: …" is
				// no YAML mapping).
				card.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text}
				continue
			}
			var n yaml.Node
			if err := yamlsafe.Unmarshal([]byte(text), &n); err != nil || len(n.Content) != 1 {
				fmt.Fprintf(out, "  nie rozumiem / not understood: %q\n", text)
				i -= 2
				continue
			}
			card.Content[i+1] = n.Content[0]
		}
		dropStaleEnglish(card, old)
		drop(card, "assumed")
		drop(card, "assumed_fields")
		uid, ok := ask("  znacznik UID (pusty: bez) / tag UID (empty: none): ")
		if !ok {
			return nil
		}
		data, err := encode(&root)
		if err != nil {
			return err
		}
		q := *p
		q.Files = cloneFiles(p.Files)
		q.Own = map[string]bool{cf.file: true}
		for f := range p.Own {
			q.Own[f] = true
		}
		q.Files[cf.file] = data
		if uid != "" {
			q.Tags = addTag(p.Tags, uid, value(card, "id").Value)
		}
		if _, err := Check(&q); err != nil {
			fmt.Fprintf(out, "  odrzucone, karta nie zapisana / refused, the card is not saved: %v\n", err)
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, cf.file), data, 0o644); err != nil {
			return fmt.Errorf("box: %w", err)
		}
		if q.Tags != nil {
			if err := os.WriteFile(filepath.Join(dir, TagsFile), q.Tags, 0o644); err != nil {
				return fmt.Errorf("box: %w", err)
			}
		}
		*p = q
		fmt.Fprintf(out, "  zapisane / saved\n")
	}
}

// flow is a value as one line of YAML.
func flow(n *yaml.Node) string {
	c := *n
	c.Style |= yaml.FlowStyle
	b, err := yaml.Marshal(&c)
	if err != nil {
		return n.Value
	}
	return strings.TrimSpace(string(b))
}

// drop removes key from mapping m.
func drop(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func encode(root *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, fmt.Errorf("box: %w", err)
	}
	return b.Bytes(), nil
}

// addTag appends a card tag to a tags.yaml text (a new one when nil).
func addTag(tags []byte, uid, id string) []byte {
	if len(bytes.TrimSpace(tags)) == 0 {
		tags = []byte("tags:\n")
	}
	if !bytes.HasSuffix(tags, []byte("\n")) {
		tags = append(tags, '\n')
	}
	return append(bytes.Clone(tags), fmt.Sprintf("  - {uid: %q, kind: card, id: %q}\n", uid, id)...)
}
