package companion

import (
	"path/filepath"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/sztab/sztab/companion/ops"
	"github.com/sztab/sztab/vision"
)

// metrics are one daemon's Prometheus metrics, in a registry of its own
// (several daemons in one test process each have theirs). Labels are few:
// the device, refusal code and action labels pass through ops.Bounded, so a
// table that plays for days keeps the same series. A nil *metrics does
// nothing, so the parts of the daemon never check.
type metrics struct {
	reg *prometheus.Registry

	accepted     *prometheus.CounterVec
	refused      *prometheus.CounterVec
	commit       prometheus.Histogram
	rules        prometheus.Histogram
	publishLag   *prometheus.HistogramVec
	reconnects   prometheus.Counter
	lost         prometheus.Counter
	published    prometheus.Counter
	republished  prometheus.Counter
	sensorEvents *prometheus.CounterVec
	faults       *prometheus.CounterVec
	frame        prometheus.Histogram
	suspect      prometheus.Counter
	loginFails   *prometheus.CounterVec

	actionLabel, codeLabel, deviceLabel ops.Bounded
	// lastSnapshot is when the last snapshot reached the table (unix nanos;
	// 0: none yet).
	lastSnapshot atomic.Int64
}

// Buckets of the histograms, in seconds.
var (
	commitBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}
	rulesBuckets  = []float64{0.00001, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25}
	lagBuckets    = []float64{0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	frameBuckets  = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}
)

// labelLimit is how many values one label of one metric may take before
// further ones are counted as "other".
const labelLimit = 32

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry(),
		actionLabel: ops.Bounded{Max: labelLimit}, codeLabel: ops.Bounded{Max: labelLimit}, deviceLabel: ops.Bounded{Max: labelLimit}}
	f := func(c prometheus.Collector) { m.reg.MustRegister(c) }
	m.accepted = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_actions_accepted_total",
		Help: "Actions the engine accepted and the journal committed, by action type."}, []string{"action"})
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_actions_refused_total",
		Help: "Actions refused (by the rules, the binder, or not saved), by refusal code."}, []string{"code"})
	m.commit = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sztab_journal_commit_seconds",
		Help: "Time to append and sync one journal entry (action or notice).", Buckets: commitBuckets})
	m.rules = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sztab_rules_apply_seconds",
		Help: "Time the game's engine took to apply one action.", Buckets: rulesBuckets})
	m.publishLag = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "sztab_publish_lag_seconds",
		Help: "Time from the journal commit until a sink delivered the new state (mqtt: the broker acknowledged it).", Buckets: lagBuckets}, []string{"sink"})
	m.reconnects = prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_mqtt_reconnects_total",
		Help: "Connections to the MQTT broker after the first one."})
	m.lost = prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_mqtt_connection_lost_total",
		Help: "Times the connection to the MQTT broker dropped."})
	m.published = prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_events_published_total",
		Help: "Journaled events the broker acknowledged."})
	m.republished = prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_events_republished_total",
		Help: "Journaled events published again: after a failed publish, a reconnect, or from before this start."})
	m.sensorEvents = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_sensor_events_total",
		Help: "Inputs reaching the table, by device and kind (tag, untag, key, snapshot, fault)."}, []string{"device", "kind"})
	m.faults = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_device_faults_total",
		Help: "Device faults reported by the drivers, by device and fault code."}, []string{"device", "code"})
	m.frame = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "sztab_camera_frame_seconds",
		Help: "Time from taking a camera frame to its snapshot reaching the table.", Buckets: frameBuckets})
	m.suspect = prometheus.NewCounter(prometheus.CounterOpts{Name: "sztab_dice_suspect_total",
		Help: "Times a physical die started to look loaded to the fairness watch."})
	m.loginFails = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "sztab_login_failures_total",
		Help: "Failed or refused sign-ins: on the screens, or wrong passwords on the embedded broker."}, []string{"where"})
	for _, c := range []prometheus.Collector{m.accepted, m.refused, m.commit, m.rules, m.publishLag, m.reconnects, m.lost,
		m.published, m.republished, m.sensorEvents, m.faults, m.frame, m.suspect, m.loginFails} {
		f(c)
	}
	m.loginFails.WithLabelValues("screens")
	m.loginFails.WithLabelValues("broker")
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// gauge registers a gauge read at each scrape; fn must not block.
func (m *metrics) gauge(name, help string, labels prometheus.Labels, fn func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: labels}, fn))
}

