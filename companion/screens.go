package companion

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/sztab/sztab/companion/display"
	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
)

// screens is the HTTP server of the table's screens.
type screens struct {
	web  *http.Server
	addr atomic.Value // string
}

// startScreens serves the screens when the config asks for them.
func (d *Daemon) startScreens() error {
	if d.feed == nil {
		return nil
	}
	key, err := loadSessionKey(d.table.journal.Path()+".session-key", d.log)
	if err != nil {
		return err
	}
	spec := d.table.spec
	srv := &display.Server{
		Feed: d.feed, Kind: "table", Referee: d.cfg.Display.Referee, Players: d.cfg.Display.Players, Displays: d.cfg.Display.Displays, Log: d.log,
		Heartbeat: d.opts.Heartbeat, SessionKey: key, Clock: d.opts.Clock,
		Commands: spec.Commands, Game: spec.ID, Panel: spec.Panel,
		Command: func(a display.Audience, c wire.Command) error {
			from := Sender{Kind: wire.Ref, Audience: a, ID: c.ID}
			if a != wire.Referee {
				from.Kind = wire.Seat
			}
			// In the sender's queue, beside its MQTT commands.
			return d.submitCommand(Input{Key: &hardware.KeyEvent{Keypad: string(a), Key: c.Name}, Args: c.Args, Text: c.Text, Action: c.Action, From: from})
		},
	}
	if n := d.cfg.Display.MaxConnections; n > 0 {
		srv.Streams.Public = display.PublicStreamsFor(n)
	}
	if spec.Box != nil {
		srv.Box = spec.Box(d.cfg, spec.Title)
		srv.BoxLink = d.cfg.BoxPack() != ""
	}
	srv.Image = d.latestImage
	srv.LoginFailed = d.metrics.loginFailed("screens")
	h := srv.Handler()
	if d.endpoints != nil && !d.cfg.Metrics.OwnListener() {
		// metrics.listen: screens — /metrics (for metrics.allow only),
		// /healthz and /readyz on the screens' listener.
		h = d.endpoints.Wrap(h)
	}
	tlsFiles := display.TLSFiles{CertFile: d.cfg.Resolve(d.cfg.Display.TLS.CertFile), KeyFile: d.cfg.Resolve(d.cfg.Display.TLS.KeyFile)}
	web, err := display.Listen(display.HTTPOptions{Addr: d.cfg.Display.Listen, TLS: tlsFiles, MaxConns: d.cfg.Display.MaxConnections, Log: d.log}, h)
	if err != nil {
		return fmt.Errorf("companion: %w", err)
	}
	webAddr := web.Addr()
	d.screens.addr.Store(webAddr)
	hb := d.opts.Heartbeat
	if hb == 0 {
		hb = 2 * time.Second
	}
	meta, _ := json.Marshal(wire.Meta{Venue: d.cfg.Venue, Table: d.cfg.Table, Game: spec.ID, Title: spec.Title, Language: d.cfg.Language,
		Seats: d.table.seats(), HeartbeatMS: hb.Milliseconds(), Commands: spec.Commands, Attention: wire.Attention(spec.Attention)})
	d.feed.SetMeta(meta)
	d.screens.web = web.Server
	go func() {
		if err := web.Serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			d.log.Error("display server stopped", "err", err)
		}
	}()
	d.log.Info("table screens", "url", web.Scheme()+"://"+loopbackFor(webAddr)+"/")
	return nil
}

func (d *Daemon) stopScreens() {
	if d.screens == nil || d.screens.web == nil {
		return
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	d.screens.web.Shutdown(shut)
	cancel()
	d.screens.web.Close()
}

// DisplayAddr is the address the screens are served on, or "".
func (d *Daemon) DisplayAddr() string {
	if d.screens == nil {
		return ""
	}
	addr, _ := d.screens.addr.Load().(string)
	return addr
}
