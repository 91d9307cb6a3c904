package display

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/sztab/sztab/companion/wire"
)

//go:embed static
var static embed.FS

// Credential is a user name and password from the table config.
type Credential struct {
	User     string `yaml:"user"`
	Password string `yaml:"password"`
}

// PlayerCredential is a seat's credential.
type PlayerCredential struct {
	Seat       int `yaml:"seat"`
	Credential `yaml:",inline"`
}

// Server serves the pages of one table (or of the venue wall, with Kind "hub").
type Server struct {
	Feed *Feed
	// Kind picks the pages: "table" (/, /referee, /player/{seat}) or "hub".
	Kind    string
	Referee Credential
	Players []PlayerCredential
	// Displays are the read-only screens' tokens: each signs in as a viewer
	// of the public view only (see DisplayToken).
	Displays []DisplayToken
	// Command receives the commands of the referee's and the players'
	// pages, checked against Commands; nil disables the controls. An error
	// wrapping ErrSlowDown is answered 429 (the sender is over its rate),
	// any other 503.
	Command func(Audience, wire.Command) error
	// Commands are the game's commands.
	Commands wire.Vocabulary
	// Game is the game's id; Panel its screen panel, served as
	// /static/games/<Game>.js (nil: the generic panel).
	Game  string
	Panel []byte
	// Box is the referee's enrolment page of the table's box pack, served
	// under /referee/box for the referee only (nil: the game has none).
	Box http.Handler
	// BoxLink says the table's config names a box pack (box:): the
	// referee's page then links to Box's page; otherwise it says nothing
	// of it.
	BoxLink bool
	// Image returns the latest annotated table image (JPEG), if any.
	Image func() ([]byte, bool)
	Log   *slog.Logger
	// Heartbeat is the SSE keep-alive period (default 2s); a page that hears
	// nothing for three periods shows itself stale.
	Heartbeat time.Duration
	// SessionKey signs the sign-in cookies. Keep it across restarts (the
	// daemon stores it beside the journal) so that a power cut does not sign
	// everyone out; empty means a fresh random key for this process.
	SessionKey []byte
	// Clock tells the time (session expiry, sign-in backoff, rate limits);
	// nil is time.Now.
	Clock func() time.Time
	// Backoff brakes password guessing on /login; nil is a Backoff with the
	// defaults on Clock.
	Backoff *Backoff
	// LoginFailed, if set, is told of each failed or refused sign-in (for
	// the metrics); it must not block.
	LoginFailed func()
	// Streams bound the live streams: places held back for the signed-in
	// roles, a share for the public screens, a cap per address, a
	// lifetime (see StreamLimits; zero values take the defaults).
	Streams StreamLimits

	key          []byte
	clientErrors rateLimit
	streams      *streamSlots
}

// ErrSlowDown says a sender of commands is over its rate.
var ErrSlowDown = errors.New("slow down")

// The pages' error reports (POST /client-error) logged at most: a burst of
// 5 per address then one every 12 s, and a burst of 20 from all addresses
// together then one every 2 s; of each, the first 300 bytes on one line.
const (
	clientErrorBurst        = 5
	clientErrorEvery        = 12 * time.Second
	clientErrorGlobalBurst  = 20
	clientErrorGlobalEvery  = 2 * time.Second
	clientErrorAddresses    = 1024
	clientErrorLoggedPrefix = 300
)

