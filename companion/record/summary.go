package record

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"strings"
	"text/template"
)

// Text is a text in Polish and English.
type Text struct {
	PL string `json:"pl"`
	EN string `json:"en"`
}

// Summary is the human-readable record of a game: what the Markdown and
// HTML summaries show. FinalSeq and FinalHash name the record's last entry,
// so `sztab verify` can match a summary with its record.
type Summary struct {
	Identity
	// GameTitle is the game's name.
	GameTitle Text
	// Start and End are the first and last entries' times (RFC 3339).
	Start, End string
	// Exported is when the summary was written.
	Exported string
	// Chained is how the journal came to be chained ("since it was made",
	// or when an older journal was chained).
	Chained string

	Entries, Actions, Notices, Refusals int
	FinalSeq                            int64
	FinalHash                           string

	Players []Player
	// Finished says the game is over; Result is its result then, or how
	// it stands.
	Finished bool
	Result   Text
	Standing []Text
	// Dice are the physical dice's fairness reports.
	Dice []Die

	// Rulings (referee calls and answers), Corrections (undos and
	// corrections) and Breaches (refused actions the referee let stand,
	// flagged) are the referee's entries, one line each.
	Rulings, Corrections, Breaches []string

	// Signed names the key that signed the result statement (its
	// fingerprint), when it was signed.
	Signed string
}

// Player is one player of the summary.
type Player struct {
	Seat int
	Name string
	Side string
}

// Die is one physical die's fairness: rolls, faces, the chi-square test.
type Die struct {
	Source    string
	Rolls     int
	Faces     [6]int
	ChiSquare float64
	PValue    float64
	Loaded    bool
}

var funcs = map[string]any{
	"state": func(s Summary) string {
		if s.Finished {
			return "finished"
		}
		return "not finished"
	},
	"p": func(x float64) string { return fmt.Sprintf("%.4f", x) },
	"x": func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"faces": func(f [6]int) string {
		s := make([]string, 6)
		for i, n := range f {
			s[i] = fmt.Sprint(n)
		}
		return strings.Join(s, " · ")
	},
	"verdict": func(d Die) string {
		if d.Loaded {
			return "LOOKS LOADED — have it checked"
		}
		return "no sign of bias"
	},
}

const markdownTemplate = `# Referee's record — {{.GameTitle.EN}}

Table **{{.Table}}** at **{{.Venue}}**, game ` + "`{{.Game}}`" + `
({{.GameTitle.PL}}).

- Started: {{.Start}}
- Last entry: {{.End}}
- Exported: {{.Exported}}
- Journal chained: {{.Chained}}
- Entries: {{.Entries}} ({{.Actions}} actions, {{.Notices}} notices, of them {{.Refusals}} refusals)
- Final seq: {{.FinalSeq}}
- Final hash: ` + "`{{.FinalHash}}`" + `
{{- if .Signed}}
- Result signed with table key ` + "`{{.Signed}}`" + ` (result.txt, result.txt.sig)
{{- end}}

## Players
{{if .Players}}
| Seat | Name | Side |
|---|---|---|
{{- range .Players}}
| {{.Seat}} | {{.Name}} | {{.Side}} |
{{- end}}
{{else}}
none recorded
{{end}}
## Result

The game is **{{state .}}**: {{.Result.EN}}
{{- if .Result.PL}} / {{.Result.PL}}{{end}}
{{range .Standing}}
- {{.EN}}
{{- end}}

## Dice fairness
{{if .Dice}}
| Die | Rolls | Faces 1–6 | χ² | p | Verdict |
|---|---|---|---|---|---|
{{- range .Dice}}
| {{.Source}} | {{.Rolls}} | {{faces .Faces}} | {{x .ChiSquare}} | {{p .PValue}} | {{verdict .}} |
{{- end}}
{{else}}
no physical dice recorded
{{end}}
## Rulings
{{range .Rulings}}
- {{.}}
{{- else}}
none recorded
{{- end}}

## Corrections
{{range .Corrections}}
- {{.}}
{{- else}}
none recorded
{{- end}}

## Flagged breaches
{{range .Breaches}}
- {{.}}
{{- else}}
none recorded
{{- end}}

---
Check this record with ` + "`sztab verify --record DIR`" + `: the chain of record.jsonl must end in the final hash above.
`

