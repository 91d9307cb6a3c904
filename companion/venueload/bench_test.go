package venueload

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/sztab/sztab/internal/brokertest"
)

// seconds is the measured window of the benchmarks (SZTAB_VENUELOAD_SECONDS,
// default 10), after 3 s of warming up.
func seconds() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("SZTAB_VENUELOAD_SECONDS") + "s"); err == nil && d > 0 {
		return d
	}
	return 10 * time.Second
}

// venueLoad is the hall of the issue: 100 tables, 10 state updates a
// second each (SZTAB_VENUELOAD_RATE sets another rate, to explore), the
// hub's default wall pacing, and the TV reading the wall.
func venueLoad() load {
	rate := 10
	if n, err := strconv.Atoi(os.Getenv("SZTAB_VENUELOAD_RATE")); err == nil && n > 0 {
		rate = n
	}
	return load{tables: 100, rate: rate, warm: 3 * time.Second, dur: seconds(), tv: true}
}

func report(b *testing.B, r result) {
	b.ReportMetric(r.sentPerSec, "msgs/s")
	b.ReportMetric(float64(r.lost), "lost")
	b.ReportMetric(float64(r.bareLost), "bare-lost")
	b.ReportMetric(float64(r.unacked), "unacked")
	b.ReportMetric(pct(r.venue, .5), "venue-p50-ms")
	b.ReportMetric(pct(r.venue, .99), "venue-p99-ms")
	b.ReportMetric(pct(r.bare, .5), "bare-p50-ms")
	b.ReportMetric(pct(r.bare, .99), "bare-p99-ms")
	if bare := pct(r.bare, .99); bare > 0 {
		b.ReportMetric(pct(r.venue, .99)/bare, "venue/bare")
		if len(r.wall) > 0 {
			b.ReportMetric(pct(r.wall, .99)/bare, "wall/bare")
		}
	}
	if len(r.wall) > 0 {
		b.ReportMetric(pct(r.wall, .5), "wall-p50-ms")
		b.ReportMetric(pct(r.wall, .99), "wall-p99-ms")
	}
	b.ReportMetric(r.brokerCPU, "broker-cpu-%")
	b.ReportMetric(r.venueCPU, "venue-cpu-%")
	b.ReportMetric(float64(r.wallWrong), "wall-wrong")
	if len(r.venue) == 0 || len(r.bare) == 0 {
		b.Errorf("venueload: no latency samples (venue %d, bare %d)", len(r.venue), len(r.bare))
	}
}

// BenchmarkVenueLoadMosquitto: 100 tables × 10 retained QoS 1 states a
// second through Debian's Mosquitto to the venue hub (its own process).
// venue-p99-ms is a state's publish → the hub has applied it; bare-p99-ms
// the same states at a bare paho subscriber of the same broker in the same
// run; venue/bare their ratio (goal ≤ 1.5). wall-p99-ms is publish → the
// wall's live stream (one page) has it, the wall paced by the hub's
// WallEvery. lost counts acknowledged states the hub never got (goal 0);
// broker-cpu-% and venue-cpu-% are percent of one core.
func BenchmarkVenueLoadMosquitto(b *testing.B) {
	for range b.N {
		report(b, venueLoad().run(b, startMosquitto(b)))
	}
}

// BenchmarkVenueLoadNATS: the same through a three-node NATS cluster's
// MQTT interface, the tables spread over the nodes, the hub and the bare
// subscriber on the first, at 200, 500 and 1,000 states a second (100
// tables at 2, 5 and 10 a second; SZTAB_VENUELOAD_RATE sets one rate a
// table instead), on the kept nats-server or, with SZTAB_NATS=both (`make
// bench`), on the Go module's and Debian's 2.9.10 in the same run.
// Reported, no goal.
func BenchmarkVenueLoadNATS(b *testing.B) {
	rates := []int{2, 5, 10}
	if os.Getenv("SZTAB_VENUELOAD_RATE") != "" {
		rates = []int{venueLoad().rate}
	}
	for _, rate := range rates {
		for _, server := range brokertest.NATSServers() {
			l := venueLoad()
			l.rate, l.compared = rate, server.Name != brokertest.ModuleNATS.Name
			b.Run(fmt.Sprintf("rate=%d/server=%s", l.tables*rate, server.Name), func(b *testing.B) {
				for range b.N {
					report(b, l.run(b, startNATSCluster(b, server)))
				}
			})
		}
	}
}