// Handler returns the HTTP handler.
func (s *Server) Handler() http.Handler {
	if s.Log == nil {
		s.Log = slog.Default()
	}
	if s.Heartbeat == 0 {
		s.Heartbeat = 2 * time.Second
	}
	if s.Backoff == nil {
		s.Backoff = &Backoff{Clock: s.now}
	}
	s.clientErrors = rateLimit{every: clientErrorEvery, burst: clientErrorBurst,
		globalEvery: clientErrorGlobalEvery, globalBurst: clientErrorGlobalBurst, maxKeys: clientErrorAddresses}
	s.streams = newStreamSlots(s.Streams, s.Log)
	s.key = s.SessionKey
	if len(s.key) == 0 {
		s.key = make([]byte, 32)
		rand.Read(s.key)
	}
	sub, _ := fs.Sub(static, "static")
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /stream", s.stream)
	mux.HandleFunc("POST /client-error", s.sameOrigin(s.clientError))
	mux.HandleFunc("GET /kiosk/{token}", s.kioskPath)
	if s.Kind == "hub" {
		mux.HandleFunc("GET /{$}", s.page("hub", Public))
		if s.Referee.User != "" {
			// The venue's organiser signs in with the referee's form.
			mux.HandleFunc("GET /login", s.loginForm)
			mux.HandleFunc("POST /login", s.sameOrigin(s.login))
			mux.HandleFunc("POST /logout", s.sameOrigin(s.logout))
		}
	} else {
		mux.HandleFunc("GET /{$}", s.page("table", Public))
		mux.HandleFunc("GET /referee", s.page("referee", Referee))
		mux.HandleFunc("GET /player/{seat}", s.playerPage)
		mux.HandleFunc("GET /login", s.loginForm)
		mux.HandleFunc("POST /login", s.sameOrigin(s.login))
		mux.HandleFunc("POST /logout", s.sameOrigin(s.logout))
		mux.HandleFunc("POST /referee/command", s.sameOrigin(s.command))
		mux.HandleFunc("POST /command", s.sameOrigin(s.command))
		mux.HandleFunc("GET /static/games/{file}", s.panel)
		mux.HandleFunc("GET /table.jpg", s.image)
		if s.Box != nil {
			mux.HandleFunc("GET /referee/box", s.refereeOnly(s.Box.ServeHTTP))
			mux.HandleFunc("GET /referee/box/{file}", s.refereeOnly(s.Box.ServeHTTP))
			mux.HandleFunc("POST /referee/box/save", s.sameOrigin(s.refereeOnly(s.Box.ServeHTTP)))
		}
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.errorPage(w, http.StatusNotFound, "Nie ma takiej strony", "There is no such page", r.URL.Path)
	})
	return mux
}

// allowed: the referee may see every page; a player only their own.
func (s *Server) allowed(r *http.Request, want Audience) bool {
	if want == Public {
		return true
	}
	got, ok := s.sessionOf(r)
	return ok && (got == want || got == Referee)
}