const htmlTemplate = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Referee's record — {{.Venue}} / {{.Table}} — {{.GameTitle.EN}}</title>
<style>
body { font-family: sans-serif; max-width: 50em; margin: 2em auto; color: #000; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #888; padding: 0.2em 0.6em; text-align: left; }
code { font-size: 0.9em; word-break: break-all; }
.loaded { font-weight: bold; }
@media print { body { margin: 0; max-width: none; } }
</style>
</head>
<body>
<h1>Referee's record — {{.GameTitle.EN}}</h1>
<p>Table <strong>{{.Table}}</strong> at <strong>{{.Venue}}</strong>, game <code>{{.Game}}</code> ({{.GameTitle.PL}}).</p>
<table>
<tr><th>Started</th><td>{{.Start}}</td></tr>
<tr><th>Last entry</th><td>{{.End}}</td></tr>
<tr><th>Exported</th><td>{{.Exported}}</td></tr>
<tr><th>Journal chained</th><td>{{.Chained}}</td></tr>
<tr><th>Entries</th><td>{{.Entries}} ({{.Actions}} actions, {{.Notices}} notices, of them {{.Refusals}} refusals)</td></tr>
<tr><th>Final seq</th><td>{{.FinalSeq}}</td></tr>
<tr><th>Final hash</th><td><code class="final-hash">{{.FinalHash}}</code></td></tr>
{{- if .Signed}}
<tr><th>Result signed</th><td>table key <code>{{.Signed}}</code> (result.txt, result.txt.sig)</td></tr>
{{- end}}
</table>
<h2>Players</h2>
{{if .Players -}}
<table>
<tr><th>Seat</th><th>Name</th><th>Side</th></tr>
{{- range .Players}}
<tr><td>{{.Seat}}</td><td>{{.Name}}</td><td>{{.Side}}</td></tr>
{{- end}}
</table>
{{- else -}}
<p>none recorded</p>
{{- end}}
<h2>Result</h2>
<p>The game is <strong>{{state .}}</strong>: {{.Result.EN}}{{if .Result.PL}} / {{.Result.PL}}{{end}}</p>
{{- if .Standing}}
<ul>
{{- range .Standing}}
<li>{{.EN}}</li>
{{- end}}
</ul>
{{- end}}
<h2>Dice fairness</h2>
{{if .Dice -}}
<table>
<tr><th>Die</th><th>Rolls</th><th>Faces 1–6</th><th>χ²</th><th>p</th><th>Verdict</th></tr>
{{- range .Dice}}
<tr{{if .Loaded}} class="loaded"{{end}}><td>{{.Source}}</td><td>{{.Rolls}}</td><td>{{faces .Faces}}</td><td>{{x .ChiSquare}}</td><td>{{p .PValue}}</td><td>{{verdict .}}</td></tr>
{{- end}}
</table>
{{- else -}}
<p>no physical dice recorded</p>
{{- end}}
<h2>Rulings</h2>
{{if .Rulings}}<ul>{{range .Rulings}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>none recorded</p>{{end}}
<h2>Corrections</h2>
{{if .Corrections}}<ul>{{range .Corrections}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>none recorded</p>{{end}}
<h2>Flagged breaches</h2>
{{if .Breaches}}<ul>{{range .Breaches}}<li>{{.}}</li>{{end}}</ul>{{else}}<p>none recorded</p>{{end}}
<p>Check this record with <code>sztab verify --record DIR</code>: the chain of record.jsonl must end in the final hash above.</p>
</body>
</html>
`

var (
	mdTmpl   = template.Must(template.New("summary.md").Funcs(funcs).Parse(markdownTemplate))
	htmlTmpl = htmltemplate.Must(htmltemplate.New("summary.html").Funcs(funcs).Parse(htmlTemplate))
)

// Markdown is the summary in Markdown.
func (s Summary) Markdown() ([]byte, error) {
	var b bytes.Buffer
	if err := mdTmpl.Execute(&b, s); err != nil {
		return nil, fmt.Errorf("record: summary: %w", err)
	}
	return b.Bytes(), nil
}

// HTML is the summary as a printable HTML page.
func (s Summary) HTML() ([]byte, error) {
	var b bytes.Buffer
	if err := htmlTmpl.Execute(&b, s); err != nil {
		return nil, fmt.Errorf("record: summary: %w", err)
	}
	return b.Bytes(), nil
}

var (
	mdFinal   = regexp.MustCompile("(?m)^- Final hash: `([^`]*)`$")
	htmlFinal = regexp.MustCompile(`<code class="final-hash">([^<]*)</code>`)
)

// FinalHashIn finds the final hash a summary names: the Markdown's
// "- Final hash: `…`" line or the HTML's <code class="final-hash">; it must
// name exactly one.
func FinalHashIn(summary []byte, html bool) (Hash, error) {
	re, what := mdFinal, "a \"- Final hash: `…`\" line"
	if html {
		re, what = htmlFinal, `a <code class="final-hash">`
	}
	m := re.FindAllSubmatch(summary, 3)
	switch len(m) {
	case 0:
		return Hash{}, fmt.Errorf("record: the summary has no final hash (%s)", what)
	case 1:
	default:
		return Hash{}, fmt.Errorf("record: the summary names %d final hashes, want one", len(m))
	}
	return ParseHash(string(m[0][1]))
}
