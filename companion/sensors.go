package companion

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/sztab/sztab/companion/wire"
	"github.com/sztab/sztab/hardware"
	"github.com/sztab/sztab/hardware/sim"
	"github.com/sztab/sztab/rules"
	"github.com/sztab/sztab/vision"
)

// startSensors starts the table's devices (real, simulated and the camera),
// each sending its events into the daemon's one input channel until parent
// ends or stop is called; stop waits for them and closes them. On an error
// what was started is stopped.
func (d *Daemon) startSensors(parent context.Context) (stop func(), err error) {
	ctx, cancel := context.WithCancel(parent)
	var wg sync.WaitGroup
	var closers []func() error
	stop = func() {
		cancel()
		wg.Wait()
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	defer func() {
		if err != nil {
			stop()
		}
	}()
	sink := inputSink{ctx: ctx, ch: d.inputs, backlog: &d.backlog}
	if d.cfg.Hardware.Real() {
		devs, err := hardware.Open(d.cfg.Hardware, d.log)
		if err != nil {
			return stop, err
		}
		closers = append(closers, devs.Close)
		// The loop that accepts inputs has not started: the table is ours.
		for _, m := range devs.Missing() {
			d.table.notice(ctx, Notice{Type: wire.NoticeDeviceMissing, Device: m.Name,
				Text: rules.Textf("brak urządzenia %s %s: stół działa bez niego", "device %s %s is missing: the table runs without it", m.Kind, m.Name)}, nil)
		}
		outs := outputsSink{out: devs.Outputs(), log: d.log}
		d.sinks.add("outputs", outs)
		p := Publication{}
		d.table.addOutputs(&p)
		outs.Send(p)
		for _, r := range devs.Readers() {
			wg.Add(1)
			go func() { defer wg.Done(); r.Run(ctx, sink.Tag) }()
		}
		for _, k := range devs.Keypads() {
			wg.Add(1)
			go func() { defer wg.Done(); k.Run(ctx, sink.Key) }()
		}
	}
	if d.cfg.Camera != nil {
		// The camera counts pieces on its game's printed board, which the
		// game's spec names.
		camCfg := *d.cfg.Camera
		camCfg.Boards = Games{d.table.spec}.Boards()
		cam, err := vision.Open(camCfg, d.log)
		if err != nil {
			return stop, err
		}
		closers = append(closers, cam.Close)
		// The camera's goroutine hands a snapshot's image to OnImage, then
		// the snapshot to Run's function: the image goes with its snapshot.
		var img []byte
		cam.OnImage(func(jpeg []byte) { img = jpeg; d.setImage(jpeg) })
		d.metrics.camera(cam.Stats)
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cam.Run(ctx, func(sn vision.Snapshot) {
				jpeg := img
				img = nil
				sink.send(Input{Snapshot: &sn, Image: jpeg})
			})
			if err != nil {
				d.log.Error("camera stopped", "err", err)
			}
		}()
	}
	if d.cfg.Hardware.Simulated != "" {
		script, err := sim.Load(d.cfg.Resolve(d.cfg.Hardware.Simulated))
		if err != nil {
			return stop, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := sim.Player{Speed: d.opts.SimSpeed, Narrate: func(_ int, text string) {
				if d.opts.Narrate != nil {
					d.opts.Narrate(text)
				}
			}}
			if err := p.Play(ctx, script, sink); err != nil && !errors.Is(err, context.Canceled) {
				d.log.Error("simulated table stopped", "err", err)
			}
		}()
	}
	return stop, nil
}

// inputSink feeds the devices, real and simulated, into the daemon. The
// table's own keypads send as the table: their answers are public.
type inputSink struct {
	ctx     context.Context
	ch      chan<- Input
	backlog *atomic.Int64
}

func (s inputSink) send(in Input) {
	s.backlog.Add(1)
	select {
	case s.ch <- in:
	case <-s.ctx.Done():
		s.backlog.Add(-1)
	}
}
func (s inputSink) Tag(e hardware.TagEvent) { s.send(Input{Tag: &e}) }
func (s inputSink) Key(e hardware.KeyEvent) {
	s.send(Input{Key: &e, Args: e.Args, From: Sender{Kind: wire.Keys, Audience: wire.Public}})
}
func (s inputSink) Snapshot(sn vision.Snapshot) { s.send(Input{Snapshot: &sn}) }
