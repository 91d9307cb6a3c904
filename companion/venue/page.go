package venue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/hub"
	"github.com/sztab/sztab/companion/wire"
)

// The organiser's pages, beside the wall on its listener (and so with the
// screens' settings: timeouts, the connection cap, the cross-origin rules):
//
//	GET  /organiser             rounds, pairings, results, refusals, audit
//	GET  /organiser/print       standings and the current round's pairings, for paper
//	GET  /organiser/view.json   the same as JSON
//	GET  /organiser/csv/{what}  standings.csv, pairings.csv, results.csv
//	POST /organiser/pair        pair the next round
//	POST /organiser/force       pair it although results are missing, with the reason
//	POST /organiser/import      a round's pairings (CSV file or pasted text)
//	POST /organiser/start       start a round's clock
//	POST /organiser/correct     correct a table's result, with the reason
//
// Every one needs the organiser's session (the display server's sign-in
// cookie: HttpOnly, SameSite=Strict); the POSTs are also refused unless
// they come from these pages (display.Server.SameOrigin), so another site
// cannot make a signed-in organiser's browser send them.

func (v *Venue) wrap(wall http.Handler, ds *display.Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", wall)
	get := func(path string, h http.HandlerFunc) { mux.HandleFunc("GET "+path, v.signedIn(ds, h)) }
	post := func(path string, h func(*http.Request) (string, error)) {
		mux.HandleFunc("POST "+path, ds.SameOrigin(v.signedIn(ds, v.action(h))))
	}
	get("/organiser", v.page)
	get("/organiser/print", v.print)
	get("/organiser/view.json", v.viewJSON)
	get("/organiser/csv/{what}", v.csv)
	post("/organiser/pair", v.pair)
	post("/organiser/force", v.force)
	post("/organiser/import", v.importPairings)
	post("/organiser/start", v.start)
	post("/organiser/correct", v.correct)
	return mux
}

// signedIn lets the organiser through; others are sent to sign in (a
// page) or refused (anything else).
func (v *Venue) signedIn(ds *display.Server, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !ds.SignedIn(r) {
			if r.Method == http.MethodGet && (r.URL.Path == "/organiser" || r.URL.Path == "/organiser/print") {
				http.Redirect(w, r, display.LoginURL(r.URL.Path), http.StatusSeeOther)
				return
			}
			http.Error(w, "venue: sign in as the organiser first", http.StatusForbidden)
			return
		}
		h(w, r)
	}
}

// action runs one organiser's action: on success back to the page with
// what was done; a refusal is shown on the page (and logged), nothing
// changed.
func (v *Venue) action(h func(*http.Request) (string, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v.limit(w, r)
		done, err := h(r)
		if err != nil {
			v.log.Warn("venue: organiser's action refused", "path", r.URL.Path, "reason", err.Error())
			code := http.StatusConflict
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				code = http.StatusRequestEntityTooLarge
			} else if errors.Is(err, errForm) {
				code = http.StatusBadRequest
			}
			v.render(w, code, "", err.Error())
			return
		}
		v.log.Info("venue: organiser's action", "path", r.URL.Path, "done", done)
		http.Redirect(w, r, "/organiser?done="+strings.TrimPrefix(r.URL.Path, "/organiser/"), http.StatusSeeOther)
	}
}

// errForm marks a form the organiser filled in wrong (400, not 409).
var errForm = errors.New("the form")

func formErr(err error) error { return fmt.Errorf("%w: %w", errForm, err) }

// maxForm bounds a form other than an import.
const maxForm = 64 << 10

func (v *Venue) form(r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return fmt.Errorf("venue: form: larger than %d bytes: %w", mb.Limit, err)
		}
		return formErr(fmt.Errorf("venue: form: %w", err))
	}
	return nil
}

func (v *Venue) pair(r *http.Request) (string, error) {
	return "paired", v.locked(func() error { return v.opts.Tournament.PairNext(r.Context()) })
}

func (v *Venue) force(r *http.Request) (string, error) {
	if err := v.form(r); err != nil {
		return "", err
	}
	why, err := ParseReason(r.PostForm, "reason")
	if err != nil {
		return "", formErr(err)
	}
	return "force", v.locked(func() error { return v.opts.Tournament.ForcePairNext(r.Context(), v.opts.Organiser.User, why) })
}