// register adds the gauges that read the daemon's parts at scrape time.
func (m *metrics) register(d *Daemon) {
	camera := "none"
	switch {
	case d.cfg.Camera != nil && cgoBuild:
		camera = "configured"
	case d.cfg.Camera != nil:
		camera = "unsupported"
	}
	m.gauge("sztab_build_info", "Always 1: the daemon's version, game, Go version, and whether it has cgo (OpenCV) and a camera.",
		prometheus.Labels{"version": Version, "game": d.cfg.Game, "goversion": runtime.Version(), "cgo": strconv.FormatBool(cgoBuild), "camera": camera},
		func() float64 { return 1 })
	m.gauge("sztab_journal_seq", "Sequence number of the last journal entry.", nil, func() float64 { return float64(d.table.Seq()) })
	m.gauge("sztab_mqtt_connected", "1 while the connection to the MQTT broker is up.", nil, func() float64 {
		if p := d.pub; p != nil && p.Connected() {
			return 1
		}
		return 0
	})
	m.gauge("sztab_sink_queue_depth", "What waits in a sink: for mqtt the retained topics, answers and journal entries not yet acknowledged.",
		prometheus.Labels{"sink": "mqtt"}, func() float64 { return float64(d.mqtt.depth(d.table.Seq())) })
	if d.feed != nil {
		m.gauge("sztab_sink_queue_depth", "What waits in a sink: for mqtt the retained topics, answers and journal entries not yet acknowledged.",
			prometheus.Labels{"sink": "screens"}, func() float64 { return float64(d.feed.Pending()) })
		m.gauge("sztab_screens_clients", "Pages following the table's screens live (SSE clients).", nil, func() float64 { return float64(d.feed.Subscribers()) })
	}
	m.gauge("sztab_fairness_flagged_dice", "Physical dice the fairness watch flags as loaded now.", nil, func() float64 {
		n := 0
		for _, r := range d.table.watch.Reports() {
			if r.Loaded {
				n++
			}
		}
		return float64(n)
	})
	m.gauge("sztab_camera_snapshot_age_seconds", "Seconds since the last table snapshot (camera or simulator) reached the table; since the sensors started when none has yet.",
		nil, func() float64 {
			last := m.lastSnapshot.Load()
			if last == 0 {
				last = d.started.Load()
			}
			if last == 0 {
				return 0
			}
			return time.Since(time.Unix(0, last)).Seconds()
		})
	dir := filepath.Dir(d.cfg.Resolve(d.cfg.Journal))
	if _, _, ok := diskSpace(dir); ok {
		m.gauge("sztab_journal_disk_size_bytes", "Size of the file system holding the journal.", nil, func() float64 { s, _, _ := diskSpace(dir); return s })
		m.gauge("sztab_journal_disk_free_bytes", "Free space (for the daemon) on the file system holding the journal.", nil, func() float64 { _, f, _ := diskSpace(dir); return f })
	}
}

func (m *metrics) acceptedAction(action string) {
	if m != nil {
		m.accepted.WithLabelValues(m.actionLabel.Value(action)).Inc()
	}
}

func (m *metrics) refusedAction(code string) {
	if m != nil {
		m.refused.WithLabelValues(m.codeLabel.Value(code)).Inc()
	}
}

func (m *metrics) committed(took time.Duration) {
	if m != nil {
		m.commit.Observe(took.Seconds())
	}
}

func (m *metrics) applied(took time.Duration) {
	if m != nil {
		m.rules.Observe(took.Seconds())
	}
}

func (m *metrics) delivered(sink string, committed time.Time) {
	if m != nil && !committed.IsZero() {
		m.publishLag.WithLabelValues(sink).Observe(time.Since(committed).Seconds())
	}
}

func (m *metrics) input(in Input) {
	if m == nil {
		return
	}
	device, kind := "", ""
	switch {
	case in.Tag != nil:
		device, kind = in.Tag.Reader, "tag"
		if !in.Tag.Present {
			kind = "untag"
		}
		if in.Tag.Fault != nil {
			kind = "fault"
		}
	case in.Key != nil:
		device, kind = in.Key.Keypad, "key"
		if in.Key.Fault != nil {
			kind = "fault"
		}
	case in.Snapshot != nil:
		device, kind = "camera", "snapshot"
		now := time.Now()
		m.lastSnapshot.Store(now.UnixNano())
		if !in.Snapshot.Time.IsZero() {
			m.frame.Observe(now.Sub(in.Snapshot.Time).Seconds())
		}
	default:
		return
	}
	m.sensorEvents.WithLabelValues(m.deviceLabel.Value(device), kind).Inc()
}

func (m *metrics) fault(device, code string) {
	if m != nil {
		m.faults.WithLabelValues(m.deviceLabel.Value(device), m.codeLabel.Value(code)).Inc()
	}
}

func (m *metrics) loginFailed(where string) func() {
	if m == nil {
		return nil
	}
	c := m.loginFails.WithLabelValues(where)
	return c.Inc
}

// camera registers the camera pipeline's own counters, read at scrape time.
// Registered once per daemon (the sensors start once).
func (m *metrics) camera(stats func() vision.Stats) {
	if m == nil {
		return
	}
	counter := func(name, help string, fn func(vision.Stats) int) {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, func() float64 { return float64(fn(stats())) }))
	}
	counter("sztab_camera_frames_total", "Frames the camera pipeline read.", func(s vision.Stats) int { return s.Frames })
	counter("sztab_camera_errors_total", "Frames the camera pipeline failed to read or process.", func(s vision.Stats) int { return s.Errors })
	counter("sztab_camera_reopens_total", "Times the camera was reopened after it stalled.", func(s vision.Stats) int { return s.Reopens })
}
