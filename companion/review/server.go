package review

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"

	"github.com/sztab/sztab/companion"
)

//go:embed static
var static embed.FS

// Handler serves the review page and what it reads, all read-only (GET):
//
//	/               the page (review.html, review.js, review.css)
//	/api/moment?seq=N  the moment of entry N as JSON (N: a number, first, last)
//	/image/SHA256   an evidence image, checked against its name
func (r *Reviewer) Handler() http.Handler {
	mux := http.NewServeMux()
	files, _ := fs.Sub(static, "static")
	mux.Handle("GET /", http.FileServerFS(files))
	mux.HandleFunc("GET /api/moment", r.serveMoment)
	mux.HandleFunc("GET /image/{sha}", r.serveImage)
	return ownHost(headers(mux))
}

// ownHost answers only requests whose Host names the server itself: the
// address the request came in on, a loopback address or localhost, with
// the listener's port. The page has no sign-in and shows the referee's
// view (secret goals, hands): a web page whose name an attacker made
// resolve to this machine (DNS rebinding) sends its own name as Host, and
// is refused with 421 before anything is read.
func ownHost(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		local, _ := req.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if !hostIsOwn(req.Host, local) {
			own := "localhost"
			if local != nil {
				own = local.String() + " or localhost"
			}
			http.Error(w, fmt.Sprintf("review: this page answers only to its own address (%s), not to Host %q: a name pointed at this machine by someone else's page (DNS rebinding) must not read the referee's view", own, req.Host), http.StatusMisdirectedRequest)
			return
		}
		h.ServeHTTP(w, req)
	})
}

// hostIsOwn says whether host (a request's Host) names the server that
// took the request on local.
func hostIsOwn(host string, local net.Addr) bool {
	name, port, err := net.SplitHostPort(host)
	if err != nil {
		name, port = host, "80" // no port: the browser's default
	}
	name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	if local != nil {
		_, lport, err := net.SplitHostPort(local.String())
		if err != nil || port != lport {
			return false
		}
	}
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	tcp, ok := local.(*net.TCPAddr)
	return ok && tcp.IP.Equal(ip)
}

func headers(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self'; object-src 'none'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "review: read-only", http.StatusMethodNotAllowed)
			return
		}
		h.ServeHTTP(w, req)
	})
}

// momentJSON is a moment as the page reads it.
type momentJSON struct {
	*Moment
	Venue, Table, Game string
}

func (r *Reviewer) serveMoment(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query().Get("seq")
	if q == "" {
		q = "first"
	}
	seq, err := ParseSeq(q, r.Last())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	m, err := r.At(req.Context(), seq)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	id := r.j.Identity()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(momentJSON{Moment: m, Venue: id.Venue, Table: id.Table, Game: id.Game})
}

func (r *Reviewer) serveImage(w http.ResponseWriter, req *http.Request) {
	sha := strings.TrimSuffix(req.PathValue("sha"), ".jpg")
	b, err := companion.ReadEvidenceImage(r.j.Path(), sha)
	switch {
	case errors.Is(err, companion.ErrEvidenceTampered):
		http.Error(w, err.Error(), http.StatusConflict)
		return
	case errors.Is(err, fs.ErrNotExist):
		http.Error(w, "review: image not beside the journal (pruned, or the journal was copied without it)", http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "image/jpeg")
	w.Header().Set("Cache-Control", "private, max-age=86400, immutable")
	w.Write(b)
}