func (v *Venue) start(r *http.Request) (string, error) {
	if err := v.form(r); err != nil {
		return "", err
	}
	round, err := ParseRound(r.PostForm, "round")
	if err != nil {
		return "", formErr(err)
	}
	return "started", v.locked(func() error { return v.opts.Tournament.StartRound(r.Context(), round, v.opts.Clock().UTC()) })
}

func (v *Venue) correct(r *http.Request) (string, error) {
	if err := v.form(r); err != nil {
		return "", err
	}
	c, err := ParseCorrection(r.PostForm)
	if err != nil {
		return "", formErr(err)
	}
	return "corrected", v.locked(func() error {
		return v.opts.Tournament.Correct(r.Context(), c.Round, c.Table, c.Seats, v.opts.Organiser.User, c.Why)
	})
}

// importPairings takes a round's pairings as an uploaded CSV file (field
// "file") or pasted text (field "csv"), at most MaxUpload bytes.
func (v *Venue) importPairings(r *http.Request) (string, error) {
	var data []byte
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		if err := r.ParseMultipartForm(v.opts.MaxUpload); err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				return "", fmt.Errorf("venue: import: the upload is larger than %d bytes: %w", v.opts.MaxUpload, err)
			}
			return "", formErr(fmt.Errorf("venue: import: %w", err))
		}
		defer r.MultipartForm.RemoveAll()
		if f, _, err := r.FormFile("file"); err == nil {
			defer f.Close()
			if data, err = io.ReadAll(io.LimitReader(f, v.opts.MaxUpload+1)); err != nil {
				return "", fmt.Errorf("venue: import: %w", err)
			}
		}
	} else if err := v.form(r); err != nil {
		return "", err
	}
	if len(data) == 0 {
		data = []byte(r.PostFormValue("csv"))
	}
	round, err := ParseRound(r.PostForm, "round")
	if err != nil {
		return "", formErr(err)
	}
	if len(data) == 0 {
		return "", formErr(errors.New("venue: import: no pairings: choose a CSV file or paste its text"))
	}
	if int64(len(data)) > v.opts.MaxUpload {
		return "", formErr(fmt.Errorf("venue: import: the pairings are larger than %d bytes", v.opts.MaxUpload))
	}
	return "imported", v.locked(func() error { return v.opts.Tournament.ImportPairings(r.Context(), round, bytes.NewReader(data)) })
}

// locked makes one change to the tournament (the form already read) and,
// if it took, puts the new standings and clock on the wall.
func (v *Venue) locked(change func() error) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if err := change(); err != nil {
		return err
	}
	v.refreshLocked()
	return nil
}

// limit bounds every request body of the organiser's POSTs.
func (v *Venue) limit(w http.ResponseWriter, r *http.Request) {
	max := int64(maxForm)
	if r.URL.Path == "/organiser/import" {
		max = v.opts.MaxUpload + 64<<10 // the file and the multipart framing
	}
	r.Body = http.MaxBytesReader(w, r.Body, max)
}

