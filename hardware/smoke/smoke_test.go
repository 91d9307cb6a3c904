//go:build hardware

package smoke

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
	"periph.io/x/conn/v3/conntest"
	"periph.io/x/conn/v3/spi"
	"periph.io/x/conn/v3/spi/spitest"

	"github.com/sztab/sztab/hardware"
)

var (
	configPath = flag.String("config", "/etc/sztab/table.yaml", "table config whose hardware section names the devices")
	readerName = flag.String("reader", "", "reader to test (default: all)")
	wait       = flag.Duration("wait", 20*time.Second, "how long to wait for the person at the table")
	recordDir  = flag.String("record", "", "write each reader's SPI traffic to DIR/<reader>.txt")
)

// recording wraps the real registry and records every SPI port's traffic.
type recording struct {
	hardware.Registry
	ports map[string]*spitest.Record
}

func (r *recording) SPI(name string) (spi.PortCloser, error) {
	p, err := r.Registry.SPI(name)
	if err != nil {
		return nil, err
	}
	rec := &spitest.Record{Port: p}
	r.ports[name] = rec
	return rec, nil
}

func open(t *testing.T) (*hardware.Devices, *recording) {
	t.Helper()
	data, err := os.ReadFile(*configPath)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Hardware hardware.Config `yaml:"hardware"`
	}
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f.Hardware.BaseDir = filepath.Dir(*configPath)
	if err := hardware.HostInit(); err != nil {
		t.Fatal(err)
	}
	rec := &recording{Registry: hardware.PeriphRegistry(), ports: map[string]*spitest.Record{}}
	d, err := hardware.OpenWith(f.Hardware, rec, nil, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Missing() {
		t.Errorf("missing: %s", m)
	}
	t.Cleanup(func() { d.Close() })
	return d, rec
}

func TestReaders(t *testing.T) {
	d, rec := open(t)
	for _, name := range d.ReaderNames() {
		if *readerName != "" && name != *readerName {
			continue
		}
		t.Run(name, func(t *testing.T) {
			r, _ := d.Reader(name)
			ctx, cancel := context.WithTimeout(context.Background(), *wait)
			defer cancel()
			t.Logf("place a card on reader %s, leave it for two seconds, take it off", name)
			var present, removed int
			var uid string
			err := r.Run(ctx, func(e hardware.TagEvent) {
				t.Logf("event: %+v", e)
				switch {
				case e.Fault != nil:
				case e.Present:
					present++
					uid = e.UID
				default:
					removed++
					cancel()
				}
			})
			if err != context.Canceled {
				t.Errorf("Run: %v (no card seen and taken off in %v?)", err, *wait)
			}
			if present != 1 || removed != 1 {
				t.Errorf("got %d present and %d removed events for %s, want one each", present, removed, uid)
			}
		})
	}
	if *recordDir != "" {
		for port, r := range rec.ports {
			if err := writeOps(filepath.Join(*recordDir, strings.ReplaceAll(port, ".", "_")+".txt"), r.Ops); err != nil {
				t.Error(err)
			}
		}
	}
}

func writeOps(path string, ops []conntest.IO) error {
	var b strings.Builder
	b.WriteString("# MFRC522 SPI traffic captured from a chip by hardware/smoke (x W R, hex)\n")
	for _, op := range ops {
		fmt.Fprintf(&b, "x %X %X\n", op.W, op.R)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func TestKeypads(t *testing.T) {
	d, _ := open(t)
	for i, k := range d.Keypads() {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), *wait)
			defer cancel()
			t.Logf("press each key of keypad %d once, then hold one for a second", i)
			n := 0
			_ = k.Run(ctx, func(e hardware.KeyEvent) {
				t.Logf("event: %+v", e)
				n++
			})
			if n == 0 {
				t.Errorf("no key seen in %v", *wait)
			}
		})
	}
}

func TestOutputs(t *testing.T) {
	d, _ := open(t)
	o := d.Outputs()
	for _, s := range []hardware.Status{{Ready: true}, {Ready: true, Turn: 1}, {Ready: true, Turn: 2}, {}} {
		t.Logf("status %+v", s)
		if err := o.Status(s); err != nil {
			t.Error(err)
		}
		time.Sleep(time.Second)
	}
	t.Log("illegal: blink and beep")
	if err := o.Illegal(); err != nil {
		t.Error(err)
	}
	for _, name := range d.Panel().DisplayNames() {
		for _, text := range []string{"8888", "12:07", "Ania 12\nBartek 9"} {
			if err := o.Score(name, text); err != nil {
				t.Logf("display %s, %q: %v", name, text, err)
			}
			time.Sleep(time.Second)
		}
	}
}