// BenchmarkVenueWallSpectators: 2,000 spectators' live streams of the
// venue wall (loopback, 8 a source address, the wall's cap) while 100 tables publish 10
// states a second through Mosquitto. stream-p99-ms is a table's publish →
// each stream has it; heap-KB/stream, stack-KB/stream and
// goroutines/stream are the hub's growth with the streams (after a GC);
// dropped-streams are streams the hub closed (goal 0).
func BenchmarkVenueWallSpectators(b *testing.B) {
	for range b.N {
		l := venueLoad()
		l.tv, l.spectators = false, 2000
		r := l.run(b, startMosquitto(b))
		b.ReportMetric(r.sentPerSec, "msgs/s")
		b.ReportMetric(float64(r.lost), "lost")
		b.ReportMetric(pct(r.spect, .5), "stream-p50-ms")
		b.ReportMetric(pct(r.spect, .99), "stream-p99-ms")
		b.ReportMetric(r.heapPerStream/1024, "heap-KB/stream")
		b.ReportMetric(r.stackPerStream/1024, "stack-KB/stream")
		b.ReportMetric(r.goroutinesPerStream, "goroutines/stream")
		b.ReportMetric(float64(r.droppedStreams), "dropped-streams")
		b.ReportMetric(r.brokerCPU, "broker-cpu-%")
		b.ReportMetric(r.venueCPU, "venue-cpu-%")
		if len(r.spect) == 0 {
			b.Error("venueload: no stream latency samples")
		}
	}
}

// TestVenueLoadShort is the benchmark's bounded run for `make test`: 10
// tables for 2 s through Mosquitto to the hub's process; no acknowledged
// state lost at the hub or the bare subscriber, the wall's page ends with
// every table's last state (checked in run), and every figure measured.
func TestVenueLoadShort(t *testing.T) {
	l := load{tables: 10, rate: 10, warm: time.Second, dur: 2 * time.Second, tv: true, spectators: 20}
	r := l.run(t, startMosquitto(t))
	if r.lost != 0 || r.bareLost != 0 || r.unacked != 0 {
		t.Errorf("lost %d at the hub, %d at the bare subscriber, %d unacknowledged; want none", r.lost, r.bareLost, r.unacked)
	}
	if r.droppedStreams != 0 {
		t.Errorf("%d of the wall's streams dropped", r.droppedStreams)
	}
	// 10 tables × 10 a second for 2 s, the first seconds of warming up
	// aside: at least half of it, on a busy machine.
	if r.sentPerSec < 50 {
		t.Errorf("the tables sent %.0f states a second, want about 100", r.sentPerSec)
	}
	for name, d := range map[string][]time.Duration{"hub": r.venue, "bare subscriber": r.bare, "wall": r.wall, "spectators": r.spect} {
		if len(d) < 10 {
			t.Errorf("%d latency samples at the %s", len(d), name)
		}
	}
	if r.heapPerStream <= 0 || r.goroutinesPerStream < 1 {
		t.Errorf("the streams' memory not measured: %.0f B heap, %.1f goroutines a stream", r.heapPerStream, r.goroutinesPerStream)
	}
}

// The CPU figures come from /proc/<pid>/stat's utime and stime.
func TestStatTicks(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int64
		ok   bool
	}{
		{"4242 (mosquitto) S 1 4242 4242 0 -1 4194560 1090 0 0 0 137 58 0 0 20 0 1 0 2958117 12345 678 18446744073709551615", 195, true},
		{"17 (a (b) c) R 1 17 17 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 1 1 1", 11, true},
		{"17 (short) R 1 2", 0, false},
		{"no parenthesis", 0, false},
		{"17 (x)", 0, false},
	} {
		got, ok := statTicks(tc.line)
		if got != tc.want || ok != tc.ok {
			t.Errorf("statTicks(%q) = %d, %v; want %d, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// The benchmark's readers of outside text (/proc's stat lines, the wall's
// stream) never panic on what they are given.
func FuzzReaders(f *testing.F) {
	f.Add("4242 (mosquitto) S 1 4242 4242 0 -1 4194560 1090 0 0 0 137 58 0 0", `{"tables":[{"table":"t000","seq":42}]}`)
	f.Add("1 ())", `{"table":"t000"}"seq":`)
	f.Add(")", `{"table":"t000","seq":99999999999999999999999}`)
	f.Fuzz(func(t *testing.T, stat, wall string) {
		statTicks(stat)
		if got := probeSeq([]byte(wall), "t000"); got < 0 {
			t.Errorf("probeSeq(%q) = %d", wall, got)
		}
	})
}