func (v *Venue) csv(w http.ResponseWriter, r *http.Request) {
	what := strings.TrimSuffix(r.PathValue("what"), ".csv")
	if what != "standings" && what != "pairings" && what != "results" {
		http.Error(w, "venue: no such export: want standings, pairings or results", http.StatusNotFound)
		return
	}
	var buf bytes.Buffer
	v.mu.Lock()
	err := v.opts.Tournament.WriteCSV(&buf, what)
	v.mu.Unlock()
	if err != nil {
		v.log.Error("venue: export failed", "what", what, "err", err)
		http.Error(w, "venue: export: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+what+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(buf.Bytes())
}

func (v *Venue) viewJSON(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	vw := v.view()
	v.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(vw)
}

func (v *Venue) page(w http.ResponseWriter, r *http.Request) {
	done := map[string]string{"pair": "Runda sparowana / round paired", "force": "Runda sparowana mimo braków / round paired with results missing", "import": "Kojarzenia wczytane / pairings imported",
		"start": "Zegar rundy ruszył / round clock started", "correct": "Wynik poprawiony / result corrected"}[r.URL.Query().Get("done")]
	v.render(w, http.StatusOK, done, "")
}

// pageData is what the organiser's page template gets.
type pageData struct {
	View
	Done, Error string
	Tables      map[string]hub.Table
	Seats       []int
	Clock       string
}

func (v *Venue) data() pageData {
	v.mu.Lock()
	vw := v.view()
	v.mu.Unlock()
	d := pageData{View: vw, Tables: map[string]hub.Table{}}
	for _, t := range v.hub.Wall().Tables {
		d.Tables[t.Table] = t
	}
	seats := 2
	for _, r := range vw.Pairings {
		for _, p := range r.Tables {
			seats = max(seats, len(p.Players), len(p.Seats))
		}
	}
	for i := 1; i <= min(seats, MaxSeats); i++ {
		d.Seats = append(d.Seats, i)
	}
	if vw.Clock != nil {
		end := vw.Clock.Start.Add(time.Duration(vw.Clock.Minutes) * time.Minute)
		d.Clock = fmt.Sprintf("runda %d: %s–%s UTC", vw.Clock.Round, vw.Clock.Start.UTC().Format("15:04"), end.UTC().Format("15:04"))
	}
	return d
}

func (v *Venue) render(w http.ResponseWriter, code int, done, errText string) {
	d := v.data()
	d.Done, d.Error = done, errText
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	if err := organiserTmpl.Execute(w, d); err != nil {
		v.log.Error("venue: organiser's page", "err", err)
	}
}

func (v *Venue) print(w http.ResponseWriter, r *http.Request) {
	d := v.data()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := printTmpl.Execute(w, d); err != nil {
		v.log.Error("venue: printable page", "err", err)
	}
}

var funcs = template.FuncMap{
	"last": func(rs []Round) *Round {
		if len(rs) == 0 {
			return nil
		}
		return &rs[len(rs)-1]
	},
	"join": strings.Join,
	// sample is how a result on sample data is marked.
	"sample": func() string { return wire.SampleDataText.PL + " / " + wire.SampleDataText.EN },
	"seat": func(p Pairing, n int) string {
		for _, s := range p.Seats {
			if s.Seat == n {
				return fmt.Sprintf("%s %d", s.Outcome, s.Score)
			}
		}
		return ""
	},
	"rev": func(a []AuditNote) []AuditNote {
		out := make([]AuditNote, len(a))
		for i := range a {
			out[i] = a[len(a)-1-i]
		}
		return out
	},
}

var organiserTmpl = template.Must(template.New("organiser").Funcs(funcs).Parse(`<!doctype html>
<html lang="pl"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sztab — organizator {{.Name}}</title>
<link rel="stylesheet" href="/static/sztab.css">
<style>
main.org { max-width: 80em; margin: 0 auto; padding: 1em; }
main.org section { background: var(--panel); border-radius: 10px; padding: .8em 1em; margin: 1em 0; }
main.org form.inline { display: inline-flex; gap: .4em; align-items: center; margin: .3em 1em .3em 0; }
main.org input, main.org select, main.org textarea, main.org button { font-size: 1em; }
main.org td input[type=number] { width: 4.5em; }
.ok-box { border: 1px solid var(--ok); padding: .5em; border-radius: 8px; }
.err-box { border: 2px solid var(--bad); padding: .5em; border-radius: 8px; white-space: pre-wrap; }
.state-refused { color: var(--bad); } .state-corrected { color: var(--warn); } .state-signed { color: var(--ok); }
</style></head>
<body><main class="org" id="app" data-testid="organiser">
<header class="topbar"><h1>{{.Name}} <span class="sub">{{.Venue}} · {{.Game}} · organizator / organiser</span></h1>
<a href="/">ściana / wall</a> · <a href="/organiser/print" data-testid="print-link">do druku / printable</a>
<form method="post" action="/logout" class="inline"><button type="submit">wyloguj / sign out</button></form></header>
{{with .Done}}<p class="ok-box" data-testid="done">{{.}}</p>{{end}}
{{with .Error}}<p class="err-box" data-testid="error">Odrzucono / refused: {{.}}</p>{{end}}

<section><h2>Rundy / rounds</h2>
<p data-testid="round">Runda / round {{.Round}}{{if .Rounds}} z / of {{.Rounds}}{{end}}{{with .Clock}} · zegar / clock: <span data-testid="clock">{{.}}</span>{{end}}</p>
<form method="post" action="/organiser/pair" class="inline"><button type="submit" data-testid="pair-next">Paruj następną rundę / pair the next round</button></form>
<form method="post" action="/organiser/force" class="inline"><input name="reason" placeholder="powód / reason" required maxlength="500" data-testid="force-reason">
<button type="submit" data-testid="force-pair">Paruj mimo braków / pair with results missing</button></form>
<form method="post" action="/organiser/start" class="inline"><label>runda / round <input name="round" type="number" min="1" value="{{.Round}}" data-testid="start-round"></label>
<button type="submit" data-testid="start-clock">Start zegara / start the clock</button></form>
<form method="post" action="/organiser/import" enctype="multipart/form-data" class="inline" data-testid="import-form">
<label>runda / round <input name="round" type="number" min="1" data-testid="import-round"></label>
<input type="file" name="file" accept=".csv,text/csv">
<textarea name="csv" rows="2" cols="30" placeholder="albo wklej CSV / or paste the CSV" data-testid="import-csv"></textarea>
<button type="submit" data-testid="import">Wczytaj kojarzenia / import pairings</button></form>
<p>CSV: <a href="/organiser/csv/standings.csv" data-testid="csv-standings">klasyfikacja / standings</a> ·
<a href="/organiser/csv/pairings.csv" data-testid="csv-pairings">kojarzenia / pairings</a> ·
<a href="/organiser/csv/results.csv" data-testid="csv-results">wyniki / results</a></p>
</section>

{{$d := .}}{{range $i, $r := .Pairings}}
<section data-testid="round-{{$r.Number}}"><h2>Runda / round {{$r.Number}}</h2>
<table class="grid"><thead><tr><th>Stół / table</th><th>Stan stołu / table</th><th>Gracze / players</th><th>Wynik / result</th><th>Miejsca / seats</th><th>Poprawka / correction</th></tr></thead><tbody>
{{range $p := $r.Tables}}{{$t := index $d.Tables $p.Table}}
<tr data-testid="result-{{$r.Number}}-{{$p.Table}}"><td>{{$p.Table}}</td>
<td>{{if $t.Table}}{{$t.Status}}{{if $t.Conflict}} <strong class="warn">uwaga: dwa stoły / claimed twice</strong>{{end}}{{with $t.Headline}} · {{.PL}}{{end}}{{else}}—{{end}}</td>
<td>{{join $p.Players " – "}}{{if $p.Bye}} (pauza / bye){{end}}</td>
<td><span class="state-{{$p.State}}" data-testid="state-{{$r.Number}}-{{$p.Table}}">{{$p.State}}</span>{{if $p.SampleData}}<div class="warn" data-testid="sample-data-{{$r.Number}}-{{$p.Table}}">{{sample}}</div>{{end}}</td>
<td>{{range $n := $d.Seats}}{{with seat $p $n}}<div>{{$n}}: {{.}}</div>{{end}}{{end}}</td>
<td>{{if not $p.Bye}}<form method="post" action="/organiser/correct" data-testid="correct-{{$r.Number}}-{{$p.Table}}">
<input type="hidden" name="round" value="{{$r.Number}}"><input type="hidden" name="table" value="{{$p.Table}}">
{{range $n := $d.Seats}}<div>{{$n}}: <select name="outcome{{$n}}"><option value=""></option><option>win</option><option>draw</option><option>loss</option></select>
<input name="score{{$n}}" type="number" placeholder="pkt"></div>{{end}}
<input name="reason" placeholder="powód / reason" required maxlength="500">
<button type="submit">Popraw / correct</button></form>{{end}}</td></tr>
{{end}}</tbody></table></section>
{{end}}

<section><h2>Klasyfikacja / standings</h2>
<table class="grid" data-testid="standings"><thead><tr><th>#</th><th>Gracz / player</th><th>Klub / club</th><th>Pkt / points</th><th>Gry / games</th><th>Dogrywki / tie-breaks</th></tr></thead><tbody>
{{range .Standings}}<tr><td>{{if .Tie}}={{end}}{{.Rank}}</td><td>{{.Player}}</td><td>{{.Club}}</td><td>{{.Points}}</td><td>{{.Played}}{{with .SampleData}} <span class="warn" data-testid="standing-sample-data">({{.}}: {{sample}})</span>{{end}}</td>
<td>{{range .TieBreaks}}{{.Name}} {{.Value}} {{end}}</td></tr>{{end}}
</tbody></table></section>

<section><h2>Odrzucone wyniki / refused results</h2>
<table class="grid" data-testid="refusals"><thead><tr><th>Kiedy / when</th><th>Stół / table</th><th>Runda / round</th><th>Powód / reason</th></tr></thead><tbody>
{{range .Refusals}}<tr><td>{{.At.Format "15:04:05"}}</td><td>{{.Table}}</td><td>{{if .Round}}{{.Round}}{{end}}</td><td>{{with .ReasonPL}}<span lang="pl">{{.}}</span><br>{{end}}<span lang="en">{{.Reason}}</span></td></tr>{{else}}<tr><td colspan="4">—</td></tr>{{end}}
</tbody></table>
{{with .Dropped}}<p data-testid="dropped">Starszych odrzuconych wyników pominięto / older refused results dropped: {{.}}</p>{{end}}</section>

<section><h2>Dziennik zmian / audit trail</h2>
<table class="grid" data-testid="audit"><thead><tr><th>Kiedy / when</th><th>Kto / who</th><th>Co / what</th><th>Dlaczego / why</th></tr></thead><tbody>
{{range rev .Audit}}<tr><td>{{.At.Format "15:04:05"}}</td><td>{{.Who}}</td><td>{{.What}}</td><td>{{.Why}}</td></tr>{{end}}
</tbody></table></section>
</main>
<script>
// The page follows the tables: reloaded every 15 s while nothing is being
// filled in.
setInterval(function () {
  var busy = Array.prototype.some.call(document.querySelectorAll("input:not([type=hidden]), textarea, select"), function (e) { return e.value !== "" && e.value !== e.defaultValue; });
  if (!busy && document.activeElement === document.body) location.reload();
}, 15000);
</script>
</body></html>`))

var printTmpl = template.Must(template.New("print").Funcs(funcs).Parse(`<!doctype html>
<html lang="pl"><head><meta charset="utf-8"><title>{{.Name}} — klasyfikacja i kojarzenia</title>
<style>
body { font-family: sans-serif; color: #000; background: #fff; margin: 2em; }
table { border-collapse: collapse; width: 100%; margin-bottom: 2em; }
th, td { border: 1px solid #000; padding: .25em .5em; text-align: left; }
td.num { text-align: right; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; }
@media print {
  body { margin: 0; font-size: 11pt; }
  a, .noprint { display: none; }
  section { break-after: page; }
  tr { break-inside: avoid; }
  thead { display: table-header-group; }
}
</style></head>
<body data-testid="print"><div id="app">
<p class="noprint"><a href="/organiser">← organizator / organiser</a> · <button onclick="print()">Drukuj / print</button></p>
<h1>{{.Name}}</h1><p>{{.Venue}} · {{.Game}} · runda / round {{.Round}}{{if .Rounds}} / {{.Rounds}}{{end}}</p>
<section><h2>Klasyfikacja / standings</h2>
<table data-testid="print-standings"><thead><tr><th>#</th><th>Gracz / player</th><th>Klub / club</th><th>Pkt / points</th><th>Gry / games</th><th>Dogrywki / tie-breaks</th></tr></thead><tbody>
{{range .Standings}}<tr><td>{{if .Tie}}={{end}}{{.Rank}}</td><td>{{.Player}}</td><td>{{.Club}}</td><td class="num">{{.Points}}</td><td class="num">{{.Played}}{{with .SampleData}} ({{.}}: {{sample}}){{end}}</td><td>{{range .TieBreaks}}{{.Name}} {{.Value}} {{end}}</td></tr>{{end}}
</tbody></table></section>
{{with last .Pairings}}<section><h2>Kojarzenia rundy / pairings of round {{.Number}}</h2>
<table data-testid="print-pairings"><thead><tr><th>Stół / table</th><th>Gracze / players (miejsce 1 pierwsze / seat 1 first)</th></tr></thead><tbody>
{{range .Tables}}<tr><td>{{.Table}}</td><td>{{join .Players " – "}}{{if .Bye}} (pauza / bye){{end}}</td></tr>{{end}}
</tbody></table></section>{{end}}
</div></body></html>`))