func (s *Server) seatExists(seat int) bool {
	for _, p := range s.Players {
		if p.Seat == seat {
			return true
		}
	}
	return false
}

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="pl"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sztab</title>
<link rel="stylesheet" href="/static/sztab.css">
</head>
<body data-page="{{.Page}}" data-audience="{{.Audience}}"{{with .Box}} data-box="{{.}}"{{end}}>
<div id="app"><p class="boot">Sztab…</p></div>
<script src="/static/panels.js"></script>
<script src="/static/newgame.js"></script>
{{with .Game}}<script src="/static/games/{{.}}.js"></script>{{end}}
<script src="/static/app.js"></script>
</body></html>`))

func (s *Server) page(name string, a Audience) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); a == Public && q.Has("display") {
			// A display's token URL: sign in, then the page without it.
			s.kiosk(w, r, q.Get("display"), r.URL.Path)
			return
		}
		if !s.allowed(r, a) {
			if got, ok := s.sessionOf(r); ok {
				// Signed in, but for another seat: say so rather than
				// asking for a password that cannot help.
				s.Log.Warn("display: page refused", "page", r.URL.Path, "session", string(got), "remote", r.RemoteAddr)
				s.forbiddenPage(w, got, r.URL.Path)
				return
			}
			http.Redirect(w, r, loginURL(r.URL.Path, false), http.StatusSeeOther)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		game := ""
		if s.Panel != nil {
			game = s.Game
		}
		box := ""
		if name == "referee" && s.Box != nil && s.BoxLink {
			box = "/referee/box"
		}
		pageTmpl.Execute(w, map[string]string{"Page": name, "Audience": string(a), "Game": game, "Box": box})
	}
}

// refereeOnly serves h to the referee; a page asked by anyone else is
// the sign-in form (or, signed in as a player, a refusal), any other
// request is refused.
func (s *Server) refereeOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.allowed(r, Referee) {
			h(w, r)
			return
		}
		if r.Method == http.MethodGet && r.URL.Path == "/referee/box" {
			if got, ok := s.sessionOf(r); ok {
				s.forbiddenPage(w, got, r.URL.Path)
				return
			}
			http.Redirect(w, r, loginURL(r.URL.Path, false), http.StatusSeeOther)
			return
		}
		http.Error(w, "display: the referee's only / tylko dla sędziego", http.StatusForbidden)
	}
}

func (s *Server) playerPage(w http.ResponseWriter, r *http.Request) {
	seat, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil || !s.seatExists(seat) {
		s.errorPage(w, http.StatusNotFound, "Przy tym stole nie ma miejsca "+r.PathValue("seat"),
			"This table has no seat "+r.PathValue("seat"), r.URL.Path)
		return
	}
	s.page("player", PlayerAudience(seat))(w, r)
}

var errorTmpl = template.Must(template.New("err").Parse(`<!doctype html>
<html lang="pl"><head><meta charset="utf-8"><title>Sztab</title>
<link rel="stylesheet" href="/static/sztab.css"></head>
<body><main class="notice" data-testid="error-page"><h1>{{.PL}}</h1><p lang="en">{{.EN}}</p>
<p class="path">{{.Path}}</p><p><a href="/">Ekran stołu / table screen</a></p>
{{with .Own}}<p><a href="{{.}}" data-testid="own-page">Twoja strona / your page</a></p>
<form method="post" action="/logout"><button type="submit" data-testid="sign-out">Wyloguj / sign out</button></form>{{end}}
</main></body></html>`))

func (s *Server) errorPage(w http.ResponseWriter, code int, pl, en, path string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	errorTmpl.Execute(w, map[string]any{"PL": pl, "EN": en, "Path": path})
}

// forbiddenPage tells someone signed in as got that path is another's, with
// a link to their own page and a way to sign out.
func (s *Server) forbiddenPage(w http.ResponseWriter, got Audience, path string) {
	whoPL, whoEN, own := "sędzia", "the referee", "/referee"
	if name, ok := viewerName(got); ok {
		whoPL, whoEN, own = "ekran "+name+", tylko widok publiczny", "display "+name+", the public view only", "/"
	} else if seat, ok := strings.CutPrefix(string(got), "player/"); ok {
		whoPL, whoEN, own = "gracz "+seat, "player "+seat, "/"+string(got)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	errorTmpl.Execute(w, map[string]any{"PL": "Ta strona nie jest dla Ciebie (zalogowano: " + whoPL + ")",
		"EN": "This page is not yours (signed in as " + whoEN + "); sign out to switch", "Path": path, "Own": own})
}

var loginTmpl = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="pl"><head><meta charset="utf-8"><title>Sztab — logowanie</title>
<link rel="stylesheet" href="/static/sztab.css"></head>
<body><main class="notice"><h1>Logowanie / Sign in</h1>
{{if .Failed}}<p class="warn" data-testid="login-failed">Zły login lub hasło / wrong user or password</p>{{end}}
<form method="post" action="/login">
<input type="hidden" name="next" value="{{.Next}}">
<label>Użytkownik / user <input name="user" id="user" autocomplete="username"></label>
<label>Hasło / password <input name="password" id="password" type="password" autocomplete="current-password"></label>
<button type="submit" id="login">Zaloguj / sign in</button>
</form></main></body></html>`))

func (s *Server) loginForm(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	loginTmpl.Execute(w, map[string]any{"Next": safeNext(r.URL.Query().Get("next")), "Failed": r.URL.Query().Has("failed")})
}

