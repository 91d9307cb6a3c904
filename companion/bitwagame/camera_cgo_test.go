//go:build cgo

package bitwagame_test

import (
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/sztab/sztab/companion"
	"github.com/sztab/sztab/companion/bitwagame"
	"github.com/sztab/sztab/gamespec"
	"github.com/sztab/sztab/vision/synth"
)

// A Bitwa table whose camera watches the printed board and nothing else
// (no table calibration, no marker registry: `camera.board` alone): the
// real pipeline counts the board from the camera's frames and the
// referee's view shows where the count disagrees with the state (the
// board is bare while the game has units on its lines).
func TestBoardOnlyCameraDesyncs(t *testing.T) {
	dir := t.TempDir()
	d, err := gamespec.Games{bitwagame.Spec}.Boards().Builtin(bitwagame.ID)
	if err != nil {
		t.Fatal(err)
	}
	cam, err := synth.SavedBoard(d, filepath.Join(dir, "board.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	frames := filepath.Join(dir, "frames")
	os.Mkdir(frames, 0o755)
	for i := range 4 { // a bare board, still
		im, err := synth.RenderBoard(&synth.BoardScene{Def: d, Camera: cam, Noise: 2}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(frames, fmt.Sprintf("%02d.png", i)))
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, im.RGBA())
		f.Close()
	}
	cfg := demoTable(t, dir, false)
	data, err := os.ReadFile(cfg.Path())
	if err != nil {
		t.Fatal(err)
	}
	text := string(data) + "\ncamera:\n  source: frames\n  board: board.yaml\n  still_frames: 3\n  loop: true\n"
	cfg, err = companion.ParseConfig(cfg.Path(), []byte(strings.Replace(text, `listen: "127.0.0.1:1884"`, `listen: "127.0.0.1:0"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg)
	defer r.Stop(t)

	var mu sync.Mutex
	var desync []string
	c := paho.NewClient(paho.NewClientOptions().AddBroker("tcp://" + r.D.BrokerAddr()).
		SetClientID("referee-screen").SetUsername("sedzia").SetPassword("sedzia"))
	if tok := c.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("connect: %v", tok.Error())
	}
	defer c.Disconnect(50)
	tok := c.Subscribe("sztab/v1/demo/stol-1/referee/state", 1, func(_ paho.Client, m paho.Message) {
		var st struct {
			Desync []struct {
				Text json.RawMessage `json:"text"`
			} `json:"desync"`
		}
		json.Unmarshal(m.Payload(), &st)
		mu.Lock()
		defer mu.Unlock()
		desync = desync[:0]
		for _, d := range st.Desync {
			desync = append(desync, string(d.Text))
		}
	})
	if !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
		t.Fatalf("subscribe: %v", tok.Error())
	}
	// The camera's snapshot republishes the referee's view.
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(desync, "\n")
		mu.Unlock()
		if strings.Contains(got, "kamera widzi 0 Oddz.") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no desync from the bare board in the referee's view; desync: %q", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