func credentialMatches(c Credential, user, password string) bool {
	if c.User == "" || c.Password == "" {
		return false
	}
	u := subtle.ConstantTimeCompare([]byte(c.User), []byte(user))
	p := subtle.ConstantTimeCompare([]byte(c.Password), []byte(password))
	return u&p == 1
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	user, pass, next := r.FormValue("user"), r.FormValue("password"), safeNext(r.FormValue("next"))
	addr := clientAddr(r)
	if ok, wait := s.Backoff.Allow(user, addr); !ok {
		s.loginFailed()
		// Locked out: the password is not even looked at.
		s.Log.Warn("display: sign-in refused while locked out", "user", logText(user, 64), "remote", addr, "wait", wait.Round(time.Second).String())
		w.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
		s.errorPage(w, http.StatusTooManyRequests,
			"Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za "+waitText(wait)+".",
			"Too many failed sign-ins. Try again in "+waitText(wait)+".", r.URL.Path)
		return
	}
	var a Audience
	switch {
	case credentialMatches(s.Referee, user, pass):
		a = Referee
	default:
		for _, p := range s.Players {
			if credentialMatches(p.Credential, user, pass) {
				a = PlayerAudience(p.Seat)
			}
		}
	}
	if a == "" {
		lock := s.Backoff.Fail(user, addr)
		s.loginFailed()
		s.Log.Warn("display: failed sign-in", "user", logText(user, 64), "remote", addr, "locked_out_for", lock.String())
		http.Redirect(w, r, loginURL(next, true), http.StatusSeeOther)
		return
	}
	s.Backoff.Succeed(user, addr)
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: s.sign(a), Path: "/", HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) loginFailed() {
	if s.LoginFailed != nil {
		s.LoginFailed()
	}
}

// waitText says how long a lock-out lasts, rounded up ("12 s", "4 min":
// the same in Polish and English).
func waitText(d time.Duration) string {
	if d <= 2*time.Minute {
		return strconv.Itoa(int((d+time.Second-1)/time.Second)) + " s"
	}
	return strconv.Itoa(int((d+time.Minute-1)/time.Minute)) + " min"
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: cookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	a := Audience(r.URL.Query().Get("view"))
	if a == "" {
		a = Public
	}
	if !s.allowed(r, a) {
		http.Error(w, "display: sign in to see this view", http.StatusForbidden)
		return
	}
	if _, ok := w.(http.Flusher); !ok {
		http.Error(w, "display: streaming unsupported", http.StatusInternalServerError)
		return
	}
	if r.ProtoMajor == 1 {
		// A stream's connection ends with it (refused, ended for a newer
		// one, at its lifetime): it is not left idle for the next request,
		// where a client that never reads would keep holding it. (Over
		// HTTP/2 the connection carries other requests and stays.)
		w.Header().Set("Connection", "close")
	}
	// A signed-in role streams in places of its own, whatever view it
	// follows; everyone else shares the public ones.
	role, _ := s.sessionOf(r)
	slot := s.streams.acquire(role, clientAddr(r))
	if slot == nil {
		w.Header().Set("Retry-After", "5")
		http.Error(w, "display: every place for a live screen is taken; try again soon / wszystkie miejsca dla ekranów są zajęte; spróbuj za chwilę", http.StatusServiceUnavailable)
		return
	}
	defer s.streams.release(slot)
	var lifetime <-chan time.Time
	if slot.public {
		t := time.NewTimer(s.streams.limits.Lifetime)
		defer t.Stop()
		lifetime = t.C
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	first, live, cancel := s.Feed.Subscribe(a)
	defer cancel()
	// The stream lasts as long as the page stays: the server's WriteTimeout
	// would end it, so each write gets its own deadline instead (wall-clock
	// time, as the connection's are; a test's recorder does not support it).
	// A client that stops reading is cut off once its buffers are full and
	// a write stalls past the deadline.
	// The server's ReadTimeout does not apply: net/http clears the read
	// deadline once the request is read.
	rc := http.NewResponseController(w)
	write := func(m Message) bool {
		rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
		_, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", m.Kind, m.Data)
		return err == nil
	}
	rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
	fmt.Fprintf(w, "retry: 1000\n\n")
	for _, m := range first {
		if !write(m) {
			return
		}
	}
	if rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(s.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-slot.end:
			return // a newer stream of the same address or role took the place
		case <-lifetime:
			return // the page reconnects for a fresh view
		case m := <-live:
			if m.Kind == "overflow" {
				return // the browser reconnects and gets a fresh view
			}
			if !write(m) || rc.Flush() != nil {
				return
			}
		case <-tick.C:
			if !write(Message{Kind: "ping", Data: []byte(strconv.FormatInt(s.now().UnixMilli(), 10))}) || rc.Flush() != nil {
				return
			}
		}
	}
}

// command takes a command from the referee's page, or a player's for their
// seat; the answer comes on the page's event stream.
func (s *Server) command(w http.ResponseWriter, r *http.Request) {
	got, ok := s.sessionOf(r)
	if _, viewer := viewerName(got); viewer {
		ok = false // a display only watches
	}
	if !ok || (r.URL.Path == "/referee/command" && got != Referee) {
		http.Error(w, "display: sign in as the referee or a player to send commands", http.StatusForbidden)
		return
	}
	if s.Command == nil {
		http.Error(w, "display: this table takes no commands", http.StatusNotImplemented)
		return
	}
	if !isJSON(r) {
		http.Error(w, "display: a command is JSON (Content-Type: application/json)", http.StatusUnsupportedMediaType)
		return
	}
	from := wire.Seat
	if got == Referee {
		from = wire.Ref
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, wire.MaxCommandBytes+1))
	if err != nil {
		http.Error(w, "display: "+err.Error(), http.StatusBadRequest)
		return
	}
	c, err := wire.ParseCommand(body, s.Commands, from)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.Command(got, c); err != nil {
		if errors.Is(err, ErrSlowDown) {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "display: "+err.Error(), http.StatusTooManyRequests)
			return
		}
		http.Error(w, "display: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// panel serves the game's screen panel.
func (s *Server) panel(w http.ResponseWriter, r *http.Request) {
	if s.Panel == nil || r.PathValue("file") != s.Game+".js" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Write(s.Panel)
}

func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	if s.Image == nil {
		http.NotFound(w, r)
		return
	}
	img, ok := s.Image()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(img)
}

// clientError logs a page's rendering failure; the page keeps its last
// good state and shows a warning. Anyone may report, so the reports are
// rate-limited and what is logged is bounded.
func (s *Server) clientError(w http.ResponseWriter, r *http.Request) {
	if !isJSON(r) {
		http.Error(w, "display: an error report is JSON (Content-Type: application/json)", http.StatusUnsupportedMediaType)
		return
	}
	addr := clientAddr(r)
	if !s.clientErrors.allow(addr, s.now()) {
		w.Header().Set("Retry-After", strconv.Itoa(int(clientErrorEvery/time.Second)))
		http.Error(w, "display: too many error reports", http.StatusTooManyRequests)
		return
	}
	var report struct {
		Page  string `json:"page"`
		Error string `json:"error"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<10)).Decode(&report); err != nil {
		http.Error(w, "display: unreadable error report", http.StatusBadRequest)
		return
	}
	s.Log.Error("display: a page failed to render the state", "page", logText(report.Page, 100),
		"error", logText(report.Error, clientErrorLoggedPrefix), "remote", addr, "reports_dropped", s.clientErrors.takeDropped())
	w.WriteHeader(http.StatusNoContent)
}

// SignedIn says whether r comes with a session of the referee (on the venue
// wall's listener: of its organiser). Call it after Handler.
func (s *Server) SignedIn(r *http.Request) bool {
	a, ok := s.sessionOf(r)
	return ok && a == Referee
}

// SameOrigin guards a handler that changes something, as the table's own
// forms are guarded: refused (403, logged) unless from this server's pages.
// Call it after Handler.
func (s *Server) SameOrigin(h http.HandlerFunc) http.HandlerFunc { return s.sameOrigin(h) }

// LoginURL is the sign-in form that returns to next.
func LoginURL(next string) string { return loginURL(next, false) }
